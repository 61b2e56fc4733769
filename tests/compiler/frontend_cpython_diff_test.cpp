//===- frontend_cpython_diff_test.cpp - our AST vs CPython's ast module ----===//
//
// Differential test against the real Python parser: for every test kernel
// and a corpus of the subset's syntax, CPython (python3's `ast`) and our
// parser must produce the same nodes (kind) at the same positions (start of
// every statement and expression, end of every expression). Node kinds are
// mapped to ours (JoinedStr -> FString, ListComp/GeneratorExp/... ->
// Comprehension); docstrings are skipped (we move them out of the body) and
// so are the insides of f-strings (CPython 3.11 gives them no positions).
//
//===----------------------------------------------------------------------===//
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>

#include "opforge/support/python.h"
#include "opforge/compiler/parser.h"

using namespace opforge::compiler;
using namespace opforge::compiler::ast;

namespace {

const char *kDumpScript = R"PY(
import ast, sys
src = open(sys.argv[1]).read()
tree = ast.parse(src)
names = {'JoinedStr': 'FString', 'ListComp': 'Comprehension', 'GeneratorExp': 'Comprehension',
         'SetComp': 'Comprehension', 'DictComp': 'Comprehension'}
def is_doc(s):
    return isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant) and isinstance(s.value.value, str)
def visit(n):
    if isinstance(n, (ast.stmt, ast.expr)):
        kind = names.get(type(n).__name__, type(n).__name__)
        if isinstance(n, ast.expr):
            print(kind, n.lineno, n.col_offset + 1, n.end_lineno, n.end_col_offset + 1)
        else:
            print(kind, n.lineno, n.col_offset + 1)
        if isinstance(n, ast.JoinedStr):
            return
    for field, value in ast.iter_fields(n):
        items = value if isinstance(value, list) else [value]
        for i, c in enumerate(items):
            if isinstance(c, ast.AST):
                if field == 'body' and i == 0 and isinstance(n, (ast.Module, ast.FunctionDef)) and is_doc(c):
                    continue
                visit(c)
visit(tree)
)PY";

std::vector<std::string> cpython_nodes(const std::string &path) {
  std::string script = testing::TempDir() + "/opforge_ast_dump.py";
  std::ofstream(script) << kDumpScript;
  std::string cmd = opforge::project_python() + " " + script + " " + path + " 2>&1";
  FILE *p = popen(cmd.c_str(), "r");
  std::vector<std::string> lines;
  if (!p) return lines;
  char buf[512];
  while (fgets(buf, sizeof buf, p)) {
    std::string l(buf);
    if (!l.empty() && l.back() == '\n') l.pop_back();
    lines.push_back(l);
  }
  EXPECT_EQ(pclose(p), 0) << "python3 failed on " << path;
  return lines;
}

void collect(const Expr &e, std::vector<std::string> &out) {
  auto &l = e.loc;
  out.push_back(std::string(expr_kind_name(e.kind)) + " " + std::to_string(l.line) + " " +
                std::to_string(l.col) + " " + std::to_string(l.end_line) + " " +
                std::to_string(l.end_col));
  if (e.is<FString>()) return;
  for_each_child(e, [&](const Expr &c) { collect(c, out); });
}

void collect(const Stmt &s, std::vector<std::string> &out) {
  out.push_back(std::string(stmt_kind_name(s.kind)) + " " + std::to_string(s.loc.line) + " " +
                std::to_string(s.loc.col));
  for_each_child(
      s, [&](const Expr &e) { collect(e, out); }, [&](const Stmt &c) { collect(c, out); });
}

std::vector<std::string> our_nodes(const std::string &path) {
  Module m = parse_module(SourceFile::load(path), ParseOptions{.check_imports = false});
  std::vector<std::string> out;
  for (auto &s : m.body) collect(*s, out);
  return out;
}

void compare(const std::string &path) {
  auto py = cpython_nodes(path), ours = our_nodes(path);
  // Child order differs between the two trees (e.g. CPython lists a function's
  // body before its decorators); the sets of (kind, position) must agree.
  std::sort(py.begin(), py.end());
  std::sort(ours.begin(), ours.end());
  std::vector<std::string> only_py, only_ours;
  std::set_difference(py.begin(), py.end(), ours.begin(), ours.end(), std::back_inserter(only_py));
  std::set_difference(ours.begin(), ours.end(), py.begin(), py.end(),
                      std::back_inserter(only_ours));
  std::string report;
  for (auto &l : only_py) report += "  only CPython: " + l + "\n";
  for (auto &l : only_ours) report += "  only opforge: " + l + "\n";
  EXPECT_TRUE(report.empty()) << path << "\n" << report;
  EXPECT_GT(py.size(), 10u);
}

const char *kSyntaxCorpus = R"PY("""Module docstring."""
import torch
import triton.language as tl
from triton import language as tl2, cdiv as cd


@triton.autotune(configs=[triton.Config({'B': 64}, num_warps=4)], key=['n'])
@triton.jit(do_not_specialize=['n'])
def k(x_ptr, n, *, B: tl.constexpr = 16, **kw) -> None:
    """Kernel docstring."""
    offs = tl.program_id(axis=0) * B + tl.arange(0, B)[:, None] + t[None, :]
    a, *b = c, d = 1, 2
    e: tl.tensor = -x ** -2 ** 3 // 4 % 5 @ m
    e <<= 1; e >>= 2; e |= 3
    f = a if b else c if d else g
    g = not a and b or c and not d
    h = 0 <= i < n != m is not None
    i = k not in s and k in t
    j = x[1:3, ::2, ..., -1] + y[:] + z[::] + w[a:b:c]
    l = {'a': 1, **rest}, {1, 2}, [*xs, 3], (4,), ()
    m = [v * 2 for v in range(n) if v % 2 for u in v]
    o = {k: v for k, v in d.items()}, {s for s in t}, sum(x for x in y)
    p = lambda meta, *a, q=1, **kw: (triton.cdiv(n, meta['BLOCK']),)
    q = f'{n!r:>{w}} and {{x}} {a + 1=}' + 'plain' 'concat'
    r = 0x_ff + 1_000 + 0o17 + 0b1 + 1.5e-3 + .5 + 2. + 1_0.2_5
    s = (1 +
         2) + \
        3
    for t in tl.static_range(4):
        if t == 0:
            continue
        elif t == 1:
            pass
        else:
            break
    else:
        pass
    while e > 0:
        e -= 1
    assert e == 0, 'message'
    raise ValueError(f"bad {e}") from None


def w(self, other, *, alpha=1):
    return k[lambda m: (1,)](self, other.shape[0], B=alpha)
)PY";

}  // namespace

TEST(FrontendVsCPython, EveryTestKernelParsesToTheSameNodesAndPositions) {
  std::string dir = std::string(OPFORGE_SOURCE_DIR) + "/tests/compiler/kernels";
  int files = 0;
  for (auto &e : std::filesystem::directory_iterator(dir)) {
    if (e.path().extension() != ".py") continue;
    ++files;
    compare(e.path().string());
  }
  EXPECT_GE(files, 8);
}

TEST(FrontendVsCPython, SyntaxCorpusParsesToTheSameNodesAndPositions) {
  std::string path = testing::TempDir() + "/opforge_syntax_corpus.py";
  std::ofstream(path) << kSyntaxCorpus;
  compare(path);
}
