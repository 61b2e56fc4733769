//===- sema_language_gaps_test.cpp - nested @jit constexpr-ness, tl.rand, fmod, unsupported builtins
//===//
//
// Issue 21 item 3 at the semantic layer: which arguments of a nested @jit call
// are specialized as constexprs (Triton: by value, whatever the annotation),
// the Philox builtins' IR (tt.mulhiui on uint32, no unknown builtin), float %
// and libdevice.fmod (arith.remf), fp8 types (held as i8 bit patterns; no
// arithmetic; no lint OPF002 in kernels), and an unsupported builtin's error
// naming itself and the target feature it needs, the same text in lint and
// compile.
//
//===----------------------------------------------------------------------===//
#include <gtest/gtest.h>

#include "opforge/compiler/capability.h"
#include "opforge/compiler/diagnostics.h"
#include "opforge/compiler/ir_printer.h"
#include "opforge/compiler/lint.h"
#include "opforge/compiler/parser.h"
#include "opforge/compiler/sema.h"

using namespace opforge::compiler;

namespace {

const char *kHeader =
    "import triton\nimport triton.language as tl\nfrom triton.language.extra import libdevice\n\n";

std::string lower_text(const std::string &body, const std::string &sig,
                       std::vector<std::string> constexprs = {}) {
  ast::Module mod = parse_source("k.py", std::string(kHeader) + body);
  Specialization s;
  add_signature(s, sig);
  for (auto &c : constexprs) add_constexpr(s, c);
  LoweredKernel k = lower_kernel(mod, "k", s);
  return opforge::ttir::print(*k.module);
}

std::string compile_error(const std::string &body, const std::string &sig) {
  try {
    lower_text(body, sig);
  } catch (const CompileError &e) {
    return e.message();
  }
  return "";
}

size_t count(const std::string &s, const std::string &what) {
  size_t n = 0;
  for (size_t p = s.find(what); p != std::string::npos; p = s.find(what, p + 1)) ++n;
  return n;
}

TEST(NestedJitConstexpr, TensorArgumentOfAConstexprAnnotatedParameterStaysATensor) {
  const std::string body =
      "@triton.jit\n"
      "def inner(acc, offs_m: tl.constexpr, N: tl.constexpr, STAGE: tl.constexpr):\n"
      "    if STAGE == 2:\n"
      "        acc += tl.where(offs_m < N, offs_m, 0)\n"
      "    return acc\n\n"
      "@triton.jit\n"
      "def k(out, n):\n"
      "    offs = tl.arange(0, 16)\n"
      "    acc = tl.zeros([16], dtype=tl.int32)\n"
      "    acc = inner(acc, offs, n, 2)\n"
      "    acc = inner(acc, offs, n, 1)\n"
      "    tl.store(out + offs, acc)\n";
  std::string ir = lower_text(body, "out=*i32,n=i32");
  // Two specializations (STAGE=2 and STAGE=1: constexpr values); offs_m and N
  // are operands of the calls, not constants of the callee.
  EXPECT_EQ(count(ir, "tt.call"), 2u) << ir;
  EXPECT_NE(ir.find("inner__"), std::string::npos) << ir;
  EXPECT_NE(ir.find("c2"), std::string::npos) << ir;
  EXPECT_NE(ir.find("c1"), std::string::npos) << ir;
}

TEST(NestedJitConstexpr, PythonNumbersSpecializeUnannotatedParameters) {
  const std::string body =
      "@triton.jit\n"
      "def inner(x, SCALE):\n"
      "    tl.static_assert(SCALE == 3)\n"
      "    return x * SCALE\n\n"
      "@triton.jit\n"
      "def k(out):\n"
      "    offs = tl.arange(0, 16)\n"
      "    tl.store(out + offs, inner(offs, 3))\n";
  // static_assert needs SCALE to be a constexpr: it is, as in Triton.
  EXPECT_NO_THROW(lower_text(body, "out=*i32"));
}

TEST(RandomBuiltins, RandLowersToPhiloxRoundsOnUint32) {
  const std::string body =
      "@triton.jit\n"
      "def k(out, seed, N_ROUNDS: tl.constexpr):\n"
      "    offs = tl.arange(0, 16)\n"
      "    tl.store(out + offs, tl.rand(seed, offs, n_rounds=N_ROUNDS))\n";
  for (int rounds : {10, 3}) {
    std::string ir = lower_text(body, "out=*fp32,seed=i32", {"N_ROUNDS=" + std::to_string(rounds)});
    // Two high-half products per round (unused ones may remain before DCE: at least 2 per round).
    EXPECT_GE(count(ir, "tt.mulhiui"), static_cast<size_t>(rounds)) << ir;
    EXPECT_LE(count(ir, "tt.mulhiui"), static_cast<size_t>(2 * rounds)) << ir;
    EXPECT_NE(ir.find("arith.sitofp"), std::string::npos) << ir;
  }
}

TEST(RandomBuiltins, EveryVariantLowersAndBadArgumentsAreNamed) {
  const char *calls[] = {"tl.rand(seed, offs)",
                         "tl.randn(seed, offs, 7)",
                         "tl.randint(seed, offs).to(tl.float32)",
                         "tl.randint4x(seed, offs)[2].to(tl.float32)",
                         "tl.rand4x(seed, offs)[3]",
                         "tl.randn4x(seed, offs)[1]",
                         "tl.philox(seed, offs, offs, offs, offs)[0].to(tl.float32)",
                         "tl.rand(seed, offs.to(tl.int64))",
                         "tl.rand(12345, offs)"};
  for (const char *call : calls) {
    const std::string body = std::string("@triton.jit\ndef k(out, seed):\n") +
                             "    offs = tl.arange(0, 16)\n" + "    tl.store(out + offs, " + call +
                             ")\n";
    EXPECT_NO_THROW(lower_text(body, "out=*fp32,seed=i64")) << call;
  }
  std::string e = compile_error(
      "@triton.jit\ndef k(out, seed):\n    offs = tl.arange(0, 16)\n"
      "    tl.store(out + offs, tl.rand(seed, offs.to(tl.float32)))\n",
      "out=*fp32,seed=i32");
  EXPECT_NE(e.find("tl.rand(): offsets must be integers"), std::string::npos) << e;
  e = compile_error(
      "@triton.jit\ndef k(out, seed):\n    offs = tl.arange(0, 16)\n"
      "    tl.store(out + offs, tl.rand(seed, offs, n_rounds=seed))\n",
      "out=*fp32,seed=i32");
  EXPECT_NE(e.find("n_rounds must be a constexpr integer"), std::string::npos) << e;
}

TEST(FloatRemainder, PercentAndLibdeviceFmodAreRemf) {
  const std::string body =
      "@triton.jit\n"
      "def k(x, y, o):\n"
      "    offs = tl.arange(0, 16)\n"
      "    a = tl.load(x + offs)\n"
      "    b = tl.load(y + offs)\n"
      "    tl.store(o + offs, a % b + libdevice.fmod(a, b) + tl.math.fmod(a, 2.5))\n";
  std::string ir = lower_text(body, "x=*fp32,y=*fp32,o=*fp32");
  EXPECT_EQ(count(ir, "arith.remf"), 3u) << ir;
  std::string e = compile_error(
      "@triton.jit\ndef k(x):\n    offs = tl.arange(0, 16)\n"
      "    tl.store(x + offs, libdevice.fmod(offs, 3))\n",
      "x=*i32");
  EXPECT_NE(e.find("fmod() expects floating-point operands"), std::string::npos) << e;
}

TEST(UnsupportedBuiltins, CompileAndLintNameTheBuiltinAndTheFeatureItNeeds) {
  const auto &caps = mtia_capabilities();
  ASSERT_FALSE(caps.unsupported_tl_functions.empty());
  for (const auto &[fn, feature] : caps.unsupported_tl_functions) {
    if (fn == "extra_cuda") continue;  // a namespace, not a callable builtin
    const std::string body = "@triton.jit\ndef k(x):\n    offs = tl.arange(0, 16)\n    v = tl." +
                             fn + "(tl.load(x + offs))\n";
    const std::string compile = compile_error(body, "x=*fp32");
    const std::string want =
        "'tl." + fn + "' is not supported on target 'mtia': it needs " + feature;
    EXPECT_EQ(compile, want) << fn;
    auto findings = lint_source("k.py", std::string(kHeader) + body, {});
    bool same = false;
    for (auto &f : findings) same |= f.rule == "OPF003" && f.message == want;
    EXPECT_TRUE(same) << fn << ": lint does not say \"" << want << "\"";
  }
  // A name Triton does not have at all stays an unknown builtin.
  EXPECT_EQ(compile_error("@triton.jit\ndef k(x):\n    tl.no_such_thing(x)\n", "x=*fp32"),
            "unknown builtin 'tl.no_such_thing'");
}

TEST(Fp8Types, ConversionsLowerToIntegerOpsOnI8AndArithmeticIsAnError) {
  const std::string body =
      "@triton.jit\n"
      "def k(x, y, o):\n"
      "    offs = tl.arange(0, 16)\n"
      "    a = tl.load(x + offs, mask=offs < 9, other=-2.5)\n"
      "    is_e5 = x.dtype.element_ty == tl.float8e5\n"
      "    tl.static_assert(is_e5)\n"
      "    b = tl.load(y + offs).to(tl.float8e4nv)\n"
      "    tl.store(o + offs, a.to(tl.float32) + b.to(tl.float32))\n";
  std::string ir = lower_text(body, "x=*fp8e5,y=*fp32,o=*fp32");
  EXPECT_NE(ir.find("tt.ptr<i8>"), std::string::npos) << ir;
  EXPECT_EQ(ir.find("f8"), std::string::npos) << ir;  // no fp8 type reaches ttir
  for (const char *expr : {"a + a", "a * 2.0", "a < a", "tl.exp(a)"}) {
    std::string e =
        compile_error(std::string("@triton.jit\ndef k(x, o):\n    offs = tl.arange(0, 16)\n"
                                  "    a = tl.load(x + offs)\n    tl.store(o + offs, ") +
                          expr + ")\n",
                      "x=*fp8e5,o=*fp8e5");
    EXPECT_TRUE(e.find("fp8") != std::string::npos) << expr << ": " << e;
  }
  std::string e = compile_error(
      "@triton.jit\ndef k(x, o):\n    i = tl.arange(0, 16)\n"
      "    a = tl.load(x + i[:, None] * 16 + i[None, :])\n"
      "    tl.store(o + i[:, None] * 16 + i[None, :], tl.dot(a, a))\n",
      "x=*fp8e4nv,o=*fp32");
  EXPECT_NE(e.find("tl.dot on fp8e4nv operands needs an fp8 mode of the DPE"), std::string::npos)
      << e;
}

TEST(Fp8Types, LintAcceptsKernelFp8AndNamesTorchFp8TensorsInWrappers) {
  const std::string src = std::string(kHeader) +
                          "import torch\n\n"
                          "@triton.jit\n"
                          "def k(x, o, FP8: tl.constexpr):\n"
                          "    offs = tl.arange(0, 16)\n"
                          "    v = tl.load(x + offs).to(tl.float8e5, bitcast=True)\n"
                          "    if x.dtype.element_ty == tl.float8e4nv:\n"
                          "        v = v.to(tl.float8e4b15)\n"
                          "    tl.store(o + offs, v.to(tl.float32))\n\n"
                          "def op_default(x):\n"
                          "    o = torch.empty(x.numel(), dtype=torch.float8_e4m3fn)\n"
                          "    k[(1, )](x, o, FP8=True)\n"
                          "    return o\n";
  auto findings = lint_source("k.py", src, {});
  int kernel_fp8 = 0, torch_fp8 = 0;
  for (auto &f : findings) {
    if (f.rule != "OPF002") continue;
    if (f.message.rfind("'tl.float8", 0) == 0) ++kernel_fp8;  // a kernel's dtype flagged
    if (f.message.find("torch.float8_e4m3fn") != std::string::npos &&
        f.message.find("torch.uint8") != std::string::npos)
      ++torch_fp8;
  }
  EXPECT_EQ(kernel_fp8, 0);
  EXPECT_GE(torch_fp8, 1);
  // The FNUZ variants stay unsupported.
  EXPECT_FALSE(mtia_capabilities().dtype_problem("tl.float8e4b8").empty());
  EXPECT_TRUE(mtia_capabilities().dtype_problem("tl.float8e5").empty());
}

}  // namespace
