//===- builtins.cpp - wrapper interpreter: Python builtins, math, triton ---===//
#include <algorithm>
#include <cmath>
#include <numeric>

#include "interp_impl.h"

namespace opforge::compiler {

using T = Value::T;
using wrapper_detail::repr;
using wrapper_detail::str_of;
using wrapper_detail::type_name;

namespace {

const std::set<std::string> kBuiltins = {
    "len",        "list",         "tuple",      "range",          "min",
    "max",        "abs",          "int",        "float",          "bool",
    "str",        "dict",         "isinstance", "enumerate",      "zip",
    "sum",        "any",          "all",        "sorted",         "reversed",
    "filter",     "map",          "round",      "divmod",         "pow",
    "ValueError", "RuntimeError", "TypeError",  "AssertionError", "NotImplementedError",
    "IndexError", "KeyError",     "Exception"};

const std::set<std::string> kExceptions = {
    "ValueError",          "RuntimeError", "TypeError", "AssertionError",
    "NotImplementedError", "IndexError",   "KeyError",  "Exception"};

const std::set<std::string> kHostTorch = {"load",
                                          "save",
                                          "hub",
                                          "cuda",
                                          "distributed",
                                          "utils",
                                          "backends",
                                          "multiprocessing",
                                          "jit",
                                          "compile",
                                          "_C",
                                          "_dynamo",
                                          "_inductor",
                                          "library",
                                          "classes",
                                          "package",
                                          "onnx",
                                          "profiler",
                                          "set_default_device",
                                          "manual_seed",
                                          "from_numpy",
                                          "as_tensor",
                                          "tensor",
                                          "cpu",
                                          "mps",
                                          "xpu"};

}  // namespace

bool WrapperInterpreter::Impl::has_builtin(const std::string &name) const {
  return kBuiltins.count(name) != 0;
}

Value WrapperInterpreter::Impl::module_attr(const std::string &mod, const std::string &name,
                                            SourceLoc loc) {
  if (extension)
    if (auto v = extension->module_attr(*this, mod, name, loc)) return *v;
  if (mod == "torch" || mod == "triton.language") {
    if (auto d = parse_dtype(name)) return Value::dtype_of(*d);
    if (mod == "triton.language") {
      static const std::map<std::string, DType> tl_types = {
          {"int1", DType::Bool},    {"float32", DType::Float32}, {"fp32", DType::Float32},
          {"fp16", DType::Float16}, {"bf16", DType::BFloat16},   {"uint8", DType::UInt8},
          {"fp64", DType::Float64}};
      if (auto it = tl_types.find(name); it != tl_types.end()) return Value::dtype_of(it->second);
      if (name == "constexpr") return Value::builtin("triton.language.constexpr");
      fail(loc, "tl." + name + " is a device builtin and cannot be used in a host wrapper");
    }
    if (name == "Tensor") return Value::type("torch.Tensor");
    if (name == "dtype") return Value::type("torch.dtype");
    if (name == "Size") return Value::builtin("torch.Size");
    if (name == "nn") return Value::module("torch.nn");
    if (name == "contiguous_format" || name == "preserve_format") return Value::str(name);
    if (wrapper_torch_functions().count(name)) return Value::builtin("torch." + name);
    if (kHostTorch.count(name))
      fail(loc, "torch." + name + " is not available in wrappers: no host, file or runtime access");
    if (name == "ops")
      fail(loc,
           "torch.ops runs ATen ops, which the wrapper interpreter cannot run; compute with a "
           "Triton kernel");
    fail(loc, "torch." + name +
                  " is an ATen op or torch facility the wrapper interpreter does not provide; "
                  "compute it with a Triton kernel");
  }
  if (mod == "torch.nn") {
    if (name == "functional") return Value::module("torch.nn.functional");
    fail(loc, "torch.nn." + name + " is not available in wrappers");
  }
  if (mod == "torch.nn.functional")
    fail(
        loc,
        "torch.nn.functional." + name +
            " runs an ATen op the wrapper interpreter cannot run; compute it with a Triton kernel");
  if (mod == "triton") {
    if (name == "cdiv" || name == "next_power_of_2" || name == "Config")
      return Value::builtin("triton." + name);
    if (name == "language") return Value::module("triton.language");
    if (name == "runtime") return Value::module("triton.runtime");
    fail(loc, "triton." + name +
                  " is not available in wrappers (only triton.cdiv, triton.next_power_of_2 and "
                  "triton.Config)");
  }
  // The backend checks of Triton's tutorials (`is_cuda()`, `DEVICE = ...`): the target is
  // the accelerator, backend "mtia" (wrapper.md, "Autotuning").
  if (mod == "triton.runtime" && name == "driver") return Value::module("triton.runtime.driver");
  if (mod == "triton.runtime.driver" && name == "active")
    return Value::module("triton.runtime.driver.active");
  if (mod == "triton.runtime.driver.active" &&
      (name == "get_current_target" || name == "get_active_torch_device"))
    return Value::builtin(mod + "." + name);
  if (mod == "triton.backends.compiler.GPUTarget") {
    if (name == "backend" || name == "arch") return Value::str("mtia");
    if (name == "warp_size") return Value::integer(1);
    fail(loc, "AttributeError: 'GPUTarget' object has no attribute '" + name + "'");
  }
  if (mod.rfind("triton.runtime", 0) == 0)
    fail(loc, mod + "." + name +
                  " is not available in wrappers (only triton.runtime.driver.active."
                  "get_current_target() and get_active_torch_device())");
  if (mod == "math") {
    if (name == "pi") return Value::floating(M_PI);
    if (name == "e") return Value::floating(M_E);
    if (name == "tau") return Value::floating(2 * M_PI);
    if (name == "inf") return Value::floating(INFINITY);
    if (name == "nan") return Value::floating(NAN);
    static const std::set<std::string> fns = {
        "ceil",  "floor", "sqrt", "exp",  "log",  "log2",  "log10",    "pow",      "fabs",
        "trunc", "isqrt", "gcd",  "lcm",  "prod", "isnan", "isinf",    "isfinite", "copysign",
        "sin",   "cos",   "tan",  "tanh", "erf",  "comb",  "factorial"};
    if (fns.count(name)) return Value::builtin("math." + name);
    fail(loc, "AttributeError: module 'math' has no attribute '" + name + "'");
  }
  fail(loc, "module '" + mod + "' is not available in wrappers");
}

Value WrapperInterpreter::Impl::call_builtin(const std::string &name, ValueList &args,
                                             Kwargs &kwargs, SourceLoc loc) {
  auto nargs = [&](size_t lo, size_t hi) {
    if (args.size() < lo || args.size() > hi)
      fail(loc,
           "TypeError: " + name + "() takes " +
               (lo == hi ? std::to_string(lo) : std::to_string(lo) + " to " + std::to_string(hi)) +
               " arguments (" + std::to_string(args.size()) + " given)");
  };
  if (kExceptions.count(name)) {
    std::string msg = name;
    if (!args.empty()) msg += ": " + str_of(args[0]);
    Value e = Value::tuple({Value::str(msg)});
    e.s = "exception";
    return e;
  }
  if (name == "len") {
    nargs(1, 1);
    const Value &v = args[0];
    if (v.is_seq()) return Value::integer(static_cast<int64_t>(v.items->size()));
    if (v.t == T::Dict) return Value::integer(static_cast<int64_t>(v.items->size() / 2));
    if (v.t == T::Str) return Value::integer(static_cast<int64_t>(v.s.size()));
    if (v.t == T::Range) return Value::integer(static_cast<int64_t>(iterate(v, loc).size()));
    if (v.t == T::Tensor) {
      if (v.th().dim() == 0) fail(loc, "TypeError: len() of a 0-d tensor");
      return Value::integer(v.th().sizes[0]);
    }
    fail(loc, "TypeError: object of type '" + type_name(v) + "' has no len()");
  }
  if (name == "list" || name == "tuple") {
    nargs(0, 1);
    ValueList items = args.empty() ? ValueList{} : iterate(args[0], loc);
    return name == "list" ? Value::list(std::move(items)) : Value::tuple(std::move(items));
  }
  if (name == "torch.Size") {
    nargs(0, 1);
    ValueList items = args.empty() ? ValueList{} : iterate(args[0], loc);
    for (auto &x : items) to_int(x, loc, "torch.Size element");
    return Value::tuple(std::move(items));
  }
  if (name == "dict") {
    Value d;
    d.t = T::Dict;
    d.items = std::make_shared<ValueList>();
    if (!args.empty()) {
      if (args[0].t == T::Dict)
        *d.items = *args[0].items;
      else
        for (auto &pair : iterate(args[0], loc)) {
          ValueList kv = iterate(pair, loc);
          if (kv.size() != 2)
            fail(loc, "ValueError: dictionary update sequence element has length " +
                          std::to_string(kv.size()));
          d.items->push_back(kv[0]);
          d.items->push_back(kv[1]);
        }
    }
    for (auto &[k, v] : kwargs) {
      d.items->push_back(Value::str(k));
      d.items->push_back(v);
    }
    kwargs.clear();
    return d;
  }
  if (name == "range") {
    nargs(1, 3);
    Value r;
    r.t = T::Range;
    int64_t a = to_int(args[0], loc, "range() argument");
    if (args.size() == 1) {
      r.i = 0;
      r.r_stop = a;
    } else {
      r.i = a;
      r.r_stop = to_int(args[1], loc, "range() argument");
      if (args.size() == 3) r.r_step = to_int(args[2], loc, "range() argument");
    }
    if (r.r_step == 0) fail(loc, "ValueError: range() arg 3 must not be zero");
    return r;
  }
  if (name == "min" || name == "max") {
    std::optional<Value> key = take_kwarg(kwargs, "key");
    std::optional<Value> dflt = take_kwarg(kwargs, "default");
    no_more_kwargs(*this, kwargs, name, loc);
    ValueList items = args.size() == 1 ? iterate(args[0], loc) : args;
    if (items.empty()) {
      if (dflt) return *dflt;
      fail(loc, "ValueError: " + name + "() arg is an empty sequence");
    }
    Value best = items[0];
    Value best_key = key ? call(*key, {best}, {}, loc) : best;
    for (size_t i = 1; i < items.size(); ++i) {
      Value k = key ? call(*key, {items[i]}, {}, loc) : items[i];
      if (compare(name == "min" ? ast::CmpOpKind::Lt : ast::CmpOpKind::Gt, k, best_key, loc)) {
        best = items[i];
        best_key = k;
      }
    }
    return best;
  }
  if (name == "abs") {
    nargs(1, 1);
    if (args[0].t == T::Float) return Value::floating(std::fabs(args[0].f));
    int64_t x = to_int(args[0], loc, "abs() argument");
    if (x == INT64_MIN) fail(loc, "OverflowError: abs() of the smallest int64");
    return Value::integer(x < 0 ? -x : x);
  }
  if (name == "int") {
    nargs(0, 2);
    if (args.empty()) return Value::integer(0);
    const Value &v = args[0];
    if (v.t == T::Float) {
      if (!std::isfinite(v.f) || std::fabs(v.f) >= 9.2e18)
        fail(loc, "OverflowError: cannot convert float " + str_of(v) + " to integer");
      return Value::integer(static_cast<int64_t>(v.f));
    }
    if (v.t == T::Str) {
      int base = args.size() > 1 ? static_cast<int>(to_int(args[1], loc, "int() base")) : 10;
      try {
        size_t used = 0;
        int64_t x = std::stoll(v.s, &used, base);
        if (used != v.s.size()) throw std::invalid_argument("trailing");
        return Value::integer(x);
      } catch (const std::exception &) {
        fail(loc, "ValueError: invalid literal for int() with base " + std::to_string(base) + ": " +
                      repr(v));
      }
    }
    if (v.t == T::Tensor)
      fail(loc, "int() of a device tensor needs its data on the host, which wrappers may not do");
    return Value::integer(to_int(v, loc, "int() argument"));
  }
  if (name == "float") {
    nargs(0, 1);
    if (args.empty()) return Value::floating(0.0);
    if (args[0].t == T::Str) {
      std::string s = args[0].s;
      std::string l = s;
      std::transform(l.begin(), l.end(), l.begin(),
                     [](unsigned char c) { return std::tolower(c); });
      if (l == "inf" || l == "+inf" || l == "infinity") return Value::floating(INFINITY);
      if (l == "-inf" || l == "-infinity") return Value::floating(-INFINITY);
      if (l == "nan") return Value::floating(NAN);
      char *end = nullptr;
      double x = std::strtod(s.c_str(), &end);
      if (s.empty() || *end)
        fail(loc, "ValueError: could not convert string to float: " + repr(args[0]));
      return Value::floating(x);
    }
    if (args[0].t == T::Tensor)
      fail(loc, "float() of a device tensor needs its data on the host, which wrappers may not do");
    return Value::floating(to_float(args[0], loc, "float() argument"));
  }
  if (name == "bool") {
    nargs(0, 1);
    return Value::boolean(!args.empty() && truthy(args[0], loc));
  }
  if (name == "str") {
    nargs(0, 1);
    return Value::str(args.empty() ? "" : str_of(args[0]));
  }
  if (name == "isinstance") {
    nargs(2, 2);
    ValueList types = args[1].t == T::Tuple ? *args[1].items : ValueList{args[1]};
    for (auto &t : types) {
      if (t.t != T::Type)
        fail(loc, "TypeError: isinstance() arg 2 must be a type or tuple of types");
      const Value &v = args[0];
      bool match = (t.s == "int" && v.is_int_like()) || (t.s == "float" && v.t == T::Float) ||
                   (t.s == "bool" && v.t == T::Bool) || (t.s == "str" && v.t == T::Str) ||
                   (t.s == "list" && v.t == T::List) || (t.s == "tuple" && v.t == T::Tuple) ||
                   (t.s == "dict" && v.t == T::Dict) ||
                   (t.s == "torch.Tensor" && v.t == T::Tensor) ||
                   (t.s == "torch.dtype" && v.t == T::DType);
      if (match) return Value::boolean(true);
    }
    return Value::boolean(false);
  }
  if (name == "enumerate") {
    nargs(1, 2);
    int64_t start = args.size() > 1 ? to_int(args[1], loc, "enumerate() start") : 0;
    if (auto s = take_kwarg(kwargs, "start")) start = to_int(*s, loc, "enumerate() start");
    ValueList out;
    for (auto &x : iterate(args[0], loc)) out.push_back(Value::tuple({Value::integer(start++), x}));
    return Value::list(std::move(out));
  }
  if (name == "zip") {
    std::vector<ValueList> seqs;
    for (auto &a : args) seqs.push_back(iterate(a, loc));
    size_t n = seqs.empty() ? 0 : SIZE_MAX;
    for (auto &s : seqs) n = std::min(n, s.size());
    ValueList out;
    for (size_t i = 0; i < n; ++i) {
      ValueList t;
      for (auto &s : seqs) t.push_back(s[i]);
      out.push_back(Value::tuple(std::move(t)));
    }
    return Value::list(std::move(out));
  }
  if (name == "sum") {
    nargs(1, 2);
    Value acc = args.size() > 1 ? args[1] : Value::integer(0);
    for (auto &x : iterate(args[0], loc)) acc = binop(ast::BinOpKind::Add, acc, x, loc);
    return acc;
  }
  if (name == "any" || name == "all") {
    nargs(1, 1);
    for (auto &x : iterate(args[0], loc)) {
      bool t = truthy(x, loc);
      if (name == "any" && t) return Value::boolean(true);
      if (name == "all" && !t) return Value::boolean(false);
    }
    return Value::boolean(name == "all");
  }
  if (name == "sorted" || name == "reversed") {
    nargs(1, 1);
    ValueList items = iterate(args[0], loc);
    if (name == "reversed") {
      std::reverse(items.begin(), items.end());
      return Value::list(std::move(items));
    }
    bool rev = false;
    if (auto r = take_kwarg(kwargs, "reverse")) rev = truthy(*r, loc);
    std::optional<Value> key = take_kwarg(kwargs, "key");
    no_more_kwargs(*this, kwargs, name, loc);
    std::vector<std::pair<Value, Value>> keyed;
    for (auto &x : items) keyed.push_back({key ? call(*key, {x}, {}, loc) : x, x});
    std::stable_sort(keyed.begin(), keyed.end(), [&](const auto &a, const auto &b) {
      return compare(ast::CmpOpKind::Lt, a.first, b.first, loc);
    });
    ValueList out;
    for (auto &kv : keyed) out.push_back(kv.second);
    if (rev) std::reverse(out.begin(), out.end());
    return Value::list(std::move(out));
  }
  if (name == "filter") {  // a list: iterating and list() give what Python's iterator gives
    nargs(2, 2);
    ValueList out;
    for (auto &x : iterate(args[1], loc))
      if (args[0].t == T::None ? truthy(x, loc) : truthy(call(args[0], {x}, {}, loc), loc))
        out.push_back(x);
    return Value::list(std::move(out));
  }
  if (name == "map") {  // over the shortest of the iterables, as Python
    if (args.size() < 2) fail(loc, "TypeError: map() must have at least two arguments");
    std::vector<ValueList> seqs;
    for (size_t i = 1; i < args.size(); ++i) seqs.push_back(iterate(args[i], loc));
    size_t n = SIZE_MAX;
    for (auto &q : seqs) n = std::min(n, q.size());
    ValueList out;
    for (size_t i = 0; i < n; ++i) {
      ValueList xs;
      for (auto &q : seqs) xs.push_back(q[i]);
      out.push_back(call(args[0], std::move(xs), {}, loc));
    }
    return Value::list(std::move(out));
  }
  if (name == "round") {
    nargs(1, 2);
    double x = to_float(args[0], loc, "round() argument");
    if (args.size() == 2) {
      double scale = std::pow(10.0, static_cast<double>(to_int(args[1], loc, "round() ndigits")));
      return Value::floating(std::nearbyint(x * scale) / scale);
    }
    if (args[0].is_int_like()) return Value::integer(to_int(args[0], loc, "round() argument"));
    return Value::integer(
        static_cast<int64_t>(std::nearbyint(x)));  // banker's rounding like Python
  }
  if (name == "divmod") {
    nargs(2, 2);
    return Value::tuple({binop(ast::BinOpKind::FloorDiv, args[0], args[1], loc),
                         binop(ast::BinOpKind::Mod, args[0], args[1], loc)});
  }
  if (name == "pow" || name == "math.pow") {
    nargs(2, 2);
    if (name == "math.pow")
      return Value::floating(
          std::pow(to_float(args[0], loc, "pow"), to_float(args[1], loc, "pow")));
    return binop(ast::BinOpKind::Pow, args[0], args[1], loc);
  }
  if (name == "triton.cdiv") {
    nargs(2, 2);
    int64_t a = to_int(args[0], loc, "cdiv argument"), b = to_int(args[1], loc, "cdiv argument");
    if (b == 0) fail(loc, "ZeroDivisionError: triton.cdiv by zero");
    return binop(ast::BinOpKind::FloorDiv, Value::integer(a + b - 1), Value::integer(b), loc);
  }
  if (name == "triton.next_power_of_2") {
    nargs(1, 1);
    int64_t n = to_int(args[0], loc, "next_power_of_2 argument");
    if (n <= 1) return Value::integer(1);
    if (n > (int64_t{1} << 62)) fail(loc, "OverflowError: next_power_of_2 of a value above 2**62");
    int64_t p = 1;
    while (p < n) p <<= 1;
    return Value::integer(p);
  }
  if (name == "triton.Config") return make_config(args, kwargs, loc);
  if (name == "triton.runtime.driver.active.get_current_target") {
    nargs(0, 0);
    return Value::module("triton.backends.compiler.GPUTarget");
  }
  if (name == "triton.runtime.driver.active.get_active_torch_device") {
    nargs(0, 0);
    return Value::device("mtia");
  }
  if (name == "triton.language.constexpr") {
    nargs(1, 1);
    return args[0];
  }
  if (name.rfind("math.", 0) == 0) {
    std::string fn = name.substr(5);
    if (fn == "gcd" || fn == "lcm") {
      int64_t g = 0;
      for (auto &a : args) {
        int64_t x = std::llabs(to_int(a, loc, "math." + fn + " argument"));
        if (fn == "gcd")
          g = std::gcd(g, x);
        else
          g = g == 0 ? x : (x == 0 ? 0 : std::lcm(g, x));
      }
      return Value::integer(g);
    }
    if (fn == "prod") {
      Value acc = Value::integer(1);
      for (auto &x : iterate(args.at(0), loc)) acc = binop(ast::BinOpKind::Mult, acc, x, loc);
      return acc;
    }
    if (fn == "isqrt") {
      int64_t x = to_int(args.at(0), loc, "math.isqrt argument");
      if (x < 0) fail(loc, "ValueError: isqrt() argument must be nonnegative");
      int64_t r = static_cast<int64_t>(std::sqrt(static_cast<double>(x)));
      while (r * r > x) --r;
      while ((r + 1) * (r + 1) <= x) ++r;
      return Value::integer(r);
    }
    if (fn == "comb" || fn == "factorial") {
      nargs(fn == "comb" ? 2 : 1, fn == "comb" ? 2 : 1);
      int64_t n = to_int(args[0], loc, "math." + fn),
              k = fn == "comb" ? to_int(args[1], loc, "math.comb") : n;
      if (n < 0 || k < 0) fail(loc, "ValueError: math." + fn + " arguments must be non-negative");
      int64_t r = 1;
      if (fn == "factorial") {
        for (int64_t i = 2; i <= n; ++i)
          if (__builtin_mul_overflow(r, i, &r))
            fail(loc, "OverflowError: math.factorial result does not fit in int64");
      } else {
        if (k > n) return Value::integer(0);
        for (int64_t i = 1; i <= std::min(k, n - k); ++i) {
          if (__builtin_mul_overflow(r, n - std::min(k, n - k) + i, &r))
            fail(loc, "OverflowError: math.comb result does not fit in int64");
          r /= i;
        }
      }
      return Value::integer(r);
    }
    if (fn == "copysign") {
      nargs(2, 2);
      return Value::floating(
          std::copysign(to_float(args[0], loc, "copysign"), to_float(args[1], loc, "copysign")));
    }
    nargs(1, 1);
    double x = to_float(args[0], loc, "math." + fn + " argument");
    if (fn == "ceil" || fn == "floor" || fn == "trunc") {
      if (args[0].is_int_like()) return Value::integer(to_int(args[0], loc, fn));
      double r = fn == "ceil" ? std::ceil(x) : fn == "floor" ? std::floor(x) : std::trunc(x);
      if (!std::isfinite(r) || std::fabs(r) >= 9.2e18)
        fail(loc, "OverflowError: cannot convert float " + str_of(args[0]) + " to integer");
      return Value::integer(static_cast<int64_t>(r));
    }
    if (fn == "isnan") return Value::boolean(std::isnan(x));
    if (fn == "isinf") return Value::boolean(std::isinf(x));
    if (fn == "isfinite") return Value::boolean(std::isfinite(x));
    if ((fn == "sqrt" && x < 0) || ((fn == "log" || fn == "log2" || fn == "log10") && x <= 0))
      fail(loc, "ValueError: math domain error");
    double r = fn == "sqrt"    ? std::sqrt(x)
               : fn == "exp"   ? std::exp(x)
               : fn == "log"   ? std::log(x)
               : fn == "log2"  ? std::log2(x)
               : fn == "log10" ? std::log10(x)
               : fn == "fabs"  ? std::fabs(x)
               : fn == "sin"   ? std::sin(x)
               : fn == "cos"   ? std::cos(x)
               : fn == "tan"   ? std::tan(x)
               : fn == "tanh"  ? std::tanh(x)
                               : std::erf(x);
    return Value::floating(r);
  }
  fail(loc, "'" + name + "' is not available in wrappers");
}

Value WrapperInterpreter::Impl::call_value_method(const Value &self, const std::string &name,
                                                  ValueList &args, Kwargs &kwargs, SourceLoc loc) {
  no_more_kwargs(*this, kwargs, name, loc);
  if (self.t == T::Config) return config_method(self, name, args, loc);
  if (self.t == T::List) {
    if (name == "append" && args.size() == 1) {
      self.items->push_back(args[0]);
      return Value::none();
    }
    if (name == "extend" && args.size() == 1) {
      for (auto &x : iterate(args[0], loc)) self.items->push_back(x);
      return Value::none();
    }
    if (name == "insert" && args.size() == 2) {
      int64_t n = static_cast<int64_t>(self.items->size());
      int64_t i = to_int(args[0], loc, "insert index");
      if (i < 0) i = std::max<int64_t>(0, i + n);
      i = std::min(i, n);
      self.items->insert(self.items->begin() + i, args[1]);
      return Value::none();
    }
    if (name == "pop" && args.size() <= 1) {
      if (self.items->empty()) fail(loc, "IndexError: pop from empty list");
      int64_t n = static_cast<int64_t>(self.items->size());
      int64_t i = args.empty() ? n - 1 : to_int(args[0], loc, "pop index");
      if (i < 0) i += n;
      if (i < 0 || i >= n) fail(loc, "IndexError: pop index out of range");
      Value v = (*self.items)[static_cast<size_t>(i)];
      self.items->erase(self.items->begin() + i);
      return v;
    }
    if (name == "clear" && args.empty()) {
      self.items->clear();
      return Value::none();
    }
    if (name == "reverse" && args.empty()) {
      std::reverse(self.items->begin(), self.items->end());
      return Value::none();
    }
  }
  if (self.is_seq()) {
    if (name == "index" && args.size() == 1) {
      for (size_t i = 0; i < self.items->size(); ++i)
        if (equals((*self.items)[i], args[0])) return Value::integer(static_cast<int64_t>(i));
      fail(loc, "ValueError: " + repr(args[0]) + " is not in " + type_name(self));
    }
    if (name == "count" && args.size() == 1) {
      int64_t c = 0;
      for (auto &x : *self.items) c += equals(x, args[0]);
      return Value::integer(c);
    }
  }
  if (self.t == T::Dict) {
    if (name == "get" && (args.size() == 1 || args.size() == 2)) {
      for (size_t i = 0; i < self.items->size(); i += 2)
        if (equals((*self.items)[i], args[0])) return (*self.items)[i + 1];
      return args.size() == 2 ? args[1] : Value::none();
    }
    if ((name == "keys" || name == "values" || name == "items") && args.empty()) {
      ValueList out;
      for (size_t i = 0; i < self.items->size(); i += 2) {
        if (name == "keys")
          out.push_back((*self.items)[i]);
        else if (name == "values")
          out.push_back((*self.items)[i + 1]);
        else
          out.push_back(Value::tuple({(*self.items)[i], (*self.items)[i + 1]}));
      }
      return Value::list(std::move(out));
    }
  }
  if (self.t == T::Str) {
    if (name == "format") {
      std::string out;
      size_t next = 0;
      const std::string &s = self.s;
      for (size_t i = 0; i < s.size(); ++i) {
        if (s[i] == '{' && i + 1 < s.size() && s[i + 1] == '{') {
          out += '{';
          ++i;
          continue;
        }
        if (s[i] == '}' && i + 1 < s.size() && s[i + 1] == '}') {
          out += '}';
          ++i;
          continue;
        }
        if (s[i] != '{') {
          out += s[i];
          continue;
        }
        size_t close = s.find('}', i);
        if (close == std::string::npos)
          fail(loc, "ValueError: Single '{' encountered in format string");
        std::string field = s.substr(i + 1, close - i - 1);
        std::string spec;
        if (auto colon = field.find(':'); colon != std::string::npos) {
          spec = field.substr(colon + 1);
          field = field.substr(0, colon);
        }
        size_t idx = field.empty() ? next++ : static_cast<size_t>(std::stoul(field));
        if (idx >= args.size())
          fail(loc, "IndexError: Replacement index " + std::to_string(idx) + " out of range");
        out += format_value(args[idx], spec, loc);
        i = close;
      }
      return Value::str(out);
    }
    if (name == "join" && args.size() == 1) {
      std::string out;
      bool first = true;
      for (auto &x : iterate(args[0], loc)) {
        if (x.t != T::Str)
          fail(loc, "TypeError: sequence item: expected str instance, " + type_name(x) + " found");
        out += (first ? "" : self.s) + x.s;
        first = false;
      }
      return Value::str(out);
    }
    if ((name == "startswith" || name == "endswith") && args.size() == 1 && args[0].t == T::Str) {
      const std::string &p = args[0].s;
      bool r = name == "startswith"
                   ? self.s.rfind(p, 0) == 0
                   : self.s.size() >= p.size() &&
                         self.s.compare(self.s.size() - p.size(), p.size(), p) == 0;
      return Value::boolean(r);
    }
    if ((name == "upper" || name == "lower") && args.empty()) {
      std::string out = self.s;
      for (auto &c : out)
        c = static_cast<char>(name == "upper" ? std::toupper(static_cast<unsigned char>(c))
                                              : std::tolower(static_cast<unsigned char>(c)));
      return Value::str(out);
    }
  }
  fail(loc, "AttributeError: '" + type_name(self) + "' object has no attribute '" + name + "'");
}

}  // namespace opforge::compiler
