//===- ast.cpp - AST helpers: names, traversal, lookups --------------------===//
#include "opforge/compiler/ast.h"

namespace opforge::compiler::ast {

std::string_view op_symbol(BinOpKind op) {
  switch (op) {
    case BinOpKind::Add:
      return "+";
    case BinOpKind::Sub:
      return "-";
    case BinOpKind::Mult:
      return "*";
    case BinOpKind::MatMult:
      return "@";
    case BinOpKind::Div:
      return "/";
    case BinOpKind::FloorDiv:
      return "//";
    case BinOpKind::Mod:
      return "%";
    case BinOpKind::Pow:
      return "**";
    case BinOpKind::LShift:
      return "<<";
    case BinOpKind::RShift:
      return ">>";
    case BinOpKind::BitOr:
      return "|";
    case BinOpKind::BitXor:
      return "^";
    case BinOpKind::BitAnd:
      return "&";
  }
  return "?";
}
std::string_view op_symbol(UnaryOpKind op) {
  switch (op) {
    case UnaryOpKind::UAdd:
      return "+";
    case UnaryOpKind::USub:
      return "-";
    case UnaryOpKind::Not:
      return "not";
    case UnaryOpKind::Invert:
      return "~";
  }
  return "?";
}
std::string_view op_symbol(BoolOpKind op) { return op == BoolOpKind::And ? "and" : "or"; }
std::string_view op_symbol(CmpOpKind op) {
  switch (op) {
    case CmpOpKind::Eq:
      return "==";
    case CmpOpKind::NotEq:
      return "!=";
    case CmpOpKind::Lt:
      return "<";
    case CmpOpKind::LtE:
      return "<=";
    case CmpOpKind::Gt:
      return ">";
    case CmpOpKind::GtE:
      return ">=";
    case CmpOpKind::Is:
      return "is";
    case CmpOpKind::IsNot:
      return "is not";
    case CmpOpKind::In:
      return "in";
    case CmpOpKind::NotIn:
      return "not in";
  }
  return "?";
}
std::string_view op_name(BinOpKind op) {
  switch (op) {
    case BinOpKind::Add:
      return "Add";
    case BinOpKind::Sub:
      return "Sub";
    case BinOpKind::Mult:
      return "Mult";
    case BinOpKind::MatMult:
      return "MatMult";
    case BinOpKind::Div:
      return "Div";
    case BinOpKind::FloorDiv:
      return "FloorDiv";
    case BinOpKind::Mod:
      return "Mod";
    case BinOpKind::Pow:
      return "Pow";
    case BinOpKind::LShift:
      return "LShift";
    case BinOpKind::RShift:
      return "RShift";
    case BinOpKind::BitOr:
      return "BitOr";
    case BinOpKind::BitXor:
      return "BitXor";
    case BinOpKind::BitAnd:
      return "BitAnd";
  }
  return "?";
}
std::string_view op_name(UnaryOpKind op) {
  switch (op) {
    case UnaryOpKind::UAdd:
      return "UAdd";
    case UnaryOpKind::USub:
      return "USub";
    case UnaryOpKind::Not:
      return "Not";
    case UnaryOpKind::Invert:
      return "Invert";
  }
  return "?";
}
std::string_view op_name(BoolOpKind op) { return op == BoolOpKind::And ? "And" : "Or"; }
std::string_view op_name(CmpOpKind op) {
  switch (op) {
    case CmpOpKind::Eq:
      return "Eq";
    case CmpOpKind::NotEq:
      return "NotEq";
    case CmpOpKind::Lt:
      return "Lt";
    case CmpOpKind::LtE:
      return "LtE";
    case CmpOpKind::Gt:
      return "Gt";
    case CmpOpKind::GtE:
      return "GtE";
    case CmpOpKind::Is:
      return "Is";
    case CmpOpKind::IsNot:
      return "IsNot";
    case CmpOpKind::In:
      return "In";
    case CmpOpKind::NotIn:
      return "NotIn";
  }
  return "?";
}

std::string_view expr_kind_name(ExprKind k) {
  switch (k) {
    case ExprKind::Name:
      return "Name";
    case ExprKind::Constant:
      return "Constant";
    case ExprKind::FString:
      return "FString";
    case ExprKind::Attribute:
      return "Attribute";
    case ExprKind::Subscript:
      return "Subscript";
    case ExprKind::Slice:
      return "Slice";
    case ExprKind::Call:
      return "Call";
    case ExprKind::BinOp:
      return "BinOp";
    case ExprKind::UnaryOp:
      return "UnaryOp";
    case ExprKind::BoolOp:
      return "BoolOp";
    case ExprKind::Compare:
      return "Compare";
    case ExprKind::IfExp:
      return "IfExp";
    case ExprKind::Lambda:
      return "Lambda";
    case ExprKind::Tuple:
      return "Tuple";
    case ExprKind::List:
      return "List";
    case ExprKind::Set:
      return "Set";
    case ExprKind::Dict:
      return "Dict";
    case ExprKind::Comprehension:
      return "Comprehension";
    case ExprKind::Starred:
      return "Starred";
  }
  return "?";
}

std::string_view stmt_kind_name(StmtKind k) {
  switch (k) {
    case StmtKind::FunctionDef:
      return "FunctionDef";
    case StmtKind::ExprStmt:
      return "Expr";
    case StmtKind::Assign:
      return "Assign";
    case StmtKind::AnnAssign:
      return "AnnAssign";
    case StmtKind::AugAssign:
      return "AugAssign";
    case StmtKind::If:
      return "If";
    case StmtKind::For:
      return "For";
    case StmtKind::While:
      return "While";
    case StmtKind::Break:
      return "Break";
    case StmtKind::Continue:
      return "Continue";
    case StmtKind::Pass:
      return "Pass";
    case StmtKind::Return:
      return "Return";
    case StmtKind::Assert:
      return "Assert";
    case StmtKind::Raise:
      return "Raise";
    case StmtKind::Import:
      return "Import";
    case StmtKind::ImportFrom:
      return "ImportFrom";
  }
  return "?";
}

int Parameters::find(std::string_view name) const {
  for (size_t i = 0; i < params.size(); ++i)
    if (params[i].name == name) return static_cast<int>(i);
  return -1;
}

const Keyword *Call::keyword(std::string_view name) const {
  for (auto &k : keywords)
    if (k.name == name) return &k;
  return nullptr;
}

const Expr *FunctionDef::decorator(std::string_view dotted) const {
  for (auto &d : decorators) {
    const Expr *callee = d.get();
    if (auto *c = d->as<Call>()) callee = c->func.get();
    std::string n = dotted_name(*callee);
    if (n == dotted) return d.get();
    // `from triton import jit` style: the last component alone.
    auto dot = dotted.rfind('.');
    if (dot != std::string_view::npos && n == dotted.substr(dot + 1)) return d.get();
  }
  return nullptr;
}

bool FunctionDef::is_jit() const { return decorator("triton.jit") != nullptr; }

// As Python binds names: the last `def` of a name is the one the module holds.
const FunctionDef *Module::function(std::string_view name) const {
  const FunctionDef *found = nullptr;
  for (auto &s : body)
    if (auto *f = s->as<FunctionDef>(); f && f->name == name) found = f;
  return found;
}

std::vector<const FunctionDef *> Module::functions() const {
  std::vector<const FunctionDef *> out;
  for (auto &s : body)
    if (auto *f = s->as<FunctionDef>()) out.push_back(f);
  return out;
}

std::vector<const FunctionDef *> Module::jit_functions() const {
  std::vector<const FunctionDef *> out;
  for (auto *f : functions())
    if (f->is_jit()) out.push_back(f);
  return out;
}

std::vector<const FunctionDef *> Module::wrapper_functions() const {
  std::vector<const FunctionDef *> out;
  for (auto *f : functions())
    if (!f->is_jit()) out.push_back(f);
  return out;
}

static void params_children(const Parameters &ps, const std::function<void(const Expr &)> &fn) {
  for (auto &p : ps.params) {
    if (p.annotation) fn(*p.annotation);
    if (p.default_value) fn(*p.default_value);
  }
}

void for_each_child(const Expr &e, const std::function<void(const Expr &)> &fn) {
  auto opt = [&](const ExprPtr &p) {
    if (p) fn(*p);
  };
  auto all = [&](const std::vector<ExprPtr> &v) {
    for (auto &p : v) opt(p);
  };
  switch (e.kind) {
    case ExprKind::Name:
    case ExprKind::Constant:
      break;
    case ExprKind::FString:
      for (auto &p : e.cast<FString>().parts) opt(p.expr);
      break;
    case ExprKind::Attribute:
      opt(e.cast<Attribute>().value);
      break;
    case ExprKind::Subscript:
      opt(e.cast<Subscript>().value);
      opt(e.cast<Subscript>().index);
      break;
    case ExprKind::Slice: {
      auto &s = e.cast<Slice>();
      opt(s.lower);
      opt(s.upper);
      opt(s.step);
      break;
    }
    case ExprKind::Call: {
      auto &c = e.cast<Call>();
      opt(c.func);
      all(c.args);
      for (auto &k : c.keywords) opt(k.value);
      break;
    }
    case ExprKind::BinOp:
      opt(e.cast<BinOp>().left);
      opt(e.cast<BinOp>().right);
      break;
    case ExprKind::UnaryOp:
      opt(e.cast<UnaryOp>().operand);
      break;
    case ExprKind::BoolOp:
      all(e.cast<BoolOp>().values);
      break;
    case ExprKind::Compare:
      opt(e.cast<Compare>().left);
      all(e.cast<Compare>().comparators);
      break;
    case ExprKind::IfExp: {
      auto &i = e.cast<IfExp>();
      opt(i.body);
      opt(i.test);
      opt(i.orelse);
      break;
    }
    case ExprKind::Lambda:
      params_children(e.cast<Lambda>().params, fn);
      opt(e.cast<Lambda>().body);
      break;
    case ExprKind::Tuple:
      all(e.cast<Tuple>().elts);
      break;
    case ExprKind::List:
      all(e.cast<List>().elts);
      break;
    case ExprKind::Set:
      all(e.cast<Set>().elts);
      break;
    case ExprKind::Dict: {
      auto &d = e.cast<Dict>();
      for (size_t i = 0; i < d.values.size(); ++i) {
        opt(d.keys[i]);
        opt(d.values[i]);
      }
      break;
    }
    case ExprKind::Comprehension: {
      auto &c = e.cast<Comprehension>();
      opt(c.elt);
      opt(c.value);
      for (auto &g : c.generators) {
        opt(g.target);
        opt(g.iter);
        all(g.ifs);
      }
      break;
    }
    case ExprKind::Starred:
      opt(e.cast<Starred>().value);
      break;
  }
}

void for_each_child(const Stmt &s, const std::function<void(const Expr &)> &on_expr,
                    const std::function<void(const Stmt &)> &on_stmt) {
  auto opt = [&](const ExprPtr &p) {
    if (p) on_expr(*p);
  };
  auto body = [&](const StmtList &b) {
    for (auto &x : b) on_stmt(*x);
  };
  switch (s.kind) {
    case StmtKind::FunctionDef: {
      auto &f = s.cast<FunctionDef>();
      for (auto &d : f.decorators) opt(d);
      params_children(f.params, on_expr);
      opt(f.returns);
      body(f.body);
      break;
    }
    case StmtKind::ExprStmt:
      opt(s.cast<ExprStmt>().value);
      break;
    case StmtKind::Assign:
      for (auto &t : s.cast<Assign>().targets) opt(t);
      opt(s.cast<Assign>().value);
      break;
    case StmtKind::AnnAssign: {
      auto &a = s.cast<AnnAssign>();
      opt(a.target);
      opt(a.annotation);
      opt(a.value);
      break;
    }
    case StmtKind::AugAssign:
      opt(s.cast<AugAssign>().target);
      opt(s.cast<AugAssign>().value);
      break;
    case StmtKind::If:
      opt(s.cast<If>().test);
      body(s.cast<If>().body);
      body(s.cast<If>().orelse);
      break;
    case StmtKind::For:
      opt(s.cast<For>().target);
      opt(s.cast<For>().iter);
      body(s.cast<For>().body);
      body(s.cast<For>().orelse);
      break;
    case StmtKind::While:
      opt(s.cast<While>().test);
      body(s.cast<While>().body);
      body(s.cast<While>().orelse);
      break;
    case StmtKind::Return:
      opt(s.cast<Return>().value);
      break;
    case StmtKind::Assert:
      opt(s.cast<Assert>().test);
      opt(s.cast<Assert>().msg);
      break;
    case StmtKind::Raise:
      opt(s.cast<Raise>().exc);
      opt(s.cast<Raise>().cause);
      break;
    case StmtKind::Break:
    case StmtKind::Continue:
    case StmtKind::Pass:
    case StmtKind::Import:
    case StmtKind::ImportFrom:
      break;
  }
}

void walk(const Expr &e, const std::function<void(const Expr &)> &fn) {
  fn(e);
  for_each_child(e, [&](const Expr &c) { walk(c, fn); });
}

void walk(const Stmt &s, const std::function<void(const Expr &)> &on_expr,
          const std::function<void(const Stmt &)> &on_stmt) {
  on_stmt(s);
  for_each_child(
      s, [&](const Expr &e) { walk(e, on_expr); },
      [&](const Stmt &c) { walk(c, on_expr, on_stmt); });
}

std::string dotted_name(const Expr &e) {
  if (auto *n = e.as<Name>()) return n->id;
  if (auto *a = e.as<Attribute>()) {
    std::string base = dotted_name(*a->value);
    if (base.empty()) return {};
    return base + "." + a->attr;
  }
  return {};
}

}  // namespace opforge::compiler::ast
