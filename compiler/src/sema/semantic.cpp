//===- semantic.cpp - Triton's semantic.py: promotion, casts, arithmetic ---===//
#include "semantic.h"

#include <cmath>
#include <limits>

namespace opforge::compiler::sema {
using ttir::OpKind;

namespace {
bool is_pow2(int64_t v) { return v > 0 && (v & (v - 1)) == 0; }
std::string shape_str(const std::vector<int64_t> &s) {
  std::string r = "[";
  for (size_t i = 0; i < s.size(); ++i) r += (i ? ", " : "") + std::to_string(s[i]);
  return r + "]";
}
}  // namespace

LType Semantic::number_type(const SValue &v) {
  switch (v.kind) {
    case SValue::Kind::Bool:
      return LType::scalar(Sc::I1);
    case SValue::Kind::Int: {
      int64_t x = v.i;
      if (x >= -(int64_t(1) << 31) && x < (int64_t(1) << 31)) return LType::scalar(Sc::I32);
      if (x >= (int64_t(1) << 31) && x < (int64_t(1) << 32)) return LType::scalar(Sc::U32);
      return LType::scalar(Sc::I64);
    }
    case SValue::Kind::Float: {
      double a = std::fabs(v.f);
      const double min_f32 = std::ldexp(1.0, -126),
                   max_f32 = (2 - std::ldexp(1.0, -23)) * std::ldexp(1.0, 127);
      if (std::isinf(a) || a == 0.0 || std::isnan(v.f) || (a >= min_f32 && a <= max_f32))
        return LType::scalar(Sc::F32);
      return LType::scalar(Sc::F64);
    }
    case SValue::Kind::Tensor:
      return v.type;
    default:
      fail("cannot use " + v.repr() + " as a tensor value");
  }
}

SValue Semantic::constant(const SValue &number, const LType &t) {
  if (sc_is_fp8(t.sc)) return f32_to_fp8(constant(number, t.with_sc(Sc::F32)), t.sc);
  ttir::Type it = t.ir();
  if (t.is_float()) {
    double d = number.kind == SValue::Kind::Float ? number.f
               : number.kind == SValue::Kind::Int ? static_cast<double>(number.i)
                                                  : number.b;
    return T(b_.float_const(d, it), t);
  }
  if (t.is_ptr()) fail("cannot make a pointer constant");
  if (number.kind == SValue::Kind::Float && !std::isfinite(number.f))
    fail(std::string("cannot convert float ") + (std::isnan(number.f) ? "NaN" : "infinity") +
         " to integer (" + t.str() + ")");
  if (number.kind == SValue::Kind::Float && std::fabs(number.f) >= 9.2e18)
    fail("float value " + number.repr() + " does not fit " + t.str());
  int64_t x = number.kind == SValue::Kind::Int    ? number.i
              : number.kind == SValue::Kind::Bool ? number.b
                                                  : static_cast<int64_t>(number.f);
  if (t.is_bool()) x = x != 0;
  return T(b_.int_const(x, it), t);
}

SValue Semantic::to_tensor(const SValue &v) {
  if (v.is_tensor()) return v;
  if (!v.is_number()) fail("cannot convert " + v.repr() + " to a tensor");
  return constant(v, number_type(v));
}

SValue Semantic::full(const std::vector<int64_t> &shape, const SValue &value, const LType &dtype) {
  for (auto d : shape)
    if (!is_pow2(d)) fail("Shape element " + std::to_string(d) + " must be a power of 2");
  if (value.is_tensor()) {
    SValue v = cast(value, dtype.elem());
    return shape.empty() ? v : broadcast_to(v, shape);
  }
  return constant(value, dtype.elem().with_shape(shape));
}

SValue Semantic::cast(const SValue &vin, const LType &dst_in, bool bitcast) {
  SValue v = to_tensor(vin);
  LType src = v.type.elem();
  LType dst = dst_in.elem();
  const auto &shape = v.type.shape;
  LType rt = dst.with_shape(shape);
  if (src == dst) return v;
  if (!bitcast && sc_is_fp8(src.sc)) return cast(fp8_to_f32(v), dst);
  if (!bitcast && sc_is_fp8(dst.sc)) return f32_to_fp8(cast(v, LType::scalar(Sc::F32)), dst.sc);
  if (bitcast) {
    if (src.bits() != dst.bits())
      fail("Cannot bitcast data-type of size " + std::to_string(src.bits()) +
           " to data-type of size " + std::to_string(dst.bits()));
    if (src.ir() == dst.ir()) return T(v.value, rt);
    return T(b_.create1(OpKind::Bitcast, {v.value}, rt.ir()), rt);
  }
  if (src.is_float() && dst.is_float()) {
    if ((src.sc == Sc::F16 && dst.sc == Sc::BF16) || (src.sc == Sc::BF16 && dst.sc == Sc::F16))
      return cast(cast(v, LType::scalar(Sc::F32)), dst);
    OpKind k = dst.bits() > src.bits() ? OpKind::ExtF : OpKind::TruncF;
    return T(b_.create1(k, {v.value}, rt.ir()), rt);
  }
  if (src.is_int() && dst.is_int()) {
    if (dst.is_bool()) return compare(CmpKind::Ne, v, SValue::integer(0));
    if (src.bits() == dst.bits()) return T(v.value, rt);
    if (dst.bits() < src.bits()) return T(b_.create1(OpKind::TruncI, {v.value}, rt.ir()), rt);
    bool sext = src.is_signed() && !src.is_bool();
    return T(b_.create1(sext ? OpKind::ExtSI : OpKind::ExtUI, {v.value}, rt.ir()), rt);
  }
  if (src.is_float() && dst.is_int()) {
    if (dst.is_bool()) return compare(CmpKind::Ne, v, SValue::floating(0.0));
    return T(b_.create1(dst.is_signed() ? OpKind::FPToSI : OpKind::FPToUI, {v.value}, rt.ir()), rt);
  }
  if (src.is_int() && dst.is_float()) {
    bool unsigned_src = src.is_bool() || src.is_unsigned();
    return T(b_.create1(unsigned_src ? OpKind::UIToFP : OpKind::SIToFP, {v.value}, rt.ir()), rt);
  }
  if (src.is_ptr() && dst.is_int()) {
    SValue i64 =
        T(b_.create1(OpKind::PtrToInt, {v.value}, LType::scalar(Sc::I64).with_shape(shape).ir()),
          LType::scalar(Sc::I64).with_shape(shape));
    if (dst.is_bool()) return compare(CmpKind::Ne, i64, SValue::integer(0));
    return cast(i64, dst);
  }
  if (src.is_int() && dst.is_ptr()) {
    SValue i64 = cast(v, LType::scalar(Sc::I64));
    return T(b_.create1(OpKind::IntToPtr, {i64.value}, rt.ir()), rt);
  }
  if (src.is_ptr() && dst.is_ptr()) {
    if (src.ir() == dst.ir()) return T(v.value, rt);
    return T(b_.create1(OpKind::Bitcast, {v.value}, rt.ir()), rt);
  }
  fail("unsupported cast from " + src.str() + " to " + dst.str());
}

SValue Semantic::broadcast_to(const SValue &vin, const std::vector<int64_t> &shape) {
  SValue v = to_tensor(vin);
  if (v.type.shape == shape) return v;
  if (!v.type.is_block()) {
    LType t = v.type.with_shape(shape);
    return T(b_.create1(OpKind::Splat, {v.value}, t.ir()), t);
  }
  auto src = v.type.shape;
  if (src.size() > shape.size())
    fail("Cannot broadcast, rank mismatch: " + shape_str(src) + ", " + shape_str(shape));
  while (src.size() < shape.size()) {
    v = expand_dims(v, 0);
    src = v.type.shape;
  }
  for (size_t i = 0; i < shape.size(); ++i)
    if (src[i] != shape[i] && src[i] != 1)
      fail("Cannot broadcast, the expanded size of the tensor (" + std::to_string(shape[i]) +
           ") must match the existing size (" + std::to_string(src[i]) +
           ") at non-singleton dimension " + std::to_string(i) + ": " + shape_str(src) + ", " +
           shape_str(shape));
  if (src == shape) return v;
  LType t = v.type.with_shape(shape);
  return T(b_.create1(OpKind::Broadcast, {v.value}, t.ir()), t);
}

std::pair<SValue, SValue> Semantic::broadcast(SValue a, SValue b) {
  a = to_tensor(a);
  b = to_tensor(b);
  const auto &as = a.type.shape, &bs = b.type.shape;
  if (as == bs) return {a, b};
  if (!a.type.is_block()) return {broadcast_to(a, bs), b};
  if (!b.type.is_block()) return {a, broadcast_to(b, as)};
  std::vector<int64_t> l = as, r = bs;
  while (l.size() < r.size()) l.insert(l.begin(), 1);
  while (r.size() < l.size()) r.insert(r.begin(), 1);
  std::vector<int64_t> out;
  for (size_t i = 0; i < l.size(); ++i) {
    if (l[i] == 1)
      out.push_back(r[i]);
    else if (r[i] == 1 || r[i] == l[i])
      out.push_back(l[i]);
    else
      fail("Cannot make_shape_compatible: incompatible dimensions at index " + std::to_string(i) +
           ": " + std::to_string(l[i]) + " and " + std::to_string(r[i]));
  }
  return {broadcast_to(a, out), broadcast_to(b, out)};
}

static int kind_rank(const LType &t) { return t.is_bool() ? 0 : t.is_int() ? 1 : 2; }

static LType integer_promote(const LType &a, const LType &b) {
  bool as = a.is_signed(), bs = b.is_signed();
  if (a.is_bool() && b.is_bool()) return a;
  if (as == bs || a.is_bool() || b.is_bool()) {
    if (a.is_bool()) return b;
    if (b.is_bool()) return a;
    return a.bits() >= b.bits() ? a : b;
  }
  const LType &u = as ? b : a, &s = as ? a : b;
  return u.bits() >= s.bits() ? u : s;
}

LType Semantic::computation_type(const LType &a, bool a_scalar, const LType &b, bool b_scalar,
                                 bool div_or_mod) {
  if (sc_is_fp8(a.sc) || sc_is_fp8(b.sc)) {
    // Triton computes fp8 with a wider float tensor in that float (the rules
    // below), fp8 with fp8 or with a Python number in fp8: the target has no
    // fp8 arithmetic.
    const LType &o = sc_is_fp8(a.sc) ? b : a;
    bool o_scalar = sc_is_fp8(a.sc) ? b_scalar : a_scalar;
    if (o_scalar || !o.is_float() || sc_is_fp8(o.sc))
      fail("arithmetic on " + (sc_is_fp8(a.sc) ? a : b).str() +
           " is not supported on the target "
           "(it has no fp8 arithmetic): convert with .to(tl.float32) first");
  }
  if (a_scalar != b_scalar) {
    const LType &sc = a_scalar ? a : b, &tt = a_scalar ? b : a;
    if (kind_rank(sc) <= kind_rank(tt)) {
      if (div_or_mod && (tt.sc == Sc::F16 || tt.sc == Sc::BF16)) return LType::scalar(Sc::F32);
      return tt.elem();
    }
  }
  if (a.sc == Sc::F64 || b.sc == Sc::F64) return LType::scalar(Sc::F64);
  if (a.sc == Sc::F32 || b.sc == Sc::F32) return LType::scalar(Sc::F32);
  if (a.sc == Sc::F16 || b.sc == Sc::F16) return LType::scalar(div_or_mod ? Sc::F32 : Sc::F16);
  if (a.sc == Sc::BF16 || b.sc == Sc::BF16) {
    if (div_or_mod) return LType::scalar(Sc::F32);
    if (a.sc == Sc::BF16 && b.sc == Sc::BF16) return LType::scalar(Sc::BF16);
    return LType::scalar(Sc::F32);
  }
  if (!a.is_int() || !b.is_int()) fail("unexpected type " + a.str() + " and " + b.str());
  if (div_or_mod && a.is_signed() != b.is_signed() && !a.is_bool() && !b.is_bool())
    fail("Cannot use /, //, or % with " + a.str() + " and " + b.str() +
         " because they have different signedness;this is unlikely to result in a useful answer. "
         "Cast them to the "
         "same signedness.");
  return integer_promote(a.elem(), b.elem());
}

std::pair<SValue, SValue> Semantic::binary_check(SValue a, SValue b, bool allow_lhs_ptr,
                                                 bool allow_rhs_ptr, bool arithmetic_check,
                                                 bool div_or_mod) {
  bool a_num = a.is_number(), b_num = b.is_number();
  SValue a_const = a, b_const = b;
  if (!a.is_tensor() && !a_num) fail("unsupported operand " + a.repr());
  if (!b.is_tensor() && !b_num) fail("unsupported operand " + b.repr());
  LType at = a_num ? number_type(a) : a.type.elem();
  LType bt = b_num ? number_type(b) : b.type.elem();
  auto check_ptr = [&](const LType &x, const LType &y, bool allow) {
    if (!x.is_ptr()) return;
    if (!allow || (y.is_ptr() && !(x == y)) || y.is_float())
      fail("invalid operands of type " + x.str() + " and " + y.str());
  };
  check_ptr(at, bt, allow_lhs_ptr);
  check_ptr(bt, at, allow_rhs_ptr);
  if (arithmetic_check && !at.is_ptr() && !bt.is_ptr()) {
    LType ret = computation_type(at, a_num, bt, b_num, div_or_mod);
    if (ret.is_unsigned() && ((a_num && a.kind == SValue::Kind::Int && a.i < 0) ||
                              (b_num && b.kind == SValue::Kind::Int && b.i < 0)))
      fail(
          "Cannot perform a binary operation between an unsigned tensor and a negative scalar. "
          "Perform a explicit "
          "cast on one of them.");
    a = a_num ? constant(a_const, ret) : cast(a, ret);
    b = b_num ? constant(b_const, ret) : cast(b, ret);
  } else {
    a = to_tensor(a);
    b = to_tensor(b);
  }
  return broadcast(a, b);
}

SValue Semantic::add(SValue a, SValue b) {
  auto [x, y] = binary_check(a, b, true, true, true, false);
  if (x.type.is_ptr() && y.type.is_ptr()) fail("cannot add pointers together");
  if (y.type.is_ptr()) std::swap(x, y);
  if (x.type.is_ptr())
    return T(b_.create1(OpKind::AddPtr, {x.value, y.value}, x.type.ir()), x.type);
  if (x.type.is_float())
    return T(b_.create1(OpKind::AddF, {x.value, y.value}, x.type.ir()), x.type);
  return T(b_.create1(OpKind::AddI, {x.value, y.value}, x.type.ir()), x.type);
}

SValue Semantic::sub(SValue a, SValue b) {
  auto [x, y] = binary_check(a, b, true, false, true, false);
  if (x.type.is_ptr())
    return T(b_.create1(OpKind::AddPtr, {x.value, neg(y).value}, x.type.ir()), x.type);
  if (x.type.is_float())
    return T(b_.create1(OpKind::SubF, {x.value, y.value}, x.type.ir()), x.type);
  return T(b_.create1(OpKind::SubI, {x.value, y.value}, x.type.ir()), x.type);
}

SValue Semantic::mul(SValue a, SValue b) {
  auto [x, y] = binary_check(a, b, false, false, true, false);
  OpKind k = x.type.is_float() ? OpKind::MulF : OpKind::MulI;
  return T(b_.create1(k, {x.value, y.value}, x.type.ir()), x.type);
}

SValue Semantic::truediv(SValue a, SValue b) {
  auto [x, y] = binary_check(a, b, false, false, true, true);
  LType xs = x.type.elem(), ys = y.type.elem();
  if (xs.is_float() && ys.is_int())
    y = cast(y, xs);
  else if (xs.is_int() && ys.is_float())
    x = cast(x, ys);
  else if (xs.is_int() && ys.is_int()) {
    x = cast(x, LType::scalar(Sc::F32));
    y = cast(y, LType::scalar(Sc::F32));
  } else if (xs.is_float() && ys.is_float() && !(xs == ys)) {
    if (xs.bits() > ys.bits())
      y = cast(y, xs);
    else
      x = cast(x, ys);
  }
  return T(b_.create1(OpKind::DivF, {x.value, y.value}, x.type.ir()), x.type);
}

SValue Semantic::floordiv(SValue a, SValue b) {
  auto [x, y] = binary_check(a, b, false, false, true, true);
  if (!x.type.is_int() || !y.type.is_int()) fail("unexpected type " + x.type.elem().str());
  OpKind k = x.type.is_signed() ? OpKind::DivSI : OpKind::DivUI;
  return T(b_.create1(k, {x.value, y.value}, x.type.ir()), x.type);
}

SValue Semantic::mod(SValue a, SValue b) {
  auto [x, y] = binary_check(a, b, false, false, true, true);
  OpKind k = x.type.is_float() ? OpKind::RemF : x.type.is_signed() ? OpKind::RemSI : OpKind::RemUI;
  return T(b_.create1(k, {x.value, y.value}, x.type.ir()), x.type);
}

SValue Semantic::bitwise(OpKind k, SValue a, SValue b) {
  auto [x, y] = binary_check(a, b, false, false, false, false);
  if (!x.type.is_int() || !y.type.is_int())
    fail("unexpected type " + (x.type.is_int() ? y.type : x.type).elem().str());
  LType rt = integer_promote(x.type.elem(), y.type.elem());
  x = cast(x, rt);
  y = cast(y, rt);
  return T(b_.create1(k, {x.value, y.value}, x.type.ir()), x.type);
}

SValue Semantic::shl(SValue a, SValue b) { return bitwise(OpKind::ShLI, a, b); }
SValue Semantic::shr(SValue a, SValue b) {
  auto [x, y] = binary_check(a, b, false, false, false, false);
  if (!x.type.is_int() || !y.type.is_int()) fail("unexpected type " + x.type.elem().str());
  LType rt = integer_promote(x.type.elem(), y.type.elem());
  x = cast(x, rt);
  y = cast(y, rt);
  OpKind k = rt.is_signed() ? OpKind::ShRSI : OpKind::ShRUI;
  return T(b_.create1(k, {x.value, y.value}, x.type.ir()), x.type);
}

SValue Semantic::compare(CmpKind k, SValue a, SValue b) {
  auto [x, y] = binary_check(a, b, false, false, true, false);
  LType rt = LType::scalar(Sc::I1).with_shape(x.type.shape);
  static const char *fp[] = {"olt", "ole", "ogt", "oge", "oeq", "une"};
  static const char *si[] = {"slt", "sle", "sgt", "sge", "eq", "ne"};
  static const char *ui[] = {"ult", "ule", "ugt", "uge", "eq", "ne"};
  int idx = static_cast<int>(k);
  if (x.type.is_float())
    return T(b_.create1(OpKind::CmpF, {x.value, y.value}, rt.ir(),
                        {{"predicate", std::string(fp[idx])}}),
             rt);
  bool is_unsigned = x.type.is_unsigned() || x.type.is_bool();
  return T(b_.create1(OpKind::CmpI, {x.value, y.value}, rt.ir(),
                      {{"predicate", std::string(is_unsigned ? ui[idx] : si[idx])}}),
           rt);
}

SValue Semantic::logical(bool is_and, SValue a, SValue b) {
  SValue x = to_tensor(a), y = to_tensor(b);
  if (!x.type.is_bool()) x = cast(x, LType::scalar(Sc::I1));
  if (!y.type.is_bool()) y = cast(y, LType::scalar(Sc::I1));
  return bitwise(is_and ? OpKind::AndI : OpKind::OrI, x, y);
}

SValue Semantic::neg(SValue a) {
  a = to_tensor(a);
  if (a.type.is_ptr()) fail("wrong type argument to unary minus (" + a.type.elem().str() + ")");
  return sub(constant(SValue::integer(0), a.type.elem()), a);
}

SValue Semantic::invert(SValue a) {
  a = to_tensor(a);
  if (!a.type.is_int()) fail("wrong type argument to unary invert (" + a.type.elem().str() + ")");
  SValue ones = constant(SValue::integer(-1), a.type.elem());
  if (a.type.is_bool()) ones = constant(SValue::boolean(true), a.type.elem());
  return bitwise(OpKind::XOrI, a, ones);
}

SValue Semantic::logical_not(SValue a) {
  a = to_tensor(a);
  if (a.type.is_bool()) return invert(a);
  return compare(CmpKind::Eq, a, a.type.is_float() ? SValue::floating(0) : SValue::integer(0));
}

SValue Semantic::maximum(SValue a, SValue b, bool propagate_nan) {
  auto [x, y] = binary_check(a, b, false, false, true, false);
  OpKind k = x.type.is_float() ? (propagate_nan ? OpKind::MaximumF : OpKind::MaxNumF)
                               : (x.type.is_signed() ? OpKind::MaxSI : OpKind::MaxUI);
  return T(b_.create1(k, {x.value, y.value}, x.type.ir()), x.type);
}

SValue Semantic::minimum(SValue a, SValue b, bool propagate_nan) {
  auto [x, y] = binary_check(a, b, false, false, true, false);
  OpKind k = x.type.is_float() ? (propagate_nan ? OpKind::MinimumF : OpKind::MinNumF)
                               : (x.type.is_signed() ? OpKind::MinSI : OpKind::MinUI);
  return T(b_.create1(k, {x.value, y.value}, x.type.ir()), x.type);
}

SValue Semantic::where(SValue c, SValue x, SValue y) {
  c = cast(to_tensor(c), LType::scalar(Sc::I1));
  // Triton: x, y = binary_op_type_checking_impl(x, y, ...) then broadcast everything.
  // Two fp8 tensors of one type: a select of their bits (fp8 has no arithmetic here).
  bool fp8_pair = x.is_tensor() && y.is_tensor() && sc_is_fp8(x.type.sc) && x.type.sc == y.type.sc;
  auto [xx, yy] = fp8_pair ? broadcast(x, y) : binary_check(x, y, true, true, true, false);
  if (c.type.is_block()) {
    std::tie(c, xx) = broadcast(c, xx);
    std::tie(xx, yy) = broadcast(xx, yy);
    std::tie(c, xx) = broadcast(c, xx);
  } else if (xx.type.is_block()) {
    // A scalar condition selects between whole blocks.
  }
  return T(b_.create1(OpKind::Select, {c.value, xx.value, yy.value}, xx.type.ir()), xx.type);
}

SValue Semantic::math(OpKind k, const std::string &name, SValue x, bool fp32_fp64_only) {
  x = to_tensor(x);
  if (fp32_fp64_only && x.type.sc != Sc::F32 && x.type.sc != Sc::F64)
    fail("Expected dtype ['fp32', 'fp64'] but got " + sc_name(x.type.sc) + " (in tl." + name + ")");
  if (!x.type.is_float())
    fail("Expected a floating-point dtype but got " + sc_name(x.type.sc) + " (in tl." + name + ")");
  return T(b_.create1(k, {x.value}, x.type.ir()), x.type);
}

SValue Semantic::abs(SValue x) {
  x = to_tensor(x);
  if (x.type.is_float()) return T(b_.create1(OpKind::AbsF, {x.value}, x.type.ir()), x.type);
  if (x.type.is_signed()) return T(b_.create1(OpKind::AbsI, {x.value}, x.type.ir()), x.type);
  if (x.type.is_int()) return x;
  fail("Unexpected dtype " + x.type.elem().str() + " for tl.abs");
}

SValue Semantic::fma(SValue x, SValue y, SValue z) {
  auto [a, b] = binary_check(x, y, false, false, true, false);
  auto [a2, c] = binary_check(a, z, false, false, true, false);
  auto [b2, c2] = binary_check(b, c, false, false, true, false);
  if (!a2.type.is_float())
    fail("tl.fma expects floating-point operands, got " + a2.type.elem().str());
  return T(b_.create1(OpKind::Fma, {a2.value, b2.value, c2.value}, a2.type.ir()), a2.type);
}

SValue Semantic::umulhi(SValue x, SValue y) {
  auto [a, b] = binary_check(x, y, false, false, true, false);
  if (!a.type.is_int()) fail("tl.umulhi expects integer operands, got " + a.type.elem().str());
  return T(b_.create1(OpKind::MulHiUI, {a.value, b.value}, a.type.ir()), a.type);
}

SValue Semantic::program_id(int axis) {
  if (axis < 0 || axis > 2)
    fail("program_id axis must be 0, 1, or 2 but got " + std::to_string(axis));
  return T(
      b_.create1(OpKind::ProgramId, {}, ttir::Type(ttir::Elem::I32), {{"axis", int64_t(axis)}}),
      LType::scalar(Sc::I32));
}
SValue Semantic::num_programs(int axis) {
  if (axis < 0 || axis > 2)
    fail("num_programs axis must be 0, 1, or 2 but got " + std::to_string(axis));
  return T(
      b_.create1(OpKind::NumPrograms, {}, ttir::Type(ttir::Elem::I32), {{"axis", int64_t(axis)}}),
      LType::scalar(Sc::I32));
}

SValue Semantic::arange(int64_t start, int64_t end) {
  if (start < std::numeric_limits<int32_t>::min() || end > std::numeric_limits<int32_t>::max())
    fail("arange's arguments must be within int32 range");
  if (end <= start) fail("arange's end argument must be greater than the start argument");
  int64_t range = end - start;
  if (!is_pow2(range)) fail("arange's range must be a power of 2");
  LType t = LType::scalar(Sc::I32).with_shape({range});
  return T(b_.create1(OpKind::MakeRange, {}, t.ir(), {{"start", start}, {"end", end}}), t);
}

SValue Semantic::expand_dims(SValue x, int64_t axis) {
  x = to_tensor(x);
  int rank = x.type.rank();
  if (axis < 0) axis += rank + 1;
  if (axis < 0 || axis > rank)
    fail("expand_dims axis " + std::to_string(axis) + " out of range for rank " +
         std::to_string(rank));
  auto s = x.type.shape;
  if (s.empty()) {
    LType t = x.type.with_shape({1});
    return T(b_.create1(OpKind::Splat, {x.value}, t.ir()), t);
  }
  s.insert(s.begin() + axis, 1);
  LType t = x.type.with_shape(s);
  return T(b_.create1(OpKind::ExpandDims, {x.value}, t.ir(), {{"axis", axis}}), t);
}

SValue Semantic::reshape(SValue x, const std::vector<int64_t> &shape) {
  x = to_tensor(x);
  int64_t n = 1;
  for (auto d : shape) n *= d;
  int64_t have = x.type.is_block() ? x.type.numel() : 1;
  for (auto d : shape)
    if (!is_pow2(d)) fail("Shape element " + std::to_string(d) + " must be a power of 2");
  if (n != have) fail("reshape() cannot change total number of elements in tensor");
  if (!x.type.is_block()) return broadcast_to(x, shape);
  LType t = x.type.with_shape(shape);
  return T(b_.create1(OpKind::Reshape, {x.value}, t.ir()), t);
}

SValue Semantic::permute(SValue x, const std::vector<int64_t> &order) {
  x = to_tensor(x);
  if (static_cast<int>(order.size()) != x.type.rank())
    fail("permute(): order must have one entry per dimension of the tensor (rank " +
         std::to_string(x.type.rank()) + ")");
  std::vector<int64_t> s;
  std::vector<bool> seen(order.size(), false);
  for (auto o : order) {
    if (o < 0 || o >= x.type.rank() || seen[o])
      fail("permute(): order must be a permutation of 0.." + std::to_string(x.type.rank() - 1));
    seen[o] = true;
    s.push_back(x.type.shape[o]);
  }
  LType t = x.type.with_shape(s);
  return T(b_.create1(OpKind::Trans, {x.value}, t.ir(), {{"order", order}}), t);
}

SValue Semantic::join(SValue a, SValue b) {
  auto [x, y] = broadcast(to_tensor(a), to_tensor(b));
  if (!(x.type == y.type))
    fail("join() requires both inputs to have the same type, got " + x.type.str() + " and " +
         y.type.str());
  auto s = x.type.shape;
  s.push_back(2);
  LType t = x.type.with_shape(s);
  return T(b_.create1(OpKind::Join, {x.value, y.value}, t.ir()), t);
}

SValue Semantic::split(SValue a) {
  a = to_tensor(a);
  if (a.type.shape.empty() || a.type.shape.back() != 2)
    fail("split() requires the last dimension to be 2, got " + a.type.str());
  auto s = a.type.shape;
  s.pop_back();
  LType t = a.type.with_shape(s);
  auto *op = b_.create(OpKind::Split, {a.value}, {t.ir(), t.ir()});
  return SValue::tuple({T(op->result(0), t), T(op->result(1), t)});
}

}  // namespace opforge::compiler::sema
