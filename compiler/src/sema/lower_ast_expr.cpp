//===- lower_ast_expr.cpp - lowering expressions: names, operators, indexing ===//
#include "lower_ast.h"

#include <cmath>

namespace opforge::compiler::sema {
using ttir::OpKind;
using K = SValue::Kind;

SValue AstLowering::expr(const ast::Expr &e) {
  ttir::Location saved = b_.loc;
  b_.loc = {m_.file, e.loc.line, e.loc.col};
  try {
    SValue v = expr_impl(e);
    b_.loc = saved;
    return v;
  } catch (const UserError &err) {
    error(e.loc, err.what());
  }
}

SValue AstLowering::binop(ast::BinOpKind op, const SValue &a, const SValue &b) {
  using O = ast::BinOpKind;
  if (!a.is_tensor() && !b.is_tensor()) return constexpr_binop(op, a, b);
  switch (op) {
    case O::Add:
      return sem_.add(a, b);
    case O::Sub:
      return sem_.sub(a, b);
    case O::Mult:
      return sem_.mul(a, b);
    case O::Div:
      return sem_.truediv(a, b);
    case O::FloorDiv:
      return sem_.floordiv(a, b);
    case O::Mod:
      return sem_.mod(a, b);
    case O::BitAnd:
      return sem_.bitwise(OpKind::AndI, a, b);
    case O::BitOr:
      return sem_.bitwise(OpKind::OrI, a, b);
    case O::BitXor:
      return sem_.bitwise(OpKind::XOrI, a, b);
    case O::LShift:
      return sem_.shl(a, b);
    case O::RShift:
      return sem_.shr(a, b);
    case O::Pow:
      throw UserError(
          "the ** operator is not supported on tensors (use tl.exp2/tl.log2 or multiply)");
    case O::MatMult:
      throw UserError("the @ operator is not supported; use tl.dot");
  }
  throw UserError("unsupported binary operator");
}

SValue AstLowering::compare(ast::CmpOpKind op, const SValue &a, const SValue &b) {
  using C = ast::CmpOpKind;
  if (!a.is_tensor() && !b.is_tensor()) {
    auto r = constexpr_compare(op, a, b);
    if (!r)
      throw UserError("unsupported comparison " + std::string(ast::op_symbol(op)) + " between " +
                      a.repr() + " and " + b.repr());
    return SValue::boolean(*r);
  }
  // A tensor is never None (Inductor's `sorter_ptr is None`, `if_mask(mask, ...)`).
  if ((op == C::Is || op == C::IsNot) && (a.kind == K::None || b.kind == K::None))
    return SValue::boolean(op == C::IsNot);
  switch (op) {
    case C::Lt:
      return sem_.compare(CmpKind::Lt, a, b);
    case C::LtE:
      return sem_.compare(CmpKind::Le, a, b);
    case C::Gt:
      return sem_.compare(CmpKind::Gt, a, b);
    case C::GtE:
      return sem_.compare(CmpKind::Ge, a, b);
    case C::Eq:
      return sem_.compare(CmpKind::Eq, a, b);
    case C::NotEq:
      return sem_.compare(CmpKind::Ne, a, b);
    default:
      break;
  }
  throw UserError("'" + std::string(ast::op_symbol(op)) + "' is not supported on tensors");
}

SValue AstLowering::attribute(const SValue &base, const std::string &attr) {
  if (base.kind == K::Func && base.func.builtin) {
    std::string path = base.func.name + "." + attr;
    // Inductor kernels: triton_helpers.X is opforge's helper triton_helpers_X (appended
    // to the module by the parser), its libdevice and math are tl.math.
    static const std::string helpers = "torch._inductor.runtime.triton_helpers.";
    if (path.rfind(helpers, 0) == 0) {
      std::string rest = path.substr(helpers.size());
      if (rest.rfind("libdevice.", 0) == 0 || rest.rfind("math.", 0) == 0) {
        path = "tl.math." + rest.substr(rest.find('.') + 1);
      } else if (rest != "libdevice" && rest != "math") {
        if (const ast::FunctionDef *f = m_.function("triton_helpers_" + rest); f && f->is_jit())
          return SValue::function("triton_helpers_" + rest, false);
        throw UserError("triton_helpers." + rest +
                        " is not one of opforge's triton_helpers (docs/compiler/inductor.md)");
      }
    }
    // Canonical module prefixes.
    for (std::string pre :
         {"triton.language.", "tl.", "tl.math.", "triton.language.math.",
          "tl.extra.cuda.libdevice.", "tl.extra.libdevice.", "libdevice.",
          "triton.language.extra.libdevice.", "triton.language.extra.cuda.libdevice."}) {
      if (path.rfind(pre, 0) == 0 && path.find('.', pre.size()) == std::string::npos) {
        std::string name = path.substr(pre.size());
        if (auto sc = sc_from_name(name); sc && name != "int" && name != "float" &&
                                          name != "bool" && name != "half" && name != "double" &&
                                          name != "long")
          return SValue::dtype(LType::scalar(*sc));
        if (name == "PropagateNan") return SValue::function("tl.PropagateNan", true);
        return SValue::function("tl." + name, true);
      }
    }
    if (path == "tl.PropagateNan.ALL") return SValue::integer(0xFFFF);
    if (path == "tl.PropagateNan.NONE") return SValue::integer(0);
    if (path == "math.pi") return SValue::floating(3.14159265358979323846);
    if (path == "math.e") return SValue::floating(2.71828182845904523536);
    if (path == "math.inf") return SValue::floating(HUGE_VAL);
    if (path == "math.nan") return SValue::floating(std::nan(""));
    return SValue::function(path, true);
  }
  if (base.kind == K::DType) {
    const LType &t = base.type;
    if (attr == "element_ty") {
      if (!t.is_ptr()) throw UserError("'" + t.str() + "' has no attribute 'element_ty'");
      if (t.is_block_ptr())
        return SValue::dtype(LType::scalar(t.pointee).with_shape(t.pointee_shape));
      return SValue::dtype(LType::scalar(t.pointee));
    }
    if (attr == "primitive_bitwidth") return SValue::integer(t.bits());
    if (attr == "scalar") return SValue::dtype(t.elem());
    SValue m = SValue::function("dtype." + attr, true);
    m.type = t;
    return m;
  }
  if (base.kind == K::Tensor) {
    if (attr == "dtype") return SValue::dtype(base.type.elem());
    if (attr == "type") return SValue::dtype(base.type.elem());
    if (attr == "shape") {
      std::vector<SValue> e;
      for (auto d : base.type.shape) e.push_back(SValue::integer(d));
      return SValue::tuple(e);
    }
    if (attr == "numel") return SValue::integer(base.type.numel());
    if (attr == "T") return sem_.permute(base, {1, 0});
    SValue m = SValue::function("tensor." + attr, true);
    m.elts = {base};
    return m;
  }
  throw UserError("'" + base.repr() + "' has no attribute '" + attr + "'");
}

SValue AstLowering::subscript(const SValue &base, const ast::Expr &index) {
  if (base.kind == K::Tuple) {
    SValue i = expr(index);
    if (i.kind != K::Int)
      throw UserError("tuple indices must be constexpr integers, got " + i.repr());
    int64_t n = static_cast<int64_t>(base.elts.size());
    int64_t k = i.i < 0 ? i.i + n : i.i;
    if (k < 0 || k >= n) throw UserError("tuple index out of range");
    return base.elts[k];
  }
  if (!base.is_tensor()) throw UserError("'" + base.repr() + "' is not subscriptable");
  std::vector<const ast::Expr *> items;
  if (auto *t = index.as<ast::Tuple>())
    for (auto &e : t->elts) items.push_back(e.get());
  else
    items.push_back(&index);
  SValue v = base;
  int64_t dim = 0;
  for (auto *it : items) {
    if (auto *c = it->as<ast::Constant>(); c && c->is_none()) {
      v = sem_.expand_dims(v, dim);
      ++dim;
      continue;
    }
    if (auto *sl = it->as<ast::Slice>(); sl && !sl->lower && !sl->upper && !sl->step) {
      ++dim;
      continue;
    }
    throw UserError("unsupported tensor index: " + ast::unparse(*it) +
                    " (only None and ':' are allowed)");
  }
  return v;
}

SValue AstLowering::expr_impl(const ast::Expr &e) {
  switch (e.kind) {
    case ast::ExprKind::Name:
      return lookup(e.cast<ast::Name>().id, e.loc);
    case ast::ExprKind::Constant: {
      auto &c = e.cast<ast::Constant>();
      if (c.is_none()) return SValue::none();
      if (c.is_bool()) return SValue::boolean(std::get<bool>(c.value));
      if (c.is_int()) return SValue::integer(std::get<int64_t>(c.value));
      if (c.is_float()) return SValue::floating(std::get<double>(c.value));
      if (c.is_str()) return SValue::str(std::get<std::string>(c.value));
      throw UserError("unsupported constant");
    }
    case ast::ExprKind::FString: {
      std::string s;
      for (auto &p : e.cast<ast::FString>().parts) {
        if (!p.expr) {
          s += p.literal;
          continue;
        }
        SValue v = expr(*p.expr);
        if (v.is_tensor()) throw UserError("f-strings in kernels may only format constexpr values");
        s += v.kind == K::Str ? v.s : v.repr();
      }
      return SValue::str(s);
    }
    case ast::ExprKind::Attribute: {
      auto &a = e.cast<ast::Attribute>();
      return attribute(expr(*a.value), a.attr);
    }
    case ast::ExprKind::Subscript: {
      auto &s = e.cast<ast::Subscript>();
      return subscript(expr(*s.value), *s.index);
    }
    case ast::ExprKind::Call:
      return call(e.cast<ast::Call>());
    case ast::ExprKind::BinOp: {
      auto &b = e.cast<ast::BinOp>();
      SValue l = expr(*b.left), r = expr(*b.right);
      return binop(b.op, l, r);
    }
    case ast::ExprKind::UnaryOp: {
      auto &u = e.cast<ast::UnaryOp>();
      SValue v = expr(*u.operand);
      if (!v.is_tensor()) {
        switch (u.op) {
          case ast::UnaryOpKind::UAdd:
            return v;
          case ast::UnaryOpKind::USub:
            if (v.kind == K::Float) return SValue::floating(-v.f);
            if (v.kind == K::Int || v.kind == K::Bool)
              return SValue::integer(-(v.kind == K::Bool ? v.b : v.i));
            break;
          case ast::UnaryOpKind::Not:
            return SValue::boolean(!truthy(v, e.loc));
          case ast::UnaryOpKind::Invert:
            if (v.kind == K::Int || v.kind == K::Bool)
              return SValue::integer(~(v.kind == K::Bool ? v.b : v.i));
            break;
        }
        throw UserError("bad operand type for unary " + std::string(ast::op_symbol(u.op)) + ": " +
                        v.repr());
      }
      switch (u.op) {
        case ast::UnaryOpKind::UAdd:
          return v;
        case ast::UnaryOpKind::USub:
          return sem_.neg(v);
        case ast::UnaryOpKind::Not:
          return sem_.logical_not(v);
        case ast::UnaryOpKind::Invert:
          return sem_.invert(v);
      }
      break;
    }
    case ast::ExprKind::BoolOp: {
      auto &b = e.cast<ast::BoolOp>();
      bool is_and = b.op == ast::BoolOpKind::And;
      SValue acc = expr(*b.values[0]);
      for (size_t i = 1; i < b.values.size(); ++i) {
        if (!acc.is_tensor()) {
          bool t = truthy(acc, b.values[i - 1]->loc);
          if (is_and ? !t : t) return acc;  // short-circuit on a constexpr
          acc = expr(*b.values[i]);
          continue;
        }
        acc = sem_.logical(is_and, acc, expr(*b.values[i]));
      }
      return acc;
    }
    case ast::ExprKind::Compare: {
      auto &c = e.cast<ast::Compare>();
      SValue left = expr(*c.left);
      SValue result;
      for (size_t i = 0; i < c.ops.size(); ++i) {
        SValue right = expr(*c.comparators[i]);
        SValue r = compare(c.ops[i], left, right);
        if (i == 0)
          result = r;
        else if (!result.is_tensor() && !r.is_tensor())
          result = SValue::boolean(truthy(result, e.loc) && truthy(r, e.loc));
        else
          result = sem_.logical(true, result, r);
        left = right;
      }
      return result;
    }
    case ast::ExprKind::IfExp: {
      auto &i = e.cast<ast::IfExp>();
      SValue c = expr(*i.test);
      if (!c.is_tensor()) return truthy(c, i.test->loc) ? expr(*i.body) : expr(*i.orelse);
      if (c.type.is_block())
        throw UserError(
            "a conditional expression needs a scalar condition; use tl.where for blocks");
      return sem_.where(c, expr(*i.body), expr(*i.orelse));
    }
    case ast::ExprKind::Tuple:
    case ast::ExprKind::List: {
      const auto &elts =
          e.kind == ast::ExprKind::Tuple ? e.cast<ast::Tuple>().elts : e.cast<ast::List>().elts;
      std::vector<SValue> v;
      for (auto &x : elts) {
        if (x->is<ast::Starred>()) {
          SValue s = expr(*x->cast<ast::Starred>().value);
          if (s.kind != K::Tuple) throw UserError("can only unpack a tuple with *");
          v.insert(v.end(), s.elts.begin(), s.elts.end());
        } else {
          v.push_back(expr(*x));
        }
      }
      return SValue::tuple(v);
    }
    case ast::ExprKind::Lambda:
      throw UserError("lambdas are not supported inside kernels");
    case ast::ExprKind::Dict:
    case ast::ExprKind::Set:
    case ast::ExprKind::Comprehension:
      throw UserError(std::string(ast::expr_kind_name(e.kind)) +
                      " expressions are not supported inside kernels");
    case ast::ExprKind::Slice:
      throw UserError("slices are only supported as tensor indices ('x[:, None]')");
    case ast::ExprKind::Starred:
      throw UserError("starred expressions are only supported in calls and tuples");
  }
  throw UserError("unsupported expression");
}

}  // namespace opforge::compiler::sema
