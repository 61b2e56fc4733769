//===- aten_point.cpp - ATen calls through the kernel library on the chip -===//
#include "aten_point.h"

#include <algorithm>
#include <functional>
#include <limits>
#include <map>
#include <optional>
#include <random>
#include <set>

#include "opforge/support/error.h"

#ifdef OPFORGE_RUNNER_HAVE_ATEN
#include "opforge/compiler/chip_executor.h"
#include "opforge/compiler/interp_executor.h"
#include "opforge/compiler/wrapper.h"
#include "opforge/harness/aten_call.h"
#include "opforge/harness/aten_runtime.h"
#include "opforge/harness/trace_replay.h"
#include "opforge/harness/corpus.h"
#include "opforge/harness/validate.h"
#include "opforge/harness/verifier.h"
#endif

namespace opforge::harness::detail {

#ifndef OPFORGE_RUNNER_HAVE_ATEN

void run_aten_workload(const Scenario &, const Workload &w, const model::ChipParams &,
                       PointResult &, Value *) {
  throw Error("workload '" + w.name +
              "' runs ATen overloads, but this opforge was built without the compiler's code "
              "generator (opforge_validate / opforge_chip_runtime)");
}

#else

namespace {
using compiler::Executor;
using compiler::TensorHandle;
using compiler::WrapperValue;
using nlohmann::json;

Value value_of(const json &spec, std::mt19937_64 &rng) { return call_spec_value(spec, rng); }

// Runs `call` through `wrapper` of `module` on `ex` (the view runtime when
// module is null): the output and the arguments the call should write.
CallOutcome run_wrapper(const compiler::ast::Module *module, const std::string &wrapper,
                        Executor &ex, const Call &call,
                        const std::vector<std::string> &schema_names = {}) {
  CallKernel kernel;
  kernel.module = module;
  kernel.wrapper = wrapper;
  return run_aten_call(kernel, ex, call, schema_names);
}

std::string one_line(std::string s) {
  auto nl = s.find('\n');
  if (nl != std::string::npos) s = s.substr(0, nl);
  if (s.size() > 400) s = s.substr(0, 400) + "...";
  return s;
}

std::optional<DType> first_tensor_dtype(const std::vector<Value> &vals) {
  for (const auto &v : vals) {
    if (v.kind == Value::Kind::Tensor) return v.tensor.dtype();
    if (v.kind == Value::Kind::List)
      if (auto d = first_tensor_dtype(v.list)) return d;
  }
  return std::nullopt;
}

// The short call text without the output ("aten::mm(f32[4, 4], f32[4, 4])").
std::string call_text(const Call &c) {
  std::string s = c.overload + "(";
  bool first = true;
  for (const auto &a : c.args) {
    s += (first ? "" : ", ") + a.summary();
    first = false;
  }
  for (const auto &[k, v] : c.kwargs) {
    s += (first ? "" : ", ") + k + "=" + v.summary();
    first = false;
  }
  return s + ")";
}

// The workload's kernel libraries: `library` (or the shipped one, after the
// variants of the registered ISA extensions' intrinsics), then extra_libraries
// in order; an overload's kernel comes from the first that has it.
class LibrarySet {
 public:
  explicit LibrarySet(const Workload &w) {
    if (w.library.empty())
      for (const auto &d : extension_library_dirs()) libs_.push_back(KernelLibrary::load(d));
    libs_.push_back(KernelLibrary::load(w.library.empty() ? default_library_dir() : w.library));
    for (const auto &d : w.extra_libraries) libs_.push_back(KernelLibrary::load(d));
  }
  const KernelLibrary::File *find(const std::string &overload) const {
    for (const auto &l : libs_)
      if (const KernelLibrary::File *f = l.find(overload)) return f;
    return nullptr;
  }
  std::string dir() const {
    std::string s;
    for (const auto &l : libs_) s += (s.empty() ? "" : ", ") + l.dir();
    return s;
  }

 private:
  std::vector<KernelLibrary> libs_;
};

// Adds the kernel launches of one call (launches[before..]) to its record and the point.
class LaunchTally {
 public:
  explicit LaunchTally(PointResult &r) : r_(r) {}
  void add(const compiler::ChipExecutor &chip, size_t before, const std::string &op,
           OpRecord &rec) {
    for (size_t i = before; i < chip.launches().size(); ++i) {
      const model::LaunchResult &lr = chip.launches()[i];
      rec.cycles += lr.cycles;
      ++rec.launches;
      r_.cycles += lr.cycles;
      r_.instructions += lr.instructions;
      r_.host_seconds += lr.host_seconds;
      for (const auto &in : lr.instances) {
        if (r_.instances.size() >= PointResult::kMaxInstances) break;
        r_.instances.push_back(
            {op, in.pe, uint64_t(in.pid[0]), in.start_cycle, in.end_cycle, in.instructions});
      }
      for (const auto &[n, v] : lr.counter_deltas) {
        auto [it, inserted] = counters_.emplace(n, 0);
        if (inserted) order_.push_back(n);
        it->second += v;
      }
      // Sampled counters: every launch's rows, in launch order (chip cycles
      // run on across launches, so the series is one timeline).
      const model::CounterSeries &s = lr.samples;
      if (s.cycles.empty()) continue;
      if (r_.trace_names.empty()) r_.trace_names = s.names;
      for (size_t k = 0; k < s.cycles.size(); ++k) {
        r_.trace_cycles.push_back(int64_t(s.cycles[k]));
        r_.trace_rows.emplace_back(s.values[k].begin(), s.values[k].end());
      }
    }
  }
  void finish() {
    for (const auto &n : order_) r_.counters.emplace_back(n, counters_[n]);
  }

 private:
  PointResult &r_;
  std::map<std::string, uint64_t> counters_;
  std::vector<std::string> order_;
};

// Host copy of a wrapper value (outputs stay owned by the caller).
Value host_value(Executor &ex, const WrapperValue &w) {
  CallMarshal read(ex);
  Value v = read.to_host(w);
  read.release();
  return v;
}

void flatten_handles(const WrapperValue &w, std::vector<WrapperValue> &out) {
  if (w.kind == WrapperValue::Kind::Tensor) out.push_back(w);
  if (w.kind == WrapperValue::Kind::List || w.kind == WrapperValue::Kind::Tuple)
    for (const auto &e : w.items) flatten_handles(e, out);
}

bool trace_is_chained(const std::vector<AtenCall> &calls) {
  std::function<bool(const json &)> any = [&](const json &s) {
    if (spec_is_output_ref(s) || spec_is_input_ref(s)) return true;
    if (s.is_array())
      for (const auto &e : s)
        if (any(e)) return true;
    return false;
  };
  for (const auto &c : calls) {
    if (any(c.args)) return true;
    for (auto it = c.kwargs.begin(); it != c.kwargs.end(); ++it)
      if (any(it.value())) return true;
  }
  return false;
}

// A chained trace on the chip: parameters and inputs are copied in once,
// every call's outputs stay in device buffers and feed the calls that use
// them; a buffer is freed after its last use. Each call is verified (with
// `verify`) against the IR interpreter on host copies of its actual inputs.
// A call whose producer did not run gets a seeded stand-in of the recorded
// shape (counted in the point's reason).
void run_chained_trace(const Scenario &scenario, const Workload &w, const LibrarySet &library,
                       const model::ChipParams &params, PointResult &r, Value *last_output) {
  const std::vector<AtenCall> &calls = w.calls;
  const size_t n = calls.size();
  // Last call that reads each output / input (an unread output dies with its call).
  std::map<std::pair<size_t, size_t>, size_t> out_last;
  std::map<uint64_t, size_t> in_last;
  std::function<void(const json &, size_t)> scan = [&](const json &s, size_t i) {
    if (spec_is_output_ref(s))
      out_last[{s["from"][0].get<size_t>(), s["from"][1].get<size_t>()}] = i;
    else if (spec_is_input_ref(s))
      in_last[s["input"].get<uint64_t>()] = i;
    else if (s.is_array())
      for (const auto &e : s) scan(e, i);
  };
  for (size_t i = 0; i < n; ++i) {
    scan(calls[i].args, i);
    for (auto it = calls[i].kwargs.begin(); it != calls[i].kwargs.end(); ++it) scan(it.value(), i);
  }

  model::Device dev(params);
  if (scenario.sample_interval_cycles) dev.set_sampled_counters(scenario.sample_counters);
  compiler::ChipExecutor chip(dev);
  compiler::InterpExecutor interp;
  TraceInputs inputs(w.seed);
  LaunchTally tally(r);
  std::vector<std::vector<WrapperValue> > produced(n);
  std::map<uint64_t, WrapperValue> dev_inputs;
  std::set<compiler::BufferId> owned;
  size_t failed = 0, stand_ins = 0;
  std::string first_failure;

  auto to_device = [&](const Value &v) {
    CallMarshal tmp(chip);
    WrapperValue wv = tmp.to_wrapper(v, "argument");
    std::vector<WrapperValue> hs;
    flatten_handles(wv, hs);
    for (const auto &h : hs) owned.insert(h.tensor.buffer);
    tmp.release();
    return wv;
  };
  // Device argument and host copy of one spec of call i.
  std::function<WrapperValue(const json &, std::mt19937_64 &, Value &)> arg =
      [&](const json &s, std::mt19937_64 &rng, Value &host) -> WrapperValue {
    if (spec_is_output_ref(s)) {
      size_t k = s["from"][0].get<size_t>(), j = s["from"][1].get<size_t>();
      if (j < produced[k].size()) {
        host = host_value(chip, produced[k][j]);
        return produced[k][j];
      }
      ++stand_ins;
      host = substitute_output(calls[k], j, w.seed * 131 + k);
      return to_device(host);
    }
    if (spec_is_input_ref(s)) {
      uint64_t id = s["input"].get<uint64_t>();
      host = inputs.get(s);
      auto it = dev_inputs.find(id);
      if (it == dev_inputs.end()) it = dev_inputs.emplace(id, to_device(host)).first;
      return it->second;
    }
    if (s.is_array()) {
      std::vector<WrapperValue> items;
      std::vector<Value> hosts;
      for (const auto &e : s) {
        hosts.emplace_back();
        items.push_back(arg(e, rng, hosts.back()));
      }
      host = Value::of_list(std::move(hosts));
      return WrapperValue::list(std::move(items));
    }
    host = call_spec_value(s, rng);
    return to_device(host);
  };

  for (size_t i = 0; i < n; ++i) {
    OpRecord rec;
    rec.op = calls[i].op;
    const KernelLibrary::File *file = library.find(rec.op);
    size_t before = chip.launches().size();
    Call call;
    call.overload = rec.op;
    call.index = int64_t(i);
    try {
      std::mt19937_64 rng(w.seed * 1000003 + i);
      std::vector<WrapperValue> args;
      std::vector<std::pair<std::string, WrapperValue> > kwargs;
      for (const auto &a : calls[i].args) {
        call.args.emplace_back();
        args.push_back(arg(a, rng, call.args.back()));
      }
      for (auto it = calls[i].kwargs.begin(); it != calls[i].kwargs.end(); ++it) {
        call.kwargs.emplace_back(it.key(), Value());
        kwargs.emplace_back(it.key(), arg(it.value(), rng, call.kwargs.back().second));
      }
      call.dtype = first_tensor_dtype(call.args).value_or(DType::Float32);
      rec.call = call_text(call);
      if (!file && !is_view_op(rec.op)) {
        rec.status = "unsupported";
        rec.reason = "no kernel: no wrapper '" + wrapper_name_for(rec.op) + "' in kernel library " +
                     library.dir();
      } else if (file && !file->module) {
        rec.status = "unsupported";
        rec.reason = "kernel file does not load: " + one_line(file->error);
      } else {
        const compiler::ast::Module *module = file ? file->module.get() : nullptr;
        std::string wrapper = file ? file->wrapper_for(rec.op) : std::string();
        WrapperValue out;
        if (module) {
          compiler::WrapperInterpreter wi(*module, chip);
          out = wi.run(wrapper, args, kwargs).value;
        } else {
          out = run_view_op(rec.op, args, kwargs);
        }
        flatten_handles(out, produced[i]);
        for (const auto &h : produced[i]) owned.insert(h.tensor.buffer);
        if (w.verify || (last_output && i + 1 == n)) {
          Value got = host_value(chip, out);
          if (w.verify) {
            Call expected = call;
            expected.out = run_wrapper(module, wrapper, interp, call).out;
            CallOutcome actual{got, {}};
            JudgeCallOptions reference;
            reference.aten_reference = false;  // the IR interpreter's result
            Verdict v = judge_aten_call(expected, actual, nullptr, reference);
            if (!v.ok()) {
              rec.status = "failed";
              rec.reason = "wrong result: " + one_line(v.first_reason());
            }
          }
          if (last_output && i + 1 == n) *last_output = got;
        }
        if (rec.status.empty()) rec.status = "ok";
      }
    } catch (const std::exception &e) {
      if (rec.call.empty()) rec.call = rec.op;
      rec.status = "failed";
      rec.reason = one_line(e.what());
    }
    tally.add(chip, before, rec.op, rec);
    if (rec.status != "ok") {
      ++failed;
      if (first_failure.empty()) first_failure = rec.call + ": " + rec.reason;
    }
    r.ops.push_back(std::move(rec));
    // Free the buffers no later call reads (the last call's outputs live on).
    std::set<compiler::BufferId> live;
    for (size_t k = 0; k <= i; ++k)
      for (size_t j = 0; j < produced[k].size(); ++j) {
        auto it = out_last.find({k, j});
        if (k + 1 == n || (it != out_last.end() && it->second > i))
          live.insert(produced[k][j].tensor.buffer);
      }
    for (const auto &[id, h] : dev_inputs)
      if (in_last.count(id) && in_last[id] > i) live.insert(h.tensor.buffer);
    for (auto it = owned.begin(); it != owned.end();) {
      if (*it != 0 && !live.count(*it)) {
        chip.free(*it);
        it = owned.erase(it);
      } else {
        ++it;
      }
    }
    for (size_t k = 0; k <= i; ++k)
      for (auto &h : produced[k])
        if (!live.count(h.tensor.buffer)) h.tensor.buffer = 0;
    for (auto it = dev_inputs.begin(); it != dev_inputs.end();)
      it = live.count(it->second.tensor.buffer) ? std::next(it) : dev_inputs.erase(it);
  }
  for (auto id : owned)
    if (id != 0) chip.free(id);
  tally.finish();
  r.status = failed ? "failed" : "ok";
  r.reason = failed ? std::to_string(failed) + " of " + std::to_string(n) +
                          " calls failed; first: " + first_failure
                    : "";
  if (stand_ins)
    r.reason += "; " + std::to_string(stand_ins) +
                " arguments were stand-ins for outputs of calls that did not run";
}

}  // namespace

void run_aten_workload(const Scenario &scenario, const Workload &w, const model::ChipParams &params,
                       PointResult &r, Value *last_output) {
  LibrarySet library(w);
  if (w.kind == Workload::Kind::Trace && trace_is_chained(w.calls))
    return run_chained_trace(scenario, w, library, params, r, last_output);
  std::optional<Corpus> corpus;
  std::vector<Call> calls;
  if (w.kind == Workload::Kind::Corpus) {
    std::string path = w.path.empty() ? Corpus::default_path() : w.path;
    corpus.emplace(Corpus::open(path));
    for (const auto &o : w.overloads) {
      size_t max = w.max_calls ? size_t(w.max_calls) : SIZE_MAX;
      if (!corpus->has_overload(o)) {
        Call c;
        c.overload = o;
        calls.push_back(c);  // recorded as a failure below
        continue;
      }
      if (w.dtypes.empty()) {
        for (auto &c : corpus->calls(o, std::nullopt, max)) calls.push_back(std::move(c));
      } else {
        for (const auto &d : w.dtypes)
          for (auto &c : corpus->calls(o, dtype_from_name(d), max)) calls.push_back(std::move(c));
      }
    }
  } else {
    for (size_t i = 0; i < w.calls.size(); ++i) {
      std::mt19937_64 rng(w.seed * 1000003 + i);
      Call c;
      c.overload = w.calls[i].op;
      c.index = int64_t(i);
      for (const auto &a : w.calls[i].args) c.args.push_back(value_of(a, rng));
      for (auto it = w.calls[i].kwargs.begin(); it != w.calls[i].kwargs.end(); ++it)
        c.kwargs.emplace_back(it.key(), value_of(it.value(), rng));
      c.dtype = first_tensor_dtype(c.args).value_or(DType::Float32);
      calls.push_back(std::move(c));
    }
  }

  model::Device dev(params);
  if (scenario.sample_interval_cycles) dev.set_sampled_counters(scenario.sample_counters);
  compiler::ChipExecutor chip(dev);
  compiler::InterpExecutor interp;
  LaunchTally tally(r);
  size_t failed = 0;
  std::string first_failure;
  for (size_t ci = 0; ci < calls.size(); ++ci) {
    const Call &call = calls[ci];
    OpRecord rec;
    rec.op = call.overload;
    rec.call = call_text(call);
    const KernelLibrary::File *file = library.find(call.overload);
    size_t before = chip.launches().size();
    if (corpus && !corpus->has_overload(call.overload)) {
      rec.status = "failed";
      rec.reason = "overload not in corpus " + corpus->path();
    } else if (!file && !is_view_op(call.overload)) {
      rec.status = "unsupported";
      rec.reason = "no kernel: no wrapper '" + wrapper_name_for(call.overload) +
                   "' in kernel library " + library.dir();
    } else if (file && !file->module) {
      rec.status = "unsupported";
      rec.reason = "kernel file does not load: " + one_line(file->error);
    } else {
      const compiler::ast::Module *module = file ? file->module.get() : nullptr;
      std::string wrapper = file ? file->wrapper_for(call.overload) : std::string();
      try {
        Call expected = call;
        bool check = corpus.has_value() || w.verify;
        JudgeCallOptions reference;
        if (!corpus && w.verify) {
          expected.out = run_wrapper(module, wrapper, interp, call).out;
          reference.aten_reference = false;  // the IR interpreter's result
        }
        std::vector<std::string> names;
        if (corpus && !call.mutated.empty())
          names = schema_argument_names(corpus->overload(call.overload).schema);
        CallOutcome got = run_wrapper(module, wrapper, chip, call, names);
        if (last_output && ci + 1 == calls.size()) *last_output = got.out;
        if (check) {
          Verdict v = judge_aten_call(expected, got, corpus ? &*corpus : nullptr, reference);
          if (!v.ok()) {
            rec.status = "failed";
            rec.reason = "wrong result: " + one_line(v.first_reason());
          }
        }
        if (rec.status.empty()) rec.status = "ok";
      } catch (const std::exception &e) {
        rec.status = "failed";
        rec.reason = one_line(e.what());
      }
    }
    tally.add(chip, before, call.overload, rec);
    if (rec.status != "ok") {
      ++failed;
      if (first_failure.empty()) first_failure = rec.call + ": " + rec.reason;
    }
    r.ops.push_back(std::move(rec));
  }
  tally.finish();
  r.status = failed ? "failed" : "ok";
  r.reason = failed ? std::to_string(failed) + " of " + std::to_string(calls.size()) +
                          " calls failed; first: " + first_failure
                    : "";
}

#endif

}  // namespace opforge::harness::detail

namespace opforge::harness {

Value run_workload_last_output(const Scenario &s, const Workload &w,
                               const model::ChipParams &params, PointResult &r) {
  if (!is_aten_family(w.kind)) throw Error("workload '" + w.name + "' does not run ATen calls");
  Value last;
  detail::run_aten_workload(s, w, params, r, &last);
  return last;
}

}  // namespace opforge::harness
