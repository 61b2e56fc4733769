//===- lint_rules_test.cpp - every lint rule fires where it should ---------===//
#include <fstream>
#include <filesystem>
#include <gtest/gtest.h>
#include <regex>
#include <sstream>

#include "opforge/compiler/lint.h"

using namespace opforge::compiler;

namespace {

const std::string kHeader = "import torch\nimport triton\nimport triton.language as tl\n";

std::vector<LintFinding> lint(const std::string &body, const LintOptions &opts = {}) {
  return lint_source("k.py", kHeader + body, opts);
}

// The findings of one rule.
std::vector<LintFinding> of(const std::vector<LintFinding> &fs, const std::string &rule) {
  std::vector<LintFinding> out;
  for (auto &f : fs)
    if (f.rule == rule) out.push_back(f);
  return out;
}

std::string all_text(const std::vector<LintFinding> &fs) {
  std::string s;
  for (auto &f : fs) s += format_finding(f) + "\n";
  return s;
}

const char *kKernel =
    "@triton.jit\n"
    "def k(x_ptr, y_ptr, n, BLOCK: tl.constexpr):\n"
    "    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)\n"
    "    tl.store(y_ptr + offs, tl.load(x_ptr + offs, mask=offs < n), mask=offs < n)\n\n";

const char *kWrapperHead = "def op_default(x):\n    y = torch.empty_like(x)\n";

}  // namespace

TEST(LintRules, TestKernelsLintClean) {
  std::string dir = std::string(OPFORGE_SOURCE_DIR) + "/tests/compiler/kernels";
  int files = 0;
  for (auto &e : std::filesystem::directory_iterator(dir)) {
    if (e.path().extension() != ".py") continue;
    ++files;
    auto fs = lint_file(e.path().string());
    EXPECT_TRUE(fs.empty()) << all_text(fs);
  }
  EXPECT_GE(files, 8);
}

TEST(LintRules, CleanKernelAndWrapperHaveNoFindings) {
  auto fs =
      lint(std::string(kKernel) + kWrapperHead +
           "    k[(triton.cdiv(x.numel(), 128),)](x, y, x.numel(), BLOCK=128)\n    return y\n");
  EXPECT_TRUE(fs.empty()) << all_text(fs);
}

TEST(LintRules, OPF000SyntaxErrorIsAFindingWithLocation) {
  auto fs = lint_source("bad.py", "def f(:\n    pass\n");
  ASSERT_EQ(fs.size(), 1u);
  EXPECT_EQ(fs[0].rule, "OPF000");
  EXPECT_EQ(fs[0].loc.line, 1);
  EXPECT_EQ(fs[0].loc.col, 7);
}

TEST(LintRules, OPF001DisallowedImports) {
  auto fs = lint_source(
      "k.py",
      "import os\nimport numpy as np\nfrom subprocess import run\nimport triton.language as tl\n");
  auto f = of(fs, "OPF001");
  ASSERT_EQ(f.size(), 3u) << all_text(fs);
  EXPECT_EQ(f[0].loc.line, 1);
  EXPECT_NE(f[1].message.find("numpy"), std::string::npos);
  EXPECT_EQ(f[2].loc.line, 3);
}

TEST(LintRules, OPF002Float64AndComplexAreRejected) {
  auto fs = lint(
      "@triton.jit\ndef k(p):\n    x = tl.load(p).to(tl.float64)\n\n"
      "def w(x):\n    y = torch.empty(3, dtype=torch.complex64)\n    z = x.double()\n    return "
      "y\n");
  auto f = of(fs, "OPF002");
  ASSERT_EQ(f.size(), 3u) << all_text(fs);
  EXPECT_EQ(f[0].loc.line, 6);
  EXPECT_EQ(f[0].loc.col, 23);
  EXPECT_NE(f[0].message.find("float64"), std::string::npos);
  EXPECT_EQ(f[1].loc.line, 9);
  EXPECT_EQ(f[2].loc.line, 10);
}

TEST(LintRules, OPF003UnsupportedBuiltins) {
  auto fs = lint(
      "@triton.jit\ndef k(p, seed):\n    r = tl.sort(tl.rand(seed, tl.arange(0, 16)))\n    "
      "tl.inline_asm_elementwise('', '', [r], dtype=tl.float32, is_pure=True, pack=1)\n");
  auto f = of(fs, "OPF003");
  ASSERT_EQ(f.size(), 2u) << all_text(fs);  // tl.rand is supported (Philox)
  EXPECT_NE(f[0].message.find("'tl.sort' is not supported on target 'mtia': it needs"),
            std::string::npos)
      << f[0].message;
  EXPECT_EQ(f[0].loc.col, 12);
}

TEST(LintRules, OPF004UnknownBuiltinsIncludingMathNamespace) {
  auto fs = lint(
      "from triton.language.extra import libdevice\n@triton.jit\ndef k(p):\n    x = tl.lod(p)\n    "
      "y = tl.math.exp(x) + tl.math.expz(x) + libdevice.tanh(x) + libdevice.nothing(x)\n");
  auto f = of(fs, "OPF004");
  ASSERT_EQ(f.size(), 3u) << all_text(fs);
  EXPECT_EQ(f[0].message, "module 'triton.language' has no attribute 'lod'");
  EXPECT_NE(f[1].message.find("expz"), std::string::npos);
  EXPECT_NE(f[2].message.find("nothing"), std::string::npos);
}

TEST(LintRules, OPF005DotForms) {
  auto fs = lint(
      "@triton.jit\ndef k(a, b):\n    c = tl.dot(a, b, out_dtype=tl.float64)\n    d = tl.dot(a, b, "
      "input_precision='bf16x9')\n    e = tl.dot(a, b, out_dtype=tl.float32, "
      "input_precision='ieee')\n");
  auto f = of(fs, "OPF005");
  ASSERT_EQ(f.size(), 2u) << all_text(fs);
  EXPECT_EQ(f[0].loc.line, 6);
  EXPECT_EQ(f[1].loc.line, 7);
}

TEST(LintRules, OPF006ScatterStoreSeverityComesFromTheTable) {
  const char *src =
      "@triton.jit\ndef k(idx_ptr, src, dst):\n    offs = tl.arange(0, 16)\n    idx = "
      "tl.load(idx_ptr + offs)\n    v = tl.load(src + offs)\n    tl.store(dst + idx, v)\n    "
      "tl.store(dst + offs, v)\n";
  auto fs = lint(src);
  auto f = of(fs, "OPF006");
  ASSERT_EQ(f.size(), 1u) << all_text(fs);
  EXPECT_EQ(f[0].severity, Severity::Warning);
  EXPECT_EQ(f[0].loc.line, 9);
  TargetCapabilities strict = mtia_capabilities();
  strict.scatter_stores = Support::Unsupported;
  LintOptions opts;
  opts.capabilities = &strict;
  auto g = of(lint(src, opts), "OPF006");
  ASSERT_EQ(g.size(), 1u);
  EXPECT_EQ(g[0].severity, Severity::Error);
}

TEST(LintRules, OPF007GatherLoadOnlyWhenTheTableRestrictsIt) {
  const char *src =
      "@triton.jit\ndef k(idx_ptr, src, dst):\n    offs = tl.arange(0, 16)\n    idx = "
      "tl.load(idx_ptr + offs)\n    v = tl.load(src + idx * 2)\n    tl.store(dst + offs, v)\n";
  EXPECT_TRUE(of(lint(src), "OPF007").empty());
  TargetCapabilities strict = mtia_capabilities();
  strict.gather_loads = Support::Slow;
  LintOptions opts;
  opts.capabilities = &strict;
  auto f = of(lint(src, opts), "OPF007");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].loc.line, 8);
}

TEST(LintRules, OPF008AtomicsSemanticsAndScope) {
  auto fs = lint(
      "@triton.jit\ndef k(p):\n    tl.atomic_add(p, 1, sem='seq_cst')\n    tl.atomic_max(p, 1, "
      "scope='sys')\n    tl.atomic_add(p, 1, sem='relaxed')\n");
  auto f = of(fs, "OPF008");
  ASSERT_EQ(f.size(), 2u) << all_text(fs);
  EXPECT_NE(f[0].message.find("seq_cst"), std::string::npos);
  TargetCapabilities none = mtia_capabilities();
  none.atomics = Support::Unsupported;
  LintOptions opts;
  opts.capabilities = &none;
  EXPECT_EQ(of(lint("@triton.jit\ndef k(p):\n    tl.atomic_add(p, 1)\n", opts), "OPF008").size(),
            1u);
}

TEST(LintRules, OPF009NonPowerOfTwoBlocks) {
  auto fs = lint(
      "@triton.jit\ndef k(p):\n    a = tl.arange(0, 100)\n    b = tl.zeros((16, 24), "
      "dtype=tl.float32)\n    c = tl.arange(0, 128)\n");
  auto f = of(fs, "OPF009");
  ASSERT_EQ(f.size(), 2u) << all_text(fs);
  EXPECT_EQ(f[0].message, "arange's range must be a power of 2, got 100");
  EXPECT_EQ(f[1].loc.line, 7);
  EXPECT_EQ(f[1].loc.col, 23);
}

TEST(LintRules, OPF010BlockTooLarge) {
  auto fs = lint("@triton.jit\ndef k(p):\n    b = tl.zeros((2048, 1024), dtype=tl.float32)\n");
  EXPECT_EQ(of(fs, "OPF010").size(), 1u) << all_text(fs);
}

TEST(LintRules, OPF011TorchInsideKernel) {
  auto fs = lint("@triton.jit\ndef k(p):\n    x = torch.exp(tl.load(p))\n");
  auto f = of(fs, "OPF011");
  ASSERT_EQ(f.size(), 1u) << all_text(fs);
  EXPECT_EQ(f[0].loc.col, 9);
}

TEST(LintRules, OPF012DebugPrintsAreWarnings) {
  auto fs = lint("@triton.jit\ndef k(p):\n    tl.device_print('x', tl.load(p))\n    print('y')\n");
  auto f = of(fs, "OPF012");
  ASSERT_EQ(f.size(), 2u) << all_text(fs);
  EXPECT_EQ(f[0].severity, Severity::Warning);
  EXPECT_FALSE(has_errors(fs));
}

TEST(LintRules, OPF013GridWithTooManyDimensions) {
  auto fs = lint(std::string(kKernel) + kWrapperHead +
                 "    g = lambda m: (1, 1, 1, 1)\n    k[g](x, y, 1, BLOCK=16)\n    return y\n");
  EXPECT_EQ(of(fs, "OPF013").size(), 1u) << all_text(fs);
}

TEST(LintRules, OPF101HostEscapeBuiltins) {
  auto fs = lint(std::string(kWrapperHead) +
                 "    f = open('/etc/passwd')\n    eval('1')\n    g = getattr(x, 'cpu')\n    "
                 "__import__('os')\n    return y\n");
  auto f = of(fs, "OPF101");
  ASSERT_GE(f.size(), 4u) << all_text(fs);
  EXPECT_EQ(f[0].loc.line, 6);
  EXPECT_EQ(f[0].loc.col, 9);
}

TEST(LintRules, OPF102HostModulesAndTorchRuntime) {
  auto fs = lint(std::string(kWrapperHead) +
                 "    torch.save(y, 'f.pt')\n    torch.cuda.synchronize()\n    return y\n");
  auto f = of(fs, "OPF102");
  ASSERT_EQ(f.size(), 2u) << all_text(fs);
}

TEST(LintRules, OPF103DeviceToHost) {
  auto fs = lint(std::string(kWrapperHead) +
                 "    a = x.cpu()\n    b = x.numpy()\n    c = x.sum().item()\n    d = "
                 "x.to('cuda')\n    e = torch.empty(3, device='cpu')\n    return y\n");
  auto f = of(fs, "OPF103");
  ASSERT_EQ(f.size(), 5u) << all_text(fs);
}

TEST(LintRules, OPF104DunderAccess) {
  auto fs =
      lint(std::string(kWrapperHead) + "    c = x.__class__\n    d = y.__dict__\n    return y\n");
  EXPECT_EQ(of(fs, "OPF104").size(), 2u) << all_text(fs);
}

TEST(LintRules, OPF105UnimplementedAtenOpsUnlessListed) {
  std::string src =
      std::string(kWrapperHead) +
      "    a = torch.sum(x)\n    b = torch.ops.aten.mm.default(x, x)\n    c = x.exp()\n    "
      "d = torch.nn.functional.relu(x)\n    return y\n";
  auto f = of(lint(src), "OPF105");
  ASSERT_EQ(f.size(), 4u);
  LintOptions opts;
  opts.implemented_ops = {"sum.default", "mm.default", "exp.default", "relu.default"};
  EXPECT_TRUE(of(lint(src, opts), "OPF105").empty());
  opts.implemented_ops = {"mm.out"};
  EXPECT_EQ(of(lint(src, opts), "OPF105").size(), 4u);
}

TEST(LintRules, OPF106JitFunctionCalledDirectly) {
  auto fs = lint(std::string(kKernel) + kWrapperHead + "    k(x, y, 4, 16)\n    return y\n");
  auto f = of(fs, "OPF106");
  ASSERT_EQ(f.size(), 1u) << all_text(fs);
  EXPECT_EQ(f[0].loc.line, 11);
}

TEST(LintRules, OPF107LaunchOfSomethingThatIsNotAKernel) {
  auto fs = lint(std::string(kWrapperHead) + "    helper[(1,)](x)\n    return y\n");
  EXPECT_EQ(of(fs, "OPF107").size(), 1u) << all_text(fs);
}

TEST(LintRules, OPF108LaunchArgumentsAgainstParameters) {
  std::string base = std::string(kKernel) + kWrapperHead;
  EXPECT_EQ(of(lint(base + "    k[(1,)](x, y, 4)\n    return y\n"), "OPF108").size(),
            1u);  // missing BLOCK
  EXPECT_EQ(of(lint(base + "    k[(1,)](x, y, 4, 16, 5)\n    return y\n"), "OPF108").size(),
            1u);  // too many
  EXPECT_EQ(
      of(lint(base + "    k[(1,)](x, y, 4, BLOCK=16, BLK=3)\n    return y\n"), "OPF108").size(),
      1u);  // unknown kw
  EXPECT_TRUE(
      of(lint(base + "    k[(1,)](x, y, 4, BLOCK=16, num_warps=4)\n    return y\n"), "OPF108")
          .empty());
  auto fs = lint_file(std::string(OPFORGE_SOURCE_DIR) + "/tests/compiler/kernels/autotuned.py");
  EXPECT_TRUE(of(fs, "OPF108").empty());
  std::string tuned = "@triton.autotune(configs=[triton.Config({'BLOCK': 64})], key=['n'])\n" +
                      std::string(kKernel) + kWrapperHead +
                      "    k[(1,)](x, y, 4, BLOCK=16)\n    return y\n";
  auto g = of(lint(tuned), "OPF108");
  ASSERT_EQ(g.size(), 1u);
  EXPECT_NE(g[0].message.find("Conflicting meta-parameters: BLOCK"), std::string::npos);
}

TEST(LintRules, OPF109ModuleLevelCode) {
  auto fs = lint(
      "BLOCK = 128\nDTYPE = torch.float32\nx = torch.empty(3)\nfor i in range(3):\n    pass\n");
  auto f = of(fs, "OPF109");
  ASSERT_EQ(f.size(), 2u) << all_text(fs);
  EXPECT_EQ(f[0].loc.line, 6);
  EXPECT_EQ(f[1].loc.line, 7);
}

// Autotune config lists built at module level, as Triton's tutorial 06 does
// (`configs = [triton.Config(...) for BM in ... for s in ([1] if is_hip() else [3, 4])]`,
// `list(filter(keep, configs))`): the wrapper interpreter evaluates them, so they are not
// module-level code; other calls (torch, host escapes) still are.
TEST(LintRules, OPF109AcceptsConfigListsBuiltAtModuleLevel) {
  auto fs = lint(
      "def is_hip():\n    return False\n\n"
      "def keep(conf):\n    return conf.num_warps == 4\n\n"
      "configs = [triton.Config({'BLOCK': b}, num_stages=s, num_warps=w) for b in [64, 128]\n"
      "           for s in ([1] if is_hip() else [3, 4]) for w in [4, 8]]\n"
      "kept = list(filter(keep, configs))\n"
      "tensors = [torch.empty(3) for _ in range(2)]\n"
      "fn = lambda c: c\n");
  auto f = of(fs, "OPF109");
  ASSERT_EQ(f.size(), 2u) << all_text(fs);
  EXPECT_EQ(f[0].loc.line, 13);
  EXPECT_EQ(f[1].loc.line, 14);
}

TEST(LintRules, OPF110LaunchInsideKernel) {
  auto fs = lint(std::string(kKernel) + "@triton.jit\ndef outer(p):\n    k[(1,)](p, p, 1, 16)\n");
  EXPECT_EQ(of(fs, "OPF110").size(), 1u) << all_text(fs);
}

TEST(LintRules, OPF111KernelsWithoutWrapper) {
  auto fs = lint(kKernel);
  auto f = of(fs, "OPF111");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].severity, Severity::Warning);
}

TEST(LintRules, OutputFormatsLineAndJson) {
  auto fs = lint_source("dir/k.py", "import os\n");
  ASSERT_EQ(fs.size(), 1u);
  EXPECT_EQ(format_finding(fs[0]),
            "dir/k.py:1:1: OPF001 import of module 'os' is not allowed (allowed: torch, triton, "
            "triton.language, math)");
  auto j = findings_to_json(fs);
  ASSERT_EQ(j.size(), 1u);
  EXPECT_EQ(j[0]["rule"], "OPF001");
  EXPECT_EQ(j[0]["name"], "disallowed-import");
  EXPECT_EQ(j[0]["severity"], "error");
  EXPECT_EQ(j[0]["line"], 1);
  EXPECT_TRUE(has_errors(fs));
}

// A message quoting bytes of the source that are not UTF-8 (here a name with byte
// 0xF6, and a stray 0x8A) is still JSON: the bytes are written as \xF6 (dump()
// threw nlohmann's type_error 316 before; found by fuzz_lint).
TEST(LintRules, JsonOfAMessageQuotingNonUtf8BytesEscapesThem) {
  // A launch of an unknown kernel whose name holds byte 0xF6 (OPF107).
  auto fs = lint_source("k.py", std::string(kKernel) + "def wrapper(x):\n    \xf6k[(1,)](x)\n");
  ASSERT_FALSE(fs.empty());
  std::string text = findings_to_json(fs).dump();
  EXPECT_NE(text.find("'\\\\xF6k'"), std::string::npos) << text;
  // A syntax error quoting a stray byte 0x8A (OPF000).
  fs = lint_source("k.py", "y = 1 \x8a\n");
  ASSERT_FALSE(fs.empty());
  text = findings_to_json(fs).dump();
  EXPECT_NE(text.find("\\\\x8A"), std::string::npos) << text;
  // Valid UTF-8 passes through unchanged.
  fs = lint_source("k.py", "import \xc3\xa9t\xc3\xa9\n");
  ASSERT_FALSE(fs.empty());
  EXPECT_NE(findings_to_json(fs).dump().find("\xc3\xa9t\xc3\xa9"), std::string::npos);
}

TEST(LintRules, DocumentationListsEveryRule) {
  std::ifstream in(std::string(OPFORGE_SOURCE_DIR) + "/docs/compiler/lint.md");
  ASSERT_TRUE(in) << "docs/compiler/lint.md is missing";
  std::stringstream ss;
  ss << in.rdbuf();
  std::string doc = ss.str();
  for (auto &r : lint_rules()) {
    EXPECT_NE(doc.find("`" + r.id + "`"), std::string::npos) << r.id << " is not documented";
    EXPECT_NE(doc.find(r.name), std::string::npos) << r.name << " is not documented";
  }
  // And the doc documents no rule that does not exist.
  std::regex id_re("`(OPF[0-9]{3})`");
  for (std::sregex_iterator it(doc.begin(), doc.end(), id_re), end; it != end; ++it)
    EXPECT_NE(find_lint_rule((*it)[1].str()), nullptr)
        << (*it)[1].str() << " documented but not a rule";
}

TEST(LintRules, CapabilityTableDescribesItself) {
  const auto &caps = mtia_capabilities();
  EXPECT_FALSE(caps.dtype_supported("float64"));
  EXPECT_TRUE(caps.dtype_supported("torch.float32"));
  EXPECT_TRUE(caps.dtype_supported("bf16"));
  EXPECT_TRUE(caps.dot_supported("float16", "float32"));
  EXPECT_FALSE(caps.dot_supported("float64", "float64"));
  auto j = to_json(caps);
  EXPECT_EQ(j["target"], "mtia");
  EXPECT_EQ(j["scatter_stores"], "slow");
  EXPECT_NE(describe(caps).find("no float64"), std::string::npos);
}
