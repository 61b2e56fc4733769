//===- sem_rv_v_fixpt.cpp - RVV fixed-point arithmetic (saturating, averaging, clips) ===//
//
// RVV 1.0 "Vector Fixed-Point Arithmetic Instructions": saturating add/sub,
// averaging add/sub, fractional multiply, scaling shifts and narrowing clips.
// Rounding follows vxrm (0 rnu, 1 rne, 2 rdn, 3 rod); any saturated active
// element sets vxsat. Intermediates are computed exactly in 128 bits.
//
//===----------------------------------------------------------------------===//
#include <limits>

#include "vec_common.h"

using namespace opforge::isa;
using namespace opforge::isa::sem;
using namespace opforge::isa::vec;

OPF_SEM_UNIT(rv_v_fixpt)

namespace {
using i128 = __int128;
using u128 = unsigned __int128;

enum class Src { V, X, I, U };  // second operand: vs1, x[rs1], simm5, uimm5

template <Src src, class U>
inline U operand(Hart &h, Insn i, uint64_t k) {
  if constexpr (src == Src::V)
    return get<U>(h, i.vs1(), k);
  else if constexpr (src == Src::X)
    return static_cast<U>(h.x[i.rs1()]);
  else if constexpr (src == Src::I)
    return static_cast<U>(i.simm5());
  else
    return static_cast<U>(i.uimm5());
}

// (v >> d) plus the rounding increment the spec defines for mode vxrm.
inline i128 roundoff(i128 v, unsigned d, unsigned vxrm) {
  if (d == 0) return v;
  const u128 u = static_cast<u128>(v);
  const bool bit_d1 = (u >> (d - 1)) & 1;
  const bool below = d >= 2 && (u & ((u128(1) << (d - 1)) - 1)) != 0;
  const bool bit_d = (u >> d) & 1;
  bool r = false;
  switch (vxrm & 3) {
    case 0: r = bit_d1; break;                       // rnu
    case 1: r = bit_d1 && (below || bit_d); break;   // rne
    case 2: r = false; break;                        // rdn
    default: r = !bit_d && (bit_d1 || below); break;  // rod
  }
  return (v >> d) + (r ? 1 : 0);
}

// Clamps the exact value v into U (unsigned) or signed_t<U>; sets *sat when it had to.
template <class U, bool is_signed>
inline U clamp(i128 v, bool *sat) {
  using S = signed_t<U>;
  const i128 lo = is_signed ? i128(std::numeric_limits<S>::min()) : i128(0);
  const i128 hi = is_signed ? i128(std::numeric_limits<S>::max())
                            : i128(std::numeric_limits<U>::max());
  if (v < lo) {
    *sat = true;
    return static_cast<U>(lo);
  }
  if (v > hi) {
    *sat = true;
    return static_cast<U>(hi);
  }
  return static_cast<U>(v);
}

// vd[k] = op(vs2[k], b, vxrm, &sat) over SEW; sat from any active element sets vxsat.
template <Src src, class Op>
uint64_t vfix(Hart &h, Insn i, uint64_t pc, InsnClass cls, Op op) {
  require_vec(h, i);
  require_aligned(i, i.vs2(), h.vlmul_log2);
  if (src == Src::V) require_aligned(i, i.vs1(), h.vlmul_log2);
  require_aligned(i, i.vd(), h.vlmul_log2);
  require_vd_not_v0(i);
  bool sat = false;
  const unsigned rm = h.vxrm;
  by_sew(h.vsew_bits, [&](auto t) {
    using U = decltype(t);
    each(h, i, [&](uint64_t k) {
      set<U>(h, i.vd(), k, op(get<U>(h, i.vs2(), k), operand<src, U>(h, i, k), rm, &sat));
    });
  });
  if (sat) h.vxsat = 1;
  h.charge_vector(cls, h.vl, h.vsew_bits);
  return pc + 4;
}

// Narrowing clip: vd (SEW) = clamp(roundoff(vs2 (2*SEW), b & (2*SEW-1))).
template <Src src, bool is_signed>
uint64_t vnclip(Hart &h, Insn i, uint64_t pc) {
  require_vec(h, i);
  require(h.vsew_bits < 64 && h.vlmul_log2 < 3, i);
  require_aligned(i, i.vd(), h.vlmul_log2);
  require_aligned(i, i.vs2(), h.vlmul_log2 + 1);
  if (src == Src::V) require_aligned(i, i.vs1(), h.vlmul_log2);
  require_vd_not_v0(i);
  bool sat = false;
  const unsigned rm = h.vxrm;
  by_sew(h.vsew_bits, [&](auto t) {
    using U = decltype(t);
    if constexpr (sizeof(U) < 8) {
      using W = wide_t<U>;
      each(h, i, [&](uint64_t k) {
        const unsigned sh = operand<src, U>(h, i, k) & (sizeof(W) * 8 - 1);
        const W a = get<W>(h, i.vs2(), k);
        const i128 v = is_signed ? i128(static_cast<signed_t<W>>(a)) : i128(a);
        set<U>(h, i.vd(), k, clamp<U, is_signed>(roundoff(v, sh, rm), &sat));
      });
    }
  });
  if (sat) h.vxsat = 1;
  h.charge_vector(InsnClass::VecAlu, h.vl, h.vsew_bits);
  return pc + 4;
}

template <class U>
inline i128 as_s(U v) {
  return i128(static_cast<signed_t<U>>(v));
}
template <class U>
inline i128 as_u(U v) {
  return i128(v);
}
template <class U>
constexpr unsigned bits() {
  return sizeof(U) * 8;
}
}  // namespace

// Operand bodies: a = vs2[k], b = vs1[k] / x[rs1] / imm (already truncated to SEW),
// rm = vxrm, sat = saturation flag.
#define FIX(expr)                                                  \
  [](auto a, auto b, [[maybe_unused]] unsigned rm, bool *sat) {    \
    using U = decltype(a);                                         \
    (void)sat;                                                     \
    return static_cast<U>(expr);                                   \
  }
#define VFIX(name, form, cls, expr) \
  INSN(name, cls) { return vfix<Src::form>(h, i, pc, InsnClass::cls, FIX(expr)); }

VFIX(vsaddu_vv, V, VecAlu, (clamp<U, false>(as_u(a) + as_u(b), sat)))
VFIX(vsaddu_vx, X, VecAlu, (clamp<U, false>(as_u(a) + as_u(b), sat)))
VFIX(vsaddu_vi, I, VecAlu, (clamp<U, false>(as_u(a) + as_u(b), sat)))
VFIX(vsadd_vv, V, VecAlu, (clamp<U, true>(as_s(a) + as_s(b), sat)))
VFIX(vsadd_vx, X, VecAlu, (clamp<U, true>(as_s(a) + as_s(b), sat)))
VFIX(vsadd_vi, I, VecAlu, (clamp<U, true>(as_s(a) + as_s(b), sat)))
VFIX(vssubu_vv, V, VecAlu, (clamp<U, false>(as_u(a) - as_u(b), sat)))
VFIX(vssubu_vx, X, VecAlu, (clamp<U, false>(as_u(a) - as_u(b), sat)))
VFIX(vssub_vv, V, VecAlu, (clamp<U, true>(as_s(a) - as_s(b), sat)))
VFIX(vssub_vx, X, VecAlu, (clamp<U, true>(as_s(a) - as_s(b), sat)))

VFIX(vaaddu_vv, V, VecAlu, roundoff(as_u(a) + as_u(b), 1, rm))
VFIX(vaaddu_vx, X, VecAlu, roundoff(as_u(a) + as_u(b), 1, rm))
VFIX(vaadd_vv, V, VecAlu, roundoff(as_s(a) + as_s(b), 1, rm))
VFIX(vaadd_vx, X, VecAlu, roundoff(as_s(a) + as_s(b), 1, rm))
VFIX(vasubu_vv, V, VecAlu, roundoff(as_u(a) - as_u(b), 1, rm))
VFIX(vasubu_vx, X, VecAlu, roundoff(as_u(a) - as_u(b), 1, rm))
VFIX(vasub_vv, V, VecAlu, roundoff(as_s(a) - as_s(b), 1, rm))
VFIX(vasub_vx, X, VecAlu, roundoff(as_s(a) - as_s(b), 1, rm))

VFIX(vsmul_vv, V, VecMul, (clamp<U, true>(roundoff(as_s(a) * as_s(b), bits<U>() - 1, rm), sat)))
VFIX(vsmul_vx, X, VecMul, (clamp<U, true>(roundoff(as_s(a) * as_s(b), bits<U>() - 1, rm), sat)))

VFIX(vssrl_vv, V, VecAlu, roundoff(as_u(a), b & (bits<U>() - 1), rm))
VFIX(vssrl_vx, X, VecAlu, roundoff(as_u(a), b & (bits<U>() - 1), rm))
VFIX(vssrl_vi, U, VecAlu, roundoff(as_u(a), b & (bits<U>() - 1), rm))
VFIX(vssra_vv, V, VecAlu, roundoff(as_s(a), b & (bits<U>() - 1), rm))
VFIX(vssra_vx, X, VecAlu, roundoff(as_s(a), b & (bits<U>() - 1), rm))
VFIX(vssra_vi, U, VecAlu, roundoff(as_s(a), b & (bits<U>() - 1), rm))

INSN(vnclipu_wv, VecAlu) { return vnclip<Src::V, false>(h, i, pc); }
INSN(vnclipu_wx, VecAlu) { return vnclip<Src::X, false>(h, i, pc); }
INSN(vnclipu_wi, VecAlu) { return vnclip<Src::U, false>(h, i, pc); }
INSN(vnclip_wv, VecAlu) { return vnclip<Src::V, true>(h, i, pc); }
INSN(vnclip_wx, VecAlu) { return vnclip<Src::X, true>(h, i, pc); }
INSN(vnclip_wi, VecAlu) { return vnclip<Src::U, true>(h, i, pc); }
