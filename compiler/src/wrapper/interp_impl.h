//===- interp_impl.h - the wrapper interpreter's state (internal) ----------===//
#pragma once

#include <map>
#include <optional>
#include <set>
#include <utility>

#include "opforge/compiler/diagnostics.h"
#include "opforge/compiler/wrapper.h"
#include "value.h"

namespace opforge::compiler {

using wrapper_detail::Scope;
using wrapper_detail::Value;
using wrapper_detail::ValueList;
using Kwargs = std::vector<std::pair<std::string, Value>>;

struct WrapperInterpreter::Impl {
  const ast::Module &module;
  Executor &executor;
  WrapperOptions options;
  std::shared_ptr<Scope> globals;
  int64_t steps = 0;
  int64_t bytes_allocated = 0;  // by new tensors of this run
  int64_t launches = 0;
  int depth = 0;
  std::set<BufferId> allocated;  // buffers this run allocated
  // Scopes of this run's calls. A lambda keeps its defining scope, and a scope keeps
  // the lambda it assigned (`grid = lambda meta: ...`): a shared_ptr cycle, so run()
  // clears their variables when it returns (Python's cycle collector does that work).
  std::vector<std::weak_ptr<Scope>> call_scopes;
  void release_call_scopes();
  WrapperRunResult *run_result = nullptr;

  // Names an embedder adds (compiler/src/inductor: the torch._inductor names of a
  // TorchInductor output module). The interpreter asks it for attributes of modules
  // first, sends it calls of builtins named "ext.*" and method calls on kernels.
  struct Extension {
    virtual ~Extension() = default;
    virtual std::optional<Value> module_attr(Impl &im, const std::string &mod,
                                             const std::string &name, SourceLoc loc) = 0;
    virtual Value call(Impl &im, const std::string &name, ValueList &args, Kwargs &kwargs,
                       SourceLoc loc) = 0;
    virtual Value kernel_method(Impl &im, const Value &kernel, const std::string &name,
                                ValueList &args, Kwargs &kwargs, SourceLoc loc) = 0;
  };
  Extension *extension = nullptr;

  Impl(const ast::Module &m, Executor &ex, WrapperOptions o);

  [[noreturn]] void fail(SourceLoc loc, const std::string &message) const;
  void step(SourceLoc loc);
  // Charges `n` steps at once (a sequence of n elements built).
  void charge_steps(SourceLoc loc, int64_t n);
  // A new device buffer of `bytes` bytes, charged to the byte budget.
  BufferId allocate(int64_t bytes, SourceLoc loc);

  // --- evaluation (interpreter.cpp) ---
  enum class Flow { Normal, Break, Continue, Return };
  Flow exec_block(const ast::StmtList &body, const std::shared_ptr<Scope> &scope, Value &ret);
  Flow exec(const ast::Stmt &s, const std::shared_ptr<Scope> &scope, Value &ret);
  Value eval(const ast::Expr &e, const std::shared_ptr<Scope> &scope);
  void assign(const ast::Expr &target, Value v, const std::shared_ptr<Scope> &scope);
  Value call(const Value &callee, ValueList args, Kwargs kwargs, SourceLoc loc);
  Value call_function(const ast::FunctionDef &f, ValueList args, Kwargs kwargs, SourceLoc loc);
  Value call_lambda(const Value &lam, ValueList args, Kwargs kwargs, SourceLoc loc);
  Value lookup(const std::string &name, const std::shared_ptr<Scope> &scope, SourceLoc loc);
  Value get_attr(const Value &v, const std::string &name, SourceLoc loc);
  Value subscript(const Value &v, const Value &index, SourceLoc loc);
  Value binop(ast::BinOpKind op, const Value &a, const Value &b, SourceLoc loc);
  bool compare(ast::CmpOpKind op, const Value &a, const Value &b, SourceLoc loc);
  bool truthy(const Value &v, SourceLoc loc);
  bool equals(const Value &a, const Value &b);
  ValueList iterate(const Value &v, SourceLoc loc);

  // --- builtins (builtins.cpp): Python builtins, math, triton ---
  bool has_builtin(const std::string &name) const;
  Value call_builtin(const std::string &name, ValueList &args, Kwargs &kwargs, SourceLoc loc);
  Value call_value_method(const Value &self, const std::string &name, ValueList &args,
                          Kwargs &kwargs, SourceLoc loc);
  Value module_attr(const std::string &module, const std::string &name, SourceLoc loc);

  // --- torch (torch_ops.cpp) ---
  Value call_torch(const std::string &name, ValueList &args, Kwargs &kwargs, SourceLoc loc);
  Value tensor_attr(const Value &t, const std::string &name, SourceLoc loc);
  Value tensor_method(const Value &t, const std::string &name, ValueList &args, Kwargs &kwargs,
                      SourceLoc loc);
  Value tensor_index(const Value &t, const Value &index, SourceLoc loc);
  TensorHandle new_tensor(DType dtype, const std::vector<int64_t> &sizes, SourceLoc loc);
  TensorHandle contiguous_copy(const TensorHandle &src, DType dtype, SourceLoc loc);

  // --- launches (launch.cpp) ---
  Value launch(const Value &launcher, ValueList args, Kwargs kwargs, SourceLoc loc);
  // The arguments of a launch as its decorators pass them on: kernel arguments by name
  // (the first `positional` were given by position) and launch options (num_warps, ...).
  struct Binding {
    std::vector<std::pair<std::string, Value>> args;
    size_t positional = 0;
    Kwargs options;
    Value *find(const std::string &name);
  };
  // Final: launch and record; Trial: launch and time (autotune), failures of the kernel
  // itself become TrialSkipped; Compile: build the request and compile it only.
  enum class LaunchMode { Final, Trial, Compile };
  struct TrialSkipped {
    std::string reason;
  };
  // Runs decorator `layer` (0 = outermost @triton.autotune / @triton.heuristics) and
  // those below it, then the launch. Returns the launch's cycles where the executor
  // times launches.
  std::optional<uint64_t> run_layers(const Value &launcher, size_t layer, Binding b, SourceLoc loc,
                                     LaunchMode mode);
  std::optional<uint64_t> jit_launch(const Value &launcher, Binding b, SourceLoc loc,
                                     LaunchMode mode);
  // A dict of the bound arguments (and options, with_options) for lambdas over `args`/`meta`.
  Value meta_dict(const Binding &b, bool with_options);

  // --- triton.Config, @triton.autotune, @triton.heuristics (autotune.cpp) ---
  struct AutotuneState;
  std::map<const ast::Call *, std::shared_ptr<AutotuneState>> autotuners;
  Value make_config(ValueList &args, Kwargs &kwargs, SourceLoc loc);
  Value config_attr(const Value &config, const std::string &name, SourceLoc loc);
  Value config_method(const Value &config, const std::string &name, ValueList &args, SourceLoc loc);
  AutotuneState &autotune_state(const ast::FunctionDef &kernel, const ast::Call &decorator);
  std::optional<uint64_t> autotune_launch(const Value &launcher, size_t layer,
                                          const ast::Call &decorator, Binding b, SourceLoc loc,
                                          LaunchMode mode);
  std::optional<uint64_t> heuristics_launch(const Value &launcher, size_t layer,
                                            const ast::Call &decorator, Binding b, SourceLoc loc,
                                            LaunchMode mode);

  // --- conversions ---
  int64_t to_int(const Value &v, SourceLoc loc, const std::string &what);
  double to_float(const Value &v, SourceLoc loc, const std::string &what);
  std::vector<int64_t> to_int_list(const Value &v, SourceLoc loc, const std::string &what);
  // Sizes given as f(2, 3) or f((2, 3)) or f([2, 3]).
  std::vector<int64_t> sizes_from_args(const ValueList &args, size_t first, SourceLoc loc,
                                       const std::string &what);
  Value from_wrapper_value(const WrapperValue &v);
  WrapperValue to_wrapper_value(const Value &v, SourceLoc loc);
  std::string format_value(const Value &v, const std::string &spec, SourceLoc loc);
};

// Pulls a keyword argument out of kwargs (nullopt when absent).
std::optional<Value> take_kwarg(Kwargs &kwargs, const std::string &name);
// Errors for leftover keyword arguments / too many positionals.
void no_more_kwargs(const WrapperInterpreter::Impl &impl, const Kwargs &kwargs,
                    const std::string &fn, SourceLoc loc);

}  // namespace opforge::compiler
