//===- wrapper.h - host wrapper interpreter over device tensor handles ----===//
//
// Runs a host wrapper function (a plain `def` named after an ATen overload)
// from the AST. Tensors are TensorHandles (sizes, strides, offset, dtype,
// buffer) behind an Executor (executor.h); metadata operations (view,
// reshape, permute, slicing, ...) only change handles, data moves only
// through the executor (copy_in, copy, launch).
//
// Supported: the torch subset of wrapper_torch_functions() and
// wrapper_tensor_methods(), tensor attributes (shape, dtype, device, ndim),
// torch dtypes as values, triton.cdiv / next_power_of_2, math.* on scalars,
// plain Python (assignments, if/for/while, comprehensions, lambdas, calls of
// other non-jit functions of the file, the builtins len/list/tuple/range/
// min/max/abs/int/float/bool/str/isinstance/enumerate/zip/sum/any/all/
// sorted/reversed/round/divmod), assert/raise, and `kernel[grid](...)`
// launches. Grids are tuples or callables over `meta` (a dict of the bound
// kernel arguments, constexprs included). @triton.autotune kernels are tuned
// on the first launch of each key: every config is a trial launch timed by the
// executor's cycles (LaunchResult::cycles; the first config that compiles on an
// executor without them), the best is kept per key (in memory, and on disk in
// WrapperOptions::autotune_cache_dir); @triton.heuristics values are evaluated
// before each launch (docs/compiler/wrapper.md, "Autotuning").
//
// Nothing else exists: no file, network, process or reflection access (open,
// eval, exec, __import__, getattr, dunder attributes, import statements are
// refused at run time with an error at the offending node). A step limit
// and a call-depth limit stop runaway wrappers. Errors are CompileErrors
// carrying the wrapper's file:line:col and a caret.
//
// Buffers: every buffer the wrapper allocates that is not reachable from the
// returned value is freed when run() returns; buffers of the result belong
// to the caller (free them through the executor).
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "opforge/compiler/ast.h"
#include "opforge/compiler/executor.h"

namespace opforge::compiler {

// A value passed into or returned from a wrapper.
struct WrapperValue {
  enum class Kind { None, Bool, Int, Float, Str, DType, Tensor, List, Tuple };
  Kind kind = Kind::None;
  bool bool_value = false;
  int64_t int_value = 0;
  double float_value = 0.0;
  std::string str_value;
  DType dtype_value = DType::Float32;
  TensorHandle tensor;
  std::vector<WrapperValue> items;  // List / Tuple

  static WrapperValue none() { return {}; }
  static WrapperValue boolean(bool v);
  static WrapperValue integer(int64_t v);
  static WrapperValue floating(double v);
  static WrapperValue string(std::string v);
  static WrapperValue dtype(DType v);
  static WrapperValue of(TensorHandle t);
  static WrapperValue list(std::vector<WrapperValue> v);
  static WrapperValue tuple(std::vector<WrapperValue> v);
  // Python-like text: "None", "3", "(2, 3)", "torch.float32", "tensor(...)".
  std::string to_string() const;
};

// Limits of one run; 0 takes the process's budget (opforge/support/budgets.h).
struct WrapperOptions {
  int64_t max_steps = 0;     // statements, calls and sequence elements built (--max-wrapper-steps)
  int64_t max_bytes = 0;     // bytes of tensors allocated (--max-wrapper-bytes)
  int64_t max_launches = 0;  // kernel launches (--max-launches)
  int max_call_depth = 64;   // nested calls of functions and lambdas
  // Where @triton.autotune keeps the best config per kernel, key and chip ("" = in memory
  // only); see autotune_default_cache_dir() and docs/compiler/wrapper.md, "Autotuning".
  std::string autotune_cache_dir;
};

// What @triton.autotune did for one kernel and key value (the first launch with that key).
struct AutotuneRecord {
  std::string kernel;
  std::string key;  // the tuning key as Python prints it: "(1024, 'torch.float32')"
  struct Trial {
    std::string config;              // "BLOCK_SIZE: 256, num_warps: 4, num_ctas: 1, num_stages: 3"
    std::optional<uint64_t> cycles;  // simulated cycles of the trial launch
    std::string skipped;             // why the config was skipped ("" = it ran)
  };
  std::vector<Trial> trials;  // the configs after pruning, in order (none when from the cache)
  std::vector<std::string> pruned;  // configs prune_configs_by removed
  int winner = -1;                  // index into `configs`
  std::string winner_config;
  std::string source;      // "tuned", "tuned (first fitting config: the executor has no cycles)",
                           // "single config", "memory cache", "disk cache FILE"
  std::string cache_file;  // the on-disk entry written or read ("" = none)
};

struct WrapperRunResult {
  WrapperValue value;                   // what the wrapper returned
  std::vector<LaunchRequest> launches;  // every launch, in order (grids of 0 programs are skipped)
  std::vector<std::string> prints;      // tl.device_print output of all launches
  int64_t steps = 0;
  std::vector<AutotuneRecord> autotune;  // one per kernel and key tuned or looked up
  uint64_t autotune_trial_cycles = 0;    // cycles of trial launches (not in `launches`)
  int64_t autotune_trial_launches = 0;
};

// $XDG_CACHE_HOME/opforge/autotune, else $HOME/.cache/opforge/autotune ("" without either).
std::string autotune_default_cache_dir();

class WrapperInterpreter {
 public:
  // `module` must outlive the interpreter and every LaunchRequest it produced.
  WrapperInterpreter(const ast::Module &module, Executor &executor, WrapperOptions options = {});
  ~WrapperInterpreter();
  WrapperInterpreter(const WrapperInterpreter &) = delete;
  WrapperInterpreter &operator=(const WrapperInterpreter &) = delete;

  // Runs the top-level function `wrapper` with positional and keyword arguments.
  WrapperRunResult run(const std::string &wrapper, const std::vector<WrapperValue> &args,
                       const std::vector<std::pair<std::string, WrapperValue>> &kwargs = {});

  struct Impl;  // implementation detail (compiler/src/wrapper/)
  // The interpreter's state, for embedders inside the compiler library
  // (compiler/src/inductor binds the names of a TorchInductor module through it).
  Impl &internals() { return *impl_; }

 private:
  Impl *impl_;
};

// The torch functions (torch.X) and tensor methods (x.X) the interpreter
// implements; the linter treats every other torch call as an ATen op.
const std::set<std::string> &wrapper_torch_functions();
const std::set<std::string> &wrapper_tensor_methods();

}  // namespace opforge::compiler
