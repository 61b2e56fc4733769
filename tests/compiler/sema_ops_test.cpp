//===- sema_ops_test.cpp - builtins lowered and executed: shapes, atomics, casts, scans ===//
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <limits>

#include "opforge/compiler/interp.h"
#include "opforge/compiler/parser.h"
#include "opforge/compiler/passes.h"
#include "opforge/compiler/sema.h"

using namespace opforge;
using namespace opforge::compiler;

namespace {

// Lowers `k` from body, runs it on one program with `o` as its only pointer argument.
void run1(const std::string &body, HostTensor &o, const std::string &sig,
          std::vector<ttir::KernelArg> extra = {}, ttir::Grid grid = {}, bool optimize = true) {
  auto mod = parse_source("ops.py", "import triton\nimport triton.language as tl\n\n\n" + body);
  Specialization s;
  add_signature(s, sig);
  LoweredKernel k = lower_kernel(mod, "k", s);
  if (optimize) ttir::run_pass_pipeline(*k.module, Knobs{});
  ttir::InterpMemory mem;
  ttir::Interpreter in(mem);
  std::vector<ttir::KernelArg> args = {ttir::KernelArg::pointer(mem.address_of(o))};
  args.insert(args.end(), extra.begin(), extra.end());
  in.run(*k.module, "k", args, grid);
}

TEST(SemaOps, ShapeOpsTransReshapeSplitJoinBroadcast) {
  std::string body =
      "@triton.jit\ndef k(o):\n"
      "    r = tl.arange(0, 8)\n"
      "    m = tl.reshape(r, (2, 4))\n"  // [[0..3],[4..7]]
      "    t = tl.trans(m)\n"            // 4x2
      "    f = tl.reshape(t, 8)\n"       // 0,4,1,5,2,6,3,7
      "    tl.store(o + r, f)\n"
      "    a, b = tl.split(tl.reshape(r, (4, 2)))\n"  // evens, odds
      "    tl.store(o + 8 + tl.arange(0, 4), a * 10 + b)\n"
      "    j = tl.join(a, b)\n"  // 4x2 back
      "    tl.store(o + 12 + r, tl.reshape(j, (8,)))\n"
      "    c = tl.broadcast_to(tl.expand_dims(tl.arange(0, 2), 0), (4, 2))\n"
      "    s = tl.sum(c, axis=0)\n"  // [0, 4]
      "    tl.store(o + 20 + tl.arange(0, 2), s)\n"
      "    p = tl.permute(tl.reshape(r, (2, 2, 2)), (2, 0, 1))\n"
      "    tl.store(o + 22 + r, tl.reshape(p, (8,)))\n";
  HostTensor o(DType::Int32, {30});
  run1(body, o, "o=*i32");
  const int64_t want[] = {0, 4, 1, 5, 2, 6, 3, 7, 1, 23, 45, 67, 0, 1, 2,
                          3, 4, 5, 6, 7, 0, 4, 0, 2, 4,  6,  1,  3, 5, 7};
  for (int i = 0; i < 30; ++i) EXPECT_EQ(o.get_int(i), want[i]) << i;
}

TEST(SemaOps, AtomicsWithCollisionsAcrossPrograms) {
  std::string body =
      "@triton.jit\ndef k(o):\n"
      "    pid = tl.program_id(0)\n"
      "    r = tl.arange(0, 8)\n"
      "    tl.atomic_add(o + r % 2, 1)\n"  // 4 adds to each of o[0], o[1] per program
      "    tl.atomic_max(o + 2, pid * 3)\n"
      "    tl.atomic_min(o + 3, 100 - pid)\n"
      "    old = tl.atomic_cas(o + 4, pid, pid + 1)\n"  // a ticket lock: succeeds in order
      "    tl.atomic_add(o + 5, tl.where(old == pid, 1, 0))\n"
      "    tl.atomic_xchg(o + 6, 7)\n";
  HostTensor o(DType::Int32, {7});
  o.set_int(3, 1000);
  run1(body, o, "o=*i32", {}, ttir::Grid{5, 1, 1});
  EXPECT_EQ(o.get_int(0), 20);
  EXPECT_EQ(o.get_int(1), 20);
  EXPECT_EQ(o.get_int(2), 12);
  EXPECT_EQ(o.get_int(3), 96);
  EXPECT_EQ(o.get_int(4), 5);
  EXPECT_EQ(o.get_int(5), 5);
  EXPECT_EQ(o.get_int(6), 7);
}

TEST(SemaOps, CastsRoundToNearestEvenAndBitcastKeepsBits) {
  std::string body =
      "@triton.jit\ndef k(o, x):\n"
      "    h = x.to(tl.float16)\n"
      "    tl.store(o, h.to(tl.float32))\n"
      "    b = x.to(tl.bfloat16)\n"
      "    tl.store(o + 1, b.to(tl.float32))\n"
      "    bits = x.to(tl.int32, bitcast=True)\n"
      "    tl.store(o + 2, bits.to(tl.float32))\n"
      "    tl.store(o + 3, (x * 3.7).to(tl.int32).to(tl.float32))\n"
      "    tl.store(o + 4, (-x * 3.7).to(tl.int32).to(tl.float32))\n"
      "    u = tl.full((1,), 255, tl.uint8)\n"
      "    tl.store(o + 5 + tl.arange(0, 1), u.to(tl.float32))\n";
  HostTensor o(DType::Float32, {6});
  // 1 + 2^-11 is halfway between two fp16 values: RNE keeps the even one (1.0).
  double x = 1.0 + std::ldexp(1.0, -11);
  run1(body, o, "o=*fp32,x=fp32", {ttir::KernelArg::floating(x)});
  EXPECT_EQ(o.get_double(0), 1.0);
  EXPECT_EQ(o.get_double(1), 1.0);
  EXPECT_EQ(o.get_double(2),
            static_cast<double>(static_cast<float>(std::bit_cast<int32_t>(static_cast<float>(x)))));
  EXPECT_EQ(o.get_double(3), 3.0);
  EXPECT_EQ(o.get_double(4), -3.0);
  EXPECT_EQ(o.get_double(5), 255.0);
}

TEST(SemaOps, MinMaxNaNSemanticsAndClamp) {
  std::string body =
      "@triton.jit\ndef k(o, x):\n"
      "    nan = float('nan')\n"
      "    v = tl.full((4,), 1.0, tl.float32)\n"
      "    n = tl.where(tl.arange(0, 4) == 2, nan, v)\n"
      "    tl.store(o + tl.arange(0, 4), tl.maximum(n, 0.5))\n"
      "    tl.store(o + 4 + tl.arange(0, 4), tl.maximum(n, 0.5, "
      "propagate_nan=tl.PropagateNan.ALL))\n"
      "    tl.store(o + 8, tl.clamp(x, -1.0, 1.0))\n"
      "    tl.store(o + 9, tl.max(n, axis=0))\n";
  HostTensor o(DType::Float32, {10});
  run1(body, o, "o=*fp32,x=fp32", {ttir::KernelArg::floating(7.0)});
  EXPECT_EQ(o.get_double(2), 0.5) << "tl.maximum ignores NaN by default";
  EXPECT_TRUE(std::isnan(o.get_double(6))) << "propagate_nan=ALL";
  EXPECT_EQ(o.get_double(4), 1.0);
  EXPECT_EQ(o.get_double(8), 1.0);
  EXPECT_EQ(o.get_double(9), 1.0);
}

TEST(SemaOps, ScansArgminAndReductionsWithIndices) {
  std::string body =
      "@triton.jit\ndef add(a, b):\n    return a + b\n\n\n"
      "@triton.jit\ndef k(o):\n"
      "    r = tl.arange(0, 8)\n"
      "    v = (r * 5) % 8\n"  // 0 5 2 7 4 1 6 3
      "    tl.store(o + r, tl.cumsum(v, axis=0, reverse=True))\n"
      "    tl.store(o + 8 + r, tl.associative_scan(v, 0, add))\n"
      "    tl.store(o + 16, tl.argmin(v, axis=0))\n"
      "    mx, ix = tl.max(v, axis=0, return_indices=True)\n"
      "    tl.store(o + 17, mx * 100 + ix)\n"
      "    m2 = tl.reshape(v, (2, 4))\n"
      "    s = tl.sum(m2, axis=1, keep_dims=True)\n"  // 2x1: 14, 14
      "    tl.store(o + 18 + tl.arange(0, 2)[:, None], s)\n"
      "    tl.store(o + 20, tl.umulhi(0x7fffffff, 4))\n";
  HostTensor o(DType::Int32, {21});
  run1(body, o, "o=*i32");
  const int64_t v[] = {0, 5, 2, 7, 4, 1, 6, 3};
  int64_t acc = 0;
  for (int i = 7; i >= 0; --i) {
    acc += v[i];
    EXPECT_EQ(o.get_int(i), acc) << i;
  }
  acc = 0;
  for (int i = 0; i < 8; ++i) {
    acc += v[i];
    EXPECT_EQ(o.get_int(8 + i), acc) << i;
  }
  EXPECT_EQ(o.get_int(16), 0);
  EXPECT_EQ(o.get_int(17), 703);
  EXPECT_EQ(o.get_int(18), 14);
  EXPECT_EQ(o.get_int(19), 14);
  EXPECT_EQ(o.get_int(20), 1);
}

TEST(SemaOps, MaskedLoadOtherAndBlockPointerPadding) {
  std::string body =
      "@triton.jit\ndef k(o, n):\n"
      "    r = tl.arange(0, 8)\n"
      "    x = tl.load(o + r, mask=r < n, other=-1)\n"
      "    bp = tl.make_block_ptr(o, shape=(n,), strides=(1,), offsets=(4,), block_shape=(8,), "
      "order=(0,))\n"
      "    y = tl.load(bp, boundary_check=(0,), padding_option='zero')\n"
      "    tl.store(o + 8 + r, x)\n"
      "    tl.store(o + 16 + r, y)\n";
  HostTensor o(DType::Int32, {24});
  for (int i = 0; i < 8; ++i) o.set_int(i, 10 + i);
  run1(body, o, "o=*i32,n=i32", {ttir::KernelArg::integer(6)});
  for (int i = 0; i < 8; ++i) EXPECT_EQ(o.get_int(8 + i), i < 6 ? 10 + i : -1) << i;
  for (int i = 0; i < 8; ++i) EXPECT_EQ(o.get_int(16 + i), 4 + i < 6 ? 14 + i : 0) << i;
}

TEST(SemaOps, UnmaskedOutOfBoundsStoreIsReportedWithOpAndProgram) {
  std::string body =
      "@triton.jit\ndef k(o):\n    pid = tl.program_id(0)\n    tl.store(o + pid * 4 + tl.arange(0, "
      "4), 1.0)\n";
  HostTensor o(DType::Float32, {6});
  try {
    run1(body, o, "o=*fp32", {}, ttir::Grid{2, 1, 1});
    FAIL() << "expected a fault";
  } catch (const Error &e) {
    EXPECT_NE(e.message().find("tt.store in program (1, 0, 0)"), std::string::npos) << e.message();
    EXPECT_NE(e.message().find("out-of-bounds store at element 2"), std::string::npos)
        << e.message();
    EXPECT_EQ(e.context().line, 8) << "points at the tl.store line";
  }
  EXPECT_EQ(o.get_double(5), 1.0) << "in-bounds elements before the fault were written";
}

}  // namespace
