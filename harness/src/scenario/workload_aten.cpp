//===- workload_aten.cpp - aten, corpus and trace workloads of scenarios --===//
#include <filesystem>
#include <fstream>
#include <set>

#include "opforge/support/dtype.h"
#include "opforge/support/error.h"
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
    only(spec, file, path, {"shape", "dtype", "low", "high"});
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
    return;
  }
  fail(file, path,
       "expected a number, boolean, null, string, list, {\"shape\": [...], \"dtype\": D} or "
       "{\"dtype_value\": D}");
}

std::vector<AtenCall> read_trace_file(const std::string &trace_path) {
  std::ifstream in(trace_path);
  if (!in) throw Error("cannot open trace file", ErrorContext{trace_path, "", {}, {}, {}});
  json doc;
  try {
    doc = json::parse(in);
  } catch (const json::parse_error &e) {
    throw Error(std::string("malformed JSON: ") + e.what(),
                ErrorContext{trace_path, "", {}, {}, {}});
  }
  only(doc, trace_path, "", {"model", "description", "torch_version", "calls"});
  if (!doc.contains("calls") || !doc["calls"].is_array() || doc["calls"].empty())
    fail(trace_path, "/calls", "expected a non-empty list of calls");
  std::vector<AtenCall> calls;
  for (size_t i = 0; i < doc["calls"].size(); ++i) {
    const json &c = doc["calls"][i];
    std::string p = "/calls/" + std::to_string(i);
    only(c, trace_path, p, {"op", "args", "kwargs"});
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
    call.where = trace_path + ": " + p;
    calls.push_back(std::move(call));
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
         {"name", "kind", "op", "shapes", "dtypes", "args", "kwargs", "verify", "library", "seed"});
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
    call.where = file + ": " + path;
    out.name = w.contains("name") ? str(w["name"], file, path + "/name") : call.op.substr(6);
    out.calls.push_back(std::move(call));
    common();
    return out;
  }
  if (kind == "corpus") {
    only(w, file, path, {"name", "kind", "path", "ops", "dtypes", "max_calls", "library"});
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
  only(w, file, path, {"name", "kind", "path", "verify", "library", "seed"});
  out.kind = Workload::Kind::Trace;
  if (!w.contains("path")) fail(file, path + "/path", "missing required field 'path'");
  out.path = resolve(str(w["path"], file, path + "/path"), base_dir).string();
  if (!fs::exists(out.path)) fail(file, path + "/path", "trace file not found: " + out.path);
  out.calls = read_trace_file(out.path);
  out.name = w.contains("name") ? str(w["name"], file, path + "/name")
                                : fs::path(out.path).stem().string();
  common();
  return out;
}

}  // namespace opforge::harness::detail
