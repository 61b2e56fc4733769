//===- lint.cpp - lint rule table, driver and output formats ---------------===//
#include "opforge/compiler/lint.h"

#include <algorithm>

#include "lint_context.h"
#include "opforge/compiler/inductor_heuristics.h"
#include "opforge/compiler/parser.h"

namespace opforge::compiler {

const std::vector<LintRule> &lint_rules() {
  static const std::vector<LintRule> rules = {
      {"OPF000", "syntax-error", Severity::Error,
       "the file is not valid Python of the supported subset"},
      {"OPF001", "disallowed-import", Severity::Error,
       "imports other than torch, triton, triton.language as tl, math"},
      {"OPF002", "unsupported-dtype", Severity::Error,
       "an element type the target does not support (float64, complex, fp8)"},
      {"OPF003", "unsupported-tl-function", Severity::Error,
       "a Triton builtin that exists but the target does not support"},
      {"OPF004", "unknown-tl-function", Severity::Error,
       "an attribute of triton.language (or tl.math/libdevice) that does not exist"},
      {"OPF005", "unsupported-dot-form", Severity::Error,
       "tl.dot with an out_dtype or input_precision the target does not support"},
      {"OPF006", "scatter-store", Severity::Warning,
       "a store or atomic whose addresses are computed from loaded data"},
      {"OPF007", "gather-load", Severity::Warning,
       "a load whose addresses are computed from loaded data (when the table restricts it)"},
      {"OPF008", "unsupported-atomic", Severity::Error,
       "an atomic operation, semantic or scope the target does not support"},
      {"OPF009", "non-power-of-two-block", Severity::Error,
       "a constant tl.arange range or block shape that is not a power of two"},
      {"OPF010", "block-too-large", Severity::Error,
       "a constant block with more elements than the target allows"},
      {"OPF011", "torch-in-kernel", Severity::Error, "torch used inside a @triton.jit function"},
      {"OPF012", "debug-print-in-kernel", Severity::Warning,
       "print/tl.device_print/tl.static_print left in a kernel"},
      {"OPF013", "grid-too-many-dims", Severity::Error,
       "a launch grid with more dimensions than the target has"},
      {"OPF014", "missing-isa-extension", Severity::Error,
       "tl.extra.mtia.X where no loaded ISA extension defines intrinsic X (--isa-ext FILE)"},
      {"OPF015", "mtia-builtin-arguments", Severity::Error,
       "a tl.extra.mtia built-in (async_copy, wait, barrier, atomic_add, dot, sfu) called with "
       "arguments that do not fit its signature"},
      {"OPF101", "host-escape-builtin", Severity::Error,
       "open, eval, exec, compile, __import__, getattr-style reflection, globals, input, ..."},
      {"OPF102", "host-module", Severity::Error,
       "file, network, process or runtime modules (os, sys, subprocess, socket, torch.cuda, "
       "torch.load, ...)"},
      {"OPF103", "device-to-host", Severity::Error,
       ".cpu(), .cuda(), .numpy(), .item(), .tolist(), .pin_memory() or a 'cpu'/'cuda' device"},
      {"OPF104", "dunder-access", Severity::Error,
       "access to a double-underscore attribute or name (reflection)"},
      {"OPF105", "unimplemented-aten-op", Severity::Error,
       "a call to an ATen op the kernel library does not implement"},
      {"OPF106", "jit-called-directly", Severity::Error,
       "a @triton.jit function called from a wrapper without kernel[grid](...)"},
      {"OPF107", "launch-of-non-kernel", Severity::Error,
       "name[grid](...) where name is not a @triton.jit function of the file"},
      {"OPF108", "launch-arg-mismatch", Severity::Error,
       "a kernel launch whose arguments do not match the kernel's parameters"},
      {"OPF109", "module-level-code", Severity::Error,
       "top-level code other than imports, functions and constant assignments"},
      {"OPF110", "launch-inside-kernel", Severity::Error,
       "kernel[grid](...) inside a @triton.jit function"},
      {"OPF111", "missing-wrapper", Severity::Warning,
       "a file with kernels but no host wrapper function"},
  };
  return rules;
}

const LintRule *find_lint_rule(std::string_view id) {
  for (auto &r : lint_rules())
    if (r.id == id) return &r;
  return nullptr;
}

namespace lint_detail {

void Context::report(const std::string &rule, SourceLoc loc, const std::string &message) {
  const LintRule *r = find_lint_rule(rule);
  report(rule, r ? r->severity : Severity::Error, loc, message);
}

void Context::report(const std::string &rule, Severity severity, SourceLoc loc,
                     const std::string &message) {
  findings.push_back(LintFinding{rule, severity, message, module.file, loc});
}

std::string Context::resolve(const ast::Expr &e) const {
  std::string d = ast::dotted_name(e);
  if (d.empty()) return {};
  auto dot = d.find('.');
  std::string head = d.substr(0, dot);
  auto it = module_aliases.find(head);
  if (it == module_aliases.end()) return {};
  return it->second + (dot == std::string::npos ? "" : d.substr(dot));
}

bool Context::implemented(const std::string &op, const std::string &overload) const {
  for (auto &entry : options.implemented_ops) {
    auto dot = entry.find('.');
    std::string base = entry.substr(0, dot);
    if (!overload.empty()) {
      if (entry == op + "." + overload) return true;
    } else if (base == op) {
      return true;
    }
  }
  return false;
}

std::set<std::string> local_names(const ast::FunctionDef &f) {
  std::set<std::string> names;
  for (auto &p : f.params.params) names.insert(p.name);
  std::function<void(const ast::Expr &)> targets = [&](const ast::Expr &t) {
    if (auto *n = t.as<ast::Name>())
      names.insert(n->id);
    else if (auto *tu = t.as<ast::Tuple>())
      for (auto &x : tu->elts) targets(*x);
    else if (auto *l = t.as<ast::List>())
      for (auto &x : l->elts) targets(*x);
    else if (auto *s = t.as<ast::Starred>())
      targets(*s->value);
  };
  for (auto &s : f.body)
    ast::walk(
        *s,
        [&](const ast::Expr &e) {
          if (auto *c = e.as<ast::Comprehension>())
            for (auto &g : c->generators) targets(*g.target);
          if (auto *l = e.as<ast::Lambda>())
            for (auto &p : l->params.params) names.insert(p.name);
        },
        [&](const ast::Stmt &st) {
          if (auto *a = st.as<ast::Assign>())
            for (auto &t : a->targets) targets(*t);
          else if (auto *an = st.as<ast::AnnAssign>())
            targets(*an->target);
          else if (auto *au = st.as<ast::AugAssign>())
            targets(*au->target);
          else if (auto *fo = st.as<ast::For>())
            targets(*fo->target);
          else if (auto *fd = st.as<ast::FunctionDef>())
            names.insert(fd->name);
        });
  return names;
}

}  // namespace lint_detail

std::vector<LintFinding> lint_module(const ast::Module &m, const LintOptions &options) {
  const TargetCapabilities &caps =
      options.capabilities ? *options.capabilities : mtia_capabilities();
  lint_detail::Context ctx{m, caps, options, {}, {}, {}, {}};
  ctx.inductor_kernel = is_inductor_kernel_source(m);
  for (auto *f : m.functions()) (f->is_jit() ? ctx.jit_names : ctx.wrapper_names).insert(f->name);
  lint_detail::lint_imports_and_module_level(ctx);
  for (auto *f : m.functions()) {
    lint_detail::lint_common(ctx, *f, f->is_jit());
    if (f->is_jit()) {
      lint_detail::lint_kernel(ctx, *f);
      lint_detail::lint_mtia_calls(ctx, *f);
    } else
      lint_detail::lint_wrapper(ctx, *f);
  }
  if (!ctx.jit_names.empty() && ctx.wrapper_names.empty() && !ctx.inductor_kernel) {
    auto *k = m.function(*ctx.jit_names.begin());
    ctx.report("OPF111", k ? k->loc : SourceLoc{1, 1, 1, 1},
               "the file defines @triton.jit kernels but no host wrapper function (a plain def "
               "named after "
               "the ATen overload, e.g. add_Tensor)");
  }
  std::stable_sort(ctx.findings.begin(), ctx.findings.end(),
                   [](const LintFinding &a, const LintFinding &b) {
                     if (a.loc.line != b.loc.line) return a.loc.line < b.loc.line;
                     if (a.loc.col != b.loc.col) return a.loc.col < b.loc.col;
                     return a.rule < b.rule;
                   });
  // One finding per rule and location.
  ctx.findings.erase(std::unique(ctx.findings.begin(), ctx.findings.end(),
                                 [](const LintFinding &a, const LintFinding &b) {
                                   return a.rule == b.rule && a.loc.line == b.loc.line &&
                                          a.loc.col == b.loc.col;
                                 }),
                     ctx.findings.end());
  return std::move(ctx.findings);
}

std::vector<LintFinding> lint_source(const std::string &path, const std::string &text,
                                     const LintOptions &options) {
  auto file = std::make_shared<SourceFile>(path, text);
  ast::Module m;
  try {
    m = parse_module(file, ParseOptions{.check_imports = false, .inductor_helpers = false});
  } catch (const CompileError &e) {
    return {LintFinding{"OPF000", Severity::Error, e.message(), path, e.loc()}};
  }
  return lint_module(m, options);
}

std::vector<LintFinding> lint_file(const std::string &path, const LintOptions &options) {
  auto file = SourceFile::load(path);
  return lint_source(path, file->text(), options);
}

std::string format_finding(const LintFinding &f) {
  std::string out = f.file;
  if (f.loc.known()) out += ":" + std::to_string(f.loc.line) + ":" + std::to_string(f.loc.col);
  return out + ": " + f.rule + " " + f.message;
}

namespace {

// `text` with each byte that is not part of a well-formed UTF-8 sequence written
// as "\xF6": messages quote source bytes, and a JSON string must be UTF-8
// (nlohmann's dump throws on anything else).
std::string utf8_or_escaped(const std::string &text) {
  std::string out;
  out.reserve(text.size());
  const auto *p = reinterpret_cast<const unsigned char *>(text.data());
  const size_t n = text.size();
  for (size_t i = 0; i < n;) {
    const unsigned char c = p[i];
    size_t len = 0;
    unsigned char lo = 0x80, hi = 0xBF;  // the allowed range of the second byte
    if (c < 0x80)
      len = 1;
    else if (c >= 0xC2 && c <= 0xDF)
      len = 2;
    else if (c >= 0xE0 && c <= 0xEF) {
      len = 3;
      if (c == 0xE0) lo = 0xA0;  // no overlong forms
      if (c == 0xED) hi = 0x9F;  // no surrogates
    } else if (c >= 0xF0 && c <= 0xF4) {
      len = 4;
      if (c == 0xF0) lo = 0x90;
      if (c == 0xF4) hi = 0x8F;  // at most U+10FFFF
    }
    bool ok = len > 0 && i + len <= n;
    for (size_t k = 1; ok && k < len; ++k)
      ok = k == 1 ? (p[i + 1] >= lo && p[i + 1] <= hi) : (p[i + k] & 0xC0) == 0x80;
    if (ok) {
      out.append(text, i, len);
      i += len;
    } else {
      static const char hex[] = "0123456789ABCDEF";
      out += "\\x";
      out += hex[c >> 4];
      out += hex[c & 15];
      ++i;
    }
  }
  return out;
}

}  // namespace

nlohmann::json findings_to_json(const std::vector<LintFinding> &findings) {
  nlohmann::json arr = nlohmann::json::array();
  for (auto &f : findings) {
    const LintRule *r = find_lint_rule(f.rule);
    arr.push_back({{"file", utf8_or_escaped(f.file)},
                   {"line", f.loc.line},
                   {"col", f.loc.col},
                   {"end_line", f.loc.end_line},
                   {"end_col", f.loc.end_col},
                   {"rule", f.rule},
                   {"name", r ? r->name : ""},
                   {"severity", std::string(severity_name(f.severity))},
                   {"message", utf8_or_escaped(f.message)}});
  }
  return arr;
}

bool has_errors(const std::vector<LintFinding> &findings) {
  for (auto &f : findings)
    if (f.severity == Severity::Error) return true;
  return false;
}

}  // namespace opforge::compiler
