//===- parser.cpp - recursive-descent parser for the Triton Python subset --===//
//
// Entry points and import rules; the parser itself is in parser_impl.h,
// parser_stmt.cpp and parser_expr.cpp.
//
//===----------------------------------------------------------------------===//
#include "opforge/compiler/parser.h"

#include <functional>

#include "opforge/compiler/inductor_heuristics.h"
#include "parser_impl.h"

namespace opforge::compiler {

using namespace ast;
using parser_detail::Parser;

Module parse_module(std::shared_ptr<const SourceFile> file, ParseOptions options) {
  Module m;
  m.file = file->path();
  m.source = file;
  Parser p(*file, tokenize(*file));
  p.parse_file_body(m);
  if (options.check_imports) check_imports(m);
  if (options.inductor_helpers && is_inductor_kernel_source(m)) add_inductor_helpers(m);
  return m;
}

Module parse_source(const std::string &path, const std::string &text) {
  return parse_module(std::make_shared<SourceFile>(path, text));
}

Module parse_file(const std::string &path) { return parse_module(SourceFile::load(path)); }

ExprPtr parse_expression(const SourceFile &file) {
  auto toks = tokenize(file);
  Parser p(file, std::move(toks));
  return p.parse_single_expression();
}

namespace {

// Inductor's kernel imports: module -> the names it may import from it.
bool inductor_import(const std::string &module, const std::string &name) {
  if (module == "torch._inductor.runtime")
    return name == "triton_helpers" || name == "triton_heuristics";
  if (module == "torch._inductor.runtime.triton_helpers")
    return name == "libdevice" || name == "math";
  if (module == "torch._inductor.runtime.hints")
    return name == "AutotuneHint" || name == "ReductionHint" || name == "TileHint" ||
           name == "DeviceProperties";
  return false;
}

}  // namespace

std::string import_problem(const Stmt &s, bool inductor_kernel) {
  static const char *allowed_modules[] = {"torch", "triton", "triton.language", "math"};
  auto allowed_module = [](const std::string &n) {
    for (auto *a : allowed_modules)
      if (n == a) return true;
    return false;
  };
  if (auto *imp = s.as<Import>()) {
    for (auto &a : imp->names) {
      if (!allowed_module(a.name))
        return "import of module '" + a.name +
               "' is not allowed (allowed: torch, triton, triton.language, math)";
      if (a.name == "triton.language" && !a.asname.empty() && a.asname != "tl")
        return "'import triton.language' must bind the name 'tl' (import triton.language as tl)";
    }
    return {};
  }
  if (auto *from = s.as<ImportFrom>()) {
    if (from->level > 0) return "relative imports are not allowed";
    const std::string &mod = from->module;
    for (auto &a : from->names) {
      if (a.name == "*") return "'from " + mod + " import *' is not allowed";
      if (mod == "__future__" && a.name == "annotations") continue;
      if (mod == "triton" && a.name == "language") {
        if (!a.asname.empty() && a.asname != "tl")
          return "'from triton import language' must bind the name 'tl' (from triton import "
                 "language as tl)";
        continue;
      }
      if (mod == "triton" &&
          (a.name == "jit" || a.name == "autotune" || a.name == "heuristics" ||
           a.name == "Config" || a.name == "cdiv" || a.name == "next_power_of_2"))
        continue;
      if (mod == "triton.language.extra" && a.name == "libdevice") continue;
      if (mod == "triton.language" && (a.name == "math" || a.name == "constexpr")) continue;
      if (mod == "math") continue;
      if (inductor_kernel && inductor_import(mod, a.name)) continue;
      return "import of '" + a.name + "' from module '" + mod +
             "' is not allowed (allowed: torch, triton, "
             "triton.language as tl, math)";
    }
    return {};
  }
  return {};
}

void check_imports(const Module &m) {
  bool inductor_kernel = is_inductor_kernel_source(m);
  std::function<void(const StmtList &)> scan = [&](const StmtList &body) {
    for (auto &s : body) {
      std::string msg = import_problem(*s, inductor_kernel);
      if (!msg.empty()) throw CompileError::at(*m.source, s->loc, msg);
      if (auto *f = s->as<FunctionDef>())
        scan(f->body);
      else if (auto *i = s->as<If>()) {
        scan(i->body);
        scan(i->orelse);
      } else if (auto *fo = s->as<For>()) {
        scan(fo->body);
        scan(fo->orelse);
      } else if (auto *w = s->as<While>()) {
        scan(w->body);
        scan(w->orelse);
      }
    }
  };
  scan(m.body);
}

}  // namespace opforge::compiler
