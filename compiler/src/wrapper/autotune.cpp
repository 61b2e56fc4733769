//===- autotune.cpp - wrapper interpreter: triton.Config, @autotune, @heuristics ===//
//
// As Triton's runtime/autotuner.py defines them: the configs are any expression the
// interpreter evaluates (evaluated once per kernel, like a decorator at import); on
// the first launch of a tuning key every config left after prune_configs_by is
// launched as a trial and timed on the executor (simulated cycles on the chip), with
// reset_to_zero / restore_value / pre_hook / post_hook around each trial; the config
// with the fewest cycles is kept per key, in memory and on disk, and the call runs
// with it. An executor without timing keeps the first config that compiles.
//
//===----------------------------------------------------------------------===//
#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <unistd.h>

#include "interp_impl.h"
#include "opforge/support/hash.h"

namespace opforge::compiler {

using namespace ast;
using T = Value::T;
using wrapper_detail::repr;
using wrapper_detail::str_of;
using wrapper_detail::type_name;

namespace {

enum ConfigField { kKwargs = 0, kNumWarps, kNumStages, kNumCtas, kMaxnreg, kPreHook, kFields };

const ValueList &fields(const Value &c) { return *c.items; }

// Launch-side options of a config (Config.all_kwargs() less the meta-parameters).
Kwargs config_options(const Value &c) {
  Kwargs out = {{"num_warps", fields(c)[kNumWarps]},
                {"num_ctas", fields(c)[kNumCtas]},
                {"num_stages", fields(c)[kNumStages]}};
  if (fields(c)[kMaxnreg].t != T::None) out.push_back({"maxnreg", fields(c)[kMaxnreg]});
  return out;
}

}  // namespace

namespace wrapper_detail {
std::string config_text(const Value &c) {
  std::string out;
  const Value &kw = fields(c)[kKwargs];
  for (size_t i = 0; i < kw.items->size(); i += 2)
    out += str_of((*kw.items)[i]) + ": " + str_of((*kw.items)[i + 1]) + ", ";
  out += "num_warps: " + str_of(fields(c)[kNumWarps]) +
         ", num_ctas: " + str_of(fields(c)[kNumCtas]) +
         ", num_stages: " + str_of(fields(c)[kNumStages]) +
         ", maxnreg: " + str_of(fields(c)[kMaxnreg]);
  return out;
}
}  // namespace wrapper_detail

using wrapper_detail::config_text;

std::string autotune_default_cache_dir() {
  if (const char *x = std::getenv("XDG_CACHE_HOME"); x && *x)
    return std::string(x) + "/opforge/autotune";
  if (const char *h = std::getenv("HOME"); h && *h)
    return std::string(h) + "/.cache/opforge/autotune";
  return "";
}

// --- triton.Config ---
Value WrapperInterpreter::Impl::make_config(ValueList &args, Kwargs &kwargs, SourceLoc loc) {
  static const char *names[] = {"kwargs",  "num_warps", "num_stages", "num_ctas",
                                "maxnreg", "pre_hook",  "ir_override"};
  if (args.size() > 7)
    fail(loc, "TypeError: Config() takes at most 7 arguments (" + std::to_string(args.size()) +
                  " given)");
  Value given[7];
  bool has[7] = {};
  for (size_t i = 0; i < args.size(); ++i) given[i] = args[i], has[i] = true;
  for (int i = 0; i < 7; ++i)
    if (auto v = take_kwarg(kwargs, names[i])) {
      if (has[i])
        fail(loc, std::string("TypeError: Config() got multiple values for argument '") + names[i] +
                      "'");
      given[i] = *v, has[i] = true;
    }
  no_more_kwargs(*this, kwargs, "Config", loc);
  if (!has[0]) fail(loc, "TypeError: Config() missing 1 required positional argument: 'kwargs'");
  if (given[0].t != T::Dict)
    fail(loc, "triton.Config's first argument (kwargs) must be a dict of meta-parameters, got " +
                  type_name(given[0]));
  for (size_t i = 0; i < given[0].items->size(); i += 2)
    if ((*given[0].items)[i].t != T::Str)
      fail(loc, "triton.Config kwargs keys must be strings, got " + repr((*given[0].items)[i]));
  if (has[6] && given[6].t != T::None)
    fail(loc, "triton.Config ir_override is not supported (no IR files on this target)");
  ValueList f(kFields);
  f[kKwargs] = given[0];
  f[kNumWarps] = has[1] ? given[1] : Value::integer(4);
  f[kNumStages] = has[2] ? given[2] : Value::integer(3);
  f[kNumCtas] = has[3] ? given[3] : Value::integer(1);
  f[kMaxnreg] = has[4] ? given[4] : Value::none();
  f[kPreHook] = has[5] ? given[5] : Value::none();
  const char *ints[] = {"num_warps", "num_stages", "num_ctas"};
  for (int i = 0; i < 3; ++i) to_int(f[kNumWarps + i], loc, std::string("Config ") + ints[i]);
  if (f[kMaxnreg].t != T::None) to_int(f[kMaxnreg], loc, "Config maxnreg");
  Value c;
  c.t = T::Config;
  c.items = std::make_shared<ValueList>(std::move(f));
  return c;
}

Value WrapperInterpreter::Impl::config_attr(const Value &c, const std::string &name,
                                            SourceLoc loc) {
  if (name == "kwargs") return fields(c)[kKwargs];
  if (name == "num_warps") return fields(c)[kNumWarps];
  if (name == "num_stages") return fields(c)[kNumStages];
  if (name == "num_ctas") return fields(c)[kNumCtas];
  if (name == "maxnreg") return fields(c)[kMaxnreg];
  if (name == "pre_hook") return fields(c)[kPreHook];
  if (name == "ir_override") return Value::none();
  if (name == "all_kwargs") return Value::method(c, name);
  fail(loc, "AttributeError: 'Config' object has no attribute '" + name + "'");
}

Value WrapperInterpreter::Impl::config_method(const Value &c, const std::string &name,
                                              ValueList &args, SourceLoc loc) {
  if (name == "all_kwargs" && args.empty()) {
    Value d;
    d.t = T::Dict;
    d.items = std::make_shared<ValueList>(*fields(c)[kKwargs].items);
    for (auto &[n, v] : config_options(c)) {
      d.items->push_back(Value::str(n));
      d.items->push_back(v);
    }
    return d;
  }
  fail(loc, "AttributeError: 'Config' object has no attribute '" + name + "'");
}

// --- @triton.heuristics ---
std::optional<uint64_t> WrapperInterpreter::Impl::heuristics_launch(const Value &launcher,
                                                                    size_t layer, const Call &d,
                                                                    Binding b, SourceLoc loc,
                                                                    LaunchMode mode) {
  const Keyword *vals = d.keyword("values");
  const Expr *dict_expr = vals ? vals->value.get() : (d.args.empty() ? nullptr : d.args[0].get());
  if (!dict_expr) fail(d.loc, "@triton.heuristics needs a dict of name: lambda args: value");
  Value dict = eval(*dict_expr, globals);
  if (dict.t != T::Dict)
    fail(dict_expr->loc,
         "@triton.heuristics needs a dict of name: lambda args: value, got " + type_name(dict));
  // Each value sees the call's arguments and what earlier values set (Triton's
  // Heuristics.run updates kwargs in order).
  for (size_t i = 0; i < dict.items->size(); i += 2) {
    const Value &name = (*dict.items)[i];
    if (name.t != T::Str) fail(dict_expr->loc, "@triton.heuristics keys must be strings");
    Value v = call((*dict.items)[i + 1], {meta_dict(b, true)}, {}, dict_expr->loc);
    if (Value *existing = b.find(name.s))
      *existing = v;
    else
      b.args.push_back({name.s, v});
  }
  return run_layers(launcher, layer + 1, std::move(b), loc, mode);
}

// --- @triton.autotune ---
struct WrapperInterpreter::Impl::AutotuneState {
  ValueList configs;
  std::vector<std::string> key, reset_to_zero, restore_value;
  Value perf_model, early_prune, pre_hook, post_hook;
  Value top_k = Value::floating(1.0);
  std::map<std::string, size_t> chosen;  // key text -> index into the pruned configs' owner
  std::map<std::string, Value> chosen_config;
};

namespace {
const std::vector<std::string> kAutotuneParams = {
    "configs", "key", "prune_configs_by", "reset_to_zero", "restore_value", "pre_hook", "post_hook",
    "warmup",  "rep", "use_cuda_graph",   "do_bench",      "cache_results"};
}  // namespace

WrapperInterpreter::Impl::AutotuneState &WrapperInterpreter::Impl::autotune_state(
    const FunctionDef &k, const Call &d) {
  if (auto it = autotuners.find(&d); it != autotuners.end()) return *it->second;
  auto st = std::make_shared<AutotuneState>();
  std::map<std::string, const Expr *> given;
  std::map<std::string, SourceLoc> at;
  if (d.args.size() > kAutotuneParams.size())
    fail(d.loc, "TypeError: autotune() takes too many arguments");
  for (size_t i = 0; i < d.args.size(); ++i)
    given[kAutotuneParams[i]] = d.args[i].get(), at[kAutotuneParams[i]] = d.args[i]->loc;
  for (auto &kw : d.keywords) {
    if (std::find(kAutotuneParams.begin(), kAutotuneParams.end(), kw.name) == kAutotuneParams.end())
      fail(kw.loc, "TypeError: autotune() got an unexpected keyword argument '" + kw.name + "'");
    if (given.count(kw.name))
      fail(kw.loc, "TypeError: autotune() got multiple values for argument '" + kw.name + "'");
    given[kw.name] = kw.value.get(), at[kw.name] = kw.loc;
  }
  for (const char *required : {"configs", "key"})
    if (!given.count(required))
      fail(d.loc,
           std::string("TypeError: autotune() missing required argument: '") + required + "'");
  // Configs: a literal list is evaluated element by element so that an error names the
  // config's index; any other expression (a function call, a comprehension) as a whole.
  const Expr *cexpr = given["configs"];
  if (auto *list = cexpr->as<List>()) {
    for (size_t i = 0; i < list->elts.size(); ++i) {
      try {
        st->configs.push_back(eval(*list->elts[i], globals));
      } catch (const CompileError &e) {
        fail(list->elts[i]->loc, "@triton.autotune config #" + std::to_string(i) + " of kernel '" +
                                     k.name + "' raised: " + e.message());
      }
    }
  } else {
    Value v = eval(*cexpr, globals);
    if (!v.is_seq())
      fail(cexpr->loc,
           "@triton.autotune configs must be a list of triton.Config, got " + type_name(v));
    st->configs = *v.items;
  }
  if (st->configs.empty())
    fail(cexpr->loc, "@triton.autotune of kernel '" + k.name +
                         "': the config list is empty (give at least one triton.Config)");
  for (size_t i = 0; i < st->configs.size(); ++i)
    if (st->configs[i].t != T::Config)
      fail(cexpr->loc, "@triton.autotune config #" + std::to_string(i) + " of kernel '" + k.name +
                           "' is a " + type_name(st->configs[i]) + ", not a triton.Config");
  auto names = [&](const char *field, std::vector<std::string> &out) {
    if (!given.count(field)) return;
    Value v = eval(*given[field], globals);
    if (v.t == T::None) return;
    for (auto &n : iterate(v, at[field])) {
      if (n.t != T::Str)
        fail(at[field], std::string("@triton.autotune ") + field + " must list argument names");
      out.push_back(n.s);
    }
    std::string unknown;
    for (auto &n : out)
      if (k.params.find(n) < 0) unknown += (unknown.empty() ? "" : ", ") + n;
    if (!unknown.empty()) {
      std::string valid;
      for (auto &p : k.params.params) valid += (valid.empty() ? "" : ", ") + p.name;
      fail(at[field], std::string("ValueError: ") + field +
                          " contains names that are not kernel arguments: " + unknown +
                          ". Valid argument names are: " + valid + ".");
    }
  };
  names("key", st->key);
  names("reset_to_zero", st->reset_to_zero);
  names("restore_value", st->restore_value);
  if (given.count("prune_configs_by")) {
    Value p = eval(*given["prune_configs_by"], globals);
    if (p.t == T::Dict) {
      for (size_t i = 0; i < p.items->size(); i += 2) {
        const std::string &n = (*p.items)[i].s;
        const Value &v = (*p.items)[i + 1];
        if (n == "perf_model") st->perf_model = v;
        if (n == "top_k") st->top_k = v;
        if (n == "early_config_prune") st->early_prune = v;
      }
    } else if (p.t != T::None) {
      fail(at["prune_configs_by"],
           "@triton.autotune prune_configs_by must be a dict, got " + type_name(p));
    }
  }
  for (const char *hook : {"pre_hook", "post_hook"})
    if (given.count(hook))
      (hook[1] == 'r' ? st->pre_hook : st->post_hook) = eval(*given[hook], globals);
  // Accepted as Triton accepts them; the chip's simulated cycles are deterministic, so
  // there is nothing to warm up, repeat or graph-capture (wrapper.md, "Autotuning").
  for (const char *ignored : {"warmup", "rep", "use_cuda_graph", "do_bench", "cache_results"})
    if (given.count(ignored)) eval(*given[ignored], globals);
  autotuners[&d] = st;
  return *st;
}

namespace {

// Python's repr of a tuple of the key's parts.
std::string tuple_text(const std::vector<std::string> &parts) {
  std::string out = "(";
  for (size_t i = 0; i < parts.size(); ++i) out += (i ? ", " : "") + parts[i];
  return out + (parts.size() == 1 ? ",)" : ")");
}

struct DiskEntry {
  std::vector<AutotuneRecord::Trial> trials;
  int winner = -1;
};

// The on-disk entry: "opforge-autotune 1", "kernel K", "key KEY", one "config I cycles N
// TEXT" or "config I skipped REASON" line per config, "winner I".
std::optional<DiskEntry> read_entry(const std::string &path, size_t configs) {
  std::ifstream in(path);
  if (!in) return std::nullopt;
  DiskEntry e;
  std::string line;
  if (!std::getline(in, line) || line != "opforge-autotune 1") return std::nullopt;
  while (std::getline(in, line)) {
    std::istringstream ls(line);
    std::string word;
    ls >> word;
    if (word == "winner") {
      ls >> e.winner;
    } else if (word == "config") {
      size_t index = 0;
      std::string what;
      ls >> index >> what;
      AutotuneRecord::Trial t;
      std::string rest;
      if (what == "cycles") {
        uint64_t c = 0;
        ls >> c;
        t.cycles = c;
        std::getline(ls >> std::ws, t.config);
      } else {
        std::getline(ls >> std::ws, t.skipped);
      }
      e.trials.push_back(std::move(t));
    }
  }
  if (e.winner < 0 || static_cast<size_t>(e.winner) >= configs || e.trials.size() != configs)
    return std::nullopt;
  return e;
}

void write_entry(const std::string &path, const AutotuneRecord &r) {
  std::error_code ec;
  std::filesystem::create_directories(std::filesystem::path(path).parent_path(), ec);
  const std::string tmp = path + ".tmp" + std::to_string(::getpid());
  {
    std::ofstream out(tmp);
    if (!out) return;  // an unwritable cache only costs tuning again
    out << "opforge-autotune 1\nkernel " << r.kernel << "\nkey " << r.key << "\n";
    for (size_t i = 0; i < r.trials.size(); ++i) {
      const auto &t = r.trials[i];
      if (t.skipped.empty())
        out << "config " << i << " cycles " << t.cycles.value_or(0) << " " << t.config << "\n";
      else
        out << "config " << i << " skipped " << t.skipped << "\n";
    }
    out << "winner " << r.winner << "\n";
  }
  std::filesystem::rename(tmp, path, ec);
}

}  // namespace

std::optional<uint64_t> WrapperInterpreter::Impl::autotune_launch(const Value &launcher,
                                                                  size_t layer, const Call &d,
                                                                  Binding b, SourceLoc loc,
                                                                  LaunchMode mode) {
  const FunctionDef &k = *launcher.fn;
  AutotuneState &st = autotune_state(k, d);
  auto index_of = [&](const Value &cfg) {
    for (size_t i = 0; i < st.configs.size(); ++i)
      if (st.configs[i].items == cfg.items) return i;
    for (size_t i = 0; i < st.configs.size(); ++i)
      if (equals(st.configs[i], cfg)) return i;
    return st.configs.size();
  };
  auto named = [&](const Value &cfg) {
    return "@triton.autotune config #" + std::to_string(index_of(cfg)) + " (" + config_text(cfg) +
           ") of kernel '" + k.name + "'";
  };
  auto rethrow = [&](const Value &cfg, const CompileError &e) {
    throw CompileError::at(*module.source, e.loc(), named(cfg) + ": " + e.message());
  };
  // The call's arguments with a config's meta-parameters and options.
  auto apply = [&](const Value &cfg) {
    Binding c = b;
    const Value &kw = fields(cfg)[kKwargs];
    for (size_t i = 0; i < kw.items->size(); i += 2) {
      const std::string &n = (*kw.items)[i].s;
      if (c.find(n))
        fail(loc, "Conflicting meta-parameters: " + n +
                      ". Make sure that you don't re-define auto-tuned symbols.");
      if (k.params.find(n) < 0)
        fail(loc, "triton.Config sets '" + n + "', which is not a parameter of kernel '" + k.name +
                      "' (" + named(cfg) + ")");
      c.args.push_back({n, (*kw.items)[i + 1]});
    }
    for (auto &[n, v] : config_options(cfg)) {
      bool set = false;
      for (auto &[on, ov] : c.options)
        if (on == n) ov = v, set = true;
      if (!set) c.options.push_back({n, v});
    }
    return c;
  };
  auto tensor_op = [&](const Value &t, const char *op, ValueList args) {
    Kwargs none;
    return tensor_method(t, op, args, none, loc);
  };
  auto reset = [&](const Binding &c) {
    if (st.pre_hook.t != T::None) {
      call(st.pre_hook, {meta_dict(c, true)}, {{"reset_only", Value::boolean(true)}}, loc);
      return;
    }
    for (auto &n : st.reset_to_zero) {
      Value *v = const_cast<Binding &>(c).find(n);
      if (v && v->t == T::Tensor) tensor_op(*v, "zero_", {});
    }
  };

  Value chosen;
  if (st.configs.size() == 1) {
    chosen = st.configs[0];
    if (run_result && std::none_of(run_result->autotune.begin(), run_result->autotune.end(),
                                   [&](const AutotuneRecord &r) { return r.kernel == k.name; })) {
      AutotuneRecord rec;
      rec.kernel = k.name;
      rec.key = "()";
      rec.source = "single config (nothing to tune)";
      rec.winner = 0;
      rec.winner_config = config_text(chosen);
      run_result->autotune.push_back(std::move(rec));
    }
  } else {
    std::vector<std::string> parts;
    for (auto &n : st.key)
      if (Value *v = b.find(n)) parts.push_back(repr(*v));
    for (auto &[n, v] : b.args)
      if (v.t == T::Tensor)
        parts.push_back("'torch." + std::string(dtype_name(v.th().dtype)) + "'");
    const std::string key = tuple_text(parts);
    AutotuneRecord rec;
    rec.kernel = k.name;
    rec.key = key;
    if (auto it = st.chosen_config.find(key); it != st.chosen_config.end()) {
      chosen = it->second;
      rec.source = "memory cache";
    } else {
      // prune_configs_by: early_config_prune(configs, named_args, **kwargs), then the
      // perf_model's top_k.
      Binding positional = b, keywords = b;
      positional.args.resize(b.positional);
      positional.options.clear();
      keywords.args.erase(keywords.args.begin(), keywords.args.begin() + b.positional);
      Kwargs kwargs = keywords.args;
      kwargs.insert(kwargs.end(), b.options.begin(), b.options.end());
      ValueList pruned = st.configs;
      if (st.early_prune.t != T::None) {
        Value r =
            call(st.early_prune, {Value::list(pruned), meta_dict(positional, false)}, kwargs, loc);
        if (!r.is_seq() || r.items->empty())
          fail(loc,
               "AutotunerError: No valid autotuner configs after pruning. "
               "`early_config_prune` should return at least one config.");
        pruned = *r.items;
        for (auto &c : pruned)
          if (c.t != T::Config)
            fail(loc, "early_config_prune of kernel '" + k.name + "' returned a " + type_name(c) +
                          ", not a triton.Config");
      }
      if (st.perf_model.t != T::None) {
        int64_t top_k = 0;
        if (st.top_k.t == T::Float && st.top_k.f <= 1.0)
          top_k = std::max<int64_t>(1, static_cast<int64_t>(pruned.size() * st.top_k.f));
        else if (st.top_k.t == T::Int)
          top_k = st.top_k.i;
        else
          fail(loc,
               "TypeError: Error while pruning configs, top_k must be either 1) a float <= "
               "1.0 or 2) an int");
        if (static_cast<int64_t>(pruned.size()) > top_k) {
          std::vector<std::pair<double, size_t>> est;
          for (size_t i = 0; i < pruned.size(); ++i) {
            Kwargs all;
            for (auto &[n, v] : positional.args) all.push_back({n, v});
            for (auto &[n, v] : kwargs) all.push_back({n, v});
            ValueList no_args;
            Value ak = config_method(pruned[i], "all_kwargs", no_args, loc);
            for (size_t j = 0; j < ak.items->size(); j += 2)
              all.push_back({(*ak.items)[j].s, (*ak.items)[j + 1]});
            try {
              est.push_back(
                  {to_float(call(st.perf_model, {}, all, loc), loc, "perf_model result"), i});
            } catch (const CompileError &e) {
              rethrow(pruned[i], e);
            }
          }
          std::stable_sort(est.begin(), est.end(),
                           [](const auto &x, const auto &y) { return x.first < y.first; });
          ValueList kept;
          for (int64_t i = 0; i < top_k; ++i) kept.push_back(pruned[est[i].second]);
          pruned = std::move(kept);
        }
      }
      for (auto &c : st.configs)
        if (std::none_of(pruned.begin(), pruned.end(),
                         [&](const Value &p) { return p.items == c.items; }))
          rec.pruned.push_back(config_text(c));
      const std::string target = executor.tuning_target();
      const bool timed = !target.empty();
      bool hooks = false;
      for (auto &c : pruned) hooks |= fields(c)[kPreHook].t != T::None;
      if (pruned.size() == 1) {
        chosen = pruned[0];
        rec.source = "single config after pruning";
        rec.winner = 0;
      } else {
        if (timed && !options.autotune_cache_dir.empty() && !hooks) {
          std::string text = module.source->text() + "\n" + target + "\n" + key;
          for (auto &c : pruned) text += "\n" + config_text(c);
          rec.cache_file =
              options.autotune_cache_dir + "/" + k.name + "-" + fnv1a64_hex(text) + ".txt";
          if (auto e = read_entry(rec.cache_file, pruned.size())) {
            rec.trials = e->trials;
            for (size_t i = 0; i < pruned.size(); ++i)
              rec.trials[i].config = config_text(pruned[i]);
            rec.winner = e->winner;
            chosen = pruned[static_cast<size_t>(e->winner)];
            rec.source = "disk cache";
          }
        }
        if (chosen.t == T::None) {
          std::vector<Value> clones;
          for (auto &n : st.restore_value)
            if (Value *v = b.find(n); v && v->t == T::Tensor && st.pre_hook.t == T::None)
              clones.push_back(tensor_op(*v, "clone", {}));
          std::optional<uint64_t> best;
          for (size_t i = 0; i < pruned.size(); ++i) {
            AutotuneRecord::Trial t;
            t.config = config_text(pruned[i]);
            Binding c;
            try {
              c = apply(pruned[i]);
            } catch (const CompileError &e) {
              rethrow(pruned[i], e);
            }
            Value full = meta_dict(c, true);
            try {
              if (fields(pruned[i])[kPreHook].t != T::None)
                call(fields(pruned[i])[kPreHook], {full}, {}, loc);
              if (st.pre_hook.t != T::None)
                call(st.pre_hook, {full}, {}, loc);
              else
                reset(c);
              LaunchMode m = timed ? LaunchMode::Trial : LaunchMode::Compile;
              std::optional<uint64_t> cycles = run_layers(launcher, layer + 1, c, loc, m);
              if (timed) t.cycles = cycles.value_or(0);
            } catch (const TrialSkipped &s) {
              t.skipped = s.reason;
            } catch (const CompileError &e) {
              rethrow(pruned[i], e);
            }
            if (st.post_hook.t != T::None) {
              call(st.post_hook, {full}, {{"exception", Value::none()}}, loc);
            } else {
              size_t ci = 0;
              for (auto &n : st.restore_value)
                if (Value *v = b.find(n); v && v->t == T::Tensor && ci < clones.size())
                  tensor_op(*v, "copy_", {clones[ci++]});
            }
            const bool ran = t.skipped.empty();
            rec.trials.push_back(std::move(t));
            if (!ran) continue;
            if (!timed) {  // the first config that compiles (no cycles to compare)
              rec.winner = static_cast<int>(i);
              break;
            }
            if (!best || *rec.trials.back().cycles < *best) {
              best = rec.trials.back().cycles;
              rec.winner = static_cast<int>(i);
            }
          }
          if (rec.winner < 0) {
            std::string why;
            for (size_t i = 0; i < rec.trials.size(); ++i)
              why += "\n  config #" + std::to_string(index_of(pruned[i])) + " (" +
                     rec.trials[i].config + "): " + rec.trials[i].skipped;
            fail(loc, "@triton.autotune of kernel '" + k.name + "': no config could run for key " +
                          key + ":" + why);
          }
          chosen = pruned[static_cast<size_t>(rec.winner)];
          rec.source = timed ? "tuned" : "first config that compiles (the executor has no cycles)";
          reset(apply(chosen));
          if (!rec.cache_file.empty()) write_entry(rec.cache_file, rec);
        }
      }
      st.chosen_config[key] = chosen;
    }
    rec.winner_config = config_text(chosen);
    if (run_result) {
      bool seen = false;
      for (auto &r : run_result->autotune) seen |= r.kernel == rec.kernel && r.key == rec.key;
      if (!seen) run_result->autotune.push_back(std::move(rec));
    }
  }
  Binding c = apply(chosen);
  if (st.configs.size() == 1) {
    if (fields(chosen)[kPreHook].t != T::None)
      call(fields(chosen)[kPreHook], {meta_dict(c, true)}, {}, loc);
    return run_layers(launcher, layer + 1, std::move(c), loc, mode);
  }
  try {
    if (fields(chosen)[kPreHook].t != T::None)
      call(fields(chosen)[kPreHook], {meta_dict(c, true)}, {}, loc);
    return run_layers(launcher, layer + 1, std::move(c), loc, mode);
  } catch (const CompileError &e) {
    if (e.message().find("@triton.autotune config #") != std::string::npos) throw;
    rethrow(chosen, e);
  }
  return std::nullopt;
}

}  // namespace opforge::compiler
