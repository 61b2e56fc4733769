//===- lint_common_rules.cpp - imports, module level, dtypes, host escapes -===//
#include "lint_context.h"
#include "opforge/compiler/inductor_heuristics.h"
#include "opforge/compiler/parser.h"

#include <algorithm>

namespace opforge::compiler::lint_detail {

using namespace ast;

namespace {

// Calls a module-level assignment may make: values the wrapper interpreter computes when it
// loads the file (autotune config lists: triton.Config, comprehensions, the builtins below
// and the file's own host functions, as tutorial 06's `list(filter(keep, configs))`).
const std::set<std::string> kModuleLevelBuiltins = {
    "list", "tuple", "range", "filter", "map",  "len", "min", "max", "sorted", "reversed",
    "zip",  "dict",  "int",   "float",  "bool", "str", "abs", "sum", "any",    "all"};

// `triton_helpers.set_driver_to_gpu()`, the line every Inductor kernel source has.
bool inductor_driver_line(const Stmt &s) {
  auto *es = s.as<ExprStmt>();
  auto *c = es ? es->value->as<Call>() : nullptr;
  return c && c->args.empty() && c->keywords.empty() &&
         dotted_name(*c->func) == "triton_helpers.set_driver_to_gpu";
}

}  // namespace

void lint_imports_and_module_level(Context &ctx) {
  std::set<std::string> host_functions;
  for (auto &s : ctx.module.body)
    if (auto *f = s->as<FunctionDef>(); f && f->decorators.empty()) host_functions.insert(f->name);
  for (auto &s : ctx.module.body) {
    if (s->is<Import>() || s->is<ImportFrom>()) {
      std::string problem = import_problem(*s, ctx.inductor_kernel);
      if (!problem.empty()) ctx.report("OPF001", s->loc, problem);
      if (auto *imp = s->as<Import>()) {
        for (auto &a : imp->names) {
          std::string bound = a.asname.empty() ? a.name.substr(0, a.name.find('.')) : a.asname;
          ctx.module_aliases[bound] = a.asname.empty() ? bound : a.name;
        }
      } else {
        auto &from = s->cast<ImportFrom>();
        for (auto &a : from.names)
          if (a.name != "*") {
            std::string path = from.module + "." + a.name;
            // Inductor's libdevice and math are the target's math functions.
            if (ctx.inductor_kernel && from.module == "torch._inductor.runtime.triton_helpers")
              path = "triton.language.math";
            ctx.module_aliases[a.asname.empty() ? a.name : a.asname] = path;
          }
      }
      continue;
    }
    if (ctx.inductor_kernel && inductor_driver_line(*s)) continue;
    if (s->is<FunctionDef>()) continue;
    if (auto *es = s->as<ExprStmt>(); es && es->value->is<Constant>()) continue;
    if (auto *a = s->as<Assign>()) {
      bool constant = true;
      walk(*a->value, [&](const Expr &e) {
        if (auto *c = e.as<Call>()) {
          std::string callee = ctx.resolve(*c->func);
          std::string name = c->func->is<Name>() ? ast::dotted_name(*c->func) : "";
          if (callee != "triton.language.constexpr" && callee != "triton.Config" &&
              !kModuleLevelBuiltins.count(name) && !host_functions.count(name))
            constant = false;
        } else if (e.is<Lambda>()) {
          constant = false;
        }
      });
      bool names_only = true;
      for (auto &t : a->targets)
        if (!t->is<Name>()) names_only = false;
      if (constant && names_only) continue;
    }
    ctx.report(
        "OPF109", s->loc,
        "top-level '" + std::string(stmt_kind_name(s->kind)) +
            "' statement: a kernel file may only hold imports, functions and constant assignments");
  }
}

namespace {

const std::set<std::string> kEscapeBuiltins = {"open",         "eval",       "exec",
                                               "compile",      "__import__", "input",
                                               "globals",      "locals",     "vars",
                                               "getattr",      "setattr",    "delattr",
                                               "hasattr",      "breakpoint", "exit",
                                               "quit",         "help",       "memoryview",
                                               "dir",          "id",         "object",
                                               "super",        "type",       "classmethod",
                                               "staticmethod", "property",   "__build_class__",
                                               "print"};
// Names that are escapes even when only referenced (passing eval around).
const std::set<std::string> kEscapeReferences = {
    "eval", "exec",    "compile", "__import__", "globals",    "locals",
    "vars", "getattr", "setattr", "delattr",    "breakpoint", "__builtins__"};
const std::set<std::string> kHostModules = {
    "os",        "sys",      "subprocess", "socket",          "shutil",   "pathlib",
    "io",        "pickle",   "ctypes",     "urllib",          "requests", "http",
    "importlib", "builtins", "threading",  "multiprocessing", "signal",   "tempfile",
    "glob",      "inspect",  "gc",         "marshal",         "shelve",   "asyncio",
    "select"};
const std::vector<std::string> kHostTorch = {"torch.load",
                                             "torch.save",
                                             "torch.hub",
                                             "torch.cuda",
                                             "torch.distributed",
                                             "torch.utils",
                                             "torch.backends",
                                             "torch.multiprocessing",
                                             "torch.jit",
                                             "torch.compile",
                                             "torch._C",
                                             "torch._dynamo",
                                             "torch._inductor",
                                             "torch.library",
                                             "torch.classes",
                                             "torch.package",
                                             "torch.onnx",
                                             "torch.profiler",
                                             "torch.set_default_device",
                                             "torch.manual_seed",
                                             "torch.from_numpy",
                                             "torch.as_tensor",
                                             "torch.tensor",
                                             "torch.cpu",
                                             "torch.mps",
                                             "torch.xpu",
                                             "triton.compile",
                                             "triton.runtime",
                                             "triton.testing",
                                             "triton.tools",
                                             "triton.backends",
                                             "triton.knobs",
                                             "triton.compiler"};

bool starts_with_path(const std::string &s, const std::string &prefix) {
  return s == prefix || (s.size() > prefix.size() && s.compare(0, prefix.size(), prefix) == 0 &&
                         s[prefix.size()] == '.');
}

}  // namespace

void lint_common(Context &ctx, const FunctionDef &f, bool in_kernel) {
  std::set<std::string> locals = local_names(f);
  std::set<const Expr *> inner_attrs;  // Attribute nodes that are the value of another Attribute
  std::set<const Expr *> callees;
  auto on_expr = [&](const Expr &e) {
    if (auto *a = e.as<Attribute>()) {
      if (a->value->is<Attribute>()) inner_attrs.insert(a->value.get());
      if (a->attr.size() > 4 && a->attr.rfind("__", 0) == 0 &&
          a->attr.substr(a->attr.size() - 2) == "__")
        ctx.report("OPF104", a->attr_loc,
                   "access to attribute '" + a->attr + "' is reflection and is not allowed");
    }
    if (auto *c = e.as<Call>()) {
      callees.insert(c->func.get());
      if (auto *n = c->func->as<Name>(); n && kEscapeBuiltins.count(n->id) &&
                                         !locals.count(n->id) && !ctx.jit_names.count(n->id) &&
                                         !ctx.wrapper_names.count(n->id)) {
        if (n->id == "print") {
          if (in_kernel)
            ctx.report("OPF012", c->loc,
                       "print() in a kernel; remove it or use tl.device_print while debugging");
          else
            ctx.report("OPF101", c->loc,
                       "print() in a wrapper writes to the host's stdout; raise an error or return "
                       "values instead");
        } else {
          ctx.report("OPF101", c->loc,
                     "call to '" + n->id + "' is a host escape and is not allowed");
        }
      }
    }
    if (auto *n = e.as<Name>()) {
      if (kEscapeReferences.count(n->id) && !locals.count(n->id))
        ctx.report("OPF101", n->loc, "'" + n->id + "' is a host escape and is not allowed");
      else if (n->id.size() > 4 && n->id.rfind("__", 0) == 0 &&
               n->id.substr(n->id.size() - 2) == "__" && !kEscapeReferences.count(n->id))
        ctx.report("OPF104", n->loc, "name '" + n->id + "' is reflection and is not allowed");
      if (kHostModules.count(n->id) && !locals.count(n->id))
        ctx.report("OPF102", n->loc,
                   "module '" + n->id +
                       "' gives access to the host (files, processes, network) and is not allowed");
      if (in_kernel && n->id == "torch" && !locals.count("torch"))
        ctx.report("OPF011", n->loc,
                   "torch is not available inside a @triton.jit function; use tl.* builtins");
    }
  };
  std::vector<const Expr *> all;
  for (auto &d : f.decorators) {
    // Inductor's decorator is data (read_inductor_kernel reads it as literals).
    auto *dc = d->as<Call>();
    if (ctx.inductor_kernel && dc && dotted_name(*dc->func).rfind("triton_heuristics.", 0) == 0)
      continue;
    walk(*d, [&](const Expr &e) { all.push_back(&e); });
  }
  for (auto &p : f.params.params) {
    if (p.annotation) walk(*p.annotation, [&](const Expr &e) { all.push_back(&e); });
    if (p.default_value) walk(*p.default_value, [&](const Expr &e) { all.push_back(&e); });
  }
  for (auto &s : f.body)
    walk(
        *s, [&](const Expr &e) { all.push_back(&e); }, [](const Stmt &) {});
  for (auto *e : all) on_expr(*e);

  // Dtypes and host modules reached through attribute chains (outermost chain only).
  for (auto *e : all) {
    auto *a = e->as<Attribute>();
    if (!a || inner_attrs.count(e)) continue;
    std::string path = ctx.resolve(*e);
    if (path.empty()) continue;
    std::string leaf = a->attr;
    if (path.rfind("torch.", 0) == 0 || path.rfind("triton.language.", 0) == 0) {
      std::string problem = ctx.caps.dtype_problem(leaf);
      bool is_dtype_name =
          problem.size() && (path == "torch." + leaf || path == "triton.language." + leaf);
      if (is_dtype_name) ctx.report("OPF002", a->loc, "'" + unparse(*e) + "': " + problem);
    }
    static const std::string helpers = "torch._inductor.runtime.triton_helpers.";
    if (ctx.inductor_kernel && path.rfind(helpers, 0) == 0) {
      std::string name = path.substr(helpers.size());
      auto known = inductor_helper_names();
      if (std::find(known.begin(), known.end(), name) == known.end())
        ctx.report("OPF004", a->attr_loc,
                   "opforge's triton_helpers has no '" + name +
                       "' (docs/compiler/inductor.md lists the helpers)");
      continue;
    }
    for (auto &h : kHostTorch)
      if (starts_with_path(path, h)) {
        ctx.report("OPF102", a->loc,
                   "'" + unparse(*e) + "' reaches host or runtime facilities (" + h +
                       ") and is not allowed");
        break;
      }
  }
  // Method-style dtype conversions to unsupported types.
  for (auto *e : all) {
    auto *c = e->as<Call>();
    if (!c) continue;
    if (auto *a = c->func->as<Attribute>()) {
      if ((a->attr == "double" || a->attr == "cdouble" || a->attr == "cfloat") && c->args.empty() &&
          ctx.resolve(*a).empty())
        ctx.report("OPF002", a->attr_loc,
                   "'." + a->attr + "()' converts to " + canonical_tl_dtype(a->attr) + ": " +
                       ctx.caps.dtype_problem(a->attr));
    }
    for (auto &k : c->keywords) {
      if (k.name != "dtype") continue;
      if (auto *s = k.value->as<Constant>(); s && s->is_str()) {
        std::string problem = ctx.caps.dtype_problem(std::get<std::string>(s->value));
        if (!problem.empty())
          ctx.report("OPF002", k.value->loc,
                     "dtype '" + std::get<std::string>(s->value) + "': " + problem);
      }
    }
  }
}

}  // namespace opforge::compiler::lint_detail
