//===- vec_common.h - element loops and register-group access for RVV -----===//
//
// The vocabulary vector bodies are written in: element get/set on register
// groups, mask bits, the active-element loop (vstart..vl, v0.t masking,
// tail and inactive elements left undisturbed, as QEMU does by default),
// SEW dispatch to a typed lambda, and the legality checks that raise an
// illegal-instruction trap.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstdint>
#include <cstring>
#include <type_traits>

#include "semantics.h"

namespace opforge::isa::vec {

[[noreturn]] inline void illegal(Insn i) { Hart::raise(cause::kIllegalInsn, i.bits); }

// Vector unit enabled and vtype valid.
inline void require_vec(Hart &h, Insn i) {
  if (!(h.mstatus & csr::kMstatusVs) || h.vill) illegal(i);
}
inline void require(bool ok, Insn i) {
  if (!ok) illegal(i);
}
// Registers in a group of LMUL (or EMUL) registers; emul_log2 may be negative.
inline unsigned group_regs(int emul_log2) { return emul_log2 > 0 ? 1u << emul_log2 : 1u; }
inline void require_aligned(Insn i, unsigned reg, int emul_log2) {
  if (emul_log2 > 3 || emul_log2 < -3) illegal(i);
  if (reg & (group_regs(emul_log2) - 1)) illegal(i);
}
// A masked instruction whose destination is not a mask may not write v0.
inline void require_vd_not_v0(Insn i) {
  if (!i.vm() && i.vd() == 0) illegal(i);
}

inline uint8_t *vbase(Hart &h) { return h.vreg_mut(0); }
template <class T>
inline T get(Hart &h, unsigned reg, uint64_t idx) {
  T v;
  std::memcpy(&v, vbase(h) + reg * h.vlenb() + idx * sizeof(T), sizeof(T));
  return v;
}
template <class T>
inline void set(Hart &h, unsigned reg, uint64_t idx, T v) {
  std::memcpy(vbase(h) + reg * h.vlenb() + idx * sizeof(T), &v, sizeof(T));
}
inline bool mbit(Hart &h, unsigned reg, uint64_t k) {
  return (vbase(h)[reg * h.vlenb() + (k >> 3)] >> (k & 7)) & 1;
}
inline void set_mbit(Hart &h, unsigned reg, uint64_t k, bool v) {
  uint8_t &b = vbase(h)[reg * h.vlenb() + (k >> 3)];
  b = static_cast<uint8_t>((b & ~(1u << (k & 7))) | (unsigned(v) << (k & 7)));
}

// Calls f(k) for every active element k in [vstart, vl); resets vstart.
template <class F>
inline void each(Hart &h, Insn i, F &&f) {
  const uint64_t vl = h.vl;
  if (i.vm()) {
    for (uint64_t k = h.vstart; k < vl; ++k) f(k);
  } else {
    const uint8_t *m = vbase(h);
    for (uint64_t k = h.vstart; k < vl; ++k)
      if ((m[k >> 3] >> (k & 7)) & 1) f(k);
  }
  h.vstart = 0;
}

// Calls f(U{}) with U the unsigned type of SEW bits.
template <class F>
inline void by_sew(unsigned sew_bits, F &&f) {
  switch (sew_bits) {
    case 8:
      f(uint8_t{});
      break;
    case 16:
      f(uint16_t{});
      break;
    case 32:
      f(uint32_t{});
      break;
    default:
      f(uint64_t{});
      break;
  }
}

template <class U>
struct Wide;
template <>
struct Wide<uint8_t> {
  using type = uint16_t;
};
template <>
struct Wide<uint16_t> {
  using type = uint32_t;
};
template <>
struct Wide<uint32_t> {
  using type = uint64_t;
};
template <>
struct Wide<uint64_t> {
  using type = unsigned __int128;
};
template <class U>
using wide_t = typename Wide<U>::type;
template <class U>
using signed_t = std::make_signed_t<U>;

// Sign-extend a value of U's width to 64 bits.
template <class U>
inline uint64_t sext(U v) {
  return static_cast<uint64_t>(static_cast<int64_t>(static_cast<signed_t<U>>(v)));
}

}  // namespace opforge::isa::vec
