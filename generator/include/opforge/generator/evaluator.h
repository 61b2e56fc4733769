//===- evaluator.h - Lint, Compile, Run and Verify a candidate kernel -----===//
//
// The loop's checking states go through KernelEvaluator. The real
// implementation (make_reference_evaluator) uses the compiler's linter, its
// frontend and semantic layer (every @triton.jit function must parse and the
// wrapper must exist), the wrapper interpreter on an Executor (the
// IR-interpreter executor by default; a chip executor plugs in through
// ExecutorFactory) and the harness verifier (assert_close semantics) against
// recorded corpus calls or a caller-given list of calls with expected outputs.
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
#include "opforge/harness/corpus.h"
#include "opforge/harness/verifier.h"

namespace opforge::generator {

enum class Stage { Lint, Compile, Run, Verify };
std::string stage_name(Stage s);  // "lint", "compile", "run", "verify"

// What went wrong at a stage (filled by the evaluator, read by the summarizer).
struct Failure {
  enum class Kind { None, NoCode, Lint, Compile, Runtime, Trap, Mismatch, Timeout };
  Kind kind = Kind::None;
  std::string message;                          // first error, one line
  std::string snippet;                          // source line + caret ("" when unknown)
  std::vector<compiler::LintFinding> findings;  // Lint
  std::string call_summary;  // failing call ("aten::add.Tensor(f32[4], ...) -> f32[4]")
  int64_t call_index = -1;
  std::optional<harness::Mismatch> mismatch;  // Mismatch
  int64_t mismatches_total = 0;               // Mismatch: mismatching entries of the verdict
  uint64_t pc = 0;                            // Trap
  std::string instruction;                    // Trap
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

struct EvaluatorOptions {
  std::vector<harness::Call> calls;  // calls with expected outputs
  // The overload's schema ("add_.Tensor(Tensor(a!) self, Tensor other, *, Scalar alpha=1) -> ...");
  // names the arguments so that mutated inputs are read back and compared too.
  std::string schema;
  const harness::Corpus *corpus = nullptr;  // tolerance overrides (optional)
  ExecutorFactory executor;                 // default: interp_executor_factory()
  compiler::LintOptions lint;
  double run_timeout_s = 60;   // wall clock for all calls of a Run
  int64_t max_sim_cycles = 0;  // simulated-cycle budget per call (0: none; chip executors)
  int64_t max_wrapper_steps = 2'000'000;
};

std::unique_ptr<KernelEvaluator> make_reference_evaluator(EvaluatorOptions options);

// "aten::add.Tensor" -> "add_Tensor", "aten::_softmax.default" -> "_softmax_default".
std::string wrapper_name(const std::string &overload);

nlohmann::json failure_to_json(const Failure &f);

}  // namespace opforge::generator
