//===- sema_test.cpp - semantic layer: Triton's typing rules, constexpr folding, errors ===//
#include <gtest/gtest.h>

#include "opforge/compiler/diagnostics.h"
#include "opforge/compiler/interp.h"
#include "opforge/compiler/ir_printer.h"
#include "opforge/compiler/parser.h"
#include "opforge/compiler/passes.h"
#include "opforge/compiler/sema.h"

using namespace opforge;
using namespace opforge::compiler;

namespace {

const char *kHeader = "import triton\nimport triton.language as tl\n\n\n";

struct Lowered {
  ast::Module mod;
  LoweredKernel k;
};

Lowered lower(const std::string &body, const std::string &sig,
              std::vector<std::string> constexprs = {}) {
  Lowered l{parse_source("k.py", std::string(kHeader) + body), {}};
  Specialization s;
  add_signature(s, sig);
  for (auto &c : constexprs) add_constexpr(s, c);
  l.k = lower_kernel(l.mod, "k", s);
  return l;
}

// Lowers and expects a CompileError containing `msg` at (line, col) of the body (header excluded).
void expect_error(const std::string &body, const std::string &sig, const std::string &msg, int line,
                  int col, std::vector<std::string> constexprs = {}) {
  try {
    lower(body, sig, constexprs);
    ADD_FAILURE() << "expected an error containing: " << msg;
  } catch (const CompileError &e) {
    EXPECT_NE(e.message().find(msg), std::string::npos) << e.rendered();
    EXPECT_EQ(e.loc().line, line + 4) << e.rendered();
    EXPECT_EQ(e.loc().col, col) << e.rendered();
    EXPECT_NE(e.rendered().find("^"), std::string::npos) << "no caret: " << e.rendered();
    EXPECT_NE(e.rendered().find("k.py:"), std::string::npos) << e.rendered();
  }
}

// ---------------------------------------------------------------------------
// Type promotion (triton/language/semantic.py computation_type_impl)
struct Promo {
  const char *a_sig, *b_sig, *expr, *want;
};
class Promotion : public ::testing::TestWithParam<Promo> {};
TEST_P(Promotion, FollowsTritonRules) {
  const Promo &p = GetParam();
  std::string body =
      "@triton.jit\ndef k(a_ptr, b_ptr):\n"
      "    offs = tl.arange(0, 16)\n"
      "    a = tl.load(a_ptr + offs)\n"
      "    b = tl.load(b_ptr + offs)\n"
      "    c = " +
      std::string(p.expr) +
      "\n"
      "    tl.static_assert(c.dtype == " +
      p.want + ", 'got ' + str(c.dtype))\n";
  // str() is not a kernel builtin: the message is only built when the assert fails.
  body.replace(body.find("'got ' + str(c.dtype)"), std::string("'got ' + str(c.dtype)").size(),
               "'promotion'");
  EXPECT_NO_THROW(lower(body, std::string("a_ptr=") + p.a_sig + ",b_ptr=" + p.b_sig))
      << p.expr << " want " << p.want;
}
INSTANTIATE_TEST_SUITE_P(
    Sema, Promotion,
    ::testing::Values(
        Promo{"*i32", "*fp16", "a + b", "tl.float16"},
        Promo{"*fp16", "*fp32", "a + b", "tl.float32"},
        Promo{"*bf16", "*bf16", "a * b", "tl.bfloat16"},
        Promo{"*bf16", "*fp16", "a + b", "tl.float16"},
        Promo{"*bf16", "*i32", "a + b", "tl.float32"},
        Promo{"*fp16", "*fp16", "a / b", "tl.float32"},
        Promo{"*fp16", "*fp16", "a % b", "tl.float32"},
        Promo{"*i32", "*i32", "a / b", "tl.float32"},
        Promo{"*i32", "*i32", "a + 1.5", "tl.float32"},
        Promo{"*fp16", "*fp16", "a + 1.5", "tl.float16"},
        Promo{"*fp16", "*fp16", "a * 3", "tl.float16"}, Promo{"*i8", "*i32", "a + b", "tl.int32"},
        Promo{"*u32", "*i32", "a + b", "tl.uint32"}, Promo{"*i8", "*i8", "a + 1", "tl.int8"},
        Promo{"*i64", "*i32", "a * b", "tl.int64"}, Promo{"*fp64", "*fp32", "a - b", "tl.float64"},
        Promo{"*i32", "*i32", "a // b", "tl.int32"},
        Promo{"*fp16", "*fp16", "tl.max(a, axis=0)", "tl.float32"},
        Promo{"*i8", "*i8", "tl.sum(a, axis=0)", "tl.int32"},
        Promo{"*fp16", "*fp16", "tl.sum(a, axis=0)", "tl.float16"},
        Promo{"*fp16", "*fp16", "tl.sigmoid(a.to(tl.float32))", "tl.float32"},
        Promo{"*i32", "*i32", "a < b", "tl.int1"},
        Promo{"*fp32", "*i32", "tl.where(b > 0, a, b)", "tl.float32"}));

TEST(Sema, NonConstexprIntegerMathFollowsCSemantics) {
  // -7 // 2 == -3 and -7 % 2 == -1 in Triton (truncation), unlike Python.
  auto l = lower(
      "@triton.jit\ndef k(o_ptr, a, b):\n    tl.store(o_ptr, a // b)\n    tl.store(o_ptr + 1, a % "
      "b)\n",
      "o_ptr=*i32,a=i32,b=i32");
  ttir::InterpMemory mem;
  HostTensor o(DType::Int32, {2});
  ttir::Interpreter in(mem);
  in.run(*l.k.module, "k",
         {ttir::KernelArg::pointer(mem.address_of(o)), ttir::KernelArg::integer(-7),
          ttir::KernelArg::integer(2)},
         {});
  EXPECT_EQ(o.get_int(0), -3);
  EXPECT_EQ(o.get_int(1), -1);
}

TEST(Sema, ConstexprArithmeticFollowsPythonAndFoldsBuiltins) {
  // Constexpr math is Python's: -7 // 2 == -4, -7 % 2 == 1; float('inf'), min/max/int fold.
  std::string body =
      "@triton.jit\ndef k(o_ptr, A: tl.constexpr, B: tl.constexpr):\n"
      "    tl.static_assert(A // B == -4)\n"
      "    tl.static_assert(A % B == 1)\n"
      "    tl.static_assert(min(A, B) == -7 and max(A, B) == 2)\n"
      "    tl.static_assert(int(7 / 2) == 3)\n"
      "    tl.static_assert(-float('inf') < A)\n"
      "    C: tl.constexpr = A * B + 1\n"
      "    tl.store(o_ptr, C)\n"
      "    for i in tl.static_range(3):\n"
      "        tl.store(o_ptr + 1 + i, i * 10)\n";
  auto l = lower(body, "o_ptr=*i32", {"A=-7", "B=2"});
  std::string ir = ttir::print(*l.k.module);
  EXPECT_EQ(ir.find("scf.for"), std::string::npos) << "static_range must unroll:\n" << ir;
  ttir::InterpMemory mem;
  HostTensor o(DType::Int32, {4});
  ttir::Interpreter in(mem);
  in.run(*l.k.module, "k", {ttir::KernelArg::pointer(mem.address_of(o))}, {});
  EXPECT_EQ(o.get_int(0), -13);
  EXPECT_EQ(o.get_int(1), 0);
  EXPECT_EQ(o.get_int(2), 10);
  EXPECT_EQ(o.get_int(3), 20);
}

TEST(Sema, JitCallsBecomeCallsAndTheInlinerRemovesThem) {
  std::string body =
      "@triton.jit\ndef twice(x):\n    return x + x\n\n\n"
      "@triton.jit\ndef k(o_ptr, v):\n    tl.store(o_ptr, twice(v) + twice(v * 2))\n";
  Lowered l{parse_source("k.py", std::string(kHeader) + body), {}};
  Specialization s;
  add_signature(s, "o_ptr=*fp32,v=fp32");
  l.k = lower_kernel(l.mod, "k", s);
  std::string ir = ttir::print(*l.k.module);
  EXPECT_NE(ir.find("tt.call"), std::string::npos) << ir;
  EXPECT_EQ(l.k.module->functions.size(), 2u) << "one specialisation of twice for fp32";
  ttir::run_pass_pipeline(*l.k.module, Knobs{});
  std::string opt = ttir::print(*l.k.module);
  EXPECT_EQ(opt.find("tt.call"), std::string::npos) << opt;
  EXPECT_EQ(l.k.module->functions.size(), 1u);
  ttir::InterpMemory mem;
  HostTensor o(DType::Float32, {1});
  ttir::Interpreter in(mem);
  in.run(*l.k.module, "k",
         {ttir::KernelArg::pointer(mem.address_of(o)), ttir::KernelArg::floating(1.5)}, {});
  EXPECT_EQ(o.get_double(0), 9.0);
}

TEST(Sema, ReduceWithACombineFunctionAndWhileLoop) {
  std::string body =
      "@triton.jit\ndef mul_combine(a, b):\n    return a * b\n\n\n"
      "@triton.jit\ndef k(o_ptr, n):\n"
      "    x = tl.arange(1, 5)\n"
      "    p = tl.reduce(x, 0, mul_combine)\n"
      "    i = 0\n"
      "    while i < n:\n"
      "        p += 1\n"
      "        i += 1\n"
      "    if n > 2:\n"
      "        p = p * 2\n"
      "    else:\n"
      "        p = p - 1\n"
      "    tl.store(o_ptr, p)\n";
  auto l = lower(body, "o_ptr=*i32,n=i32");
  ttir::InterpMemory mem;
  HostTensor o(DType::Int32, {1});
  ttir::Interpreter in(mem);
  in.run(*l.k.module, "k",
         {ttir::KernelArg::pointer(mem.address_of(o)), ttir::KernelArg::integer(3)}, {});
  EXPECT_EQ(o.get_int(0), (24 + 3) * 2);
  in.run(*l.k.module, "k",
         {ttir::KernelArg::pointer(mem.address_of(o)), ttir::KernelArg::integer(1)}, {});
  EXPECT_EQ(o.get_int(0), 24 + 1 - 1);
}

TEST(Sema, DevicePrintIsCollectedNotPrinted) {
  auto l = lower("@triton.jit\ndef k(n):\n    tl.device_print('n=', n)\n", "n=i32");
  ttir::InterpMemory mem;
  ttir::Interpreter in(mem);
  auto r = in.run(*l.k.module, "k", {ttir::KernelArg::integer(42)}, ttir::Grid{2, 1, 1});
  ASSERT_EQ(r.prints.size(), 2u);
  EXPECT_NE(r.prints[1].find("pid (1, 0, 0)"), std::string::npos) << r.prints[1];
  EXPECT_NE(r.prints[1].find("n= 42"), std::string::npos) << r.prints[1];
}

TEST(Sema, SpecialisationKeysDifferByDtypeAndConstexpr) {
  Specialization a, b, c;
  add_signature(a, "x=*fp32,n=i32");
  add_constexpr(a, "BLOCK=128");
  add_signature(b, "x=*fp16,n=i32");
  add_constexpr(b, "BLOCK=128");
  add_signature(c, "x=*fp32, n=i32");
  add_constexpr(c, "BLOCK=256");
  EXPECT_NE(a.key(), b.key());
  EXPECT_NE(a.key(), c.key());
  Specialization a2;
  add_signature(a2, " x = *float32 , n=int32");
  add_constexpr(a2, "BLOCK=128");
  EXPECT_EQ(a.key(), a2.key());
  EXPECT_THROW(add_signature(a, "x=*fp7"), Error);
  EXPECT_THROW(add_constexpr(a, "BLOCK"), Error);
}

TEST(Sema, KernelCacheReturnsTheSameLoweringForTheSameKey) {
  auto mod =
      parse_source("k.py", std::string(kHeader) +
                               "@triton.jit\ndef k(x, B: tl.constexpr):\n    tl.store(x, B)\n");
  KernelCache cache;
  Specialization s;
  add_signature(s, "x=*i32");
  add_constexpr(s, "B=3");
  auto k1 = cache.get(mod, "k", s);
  auto k2 = cache.get(mod, "k", s);
  EXPECT_EQ(k1.get(), k2.get());
  EXPECT_EQ(cache.hits(), 1u);
  add_constexpr(s, "B=4");
  auto k3 = cache.get(mod, "k", s);
  EXPECT_NE(k1.get(), k3.get());
  EXPECT_EQ(cache.size(), 2u);
}

// ---------------------------------------------------------------------------
// Errors: location, caret and a message a Triton user recognises.
TEST(SemaErrors, BroadcastShapeMismatch) {
  expect_error("@triton.jit\ndef k(x):\n    a = tl.arange(0, 128) + tl.arange(0, 64)\n", "x=*fp32",
               "Cannot make_shape_compatible: incompatible dimensions at index 0: 128 and 64", 3,
               9);
}
TEST(SemaErrors, NonConstexprArangeBounds) {
  expect_error("@triton.jit\ndef k(x, n):\n    a = tl.arange(0, n)\n", "x=*fp32,n=i32",
               "arange's arguments must be of type tl.constexpr", 3, 9);
}
TEST(SemaErrors, ArangeRangeNotPowerOfTwo) {
  expect_error("@triton.jit\ndef k(x):\n    a = tl.arange(0, 100)\n", "x=*fp32",
               "arange's range must be a power of 2", 3, 9);
}
TEST(SemaErrors, FloatPlusPointer) {
  expect_error("@triton.jit\ndef k(x):\n    p = x + 1.5\n", "x=*fp32",
               "invalid operands of type pointer<fp32> and fp32", 3, 9);
}
TEST(SemaErrors, UnknownBuiltin) {
  expect_error("@triton.jit\ndef k(x):\n    y = tl.frobnicate(x)\n", "x=*fp32",
               "unknown builtin 'tl.frobnicate'", 3, 9);
}
TEST(SemaErrors, WrongArgumentCount) {
  expect_error("@triton.jit\ndef k(x):\n    y = tl.load()\n", "x=*fp32",
               "load() missing 1 required positional argument: 'pointer'", 3, 9);
  expect_error("@triton.jit\ndef k(x):\n    y = tl.program_id(0, 1)\n", "x=*fp32",
               "program_id() takes 1 positional arguments but 2 were given", 3, 9);
}
TEST(SemaErrors, UndefinedName) {
  expect_error("@triton.jit\ndef k(x):\n    y = x + foo\n", "x=*fp32", "name 'foo' is not defined",
               3, 13);
}
TEST(SemaErrors, MathOnHalfNeedsAnUpcastAsInTriton) {
  expect_error("@triton.jit\ndef k(x):\n    y = tl.exp(tl.load(x))\n", "x=*fp16",
               "Expected dtype ['fp32', 'fp64'] but got fp16", 3, 9);
}
TEST(SemaErrors, LoopCarriedTypeChange) {
  expect_error(
      "@triton.jit\ndef k(x, n):\n    acc = 0\n    for i in range(n):\n        acc += tl.load(x)\n",
      "x=*fp32,n=i32",
      "Loop-carried variable acc has initial type int32 but is re-assigned to fp32 in loop", 4, 5);
}
TEST(SemaErrors, DotShapeRules) {
  expect_error(
      "@triton.jit\ndef k(x):\n    a = tl.zeros((16, 8), dtype=tl.float16)\n    c = tl.dot(a, a)\n",
      "x=*fp32", "are not compatible for matmul", 4, 9);
}
TEST(SemaErrors, MissingSpecialisationNamesTheParameter) {
  try {
    lower("@triton.jit\ndef k(x, n):\n    pass\n", "x=*fp32");
    FAIL();
  } catch (const CompileError &e) {
    EXPECT_NE(e.message().find("parameter 'n'"), std::string::npos) << e.rendered();
  }
}

}  // namespace

namespace {
TEST(Sema, ModuleLevelConstexprGlobalsAreVisibleOthersAreRejected) {
  std::string ok =
      "BLOCK = tl.constexpr(8)\nSCALE: tl.constexpr = 3\n\n\n"
      "@triton.jit\ndef k(o):\n    r = tl.arange(0, BLOCK)\n    tl.store(o + r, r * SCALE)\n";
  EXPECT_NO_THROW(lower(ok, "o=*i32"));
  expect_error("@triton.jit\ndef k(o):\n    tl.store(o, LIMIT)\n\n\nLIMIT = 4\n", "o=*i32",
               "Cannot access global variable LIMIT from within @jit'ed function", 3, 17);
}
}  // namespace

namespace {
TEST(SemaErrors, InfinityAsAnIntegerOtherValue) {
  expect_error(
      "@triton.jit\ndef k(x):\n    v = tl.load(x + tl.arange(0, 4), mask=tl.arange(0, 4) < 2, "
      "other=-float('inf'))\n",
      "x=*i32", "cannot convert float infinity to integer", 3, 9);
}
}  // namespace

namespace {
// Triton's semantic.py: a mask is int1 (load: the IR verifier and the interpreter's "mask has
// unsupported dtype"; store and atomics: "Mask must have boolean scalar type"), and a scalar
// pointer takes no block mask.
TEST(SemaErrors, MaskMustBeBool) {
  expect_error(
      "@triton.jit\ndef k(x):\n    r = tl.arange(0, 4)\n    v = tl.load(x + r, mask=r)\n",
      "x=*fp32", "Mask must have boolean scalar type", 4, 9);
  expect_error(
      "@triton.jit\ndef k(x):\n    r = tl.arange(0, 4)\n    tl.store(x + r, 1.0, mask=r)\n",
      "x=*fp32", "Mask must have boolean scalar type", 4, 5);
  expect_error(
      "@triton.jit\ndef k(x):\n    r = tl.arange(0, 4)\n    tl.atomic_add(x + r, 1.0, mask=r)\n",
      "x=*fp32", "Mask must have boolean scalar type", 4, 5);
}
TEST(SemaErrors, ScalarPointerTakesNoBlockMask) {
  expect_error(
      "@triton.jit\ndef k(x):\n    r = tl.arange(0, 4)\n    v = tl.load(x, mask=r < 2)\n",
      "x=*fp32", "Mask argument cannot be block type if pointer argument is not a block", 4, 9);
  expect_error(
      "@triton.jit\ndef k(x):\n    r = tl.arange(0, 4)\n    v = tl.load(x, mask=r < 2, other=0.0)\n",
      "x=*fp32", "Mask argument cannot be block type if pointer argument is not a block", 4, 9);
  expect_error(
      "@triton.jit\ndef k(x):\n    r = tl.arange(0, 4)\n    v = tl.load(x, mask=True, other=r)\n",
      "x=*i32", "Other argument cannot be block type if pointer argument is not a block", 4, 9);
  expect_error(
      "@triton.jit\ndef k(x):\n    r = tl.arange(0, 4)\n    tl.atomic_add(x, 1.0, mask=r < 2)\n",
      "x=*fp32", "Mask argument cannot be block type if pointer argument is not a block", 4, 5);
}
TEST(Sema, ABoolScalarMaskOnAScalarPointerIsAccepted) {
  EXPECT_NO_THROW(lower("@triton.jit\ndef k(x, n):\n    v = tl.load(x, mask=n > 0, other=0.0)\n"
                        "    tl.store(x, v + 1.0, mask=n > 0)\n",
                        "x=*fp32,n=i32"));
}
}  // namespace
