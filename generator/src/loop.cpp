// loop.cpp - the per-(overload, attempt) state machine with budgets and a full run log.
#include "opforge/generator/loop.h"

#include <algorithm>
#include <chrono>
#include <optional>

#include "opforge/generator/extract.h"
#include "opforge/generator/taxonomy.h"
#include "opforge/support/error.h"

namespace opforge::generator {

std::string state_name(State s) {
  switch (s) {
    case State::Generate:
      return "generate";
    case State::Lint:
      return "lint";
    case State::Compile:
      return "compile";
    case State::Run:
      return "run";
    case State::Verify:
      return "verify";
    case State::Feedback:
      return "feedback";
    case State::Done:
      return "done";
    case State::Failed:
      return "failed";
  }
  return "?";
}

double pass_at_k(int n, int c, int k) {
  if (n <= 0 || k <= 0 || k > n) return 0.0;
  if (n - c < k) return 1.0;
  double fail = 1.0;
  for (int i = n - c + 1; i <= n; ++i) fail *= 1.0 - static_cast<double>(k) / i;
  return 1.0 - fail;
}

namespace {

using Clock = std::chrono::steady_clock;

struct Attempt {
  AttemptResult result;
  State state = State::Generate;
  int dialog = 0;
  int call = 0;  // model calls made in the current dialog
  std::vector<ChatMessage> messages;
  std::unique_ptr<KernelEvaluator> evaluator;
  Clock::time_point start;
  std::string last_code;  // the last candidate's source (carried into a new dialog)
  // The previous turn's failure in this dialog (a repeat is not restated).
  std::optional<std::pair<Stage, Failure>> previous;
};

State state_of(Stage s) {
  switch (s) {
    case Stage::Lint:
      return State::Lint;
    case Stage::Compile:
      return State::Compile;
    case Stage::Run:
      return State::Run;
    case Stage::Verify:
      return State::Verify;
  }
  return State::Failed;
}

class Machine {
 public:
  Machine(const OverloadJob &job, const PromptTemplates &templates, Provider &provider, RunLog &log,
          const LoopOptions &options)
      : job_(job), templates_(templates), provider_(provider), log_(log), opts_(options) {}

  std::vector<AttemptResult> run() {
    std::vector<Attempt> attempts(static_cast<size_t>(std::max(1, opts_.k)));
    for (size_t i = 0; i < attempts.size(); ++i) {
      auto &a = attempts[i];
      a.result.attempt = static_cast<int>(i);
      a.evaluator = job_.make_evaluator();
      a.start = Clock::now();
      a.result.dialogs = 1;
      a.messages = first_turn("");
    }
    while (true) {
      std::vector<Attempt *> generating;
      for (auto &a : attempts) {
        if (a.state != State::Generate) continue;
        if (!check_budget(a)) continue;
        generating.push_back(&a);
      }
      if (generating.empty()) break;
      std::vector<ChatRequest> requests;
      for (auto *a : generating) {
        ChatRequest req;
        req.key = key(*a);
        req.messages = a->messages;
        req.seed = opts_.seed + static_cast<uint64_t>(a->result.attempt);
        auto rec = base(*a, "prompt");
        rec["messages"] = messages_json(a->messages);
        rec["seed"] = req.seed;
        log_.append(rec);
        requests.push_back(std::move(req));
      }
      auto replies = provider_.complete(requests);
      if (replies.size() != requests.size())
        throw Error("provider returned a wrong number of replies");
      for (size_t i = 0; i < generating.size(); ++i) step(*generating[i], replies[i]);
    }
    std::vector<AttemptResult> out;
    for (auto &a : attempts) out.push_back(a.result);
    return out;
  }

 private:
  const OverloadJob &job_;
  const PromptTemplates &templates_;
  Provider &provider_;
  RunLog &log_;
  const LoopOptions &opts_;

  std::vector<ChatMessage> first_turn(const std::string &feedback) const {
    PromptContext ctx = job_.context;
    ctx.feedback = feedback;
    return templates_.first_turn(ctx);
  }

  CallKey key(const Attempt &a) const {
    return {job_.overload, a.result.attempt, a.dialog, a.call};
  }

  nlohmann::json base(const Attempt &a, const std::string &event) const {
    return {{"event", event},
            {"overload", job_.overload},
            {"attempt", a.result.attempt},
            {"dialog", a.dialog},
            {"call", a.call}};
  }

  static nlohmann::json messages_json(const std::vector<ChatMessage> &msgs) {
    nlohmann::json arr = nlohmann::json::array();
    for (const auto &m : msgs) arr.push_back({{"role", m.role}, {"content", m.content}});
    return arr;
  }

  void transition(Attempt &a, State to, const std::string &why = {}) {
    auto rec = base(a, "transition");
    rec["from"] = state_name(a.state);
    rec["to"] = state_name(to);
    if (!why.empty()) rec["reason"] = why;
    log_.append(rec);
    a.state = to;
  }

  void fail(Attempt &a, const std::string &reason) {
    a.result.reason = reason;
    transition(a, State::Failed, reason);
    a.result.final_state = State::Failed;
    auto rec = base(a, "verdict");
    rec["state"] = "failed";
    rec["reason"] = reason;
    if (!a.result.last_failure_class.empty()) rec["failure_class"] = a.result.last_failure_class;
    rec["model_calls"] = a.result.model_calls;
    add_call_counts(rec, a.result);
    log_.append(rec);
  }

  // Starts a new dialog when the current one is used up; false when the attempt ended.
  bool check_budget(Attempt &a) {
    double elapsed_s = std::chrono::duration<double>(Clock::now() - a.start).count();
    if (elapsed_s > opts_.budget.max_wall_s) {
      fail(a,
           "budget: wall-clock limit of " + std::to_string(opts_.budget.max_wall_s) + " s reached");
      return false;
    }
    if (a.call < opts_.budget.max_calls_per_dialog) return true;
    if (a.dialog + 1 >= opts_.budget.max_dialogs) {
      fail(a, "budget: " + std::to_string(opts_.budget.max_dialogs) + " dialogs of " +
                  std::to_string(opts_.budget.max_calls_per_dialog) + " model calls used");
      return false;
    }
    ++a.dialog;
    a.call = 0;
    ++a.result.dialogs;
    a.messages = first_turn(carried_section(a.last_code, a.result.last_feedback));
    a.previous.reset();  // the new dialog has not seen it: the next feedback is whole
    auto rec = base(a, "dialog_start");
    rec["carried_feedback"] = a.result.last_feedback;
    rec["carried_code"] = !a.last_code.empty();
    log_.append(rec);
    return true;
  }

  void step(Attempt &a, const ChatReply &reply) {
    ++a.result.model_calls;
    for (const auto &r : reply.retries) {
      auto retry = base(a, "retry");
      retry["try"] = r.try_number;
      retry["cause"] = r.cause;
      retry["http_status"] = r.http_status;
      retry["delay_ms"] = r.delay_ms;
      retry["error"] = r.error;
      log_.append(retry);
    }
    auto rec = base(a, "response");
    rec["status"] = status_name(reply.status);
    rec["text"] = reply.text;
    if (!reply.error.empty()) rec["error"] = reply.error;
    rec["http_status"] = reply.http_status;
    rec["tries"] = reply.tries;
    rec["latency_ms"] = reply.latency_ms;
    rec["model"] = reply.model;
    log_.append(rec);
    if (!reply.ok()) {
      fail(a, "provider: " + status_name(reply.status) + ": " + reply.error);
      return;
    }
    std::string code = extract_code(reply.text);
    if (code.empty()) {
      Failure f;
      f.kind = Failure::Kind::NoCode;
      f.message = "the reply contained no python code block";
      feedback(a, reply, Stage::Lint, f);
      return;
    }
    a.last_code = code;
    auto code_rec = base(a, "candidate");
    // The code is stored once: where the reply holds it verbatim, as its place in the
    // response record's text.
    if (size_t at = reply.text.find(code); at != std::string::npos) {
      code_rec["source_offset"] = at;
      code_rec["source_length"] = code.size();
    } else {
      code_rec["source"] = code;
    }
    log_.append(code_rec);
    std::string path = job_.context.wrapper + ".py";
    a.result.calls_checked = a.result.calls_failed = a.result.calls_recorded = 0;
    a.result.cut.clear();
    a.evaluator->begin(path, code, job_.context.wrapper);
    for (Stage s : {Stage::Lint, Stage::Compile, Stage::Run, Stage::Verify}) {
      transition(a, state_of(s));
      StageResult r = a.evaluator->run_stage(s);
      auto d = base(a, "diagnostic");
      d["stage"] = stage_name(s);
      d["ok"] = r.ok;
      d["wall_ms"] = r.wall_ms;
      if (s == Stage::Verify) {
        a.result.calls_checked = r.calls_checked;
        a.result.calls_failed = r.calls_failed;
        a.result.calls_recorded = std::max(r.calls_recorded, r.calls_checked);
        a.result.cut = r.cut;
        add_call_counts(d, a.result);
      }
      if (!r.ok) {
        d["failure"] = failure_to_json(r.failure);
        const auto c = classify_failure(stage_name(s), d["failure"]);
        d["failure_class"] = failure_class_name(c.cls);
        d["failure_class_reason"] = c.reason;
        a.result.last_failure_class = failure_class_name(c.cls);
      }
      log_.append(d);
      if (!r.ok) {
        feedback(a, reply, s, r.failure);
        return;
      }
    }
    transition(a, State::Done);
    a.result.final_state = State::Done;
    a.result.source = code;
    auto v = base(a, "verdict");
    v["state"] = "done";
    v["model_calls"] = a.result.model_calls;
    add_call_counts(v, a.result);
    v["partial"] = a.result.partial();
    log_.append(v);
  }

  static void add_call_counts(nlohmann::json &rec, const AttemptResult &r) {
    rec["calls_checked"] = r.calls_checked;
    rec["calls_failed"] = r.calls_failed;
    rec["calls_recorded"] = r.calls_recorded;
    if (!r.cut.empty()) rec["cut"] = r.cut;
  }

  void feedback(Attempt &a, const ChatReply &reply, Stage stage, const Failure &f) {
    transition(a, State::Feedback, failure_kind_name(f.kind));
    // The whole summary is kept for a new dialog; the turn says "same failure" when it is.
    const std::string whole = summarize_failure(stage, f, opts_.feedback);
    const bool repeated =
        a.previous && same_failure(stage, f, a.previous->first, a.previous->second);
    const std::string text =
        repeated ? summarize_repeated_failure(stage, f, a.previous->second, opts_.feedback) : whole;
    a.previous.emplace(stage, f);
    a.result.last_feedback = whole;
    std::string first_line = f.message.substr(0, f.message.find('\n'));
    a.result.last_failure = failure_kind_name(f.kind) + ": " + first_line +
                            (f.call_summary.empty() ? "" : " [call " + f.call_summary + "]");
    PromptContext ctx = job_.context;
    ctx.feedback = text;
    a.messages.push_back({"assistant", reply.text});
    a.messages.push_back(templates_.feedback_turn(ctx));
    auto rec = base(a, "feedback");
    rec["stage"] = stage_name(stage);
    rec["kind"] = failure_kind_name(f.kind);
    const auto cls = classify_failure(stage_name(stage), failure_to_json(f));
    rec["failure_class"] = failure_class_name(cls.cls);
    if (f.kind == Failure::Kind::NoCode) a.result.last_failure_class = failure_class_name(cls.cls);
    rec["text"] = text;
    rec["repeated"] = repeated;
    log_.append(rec);
    ++a.call;
    transition(a, State::Generate);
  }
};

}  // namespace

std::vector<AttemptResult> run_overload(const OverloadJob &job, const PromptTemplates &templates,
                                        Provider &provider, RunLog &log,
                                        const LoopOptions &options) {
  log.append({{"event", "overload_start"},
              {"overload", job.overload},
              {"k", options.k},
              {"provider", provider.name()},
              {"model", provider.model()},
              {"budget",
               {{"max_dialogs", options.budget.max_dialogs},
                {"max_calls_per_dialog", options.budget.max_calls_per_dialog},
                {"max_wall_s", options.budget.max_wall_s}}}});
  Machine m(job, templates, provider, log, options);
  auto results = m.run();
  int passed = 0;
  for (const auto &r : results) passed += r.final_state == State::Done;
  log.append({{"event", "overload_end"},
              {"overload", job.overload},
              {"attempts", results.size()},
              {"passed", passed}});
  return results;
}

}  // namespace opforge::generator
