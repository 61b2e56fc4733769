// judge.cpp - the generator's CallJudge: recorded corpus calls through a wrapper, then the
// verifier.
#include "opforge/harness/judge.h"

#include <algorithm>
#include <chrono>
#include <functional>
#include <set>

#include "opforge/compiler/compile_executor.h"
#include "opforge/compiler/diagnostics.h"
#include "opforge/compiler/interp_executor.h"
#include "opforge/compiler/wrapper.h"
#include "opforge/harness/aten_call.h"
#include "opforge/harness/validate.h"
#include "opforge/harness/verifier.h"
#include "opforge/support/error.h"

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
      if (Clock::now() > deadline) return timed_out(r, "compile", i);
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
    for (size_t i = 0; i < opts_.calls.size(); ++i) {
      const auto &call = opts_.calls[i];
      if (Clock::now() > deadline) return timed_out(r, "run", i);
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
    if (outcomes_.size() != opts_.calls.size())
      throw Error("judge: verify() before a successful run()");
    for (size_t i = 0; i < opts_.calls.size(); ++i) {
      const auto &call = opts_.calls[i];
      const Verdict verdict = judge_aten_call(call, outcomes_[i], opts_.corpus);
      if (!verdict.ok()) {
        r.failure.kind = Failure::Kind::Mismatch;
        r.failure.message = verdict.first_reason();
        r.failure.call_index = static_cast<int64_t>(i);
        r.failure.call_summary = call.summary();
        r.failure.mismatch = facts(verdict.mismatches.front());
        r.failure.mismatches_total = static_cast<int64_t>(verdict.mismatches.size());
        return r;
      }
      ++r.calls_checked;
    }
    r.ok = true;
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
  StageResult timed_out(StageResult &r, const std::string &stage, size_t i) const {
    r.failure.kind = Failure::Kind::Timeout;
    r.failure.message = stage + " exceeded its wall-clock limit of " +
                        std::to_string(opts_.run_timeout_s) + " s after " + std::to_string(i) +
                        " of " + std::to_string(opts_.calls.size()) + " calls";
    failed_at(r, i);
    return r;
  }

  std::shared_ptr<const JudgeOptions> shared_;
  const JudgeOptions &opts_;
  generator::ExecutorFactory executor_;
  std::vector<std::string> names_;
  std::vector<CallOutcome> outcomes_;
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
