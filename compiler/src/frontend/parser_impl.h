//===- parser_impl.h - the recursive-descent parser's class, shared by parser*.cpp ===//
//
// The parser is split by concern:
//   parser.cpp       module entry points and the import rules
//   parser_stmt.cpp  statements (simple and compound, imports, function definitions)
//   parser_expr.cpp  expressions (precedence levels, displays, calls, f-strings)
// Token helpers, node constructors and one-line rules stay inline here.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <algorithm>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "opforge/compiler/lexer.h"
#include "opforge/compiler/parser.h"

namespace opforge::compiler::parser_detail {

using namespace ast;

inline bool is_aug_op(const Token &t, BinOpKind &op) {
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

inline std::string describe(const Token &t) {
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

  void statement(StmtList &out);
  void simple_statements(StmtList &out);
  StmtPtr small_statement();
  StmtPtr expr_statement();
  void check_target(const Expr &e, const char *what);
  std::string dotted();
  StmtPtr import_stmt();
  StmtPtr from_import();
  // Parses ':' and a block; `what` names the statement for messages.
  StmtList block(std::string_view what, int line);
  StmtPtr if_stmt();
  StmtPtr for_stmt();
  StmtPtr while_stmt();
  StmtPtr decorated();
  StmtPtr funcdef(std::vector<ExprPtr> decos, SourceLoc start);
  Parameters parameters(std::string_view close, bool annotations);
  // --- expressions ---
  ExprPtr named_test();
  // testlist_star_expr: a bare tuple when commas follow.
  ExprPtr testlist_star();
  // exprlist for `for` targets and comprehension targets (bitwise-or level).
  ExprPtr target_list();
  bool starts_expr() const;
  ExprPtr test_or_star() { return at_op("*") ? star_expr() : test(); }

  ExprPtr star_expr();
  ExprPtr test();
  ExprPtr lambda();
  ExprPtr or_test();
  ExprPtr and_test();
  ExprPtr not_test();
  bool comp_op(CmpOpKind &op);
  ExprPtr comparison();
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
  ExprPtr shift_expr();
  ExprPtr arith_expr();
  ExprPtr term();
  ExprPtr factor();
  ExprPtr power();
  ExprPtr primary();
  // Parses call arguments; returns the generator expression written without
  // its own parentheses (f(x for x in y)), if any.
  const Expr *arguments(Call &c);
  ExprPtr subscript_list();
  ExprPtr subscript();
  void comp_for(std::vector<CompFor> &gens);
  ExprPtr atom();
  ExprPtr paren();
  ExprPtr list_display();
  ExprPtr brace_display();
  ExprPtr dict_rest(SourceLoc start, ExprPtr key, ExprPtr value);
  // Adjacent string literals concatenate; any f-string makes the result an FString.
  ExprPtr strings();
  static void add_literal(FString &f, const std::string &text);
  void fstring_body(FString &f, const Token &t);
};

}  // namespace opforge::compiler::parser_detail
