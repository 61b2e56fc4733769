//===- workload_aten.cpp - aten, corpus and trace workloads of scenarios --===//
#include <filesystem>
#include <fstream>
#include <functional>
#include <set>

#include "opforge/support/dtype.h"
#include "opforge/support/config.h"
#include "opforge/support/error.h"
#include "opforge/harness/inductor_kernels.h"
#include "workload_parse.h"

namespace opforge::harness::detail {
namespace fs = std::filesystem;
using nlohmann::json;

namespace {

[[noreturn]] void fail(const std::string &file, const std::string &path, const std::string &msg) {
  throw Error(msg, ErrorContext{file, path.empty() ? "/" : path, {}, {}, {}});
}

void only(const json &obj, const std::string &file, const std::string &path,
          const std::set<std::string> &allowed) {
  if (!obj.is_object()) fail(file, path, "expected an object");
  for (auto it = obj.begin(); it != obj.end(); ++it)
    if (!allowed.count(it.key()))
      fail(file, path + "/" + it.key(), "unknown field '" + it.key() + "'");
}

std::string str(const json &v, const std::string &file, const std::string &path) {
  if (!v.is_string()) fail(file, path, "expected a string");
  return v.get<std::string>();
}

void check_dtype(const json &v, const std::string &file, const std::string &path) {
  std::string d = str(v, file, path);
  if (!parse_dtype(d)) fail(file, path, "unknown dtype '" + d + "'");
}

std::string normalize_op(std::string op) { return op.rfind("aten::", 0) == 0 ? op : "aten::" + op; }

fs::path resolve(const std::string &p, const std::string &base_dir) {
  fs::path q = p;
  if (q.is_relative()) q = fs::path(base_dir) / q;
  return fs::absolute(q).lexically_normal();
}

// The shorthand "shapes"/"dtypes" lists become leading tensor specs.
json tensor_specs(const json &w, const std::string &file, const std::string &path) {
  json out = json::array();
  if (!w.contains("shapes")) return out;
  const json &shapes = w["shapes"];
  if (!shapes.is_array()) fail(file, path + "/shapes", "expected a list of shapes");
  json dtypes = w.contains("dtypes") ? w["dtypes"] : json::array({"float32"});
  if (!dtypes.is_array() || dtypes.empty())
    fail(file, path + "/dtypes", "expected a non-empty list of dtypes");
  if (dtypes.size() != 1 && dtypes.size() != shapes.size())
    fail(file, path + "/dtypes",
         "give one dtype for all shapes or one per shape (" + std::to_string(shapes.size()) + ")");
  for (size_t i = 0; i < shapes.size(); ++i)
    out.push_back({{"shape", shapes[i]}, {"dtype", dtypes.size() == 1 ? dtypes[0] : dtypes[i]}});
  return out;
}

}  // namespace

void check_call_spec(const json &spec, const std::string &file, const std::string &path) {
  if (spec.is_null() || spec.is_boolean() || spec.is_number() || spec.is_string()) return;
  if (spec.is_array()) {
    for (size_t i = 0; i < spec.size(); ++i)
      check_call_spec(spec[i], file, path + "/" + std::to_string(i));
    return;
  }
  if (spec.is_object() && spec.contains("float")) {
    only(spec, file, path, {"float"});
    std::string f = spec["float"].is_string() ? spec["float"].get<std::string>() : "";
    if (f != "inf" && f != "-inf" && f != "nan")
      fail(file, path + "/float", "expected \"inf\", \"-inf\" or \"nan\"");
    return;
  }
  if (spec.is_object() && spec.contains("dtype_value")) {
    only(spec, file, path, {"dtype_value"});
    check_dtype(spec["dtype_value"], file, path + "/dtype_value");
    return;
  }
  if (spec.is_object() && spec.contains("shape")) {
    only(spec, file, path, {"shape", "dtype", "low", "high", "from", "input", "values"});
    const json &shape = spec["shape"];
    if (!shape.is_array()) fail(file, path + "/shape", "expected a list of sizes");
    int64_t numel = 1;
    for (size_t i = 0; i < shape.size(); ++i) {
      if (!shape[i].is_number_integer() || shape[i].get<int64_t>() < 0)
        fail(file, path + "/shape/" + std::to_string(i), "expected a non-negative integer size");
      numel *= shape[i].get<int64_t>();
      if (numel > (int64_t(1) << 28))
        fail(file, path + "/shape", "tensor larger than 2^28 elements");
    }
    if (!spec.contains("dtype")) fail(file, path + "/dtype", "missing required field 'dtype'");
    check_dtype(spec["dtype"], file, path + "/dtype");
    for (const char *k : {"low", "high"})
      if (spec.contains(k) && !spec[k].is_number()) fail(file, path + "/" + k, "expected a number");
    if (spec.contains("from") && spec.contains("input"))
      fail(file, path, "a tensor comes either 'from' an earlier call or is an 'input', not both");
    if (spec.contains("from")) {
      const json &f = spec["from"];
      if (!f.is_array() || f.size() != 2 || !f[0].is_number_unsigned() ||
          !f[1].is_number_unsigned())
        fail(file, path + "/from", "expected [call, output] (non-negative integers)");
    }
    if (spec.contains("input") && !spec["input"].is_number_unsigned())
      fail(file, path + "/input", "expected a non-negative input number");
    if (spec.contains("values")) {
      const json &v = spec["values"];
      if (!v.is_array() || int64_t(v.size()) != numel)
        fail(file, path + "/values",
             "expected a list of " + std::to_string(numel) + " numbers (the tensor's elements)");
      for (size_t i = 0; i < v.size(); ++i)
        if (!v[i].is_number())
          fail(file, path + "/values/" + std::to_string(i), "expected a number");
    }
    return;
  }
  fail(file, path,
       "expected a number, boolean, null, string, list, {\"shape\": [...], \"dtype\": D} or "
       "{\"dtype_value\": D}");
}

std::vector<AtenCall> read_trace_file(const std::string &trace_path) {
  if (!std::ifstream(trace_path))
    throw Error("cannot open trace file", ErrorContext{trace_path, "", {}, {}, {}});
  json doc = load_json_file(trace_path);
  only(doc, trace_path, "", {"model", "description", "params", "torch_version", "calls"});
  if (!doc.contains("calls") || !doc["calls"].is_array() || doc["calls"].empty())
    fail(trace_path, "/calls", "expected a non-empty list of calls");
  std::vector<AtenCall> calls;
  for (size_t i = 0; i < doc["calls"].size(); ++i) {
    const json &c = doc["calls"][i];
    std::string p = "/calls/" + std::to_string(i);
    only(c, trace_path, p, {"op", "args", "kwargs", "outputs"});
    if (!c.contains("op")) fail(trace_path, p + "/op", "missing required field 'op'");
    AtenCall call;
    call.op = normalize_op(str(c["op"], trace_path, p + "/op"));
    call.args = c.value("args", json::array());
    call.kwargs = c.value("kwargs", json::object());
    if (!call.args.is_array()) fail(trace_path, p + "/args", "expected a list");
    if (!call.kwargs.is_object()) fail(trace_path, p + "/kwargs", "expected an object");
    check_call_spec(call.args, trace_path, p + "/args");
    for (auto it = call.kwargs.begin(); it != call.kwargs.end(); ++it)
      check_call_spec(it.value(), trace_path, p + "/kwargs/" + it.key());
    call.outputs = c.value("outputs", json::array());
    if (!call.outputs.is_array()) fail(trace_path, p + "/outputs", "expected a list");
    for (size_t j = 0; j < call.outputs.size(); ++j) {
      std::string q = p + "/outputs/" + std::to_string(j);
      if (!call.outputs[j].is_object() || !call.outputs[j].contains("shape"))
        fail(trace_path, q, "expected {\"shape\": [...], \"dtype\": D}");
      check_call_spec(call.outputs[j], trace_path, q);
    }
    call.where = trace_path + ": " + p;
    calls.push_back(std::move(call));
  }
  // Chained tensors name an earlier call and one of its outputs.
  std::function<void(const json &, const std::string &, size_t)> refs =
      [&](const json &spec, const std::string &q, size_t i) {
        if (spec.is_array()) {
          for (size_t k = 0; k < spec.size(); ++k) refs(spec[k], q + "/" + std::to_string(k), i);
        } else if (spec.is_object() && spec.contains("from")) {
          size_t k = spec["from"][0].get<size_t>(), j = spec["from"][1].get<size_t>();
          if (k >= i)
            fail(trace_path, q + "/from",
                 "call " + std::to_string(k) + " is not an earlier call than " + std::to_string(i));
          if (!calls[k].outputs.empty() && j >= calls[k].outputs.size())
            fail(trace_path, q + "/from",
                 "call " + std::to_string(k) + " has " + std::to_string(calls[k].outputs.size()) +
                     " outputs, not " + std::to_string(j + 1));
        }
      };
  for (size_t i = 0; i < calls.size(); ++i) {
    std::string p = "/calls/" + std::to_string(i);
    refs(calls[i].args, p + "/args", i);
    for (auto it = calls[i].kwargs.begin(); it != calls[i].kwargs.end(); ++it)
      refs(it.value(), p + "/kwargs/" + it.key(), i);
  }
  return calls;
}

Workload parse_aten_family_workload(const json &w, const std::string &file, const std::string &path,
                                    const std::string &base_dir) {
  Workload out;
  std::string kind = str(w.at("kind"), file, path + "/kind");
  auto common = [&] {
    if (w.contains("library"))
      out.library = resolve(str(w["library"], file, path + "/library"), base_dir).string();
    if (!out.library.empty() && !fs::is_directory(out.library))
      fail(file, path + "/library", "kernel library directory not found: " + out.library);
    if (w.contains("extra_libraries")) {
      const json &x = w["extra_libraries"];
      if (!x.is_array()) fail(file, path + "/extra_libraries", "expected a list of directories");
      for (size_t i = 0; i < x.size(); ++i) {
        std::string q = path + "/extra_libraries/" + std::to_string(i);
        std::string d = resolve(str(x[i], file, q), base_dir).string();
        if (!fs::is_directory(d)) fail(file, q, "kernel library directory not found: " + d);
        out.extra_libraries.push_back(d);
      }
    }
    // A kernel set rendered from the inductor lowering table, searched after extra_libraries.
    if (w.contains("inductor_kernels")) {
      std::string q = path + "/inductor_kernels";
      std::string m = resolve(str(w["inductor_kernels"], file, q), base_dir).string();
      if (!fs::is_regular_file(m)) fail(file, q, "kernel set manifest not found: " + m);
      out.extra_libraries.push_back(rendered_inductor_kernel_dir(m));
    }
    if (w.contains("verify")) {
      if (!w["verify"].is_boolean()) fail(file, path + "/verify", "expected true or false");
      out.verify = w["verify"].get<bool>();
    }
    if (w.contains("seed")) {
      if (!w["seed"].is_number_unsigned()) fail(file, path + "/seed", "expected an integer");
      out.seed = w["seed"].get<uint64_t>();
    }
  };
  if (kind == "aten") {
    only(w, file, path,
         {"name", "kind", "op", "shapes", "dtypes", "args", "kwargs", "verify", "library",
          "extra_libraries", "inductor_kernels", "seed"});
    out.kind = Workload::Kind::Aten;
    if (!w.contains("op")) fail(file, path + "/op", "missing required field 'op'");
    AtenCall call;
    call.op = normalize_op(str(w["op"], file, path + "/op"));
    call.args = tensor_specs(w, file, path);
    if (w.contains("args")) {
      if (!w["args"].is_array()) fail(file, path + "/args", "expected a list of call specs");
      for (const auto &a : w["args"]) call.args.push_back(a);
    }
    call.kwargs = w.value("kwargs", json::object());
    if (!call.kwargs.is_object()) fail(file, path + "/kwargs", "expected an object");
    check_call_spec(call.args, file, path + "/args");
    for (auto it = call.kwargs.begin(); it != call.kwargs.end(); ++it)
      check_call_spec(it.value(), file, path + "/kwargs/" + it.key());
    std::function<void(const json &, const std::string &)> no_from = [&](const json &a,
                                                                         const std::string &q) {
      if (a.is_object() && a.contains("from"))
        fail(file, q + "/from", "only calls of a trace take an earlier call's output");
      if (a.is_array())
        for (size_t k = 0; k < a.size(); ++k) no_from(a[k], q + "/" + std::to_string(k));
    };
    no_from(call.args, path + "/args");
    call.where = file + ": " + path;
    out.name = w.contains("name") ? str(w["name"], file, path + "/name") : call.op.substr(6);
    out.calls.push_back(std::move(call));
    common();
    return out;
  }
  if (kind == "corpus") {
    only(w, file, path,
         {"name", "kind", "path", "ops", "dtypes", "max_calls", "library", "extra_libraries",
          "inductor_kernels"});
    out.kind = Workload::Kind::Corpus;
    out.path =
        resolve(w.contains("path") ? str(w["path"], file, path + "/path") : "", base_dir).string();
    if (!w.contains("path")) out.path = "";  // the default corpus, found when the point runs
    if (!w.contains("ops") || !w["ops"].is_array() || w["ops"].empty())
      fail(file, path + "/ops", "expected a non-empty list of overloads (\"aten::exp\")");
    for (size_t i = 0; i < w["ops"].size(); ++i)
      out.overloads.push_back(
          normalize_op(str(w["ops"][i], file, path + "/ops/" + std::to_string(i))));
    if (w.contains("dtypes")) {
      if (!w["dtypes"].is_array()) fail(file, path + "/dtypes", "expected a list of dtypes");
      for (size_t i = 0; i < w["dtypes"].size(); ++i) {
        check_dtype(w["dtypes"][i], file, path + "/dtypes/" + std::to_string(i));
        out.dtypes.push_back(w["dtypes"][i].get<std::string>());
      }
    }
    if (w.contains("max_calls")) {
      if (!w["max_calls"].is_number_unsigned() || w["max_calls"].get<uint64_t>() == 0)
        fail(file, path + "/max_calls", "expected a positive integer");
      out.max_calls = w["max_calls"].get<uint64_t>();
    }
    out.name = w.contains("name") ? str(w["name"], file, path + "/name") : "corpus";
    common();
    return out;
  }
  // trace
  only(w, file, path,
       {"name", "kind", "path", "params", "verify", "library", "extra_libraries",
        "inductor_kernels", "seed"});
  out.kind = Workload::Kind::Trace;
  if (!w.contains("path")) fail(file, path + "/path", "missing required field 'path'");
  out.path = resolve(str(w["path"], file, path + "/path"), base_dir).string();
  if (!fs::exists(out.path)) fail(file, path + "/path", "trace file not found: " + out.path);
  const std::string named = out.path;
  // "params": the trace's model at other sizes (captured on demand, cached).
  if (w.contains("params"))
    out.path = trace_at_params(out.path, w["params"], file, path + "/params");
  out.calls = read_trace_file(out.path);
  out.name =
      w.contains("name") ? str(w["name"], file, path + "/name") : fs::path(named).stem().string();
  common();
  return out;
}

}  // namespace opforge::harness::detail
