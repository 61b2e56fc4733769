//===- aten_point.cpp - ATen calls through the kernel library on the chip -===//
#include "aten_point.h"

#include <algorithm>
#include <limits>
#include <map>
#include <optional>
#include <random>

#include "opforge/support/error.h"

#ifdef OPFORGE_RUNNER_HAVE_ATEN
#include "opforge/compiler/chip_executor.h"
#include "opforge/compiler/interp_executor.h"
#include "opforge/compiler/wrapper.h"
#include "opforge/harness/aten_runtime.h"
#include "opforge/harness/corpus.h"
#include "opforge/harness/validate.h"
#include "opforge/harness/verifier.h"
#endif

namespace opforge::harness::detail {

#ifndef OPFORGE_RUNNER_HAVE_ATEN

void run_aten_workload(const Scenario &, const Workload &w, const model::ChipParams &,
                       PointResult &) {
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

// A random tensor for a spec {"shape", "dtype", "low", "high"}.
HostTensor random_tensor(const json &spec, std::mt19937_64 &rng) {
  DType dt = dtype_from_name(spec["dtype"].get<std::string>());
  std::vector<int64_t> sizes = spec["shape"].get<std::vector<int64_t> >();
  HostTensor t(dt, sizes);
  int64_t n = t.numel();
  if (dt == DType::Bool) {
    std::bernoulli_distribution b(0.5);
    for (int64_t i = 0; i < n; ++i) t.set_int(i, b(rng) ? 1 : 0);
  } else if (dtype_is_integral(dt)) {
    int64_t lo = spec.contains("low") ? int64_t(spec["low"].get<double>()) : 0;
    int64_t hi = spec.contains("high") ? int64_t(spec["high"].get<double>()) : 10;
    if (hi <= lo) hi = lo + 1;
    std::uniform_int_distribution<int64_t> u(lo, hi - 1);
    for (int64_t i = 0; i < n; ++i) t.set_int(i, u(rng));
  } else {
    double lo = spec.contains("low") ? spec["low"].get<double>() : -1.0;
    double hi = spec.contains("high") ? spec["high"].get<double>() : 1.0;
    std::uniform_real_distribution<double> u(lo, std::max(hi, lo));
    for (int64_t i = 0; i < n; ++i) t.set_double(i, u(rng));
  }
  return t;
}

Value value_of(const json &spec, std::mt19937_64 &rng) {
  if (spec.is_null()) return Value::none();
  if (spec.is_boolean()) return Value::of_bool(spec.get<bool>());
  if (spec.is_number_integer()) return Value::of_int(spec.get<int64_t>());
  if (spec.is_number()) return Value::of_double(spec.get<double>());
  if (spec.is_string()) {
    Value v;
    v.kind = Value::Kind::String;
    v.text = spec.get<std::string>();
    return v;
  }
  if (spec.is_array()) {
    std::vector<Value> items;
    for (const auto &e : spec) items.push_back(value_of(e, rng));
    return Value::of_list(std::move(items));
  }
  if (spec.contains("float")) {
    std::string f = spec["float"].get<std::string>();
    return Value::of_double(f == "nan"   ? std::numeric_limits<double>::quiet_NaN()
                            : f == "inf" ? std::numeric_limits<double>::infinity()
                                         : -std::numeric_limits<double>::infinity());
  }
  if (spec.contains("dtype_value"))
    return Value::of_dtype(dtype_from_name(spec["dtype_value"].get<std::string>()));
  return Value::of_tensor(random_tensor(spec, rng));
}

// Device buffers of one call, freed when it ends.
class Buffers {
 public:
  explicit Buffers(Executor &ex) : ex_(ex) {}
  ~Buffers() {
    for (auto id : ids_) ex_.free(id);
  }
  Buffers(const Buffers &) = delete;
  Buffers &operator=(const Buffers &) = delete;
  void own(compiler::BufferId id) {
    if (id != 0 && std::find(ids_.begin(), ids_.end(), id) == ids_.end()) ids_.push_back(id);
  }
  WrapperValue to_wrapper(const Value &v) {
    switch (v.kind) {
      case Value::Kind::None:
        return WrapperValue::none();
      case Value::Kind::Bool:
        return WrapperValue::boolean(v.boolean);
      case Value::Kind::Int:
        return WrapperValue::integer(v.integer);
      case Value::Kind::Double:
        return WrapperValue::floating(v.number);
      case Value::Kind::String:
      case Value::Kind::Layout:
      case Value::Kind::MemoryFormat:
      case Value::Kind::Device:
        return WrapperValue::string(v.text);
      case Value::Kind::DType:
        return WrapperValue::dtype(v.dtype);
      case Value::Kind::Tensor: {
        const HostTensor &t = v.tensor;
        TensorHandle h;
        h.dtype = t.dtype();
        h.sizes = t.sizes();
        h.strides = t.strides();
        h.storage_offset = t.storage_offset();
        h.buffer = ex_.allocate(std::max<int64_t>(h.extent_bytes(), 1));
        own(h.buffer);
        if (h.numel() > 0) ex_.copy_in(h, t);
        return WrapperValue::of(h);
      }
      case Value::Kind::List: {
        std::vector<WrapperValue> items;
        for (const auto &e : v.list) items.push_back(to_wrapper(e));
        return WrapperValue::list(std::move(items));
      }
      default:
        throw Error("argument of kind " + std::string(value_kind_name(v.kind)) +
                    " cannot be passed to a wrapper: " + v.summary());
    }
  }
  Value from_wrapper(const WrapperValue &w) {
    switch (w.kind) {
      case WrapperValue::Kind::None:
        return Value::none();
      case WrapperValue::Kind::Bool:
        return Value::of_bool(w.bool_value);
      case WrapperValue::Kind::Int:
        return Value::of_int(w.int_value);
      case WrapperValue::Kind::Float:
        return Value::of_double(w.float_value);
      case WrapperValue::Kind::DType:
        return Value::of_dtype(w.dtype_value);
      case WrapperValue::Kind::Str: {
        Value v;
        v.kind = Value::Kind::String;
        v.text = w.str_value;
        return v;
      }
      case WrapperValue::Kind::Tensor:
        own(w.tensor.buffer);
        if (w.tensor.numel() == 0)
          return Value::of_tensor(HostTensor(w.tensor.dtype, w.tensor.sizes));
        return Value::of_tensor(ex_.copy_out(w.tensor));
      case WrapperValue::Kind::List:
      case WrapperValue::Kind::Tuple: {
        std::vector<Value> items;
        for (const auto &e : w.items) items.push_back(from_wrapper(e));
        return Value::of_list(std::move(items));
      }
    }
    return Value::none();
  }

 private:
  Executor &ex_;
  std::vector<compiler::BufferId> ids_;
};

// Runs `call` through `wrapper` of `module` on `ex` (the view runtime when
// module is null); returns the output.
Value run_wrapper(const compiler::ast::Module *module, const std::string &wrapper, Executor &ex,
                  const Call &call) {
  Buffers buffers(ex);
  std::vector<WrapperValue> args;
  std::vector<std::pair<std::string, WrapperValue> > kwargs;
  for (const auto &a : call.args) args.push_back(buffers.to_wrapper(a));
  for (const auto &[k, v] : call.kwargs) kwargs.emplace_back(k, buffers.to_wrapper(v));
  if (!module) return buffers.from_wrapper(run_view_op(call.overload, args, kwargs));
  compiler::WrapperInterpreter interp(*module, ex);
  return buffers.from_wrapper(interp.run(wrapper, args, kwargs).value);
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

}  // namespace

void run_aten_workload(const Scenario &, const Workload &w, const model::ChipParams &params,
                       PointResult &r) {
  KernelLibrary library =
      KernelLibrary::load(w.library.empty() ? default_library_dir() : w.library);
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
  compiler::ChipExecutor chip(dev);
  compiler::InterpExecutor interp;
  std::map<std::string, uint64_t> counters;
  std::vector<std::string> counter_order;
  size_t failed = 0;
  std::string first_failure;
  for (const Call &call : calls) {
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
        if (!corpus && w.verify) expected.out = run_wrapper(module, wrapper, interp, call);
        Value got = run_wrapper(module, wrapper, chip, call);
        if (check) {
          Verdict v = verify_call(expected, got, {}, corpus ? &*corpus : nullptr);
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
    for (size_t i = before; i < chip.launches().size(); ++i) {
      const model::LaunchResult &lr = chip.launches()[i];
      rec.cycles += lr.cycles;
      ++rec.launches;
      r.cycles += lr.cycles;
      r.instructions += lr.instructions;
      r.host_seconds += lr.host_seconds;
      for (const auto &in : lr.instances) {
        if (r.instances.size() >= PointResult::kMaxInstances) break;
        r.instances.push_back({call.overload, in.pe, uint64_t(in.pid[0]), in.start_cycle,
                               in.end_cycle, in.instructions});
      }
      for (const auto &[n, v] : lr.counter_deltas) {
        auto [it, inserted] = counters.emplace(n, 0);
        if (inserted) counter_order.push_back(n);
        it->second += v;
      }
    }
    if (rec.status != "ok") {
      ++failed;
      if (first_failure.empty()) first_failure = rec.call + ": " + rec.reason;
    }
    r.ops.push_back(std::move(rec));
  }
  for (const auto &n : counter_order) r.counters.emplace_back(n, counters[n]);
  r.status = failed ? "failed" : "ok";
  r.reason = failed ? std::to_string(failed) + " of " + std::to_string(calls.size()) +
                          " calls failed; first: " + first_failure
                    : "";
}

#endif

}  // namespace opforge::harness::detail
