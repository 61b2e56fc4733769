//===- parser.cpp - recursive-descent parser for the Triton Python subset --===//
#include "opforge/compiler/parser.h"

#include "opforge/compiler/lexer.h"

namespace opforge::compiler {

using namespace ast;

namespace {

bool is_aug_op(const Token &t, BinOpKind &op) {
  if (t.kind != TokenKind::Op || t.text.size() < 2 || t.text.back() != '=') return false;
  static const std::pair<const char *, BinOpKind> table[] = {
      {"+=", BinOpKind::Add},     {"-=", BinOpKind::Sub},   {"*=", BinOpKind::Mult},
      {"@=", BinOpKind::MatMult}, {"/=", BinOpKind::Div},   {"//=", BinOpKind::FloorDiv},
      {"%=", BinOpKind::Mod},     {"**=", BinOpKind::Pow},  {"<<=", BinOpKind::LShift},
      {">>=", BinOpKind::RShift}, {"|=", BinOpKind::BitOr}, {"^=", BinOpKind::BitXor},
      {"&=", BinOpKind::BitAnd}};
  for (auto &[s, k] : table)
    if (t.text == s) {
      op = k;
      return true;
    }
  return false;
}

std::string describe(const Token &t) {
  switch (t.kind) {
    case TokenKind::Newline:
      return "end of line";
    case TokenKind::EndOfFile:
      return "end of file";
    case TokenKind::Indent:
      return "indent";
    case TokenKind::Dedent:
      return "dedent";
    case TokenKind::String:
    case TokenKind::FString:
      return "string literal";
    default:
      return "'" + t.text + "'";
  }
}

class Parser {
 public:
  Parser(const SourceFile &file, std::vector<Token> toks) : file_(file), t_(std::move(toks)) {}

  void parse_file_body(Module &m) {
    while (!at(TokenKind::EndOfFile)) {
      if (accept(TokenKind::Newline)) continue;
      statement(m.body);
    }
    m.docstring = take_docstring(m.body);
  }

  ExprPtr parse_single_expression() {
    while (accept(TokenKind::Newline)) {
    }
    ExprPtr e = testlist_star();
    while (accept(TokenKind::Newline)) {
    }
    if (!at(TokenKind::EndOfFile))
      fail(peek().loc, "invalid syntax: unexpected " + describe(peek()) + " after expression");
    return e;
  }

  ExprPtr fragment_expression() {
    ExprPtr e = testlist_star();
    if (!at(TokenKind::EndOfFile)) fail(peek().loc, "f-string: invalid syntax");
    return e;
  }

 private:
  const SourceFile &file_;
  std::vector<Token> t_;
  size_t p_ = 0;
  int depth_ = 0;

  static constexpr int kMaxDepth = 200;

  struct DepthGuard {
    Parser &p;
    explicit DepthGuard(Parser &pp, SourceLoc loc) : p(pp) {
      if (++p.depth_ > kMaxDepth) p.fail(loc, "too many nested parentheses or blocks (limit 200)");
    }
    ~DepthGuard() { --p.depth_; }
  };

  // --- token helpers ---
  const Token &peek(size_t k = 0) const { return t_[std::min(p_ + k, t_.size() - 1)]; }
  bool at(TokenKind k) const { return peek().kind == k; }
  bool at_op(std::string_view s) const { return peek().is_op(s); }
  bool at_kw(std::string_view s) const { return peek().is_keyword(s); }
  const Token &next() {
    const Token &t = t_[p_];
    if (p_ + 1 < t_.size()) ++p_;
    last_end_ = t.loc;
    return t;
  }
  bool accept(TokenKind k) {
    if (!at(k)) return false;
    next();
    return true;
  }
  bool accept_op(std::string_view s) {
    if (!at_op(s)) return false;
    next();
    return true;
  }
  bool accept_kw(std::string_view s) {
    if (!at_kw(s)) return false;
    next();
    return true;
  }
  [[noreturn]] void fail(SourceLoc loc, const std::string &msg) {
    const Token &eof = t_.back();
    if (!eof.text.empty() && (loc.line > eof.body_loc.line || p_ + 1 >= t_.size()))
      throw CompileError::at(file_, eof.body_loc, "'" + eof.text + "' was never closed");
    throw CompileError::at(file_, loc, msg);
  }
  [[noreturn]] void unexpected(const std::string &context = {}) {
    const Token &t = peek();
    if (t.kind == TokenKind::Indent) fail(t.loc, "unexpected indent");
    std::string msg = "invalid syntax";
    if (!context.empty())
      msg += ": " + context;
    else if (t.kind == TokenKind::EndOfFile)
      msg = "unexpected end of file";
    else
      msg += ": unexpected " + describe(t);
    fail(t.loc, msg);
  }
  const Token &expect_op(std::string_view s, std::string_view what = {}) {
    if (!at_op(s)) {
      std::string msg = "expected '" + std::string(s) + "'";
      if (!what.empty()) msg += " " + std::string(what);
      const Token &t = peek();
      if (t.kind == TokenKind::Indent) fail(t.loc, "unexpected indent");
      fail(t.loc, msg + " but found " + describe(t));
    }
    return next();
  }
  std::string expect_name(std::string_view what) {
    if (!at(TokenKind::Name)) {
      if (at(TokenKind::Keyword))
        fail(peek().loc, "invalid syntax: '" + peek().text + "' is a keyword and cannot be " +
                             std::string(what));
      fail(peek().loc, "expected " + std::string(what) + " but found " + describe(peek()));
    }
    return next().text;
  }

  SourceLoc last_end_;
  SourceLoc span(SourceLoc start) const {
    return SourceLoc{start.line, start.col, last_end_.end_line, last_end_.end_col};
  }
  template <class T>
  std::unique_ptr<T> node(SourceLoc start) {
    auto n = std::make_unique<T>();
    n->loc = start;
    return n;
  }
  template <class T>
  T *fin(T *n) {
    n->loc = span(n->loc);
    return n;
  }

  // --- statements ---
  static std::string take_docstring(StmtList &body) {
    if (body.empty()) return {};
    auto *es = body.front()->as<ExprStmt>();
    if (!es) return {};
    auto *c = es->value->as<Constant>();
    if (!c || !c->is_str()) return {};
    std::string doc = std::get<std::string>(c->value);
    body.erase(body.begin());
    return doc;
  }

  void statement(StmtList &out) {
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
          fail(t.loc,
               "'" + t.text + "' statements are not supported in Triton kernel source files");
    }
    simple_statements(out);
  }

  void simple_statements(StmtList &out) {
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

  StmtPtr small_statement() {
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

  StmtPtr expr_statement() {
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

  void check_target(const Expr &e, const char *what) {
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

  std::string dotted() {
    std::string name = expect_name("a module name");
    while (accept_op(".")) name += "." + expect_name("a module name");
    return name;
  }

  StmtPtr import_stmt() {
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

  StmtPtr from_import() {
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

  // Parses ':' and a block; `what` names the statement for messages.
  StmtList block(std::string_view what, int line) {
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

  StmtPtr if_stmt() {
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

  StmtPtr for_stmt() {
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

  StmtPtr while_stmt() {
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

  StmtPtr decorated() {
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

  StmtPtr funcdef(std::vector<ExprPtr> decos, SourceLoc start) {
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

  Parameters parameters(std::string_view close, bool annotations) {
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

  // --- expressions ---
  ExprPtr named_test() {
    ExprPtr e = test();
    if (at_op(":=")) fail(peek().loc, "assignment expressions (:=) are not supported");
    return e;
  }

  // testlist_star_expr: a bare tuple when commas follow.
  ExprPtr testlist_star() {
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

  // exprlist for `for` targets and comprehension targets (bitwise-or level).
  ExprPtr target_list() {
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

  bool starts_expr() const {
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

  ExprPtr test_or_star() { return at_op("*") ? star_expr() : test(); }

  ExprPtr star_expr() {
    SourceLoc start = next().loc;
    auto n = node<Starred>(start);
    n->value = bitor_expr();
    fin(n.get());
    return n;
  }

  ExprPtr test() {
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

  ExprPtr lambda() {
    SourceLoc start = next().loc;
    auto n = node<Lambda>(start);
    n->params = parameters(":", false);
    expect_op(":", "after lambda parameters");
    n->body = test();
    fin(n.get());
    return n;
  }

  ExprPtr or_test() {
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

  ExprPtr and_test() {
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

  ExprPtr not_test() {
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

  bool comp_op(CmpOpKind &op) {
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

  ExprPtr comparison() {
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

  template <class Sub>
  ExprPtr binary_level(Sub sub, std::initializer_list<std::pair<const char *, BinOpKind>> ops) {
    SourceLoc start = peek().loc;
    ExprPtr left = (this->*sub)();
    while (true) {
      const Token &t = peek();
      bool matched = false;
      for (auto &[s, k] : ops) {
        if (t.is_op(s)) {
          next();
          auto n = node<BinOp>(start);
          n->op = k;
          n->left = std::move(left);
          n->right = (this->*sub)();
          fin(n.get());
          left = std::move(n);
          matched = true;
          break;
        }
      }
      if (!matched) return left;
    }
  }

  ExprPtr bitor_expr() { return binary_level(&Parser::xor_expr, {{"|", BinOpKind::BitOr}}); }
  ExprPtr xor_expr() { return binary_level(&Parser::and_expr, {{"^", BinOpKind::BitXor}}); }
  ExprPtr and_expr() { return binary_level(&Parser::shift_expr, {{"&", BinOpKind::BitAnd}}); }
  ExprPtr shift_expr() {
    return binary_level(&Parser::arith_expr,
                        {{"<<", BinOpKind::LShift}, {">>", BinOpKind::RShift}});
  }
  ExprPtr arith_expr() {
    return binary_level(&Parser::term, {{"+", BinOpKind::Add}, {"-", BinOpKind::Sub}});
  }
  ExprPtr term() {
    return binary_level(&Parser::factor, {{"*", BinOpKind::Mult},
                                          {"/", BinOpKind::Div},
                                          {"//", BinOpKind::FloorDiv},
                                          {"%", BinOpKind::Mod},
                                          {"@", BinOpKind::MatMult}});
  }

  ExprPtr factor() {
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

  ExprPtr power() {
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

  ExprPtr primary() {
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
          fail(peek().loc, "invalid syntax: '" + peek().text +
                               "' is a keyword and cannot be an attribute name");
        n->attr = expect_name("an attribute name after '.'");
        fin(n.get());
        e = std::move(n);
      } else {
        return e;
      }
    }
  }

  // Parses call arguments; returns the generator expression written without
  // its own parentheses (f(x for x in y)), if any.
  const Expr *arguments(Call &c) {
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

  ExprPtr subscript_list() {
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

  ExprPtr subscript() {
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

  void comp_for(std::vector<CompFor> &gens) {
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

  ExprPtr atom() {
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

  ExprPtr paren() {
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

  ExprPtr list_display() {
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

  ExprPtr brace_display() {
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

  ExprPtr dict_rest(SourceLoc start, ExprPtr key, ExprPtr value) {
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

  // Adjacent string literals concatenate; any f-string makes the result an FString.
  ExprPtr strings() {
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

  static void add_literal(FString &f, const std::string &text) {
    if (text.empty()) return;
    if (!f.parts.empty() && !f.parts.back().expr) {
      f.parts.back().literal += text;
      return;
    }
    FStringPart p;
    p.literal = text;
    f.parts.push_back(std::move(p));
  }

  void fstring_body(FString &f, const Token &t) {
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
};

}  // namespace

Module parse_module(std::shared_ptr<const SourceFile> file, ParseOptions options) {
  Module m;
  m.file = file->path();
  m.source = file;
  Parser p(*file, tokenize(*file));
  p.parse_file_body(m);
  if (options.check_imports) check_imports(m);
  return m;
}

Module parse_source(const std::string &path, const std::string &text) {
  return parse_module(std::make_shared<SourceFile>(path, text));
}

Module parse_file(const std::string &path) { return parse_module(SourceFile::load(path)); }

ExprPtr parse_expression(const SourceFile &file) {
  auto toks = tokenize(file);
  Parser p(file, std::move(toks));
  return p.parse_single_expression();
}

std::string import_problem(const Stmt &s) {
  static const char *allowed_modules[] = {"torch", "triton", "triton.language", "math"};
  auto allowed_module = [](const std::string &n) {
    for (auto *a : allowed_modules)
      if (n == a) return true;
    return false;
  };
  if (auto *imp = s.as<Import>()) {
    for (auto &a : imp->names) {
      if (!allowed_module(a.name))
        return "import of module '" + a.name +
               "' is not allowed (allowed: torch, triton, triton.language, math)";
      if (a.name == "triton.language" && !a.asname.empty() && a.asname != "tl")
        return "'import triton.language' must bind the name 'tl' (import triton.language as tl)";
    }
    return {};
  }
  if (auto *from = s.as<ImportFrom>()) {
    if (from->level > 0) return "relative imports are not allowed";
    const std::string &mod = from->module;
    for (auto &a : from->names) {
      if (a.name == "*") return "'from " + mod + " import *' is not allowed";
      if (mod == "__future__" && a.name == "annotations") continue;
      if (mod == "triton" && a.name == "language") {
        if (!a.asname.empty() && a.asname != "tl")
          return "'from triton import language' must bind the name 'tl' (from triton import "
                 "language as tl)";
        continue;
      }
      if (mod == "triton" &&
          (a.name == "jit" || a.name == "autotune" || a.name == "heuristics" ||
           a.name == "Config" || a.name == "cdiv" || a.name == "next_power_of_2"))
        continue;
      if (mod == "triton.language.extra" && a.name == "libdevice") continue;
      if (mod == "triton.language" && (a.name == "math" || a.name == "constexpr")) continue;
      if (mod == "math") continue;
      return "import of '" + a.name + "' from module '" + mod +
             "' is not allowed (allowed: torch, triton, "
             "triton.language as tl, math)";
    }
    return {};
  }
  return {};
}

void check_imports(const Module &m) {
  std::function<void(const StmtList &)> scan = [&](const StmtList &body) {
    for (auto &s : body) {
      std::string msg = import_problem(*s);
      if (!msg.empty()) throw CompileError::at(*m.source, s->loc, msg);
      if (auto *f = s->as<FunctionDef>())
        scan(f->body);
      else if (auto *i = s->as<If>()) {
        scan(i->body);
        scan(i->orelse);
      } else if (auto *fo = s->as<For>()) {
        scan(fo->body);
        scan(fo->orelse);
      } else if (auto *w = s->as<While>()) {
        scan(w->body);
        scan(w->orelse);
      }
    }
  };
  scan(m.body);
}

}  // namespace opforge::compiler
