//===- asm_expr.cpp - assembler expressions: constants, symbols, %modifiers -===//
#include <cctype>

#include "asm_internal.h"

namespace opforge::isa::asmimpl {

struct ExprParser {
  const Assembler &as;
  const Stmt &st;
  std::string_view s;
  int col0;
  size_t i = 0;

  SourcePos here() const { return {st.pos.line, col0 + static_cast<int>(i)}; }
  [[noreturn]] void fail(const std::string &m) const { as.error(here(), m); }
  void ws() {
    while (i < s.size() && (s[i] == ' ' || s[i] == '\t')) ++i;
  }
  bool eat(std::string_view tok) {
    ws();
    if (s.substr(i, tok.size()) == tok) {
      i += tok.size();
      return true;
    }
    return false;
  }

  static Value absolute(int64_t v) { return Value{"", v, Mod::None}; }
  Value binop(const Value &a, const Value &b, char op) {
    if (a.mod != Mod::None || b.mod != Mod::None) fail("%-modifier must be the whole operand");
    if (op == '+') {
      if (!a.absolute() && !b.absolute()) fail("cannot add two symbols");
      Value r = a.absolute() ? b : a;
      r.add = static_cast<int64_t>(static_cast<uint64_t>(a.add) + static_cast<uint64_t>(b.add));
      return r;
    }
    if (op == '-') {
      if (b.absolute()) {
        Value r = a;
        r.add = static_cast<int64_t>(static_cast<uint64_t>(a.add) - static_cast<uint64_t>(b.add));
        return r;
      }
      uint64_t oa = 0, ob = 0;
      if (!a.absolute() && as.local_offset(a.sym, st, oa) && as.local_offset(b.sym, st, ob))
        return absolute(static_cast<int64_t>(oa - ob) + a.add - b.add);
      fail("difference of symbols not in the current section");
    }
    if (!a.absolute() || !b.absolute())
      fail(std::string("operator '") + op + "' needs constant operands");
    const uint64_t x = static_cast<uint64_t>(a.add), y = static_cast<uint64_t>(b.add);
    switch (op) {
      case '*':
        return absolute(static_cast<int64_t>(x * y));
      case '/':
      case '%':
        if (b.add == 0) fail("division by zero");
        return absolute(op == '/' ? a.add / b.add : a.add % b.add);
      case '<':
        return absolute(static_cast<int64_t>(x << (y & 63)));
      case '>':
        return absolute(a.add >> (y & 63));
      case '&':
        return absolute(static_cast<int64_t>(x & y));
      case '|':
        return absolute(static_cast<int64_t>(x | y));
      case '^':
        return absolute(static_cast<int64_t>(x ^ y));
    }
    fail("bad operator");
  }

  Value parse_or() {
    Value v = parse_xor();
    while (true) {
      ws();
      if (i < s.size() && s[i] == '|') {
        ++i;
        v = binop(v, parse_xor(), '|');
      } else {
        return v;
      }
    }
  }
  Value parse_xor() {
    Value v = parse_and();
    while (eat("^")) v = binop(v, parse_and(), '^');
    return v;
  }
  Value parse_and() {
    Value v = parse_shift();
    while (eat("&")) v = binop(v, parse_shift(), '&');
    return v;
  }
  Value parse_shift() {
    Value v = parse_add();
    while (true) {
      if (eat("<<"))
        v = binop(v, parse_add(), '<');
      else if (eat(">>"))
        v = binop(v, parse_add(), '>');
      else
        return v;
    }
  }
  Value parse_add() {
    Value v = parse_mul();
    while (true) {
      if (eat("+"))
        v = binop(v, parse_mul(), '+');
      else if (eat("-"))
        v = binop(v, parse_mul(), '-');
      else
        return v;
    }
  }
  Value parse_mul() {
    Value v = parse_unary();
    while (true) {
      ws();
      if (i < s.size() && (s[i] == '*' || s[i] == '/' || s[i] == '%') &&
          !(s[i] == '%' && i + 1 < s.size() &&
            std::isalpha(static_cast<unsigned char>(s[i + 1])))) {
        const char op = s[i++];
        v = binop(v, parse_unary(), op);
      } else {
        return v;
      }
    }
  }
  Value parse_unary() {
    if (eat("-")) {
      Value v = parse_unary();
      if (!v.absolute()) fail("cannot negate a symbol");
      return absolute(static_cast<int64_t>(0 - static_cast<uint64_t>(v.add)));
    }
    if (eat("~")) {
      Value v = parse_unary();
      if (!v.absolute()) fail("cannot complement a symbol");
      return absolute(~v.add);
    }
    if (eat("+")) return parse_unary();
    return parse_primary();
  }
  Value parse_primary() {
    ws();
    if (i >= s.size()) fail("expected an expression");
    const char c = s[i];
    if (c == '(') {
      ++i;
      Value v = parse_or();
      if (!eat(")")) fail("expected ')'");
      return v;
    }
    if (c == '%') {
      ++i;
      size_t j = i;
      while (j < s.size() && (std::isalnum(static_cast<unsigned char>(s[j])) || s[j] == '_')) ++j;
      const std::string_view name = s.substr(i, j - i);
      Mod m = name == "hi"         ? Mod::Hi
              : name == "lo"       ? Mod::Lo
              : name == "pcrel_hi" ? Mod::PcrelHi
              : name == "pcrel_lo" ? Mod::PcrelLo
                                   : Mod::None;
      if (m == Mod::None) fail("unknown relocation modifier '%" + std::string(name) + "'");
      i = j;
      if (!eat("(")) fail("expected '(' after %" + std::string(name));
      Value v = parse_or();
      if (!eat(")")) fail("expected ')'");
      if (v.mod != Mod::None) fail("nested %-modifiers");
      v.mod = m;
      return v;
    }
    if (c == '\'') {
      if (i + 2 < s.size() && s[i + 2] == '\'') {
        const int64_t v = static_cast<unsigned char>(s[i + 1]);
        i += 3;
        return absolute(v);
      }
      fail("bad character constant");
    }
    if (std::isdigit(static_cast<unsigned char>(c))) {
      size_t j = i;
      while (j < s.size() && std::isalnum(static_cast<unsigned char>(s[j]))) ++j;
      std::string tok(s.substr(i, j - i));
      const SourcePos at = here();
      i = j;
      // Numeric local label reference: 1b / 1f.
      if (tok.size() >= 2 && (tok.back() == 'b' || tok.back() == 'f') &&
          tok.find_first_not_of("0123456789") == tok.size() - 1)
        return Value{as.resolve_numeric(tok, st, at), 0, Mod::None};
      uint64_t v = 0;
      int base = 10;
      size_t k = 0;
      if (tok.size() > 2 && tok[0] == '0' && (tok[1] == 'x' || tok[1] == 'X'))
        base = 16, k = 2;
      else if (tok.size() > 2 && tok[0] == '0' && (tok[1] == 'b' || tok[1] == 'B'))
        base = 2, k = 2;
      else if (tok.size() > 1 && tok[0] == '0')
        base = 8, k = 1;
      for (; k < tok.size(); ++k) {
        const char d = static_cast<char>(std::tolower(static_cast<unsigned char>(tok[k])));
        const int dv = std::isdigit(static_cast<unsigned char>(d)) ? d - '0'
                       : (d >= 'a' && d <= 'f')                    ? d - 'a' + 10
                                                                   : 99;
        if (dv >= base) as.error(at, "bad number '" + tok + "'");
        if (v > (~uint64_t{0} - static_cast<uint64_t>(dv)) / static_cast<uint64_t>(base))
          as.error(at, "number '" + tok + "' does not fit in 64 bits");
        v = v * static_cast<uint64_t>(base) + static_cast<uint64_t>(dv);
      }
      return absolute(static_cast<int64_t>(v));
    }
    if (std::isalpha(static_cast<unsigned char>(c)) || c == '_' || c == '.' || c == '$') {
      size_t j = i;
      while (j < s.size() && (std::isalnum(static_cast<unsigned char>(s[j])) || s[j] == '_' ||
                              s[j] == '.' || s[j] == '$'))
        ++j;
      std::string name(s.substr(i, j - i));
      i = j;
      if (name == ".") return Value{".", static_cast<int64_t>(st.offset), Mod::None};
      if (const AsmSymbol *sym = as.unit_.find_symbol(name); sym && sym->absolute)
        return absolute(static_cast<int64_t>(sym->value));
      return Value{name, 0, Mod::None};
    }
    fail(std::string("unexpected '") + c + "' in expression");
  }
};

Value Assembler::eval(const Operand &op, const Stmt &st) const {
  ExprParser p{*this, st, op.text, op.col};
  Value v = p.parse_or();
  p.ws();
  if (p.i != op.text.size())
    p.fail("unexpected '" + std::string(op.text.substr(p.i)) + "' after expression");
  return v;
}

int64_t Assembler::eval_const(const Operand &op, const Stmt &st) const {
  Value v = eval(op, st);
  if (v.mod != Mod::None) error({st.pos.line, op.col}, "%-modifier not allowed here");
  if (!v.absolute()) {
    uint64_t a = 0;
    if (v.sym != "." && !local_offset(v.sym, st, a))
      error({st.pos.line, op.col}, "expected a constant, got symbol '" + v.sym + "'");
    error({st.pos.line, op.col}, "expected a constant, got an address");
  }
  return v.add;
}

}  // namespace opforge::isa::asmimpl
