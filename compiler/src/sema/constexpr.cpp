//===- constexpr.cpp - Python semantics on compile-time constants ---------===//
#include <cmath>

#include "lower_ast.h"

namespace opforge::compiler::sema {
using K = SValue::Kind;

namespace {
bool is_intlike(const SValue &v) { return v.kind == K::Int || v.kind == K::Bool; }
int64_t ival(const SValue &v) { return v.kind == K::Bool ? v.b : v.i; }
double fval(const SValue &v) { return v.kind == K::Float ? v.f : static_cast<double>(ival(v)); }
int64_t py_floordiv(int64_t a, int64_t b) {
  int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
  return q;
}
int64_t py_mod(int64_t a, int64_t b) {
  int64_t r = a % b;
  if (r != 0 && ((r < 0) != (b < 0))) r += b;
  return r;
}
}  // namespace

SValue constexpr_binop(ast::BinOpKind op, const SValue &a, const SValue &b) {
  using O = ast::BinOpKind;
  if (a.kind == K::Tuple && b.kind == K::Tuple && op == O::Add) {
    auto e = a.elts;
    e.insert(e.end(), b.elts.begin(), b.elts.end());
    return SValue::tuple(e);
  }
  if (a.kind == K::Tuple && is_intlike(b) && op == O::Mult) {
    std::vector<SValue> e;
    for (int64_t i = 0; i < ival(b); ++i) e.insert(e.end(), a.elts.begin(), a.elts.end());
    return SValue::tuple(e);
  }
  if (a.kind == K::Str && b.kind == K::Str && op == O::Add) return SValue::str(a.s + b.s);
  if (!a.is_number() || !b.is_number())
    throw UserError("unsupported operand type(s) for " + std::string(ast::op_symbol(op)) + ": " +
                    a.repr() + " and " + b.repr());
  bool ints = is_intlike(a) && is_intlike(b);
  switch (op) {
    case O::Add:
      return ints ? SValue::integer(ival(a) + ival(b)) : SValue::floating(fval(a) + fval(b));
    case O::Sub:
      return ints ? SValue::integer(ival(a) - ival(b)) : SValue::floating(fval(a) - fval(b));
    case O::Mult:
      return ints ? SValue::integer(ival(a) * ival(b)) : SValue::floating(fval(a) * fval(b));
    case O::Div:
      if (fval(b) == 0) throw UserError("division by zero");
      return SValue::floating(fval(a) / fval(b));
    case O::FloorDiv:
      if (fval(b) == 0) throw UserError("integer division or modulo by zero");
      return ints ? SValue::integer(py_floordiv(ival(a), ival(b)))
                  : SValue::floating(std::floor(fval(a) / fval(b)));
    case O::Mod: {
      if (fval(b) == 0) throw UserError("integer division or modulo by zero");
      if (ints) return SValue::integer(py_mod(ival(a), ival(b)));
      double r = std::fmod(fval(a), fval(b));
      if (r != 0 && ((r < 0) != (fval(b) < 0))) r += fval(b);
      return SValue::floating(r);
    }
    case O::Pow:
      if (ints && ival(b) >= 0) {
        int64_t r = 1;
        for (int64_t i = 0; i < ival(b); ++i) r *= ival(a);
        return SValue::integer(r);
      }
      return SValue::floating(std::pow(fval(a), fval(b)));
    case O::LShift:
    case O::RShift:
    case O::BitAnd:
    case O::BitOr:
    case O::BitXor: {
      if (!ints)
        throw UserError("unsupported operand type(s) for " + std::string(ast::op_symbol(op)) +
                        ": 'float'");
      int64_t x = ival(a), y = ival(b);
      if (op == O::LShift)
        return SValue::integer(static_cast<int64_t>(static_cast<uint64_t>(x) << (y & 63)));
      if (op == O::RShift) return SValue::integer(x >> (y & 63));
      if (op == O::BitAnd)
        return a.kind == K::Bool && b.kind == K::Bool ? SValue::boolean(x & y)
                                                      : SValue::integer(x & y);
      if (op == O::BitOr)
        return a.kind == K::Bool && b.kind == K::Bool ? SValue::boolean(x | y)
                                                      : SValue::integer(x | y);
      return a.kind == K::Bool && b.kind == K::Bool ? SValue::boolean(x ^ y)
                                                    : SValue::integer(x ^ y);
    }
    case O::MatMult:
      break;
  }
  throw UserError("unsupported operand type(s) for " + std::string(ast::op_symbol(op)));
}

std::optional<bool> constexpr_compare(ast::CmpOpKind op, const SValue &a, const SValue &b) {
  using C = ast::CmpOpKind;
  if (op == C::Is || op == C::IsNot) {
    bool same = a.kind == b.kind && a.repr() == b.repr() &&
                (a.kind == K::None || a.kind == K::Bool || a.kind == K::DType);
    return op == C::Is ? same : !same;
  }
  if (op == C::In || op == C::NotIn) {
    if (b.kind != K::Tuple) return std::nullopt;
    bool found = false;
    for (auto &e : b.elts) found |= constexpr_compare(C::Eq, a, e).value_or(false);
    return op == C::In ? found : !found;
  }
  if (a.is_number() && b.is_number()) {
    bool ints = is_intlike(a) && is_intlike(b);
    auto cmp = [&](auto x, auto y) -> bool {
      switch (op) {
        case C::Eq:
          return x == y;
        case C::NotEq:
          return x != y;
        case C::Lt:
          return x < y;
        case C::LtE:
          return x <= y;
        case C::Gt:
          return x > y;
        case C::GtE:
          return x >= y;
        default:
          return false;
      }
    };
    return ints ? cmp(ival(a), ival(b)) : cmp(fval(a), fval(b));
  }
  if (op == C::Eq || op == C::NotEq) {
    bool eq = a.kind == b.kind && a.repr() == b.repr();
    return op == C::Eq ? eq : !eq;
  }
  if (a.kind == K::Str && b.kind == K::Str) {
    int c = a.s.compare(b.s);
    switch (op) {
      case C::Lt:
        return c < 0;
      case C::LtE:
        return c <= 0;
      case C::Gt:
        return c > 0;
      case C::GtE:
        return c >= 0;
      default:
        break;
    }
  }
  return std::nullopt;
}

}  // namespace opforge::compiler::sema
