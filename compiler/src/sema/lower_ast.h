//===- lower_ast.h - a jit function's AST lowered to ttir ------------------===//
//
// AstLowering walks one @triton.jit function's AST and builds its ttir with
// Semantic (semantic.h): statements and control flow (lower_ast.cpp),
// expressions (lower_ast_expr.cpp), calls and builtins (builtins*.cpp). It is
// Triton's CodeGenerator (code_generator.py); it generates no machine code
// (that is compiler/src/codegen/).
//
//===----------------------------------------------------------------------===//
#pragma once

#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "opforge/compiler/ast.h"
#include "opforge/compiler/diagnostics.h"
#include "semantic.h"

namespace opforge::compiler::sema {

using Kwargs = std::vector<std::pair<std::string, SValue>>;

class AstLowering {
 public:
  AstLowering(const ast::Module &m, ttir::Module &out) : m_(m), out_(out), sem_(b_) {}

  // Lowers `fn` into a new ttir function `ir_name`; `args` holds one value
  // per parameter (tensors become function arguments, constexprs are baked).
  // Returns the values of its return statement (empty when none).
  std::vector<SValue> lower_function(const ast::FunctionDef &fn, const std::string &ir_name,
                                     const std::vector<SValue> &args, bool is_kernel);

 private:
  const ast::Module &m_;
  ttir::Module &out_;
  ttir::Builder b_;
  Semantic sem_;
  std::map<std::string, SValue> env_;
  const ast::FunctionDef *fn_ = nullptr;
  bool has_return_ = false;
  SValue return_value_;
  std::map<std::string, std::vector<LType>> callee_results_;  // mangled callee -> result types
  int inline_depth_ = 0;

 public:
  std::string default_dot_precision_ = "ieee";

 private:
  [[noreturn]] void error(SourceLoc loc, const std::string &msg) const;
  SValue lookup(const std::string &name, SourceLoc loc);

  // statements
  void stmts(const ast::StmtList &body);
  void stmt(const ast::Stmt &s);
  void assign(const ast::Expr &target, const SValue &v);
  void lower_if(const ast::If &s);
  void lower_for(const ast::For &s);
  void lower_while(const ast::While &s);
  void assigned_names(const ast::StmtList &body, std::set<std::string> &out) const;

  // expressions
  SValue expr(const ast::Expr &e);
  SValue expr_impl(const ast::Expr &e);
  SValue binop(ast::BinOpKind op, const SValue &a, const SValue &b);
  SValue compare(ast::CmpOpKind op, const SValue &a, const SValue &b);
  SValue attribute(const SValue &base, const std::string &attr);
  SValue subscript(const SValue &base, const ast::Expr &index);
  SValue call(const ast::Call &c);
  SValue call_value(const SValue &fn, std::vector<SValue> args, Kwargs kwargs);
  SValue call_builtin(const std::string &name, std::vector<SValue> args, Kwargs kwargs);
  SValue call_python(const std::string &name, std::vector<SValue> args, Kwargs kwargs);
  SValue call_jit(const ast::FunctionDef &fn, std::vector<SValue> args, Kwargs kwargs);
  std::vector<SValue> bind_params(const ast::FunctionDef &fn, std::vector<SValue> args,
                                  Kwargs kwargs);
  // Lowers a jit function's body inline into the current block (combine functions).
  std::vector<SValue> inline_jit(const ast::FunctionDef &fn, const std::vector<SValue> &args);
  Semantic::Combine combine_fn(const SValue &fn);
  bool truthy(const SValue &v, SourceLoc loc);
};

// Python semantics on compile-time constants (ints, floats, bools, strings, tuples).
// tl/tl.math functions built from other operations (builtins_math.cpp);
// nullopt when `name` (without "tl.") is not one of them.
std::optional<SValue> extra_builtin(Semantic &S, const std::string &name,
                                    const std::vector<SValue> &args, const Kwargs &kw);
// tl.rand, tl.randn, tl.randint(4x), tl.philox and their helpers: Triton's
// Philox generator (builtins_random.cpp); nullopt for other names.
std::optional<SValue> random_builtin(Semantic &S, const std::string &name,
                                     const std::vector<SValue> &args, const Kwargs &kw);
// tl.extra.mtia.<name>(x[, y]): an ISA extension's intrinsic (builtins_ext.cpp).
SValue ext_intrinsic_call(Semantic &S, const std::string &name, const std::vector<SValue> &args,
                          const Kwargs &kw);
// tl.extra.mtia.{async_copy,wait,barrier,atomic_add,dot,sfu} (builtins_mtia.cpp,
// mtia_builtins.h); nullopt for other names.
std::optional<SValue> mtia_builtin_call(Semantic &S, const std::string &name,
                                        const std::vector<SValue> &args, const Kwargs &kw);
SValue constexpr_binop(ast::BinOpKind op, const SValue &a, const SValue &b);
std::optional<bool> constexpr_compare(ast::CmpOpKind op, const SValue &a, const SValue &b);

}  // namespace opforge::compiler::sema
