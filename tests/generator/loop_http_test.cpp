//===- loop_http_test.cpp - the generation loop against a loopback OpenAI-compatible server ===//
//
// A real HTTP server (cpp-httplib) on an ephemeral loopback port plays the
// chat-completions endpoint; the openai provider (libcurl) talks to it; the
// real evaluator lints, parses, runs the wrapper on the IR interpreter and
// verifies aten::add.Tensor calls whose expected outputs are computed here.
// The run log is read back from disk to check that nothing was lost, and
// replayed to check that a run reproduces exactly.
//
//===----------------------------------------------------------------------===//
#include <gtest/gtest.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>
#include <httplib.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <functional>
#include <mutex>
#include <random>
#include <set>
#include <sstream>
#include <thread>

#include "opforge/compiler/capability.h"
#include "opforge/generator/loop.h"
#include "opforge/generator/openai_provider.h"
#include "opforge/generator/replay_provider.h"
#include "opforge/harness/judge.h"
#include "opforge/support/log.h"
#include "loopback_endpoint.h"

using namespace opforge;
using namespace opforge::generator;
using nlohmann::json;
using opforge::test::completion;
using opforge::test::config_for;
using opforge::test::fenced;
using opforge::test::LoopbackEndpoint;

namespace {

std::string read_kernel(const std::string &name) {
  std::ifstream in(std::string(OPFORGE_SOURCE_DIR) + "/tests/generator/kernels/" + name);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

HostTensor random_f32(std::vector<int64_t> sizes, uint32_t seed) {
  HostTensor t(DType::Float32, std::move(sizes));
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> u(-2.f, 2.f);
  for (int64_t i = 0; i < t.numel(); ++i) t.set_double(i, u(rng));
  return t;
}

// aten::add.Tensor(x, y, alpha=2) calls with outputs computed on the host in float32.
std::vector<harness::Call> add_calls() {
  std::vector<harness::Call> calls;
  int64_t idx = 0;
  for (int64_t n : {5, 1000}) {
    HostTensor x = random_f32({n}, 10 + static_cast<uint32_t>(n)),
               y = random_f32({n}, 20 + static_cast<uint32_t>(n));
    HostTensor out(DType::Float32, {n});
    for (int64_t i = 0; i < n; ++i)
      out.set_double(i, static_cast<float>(static_cast<float>(x.get_double(i)) +
                                           2.0f * static_cast<float>(y.get_double(i))));
    harness::Call c;
    c.overload = "aten::add.Tensor";
    c.opinfo = "add";
    c.dtype = DType::Float32;
    c.index = idx++;
    c.args = {harness::Value::of_tensor(x), harness::Value::of_tensor(y)};
    c.kwargs = {{"alpha", harness::Value::of_int(2)}};
    c.out = harness::Value::of_tensor(out);
    calls.push_back(c);
  }
  return calls;
}

OverloadJob add_job() {
  OverloadJob job;
  job.overload = "aten::add.Tensor";
  job.context.overload = job.overload;
  job.context.wrapper = wrapper_name(job.overload);
  job.context.schema = "add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor";
  job.context.docstring = "Adds other, scaled by alpha, to input.";
  job.context.category = "pointwise";
  job.context.dtypes = "float32";
  job.context.target_constraints = compiler::describe(compiler::mtia_capabilities());
  job.make_evaluator = [] {
    harness::JudgeOptions j;
    j.calls = add_calls();
    EvaluatorOptions o;
    o.judge = harness::corpus_judge_factory(std::move(j));
    return make_reference_evaluator(std::move(o));
  };
  return job;
}

std::string temp_log(const std::string &name) {
  auto dir =
      std::filesystem::temp_directory_path() / ("opforge-gen-test-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  auto p = dir / (name + ".jsonl");
  std::filesystem::remove(p);
  return p.string();
}

std::vector<json> events(const std::vector<json> &recs, const std::string &event) {
  std::vector<json> out;
  for (const auto &r : recs)
    if (r.value("event", "") == event) out.push_back(r);
  return out;
}

// The log on disk holds every record written, in order, with consecutive sequence numbers.
void expect_log_complete(const RunLog &log) {
  auto disk = read_runlog(log.path());
  auto mem = log.records();
  ASSERT_EQ(disk.size(), mem.size());
  for (size_t i = 0; i < disk.size(); ++i) {
    EXPECT_EQ(disk[i]["seq"].get<int64_t>(), static_cast<int64_t>(i));
    EXPECT_EQ(disk[i], mem[i]);
  }
}

std::string last_user_message(const json &body) {
  return body["messages"].back()["content"].get<std::string>();
}

std::vector<AttemptResult> run_job(Provider &p, RunLog &log, LoopOptions opts = {}) {
  auto templates = PromptTemplates::load(PromptTemplates::default_dir());
  return run_overload(add_job(), templates, p, log, opts);
}

}  // namespace

TEST(GenerationLoopHttp, LintThenMismatchThenCorrectIsDoneInThreeCallsWithFeedback) {
  const std::vector<std::string> replies = {fenced(read_kernel("add_float64.py")),
                                            fenced(read_kernel("add_wrong_sign.py")),
                                            fenced(read_kernel("add_correct.py"))};
  LoopbackEndpoint ep([&](int n, const httplib::Request &, httplib::Response &res) {
    res.set_content(completion(replies.at(static_cast<size_t>(n))).dump(), "application/json");
  });
  ::setenv("OPFORGE_TEST_LOOPBACK_KEY", "sk-loopback-secret", 1);
  std::string path = temp_log("three_calls");
  {
    RunLog log(path);
    auto provider = make_openai_provider(config_for(ep));
    auto results = run_job(*provider, log);
    ASSERT_EQ(results.size(), 1u);
    EXPECT_EQ(results[0].final_state, State::Done) << results[0].reason;
    EXPECT_EQ(results[0].model_calls, 3);
    EXPECT_EQ(results[0].source, read_kernel("add_correct.py"));
    expect_log_complete(log);
  }
  ::unsetenv("OPFORGE_TEST_LOOPBACK_KEY");

  auto bodies = ep.bodies();
  ASSERT_EQ(bodies.size(), 3u);
  EXPECT_EQ(bodies[0]["model"], "loopback-model");
  EXPECT_EQ(bodies[0]["messages"].size(), 2u);  // system + task
  EXPECT_NE(bodies[0]["messages"][1]["content"].get<std::string>().find("add.Tensor(Tensor self"),
            std::string::npos);
  EXPECT_EQ(ep.auth()[0], "Bearer sk-loopback-secret");
  // 2nd request: the conversation so far + the lint feedback.
  ASSERT_EQ(bodies[1]["messages"].size(), 4u);
  EXPECT_EQ(bodies[1]["messages"][2]["role"], "assistant");
  std::string fb1 = last_user_message(bodies[1]);
  EXPECT_NE(fb1.find("stage: lint"), std::string::npos) << fb1;
  EXPECT_NE(fb1.find("OPF002"), std::string::npos) << fb1;
  EXPECT_NE(fb1.find("float64"), std::string::npos) << fb1;
  EXPECT_NE(fb1.find("line 12"), std::string::npos) << fb1;
  EXPECT_NE(fb1.find("^"), std::string::npos) << fb1;  // caret under the first error
  // 3rd request: the numerical mismatch with statistics and the failing call.
  ASSERT_EQ(bodies[2]["messages"].size(), 6u);
  std::string fb2 = last_user_message(bodies[2]);
  EXPECT_NE(fb2.find("stage: verify"), std::string::npos) << fb2;
  EXPECT_NE(fb2.find("failure: mismatch"), std::string::npos) << fb2;
  EXPECT_NE(fb2.find("max abs error"), std::string::npos) << fb2;
  EXPECT_NE(fb2.find("worst index: ["), std::string::npos) << fb2;
  EXPECT_NE(fb2.find("failing call #0: aten::add.Tensor(f32[5]"), std::string::npos) << fb2;
  EXPECT_EQ(fb2.find("OPF002"), std::string::npos) << fb2;

  auto recs = read_runlog(path);
  // The key never reaches the log.
  for (const auto &r : recs) EXPECT_EQ(r.dump().find("sk-loopback-secret"), std::string::npos);
  auto fbs = events(recs, "feedback");
  ASSERT_EQ(fbs.size(), 2u);
  EXPECT_EQ(fbs[0]["kind"], "lint");
  EXPECT_EQ(fbs[1]["kind"], "mismatch");
  auto verdicts = events(recs, "verdict");
  ASSERT_EQ(verdicts.size(), 1u);
  EXPECT_EQ(verdicts[0]["state"], "done");
  // Transitions of call 2: feedback -> generate (logged once the call count moved on), then
  // lint -> compile -> run -> verify -> done.
  std::vector<std::string> last_path;
  for (const auto &t : events(recs, "transition"))
    if (t["call"] == 2) last_path.push_back(t["to"].get<std::string>());
  EXPECT_EQ(last_path,
            (std::vector<std::string>{"generate", "lint", "compile", "run", "verify", "done"}));

  // Replay: the same run, reproduced from the log without a server.
  RunLog replay_log;  // in memory
  auto replay = make_replay_provider(path);
  auto rr = run_job(*replay, replay_log);
  ASSERT_EQ(rr.size(), 1u);
  EXPECT_EQ(rr[0].final_state, State::Done);
  EXPECT_EQ(rr[0].model_calls, 3);
  auto again = replay_log.records();
  ASSERT_EQ(again.size(), recs.size());
  for (size_t i = 0; i < recs.size(); ++i) {
    json a = stable_record(recs[i]), b = stable_record(again[i]);
    if (a["event"] == "overload_start") {
      a.erase("provider");
      b.erase("provider");
    }
    EXPECT_EQ(a, b) << "record " << i;
  }
}

// A type error inside a @triton.jit kernel is found by Compile (the kernels compiled for the
// recorded calls' signatures), not by Run: the feedback and the run log say `compile` and
// name the kernel's file:line:col, and no call ran.
TEST(GenerationLoopHttp, AKernelTypeErrorIsACompileFailureInTheRunLog) {
  const std::vector<std::string> replies = {fenced(read_kernel("add_shape_error.py")),
                                            fenced(read_kernel("add_correct.py"))};
  LoopbackEndpoint ep([&](int n, const httplib::Request &, httplib::Response &res) {
    res.set_content(completion(replies.at(static_cast<size_t>(n))).dump(), "application/json");
  });
  ::setenv("OPFORGE_TEST_LOOPBACK_KEY", "sk-loopback-secret", 1);
  std::string path = temp_log("compile_error");
  {
    RunLog log(path);
    auto provider = make_openai_provider(config_for(ep));
    auto results = run_job(*provider, log);
    ASSERT_EQ(results.size(), 1u);
    EXPECT_EQ(results[0].final_state, State::Done) << results[0].reason;
    EXPECT_EQ(results[0].model_calls, 2);
  }
  ::unsetenv("OPFORGE_TEST_LOOPBACK_KEY");
  auto recs = read_runlog(path);
  auto fbs = events(recs, "feedback");
  ASSERT_EQ(fbs.size(), 1u);
  EXPECT_EQ(fbs[0]["kind"], "compile") << fbs[0].dump();
  const std::string fb = last_user_message(ep.bodies().at(1));
  EXPECT_NE(fb.find("stage: compile"), std::string::npos) << fb;
  EXPECT_NE(fb.find(":15:33"), std::string::npos) << fb;  // the kernel's statement, not the launch
  EXPECT_NE(fb.find("make_shape_compatible"), std::string::npos) << fb;
  EXPECT_NE(fb.find("^"), std::string::npos) << fb;
  // The first candidate went lint -> compile -> feedback: Run never started.
  std::vector<std::string> first_path;
  for (const auto &t : events(recs, "transition"))
    if (t["call"] == 0) first_path.push_back(t["to"].get<std::string>());
  EXPECT_EQ(std::count(first_path.begin(), first_path.end(), "run"), 0)
      << ::testing::PrintToString(first_path);
  EXPECT_EQ(std::count(first_path.begin(), first_path.end(), "compile"), 1)
      << ::testing::PrintToString(first_path);
}

TEST(GenerationLoopHttp, TooManyRequestsIsRetriedThenSucceeds) {
  LoopbackEndpoint ep([&](int n, const httplib::Request &, httplib::Response &res) {
    if (n == 0) {
      res.status = 429;
      res.set_header("Retry-After", "0");
      res.set_content(R"({"error":{"message":"rate limited"}})", "application/json");
      return;
    }
    res.set_content(completion(fenced(read_kernel("add_correct.py"))).dump(), "application/json");
  });
  std::string path = temp_log("429");
  RunLog log(path);
  auto provider = make_openai_provider(config_for(ep));
  auto results = run_job(*provider, log);
  EXPECT_EQ(results[0].final_state, State::Done) << results[0].reason;
  EXPECT_EQ(results[0].model_calls, 1);
  EXPECT_EQ(ep.bodies().size(), 2u);
  auto responses = events(read_runlog(path), "response");
  ASSERT_EQ(responses.size(), 1u);
  EXPECT_EQ(responses[0]["status"], "ok");
  EXPECT_EQ(responses[0]["tries"], 2);
  EXPECT_EQ(responses[0]["http_status"], 200);
  expect_log_complete(log);
}

TEST(GenerationLoopHttp, ServerErrorsExhaustRetriesAndFailTheAttempt) {
  LoopbackEndpoint ep([&](int, const httplib::Request &, httplib::Response &res) {
    res.status = 500;
    res.set_content("internal error", "text/plain");
  });
  std::string path = temp_log("500");
  RunLog log(path);
  auto cfg = config_for(ep);
  cfg.max_retries = 2;
  auto provider = make_openai_provider(cfg);
  auto results = run_job(*provider, log);
  EXPECT_EQ(results[0].final_state, State::Failed);
  EXPECT_NE(results[0].reason.find("http_error"), std::string::npos) << results[0].reason;
  EXPECT_NE(results[0].reason.find("HTTP 500"), std::string::npos) << results[0].reason;
  EXPECT_EQ(ep.bodies().size(), 3u);  // first try + 2 retries
  auto recs = read_runlog(path);
  auto responses = events(recs, "response");
  ASSERT_EQ(responses.size(), 1u);
  EXPECT_EQ(responses[0]["status"], "http_error");
  EXPECT_EQ(responses[0]["tries"], 3);
  auto verdicts = events(recs, "verdict");
  ASSERT_EQ(verdicts.size(), 1u);
  EXPECT_EQ(verdicts[0]["state"], "failed");
  EXPECT_EQ(events(recs, "overload_end").size(), 1u);
  expect_log_complete(log);
}

TEST(GenerationLoopHttp, MalformedJsonFailsTheAttemptWithoutRetrying) {
  LoopbackEndpoint ep([&](int, const httplib::Request &, httplib::Response &res) {
    res.set_content("{\"choices\": [ {\"message\": ", "application/json");
  });
  std::string path = temp_log("malformed");
  RunLog log(path);
  auto provider = make_openai_provider(config_for(ep));
  auto results = run_job(*provider, log);
  EXPECT_EQ(results[0].final_state, State::Failed);
  EXPECT_NE(results[0].reason.find("malformed"), std::string::npos) << results[0].reason;
  EXPECT_EQ(ep.bodies().size(), 1u);
  auto responses = events(read_runlog(path), "response");
  ASSERT_EQ(responses.size(), 1u);
  EXPECT_EQ(responses[0]["status"], "malformed");
  expect_log_complete(log);
}

TEST(GenerationLoopHttp, ReplyWithoutCodeGetsFeedbackAndTheNextReplyPasses) {
  LoopbackEndpoint ep([&](int n, const httplib::Request &, httplib::Response &res) {
    std::string content = n == 0 ? "I would write a Triton kernel that adds the two tensors."
                                 : fenced(read_kernel("add_correct.py"));
    res.set_content(completion(content).dump(), "application/json");
  });
  std::string path = temp_log("nocode");
  RunLog log(path);
  auto provider = make_openai_provider(config_for(ep));
  auto results = run_job(*provider, log);
  EXPECT_EQ(results[0].final_state, State::Done) << results[0].reason;
  EXPECT_EQ(results[0].model_calls, 2);
  auto bodies = ep.bodies();
  ASSERT_EQ(bodies.size(), 2u);
  std::string fb = last_user_message(bodies[1]);
  EXPECT_NE(fb.find("failure: no_code"), std::string::npos) << fb;
  EXPECT_NE(fb.find("no ```python code block"), std::string::npos) << fb;
  auto fbs = events(read_runlog(path), "feedback");
  ASSERT_EQ(fbs.size(), 1u);
  EXPECT_EQ(fbs[0]["kind"], "no_code");
  expect_log_complete(log);
}

TEST(GenerationLoopHttp, SlowReplyHitsTheRequestTimeout) {
  std::atomic<bool> release{false};
  LoopbackEndpoint ep([&](int, const httplib::Request &, httplib::Response &res) {
    for (int i = 0; i < 200 && !release; ++i)
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    res.set_content(completion(fenced(read_kernel("add_correct.py"))).dump(), "application/json");
  });
  std::string path = temp_log("timeout");
  RunLog log(path);
  auto cfg = config_for(ep);
  cfg.request_timeout_s = 0.3;
  cfg.max_retries = 1;
  auto provider = make_openai_provider(cfg);
  auto results = run_job(*provider, log);
  release = true;
  EXPECT_EQ(results[0].final_state, State::Failed);
  EXPECT_NE(results[0].reason.find("timeout"), std::string::npos) << results[0].reason;
  auto responses = events(read_runlog(path), "response");
  ASSERT_EQ(responses.size(), 1u);
  EXPECT_EQ(responses[0]["status"], "timeout");
  EXPECT_EQ(responses[0]["tries"], 2);
  EXPECT_EQ(events(read_runlog(path), "verdict").size(), 1u);
  expect_log_complete(log);
}

TEST(GenerationLoopHttp, ConcurrentAttemptsShareOneBatchAndReportPassAtK) {
  std::atomic<int> in_flight{0}, max_in_flight{0};
  LoopbackEndpoint ep([&](int, const httplib::Request &, httplib::Response &res) {
    int now = ++in_flight;
    int prev = max_in_flight.load();
    while (now > prev && !max_in_flight.compare_exchange_weak(prev, now)) {
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(150));
    --in_flight;
    res.set_content(completion(fenced(read_kernel("add_correct.py"))).dump(), "application/json");
  });
  RunLog log;
  auto provider = make_openai_provider(config_for(ep));
  LoopOptions opts;
  opts.k = 3;
  auto results = run_job(*provider, log, opts);
  ASSERT_EQ(results.size(), 3u);
  for (const auto &r : results) EXPECT_EQ(r.final_state, State::Done);
  EXPECT_GE(max_in_flight.load(), 2);  // the batch went out concurrently
  auto bodies = ep.bodies();
  std::set<uint64_t> seeds;
  for (const auto &b : bodies) seeds.insert(b["seed"].get<uint64_t>());
  EXPECT_EQ(seeds.size(), 3u);
}

TEST(GenerationLoopHttp, DialogBudgetStartsFreshDialogsCarryingFeedbackThenFails) {
  LoopbackEndpoint ep([&](int, const httplib::Request &, httplib::Response &res) {
    res.set_content(completion(fenced(read_kernel("add_wrong_sign.py"))).dump(),
                    "application/json");
  });
  std::string path = temp_log("budget");
  RunLog log(path);
  auto provider = make_openai_provider(config_for(ep));
  LoopOptions opts;
  opts.budget.max_dialogs = 2;
  opts.budget.max_calls_per_dialog = 2;
  auto results = run_job(*provider, log, opts);
  EXPECT_EQ(results[0].final_state, State::Failed);
  EXPECT_EQ(results[0].model_calls, 4);
  EXPECT_EQ(results[0].dialogs, 2);
  EXPECT_NE(results[0].reason.find("budget: 2 dialogs of 2 model calls"), std::string::npos)
      << results[0].reason;
  auto bodies = ep.bodies();
  ASSERT_EQ(bodies.size(), 4u);
  EXPECT_EQ(bodies[1]["messages"].size(), 4u);  // same dialog: conversation grows
  EXPECT_EQ(bodies[2]["messages"].size(), 2u);  // new dialog: system + task again ...
  std::string task = bodies[2]["messages"][1]["content"].get<std::string>();
  EXPECT_NE(task.find("failure: mismatch"), std::string::npos)
      << task;  // ... carrying the last feedback
  auto recs = read_runlog(path);
  EXPECT_EQ(events(recs, "dialog_start").size(), 1u);
  EXPECT_EQ(events(recs, "feedback").size(), 4u);
  expect_log_complete(log);
}

// Every retry is its own run-log record (cause, HTTP status, delay) before the
// response record, and an info line on stderr.
TEST(GenerationLoopHttp, EveryRetryIsItsOwnRunLogRecordWithCauseStatusAndDelay) {
  LoopbackEndpoint ep([&](int n, const httplib::Request &, httplib::Response &res) {
    if (n == 0) {
      res.status = 429;
      res.set_header("Retry-After", "0");
      res.set_content(R"({"error":{"message":"rate limited"}})", "application/json");
      return;
    }
    if (n == 1) {
      res.status = 503;
      res.set_content("overloaded", "text/plain");
      return;
    }
    res.set_content(completion(fenced(read_kernel("add_correct.py"))).dump(), "application/json");
  });
  std::string path = temp_log("retries");
  RunLog log(path);
  auto provider = make_openai_provider(config_for(ep));
  auto level = opforge::log::level();
  opforge::log::set_level(opforge::log::Level::Info);
  ::testing::internal::CaptureStderr();
  auto results = run_job(*provider, log);
  std::string err = ::testing::internal::GetCapturedStderr();
  opforge::log::set_level(level);
  EXPECT_EQ(results[0].final_state, State::Done) << results[0].reason;
  auto recs = read_runlog(path);
  auto retries = events(recs, "retry");
  ASSERT_EQ(retries.size(), 2u);
  EXPECT_EQ(retries[0]["try"], 1);
  EXPECT_EQ(retries[0]["cause"], "http_429");
  EXPECT_EQ(retries[0]["http_status"], 429);
  EXPECT_TRUE(retries[0]["delay_ms"].is_number());
  EXPECT_EQ(retries[1]["try"], 2);
  EXPECT_EQ(retries[1]["cause"], "http_5xx");
  EXPECT_EQ(retries[1]["http_status"], 503);
  EXPECT_EQ(retries[1]["overload"], "aten::add.Tensor");
  // The retries come before the response they led to.
  auto seq_of = [&](const std::string &e) {
    for (const auto &r : recs)
      if (r["event"] == e) return r["seq"].get<int64_t>();
    return int64_t{-1};
  };
  EXPECT_LT(seq_of("retry"), seq_of("response"));
  EXPECT_EQ(events(recs, "response")[0]["tries"], 3);
  EXPECT_NE(err.find("retry"), std::string::npos) << err;
  EXPECT_NE(err.find("HTTP 429"), std::string::npos) << err;
  EXPECT_NE(err.find("HTTP 503"), std::string::npos) << err;
  expect_log_complete(log);
}

// A large reply is stored once: the candidate record points into the response.
TEST(GenerationLoopHttp, ALargeReplyIsStoredOnce) {
  std::string kernel = read_kernel("add_correct.py");
  std::string padding(2u << 20, 'x');
  kernel += "\n# " + padding + "\n";
  LoopbackEndpoint ep([&](int, const httplib::Request &, httplib::Response &res) {
    res.set_content(completion(fenced(kernel)).dump(), "application/json");
  });
  std::string path = temp_log("large");
  RunLog log(path);
  auto provider = make_openai_provider(config_for(ep));
  run_job(*provider, log);
  auto size = std::filesystem::file_size(path);
  EXPECT_LT(size, padding.size() * 3 / 2) << "the 2 MiB reply is stored more than once";
  auto candidates = events(read_runlog(path), "candidate");
  ASSERT_FALSE(candidates.empty());
  auto responses = events(read_runlog(path), "response");
  const auto &c = candidates[0];
  ASSERT_TRUE(c.contains("source_offset")) << c.dump().substr(0, 300);
  std::string text = responses[0]["text"];
  EXPECT_GT(c["source_length"].get<size_t>(), padding.size());
  EXPECT_NE(
      text.substr(c["source_offset"].get<size_t>(), c["source_length"].get<size_t>()).find(padding),
      std::string::npos);
}

namespace {

// A keep-alive HTTP/1.1 endpoint on raw sockets (httplib cannot drop a connection
// mid-request): it answers the n-th request with replies[n] (HTTP status and
// assistant content; a status other than 200 sends the content as is), except that the first
// request to arrive on a connection that already served one is dropped with a
// TCP reset, as a server that timed out an idle keep-alive connection does.
class ResettingEndpoint {
 public:
  explicit ResettingEndpoint(std::vector<std::pair<int, std::string>> replies)
      : replies_(std::move(replies)) {
    fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof a;
    if (::bind(fd_, reinterpret_cast<sockaddr *>(&a), sizeof a) != 0 || ::listen(fd_, 8) != 0 ||
        ::getsockname(fd_, reinterpret_cast<sockaddr *>(&a), &len) != 0)
      throw std::runtime_error("loopback listen failed");
    port_ = ntohs(a.sin_port);
    accept_ = std::thread([this] {
      for (;;) {
        int c = ::accept(fd_, nullptr, nullptr);
        if (c < 0) return;
        ++connections_;
        conns_.emplace_back([this, c] { serve(c); });
      }
    });
  }
  ~ResettingEndpoint() {
    ::shutdown(fd_, SHUT_RDWR);
    ::close(fd_);
    accept_.join();
    for (auto &t : conns_) t.join();
  }
  std::string base_url() const { return "http://127.0.0.1:" + std::to_string(port_) + "/v1"; }
  int connections() const { return connections_; }
  int resets() const { return resets_; }
  int answered() const { return answered_; }

 private:
  void serve(int c) {
    int served = 0;
    std::string buf;
    char chunk[4096];
    for (;;) {
      size_t head_end;
      while ((head_end = buf.find("\r\n\r\n")) == std::string::npos) {
        ssize_t n = ::recv(c, chunk, sizeof chunk, 0);
        if (n <= 0) return (void)::close(c);
        buf.append(chunk, static_cast<size_t>(n));
      }
      std::string head = buf.substr(0, head_end);
      for (auto &ch : head) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
      size_t cl = head.find("content-length:");
      size_t body_len = cl == std::string::npos ? 0 : std::stoul(head.substr(cl + 15));
      while (buf.size() < head_end + 4 + body_len) {
        ssize_t n = ::recv(c, chunk, sizeof chunk, 0);
        if (n <= 0) return (void)::close(c);
        buf.append(chunk, static_cast<size_t>(n));
      }
      buf.erase(0, head_end + 4 + body_len);
      if (served > 0 && resets_ == 0) {
        ++resets_;
        linger l{1, 0};  // close() sends RST
        ::setsockopt(c, SOL_SOCKET, SO_LINGER, &l, sizeof l);
        ::close(c);
        return;
      }
      int n = answered_++;
      const auto &[status, content] = replies_.at(static_cast<size_t>(n));
      std::string body = status == 200 ? completion(content).dump() : content;
      std::string res =
          "HTTP/1.1 " + std::to_string(status) + (status == 200 ? " OK" : " Error") +
          "\r\nContent-Type: application/json\r\nContent-Length: " + std::to_string(body.size()) +
          "\r\nConnection: keep-alive\r\n\r\n" + body;
      if (::send(c, res.data(), res.size(), MSG_NOSIGNAL) != static_cast<ssize_t>(res.size()))
        return (void)::close(c);
      ++served;
    }
  }

  std::vector<std::pair<int, std::string>> replies_;
  int fd_ = -1;
  int port_ = 0;
  std::thread accept_;
  std::vector<std::thread> conns_;
  std::atomic<int> connections_{0}, resets_{0}, answered_{0};
};

}  // namespace

// libcurl resends a request by itself when a kept-alive connection turns out to be
// dead (here: the retry after a 503 goes out on the connection that carried the 503,
// and the server has dropped it); that resend is a retry record of its own in the
// run log, after the 503's.
TEST(GenerationLoopHttp, AResetOnAReusedConnectionIsARetryRecord) {
  ResettingEndpoint ep({{503, R"({"error":{"message":"overloaded"}})"},
                        {200, fenced(read_kernel("add_correct.py"))}});
  std::string path = temp_log("reused_reset");
  RunLog log(path);
  OpenAIConfig c;
  c.base_url = ep.base_url();
  c.model = "loopback-model";
  c.request_timeout_s = 10;
  c.max_retries = 3;
  c.backoff_initial_s = 0.01;
  c.backoff_max_s = 0.05;
  auto provider = make_openai_provider(c);
  auto results = run_job(*provider, log);
  ASSERT_EQ(results.size(), 1u);
  EXPECT_EQ(results[0].final_state, State::Done) << results[0].reason;
  EXPECT_EQ(ep.resets(), 1);
  EXPECT_EQ(ep.answered(), 2);
  EXPECT_EQ(ep.connections(), 2) << "the retry went out on the kept-alive connection";
  auto recs = read_runlog(path);
  auto retries = events(recs, "retry");
  ASSERT_EQ(retries.size(), 2u);
  EXPECT_EQ(retries[0]["cause"], "http_5xx");
  EXPECT_EQ(retries[1]["cause"], "reused_connection_reset");
  EXPECT_EQ(events(recs, "response")[0]["tries"], 3);
  expect_log_complete(log);
}

// The same failure turn after turn is not restated: the feedback says so and shows what
// changed (nothing, or the new figures and values).
TEST(GenerationLoopHttp, ARepeatedFailureSaysSoAndShowsWhatChanged) {
  const std::vector<std::string> replies = {
      fenced(read_kernel("add_wrong_sign.py")), fenced(read_kernel("add_wrong_sign.py")),
      fenced(read_kernel("add_no_alpha.py")), fenced(read_kernel("add_correct.py"))};
  LoopbackEndpoint ep([&](int n, const httplib::Request &, httplib::Response &res) {
    res.set_content(completion(replies.at(static_cast<size_t>(n))).dump(), "application/json");
  });
  RunLog log;
  auto provider = make_openai_provider(config_for(ep));
  auto results = run_job(*provider, log);
  ASSERT_EQ(results.size(), 1u);
  EXPECT_EQ(results[0].final_state, State::Done) << results[0].reason;
  auto bodies = ep.bodies();
  ASSERT_EQ(bodies.size(), 4u);
  const std::string first = last_user_message(bodies[1]), same = last_user_message(bodies[2]),
                    changed = last_user_message(bodies[3]);
  EXPECT_NE(first.find("max abs error"), std::string::npos) << first;
  EXPECT_EQ(first.find("same failure as the previous turn"), std::string::npos) << first;
  // The identical candidate: the same failure, nothing changed, the figures not repeated.
  EXPECT_NE(same.find("same failure as the previous turn"), std::string::npos) << same;
  EXPECT_NE(same.find("nothing changed"), std::string::npos) << same;
  EXPECT_EQ(same.find("tolerance: atol"), std::string::npos) << same;
  // Another wrong candidate failing at the same call: what changed, old -> new.
  EXPECT_NE(changed.find("same failure as the previous turn"), std::string::npos) << changed;
  EXPECT_NE(changed.find("max abs error: "), std::string::npos) << changed;
  EXPECT_NE(changed.find(" -> "), std::string::npos) << changed;
  EXPECT_EQ(changed.find("nothing changed"), std::string::npos) << changed;
}

// A new dialog starts from the first prompt with a headed section holding the previous
// dialog's failing code and its last feedback (in full, not as a "same failure" note).
TEST(GenerationLoopHttp, ANewDialogCarriesTheFailingCodeAndItsFeedbackInAHeadedSection) {
  const std::vector<std::string> replies = {fenced(read_kernel("add_wrong_sign.py")),
                                            fenced(read_kernel("add_wrong_sign.py")),
                                            fenced(read_kernel("add_correct.py"))};
  LoopbackEndpoint ep([&](int n, const httplib::Request &, httplib::Response &res) {
    res.set_content(completion(replies.at(static_cast<size_t>(n))).dump(), "application/json");
  });
  RunLog log;
  auto provider = make_openai_provider(config_for(ep));
  LoopOptions opts;
  opts.budget.max_dialogs = 2;
  opts.budget.max_calls_per_dialog = 2;
  auto results = run_job(*provider, log, opts);
  EXPECT_EQ(results[0].final_state, State::Done) << results[0].reason;
  auto bodies = ep.bodies();
  ASSERT_EQ(bodies.size(), 3u);
  ASSERT_EQ(bodies[2]["messages"].size(), 2u);  // a new dialog: system + task
  const std::string task = bodies[2]["messages"][1]["content"].get<std::string>();
  const size_t heading = task.find("\n## The previous dialog's last candidate and its failure\n");
  ASSERT_NE(heading, std::string::npos) << task;
  EXPECT_GT(heading, task.find("Reference kernels")) << task;
  const size_t code = task.find("### Its code\n```python\n", heading);
  ASSERT_NE(code, std::string::npos) << task;
  EXPECT_NE(task.find(read_kernel("add_wrong_sign.py"), code), std::string::npos) << task;
  const size_t fb = task.find("### Its feedback\n", code);
  ASSERT_NE(fb, std::string::npos) << task;
  EXPECT_NE(task.find("failure: mismatch", fb), std::string::npos) << task;
  EXPECT_NE(task.find("max abs error", fb), std::string::npos) << task;
  EXPECT_EQ(task.find("same failure as the previous turn"), std::string::npos) << task;
}
