//===- interpreter.cpp - wrapper interpreter: statements and expressions ---===//
#include <cmath>

#include "interp_impl.h"
#include "opforge/support/budgets.h"

namespace opforge::compiler {

using namespace ast;
using T = Value::T;

WrapperInterpreter::Impl::Impl(const Module &m, Executor &ex, WrapperOptions o)
    : module(m), executor(ex), options(o), globals(std::make_shared<Scope>()) {
  if (options.max_steps <= 0) options.max_steps = budgets().wrapper_steps;
  if (options.max_bytes <= 0) options.max_bytes = budgets().wrapper_bytes;
  if (options.max_launches <= 0) options.max_launches = budgets().launches;
  // Imports bind modules; top-level functions bind functions/kernels;
  // constant assignments are evaluated in order.
  for (auto &s : m.body) {
    if (auto *imp = s->as<Import>()) {
      for (auto &a : imp->names) {
        if (!a.asname.empty())
          globals->vars[a.asname] = Value::module(a.name);
        else
          globals->vars[a.name.substr(0, a.name.find('.'))] =
              Value::module(a.name.substr(0, a.name.find('.')));
      }
    } else if (auto *from = s->as<ImportFrom>()) {
      for (auto &a : from->names) {
        std::string bound = a.asname.empty() ? a.name : a.asname;
        if (from->module == "triton" && a.name == "language")
          globals->vars[bound] = Value::module("triton.language");
        else if (from->module == "triton.language.extra")
          globals->vars[bound] = Value::module("triton.language.extra." + a.name);
        else if (from->module == "__future__")
          continue;
        else
          globals->vars[bound] = Value::builtin(from->module + "." + a.name);
      }
    } else if (auto *f = s->as<FunctionDef>()) {
      Value v;
      v.t = f->is_jit() ? T::Kernel : T::Function;
      v.fn = f;
      globals->vars[f->name] = v;
    } else if (auto *a = s->as<Assign>()) {
      Value v = eval(*a->value, globals);
      for (auto &t : a->targets) assign(*t, v, globals);
    }
  }
  steps = 0;
}

void WrapperInterpreter::Impl::fail(SourceLoc loc, const std::string &message) const {
  throw CompileError::at(*module.source, loc, message);
}

void WrapperInterpreter::Impl::step(SourceLoc loc) { charge_steps(loc, 1); }

void WrapperInterpreter::Impl::charge_steps(SourceLoc loc, int64_t n) {
  steps += n;
  if (steps > options.max_steps || n > options.max_steps)
    fail(loc, "wrapper interpreter: step budget of " + std::to_string(options.max_steps) +
                  " exceeded (--max-wrapper-steps); wrappers should only compute shapes and "
                  "launch kernels");
}

BufferId WrapperInterpreter::Impl::allocate(int64_t bytes, SourceLoc loc) {
  if (bytes > options.max_bytes - bytes_allocated)
    fail(loc, "wrapper interpreter: tensor memory budget of " + std::to_string(options.max_bytes) +
                  " bytes exceeded (--max-wrapper-bytes): " + std::to_string(bytes_allocated) +
                  " bytes allocated, " + std::to_string(bytes) + " more requested");
  BufferId id = executor.allocate(bytes);
  bytes_allocated += bytes;
  return id;
}

WrapperInterpreter::Impl::Flow WrapperInterpreter::Impl::exec_block(
    const StmtList &body, const std::shared_ptr<Scope> &scope, Value &ret) {
  for (auto &s : body) {
    Flow f = exec(*s, scope, ret);
    if (f != Flow::Normal) return f;
  }
  return Flow::Normal;
}

WrapperInterpreter::Impl::Flow WrapperInterpreter::Impl::exec(const Stmt &s,
                                                              const std::shared_ptr<Scope> &scope,
                                                              Value &ret) {
  step(s.loc);
  switch (s.kind) {
    case StmtKind::ExprStmt:
      eval(*s.cast<ExprStmt>().value, scope);
      return Flow::Normal;
    case StmtKind::Assign: {
      auto &a = s.cast<Assign>();
      Value v = eval(*a.value, scope);
      for (auto &t : a.targets) assign(*t, v, scope);
      return Flow::Normal;
    }
    case StmtKind::AnnAssign: {
      auto &a = s.cast<AnnAssign>();
      if (a.value) assign(*a.target, eval(*a.value, scope), scope);
      return Flow::Normal;
    }
    case StmtKind::AugAssign: {
      auto &a = s.cast<AugAssign>();
      Value cur = eval(*a.target, scope);
      Value rhs = eval(*a.value, scope);
      if (cur.t == T::List && (a.op == BinOpKind::Add)) {  // list += iterable extends in place
        for (auto &x : iterate(rhs, a.value->loc)) cur.items->push_back(x);
        return Flow::Normal;
      }
      assign(*a.target, binop(a.op, cur, rhs, s.loc), scope);
      return Flow::Normal;
    }
    case StmtKind::If: {
      auto &i = s.cast<If>();
      if (truthy(eval(*i.test, scope), i.test->loc)) return exec_block(i.body, scope, ret);
      return exec_block(i.orelse, scope, ret);
    }
    case StmtKind::For: {
      auto &f = s.cast<For>();
      Value it = eval(*f.iter, scope);
      if (it.t == T::Range) {
        for (int64_t k = it.i; it.r_step > 0 ? k < it.r_stop : k > it.r_stop; k += it.r_step) {
          step(f.loc);
          assign(*f.target, Value::integer(k), scope);
          Flow fl = exec_block(f.body, scope, ret);
          if (fl == Flow::Break) return Flow::Normal;
          if (fl == Flow::Return) return fl;
        }
      } else {
        for (auto &x : iterate(it, f.iter->loc)) {
          step(f.loc);
          assign(*f.target, x, scope);
          Flow fl = exec_block(f.body, scope, ret);
          if (fl == Flow::Break) return Flow::Normal;
          if (fl == Flow::Return) return fl;
        }
      }
      return exec_block(f.orelse, scope, ret);
    }
    case StmtKind::While: {
      auto &w = s.cast<While>();
      while (truthy(eval(*w.test, scope), w.test->loc)) {
        step(w.loc);
        Flow fl = exec_block(w.body, scope, ret);
        if (fl == Flow::Break) return Flow::Normal;
        if (fl == Flow::Return) return fl;
      }
      return exec_block(w.orelse, scope, ret);
    }
    case StmtKind::Break:
      return Flow::Break;
    case StmtKind::Continue:
      return Flow::Continue;
    case StmtKind::Pass:
      return Flow::Normal;
    case StmtKind::Return: {
      auto &r = s.cast<Return>();
      ret = r.value ? eval(*r.value, scope) : Value::none();
      return Flow::Return;
    }
    case StmtKind::Assert: {
      auto &a = s.cast<Assert>();
      if (!truthy(eval(*a.test, scope), a.test->loc)) {
        std::string msg = "AssertionError";
        if (a.msg) msg += ": " + str_of(eval(*a.msg, scope));
        fail(s.loc, msg);
      }
      return Flow::Normal;
    }
    case StmtKind::Raise: {
      auto &r = s.cast<Raise>();
      if (!r.exc) fail(s.loc, "RuntimeError: re-raise outside of an exception handler");
      Value e = eval(*r.exc, scope);
      if (e.t == T::Tuple && e.s == "exception") {
        std::string msg = e.items->at(0).s;
        fail(s.loc, msg);
      }
      if (e.t == T::Builtin) fail(s.loc, e.s);
      fail(s.loc,
           "TypeError: exceptions must derive from BaseException (got " + type_name(e) + ")");
    }
    case StmtKind::FunctionDef:
      fail(s.loc,
           "nested function definitions are not supported in wrappers; use a lambda or a top-level "
           "function");
    case StmtKind::Import:
    case StmtKind::ImportFrom:
      fail(s.loc, "import statements are not allowed inside a wrapper (host escape)");
  }
  return Flow::Normal;
}

void WrapperInterpreter::Impl::assign(const Expr &target, Value v,
                                      const std::shared_ptr<Scope> &scope) {
  switch (target.kind) {
    case ExprKind::Name:
      scope->vars[target.cast<Name>().id] = std::move(v);
      return;
    case ExprKind::Tuple:
    case ExprKind::List: {
      const auto &elts = target.is<Tuple>() ? target.cast<Tuple>().elts : target.cast<List>().elts;
      ValueList vals = iterate(v, target.loc);
      size_t star = elts.size();
      for (size_t i = 0; i < elts.size(); ++i)
        if (elts[i]->is<Starred>()) star = i;
      if (star == elts.size()) {
        if (vals.size() != elts.size())
          fail(target.loc, vals.size() > elts.size()
                               ? "ValueError: too many values to unpack (expected " +
                                     std::to_string(elts.size()) + ")"
                               : "ValueError: not enough values to unpack (expected " +
                                     std::to_string(elts.size()) + ", got " +
                                     std::to_string(vals.size()) + ")");
        for (size_t i = 0; i < elts.size(); ++i) assign(*elts[i], vals[i], scope);
        return;
      }
      size_t after = elts.size() - star - 1;
      if (vals.size() < elts.size() - 1)
        fail(target.loc, "ValueError: not enough values to unpack (expected at least " +
                             std::to_string(elts.size() - 1) + ", got " +
                             std::to_string(vals.size()) + ")");
      for (size_t i = 0; i < star; ++i) assign(*elts[i], vals[i], scope);
      ValueList mid(vals.begin() + static_cast<long>(star), vals.end() - static_cast<long>(after));
      assign(*elts[star]->cast<Starred>().value, Value::list(std::move(mid)), scope);
      for (size_t i = 0; i < after; ++i)
        assign(*elts[star + 1 + i], vals[vals.size() - after + i], scope);
      return;
    }
    case ExprKind::Subscript: {
      auto &sub = target.cast<Subscript>();
      Value container = eval(*sub.value, scope);
      Value index = eval(*sub.index, scope);
      if (container.t == T::List) {
        int64_t n = static_cast<int64_t>(container.items->size());
        int64_t i = to_int(index, sub.index->loc, "list index");
        if (i < 0) i += n;
        if (i < 0 || i >= n) fail(target.loc, "IndexError: list assignment index out of range");
        (*container.items)[static_cast<size_t>(i)] = std::move(v);
        return;
      }
      if (container.t == T::Dict) {
        auto &kv = *container.items;
        for (size_t i = 0; i < kv.size(); i += 2)
          if (equals(kv[i], index)) {
            kv[i + 1] = std::move(v);
            return;
          }
        kv.push_back(index);
        kv.push_back(std::move(v));
        return;
      }
      if (container.t == T::Tensor)
        fail(target.loc,
             "item assignment into a tensor is not supported in wrappers; write it with a kernel");
      fail(target.loc,
           "TypeError: '" + type_name(container) + "' object does not support item assignment");
    }
    case ExprKind::Attribute:
      fail(target.loc, "attribute assignment is not supported in wrappers");
    case ExprKind::Starred:
      fail(target.loc, "SyntaxError: starred assignment target must be in a list or tuple");
    default:
      fail(target.loc, "cannot assign to " + std::string(expr_kind_name(target.kind)));
  }
}

Value WrapperInterpreter::Impl::lookup(const std::string &name, const std::shared_ptr<Scope> &scope,
                                       SourceLoc loc) {
  if (Value *v = scope->find(name)) return *v;
  if (Value *v = globals->find(name)) return *v;
  if (has_builtin(name)) {
    if (name == "int" || name == "float" || name == "bool" || name == "str" || name == "list" ||
        name == "tuple" || name == "dict")
      return Value::type(name);
    return Value::builtin(name);
  }
  static const std::set<std::string> escapes = {
      "open",    "eval",       "exec",         "compile",    "__import__", "input",
      "globals", "locals",     "vars",         "getattr",    "setattr",    "delattr",
      "hasattr", "breakpoint", "exit",         "quit",       "help",       "memoryview",
      "dir",     "id",         "__builtins__", "type",       "object",     "super",
      "print",   "os",         "sys",          "subprocess", "socket"};
  if (escapes.count(name))
    fail(loc, "'" + name +
                  "' is not available in wrappers: no file, network, process or reflection access");
  if (name.size() > 4 && name.rfind("__", 0) == 0)
    fail(loc, "name '" + name + "' is reflection and is not available in wrappers");
  fail(loc, "NameError: name '" + name + "' is not defined");
}

bool WrapperInterpreter::Impl::truthy(const Value &v, SourceLoc loc) {
  switch (v.t) {
    case T::None:
      return false;
    case T::Bool:
      return v.b;
    case T::Int:
      return v.i != 0;
    case T::Float:
      return v.f != 0.0;
    case T::Str:
      return !v.s.empty();
    case T::List:
    case T::Tuple:
      return !v.items->empty();
    case T::Dict:
      return !v.items->empty();
    case T::Range:
      return v.r_step > 0 ? v.i < v.r_stop : v.i > v.r_stop;
    case T::Tensor:
      if (v.th().numel() != 1)
        fail(loc, "RuntimeError: Boolean value of Tensor with more than one value is ambiguous");
      fail(loc,
           "the truth value of a device tensor needs its data on the host (.item()), which "
           "wrappers may not do");
    default:
      return true;
  }
}

ValueList WrapperInterpreter::Impl::iterate(const Value &v, SourceLoc loc) {
  switch (v.t) {
    case T::List:
    case T::Tuple:
      return *v.items;
    case T::Dict: {
      ValueList keys;
      for (size_t i = 0; i < v.items->size(); i += 2) keys.push_back((*v.items)[i]);
      return keys;
    }
    case T::Range: {
      ValueList out;
      for (int64_t k = v.i; v.r_step > 0 ? k < v.r_stop : k > v.r_stop; k += v.r_step) {
        step(loc);
        out.push_back(Value::integer(k));
      }
      return out;
    }
    case T::Str: {
      ValueList out;
      for (char c : v.s) out.push_back(Value::str(std::string(1, c)));
      return out;
    }
    case T::Tensor: {
      const TensorHandle &t = v.th();
      if (t.dim() == 0) fail(loc, "TypeError: iteration over a 0-d tensor");
      ValueList out;
      for (int64_t k = 0; k < t.sizes[0]; ++k) {
        step(loc);
        out.push_back(tensor_index(v, Value::integer(k), loc));
      }
      return out;
    }
    default:
      fail(loc, "TypeError: '" + type_name(v) + "' object is not iterable");
  }
}

Value WrapperInterpreter::Impl::eval(const Expr &e, const std::shared_ptr<Scope> &scope) {
  switch (e.kind) {
    case ExprKind::Name:
      return lookup(e.cast<Name>().id, scope, e.loc);
    case ExprKind::Constant: {
      auto &c = e.cast<Constant>();
      if (c.is_none()) return Value::none();
      if (c.is_bool()) return Value::boolean(std::get<bool>(c.value));
      if (c.is_int()) {
        if (c.big_unsigned)
          fail(e.loc, "integer literal does not fit in 64 bits (wrappers compute with int64)");
        return Value::integer(std::get<int64_t>(c.value));
      }
      if (c.is_float()) return Value::floating(std::get<double>(c.value));
      if (c.is_str()) return Value::str(std::get<std::string>(c.value));
      Value v;
      v.t = T::Ellipsis;
      return v;
    }
    case ExprKind::FString: {
      std::string out;
      for (auto &p : e.cast<FString>().parts) {
        if (!p.expr) {
          out += p.literal;
          continue;
        }
        Value v = eval(*p.expr, scope);
        if (p.conversion == 'r' || p.conversion == 'a')
          out += format_value(Value::str(repr(v)), p.format_spec, p.expr->loc);
        else
          out += format_value(v, p.format_spec, p.expr->loc);
      }
      return Value::str(out);
    }
    case ExprKind::Attribute: {
      auto &a = e.cast<Attribute>();
      if (a.attr.size() > 4 && a.attr.rfind("__", 0) == 0 &&
          a.attr.substr(a.attr.size() - 2) == "__")
        fail(a.attr_loc,
             "access to attribute '" + a.attr + "' is reflection and is not allowed in wrappers");
      return get_attr(eval(*a.value, scope), a.attr, a.attr_loc);
    }
    case ExprKind::Subscript: {
      auto &s = e.cast<Subscript>();
      Value v = eval(*s.value, scope);
      if (v.t == T::Kernel) {
        Value l;
        l.t = T::Launcher;
        l.fn = v.fn;
        l.self = std::make_shared<Value>(eval(*s.index, scope));
        return l;
      }
      return subscript(v, eval(*s.index, scope), e.loc);
    }
    case ExprKind::Slice: {
      auto &s = e.cast<Slice>();
      Value v;
      v.t = T::Slice;
      if (s.lower) v.s_lower = std::make_shared<Value>(eval(*s.lower, scope));
      if (s.upper) v.s_upper = std::make_shared<Value>(eval(*s.upper, scope));
      if (s.step) v.s_step = std::make_shared<Value>(eval(*s.step, scope));
      return v;
    }
    case ExprKind::Call: {
      auto &c = e.cast<Call>();
      Value callee = eval(*c.func, scope);
      ValueList args;
      for (auto &a : c.args) {
        if (auto *st = a->as<Starred>()) {
          for (auto &x : iterate(eval(*st->value, scope), a->loc)) args.push_back(x);
        } else {
          args.push_back(eval(*a, scope));
        }
      }
      Kwargs kwargs;
      for (auto &k : c.keywords) {
        Value v = eval(*k.value, scope);
        if (k.name.empty()) {
          if (v.t != T::Dict)
            fail(k.loc, "TypeError: argument after ** must be a mapping, not " + type_name(v));
          for (size_t i = 0; i < v.items->size(); i += 2) {
            if ((*v.items)[i].t != T::Str) fail(k.loc, "TypeError: keywords must be strings");
            kwargs.push_back({(*v.items)[i].s, (*v.items)[i + 1]});
          }
        } else {
          kwargs.push_back({k.name, std::move(v)});
        }
      }
      return call(callee, std::move(args), std::move(kwargs), e.loc);
    }
    case ExprKind::BinOp: {
      auto &b = e.cast<BinOp>();
      Value l = eval(*b.left, scope);
      Value r = eval(*b.right, scope);
      return binop(b.op, l, r, e.loc);
    }
    case ExprKind::UnaryOp: {
      auto &u = e.cast<UnaryOp>();
      // -9223372036854775808: the literal 2**63 negated is int64's minimum (Python reads it
      // so; Inductor writes it as a seed bound). The lexer stores 2**63 wrapped to INT64_MIN.
      if (u.op == UnaryOpKind::USub && u.operand->kind == ExprKind::Constant) {
        auto &c = u.operand->cast<Constant>();
        if (c.is_int() && c.big_unsigned && std::get<int64_t>(c.value) == INT64_MIN)
          return Value::integer(INT64_MIN);
      }
      Value v = eval(*u.operand, scope);
      switch (u.op) {
        case UnaryOpKind::Not:
          return Value::boolean(!truthy(v, e.loc));
        case UnaryOpKind::USub:
          if (v.t == T::Float) return Value::floating(-v.f);
          if (v.is_int_like()) {
            int64_t x = v.t == T::Bool ? v.b : v.i;
            if (x == INT64_MIN) fail(e.loc, "OverflowError: integer negation overflows int64");
            return Value::integer(-x);
          }
          break;
        case UnaryOpKind::UAdd:
          if (v.t == T::Float) return v;
          if (v.is_int_like()) return Value::integer(v.t == T::Bool ? v.b : v.i);
          break;
        case UnaryOpKind::Invert:
          if (v.is_int_like())
            return Value::integer(~(v.t == T::Bool ? static_cast<int64_t>(v.b) : v.i));
          break;
      }
      fail(e.loc, "TypeError: bad operand type for unary " + std::string(op_symbol(u.op)) + ": '" +
                      type_name(v) + "'");
    }
    case ExprKind::BoolOp: {
      auto &b = e.cast<BoolOp>();
      Value v;
      for (auto &x : b.values) {
        v = eval(*x, scope);
        bool t = truthy(v, x->loc);
        if (b.op == BoolOpKind::And ? !t : t) return v;
      }
      return v;
    }
    case ExprKind::Compare: {
      auto &c = e.cast<Compare>();
      Value left = eval(*c.left, scope);
      for (size_t i = 0; i < c.ops.size(); ++i) {
        Value right = eval(*c.comparators[i], scope);
        if (!compare(c.ops[i], left, right, c.comparators[i]->loc)) return Value::boolean(false);
        left = std::move(right);
      }
      return Value::boolean(true);
    }
    case ExprKind::IfExp: {
      auto &i = e.cast<IfExp>();
      return truthy(eval(*i.test, scope), i.test->loc) ? eval(*i.body, scope)
                                                       : eval(*i.orelse, scope);
    }
    case ExprKind::Lambda: {
      Value v;
      v.t = T::Lambda;
      v.lambda = &e.cast<Lambda>();
      v.closure = scope;
      return v;
    }
    case ExprKind::Tuple:
    case ExprKind::List:
    case ExprKind::Set: {
      const auto &elts = e.is<Tuple>()  ? e.cast<Tuple>().elts
                         : e.is<List>() ? e.cast<List>().elts
                                        : e.cast<Set>().elts;
      ValueList out;
      for (auto &x : elts) {
        if (auto *st = x->as<Starred>()) {
          for (auto &y : iterate(eval(*st->value, scope), x->loc)) out.push_back(y);
        } else {
          out.push_back(eval(*x, scope));
        }
      }
      if (e.is<Set>()) {
        ValueList uniq;
        for (auto &x : out) {
          bool dup = false;
          for (auto &u : uniq) dup |= equals(u, x);
          if (!dup) uniq.push_back(x);
        }
        return Value::list(std::move(uniq));
      }
      return e.is<Tuple>() ? Value::tuple(std::move(out)) : Value::list(std::move(out));
    }
    case ExprKind::Dict: {
      auto &d = e.cast<Dict>();
      Value out;
      out.t = T::Dict;
      out.items = std::make_shared<ValueList>();
      auto put = [&](Value k, Value v) {
        for (size_t i = 0; i < out.items->size(); i += 2)
          if (equals((*out.items)[i], k)) {
            (*out.items)[i + 1] = std::move(v);
            return;
          }
        out.items->push_back(std::move(k));
        out.items->push_back(std::move(v));
      };
      for (size_t i = 0; i < d.values.size(); ++i) {
        if (!d.keys[i]) {
          Value m = eval(*d.values[i], scope);
          if (m.t != T::Dict)
            fail(d.values[i]->loc, "TypeError: '" + type_name(m) + "' object is not a mapping");
          for (size_t k = 0; k < m.items->size(); k += 2) put((*m.items)[k], (*m.items)[k + 1]);
        } else {
          Value k = eval(*d.keys[i], scope);
          put(std::move(k), eval(*d.values[i], scope));
        }
      }
      return out;
    }
    case ExprKind::Comprehension: {
      auto &c = e.cast<Comprehension>();
      auto inner = std::make_shared<Scope>();
      inner->parent = scope;
      ValueList out;
      std::function<void(size_t)> gen = [&](size_t g) {
        if (g == c.generators.size()) {
          step(e.loc);
          out.push_back(eval(*c.elt, inner));
          if (c.comp == CompKind::Dict) out.push_back(eval(*c.value, inner));
          return;
        }
        auto &cf = c.generators[g];
        for (auto &x : iterate(eval(*cf.iter, inner), cf.iter->loc)) {
          assign(*cf.target, x, inner);
          bool keep = true;
          for (auto &cond : cf.ifs) keep = keep && truthy(eval(*cond, inner), cond->loc);
          if (keep) gen(g + 1);
        }
      };
      gen(0);
      if (c.comp == CompKind::Dict) {
        Value d;
        d.t = T::Dict;
        d.items = std::make_shared<ValueList>(std::move(out));
        return d;
      }
      if (c.comp == CompKind::Generator) return Value::tuple(std::move(out));
      return Value::list(std::move(out));
    }
    case ExprKind::Starred:
      fail(e.loc, "SyntaxError: can't use starred expression here");
  }
  fail(e.loc, "unsupported expression");
}

Value WrapperInterpreter::Impl::call(const Value &callee, ValueList args, Kwargs kwargs,
                                     SourceLoc loc) {
  step(loc);
  switch (callee.t) {
    case T::Builtin: {
      if (extension && callee.s.rfind("ext.", 0) == 0)
        return extension->call(*this, callee.s, args, kwargs, loc);
      if (callee.s.rfind("torch.", 0) == 0)
        return call_torch(callee.s.substr(6), args, kwargs, loc);
      return call_builtin(callee.s, args, kwargs, loc);
    }
    case T::Type:
      return call_builtin(callee.s, args, kwargs, loc);
    case T::Method: {
      if (extension && callee.self->t == T::Kernel)
        return extension->kernel_method(*this, *callee.self, callee.s, args, kwargs, loc);
      if (callee.self->t == T::Tensor)
        return tensor_method(*callee.self, callee.s, args, kwargs, loc);
      return call_value_method(*callee.self, callee.s, args, kwargs, loc);
    }
    case T::Function:
      return call_function(*callee.fn, std::move(args), std::move(kwargs), loc);
    case T::Lambda:
      return call_lambda(callee, std::move(args), std::move(kwargs), loc);
    case T::Launcher:
      return launch(callee, std::move(args), std::move(kwargs), loc);
    case T::Kernel:
      fail(loc, "@triton.jit function '" + callee.fn->name +
                    "' cannot be called directly from host code; launch it with " +
                    callee.fn->name + "[grid](...)");
    default:
      fail(loc, "TypeError: '" + type_name(callee) + "' object is not callable");
  }
}

void WrapperInterpreter::Impl::release_call_scopes() {
  for (auto &w : call_scopes)
    if (auto scope = w.lock()) {
      std::map<std::string, Value> vars;
      vars.swap(scope->vars);  // destroyed here, after the scope's own map is empty
      scope->parent.reset();
    }
  call_scopes.clear();
}

namespace {

// Binds call arguments to parameters Python-style; returns the new scope.
std::shared_ptr<Scope> bind_params(WrapperInterpreter::Impl &impl, const Parameters &params,
                                   const std::string &fname, ValueList args, Kwargs kwargs,
                                   const std::shared_ptr<Scope> &defaults_scope,
                                   const std::shared_ptr<Scope> &parent, SourceLoc loc) {
  auto scope = std::make_shared<Scope>();
  scope->parent = parent;
  if (impl.call_scopes.size() >= 1024 &&
      (impl.call_scopes.size() & (impl.call_scopes.size() - 1)) == 0)
    std::erase_if(impl.call_scopes, [](const auto &w) { return w.expired(); });  // at powers of 2
  impl.call_scopes.push_back(scope);
  size_t next_pos = 0;
  ValueList extra;
  for (auto &p : params.params) {
    if (p.kind == ParamKind::Positional && next_pos < args.size())
      scope->vars[p.name] = args[next_pos++];
  }
  bool has_varargs = false, has_varkw = false;
  for (auto &p : params.params) {
    if (p.kind == ParamKind::VarArgs) {
      has_varargs = true;
      scope->vars[p.name] =
          Value::tuple(ValueList(args.begin() + static_cast<long>(next_pos), args.end()));
      next_pos = args.size();
    }
    if (p.kind == ParamKind::VarKw) has_varkw = true;
  }
  if (next_pos < args.size() && !has_varargs)
    impl.fail(loc, "TypeError: " + fname + "() takes " + std::to_string(next_pos) +
                       " positional arguments but " + std::to_string(args.size()) + " were given");
  Value varkw;
  varkw.t = Value::T::Dict;
  varkw.items = std::make_shared<ValueList>();
  for (auto &[k, v] : kwargs) {
    int idx = params.find(k);
    if (idx < 0 || params.params[static_cast<size_t>(idx)].kind == ParamKind::VarArgs ||
        params.params[static_cast<size_t>(idx)].kind == ParamKind::VarKw) {
      if (!has_varkw)
        impl.fail(loc, "TypeError: " + fname + "() got an unexpected keyword argument '" + k + "'");
      varkw.items->push_back(Value::str(k));
      varkw.items->push_back(v);
      continue;
    }
    if (scope->vars.count(k))
      impl.fail(loc, "TypeError: " + fname + "() got multiple values for argument '" + k + "'");
    scope->vars[k] = v;
  }
  for (auto &p : params.params) {
    if (p.kind == ParamKind::VarKw) scope->vars[p.name] = varkw;
    if (p.kind == ParamKind::VarArgs || p.kind == ParamKind::VarKw || scope->vars.count(p.name))
      continue;
    if (!p.default_value)
      impl.fail(loc, "TypeError: " + fname + "() missing required argument: '" + p.name + "'");
    scope->vars[p.name] = impl.eval(*p.default_value, defaults_scope);
  }
  return scope;
}

}  // namespace

Value WrapperInterpreter::Impl::call_function(const FunctionDef &f, ValueList args, Kwargs kwargs,
                                              SourceLoc loc) {
  if (depth >= options.max_call_depth)
    fail(loc, "RecursionError: maximum call depth of " + std::to_string(options.max_call_depth) +
                  " exceeded in wrapper");
  auto scope = bind_params(*this, f.params, f.name, std::move(args), std::move(kwargs), globals,
                           nullptr, loc);
  ++depth;
  Value ret;
  try {
    exec_block(f.body, scope, ret);
  } catch (...) {
    --depth;
    throw;
  }
  --depth;
  return ret;
}

Value WrapperInterpreter::Impl::call_lambda(const Value &lam, ValueList args, Kwargs kwargs,
                                            SourceLoc loc) {
  if (depth >= options.max_call_depth)
    fail(loc, "RecursionError: maximum call depth of " + std::to_string(options.max_call_depth) +
                  " exceeded in wrapper");
  auto scope = bind_params(*this, lam.lambda->params, "<lambda>", std::move(args),
                           std::move(kwargs), lam.closure, lam.closure, loc);
  ++depth;
  Value v;
  try {
    v = eval(*lam.lambda->body, scope);
  } catch (...) {
    --depth;
    throw;
  }
  --depth;
  return v;
}

}  // namespace opforge::compiler
