//===- extension_expr.cpp - parse and evaluate extension semantics ---------===//
#include "extension_expr.h"

#include <bit>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <string>

#include "opforge/isa/sfu_math.h"
#include "opforge/support/error.h"

namespace opforge::isa {
namespace {

using Op = ExtExpr::Op;

struct Helper {
  std::string_view name;
  Op op;
  SfuFunc fn;
  int arity;
};

constexpr Helper kHelpers[] = {
    {"exp", Op::Sfu, SfuFunc::Exp, 1},     {"log", Op::Sfu, SfuFunc::Log, 1},
    {"tanh", Op::Sfu, SfuFunc::Tanh, 1},   {"erf", Op::Sfu, SfuFunc::Erf, 1},
    {"sin", Op::Sfu, SfuFunc::Sin, 1},     {"cos", Op::Sfu, SfuFunc::Cos, 1},
    {"rsqrt", Op::Sfu, SfuFunc::Rsqrt, 1}, {"recip", Op::Sfu, SfuFunc::Recip, 1},
    {"sqrt", Op::Sqrt, SfuFunc::Exp, 1},   {"fma", Op::Fma, SfuFunc::Exp, 3},
    {"min", Op::Min, SfuFunc::Exp, 2},     {"max", Op::Max, SfuFunc::Exp, 2},
    {"abs", Op::Abs, SfuFunc::Exp, 1},     {"round_p", Op::RoundP, SfuFunc::Exp, 2},
};

class Parser {
 public:
  explicit Parser(std::string_view text) : s_(text) {}

  std::shared_ptr<const ExtExpr> run() {
    auto e = std::make_shared<ExtExpr>();
    e_ = e.get();
    skip();
    if (pos_ >= s_.size()) fail(pos_, "empty expression");
    e->root = sum();
    if (pos_ < s_.size()) fail(pos_, "unexpected '" + std::string(1, s_[pos_]) + "'");
    return e;
  }

 private:
  [[noreturn]] void fail(size_t at, const std::string &msg) const {
    ErrorContext ctx;
    ctx.col = static_cast<int>(at) + 1;
    throw Error(msg, ctx);
  }
  void skip() {
    while (pos_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[pos_]))) ++pos_;
  }
  bool eat(char c) {
    if (pos_ < s_.size() && s_[pos_] == c) {
      ++pos_;
      skip();
      return true;
    }
    return false;
  }
  void expect(char c) {
    if (!eat(c))
      fail(pos_,
           std::string("expected '") + c + "'" +
               (pos_ < s_.size() ? " at '" + std::string(1, s_[pos_]) + "'" : " before the end"));
  }
  int add(ExtExpr::Node n) {
    e_->nodes.push_back(n);
    return static_cast<int>(e_->nodes.size()) - 1;
  }
  int binary(Op op, int a, int b) {
    ExtExpr::Node n;
    n.op = op;
    n.a = a;
    n.b = b;
    return add(n);
  }

  int sum() {
    int l = product();
    for (;;) {
      if (eat('+'))
        l = binary(Op::Add, l, product());
      else if (eat('-'))
        l = binary(Op::Sub, l, product());
      else
        return l;
    }
  }
  int product() {
    int l = unary();
    for (;;) {
      if (eat('*'))
        l = binary(Op::Mul, l, unary());
      else if (eat('/'))
        l = binary(Op::Div, l, unary());
      else
        return l;
    }
  }
  int unary() {
    if (eat('-')) return binary(Op::Neg, unary(), -1);
    if (eat('+')) return unary();
    return primary();
  }
  int primary() {
    if (pos_ >= s_.size()) fail(pos_, "expression ends early");
    const char c = s_[pos_];
    if (eat('(')) {
      int v = sum();
      expect(')');
      return v;
    }
    if (std::isdigit(static_cast<unsigned char>(c)) || c == '.') return number();
    if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') return name();
    fail(pos_, "unexpected '" + std::string(1, c) + "'");
  }
  int number() {
    const size_t start = pos_;
    const std::string rest(s_.substr(pos_));
    char *end = nullptr;
    const float v = std::strtof(rest.c_str(), &end);
    if (end == rest.c_str()) fail(start, "bad number");
    pos_ += static_cast<size_t>(end - rest.c_str());
    if (pos_ < s_.size() && (std::isalnum(static_cast<unsigned char>(s_[pos_])) || s_[pos_] == '_'))
      fail(start, "bad number '" + std::string(s_.substr(start, pos_ - start + 1)) + "'");
    skip();
    ExtExpr::Node n;
    n.value = v;
    return add(n);
  }
  int name() {
    const size_t start = pos_;
    while (pos_ < s_.size() &&
           (std::isalnum(static_cast<unsigned char>(s_[pos_])) || s_[pos_] == '_'))
      ++pos_;
    const std::string_view id = s_.substr(start, pos_ - start);
    skip();
    if (id == "x" || id == "y") {
      ExtExpr::Node n;
      n.op = id == "x" ? Op::X : Op::Y;
      e_->uses_y |= id == "y";
      return add(n);
    }
    const Helper *h = nullptr;
    for (const Helper &k : kHelpers)
      if (k.name == id) h = &k;
    if (!h) {
      std::string known;
      for (const Helper &k : kHelpers) known += (known.empty() ? "" : " ") + std::string(k.name);
      fail(start,
           "unknown helper '" + std::string(id) + "' (element names: x y; helpers: " + known + ")");
    }
    expect('(');
    ExtExpr::Node n;
    n.op = h->op;
    n.fn = h->fn;
    e_->uses_sfu |= h->op == Op::Sfu;
    int *args[3] = {&n.a, &n.b, &n.c};
    for (int k = 0; k < h->arity; ++k) {
      if (k) expect(',');
      if (h->op == Op::RoundP && k == 1) {
        const size_t at = pos_;
        const int lit = number();
        const float bits = e_->nodes[static_cast<size_t>(lit)].value;
        e_->nodes.pop_back();
        if (bits != std::floor(bits) || bits < 0 || bits > 23)
          fail(at, "round_p: the mantissa bits must be an integer literal 0..23");
        n.bits = static_cast<unsigned>(bits);
        continue;
      }
      *args[k] = sum();
    }
    if (pos_ < s_.size() && s_[pos_] == ',')
      fail(pos_, std::string(h->name) + " takes " + std::to_string(h->arity) + " argument" +
                     (h->arity == 1 ? "" : "s"));
    expect(')');
    return add(n);
  }

  std::string_view s_;
  size_t pos_ = 0;
  ExtExpr *e_ = nullptr;
};

float canonical(float v) { return v != v ? std::bit_cast<float>(0x7fc00000u) : v; }

// RISC-V fmin/fmax: a NaN operand yields the other; -0 orders below +0.
float fminmax(float a, float b, bool is_max) {
  if (a != a && b != b) return std::bit_cast<float>(0x7fc00000u);
  if (a != a) return b;
  if (b != b) return a;
  if (a == b) {
    const bool a_neg = std::signbit(a);
    return is_max ? (a_neg ? b : a) : (a_neg ? a : b);
  }
  return is_max ? (a > b ? a : b) : (a < b ? a : b);
}

float eval(const ExtExpr &e, int k, float x, float y, unsigned prec) {
  const ExtExpr::Node &n = e.nodes[static_cast<size_t>(k)];
  auto arg = [&](int i) { return eval(e, i, x, y, prec); };
  switch (n.op) {
    case Op::Const:
      return n.value;
    case Op::X:
      return x;
    case Op::Y:
      return y;
    case Op::Neg:
      return -arg(n.a);
    case Op::Add:
      return canonical(arg(n.a) + arg(n.b));
    case Op::Sub:
      return canonical(arg(n.a) - arg(n.b));
    case Op::Mul:
      return canonical(arg(n.a) * arg(n.b));
    case Op::Div:
      return canonical(arg(n.a) / arg(n.b));
    case Op::Sfu:
      return sfu::evaluate(n.fn, arg(n.a), prec);
    case Op::Sqrt:
      return canonical(std::sqrt(arg(n.a)));
    case Op::Fma:
      return canonical(std::fma(arg(n.a), arg(n.b), arg(n.c)));
    case Op::Min:
      return fminmax(arg(n.a), arg(n.b), false);
    case Op::Max:
      return fminmax(arg(n.a), arg(n.b), true);
    case Op::Abs:
      return std::fabs(arg(n.a));
    case Op::RoundP:
      return sfu::round_to_precision(arg(n.a), n.bits);
  }
  return 0;
}

}  // namespace

std::shared_ptr<const ExtExpr> parse_ext_expr(std::string_view text) { return Parser(text).run(); }

const std::vector<std::string_view> &ext_expr_helpers() {
  static const std::vector<std::string_view> names = [] {
    std::vector<std::string_view> v;
    for (const Helper &h : kHelpers) v.push_back(h.name);
    return v;
  }();
  return names;
}

float ext_evaluate(const ExtInsn &insn, float x, float y, unsigned sfu_prec) {
  if (!insn.expr) throw Error("extension instruction '" + insn.mnemonic + "' has no semantics");
  return canonical(eval(*insn.expr, insn.expr->root, x, y, sfu_prec));
}

}  // namespace opforge::isa
