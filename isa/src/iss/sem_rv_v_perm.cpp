//===- sem_rv_v_perm.cpp - RVV mask ops, scalar moves, slides, gathers -----===//
#include <algorithm>

#include "vec_common.h"

using namespace opforge::isa;
using namespace opforge::isa::sem;
using namespace opforge::isa::vec;

OPF_SEM_UNIT(rv_v_perm)

namespace {
// vd.mask[k] = op(vs2.mask[k], vs1.mask[k]) for k < vl (never masked).
template <class Op>
uint64_t vmlogic(Hart &h, Insn i, uint64_t pc, Op op) {
  require_vec(h, i);
  for (uint64_t k = h.vstart; k < h.vl; ++k)
    set_mbit(h, i.vd(), k, op(mbit(h, i.vs2(), k), mbit(h, i.vs1(), k)));
  h.vstart = 0;
  h.charge_vector(InsnClass::VecAlu, h.vl, 1);
  return pc + 4;
}

// Set-before/including/only-first: mode 0 = sbf, 1 = sif, 2 = sof.
uint64_t vmsxf(Hart &h, Insn i, uint64_t pc, int mode) {
  require_vec(h, i);
  require(h.vstart == 0, i);
  require(i.vd() != i.vs2() && (i.vm() || i.vd() != 0), i);
  bool found = false;
  each(h, i, [&](uint64_t k) {
    const bool bit = mbit(h, i.vs2(), k);
    bool out;
    if (found)
      out = false;
    else if (bit) {
      out = mode != 0;
      found = true;
    } else
      out = mode != 2;  // before the first set bit: sbf and sif set, sof clears
    set_mbit(h, i.vd(), k, out);
  });
  h.charge_vector(InsnClass::VecAlu, h.vl, 1);
  return pc + 4;
}

enum class SlideSrc { X, U };
inline uint64_t slide_amount(Hart &h, Insn i, SlideSrc s) {
  return s == SlideSrc::X ? h.x[i.rs1()] : i.uimm5();
}

template <bool up>
uint64_t vslide(Hart &h, Insn i, uint64_t pc, SlideSrc s) {
  require_vec(h, i);
  require_aligned(i, i.vd(), h.vlmul_log2);
  require_aligned(i, i.vs2(), h.vlmul_log2);
  require_vd_not_v0(i);
  if (up) require(i.vd() != i.vs2(), i);
  const uint64_t off = slide_amount(h, i, s);
  const uint64_t vlmax = h.vlmax();
  by_sew(h.vsew_bits, [&](auto t) {
    using U = decltype(t);
    if (up) {
      const uint64_t start = std::max<uint64_t>(h.vstart, off);
      for (uint64_t k = start; k < h.vl; ++k)
        if (i.vm() || mbit(h, 0, k)) set<U>(h, i.vd(), k, get<U>(h, i.vs2(), k - off));
    } else {
      for (uint64_t k = h.vstart; k < h.vl; ++k) {
        if (!i.vm() && !mbit(h, 0, k)) continue;
        const bool in = off < vlmax && k + off < vlmax;
        set<U>(h, i.vd(), k, in ? get<U>(h, i.vs2(), k + off) : U(0));
      }
    }
  });
  h.vstart = 0;
  h.charge_vector(InsnClass::VecPermute, h.vl, h.vsew_bits);
  return pc + 4;
}

// slide1up/down with a scalar (x register bits, or an f register's bits).
template <bool up>
uint64_t vslide1(Hart &h, Insn i, uint64_t pc, uint64_t scalar) {
  require_vec(h, i);
  require_aligned(i, i.vd(), h.vlmul_log2);
  require_aligned(i, i.vs2(), h.vlmul_log2);
  require_vd_not_v0(i);
  if (up) require(i.vd() != i.vs2(), i);
  by_sew(h.vsew_bits, [&](auto t) {
    using U = decltype(t);
    each(h, i, [&](uint64_t k) {
      U v;
      if (up)
        v = k == 0 ? static_cast<U>(scalar) : get<U>(h, i.vs2(), k - 1);
      else
        v = k + 1 == h.vl ? static_cast<U>(scalar) : get<U>(h, i.vs2(), k + 1);
      set<U>(h, i.vd(), k, v);
    });
  });
  h.charge_vector(InsnClass::VecPermute, h.vl, h.vsew_bits);
  return pc + 4;
}

// f-register scalar at SEW (NaN-boxing checked for SEW=32).
inline uint64_t f_scalar(Hart &h, Insn i) {
  if (!(h.mstatus & csr::kMstatusFs)) illegal(i);
  const uint64_t v = h.f[i.rs1()];
  if (h.vsew_bits == 16) return (v >> 16) == 0xffffffffffffull ? uint16_t(v) : 0x7e00u;  // Zvfh
  if (h.vsew_bits == 32) return (v >> 32) == 0xffffffffu ? uint32_t(v) : 0x7fc00000u;
  if (h.vsew_bits != 64) illegal(i);
  return v;
}

enum class GatherIdx { V, VEi16, X, U };
uint64_t vrgather(Hart &h, Insn i, uint64_t pc, GatherIdx mode) {
  require_vec(h, i);
  require_aligned(i, i.vd(), h.vlmul_log2);
  require_aligned(i, i.vs2(), h.vlmul_log2);
  require_vd_not_v0(i);
  require(i.vd() != i.vs2(), i);
  if (mode == GatherIdx::V || mode == GatherIdx::VEi16) require(i.vd() != i.vs1(), i);
  const uint64_t vlmax = h.vlmax();
  by_sew(h.vsew_bits, [&](auto t) {
    using U = decltype(t);
    each(h, i, [&](uint64_t k) {
      uint64_t idx;
      switch (mode) {
        case GatherIdx::V:
          idx = get<U>(h, i.vs1(), k);
          break;
        case GatherIdx::VEi16:
          idx = get<uint16_t>(h, i.vs1(), k);
          break;
        case GatherIdx::X:
          idx = h.x[i.rs1()];
          break;
        default:
          idx = i.uimm5();
          break;
      }
      set<U>(h, i.vd(), k, idx < vlmax ? get<U>(h, i.vs2(), idx) : U(0));
    });
  });
  h.charge_vector(InsnClass::VecPermute, h.vl, h.vsew_bits);
  return pc + 4;
}
}  // namespace

INSN(vmand_mm, VecAlu) {
  return vmlogic(h, i, pc, [](bool a, bool b) { return a && b; });
}
INSN(vmnand_mm, VecAlu) {
  return vmlogic(h, i, pc, [](bool a, bool b) { return !(a && b); });
}
INSN(vmandn_mm, VecAlu) {
  return vmlogic(h, i, pc, [](bool a, bool b) { return a && !b; });
}
INSN(vmxor_mm, VecAlu) {
  return vmlogic(h, i, pc, [](bool a, bool b) { return a != b; });
}
INSN(vmor_mm, VecAlu) {
  return vmlogic(h, i, pc, [](bool a, bool b) { return a || b; });
}
INSN(vmnor_mm, VecAlu) {
  return vmlogic(h, i, pc, [](bool a, bool b) { return !(a || b); });
}
INSN(vmorn_mm, VecAlu) {
  return vmlogic(h, i, pc, [](bool a, bool b) { return a || !b; });
}
INSN(vmxnor_mm, VecAlu) {
  return vmlogic(h, i, pc, [](bool a, bool b) { return a == b; });
}

INSN(vcpop_m, VecReduce) {
  vec::require_vec(h, i);
  require(h.vstart == 0, i);
  uint64_t n = 0;
  each(h, i, [&](uint64_t k) { n += mbit(h, i.vs2(), k); });
  WRITE_RD(n);
  h.charge_vector(InsnClass::VecReduce, h.vl, 1);
  return NEXT;
}
INSN(vfirst_m, VecReduce) {
  vec::require_vec(h, i);
  require(h.vstart == 0, i);
  int64_t first = -1;
  each(h, i, [&](uint64_t k) {
    if (first < 0 && mbit(h, i.vs2(), k)) first = static_cast<int64_t>(k);
  });
  WRITE_RD(static_cast<uint64_t>(first));
  h.charge_vector(InsnClass::VecReduce, h.vl, 1);
  return NEXT;
}
INSN(vmsbf_m, VecAlu) { return vmsxf(h, i, pc, 0); }
INSN(vmsif_m, VecAlu) { return vmsxf(h, i, pc, 1); }
INSN(vmsof_m, VecAlu) { return vmsxf(h, i, pc, 2); }
INSN(viota_m, VecAlu) {
  vec::require_vec(h, i);
  require(h.vstart == 0, i);
  require_aligned(i, i.vd(), h.vlmul_log2);
  require_vd_not_v0(i);
  by_sew(h.vsew_bits, [&](auto t) {
    using U = decltype(t);
    uint64_t count = 0;
    each(h, i, [&](uint64_t k) {
      set<U>(h, i.vd(), k, static_cast<U>(count));
      count += mbit(h, i.vs2(), k);
    });
  });
  h.charge_vector(InsnClass::VecAlu, h.vl, h.vsew_bits);
  return NEXT;
}
INSN(vid_v, VecAlu) {
  vec::require_vec(h, i);
  require_aligned(i, i.vd(), h.vlmul_log2);
  require_vd_not_v0(i);
  by_sew(h.vsew_bits, [&](auto t) {
    using U = decltype(t);
    each(h, i, [&](uint64_t k) { set<U>(h, i.vd(), k, static_cast<U>(k)); });
  });
  h.charge_vector(InsnClass::VecAlu, h.vl, h.vsew_bits);
  return NEXT;
}

// Scalar moves (vstart >= vl leaves vd alone; vmv.x.s ignores vl).
INSN(vmv_x_s, VecAlu) {
  vec::require_vec(h, i);
  uint64_t v = 0;
  by_sew(h.vsew_bits, [&](auto t) { v = sext(get<decltype(t)>(h, i.vs2(), 0)); });
  WRITE_RD(v);
  return NEXT;
}
INSN(vmv_s_x, VecAlu) {
  vec::require_vec(h, i);
  if (h.vstart < h.vl)
    by_sew(h.vsew_bits,
           [&](auto t) { set<decltype(t)>(h, i.vd(), 0, static_cast<decltype(t)>(RS1)); });
  h.vstart = 0;
  return NEXT;
}
INSN(vfmv_f_s, VecAlu) {
  vec::require_vec(h, i);
  if (!(h.mstatus & csr::kMstatusFs)) illegal(i);
  if (h.vsew_bits == 16)  // Zvfh
    h.f[i.rd()] = 0xffffffffffff0000ull | get<uint16_t>(h, i.vs2(), 0);
  else if (h.vsew_bits == 32)
    h.f[i.rd()] = 0xffffffff00000000ull | get<uint32_t>(h, i.vs2(), 0);
  else if (h.vsew_bits == 64)
    h.f[i.rd()] = get<uint64_t>(h, i.vs2(), 0);
  else
    illegal(i);
  h.mstatus |= csr::kMstatusFs;
  return NEXT;
}
INSN(vfmv_s_f, VecAlu) {
  vec::require_vec(h, i);
  const uint64_t v = f_scalar(h, i);
  if (h.vstart < h.vl)
    by_sew(h.vsew_bits,
           [&](auto t) { set<decltype(t)>(h, i.vd(), 0, static_cast<decltype(t)>(v)); });
  h.vstart = 0;
  return NEXT;
}

INSN(vslideup_vx, VecPermute) { return vslide<true>(h, i, pc, SlideSrc::X); }
INSN(vslideup_vi, VecPermute) { return vslide<true>(h, i, pc, SlideSrc::U); }
INSN(vslidedown_vx, VecPermute) { return vslide<false>(h, i, pc, SlideSrc::X); }
INSN(vslidedown_vi, VecPermute) { return vslide<false>(h, i, pc, SlideSrc::U); }
INSN(vslide1up_vx, VecPermute) { return vslide1<true>(h, i, pc, RS1); }
INSN(vslide1down_vx, VecPermute) { return vslide1<false>(h, i, pc, RS1); }
INSN(vfslide1up_vf, VecPermute) {
  vec::require_vec(h, i);
  return vslide1<true>(h, i, pc, f_scalar(h, i));
}
INSN(vfslide1down_vf, VecPermute) {
  vec::require_vec(h, i);
  return vslide1<false>(h, i, pc, f_scalar(h, i));
}

INSN(vrgather_vv, VecPermute) { return vrgather(h, i, pc, GatherIdx::V); }
INSN(vrgatherei16_vv, VecPermute) { return vrgather(h, i, pc, GatherIdx::VEi16); }
INSN(vrgather_vx, VecPermute) { return vrgather(h, i, pc, GatherIdx::X); }
INSN(vrgather_vi, VecPermute) { return vrgather(h, i, pc, GatherIdx::U); }

INSN(vcompress_vm, VecPermute) {
  vec::require_vec(h, i);
  require(h.vstart == 0, i);
  require_aligned(i, i.vd(), h.vlmul_log2);
  require_aligned(i, i.vs2(), h.vlmul_log2);
  require(i.vd() != i.vs2() && i.vd() != i.vs1(), i);
  by_sew(h.vsew_bits, [&](auto t) {
    using U = decltype(t);
    uint64_t out = 0;
    for (uint64_t k = 0; k < h.vl; ++k)
      if (mbit(h, i.vs1(), k)) set<U>(h, i.vd(), out++, get<U>(h, i.vs2(), k));
  });
  h.charge_vector(InsnClass::VecPermute, h.vl, h.vsew_bits);
  return NEXT;
}

// Whole-register moves (independent of vtype).
namespace {
uint64_t vmvnr(Hart &h, Insn i, uint64_t pc, unsigned n) {
  if (!(h.mstatus & csr::kMstatusVs)) illegal(i);
  require((i.vd() & (n - 1)) == 0 && (i.vs2() & (n - 1)) == 0, i);
  std::memmove(vbase(h) + i.vd() * h.vlenb(), vbase(h) + i.vs2() * h.vlenb(),
               size_t(n) * h.vlenb());
  h.vstart = 0;
  h.charge_vector(InsnClass::VecPermute, n * h.vlenb(), 8);
  return pc + 4;
}
}  // namespace
INSN(vmv1r_v, VecPermute) { return vmvnr(h, i, pc, 1); }
INSN(vmv2r_v, VecPermute) { return vmvnr(h, i, pc, 2); }
INSN(vmv4r_v, VecPermute) { return vmvnr(h, i, pc, 4); }
INSN(vmv8r_v, VecPermute) { return vmvnr(h, i, pc, 8); }
