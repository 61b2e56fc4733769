//===- parser_expr.cpp - expressions of the Triton Python subset -----------===//
#include "parser_impl.h"

namespace opforge::compiler::parser_detail {

ExprPtr Parser::named_test() {
  ExprPtr e = test();
  if (at_op(":=")) fail(peek().loc, "assignment expressions (:=) are not supported");
  return e;
}

ExprPtr Parser::testlist_star() {
  SourceLoc start = peek().loc;
  ExprPtr first = test_or_star();
  if (!at_op(",")) return first;
  auto tup = node<Tuple>(start);
  tup->elts.push_back(std::move(first));
  while (accept_op(",")) {
    if (!starts_expr()) break;
    tup->elts.push_back(test_or_star());
  }
  fin(tup.get());
  return tup;
}

ExprPtr Parser::target_list() {
  SourceLoc start = peek().loc;
  ExprPtr first = at_op("*") ? star_expr() : bitor_expr();
  if (!at_op(",")) return first;
  auto tup = node<Tuple>(start);
  tup->elts.push_back(std::move(first));
  while (accept_op(",")) {
    if (at_kw("in")) break;
    tup->elts.push_back(at_op("*") ? star_expr() : bitor_expr());
  }
  fin(tup.get());
  return tup;
}

bool Parser::starts_expr() const {
  const Token &t = peek();
  switch (t.kind) {
    case TokenKind::Name:
    case TokenKind::Int:
    case TokenKind::Float:
    case TokenKind::String:
    case TokenKind::FString:
      return true;
    case TokenKind::Keyword:
      return t.text == "not" || t.text == "lambda" || t.text == "None" || t.text == "True" ||
             t.text == "False" || t.text == "await";
    case TokenKind::Op:
      return t.text == "(" || t.text == "[" || t.text == "{" || t.text == "-" || t.text == "+" ||
             t.text == "~" || t.text == "*" || t.text == "...";
    default:
      return false;
  }
}

ExprPtr Parser::star_expr() {
  SourceLoc start = next().loc;
  auto n = node<Starred>(start);
  n->value = bitor_expr();
  fin(n.get());
  return n;
}

ExprPtr Parser::test() {
  DepthGuard g(*this, peek().loc);
  if (at_kw("lambda")) return lambda();
  SourceLoc start = peek().loc;
  ExprPtr body = or_test();
  if (at_kw("if")) {
    next();
    auto n = node<IfExp>(start);
    n->body = std::move(body);
    n->test = or_test();
    if (!accept_kw("else")) fail(peek().loc, "expected 'else' after 'if' expression");
    n->orelse = test();
    fin(n.get());
    return n;
  }
  return body;
}

ExprPtr Parser::lambda() {
  SourceLoc start = next().loc;
  auto n = node<Lambda>(start);
  n->params = parameters(":", false);
  expect_op(":", "after lambda parameters");
  n->body = test();
  fin(n.get());
  return n;
}

ExprPtr Parser::or_test() {
  SourceLoc start = peek().loc;
  ExprPtr first = and_test();
  if (!at_kw("or")) return first;
  auto n = node<BoolOp>(start);
  n->op = BoolOpKind::Or;
  n->values.push_back(std::move(first));
  while (accept_kw("or")) n->values.push_back(and_test());
  fin(n.get());
  return n;
}

ExprPtr Parser::and_test() {
  SourceLoc start = peek().loc;
  ExprPtr first = not_test();
  if (!at_kw("and")) return first;
  auto n = node<BoolOp>(start);
  n->op = BoolOpKind::And;
  n->values.push_back(std::move(first));
  while (accept_kw("and")) n->values.push_back(not_test());
  fin(n.get());
  return n;
}

ExprPtr Parser::not_test() {
  if (at_kw("not")) {
    DepthGuard g(*this, peek().loc);
    SourceLoc start = next().loc;
    auto n = node<UnaryOp>(start);
    n->op = UnaryOpKind::Not;
    n->operand = not_test();
    fin(n.get());
    return n;
  }
  return comparison();
}

bool Parser::comp_op(CmpOpKind &op) {
  const Token &t = peek();
  if (t.kind == TokenKind::Op) {
    static const std::pair<const char *, CmpOpKind> table[] = {
        {"==", CmpOpKind::Eq},  {"!=", CmpOpKind::NotEq}, {"<", CmpOpKind::Lt},
        {"<=", CmpOpKind::LtE}, {">", CmpOpKind::Gt},     {">=", CmpOpKind::GtE}};
    for (auto &[s, k] : table)
      if (t.text == s) {
        next();
        op = k;
        return true;
      }
    return false;
  }
  if (t.is_keyword("in")) {
    next();
    op = CmpOpKind::In;
    return true;
  }
  if (t.is_keyword("is")) {
    next();
    op = accept_kw("not") ? CmpOpKind::IsNot : CmpOpKind::Is;
    return true;
  }
  if (t.is_keyword("not") && peek(1).is_keyword("in")) {
    next();
    next();
    op = CmpOpKind::NotIn;
    return true;
  }
  return false;
}

ExprPtr Parser::comparison() {
  SourceLoc start = peek().loc;
  ExprPtr first = bitor_expr();
  CmpOpKind op{};
  if (!comp_op(op)) return first;
  auto n = node<Compare>(start);
  n->left = std::move(first);
  do {
    n->ops.push_back(op);
    n->comparators.push_back(bitor_expr());
  } while (comp_op(op));
  fin(n.get());
  return n;
}

ExprPtr Parser::shift_expr() {
  return binary_level(&Parser::arith_expr, {{"<<", BinOpKind::LShift}, {">>", BinOpKind::RShift}});
}

ExprPtr Parser::arith_expr() {
  return binary_level(&Parser::term, {{"+", BinOpKind::Add}, {"-", BinOpKind::Sub}});
}

ExprPtr Parser::term() {
  return binary_level(&Parser::factor, {{"*", BinOpKind::Mult},
                                        {"/", BinOpKind::Div},
                                        {"//", BinOpKind::FloorDiv},
                                        {"%", BinOpKind::Mod},
                                        {"@", BinOpKind::MatMult}});
}

ExprPtr Parser::factor() {
  const Token &t = peek();
  if (t.is_op("-") || t.is_op("+") || t.is_op("~")) {
    DepthGuard g(*this, t.loc);
    SourceLoc start = t.loc;
    UnaryOpKind k = t.text == "-"   ? UnaryOpKind::USub
                    : t.text == "+" ? UnaryOpKind::UAdd
                                    : UnaryOpKind::Invert;
    next();
    auto n = node<UnaryOp>(start);
    n->op = k;
    n->operand = factor();
    fin(n.get());
    return n;
  }
  return power();
}

ExprPtr Parser::power() {
  SourceLoc start = peek().loc;
  ExprPtr base = primary();
  if (at_op("**")) {
    next();
    auto n = node<BinOp>(start);
    n->op = BinOpKind::Pow;
    n->left = std::move(base);
    n->right = factor();
    fin(n.get());
    return n;
  }
  return base;
}

ExprPtr Parser::primary() {
  SourceLoc start = peek().loc;
  ExprPtr e = atom();
  while (true) {
    if (at_op("(")) {
      SourceLoc open = next().loc;
      auto n = node<Call>(start);
      n->func = std::move(e);
      const Expr *bare_generator = arguments(*n);
      expect_op(")", "to close the call");
      // f(x for x in y): the generator spans the call's parentheses (as in CPython).
      if (bare_generator && n->args.size() == 1 && n->keywords.empty() &&
          n->args[0].get() == bare_generator)
        n->args[0]->loc = span(open);
      fin(n.get());
      e = std::move(n);
    } else if (at_op("[")) {
      next();
      auto n = node<Subscript>(start);
      n->value = std::move(e);
      n->index = subscript_list();
      expect_op("]", "to close the subscript");
      fin(n.get());
      e = std::move(n);
    } else if (at_op(".")) {
      next();
      auto n = node<Attribute>(start);
      n->value = std::move(e);
      n->attr_loc = peek().loc;
      if (at(TokenKind::Keyword))
        fail(peek().loc,
             "invalid syntax: '" + peek().text + "' is a keyword and cannot be an attribute name");
      n->attr = expect_name("an attribute name after '.'");
      fin(n.get());
      e = std::move(n);
    } else {
      return e;
    }
  }
}

const Expr *Parser::arguments(Call &c) {
  const Expr *bare_generator = nullptr;
  bool seen_kw = false;
  while (!at_op(")")) {
    SourceLoc s = peek().loc;
    if (accept_op("**")) {
      Keyword k;
      k.value = test();
      k.loc = span(s);
      c.keywords.push_back(std::move(k));
      seen_kw = true;
    } else if (at_op("*")) {
      c.args.push_back(star_expr());
    } else if (at(TokenKind::Name) && peek(1).is_op("=")) {
      Keyword k;
      k.name = next().text;
      next();
      k.value = test();
      k.loc = span(s);
      for (auto &other : c.keywords)
        if (!other.name.empty() && other.name == k.name)
          fail(s, "keyword argument repeated: " + k.name);
      c.keywords.push_back(std::move(k));
      seen_kw = true;
    } else {
      ExprPtr a = test();
      if (at_kw("for")) {
        auto g = node<Comprehension>(s);
        g->comp = CompKind::Generator;
        g->elt = std::move(a);
        comp_for(g->generators);
        fin(g.get());
        bare_generator = g.get();
        a = std::move(g);
      } else if (at_op("=")) {
        fail(peek().loc, "expression cannot contain assignment, perhaps you meant \"==\"?");
      }
      if (seen_kw) fail(a->loc, "positional argument follows keyword argument");
      c.args.push_back(std::move(a));
    }
    if (!accept_op(",")) break;
  }
  return bare_generator;
}

ExprPtr Parser::subscript_list() {
  SourceLoc start = peek().loc;
  ExprPtr first = subscript();
  if (!at_op(",")) return first;
  auto tup = node<Tuple>(start);
  tup->elts.push_back(std::move(first));
  while (accept_op(",")) {
    if (at_op("]")) break;
    tup->elts.push_back(subscript());
  }
  fin(tup.get());
  return tup;
}

ExprPtr Parser::subscript() {
  SourceLoc start = peek().loc;
  ExprPtr lower;
  if (!at_op(":")) {
    lower = test_or_star();
    if (!at_op(":")) return lower;
  }
  next();  // ':'
  auto s = node<Slice>(start);
  s->lower = std::move(lower);
  if (!at_op(":") && !at_op("]") && !at_op(",")) s->upper = test();
  if (accept_op(":")) {
    if (!at_op("]") && !at_op(",")) s->step = test();
  }
  fin(s.get());
  return s;
}

void Parser::comp_for(std::vector<CompFor> &gens) {
  while (at_kw("for")) {
    next();
    CompFor f;
    f.target = target_list();
    check_target(*f.target, "comprehension");
    if (!accept_kw("in"))
      fail(peek().loc, "expected 'in' in comprehension but found " + describe(peek()));
    f.iter = or_test();
    while (at_kw("if")) {
      next();
      f.ifs.push_back(or_test());
    }
    gens.push_back(std::move(f));
  }
}

ExprPtr Parser::atom() {
  const Token &t = peek();
  SourceLoc start = t.loc;
  switch (t.kind) {
    case TokenKind::Name: {
      auto n = node<Name>(start);
      n->id = next().text;
      fin(n.get());
      return n;
    }
    case TokenKind::Int: {
      auto n = node<Constant>(start);
      const Token &tk = next();
      n->value = tk.int_value;
      n->big_unsigned = tk.big_unsigned;
      fin(n.get());
      return n;
    }
    case TokenKind::Float: {
      auto n = node<Constant>(start);
      n->value = next().float_value;
      fin(n.get());
      return n;
    }
    case TokenKind::String:
    case TokenKind::FString:
      return strings();
    case TokenKind::Keyword: {
      if (t.text == "None" || t.text == "True" || t.text == "False") {
        auto n = node<Constant>(start);
        if (t.text == "None")
          n->value = NoneValue{};
        else
          n->value = (t.text == "True");
        next();
        fin(n.get());
        return n;
      }
      if (t.text == "yield" || t.text == "await")
        fail(t.loc, "'" + t.text + "' is not supported in Triton kernel source files");
      unexpected();
    }
    case TokenKind::Op: {
      if (t.text == "...") {
        auto n = node<Constant>(start);
        n->value = EllipsisValue{};
        next();
        fin(n.get());
        return n;
      }
      if (t.text == "(") return paren();
      if (t.text == "[") return list_display();
      if (t.text == "{") return brace_display();
      unexpected();
    }
    default:
      unexpected();
  }
}

ExprPtr Parser::paren() {
  SourceLoc start = next().loc;
  DepthGuard g(*this, start);
  if (accept_op(")")) {
    auto tup = node<Tuple>(start);
    fin(tup.get());
    return tup;
  }
  if (at_kw("yield")) fail(peek().loc, "'yield' is not supported in Triton kernel source files");
  ExprPtr first = test_or_star();
  if (at_kw("for")) {
    auto c = node<Comprehension>(start);
    c->comp = CompKind::Generator;
    c->elt = std::move(first);
    comp_for(c->generators);
    expect_op(")", "to close the generator expression");
    fin(c.get());
    return c;
  }
  if (at_op(":=")) fail(peek().loc, "assignment expressions (:=) are not supported");
  if (accept_op(")")) {
    if (first->is<Starred>()) fail(first->loc, "cannot use starred expression here");
    // Parenthesized expression: keep the inner node, widen nothing (Python does the same).
    return first;
  }
  auto tup = node<Tuple>(start);
  tup->elts.push_back(std::move(first));
  while (accept_op(",")) {
    if (at_op(")")) break;
    tup->elts.push_back(test_or_star());
  }
  expect_op(")", "to close the tuple");
  fin(tup.get());
  return tup;
}

ExprPtr Parser::list_display() {
  SourceLoc start = next().loc;
  DepthGuard g(*this, start);
  if (accept_op("]")) {
    auto l = node<List>(start);
    fin(l.get());
    return l;
  }
  ExprPtr first = test_or_star();
  if (at_kw("for")) {
    auto c = node<Comprehension>(start);
    c->comp = CompKind::List;
    c->elt = std::move(first);
    comp_for(c->generators);
    expect_op("]", "to close the list comprehension");
    fin(c.get());
    return c;
  }
  auto l = node<List>(start);
  l->elts.push_back(std::move(first));
  while (accept_op(",")) {
    if (at_op("]")) break;
    l->elts.push_back(test_or_star());
  }
  expect_op("]", "to close the list");
  fin(l.get());
  return l;
}

ExprPtr Parser::brace_display() {
  SourceLoc start = next().loc;
  DepthGuard g(*this, start);
  if (accept_op("}")) {
    auto d = node<Dict>(start);
    fin(d.get());
    return d;
  }
  // Dict (key: value or **m) or set.
  if (at_op("**")) return dict_rest(start, nullptr, nullptr);
  ExprPtr first = test_or_star();
  if (accept_op(":")) {
    ExprPtr value = test();
    if (at_kw("for")) {
      auto c = node<Comprehension>(start);
      c->comp = CompKind::Dict;
      c->elt = std::move(first);
      c->value = std::move(value);
      comp_for(c->generators);
      expect_op("}", "to close the dict comprehension");
      fin(c.get());
      return c;
    }
    return dict_rest(start, std::move(first), std::move(value));
  }
  if (at_kw("for")) {
    auto c = node<Comprehension>(start);
    c->comp = CompKind::Set;
    c->elt = std::move(first);
    comp_for(c->generators);
    expect_op("}", "to close the set comprehension");
    fin(c.get());
    return c;
  }
  auto s = node<Set>(start);
  s->elts.push_back(std::move(first));
  while (accept_op(",")) {
    if (at_op("}")) break;
    s->elts.push_back(test_or_star());
  }
  expect_op("}", "to close the set");
  fin(s.get());
  return s;
}

ExprPtr Parser::dict_rest(SourceLoc start, ExprPtr key, ExprPtr value) {
  auto d = node<Dict>(start);
  bool first = key != nullptr;
  if (first) {
    d->keys.push_back(std::move(key));
    d->values.push_back(std::move(value));
  }
  while (true) {
    if (first) {
      first = false;
      if (!accept_op(",")) break;
    }
    if (at_op("}")) break;
    if (accept_op("**")) {
      d->keys.push_back(nullptr);
      d->values.push_back(bitor_expr());
    } else {
      d->keys.push_back(test());
      expect_op(":", "between a dict key and its value");
      d->values.push_back(test());
    }
    if (!accept_op(",")) break;
  }
  expect_op("}", "to close the dict");
  fin(d.get());
  return d;
}

ExprPtr Parser::strings() {
  SourceLoc start = peek().loc;
  std::vector<const Token *> toks;
  bool any_f = false;
  while (at(TokenKind::String) || at(TokenKind::FString)) {
    any_f |= peek().kind == TokenKind::FString;
    toks.push_back(&next());
  }
  if (!any_f) {
    auto c = node<Constant>(start);
    std::string v;
    for (auto *t : toks) v += t->text;
    c->value = std::move(v);
    fin(c.get());
    return c;
  }
  auto f = node<FString>(start);
  for (auto *t : toks) {
    if (t->kind == TokenKind::String) {
      add_literal(*f, t->text);
    } else {
      fstring_body(*f, *t);
    }
  }
  fin(f.get());
  return f;
}

void Parser::add_literal(FString &f, const std::string &text) {
  if (text.empty()) return;
  if (!f.parts.empty() && !f.parts.back().expr) {
    f.parts.back().literal += text;
    return;
  }
  FStringPart p;
  p.literal = text;
  f.parts.push_back(std::move(p));
}

void Parser::fstring_body(FString &f, const Token &t) {
  const std::string &b = t.text;
  // Location of body offset i.
  auto loc_of = [&](size_t i) {
    SourceLoc l = t.body_loc;
    for (size_t k = 0; k < i; ++k) {
      if (b[k] == '\n') {
        ++l.line;
        l.col = 1;
      } else {
        ++l.col;
      }
    }
    l.end_line = l.line;
    l.end_col = l.col + 1;
    return l;
  };
  std::string lit;
  size_t lit_start = 0;
  auto flush = [&] {
    if (lit.empty()) return;
    add_literal(f, t.raw_string ? lit : decode_string_escapes(file_, lit, loc_of(lit_start)));
    lit.clear();
  };
  size_t i = 0;
  while (i < b.size()) {
    char c = b[i];
    if (c == '{' && i + 1 < b.size() && b[i + 1] == '{') {
      if (lit.empty()) lit_start = i;
      lit += '{';
      i += 2;
      continue;
    }
    if (c == '}' && i + 1 < b.size() && b[i + 1] == '}') {
      if (lit.empty()) lit_start = i;
      lit += '}';
      i += 2;
      continue;
    }
    if (c == '}') fail(loc_of(i), "f-string: single '}' is not allowed");
    if (c != '{') {
      if (lit.empty()) lit_start = i;
      lit += c;
      ++i;
      continue;
    }
    flush();
    size_t open = i++;
    // Find the end of the expression: depth-0 '!', ':' or '}'.
    int depth = 0;
    size_t j = i;
    char quote = 0;
    for (; j < b.size(); ++j) {
      char d = b[j];
      if (quote) {
        if (d == quote) quote = 0;
        continue;
      }
      if (d == '\'' || d == '"')
        quote = d;
      else if (d == '(' || d == '[' || d == '{')
        ++depth;
      else if ((d == ')' || d == ']' || d == '}') && depth > 0)
        --depth;
      else if (depth == 0 &&
               (d == '}' || d == ':' || (d == '!' && j + 1 < b.size() && b[j + 1] != '=')))
        break;
    }
    if (j >= b.size()) fail(loc_of(open), "f-string: expecting '}'");
    std::string expr_text = b.substr(i, j - i);
    bool debug = false;
    {
      size_t k = expr_text.find_last_not_of(" \t");
      if (k != std::string::npos && expr_text[k] == '=' &&
          (k == 0 || std::string("=!<>").find(expr_text[k - 1]) == std::string::npos)) {
        debug = true;
        add_literal(f, expr_text);
        expr_text = expr_text.substr(0, k);
      }
    }
    if (expr_text.find_first_not_of(" \t\n") == std::string::npos)
      fail(loc_of(open), "f-string: empty expression not allowed");
    FStringPart part;
    auto toks = tokenize_fragment(file_, expr_text, loc_of(i));
    Parser sub(file_, std::move(toks));
    part.expr = sub.fragment_expression();
    if (debug) part.conversion = 'r';
    if (b[j] == '!') {
      if (j + 1 >= b.size() || std::string("rsa").find(b[j + 1]) == std::string::npos)
        fail(loc_of(j), "f-string: invalid conversion character: expected 's', 'r', or 'a'");
      part.conversion = b[j + 1];
      j += 2;
    }
    if (j < b.size() && b[j] == ':') {
      size_t k = j + 1;
      int d2 = 0;
      for (; k < b.size(); ++k) {
        if (b[k] == '{')
          ++d2;
        else if (b[k] == '}') {
          if (d2 == 0) break;
          --d2;
        }
      }
      part.format_spec = b.substr(j + 1, k - j - 1);
      j = k;
    }
    if (j >= b.size() || b[j] != '}') fail(loc_of(open), "f-string: expecting '}'");
    f.parts.push_back(std::move(part));
    i = j + 1;
  }
  flush();
}

}  // namespace opforge::compiler::parser_detail
