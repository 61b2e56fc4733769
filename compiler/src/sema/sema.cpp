//===- sema.cpp - lowering entry point, specialisation keys, kernel cache --===//
#include "opforge/compiler/sema.h"

#include <cstdlib>
#include <sstream>

#include "lower_ast.h"
#include "opforge/compiler/knobs.h"

namespace opforge::compiler {
using sema::LType;
using sema::Sc;
using sema::SValue;

Knobs Knobs::from_env() {
  Knobs k;
  if (const char *v = std::getenv("OPFORGE_DOT_PRECISION")) k.dot_precision = v;
  if (const char *v = std::getenv("OPFORGE_DISABLE_PASSES")) {
    std::stringstream ss(v);
    std::string item;
    while (std::getline(ss, item, ','))
      if (!item.empty()) k.disabled_passes.insert(item);
  }
  if (const char *v = std::getenv("OPFORGE_VERIFY_EACH_PASS"))
    k.verify_each_pass = std::string(v) != "0";
  if (const char *v = std::getenv("OPFORGE_DUMP_IR_DIR")) k.dump_ir_dir = v;
  if (const char *v = std::getenv("OPFORGE_REPLACE_IR")) {
    std::stringstream ss(v);
    std::string item;
    while (std::getline(ss, item, ',')) {
      auto eq = item.find('=');
      if (eq == std::string::npos)
        throw Error("OPFORGE_REPLACE_IR: expected STAGE=FILE, got '" + item + "'");
      k.replace_ir[item.substr(0, eq)] = item.substr(eq + 1);
    }
  }
  return k;
}

std::string ParamSpec::key() const {
  if (kind != Kind::Constexpr) return type;
  switch (ckind) {
    case CKind::None:
      return "constexpr=None";
    case CKind::Bool:
      return std::string("constexpr=") + (i ? "True" : "False");
    case CKind::Int:
      return "constexpr=" + std::to_string(i);
    case CKind::Float:
      return "constexpr=" + SValue::floating(f).repr();
    case CKind::Str:
      return "constexpr='" + s + "'";
    case CKind::DType:
      return "constexpr=tl." + s;
  }
  return "constexpr";
}

std::string Specialization::key() const {
  std::string k;
  for (auto &[n, p] : params) k += n + ":" + p.key() + ";";
  return k;
}

static std::string trim(std::string s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.erase(s.begin());
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.pop_back();
  return s;
}

static ParamSpec runtime_spec(const std::string &type, const std::string &where) {
  ParamSpec p;
  p.type = type;
  if (!type.empty() && type[0] == '*') {
    if (!sema::sc_from_name(type.substr(1)))
      throw Error(where + ": unknown pointer element type '" + type + "'");
    p.kind = ParamSpec::Kind::Pointer;
    p.type = "*" + sema::sc_name(*sema::sc_from_name(type.substr(1)));
    return p;
  }
  auto sc = sema::sc_from_name(type);
  if (!sc)
    throw Error(where + ": unknown type '" + type +
                "' (expected *fp32, i32, i64, u32, fp32, i1, ...)");
  p.kind = sema::sc_is_float(*sc) ? ParamSpec::Kind::Float
           : *sc == Sc::I1        ? ParamSpec::Kind::Bool
                                  : ParamSpec::Kind::Int;
  p.type = sema::sc_name(*sc);
  return p;
}

void add_signature(Specialization &spec, const std::string &signature) {
  std::stringstream ss(signature);
  std::string item;
  while (std::getline(ss, item, ',')) {
    item = trim(item);
    if (item.empty()) continue;
    auto eq = item.find('=');
    if (eq == std::string::npos) throw Error("--signature: expected NAME=TYPE, got '" + item + "'");
    std::string name = trim(item.substr(0, eq)), type = trim(item.substr(eq + 1));
    spec.params[name] = runtime_spec(type, "--signature " + name);
  }
}

void add_constexpr(Specialization &spec, const std::string &assignment) {
  auto eq = assignment.find('=');
  if (eq == std::string::npos)
    throw Error("--constexpr: expected NAME=VALUE, got '" + assignment + "'");
  std::string name = trim(assignment.substr(0, eq)), v = trim(assignment.substr(eq + 1));
  ParamSpec p;
  p.kind = ParamSpec::Kind::Constexpr;
  if (v == "None")
    p.ckind = ParamSpec::CKind::None;
  else if (v == "True" || v == "False")
    p.ckind = ParamSpec::CKind::Bool, p.i = v == "True";
  else if (v.size() >= 2 && (v[0] == '\'' || v[0] == '"'))
    p.ckind = ParamSpec::CKind::Str, p.s = v.substr(1, v.size() - 2);
  else if (v.rfind("tl.", 0) == 0 || v.rfind("torch.", 0) == 0) {
    std::string n = v.substr(v.find('.') + 1);
    auto sc = sema::sc_from_name(n);
    if (!sc) throw Error("--constexpr " + name + ": unknown dtype '" + v + "'");
    p.ckind = ParamSpec::CKind::DType;
    p.s = sema::sc_name(*sc);
  } else {
    char *end = nullptr;
    long long iv = std::strtoll(v.c_str(), &end, 0);
    if (!v.empty() && *end == 0) {
      p.ckind = ParamSpec::CKind::Int;
      p.i = iv;
    } else {
      double d = std::strtod(v.c_str(), &end);
      if (v.empty() || *end != 0)
        throw Error("--constexpr " + name + ": cannot read value '" + v + "'");
      p.ckind = ParamSpec::CKind::Float;
      p.f = d;
    }
  }
  spec.params[name] = p;
}

Specialization specialization_of(const LaunchRequest &r) {
  Specialization s;
  for (auto &a : r.args) {
    ParamSpec p;
    if (a.is_constexpr || a.kind == LaunchArg::Kind::None || a.kind == LaunchArg::Kind::Str ||
        a.kind == LaunchArg::Kind::DType) {
      p.kind = ParamSpec::Kind::Constexpr;
      switch (a.kind) {
        case LaunchArg::Kind::Int:
          p.ckind = ParamSpec::CKind::Int;
          p.i = a.int_value;
          break;
        case LaunchArg::Kind::Bool:
          p.ckind = ParamSpec::CKind::Bool;
          p.i = a.int_value;
          break;
        case LaunchArg::Kind::Float:
          p.ckind = ParamSpec::CKind::Float;
          p.f = a.float_value;
          break;
        case LaunchArg::Kind::Str:
          p.ckind = ParamSpec::CKind::Str;
          p.s = a.str_value;
          break;
        case LaunchArg::Kind::DType:
          p.ckind = ParamSpec::CKind::DType;
          p.s = std::string(dtype_name(a.dtype_value));
          break;
        case LaunchArg::Kind::None:
          p.ckind = ParamSpec::CKind::None;
          break;
        case LaunchArg::Kind::Tensor:
          throw Error("argument '" + a.name + "' is tl.constexpr but a tensor was passed");
      }
    } else {
      switch (a.kind) {
        case LaunchArg::Kind::Tensor: {
          DType d = a.tensor.dtype;
          std::string n = d == DType::Bool    ? "int1"
                          : d == DType::UInt8 ? "uint8"
                                              : std::string(dtype_name(d));
          p = runtime_spec("*" + n, a.name);
          break;
        }
        case LaunchArg::Kind::Int: {
          int64_t v = a.int_value;
          p = runtime_spec(v >= -(int64_t(1) << 31) && v < (int64_t(1) << 31) ? "i32" : "i64",
                           a.name);
          break;
        }
        case LaunchArg::Kind::Float:
          p = runtime_spec("fp32", a.name);
          break;
        case LaunchArg::Kind::Bool:
          p = runtime_spec("i1", a.name);
          break;
        default:
          break;
      }
    }
    s.params[a.name] = p;
  }
  return s;
}

std::vector<std::string> add_autotune_defaults(const ast::FunctionDef &kernel,
                                               Specialization &spec) {
  std::vector<std::string> added;
  const ast::Expr *dec = kernel.decorator("triton.autotune");
  auto *call = dec ? dec->as<ast::Call>() : nullptr;
  if (!call) return added;
  const ast::Expr *configs = nullptr;
  if (const ast::Keyword *k = call->keyword("configs"))
    configs = k->value.get();
  else if (!call->args.empty())
    configs = call->args[0].get();
  auto *list = configs ? configs->as<ast::List>() : nullptr;
  if (!list || list->elts.empty()) return added;
  auto *cfg = list->elts[0]->as<ast::Call>();
  if (!cfg || cfg->args.empty()) return added;
  auto *dict = cfg->args[0]->as<ast::Dict>();
  if (!dict) return added;
  for (size_t i = 0; i < dict->keys.size(); ++i) {
    auto *key = dict->keys[i] ? dict->keys[i]->as<ast::Constant>() : nullptr;
    auto *val = dict->values[i]->as<ast::Constant>();
    if (!key || !key->is_str() || !val) continue;
    std::string name = std::get<std::string>(key->value);
    if (spec.params.count(name)) continue;
    ParamSpec p;
    p.kind = ParamSpec::Kind::Constexpr;
    if (val->is_bool())
      p.ckind = ParamSpec::CKind::Bool, p.i = std::get<bool>(val->value);
    else if (val->is_int())
      p.ckind = ParamSpec::CKind::Int, p.i = std::get<int64_t>(val->value);
    else if (val->is_float())
      p.ckind = ParamSpec::CKind::Float, p.f = std::get<double>(val->value);
    else if (val->is_str())
      p.ckind = ParamSpec::CKind::Str, p.s = std::get<std::string>(val->value);
    else
      continue;
    spec.params[name] = p;
    added.push_back(name);
  }
  return added;
}

static SValue constexpr_value(const ParamSpec &p) {
  switch (p.ckind) {
    case ParamSpec::CKind::None:
      return SValue::none();
    case ParamSpec::CKind::Bool:
      return SValue::boolean(p.i != 0);
    case ParamSpec::CKind::Int:
      return SValue::integer(p.i);
    case ParamSpec::CKind::Float:
      return SValue::floating(p.f);
    case ParamSpec::CKind::Str:
      return SValue::str(p.s);
    case ParamSpec::CKind::DType:
      return SValue::dtype(LType::scalar(*sema::sc_from_name(p.s)));
  }
  return SValue::none();
}

LoweredKernel lower_kernel(const ast::Module &m, const std::string &kernel,
                           const Specialization &spec) {
  const ast::FunctionDef *fn = m.function(kernel);
  if (!fn) throw Error("no function named '" + kernel + "' in " + m.file);
  if (!fn->is_jit()) {
    if (m.source)
      throw CompileError::at(*m.source, fn->name_loc,
                             "'" + kernel + "' is not a @triton.jit function");
    throw Error("'" + kernel + "' is not a @triton.jit function");
  }
  for (auto &[name, p] : spec.params)
    if (fn->params.find(name) < 0)
      throw Error(kernel + "(): the specialisation names unknown parameter '" + name + "'");
  LoweredKernel out;
  out.module = std::make_shared<ttir::Module>();
  out.name = kernel;
  sema::AstLowering lowering(m, *out.module);
  lowering.default_dot_precision_ = Knobs::from_env().dot_precision;
  std::vector<SValue> args;
  ttir::Builder dummy;
  for (auto &p : fn->params.params) {
    if (p.kind != ast::ParamKind::Positional && p.kind != ast::ParamKind::KwOnly)
      throw CompileError::at(*m.source, p.loc,
                             "*args/**kwargs parameters are not supported in kernels");
    bool annotated_constexpr =
        p.annotation && ast::dotted_name(*p.annotation).find("constexpr") != std::string::npos;
    auto it = spec.params.find(p.name);
    if (it == spec.params.end()) {
      if (!p.default_value) {
        std::string msg = "parameter '" + p.name + "' of " + kernel +
                          " has no type or value: pass it in the signature";
        if (m.source) throw CompileError::at(*m.source, p.loc, msg);
        throw Error(msg);
      }
      auto *c = p.default_value->as<ast::Constant>();
      if (!c)
        throw CompileError::at(*m.source, p.default_value->loc,
                               "default values of kernel parameters must be constants");
      SValue v;
      if (c->is_int())
        v = SValue::integer(std::get<int64_t>(c->value));
      else if (c->is_float())
        v = SValue::floating(std::get<double>(c->value));
      else if (c->is_bool())
        v = SValue::boolean(std::get<bool>(c->value));
      else if (c->is_str())
        v = SValue::str(std::get<std::string>(c->value));
      args.push_back(v);
      continue;
    }
    const ParamSpec &ps = it->second;
    if (ps.kind == ParamSpec::Kind::Constexpr) {
      args.push_back(constexpr_value(ps));
      continue;
    }
    if (annotated_constexpr)
      throw CompileError::at(
          *m.source, p.loc,
          "parameter '" + p.name + "' is tl.constexpr but was given the runtime type " + ps.type);
    LType t = ps.type[0] == '*' ? LType::ptr(*sema::sc_from_name(ps.type.substr(1)))
                                : LType::scalar(*sema::sc_from_name(ps.type));
    // A placeholder tensor: lower_function turns it into a function argument.
    args.push_back(SValue::tensor(nullptr, t));
    out.runtime_params.push_back(p.name);
  }
  lowering.lower_function(*fn, kernel, args, true);
  // Put the kernel first.
  auto &fs = out.module->functions;
  std::stable_partition(fs.begin(), fs.end(), [&](const auto &f) { return f->name == kernel; });
  ttir::verify(*out.module);
  return out;
}

std::shared_ptr<const LoweredKernel> KernelCache::get(const ast::Module &m,
                                                      const std::string &kernel,
                                                      const Specialization &spec) {
  std::string key = m.file + "|" + kernel + "|" + spec.key();
  {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = cache_.find(key);
    if (it != cache_.end()) {
      ++hits_;
      return it->second;
    }
  }
  auto lowered = std::make_shared<const LoweredKernel>(lower_kernel(m, kernel, spec));
  std::lock_guard<std::mutex> lock(mu_);
  cache_[key] = lowered;
  return lowered;
}

size_t KernelCache::size() const {
  std::lock_guard<std::mutex> lock(mu_);
  return cache_.size();
}

}  // namespace opforge::compiler
