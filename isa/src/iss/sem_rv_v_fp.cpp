//===- sem_rv_v_fp.cpp - RVV floating point (and Zvfbfmin conversions) -----===//
//
// SEW=16 (Zvfh: fp::Half, fp_half.h), SEW=32 (float) and SEW=64 (double)
// arithmetic, one template body per operation over the element type; the
// bf16 pair of Zvfbfmin. Rounding uses frm; flags accrue into fflags; NaN
// results are canonical. vfrec7/vfrsqrt7 are in sem_rv_v_fp_est.cpp.
//
//===----------------------------------------------------------------------===//
#include "fp_half.h"
#include "opforge/support/dtype.h"
#include "vec_common.h"

using namespace opforge::isa;
using namespace opforge::isa::sem;
using namespace opforge::isa::vec;

OPF_SEM_UNIT(rv_v_fp)

namespace {
inline void require_fpu(Hart &h, Insn i) {
  require_vec(h, i);
  if (!(h.mstatus & csr::kMstatusFs)) illegal(i);
}
inline unsigned vrm(Hart &h, Insn i) {
  if (h.frm > 4) illegal(i);
  return h.frm;
}
template <class F>
inline F fget(Hart &h, unsigned reg, uint64_t k) {
  return std::bit_cast<F>(get<fp::Bits<F>>(h, reg, k));
}
template <class F>
inline void fset(Hart &h, unsigned reg, uint64_t k, F v) {
  set<fp::Bits<F>>(h, reg, k, std::bit_cast<fp::Bits<F>>(v));
}
// f[rs1] at the element width (single values must be NaN-boxed).
template <class F>
inline F fscalar(Hart &h, Insn i) {
  const uint64_t v = h.f[i.rs1()];
  if constexpr (sizeof(F) == 2)
    return fp::Half{(v >> 16) == 0xffffffffffffull ? uint16_t(v) : fp::kCanonNan16};
  else if constexpr (sizeof(F) == 4)
    return std::bit_cast<float>((v >> 32) == 0xffffffffu ? uint32_t(v) : fp::kCanonNan32);
  else
    return std::bit_cast<double>(v);
}
// Calls f(fp::Half{}), f(float{}) or f(double{}) for SEW 16/32/64; SEW=8 is illegal.
template <class Fn>
inline void by_fsew(Hart &h, Insn i, Fn &&f) {
  if (h.vsew_bits == 16)
    f(fp::Half{});
  else if (h.vsew_bits == 32)
    f(float{});
  else if (h.vsew_bits == 64)
    f(double{});
  else
    illegal(i);
}

enum class Src { V, F };
template <Src src, class F>
inline F operand(Hart &h, Insn i, uint64_t k) {
  if constexpr (src == Src::V)
    return fget<F>(h, i.vs1(), k);
  else
    return fscalar<F>(h, i);
}

// The checks of a same-width operation vd = op(vs2, vs1 | f[rs1]): FP on,
// register groups aligned to LMUL, a masked vd not v0.
template <Src src>
inline void require_same_width(Hart &h, Insn i) {
  require_fpu(h, i);
  require_aligned(i, i.vd(), h.vlmul_log2);
  require_aligned(i, i.vs2(), h.vlmul_log2);
  if (src == Src::V) require_aligned(i, i.vs1(), h.vlmul_log2);
  require_vd_not_v0(i);
}

// vd[k] = op(h, rm, vs2[k], b). `host` (optional) is the operation as one
// host instruction, host(a, b): for float and double, unmasked, outside RMM,
// the loop sets the host rounding mode once and reads the host flags once for
// the whole instruction instead of once an element. The flags are sticky, so
// the one read is the OR the per-element reads accrue; results, NaN
// canonicalisation and fflags are those of fp::add/sub/mul/div.
template <Src src, class Op, class Host = std::nullptr_t>
uint64_t vfbin(Hart &h, Insn i, uint64_t pc, InsnClass cls, Op op, Host host = nullptr) {
  require_same_width<src>(h, i);
  const unsigned rm = vrm(h, i);
  by_fsew(h, i, [&](auto t) {
    using F = decltype(t);
    if constexpr (!std::is_same_v<Host, std::nullptr_t> && !std::is_same_v<F, fp::Half>) {
      if (rm != fp::kRmm && i.vm() && h.vl > h.vstart) {
        fp::host_begin(rm);
        for (uint64_t k = h.vstart; k < h.vl; ++k) {
          F a = fget<F>(h, i.vs2(), k), b = operand<src, F>(h, i, k);
          fp::opaque(a);
          fp::opaque(b);
          F r = host(a, b);
          fp::opaque(r);
          fset<F>(h, i.vd(), k, fp::canon(r));
        }
        h.vstart = 0;
        fp::accrue(h, fp::host_flags());
        return;
      }
    }
    each(h, i, [&](uint64_t k) {
      fset<F>(h, i.vd(), k, op(h, rm, fget<F>(h, i.vs2(), k), operand<src, F>(h, i, k)));
    });
  });
  h.charge_vector(cls, h.vl, h.vsew_bits);
  return pc + 4;
}

// vd[k] = op(h, rm, vd[k], vs2[k], b): fused multiply-add family.
template <Src src, class Op>
uint64_t vfter(Hart &h, Insn i, uint64_t pc, Op op) {
  require_same_width<src>(h, i);
  const unsigned rm = vrm(h, i);
  by_fsew(h, i, [&](auto t) {
    using F = decltype(t);
    each(h, i, [&](uint64_t k) {
      fset<F>(h, i.vd(), k,
              op(h, rm, fget<F>(h, i.vd(), k), fget<F>(h, i.vs2(), k), operand<src, F>(h, i, k)));
    });
  });
  h.charge_vector(InsnClass::VecFp, h.vl, h.vsew_bits);
  return pc + 4;
}

template <Src src, class Pred>
uint64_t vfcmp(Hart &h, Insn i, uint64_t pc, Pred pred) {
  require_fpu(h, i);
  require_aligned(i, i.vs2(), h.vlmul_log2);
  if (src == Src::V) require_aligned(i, i.vs1(), h.vlmul_log2);
  by_fsew(h, i, [&](auto t) {
    using F = decltype(t);
    each(h, i, [&](uint64_t k) {
      set_mbit(h, i.vd(), k, pred(h, fget<F>(h, i.vs2(), k), operand<src, F>(h, i, k)));
    });
  });
  h.charge_vector(InsnClass::VecFp, h.vl, h.vsew_bits);
  return pc + 4;
}

// The exact widening of an element: half -> float, float -> double.
inline float widen_elem(Hart &h, fp::Half v) { return fp::widen_half<float>(h, v); }
inline double widen_elem(Hart &h, float v) { return fp::widen(h, v); }
// Calls f(N{}) with N the narrow element type of a widening FP operation:
// fp::Half at SEW=16, float at SEW=32; other SEW are illegal.
template <class Fn>
inline void by_narrow_fsew(Hart &h, Insn i, Fn &&f) {
  if (h.vsew_bits == 16)
    f(fp::Half{});
  else if (h.vsew_bits == 32)
    f(float{});
  else
    illegal(i);
}

// Widening arithmetic at SEW=16/32: vd (2*SEW) = op(h, rm, a, b) with a = vs2
// (SEW, or 2*SEW when wide_a) and b = vs1/f[rs1] (SEW), both widened exactly.
template <Src src, bool wide_a, bool accumulate, class Op>
uint64_t vfwide(Hart &h, Insn i, uint64_t pc, Op op) {
  require_fpu(h, i);
  require(h.vlmul_log2 < 3, i);
  require_aligned(i, i.vd(), h.vlmul_log2 + 1);
  require_aligned(i, i.vs2(), wide_a ? h.vlmul_log2 + 1 : h.vlmul_log2);
  if (src == Src::V) require_aligned(i, i.vs1(), h.vlmul_log2);
  require_vd_not_v0(i);
  const unsigned rm = vrm(h, i);
  const unsigned wide_bits = 2 * h.vsew_bits;
  by_narrow_fsew(h, i, [&](auto t) {
    using N = decltype(t);
    using W = decltype(widen_elem(h, N{}));
    each(h, i, [&](uint64_t k) {
      const W b = widen_elem(h, operand<src, N>(h, i, k));
      const W a = wide_a ? fget<W>(h, i.vs2(), k) : widen_elem(h, fget<N>(h, i.vs2(), k));
      W r;
      if constexpr (accumulate)
        r = op(h, rm, fget<W>(h, i.vd(), k), a, b);
      else
        r = op(h, rm, a, b);
      fset<W>(h, i.vd(), k, r);
    });
  });
  h.charge_vector(InsnClass::VecFp, h.vl, wide_bits);
  return pc + 4;
}

// Element-wise conversion between widths: Src element type S in vs2 (EMUL
// = LMUL * sizeof(S) / SEW), destination D in vd.
template <class S, class D, class Op>
uint64_t vconv(Hart &h, Insn i, uint64_t pc, Op op) {
  require_fpu(h, i);
  const unsigned sew_bytes = h.vsew_bits / 8;
  auto emul_of = [&](unsigned bytes) {
    return bytes > sew_bytes ? h.vlmul_log2 + 1 : h.vlmul_log2;
  };
  require(h.vlmul_log2 + (sizeof(S) > sew_bytes || sizeof(D) > sew_bytes ? 1 : 0) <= 3, i);
  require_aligned(i, i.vd(), emul_of(sizeof(D)));
  require_aligned(i, i.vs2(), emul_of(sizeof(S)));
  require_vd_not_v0(i);
  each(h, i, [&](uint64_t k) {
    S a = get<S>(h, i.vs2(), k);
    set<D>(h, i.vd(), k, op(a));
  });
  h.charge_vector(InsnClass::VecFp, h.vl, h.vsew_bits);
  return pc + 4;
}

// Round a float to a small binary format (fp16: 5/10, bf16: 8/7) in mode rm.
uint16_t to_small(Hart &h, float v, unsigned rm, int exp_bits, int man_bits) {
  const uint32_t sign = std::signbit(v) ? 1u : 0u;
  const uint16_t sign_bit = static_cast<uint16_t>(sign << (exp_bits + man_bits));
  const uint16_t inf = static_cast<uint16_t>(((1u << exp_bits) - 1) << man_bits);
  if (v != v) {
    if (fp::is_snan(v)) fp::accrue(h, csr::kFflagNv);
    return static_cast<uint16_t>(inf | (1u << (man_bits - 1)));  // canonical NaN
  }
  if (std::isinf(v)) return sign_bit | inf;
  if (v == 0) return sign_bit;
  const int bias = (1 << (exp_bits - 1)) - 1;
  const int emin = 1 - bias;
  const double mag = std::fabs(static_cast<double>(v));
  int e = std::ilogb(mag);
  if (e < emin) e = emin;
  const double quantum = std::ldexp(1.0, e - man_bits);
  const double q = mag / quantum;  // exact
  double n;
  switch (rm) {
    case fp::kRtz:
      n = std::trunc(q);
      break;
    case fp::kRdn:
      n = sign ? std::ceil(q) : std::floor(q);
      break;
    case fp::kRup:
      n = sign ? std::floor(q) : std::ceil(q);
      break;
    case fp::kRmm:
      n = std::round(q);
      break;
    default:
      n = fp::round_integral(q, fp::kRne);
      break;
  }
  uint32_t flags = n != q ? csr::kFflagNx : 0;
  const double res = n * quantum;
  const double max_finite = std::ldexp(2.0 - std::ldexp(1.0, -man_bits), bias);
  if (res > max_finite) {
    fp::accrue(h, csr::kFflagOf | csr::kFflagNx);
    const bool to_inf =
        rm == fp::kRne || rm == fp::kRmm || (rm == fp::kRup && !sign) || (rm == fp::kRdn && sign);
    return sign_bit | (to_inf ? inf : static_cast<uint16_t>(inf - 1));
  }
  if (flags && res < std::ldexp(1.0, emin)) flags |= csr::kFflagUf;
  fp::accrue(h, flags);
  uint32_t enc;
  if (res < std::ldexp(1.0, emin)) {
    enc = static_cast<uint32_t>(res / std::ldexp(1.0, emin - man_bits));  // subnormal (or zero)
  } else {
    const int re = std::ilogb(res);
    const uint32_t frac =
        static_cast<uint32_t>(res / std::ldexp(1.0, re - man_bits)) - (1u << man_bits);
    enc = (static_cast<uint32_t>(re + bias) << man_bits) | frac;
  }
  return static_cast<uint16_t>(sign_bit | enc);
}

float from_small_checked(Hart &h, uint16_t bits, bool bf16) {
  const float f = bf16 ? opforge::bf16_to_fp32(bits) : opforge::fp16_to_fp32(bits);
  if (f != f) {
    const bool quiet = bf16 ? (bits & 0x0040) : (bits & 0x0200);
    if (!quiet) fp::accrue(h, csr::kFflagNv);
    return fp::canon_nan<float>();
  }
  return f;
}

// Round-to-odd narrowing (vfncvt.rod.f.f.w).
float narrow_odd(Hart &h, double v) {
  fp::host_begin(fp::kRtz);
  fp::opaque(v);
  float r = static_cast<float>(v);
  fp::opaque(r);
  const uint32_t fl = fp::host_flags();
  fp::accrue(h, fl);
  if (r != r) return fp::canon_nan<float>();
  if ((fl & csr::kFflagNx) && std::isfinite(r))
    r = std::bit_cast<float>(std::bit_cast<uint32_t>(r) | 1u);
  return r;
}

template <class F>
F fsgnj(F a, F b, int kind) {
  using B = fp::Bits<F>;
  const B sign = B(1) << (sizeof(B) * 8 - 1);
  const B ab = std::bit_cast<B>(a), bb = std::bit_cast<B>(b);
  const B s = static_cast<B>(kind == 0   ? (bb & sign)
                             : kind == 1 ? (~bb & sign)
                                         : ((ab ^ bb) & sign));
  return std::bit_cast<F>(static_cast<B>((ab & ~sign) | s));
}
}  // namespace

// ---- arithmetic: a = vs2[k], b = vs1[k] or f[rs1] ----
#define FOP2(expr)                           \
  [](Hart &h, unsigned rm, auto a, auto b) { \
    (void)h;                                 \
    (void)rm;                                \
    return expr;                             \
  }
#define VFBIN(name, form, cls, expr) \
  INSN(name, cls) { return vfbin<Src::form>(h, i, pc, InsnClass::cls, FOP2(expr)); }
// The same with the host form of the operation (vfbin's `host`).
#define VFBIN_HOST(name, form, cls, expr, host_expr)                                  \
  INSN(name, cls) {                                                                   \
    return vfbin<Src::form>(h, i, pc, InsnClass::cls, FOP2(expr),                     \
                            [](auto a, auto b) -> decltype(a) { return host_expr; }); \
  }
VFBIN_HOST(vfadd_vv, V, VecFp, fp::add(h, rm, a, b), a + b)
VFBIN_HOST(vfadd_vf, F, VecFp, fp::add(h, rm, a, b), a + b)
VFBIN_HOST(vfsub_vv, V, VecFp, fp::sub(h, rm, a, b), a + -b)
VFBIN_HOST(vfsub_vf, F, VecFp, fp::sub(h, rm, a, b), a + -b)
VFBIN_HOST(vfrsub_vf, F, VecFp, fp::sub(h, rm, b, a), b + -a)
VFBIN_HOST(vfmul_vv, V, VecFp, fp::mul(h, rm, a, b), a *b)
VFBIN_HOST(vfmul_vf, F, VecFp, fp::mul(h, rm, a, b), a *b)
VFBIN_HOST(vfdiv_vv, V, VecFdiv, fp::div(h, rm, a, b), a / b)
VFBIN_HOST(vfdiv_vf, F, VecFdiv, fp::div(h, rm, a, b), a / b)
VFBIN_HOST(vfrdiv_vf, F, VecFdiv, fp::div(h, rm, b, a), b / a)
VFBIN(vfmin_vv, V, VecFp, fp::min(h, a, b))
VFBIN(vfmin_vf, F, VecFp, fp::min(h, a, b))
VFBIN(vfmax_vv, V, VecFp, fp::max(h, a, b))
VFBIN(vfmax_vf, F, VecFp, fp::max(h, a, b))
VFBIN(vfsgnj_vv, V, VecFp, fsgnj(a, b, 0))
VFBIN(vfsgnj_vf, F, VecFp, fsgnj(a, b, 0))
VFBIN(vfsgnjn_vv, V, VecFp, fsgnj(a, b, 1))
VFBIN(vfsgnjn_vf, F, VecFp, fsgnj(a, b, 1))
VFBIN(vfsgnjx_vv, V, VecFp, fsgnj(a, b, 2))
VFBIN(vfsgnjx_vf, F, VecFp, fsgnj(a, b, 2))

// ---- fused multiply-add: d = vd[k], a = vs2[k], b = vs1[k] or f[rs1] ----
#define FOP3(expr) [](Hart &h, unsigned rm, auto d, auto a, auto b) { return expr; }
#define VFTER(name, form, expr) \
  INSN(name, VecFp) { return vfter<Src::form>(h, i, pc, FOP3(expr)); }
VFTER(vfmacc_vv, V, fp::fma(h, rm, b, a, d))
VFTER(vfmacc_vf, F, fp::fma(h, rm, b, a, d))
VFTER(vfnmacc_vv, V, fp::fma(h, rm, -b, a, -d))
VFTER(vfnmacc_vf, F, fp::fma(h, rm, -b, a, -d))
VFTER(vfmsac_vv, V, fp::fma(h, rm, b, a, -d))
VFTER(vfmsac_vf, F, fp::fma(h, rm, b, a, -d))
VFTER(vfnmsac_vv, V, fp::fma(h, rm, -b, a, d))
VFTER(vfnmsac_vf, F, fp::fma(h, rm, -b, a, d))
VFTER(vfmadd_vv, V, fp::fma(h, rm, b, d, a))
VFTER(vfmadd_vf, F, fp::fma(h, rm, b, d, a))
VFTER(vfnmadd_vv, V, fp::fma(h, rm, -b, d, -a))
VFTER(vfnmadd_vf, F, fp::fma(h, rm, -b, d, -a))
VFTER(vfmsub_vv, V, fp::fma(h, rm, b, d, -a))
VFTER(vfmsub_vf, F, fp::fma(h, rm, b, d, -a))
VFTER(vfnmsub_vv, V, fp::fma(h, rm, -b, d, a))
VFTER(vfnmsub_vf, F, fp::fma(h, rm, -b, d, a))

// ---- compares (vmfeq/vmfne quiet, the others signaling) ----
#define VFCMP(name, form, expr)                                                            \
  INSN(name, VecFp) {                                                                      \
    return vfcmp<Src::form>(h, i, pc, [](Hart &h, auto a, auto b) { return bool(expr); }); \
  }
VFCMP(vmfeq_vv, V, fp::feq(h, a, b))
VFCMP(vmfeq_vf, F, fp::feq(h, a, b))
VFCMP(vmfne_vv, V, !fp::feq(h, a, b))
VFCMP(vmfne_vf, F, !fp::feq(h, a, b))
VFCMP(vmflt_vv, V, fp::flt(h, a, b))
VFCMP(vmflt_vf, F, fp::flt(h, a, b))
VFCMP(vmfle_vv, V, fp::fle(h, a, b))
VFCMP(vmfle_vf, F, fp::fle(h, a, b))
VFCMP(vmfgt_vf, F, fp::flt(h, b, a))
VFCMP(vmfge_vf, F, fp::fle(h, b, a))

// ---- widening arithmetic (SEW=16 -> 32, SEW=32 -> 64) ----
#define VFWIDE(name, form, wide_a, expr)                                      \
  INSN(name, VecFp) {                                                         \
    return vfwide<Src::form, wide_a, false>(                                  \
        h, i, pc, [](Hart &h, unsigned rm, auto a, auto b) { return expr; }); \
  }
VFWIDE(vfwadd_vv, V, false, fp::add(h, rm, a, b))
VFWIDE(vfwadd_vf, F, false, fp::add(h, rm, a, b))
VFWIDE(vfwsub_vv, V, false, fp::sub(h, rm, a, b))
VFWIDE(vfwsub_vf, F, false, fp::sub(h, rm, a, b))
VFWIDE(vfwadd_wv, V, true, fp::add(h, rm, a, b))
VFWIDE(vfwadd_wf, F, true, fp::add(h, rm, a, b))
VFWIDE(vfwsub_wv, V, true, fp::sub(h, rm, a, b))
VFWIDE(vfwsub_wf, F, true, fp::sub(h, rm, a, b))
VFWIDE(vfwmul_vv, V, false, fp::mul(h, rm, a, b))
VFWIDE(vfwmul_vf, F, false, fp::mul(h, rm, a, b))
#define VFWTER(name, form, expr)                                                      \
  INSN(name, VecFp) {                                                                 \
    return vfwide<Src::form, false, true>(                                            \
        h, i, pc, [](Hart &h, unsigned rm, auto d, auto a, auto b) { return expr; }); \
  }
VFWTER(vfwmacc_vv, V, fp::fma(h, rm, b, a, d))
VFWTER(vfwmacc_vf, F, fp::fma(h, rm, b, a, d))
VFWTER(vfwnmacc_vv, V, fp::fma(h, rm, -b, a, -d))
VFWTER(vfwnmacc_vf, F, fp::fma(h, rm, -b, a, -d))
VFWTER(vfwmsac_vv, V, fp::fma(h, rm, b, a, -d))
VFWTER(vfwmsac_vf, F, fp::fma(h, rm, b, a, -d))
VFWTER(vfwnmsac_vv, V, fp::fma(h, rm, -b, a, d))
VFWTER(vfwnmsac_vf, F, fp::fma(h, rm, -b, a, d))

// ---- unary ----
INSN(vfsqrt_v, VecFdiv) {
  require_fpu(h, i);
  require_aligned(i, i.vd(), h.vlmul_log2);
  require_aligned(i, i.vs2(), h.vlmul_log2);
  require_vd_not_v0(i);
  const unsigned rm = vrm(h, i);
  by_fsew(h, i, [&](auto t) {
    using F = decltype(t);
    each(h, i, [&](uint64_t k) { fset<F>(h, i.vd(), k, fp::sqrt(h, rm, fget<F>(h, i.vs2(), k))); });
  });
  h.charge_vector(InsnClass::VecFdiv, h.vl, h.vsew_bits);
  return NEXT;
}
INSN(vfclass_v, VecFp) {
  require_fpu(h, i);
  require_aligned(i, i.vd(), h.vlmul_log2);
  require_aligned(i, i.vs2(), h.vlmul_log2);
  require_vd_not_v0(i);
  by_fsew(h, i, [&](auto t) {
    using F = decltype(t);
    each(h, i, [&](uint64_t k) {
      set<fp::Bits<F>>(h, i.vd(), k, static_cast<fp::Bits<F>>(fp::fclass(fget<F>(h, i.vs2(), k))));
    });
  });
  h.charge_vector(InsnClass::VecFp, h.vl, h.vsew_bits);
  return NEXT;
}

// ---- merge / splat ----
namespace {
uint64_t vfmerge(Hart &h, Insn i, uint64_t pc) {
  require_fpu(h, i);
  require_aligned(i, i.vd(), h.vlmul_log2);
  if (!i.vm()) {
    require_aligned(i, i.vs2(), h.vlmul_log2);
    require(i.vd() != 0, i);
  }
  by_fsew(h, i, [&](auto t) {
    using F = decltype(t);
    const F s = fscalar<F>(h, i);
    for (uint64_t k = h.vstart; k < h.vl; ++k)
      fset<F>(h, i.vd(), k, (i.vm() || mbit(h, 0, k)) ? s : fget<F>(h, i.vs2(), k));
  });
  h.vstart = 0;
  h.charge_vector(InsnClass::VecAlu, h.vl, h.vsew_bits);
  return pc + 4;
}
}  // namespace
INSN(vfmerge_vfm, VecAlu) { return vfmerge(h, i, pc); }
INSN(vfmv_v_f, VecAlu) { return vfmerge(h, i, pc); }

// ---- conversions ----
// Same width.
#define CONV_SAME(name, expr_h, expr_f, expr_d)                                       \
  INSN(name, VecFp) {                                                                 \
    require_fpu(h, i);                                                                \
    const unsigned rm = vrm(h, i);                                                    \
    (void)rm;                                                                         \
    if (h.vsew_bits == 16)                                                            \
      return vconv<uint16_t, uint16_t>(h, i, pc, [&](uint16_t a) { return expr_h; }); \
    if (h.vsew_bits == 32)                                                            \
      return vconv<uint32_t, uint32_t>(h, i, pc, [&](uint32_t a) { return expr_f; }); \
    if (h.vsew_bits == 64)                                                            \
      return vconv<uint64_t, uint64_t>(h, i, pc, [&](uint64_t a) { return expr_d; }); \
    illegal(i);                                                                       \
  }
#define AS_H \
  fp::Half { a }
#define AS_F std::bit_cast<float>(a)
#define AS_D std::bit_cast<double>(a)
CONV_SAME(vfcvt_xu_f_v, fp::half_to_int<uint16_t>(h, AS_H, rm), fp::to_int<uint32_t>(h, AS_F, rm),
          fp::to_int<uint64_t>(h, AS_D, rm))
CONV_SAME(vfcvt_x_f_v, uint16_t(fp::half_to_int<int16_t>(h, AS_H, rm)),
          uint32_t(fp::to_int<int32_t>(h, AS_F, rm)), uint64_t(fp::to_int<int64_t>(h, AS_D, rm)))
CONV_SAME(vfcvt_rtz_xu_f_v, fp::half_to_int<uint16_t>(h, AS_H, fp::kRtz),
          fp::to_int<uint32_t>(h, AS_F, fp::kRtz), fp::to_int<uint64_t>(h, AS_D, fp::kRtz))
CONV_SAME(vfcvt_rtz_x_f_v, uint16_t(fp::half_to_int<int16_t>(h, AS_H, fp::kRtz)),
          uint32_t(fp::to_int<int32_t>(h, AS_F, fp::kRtz)),
          uint64_t(fp::to_int<int64_t>(h, AS_D, fp::kRtz)))
CONV_SAME(vfcvt_f_xu_v, fp::half_from_int(h, a, rm).bits,
          std::bit_cast<uint32_t>(fp::from_int<float>(h, a, rm)),
          std::bit_cast<uint64_t>(fp::from_int<double>(h, a, rm)))
CONV_SAME(vfcvt_f_x_v, fp::half_from_int(h, int16_t(a), rm).bits,
          std::bit_cast<uint32_t>(fp::from_int<float>(h, int32_t(a), rm)),
          std::bit_cast<uint64_t>(fp::from_int<double>(h, int64_t(a), rm)))

// Widening: SEW -> 2*SEW.
INSN(vfwcvt_xu_f_v, VecFp) {
  require_fpu(h, i);
  const unsigned rm = vrm(h, i);
  if (h.vsew_bits == 16)
    return vconv<uint16_t, uint32_t>(
        h, i, pc, [&](uint16_t a) { return uint32_t(fp::half_to_int<uint32_t>(h, AS_H, rm)); });
  require(h.vsew_bits == 32, i);
  return vconv<uint32_t, uint64_t>(h, i, pc,
                                   [&](uint32_t a) { return fp::to_int<uint64_t>(h, AS_F, rm); });
}
INSN(vfwcvt_x_f_v, VecFp) {
  require_fpu(h, i);
  const unsigned rm = vrm(h, i);
  if (h.vsew_bits == 16)
    return vconv<uint16_t, uint32_t>(
        h, i, pc, [&](uint16_t a) { return uint32_t(fp::half_to_int<int32_t>(h, AS_H, rm)); });
  require(h.vsew_bits == 32, i);
  return vconv<uint32_t, uint64_t>(
      h, i, pc, [&](uint32_t a) { return uint64_t(fp::to_int<int64_t>(h, AS_F, rm)); });
}
INSN(vfwcvt_rtz_xu_f_v, VecFp) {
  require_fpu(h, i);
  if (h.vsew_bits == 16)
    return vconv<uint16_t, uint32_t>(h, i, pc, [&](uint16_t a) {
      return uint32_t(fp::half_to_int<uint32_t>(h, AS_H, fp::kRtz));
    });
  require(h.vsew_bits == 32, i);
  return vconv<uint32_t, uint64_t>(
      h, i, pc, [&](uint32_t a) { return fp::to_int<uint64_t>(h, AS_F, fp::kRtz); });
}
INSN(vfwcvt_rtz_x_f_v, VecFp) {
  require_fpu(h, i);
  if (h.vsew_bits == 16)
    return vconv<uint16_t, uint32_t>(h, i, pc, [&](uint16_t a) {
      return uint32_t(fp::half_to_int<int32_t>(h, AS_H, fp::kRtz));
    });
  require(h.vsew_bits == 32, i);
  return vconv<uint32_t, uint64_t>(
      h, i, pc, [&](uint32_t a) { return uint64_t(fp::to_int<int64_t>(h, AS_F, fp::kRtz)); });
}
INSN(vfwcvt_f_xu_v, VecFp) {
  require_fpu(h, i);
  if (h.vsew_bits == 8)  // exact
    return vconv<uint8_t, uint16_t>(h, i, pc,
                                    [&](uint8_t a) { return fp::half_from_int(h, a, 0).bits; });
  if (h.vsew_bits == 16)
    return vconv<uint16_t, uint32_t>(h, i, pc,
                                     [](uint16_t a) { return std::bit_cast<uint32_t>(float(a)); });
  require(h.vsew_bits == 32, i);
  return vconv<uint32_t, uint64_t>(h, i, pc,
                                   [](uint32_t a) { return std::bit_cast<uint64_t>(double(a)); });
}
INSN(vfwcvt_f_x_v, VecFp) {
  require_fpu(h, i);
  if (h.vsew_bits == 8)  // exact
    return vconv<uint8_t, uint16_t>(
        h, i, pc, [&](uint8_t a) { return fp::half_from_int(h, int8_t(a), 0).bits; });
  if (h.vsew_bits == 16)
    return vconv<uint16_t, uint32_t>(
        h, i, pc, [](uint16_t a) { return std::bit_cast<uint32_t>(float(int16_t(a))); });
  require(h.vsew_bits == 32, i);
  return vconv<uint32_t, uint64_t>(
      h, i, pc, [](uint32_t a) { return std::bit_cast<uint64_t>(double(int32_t(a))); });
}
INSN(vfwcvt_f_f_v, VecFp) {
  require_fpu(h, i);
  if (h.vsew_bits == 16)
    return vconv<uint16_t, uint32_t>(h, i, pc, [&](uint16_t a) {
      return std::bit_cast<uint32_t>(from_small_checked(h, a, false));
    });
  require(h.vsew_bits == 32, i);
  return vconv<uint32_t, uint64_t>(
      h, i, pc, [&](uint32_t a) { return std::bit_cast<uint64_t>(fp::widen(h, AS_F)); });
}
INSN(vfwcvtbf16_f_f_v, VecFp) {
  require_fpu(h, i);
  require(h.vsew_bits == 16, i);
  return vconv<uint16_t, uint32_t>(h, i, pc, [&](uint16_t a) {
    return std::bit_cast<uint32_t>(from_small_checked(h, a, true));
  });
}

// Narrowing: 2*SEW -> SEW.
INSN(vfncvt_xu_f_w, VecFp) {
  require_fpu(h, i);
  const unsigned rm = vrm(h, i);
  if (h.vsew_bits == 8)
    return vconv<uint16_t, uint8_t>(
        h, i, pc, [&](uint16_t a) { return uint8_t(fp::half_to_int<uint8_t>(h, AS_H, rm)); });
  if (h.vsew_bits == 16)
    return vconv<uint32_t, uint16_t>(h, i, pc,
                                     [&](uint32_t a) { return fp::to_int<uint16_t>(h, AS_F, rm); });
  require(h.vsew_bits == 32, i);
  return vconv<uint64_t, uint32_t>(h, i, pc,
                                   [&](uint64_t a) { return fp::to_int<uint32_t>(h, AS_D, rm); });
}
INSN(vfncvt_x_f_w, VecFp) {
  require_fpu(h, i);
  const unsigned rm = vrm(h, i);
  if (h.vsew_bits == 8)
    return vconv<uint16_t, uint8_t>(
        h, i, pc, [&](uint16_t a) { return uint8_t(fp::half_to_int<int8_t>(h, AS_H, rm)); });
  if (h.vsew_bits == 16)
    return vconv<uint32_t, uint16_t>(
        h, i, pc, [&](uint32_t a) { return uint16_t(fp::to_int<int16_t>(h, AS_F, rm)); });
  require(h.vsew_bits == 32, i);
  return vconv<uint64_t, uint32_t>(
      h, i, pc, [&](uint64_t a) { return uint32_t(fp::to_int<int32_t>(h, AS_D, rm)); });
}
INSN(vfncvt_rtz_xu_f_w, VecFp) {
  require_fpu(h, i);
  if (h.vsew_bits == 8)
    return vconv<uint16_t, uint8_t>(
        h, i, pc, [&](uint16_t a) { return uint8_t(fp::half_to_int<uint8_t>(h, AS_H, fp::kRtz)); });
  if (h.vsew_bits == 16)
    return vconv<uint32_t, uint16_t>(
        h, i, pc, [&](uint32_t a) { return fp::to_int<uint16_t>(h, AS_F, fp::kRtz); });
  require(h.vsew_bits == 32, i);
  return vconv<uint64_t, uint32_t>(
      h, i, pc, [&](uint64_t a) { return fp::to_int<uint32_t>(h, AS_D, fp::kRtz); });
}
INSN(vfncvt_rtz_x_f_w, VecFp) {
  require_fpu(h, i);
  if (h.vsew_bits == 8)
    return vconv<uint16_t, uint8_t>(
        h, i, pc, [&](uint16_t a) { return uint8_t(fp::half_to_int<int8_t>(h, AS_H, fp::kRtz)); });
  if (h.vsew_bits == 16)
    return vconv<uint32_t, uint16_t>(
        h, i, pc, [&](uint32_t a) { return uint16_t(fp::to_int<int16_t>(h, AS_F, fp::kRtz)); });
  require(h.vsew_bits == 32, i);
  return vconv<uint64_t, uint32_t>(
      h, i, pc, [&](uint64_t a) { return uint32_t(fp::to_int<int32_t>(h, AS_D, fp::kRtz)); });
}
INSN(vfncvt_f_xu_w, VecFp) {
  require_fpu(h, i);
  const unsigned rm = vrm(h, i);
  if (h.vsew_bits == 16)
    return vconv<uint32_t, uint16_t>(h, i, pc,
                                     [&](uint32_t a) { return fp::half_from_int(h, a, rm).bits; });
  require(h.vsew_bits == 32, i);
  return vconv<uint64_t, uint32_t>(
      h, i, pc, [&](uint64_t a) { return std::bit_cast<uint32_t>(fp::from_int<float>(h, a, rm)); });
}
INSN(vfncvt_f_x_w, VecFp) {
  require_fpu(h, i);
  const unsigned rm = vrm(h, i);
  if (h.vsew_bits == 16)
    return vconv<uint32_t, uint16_t>(
        h, i, pc, [&](uint32_t a) { return fp::half_from_int(h, int32_t(a), rm).bits; });
  require(h.vsew_bits == 32, i);
  return vconv<uint64_t, uint32_t>(h, i, pc, [&](uint64_t a) {
    return std::bit_cast<uint32_t>(fp::from_int<float>(h, int64_t(a), rm));
  });
}
INSN(vfncvt_f_f_w, VecFp) {
  require_fpu(h, i);
  const unsigned rm = vrm(h, i);
  if (h.vsew_bits == 16)
    return vconv<uint32_t, uint16_t>(h, i, pc,
                                     [&](uint32_t a) { return to_small(h, AS_F, rm, 5, 10); });
  require(h.vsew_bits == 32, i);
  return vconv<uint64_t, uint32_t>(
      h, i, pc, [&](uint64_t a) { return std::bit_cast<uint32_t>(fp::narrow(h, AS_D, rm)); });
}
INSN(vfncvt_rod_f_f_w, VecFp) {
  require_fpu(h, i);
  if (h.vsew_bits == 16)
    return vconv<uint32_t, uint16_t>(h, i, pc,
                                     [&](uint32_t a) { return fp::narrow_half_odd(h, AS_F).bits; });
  require(h.vsew_bits == 32, i);
  return vconv<uint64_t, uint32_t>(
      h, i, pc, [&](uint64_t a) { return std::bit_cast<uint32_t>(narrow_odd(h, AS_D)); });
}
INSN(vfncvtbf16_f_f_w, VecFp) {
  require_fpu(h, i);
  const unsigned rm = vrm(h, i);
  require(h.vsew_bits == 16, i);
  return vconv<uint32_t, uint16_t>(h, i, pc,
                                   [&](uint32_t a) { return to_small(h, AS_F, rm, 8, 7); });
}

// ---- reductions ----
namespace {
template <bool widen, class Op>
uint64_t vfred(Hart &h, Insn i, uint64_t pc, Op op) {
  require_fpu(h, i);
  require(h.vstart == 0, i);
  require_aligned(i, i.vs2(), h.vlmul_log2);
  const unsigned rm = vrm(h, i);
  if constexpr (widen) {
    by_narrow_fsew(h, i, [&](auto t) {
      using N = decltype(t);
      using W = decltype(widen_elem(h, N{}));
      W acc = fget<W>(h, i.vs1(), 0);
      each(h, i, [&](uint64_t k) { acc = op(h, rm, acc, widen_elem(h, fget<N>(h, i.vs2(), k))); });
      if (h.vl > 0) fset<W>(h, i.vd(), 0, acc);
    });
  } else {
    by_fsew(h, i, [&](auto t) {
      using F = decltype(t);
      F acc = fget<F>(h, i.vs1(), 0);
      each(h, i, [&](uint64_t k) { acc = op(h, rm, acc, fget<F>(h, i.vs2(), k)); });
      if (h.vl > 0) fset<F>(h, i.vd(), 0, acc);
    });
  }
  h.charge_vector(InsnClass::VecReduce, h.vl, h.vsew_bits);
  return pc + 4;
}
}  // namespace
// Unordered sums are computed in element order, like QEMU.
INSN(vfredusum_vs, VecReduce) { return vfred<false>(h, i, pc, FOP2(fp::add(h, rm, a, b))); }
INSN(vfredosum_vs, VecReduce) { return vfred<false>(h, i, pc, FOP2(fp::add(h, rm, a, b))); }
INSN(vfredmin_vs, VecReduce) { return vfred<false>(h, i, pc, FOP2(fp::min(h, a, b))); }
INSN(vfredmax_vs, VecReduce) { return vfred<false>(h, i, pc, FOP2(fp::max(h, a, b))); }
INSN(vfwredusum_vs, VecReduce) { return vfred<true>(h, i, pc, FOP2(fp::add(h, rm, a, b))); }
INSN(vfwredosum_vs, VecReduce) { return vfred<true>(h, i, pc, FOP2(fp::add(h, rm, a, b))); }
