//===- builtins.cpp - tl.* builtins, Python builtins, calls to jit functions ===//
#include <cmath>

#include "lower_ast.h"
#include "opforge/compiler/capability.h"

namespace opforge::compiler::sema {
using ttir::OpKind;
using K = SValue::Kind;

namespace {

struct Args {
  std::string fname;
  std::vector<std::string> names;
  std::vector<SValue> vals;
  std::vector<bool> given;
  const SValue &operator[](const std::string &n) const {
    for (size_t i = 0; i < names.size(); ++i)
      if (names[i] == n) return vals[i];
    throw UserError("internal: unknown parameter " + n);
  }
  bool has(const std::string &n) const {
    for (size_t i = 0; i < names.size(); ++i)
      if (names[i] == n) return given[i] && vals[i].kind != K::None;
    return false;
  }
};

Args bind(const std::string &fname, std::vector<std::string> params, size_t required,
          std::vector<SValue> pos, const Kwargs &kw) {
  Args a{fname, params, std::vector<SValue>(params.size()),
         std::vector<bool>(params.size(), false)};
  if (pos.size() > params.size())
    throw UserError(fname + "() takes " + std::to_string(params.size()) +
                    " positional arguments but " + std::to_string(pos.size()) + " were given");
  for (size_t i = 0; i < pos.size(); ++i) a.vals[i] = pos[i], a.given[i] = true;
  for (auto &[k, v] : kw) {
    size_t i = 0;
    while (i < params.size() && params[i] != k) ++i;
    if (i == params.size())
      throw UserError(fname + "() got an unexpected keyword argument '" + k + "'");
    if (a.given[i]) throw UserError(fname + "() got multiple values for argument '" + k + "'");
    a.vals[i] = v;
    a.given[i] = true;
  }
  for (size_t i = 0; i < required; ++i)
    if (!a.given[i])
      throw UserError(fname + "() missing 1 required positional argument: '" + params[i] + "'");
  return a;
}

int64_t int_of(const SValue &v, const std::string &what) {
  if (v.kind == K::Int) return v.i;
  if (v.kind == K::Bool) return v.b;
  throw UserError(what + " must be a constexpr integer, got " + v.repr());
}
std::vector<int64_t> ints_of(const SValue &v, const std::string &what) {
  if (v.kind == K::Tuple) {
    std::vector<int64_t> r;
    for (auto &e : v.elts) r.push_back(int_of(e, what));
    return r;
  }
  return {int_of(v, what)};
}
LType dtype_of(const SValue &v, const std::string &what) {
  if (v.kind == K::DType) return v.type;
  throw UserError(what + " must be a tl dtype (e.g. tl.float32), got " + v.repr());
}
std::optional<int64_t> axis_of(const SValue &v) {
  if (v.kind == K::None) return std::nullopt;
  return int_of(v, "axis");
}
bool bool_of(const SValue &v, bool dflt) {
  if (v.kind == K::None) return dflt;
  if (v.kind == K::Bool) return v.b;
  if (v.kind == K::Int) return v.i != 0;
  throw UserError("expected a constexpr bool, got " + v.repr());
}
double num_of(const SValue &v, const std::string &what) {
  if (v.kind == K::Float) return v.f;
  if (v.kind == K::Int) return static_cast<double>(v.i);
  if (v.kind == K::Bool) return v.b;
  throw UserError(what + " must be a constexpr number, got " + v.repr());
}
// Variadic shape: f(x, 2, 3) or f(x, (2, 3)).
std::vector<int64_t> varshape(const std::vector<SValue> &rest, const std::string &what) {
  if (rest.size() == 1 && rest[0].kind == K::Tuple) return ints_of(rest[0], what);
  std::vector<int64_t> r;
  for (auto &v : rest) r.push_back(int_of(v, what));
  return r;
}

const std::map<std::string, std::pair<OpKind, bool>> &math_table() {
  // name -> (op, Triton restricts it to fp32/fp64)
  static const std::map<std::string, std::pair<OpKind, bool>> t = {
      {"exp", {OpKind::Exp, true}},     {"exp2", {OpKind::Exp2, true}},
      {"log", {OpKind::Log, true}},     {"log2", {OpKind::Log2, true}},
      {"sqrt", {OpKind::Sqrt, true}},   {"sqrt_rn", {OpKind::Sqrt, true}},
      {"rsqrt", {OpKind::Rsqrt, true}}, {"sin", {OpKind::Sin, true}},
      {"cos", {OpKind::Cos, true}},     {"erf", {OpKind::Erf, true}},
      {"tanh", {OpKind::Tanh, true}},   {"floor", {OpKind::Floor, true}},
      {"ceil", {OpKind::Ceil, true}}};
  return t;
}

}  // namespace

SValue AstLowering::call(const ast::Call &c) {
  SValue fn = expr(*c.func);
  std::vector<SValue> args;
  for (auto &a : c.args) {
    if (auto *st = a->as<ast::Starred>()) {
      SValue t = expr(*st->value);
      if (t.kind != K::Tuple) error(a->loc, "can only unpack a tuple with *");
      args.insert(args.end(), t.elts.begin(), t.elts.end());
    } else {
      args.push_back(expr(*a));
    }
  }
  Kwargs kw;
  for (auto &k : c.keywords) {
    if (k.name.empty()) error(k.loc, "**kwargs is not supported in kernels");
    kw.push_back({k.name, expr(*k.value)});
  }
  try {
    return call_value(fn, std::move(args), std::move(kw));
  } catch (const UserError &e) {
    error(c.loc, e.what());
  }
}

SValue AstLowering::call_value(const SValue &fn, std::vector<SValue> args, Kwargs kwargs) {
  if (fn.kind != K::Func) throw UserError("'" + fn.repr() + "' is not callable");
  if (!fn.func.builtin) {
    const ast::FunctionDef *def = m_.function(fn.func.name);
    if (!def) throw UserError("unknown function " + fn.func.name);
    return call_jit(*def, std::move(args), std::move(kwargs));
  }
  const std::string &n = fn.func.name;
  if (n.rfind("tensor.", 0) == 0) {
    std::string method = n.substr(7);
    args.insert(args.begin(), fn.elts.at(0));
    if (method == "to") {
      Args a = bind("to", {"input", "dtype", "fp_downcast_rounding", "bitcast"}, 2, args, kwargs);
      return sem_.cast(a["input"], dtype_of(a["dtype"], "dtype"), bool_of(a["bitcast"], false));
    }
    static const std::set<std::string> members = {"sum",    "max",         "min",
                                                  "argmax", "argmin",      "reduce",
                                                  "cumsum", "cumprod",     "associative_scan",
                                                  "trans",  "permute",     "reshape",
                                                  "view",   "expand_dims", "broadcast_to",
                                                  "split",  "exp",         "exp2",
                                                  "log",    "log2",        "sqrt",
                                                  "rsqrt",  "sin",         "cos",
                                                  "erf",    "abs",         "floor",
                                                  "ceil",   "sigmoid",     "cast",
                                                  "to",     "logical_and", "logical_or"};
    if (!members.count(method))
      throw UserError("'tensor' object has no attribute '" + method + "'");
    return call_builtin("tl." + method, std::move(args), std::move(kwargs));
  }
  if (n.rfind("dtype.", 0) == 0) {
    std::string m = n.substr(6);
    const LType &t = fn.type;
    if (m == "is_floating") return SValue::boolean(t.is_float());
    if (m == "is_int") return SValue::boolean(t.is_int());
    if (m == "is_int_signed") return SValue::boolean(t.is_signed());
    if (m == "is_int_unsigned") return SValue::boolean(t.is_unsigned());
    if (m == "is_ptr") return SValue::boolean(t.is_ptr());
    if (m == "is_fp16") return SValue::boolean(t.sc == Sc::F16);
    if (m == "is_bf16") return SValue::boolean(t.sc == Sc::BF16);
    if (m == "is_fp32") return SValue::boolean(t.sc == Sc::F32);
    if (m == "is_fp64") return SValue::boolean(t.sc == Sc::F64);
    if (m == "is_fp8") return SValue::boolean(sc_is_fp8(t.sc));
    if (m == "is_fp8e4nv") return SValue::boolean(t.sc == Sc::F8E4NV);
    if (m == "is_fp8e5") return SValue::boolean(t.sc == Sc::F8E5);
    if (m == "is_fp8e4b15") return SValue::boolean(t.sc == Sc::F8E4B15);
    throw UserError("'dtype' object has no attribute '" + m + "'");
  }
  for (std::string_view pre : {"tl.extra.mtia.", "triton.language.extra.mtia."})
    if (n.rfind(pre, 0) == 0) return ext_intrinsic_call(sem_, n.substr(pre.size()), args, kwargs);
  if (n.rfind("tl.", 0) == 0) return call_builtin(n, std::move(args), std::move(kwargs));
  return call_python(n, std::move(args), std::move(kwargs));
}

SValue AstLowering::call_python(const std::string &n, std::vector<SValue> args, Kwargs kwargs) {
  auto all_const = [&] {
    for (auto &a : args)
      if (a.is_tensor()) return false;
    return true;
  };
  if (n == "builtins.min" || n == "builtins.max") {
    bool is_max = n == "builtins.max";
    if (args.size() == 1 && args[0].kind == K::Tuple) args = args[0].elts;
    if (args.empty())
      throw UserError(std::string(is_max ? "max" : "min") + " expected at least 1 argument, got 0");
    SValue acc = args[0];
    for (size_t i = 1; i < args.size(); ++i) {
      if (!acc.is_tensor() && !args[i].is_tensor()) {
        auto gt = constexpr_compare(ast::CmpOpKind::Gt, args[i], acc);
        if (!gt) throw UserError("cannot compare " + args[i].repr() + " and " + acc.repr());
        if (is_max ? *gt
                   : !*gt && !constexpr_compare(ast::CmpOpKind::Eq, args[i], acc).value_or(false))
          acc = args[i];
      } else {
        acc = is_max ? sem_.maximum(acc, args[i], false) : sem_.minimum(acc, args[i], false);
      }
    }
    (void)kwargs;
    return acc;
  }
  if (n == "builtins.float") {
    if (args.size() != 1) throw UserError("float() takes exactly one argument");
    const SValue &v = args[0];
    if (v.kind == K::Str) {
      std::string s = v.s;
      for (auto &ch : s) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
      if (s == "inf" || s == "+inf" || s == "infinity") return SValue::floating(HUGE_VAL);
      if (s == "-inf" || s == "-infinity") return SValue::floating(-HUGE_VAL);
      if (s == "nan") return SValue::floating(std::nan(""));
      char *end = nullptr;
      double d = std::strtod(v.s.c_str(), &end);
      if (end == v.s.c_str() || *end)
        throw UserError("could not convert string to float: '" + v.s + "'");
      return SValue::floating(d);
    }
    if (v.is_tensor()) return sem_.cast(v, LType::scalar(Sc::F32));
    return SValue::floating(num_of(v, "float() argument"));
  }
  if (n == "builtins.int") {
    if (args.size() != 1) throw UserError("int() takes exactly one argument");
    if (args[0].is_tensor()) return sem_.cast(args[0], LType::scalar(Sc::I32));
    return SValue::integer(static_cast<int64_t>(std::trunc(num_of(args[0], "int() argument"))));
  }
  if (n == "builtins.bool") {
    if (args.size() != 1) throw UserError("bool() takes exactly one argument");
    if (args[0].is_tensor()) return sem_.cast(args[0], LType::scalar(Sc::I1));
    return SValue::boolean(truthy(args[0], {}));
  }
  if (n == "builtins.abs") {
    if (args.size() != 1) throw UserError("abs() takes exactly one argument");
    if (args[0].is_tensor()) return sem_.abs(args[0]);
    if (args[0].kind == K::Float) return SValue::floating(std::fabs(args[0].f));
    return SValue::integer(std::llabs(int_of(args[0], "abs() argument")));
  }
  if (n == "builtins.len") {
    if (args.size() != 1) throw UserError("len() takes exactly one argument");
    if (args[0].kind == K::Tuple) return SValue::integer(static_cast<int64_t>(args[0].elts.size()));
    if (args[0].is_tensor() && args[0].type.is_block())
      return SValue::integer(args[0].type.shape[0]);
    throw UserError("object of type " + args[0].repr() + " has no len()");
  }
  if (n == "builtins.tuple" || n == "builtins.list") {
    if (args.size() == 1 && args[0].kind == K::Tuple) return args[0];
    throw UserError(n.substr(9) + "() of a non-tuple is not supported in kernels");
  }
  if (n == "builtins.print")
    return call_builtin("tl.device_print", std::move(args), std::move(kwargs));
  if (n == "builtins.range")
    throw UserError("range() may only be used as the iterable of a for loop");
  if (n == "triton.cdiv" || n == "triton.language.cdiv")
    return call_builtin("tl.cdiv", std::move(args), std::move(kwargs));
  if (n == "triton.next_power_of_2") {
    if (args.size() != 1) throw UserError("next_power_of_2() takes exactly one argument");
    int64_t v = int_of(args[0], "next_power_of_2() argument"), p = 1;
    while (p < v) p <<= 1;
    return SValue::integer(p);
  }
  if (n.rfind("math.", 0) == 0 && all_const()) {
    std::string f = n.substr(5);
    if (args.size() == 1) {
      double x = num_of(args[0], n + "() argument");
      if (f == "log2") return SValue::floating(std::log2(x));
      if (f == "log") return SValue::floating(std::log(x));
      if (f == "exp") return SValue::floating(std::exp(x));
      if (f == "sqrt") return SValue::floating(std::sqrt(x));
      if (f == "ceil") return SValue::integer(static_cast<int64_t>(std::ceil(x)));
      if (f == "floor") return SValue::integer(static_cast<int64_t>(std::floor(x)));
      if (f == "fabs") return SValue::floating(std::fabs(x));
    }
  }
  throw UserError("unsupported function '" + n + "' in a kernel");
}

SValue AstLowering::call_builtin(const std::string &full, std::vector<SValue> args, Kwargs kw) {
  std::string n = full.substr(3);
  auto &S = sem_;
  if (n == "program_id" || n == "num_programs") {
    Args a = bind(n, {"axis"}, 0, args, kw);
    int axis = a.has("axis") ? static_cast<int>(int_of(a["axis"], "axis")) : 0;
    return n == "program_id" ? S.program_id(axis) : S.num_programs(axis);
  }
  if (n == "arange") {
    Args a = bind(n, {"start", "end"}, 2, args, kw);
    if (a["start"].kind != K::Int || a["end"].kind != K::Int)
      throw UserError("arange's arguments must be of type tl.constexpr");
    return S.arange(a["start"].i, a["end"].i);
  }
  if (n == "zeros" || n == "full") {
    Args a = n == "zeros" ? bind(n, {"shape", "dtype"}, 2, args, kw)
                          : bind(n, {"shape", "value", "dtype"}, 3, args, kw);
    auto shape = ints_of(a["shape"], "shape");
    if (a["shape"].kind != K::Tuple && shape.size() == 1 && a["shape"].kind == K::Int)
      shape = {a["shape"].i};
    return S.full(shape, n == "zeros" ? SValue::integer(0) : a["value"],
                  dtype_of(a["dtype"], "dtype"));
  }
  if (n == "zeros_like") {
    Args a = bind(n, {"input"}, 1, args, kw);
    SValue x = S.to_tensor(a["input"]);
    return S.full(x.type.shape, SValue::integer(0), x.type.elem());
  }
  if (n == "load") {
    Args a = bind(n,
                  {"pointer", "mask", "other", "boundary_check", "padding_option", "cache_modifier",
                   "eviction_policy", "volatile"},
                  1, args, kw);
    std::vector<int64_t> bc;
    if (a.has("boundary_check")) bc = ints_of(a["boundary_check"], "boundary_check");
    std::string pad = a.has("padding_option") ? a["padding_option"].s : "";
    return S.load(a["pointer"], a["mask"], a["other"], bc, pad);
  }
  if (n == "store") {
    Args a =
        bind(n, {"pointer", "value", "mask", "boundary_check", "cache_modifier", "eviction_policy"},
             2, args, kw);
    std::vector<int64_t> bc;
    if (a.has("boundary_check")) bc = ints_of(a["boundary_check"], "boundary_check");
    S.store(a["pointer"], a["value"], a["mask"], bc);
    return SValue::none();
  }
  if (n == "make_block_ptr") {
    Args a = bind(n, {"base", "shape", "strides", "offsets", "block_shape", "order"}, 6, args, kw);
    auto elts = [](const SValue &v) {
      return v.kind == K::Tuple ? v.elts : std::vector<SValue>{v};
    };
    return S.make_block_ptr(a["base"], elts(a["shape"]), elts(a["strides"]), elts(a["offsets"]),
                            ints_of(a["block_shape"], "block_shape"), ints_of(a["order"], "order"));
  }
  if (n == "advance") {
    Args a = bind(n, {"base", "offsets"}, 2, args, kw);
    return S.advance(a["base"], a["offsets"].kind == K::Tuple ? a["offsets"].elts
                                                              : std::vector<SValue>{a["offsets"]});
  }
  if (n == "where") {
    Args a = bind(n, {"condition", "x", "y"}, 3, args, kw);
    return S.where(a["condition"], a["x"], a["y"]);
  }
  if (n == "maximum" || n == "minimum") {
    Args a = bind(n, {"x", "y", "propagate_nan"}, 2, args, kw);
    bool prop = a.has("propagate_nan") && int_of(a["propagate_nan"], "propagate_nan") != 0;
    return n == "maximum" ? S.maximum(a["x"], a["y"], prop) : S.minimum(a["x"], a["y"], prop);
  }
  if (n == "clamp") {
    Args a = bind(n, {"x", "min", "max", "propagate_nan"}, 3, args, kw);
    bool prop = a.has("propagate_nan") && int_of(a["propagate_nan"], "propagate_nan") != 0;
    return S.minimum(S.maximum(a["x"], a["min"], prop), a["max"], prop);
  }
  if (auto it = math_table().find(n); it != math_table().end()) {
    Args a = bind(n, {"x"}, 1, args, kw);
    return S.math(it->second.first, n, a["x"], it->second.second);
  }
  if (n == "abs") return S.abs(bind(n, {"x"}, 1, args, kw)["x"]);
  if (n == "sigmoid") {
    Args a = bind(n, {"x"}, 1, args, kw);
    // Triton: 1 / (1 + exp(-x))
    SValue e = S.math(OpKind::Exp, "exp", S.neg(a["x"]), true);
    return S.truediv(SValue::integer(1), S.add(SValue::integer(1), e));
  }
  if (n == "fma") {
    Args a = bind(n, {"x", "y", "z"}, 3, args, kw);
    return S.fma(a["x"], a["y"], a["z"]);
  }
  if (n == "div_rn" || n == "fdiv") {
    Args a = bind(n, {"x", "y"}, 2, args, kw);
    return S.truediv(a["x"], a["y"]);
  }
  if (n == "cdiv") {
    Args a = bind(n, {"x", "div"}, 2, args, kw);
    if (!a["x"].is_tensor() && !a["div"].is_tensor())
      return constexpr_binop(ast::BinOpKind::FloorDiv,
                             constexpr_binop(ast::BinOpKind::Sub,
                                             constexpr_binop(ast::BinOpKind::Add, a["x"], a["div"]),
                                             SValue::integer(1)),
                             a["div"]);
    return S.floordiv(S.sub(S.add(a["x"], a["div"]), SValue::integer(1)), a["div"]);
  }
  if (n == "umulhi") {
    Args a = bind(n, {"x", "y"}, 2, args, kw);
    return S.umulhi(a["x"], a["y"]);
  }
  if (n == "sum") {
    Args a = bind(n, {"input", "axis", "keep_dims", "dtype"}, 1, args, kw);
    LType dt;
    if (a.has("dtype")) dt = dtype_of(a["dtype"], "dtype");
    return S.sum(a["input"], axis_of(a["axis"]), bool_of(a["keep_dims"], false),
                 a.has("dtype") ? &dt : nullptr);
  }
  if (n == "max" || n == "min") {
    Args a =
        bind(n, {"input", "axis", "return_indices", "return_indices_tie_break_left", "keep_dims"},
             1, args, kw);
    bool ri = bool_of(a["return_indices"], false);
    SValue idx;
    SValue v = S.max_min(n == "max", a["input"], axis_of(a["axis"]), bool_of(a["keep_dims"], false),
                         ri, bool_of(a["return_indices_tie_break_left"], true), &idx);
    return ri ? SValue::tuple({v, idx}) : v;
  }
  if (n == "argmax" || n == "argmin") {
    Args a = bind(n, {"input", "axis", "tie_break_left", "keep_dims"}, 2, args, kw);
    SValue idx;
    S.max_min(n == "argmax", a["input"], axis_of(a["axis"]), bool_of(a["keep_dims"], false), true,
              bool_of(a["tie_break_left"], true), &idx);
    return idx;
  }
  if (n == "reduce") {
    Args a = bind(n, {"input", "axis", "combine_fn", "keep_dims"}, 3, args, kw);
    std::vector<SValue> ins =
        a["input"].kind == K::Tuple ? a["input"].elts : std::vector<SValue>{a["input"]};
    std::optional<int64_t> axis = axis_of(a["axis"]);
    if (!axis) {
      for (auto &x : ins) x = S.reshape(x, {S.to_tensor(x).type.numel()});
      axis = 0;
    }
    auto r = S.reduce(ins, *axis, bool_of(a["keep_dims"], false), combine_fn(a["combine_fn"]));
    // As Triton: a tuple of inputs (even of one) gives a tuple of results.
    return r.size() == 1 && a["input"].kind != K::Tuple ? r[0] : SValue::tuple(r);
  }
  if (n == "cumsum" || n == "cumprod") {
    Args a = bind(n, {"input", "axis", "reverse"}, 1, args, kw);
    return S.cumsum(a["input"], a.has("axis") ? int_of(a["axis"], "axis") : 0,
                    bool_of(a["reverse"], false), n == "cumprod");
  }
  if (n == "associative_scan") {
    Args a = bind(n, {"input", "axis", "combine_fn", "reverse"}, 3, args, kw);
    std::vector<SValue> ins =
        a["input"].kind == K::Tuple ? a["input"].elts : std::vector<SValue>{a["input"]};
    auto r = S.scan(ins, int_of(a["axis"], "axis"), bool_of(a["reverse"], false),
                    combine_fn(a["combine_fn"]));
    return r.size() == 1 && a["input"].kind != K::Tuple ? r[0] : SValue::tuple(r);
  }
  if (n == "dot") {
    Args a = bind(n,
                  {"input", "other", "acc", "input_precision", "allow_tf32",
                   "max_num_imprecise_acc", "out_dtype"},
                  2, args, kw);
    std::string prec = default_dot_precision_;
    if (a.has("input_precision")) {
      if (a["input_precision"].kind != K::Str) throw UserError("input_precision must be a string");
      prec = a["input_precision"].s;
    } else if (a.has("allow_tf32")) {
      prec = bool_of(a["allow_tf32"], true) ? "tf32" : "ieee";
    }
    LType out = a.has("out_dtype") ? dtype_of(a["out_dtype"], "out_dtype") : LType::scalar(Sc::F32);
    return S.dot(a["input"], a["other"], a["acc"], prec, out);
  }
  if (n == "trans" || n == "permute") {
    if (args.empty()) throw UserError(n + "() missing 1 required positional argument: 'input'");
    SValue x = S.to_tensor(args[0]);
    std::vector<SValue> rest(args.begin() + 1, args.end());
    for (auto &[k, v] : kw) {
      if (k != "dims") throw UserError(n + "() got an unexpected keyword argument '" + k + "'");
      rest = {v};
    }
    std::vector<int64_t> order = varshape(rest, "dims");
    if (order.empty()) {
      if (n == "permute") throw UserError("permute() needs dims");
      if (x.type.rank() != 2)
        throw UserError("trans() without dims needs a 2-D tensor, got " + x.type.str());
      order = {1, 0};
    }
    return S.permute(x, order);
  }
  if (n == "reshape" || n == "view") {
    if (args.empty()) throw UserError(n + "() missing 1 required positional argument: 'input'");
    std::vector<SValue> rest(args.begin() + 1, args.end());
    for (auto &[k, v] : kw) {
      if (k == "shape")
        rest = {v};
      else if (k != "can_reorder")
        throw UserError(n + "() got an unexpected keyword argument '" + k + "'");
    }
    return S.reshape(args[0], varshape(rest, "shape"));
  }
  if (n == "broadcast_to") {
    if (args.empty())
      throw UserError("broadcast_to() missing 1 required positional argument: 'input'");
    std::vector<SValue> rest(args.begin() + 1, args.end());
    for (auto &[k, v] : kw) {
      if (k != "shape")
        throw UserError("broadcast_to() got an unexpected keyword argument '" + k + "'");
      rest = {v};
    }
    return S.broadcast_to(args[0], varshape(rest, "shape"));
  }
  if (n == "broadcast") {
    Args a = bind(n, {"input", "other"}, 2, args, kw);
    auto [x, y] = S.broadcast(a["input"], a["other"]);
    return SValue::tuple({x, y});
  }
  if (n == "expand_dims") {
    Args a = bind(n, {"input", "axis"}, 2, args, kw);
    SValue x = a["input"];
    for (auto ax : ints_of(a["axis"], "axis")) x = S.expand_dims(x, ax);
    return x;
  }
  if (n == "join") {
    Args a = bind(n, {"a", "b"}, 2, args, kw);
    return S.join(a["a"], a["b"]);
  }
  if (n == "split") return S.split(bind(n, {"a"}, 1, args, kw)["a"]);
  if (n == "cast") {
    Args a = bind(n, {"input", "dtype", "fp_downcast_rounding", "bitcast"}, 2, args, kw);
    return S.cast(a["input"], dtype_of(a["dtype"], "dtype"), bool_of(a["bitcast"], false));
  }
  if (n == "logical_and" || n == "logical_or") {
    Args a = bind(n, {"input", "other"}, 2, args, kw);
    return S.logical(n == "logical_and", a["input"], a["other"]);
  }
  if (n.rfind("atomic_", 0) == 0) {
    std::string op = n.substr(7);
    if (op == "cas") {
      Args a = bind(n, {"pointer", "cmp", "val", "sem", "scope"}, 3, args, kw);
      return S.atomic_cas(a["pointer"], a["cmp"], a["val"]);
    }
    static const std::set<std::string> ops = {"add", "max", "min", "xchg", "and", "or", "xor"};
    if (!ops.count(op)) throw UserError("unknown builtin 'tl." + n + "'");
    Args a = bind(n, {"pointer", "val", "mask", "sem", "scope"}, 2, args, kw);
    return S.atomic_rmw(op, a["pointer"], a["val"], a["mask"]);
  }
  if (n == "debug_barrier") {
    bind(n, {}, 0, args, kw);
    b_.create(OpKind::Barrier, {}, {});
    return SValue::none();
  }
  if (n == "static_assert") {
    Args a = bind(n, {"cond", "msg"}, 1, args, kw);
    if (a["cond"].is_tensor()) throw UserError("static_assert needs a constexpr condition");
    if (!truthy(a["cond"], {}))
      throw UserError("Static assertion failed" +
                      (a.has("msg")
                           ? ": " + (a["msg"].kind == K::Str ? a["msg"].s : a["msg"].repr())
                           : std::string()));
    return SValue::none();
  }
  if (n == "static_print") return SValue::none();
  if (n == "device_print") {
    if (args.empty() || args[0].kind != K::Str)
      throw UserError("device_print's first argument must be a prefix string");
    bool hex = false;
    for (auto &[k, v] : kw) {
      if (k != "hex")
        throw UserError("device_print() got an unexpected keyword argument '" + k + "'");
      hex = bool_of(v, false);
    }
    std::vector<ttir::Value *> ops;
    for (size_t i = 1; i < args.size(); ++i) ops.push_back(S.to_tensor(args[i]).value);
    b_.create(OpKind::Print, ops, {}, {{"prefix", args[0].s}, {"hex", hex}});
    return SValue::none();
  }
  if (n == "device_assert") {
    Args a = bind(n, {"cond", "msg", "mask"}, 1, args, kw);
    if (!a["cond"].is_tensor()) {
      if (!truthy(a["cond"], {}))
        throw UserError("device_assert on a false constexpr: " + a["msg"].s);
      return SValue::none();
    }
    SValue c = S.cast(a["cond"], LType::scalar(Sc::I1));
    b_.create(OpKind::Assert, {c.value}, {},
              {{"message", a.has("msg") ? a["msg"].s : std::string("device_assert")}});
    return SValue::none();
  }
  if (n == "multiple_of" || n == "max_contiguous" || n == "max_constancy") {
    Args a = bind(n, {"input", "values"}, 2, args, kw);
    return a["input"];
  }
  if (n == "constexpr") {
    Args a = bind(n, {"value"}, 1, args, kw);
    return a["value"];
  }
  if (n == "static_range" || n == "range")
    throw UserError(n + "() may only be used as the iterable of a for loop");
  if (auto r = extra_builtin(S, n, args, kw)) return *r;
  if (auto r = random_builtin(S, n, args, kw)) return *r;
  // The target's table names what an unsupported builtin needs (lint says the same).
  if (std::string why =
          unsupported_builtin_message(mtia_capabilities(), "tl." + n, n.substr(0, n.find('.')));
      !why.empty())
    throw UserError(why);
  throw UserError("unknown builtin 'tl." + n + "'");
}

Semantic::Combine AstLowering::combine_fn(const SValue &fn) {
  if (fn.kind != K::Func)
    throw UserError("combine_fn must be a @triton.jit function, got " + fn.repr());
  return [this, fn](const std::vector<SValue> &args) -> std::vector<SValue> {
    if (fn.func.builtin) {
      SValue r = call_value(fn, args, {});
      return r.kind == K::Tuple ? r.elts : std::vector<SValue>{r};
    }
    const ast::FunctionDef *def = m_.function(fn.func.name);
    if (!def) throw UserError("unknown combine function " + fn.func.name);
    return inline_jit(*def, args);
  };
}

std::vector<SValue> AstLowering::bind_params(const ast::FunctionDef &fn, std::vector<SValue> args,
                                             Kwargs kwargs) {
  const auto &ps = fn.params.params;
  std::vector<SValue> vals(ps.size());
  std::vector<bool> given(ps.size(), false);
  size_t npos = 0;
  for (auto &p : ps)
    if (p.kind == ast::ParamKind::Positional) ++npos;
  if (args.size() > npos)
    throw UserError(fn.name + "() takes " + std::to_string(npos) + " positional arguments but " +
                    std::to_string(args.size()) + " were given");
  for (size_t i = 0; i < args.size(); ++i) vals[i] = args[i], given[i] = true;
  for (auto &[k, v] : kwargs) {
    int i = fn.params.find(k);
    if (i < 0) throw UserError(fn.name + "() got an unexpected keyword argument '" + k + "'");
    if (given[i]) throw UserError(fn.name + "() got multiple values for argument '" + k + "'");
    vals[i] = v;
    given[i] = true;
  }
  for (size_t i = 0; i < ps.size(); ++i) {
    if (given[i]) continue;
    if (!ps[i].default_value)
      throw UserError(fn.name + "() missing 1 required positional argument: '" + ps[i].name + "'");
    auto saved = std::move(env_);
    env_.clear();
    vals[i] = expr(*ps[i].default_value);
    env_ = std::move(saved);
  }
  return vals;
}

std::vector<SValue> AstLowering::inline_jit(const ast::FunctionDef &fn,
                                            const std::vector<SValue> &args) {
  if (++inline_depth_ > 32) throw UserError("jit functions nest deeper than 32 calls (recursion?)");
  auto vals = bind_params(fn, args, {});
  auto saved_env = std::move(env_);
  bool saved_has = has_return_;
  SValue saved_ret = return_value_;
  env_.clear();
  for (size_t i = 0; i < vals.size(); ++i) env_[fn.params.params[i].name] = vals[i];
  has_return_ = false;
  return_value_ = SValue::none();
  stmts(fn.body);
  SValue r = return_value_;
  env_ = std::move(saved_env);
  has_return_ = saved_has;
  return_value_ = saved_ret;
  --inline_depth_;
  if (r.kind == K::Tuple) return r.elts;
  if (r.kind == K::None) return {};
  return {r};
}

SValue AstLowering::call_jit(const ast::FunctionDef &fn, std::vector<SValue> args, Kwargs kwargs) {
  if (++inline_depth_ > 32) throw UserError("jit functions nest deeper than 32 calls (recursion?)");
  auto vals = bind_params(fn, std::move(args), std::move(kwargs));
  std::string mangled = fn.name;
  std::vector<ttir::Value *> operands;
  // As Triton's code generator (call_JitFunction): an argument is specialized
  // as a constexpr when its value is one (a Python number, bool, None, dtype,
  // function, string, or tuple of them), whatever the callee's annotation
  // says; a tensor stays a tensor even for a parameter annotated tl.constexpr.
  for (size_t i = 0; i < vals.size(); ++i) {
    if (vals[i].is_tensor()) {
      mangled += "__" + vals[i].type.str();
      operands.push_back(vals[i].value);
    } else {
      std::string r = vals[i].repr();
      mangled += "__c" + r;
    }
  }
  for (auto &ch : mangled)
    if (!std::isalnum(static_cast<unsigned char>(ch)) && ch != '_') ch = '_';
  if (!out_.find(mangled)) {
    callee_results_[mangled] = {};
    auto res = lower_function(fn, mangled, vals, false);
    std::vector<LType> lts;
    for (auto &r : res) lts.push_back(r.type);
    callee_results_[mangled] = lts;
  }
  ttir::Function *callee = out_.find(mangled);
  std::vector<ttir::Type> rts = callee->result_types;
  ttir::Operation *op = b_.create(OpKind::Call, operands, rts, {{"callee", mangled}});
  --inline_depth_;
  const auto &lts = callee_results_[mangled];
  std::vector<SValue> out;
  for (size_t i = 0; i < rts.size(); ++i) out.push_back(SValue::tensor(op->result(i), lts.at(i)));
  if (out.empty()) return SValue::none();
  if (out.size() == 1) return out[0];
  return SValue::tuple(out);
}

}  // namespace opforge::compiler::sema
