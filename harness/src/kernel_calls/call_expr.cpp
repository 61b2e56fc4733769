//===- call_expr.cpp - `opforge run --call`: a Python call expression to Values ===//
#include <cctype>
#include <cmath>
#include <limits>
#include <numeric>
#include <optional>
#include <random>

#include "opforge/harness/validate.h"
#include "opforge/support/error.h"

namespace opforge::harness {
namespace {

struct Token {
  enum class Kind { Name, Int, Float, String, Punct, End } kind = Kind::End;
  std::string text;
  size_t col = 0;  // 0-based
  int64_t int_value = 0;
  double float_value = 0;
};

// A value under construction: a Value, or a keyword argument's pieces.
struct Arg {
  std::string keyword;  // "" for positional
  Value value;
  size_t col = 0;
};

class Parser {
 public:
  Parser(const std::string &text, uint64_t seed) : text_(text), rng_(seed) { tokenize(); }

  CallExpression parse() {
    CallExpression call;
    const Token &name = expect_name("a wrapper name");
    call.function = name.text;
    expect("(");
    for (auto &a : arguments(")")) {
      if (a.keyword.empty())
        call.args.push_back(std::move(a.value));
      else
        call.kwargs.emplace_back(a.keyword, std::move(a.value));
    }
    if (peek().kind != Token::Kind::End)
      fail(peek().col, "unexpected '" + peek().text + "' after the call");
    return call;
  }

 private:
  [[noreturn]] void fail(size_t col, const std::string &message) const {
    ErrorContext ctx;
    ctx.file = "--call";
    ctx.line = 1;
    ctx.col = static_cast<int>(col + 1);
    throw Error(message + "\n  " + text_ + "\n  " + std::string(col, ' ') + "^", ctx);
  }

  void tokenize() {
    size_t i = 0;
    while (i < text_.size()) {
      char c = text_[i];
      if (std::isspace(static_cast<unsigned char>(c))) {
        ++i;
        continue;
      }
      Token t;
      t.col = i;
      if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
        size_t j = i;
        while (j < text_.size() &&
               (std::isalnum(static_cast<unsigned char>(text_[j])) || text_[j] == '_'))
          ++j;
        t.kind = Token::Kind::Name;
        t.text = text_.substr(i, j - i);
        i = j;
      } else if (std::isdigit(static_cast<unsigned char>(c)) ||
                 (c == '.' && i + 1 < text_.size() &&
                  std::isdigit(static_cast<unsigned char>(text_[i + 1])))) {
        size_t j = i;
        bool is_float = false;
        while (j < text_.size()) {
          char d = text_[j];
          if (std::isdigit(static_cast<unsigned char>(d)) || d == '_') {
            ++j;
          } else if (d == '.' || d == 'e' || d == 'E') {
            is_float = true;
            ++j;
            if ((d == 'e' || d == 'E') && j < text_.size() && (text_[j] == '-' || text_[j] == '+'))
              ++j;
          } else {
            break;
          }
        }
        t.text = text_.substr(i, j - i);
        std::string digits;
        for (char d : t.text)
          if (d != '_') digits += d;
        try {
          size_t used = 0;
          if (is_float) {
            t.kind = Token::Kind::Float;
            t.float_value = std::stod(digits, &used);
          } else {
            t.kind = Token::Kind::Int;
            t.int_value = std::stoll(digits, &used);
          }
          if (used != digits.size()) fail(i, "malformed number '" + t.text + "'");
        } catch (const std::logic_error &) {
          fail(i, "malformed number '" + t.text + "'");
        }
        i = j;
      } else if (c == '\'' || c == '"') {
        size_t j = i + 1;
        while (j < text_.size() && text_[j] != c) ++j;
        if (j >= text_.size()) fail(i, "unterminated string");
        t.kind = Token::Kind::String;
        t.text = text_.substr(i + 1, j - i - 1);
        i = j + 1;
      } else if (std::string("()[],=:-+.").find(c) != std::string::npos) {
        t.kind = Token::Kind::Punct;
        t.text = std::string(1, c);
        ++i;
      } else {
        fail(i, std::string("unexpected character '") + c + "'");
      }
      tokens_.push_back(t);
    }
    Token end;
    end.col = text_.size();
    end.text = "end of the expression";
    tokens_.push_back(end);
  }

  const Token &peek(size_t ahead = 0) const {
    return tokens_[std::min(pos_ + ahead, tokens_.size() - 1)];
  }
  const Token &next() {
    const Token &t = peek();
    if (pos_ < tokens_.size() - 1) ++pos_;
    return t;
  }
  bool accept(const std::string &punct) {
    if (peek().kind == Token::Kind::Punct && peek().text == punct) {
      next();
      return true;
    }
    return false;
  }
  void expect(const std::string &punct) {
    if (!accept(punct)) fail(peek().col, "expected '" + punct + "', found '" + peek().text + "'");
  }
  const Token &expect_name(const std::string &what) {
    if (peek().kind != Token::Kind::Name)
      fail(peek().col, "expected " + what + ", found '" + peek().text + "'");
    return next();
  }

  // Arguments up to the closing `close`; keywords allowed.
  std::vector<Arg> arguments(const std::string &close) {
    std::vector<Arg> out;
    while (!accept(close)) {
      Arg a;
      a.col = peek().col;
      if (peek().kind == Token::Kind::Name && peek(1).kind == Token::Kind::Punct &&
          peek(1).text == "=") {
        a.keyword = next().text;
        next();
      } else {
        for (const auto &prev : out)
          if (!prev.keyword.empty()) fail(a.col, "positional argument after a keyword argument");
      }
      a.value = expression();
      out.push_back(std::move(a));
      if (!accept(",")) {
        expect(close);
        break;
      }
    }
    return out;
  }

  Value expression() {
    size_t col = peek().col;
    if (accept("-")) {
      Value v = expression();
      if (v.kind == Value::Kind::Int) return Value::of_int(-v.integer);
      if (v.kind == Value::Kind::Double) return Value::of_double(-v.number);
      fail(col, "unary minus needs a number");
    }
    if (accept("+")) return expression();
    Value v = primary();
    return postfix(std::move(v));
  }

  Value primary() {
    const Token &t = peek();
    switch (t.kind) {
      case Token::Kind::Int:
        next();
        return Value::of_int(t.int_value);
      case Token::Kind::Float:
        next();
        return Value::of_double(t.float_value);
      case Token::Kind::String: {
        next();
        Value v;
        v.kind = Value::Kind::String;
        v.text = t.text;
        return v;
      }
      case Token::Kind::Punct:
        if (accept("(") || accept("[")) {
          const std::string close = tokens_[pos_ - 1].text == "(" ? ")" : "]";
          std::vector<Value> items;
          bool comma = false;
          while (!accept(close)) {
            items.push_back(expression());
            if (!accept(",")) {
              expect(close);
              break;
            }
            comma = true;
          }
          // (x) is x; (x,) and [x] are sequences.
          if (close == ")" && items.size() == 1 && !comma) return items[0];
          return Value::of_list(std::move(items));
        }
        fail(t.col, "expected a value, found '" + t.text + "'");
      case Token::Kind::Name:
        return named();
      case Token::Kind::End:
        break;
    }
    fail(t.col, "expected a value, found the end of the expression");
  }

  // Names: True/False/None, torch.<dtype>, math.inf/pi, factories, float('inf').
  Value named() {
    size_t col = peek().col;
    std::string name = next().text;
    while (peek().kind == Token::Kind::Punct && peek().text == "." &&
           peek(1).kind == Token::Kind::Name && (name == "torch" || name == "math")) {
      next();
      name += "." + next().text;
    }
    if (name == "True") return Value::of_bool(true);
    if (name == "False") return Value::of_bool(false);
    if (name == "None") return Value::none();
    if (name == "math.inf") return Value::of_double(std::numeric_limits<double>::infinity());
    if (name == "math.nan") return Value::of_double(std::numeric_limits<double>::quiet_NaN());
    if (name == "math.pi") return Value::of_double(M_PI);
    if (name.rfind("torch.", 0) == 0 && peek().text != "(") {
      auto d = parse_dtype(name.substr(6));
      if (!d)
        fail(col, "unknown torch attribute '" + name + "' (expected a dtype like torch.float16)");
      return Value::of_dtype(*d);
    }
    if (peek().kind != Token::Kind::Punct || peek().text != "(")
      fail(col, "unknown name '" + name + "'");
    next();
    std::vector<Arg> args = arguments(")");
    std::string fn = name.rfind("torch.", 0) == 0 ? name.substr(6) : name;
    if (fn == "float" || fn == "int") return conversion(fn, args, col);
    return factory(fn, args, col);
  }

  Value conversion(const std::string &fn, const std::vector<Arg> &args, size_t col) {
    if (args.size() != 1 || !args[0].keyword.empty()) fail(col, fn + "() takes one argument");
    const Value &v = args[0].value;
    if (fn == "float") {
      if (v.kind == Value::Kind::String) {
        std::string s = v.text;
        for (auto &c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        if (s == "inf" || s == "+inf" || s == "infinity")
          return Value::of_double(std::numeric_limits<double>::infinity());
        if (s == "-inf" || s == "-infinity")
          return Value::of_double(-std::numeric_limits<double>::infinity());
        if (s == "nan") return Value::of_double(std::numeric_limits<double>::quiet_NaN());
        fail(args[0].col, "float() of '" + v.text + "' (expected 'inf', '-inf' or 'nan')");
      }
      if (v.kind == Value::Kind::Int) return Value::of_double(static_cast<double>(v.integer));
      if (v.kind == Value::Kind::Double) return v;
    } else {
      if (v.kind == Value::Kind::Int) return v;
      if (v.kind == Value::Kind::Double) return Value::of_int(static_cast<int64_t>(v.number));
    }
    fail(args[0].col, fn + "() of " + v.summary());
  }

  // --- tensor factories ---
  std::vector<int64_t> sizes_of(const std::vector<Arg> &pos, size_t col) {
    std::vector<int64_t> sizes;
    if (pos.size() == 1 && pos[0].value.kind == Value::Kind::List) {
      for (const auto &v : pos[0].value.list) {
        if (v.kind != Value::Kind::Int) fail(pos[0].col, "sizes must be integers");
        sizes.push_back(v.integer);
      }
    } else {
      for (const auto &a : pos) {
        if (a.value.kind != Value::Kind::Int) fail(a.col, "sizes must be integers");
        sizes.push_back(a.value.integer);
      }
    }
    for (auto s : sizes)
      if (s < 0) fail(col, "negative size " + std::to_string(s));
    int64_t n = 1;
    for (auto s : sizes) {
      if (s && n > (int64_t(1) << 31) / s) fail(col, "tensor too large (over 2^31 elements)");
      n *= s;
    }
    return sizes;
  }

  static double number(const Value &v) {
    return v.kind == Value::Kind::Int    ? static_cast<double>(v.integer)
           : v.kind == Value::Kind::Bool ? (v.boolean ? 1.0 : 0.0)
                                         : v.number;
  }
  static bool is_number(const Value &v) {
    return v.kind == Value::Kind::Int || v.kind == Value::Kind::Double ||
           v.kind == Value::Kind::Bool;
  }

  Value factory(const std::string &fn, const std::vector<Arg> &args, size_t col) {
    std::vector<Arg> pos;
    std::optional<DType> dtype;
    std::vector<std::pair<std::string, const Arg *>> rest;
    for (const auto &a : args) {
      if (a.keyword.empty()) {
        pos.push_back(a);
      } else if (a.keyword == "dtype") {
        if (a.value.kind != Value::Kind::DType) fail(a.col, "dtype= needs a torch dtype");
        dtype = a.value.dtype;
      } else if (a.keyword == "device" || a.keyword == "requires_grad") {
        // accepted and ignored: tensors live where the executor puts them
      } else {
        rest.emplace_back(a.keyword, &a);
      }
    }
    auto kw = [&](const std::string &name) -> const Arg * {
      for (auto &[k, a] : rest)
        if (k == name) return a;
      return nullptr;
    };
    for (auto &[k, a] : rest)
      if (!((fn == "randint" && (k == "low" || k == "high" || k == "size")) ||
            (fn == "full" && (k == "size" || k == "fill_value")) ||
            (fn == "arange" && (k == "start" || k == "end" || k == "step"))))
        fail(a->col, fn + "() got an unexpected keyword argument '" + k + "'");

    if (fn == "randn" || fn == "rand" || fn == "zeros" || fn == "ones") {
      HostTensor t(dtype.value_or(DType::Float32), sizes_of(pos, col));
      std::normal_distribution<double> normal;
      std::uniform_real_distribution<double> uniform;
      for (int64_t i = 0; i < t.numel(); ++i)
        t.set_double(i, fn == "randn" ? normal(rng_) : fn == "rand" ? uniform(rng_) : fn == "ones");
      return Value::of_tensor(t);
    }
    if (fn == "randint") {
      // randint(high, size) or randint(low, high, size)
      std::vector<Value> p;
      for (auto &a : pos) p.push_back(a.value);
      if (auto *a = kw("low")) p.insert(p.begin(), a->value);
      if (auto *a = kw("high")) p.push_back(a->value);
      if (auto *a = kw("size")) p.push_back(a->value);
      if (p.size() == 2) p.insert(p.begin(), Value::of_int(0));
      if (p.size() != 3 || p[0].kind != Value::Kind::Int || p[1].kind != Value::Kind::Int ||
          p[2].kind != Value::Kind::List)
        fail(col, "randint(low, high, size) needs integers low < high and a size tuple");
      if (p[0].integer >= p[1].integer) fail(col, "randint: low must be below high");
      std::vector<Arg> size_arg(1);
      size_arg[0].value = p[2];
      size_arg[0].col = col;
      HostTensor t(dtype.value_or(DType::Int64), sizes_of(size_arg, col));
      std::uniform_int_distribution<int64_t> dist(p[0].integer, p[1].integer - 1);
      for (int64_t i = 0; i < t.numel(); ++i) t.set_int(i, dist(rng_));
      return Value::of_tensor(t);
    }
    if (fn == "arange") {
      std::vector<Value> p;
      for (auto &a : pos) p.push_back(a.value);
      if (auto *a = kw("start")) p.insert(p.begin(), a->value);
      if (auto *a = kw("end")) p.push_back(a->value);
      if (auto *a = kw("step")) p.push_back(a->value);
      for (auto &v : p)
        if (!is_number(v)) fail(col, "arange() needs numbers");
      if (p.empty() || p.size() > 3) fail(col, "arange(end) or arange(start, end[, step])");
      double start = p.size() > 1 ? number(p[0]) : 0, end = number(p.size() > 1 ? p[1] : p[0]),
             step = p.size() > 2 ? number(p[2]) : 1;
      if (step == 0) fail(col, "arange: step must not be zero");
      bool all_int = true;
      for (auto &v : p) all_int &= v.kind == Value::Kind::Int;
      int64_t n = std::max<int64_t>(0, static_cast<int64_t>(std::ceil((end - start) / step)));
      if (n > (int64_t(1) << 31)) fail(col, "tensor too large (over 2^31 elements)");
      HostTensor t(dtype.value_or(all_int ? DType::Int64 : DType::Float32), {n});
      for (int64_t i = 0; i < n; ++i) t.set_double(i, start + static_cast<double>(i) * step);
      return Value::of_tensor(t);
    }
    if (fn == "full") {
      const Value *size = pos.size() > 0 ? &pos[0].value
                          : kw("size")   ? &kw("size")->value
                                         : nullptr;
      const Value *fill = pos.size() > 1     ? &pos[1].value
                          : kw("fill_value") ? &kw("fill_value")->value
                                             : nullptr;
      if (!size || !fill || size->kind != Value::Kind::List || !is_number(*fill))
        fail(col, "full(size, fill_value) needs a size tuple and a number");
      std::vector<Arg> size_arg(1);
      size_arg[0].value = *size;
      size_arg[0].col = col;
      DType d = dtype.value_or(fill->kind == Value::Kind::Int    ? DType::Int64
                               : fill->kind == Value::Kind::Bool ? DType::Bool
                                                                 : DType::Float32);
      HostTensor t(d, sizes_of(size_arg, col));
      for (int64_t i = 0; i < t.numel(); ++i) t.set_double(i, number(*fill));
      return Value::of_tensor(t);
    }
    if (fn == "tensor") {
      if (pos.size() != 1) fail(col, "tensor(data) takes one positional argument");
      std::vector<int64_t> sizes;
      std::vector<Value> flat;
      bool all_int = true, all_bool = true;
      flatten(pos[0].value, 0, sizes, flat, pos[0].col);
      for (auto &v : flat) {
        all_int &= v.kind == Value::Kind::Int;
        all_bool &= v.kind == Value::Kind::Bool;
      }
      HostTensor t(dtype.value_or(flat.empty() ? DType::Float32
                                  : all_bool   ? DType::Bool
                                  : all_int    ? DType::Int64
                                               : DType::Float32),
                   sizes);
      for (size_t i = 0; i < flat.size(); ++i)
        t.set_double(static_cast<int64_t>(i), number(flat[i]));
      return Value::of_tensor(t);
    }
    fail(col, "unknown function '" + fn +
                  "' (tensor factories: randn, rand, randint, arange, zeros, ones, full, tensor)");
  }

  void flatten(const Value &v, size_t depth, std::vector<int64_t> &sizes, std::vector<Value> &flat,
               size_t col) {
    if (v.kind == Value::Kind::List) {
      if (sizes.size() == depth)
        sizes.push_back(static_cast<int64_t>(v.list.size()));
      else if (sizes[depth] != static_cast<int64_t>(v.list.size()))
        fail(col, "tensor(): ragged nested lists");
      for (const auto &item : v.list) flatten(item, depth + 1, sizes, flat, col);
      return;
    }
    if (!is_number(v)) fail(col, "tensor(): elements must be numbers or bools");
    if (depth != sizes.size()) fail(col, "tensor(): ragged nested lists");
    flat.push_back(v);
  }

  // --- views and methods ---
  Value postfix(Value v) {
    for (;;) {
      size_t col = peek().col;
      if (accept(".")) {
        const Token &m = expect_name("a method name");
        expect("(");
        std::vector<Arg> args = arguments(")");
        v = method(std::move(v), m.text, args, col);
      } else if (accept("[")) {
        v = subscript(std::move(v), col);
      } else {
        return v;
      }
    }
  }

  static Value view(const HostTensor &t, std::vector<int64_t> sizes, std::vector<int64_t> strides,
                    int64_t offset) {
    return Value::of_tensor(
        HostTensor(t.dtype(), std::move(sizes), std::move(strides), offset, t.storage()));
  }

  Value method(Value v, const std::string &name, const std::vector<Arg> &args, size_t col) {
    if (v.kind != Value::Kind::Tensor) fail(col, "." + name + "() needs a tensor");
    const HostTensor &t = v.tensor;
    std::vector<int64_t> ints;
    for (const auto &a : args) {
      if (a.value.kind == Value::Kind::Int)
        ints.push_back(a.value.integer);
      else if (a.value.kind == Value::Kind::List)
        for (const auto &i : a.value.list)
          ints.push_back(i.kind == Value::Kind::Int ? i.integer : 0);
    }
    auto dim = [&](int64_t d) {
      int64_t n = std::max<int64_t>(t.dim(), 1);
      if (d < -n || d >= n) fail(col, "dimension " + std::to_string(d) + " out of range");
      return d < 0 ? d + n : d;
    };
    if (name == "t" || name == "transpose") {
      if (name == "t" && (!args.empty() || t.dim() > 2))
        fail(col, ".t() takes a tensor of at most 2 dims");
      if (name == "transpose" && ints.size() != 2) fail(col, ".transpose(dim0, dim1)");
      if (t.dim() < 2) return v;
      int64_t a = name == "t" ? 0 : dim(ints[0]), b = name == "t" ? 1 : dim(ints[1]);
      auto sizes = t.sizes();
      auto strides = t.strides();
      std::swap(sizes[a], sizes[b]);
      std::swap(strides[a], strides[b]);
      return view(t, sizes, strides, t.storage_offset());
    }
    if (name == "permute") {
      if (static_cast<int64_t>(ints.size()) != t.dim())
        fail(col, ".permute() needs every dimension once");
      std::vector<int64_t> sizes, strides;
      std::vector<bool> seen(ints.size());
      for (auto d : ints) {
        d = dim(d);
        if (seen[d]) fail(col, ".permute(): dimension repeated");
        seen[d] = true;
        sizes.push_back(t.sizes()[d]);
        strides.push_back(t.strides()[d]);
      }
      return view(t, sizes, strides, t.storage_offset());
    }
    if (name == "contiguous") return Value::of_tensor(t.contiguous());
    if (name == "to") {
      if (args.size() != 1 || args[0].value.kind != Value::Kind::DType) fail(col, ".to(dtype)");
      return Value::of_tensor(t.to(args[0].value.dtype));
    }
    fail(col, "unknown tensor method '." + name + "()' (t, transpose, permute, contiguous, to)");
  }

  Value subscript(Value v, size_t col) {
    if (v.kind != Value::Kind::Tensor) fail(col, "subscript of a non-tensor");
    const HostTensor &t = v.tensor;
    std::vector<int64_t> sizes, strides;
    int64_t offset = t.storage_offset();
    int64_t d = 0;
    for (bool first = true; !accept("]"); first = false) {
      if (!first) expect(",");
      if (accept("]")) break;
      size_t item_col = peek().col;
      if (d >= t.dim())
        fail(item_col, "too many indices for a tensor of " + std::to_string(t.dim()) + " dims");
      const int64_t n = t.sizes()[d], stride = t.strides()[d];
      auto bound = [&](int64_t i) { return i < 0 ? std::max<int64_t>(i + n, 0) : std::min(i, n); };
      std::optional<int64_t> lo, hi, step;
      auto opt_int = [&]() -> std::optional<int64_t> {
        if (peek().text == ":" || peek().text == "," || peek().text == "]") return std::nullopt;
        size_t c = peek().col;
        Value x = expression();
        if (x.kind != Value::Kind::Int) fail(c, "indices must be integers");
        return x.integer;
      };
      lo = opt_int();
      if (accept(":")) {
        hi = opt_int();
        if (accept(":")) step = opt_int();
        int64_t s = step.value_or(1);
        if (s <= 0) fail(item_col, "slice step must be positive");
        int64_t a = lo ? bound(*lo) : 0, b = hi ? bound(*hi) : n;
        int64_t len = b > a ? (b - a + s - 1) / s : 0;
        offset += a * stride;
        sizes.push_back(len);
        strides.push_back(stride * s);
      } else {
        if (!lo) fail(item_col, "expected an index or a slice");
        int64_t i = *lo < 0 ? *lo + n : *lo;
        if (i < 0 || i >= n)
          fail(item_col,
               "index " + std::to_string(*lo) + " out of range for size " + std::to_string(n));
        offset += i * stride;
      }
      ++d;
    }
    for (; d < t.dim(); ++d) {
      sizes.push_back(t.sizes()[d]);
      strides.push_back(t.strides()[d]);
    }
    return view(t, sizes, strides, offset);
  }

  const std::string &text_;
  std::mt19937_64 rng_;
  std::vector<Token> tokens_;
  size_t pos_ = 0;
};

}  // namespace

CallExpression parse_call_expression(const std::string &text, uint64_t seed) {
  return Parser(text, seed).parse();
}

}  // namespace opforge::harness
