//===- inductor_module.h - TorchInductor output modules on the chip --------===//
//
// Runs a TorchInductor output module (the Python file Inductor writes for a
// compiled graph: `async_compile.triton('name', '''kernel source''', ...)`
// definitions, a `Runner` class whose `call(self, args)` allocates buffers with
// `empty_strided`, launches `kernel.run(..., stream=...)`, calls
// `extern_kernels.mm/addmm/bmm/convolution` and `torch.ops.aten.X.Y(...)`, and
// `get_args()` with `rand_strided`) as Inductor wrote it, without Python:
//
//  - the module-level code and `call()` run in the wrapper interpreter
//    (wrapper.h: no file, network, process or reflection access); the names a
//    module imports from torch._inductor, torch._C._dynamo.guards and triton are
//    the interpreter's own implementations (docs/compiler/inductor.md lists them);
//  - each kernel source is parsed and compiled by opforge's Triton compiler; its
//    `@triton_heuristics.pointwise | reduction | persistent_reduction | template`
//    decorator gives the candidate configs (from its size hints), picked by
//    simulated cycles on the first launch like @triton.autotune;
//  - every ATen op the module calls (extern kernels, fallbacks) goes to the
//    caller's AtenHook: the kernel library on the chip, or the CPU.
//
// Modules written for CUDA (`empty_strided_cuda`, `torch.cuda._DeviceGuard`,
// `_cuda_getCurrentRawStream`) run the same way: every device is the chip.
// A construct the interpreter cannot run is a CompileError naming the construct,
// the kernel (when in one) and the module's line.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "opforge/compiler/diagnostics.h"
#include "opforge/compiler/inductor_heuristics.h"
#include "opforge/compiler/wrapper.h"

namespace opforge::compiler {

// One ATen op the module calls: `overload` as "aten::mm.out" (extern_kernels.mm with
// out= is mm.out; extern_kernels.convolution is convolution.default), its positional
// and keyword arguments. `site` is the launch site for profiles ("module.py:57").
struct InductorAtenCall {
  std::string overload;
  std::vector<WrapperValue> args;
  std::vector<std::pair<std::string, WrapperValue>> kwargs;
  std::string site;
  // The ATen nodes of the graph this call stands for (the module's "Original ATen:
  // [aten.mm]" comment above the call), for coverage shares.
  std::vector<std::string> aten_nodes;
};

// What the caller ran an ATen call with (for the profile and the coverage shares).
struct InductorAtenResult {
  WrapperValue value;
  bool on_chip = true;  // false: it ran on the CPU (a fallback)
  uint64_t cycles = 0;  // simulated cycles of its launches
  std::vector<LaunchRequest> launches;
  std::string kernel;  // the library kernel that ran it, or the fallback reason
};

using InductorAtenHook = std::function<InductorAtenResult(const InductorAtenCall &)>;

// One step of a run, in order: a Triton kernel launch of the module or an ATen call.
struct InductorStep {
  enum class Kind { TritonKernel, AtenCall };
  Kind kind = Kind::TritonKernel;
  std::string name;                     // kernel name, or the overload
  std::string site;                     // "module.py:57"
  std::vector<std::string> aten_nodes;  // "Original ATen: [...]" above the launch
  bool on_chip = true;
  uint64_t cycles = 0;
  std::string config;  // the heuristics config picked ("XBLOCK: 64, ...")
};

struct InductorRunResult {
  WrapperValue value;  // what call() returned (a tuple of tensors)
  std::vector<InductorStep> steps;
  std::vector<LaunchRequest> launches;   // every chip launch, in order
  std::vector<AutotuneRecord> autotune;  // config choices made in this run
  uint64_t autotune_trial_cycles = 0;    // cycles of config trials (not in steps)
};

class InductorModule {
 public:
  // Parses the module text (`path` names it in errors) and every kernel source it
  // defines. Throws CompileError (path:line:col) for what it cannot parse or run.
  InductorModule(std::string source, std::string path);
  ~InductorModule();
  InductorModule(const InductorModule &) = delete;
  InductorModule &operator=(const InductorModule &) = delete;

  const std::string &path() const;
  // The kernels the module defines, in order.
  std::vector<std::string> kernel_names() const;

  // The chip the candidate configs are proposed for (inductor_heuristics.h; default: an
  // mtia-2i-like target). Recomputes every kernel's configs and forgets the choices made.
  void set_target(const InductorTarget &target);

  // Runs call(args) with the tensors on `executor`. Ownership of device buffers:
  // the module frees, before call() returns, only the buffers it allocated itself
  // (empty_strided and friends) that call() does not return; returned ones become
  // the caller's. Buffers of `args` and of AtenHook results are never freed here:
  // they belong to the caller (the hook's owner keeps them alive for the run).
  InductorRunResult call(Executor &executor, const std::vector<WrapperValue> &args,
                         const InductorAtenHook &aten, WrapperOptions options = {});

  // The module's get_args() (or, in older modules, the inputs benchmark_compiled_module
  // makes): random inputs made with rand_strided on `executor`, seeded by `seed`.
  std::vector<WrapperValue> example_args(Executor &executor, uint64_t seed = 0);

  struct Impl;

 private:
  std::unique_ptr<Impl> impl_;
};

}  // namespace opforge::compiler
