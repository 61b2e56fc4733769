//===- test_util.h - shared helpers for the chip model tests --------------===//
#pragma once

#include <string>
#include <vector>

#include "opforge/model/params.h"

namespace opforge::model::testing {

// A preset (scenarios/arch/<name>.json, through ArchConfig) with KEY=VALUE
// overrides in ArchConfig names (pe.dma.engines=2).
inline ChipParams preset(const std::string &name, const std::vector<std::string> &overrides = {}) {
  return load_params(name, overrides);
}

}  // namespace opforge::model::testing

#include <cstring>

#include "opforge/isa/accel_if.h"
#include "opforge/model/device.h"

namespace opforge::model::testing {

inline std::string kernel(const std::string &name) {
  return std::string(MODEL_KERNEL_DIR) + "/" + name + ".elf";
}

// The argument block of kernels/cmdlist.S.
class CmdList {
 public:
  CmdList &dma(const isa::DmaCommand &c) {
    uint8_t d[64] = {};
    put(d, 0, c.src);
    put(d, 8, c.dst);
    put(d, 16, c.row_bytes);
    put(d, 24, c.rows);
    put(d, 32, uint64_t(c.src_stride));
    put(d, 40, uint64_t(c.dst_stride));
    return entry(0, c.tag, d);
  }
  CmdList &dma_wait(uint32_t tag) {
    uint8_t d[64] = {};
    return entry(1, tag, d);
  }
  CmdList &dpe(const isa::DpeCommand &c) {
    uint8_t d[64] = {};
    put(d, 0, c.a);
    put(d, 8, c.b);
    put(d, 16, c.c);
    put32(d, 24, c.m);
    put32(d, 28, c.n);
    put32(d, 32, c.k);
    put32(d, 36, c.lda);
    put32(d, 40, c.ldb);
    put32(d, 44, c.ldc);
    d[48] = uint8_t(c.dtype);
    d[49] = c.accumulate ? 1 : 0;
    return entry(2, 0, d);
  }
  CmdList &dpe_wait() {
    uint8_t d[64] = {};
    return entry(3, 0, d);
  }
  std::vector<uint8_t> bytes() const {
    std::vector<uint8_t> out(8 + body_.size());
    uint64_t n = count_;
    std::memcpy(out.data(), &n, 8);
    std::memcpy(out.data() + 8, body_.data(), body_.size());
    return out;
  }
  KernelLaunch launch(Grid3 grid = {}) const {
    KernelLaunch k;
    k.image = read_elf_file(kernel("cmdlist"));
    k.args = bytes();
    k.grid = grid;
    return k;
  }

 private:
  static void put(uint8_t *d, int off, uint64_t v) { std::memcpy(d + off, &v, 8); }
  static void put32(uint8_t *d, int off, uint32_t v) { std::memcpy(d + off, &v, 4); }
  CmdList &entry(uint64_t kind, uint64_t tag, const uint8_t *desc) {
    size_t at = body_.size();
    body_.resize(at + 80);
    std::memcpy(&body_[at], &kind, 8);
    std::memcpy(&body_[at + 8], &tag, 8);
    std::memcpy(&body_[at + 16], desc, 64);
    ++count_;
    return *this;
  }
  std::vector<uint8_t> body_;
  uint64_t count_ = 0;
};

inline std::vector<uint8_t> pattern(size_t n, uint32_t seed) {
  std::vector<uint8_t> v(n);
  uint32_t x = seed * 2654435761u + 1;
  for (auto &b : v) {
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    b = uint8_t(x);
  }
  return v;
}

}  // namespace opforge::model::testing
