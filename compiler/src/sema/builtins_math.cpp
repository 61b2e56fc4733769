//===- builtins_math.cpp - tl/tl.math/libdevice functions built from other ops ===//
//
// Functions with no ttir operation of their own, written with the existing
// ones so that the IR interpreter and the code generator support them
// without changes: log1p/expm1 (Goldberg's and Kahan's accurate forms),
// pow, tan, sinh, cosh, asin/acos/atan (Cephes' single-precision atanf
// polynomial), trunc, round (half away from zero), rint/nearbyint (half to
// even), isnan/isinf/signbit, neg, recip, fast_expf/fast_logf, fmod, the
// libdevice functions TorchInductor emits (log10, acosh, asinh, atanh, atan2,
// copysign, hypot, ldexp, llrint, erfc as 1 - erf, fast_tanhf, erfinv by Giles'
// single-precision polynomials, lgamma by Lanczos' series (g = 7, 9 terms) with
// the reflection formula below 0.5), and the tl
// functions softmax, xor_sum, ravel, interleave and assume.
//
//===----------------------------------------------------------------------===//
#include <cmath>

#include "lower_ast.h"

namespace opforge::compiler::sema {
using ttir::OpKind;
using K = SValue::Kind;

namespace {

// Argument `i` (or keyword `name`) of a call; None when absent.
SValue arg(const std::string &fn, const std::vector<SValue> &args, const Kwargs &kw, size_t i,
           const std::string &name, bool required) {
  if (i < args.size()) return args[i];
  for (auto &[k, v] : kw)
    if (k == name) return v;
  if (required) throw UserError(fn + "() missing 1 required positional argument: '" + name + "'");
  return SValue::none();
}

void check_arity(const std::string &fn, const std::vector<SValue> &args, const Kwargs &kw,
                 const std::vector<std::string> &names) {
  if (args.size() > names.size())
    throw UserError(fn + "() takes " + std::to_string(names.size()) + " positional arguments but " +
                    std::to_string(args.size()) + " were given");
  for (auto &[k, v] : kw) {
    (void)v;
    bool known = false;
    for (auto &n : names) known |= n == k;
    if (!known) throw UserError(fn + "() got an unexpected keyword argument '" + k + "'");
  }
}

SValue num(double v) { return SValue::floating(v); }

class Math {
 public:
  explicit Math(Semantic &s) : S(s) {}

  SValue fp(SValue x, const std::string &name) {
    x = S.to_tensor(x);
    if (x.type.sc != Sc::F32 && x.type.sc != Sc::F64)
      throw UserError("Expected dtype ['fp32', 'fp64'] but got " + sc_name(x.type.sc) + " (in tl." +
                      name + ")");
    return x;
  }
  SValue exp(SValue x) { return S.math(OpKind::Exp, "exp", x, true); }
  SValue log(SValue x) { return S.math(OpKind::Log, "log", x, true); }
  SValue eq(SValue a, SValue b) { return S.compare(CmpKind::Eq, a, b); }
  SValue lt(SValue a, SValue b) { return S.compare(CmpKind::Lt, a, b); }
  SValue inf() { return num(HUGE_VAL); }

  SValue log1p(SValue x) {
    SValue u = S.add(x, num(1)), d = S.sub(u, num(1));
    SValue r = S.mul(log(u), S.truediv(x, d));
    return S.where(eq(d, num(0)), x, S.where(eq(u, inf()), u, r));
  }
  SValue expm1(SValue x) {
    SValue u = exp(x), d = S.sub(u, num(1));
    SValue r = S.truediv(S.mul(d, x), log(u));
    r = S.where(eq(u, inf()), u, r);
    r = S.where(eq(d, num(-1)), d, r);
    return S.where(eq(d, num(0)), x, r);
  }
  SValue atan(SValue x) {
    SValue ax = S.abs(x);
    SValue big = lt(num(2.414213562373095), ax), mid = lt(num(0.4142135623730950), ax);
    SValue xr = S.where(big, S.truediv(num(-1), ax),
                        S.where(mid, S.truediv(S.sub(ax, num(1)), S.add(ax, num(1))), ax));
    SValue y0 = S.where(big, num(M_PI_2), S.where(mid, num(M_PI_4), num(0)));
    SValue z = S.mul(xr, xr);
    SValue p = S.sub(S.mul(num(8.05374449538e-2), z), num(1.38776856032e-1));
    p = S.add(S.mul(p, z), num(1.99777106478e-1));
    p = S.sub(S.mul(p, z), num(3.33329491539e-1));
    SValue r = S.add(y0, S.add(S.mul(S.mul(p, z), xr), xr));
    return S.where(lt(x, num(0)), S.neg(r), r);
  }
  SValue sqrt(SValue x) { return S.math(OpKind::Sqrt, "sqrt", x, true); }
  SValue asin(SValue x) {
    SValue c = sqrt(S.mul(S.sub(num(1), x), S.add(num(1), x)));
    // atan(x / c), with the signs of x kept for c == 0.
    return atan(S.truediv(x, c));
  }
  SValue acos(SValue x) {
    return S.mul(num(2), atan(sqrt(S.truediv(S.sub(num(1), x), S.add(num(1), x)))));
  }
  SValue trunc(SValue x) {
    return S.where(lt(x, num(0)), S.math(OpKind::Ceil, "ceil", x, true),
                   S.math(OpKind::Floor, "floor", x, true));
  }
  SValue round(SValue x) {
    SValue t = trunc(x);
    SValue step = S.where(lt(x, num(0)), num(-1), num(1));
    SValue away = S.compare(CmpKind::Ge, S.abs(S.sub(x, t)), num(0.5));
    return S.where(away, S.add(t, step), t);
  }
  SValue rint(SValue x) {
    double big = x.type.sc == Sc::F64 ? 4503599627370496.0 : 8388608.0;
    SValue ax = S.abs(x);
    SValue r = S.where(lt(ax, num(big)), S.sub(S.add(ax, num(big)), num(big)), ax);
    return S.where(lt(x, num(0)), S.neg(r), r);
  }
  SValue pow(SValue x, SValue y) {
    x = S.to_tensor(x);
    if (!y.is_tensor()) y = S.constant(y, x.type.elem());
    SValue r =
        S.math(OpKind::Exp2, "exp2", S.mul(y, S.math(OpKind::Log2, "log2", S.abs(x), true)), true);
    SValue fy = S.math(OpKind::Floor, "floor", y, true);
    SValue y_int = eq(fy, y);
    SValue half = S.mul(y, num(0.5));
    SValue odd = S.logical(
        true, y_int, S.compare(CmpKind::Ne, S.math(OpKind::Floor, "floor", half, true), half));
    SValue neg_x = S.where(y_int, S.where(odd, S.neg(r), r), num(std::nan("")));
    r = S.where(lt(x, num(0)), neg_x, r);
    r = S.where(eq(y, num(0)), num(1), r);
    return S.where(eq(x, num(1)), num(1), r);
  }

  SValue copysign(SValue x, SValue y) {
    LType bits = LType::scalar(x.type.sc == Sc::F64 ? Sc::I64 : Sc::I32);
    SValue negative =
        S.compare(CmpKind::Lt, S.cast(S.to_tensor(y), bits, true), SValue::integer(0));
    return S.where(negative, S.neg(S.abs(x)), S.abs(x));
  }
  // asinh/acosh of large arguments: log(2x) where x * x would overflow.
  SValue log_twice(SValue a) { return S.add(log(a), num(M_LN2)); }
  SValue asinh(SValue x) {
    SValue a = S.abs(x), a2 = S.mul(a, a);
    SValue r = log1p(S.add(a, S.truediv(a2, S.add(num(1), sqrt(S.add(num(1), a2))))));
    r = S.where(lt(num(1e18), a), log_twice(a), r);
    return copysign(r, x);
  }
  SValue acosh(SValue x) {
    SValue t = S.sub(x, num(1));
    SValue r = log1p(S.add(t, sqrt(S.mul(t, S.add(x, num(1))))));
    return S.where(lt(num(1e18), x), log_twice(x), r);
  }
  SValue atan2(SValue y, SValue x) {
    SValue r = atan(S.truediv(y, x));
    SValue half_turn = S.where(lt(y, num(0)), num(-M_PI), num(M_PI));
    r = S.where(lt(x, num(0)), S.add(r, half_turn), r);
    return S.where(S.logical(true, eq(x, num(0)), eq(y, num(0))), num(0), r);
  }
  SValue hypot(SValue x, SValue y) {
    SValue a = S.abs(x), b = S.abs(S.to_tensor(y));
    SValue big = S.where(lt(a, b), b, a), small = S.where(lt(a, b), a, b);
    SValue q = S.truediv(small, big);
    SValue r = S.mul(big, sqrt(S.add(num(1), S.mul(q, q))));
    r = S.where(eq(big, num(0)), num(0), r);
    return S.where(eq(big, inf()), inf(), r);
  }

  // Horner's rule: c[0] + w * (c[1] + w * (...)), c from the highest power down reversed.
  SValue poly(SValue w, const std::vector<double> &high_to_low) {
    SValue p = num(high_to_low[0]);
    for (size_t i = 1; i < high_to_low.size(); ++i) p = S.add(S.mul(p, w), num(high_to_low[i]));
    return p;
  }
  SValue erfinv(SValue x) {
    SValue w = S.neg(log(S.mul(S.sub(num(1), x), S.add(num(1), x))));
    SValue central = poly(S.sub(w, num(2.5)),
                          {2.81022636e-08, 3.43273939e-07, -3.5233877e-06, -4.39150654e-06,
                           0.00021858087, -0.00125372503, -0.00417768164, 0.246640727, 1.50140941});
    SValue tail = poly(S.sub(sqrt(w), num(3)),
                       {-0.000200214257, 0.000100950558, 0.00134934322, -0.00367342844,
                        0.00573950773, -0.0076224613, 0.00943887047, 1.00167406, 2.83297682});
    SValue r = S.mul(S.where(lt(w, num(5)), central, tail), x);
    SValue ax = S.abs(x);
    r = S.where(eq(ax, num(1)), S.mul(x, inf()), r);
    return S.where(lt(num(1), ax), num(std::nan("")), r);
  }
  SValue lgamma(SValue x) {
    static const double c[] = {0.99999999999980993,  676.5203681218851,     -1259.1392167224028,
                               771.32342877765313,   -176.61502916214059,   12.507343278686905,
                               -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7};
    SValue reflect = lt(x, num(0.5));
    SValue z = S.sub(S.where(reflect, S.sub(num(1), x), x), num(1));
    SValue a = num(c[0]);
    for (int i = 1; i < 9; ++i) a = S.add(a, S.truediv(num(c[i]), S.add(z, num(i))));
    SValue t = S.add(z, num(7.5));
    SValue l =
        S.add(S.add(num(0.91893853320467274), S.mul(S.add(z, num(0.5)), log(t))), S.sub(log(a), t));
    SValue s = S.abs(S.math(OpKind::Sin, "sin", S.mul(num(M_PI), x), true));
    SValue reflected = S.sub(log(S.truediv(num(M_PI), s)), l);
    SValue r = S.where(reflect, reflected, l);
    return S.where(eq(S.abs(x), inf()), inf(), r);
  }

  Semantic &S;
};

}  // namespace

std::optional<SValue> extra_builtin(Semantic &S, const std::string &n,
                                    const std::vector<SValue> &args, const Kwargs &kw) {
  static const std::set<std::string> unary = {
      "log1p",   "expm1", "tan",   "sinh",      "cosh",      "asin",  "acos",
      "atan",    "trunc", "round", "rint",      "nearbyint", "isnan", "isinf",
      "signbit", "neg",   "recip", "fast_expf", "fast_logf"};
  Math m(S);
  if (unary.count(n)) {
    check_arity(n, args, kw, {"x"});
    SValue x = arg(n, args, kw, 0, "x", true);
    if (n == "neg") return S.neg(x);
    x = m.fp(x, n);
    if (n == "log1p") return m.log1p(x);
    if (n == "expm1") return m.expm1(x);
    if (n == "tan")
      return S.truediv(S.math(OpKind::Sin, "sin", x, true), S.math(OpKind::Cos, "cos", x, true));
    if (n == "sinh") return S.mul(num(0.5), S.sub(m.expm1(x), m.expm1(S.neg(x))));
    if (n == "cosh") return S.mul(num(0.5), S.add(m.exp(x), m.exp(S.neg(x))));
    if (n == "asin") return m.asin(x);
    if (n == "acos") return m.acos(x);
    if (n == "atan") return m.atan(x);
    if (n == "trunc") return m.trunc(x);
    if (n == "round") return m.round(x);
    if (n == "rint" || n == "nearbyint") return m.rint(x);
    if (n == "isnan") return S.compare(CmpKind::Ne, x, x);
    if (n == "isinf") return m.eq(S.abs(x), m.inf());
    if (n == "signbit") {
      LType bits = LType::scalar(x.type.sc == Sc::F64 ? Sc::I64 : Sc::I32);
      return S.compare(CmpKind::Lt, S.cast(x, bits, true), SValue::integer(0));
    }
    if (n == "recip") return S.truediv(num(1), x);
    if (n == "fast_expf") return m.exp(x);
    return m.log(x);  // fast_logf
  }
  static const std::set<std::string> inductor_unary = {
      "log10", "acosh", "asinh", "atanh", "erfc", "llrint", "fast_tanhf", "erfinv", "lgamma"};
  if (inductor_unary.count(n)) {
    check_arity(n, args, kw, {"x"});
    SValue x = m.fp(arg(n, args, kw, 0, "x", true), n);
    if (n == "log10") return S.mul(m.log(x), num(1 / M_LN10));
    if (n == "acosh") return m.acosh(x);
    if (n == "asinh") return m.asinh(x);
    if (n == "atanh")
      return S.mul(num(0.5), m.log1p(S.truediv(S.mul(num(2), x), S.sub(num(1), x))));
    if (n == "erfc") return S.sub(num(1), S.math(OpKind::Erf, "erf", x, true));
    if (n == "llrint") return S.cast(m.rint(x), LType::scalar(Sc::I64), false);
    if (n == "erfinv") return m.erfinv(x);
    if (n == "lgamma") return m.lgamma(x);
    return S.math(OpKind::Tanh, "tanh", x, true);  // fast_tanhf
  }
  if (n == "atan2" || n == "copysign" || n == "hypot" || n == "ldexp") {
    check_arity(n, args, kw, {"x", "y"});
    SValue x = m.fp(arg(n, args, kw, 0, "x", true), n);
    SValue y = arg(n, args, kw, 1, "y", true);
    if (n == "ldexp") {  // x * 2**y (y an integer or float tensor or number)
      SValue e = y.is_tensor() ? S.cast(y, x.type.elem(), false) : S.constant(y, x.type.elem());
      return S.mul(x, S.math(OpKind::Exp2, "exp2", e, true));
    }
    if (!y.is_tensor()) y = S.constant(y, x.type.elem());
    if (n == "atan2") return m.atan2(x, y);
    if (n == "copysign") return m.copysign(x, y);
    return m.hypot(x, y);
  }
  if (n == "pow") {
    check_arity(n, args, kw, {"x", "y"});
    SValue x = m.fp(arg(n, args, kw, 0, "x", true), n);
    return m.pow(x, arg(n, args, kw, 1, "y", true));
  }
  if (n == "fmod") {  // libdevice.fmod: C semantics (the result has x's sign), as float %
    check_arity(n, args, kw, {"arg0", "arg1"});
    SValue x = S.to_tensor(arg(n, args, kw, 0, "arg0", true));
    SValue y = arg(n, args, kw, 1, "arg1", true);
    if (!x.type.is_float() || (y.is_tensor() && !y.type.is_float()))
      throw UserError("fmod() expects floating-point operands, got " + x.type.elem().str());
    return S.mod(x, y);
  }
  if (n == "softmax") {
    check_arity(n, args, kw, {"x", "ieee_rounding"});
    SValue x = S.to_tensor(arg(n, args, kw, 0, "x", true));
    if (!x.type.is_block()) throw UserError("softmax() expects a block, got " + x.type.str());
    // Triton: z = x - max(x, 0); num = exp(z); den = sum(num, 0); num / den.
    SValue z = S.sub(x, S.max_min(true, x, 0, false, false, true, nullptr));
    SValue e = S.math(OpKind::Exp, "exp", z, true);
    return S.truediv(e, S.sum(e, 0, false, nullptr));
  }
  if (n == "xor_sum") {
    check_arity(n, args, kw, {"input", "axis", "keep_dims"});
    SValue x = S.to_tensor(arg(n, args, kw, 0, "input", true));
    if (!x.type.is_int())
      throw UserError("xor_sum only supported for integers, got " + x.type.str());
    SValue ax = arg(n, args, kw, 1, "axis", false), kd = arg(n, args, kw, 2, "keep_dims", false);
    int64_t axis = 0;
    if (ax.kind == K::None)
      x = S.reshape(x, {x.type.is_block() ? x.type.numel() : 1});
    else if (ax.kind == K::Int)
      axis = ax.i;
    else
      throw UserError("axis must be a constexpr integer, got " + ax.repr());
    bool keep = kd.kind == K::Bool ? kd.b : kd.kind == K::Int ? kd.i != 0 : false;
    auto r = S.reduce({x}, axis, keep, [&S](const std::vector<SValue> &v) {
      return std::vector<SValue>{S.bitwise(OpKind::XOrI, v[0], v[1])};
    });
    return r.at(0);
  }
  if (n == "ravel") {
    check_arity(n, args, kw, {"x", "can_reorder"});
    SValue x = S.to_tensor(arg(n, args, kw, 0, "x", true));
    return S.reshape(x, {x.type.is_block() ? x.type.numel() : 1});
  }
  if (n == "interleave") {
    check_arity(n, args, kw, {"a", "b"});
    SValue j = S.join(arg(n, args, kw, 0, "a", true), arg(n, args, kw, 1, "b", true));
    auto shape = j.type.shape;
    shape.pop_back();
    if (shape.empty()) return j;
    shape.back() *= 2;
    return S.reshape(j, shape);
  }
  if (n == "assume") {
    check_arity(n, args, kw, {"cond"});
    arg(n, args, kw, 0, "cond", true);
    return SValue::none();
  }
  return std::nullopt;
}

}  // namespace opforge::compiler::sema
