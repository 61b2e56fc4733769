//===- dpe_model_test_util.h - tiled matmul kernels on the chip model for DPE tests -===//
#pragma once

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "../../model/test_util.h"
#include "opforge/model/device.h"
#include "opforge/model/dpe_compute.h"
#include "opforge/support/dtype.h"

namespace opforge::rtl::testing {

using isa::DpeDType;
using model::testing::CmdList;

struct MatmulShape {
  uint32_t m, n, k;     // C[m][n] = A[m][k] * B[k][n]
  uint32_t tm, tn, tk;  // DPE command tile
};

// A tiled matmul as one command list: DMA A, B and C (initial values) into
// local memory, one DPE command per (tile row, tile column, k chunk) with
// accumulate on (C starts from the initial values), DMA C back.
struct MatmulKernel {
  MatmulShape s;
  DpeDType dtype;
  std::vector<uint8_t> a, b;  // row-major, leading dimensions k and n
  std::vector<uint32_t> c0;   // fp32 or int32 bits
  uint64_t commands = 0;
  std::vector<isa::DpeCommand> cmds;

  MatmulKernel(MatmulShape shape, DpeDType t, uint32_t seed) : s(shape), dtype(t) {
    const uint32_t eb = model::dpe_input_bytes(t);
    a.resize(size_t(s.m) * s.k * eb);
    b.resize(size_t(s.k) * s.n * eb);
    fill(a, seed);
    fill(b, seed + 1);
    c0.resize(size_t(s.m) * s.n);
    for (size_t i = 0; i < c0.size(); ++i)
      c0[i] = t == DpeDType::INT8 ? uint32_t(int32_t(i % 97) - 48)
                                  : std::bit_cast<uint32_t>(float(int(i % 13) - 6) * 0.125f);
  }

  void fill(std::vector<uint8_t> &v, uint32_t seed) const {
    auto raw = model::testing::pattern(v.size() * 2, seed);
    const uint32_t eb = model::dpe_input_bytes(dtype);
    for (size_t i = 0; i < v.size() / eb; ++i) {
      if (dtype == DpeDType::INT8) {
        v[i] = raw[i];
        continue;
      }
      const float f = float(int(raw[2 * i] | (raw[2 * i + 1] << 8)) % 2001 - 1000) / 137.0f;
      const uint16_t h = dtype == DpeDType::BF16 ? fp32_to_bf16(f) : fp32_to_fp16(f);
      std::memcpy(&v[i * 2], &h, 2);
    }
  }

  // The command list for local memory at `local` (A, then B, then C): C
  // starts from `dc_in` and is written to `dc_out`. Every instance runs the
  // same list, so the initial C is read from a buffer nobody writes (an
  // instance that starts late would otherwise read another's result).
  CmdList build(uint64_t local, uint64_t da, uint64_t db, uint64_t dc_in, uint64_t dc_out) {
    const uint64_t la = local, lb = la + a.size(), lc = (lb + b.size() + 63) / 64 * 64;
    const uint32_t eb = model::dpe_input_bytes(dtype);
    CmdList cl;
    cl.dma({da, la, a.size(), 1, 0, 0, 0})
        .dma({db, lb, b.size(), 1, 0, 0, 0})
        .dma({dc_in, lc, c0.size() * 4, 1, 0, 0, 0})
        .dma_wait(0);
    for (uint32_t i = 0; i < s.m; i += s.tm)
      for (uint32_t j = 0; j < s.n; j += s.tn)
        for (uint32_t kk = 0; kk < s.k; kk += s.tk) {
          isa::DpeCommand c{la + (uint64_t(i) * s.k + kk) * eb,
                            lb + (uint64_t(kk) * s.n + j) * eb,
                            lc + (uint64_t(i) * s.n + j) * 4,
                            std::min(s.tm, s.m - i),
                            std::min(s.tn, s.n - j),
                            std::min(s.tk, s.k - kk),
                            s.k,
                            s.n,
                            s.n,
                            dtype,
                            true};
          cl.dpe(c);
          cmds.push_back(c);
          ++commands;
        }
    cl.dpe_wait().dma({lc, dc_out, c0.size() * 4, 1, 0, 0, 1}).dma_wait(1);
    return cl;
  }

  // C as the contract defines it: k order, one fmaf per step (or int32 wrap).
  std::vector<uint32_t> reference() const {
    std::vector<uint32_t> c = c0;
    for (uint32_t i = 0; i < s.m; ++i)
      for (uint32_t j = 0; j < s.n; ++j) {
        uint32_t &out = c[size_t(i) * s.n + j];
        if (dtype == DpeDType::INT8) {
          uint32_t acc = out;
          for (uint32_t kk = 0; kk < s.k; ++kk)
            acc += uint32_t(int32_t(int8_t(a[size_t(i) * s.k + kk])) *
                            int32_t(int8_t(b[size_t(kk) * s.n + j])));
          out = acc;
          continue;
        }
        float acc = std::bit_cast<float>(out);
        for (uint32_t kk = 0; kk < s.k; ++kk)
          acc = std::fmaf(value(a, size_t(i) * s.k + kk), value(b, size_t(kk) * s.n + j), acc);
        out = std::isnan(acc) ? 0x7FC00000u : std::bit_cast<uint32_t>(acc);
      }
    return c;
  }

  float value(const std::vector<uint8_t> &v, size_t i) const {
    uint16_t h;
    std::memcpy(&h, &v[i * 2], 2);
    return dtype == DpeDType::BF16 ? bf16_to_fp32(h) : fp16_to_fp32(h);
  }
};

struct MatmulRun {
  model::LaunchResult launch;
  std::vector<uint32_t> c;
};

// Run the kernel on every PE of the device (each computes the same C).
inline MatmulRun run_matmul(model::Device &dev, MatmulKernel &kern) {
  const model::ChipParams &p = dev.params();
  const uint64_t da = dev.alloc(kern.a.size()), db = dev.alloc(kern.b.size()),
                 dc_in = dev.alloc(kern.c0.size() * 4), dc = dev.alloc(kern.c0.size() * 4);
  dev.copy_in(da, kern.a.data(), kern.a.size());
  dev.copy_in(db, kern.b.data(), kern.b.size());
  dev.copy_in(dc_in, kern.c0.data(), kern.c0.size() * 4);
  CmdList cl = kern.build(p.map.local_alias_base, da, db, dc_in, dc);
  MatmulRun r;
  r.launch = dev.launch(cl.launch(model::Grid3{p.num_pes(), 1, 1}));
  r.c.resize(kern.c0.size());
  dev.copy_out(dc, r.c.data(), r.c.size() * 4);
  return r;
}

}  // namespace opforge::rtl::testing
