//===- evaluator.h - Lint, Compile, Run and Verify a candidate kernel -----===//
//
// The loop's checking states go through KernelEvaluator. The real
// implementation (make_reference_evaluator) lints with the compiler's linter,
// compiles with its frontend (every @triton.jit function must parse and the
// wrapper must exist) and then has the CallJudge compile the kernels to the
// target for the recorded calls' signatures (CallJudge::compile), and hands
// Run and Verify to the CallJudge: whoever holds the recorded calls and the
// reference outputs runs the wrapper on an executor and compares. The generator defines the
// interface; the harness implements it over the OpInfo corpus (opforge/harness/judge.h), so the
// generator depends on nothing above it.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "opforge/compiler/executor.h"
#include "opforge/compiler/lint.h"

namespace opforge::compiler::ast {
struct Module;
}

namespace opforge::generator {

enum class Stage { Lint, Compile, Run, Verify };
std::string stage_name(Stage s);  // "lint", "compile", "run", "verify"

// Facts of a numerical or structural mismatch, as the judge's verifier found it.
struct MismatchFacts {
  struct Tolerance {
    double atol = 0;
    double rtol = 0;
  };
  std::string path;     // "out", "out[1]", "mutated self"
  std::string message;  // one line
  int64_t mismatched = 0;
  int64_t total = 0;
  double max_abs_error = 0;
  double max_rel_error = 0;
  std::vector<int64_t> worst_index;
  double worst_actual = 0;
  double worst_expected = 0;
  Tolerance tolerance;
};

// What went wrong at a stage (filled by the evaluator, read by the summarizer).
struct Failure {
  enum class Kind { None, NoCode, Lint, Compile, Runtime, Trap, Mismatch, Timeout };
  Kind kind = Kind::None;
  std::string message;                          // first error, one line
  std::string snippet;                          // source line + caret ("" when unknown)
  std::vector<compiler::LintFinding> findings;  // Lint
  std::string call_summary;  // failing call ("aten::add.Tensor(f32[4], ...) -> f32[4]")
  int64_t call_index = -1;
  std::optional<MismatchFacts> mismatch;  // Mismatch
  int64_t mismatches_total = 0;           // Mismatch: mismatching entries of the verdict
  uint64_t pc = 0;                        // Trap
  std::string instruction;                // Trap
};
std::string failure_kind_name(Failure::Kind k);

struct StageResult {
  Stage stage = Stage::Lint;
  bool ok = false;
  Failure failure;  // when !ok
  double wall_ms = 0;
  int64_t calls_checked = 0;  // Verify: calls that passed
  int64_t sim_cycles = 0;     // Run: simulated cycles (0 on the interpreter)
};

// A candidate being evaluated; the evaluator keeps state between stages.
class KernelEvaluator {
 public:
  virtual ~KernelEvaluator() = default;
  // Starts a candidate (source text named `path` in diagnostics) for the wrapper `wrapper`.
  virtual void begin(const std::string &path, const std::string &source,
                     const std::string &wrapper) = 0;
  virtual StageResult run_stage(Stage stage) = 0;
};

// Creates an executor for one run of the wrapper (a fresh one per call).
using ExecutorFactory = std::function<std::unique_ptr<compiler::Executor>()>;
// The IR interpreter's executor (host memory, ttir interpreter).
ExecutorFactory interp_executor_factory();

// Runs the recorded calls of one overload through a candidate's wrapper and
// judges the results. One judge serves one attempt (it keeps the outputs of
// run() for verify()).
class CallJudge {
 public:
  virtual ~CallJudge() = default;
  virtual size_t call_count() const = 0;
  // Stage::Compile: compiles the kernels `wrapper` launches, for the signatures
  // the recorded calls give them, without running them (compile_executor.h);
  // a failure is Compile (type and code generation errors, with the kernel's
  // file:line:col and snippet) or Timeout. Wrapper errors are left to Run.
  // The default compiles nothing (kernels then compile at their first launch).
  virtual StageResult compile(const compiler::ast::Module &module, const std::string &wrapper) {
    (void)module;
    (void)wrapper;
    StageResult r;
    r.stage = Stage::Compile;
    r.ok = true;
    return r;
  }
  // Stage::Run: every call through `wrapper` of `module`; failures are
  // Runtime, Trap or Timeout with the failing call's summary and index.
  virtual StageResult run(const compiler::ast::Module &module, const std::string &wrapper) = 0;
  // Stage::Verify: the outputs (and mutated inputs) of the last successful
  // run() against the recorded ones; a failure is a Mismatch.
  virtual StageResult verify() = 0;
};
using JudgeFactory = std::function<std::unique_ptr<CallJudge>()>;

struct EvaluatorOptions {
  JudgeFactory judge;  // Run and Verify (Lint and Compile work without one)
  compiler::LintOptions lint;
};

std::unique_ptr<KernelEvaluator> make_reference_evaluator(EvaluatorOptions options);

// "aten::add.Tensor" -> "add_Tensor", "aten::_softmax.default" -> "_softmax_default".
std::string wrapper_name(const std::string &overload);

nlohmann::json failure_to_json(const Failure &f);

}  // namespace opforge::generator
