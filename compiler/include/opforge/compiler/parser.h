//===- parser.h - recursive-descent parser for Triton source files --------===//
//
// Builds an ast::Module (ast.h) from Python source following Python 3's
// grammar and precedence for the subset Triton kernels and their host
// wrappers use. Syntax errors are CompileErrors carrying file:line:col and
// the source line with a caret (diagnostics.h), worded like CPython's.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <memory>
#include <string>

#include "opforge/compiler/ast.h"
#include "opforge/compiler/diagnostics.h"

namespace opforge::compiler {

struct ParseOptions {
  // Reject imports other than the recognised ones (check_imports). The
  // linter turns this off to report every bad import as a finding.
  bool check_imports = true;
  // Append opforge's triton_helpers to an Inductor kernel source
  // (inductor_heuristics.h). The linter turns this off.
  bool inductor_helpers = true;
};

// Parses a whole file held in memory.
ast::Module parse_module(std::shared_ptr<const SourceFile> file, ParseOptions options = {});
// Convenience: parse `text` as if it were the file `path`.
ast::Module parse_source(const std::string &path, const std::string &text);
// Reads and parses a file; throws opforge::Error when it cannot be read.
ast::Module parse_file(const std::string &path);

// Parses one expression (e.g. a --constexpr value or a grid spec); the
// Module-less result refers to `file` only for error messages.
ast::ExprPtr parse_expression(const SourceFile &file);

// The imports a kernel source file may contain: `import torch`, `import
// triton`, `import triton.language as tl`, `import math`, `from triton import
// language as tl` (and the other names of the triton package), `from
// triton.language.extra import libdevice`, `from __future__ import
// annotations`; in an Inductor kernel source (`inductor_kernel`) also Inductor's
// `from torch._inductor.runtime import triton_helpers, triton_heuristics`,
// `from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math`
// and `from torch._inductor.runtime.hints import ...`. Returns a message for a
// disallowed import, empty when allowed.
std::string import_problem(const ast::Stmt &import_stmt, bool inductor_kernel = false);
// Throws a CompileError at the first disallowed import.
void check_imports(const ast::Module &m);

}  // namespace opforge::compiler
