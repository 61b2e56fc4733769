//===- parser_stmt.cpp - statements of the Triton Python subset ------------===//
#include "parser_impl.h"

namespace opforge::compiler::parser_detail {

void Parser::statement(StmtList &out) {
  DepthGuard g(*this, peek().loc);
  const Token &t = peek();
  if (t.kind == TokenKind::Indent) fail(t.loc, "unexpected indent");
  if (t.kind == TokenKind::Dedent)
    fail(t.loc, "unindent does not match any outer indentation level");
  if (t.is_op("@")) {
    out.push_back(decorated());
    return;
  }
  if (t.kind == TokenKind::Keyword) {
    if (t.text == "def") {
      out.push_back(funcdef({}, t.loc));
      return;
    }
    if (t.text == "if") {
      out.push_back(if_stmt());
      return;
    }
    if (t.text == "for") {
      out.push_back(for_stmt());
      return;
    }
    if (t.text == "while") {
      out.push_back(while_stmt());
      return;
    }
    static const char *unsupported[] = {"class", "try", "with", "async", "except", "finally"};
    for (auto *u : unsupported)
      if (t.text == u)
        fail(t.loc, "'" + t.text + "' statements are not supported in Triton kernel source files");
  }
  simple_statements(out);
}

void Parser::simple_statements(StmtList &out) {
  while (true) {
    out.push_back(small_statement());
    if (accept_op(";")) {
      if (at(TokenKind::Newline)) break;
      continue;
    }
    break;
  }
  if (!accept(TokenKind::Newline)) {
    const Token &t = peek();
    if (t.kind == TokenKind::EndOfFile) return;
    fail(t.loc,
         "invalid syntax: unexpected " + describe(t) + " (missing operator, comma or newline?)");
  }
}

StmtPtr Parser::small_statement() {
  const Token &t = peek();
  SourceLoc start = t.loc;
  if (t.kind == TokenKind::Keyword) {
    if (t.text == "pass") {
      next();
      auto n = node<Pass>(start);
      fin(n.get());
      return n;
    }
    if (t.text == "break") {
      next();
      auto n = node<Break>(start);
      fin(n.get());
      return n;
    }
    if (t.text == "continue") {
      next();
      auto n = node<Continue>(start);
      fin(n.get());
      return n;
    }
    if (t.text == "return") {
      next();
      auto n = node<Return>(start);
      if (!at(TokenKind::Newline) && !at_op(";") && !at(TokenKind::EndOfFile))
        n->value = testlist_star();
      fin(n.get());
      return n;
    }
    if (t.text == "raise") {
      next();
      auto n = node<Raise>(start);
      if (!at(TokenKind::Newline) && !at_op(";") && !at(TokenKind::EndOfFile)) {
        n->exc = test();
        if (accept_kw("from")) n->cause = test();
      }
      fin(n.get());
      return n;
    }
    if (t.text == "assert") {
      next();
      auto n = node<Assert>(start);
      n->test = test();
      if (accept_op(",")) n->msg = test();
      fin(n.get());
      return n;
    }
    if (t.text == "import") return import_stmt();
    if (t.text == "from") return from_import();
    if (t.text == "global" || t.text == "nonlocal" || t.text == "del" || t.text == "yield" ||
        t.text == "await")
      fail(t.loc, "'" + t.text + "' is not supported in Triton kernel source files");
  }
  return expr_statement();
}

StmtPtr Parser::expr_statement() {
  SourceLoc start = peek().loc;
  ExprPtr first = testlist_star();
  if (at_op(":")) {
    next();
    check_target(*first, "annotated assignment");
    if (first->is<Tuple>() || first->is<List>())
      fail(first->loc, "only single target (not tuple) can be annotated");
    auto n = node<AnnAssign>(start);
    n->target = std::move(first);
    n->annotation = test();
    if (accept_op("=")) n->value = testlist_star();
    fin(n.get());
    return n;
  }
  BinOpKind aug{};
  if (is_aug_op(peek(), aug)) {
    next();
    if (!first->is<Name>() && !first->is<Attribute>() && !first->is<Subscript>())
      fail(first->loc, "'" + std::string(expr_kind_name(first->kind)) +
                           "' is an illegal expression for augmented assignment");
    auto n = node<AugAssign>(start);
    n->target = std::move(first);
    n->op = aug;
    n->value = testlist_star();
    fin(n.get());
    return n;
  }
  if (at_op("=")) {
    auto n = node<Assign>(start);
    n->targets.push_back(std::move(first));
    while (accept_op("=")) {
      n->targets.push_back(testlist_star());
    }
    n->value = std::move(n->targets.back());
    n->targets.pop_back();
    for (auto &tg : n->targets) check_target(*tg, "assignment");
    fin(n.get());
    return n;
  }
  if (at_op(":=")) fail(peek().loc, "assignment expressions (:=) are not supported");
  auto n = node<ExprStmt>(start);
  n->value = std::move(first);
  fin(n.get());
  return n;
}

void Parser::check_target(const Expr &e, const char *what) {
  switch (e.kind) {
    case ExprKind::Name:
    case ExprKind::Attribute:
    case ExprKind::Subscript:
      return;
    case ExprKind::Starred:
      check_target(*e.cast<Starred>().value, what);
      return;
    case ExprKind::Tuple:
      for (auto &x : e.cast<Tuple>().elts) check_target(*x, what);
      return;
    case ExprKind::List:
      for (auto &x : e.cast<List>().elts) check_target(*x, what);
      return;
    case ExprKind::Call:
      fail(e.loc, std::string("cannot assign to function call in ") + what);
    case ExprKind::Constant:
      fail(e.loc, std::string("cannot assign to literal in ") + what);
    default:
      fail(e.loc, std::string("cannot assign to ") + std::string(expr_kind_name(e.kind)) +
                      " expression in " + what);
  }
}

std::string Parser::dotted() {
  std::string name = expect_name("a module name");
  while (accept_op(".")) name += "." + expect_name("a module name");
  return name;
}

StmtPtr Parser::import_stmt() {
  SourceLoc start = next().loc;
  auto n = node<Import>(start);
  do {
    ImportAlias a;
    SourceLoc s = peek().loc;
    a.name = dotted();
    if (accept_kw("as")) a.asname = expect_name("a name after 'as'");
    a.loc = span(s);
    n->names.push_back(std::move(a));
  } while (accept_op(","));
  fin(n.get());
  return n;
}

StmtPtr Parser::from_import() {
  SourceLoc start = next().loc;
  auto n = node<ImportFrom>(start);
  while (at_op(".") || at_op("...")) n->level += next().text == "..." ? 3 : 1;
  if (!at_kw("import")) n->module = dotted();
  if (!accept_kw("import")) fail(peek().loc, "expected 'import' but found " + describe(peek()));
  bool paren = accept_op("(");
  if (!paren && at_op("*")) {
    ImportAlias a;
    a.loc = next().loc;
    a.name = "*";
    n->names.push_back(std::move(a));
  } else {
    do {
      if (paren && at_op(")")) break;
      ImportAlias a;
      SourceLoc s = peek().loc;
      a.name = expect_name("a name to import");
      if (accept_kw("as")) a.asname = expect_name("a name after 'as'");
      a.loc = span(s);
      n->names.push_back(std::move(a));
    } while (accept_op(","));
    if (paren) expect_op(")", "to close the import list");
  }
  fin(n.get());
  return n;
}

StmtList Parser::block(std::string_view what, int line) {
  if (!at_op(":")) expect_op(":", "after " + std::string(what));
  next();
  StmtList body;
  if (accept(TokenKind::Newline)) {
    if (!accept(TokenKind::Indent))
      fail(peek().loc, "expected an indented block after " + std::string(what) + " on line " +
                           std::to_string(line));
    while (!accept(TokenKind::Dedent)) {
      if (at(TokenKind::EndOfFile)) break;
      if (accept(TokenKind::Newline)) continue;
      statement(body);
    }
  } else {
    simple_statements(body);
  }
  return body;
}

StmtPtr Parser::if_stmt() {
  const Token &kw = next();  // 'if' or 'elif'
  SourceLoc start = kw.loc;
  std::string what = "'" + kw.text + "' statement";
  auto n = node<If>(start);
  n->test = named_test();
  n->body = block(what, start.line);
  if (at_kw("elif")) {
    n->orelse.push_back(if_stmt());
  } else if (at_kw("else")) {
    int line = next().loc.line;
    n->orelse = block("'else' statement", line);
  }
  fin(n.get());
  return n;
}

StmtPtr Parser::for_stmt() {
  SourceLoc start = next().loc;
  auto n = node<For>(start);
  n->target = target_list();
  check_target(*n->target, "'for' loop");
  if (!accept_kw("in"))
    fail(peek().loc, "expected 'in' in 'for' statement but found " + describe(peek()));
  n->iter = testlist_star();
  n->body = block("'for' statement", start.line);
  if (at_kw("else")) {
    int line = next().loc.line;
    n->orelse = block("'else' statement", line);
  }
  fin(n.get());
  return n;
}

StmtPtr Parser::while_stmt() {
  SourceLoc start = next().loc;
  auto n = node<While>(start);
  n->test = named_test();
  n->body = block("'while' statement", start.line);
  if (at_kw("else")) {
    int line = next().loc.line;
    n->orelse = block("'else' statement", line);
  }
  fin(n.get());
  return n;
}

StmtPtr Parser::decorated() {
  std::vector<ExprPtr> decos;
  while (accept_op("@")) {
    decos.push_back(named_test());
    if (!accept(TokenKind::Newline))
      fail(peek().loc, "invalid syntax: expected a newline after the decorator");
  }
  if (!at_kw("def")) {
    if (at_kw("class"))
      fail(peek().loc, "'class' statements are not supported in Triton kernel source files");
    fail(peek().loc, "decorators are only supported on function definitions");
  }
  return funcdef(std::move(decos), peek().loc);  // located at 'def', as CPython does
}

StmtPtr Parser::funcdef(std::vector<ExprPtr> decos, SourceLoc start) {
  int line = next().loc.line;  // 'def'
  auto n = node<FunctionDef>(start);
  n->decorators = std::move(decos);
  SourceLoc nl = peek().loc;
  n->name = expect_name("a function name");
  n->name_loc = nl;
  expect_op("(", "after the function name");
  n->params = parameters(")", true);
  expect_op(")", "to close the parameter list");
  if (accept_op("->")) n->returns = test();
  n->body = block("function definition", line);
  n->docstring = take_docstring(n->body);
  fin(n.get());
  return n;
}

Parameters Parser::parameters(std::string_view close, bool annotations) {
  Parameters ps;
  bool seen_star = false, seen_default = false, seen_kw = false;
  while (!at_op(close)) {
    Param p;
    p.loc = peek().loc;
    if (seen_kw) fail(peek().loc, "arguments cannot follow var-keyword argument");
    if (accept_op("**")) {
      p.kind = ParamKind::VarKw;
      seen_kw = true;
    } else if (accept_op("*")) {
      if (seen_star) fail(p.loc, "* argument may appear only once");
      seen_star = true;
      if (at_op(",") || at_op(close)) {  // bare '*'
        if (at_op(close)) fail(p.loc, "named arguments must follow bare *");
        next();
        continue;
      }
      p.kind = ParamKind::VarArgs;
    } else if (accept_op("/")) {
      if (seen_star) fail(p.loc, "/ must be ahead of *");
      if (!at_op(close)) expect_op(",");
      continue;
    } else {
      p.kind = seen_star ? ParamKind::KwOnly : ParamKind::Positional;
    }
    p.name = expect_name("a parameter name");
    if (ps.find(p.name) >= 0)
      fail(p.loc, "duplicate argument '" + p.name + "' in function definition");
    if (annotations && accept_op(":")) p.annotation = test();
    if (accept_op("=")) {
      if (p.kind == ParamKind::VarArgs || p.kind == ParamKind::VarKw)
        fail(last_end_, "var-positional or var-keyword argument cannot have a default value");
      p.default_value = test();
      if (p.kind == ParamKind::Positional) seen_default = true;
    } else if (p.kind == ParamKind::Positional && seen_default) {
      fail(p.loc, "parameter without a default follows parameter with a default");
    }
    p.loc = span(p.loc);
    ps.params.push_back(std::move(p));
    if (!accept_op(",")) break;
  }
  return ps;
}

}  // namespace opforge::compiler::parser_detail
