//===- elementwise.cpp - interpreter: arith, math, compare, select, casts ---===//
#include <bit>
#include <cmath>
#include <cstring>
#include <limits>

#include "opforge/support/dtype.h"
#include "opforge/support/error.h"
#include "runtime.h"

namespace opforge::ttir::interp {

double round_to(Elem e, double x) {
  switch (e) {
    case Elem::F32:
      return static_cast<double>(static_cast<float>(x));
    case Elem::F16:
      return fp16_to_fp32(fp32_to_fp16(static_cast<float>(x)));
    case Elem::BF16:
      return bf16_to_fp32(fp32_to_bf16(static_cast<float>(x)));
    default:
      return x;
  }
}

int64_t wrap_to(Elem e, int64_t x) {
  switch (e) {
    case Elem::I1:
      return x & 1;
    case Elem::I8:
      return static_cast<int8_t>(static_cast<uint8_t>(x));
    case Elem::I16:
      return static_cast<int16_t>(static_cast<uint16_t>(x));
    case Elem::I32:
      return static_cast<int32_t>(static_cast<uint32_t>(x));
    default:
      return x;
  }
}

uint64_t as_unsigned(Elem e, int64_t x) {
  int bits = elem_bits(e);
  if (bits >= 64) return static_cast<uint64_t>(x);
  return static_cast<uint64_t>(x) & ((1ull << bits) - 1);
}

RV splat_to(const RV &v, size_t n) {
  RV r;
  r.is_float = v.is_float;
  if (v.is_float)
    r.f.assign(n, v.f.at(0));
  else
    r.i.assign(n, v.i.at(0));
  return r;
}

namespace {

size_t out_size(const std::vector<const RV *> &in) {
  size_t n = 1;
  for (auto *v : in) n = std::max(n, v->size());
  for (auto *v : in)
    if (v->size() != n && v->size() != 1) throw Error("interpreter: operand sizes differ");
  return n;
}
inline size_t at(const RV &v, size_t k) { return v.size() == 1 ? 0 : k; }

template <typename F>
RV float_unary(const RV &a, Elem e, F fn) {
  RV r;
  r.is_float = true;
  r.f.resize(a.f.size());
  for (size_t k = 0; k < a.f.size(); ++k) r.f[k] = round_to(e, fn(a.f[k]));
  return r;
}
// Math in fp32 for f16/bf16/f32, in double for f64.
template <typename FF, typename FD>
RV math_unary(const RV &a, Elem e, FF ff, FD fd) {
  if (e == Elem::F64) return float_unary(a, e, fd);
  return float_unary(a, e,
                     [&](double x) { return static_cast<double>(ff(static_cast<float>(x))); });
}
template <typename F>
RV float_binary(const RV &a, const RV &b, size_t n, Elem e, F fn) {
  RV r;
  r.is_float = true;
  r.f.resize(n);
  for (size_t k = 0; k < n; ++k) r.f[k] = round_to(e, fn(a.f[at(a, k)], b.f[at(b, k)]));
  return r;
}
template <typename F>
RV int_binary(const RV &a, const RV &b, size_t n, Elem e, F fn) {
  RV r;
  r.i.resize(n);
  for (size_t k = 0; k < n; ++k) r.i[k] = wrap_to(e, fn(a.i[at(a, k)], b.i[at(b, k)]));
  return r;
}

uint64_t float_bits(Elem e, double x) {
  switch (e) {
    case Elem::F16:
      return fp32_to_fp16(static_cast<float>(x));
    case Elem::BF16:
      return fp32_to_bf16(static_cast<float>(x));
    case Elem::F32:
      return std::bit_cast<uint32_t>(static_cast<float>(x));
    default:
      return std::bit_cast<uint64_t>(x);
  }
}
double bits_float(Elem e, uint64_t b) {
  switch (e) {
    case Elem::F16:
      return fp16_to_fp32(static_cast<uint16_t>(b));
    case Elem::BF16:
      return bf16_to_fp32(static_cast<uint16_t>(b));
    case Elem::F32:
      return std::bit_cast<float>(static_cast<uint32_t>(b));
    default:
      return std::bit_cast<double>(b);
  }
}

int64_t fp_to_int(double x, Elem e, bool is_unsigned) {
  int bits = elem_bits(e);
  if (e == Elem::I1) return std::isnan(x) ? 1 : (std::trunc(x) != 0);
  double t = std::trunc(x);
  if (is_unsigned) {
    double maxv = std::ldexp(1.0, bits) - 1;
    if (std::isnan(x) || t >= maxv)
      return wrap_to(e, static_cast<int64_t>(bits >= 64 ? ~0ull : (1ull << bits) - 1));
    if (t <= 0) return 0;
    return wrap_to(e, static_cast<int64_t>(static_cast<uint64_t>(t)));
  }
  double maxv = std::ldexp(1.0, bits - 1);
  int64_t imax = bits >= 64 ? std::numeric_limits<int64_t>::max() : (int64_t(1) << (bits - 1)) - 1;
  if (std::isnan(x) || t >= maxv) return imax;
  if (t < -maxv) return -imax - 1;
  return static_cast<int64_t>(t);
}

bool cmp_int(const std::string &p, int64_t a, int64_t b, Elem e) {
  uint64_t ua = as_unsigned(e, a), ub = as_unsigned(e, b);
  if (p == "eq") return a == b;
  if (p == "ne") return a != b;
  if (p == "slt") return a < b;
  if (p == "sle") return a <= b;
  if (p == "sgt") return a > b;
  if (p == "sge") return a >= b;
  if (p == "ult") return ua < ub;
  if (p == "ule") return ua <= ub;
  if (p == "ugt") return ua > ub;
  if (p == "uge") return ua >= ub;
  throw Error("interpreter: unknown integer predicate '" + p + "'");
}

bool cmp_float(const std::string &p, double a, double b) {
  bool uno = std::isnan(a) || std::isnan(b);
  if (p == "ord") return !uno;
  if (p == "uno") return uno;
  bool ordered = p[0] == 'o';
  std::string r = p.substr(1);
  if (uno) return !ordered;
  if (r == "eq") return a == b;
  if (r == "ne") return a != b;
  if (r == "lt") return a < b;
  if (r == "le") return a <= b;
  if (r == "gt") return a > b;
  if (r == "ge") return a >= b;
  throw Error("interpreter: unknown float predicate '" + p + "'");
}

int shift_amount(Elem e, int64_t s) {
  return static_cast<int>(as_unsigned(e, s) & (elem_bits(e) - 1));
}

}  // namespace

RV eval_elementwise(const Operation &op, const std::vector<const RV *> &in,
                    unsigned sfu_prec_bits) {
  using K = OpKind;
  const Type &rt = op.results[0]->type;
  const Elem re = rt.elem;
  const Elem ie = op.operands.empty() ? re : op.operands[0]->type.elem;
  size_t n = out_size(in);
  const RV &a = *in[0];
  if (op.bool_attr("sfu")) return eval_sfu(op, in, sfu_prec_bits);  // tl.extra.mtia.sfu
  switch (op.kind) {
    case K::AddF:
      return float_binary(a, *in[1], n, re, [](double x, double y) { return x + y; });
    case K::SubF:
      return float_binary(a, *in[1], n, re, [](double x, double y) { return x - y; });
    case K::MulF:
      return float_binary(a, *in[1], n, re, [](double x, double y) { return x * y; });
    case K::DivF:
      return float_binary(a, *in[1], n, re, [](double x, double y) { return x / y; });
    case K::RemF:
      return float_binary(a, *in[1], n, re, [](double x, double y) { return std::fmod(x, y); });
    case K::MaximumF:
      return float_binary(a, *in[1], n, re, [](double x, double y) {
        if (std::isnan(x) || std::isnan(y)) return std::numeric_limits<double>::quiet_NaN();
        if (x == y) return std::signbit(x) ? y : x;
        return x > y ? x : y;
      });
    case K::MinimumF:
      return float_binary(a, *in[1], n, re, [](double x, double y) {
        if (std::isnan(x) || std::isnan(y)) return std::numeric_limits<double>::quiet_NaN();
        if (x == y) return std::signbit(x) ? x : y;
        return x < y ? x : y;
      });
    case K::MaxNumF:
      return float_binary(a, *in[1], n, re, [](double x, double y) { return std::fmax(x, y); });
    case K::MinNumF:
      return float_binary(a, *in[1], n, re, [](double x, double y) { return std::fmin(x, y); });
    case K::AddI:
      return int_binary(a, *in[1], n, re, [](int64_t x, int64_t y) {
        return static_cast<int64_t>(static_cast<uint64_t>(x) + static_cast<uint64_t>(y));
      });
    case K::SubI:
      return int_binary(a, *in[1], n, re, [](int64_t x, int64_t y) {
        return static_cast<int64_t>(static_cast<uint64_t>(x) - static_cast<uint64_t>(y));
      });
    case K::MulI:
      return int_binary(a, *in[1], n, re, [](int64_t x, int64_t y) {
        return static_cast<int64_t>(static_cast<uint64_t>(x) * static_cast<uint64_t>(y));
      });
    case K::DivSI:
      return int_binary(a, *in[1], n, re, [](int64_t x, int64_t y) -> int64_t {
        if (y == 0) return -1;
        if (y == -1) return static_cast<int64_t>(0 - static_cast<uint64_t>(x));
        return x / y;
      });
    case K::RemSI:
      return int_binary(a, *in[1], n, re, [](int64_t x, int64_t y) -> int64_t {
        if (y == 0) return x;
        if (y == -1) return 0;
        return x % y;
      });
    case K::DivUI:
      return int_binary(a, *in[1], n, re, [ie](int64_t x, int64_t y) -> int64_t {
        uint64_t ux = as_unsigned(ie, x), uy = as_unsigned(ie, y);
        return uy == 0 ? -1 : static_cast<int64_t>(ux / uy);
      });
    case K::RemUI:
      return int_binary(a, *in[1], n, re, [ie](int64_t x, int64_t y) -> int64_t {
        uint64_t ux = as_unsigned(ie, x), uy = as_unsigned(ie, y);
        return uy == 0 ? x : static_cast<int64_t>(ux % uy);
      });
    case K::AndI:
      return int_binary(a, *in[1], n, re, [](int64_t x, int64_t y) { return x & y; });
    case K::OrI:
      return int_binary(a, *in[1], n, re, [](int64_t x, int64_t y) { return x | y; });
    case K::XOrI:
      return int_binary(a, *in[1], n, re, [](int64_t x, int64_t y) { return x ^ y; });
    case K::ShLI:
      return int_binary(a, *in[1], n, re, [ie](int64_t x, int64_t y) {
        return static_cast<int64_t>(static_cast<uint64_t>(x) << shift_amount(ie, y));
      });
    case K::ShRSI:
      return int_binary(a, *in[1], n, re,
                        [ie](int64_t x, int64_t y) { return x >> shift_amount(ie, y); });
    case K::ShRUI:
      return int_binary(a, *in[1], n, re, [ie](int64_t x, int64_t y) {
        return static_cast<int64_t>(as_unsigned(ie, x) >> shift_amount(ie, y));
      });
    case K::MaxSI:
      return int_binary(a, *in[1], n, re, [](int64_t x, int64_t y) { return std::max(x, y); });
    case K::MinSI:
      return int_binary(a, *in[1], n, re, [](int64_t x, int64_t y) { return std::min(x, y); });
    case K::MaxUI:
      return int_binary(a, *in[1], n, re, [ie](int64_t x, int64_t y) {
        return as_unsigned(ie, x) >= as_unsigned(ie, y) ? x : y;
      });
    case K::MinUI:
      return int_binary(a, *in[1], n, re, [ie](int64_t x, int64_t y) {
        return as_unsigned(ie, x) <= as_unsigned(ie, y) ? x : y;
      });
    case K::MulHiUI:
      return int_binary(a, *in[1], n, re, [ie](int64_t x, int64_t y) {
        unsigned __int128 p =
            static_cast<unsigned __int128>(as_unsigned(ie, x)) * as_unsigned(ie, y);
        return static_cast<int64_t>(static_cast<uint64_t>(p >> elem_bits(ie)));
      });
    case K::NegF:
      return float_unary(a, re, [](double x) { return -x; });
    case K::AbsF:
      return float_unary(a, re, [](double x) { return std::fabs(x); });
    case K::Floor:
      return float_unary(a, re, [](double x) { return std::floor(x); });
    case K::Ceil:
      return float_unary(a, re, [](double x) { return std::ceil(x); });
    case K::Exp:
      return math_unary(
          a, re, [](float x) { return std::exp(x); }, [](double x) { return std::exp(x); });
    case K::Exp2:
      return math_unary(
          a, re, [](float x) { return std::exp2(x); }, [](double x) { return std::exp2(x); });
    case K::Log:
      return math_unary(
          a, re, [](float x) { return std::log(x); }, [](double x) { return std::log(x); });
    case K::Log2:
      return math_unary(
          a, re, [](float x) { return std::log2(x); }, [](double x) { return std::log2(x); });
    case K::Sqrt:
      return math_unary(
          a, re, [](float x) { return std::sqrt(x); }, [](double x) { return std::sqrt(x); });
    case K::Rsqrt:
      return math_unary(
          a, re, [](float x) { return 1.0f / std::sqrt(x); },
          [](double x) { return 1.0 / std::sqrt(x); });
    case K::Sin:
      return math_unary(
          a, re, [](float x) { return std::sin(x); }, [](double x) { return std::sin(x); });
    case K::Cos:
      return math_unary(
          a, re, [](float x) { return std::cos(x); }, [](double x) { return std::cos(x); });
    case K::Erf:
      return math_unary(
          a, re, [](float x) { return std::erf(x); }, [](double x) { return std::erf(x); });
    case K::Tanh:
      return math_unary(
          a, re, [](float x) { return std::tanh(x); }, [](double x) { return std::tanh(x); });
    case K::ExtIntrinsic:
      return eval_ext_intrinsic(op, in, sfu_prec_bits);
    case K::AbsI: {
      RV r;
      r.i.resize(a.i.size());
      for (size_t k = 0; k < a.i.size(); ++k)
        r.i[k] = wrap_to(
            re, a.i[k] < 0 ? static_cast<int64_t>(0 - static_cast<uint64_t>(a.i[k])) : a.i[k]);
      return r;
    }
    case K::Fma: {
      RV r;
      r.is_float = true;
      r.f.resize(n);
      const RV &b = *in[1], &c = *in[2];
      for (size_t k = 0; k < n; ++k) {
        double x = a.f[at(a, k)], y = b.f[at(b, k)], z = c.f[at(c, k)];
        r.f[k] = re == Elem::F64
                     ? std::fma(x, y, z)
                     : round_to(re, std::fma(static_cast<float>(x), static_cast<float>(y),
                                             static_cast<float>(z)));
      }
      return r;
    }
    case K::CmpI:
    case K::CmpF: {
      const std::string &p = op.str_attr("predicate");
      const RV &b = *in[1];
      RV r;
      r.i.resize(n);
      if (op.kind == K::CmpI)
        for (size_t k = 0; k < n; ++k) r.i[k] = cmp_int(p, a.i[at(a, k)], b.i[at(b, k)], ie);
      else
        for (size_t k = 0; k < n; ++k) r.i[k] = cmp_float(p, a.f[at(a, k)], b.f[at(b, k)]);
      return r;
    }
    case K::Select: {
      const RV &t = *in[1], &f = *in[2];
      RV r;
      r.is_float = t.is_float;
      if (r.is_float) {
        r.f.resize(n);
        for (size_t k = 0; k < n; ++k) r.f[k] = a.i[at(a, k)] ? t.f[at(t, k)] : f.f[at(f, k)];
      } else {
        r.i.resize(n);
        for (size_t k = 0; k < n; ++k) r.i[k] = a.i[at(a, k)] ? t.i[at(t, k)] : f.i[at(f, k)];
      }
      return r;
    }
    case K::ExtSI:
    case K::TruncI:
    case K::IntToPtr:
    case K::PtrToInt: {
      RV r;
      r.i.resize(a.i.size());
      for (size_t k = 0; k < a.i.size(); ++k) r.i[k] = wrap_to(re, a.i[k]);
      return r;
    }
    case K::ExtUI: {
      RV r;
      r.i.resize(a.i.size());
      for (size_t k = 0; k < a.i.size(); ++k)
        r.i[k] = wrap_to(re, static_cast<int64_t>(as_unsigned(ie, a.i[k])));
      return r;
    }
    case K::SIToFP:
    case K::UIToFP: {
      RV r;
      r.is_float = true;
      r.f.resize(a.i.size());
      for (size_t k = 0; k < a.i.size(); ++k) {
        if (op.kind == K::UIToFP || ie == Elem::I1) {
          uint64_t u = as_unsigned(ie, a.i[k]);
          // Round once: float/half from a 64-bit integer via long double keeps it exact enough.
          r.f[k] = re == Elem::F64 ? static_cast<double>(u)
                                   : round_to(re, static_cast<double>(static_cast<float>(u)));
        } else {
          r.f[k] = re == Elem::F64 ? static_cast<double>(a.i[k])
                                   : round_to(re, static_cast<double>(static_cast<float>(a.i[k])));
        }
      }
      return r;
    }
    case K::FPToSI:
    case K::FPToUI: {
      RV r;
      r.i.resize(a.f.size());
      for (size_t k = 0; k < a.f.size(); ++k) r.i[k] = fp_to_int(a.f[k], re, op.kind == K::FPToUI);
      return r;
    }
    case K::ExtF:
    case K::TruncF: {
      RV r;
      r.is_float = true;
      r.f.resize(a.f.size());
      // f64 -> f16/bf16 rounds once through the exact fp32 route only when
      // representable; otherwise round directly in two steps as the device does.
      for (size_t k = 0; k < a.f.size(); ++k) r.f[k] = round_to(re, a.f[k]);
      return r;
    }
    case K::Bitcast: {
      const Type &it = op.operands[0]->type;
      RV r;
      if (it.is_float() && rt.is_float()) {
        r.is_float = true;
        for (double x : a.f) r.f.push_back(bits_float(re, float_bits(ie, x)));
      } else if (it.is_float()) {
        for (double x : a.f) r.i.push_back(wrap_to(re, static_cast<int64_t>(float_bits(ie, x))));
      } else if (rt.is_float()) {
        r.is_float = true;
        for (int64_t x : a.i) r.f.push_back(bits_float(re, as_unsigned(ie, x)));
      } else {
        for (int64_t x : a.i) r.i.push_back(wrap_to(re, x));
      }
      return r;
    }
    default:
      throw Error("interpreter: " + op.describe() + " is not an element-wise operation");
  }
}

}  // namespace opforge::ttir::interp
