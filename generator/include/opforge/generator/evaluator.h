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
  // Small windows of data around the worst index (at most 5 elements per
  // dimension, the last two dimensions of a tensor): each input operand (by
  // schema name, its window found by broadcasting the worst index back to
  // it), then the expected and the actual values of `path`.
  struct Window {
    std::string name;    // "self", "other", "expected out", "actual out"
    std::string type;    // "bf16[10, 5]", "bf16[] (0-d)", "Scalar"
    std::string region;  // "[0:5, 0:5]"; "" for a 0-d tensor or a number
    std::string values;  // one line per row of the window
  };
  std::vector<Window> operands;
  std::vector<Window> results;
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
  // Mismatch: the calls that mismatched among those checked ("17 of 124 calls
  // mismatch: bfloat16 17"); "" when only one call was compared.
  std::string failing_calls;
  uint64_t pc = 0;          // Trap
  std::string instruction;  // Trap
};
std::string failure_kind_name(Failure::Kind k);

struct StageResult {
  Stage stage = Stage::Lint;
  bool ok = false;
  Failure failure;  // when !ok
  double wall_ms = 0;
  // Verify: calls run and compared with their recorded results (all of them
  // passed when ok), of the overload's recorded calls (0: unknown). A bound that
  // cut calls (CallJudge) says why in `cut`: checked < recorded then, and a
  // passing candidate is only `partial`.
  int64_t calls_checked = 0;
  int64_t calls_failed = 0;  // Verify: checked calls that mismatched
  int64_t calls_recorded = 0;
  std::string cut;         // "--max-calls 8", "the wall-clock limit of 120 s"; "" when none
  int64_t sim_cycles = 0;  // Run: simulated cycles (0 on the interpreter)
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
  // Runtime, Trap or Timeout with the failing call's summary and index. A
  // wall-clock bound may stop it early (after at least one call): not a
  // failure, verify() then reports the calls it cut.
  virtual StageResult run(const compiler::ast::Module &module, const std::string &wrapper) = 0;
  // Stage::Verify: the outputs (and mutated inputs) of every call the last
  // successful run() made against the recorded ones; a failure is a Mismatch
  // (the first mismatching call's facts, all mismatching calls counted).
  // calls_checked / calls_recorded and cut say how much of the overload was checked.
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
