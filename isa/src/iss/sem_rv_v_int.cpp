//===- sem_rv_v_int.cpp - RVV integer arithmetic, compares and reductions --===//
#include <limits>

#include "vec_common.h"

using namespace opforge::isa;
using namespace opforge::isa::sem;
using namespace opforge::isa::vec;

OPF_SEM_UNIT(rv_v_int)

namespace {
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

inline void check_common(Hart &h, Insn i, bool vs1_is_vector) {
  require_vec(h, i);
  require_aligned(i, i.vs2(), h.vlmul_log2);
  if (vs1_is_vector) require_aligned(i, i.vs1(), h.vlmul_log2);
}

// vd[k] = op(vs2[k], b) over SEW.
template <Src src, class Op>
uint64_t vbin(Hart &h, Insn i, uint64_t pc, InsnClass cls, Op op) {
  check_common(h, i, src == Src::V);
  require_aligned(i, i.vd(), h.vlmul_log2);
  require_vd_not_v0(i);
  by_sew(h.vsew_bits, [&](auto t) {
    using U = decltype(t);
    each(h, i, [&](uint64_t k) {
      set<U>(h, i.vd(), k, static_cast<U>(op(get<U>(h, i.vs2(), k), operand<src, U>(h, i, k))));
    });
  });
  h.charge_vector(cls, h.vl, h.vsew_bits);
  return pc + 4;
}

// vd[k] = op(vd[k], vs2[k], b): multiply-add family.
template <Src src, class Op>
uint64_t vter(Hart &h, Insn i, uint64_t pc, Op op) {
  check_common(h, i, src == Src::V);
  require_aligned(i, i.vd(), h.vlmul_log2);
  require_vd_not_v0(i);
  by_sew(h.vsew_bits, [&](auto t) {
    using U = decltype(t);
    each(h, i, [&](uint64_t k) {
      set<U>(h, i.vd(), k,
             static_cast<U>(
                 op(get<U>(h, i.vd(), k), get<U>(h, i.vs2(), k), operand<src, U>(h, i, k))));
    });
  });
  h.charge_vector(InsnClass::VecMul, h.vl, h.vsew_bits);
  return pc + 4;
}

// Mask result: vd.mask[k] = pred(vs2[k], b).
template <Src src, class Pred>
uint64_t vcmp(Hart &h, Insn i, uint64_t pc, Pred pred) {
  check_common(h, i, src == Src::V);
  by_sew(h.vsew_bits, [&](auto t) {
    using U = decltype(t);
    each(h, i, [&](uint64_t k) {
      set_mbit(h, i.vd(), k, pred(get<U>(h, i.vs2(), k), operand<src, U>(h, i, k)));
    });
  });
  h.charge_vector(InsnClass::VecAlu, h.vl, h.vsew_bits);
  return pc + 4;
}

// fn(U{}, W{}, k) for every active element k, U the SEW type (8..32 bits)
// and W twice as wide (SEW = 64 has no wider type: nothing runs).
template <class Fn>
inline void each_wide(Hart &h, Insn i, Fn fn) {
  by_sew(h.vsew_bits, [&](auto t) {
    using U = decltype(t);
    if constexpr (sizeof(U) < 8) each(h, i, [&](uint64_t k) { fn(U{}, wide_t<U>{}, k); });
  });
}

// Widening: vd (2*SEW) = op(a, b) with a = vs2 (SEW, or 2*SEW when wide_a), b SEW.
template <Src src, bool wide_a, bool accumulate, class Op>
uint64_t vwide(Hart &h, Insn i, uint64_t pc, InsnClass cls, Op op) {
  require_vec(h, i);
  require(h.vsew_bits < 64 && h.vlmul_log2 < 3, i);
  require_aligned(i, i.vd(), h.vlmul_log2 + 1);
  require_aligned(i, i.vs2(), wide_a ? h.vlmul_log2 + 1 : h.vlmul_log2);
  if (src == Src::V) require_aligned(i, i.vs1(), h.vlmul_log2);
  require_vd_not_v0(i);
  each_wide(h, i, [&](auto u, auto w, uint64_t k) {
    using U = decltype(u);
    using W = decltype(w);
    U b = operand<src, U>(h, i, k);
    W r;
    if constexpr (accumulate)
      r = static_cast<W>(op(get<W>(h, i.vd(), k), get<U>(h, i.vs2(), k), b));
    else if constexpr (wide_a)
      r = static_cast<W>(op(get<W>(h, i.vs2(), k), b));
    else
      r = static_cast<W>(op(get<U>(h, i.vs2(), k), b));
    set<W>(h, i.vd(), k, r);
  });
  h.charge_vector(cls, h.vl, h.vsew_bits * 2);
  return pc + 4;
}

// Narrowing shift: vd (SEW) = vs2 (2*SEW) shifted by b.
template <Src src, bool arith>
uint64_t vnshift(Hart &h, Insn i, uint64_t pc) {
  require_vec(h, i);
  require(h.vsew_bits < 64 && h.vlmul_log2 < 3, i);
  require_aligned(i, i.vd(), h.vlmul_log2);
  require_aligned(i, i.vs2(), h.vlmul_log2 + 1);
  if (src == Src::V) require_aligned(i, i.vs1(), h.vlmul_log2);
  require_vd_not_v0(i);
  each_wide(h, i, [&](auto u, auto w, uint64_t k) {
    using U = decltype(u);
    using W = decltype(w);
    const unsigned sh = operand<src, U>(h, i, k) & (sizeof(W) * 8 - 1);
    W a = get<W>(h, i.vs2(), k);
    U r = arith ? static_cast<U>(static_cast<signed_t<W>>(a) >> sh) : static_cast<U>(a >> sh);
    set<U>(h, i.vd(), k, r);
  });
  h.charge_vector(InsnClass::VecAlu, h.vl, h.vsew_bits);
  return pc + 4;
}

// Integer extension: vd (SEW) = extend(vs2 (SEW/factor)).
template <unsigned factor, bool sign>
uint64_t vext(Hart &h, Insn i, uint64_t pc) {
  require_vec(h, i);
  require(h.vsew_bits / factor >= 8, i);
  int emul = h.vlmul_log2 - (factor == 2 ? 1 : factor == 4 ? 2 : 3);
  require(emul >= -3, i);
  require_aligned(i, i.vd(), h.vlmul_log2);
  require_aligned(i, i.vs2(), emul);
  require_vd_not_v0(i);
  const unsigned src_bits = h.vsew_bits / factor;
  by_sew(h.vsew_bits, [&](auto t) {
    using U = decltype(t);
    each(h, i, [&](uint64_t k) {
      uint64_t v = 0;
      std::memcpy(&v, vbase(h) + i.vs2() * h.vlenb() + k * (src_bits / 8), src_bits / 8);
      if (sign && src_bits < 64) v = uint64_t(int64_t(v << (64 - src_bits)) >> (64 - src_bits));
      set<U>(h, i.vd(), k, static_cast<U>(v));
    });
  });
  h.charge_vector(InsnClass::VecAlu, h.vl, h.vsew_bits);
  return pc + 4;
}

// Reduction: vd[0] = fold(vs1[0], active vs2[k]); widening folds into 2*SEW.
template <bool widen, class Op>
uint64_t vred(Hart &h, Insn i, uint64_t pc, Op op) {
  require_vec(h, i);
  require(h.vstart == 0, i);
  if (widen) require(h.vsew_bits < 64, i);
  require_aligned(i, i.vs2(), h.vlmul_log2);
  by_sew(h.vsew_bits, [&](auto t) {
    using U = decltype(t);
    if constexpr (!widen || sizeof(U) < 8) {
      using A = std::conditional_t<widen, std::conditional_t<sizeof(U) < 8, wide_t<U>, U>, U>;
      A acc = get<A>(h, i.vs1(), 0);
      each(h, i, [&](uint64_t k) { acc = static_cast<A>(op(acc, get<U>(h, i.vs2(), k))); });
      if (h.vl > 0) set<A>(h, i.vd(), 0, acc);
    }
  });
  h.charge_vector(InsnClass::VecReduce, h.vl, h.vsew_bits);
  return pc + 4;
}

template <class U>
U mulh_ss(U a, U b) {
  using S = signed_t<U>;
  if constexpr (sizeof(U) < 8)
    return static_cast<U>((int64_t(S(a)) * int64_t(S(b))) >> (8 * sizeof(U)));
  else
    return static_cast<U>((__int128(S(a)) * __int128(S(b))) >> 64);
}
template <class U>
U mulh_uu(U a, U b) {
  if constexpr (sizeof(U) < 8)
    return static_cast<U>((uint64_t(a) * uint64_t(b)) >> (8 * sizeof(U)));
  else
    return static_cast<U>(((unsigned __int128)a * b) >> 64);
}
template <class U>
U mulh_su(U a, U b) {  // a signed, b unsigned
  using S = signed_t<U>;
  if constexpr (sizeof(U) < 8)
    return static_cast<U>((int64_t(S(a)) * int64_t(uint64_t(b))) >> (8 * sizeof(U)));
  else
    return static_cast<U>((__int128(S(a)) * __int128((unsigned __int128)b)) >> 64);
}
template <class U>
U div_s(U a, U b) {
  using S = signed_t<U>;
  if (b == 0) return U(~U(0));
  if (S(b) == -1 && S(a) == std::numeric_limits<S>::min()) return a;
  return U(S(a) / S(b));
}
template <class U>
U rem_s(U a, U b) {
  using S = signed_t<U>;
  if (b == 0) return a;
  if (S(b) == -1 && S(a) == std::numeric_limits<S>::min()) return 0;
  return U(S(a) % S(b));
}
template <class U>
U div_u(U a, U b) {
  return b == 0 ? U(~U(0)) : U(a / b);
}
template <class U>
U rem_u(U a, U b) {
  return b == 0 ? a : U(a % b);
}
// Wrapping multiply without int promotion overflow for narrow types.
template <class U>
U mulw(U a, U b) {
  if constexpr (sizeof(U) < 4)
    return static_cast<U>(uint32_t(a) * uint32_t(b));
  else
    return static_cast<U>(a * b);
}
template <class U>
constexpr unsigned shmask() {
  return sizeof(U) * 8 - 1;
}
}  // namespace

// Two-operand ops: `a` is vs2[k], `b` the second operand; U unsigned SEW, S signed.
#define OP2(expr)                \
  [](auto a, auto b) {           \
    using U = decltype(a);       \
    using S = signed_t<U>;       \
    (void)sizeof(S);             \
    return static_cast<U>(expr); \
  }
#define VBIN(name, form, cls, expr) \
  INSN(name, cls) { return vbin<Src::form>(h, i, pc, InsnClass::cls, OP2(expr)); }
#define VCMP(name, form, expr)                            \
  INSN(name, VecAlu) {                                    \
    return vcmp<Src::form>(h, i, pc, [](auto a, auto b) { \
      using U = decltype(a);                              \
      using S = signed_t<U>;                              \
      (void)sizeof(S);                                    \
      return bool(expr);                                  \
    });                                                   \
  }

VBIN(vadd_vv, V, VecAlu, a + b)
VBIN(vadd_vx, X, VecAlu, a + b)
VBIN(vadd_vi, I, VecAlu, a + b)
VBIN(vsub_vv, V, VecAlu, a - b)
VBIN(vsub_vx, X, VecAlu, a - b)
VBIN(vrsub_vx, X, VecAlu, b - a)
VBIN(vrsub_vi, I, VecAlu, b - a)
VBIN(vminu_vv, V, VecAlu, a < b ? a : b)
VBIN(vminu_vx, X, VecAlu, a < b ? a : b)
VBIN(vmin_vv, V, VecAlu, S(a) < S(b) ? a : b)
VBIN(vmin_vx, X, VecAlu, S(a) < S(b) ? a : b)
VBIN(vmaxu_vv, V, VecAlu, a > b ? a : b)
VBIN(vmaxu_vx, X, VecAlu, a > b ? a : b)
VBIN(vmax_vv, V, VecAlu, S(a) > S(b) ? a : b)
VBIN(vmax_vx, X, VecAlu, S(a) > S(b) ? a : b)
VBIN(vand_vv, V, VecAlu, a &b)
VBIN(vand_vx, X, VecAlu, a &b)
VBIN(vand_vi, I, VecAlu, a &b)
VBIN(vor_vv, V, VecAlu, a | b)
VBIN(vor_vx, X, VecAlu, a | b)
VBIN(vor_vi, I, VecAlu, a | b)
VBIN(vxor_vv, V, VecAlu, a ^ b)
VBIN(vxor_vx, X, VecAlu, a ^ b)
VBIN(vxor_vi, I, VecAlu, a ^ b)
VBIN(vsll_vv, V, VecAlu, a << (b & shmask<U>()))
VBIN(vsll_vx, X, VecAlu, a << (b & shmask<U>()))
VBIN(vsll_vi, U, VecAlu, a << (b & shmask<U>()))
VBIN(vsrl_vv, V, VecAlu, a >> (b & shmask<U>()))
VBIN(vsrl_vx, X, VecAlu, a >> (b & shmask<U>()))
VBIN(vsrl_vi, U, VecAlu, a >> (b & shmask<U>()))
VBIN(vsra_vv, V, VecAlu, S(a) >> (b & shmask<U>()))
VBIN(vsra_vx, X, VecAlu, S(a) >> (b & shmask<U>()))
VBIN(vsra_vi, U, VecAlu, S(a) >> (b & shmask<U>()))
VBIN(vmul_vv, V, VecMul, mulw<U>(a, b))
VBIN(vmul_vx, X, VecMul, mulw<U>(a, b))
VBIN(vmulh_vv, V, VecMul, mulh_ss<U>(a, b))
VBIN(vmulh_vx, X, VecMul, mulh_ss<U>(a, b))
VBIN(vmulhu_vv, V, VecMul, mulh_uu<U>(a, b))
VBIN(vmulhu_vx, X, VecMul, mulh_uu<U>(a, b))
VBIN(vmulhsu_vv, V, VecMul, mulh_su<U>(a, b))
VBIN(vmulhsu_vx, X, VecMul, mulh_su<U>(a, b))
VBIN(vdivu_vv, V, VecDiv, div_u<U>(a, b))
VBIN(vdivu_vx, X, VecDiv, div_u<U>(a, b))
VBIN(vdiv_vv, V, VecDiv, div_s<U>(a, b))
VBIN(vdiv_vx, X, VecDiv, div_s<U>(a, b))
VBIN(vremu_vv, V, VecDiv, rem_u<U>(a, b))
VBIN(vremu_vx, X, VecDiv, rem_u<U>(a, b))
VBIN(vrem_vv, V, VecDiv, rem_s<U>(a, b))
VBIN(vrem_vx, X, VecDiv, rem_s<U>(a, b))

VCMP(vmseq_vv, V, a == b)
VCMP(vmseq_vx, X, a == b)
VCMP(vmseq_vi, I, a == b)
VCMP(vmsne_vv, V, a != b)
VCMP(vmsne_vx, X, a != b)
VCMP(vmsne_vi, I, a != b)
VCMP(vmsltu_vv, V, a < b)
VCMP(vmsltu_vx, X, a < b)
VCMP(vmslt_vv, V, S(a) < S(b))
VCMP(vmslt_vx, X, S(a) < S(b))
VCMP(vmsleu_vv, V, a <= b)
VCMP(vmsleu_vx, X, a <= b)
VCMP(vmsleu_vi, I, a <= b)
VCMP(vmsle_vv, V, S(a) <= S(b))
VCMP(vmsle_vx, X, S(a) <= S(b))
VCMP(vmsle_vi, I, S(a) <= S(b))
VCMP(vmsgtu_vx, X, a > b)
VCMP(vmsgtu_vi, I, a > b)
VCMP(vmsgt_vx, X, S(a) > S(b))
VCMP(vmsgt_vi, I, S(a) > S(b))

// Multiply-add: d = vd[k], a = vs2[k], b = vs1[k] or x[rs1].
#define VTER(name, form, expr)                                    \
  INSN(name, VecMul) {                                            \
    return vter<Src::form>(h, i, pc, [](auto d, auto a, auto b) { \
      using U = decltype(a);                                      \
      return static_cast<U>(expr);                                \
    });                                                           \
  }
VTER(vmacc_vv, V, mulw<U>(b, a) + d)
VTER(vmacc_vx, X, mulw<U>(b, a) + d)
VTER(vnmsac_vv, V, d - mulw<U>(b, a))
VTER(vnmsac_vx, X, d - mulw<U>(b, a))
VTER(vmadd_vv, V, mulw<U>(b, d) + a)
VTER(vmadd_vx, X, mulw<U>(b, d) + a)
VTER(vnmsub_vv, V, a - mulw<U>(b, d))
VTER(vnmsub_vx, X, a - mulw<U>(b, d))

// Widening: W is the 2*SEW unsigned type, SW signed; a narrow (or wide for .w forms), b narrow.
#define WOP(expr)                \
  [](auto a, auto b) {           \
    using U = decltype(b);       \
    using S = signed_t<U>;       \
    using W = wide_t<U>;         \
    using SW = signed_t<W>;      \
    (void)sizeof(S);             \
    (void)sizeof(SW);            \
    return static_cast<W>(expr); \
  }
#define VWIDE(name, form, wide_a, cls, expr) \
  INSN(name, cls) { return vwide<Src::form, wide_a, false>(h, i, pc, InsnClass::cls, WOP(expr)); }
VWIDE(vwaddu_vv, V, false, VecAlu, W(a) + W(b))
VWIDE(vwaddu_vx, X, false, VecAlu, W(a) + W(b))
VWIDE(vwadd_vv, V, false, VecAlu, SW(S(a)) + SW(S(b)))
VWIDE(vwadd_vx, X, false, VecAlu, SW(S(a)) + SW(S(b)))
VWIDE(vwsubu_vv, V, false, VecAlu, W(a) - W(b))
VWIDE(vwsubu_vx, X, false, VecAlu, W(a) - W(b))
VWIDE(vwsub_vv, V, false, VecAlu, SW(S(a)) - SW(S(b)))
VWIDE(vwsub_vx, X, false, VecAlu, SW(S(a)) - SW(S(b)))
VWIDE(vwaddu_wv, V, true, VecAlu, a + W(b))
VWIDE(vwaddu_wx, X, true, VecAlu, a + W(b))
VWIDE(vwadd_wv, V, true, VecAlu, a + W(SW(S(b))))
VWIDE(vwadd_wx, X, true, VecAlu, a + W(SW(S(b))))
VWIDE(vwsubu_wv, V, true, VecAlu, a - W(b))
VWIDE(vwsubu_wx, X, true, VecAlu, a - W(b))
VWIDE(vwsub_wv, V, true, VecAlu, a - W(SW(S(b))))
VWIDE(vwsub_wx, X, true, VecAlu, a - W(SW(S(b))))
VWIDE(vwmulu_vv, V, false, VecMul, W(a) * W(b))
VWIDE(vwmulu_vx, X, false, VecMul, W(a) * W(b))
VWIDE(vwmul_vv, V, false, VecMul, W(SW(S(a)) * SW(S(b))))
VWIDE(vwmul_vx, X, false, VecMul, W(SW(S(a)) * SW(S(b))))
VWIDE(vwmulsu_vv, V, false, VecMul, W(SW(S(a)) * SW(W(b))))
VWIDE(vwmulsu_vx, X, false, VecMul, W(SW(S(a)) * SW(W(b))))

// Widening multiply-add: d = vd[k] (2*SEW), a = vs2[k], b = vs1[k] or x[rs1].
#define WTER(expr)               \
  [](auto d, auto a, auto b) {   \
    using U = decltype(b);       \
    using S = signed_t<U>;       \
    using W = wide_t<U>;         \
    using SW = signed_t<W>;      \
    (void)sizeof(S);             \
    (void)sizeof(SW);            \
    return static_cast<W>(expr); \
  }
#define VWTER(name, form, expr)                                                    \
  INSN(name, VecMul) {                                                             \
    return vwide<Src::form, false, true>(h, i, pc, InsnClass::VecMul, WTER(expr)); \
  }
VWTER(vwmaccu_vv, V, d + W(a) * W(b))
VWTER(vwmaccu_vx, X, d + W(a) * W(b))
VWTER(vwmacc_vv, V, d + W(SW(S(a)) * SW(S(b))))
VWTER(vwmacc_vx, X, d + W(SW(S(a)) * SW(S(b))))
VWTER(vwmaccsu_vv, V, d + W(SW(S(b)) * SW(W(a))))
VWTER(vwmaccsu_vx, X, d + W(SW(S(b)) * SW(W(a))))
VWTER(vwmaccus_vx, X, d + W(SW(W(b)) * SW(S(a))))

INSN(vnsrl_wv, VecAlu) { return vnshift<Src::V, false>(h, i, pc); }
INSN(vnsrl_wx, VecAlu) { return vnshift<Src::X, false>(h, i, pc); }
INSN(vnsrl_wi, VecAlu) { return vnshift<Src::U, false>(h, i, pc); }
INSN(vnsra_wv, VecAlu) { return vnshift<Src::V, true>(h, i, pc); }
INSN(vnsra_wx, VecAlu) { return vnshift<Src::X, true>(h, i, pc); }
INSN(vnsra_wi, VecAlu) { return vnshift<Src::U, true>(h, i, pc); }

INSN(vzext_vf2, VecAlu) { return vext<2, false>(h, i, pc); }
INSN(vsext_vf2, VecAlu) { return vext<2, true>(h, i, pc); }
INSN(vzext_vf4, VecAlu) { return vext<4, false>(h, i, pc); }
INSN(vsext_vf4, VecAlu) { return vext<4, true>(h, i, pc); }
INSN(vzext_vf8, VecAlu) { return vext<8, false>(h, i, pc); }
INSN(vsext_vf8, VecAlu) { return vext<8, true>(h, i, pc); }

// Merge and move: not masked operations (vm=0 selects by v0, vm=1 moves).
namespace {
template <Src src>
uint64_t vmerge(Hart &h, Insn i, uint64_t pc) {
  require_vec(h, i);
  require_aligned(i, i.vd(), h.vlmul_log2);
  if (!i.vm()) {
    require_aligned(i, i.vs2(), h.vlmul_log2);
    require(i.vd() != 0, i);
  }
  if (src == Src::V) require_aligned(i, i.vs1(), h.vlmul_log2);
  by_sew(h.vsew_bits, [&](auto t) {
    using U = decltype(t);
    for (uint64_t k = h.vstart; k < h.vl; ++k) {
      bool take_b = i.vm() || mbit(h, 0, k);
      set<U>(h, i.vd(), k, take_b ? operand<src, U>(h, i, k) : get<U>(h, i.vs2(), k));
    }
  });
  h.vstart = 0;
  h.charge_vector(InsnClass::VecAlu, h.vl, h.vsew_bits);
  return pc + 4;
}
}  // namespace
INSN(vmerge_vvm, VecAlu) { return vmerge<Src::V>(h, i, pc); }
INSN(vmerge_vxm, VecAlu) { return vmerge<Src::X>(h, i, pc); }
INSN(vmerge_vim, VecAlu) { return vmerge<Src::I>(h, i, pc); }
INSN(vmv_v_v, VecAlu) { return vmerge<Src::V>(h, i, pc); }
INSN(vmv_v_x, VecAlu) { return vmerge<Src::X>(h, i, pc); }
INSN(vmv_v_i, VecAlu) { return vmerge<Src::I>(h, i, pc); }

// Reductions.
#define VRED(name, widen, expr)                         \
  INSN(name, VecReduce) {                               \
    return vred<widen>(h, i, pc, [](auto acc, auto v) { \
      using A = decltype(acc);                          \
      using U = decltype(v);                            \
      using S = signed_t<U>;                            \
      (void)sizeof(S);                                  \
      return static_cast<A>(expr);                      \
    });                                                 \
  }
VRED(vredsum_vs, false, acc + v)
VRED(vredand_vs, false, acc &v)
VRED(vredor_vs, false, acc | v)
VRED(vredxor_vs, false, acc ^ v)
VRED(vredminu_vs, false, acc < v ? acc : v)
VRED(vredmin_vs, false, S(acc) < S(v) ? acc : v)
VRED(vredmaxu_vs, false, acc > v ? acc : v)
VRED(vredmax_vs, false, S(acc) > S(v) ? acc : v)
VRED(vwredsumu_vs, true, acc + A(v))
VRED(vwredsum_vs, true, acc + A(signed_t<A>(S(v))))
