// judge.cpp - the generator's CallJudge: recorded corpus calls through a wrapper, then the
// verifier.
#include "opforge/harness/judge.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <functional>
#include <map>
#include <set>

#include "opforge/compiler/compile_executor.h"
#include "opforge/compiler/diagnostics.h"
#include "opforge/compiler/interp_executor.h"
#include "opforge/compiler/wrapper.h"
#include "opforge/harness/aten_call.h"
#include "opforge/harness/validate.h"
#include "opforge/harness/verifier.h"
#include "opforge/support/error.h"
#include "mismatch_window.h"

namespace opforge::harness {

namespace {

using compiler::TensorHandle;
using compiler::WrapperValue;
using generator::Failure;
using generator::StageResult;
using Clock = std::chrono::steady_clock;

// What decides which kernels a wrapper launches and how they specialise: the
// arguments' kinds, dtypes, sizes, strides and offsets, and scalar values.
std::string call_signature(const Call &call) {
  std::string s;
  std::function<void(const Value &)> add = [&](const Value &v) {
    if (v.kind == Value::Kind::Tensor) {
      const HostTensor &t = v.tensor;
      s += std::string(dtype_name(t.dtype())) + "[";
      for (auto d : t.sizes()) s += std::to_string(d) + ",";
      s += "/";
      for (auto d : t.strides()) s += std::to_string(d) + ",";
      s += "+" + std::to_string(t.storage_offset()) + "]";
    } else if (v.kind == Value::Kind::List) {
      s += "(";
      for (const auto &e : v.list) add(e);
      s += ")";
    } else {
      s += v.summary();
    }
    s += ";";
  };
  for (const auto &a : call.args) add(a);
  for (const auto &[k, v] : call.kwargs) {
    s += k + "=";
    add(v);
  }
  return s;
}

generator::MismatchFacts facts(const Mismatch &m) {
  generator::MismatchFacts f;
  f.path = m.path;
  f.message = m.message;
  f.mismatched = m.mismatched;
  f.total = m.total;
  f.max_abs_error = m.max_abs_error;
  f.max_rel_error = m.max_rel_error;
  f.worst_index = m.worst_index;
  f.worst_actual = m.worst_actual;
  f.worst_expected = m.worst_expected;
  f.tolerance.atol = m.tolerance.atol;
  f.tolerance.rtol = m.tolerance.rtol;
  return f;
}

class CorpusJudge : public generator::CallJudge {
 public:
  explicit CorpusJudge(std::shared_ptr<const JudgeOptions> o)
      : shared_(std::move(o)), opts_(*shared_), names_(schema_argument_names(opts_.schema)) {
    executor_ = opts_.executor ? opts_.executor : generator::interp_executor_factory();
  }

  size_t call_count() const override { return opts_.calls.size(); }

  // Runs the wrapper once per distinct call signature on a CompileOnlyExecutor
  // over the executor Run uses: each launch compiles its kernel into that
  // executor's process cache (the chip's binaries, the interpreter's lowered IR).
  StageResult compile(const compiler::ast::Module &module, const std::string &wrapper) override {
    StageResult r;
    r.stage = generator::Stage::Compile;
    auto deadline = Clock::now() + std::chrono::duration<double>(opts_.run_timeout_s);
    std::set<std::string> signatures;
    auto target = executor_();
    for (size_t i = 0; i < opts_.calls.size(); ++i) {
      const auto &call = opts_.calls[i];
      if (!signatures.insert(call_signature(call)).second) continue;
      // Out of time: the kernels of the remaining signatures compile at their first launch.
      if (i > 0 && Clock::now() > deadline) break;
      compiler::CompileOnlyExecutor compile_only(*target);
      try {
        run_aten_call(kernel_of(module, wrapper), compile_only, call, names_);
      } catch (const compiler::CompileError &e) {
        if (!compile_only.compile_failed()) continue;  // the wrapper's own error: Run reports it
        r.failure.kind = Failure::Kind::Compile;
        r.failure.message = e.what();
        r.failure.snippet = e.snippet();
        if (r.failure.snippet.empty() && e.loc().known() && module.source)
          r.failure.snippet = compiler::source_snippet(*module.source, e.loc());
      } catch (const std::exception &e) {
        if (!compile_only.compile_failed()) continue;
        r.failure.kind = Failure::Kind::Compile;
        r.failure.message = e.what();
      }
      if (failed_at(r, i)) return r;
    }
    r.ok = true;
    return r;
  }

  StageResult run(const compiler::ast::Module &module, const std::string &wrapper) override {
    StageResult r;
    r.stage = generator::Stage::Run;
    auto deadline = Clock::now() + std::chrono::duration<double>(opts_.run_timeout_s);
    outcomes_.clear();
    run_cut_.clear();
    for (size_t i = 0; i < opts_.calls.size(); ++i) {
      const auto &call = opts_.calls[i];
      // The wall-clock bound cuts the calls after the first: verify() judges those that ran
      // and reports the cut (a passing candidate is then partial, never a pass).
      if (i > 0 && Clock::now() > deadline) {
        run_cut_ = "the wall-clock limit of " + seconds_text(opts_.run_timeout_s) + " s";
        break;
      }
      try {
        auto ex = executor_();
        outcomes_.push_back(run_aten_call(kernel_of(module, wrapper), *ex, call, names_));
      } catch (const compiler::CompileError &e) {
        r.failure.kind = Failure::Kind::Runtime;
        r.failure.message = e.what();
        r.failure.snippet = e.snippet();
      } catch (const Error &e) {
        r.failure.kind = e.context().pc ? Failure::Kind::Trap : Failure::Kind::Runtime;
        r.failure.message = e.what();
        if (e.context().pc) r.failure.pc = *e.context().pc;
      } catch (const std::exception &e) {
        r.failure.kind = Failure::Kind::Runtime;
        r.failure.message = std::string("internal error: ") + e.what();
      }
      if (failed_at(r, i)) return r;
    }
    r.ok = true;
    return r;
  }

  StageResult verify() override {
    StageResult r;
    r.stage = generator::Stage::Verify;
    if (outcomes_.size() > opts_.calls.size() || (outcomes_.empty() && !opts_.calls.empty()))
      throw Error("judge: verify() before a successful run()");
    std::map<std::string, int64_t> failed_by_dtype;
    for (size_t i = 0; i < outcomes_.size(); ++i) {
      const auto &call = opts_.calls[i];
      const Verdict verdict = judge_aten_call(call, outcomes_[i], opts_.corpus);
      ++r.calls_checked;
      if (verdict.ok()) continue;
      ++r.calls_failed;
      ++failed_by_dtype[std::string(dtype_name(call.dtype))];
      if (r.failure.kind != Failure::Kind::None) continue;  // the first mismatch is described
      r.failure.kind = Failure::Kind::Mismatch;
      r.failure.message = verdict.first_reason();
      r.failure.call_index = static_cast<int64_t>(i);
      r.failure.call_summary = call.summary();
      r.failure.mismatch = facts(verdict.mismatches.front());
      r.failure.mismatches_total = static_cast<int64_t>(verdict.mismatches.size());
      add_mismatch_windows(call, outcomes_[i], names_, *r.failure.mismatch);
    }
    r.calls_recorded = std::max<int64_t>(opts_.recorded_calls, opts_.calls.size());
    if (outcomes_.size() < opts_.calls.size())
      r.cut = run_cut_;
    else if (static_cast<int64_t>(opts_.calls.size()) < r.calls_recorded)
      r.cut = opts_.cut.empty() ? "a limit on the calls selected" : opts_.cut;
    if (r.calls_failed > 0 && r.calls_checked > 1) {
      std::string by;
      for (const auto &[dtype, n] : failed_by_dtype)
        by += (by.empty() ? "" : ", ") + dtype + " " + std::to_string(n);
      r.failure.failing_calls = std::to_string(r.calls_failed) + " of " +
                                std::to_string(r.calls_checked) + " calls checked mismatch (" + by +
                                ")";
    }
    r.ok = r.calls_failed == 0;
    return r;
  }

 private:
  CallKernel kernel_of(const compiler::ast::Module &module, const std::string &wrapper) const {
    CallKernel kernel;
    kernel.module = &module;
    kernel.wrapper = wrapper;
    kernel.max_wrapper_steps = opts_.max_wrapper_steps;
    return kernel;
  }
  // Names call i in a failed stage's result; true when the stage failed.
  bool failed_at(StageResult &r, size_t i) const {
    if (r.failure.kind == Failure::Kind::None) return false;
    r.failure.call_index = static_cast<int64_t>(i);
    r.failure.call_summary = opts_.calls[i].summary();
    return true;
  }

  static std::string seconds_text(double s) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g", s);
    return buf;
  }

  std::shared_ptr<const JudgeOptions> shared_;
  const JudgeOptions &opts_;
  generator::ExecutorFactory executor_;
  std::vector<std::string> names_;
  std::vector<CallOutcome> outcomes_;
  std::string run_cut_;  // why the last run() stopped before the last call ("" when it did not)
};

}  // namespace

std::unique_ptr<generator::CallJudge> make_corpus_judge(JudgeOptions options) {
  return std::make_unique<CorpusJudge>(std::make_shared<const JudgeOptions>(std::move(options)));
}

generator::JudgeFactory corpus_judge_factory(JudgeOptions options) {
  auto shared = std::make_shared<const JudgeOptions>(std::move(options));
  return [shared] { return std::make_unique<CorpusJudge>(shared); };
}

}  // namespace opforge::harness
