//===- frontend_parser_test.cpp - parser: statements, expressions, kernels -===//
#include <filesystem>
#include <gtest/gtest.h>

#include "opforge/compiler/parser.h"

using namespace opforge::compiler;
using namespace opforge::compiler::ast;

namespace {

Module parse(const std::string &text) { return parse_source("t.py", text); }

const Expr &first_value(const Module &m) {
  auto &s = *m.body.at(0);
  if (auto *a = s.as<Assign>()) return *a->value;
  return *s.cast<ExprStmt>().value;
}

std::string expr_text(const std::string &src) { return unparse(first_value(parse(src))); }

const std::string kKernelDir = std::string(OPFORGE_SOURCE_DIR) + "/tests/compiler/kernels";

}  // namespace

TEST(FrontendParser, ParsesEveryTestKernel) {
  int files = 0;
  for (auto &entry : std::filesystem::directory_iterator(kKernelDir)) {
    if (entry.path().extension() != ".py") continue;
    ++files;
    SCOPED_TRACE(entry.path().string());
    Module m = parse_file(entry.path().string());
    EXPECT_FALSE(m.jit_functions().empty());
    EXPECT_FALSE(m.wrapper_functions().empty());
    EXPECT_FALSE(m.docstring.empty());
  }
  EXPECT_GE(files, 8);
}

TEST(FrontendParser, KernelSignatureAndDecorators) {
  Module m = parse_file(kKernelDir + "/autotuned.py");
  const FunctionDef *k = m.function("scale_shift_kernel");
  ASSERT_NE(k, nullptr);
  EXPECT_TRUE(k->is_jit());
  ASSERT_EQ(k->decorators.size(), 2u);
  const Expr *at = k->decorator("triton.autotune");
  ASSERT_NE(at, nullptr);
  auto &call = at->cast<Call>();
  const Keyword *configs = call.keyword("configs");
  ASSERT_NE(configs, nullptr);
  auto &list = configs->value->cast<List>();
  ASSERT_EQ(list.elts.size(), 2u);
  EXPECT_EQ(unparse(*list.elts[1]), "triton.Config({'BLOCK_SIZE': 1024}, num_warps=8)");
  ASSERT_EQ(k->params.params.size(), 7u);
  auto &bs = k->params.params[6];
  EXPECT_EQ(bs.name, "BLOCK_SIZE");
  ASSERT_TRUE(bs.annotation);
  EXPECT_EQ(dotted_name(*bs.annotation), "tl.constexpr");
  EXPECT_EQ(bs.loc.line, 16);

  const FunctionDef *w = m.function("leaky_relu_default");
  ASSERT_NE(w, nullptr);
  EXPECT_FALSE(w->is_jit());
  ASSERT_EQ(w->params.params.size(), 2u);
  EXPECT_EQ(unparse(*w->params.params[1].default_value), "0.01");
}

TEST(FrontendParser, KeywordOnlyParametersAndDefaults) {
  Module m = parse("def add_Tensor(self, other, *, alpha=1):\n    return self\n");
  auto &f = m.body[0]->cast<FunctionDef>();
  ASSERT_EQ(f.params.params.size(), 3u);
  EXPECT_EQ(f.params.params[1].kind, ParamKind::Positional);
  EXPECT_EQ(f.params.params[2].kind, ParamKind::KwOnly);
  EXPECT_EQ(f.params.params[2].name, "alpha");
  Module v = parse("def f(a, *args, b, **kw):\n    pass\n");
  auto &g = v.body[0]->cast<FunctionDef>();
  EXPECT_EQ(g.params.params[1].kind, ParamKind::VarArgs);
  EXPECT_EQ(g.params.params[2].kind, ParamKind::KwOnly);
  EXPECT_EQ(g.params.params[3].kind, ParamKind::VarKw);
}

TEST(FrontendParser, OperatorPrecedenceFollowsPython) {
  EXPECT_EQ(expr_text("a + b * c ** -d ** e\n"), "a + b * c ** -d ** e");
  auto m = parse("x = a + b * c\n");
  auto &add = first_value(m).cast<BinOp>();
  EXPECT_EQ(add.op, BinOpKind::Add);
  EXPECT_EQ(add.right->cast<BinOp>().op, BinOpKind::Mult);
  // ** binds tighter than unary minus on its left, and is right-associative.
  auto m2 = parse("x = -a ** b ** c\n");
  auto &neg = first_value(m2).cast<UnaryOp>();
  EXPECT_EQ(neg.op, UnaryOpKind::USub);
  auto &pw = neg.operand->cast<BinOp>();
  EXPECT_EQ(pw.op, BinOpKind::Pow);
  EXPECT_EQ(pw.right->cast<BinOp>().op, BinOpKind::Pow);
  // Shifts below arithmetic, & below shifts, comparison below |.
  auto m3 = parse("x = a & b << 1 + c | d < e\n");
  auto &cmp = first_value(m3).cast<Compare>();
  EXPECT_EQ(cmp.left->cast<BinOp>().op, BinOpKind::BitOr);
  EXPECT_EQ(expr_text("x = (a + b) * c\n"), "(a + b) * c");
  EXPECT_EQ(expr_text("x = not a and b or c\n"), "not a and b or c");
  auto m4 = parse("x = not a and b or c\n");
  EXPECT_EQ(first_value(m4).cast<BoolOp>().op, BoolOpKind::Or);
  EXPECT_EQ(expr_text("x = a // b % c @ d\n"), "a // b % c @ d");
  EXPECT_EQ(expr_text("x = a - (b - c)\n"), "a - (b - c)");
}

TEST(FrontendParser, ComparisonChainsAndTernary) {
  auto m = parse("x = 0 <= i < n != m is not None\n");
  auto &c = first_value(m).cast<Compare>();
  ASSERT_EQ(c.ops.size(), 4u);
  EXPECT_EQ(c.ops[0], CmpOpKind::LtE);
  EXPECT_EQ(c.ops[3], CmpOpKind::IsNot);
  EXPECT_EQ(expr_text("y = a if c else b if d else e\n"), "a if c else b if d else e");
  auto m2 = parse("y = a if c else b if d else e\n");
  auto &i = first_value(m2).cast<IfExp>();
  EXPECT_TRUE(i.orelse->is<IfExp>());
  EXPECT_EQ(expr_text("z = k not in s\n"), "k not in s");
}

TEST(FrontendParser, SubscriptsWithSlicesAndNone) {
  auto m = parse("x = offs[:, None] + t[None, :] + a[1:3] + b[::2] + c.shape[0] + d[..., 1:]\n");
  EXPECT_EQ(unparse(first_value(m)),
            "offs[:, None] + t[None, :] + a[1:3] + b[::2] + c.shape[0] + d[..., 1:]");
  auto m2 = parse("x = offs[:, None]\n");
  auto &s = first_value(m2).cast<Subscript>();
  auto &t = s.index->cast<Tuple>();
  ASSERT_EQ(t.elts.size(), 2u);
  EXPECT_TRUE(t.elts[0]->is<Slice>());
  EXPECT_TRUE(t.elts[1]->cast<Constant>().is_none());
}

TEST(FrontendParser, LiteralsIntsFloatsHexUnderscores) {
  auto m =
      parse("x = (0x1F, 1_000_000, 0o17, 0b101, 1e-5, 2., .5, 1_0.2_5, 0xFFFFFFFFFFFFFFFF, 0)\n");
  auto &t = first_value(m).cast<Tuple>();
  auto ival = [&](int i) {
    return std::get<int64_t>(t.elts[static_cast<size_t>(i)]->cast<Constant>().value);
  };
  auto fval = [&](int i) {
    return std::get<double>(t.elts[static_cast<size_t>(i)]->cast<Constant>().value);
  };
  EXPECT_EQ(ival(0), 31);
  EXPECT_EQ(ival(1), 1000000);
  EXPECT_EQ(ival(2), 15);
  EXPECT_EQ(ival(3), 5);
  EXPECT_DOUBLE_EQ(fval(4), 1e-5);
  EXPECT_DOUBLE_EQ(fval(5), 2.0);
  EXPECT_DOUBLE_EQ(fval(6), 0.5);
  EXPECT_DOUBLE_EQ(fval(7), 10.25);
  EXPECT_EQ(ival(8), -1);
  EXPECT_TRUE(t.elts[8]->cast<Constant>().big_unsigned);
  EXPECT_EQ(ival(9), 0);
}

TEST(FrontendParser, StringsEscapesTripleQuotedAndConcatenation) {
  auto m = parse("x = 'a\\n' \"b\\x41\" r'\\d' '''multi\nline'''\n");
  EXPECT_EQ(std::get<std::string>(first_value(m).cast<Constant>().value), "a\nbA\\dmulti\nline");
}

TEST(FrontendParser, FStringPartsAndExpressionLocations) {
  auto m = parse("raise ValueError(f\"bad {n!r:>4} of {{x}} {a[0] + 1}\")\n");
  auto &r = m.body[0]->cast<Raise>();
  auto &f = r.exc->cast<Call>().args[0]->cast<FString>();
  ASSERT_EQ(f.parts.size(), 4u);
  EXPECT_EQ(f.parts[0].literal, "bad ");
  EXPECT_EQ(f.parts[1].expr->cast<Name>().id, "n");
  EXPECT_EQ(f.parts[1].conversion, 'r');
  EXPECT_EQ(f.parts[1].format_spec, ">4");
  EXPECT_EQ(f.parts[2].literal, " of {x} ");
  EXPECT_EQ(unparse(*f.parts[3].expr), "a[0] + 1");
  // `a` of `a[0]` sits at column 43 of line 1.
  EXPECT_EQ(f.parts[3].expr->loc.line, 1);
  EXPECT_EQ(f.parts[3].expr->loc.col, 43);
}

TEST(FrontendParser, StatementsOfTheSubset) {
  const char *src =
      "def f(x, n):\n"
      "    a, b = x, n\n"
      "    c: int = 3\n"
      "    c += 1; c <<= 2\n"
      "    for i in tl.static_range(4):\n"
      "        if i == 0:\n"
      "            continue\n"
      "        elif i == 1:\n"
      "            pass\n"
      "        else:\n"
      "            break\n"
      "    while c > 0:\n"
      "        c -= 1\n"
      "    assert c == 0, 'done'\n"
      "    s = [v * 2 for v in range(n) if v % 2]\n"
      "    d = {'BLOCK': 4, **other}\n"
      "    g = lambda meta: (triton.cdiv(n, meta['BLOCK']),)\n"
      "    return a, b\n";
  Module m = parse(src);
  auto &f = m.body[0]->cast<FunctionDef>();
  ASSERT_EQ(f.body.size(), 11u);
  EXPECT_TRUE(f.body[0]->cast<Assign>().targets[0]->is<Tuple>());
  EXPECT_TRUE(f.body[1]->is<AnnAssign>());
  EXPECT_EQ(f.body[2]->cast<AugAssign>().op, BinOpKind::Add);
  EXPECT_EQ(f.body[3]->cast<AugAssign>().op, BinOpKind::LShift);
  auto &loop = f.body[4]->cast<For>();
  EXPECT_EQ(unparse(*loop.iter), "tl.static_range(4)");
  auto &iff = loop.body[0]->cast<If>();
  ASSERT_EQ(iff.orelse.size(), 1u);
  EXPECT_TRUE(iff.orelse[0]->cast<If>().orelse[0]->is<Break>());
  EXPECT_TRUE(f.body[5]->is<While>());
  EXPECT_EQ(unparse(*f.body[6]->cast<Assert>().msg), "'done'");
  auto &comp = f.body[7]->cast<Assign>().value->cast<Comprehension>();
  EXPECT_EQ(comp.comp, CompKind::List);
  EXPECT_EQ(comp.generators[0].ifs.size(), 1u);
  auto &d = f.body[8]->cast<Assign>().value->cast<Dict>();
  EXPECT_EQ(d.keys.size(), 2u);
  EXPECT_EQ(d.keys[1], nullptr);
  EXPECT_EQ(unparse(*f.body[9]->cast<Assign>().value),
            "lambda meta: (triton.cdiv(n, meta['BLOCK']),)");
  EXPECT_EQ(f.body[10]->cast<Return>().value->cast<Tuple>().elts.size(), 2u);
}

TEST(FrontendParser, LineContinuationInBracketsAndBackslash) {
  Module m = parse("x = (1 +\n     2)\ny = 3 + \\\n    4\nz = [1,\n  2,\n]\n");
  ASSERT_EQ(m.body.size(), 3u);
  EXPECT_EQ(unparse(*m.body[1]->cast<Assign>().value), "3 + 4");
  EXPECT_EQ(m.body[1]->loc.line, 3);
  EXPECT_EQ(m.body[2]->loc.line, 5);
  EXPECT_EQ(m.body[2]->loc.end_line, 7);
}

TEST(FrontendParser, SourceLocationsAreOneBasedAndSpanTheNode) {
  Module m = parse("def k(p):\n    v = tl.load(p + 1)\n");
  auto &f = m.body[0]->cast<FunctionDef>();
  auto &a = f.body[0]->cast<Assign>();
  EXPECT_EQ(a.loc.line, 2);
  EXPECT_EQ(a.loc.col, 5);
  auto &call = a.value->cast<Call>();
  EXPECT_EQ(call.loc.col, 9);
  EXPECT_EQ(call.loc.end_col, 23);
  EXPECT_EQ(call.args[0]->loc.col, 17);
  EXPECT_EQ(f.name_loc.col, 5);
}

TEST(FrontendParser, DocstringsAreTakenOutOfBodies) {
  Module m = parse("\"\"\"mod doc\"\"\"\ndef f():\n    '''fn doc'''\n    return 1\n");
  EXPECT_EQ(m.docstring, "mod doc");
  auto &f = m.body[0]->cast<FunctionDef>();
  EXPECT_EQ(f.docstring, "fn doc");
  EXPECT_EQ(f.body.size(), 1u);
}

TEST(FrontendParser, CallsWithStarArgsKeywordsAndGenerators) {
  auto m = parse("x = f(a, *rest, k=1, **opts)\ny = all(s > 0 for s in shape)\n");
  auto &c = m.body[0]->cast<Assign>().value->cast<Call>();
  ASSERT_EQ(c.args.size(), 2u);
  EXPECT_TRUE(c.args[1]->is<Starred>());
  ASSERT_EQ(c.keywords.size(), 2u);
  EXPECT_EQ(c.keywords[0].name, "k");
  EXPECT_EQ(c.keywords[1].name, "");
  auto &g = m.body[1]->cast<Assign>().value->cast<Call>();
  EXPECT_EQ(g.args[0]->cast<Comprehension>().comp, CompKind::Generator);
}

TEST(FrontendParser, DumpAstNamesNodesWithLocations) {
  Module m = parse(
      "import triton.language as tl\n@triton.jit\ndef k(X, B: tl.constexpr):\n    x = X[:, "
      "None]\n");
  std::string d = dump_ast(m);
  EXPECT_NE(d.find("Import names=triton.language as tl @1:1"), std::string::npos) << d;
  EXPECT_NE(d.find("FunctionDef name=k jit @3:1"), std::string::npos) << d;
  EXPECT_NE(d.find("Param name=B kind=positional @3:10"), std::string::npos) << d;
  EXPECT_NE(d.find("Subscript @4:9"), std::string::npos) << d;
  EXPECT_NE(d.find("Constant value=None @4:14"), std::string::npos) << d;
}

TEST(FrontendParser, WalkVisitsEveryExpression) {
  Module m = parse("def f(a):\n    return g(a + 1, k=[b, c])\n");
  std::vector<std::string> names;
  walk(
      *m.body[0],
      [&](const Expr &e) {
        if (auto *n = e.as<Name>()) names.push_back(n->id);
      },
      [](const Stmt &) {});
  EXPECT_EQ(names, (std::vector<std::string>{"g", "a", "b", "c"}));
}

TEST(FrontendParser, AllowedImportForms) {
  EXPECT_NO_THROW(
      parse("import torch\nimport triton\nimport triton.language as tl\nimport math\n"));
  EXPECT_NO_THROW(
      parse("from triton import language as tl\nfrom triton.language.extra import libdevice\n"));
}
