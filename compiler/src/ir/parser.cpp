//===- parser.cpp - read ttir's textual form back into a Module ----------===//
#include <cctype>
#include <cmath>
#include <cstdlib>

#include "opforge/compiler/ir_parser.h"
#include "opforge/support/error.h"

namespace opforge::ttir {
namespace {

struct LineCursor {
  std::string_view s;
  size_t p = 0;
  void ws() {
    while (p < s.size() && (s[p] == ' ' || s[p] == '\t')) ++p;
  }
  bool done() {
    ws();
    return p >= s.size();
  }
  bool peek(char c) {
    ws();
    return p < s.size() && s[p] == c;
  }
  bool eat(std::string_view t) {
    ws();
    if (s.substr(p, t.size()) == t) {
      p += t.size();
      return true;
    }
    return false;
  }
  std::string_view word(bool allow_dots = true) {
    ws();
    size_t b = p;
    while (p < s.size() && (std::isalnum(static_cast<unsigned char>(s[p])) || s[p] == '_' ||
                            (allow_dots && s[p] == '.')))
      ++p;
    return s.substr(b, p - b);
  }
};

class Parser {
 public:
  Parser(std::string_view text, std::string file) : text_(text), file_(std::move(file)) {}

  std::unique_ptr<Module> run() {
    auto m = std::make_unique<Module>();
    split_lines();
    while (li_ < lines_.size()) {
      LineCursor c{lines_[li_]};
      if (c.done() || c.eat("//")) {
        ++li_;
        continue;
      }
      if (!c.eat("tt.func")) fail(c, "expected 'tt.func'");
      function(*m, c);
    }
    verify(*m);
    return m;
  }

 private:
  std::string_view text_;
  std::string file_;
  std::vector<std::string_view> lines_;
  size_t li_ = 0;
  std::map<std::string, Value *> values_;

  [[noreturn]] void fail(const LineCursor &c, const std::string &msg) {
    ErrorContext ctx;
    ctx.file = file_;
    ctx.line = static_cast<int>(li_ + 1);
    ctx.col = static_cast<int>(c.p + 1);
    throw Error(msg, ctx);
  }

  void split_lines() {
    size_t b = 0;
    for (size_t i = 0; i <= text_.size(); ++i) {
      if (i == text_.size() || text_[i] == '\n') {
        lines_.push_back(text_.substr(b, i - b));
        b = i + 1;
      }
    }
  }

  std::string value_name(LineCursor &c) {
    if (!c.eat("%")) fail(c, "expected a value name starting with '%'");
    auto w = c.word(false);
    if (w.empty()) fail(c, "expected a value name after '%'");
    return std::string(w);
  }

  Value *use(LineCursor &c) {
    size_t at = c.p;
    std::string n = value_name(c);
    auto it = values_.find(n);
    if (it == values_.end()) {
      c.p = at;
      c.ws();
      fail(c, "use of undefined value '%" + n + "'");
    }
    return it->second;
  }

  void define(LineCursor &c, const std::string &n, Value *v) {
    if (!values_.emplace(n, v).second) fail(c, "redefinition of value '%" + n + "'");
  }

  Type type(LineCursor &c) {
    c.ws();
    size_t b = c.p;
    int depth = 0;
    while (c.p < c.s.size()) {
      char ch = c.s[c.p];
      if (ch == '<') ++depth;
      if (ch == '>') --depth;
      if (depth == 0 && (ch == ',' || ch == ' ' || ch == ')' || ch == '{')) break;
      ++c.p;
    }
    std::string_view t = c.s.substr(b, c.p - b);
    try {
      return parse_type(t);
    } catch (const Error &e) {
      c.p = b;
      fail(c, e.message());
    }
  }

  Attr attr_value(LineCursor &c) {
    c.ws();
    if (c.eat("true")) return true;
    if (c.eat("false")) return false;
    if (c.peek('"')) {
      ++c.p;
      std::string s;
      while (c.p < c.s.size() && c.s[c.p] != '"') {
        if (c.s[c.p] == '\\' && c.p + 1 < c.s.size()) {
          ++c.p;
          s += c.s[c.p] == 'n' ? '\n' : c.s[c.p];
        } else {
          s += c.s[c.p];
        }
        ++c.p;
      }
      if (!c.eat("\"")) fail(c, "unterminated string");
      return s;
    }
    if (c.eat("[")) {
      std::vector<int64_t> v;
      while (!c.eat("]")) {
        c.ws();
        char *end = nullptr;
        std::string rest(c.s.substr(c.p));
        long long x = std::strtoll(rest.c_str(), &end, 10);
        if (end == rest.c_str()) fail(c, "expected an integer in a list");
        c.p += static_cast<size_t>(end - rest.c_str());
        v.push_back(x);
        if (!c.eat(",") && !c.peek(']')) fail(c, "expected ',' or ']'");
      }
      return v;
    }
    std::string rest(c.s.substr(c.p));
    size_t len = 0;
    while (len < rest.size() && rest[len] != ',' && rest[len] != '}' && rest[len] != ' ') ++len;
    std::string tok = rest.substr(0, len);
    if (tok == "inf" || tok == "-inf" || tok == "nan" || tok == "-nan") {
      c.p += len;
      double d = tok[0] == '-' ? -1.0 : 1.0;
      if (tok.find("inf") != std::string::npos) return d * HUGE_VAL;
      return std::copysign(std::nan(""), d);
    }
    bool is_float = tok.find_first_of(".eE") != std::string::npos;
    char *end = nullptr;
    if (is_float) {
      double d = std::strtod(tok.c_str(), &end);
      if (end != tok.c_str() + tok.size()) fail(c, "bad number '" + tok + "'");
      c.p += len;
      return d;
    }
    long long x = std::strtoll(tok.c_str(), &end, 10);
    if (tok.empty() || end != tok.c_str() + tok.size())
      fail(c, "bad attribute value '" + tok + "'");
    c.p += len;
    return static_cast<int64_t>(x);
  }

  void function(Module &m, LineCursor &c) {
    values_.clear();
    if (!c.eat("@")) fail(c, "expected '@name'");
    auto name = c.word(false);
    if (name.empty()) fail(c, "expected a function name");
    if (m.find(name)) fail(c, "redefinition of function '@" + std::string(name) + "'");
    Function *f = m.add_function(std::string(name));
    f->loc.file = file_;
    f->loc.line = static_cast<int>(li_ + 1);
    if (!c.eat("(")) fail(c, "expected '('");
    while (!c.eat(")")) {
      std::string n = value_name(c);
      if (!c.eat(":")) fail(c, "expected ':' after argument name");
      Type t = type(c);
      define(c, n, f->body->add_arg(t, n));
      if (!c.eat(",") && !c.peek(')')) fail(c, "expected ',' or ')'");
    }
    if (c.eat("->")) {
      if (!c.eat("(")) fail(c, "expected '(' after '->'");
      while (!c.eat(")")) {
        f->result_types.push_back(type(c));
        if (!c.eat(",") && !c.peek(')')) fail(c, "expected ',' or ')'");
      }
    }
    if (!c.eat("{") || !c.done()) fail(c, "expected '{' at the end of the function header");
    ++li_;
    if (block_body(*f->body) != Close::Brace) fail(c, "function body ended with '} {'");
  }

  enum class Close { Brace, NextRegion };

  // Parses ops until a closing line; returns how the block was closed.
  Close block_body(Block &b) {
    bool first = true;
    while (true) {
      if (li_ >= lines_.size()) {
        LineCursor c{""};
        fail(c, "unexpected end of input: missing '}'");
      }
      LineCursor c{lines_[li_]};
      if (c.done() || c.eat("//")) {
        ++li_;
        continue;
      }
      if (c.eat("}")) {
        Close k = Close::Brace;
        if (c.eat("{")) k = Close::NextRegion;
        if (!c.done()) fail(c, "unexpected text after '}'");
        ++li_;
        return k;
      }
      if (c.eat("^bb(")) {
        if (!first) fail(c, "block arguments must come first in a region");
        while (!c.eat(")")) {
          std::string n = value_name(c);
          if (!c.eat(":")) fail(c, "expected ':'");
          define(c, n, b.add_arg(type(c)));
          if (!c.eat(",") && !c.peek(')')) fail(c, "expected ',' or ')'");
        }
        if (!c.eat(":") || !c.done()) fail(c, "expected ':' after block arguments");
        ++li_;
        first = false;
        continue;
      }
      first = false;
      operation(b, c);
    }
  }

  void operation(Block &b, LineCursor &c) {
    std::vector<std::pair<std::string, size_t>> res_names;
    size_t save = c.p;
    if (c.peek('%')) {
      while (true) {
        size_t at = c.p;
        res_names.push_back({value_name(c), at});
        if (!c.eat(",")) break;
      }
      if (!c.eat("=")) {
        c.p = save;
        fail(c, "expected '=' after result names");
      }
    }
    size_t name_at = c.p;
    auto opname = c.word(true);
    auto kind = op_kind_from_name(opname);
    if (!kind) {
      c.p = name_at;
      c.ws();
      fail(c, "unknown operation '" + std::string(opname) + "'");
    }
    auto op = std::make_unique<Operation>(*kind);
    op->loc.file = file_;
    op->loc.line = static_cast<int>(li_ + 1);
    op->loc.col = static_cast<int>(name_at + 1);
    op->parent = &b;
    if (c.peek('%')) {
      while (true) {
        op->operands.push_back(use(c));
        if (!c.eat(",")) break;
      }
    }
    // Attribute dictionary: '{' not at the end of the line.
    {
      LineCursor probe = c;
      if (probe.eat("{") && !probe.done()) {
        c = probe;
        while (!c.eat("}")) {
          auto key = c.word(false);
          if (key.empty()) fail(c, "expected an attribute name");
          if (!c.eat("=")) fail(c, "expected '=' after attribute name");
          op->attrs[std::string(key)] = attr_value(c);
          if (!c.eat(",") && !c.peek('}')) fail(c, "expected ',' or '}' in attributes");
        }
      }
    }
    std::vector<Type> types;
    if (c.eat(":")) {
      while (true) {
        types.push_back(type(c));
        if (!c.eat(",")) break;
      }
    }
    if (types.size() != res_names.size())
      fail(c, "operation '" + std::string(opname) + "' names " + std::to_string(res_names.size()) +
                  " results but lists " + std::to_string(types.size()) + " result types");
    bool has_region = c.eat("{");
    if (!c.done()) fail(c, "unexpected text");
    for (size_t i = 0; i < types.size(); ++i) op->add_result(types[i]);
    ++li_;
    if (has_region) {
      while (true) {
        Block *r = op->add_region();
        if (block_body(*r) == Close::Brace) break;
      }
    }
    for (size_t i = 0; i < res_names.size(); ++i) {
      LineCursor at{c.s, res_names[i].second};
      define(at, res_names[i].first, op->result(i));
    }
    b.ops.push_back(std::move(op));
  }
};

}  // namespace

std::unique_ptr<Module> parse_module(std::string_view text, const std::string &file) {
  Parser p(text, file);
  return p.run();
}

}  // namespace opforge::ttir
