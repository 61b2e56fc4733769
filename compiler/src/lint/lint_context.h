//===- lint_context.h - shared state of one lint run (internal) ------------===//
#pragma once

#include <map>
#include <set>
#include <string>
#include <vector>

#include "opforge/compiler/lint.h"

namespace opforge::compiler::lint_detail {

struct Context {
  const ast::Module &module;
  const TargetCapabilities &caps;
  const LintOptions &options;
  std::vector<LintFinding> findings;

  // Names bound to modules by the imports: alias -> module ("tl" -> "triton.language").
  std::map<std::string, std::string> module_aliases;
  std::set<std::string> jit_names;      // @triton.jit functions of the module
  std::set<std::string> wrapper_names;  // other top-level functions
  // An Inductor kernel source (inductor_heuristics.h): Inductor's imports, the
  // triton_helpers.set_driver_to_gpu() line, the triton_heuristics decorator and
  // triton_helpers.X calls are allowed; libdevice and tl_math are triton.language.math.
  bool inductor_kernel = false;

  void report(const std::string &rule, SourceLoc loc, const std::string &message);
  void report(const std::string &rule, Severity severity, SourceLoc loc,
              const std::string &message);

  // The module path an expression names after resolving import aliases:
  // `tl.math.exp` -> "triton.language.math.exp", `torch.float64` -> "torch.float64".
  // Empty when the expression is not rooted at an imported module.
  std::string resolve(const ast::Expr &e) const;
  // True when an ATen overload or op base name is in options.implemented_ops.
  bool implemented(const std::string &op, const std::string &overload = {}) const;
};

// Names bound inside a function: its parameters and every assignment,
// for/comprehension target and lambda parameter in it.
std::set<std::string> local_names(const ast::FunctionDef &f);

void lint_imports_and_module_level(Context &ctx);
void lint_kernel(Context &ctx, const ast::FunctionDef &f);
// OPF015: tl.extra.mtia built-ins called with arguments that do not fit (lint_mtia.cpp).
void lint_mtia_calls(Context &ctx, const ast::FunctionDef &f);
void lint_wrapper(Context &ctx, const ast::FunctionDef &f);
// Rules that hold in kernels and wrappers alike (dtypes, host escapes, dunders).
void lint_common(Context &ctx, const ast::FunctionDef &f, bool in_kernel);

}  // namespace opforge::compiler::lint_detail
