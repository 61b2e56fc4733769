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

// The first line of an error, for an autotune report ("file:line:col: error: message").
std::string one_line_reason(const std::exception &e) {
  std::string text;
  if (auto *ce = dynamic_cast<const CompileError *>(&e))
    text = ce->rendered();
  else
    text = e.what();
  return text.substr(0, text.find('\n'));
}

std::vector<const Call *> decorator_layers(const FunctionDef &k) {
  std::vector<const Call *> out;
  for (auto &d : k.decorators)
    if (auto *call = d->as<Call>()) {
      std::string callee = dotted_name(*call->func);
      if (callee == "triton.autotune" || callee == "autotune" || callee == "triton.heuristics" ||
          callee == "heuristics")
        out.push_back(call);
    }
  return out;
}

}  // namespace

Value *WrapperInterpreter::Impl::Binding::find(const std::string &name) {
  for (auto &[n, v] : args)
    if (n == name) return &v;
  return nullptr;
}

Value WrapperInterpreter::Impl::meta_dict(const Binding &b, bool with_options) {
  Value meta;
  meta.t = T::Dict;
  meta.items = std::make_shared<ValueList>();
  auto add = [&](const std::string &n, const Value &v) {
    for (size_t i = 0; i < meta.items->size(); i += 2)
      if ((*meta.items)[i].s == n) {
        (*meta.items)[i + 1] = v;
        return;
      }
    meta.items->push_back(Value::str(n));
    meta.items->push_back(v);
  };
  for (auto &[n, v] : b.args) add(n, v);
  if (with_options)
    for (auto &[n, v] : b.options) add(n, v);
  return meta;
}

Value WrapperInterpreter::Impl::launch(const Value &launcher, ValueList args, Kwargs kwargs,
                                       SourceLoc loc) {
  const FunctionDef &k = *launcher.fn;
  const auto &params = k.params.params;
  Binding b;
  if (args.size() > params.size())
    fail(loc, "TypeError: kernel '" + k.name + "' takes " + std::to_string(params.size()) +
                  " arguments but " + std::to_string(args.size()) + " were given");
  for (size_t i = 0; i < args.size(); ++i) b.args.push_back({params[i].name, args[i]});
  b.positional = b.args.size();
  for (auto &[name, v] : kwargs) {
    if (kLaunchOptions.count(name)) {
      b.options.push_back({name, v});
      continue;
    }
    if (k.params.find(name) < 0)
      fail(loc,
           "TypeError: kernel '" + k.name + "' got an unexpected keyword argument '" + name + "'");
    if (b.find(name))
      fail(loc,
           "TypeError: kernel '" + k.name + "' got multiple values for argument '" + name + "'");
    b.args.push_back({name, v});
  }
  run_layers(launcher, 0, std::move(b), loc, LaunchMode::Final);
  return Value::none();
}

std::optional<uint64_t> WrapperInterpreter::Impl::run_layers(const Value &launcher, size_t layer,
                                                             Binding b, SourceLoc loc,
                                                             LaunchMode mode) {
  // Decorators, outermost first (Autotuner -> Heuristics -> JITFunction).
  std::vector<const Call *> layers = decorator_layers(*launcher.fn);
  if (layer >= layers.size()) return jit_launch(launcher, std::move(b), loc, mode);
  const Call &d = *layers[layer];
  std::string callee = dotted_name(*d.func);
  if (callee == "triton.autotune" || callee == "autotune")
    return autotune_launch(launcher, layer, d, std::move(b), loc, mode);
  return heuristics_launch(launcher, layer, d, std::move(b), loc, mode);
}

std::optional<uint64_t> WrapperInterpreter::Impl::jit_launch(const Value &launcher, Binding b,
                                                             SourceLoc loc, LaunchMode mode) {
  const FunctionDef &k = *launcher.fn;
  const auto &params = k.params.params;
  auto &bound = b.args;
  auto find = [&](const std::string &n) { return b.find(n); };
  LaunchRequest req;
  req.kernel = k.name;
  req.function = &k;
  req.module = &module;
  for (auto &[name, v] : b.options) {
    if (name == "num_warps") req.num_warps = static_cast<int>(to_int(v, loc, "num_warps"));
    if (name == "num_stages") req.num_stages = static_cast<int>(to_int(v, loc, "num_stages"));
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
  if (grid.t == T::Lambda || grid.t == T::Function || grid.t == T::Builtin)
    grid = call(grid, {meta_dict(b, false)}, {}, loc);
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
  if (req.grid.programs() == 0) return std::nullopt;
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
  if (mode == LaunchMode::Compile) {
    try {
      executor.compile(req);
    } catch (const std::exception &e) {
      throw TrialSkipped{one_line_reason(e)};
    }
    return std::nullopt;
  }
  LaunchResult r;
  if (mode == LaunchMode::Trial) {
    // A config whose kernel does not compile, does not fit or faults is skipped.
    try {
      executor.compile(req);
    } catch (const std::exception &e) {
      throw TrialSkipped{one_line_reason(e)};
    }
    try {
      r = executor.launch(req);
    } catch (const std::exception &e) {
      if (run_result) run_result->autotune_trial_launches += 1;  // it ran, and faulted
      throw TrialSkipped{one_line_reason(e)};
    }
    if (run_result) {
      run_result->autotune_trial_launches += 1;
      run_result->autotune_trial_cycles += r.cycles.value_or(0);
    }
    return r.cycles;
  }
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
  return r.cycles;
}

}  // namespace opforge::compiler
