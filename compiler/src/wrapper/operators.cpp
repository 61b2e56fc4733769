//===- operators.cpp - wrapper interpreter: operators, attributes, indexing -===//
#include <cmath>

#include "interp_impl.h"

namespace opforge::compiler {

using namespace ast;
using T = Value::T;

namespace {

int64_t as_i(const Value &v) { return v.t == T::Bool ? static_cast<int64_t>(v.b) : v.i; }
double as_f(const Value &v) { return v.t == T::Float ? v.f : static_cast<double>(as_i(v)); }

int64_t floordiv(int64_t a, int64_t b) {
  int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
  return q;
}
int64_t pymod(int64_t a, int64_t b) {
  int64_t r = a % b;
  if (r != 0 && ((r < 0) != (b < 0))) r += b;
  return r;
}

}  // namespace

Value WrapperInterpreter::Impl::binop(BinOpKind op, const Value &a, const Value &b, SourceLoc loc) {
  auto type_error = [&]() -> Value {
    fail(loc, "TypeError: unsupported operand type(s) for " + std::string(op_symbol(op)) + ": '" +
                  type_name(a) + "' and '" + type_name(b) + "'");
  };
  if (a.t == T::Tensor || b.t == T::Tensor)
    fail(loc, "arithmetic on tensors ('" + std::string(op_symbol(op)) +
                  "') runs an ATen op on the device; wrappers must compute with Triton kernels");
  if (a.is_num() && b.is_num()) {
    bool ints = a.is_int_like() && b.is_int_like();
    if (ints) {
      int64_t x = as_i(a), y = as_i(b), r = 0;
      switch (op) {
        case BinOpKind::Add:
          if (__builtin_add_overflow(x, y, &r)) break;
          return Value::integer(r);
        case BinOpKind::Sub:
          if (__builtin_sub_overflow(x, y, &r)) break;
          return Value::integer(r);
        case BinOpKind::Mult:
          if (__builtin_mul_overflow(x, y, &r)) break;
          return Value::integer(r);
        case BinOpKind::Div:
          if (y == 0) fail(loc, "ZeroDivisionError: division by zero");
          return Value::floating(static_cast<double>(x) / static_cast<double>(y));
        case BinOpKind::FloorDiv:
          if (y == 0) fail(loc, "ZeroDivisionError: integer division or modulo by zero");
          if (x == INT64_MIN && y == -1) break;
          return Value::integer(floordiv(x, y));
        case BinOpKind::Mod:
          if (y == 0) fail(loc, "ZeroDivisionError: integer division or modulo by zero");
          if (y == -1) return Value::integer(0);
          return Value::integer(pymod(x, y));
        case BinOpKind::Pow: {
          if (y < 0)
            return Value::floating(std::pow(static_cast<double>(x), static_cast<double>(y)));
          int64_t result = 1;
          for (int64_t k = 0; k < y; ++k) {
            if (__builtin_mul_overflow(result, x, &result)) {
              fail(loc, "OverflowError: integer result of ** does not fit in int64");
            }
            if (result == 0 || result == 1) break;
          }
          return Value::integer(result);
        }
        case BinOpKind::LShift:
          if (y < 0) fail(loc, "ValueError: negative shift count");
          if (y >= 63 || (x != 0 && (std::abs(x) >> (63 - y)) != 0)) break;
          return Value::integer(x << y);
        case BinOpKind::RShift:
          if (y < 0) fail(loc, "ValueError: negative shift count");
          return Value::integer(y >= 64 ? (x < 0 ? -1 : 0) : x >> y);
        case BinOpKind::BitAnd:
          if (a.t == T::Bool && b.t == T::Bool) return Value::boolean(a.b && b.b);
          return Value::integer(x & y);
        case BinOpKind::BitOr:
          if (a.t == T::Bool && b.t == T::Bool) return Value::boolean(a.b || b.b);
          return Value::integer(x | y);
        case BinOpKind::BitXor:
          if (a.t == T::Bool && b.t == T::Bool) return Value::boolean(a.b != b.b);
          return Value::integer(x ^ y);
        case BinOpKind::MatMult:
          return type_error();
      }
      fail(loc, "OverflowError: integer result of '" + std::string(op_symbol(op)) +
                    "' does not fit in int64");
    }
    double x = as_f(a), y = as_f(b);
    switch (op) {
      case BinOpKind::Add:
        return Value::floating(x + y);
      case BinOpKind::Sub:
        return Value::floating(x - y);
      case BinOpKind::Mult:
        return Value::floating(x * y);
      case BinOpKind::Div:
        if (y == 0) fail(loc, "ZeroDivisionError: float division by zero");
        return Value::floating(x / y);
      case BinOpKind::FloorDiv:
        if (y == 0) fail(loc, "ZeroDivisionError: float floor division by zero");
        return Value::floating(std::floor(x / y));
      case BinOpKind::Mod: {
        if (y == 0) fail(loc, "ZeroDivisionError: float modulo");
        double r = std::fmod(x, y);
        if (r != 0 && ((r < 0) != (y < 0))) r += y;
        return Value::floating(r);
      }
      case BinOpKind::Pow:
        return Value::floating(std::pow(x, y));
      default:
        return type_error();
    }
  }
  if (op == BinOpKind::Add && a.t == b.t && (a.t == T::List || a.t == T::Tuple)) {
    charge_steps(loc, static_cast<int64_t>(a.items->size() + b.items->size()));
    ValueList out = *a.items;
    out.insert(out.end(), b.items->begin(), b.items->end());
    return a.t == T::List ? Value::list(std::move(out)) : Value::tuple(std::move(out));
  }
  if (op == BinOpKind::Add && a.t == T::Str && b.t == T::Str) {
    charge_steps(loc, static_cast<int64_t>(a.s.size() + b.s.size()));
    return Value::str(a.s + b.s);
  }
  if (op == BinOpKind::Mult && (((a.is_seq() || a.t == T::Str) && b.is_int_like()) ||
                                ((b.is_seq() || b.t == T::Str) && a.is_int_like()))) {
    const Value &seq = a.is_int_like() ? b : a;
    int64_t n = as_i(a.is_int_like() ? a : b);
    if (n > 0 &&
        static_cast<int64_t>(seq.t == T::Str ? seq.s.size() : seq.items->size()) * n > 10'000'000)
      fail(loc, "MemoryError: sequence repetition is too large");
    if (n > 0)
      charge_steps(loc,
                   static_cast<int64_t>(seq.t == T::Str ? seq.s.size() : seq.items->size()) * n);
    if (seq.t == T::Str) {
      std::string out;
      for (int64_t k = 0; k < n; ++k) out += seq.s;
      return Value::str(out);
    }
    ValueList out;
    for (int64_t k = 0; k < n; ++k) out.insert(out.end(), seq.items->begin(), seq.items->end());
    return seq.t == T::List ? Value::list(std::move(out)) : Value::tuple(std::move(out));
  }
  if (op == BinOpKind::Mod && a.t == T::Str) {
    // printf-style formatting for messages: each %s/%d/%r takes the next argument.
    ValueList vals = b.t == T::Tuple ? *b.items : ValueList{b};
    std::string out;
    size_t k = 0;
    for (size_t i = 0; i < a.s.size(); ++i) {
      if (a.s[i] != '%' || i + 1 >= a.s.size()) {
        out += a.s[i];
        continue;
      }
      char c = a.s[++i];
      if (c == '%') {
        out += '%';
        continue;
      }
      if (k >= vals.size()) fail(loc, "TypeError: not enough arguments for format string");
      out += c == 'r' ? repr(vals[k++]) : str_of(vals[k++]);
    }
    return Value::str(out);
  }
  return type_error();
}

bool WrapperInterpreter::Impl::equals(const Value &a, const Value &b) {
  if (a.is_num() && b.is_num()) {
    if (a.t == T::Float || b.t == T::Float) return as_f(a) == as_f(b);
    return as_i(a) == as_i(b);
  }
  if (a.t != b.t) {
    if (a.is_seq() && b.is_seq()) return false;  // list != tuple in Python
    return false;
  }
  switch (a.t) {
    case T::None:
    case T::Ellipsis:
      return true;
    case T::Str:
    case T::Device:
    case T::Module:
    case T::Type:
    case T::Builtin:
      return a.s == b.s;
    case T::DType:
      return a.dtype == b.dtype;
    case T::List:
    case T::Tuple:
    case T::Dict:
    case T::Config: {
      if (a.items->size() != b.items->size()) return false;
      for (size_t i = 0; i < a.items->size(); ++i)
        if (!equals((*a.items)[i], (*b.items)[i])) return false;
      return true;
    }
    case T::Tensor:
      return a.tensor == b.tensor;
    case T::Function:
    case T::Kernel:
      return a.fn == b.fn;
    default:
      return false;
  }
}

bool WrapperInterpreter::Impl::compare(CmpOpKind op, const Value &a, const Value &b,
                                       SourceLoc loc) {
  switch (op) {
    case CmpOpKind::Eq:
      return equals(a, b);
    case CmpOpKind::NotEq:
      return !equals(a, b);
    case CmpOpKind::Is:
    case CmpOpKind::IsNot: {
      bool same;
      if (a.t != b.t)
        same = false;
      else if (a.t == T::None || a.t == T::Ellipsis)
        same = true;
      else if (a.t == T::Tensor)
        same = a.tensor == b.tensor;
      else if (a.t == T::List || a.t == T::Dict)
        same = a.items == b.items;
      else
        same = equals(a, b);
      return op == CmpOpKind::Is ? same : !same;
    }
    case CmpOpKind::In:
    case CmpOpKind::NotIn: {
      bool found = false;
      if (b.t == T::Str) {
        if (a.t != T::Str)
          fail(loc,
               "TypeError: 'in <string>' requires string as left operand, not " + type_name(a));
        found = b.s.find(a.s) != std::string::npos;
      } else if (b.t == T::Dict) {
        for (size_t i = 0; i < b.items->size(); i += 2) found |= equals((*b.items)[i], a);
      } else if (b.t == T::Range) {
        if (a.is_int_like()) {
          int64_t x = as_i(a);
          found = b.r_step > 0 ? (x >= b.i && x < b.r_stop) : (x <= b.i && x > b.r_stop);
          found = found && (x - b.i) % b.r_step == 0;
        }
      } else {
        for (auto &x : iterate(b, loc)) found |= equals(x, a);
      }
      return op == CmpOpKind::In ? found : !found;
    }
    default:
      break;
  }
  auto order = [&](int c) {
    switch (op) {
      case CmpOpKind::Lt:
        return c < 0;
      case CmpOpKind::LtE:
        return c <= 0;
      case CmpOpKind::Gt:
        return c > 0;
      default:
        return c >= 0;
    }
  };
  if (a.is_num() && b.is_num()) {
    if (a.t == T::Float || b.t == T::Float) {
      double x = as_f(a), y = as_f(b);
      if (std::isnan(x) || std::isnan(y)) return false;
      return order(x < y ? -1 : x > y ? 1 : 0);
    }
    int64_t x = as_i(a), y = as_i(b);
    return order(x < y ? -1 : x > y ? 1 : 0);
  }
  if (a.t == T::Str && b.t == T::Str) return order(a.s.compare(b.s));
  if (a.t == b.t && a.is_seq()) {
    size_t n = std::min(a.items->size(), b.items->size());
    for (size_t i = 0; i < n; ++i) {
      if (equals((*a.items)[i], (*b.items)[i])) continue;
      return order(compare(CmpOpKind::Lt, (*a.items)[i], (*b.items)[i], loc) ? -1 : 1);
    }
    return order(a.items->size() < b.items->size()   ? -1
                 : a.items->size() > b.items->size() ? 1
                                                     : 0);
  }
  if (a.t == T::Tensor || b.t == T::Tensor)
    fail(loc,
         "comparing tensors runs an ATen op on the device; wrappers must compute with Triton "
         "kernels");
  fail(loc, "TypeError: '" + std::string(op_symbol(op)) + "' not supported between instances of '" +
                type_name(a) + "' and '" + type_name(b) + "'");
}

Value WrapperInterpreter::Impl::get_attr(const Value &v, const std::string &name, SourceLoc loc) {
  switch (v.t) {
    case T::Module:
      return module_attr(v.s, name, loc);
    case T::Tensor:
      return tensor_attr(v, name, loc);
    case T::DType: {
      if (name == "is_floating_point") return Value::boolean(dtype_is_float(v.dtype));
      if (name == "itemsize") return Value::integer(dtype_size(v.dtype));
      if (name == "is_signed")
        return Value::boolean(dtype_is_signed_int(v.dtype) || dtype_is_float(v.dtype));
      break;
    }
    case T::Device:
      if (name == "type") return Value::str(v.s.substr(0, v.s.find(':')));
      if (name == "index") return Value::none();
      break;
    case T::List:
    case T::Tuple:
    case T::Dict:
    case T::Str:
      return Value::method(v, name);
    case T::Config:
      return config_attr(v, name, loc);
    case T::Kernel:
      if (name == "fn") return v;
      if (extension) return Value::method(v, name);
      fail(loc, "attribute '" + name +
                    "' of a @triton.jit function is not available in wrappers; launch it with "
                    "kernel[grid](...)");
    default:
      break;
  }
  fail(loc, "AttributeError: '" + type_name(v) + "' object has no attribute '" + name + "'");
}

Value WrapperInterpreter::Impl::subscript(const Value &v, const Value &index, SourceLoc loc) {
  if (v.t == T::Tensor) return tensor_index(v, index, loc);
  if (v.t == T::Dict) {
    for (size_t i = 0; i < v.items->size(); i += 2)
      if (equals((*v.items)[i], index)) return (*v.items)[i + 1];
    fail(loc, "KeyError: " + repr(index));
  }
  if (v.is_seq() || v.t == T::Str || v.t == T::Range) {
    ValueList items = v.t == T::Str || v.t == T::Range ? iterate(v, loc) : ValueList{};
    const ValueList &seq = v.is_seq() ? *v.items : items;
    int64_t n = static_cast<int64_t>(seq.size());
    if (index.t == T::Slice) {
      int64_t step =
          index.s_step && index.s_step->t != T::None ? to_int(*index.s_step, loc, "slice step") : 1;
      if (step == 0) fail(loc, "ValueError: slice step cannot be zero");
      auto bound = [&](const std::shared_ptr<Value> &b, int64_t dflt) {
        if (!b || b->t == T::None) return dflt;
        int64_t x = to_int(*b, loc, "slice index");
        if (x < 0) x += n;
        if (step > 0) return std::clamp<int64_t>(x, 0, n);
        return std::clamp<int64_t>(x, -1, n - 1);
      };
      int64_t start = bound(index.s_lower, step > 0 ? 0 : n - 1);
      int64_t stop = bound(index.s_upper, step > 0 ? n : -1);
      ValueList out;
      for (int64_t k = start; step > 0 ? k < stop : k > stop; k += step)
        out.push_back(seq[static_cast<size_t>(k)]);
      if (v.t == T::Str) {
        std::string s;
        for (auto &c : out) s += c.s;
        return Value::str(s);
      }
      return v.t == T::List ? Value::list(std::move(out)) : Value::tuple(std::move(out));
    }
    int64_t i = to_int(index, loc, "index");
    if (i < 0) i += n;
    if (i < 0 || i >= n) fail(loc, "IndexError: " + type_name(v) + " index out of range");
    return seq[static_cast<size_t>(i)];
  }
  fail(loc, "TypeError: '" + type_name(v) + "' object is not subscriptable");
}

}  // namespace opforge::compiler
