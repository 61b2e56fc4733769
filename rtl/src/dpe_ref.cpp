//===- dpe_ref.cpp - C++ reference of the DPE tile matmul and command checks -===//
#include "opforge/rtl/dpe_ref.h"

#include <bit>
#include <cmath>
#include <cstring>
#include <sstream>
#include <string>

#include "opforge/rtl/fp_bits.h"
#include "opforge/support/dtype.h"
#include "opforge/support/error.h"

namespace opforge::rtl {
namespace {

std::string hex(uint64_t v) {
  std::ostringstream os;
  os << "0x" << std::hex << v;
  return os.str();
}

// Offset of an operand of `rows` rows of `cols` elements (leading dimension
// ld) inside [base, base + mem_bytes); throws naming `field` when outside.
uint64_t operand_offset(const char *field, uint64_t addr, uint64_t rows, uint64_t cols, uint64_t ld,
                        uint64_t elem_bytes, uint64_t mem_bytes, uint64_t base) {
  if (rows == 0 || cols == 0) return 0;
  const unsigned __int128 extent =
      (static_cast<unsigned __int128>(rows - 1) * ld + cols) * elem_bytes;
  if (addr < base || static_cast<unsigned __int128>(addr - base) + extent > mem_bytes) {
    throw Error("DPE operand " + hex(addr) + " (" + std::to_string(static_cast<uint64_t>(extent)) +
                " bytes) is outside local memory [" + hex(base) + ", " + hex(base + mem_bytes) +
                ")")
        .with_path(field);
  }
  return addr - base;
}

uint16_t load16(const uint8_t *p) {
  uint16_t v;
  std::memcpy(&v, p, 2);
  return v;
}

uint32_t load32(const uint8_t *p) {
  uint32_t v;
  std::memcpy(&v, p, 4);
  return v;
}

}  // namespace

DpeOperandOffsets check_dpe_command(const isa::DpeCommand &cmd, uint64_t mem_bytes, uint64_t base) {
  DpeOperandOffsets off;
  switch (cmd.dtype) {
    case isa::DpeDType::BF16:
    case isa::DpeDType::FP16:
      off.elem_bytes = 2;
      break;
    case isa::DpeDType::INT8:
      off.elem_bytes = 1;
      break;
    default:
      throw Error("the RTL DPE runs bf16, fp16 and int8 commands only (dtype " +
                  std::to_string(static_cast<unsigned>(cmd.dtype)) + ")")
          .with_path("dpe.dtype");
  }
  if (cmd.m > 0 && cmd.k > 0 && cmd.lda < cmd.k)
    throw Error("lda " + std::to_string(cmd.lda) + " < k " + std::to_string(cmd.k))
        .with_path("dpe.lda");
  if (cmd.k > 0 && cmd.n > 0 && cmd.ldb < cmd.n)
    throw Error("ldb " + std::to_string(cmd.ldb) + " < n " + std::to_string(cmd.n))
        .with_path("dpe.ldb");
  if (cmd.m > 0 && cmd.n > 0 && cmd.ldc < cmd.n)
    throw Error("ldc " + std::to_string(cmd.ldc) + " < n " + std::to_string(cmd.n))
        .with_path("dpe.ldc");
  off.a = operand_offset("dpe.a", cmd.a, cmd.m, cmd.k, cmd.lda, off.elem_bytes, mem_bytes, base);
  off.b = operand_offset("dpe.b", cmd.b, cmd.k, cmd.n, cmd.ldb, off.elem_bytes, mem_bytes, base);
  off.c = operand_offset("dpe.c", cmd.c, cmd.m, cmd.n, cmd.ldc, 4, mem_bytes, base);
  return off;
}

uint32_t dpe_fma16_ref(isa::DpeDType dtype, uint16_t a, uint16_t b, uint32_t acc) {
  const bool fp16 = dtype == isa::DpeDType::FP16;
  const float fa = fp16 ? fp16_to_fp32(a) : bf16_to_fp32(a);
  const float fb = fp16 ? fp16_to_fp32(b) : bf16_to_fp32(b);
  return canonicalize_nan(std::bit_cast<uint32_t>(std::fmaf(fa, fb, std::bit_cast<float>(acc))));
}

void dpe_reference(const isa::DpeCommand &cmd, std::span<uint8_t> mem, uint64_t base) {
  const DpeOperandOffsets off = check_dpe_command(cmd, mem.size(), base);
  const bool int8 = cmd.dtype == isa::DpeDType::INT8;
  uint8_t *m = mem.data();
  for (uint64_t i = 0; i < cmd.m; ++i) {
    for (uint64_t j = 0; j < cmd.n; ++j) {
      uint8_t *c = m + off.c + (i * cmd.ldc + j) * 4;
      uint32_t acc = cmd.accumulate ? load32(c) : 0u;
      for (uint64_t kk = 0; kk < cmd.k; ++kk) {
        const uint8_t *a = m + off.a + (i * cmd.lda + kk) * off.elem_bytes;
        const uint8_t *b = m + off.b + (kk * cmd.ldb + j) * off.elem_bytes;
        if (int8) {
          const int32_t prod =
              static_cast<int32_t>(static_cast<int8_t>(*a)) * static_cast<int8_t>(*b);
          acc = acc + static_cast<uint32_t>(prod);
        } else {
          acc = dpe_fma16_ref(cmd.dtype, load16(a), load16(b), acc);
        }
      }
      std::memcpy(c, &acc, 4);
    }
  }
}

}  // namespace opforge::rtl
