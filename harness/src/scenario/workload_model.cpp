//===- workload_model.cpp - scenario workloads of kind "model" -------------===//
//
// A model workload runs one of the models of python/opforge/models.py on the opforge
// PyTorch device at every sweep point (docs/scenarios.md, "Model workloads"):
//
//   {"kind": "model", "model": "resnet18", "dtype": "float32", "train": false,
//    "shape": {"batch": 2, "image": 32}, "library": "DIR", "name": "..."}
//
//===----------------------------------------------------------------------===//
#include <algorithm>
#include <filesystem>
#include <set>

#include "opforge/support/error.h"
#include "workload_parse.h"

namespace opforge::harness::detail {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

[[noreturn]] void fail(const std::string &file, const std::string &path, const std::string &msg) {
  throw Error(msg, ErrorContext{file, path.empty() ? "/" : path, {}, {}, {}});
}

std::string str(const json &v, const std::string &file, const std::string &path) {
  if (!v.is_string()) fail(file, path, "expected a string");
  return v.get<std::string>();
}

}  // namespace

const std::vector<std::string> &model_workload_names() {
  static const std::vector<std::string> names = {"resnet18", "mobilenet_v3_small", "gpt2", "dlrm"};
  return names;
}

Workload parse_model_workload(const json &w, const std::string &file, const std::string &path,
                              const std::string &base_dir) {
  static const std::set<std::string> fields = {"name",  "kind",  "model",  "dtype",
                                               "train", "shape", "library"};
  static const std::set<std::string> shape_fields = {"batch", "image", "seq",    "vocab",
                                                     "d",     "heads", "layers", "bag"};
  for (auto it = w.begin(); it != w.end(); ++it)
    if (!fields.count(it.key()))
      fail(file, path + "/" + it.key(), "unknown field '" + it.key() + "' of a model workload");
  Workload out;
  out.kind = Workload::Kind::Model;
  if (!w.contains("model")) fail(file, path + "/model", "missing required field 'model'");
  out.model = str(w["model"], file, path + "/model");
  const auto &names = model_workload_names();
  if (std::find(names.begin(), names.end(), out.model) == names.end()) {
    std::string all;
    for (const auto &n : names) all += (all.empty() ? "" : ", ") + n;
    fail(file, path + "/model", "unknown model '" + out.model + "' (one of " + all + ")");
  }
  std::string dtype = w.contains("dtype") ? str(w["dtype"], file, path + "/dtype") : "float32";
  if (dtype != "float32" && dtype != "bfloat16" && dtype != "float16")
    fail(file, path + "/dtype", "expected float32, bfloat16 or float16, not '" + dtype + "'");
  out.dtypes = {dtype};
  if (w.contains("train")) {
    if (!w["train"].is_boolean()) fail(file, path + "/train", "expected true or false");
    out.train = w["train"].get<bool>();
  }
  out.model_shape = json::object();
  if (w.contains("shape")) {
    const json &s = w["shape"];
    if (!s.is_object()) fail(file, path + "/shape", "expected an object of sizes");
    for (auto it = s.begin(); it != s.end(); ++it) {
      std::string q = path + "/shape/" + it.key();
      if (!shape_fields.count(it.key())) fail(file, q, "unknown size '" + it.key() + "'");
      if (!it.value().is_number_unsigned() || it.value().get<uint64_t>() == 0)
        fail(file, q, "expected a positive integer");
      out.model_shape[it.key()] = it.value();
    }
  }
  if (w.contains("library")) {
    fs::path p = str(w["library"], file, path + "/library");
    if (p.is_relative()) p = fs::path(base_dir) / p;
    if (!fs::is_directory(p))
      fail(file, path + "/library", "kernel library directory not found: " + p.string());
    out.library = fs::absolute(p).lexically_normal().string();
  }
  out.name = w.contains("name") ? str(w["name"], file, path + "/name")
                                : out.model + "-" + dtype + (out.train ? "-train" : "");
  return out;
}

}  // namespace opforge::harness::detail
