//===- values.cpp - wrapper values: names, repr, formatting, conversions ---===//
#include <cmath>
#include <cstdio>

#include "interp_impl.h"

namespace opforge::compiler {

using T = Value::T;

namespace wrapper_detail {

std::string type_name(const Value &v) {
  switch (v.t) {
    case T::None:
      return "NoneType";
    case T::Bool:
      return "bool";
    case T::Int:
      return "int";
    case T::Float:
      return "float";
    case T::Str:
      return "str";
    case T::DType:
      return "torch.dtype";
    case T::Device:
      return "torch.device";
    case T::Tensor:
      return "Tensor";
    case T::List:
      return "list";
    case T::Tuple:
      return "tuple";
    case T::Dict:
      return "dict";
    case T::Range:
      return "range";
    case T::Slice:
      return "slice";
    case T::Ellipsis:
      return "ellipsis";
    case T::Function:
    case T::Lambda:
      return "function";
    case T::Kernel:
      return "JITFunction";
    case T::Launcher:
      return "kernel launcher";
    case T::Builtin:
      return "builtin_function_or_method";
    case T::Method:
      return "method";
    case T::Module:
      return "module";
    case T::Type:
      return "type";
    case T::Config:
      return "Config";
  }
  return "object";
}

static std::string float_text(double f) {
  if (std::isnan(f)) return "nan";
  if (std::isinf(f)) return f > 0 ? "inf" : "-inf";
  char buf[40];
  for (int p = 1; p <= 17; ++p) {
    std::snprintf(buf, sizeof buf, "%.*g", p, f);
    if (std::strtod(buf, nullptr) == f) break;
  }
  std::string s = buf;
  if (s.find_first_of(".e") == std::string::npos) s += ".0";
  return s;
}

std::string repr(const Value &v) {
  switch (v.t) {
    case T::Str:
      return "'" + v.s + "'";
    case T::List:
    case T::Tuple: {
      std::string out = v.t == T::List ? "[" : "(";
      for (size_t i = 0; i < v.items->size(); ++i) out += (i ? ", " : "") + repr((*v.items)[i]);
      if (v.t == T::Tuple && v.items->size() == 1) out += ",";
      return out + (v.t == T::List ? "]" : ")");
    }
    case T::Dict: {
      std::string out = "{";
      for (size_t i = 0; i < v.items->size(); i += 2)
        out += (i ? ", " : "") + repr((*v.items)[i]) + ": " + repr((*v.items)[i + 1]);
      return out + "}";
    }
    default:
      return str_of(v);
  }
}

std::string str_of(const Value &v) {
  switch (v.t) {
    case T::None:
      return "None";
    case T::Bool:
      return v.b ? "True" : "False";
    case T::Int:
      return std::to_string(v.i);
    case T::Float:
      return float_text(v.f);
    case T::Str:
      return v.s;
    case T::DType:
      return "torch." + std::string(dtype_name(v.dtype));
    case T::Device:
      return v.s;
    case T::Tensor:
      return v.th().to_string();
    case T::Range:
      return "range(" + std::to_string(v.i) + ", " + std::to_string(v.r_stop) +
             (v.r_step != 1 ? ", " + std::to_string(v.r_step) : "") + ")";
    case T::Function:
    case T::Kernel:
      return "<function " + v.fn->name + ">";
    case T::Lambda:
      return "<function <lambda>>";
    case T::Builtin:
      return "<built-in function " + v.s + ">";
    case T::Module:
      return "<module '" + v.s + "'>";
    case T::Type:
      return "<class '" + v.s + "'>";
    case T::Ellipsis:
      return "Ellipsis";
    case T::Config:
      return config_text(v);
    default:
      return repr(v);
  }
}

}  // namespace wrapper_detail

using wrapper_detail::repr;
using wrapper_detail::str_of;
using wrapper_detail::type_name;

std::string WrapperInterpreter::Impl::format_value(const Value &v, const std::string &spec,
                                                   SourceLoc loc) {
  if (spec.empty()) return str_of(v);
  // [[fill]align][sign][width][,][.precision][type] - the common subset.
  size_t i = 0;
  char fill = ' ', align = 0;
  if (spec.size() >= 2 && std::string("<>^").find(spec[1]) != std::string::npos) {
    fill = spec[0];
    align = spec[1];
    i = 2;
  } else if (!spec.empty() && std::string("<>^").find(spec[0]) != std::string::npos) {
    align = spec[0];
    i = 1;
  }
  std::string sign;
  if (i < spec.size() && (spec[i] == '+' || spec[i] == '-' || spec[i] == ' ')) sign = spec[i++];
  if (i < spec.size() && spec[i] == '0') {
    fill = '0';
    if (!align) align = '=';
    ++i;
  }
  int width = 0;
  while (i < spec.size() && std::isdigit(static_cast<unsigned char>(spec[i])))
    width = width * 10 + (spec[i++] - '0');
  if (i < spec.size() && spec[i] == ',') ++i;
  int precision = -1;
  if (i < spec.size() && spec[i] == '.') {
    precision = 0;
    ++i;
    while (i < spec.size() && std::isdigit(static_cast<unsigned char>(spec[i])))
      precision = precision * 10 + (spec[i++] - '0');
  }
  char type = i < spec.size() ? spec[i++] : 0;
  if (i != spec.size()) fail(loc, "ValueError: invalid format specifier '" + spec + "'");
  std::string body;
  char buf[64];
  if (type == 'd' || type == 'x' || type == 'b' || type == 'o') {
    if (!v.is_int_like())
      fail(loc, "ValueError: unknown format code '" + std::string(1, type) +
                    "' for object of type '" + type_name(v) + "'");
    int64_t x = v.t == T::Bool ? v.b : v.i;
    if (type == 'd')
      body = std::to_string(x);
    else if (type == 'x') {
      std::snprintf(buf, sizeof buf, "%llx", static_cast<unsigned long long>(x));
      body = buf;
    } else {
      body = x == 0 ? "0" : "";
      for (uint64_t u = static_cast<uint64_t>(x); u; u /= (type == 'b' ? 2 : 8))
        body.insert(body.begin(), static_cast<char>('0' + u % (type == 'b' ? 2 : 8)));
    }
    if (x >= 0 && sign == "+") body = "+" + body;
  } else if (type == 'f' || type == 'e' || type == 'g' || type == '%' ||
             (precision >= 0 && v.is_num())) {
    if (!v.is_num())
      fail(loc, "ValueError: unknown format code '" + std::string(1, type) +
                    "' for object of type '" + type_name(v) + "'");
    double x = v.t == T::Float ? v.f : static_cast<double>(v.t == T::Bool ? v.b : v.i);
    if (type == '%') x *= 100;
    char t = type == '%' || type == 0 ? 'f' : type;
    if (type == 0 && precision >= 0) t = 'g';
    std::string fmt = "%" + sign + "." + std::to_string(precision < 0 ? 6 : precision) + t;
    std::snprintf(buf, sizeof buf, fmt.c_str(), x);
    body = buf;
    if (type == '%') body += "%";
  } else {
    body = str_of(v);
    if (precision >= 0 && v.t == T::Str && static_cast<int>(body.size()) > precision)
      body.resize(static_cast<size_t>(precision));
  }
  if (static_cast<int>(body.size()) < width) {
    size_t pad = static_cast<size_t>(width) - body.size();
    if (!align) align = v.is_num() ? '>' : '<';
    if (align == '<')
      body += std::string(pad, fill);
    else if (align == '>' || align == '=')
      body = std::string(pad, fill) + body;
    else
      body = std::string(pad / 2, fill) + body + std::string(pad - pad / 2, fill);
  }
  return body;
}

int64_t WrapperInterpreter::Impl::to_int(const Value &v, SourceLoc loc, const std::string &what) {
  if (v.t == T::Int) return v.i;
  if (v.t == T::Bool) return v.b;
  fail(loc, "TypeError: " + what + " must be an integer, not '" + type_name(v) + "'");
}

double WrapperInterpreter::Impl::to_float(const Value &v, SourceLoc loc, const std::string &what) {
  if (v.t == T::Float) return v.f;
  if (v.t == T::Int) return static_cast<double>(v.i);
  if (v.t == T::Bool) return v.b;
  fail(loc, "TypeError: " + what + " must be a number, not '" + type_name(v) + "'");
}

std::vector<int64_t> WrapperInterpreter::Impl::to_int_list(const Value &v, SourceLoc loc,
                                                           const std::string &what) {
  if (!v.is_seq())
    fail(loc,
         "TypeError: " + what + " must be a tuple or list of ints, not '" + type_name(v) + "'");
  std::vector<int64_t> out;
  for (auto &x : *v.items) out.push_back(to_int(x, loc, what + " element"));
  return out;
}

std::vector<int64_t> WrapperInterpreter::Impl::sizes_from_args(const ValueList &args, size_t first,
                                                               SourceLoc loc,
                                                               const std::string &what) {
  if (args.size() == first + 1 && args[first].is_seq()) return to_int_list(args[first], loc, what);
  std::vector<int64_t> out;
  for (size_t i = first; i < args.size(); ++i) out.push_back(to_int(args[i], loc, what));
  return out;
}

Value WrapperInterpreter::Impl::from_wrapper_value(const WrapperValue &v) {
  switch (v.kind) {
    case WrapperValue::Kind::None:
      return Value::none();
    case WrapperValue::Kind::Bool:
      return Value::boolean(v.bool_value);
    case WrapperValue::Kind::Int:
      return Value::integer(v.int_value);
    case WrapperValue::Kind::Float:
      return Value::floating(v.float_value);
    case WrapperValue::Kind::Str:
      return Value::str(v.str_value);
    case WrapperValue::Kind::DType:
      return Value::dtype_of(v.dtype_value);
    case WrapperValue::Kind::Tensor:
      return Value::of(v.tensor);
    case WrapperValue::Kind::List:
    case WrapperValue::Kind::Tuple: {
      ValueList items;
      for (auto &x : v.items) items.push_back(from_wrapper_value(x));
      return v.kind == WrapperValue::Kind::List ? Value::list(std::move(items))
                                                : Value::tuple(std::move(items));
    }
  }
  return Value::none();
}

WrapperValue WrapperInterpreter::Impl::to_wrapper_value(const Value &v, SourceLoc loc) {
  switch (v.t) {
    case T::None:
      return WrapperValue::none();
    case T::Bool:
      return WrapperValue::boolean(v.b);
    case T::Int:
      return WrapperValue::integer(v.i);
    case T::Float:
      return WrapperValue::floating(v.f);
    case T::Str:
      return WrapperValue::string(v.s);
    case T::DType:
      return WrapperValue::dtype(v.dtype);
    case T::Tensor:
      return WrapperValue::of(v.th());
    case T::List:
    case T::Tuple: {
      std::vector<WrapperValue> items;
      for (auto &x : *v.items) items.push_back(to_wrapper_value(x, loc));
      return v.t == T::List ? WrapperValue::list(std::move(items))
                            : WrapperValue::tuple(std::move(items));
    }
    default:
      fail(loc,
           "a wrapper must return tensors, scalars or tuples of them, not '" + type_name(v) + "'");
  }
}

// --- WrapperValue ---
WrapperValue WrapperValue::boolean(bool v) {
  WrapperValue w;
  w.kind = Kind::Bool;
  w.bool_value = v;
  return w;
}
WrapperValue WrapperValue::integer(int64_t v) {
  WrapperValue w;
  w.kind = Kind::Int;
  w.int_value = v;
  return w;
}
WrapperValue WrapperValue::floating(double v) {
  WrapperValue w;
  w.kind = Kind::Float;
  w.float_value = v;
  return w;
}
WrapperValue WrapperValue::string(std::string v) {
  WrapperValue w;
  w.kind = Kind::Str;
  w.str_value = std::move(v);
  return w;
}
WrapperValue WrapperValue::dtype(DType v) {
  WrapperValue w;
  w.kind = Kind::DType;
  w.dtype_value = v;
  return w;
}
WrapperValue WrapperValue::of(TensorHandle t) {
  WrapperValue w;
  w.kind = Kind::Tensor;
  w.tensor = std::move(t);
  return w;
}
WrapperValue WrapperValue::list(std::vector<WrapperValue> v) {
  WrapperValue w;
  w.kind = Kind::List;
  w.items = std::move(v);
  return w;
}
WrapperValue WrapperValue::tuple(std::vector<WrapperValue> v) {
  WrapperValue w;
  w.kind = Kind::Tuple;
  w.items = std::move(v);
  return w;
}

std::string WrapperValue::to_string() const {
  switch (kind) {
    case Kind::None:
      return "None";
    case Kind::Bool:
      return bool_value ? "True" : "False";
    case Kind::Int:
      return std::to_string(int_value);
    case Kind::Float:
      return wrapper_detail::str_of(Value::floating(float_value));
    case Kind::Str:
      return "'" + str_value + "'";
    case Kind::DType:
      return "torch." + std::string(dtype_name(dtype_value));
    case Kind::Tensor:
      return tensor.to_string();
    case Kind::List:
    case Kind::Tuple: {
      std::string out = kind == Kind::List ? "[" : "(";
      for (size_t i = 0; i < items.size(); ++i) out += (i ? ", " : "") + items[i].to_string();
      if (kind == Kind::Tuple && items.size() == 1) out += ",";
      return out + (kind == Kind::List ? "]" : ")");
    }
  }
  return "?";
}

// --- keyword helpers ---
std::optional<Value> take_kwarg(Kwargs &kwargs, const std::string &name) {
  for (auto it = kwargs.begin(); it != kwargs.end(); ++it)
    if (it->first == name) {
      Value v = std::move(it->second);
      kwargs.erase(it);
      return v;
    }
  return std::nullopt;
}

void no_more_kwargs(const WrapperInterpreter::Impl &impl, const Kwargs &kwargs,
                    const std::string &fn, SourceLoc loc) {
  if (!kwargs.empty())
    impl.fail(loc, "TypeError: " + fn + "() got an unexpected keyword argument '" +
                       kwargs[0].first + "'");
}

// --- public API ---
WrapperInterpreter::WrapperInterpreter(const ast::Module &module, Executor &executor,
                                       WrapperOptions options)
    : impl_(new Impl(module, executor, options)) {}

WrapperInterpreter::~WrapperInterpreter() { delete impl_; }

namespace {
void collect_buffers(const WrapperValue &v, std::set<BufferId> &out) {
  if (v.kind == WrapperValue::Kind::Tensor) out.insert(v.tensor.buffer);
  for (auto &x : v.items) collect_buffers(x, out);
}
}  // namespace

WrapperRunResult WrapperInterpreter::run(
    const std::string &wrapper, const std::vector<WrapperValue> &args,
    const std::vector<std::pair<std::string, WrapperValue>> &kwargs) {
  Impl &im = *impl_;
  const ast::FunctionDef *f = im.module.function(wrapper);
  if (!f) throw Error("no function named '" + wrapper + "' in " + im.module.file);
  if (f->is_jit())
    throw CompileError::at(*im.module.source, f->loc,
                           "'" + wrapper + "' is a @triton.jit kernel, not a host wrapper");
  WrapperRunResult result;
  im.run_result = &result;
  im.steps = 0;
  im.depth = 0;
  im.allocated.clear();
  ValueList vargs;
  for (auto &a : args) vargs.push_back(im.from_wrapper_value(a));
  Kwargs vkw;
  for (auto &[k, v] : kwargs) vkw.push_back({k, im.from_wrapper_value(v)});
  auto free_temporaries = [&](const std::set<BufferId> &keep) {
    for (BufferId b : im.allocated)
      if (!keep.count(b)) {
        try {
          im.executor.free(b);
        } catch (...) {
          // Freeing is best effort on the error path; the original error is reported.
        }
      }
    im.allocated.clear();
  };
  try {
    Value ret = im.call_function(*f, std::move(vargs), std::move(vkw), f->loc);
    result.value = im.to_wrapper_value(ret, f->loc);
  } catch (...) {
    im.run_result = nullptr;
    im.release_call_scopes();
    free_temporaries({});
    throw;
  }
  im.release_call_scopes();
  std::set<BufferId> keep;
  collect_buffers(result.value, keep);
  free_temporaries(keep);
  result.steps = im.steps;
  im.run_result = nullptr;
  return result;
}

}  // namespace opforge::compiler
