//===- lexer.cpp - Python-subset tokenizer with INDENT/DEDENT --------------===//
#include "opforge/compiler/lexer.h"

#include <array>
#include <cctype>
#include <cstdlib>
#include <cstring>

namespace opforge::compiler {

std::string_view token_kind_name(TokenKind k) {
  switch (k) {
    case TokenKind::Name:
      return "name";
    case TokenKind::Keyword:
      return "keyword";
    case TokenKind::Int:
      return "integer";
    case TokenKind::Float:
      return "float";
    case TokenKind::String:
      return "string";
    case TokenKind::FString:
      return "f-string";
    case TokenKind::Op:
      return "operator";
    case TokenKind::Newline:
      return "newline";
    case TokenKind::Indent:
      return "indent";
    case TokenKind::Dedent:
      return "dedent";
    case TokenKind::EndOfFile:
      return "end of file";
  }
  return "token";
}

bool is_python_keyword(std::string_view w) {
  static constexpr std::array<std::string_view, 35> kw = {
      "False", "None",     "True",  "and",    "as",   "assert", "async",  "await",    "break",
      "class", "continue", "def",   "del",    "elif", "else",   "except", "finally",  "for",
      "from",  "global",   "if",    "import", "in",   "is",     "lambda", "nonlocal", "not",
      "or",    "pass",     "raise", "return", "try",  "while",  "with",   "yield"};
  for (auto k : kw)
    if (k == w) return true;
  return false;
}

namespace {

// Operators, longest first so that the first prefix match is the longest.
constexpr std::array<std::string_view, 47> kOps = {
    "**=", "//=", ">>=", "<<=", "...", "->", "**", "//", "<<", ">>", "<=", ">=",
    "==",  "!=",  "+=",  "-=",  "*=",  "/=", "%=", "&=", "|=", "^=", "@=", ":=",
    "+",   "-",   "*",   "/",   "%",   "@",  "&",  "|",  "^",  "~",  "<",  ">",
    "(",   ")",   "[",   "]",   "{",   "}",  ",",  ":",  ".",  ";",  "="};

bool ident_start(unsigned char c) { return std::isalpha(c) || c == '_' || c >= 0x80; }
bool ident_char(unsigned char c) { return std::isalnum(c) || c == '_' || c >= 0x80; }

void append_utf8(std::string &out, uint32_t cp) {
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xC0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xE0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (cp >> 18));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
}

class Lexer {
 public:
  Lexer(const SourceFile &file, std::string_view text, SourceLoc start, bool fragment)
      : file_(file), s_(text), line_(start.line), fragment_(fragment) {
    // Column of s_[pos] is pos - line_start_ + 1; shift so the first char has start.col.
    line_start_ = -static_cast<long>(start.col - 1);
    at_line_start_ = !fragment;
  }

  std::vector<Token> run() {
    while (true) {
      if (at_line_start_) {
        if (!indentation()) break;  // reached EOF
        continue;
      }
      if (pos_ >= s_.size()) break;
      char c = s_[pos_];
      if (c == ' ' || c == '\t' || c == '\f') {
        ++pos_;
        continue;
      }
      if (c == '\r') {
        ++pos_;
        continue;
      }
      if (c == '#') {
        while (pos_ < s_.size() && s_[pos_] != '\n') ++pos_;
        continue;
      }
      if (c == '\\') {
        size_t p = pos_ + 1;
        if (p < s_.size() && s_[p] == '\r') ++p;
        if (p < s_.size() && s_[p] == '\n') {
          pos_ = p + 1;
          new_line();
          continue;
        }
        if (p >= s_.size())
          fail(here(), "unexpected end of file after line continuation character");
        fail(here(), "unexpected character after line continuation character");
      }
      if (c == '\n') {
        if (!fragment_ && brackets_.empty() && !tokens_.empty() &&
            tokens_.back().kind != TokenKind::Newline && tokens_.back().kind != TokenKind::Indent &&
            tokens_.back().kind != TokenKind::Dedent) {
          Token t;
          t.kind = TokenKind::Newline;
          t.loc = here();
          t.loc.end_line = t.loc.line;
          t.loc.end_col = t.loc.col + 1;
          tokens_.push_back(std::move(t));
        }
        ++pos_;
        new_line();
        if (brackets_.empty() && !fragment_) at_line_start_ = true;
        continue;
      }
      unsigned char uc = static_cast<unsigned char>(c);
      if (ident_start(uc)) {
        name_or_string();
        continue;
      }
      if (std::isdigit(uc) || (c == '.' && pos_ + 1 < s_.size() &&
                               std::isdigit(static_cast<unsigned char>(s_[pos_ + 1])))) {
        number();
        continue;
      }
      if (c == '\'' || c == '"') {
        string_literal(pos_, "");
        continue;
      }
      op();
    }
    finish();
    return std::move(tokens_);
  }

 private:
  const SourceFile &file_;
  std::string_view s_;
  size_t pos_ = 0;
  int line_;
  long line_start_;
  bool fragment_;
  bool at_line_start_;
  std::vector<int> indents_{0};
  std::vector<Token> brackets_;  // open bracket tokens
  std::vector<Token> tokens_;

  int col_of(size_t p) const { return static_cast<int>(static_cast<long>(p) - line_start_ + 1); }
  SourceLoc here() const { return SourceLoc{line_, col_of(pos_), line_, col_of(pos_) + 1}; }
  void new_line() {
    ++line_;
    line_start_ = static_cast<long>(pos_);
  }
  [[noreturn]] void fail(SourceLoc loc, const std::string &msg) {
    throw CompileError::at(file_, loc, msg);
  }

  SourceLoc range(int line, int col) const { return SourceLoc{line, col, line_, col_of(pos_)}; }

  // Processes the indentation of a new line; returns false at end of input.
  bool indentation() {
    while (true) {
      int width = 0;
      size_t p = pos_;
      while (p < s_.size() && (s_[p] == ' ' || s_[p] == '\t' || s_[p] == '\f')) {
        if (s_[p] == '\t')
          width = (width / 8 + 1) * 8;
        else if (s_[p] == ' ')
          ++width;
        else
          width = 0;
        ++p;
      }
      if (p >= s_.size()) {
        pos_ = p;
        return false;
      }
      char c = s_[p];
      if (c == '\r' && p + 1 < s_.size() && s_[p + 1] == '\n') c = '\n', ++p;
      if (c == '#' || c == '\n') {  // blank or comment-only line
        while (p < s_.size() && s_[p] != '\n') ++p;
        if (p >= s_.size()) {
          pos_ = p;
          return false;
        }
        pos_ = p + 1;
        new_line();
        continue;
      }
      pos_ = p;
      at_line_start_ = false;
      SourceLoc loc{line_, col_of(pos_), line_, col_of(pos_)};
      if (width > indents_.back()) {
        if (tokens_.empty() || tokens_.back().kind != TokenKind::Newline)
          fail(SourceLoc{line_, col_of(pos_), line_, col_of(pos_) + 1}, "unexpected indent");
        indents_.push_back(width);
        Token t;
        t.kind = TokenKind::Indent;
        t.loc = loc;
        tokens_.push_back(std::move(t));
      } else {
        while (width < indents_.back()) {
          indents_.pop_back();
          Token t;
          t.kind = TokenKind::Dedent;
          t.loc = loc;
          tokens_.push_back(std::move(t));
        }
        if (width != indents_.back())
          fail(SourceLoc{line_, col_of(pos_), line_, col_of(pos_) + 1},
               "unindent does not match any outer indentation level");
      }
      return true;
    }
  }

  void name_or_string() {
    size_t start = pos_;
    int line = line_, col = col_of(pos_);
    while (pos_ < s_.size() && ident_char(static_cast<unsigned char>(s_[pos_]))) ++pos_;
    std::string word(s_.substr(start, pos_ - start));
    if (pos_ < s_.size() && (s_[pos_] == '\'' || s_[pos_] == '"') && word.size() <= 2) {
      std::string lower;
      for (char ch : word) lower += static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
      if (lower == "r" || lower == "u" || lower == "f" || lower == "b" || lower == "rb" ||
          lower == "br" || lower == "fr" || lower == "rf") {
        string_literal(start, lower);
        return;
      }
    }
    Token t;
    t.kind = is_python_keyword(word) ? TokenKind::Keyword : TokenKind::Name;
    t.text = std::move(word);
    t.loc = range(line, col);
    tokens_.push_back(std::move(t));
  }

  void number() {
    size_t start = pos_;
    int line = line_, col = col_of(pos_);
    auto digits = [&](auto pred) {
      bool any = false;
      while (pos_ < s_.size()) {
        char c = s_[pos_];
        if (pred(c)) {
          any = true;
          ++pos_;
        } else if (c == '_' && any && pos_ + 1 < s_.size() && pred(s_[pos_ + 1])) {
          ++pos_;
        } else {
          break;
        }
      }
      return any;
    };
    auto is_dec = [](char c) { return c >= '0' && c <= '9'; };
    Token t;
    bool is_float = false;
    int base = 10;
    if (s_[pos_] == '0' && pos_ + 1 < s_.size() && std::strchr("xXoObB", s_[pos_ + 1]) &&
        s_[pos_ + 1] != 0) {
      char b = static_cast<char>(std::tolower(static_cast<unsigned char>(s_[pos_ + 1])));
      base = b == 'x' ? 16 : b == 'o' ? 8 : 2;
      pos_ += 2;
      if (pos_ < s_.size() && s_[pos_] == '_') ++pos_;
      bool ok = digits([base](char c) {
        if (base == 16) return std::isxdigit(static_cast<unsigned char>(c)) != 0;
        if (base == 8) return c >= '0' && c <= '7';
        return c == '0' || c == '1';
      });
      if (!ok)
        fail(range(line, col), std::string("invalid ") +
                                   (base == 16  ? "hexadecimal"
                                    : base == 8 ? "octal"
                                                : "binary") +
                                   " literal");
    } else {
      digits(is_dec);
      if (pos_ < s_.size() && s_[pos_] == '.') {
        is_float = true;
        ++pos_;
        digits(is_dec);
      }
      if (pos_ < s_.size() && (s_[pos_] == 'e' || s_[pos_] == 'E')) {
        size_t save = pos_;
        ++pos_;
        if (pos_ < s_.size() && (s_[pos_] == '+' || s_[pos_] == '-')) ++pos_;
        if (!digits(is_dec)) {
          pos_ = save + 1;
          fail(range(line, col), "invalid float literal: exponent has no digits");
        }
        is_float = true;
      }
    }
    if (pos_ < s_.size() && (s_[pos_] == 'j' || s_[pos_] == 'J')) {
      ++pos_;
      fail(range(line, col), "complex literals are not supported");
    }
    if (pos_ < s_.size() && ident_char(static_cast<unsigned char>(s_[pos_]))) {
      while (pos_ < s_.size() && ident_char(static_cast<unsigned char>(s_[pos_]))) ++pos_;
      fail(range(line, col), "invalid " +
                                 std::string(base == 16  ? "hexadecimal"
                                             : base == 8 ? "octal"
                                             : base == 2 ? "binary"
                                                         : "decimal") +
                                 " literal");
    }
    std::string text;
    for (size_t i = start; i < pos_; ++i)
      if (s_[i] != '_') text += s_[i];
    t.loc = range(line, col);
    if (is_float) {
      t.kind = TokenKind::Float;
      t.float_value = std::strtod(text.c_str(), nullptr);
    } else {
      t.kind = TokenKind::Int;
      std::string_view ds = base == 10 ? std::string_view(text) : std::string_view(text).substr(2);
      if (base == 10 && ds.size() > 1 && ds[0] == '0') {
        for (char c : ds)
          if (c != '0')
            fail(t.loc,
                 "leading zeros in decimal integer literals are not permitted; use an 0o prefix "
                 "for octal integers");
      }
      unsigned __int128 v = 0;
      for (char c : ds) {
        int d = std::isdigit(static_cast<unsigned char>(c))
                    ? c - '0'
                    : std::tolower(static_cast<unsigned char>(c)) - 'a' + 10;
        v = v * static_cast<unsigned>(base) + static_cast<unsigned>(d);
        if (v > static_cast<unsigned __int128>(UINT64_MAX))
          fail(t.loc, "integer literal " + std::string(s_.substr(start, pos_ - start)) +
                          " does not fit in 64 bits");
      }
      t.big_unsigned = v > static_cast<unsigned __int128>(INT64_MAX);
      t.int_value = static_cast<int64_t>(static_cast<uint64_t>(v));
    }
    t.text = std::string(s_.substr(start, pos_ - start));
    tokens_.push_back(std::move(t));
  }

  void string_literal(size_t start, const std::string &prefix) {
    int line = line_, col = col_of(start);
    if (prefix.find('b') != std::string::npos) {
      pos_ = start + prefix.size() + 1;
      fail(SourceLoc{line, col, line, col_of(pos_)}, "bytes literals are not supported");
    }
    bool raw = prefix.find('r') != std::string::npos;
    bool fstr = prefix.find('f') != std::string::npos;
    char q = s_[pos_];
    bool triple = pos_ + 2 < s_.size() && s_[pos_ + 1] == q && s_[pos_ + 2] == q;
    pos_ += triple ? 3 : 1;
    size_t body_start = pos_;
    SourceLoc body_loc{line_, col_of(pos_), line_, col_of(pos_)};
    while (true) {
      if (pos_ >= s_.size())
        fail(SourceLoc{line, col, line, col + 1},
             triple ? "unterminated triple-quoted string literal" : "unterminated string literal");
      char c = s_[pos_];
      if (c == '\\') {
        pos_ += 1;
        if (pos_ < s_.size()) {
          if (s_[pos_] == '\n') {
            ++pos_;
            new_line();
          } else {
            ++pos_;
          }
        }
        continue;
      }
      if (c == '\n') {
        if (!triple) fail(SourceLoc{line, col, line, col + 1}, "unterminated string literal");
        ++pos_;
        new_line();
        continue;
      }
      if (c == q) {
        if (!triple) break;
        if (pos_ + 2 < s_.size() && s_[pos_ + 1] == q && s_[pos_ + 2] == q) break;
      }
      ++pos_;
    }
    std::string_view body = s_.substr(body_start, pos_ - body_start);
    pos_ += triple ? 3 : 1;
    Token t;
    t.loc = range(line, col);
    t.raw_string = raw;
    t.body_loc = body_loc;
    if (fstr) {
      t.kind = TokenKind::FString;
      t.text = std::string(body);
    } else {
      t.kind = TokenKind::String;
      t.text = raw ? std::string(body) : decode_string_escapes(file_, body, t.loc);
    }
    tokens_.push_back(std::move(t));
  }

  void op() {
    int line = line_, col = col_of(pos_);
    for (auto o : kOps) {
      if (s_.substr(pos_, o.size()) == o) {
        pos_ += o.size();
        Token t;
        t.kind = TokenKind::Op;
        t.text = std::string(o);
        t.loc = range(line, col);
        if (o == "(" || o == "[" || o == "{") {
          brackets_.push_back(t);
        } else if (o == ")" || o == "]" || o == "}") {
          if (brackets_.empty()) fail(t.loc, "unmatched '" + t.text + "'");
          char open = brackets_.back().text[0];
          char want = open == '(' ? ')' : open == '[' ? ']' : '}';
          if (want != o[0]) {
            if (brackets_.back().loc.line == line)
              fail(t.loc, "closing parenthesis '" + t.text +
                              "' does not match opening parenthesis '" + brackets_.back().text +
                              "'");
            fail(t.loc, "closing parenthesis '" + t.text +
                            "' does not match opening parenthesis '" + brackets_.back().text +
                            "' on line " + std::to_string(brackets_.back().loc.line));
          }
          brackets_.pop_back();
        }
        tokens_.push_back(std::move(t));
        return;
      }
    }
    unsigned char c = static_cast<unsigned char>(s_[pos_]);
    std::string shown =
        std::isprint(c) ? std::string(1, static_cast<char>(c)) : "\\x" + std::to_string(c);
    fail(here(), "invalid character '" + shown + "' in source");
  }

  void finish() {
    SourceLoc loc{line_, col_of(pos_), line_, col_of(pos_)};
    if (!fragment_) {
      if (brackets_.empty() && !tokens_.empty() && tokens_.back().kind != TokenKind::Newline &&
          tokens_.back().kind != TokenKind::Dedent) {
        Token t;
        t.kind = TokenKind::Newline;
        t.loc = loc;
        tokens_.push_back(std::move(t));
      }
      while (indents_.size() > 1) {
        indents_.pop_back();
        Token t;
        t.kind = TokenKind::Dedent;
        t.loc = loc;
        tokens_.push_back(std::move(t));
      }
    }
    Token t;
    t.kind = TokenKind::EndOfFile;
    t.loc = loc;
    if (!brackets_.empty()) {  // reported by the parser (see lexer.h)
      t.text = brackets_.back().text;
      t.body_loc = brackets_.back().loc;
    }
    tokens_.push_back(std::move(t));
  }
};

}  // namespace

std::vector<Token> tokenize(const SourceFile &file) {
  return Lexer(file, file.text(), SourceLoc{1, 1, 1, 1}, false).run();
}

std::vector<Token> tokenize_fragment(const SourceFile &file, std::string_view text,
                                     SourceLoc start) {
  return Lexer(file, text, start, true).run();
}

std::string decode_string_escapes(const SourceFile &file, std::string_view body, SourceLoc loc) {
  std::string out;
  for (size_t i = 0; i < body.size(); ++i) {
    char c = body[i];
    if (c != '\\' || i + 1 >= body.size()) {
      out += c;
      continue;
    }
    char e = body[++i];
    switch (e) {
      case '\n':
        break;
      case '\\':
        out += '\\';
        break;
      case '\'':
        out += '\'';
        break;
      case '"':
        out += '"';
        break;
      case 'a':
        out += '\a';
        break;
      case 'b':
        out += '\b';
        break;
      case 'f':
        out += '\f';
        break;
      case 'n':
        out += '\n';
        break;
      case 'r':
        out += '\r';
        break;
      case 't':
        out += '\t';
        break;
      case 'v':
        out += '\v';
        break;
      case 'x':
      case 'u':
      case 'U': {
        size_t n = e == 'x' ? 2 : e == 'u' ? 4 : 8;
        if (i + n >= body.size())
          throw CompileError::at(file, loc,
                                 std::string("truncated \\") + e + " escape in string literal");
        uint32_t cp = 0;
        for (size_t k = 1; k <= n; ++k) {
          char h = body[i + k];
          if (!std::isxdigit(static_cast<unsigned char>(h)))
            throw CompileError::at(file, loc,
                                   std::string("truncated \\") + e + " escape in string literal");
          cp = cp * 16 +
               static_cast<uint32_t>(std::isdigit(static_cast<unsigned char>(h))
                                         ? h - '0'
                                         : std::tolower(static_cast<unsigned char>(h)) - 'a' + 10);
        }
        i += n;
        if (e == 'x')
          out += static_cast<char>(cp);
        else
          append_utf8(out, cp);
        break;
      }
      default:
        if (e >= '0' && e <= '7') {
          uint32_t v = static_cast<uint32_t>(e - '0');
          for (int k = 0; k < 2 && i + 1 < body.size() && body[i + 1] >= '0' && body[i + 1] <= '7';
               ++k)
            v = v * 8 + static_cast<uint32_t>(body[++i] - '0');
          append_utf8(out, v);
        } else {
          out += '\\';
          out += e;
        }
    }
  }
  return out;
}

}  // namespace opforge::compiler
