//===- executor.h - where a wrapper's device tensors and launches live -----===//
//
// The wrapper interpreter (wrapper.h) runs a host wrapper against device
// tensor handles and never touches device memory itself: allocation, copies
// and kernel launches go through this interface. The IR interpreter provides
// one implementation (host memory, ttir execution); the chip model provides
// another (device memory, compiled binaries).
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "opforge/compiler/ast.h"
#include "opforge/support/dtype.h"
#include "opforge/support/host_tensor.h"

namespace opforge::compiler {

using BufferId = uint64_t;  // 0 is never a valid buffer

// A strided view of a device buffer, as torch.Tensor describes one.
struct TensorHandle {
  BufferId buffer = 0;
  DType dtype = DType::Float32;
  std::vector<int64_t> sizes;
  std::vector<int64_t> strides;  // in elements
  int64_t storage_offset = 0;    // in elements

  int64_t dim() const { return static_cast<int64_t>(sizes.size()); }
  int64_t numel() const;
  bool is_contiguous() const;
  // Smallest buffer size in bytes that holds every element of the view.
  int64_t extent_bytes() const;
  // "tensor(buffer=3, float32, sizes=[4, 5], strides=[5, 1], offset=0)"
  std::string to_string() const;
};

// One argument of a kernel launch, bound to a parameter of the jit function.
struct LaunchArg {
  enum class Kind { Tensor, Int, Float, Bool, None, Str, DType };
  std::string name;  // the parameter's name
  Kind kind = Kind::None;
  bool is_constexpr = false;           // the parameter is annotated tl.constexpr
  TensorHandle tensor;                 // Kind::Tensor (Triton passes its data pointer)
  int64_t int_value = 0;               // Kind::Int, Kind::Bool (0/1)
  double float_value = 0.0;            // Kind::Float
  std::string str_value;               // Kind::Str
  DType dtype_value = DType::Float32;  // Kind::DType (a torch dtype passed as a constexpr)
};

struct LaunchGrid {
  int64_t x = 1, y = 1, z = 1;
  int64_t programs() const { return x * y * z; }
};

struct LaunchRequest {
  std::string kernel;                          // the jit function's name
  const ast::FunctionDef *function = nullptr;  // its AST (owned by `module`)
  const ast::Module *module = nullptr;         // the source module (other jit functions it calls)
  std::vector<LaunchArg> args;  // one per parameter, in parameter order, defaults and
                                // autotune/heuristics values applied
  LaunchGrid grid;
  int num_warps = 4;  // launch options (accepted, recorded; no meaning on the target)
  int num_stages = 3;
};

struct LaunchResult {
  int64_t programs_run = 0;
  std::vector<std::string> prints;  // tl.device_print output, collected
  // Simulated cycles of the launch, where the executor times launches (the chip
  // model); absent on executors without timing (the IR interpreter). @triton.autotune
  // picks the config with the fewest (wrapper.md, "Autotuning").
  std::optional<uint64_t> cycles;
};

class Executor {
 public:
  virtual ~Executor() = default;
  // A new device buffer of `bytes` bytes (contents unspecified).
  virtual BufferId allocate(int64_t bytes) = 0;
  virtual void free(BufferId buffer) = 0;
  // Writes the elements of `src` (same dtype and sizes as `dst`) into the view `dst`.
  virtual void copy_in(const TensorHandle &dst, const HostTensor &src) = 0;
  // Reads the view `src` into a new contiguous host tensor.
  virtual HostTensor copy_out(const TensorHandle &src) = 0;
  // Element-wise strided copy between views of equal sizes, converting the
  // dtype as torch's copy_ does (used for contiguous(), reshape copies, .to()).
  virtual void copy(const TensorHandle &dst, const TensorHandle &src) = 0;
  // Runs a kernel for the whole grid. Throws opforge::Error on a fault.
  virtual LaunchResult launch(const LaunchRequest &request) = 0;
  // Compiles the kernel of `request` for its specialisation without running it,
  // so that a later launch of the same specialisation only runs (the compile
  // stage of the generation loop; compile_executor.h). Throws CompileError
  // (type errors, with file:line:col) or opforge::Error (code generation) as
  // launch() would. The default does nothing: such an executor compiles at launch.
  virtual void compile(const LaunchRequest &request) { (void)request; }
  // A stable key of what a launch's cycles depend on besides the kernel and its
  // arguments (the chip configuration, timing mode and code generation options),
  // naming @triton.autotune's on-disk cache entries; "" for an executor without
  // timing (nothing is cached on disk for it).
  virtual std::string tuning_target() const { return ""; }
};

}  // namespace opforge::compiler
