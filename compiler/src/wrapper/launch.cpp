//===- launch.cpp - wrapper interpreter: kernel[grid](...) launches --------===//
#include "interp_impl.h"
#include "opforge/support/budgets.h"

namespace opforge::compiler {

using namespace ast;
using T = Value::T;
using wrapper_detail::type_name;

namespace {

const std::set<std::string> kLaunchOptions = {"num_warps", "num_stages",       "num_ctas",
                                              "maxnreg",   "enable_fp_fusion", "debug"};

bool is_constexpr_param(const Param &p) {
  if (!p.annotation) return false;
  std::string d = dotted_name(*p.annotation);
  return d == "tl.constexpr" || d == "constexpr" || d == "triton.language.constexpr" ||
         (d.size() > 10 && d.substr(d.size() - 10) == ".constexpr");
}

}  // namespace

Value WrapperInterpreter::Impl::launch(const Value &launcher, ValueList args, Kwargs kwargs,
                                       SourceLoc loc) {
  const FunctionDef &k = *launcher.fn;
  const auto &params = k.params.params;
  // Bound arguments in parameter order (name -> value), insertion-ordered.
  std::vector<std::pair<std::string, Value>> bound;
  auto find = [&](const std::string &n) -> Value * {
    for (auto &[name, v] : bound)
      if (name == n) return &v;
    return nullptr;
  };
  if (args.size() > params.size())
    fail(loc, "TypeError: kernel '" + k.name + "' takes " + std::to_string(params.size()) +
                  " arguments but " + std::to_string(args.size()) + " were given");
  for (size_t i = 0; i < args.size(); ++i) bound.push_back({params[i].name, args[i]});
  LaunchRequest req;
  req.kernel = k.name;
  req.function = &k;
  req.module = &module;
  for (auto &[name, v] : kwargs) {
    if (kLaunchOptions.count(name)) {
      if (name == "num_warps") req.num_warps = static_cast<int>(to_int(v, loc, "num_warps"));
      if (name == "num_stages") req.num_stages = static_cast<int>(to_int(v, loc, "num_stages"));
      continue;
    }
    if (k.params.find(name) < 0)
      fail(loc,
           "TypeError: kernel '" + k.name + "' got an unexpected keyword argument '" + name + "'");
    if (find(name))
      fail(loc,
           "TypeError: kernel '" + k.name + "' got multiple values for argument '" + name + "'");
    bound.push_back({name, v});
  }
  // Decorators, outermost first (Autotuner -> Heuristics -> JITFunction).
  std::vector<std::string> reset_to_zero;
  for (auto &d : k.decorators) {
    auto *dcall = d->as<Call>();
    if (!dcall) continue;
    std::string callee = dotted_name(*dcall->func);
    if (callee == "triton.autotune" || callee == "autotune") {
      const Keyword *cfgs = dcall->keyword("configs");
      const Expr *list_expr =
          cfgs ? cfgs->value.get() : (dcall->args.empty() ? nullptr : dcall->args[0].get());
      auto *list = list_expr ? list_expr->as<List>() : nullptr;
      if (!list || list->elts.empty())
        fail(d->loc, "@triton.autotune needs a literal, non-empty list of triton.Config(...)");
      // Documented choice: the first config is used (deterministic, no timing on a model).
      auto *cfg = list->elts[0]->as<Call>();
      if (!cfg || dotted_name(*cfg->func).find("Config") == std::string::npos)
        fail(list->elts[0]->loc, "autotune configs must be triton.Config(...) calls");
      const Expr *kw_expr = !cfg->args.empty()       ? cfg->args[0].get()
                            : cfg->keyword("kwargs") ? cfg->keyword("kwargs")->value.get()
                                                     : nullptr;
      if (kw_expr) {
        Value kv = eval(*kw_expr, globals);
        if (kv.t != T::Dict)
          fail(kw_expr->loc, "triton.Config's first argument must be a dict of meta-parameters");
        for (size_t i = 0; i < kv.items->size(); i += 2) {
          const Value &key = (*kv.items)[i];
          if (key.t != T::Str) fail(kw_expr->loc, "triton.Config keys must be strings");
          if (find(key.s))
            fail(loc, "Conflicting meta-parameters: " + key.s +
                          ". Make sure that you don't re-define auto-tuned symbols.");
          if (k.params.find(key.s) < 0)
            fail(kw_expr->loc, "triton.Config sets '" + key.s +
                                   "', which is not a parameter of kernel '" + k.name + "'");
          bound.push_back({key.s, (*kv.items)[i + 1]});
        }
      }
      for (auto &kw : cfg->keywords) {
        if (kw.name == "num_warps")
          req.num_warps = static_cast<int>(to_int(eval(*kw.value, globals), kw.loc, "num_warps"));
        else if (kw.name == "num_stages")
          req.num_stages = static_cast<int>(to_int(eval(*kw.value, globals), kw.loc, "num_stages"));
        else if (kw.name == "pre_hook")
          fail(kw.loc, "triton.Config pre_hook is not supported (it would run host code)");
      }
      if (const Keyword *rz = dcall->keyword("reset_to_zero")) {
        Value names = eval(*rz->value, globals);
        for (auto &n : iterate(names, rz->loc)) reset_to_zero.push_back(n.t == T::Str ? n.s : "");
      }
      for (const char *hook : {"pre_hook", "post_hook"})
        if (dcall->keyword(hook))
          fail(dcall->keyword(hook)->loc, std::string("@triton.autotune ") + hook +
                                              " is not supported (it would run host code)");
    } else if (callee == "triton.heuristics" || callee == "heuristics") {
      const Keyword *vals = dcall->keyword("values");
      const Expr *dict_expr =
          vals ? vals->value.get() : (dcall->args.empty() ? nullptr : dcall->args[0].get());
      if (!dict_expr) fail(d->loc, "@triton.heuristics needs a dict of name: lambda args: value");
      Value dict = eval(*dict_expr, globals);
      if (dict.t != T::Dict)
        fail(dict_expr->loc, "@triton.heuristics needs a dict of name: lambda args: value");
      for (size_t i = 0; i < dict.items->size(); i += 2) {
        Value meta;
        meta.t = T::Dict;
        meta.items = std::make_shared<ValueList>();
        for (auto &[n, v] : bound) {
          meta.items->push_back(Value::str(n));
          meta.items->push_back(v);
        }
        Value v = call((*dict.items)[i + 1], {meta}, {}, dict_expr->loc);
        const std::string &name = (*dict.items)[i].s;
        if (Value *existing = find(name))
          *existing = v;
        else
          bound.push_back({name, v});
      }
    }
  }
  // Defaults and missing arguments.
  for (auto &p : params) {
    if (find(p.name)) continue;
    if (!p.default_value)
      fail(loc, "TypeError: kernel '" + k.name + "' is missing argument '" + p.name + "'");
    bound.push_back({p.name, eval(*p.default_value, globals)});
  }
  // Grid.
  Value grid = *launcher.self;
  if (grid.t == T::Lambda || grid.t == T::Function || grid.t == T::Builtin) {
    Value meta;
    meta.t = T::Dict;
    meta.items = std::make_shared<ValueList>();
    for (auto &[n, v] : bound) {
      meta.items->push_back(Value::str(n));
      meta.items->push_back(v);
    }
    grid = call(grid, {meta}, {}, loc);
  }
  if (!grid.is_seq())
    fail(loc, "the launch grid must be a tuple of 1 to 3 ints (or a callable returning one), got " +
                  type_name(grid));
  if (grid.items->empty() || grid.items->size() > 3)
    fail(loc,
         "the launch grid must have 1 to 3 dimensions, got " + std::to_string(grid.items->size()));
  int64_t dims[3] = {1, 1, 1};
  for (size_t i = 0; i < grid.items->size(); ++i) {
    dims[i] = to_int((*grid.items)[i], loc, "grid dimension");
    if (dims[i] < 0)
      fail(loc, "grid dimension " + std::to_string(i) + " is negative (" + std::to_string(dims[i]) +
                    ")");
  }
  req.grid = LaunchGrid{dims[0], dims[1], dims[2]};
  // Arguments in parameter order.
  for (auto &p : params) {
    const Value &v = *find(p.name);
    LaunchArg a;
    a.name = p.name;
    a.is_constexpr = is_constexpr_param(p);
    switch (v.t) {
      case T::Tensor:
        if (a.is_constexpr)
          fail(loc, "kernel '" + k.name +
                        "': a tensor cannot be passed to tl.constexpr parameter '" + p.name + "'");
        a.kind = LaunchArg::Kind::Tensor;
        a.tensor = v.th();
        break;
      case T::Int:
        a.kind = LaunchArg::Kind::Int;
        a.int_value = v.i;
        break;
      case T::Bool:
        a.kind = LaunchArg::Kind::Bool;
        a.int_value = v.b;
        break;
      case T::Float:
        a.kind = LaunchArg::Kind::Float;
        a.float_value = v.f;
        break;
      case T::None:
        a.kind = LaunchArg::Kind::None;
        break;
      case T::Str:
        if (!a.is_constexpr)
          fail(loc, "kernel '" + k.name +
                        "': a string can only be passed to a tl.constexpr parameter ('" + p.name +
                        "')");
        a.kind = LaunchArg::Kind::Str;
        a.str_value = v.s;
        break;
      case T::DType:
        if (!a.is_constexpr)
          fail(loc, "kernel '" + k.name +
                        "': a dtype can only be passed to a tl.constexpr parameter ('" + p.name +
                        "')");
        a.kind = LaunchArg::Kind::DType;
        a.dtype_value = v.dtype;
        break;
      default:
        fail(loc, "kernel '" + k.name + "': cannot pass a " + type_name(v) + " to parameter '" +
                      p.name + "'");
    }
    req.args.push_back(std::move(a));
  }
  for (auto &name : reset_to_zero) {
    Value *v = find(name);
    if (!v || v->t != T::Tensor)
      fail(loc,
           "@triton.autotune reset_to_zero names '" + name + "', which is not a tensor argument");
    ValueList none_args;
    Kwargs none_kw;
    tensor_method(*v, "zero_", none_args, none_kw, loc);
  }
  if (req.grid.programs() == 0) return Value::none();
  {
    const int64_t cap = budgets().grid_programs;
    if (static_cast<__int128>(dims[0]) * dims[1] * dims[2] > cap)
      fail(loc, "kernel '" + k.name + "': grid of " + std::to_string(dims[0]) + " x " +
                    std::to_string(dims[1]) + " x " + std::to_string(dims[2]) + " programs: " +
                    budget_exceeded("launch", "grid budget", &Budgets::grid_programs, "programs"));
  }
  if (++launches > options.max_launches)
    fail(loc, "kernel '" + k.name + "': wrapper interpreter: launch budget of " +
                  std::to_string(options.max_launches) + " exceeded (--max-launches)");
  LaunchResult r;
  try {
    r = executor.launch(req);
  } catch (const CompileError &) {
    throw;
  } catch (const Error &e) {
    // A fault the kernel's own code raised (the interpreter or the chip's line table names
    // its line) is reported at that line with its source line, the launch as context;
    // anything else at the launch.
    const ErrorContext &at = e.context();
    if (at.line && module.source && (at.file.empty() || at.file == module.source->path())) {
      SourceLoc kernel_loc;
      kernel_loc.line = *at.line;
      kernel_loc.col = at.col.value_or(1);
      throw CompileError::at(*module.source, kernel_loc,
                             "kernel '" + k.name + "' failed: " + e.what() + " (launched at " +
                                 module.source->path() + ":" + std::to_string(loc.line) + ")");
    }
    fail(loc, "kernel '" + k.name + "' failed: " + e.what());
  }
  if (run_result) {
    run_result->prints.insert(run_result->prints.end(), r.prints.begin(), r.prints.end());
    run_result->launches.push_back(std::move(req));
  }
  return Value::none();
}

}  // namespace opforge::compiler
