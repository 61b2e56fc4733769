//===- lower_ast.cpp - a jit function, its statements and control flow, to ttir ===//
#include "lower_ast.h"

#include <algorithm>

namespace opforge::compiler::sema {
using ttir::OpKind;

void AstLowering::error(SourceLoc loc, const std::string &msg) const {
  if (m_.source) throw CompileError::at(*m_.source, loc, msg);
  throw CompileError(msg, m_.file, loc);
}

std::vector<SValue> AstLowering::lower_function(const ast::FunctionDef &fn,
                                                const std::string &ir_name,
                                                const std::vector<SValue> &args, bool is_kernel) {
  // Save the caller's state: lowering a callee is re-entrant.
  auto saved_env = std::move(env_);
  auto saved_block = b_.block;
  auto saved_fn = fn_;
  bool saved_has_return = has_return_;
  SValue saved_ret = return_value_;
  env_.clear();
  fn_ = &fn;
  has_return_ = false;
  return_value_ = SValue::none();

  ttir::Function *f = out_.add_function(ir_name);
  f->loc = {m_.file, fn.loc.line, fn.loc.col};
  b_.block = f->body.get();
  for (size_t i = 0; i < fn.params.params.size(); ++i) {
    const auto &p = fn.params.params[i];
    const SValue &a = args[i];
    if (a.is_tensor()) {
      ttir::Value *v = f->body->add_arg(a.type.ir(), p.name);
      env_[p.name] = SValue::tensor(v, a.type);
    } else {
      env_[p.name] = a;
    }
  }
  stmts(fn.body);
  b_.loc = {m_.file, fn.loc.end_line, 1};
  std::vector<SValue> results;
  std::vector<ttir::Value *> ret_vals;
  if (has_return_) {
    if (is_kernel && return_value_.kind != SValue::Kind::None)
      error(fn.loc, "kernels must not return a value");
    std::vector<SValue> vals = return_value_.kind == SValue::Kind::Tuple
                                   ? return_value_.elts
                                   : std::vector<SValue>{return_value_};
    if (return_value_.kind == SValue::Kind::None) vals.clear();
    for (auto &v : vals) {
      SValue t = sem_.to_tensor(v);
      results.push_back(t);
      ret_vals.push_back(t.value);
      f->result_types.push_back(t.value->type);
    }
  }
  b_.create(OpKind::Return, ret_vals, {});

  env_ = std::move(saved_env);
  b_.block = saved_block;
  fn_ = saved_fn;
  has_return_ = saved_has_return;
  return_value_ = saved_ret;
  return results;
}

SValue AstLowering::lookup(const std::string &name, SourceLoc loc) {
  auto it = env_.find(name);
  if (it != env_.end()) return it->second;
  if (const ast::FunctionDef *f = m_.function(name)) {
    if (f->is_jit()) return SValue::function(name, false);
    error(loc, "'" + name + "' is not a @triton.jit function and cannot be called from a kernel");
  }
  // Import aliases of the module (import triton.language as tl, import math, ...).
  for (auto &s : m_.body) {
    if (auto *imp = s->as<ast::Import>()) {
      for (auto &a : imp->names) {
        std::string bound = a.asname.empty() ? a.name.substr(0, a.name.find('.')) : a.asname;
        if (bound == name) return SValue::function(a.asname.empty() ? bound : a.name, true);
      }
    } else if (auto *imp = s->as<ast::ImportFrom>()) {
      for (auto &a : imp->names) {
        std::string bound = a.asname.empty() ? a.name : a.asname;
        if (bound == name) return SValue::function(imp->module + "." + a.name, true);
      }
    }
  }
  // Module-level constexprs: NAME = tl.constexpr(v) or NAME: tl.constexpr = v.
  for (auto &s : m_.body) {
    const ast::Expr *value = nullptr;
    bool annotated = false;
    if (auto *a = s->as<ast::Assign>()) {
      for (auto &t : a->targets)
        if (auto *n = t->as<ast::Name>(); n && n->id == name) value = a->value.get();
    } else if (auto *a = s->as<ast::AnnAssign>()) {
      if (auto *n = a->target->as<ast::Name>(); n && n->id == name && a->value) {
        value = a->value.get();
        annotated = ast::dotted_name(*a->annotation).find("constexpr") != std::string::npos;
      }
    }
    if (!value) continue;
    auto *call = value->as<ast::Call>();
    bool wrapped = call && ast::dotted_name(*call->func).find("constexpr") != std::string::npos &&
                   call->args.size() == 1;
    if (!annotated && !wrapped)
      error(loc, "Cannot access global variable " + name +
                     " from within @jit'ed function. Triton kernels can only access global "
                     "variables that are "
                     "annotated as constexpr (`x: triton.language.constexpr = 42` or `x = "
                     "triton.language.constexpr(42)`). Alternatively, set the envvar "
                     "TRITON_ALLOW_NON_CONSTEXPR_GLOBALS=1, "
                     "but we do not promise to support this forever.");
    auto saved = std::move(env_);
    env_.clear();
    SValue v = expr(wrapped ? *call->args[0] : *value);
    env_ = std::move(saved);
    if (v.is_tensor()) error(loc, "global constexpr " + name + " must be a compile-time value");
    return v;
  }
  static const std::set<std::string> py_builtins = {"range", "min",  "max",  "float", "int",
                                                    "bool",  "len",  "abs",  "print", "isinstance",
                                                    "tuple", "list", "round"};
  if (py_builtins.count(name)) return SValue::function("builtins." + name, true);
  error(loc, "name '" + name + "' is not defined");
}

// ---------------------------------------------------------------------------
// Statements
// ---------------------------------------------------------------------------
void AstLowering::stmts(const ast::StmtList &body) {
  for (size_t i = 0; i < body.size(); ++i) {
    if (has_return_)
      error(body[i]->loc, "code after a return statement is not supported in Triton kernels");
    stmt(*body[i]);
  }
}

void AstLowering::assigned_names(const ast::StmtList &body, std::set<std::string> &out) const {
  std::function<void(const ast::Expr &)> target = [&](const ast::Expr &t) {
    if (auto *n = t.as<ast::Name>())
      out.insert(n->id);
    else if (auto *tu = t.as<ast::Tuple>())
      for (auto &e : tu->elts) target(*e);
    else if (auto *l = t.as<ast::List>())
      for (auto &e : l->elts) target(*e);
  };
  for (auto &s : body) {
    if (auto *a = s->as<ast::Assign>())
      for (auto &t : a->targets) target(*t);
    else if (auto *a = s->as<ast::AugAssign>())
      target(*a->target);
    else if (auto *a = s->as<ast::AnnAssign>())
      target(*a->target);
    else if (auto *i = s->as<ast::If>()) {
      assigned_names(i->body, out);
      assigned_names(i->orelse, out);
    } else if (auto *f = s->as<ast::For>()) {
      assigned_names(f->body, out);
    } else if (auto *w = s->as<ast::While>()) {
      assigned_names(w->body, out);
    }
  }
}

void AstLowering::assign(const ast::Expr &target, const SValue &v) {
  if (auto *n = target.as<ast::Name>()) {
    env_[n->id] = v;
    return;
  }
  const std::vector<ast::ExprPtr> *elts = nullptr;
  if (auto *t = target.as<ast::Tuple>()) elts = &t->elts;
  if (auto *l = target.as<ast::List>()) elts = &l->elts;
  if (elts) {
    if (v.kind != SValue::Kind::Tuple)
      error(target.loc, "cannot unpack non-tuple value " + v.repr());
    if (v.elts.size() != elts->size())
      error(target.loc, "too " + std::string(v.elts.size() > elts->size() ? "many" : "few") +
                            " values to unpack (expected " + std::to_string(elts->size()) +
                            ", got " + std::to_string(v.elts.size()) + ")");
    for (size_t i = 0; i < elts->size(); ++i) assign(*(*elts)[i], v.elts[i]);
    return;
  }
  error(target.loc,
        "unsupported assignment target: only names and tuples of names can be assigned in kernels");
}

void AstLowering::stmt(const ast::Stmt &s) {
  b_.loc = {m_.file, s.loc.line, s.loc.col};
  switch (s.kind) {
    case ast::StmtKind::ExprStmt:
      expr(*s.cast<ast::ExprStmt>().value);
      return;
    case ast::StmtKind::Assign: {
      auto &a = s.cast<ast::Assign>();
      SValue v = expr(*a.value);
      for (auto &t : a.targets) assign(*t, v);
      return;
    }
    case ast::StmtKind::AnnAssign: {
      auto &a = s.cast<ast::AnnAssign>();
      if (!a.value) return;
      assign(*a.target, expr(*a.value));
      return;
    }
    case ast::StmtKind::AugAssign: {
      auto &a = s.cast<ast::AugAssign>();
      auto *n = a.target->as<ast::Name>();
      if (!n) error(a.target->loc, "augmented assignment is only supported on names in kernels");
      SValue cur = lookup(n->id, a.target->loc);
      SValue rhs = expr(*a.value);
      try {
        env_[n->id] = binop(a.op, cur, rhs);
      } catch (const UserError &e) {
        error(s.loc, e.what());
      }
      return;
    }
    case ast::StmtKind::If:
      lower_if(s.cast<ast::If>());
      return;
    case ast::StmtKind::For:
      lower_for(s.cast<ast::For>());
      return;
    case ast::StmtKind::While:
      lower_while(s.cast<ast::While>());
      return;
    case ast::StmtKind::Pass:
      return;
    case ast::StmtKind::Return: {
      auto &r = s.cast<ast::Return>();
      has_return_ = true;
      return_value_ = r.value ? expr(*r.value) : SValue::none();
      return;
    }
    case ast::StmtKind::Assert: {
      auto &a = s.cast<ast::Assert>();
      SValue c = expr(*a.test);
      std::string msg = "assertion failed";
      if (a.msg) {
        SValue m = expr(*a.msg);
        msg = m.kind == SValue::Kind::Str ? m.s : m.repr();
      }
      if (!c.is_tensor()) {
        if (!truthy(c, a.test->loc)) error(s.loc, "AssertionError: " + msg);
        return;
      }
      try {
        SValue ci = sem_.cast(c, LType::scalar(Sc::I1));
        b_.create(OpKind::Assert, {ci.value}, {}, {{"message", msg}});
      } catch (const UserError &e) {
        error(s.loc, e.what());
      }
      return;
    }
    case ast::StmtKind::Break:
    case ast::StmtKind::Continue:
      error(s.loc, std::string(s.kind == ast::StmtKind::Break ? "break" : "continue") +
                       " statements are not supported in Triton kernels");
    case ast::StmtKind::FunctionDef:
      error(s.loc, "nested function definitions are not supported in Triton kernels");
    case ast::StmtKind::Raise:
      error(s.loc,
            "raise is not supported in Triton kernels (use tl.device_assert or tl.static_assert)");
    case ast::StmtKind::Import:
    case ast::StmtKind::ImportFrom:
      error(s.loc, "imports inside a kernel are not supported");
  }
}

void AstLowering::lower_if(const ast::If &s) {
  SValue c = expr(*s.test);
  if (!c.is_tensor()) {
    stmts(truthy(c, s.test->loc) ? s.body : s.orelse);
    return;
  }
  if (c.type.is_block())
    error(s.test->loc,
          "Boolean value of Tensor with more than one value is ambiguous: an if condition must be "
          "a scalar");
  SValue cond;
  try {
    cond = sem_.cast(c, LType::scalar(Sc::I1));
  } catch (const UserError &e) {
    error(s.test->loc, e.what());
  }
  ttir::Operation *op = b_.create(OpKind::If, {cond.value}, {});
  ttir::Block *then_b = op->add_region();
  ttir::Block *else_b = op->add_region();
  auto before = env_;
  ttir::Block *outer = b_.block;

  b_.block = then_b;
  stmts(s.body);
  if (has_return_)
    error(
        s.loc,
        "return inside control flow is not supported; assign a variable and return it at the end");
  auto then_env = env_;
  env_ = before;
  b_.block = else_b;
  stmts(s.orelse);
  if (has_return_)
    error(
        s.loc,
        "return inside control flow is not supported; assign a variable and return it at the end");
  auto else_env = env_;

  std::vector<std::string> names;
  for (auto &[n, v] : then_env)
    if (else_env.count(n)) names.push_back(n);
  std::vector<ttir::Value *> ty, ey;
  std::vector<std::string> results;
  env_ = before;
  for (auto &n : names) {
    const SValue &tv = then_env[n], &ev = else_env[n];
    bool same_const =
        !tv.is_tensor() && !ev.is_tensor() && tv.repr() == ev.repr() && tv.kind == ev.kind;
    bool same_tensor = tv.is_tensor() && ev.is_tensor() && tv.value == ev.value;
    if (same_const || same_tensor) {
      env_[n] = tv;
      continue;
    }
    if ((!tv.is_tensor() && !tv.is_number()) || (!ev.is_tensor() && !ev.is_number())) {
      if (before.count(n) == 0)
        continue;  // differs but not a value we can merge: drop like a local
      error(s.loc, "Mismatched value for " + n + " between then block (" + tv.repr() +
                       ") and else block (" + ev.repr() + ")");
    }
    b_.block = then_b;
    SValue t2 = sem_.to_tensor(tv);
    b_.block = else_b;
    SValue e2 = sem_.to_tensor(ev);
    if (!(t2.type == e2.type))
      error(s.loc, "Mismatched type for " + n + " between then block (" + t2.type.str() +
                       ") and else block (" + e2.type.str() + ")");
    ty.push_back(t2.value);
    ey.push_back(e2.value);
    env_[n] = SValue::tensor(op->add_result(t2.value->type), t2.type);
  }
  b_.block = then_b;
  b_.create(OpKind::Yield, ty, {});
  b_.block = else_b;
  b_.create(OpKind::Yield, ey, {});
  b_.block = outer;
}

void AstLowering::lower_for(const ast::For &s) {
  auto *call = s.iter->as<ast::Call>();
  if (!call)
    error(s.iter->loc, "for loops in kernels must iterate over range, tl.range or tl.static_range");
  SValue fn = expr(*call->func);
  std::string fname = fn.kind == SValue::Kind::Func ? fn.func.name : "";
  std::string last = fname.substr(fname.rfind('.') + 1);
  bool is_static = last == "static_range";
  if (!fn.func.builtin || (last != "range" && last != "static_range"))
    error(s.iter->loc, "for loops in kernels must iterate over range, tl.range or tl.static_range");
  std::vector<SValue> bounds;
  for (auto &a : call->args) bounds.push_back(expr(*a));
  for (auto &k : call->keywords) {
    static const std::set<std::string> ignored = {"num_stages", "loop_unroll_factor",
                                                  "disallow_acc_multi_buffer", "flatten",
                                                  "warp_specialize"};
    if (!ignored.count(k.name))
      error(k.loc, "range() got an unexpected keyword argument '" + k.name + "'");
  }
  if (bounds.empty() || bounds.size() > 3)
    error(s.iter->loc, "range expected 1 to 3 arguments, got " + std::to_string(bounds.size()));
  SValue lb = bounds.size() == 1 ? SValue::integer(0) : bounds[0];
  SValue ub = bounds.size() == 1 ? bounds[0] : bounds[1];
  SValue step = bounds.size() == 3 ? bounds[2] : SValue::integer(1);
  auto *target = s.target->as<ast::Name>();
  if (!target) error(s.target->loc, "the loop target must be a single name");
  if (!s.orelse.empty()) error(s.loc, "for-else is not supported in Triton kernels");

  if (is_static) {
    for (auto *v : {&lb, &ub, &step})
      if (v->kind != SValue::Kind::Int)
        error(s.iter->loc, "static_range bounds must be constexpr integers, got " + v->repr());
    if (step.i == 0) error(s.iter->loc, "static_range step must not be zero");
    int64_t count = 0;
    for (int64_t i = lb.i; step.i > 0 ? i < ub.i : i > ub.i; i += step.i) {
      if (++count > 4096) error(s.iter->loc, "static_range unrolls more than 4096 iterations");
      env_[target->id] = SValue::integer(i);
      stmts(s.body);
      if (has_return_) error(s.loc, "return inside a loop is not supported");
    }
    return;
  }
  for (auto *v : {&lb, &ub, &step})
    if (!v->is_tensor() && v->kind != SValue::Kind::Int)
      error(s.iter->loc, "range bounds must be integers, got " + v->repr());
  if (step.kind == SValue::Kind::Int && step.i <= 0)
    error(s.iter->loc, "range step must be positive in kernels, got " + std::to_string(step.i));
  // Induction variable type: int32 unless a bound needs 64 bits.
  LType iv_t = LType::scalar(Sc::I32);
  SValue lbt, ubt, stept;
  try {
    for (auto *v : {&lb, &ub, &step}) {
      LType t = v->is_tensor() ? v->type : sem_.number_type(*v);
      if (!t.is_int()) error(s.iter->loc, "range bounds must be integers, got " + t.str());
      if (t.bits() > iv_t.bits()) iv_t = LType::scalar(Sc::I64);
    }
    lbt = sem_.cast(lb, iv_t);
    ubt = sem_.cast(ub, iv_t);
    stept = sem_.cast(step, iv_t);
  } catch (const UserError &e) {
    error(s.iter->loc, e.what());
  }

  std::set<std::string> assigned;
  assigned_names(s.body, assigned);
  std::vector<std::string> carried;
  std::vector<SValue> inits;
  for (auto &n : assigned) {
    if (n == target->id || !env_.count(n)) continue;
    SValue v = env_[n];
    if (!v.is_tensor() && !v.is_number())
      continue;  // constexpr objects reassigned: treated as locals
    try {
      inits.push_back(sem_.to_tensor(v));
    } catch (const UserError &e) {
      error(s.loc, e.what());
    }
    carried.push_back(n);
  }
  std::vector<ttir::Value *> operands = {lbt.value, ubt.value, stept.value};
  for (auto &i : inits) operands.push_back(i.value);
  ttir::Operation *op = b_.create(OpKind::For, operands, {});
  ttir::Block *body = op->add_region();
  auto before = env_;
  env_[target->id] = SValue::tensor(body->add_arg(iv_t.ir(), target->id), iv_t);
  for (size_t i = 0; i < carried.size(); ++i)
    env_[carried[i]] = SValue::tensor(body->add_arg(inits[i].type.ir(), carried[i]), inits[i].type);
  ttir::Block *outer = b_.block;
  b_.block = body;
  stmts(s.body);
  if (has_return_) error(s.loc, "return inside a loop is not supported");
  std::vector<ttir::Value *> yields;
  for (size_t i = 0; i < carried.size(); ++i) {
    SValue v = env_[carried[i]];
    SValue t;
    try {
      t = sem_.to_tensor(v);
    } catch (const UserError &e) {
      error(s.loc, e.what());
    }
    if (!(t.type.ir() == inits[i].type.ir()))
      error(s.loc, "Loop-carried variable " + carried[i] + " has initial type " +
                       inits[i].type.str() + " but is re-assigned to " + t.type.str() +
                       " in loop! Please make sure that the type stays consistent.");
    yields.push_back(t.value);
  }
  b_.create(OpKind::Yield, yields, {});
  b_.block = outer;
  env_ = before;
  for (size_t i = 0; i < carried.size(); ++i)
    env_[carried[i]] = SValue::tensor(op->add_result(inits[i].type.ir()), inits[i].type);
}

void AstLowering::lower_while(const ast::While &s) {
  if (!s.orelse.empty()) error(s.loc, "while-else is not supported in Triton kernels");
  std::set<std::string> assigned;
  assigned_names(s.body, assigned);
  std::vector<std::string> carried;
  std::vector<SValue> inits;
  for (auto &n : assigned) {
    if (!env_.count(n)) continue;
    SValue v = env_[n];
    if (!v.is_tensor() && !v.is_number()) continue;
    inits.push_back(sem_.to_tensor(v));
    carried.push_back(n);
  }
  std::vector<ttir::Value *> operands;
  for (auto &i : inits) operands.push_back(i.value);
  ttir::Operation *op = b_.create(OpKind::While, operands, {});
  ttir::Block *before_b = op->add_region();
  ttir::Block *after_b = op->add_region();
  auto before = env_;
  ttir::Block *outer = b_.block;
  for (size_t i = 0; i < carried.size(); ++i)
    env_[carried[i]] =
        SValue::tensor(before_b->add_arg(inits[i].type.ir(), carried[i]), inits[i].type);
  b_.block = before_b;
  SValue c = expr(*s.test);
  if (!c.is_tensor()) {
    if (!truthy(c, s.test->loc)) {
      // Never runs: drop the op.
      b_.block = outer;
      outer->ops.pop_back();
      env_ = before;
      return;
    }
  }
  SValue cond;
  try {
    cond = sem_.cast(c, LType::scalar(Sc::I1));
  } catch (const UserError &e) {
    error(s.test->loc, e.what());
  }
  if (cond.type.is_block()) error(s.test->loc, "a while condition must be a scalar");
  std::vector<ttir::Value *> pass = {cond.value};
  for (size_t i = 0; i < carried.size(); ++i) pass.push_back(before_b->arg(i));
  b_.create(OpKind::Condition, pass, {});
  env_ = before;
  for (size_t i = 0; i < carried.size(); ++i)
    env_[carried[i]] =
        SValue::tensor(after_b->add_arg(inits[i].type.ir(), carried[i]), inits[i].type);
  b_.block = after_b;
  stmts(s.body);
  if (has_return_) error(s.loc, "return inside a loop is not supported");
  std::vector<ttir::Value *> yields;
  for (size_t i = 0; i < carried.size(); ++i) {
    SValue t = sem_.to_tensor(env_[carried[i]]);
    if (!(t.type.ir() == inits[i].type.ir()))
      error(s.loc, "Loop-carried variable " + carried[i] + " has initial type " +
                       inits[i].type.str() + " but is re-assigned to " + t.type.str() +
                       " in loop! Please make sure that the type stays consistent.");
    yields.push_back(t.value);
  }
  b_.create(OpKind::Yield, yields, {});
  b_.block = outer;
  env_ = before;
  for (size_t i = 0; i < carried.size(); ++i)
    env_[carried[i]] = SValue::tensor(op->add_result(inits[i].type.ir()), inits[i].type);
}

bool AstLowering::truthy(const SValue &v, SourceLoc loc) {
  switch (v.kind) {
    case SValue::Kind::None:
      return false;
    case SValue::Kind::Bool:
      return v.b;
    case SValue::Kind::Int:
      return v.i != 0;
    case SValue::Kind::Float:
      return v.f != 0.0;
    case SValue::Kind::Str:
      return !v.s.empty();
    case SValue::Kind::Tuple:
      return !v.elts.empty();
    case SValue::Kind::DType:
    case SValue::Kind::Func:
      return true;
    case SValue::Kind::Tensor:
      break;
  }
  error(loc, "the truth value of a tensor is only known at run time; this needs a constexpr here");
}

}  // namespace opforge::compiler::sema
