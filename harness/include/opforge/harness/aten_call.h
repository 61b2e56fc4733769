//===- aten_call.h - run one ATen call through a kernel and judge it -------===//
//
// The one path from an ATen call to a verdict. Every command that runs a call
// through a kernel or checks one against ATen goes through it: `opforge
// validate`, the generation loop's judge (`opforge generate`), sweep workloads
// of kind aten/corpus/trace, `opforge ops check`, `opforge run --check` and
// `opforge run --corpus-call`. The steps:
//
//  1. Marshal (CallMarshal): Values become wrapper arguments on an executor.
//     A tensor keeps its sizes, strides and storage offset, and its whole
//     recorded storage goes to the device (as_strided and friends read outside
//     the view); a None, bool, int, float, string, dtype, layout, memory format
//     or device becomes the matching wrapper value; lists nest.
//  2. Run (run_aten_call): the wrapper of a kernel file, or the view runtime
//     for view/metadata overloads (aten_runtime.h), on that executor. The
//     output is read back, and so is every argument the call is expected to
//     mutate, found by its schema argument name (positional or keyword).
//  3. Judge (judge_aten_call), one policy, written down in
//     docs/verification.md ("One call, one verdict"):
//     - tied indices: sort/topk/kthvalue/median/mode indices that pick another
//       of several equal values are accepted (tied_indices.h);
//     - tolerance: torch.testing.assert_close's per-dtype default; an OpInfo's
//       toleranceOverride recorded in the corpus widens it (each of atol and
//       rtol is the larger of the two), never narrows it;
//     - outputs and mutated inputs are both compared (NaN equals NaN, shapes
//       and dtypes must match);
//     - float64 second look: when the reference is ATen's (recorded or live)
//       and the call has floating-point inputs, a mismatching result is judged
//       once more against ATen on float64-upcast inputs rounded to the output
//       dtypes: an element passes within tolerance of either reference, and a
//       tensor as a whole when its RMS error against the float64 reference is
//       at most kFloat64RmsMultiplier times ATen's own (torch._dynamo's fp64
//       rule). Needs the oracle plugin; without it the first verdict stands.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "opforge/harness/corpus.h"
#include "opforge/harness/verifier.h"

namespace opforge::compiler {
class Executor;
struct WrapperValue;
}  // namespace opforge::compiler
namespace opforge::compiler::ast {
struct Module;
}

namespace opforge::harness {

// A whole tensor's RMS error against the float64 reference may be this many times ATen's own.
constexpr double kFloat64RmsMultiplier = 2.0;

// What a call ran through: a wrapper of a parsed kernel file, or (module null)
// the view runtime for `overload`'s view/metadata op.
struct CallKernel {
  const compiler::ast::Module *module = nullptr;
  std::string wrapper;
  int64_t max_wrapper_steps = 0;  // 0: the process's --max-wrapper-steps budget
};

// The device buffers of one call: made by marshalling its arguments and by its
// outputs; freed when it goes out of scope unless released.
class CallMarshal {
 public:
  explicit CallMarshal(compiler::Executor &executor);
  ~CallMarshal();
  CallMarshal(const CallMarshal &) = delete;
  CallMarshal &operator=(const CallMarshal &) = delete;

  // A host value as a wrapper argument (device tensors hold the whole recorded
  // storage, strides and offset kept). `where` names it in errors ("#0", "alpha").
  compiler::WrapperValue to_wrapper(const Value &value, const std::string &where);
  // A wrapper value read back to the host; its device buffers become this call's.
  Value to_host(const compiler::WrapperValue &value);
  // Hands every buffer to the caller: nothing is freed here.
  void release();

 private:
  // Buffers of `value` become this call's (freed with it).
  void own(const compiler::WrapperValue &value);
  compiler::Executor &ex_;
  std::vector<uint64_t> ids_;
};

// What a call produced: the output and the arguments it was expected to write.
struct CallOutcome {
  Value out;
  std::vector<std::pair<std::string, Value>> mutated;  // by schema argument name
};

// Runs `call` (its overload, args and kwargs) through `kernel` on `executor`;
// reads back the output and the arguments named in `call.mutated`, located by
// `schema_names` (schema_argument_names of the overload's schema). Throws what
// the wrapper or the executor throws (CompileError, traps with a PC).
CallOutcome run_aten_call(const CallKernel &kernel, compiler::Executor &executor, const Call &call,
                          const std::vector<std::string> &schema_names);

// Step 2 alone, on wrapper values whose tensors already live on `executor` (the
// Python package's device tensors, used in place: python/src/dispatch.cpp): the
// wrapper of `kernel`, or (module null) the view runtime for `overload`. Buffers
// the wrapper allocated for its output are the caller's to free. run_aten_call runs
// its marshalled arguments through it. Throws what run_aten_call throws.
compiler::WrapperValue run_wrapper_call_on_device(
    const CallKernel &kernel, compiler::Executor &executor, const std::string &overload,
    const std::vector<compiler::WrapperValue> &args,
    const std::vector<std::pair<std::string, compiler::WrapperValue>> &kwargs);

struct JudgeCallOptions {
  // The reference is ATen's result (recorded or live): the float64 second look applies.
  // False for other references (the IR interpreter's result in trace sweeps).
  bool aten_reference = true;
  // ATen's result on float64-upcast inputs, rounded like `expected` (a List of the output
  // and then the mutated values in expected.mutated's order), when the caller already has
  // it; otherwise the oracle plugin computes it when needed.
  std::optional<Value> float64_reference;
};

// The verdict on `actual` for `expected` (recorded or live ATen results; the
// corpus, when given, supplies the OpInfo's tolerance override): ok, or the
// mismatches of the first look. `actual.out` may have its tied indices replaced
// by the expected ones.
Verdict judge_aten_call(const Call &expected, CallOutcome &actual, const Corpus *corpus,
                        const JudgeCallOptions &options = {});

}  // namespace opforge::harness
