//===- chip_dpe_test.cpp - DPE tile matmuls on the chip vs a host reference ===//
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstring>

#include "opforge/model/device.h"
#include "opforge/model/dpe_compute.h"
#include "opforge/support/dtype.h"
#include "test_util.h"

namespace opforge::model {
namespace {

using isa::DpeDType;
using testing::CmdList;

// Element i of a test operand as raw bytes of the dtype, and its value.
struct Operand {
  std::vector<uint8_t> bytes;
  std::vector<double> values;
};

Operand make_operand(DpeDType t, size_t n, uint32_t seed) {
  Operand o;
  uint32_t eb = dpe_input_bytes(t);
  o.bytes.resize(n * eb);
  auto raw = testing::pattern(n * 4, seed);
  for (size_t i = 0; i < n; ++i) {
    uint32_t r;
    std::memcpy(&r, &raw[i * 4], 4);
    float f = float(int32_t(r % 2001) - 1000) / 137.0f;  // mixed signs and magnitudes
    switch (t) {
      case DpeDType::BF16: {
        uint16_t b = fp32_to_bf16(f);
        std::memcpy(&o.bytes[i * 2], &b, 2);
        o.values.push_back(bf16_to_fp32(b));
        break;
      }
      case DpeDType::FP16: {
        uint16_t b = fp32_to_fp16(f);
        std::memcpy(&o.bytes[i * 2], &b, 2);
        o.values.push_back(fp16_to_fp32(b));
        break;
      }
      case DpeDType::FP32:
        std::memcpy(&o.bytes[i * 4], &f, 4);
        o.values.push_back(f);
        break;
      case DpeDType::INT8: {
        int8_t v = int8_t(r % 256);
        o.bytes[i] = uint8_t(v);
        o.values.push_back(v);
        break;
      }
    }
  }
  return o;
}

class ChipDpe : public ::testing::TestWithParam<DpeDType> {};

TEST_P(ChipDpe, TileMatmulMatchesHostReference) {
  const DpeDType t = GetParam();
  ChipParams p = testing::preset("tiny");
  Device dev(p);
  const uint32_t m = 5, n = 7, k = 9, lda = 11, ldb = 8, ldc = 9;
  const uint32_t eb = dpe_input_bytes(t);
  Operand a = make_operand(t, size_t(m) * lda, 11), b = make_operand(t, size_t(k) * ldb, 12);
  // C starts with values; accumulate=true adds to them.
  std::vector<float> c0(size_t(m) * ldc);
  for (size_t i = 0; i < c0.size(); ++i) c0[i] = t == DpeDType::INT8 ? 0.0f : float(i) * 0.25f;
  std::vector<int32_t> c0i(size_t(m) * ldc);
  for (size_t i = 0; i < c0i.size(); ++i) c0i[i] = int32_t(i) * 3 - 20;

  uint64_t da = dev.alloc(a.bytes.size()), db = dev.alloc(b.bytes.size()),
           dc = dev.alloc(c0.size() * 4);
  dev.copy_in(da, a.bytes.data(), a.bytes.size());
  dev.copy_in(db, b.bytes.data(), b.bytes.size());
  if (t == DpeDType::INT8)
    dev.copy_in(dc, c0i.data(), c0i.size() * 4);
  else
    dev.copy_in(dc, c0.data(), c0.size() * 4);
  uint64_t la = p.map.local_alias_base, lb = la + 4096, lc = la + 8192;
  isa::DpeCommand cmd{la, lb, lc, m, n, k, lda, ldb, ldc, t, true};
  CmdList cl;
  cl.dma({da, la, a.bytes.size(), 1, 0, 0, 0})
      .dma({db, lb, b.bytes.size(), 1, 0, 0, 0})
      .dma({dc, lc, c0.size() * 4, 1, 0, 0, 0})
      .dma_wait(0)
      .dpe(cmd)
      .dpe_wait()
      .dma({lc, dc, c0.size() * 4, 1, 0, 0, 1})
      .dma_wait(1);
  LaunchResult r = dev.launch(cl.launch());
  ASSERT_TRUE(r.ok()) << r.traps.front();
  std::vector<uint8_t> out(c0.size() * 4);
  dev.copy_out(dc, out.data(), out.size());

  for (uint32_t i = 0; i < m; ++i)
    for (uint32_t j = 0; j < ldc; ++j) {
      size_t ci = size_t(i) * ldc + j;
      if (t == DpeDType::INT8) {
        int32_t want = c0i[ci];
        if (j < n)
          for (uint32_t kk = 0; kk < k; ++kk)
            want +=
                int32_t(a.values[size_t(i) * lda + kk]) * int32_t(b.values[size_t(kk) * ldb + j]);
        int32_t got;
        std::memcpy(&got, &out[ci * 4], 4);
        ASSERT_EQ(got, want) << "C[" << i << "][" << j << "]";
      } else {
        // Contract: fp32 accumulation in k order, one fmaf per step.
        float want = c0[ci];
        double exact = c0[ci];
        if (j < n)
          for (uint32_t kk = 0; kk < k; ++kk) {
            float x = float(a.values[size_t(i) * lda + kk]),
                  y = float(b.values[size_t(kk) * ldb + j]);
            want = std::fmaf(x, y, want);
            exact += double(x) * double(y);
          }
        float got;
        std::memcpy(&got, &out[ci * 4], 4);
        ASSERT_EQ(std::bit_cast<uint32_t>(got), std::bit_cast<uint32_t>(want))
            << "C[" << i << "][" << j << "]";
        ASSERT_NEAR(got, exact, 1e-3 * (1 + std::fabs(exact)));
      }
    }
  EXPECT_EQ(dev.counter("pe[0][0].dpe.macs"), uint64_t(m) * n * k);
  EXPECT_EQ(dev.counter("pe[0][0].dpe.commands"), 1u);
  (void)eb;
}

std::string dtype_name(const ::testing::TestParamInfo<DpeDType> &i) {
  static const char *const kNames[] = {"bf16", "fp16", "fp32", "int8"};
  return kNames[int(i.param)];
}

INSTANTIATE_TEST_SUITE_P(AllDtypes, ChipDpe,
                         ::testing::Values(DpeDType::BF16, DpeDType::FP16, DpeDType::FP32,
                                           DpeDType::INT8),
                         dtype_name);

// A guest float instruction with the dynamic rounding mode (frm = RTZ) right
// before the DPE command: the ISS left the host's rounding mode at
// round-toward-zero, the DPE still rounds to nearest even (kernel
// cmdlist_rtz.S: cmdlist.S with that instruction before each DPE command).
TEST(ChipDpeRounding, NearestEvenAfterAGuestInstructionRoundingTowardZero) {
  ChipParams p = testing::preset("tiny");
  Device dev(p);  // one a process
  for (DpeDType t : {DpeDType::BF16, DpeDType::FP16, DpeDType::FP32}) {
    const uint32_t m = 4, n = 16, k = 16;
    const uint32_t eb = dpe_input_bytes(t);
    Operand a = make_operand(t, size_t(m) * k, 21), b = make_operand(t, size_t(k) * n, 22);
    std::vector<float> c0(size_t(m) * n);
    for (size_t i = 0; i < c0.size(); ++i) c0[i] = float(i) / 7.0f;
    uint64_t da = dev.alloc(a.bytes.size()), db = dev.alloc(b.bytes.size()),
             dc = dev.alloc(c0.size() * 4);
    dev.copy_in(da, a.bytes.data(), a.bytes.size());
    dev.copy_in(db, b.bytes.data(), b.bytes.size());
    dev.copy_in(dc, c0.data(), c0.size() * 4);
    uint64_t la = p.map.local_alias_base, lb = la + 4096, lc = la + 8192;
    CmdList cl;
    cl.dma({da, la, a.bytes.size(), 1, 0, 0, 0})
        .dma({db, lb, b.bytes.size(), 1, 0, 0, 0})
        .dma({dc, lc, c0.size() * 4, 1, 0, 0, 0})
        .dma_wait(0)
        .dpe({la, lb, lc, m, n, k, k, n, n, t, true})
        .dpe_wait()
        .dma({lc, dc, c0.size() * 4, 1, 0, 0, 1})
        .dma_wait(1);
    KernelLaunch kl = cl.launch();
    kl.image = read_elf_file(testing::kernel("cmdlist_rtz"));
    LaunchResult r = dev.launch(kl);
    ASSERT_TRUE(r.ok()) << r.traps.front();
    std::vector<float> got(c0.size());
    dev.copy_out(dc, got.data(), got.size() * 4);
    dev.free(da);
    dev.free(db);
    dev.free(dc);
    size_t differ = 0;
    for (uint32_t i = 0; i < m; ++i)
      for (uint32_t j = 0; j < n; ++j) {
        float want = c0[size_t(i) * n + j];  // fmaf in k order, nearest even
        for (uint32_t kk = 0; kk < k; ++kk)
          want = std::fmaf(float(a.values[size_t(i) * k + kk]), float(b.values[size_t(kk) * n + j]),
                           want);
        differ += std::bit_cast<uint32_t>(got[size_t(i) * n + j]) != std::bit_cast<uint32_t>(want);
      }
    EXPECT_EQ(differ, 0u) << "dtype " << int(t) << ": " << differ << " of " << m * n
                          << " results not rounded to nearest even";
    (void)eb;
  }
}

TEST(ChipDpeBad, OperandOutsideLocalMemoryIsATrap) {
  ChipParams p = testing::preset("tiny");
  Device dev(p);
  uint64_t dram = dev.alloc(4096);
  isa::DpeCommand cmd{
      dram, p.map.local_alias_base, p.map.local_alias_base + 1024, 4, 4, 4, 4, 4, 4, DpeDType::BF16,
      false};
  LaunchResult r = dev.launch(CmdList().dpe(cmd).dpe_wait().launch());
  ASSERT_EQ(r.traps.size(), 1u);
  EXPECT_NE(r.traps[0].find("outside the PE's local memory"), std::string::npos) << r.traps[0];
  EXPECT_EQ(r.instances[0].addr, dram);
}

}  // namespace
}  // namespace opforge::model
