//===- trace_replay.cpp - inputs, call-spec values and host replay of traces ===//
#include "opforge/harness/trace_replay.h"

#include <algorithm>
#include <limits>

#include "opforge/support/error.h"

namespace opforge::harness {
using nlohmann::json;

namespace {

// A tensor for a spec {"shape", "dtype", "low", "high", "values"}.
HostTensor spec_tensor(const json &spec, std::mt19937_64 &rng) {
  DType dt = dtype_from_name(spec["dtype"].get<std::string>());
  std::vector<int64_t> sizes = spec["shape"].get<std::vector<int64_t>>();
  HostTensor t(dt, sizes);
  int64_t n = t.numel();
  if (spec.contains("values") && int64_t(spec["values"].size()) == n) {
    const json &v = spec["values"];
    for (int64_t i = 0; i < n; ++i) {
      if (!dtype_is_integral(dt))
        t.set_double(i, v[size_t(i)].get<double>());
      else
        t.set_int(i, int64_t(v[size_t(i)].get<double>()));
    }
    return t;
  }
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

}  // namespace

Value call_spec_value(const json &spec, std::mt19937_64 &rng) {
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
    for (const auto &e : spec) items.push_back(call_spec_value(e, rng));
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
  return Value::of_tensor(spec_tensor(spec, rng));
}

const Value &TraceInputs::get(const json &spec) {
  uint64_t n = spec["input"].get<uint64_t>();
  auto it = values_.find(n);
  if (it != values_.end()) return it->second;
  std::mt19937_64 rng(seed_ * 1000003 + 0x9e3779b97f4a7c15ull * (n + 1));
  return values_.emplace(n, Value::of_tensor(spec_tensor(spec, rng))).first->second;
}

void flatten_tensors(const Value &v, std::vector<Value> &out) {
  if (v.kind == Value::Kind::Tensor) out.push_back(v);
  if (v.kind == Value::Kind::List)
    for (const auto &e : v.list) flatten_tensors(e, out);
}

Value substitute_output(const AtenCall &producer, size_t output, uint64_t seed) {
  if (output >= producer.outputs.size())
    throw Error("output " + std::to_string(output) + " of " + producer.op +
                    " was not recorded in the trace (re-capture it with "
                    "scripts/capture-model-trace.py)",
                ErrorContext{producer.where, "", {}, {}, {}});
  std::mt19937_64 rng(seed * 7919 + 0x51ed27ull * (output + 1));
  return Value::of_tensor(spec_tensor(producer.outputs[output], rng));
}

std::vector<Value> replay_trace_host(const std::vector<AtenCall> &calls, uint64_t seed,
                                     const std::function<Value(const Call &)> &run) {
  TraceInputs inputs(seed);
  std::vector<Value> outs;
  std::vector<std::vector<Value>> flat;
  std::function<Value(const json &, std::mt19937_64 &)> arg = [&](const json &spec,
                                                                  std::mt19937_64 &rng) -> Value {
    if (spec_is_output_ref(spec)) {
      size_t k = spec["from"][0].get<size_t>(), j = spec["from"][1].get<size_t>();
      if (k < flat.size() && j < flat[k].size()) return flat[k][j];
      return substitute_output(calls.at(k), j, seed);
    }
    if (spec_is_input_ref(spec)) return inputs.get(spec);
    if (spec.is_array()) {
      std::vector<Value> items;
      for (const auto &e : spec) items.push_back(arg(e, rng));
      return Value::of_list(std::move(items));
    }
    return call_spec_value(spec, rng);
  };
  for (size_t i = 0; i < calls.size(); ++i) {
    std::mt19937_64 rng(seed * 1000003 + i);
    Call c;
    c.overload = calls[i].op;
    c.index = int64_t(i);
    for (const auto &a : calls[i].args) c.args.push_back(arg(a, rng));
    for (auto it = calls[i].kwargs.begin(); it != calls[i].kwargs.end(); ++it)
      c.kwargs.emplace_back(it.key(), arg(it.value(), rng));
    Value out;
    try {
      out = run(c);
    } catch (const std::exception &e) {
      throw Error("call " + std::to_string(i) + " (" + c.overload + "): " + e.what(),
                  ErrorContext{calls[i].where, "", {}, {}, {}});
    }
    flat.emplace_back();
    flatten_tensors(out, flat.back());
    outs.push_back(std::move(out));
  }
  return outs;
}

}  // namespace opforge::harness
