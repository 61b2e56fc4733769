//===- ast_dump.cpp - AST printer (--dump ast) and expression unparser ----===//
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "opforge/compiler/ast.h"

namespace opforge::compiler::ast {

namespace {

int prec_of(BinOpKind op) {
  switch (op) {
    case BinOpKind::BitOr:
      return 7;
    case BinOpKind::BitXor:
      return 8;
    case BinOpKind::BitAnd:
      return 9;
    case BinOpKind::LShift:
    case BinOpKind::RShift:
      return 10;
    case BinOpKind::Add:
    case BinOpKind::Sub:
      return 11;
    case BinOpKind::Pow:
      return 14;
    default:
      return 12;
  }
}

int prec_of(const Expr &e) {
  switch (e.kind) {
    case ExprKind::Lambda:
      return 1;
    case ExprKind::IfExp:
      return 2;
    case ExprKind::BoolOp:
      return e.cast<BoolOp>().op == BoolOpKind::Or ? 3 : 4;
    case ExprKind::UnaryOp:
      return e.cast<UnaryOp>().op == UnaryOpKind::Not ? 5 : 13;
    case ExprKind::Compare:
      return 6;
    case ExprKind::BinOp:
      return prec_of(e.cast<BinOp>().op);
    case ExprKind::Tuple:
      return 16;  // unparse always parenthesizes tuples
    default:
      return 16;
  }
}

std::string quote(const std::string &s) {
  std::string out = "'";
  for (char c : s) {
    switch (c) {
      case '\\':
        out += "\\\\";
        break;
      case '\'':
        out += "\\'";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\t':
        out += "\\t";
        break;
      case '\r':
        out += "\\r";
        break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\x%02x", static_cast<unsigned char>(c));
          out += buf;
        } else {
          out += c;
        }
    }
  }
  return out + "'";
}

std::string float_repr(double v) {
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  if (std::isnan(v)) return "nan";
  char buf[40];
  for (int p = 1; p <= 17; ++p) {
    std::snprintf(buf, sizeof buf, "%.*g", p, v);
    if (std::strtod(buf, nullptr) == v) break;
  }
  std::string s = buf;
  if (s.find_first_of(".en") == std::string::npos) s += ".0";
  return s;
}

std::string const_repr(const Constant &c) {
  return std::visit(
      [&](auto &&v) -> std::string {
        using T = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<T, NoneValue>)
          return "None";
        else if constexpr (std::is_same_v<T, EllipsisValue>)
          return "...";
        else if constexpr (std::is_same_v<T, bool>)
          return v ? "True" : "False";
        else if constexpr (std::is_same_v<T, int64_t>)
          return c.big_unsigned ? std::to_string(static_cast<uint64_t>(v)) : std::to_string(v);
        else if constexpr (std::is_same_v<T, double>)
          return float_repr(v);
        else
          return quote(v);
      },
      c.value);
}

std::string params_text(const Parameters &ps) {
  std::string out;
  bool star_done = false;
  for (size_t i = 0; i < ps.params.size(); ++i) {
    auto &p = ps.params[i];
    if (!out.empty()) out += ", ";
    if (p.kind == ParamKind::KwOnly && !star_done) {
      out += "*, ";
      star_done = true;
    }
    if (p.kind == ParamKind::VarArgs) {
      out += "*";
      star_done = true;
    }
    if (p.kind == ParamKind::VarKw) out += "**";
    out += p.name;
    if (p.annotation) out += ": " + unparse(*p.annotation);
    if (p.default_value) out += (p.annotation ? " = " : "=") + unparse(*p.default_value);
  }
  return out;
}

std::string sub(const Expr &e, int min_prec) {
  std::string s = unparse(e);
  return prec_of(e) < min_prec ? "(" + s + ")" : s;
}

std::string comp_text(const std::vector<CompFor> &gens) {
  std::string out;
  for (auto &g : gens) {
    out += " for " + unparse(*g.target) + " in " + sub(*g.iter, 3);
    for (auto &i : g.ifs) out += " if " + sub(*i, 3);
  }
  return out;
}

std::string seq(const std::vector<ExprPtr> &v) {
  std::string out;
  for (size_t i = 0; i < v.size(); ++i) out += (i ? ", " : "") + sub(*v[i], 1);
  return out;
}

}  // namespace

std::string unparse(const Expr &e) {
  switch (e.kind) {
    case ExprKind::Name:
      return e.cast<Name>().id;
    case ExprKind::Constant:
      return const_repr(e.cast<Constant>());
    case ExprKind::FString: {
      std::string out = "f'";
      for (auto &p : e.cast<FString>().parts) {
        if (!p.expr) {
          std::string q = quote(p.literal);
          for (char c : q.substr(1, q.size() - 2)) {
            out += c;
            if (c == '{' || c == '}') out += c;
          }
          continue;
        }
        out += "{" + unparse(*p.expr);
        if (p.conversion) out += std::string("!") + p.conversion;
        if (!p.format_spec.empty()) out += ":" + p.format_spec;
        out += "}";
      }
      return out + "'";
    }
    case ExprKind::Attribute: {
      auto &a = e.cast<Attribute>();
      std::string base = sub(*a.value, 16);
      if (auto *c = a.value->as<Constant>(); c && c->is_int()) base = "(" + base + ")";
      return base + "." + a.attr;
    }
    case ExprKind::Subscript: {
      auto &s = e.cast<Subscript>();
      std::string idx;
      if (auto *t = s.index->as<Tuple>(); t && !t->elts.empty()) {
        idx = seq(t->elts);
        if (t->elts.size() == 1) idx += ",";
      } else {
        idx = unparse(*s.index);
      }
      return sub(*s.value, 16) + "[" + idx + "]";
    }
    case ExprKind::Slice: {
      auto &s = e.cast<Slice>();
      std::string out =
          (s.lower ? unparse(*s.lower) : "") + ":" + (s.upper ? unparse(*s.upper) : "");
      if (s.step) out += ":" + unparse(*s.step);
      return out;
    }
    case ExprKind::Call: {
      auto &c = e.cast<Call>();
      std::string out = sub(*c.func, 16) + "(";
      bool first = true;
      for (auto &a : c.args) {
        out += (first ? "" : ", ") + sub(*a, 1);
        first = false;
      }
      for (auto &k : c.keywords) {
        out += (first ? "" : ", ") + (k.name.empty() ? "**" : k.name + "=") + sub(*k.value, 1);
        first = false;
      }
      return out + ")";
    }
    case ExprKind::BinOp: {
      auto &b = e.cast<BinOp>();
      int p = prec_of(b.op);
      bool right_assoc = b.op == BinOpKind::Pow;
      std::string l = sub(*b.left, right_assoc ? p + 1 : p);
      std::string r = sub(*b.right, right_assoc ? (b.right->is<UnaryOp>() ? 13 : p) : p + 1);
      return l + " " + std::string(op_symbol(b.op)) + " " + r;
    }
    case ExprKind::UnaryOp: {
      auto &u = e.cast<UnaryOp>();
      if (u.op == UnaryOpKind::Not) return "not " + sub(*u.operand, 5);
      return std::string(op_symbol(u.op)) + sub(*u.operand, 13);
    }
    case ExprKind::BoolOp: {
      auto &b = e.cast<BoolOp>();
      int p = prec_of(e);
      std::string out;
      for (size_t i = 0; i < b.values.size(); ++i)
        out += (i ? " " + std::string(op_symbol(b.op)) + " " : "") + sub(*b.values[i], p + 1);
      return out;
    }
    case ExprKind::Compare: {
      auto &c = e.cast<Compare>();
      std::string out = sub(*c.left, 7);
      for (size_t i = 0; i < c.ops.size(); ++i)
        out += " " + std::string(op_symbol(c.ops[i])) + " " + sub(*c.comparators[i], 7);
      return out;
    }
    case ExprKind::IfExp: {
      auto &i = e.cast<IfExp>();
      return sub(*i.body, 3) + " if " + sub(*i.test, 3) + " else " + sub(*i.orelse, 2);
    }
    case ExprKind::Lambda: {
      auto &l = e.cast<Lambda>();
      std::string ps = params_text(l.params);
      return "lambda" + (ps.empty() ? "" : " " + ps) + ": " + sub(*l.body, 1);
    }
    case ExprKind::Tuple: {
      auto &t = e.cast<Tuple>();
      if (t.elts.size() == 1) return "(" + sub(*t.elts[0], 1) + ",)";
      return "(" + seq(t.elts) + ")";
    }
    case ExprKind::List:
      return "[" + seq(e.cast<List>().elts) + "]";
    case ExprKind::Set:
      return "{" + seq(e.cast<Set>().elts) + "}";
    case ExprKind::Dict: {
      auto &d = e.cast<Dict>();
      std::string out = "{";
      for (size_t i = 0; i < d.values.size(); ++i) {
        if (i) out += ", ";
        if (d.keys[i])
          out += sub(*d.keys[i], 1) + ": " + sub(*d.values[i], 1);
        else
          out += "**" + sub(*d.values[i], 7);
      }
      return out + "}";
    }
    case ExprKind::Comprehension: {
      auto &c = e.cast<Comprehension>();
      std::string body = sub(*c.elt, 1);
      if (c.comp == CompKind::Dict) body += ": " + sub(*c.value, 1);
      body += comp_text(c.generators);
      switch (c.comp) {
        case CompKind::List:
          return "[" + body + "]";
        case CompKind::Generator:
          return "(" + body + ")";
        default:
          return "{" + body + "}";
      }
    }
    case ExprKind::Starred:
      return "*" + sub(*e.cast<Starred>().value, 7);
  }
  return "?";
}

namespace {

std::string at(SourceLoc l) { return " @" + std::to_string(l.line) + ":" + std::to_string(l.col); }
std::string pad(int indent) { return std::string(static_cast<size_t>(indent) * 2, ' '); }

void dump_body(std::string &out, const char *label, const StmtList &body, int indent) {
  if (body.empty()) return;
  out += pad(indent) + label + ":\n";
  for (auto &s : body) out += dump_ast(*s, indent + 1);
}

void dump_params(std::string &out, const Parameters &ps, int indent) {
  for (auto &p : ps.params) {
    const char *kind = p.kind == ParamKind::Positional ? "positional"
                       : p.kind == ParamKind::KwOnly   ? "kwonly"
                       : p.kind == ParamKind::VarArgs  ? "varargs"
                                                       : "varkw";
    out += pad(indent) + "Param name=" + p.name + " kind=" + kind + at(p.loc) + "\n";
    if (p.annotation)
      out += pad(indent + 1) + "annotation:\n" + dump_ast(*p.annotation, indent + 2);
    if (p.default_value)
      out += pad(indent + 1) + "default:\n" + dump_ast(*p.default_value, indent + 2);
  }
}

}  // namespace

std::string dump_ast(const Expr &e, int indent) {
  std::string out = pad(indent) + std::string(expr_kind_name(e.kind));
  std::string extra;
  switch (e.kind) {
    case ExprKind::Name:
      extra = " id=" + e.cast<Name>().id;
      break;
    case ExprKind::Constant:
      extra = " value=" + const_repr(e.cast<Constant>());
      break;
    case ExprKind::Attribute:
      extra = " attr=" + e.cast<Attribute>().attr;
      break;
    case ExprKind::BinOp:
      extra = " op=" + std::string(op_name(e.cast<BinOp>().op));
      break;
    case ExprKind::UnaryOp:
      extra = " op=" + std::string(op_name(e.cast<UnaryOp>().op));
      break;
    case ExprKind::BoolOp:
      extra = " op=" + std::string(op_name(e.cast<BoolOp>().op));
      break;
    case ExprKind::Compare: {
      extra = " ops=";
      auto &c = e.cast<Compare>();
      for (size_t i = 0; i < c.ops.size(); ++i)
        extra += (i ? "," : "") + std::string(op_name(c.ops[i]));
      break;
    }
    case ExprKind::Comprehension: {
      static const char *names[] = {"list", "generator", "set", "dict"};
      extra = std::string(" comp=") + names[static_cast<int>(e.cast<Comprehension>().comp)];
      break;
    }
    case ExprKind::FString: {
      auto &f = e.cast<FString>();
      out += at(e.loc) + "\n";
      for (auto &p : f.parts) {
        if (!p.expr) {
          out += pad(indent + 1) + "Literal value=" + quote(p.literal) + "\n";
        } else {
          out += pad(indent + 1) + "Field";
          if (p.conversion) out += std::string(" conversion=") + p.conversion;
          if (!p.format_spec.empty()) out += " format=" + quote(p.format_spec);
          out += "\n" + dump_ast(*p.expr, indent + 2);
        }
      }
      return out;
    }
    case ExprKind::Call: {
      auto &c = e.cast<Call>();
      out += at(e.loc) + "\n";
      out += pad(indent + 1) + "func:\n" + dump_ast(*c.func, indent + 2);
      if (!c.args.empty()) {
        out += pad(indent + 1) + "args:\n";
        for (auto &a : c.args) out += dump_ast(*a, indent + 2);
      }
      for (auto &k : c.keywords)
        out += pad(indent + 1) + "keyword " + (k.name.empty() ? "**" : k.name) + ":\n" +
               dump_ast(*k.value, indent + 2);
      return out;
    }
    case ExprKind::Slice: {
      auto &s = e.cast<Slice>();
      out += at(e.loc) + "\n";
      if (s.lower) out += pad(indent + 1) + "lower:\n" + dump_ast(*s.lower, indent + 2);
      if (s.upper) out += pad(indent + 1) + "upper:\n" + dump_ast(*s.upper, indent + 2);
      if (s.step) out += pad(indent + 1) + "step:\n" + dump_ast(*s.step, indent + 2);
      return out;
    }
    case ExprKind::Lambda: {
      auto &l = e.cast<Lambda>();
      out += at(e.loc) + "\n";
      dump_params(out, l.params, indent + 1);
      out += pad(indent + 1) + "body:\n" + dump_ast(*l.body, indent + 2);
      return out;
    }
    case ExprKind::Dict: {
      auto &d = e.cast<Dict>();
      out += at(e.loc) + "\n";
      for (size_t i = 0; i < d.values.size(); ++i) {
        if (d.keys[i])
          out += pad(indent + 1) + "key:\n" + dump_ast(*d.keys[i], indent + 2);
        else
          out += pad(indent + 1) + "unpack:\n";
        out += pad(indent + 1) + "value:\n" + dump_ast(*d.values[i], indent + 2);
      }
      return out;
    }
    default:
      break;
  }
  out += extra + at(e.loc) + "\n";
  for_each_child(e, [&](const Expr &c) { out += dump_ast(c, indent + 1); });
  return out;
}

std::string dump_ast(const Stmt &s, int indent) {
  std::string out = pad(indent) + std::string(stmt_kind_name(s.kind));
  switch (s.kind) {
    case StmtKind::FunctionDef: {
      auto &f = s.cast<FunctionDef>();
      out += " name=" + f.name + (f.is_jit() ? " jit" : "") + at(s.loc) + "\n";
      if (!f.docstring.empty()) out += pad(indent + 1) + "docstring=" + quote(f.docstring) + "\n";
      if (!f.decorators.empty()) {
        out += pad(indent + 1) + "decorators:\n";
        for (auto &d : f.decorators) out += dump_ast(*d, indent + 2);
      }
      if (!f.params.params.empty()) {
        out += pad(indent + 1) + "params:\n";
        dump_params(out, f.params, indent + 2);
      }
      if (f.returns) out += pad(indent + 1) + "returns:\n" + dump_ast(*f.returns, indent + 2);
      dump_body(out, "body", f.body, indent + 1);
      return out;
    }
    case StmtKind::AugAssign:
      out += " op=" + std::string(op_name(s.cast<AugAssign>().op));
      break;
    case StmtKind::Import:
    case StmtKind::ImportFrom: {
      const std::vector<ImportAlias> *names;
      if (auto *i = s.as<Import>()) {
        names = &i->names;
      } else {
        auto &f = s.cast<ImportFrom>();
        out += " module=" + std::string(static_cast<size_t>(f.level), '.') + f.module;
        names = &f.names;
      }
      out += " names=";
      for (size_t i = 0; i < names->size(); ++i) {
        auto &a = (*names)[i];
        out += (i ? "," : "") + a.name + (a.asname.empty() ? "" : " as " + a.asname);
      }
      break;
    }
    case StmtKind::If: {
      auto &i = s.cast<If>();
      out += at(s.loc) + "\n" + pad(indent + 1) + "test:\n" + dump_ast(*i.test, indent + 2);
      dump_body(out, "body", i.body, indent + 1);
      dump_body(out, "orelse", i.orelse, indent + 1);
      return out;
    }
    case StmtKind::For: {
      auto &f = s.cast<For>();
      out += at(s.loc) + "\n" + pad(indent + 1) + "target:\n" + dump_ast(*f.target, indent + 2);
      out += pad(indent + 1) + "iter:\n" + dump_ast(*f.iter, indent + 2);
      dump_body(out, "body", f.body, indent + 1);
      dump_body(out, "orelse", f.orelse, indent + 1);
      return out;
    }
    case StmtKind::While: {
      auto &w = s.cast<While>();
      out += at(s.loc) + "\n" + pad(indent + 1) + "test:\n" + dump_ast(*w.test, indent + 2);
      dump_body(out, "body", w.body, indent + 1);
      dump_body(out, "orelse", w.orelse, indent + 1);
      return out;
    }
    default:
      break;
  }
  out += at(s.loc) + "\n";
  for_each_child(
      s, [&](const Expr &e) { out += dump_ast(e, indent + 1); },
      [&](const Stmt &c) { out += dump_ast(c, indent + 1); });
  return out;
}

std::string dump_ast(const Module &m) {
  std::string out = "Module file=" + m.file + "\n";
  if (!m.docstring.empty()) out += "  docstring=" + quote(m.docstring) + "\n";
  for (auto &s : m.body) out += dump_ast(*s, 1);
  return out;
}

}  // namespace opforge::compiler::ast
