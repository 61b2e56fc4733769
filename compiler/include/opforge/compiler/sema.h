//===- sema.h - semantic layer: a @triton.jit function's AST -> ttir --------===//
//
// The analogue of Triton's code_generator.py + semantic.py: lowers one jit
// function, specialised on its argument types (pointer dtypes, integer and
// float scalars) and constexpr values, to a ttir Module. Block types,
// pointer arithmetic, scalar/block promotion, numpy broadcasting and Triton's
// type-promotion rules (computation_type_impl) are applied as Triton does;
// see docs/compiler/semantics.md for the rules and the builtins supported.
// Errors are CompileError with file:line:col and a caret at the offending
// expression.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <variant>
#include <vector>

#include "opforge/compiler/ast.h"
#include "opforge/compiler/executor.h"
#include "opforge/compiler/ir.h"

namespace opforge::compiler {

// How one parameter of the kernel is specialised.
struct ParamSpec {
  enum class Kind { Pointer, Int, Float, Bool, Constexpr } kind = Kind::Int;
  // Signature type for runtime parameters: "*fp32", "*bf16", "i32", "i64", "u32", "fp32", "i1".
  std::string type;
  // Constexpr value (Kind::Constexpr).
  enum class CKind { None, Bool, Int, Float, Str, DType } ckind = CKind::None;
  int64_t i = 0;
  double f = 0;
  std::string s;            // string value, or dtype name ("float16")
  std::string key() const;  // "*fp32", "i32", "constexpr=1024"
};

struct Specialization {
  std::map<std::string, ParamSpec> params;  // by parameter name
  std::string key() const;                  // cache key: parameter specs in name order
};

// Parses "x_ptr=*fp32, n=i32" into runtime parameter specs.
void add_signature(Specialization &spec, const std::string &signature);
// Parses "BLOCK=1024" (int, float, True/False, None, 'str', or tl dtype names).
void add_constexpr(Specialization &spec, const std::string &assignment);
// Fills constexprs not yet in `spec` from the first triton.Config of the
// kernel's @triton.autotune decorator (the documented "pick the first config"
// policy); returns the names added.
std::vector<std::string> add_autotune_defaults(const ast::FunctionDef &kernel,
                                               Specialization &spec);
// Specialisation of a launch (tensor dtypes, scalar kinds, constexpr values).
Specialization specialization_of(const LaunchRequest &request);

struct LoweredKernel {
  std::shared_ptr<ttir::Module> module;  // the kernel and the jit functions it calls
  std::string name;                      // the kernel's ttir function
  std::vector<std::string>
      runtime_params;  // non-constexpr parameters, in order (the ttir arguments)
};

// Lowers `kernel` (a @triton.jit function of `m`). Parameters not named in
// `spec` that have a default value are constexpr-specialised on it; others
// are an error naming the parameter.
LoweredKernel lower_kernel(const ast::Module &m, const std::string &kernel,
                           const Specialization &spec);

// Caches lowered kernels by (source file, kernel, specialisation key).
class KernelCache {
 public:
  std::shared_ptr<const LoweredKernel> get(const ast::Module &m, const std::string &kernel,
                                           const Specialization &spec);
  size_t size() const;
  size_t hits() const { return hits_; }

 private:
  mutable std::mutex mu_;
  std::map<std::string, std::shared_ptr<const LoweredKernel>> cache_;
  size_t hits_ = 0;
};

}  // namespace opforge::compiler
