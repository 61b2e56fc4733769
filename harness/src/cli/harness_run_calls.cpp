//===- harness_run_calls.cpp - `opforge run-calls`: many wrapper calls from a file, outputs back
//===//
//
// A batch form of `opforge run` for differential tests against other Triton
// implementations (tests/compiler/triton_interp_diff.py runs the same calls
// through real Triton's interpreter): one process, one executor kind, every
// call of a JSON-lines file, each call's outputs and arguments-after written as
// one JSON line (flushed, so a process that dies leaves the lines of the calls
// before it).
//
//===----------------------------------------------------------------------===//
#include <chrono>
#include <cmath>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "opforge/compiler/diagnostics.h"
#include "opforge/compiler/executor.h"
#include "opforge/compiler/parser.h"
#include "opforge/harness/cli.h"
#include "opforge/harness/validate.h"
#include "opforge/harness/value_json.h"
#include "opforge/support/config.h"
#include "opforge/support/error.h"
#include "options.h"

namespace opforge::cli {
namespace {

using nlohmann::json;

constexpr const char *kUsage =
    "usage: opforge run-calls CALLS.jsonl --out RESULTS.jsonl [--executor interp|chip]\n"
    "                         [--arch tiny|mtia-2i|FILE] [--set K=V]... [--timing "
    "functional|lt]\n\n"
    "Runs every wrapper call of CALLS.jsonl (one JSON object a line) on one executor and writes\n"
    "one JSON line per call to RESULTS.jsonl, in order, flushed after each call. A call:\n"
    "  {\"file\": \"k.py\", \"wrapper\": \"add_Tensor\", \"args\": [V...], \"kwargs\": {\"alpha\": "
    "V},\n"
    "   \"tensors\": [T...]}\n"
    "A result: {\"out\": V, \"args_after\": [V...], \"kwargs_after\": {...}, \"tensors\": [T...]}\n"
    "or {\"error\": \"one line\"} when the call failed (parse, wrapper or kernel error, trap).\n"
    "Values V use the corpus's call encoding (docs/corpus.md): null, true/false, integers,\n"
    "{\"float\": x|\"nan\"|\"inf\"|\"-inf\"}, {\"str\": s}, {\"dtype\": \"float32\"}, lists, and\n"
    "{\"t\": i} for tensor i of the line's \"tensors\": {\"dtype\", \"sizes\", \"strides\",\n"
    "\"offset\", \"hex\"} (the storage's bytes, little-endian, as hex; results are contiguous).\n"
    "Exit status 0 when every line was processed (per-call errors are results), 1 otherwise.\n";

std::string to_hex(const uint8_t *p, size_t n) {
  static const char *digits = "0123456789abcdef";
  std::string s(2 * n, '0');
  for (size_t i = 0; i < n; ++i) {
    s[2 * i] = digits[p[i] >> 4];
    s[2 * i + 1] = digits[p[i] & 15];
  }
  return s;
}

std::vector<uint8_t> from_hex(const std::string &s) {
  if (s.size() % 2) throw Error("odd-length hex storage");
  auto nibble = [](char c) -> uint8_t {
    if (c >= '0' && c <= '9') return static_cast<uint8_t>(c - '0');
    if (c >= 'a' && c <= 'f') return static_cast<uint8_t>(c - 'a' + 10);
    if (c >= 'A' && c <= 'F') return static_cast<uint8_t>(c - 'A' + 10);
    throw Error(std::string("bad hex digit '") + c + "'");
  };
  std::vector<uint8_t> out(s.size() / 2);
  for (size_t i = 0; i < out.size(); ++i)
    out[i] = static_cast<uint8_t>(nibble(s[2 * i]) << 4 | nibble(s[2 * i + 1]));
  return out;
}

HostTensor decode_tensor(const json &t) {
  auto storage = std::make_shared<std::vector<uint8_t>>(from_hex(t.at("hex").get<std::string>()));
  return HostTensor(
      dtype_from_name(t.at("dtype").get<std::string>()), t.at("sizes").get<std::vector<int64_t>>(),
      t.at("strides").get<std::vector<int64_t>>(), t.at("offset").get<int64_t>(), storage);
}

json encode_value(const harness::Value &v, json &tensors) {
  using K = harness::Value::Kind;
  switch (v.kind) {
    case K::None:
      return nullptr;
    case K::Bool:
      return v.boolean;
    case K::Int:
      return v.integer;
    case K::Double:
      if (std::isnan(v.number)) return {{"float", "nan"}};
      if (std::isinf(v.number)) return {{"float", v.number > 0 ? "inf" : "-inf"}};
      return {{"float", v.number}};
    case K::String:
      return {{"str", v.text}};
    case K::DType:
      return {{"dtype", std::string(dtype_name(v.dtype))}};
    case K::Layout:
      return {{"layout", v.text}};
    case K::MemoryFormat:
      return {{"memory_format", v.text}};
    case K::Device:
      return {{"device", v.text}};
    case K::List: {
      json items = json::array();
      for (const auto &x : v.list) items.push_back(encode_value(x, tensors));
      return items;
    }
    case K::Tensor: {
      HostTensor c = v.tensor.contiguous();
      const size_t bytes = static_cast<size_t>(c.numel()) * static_cast<size_t>(c.element_size());
      tensors.push_back({{"dtype", std::string(dtype_name(c.dtype()))},
                         {"sizes", c.sizes()},
                         {"strides", c.strides()},
                         {"offset", 0},
                         {"hex", bytes ? to_hex(c.element_ptr(0), bytes) : ""}});
      return {{"t", tensors.size() - 1}};
    }
    default:
      throw Error("cannot encode a " + std::string(harness::value_kind_name(v.kind)) + " result");
  }
}

std::string one_line(std::string s) {
  for (auto &c : s)
    if (c == '\n') c = ' ';
  return s;
}

json run_one(const json &call, harness::ExecutorKind kind, const harness::ChipOptions &chip,
             std::map<std::string, std::shared_ptr<compiler::ast::Module>> &modules) {
  const std::string file = call.at("file").get<std::string>();
  const json tensors_json = call.value("tensors", json::array());
  const json args_json = call.value("args", json::array());
  const json kwargs_json = call.value("kwargs", json::object());
  std::vector<HostTensor> tensors;
  for (const auto &t : tensors_json) tensors.push_back(decode_tensor(t));
  std::vector<harness::Value> args;
  const harness::TensorLookup lookup = [&](int64_t t) {
    if (t < 0 || static_cast<size_t>(t) >= tensors.size())
      throw Error("run-calls: tensor reference " + std::to_string(t) + " out of range");
    return harness::Value::of_tensor(tensors[static_cast<size_t>(t)]);
  };
  for (const auto &a : args_json) args.push_back(harness::decode_value(a, lookup, "run-calls"));
  std::vector<std::pair<std::string, harness::Value>> kwargs;
  for (auto it = kwargs_json.begin(); it != kwargs_json.end(); ++it)
    kwargs.emplace_back(it.key(), harness::decode_value(it.value(), lookup, "run-calls"));
  auto &module = modules[file];
  if (!module) module = std::make_shared<compiler::ast::Module>(compiler::parse_file(file));
  std::unique_ptr<compiler::Executor> ex = harness::make_executor(kind, chip);
  harness::WrapperCallResult r =
      harness::run_wrapper_call(*module, call.at("wrapper").get<std::string>(), *ex, args, kwargs);
  json out_tensors = json::array();
  json result;
  result["out"] = encode_value(r.out, out_tensors);
  result["args_after"] = json::array();
  for (const auto &a : r.args_after) result["args_after"].push_back(encode_value(a, out_tensors));
  result["kwargs_after"] = json::object();
  for (const auto &[k, v] : r.kwargs_after)
    result["kwargs_after"][k] = encode_value(v, out_tensors);
  result["tensors"] = out_tensors;
  return result;
}

int run_calls(const std::vector<std::string> &args) {
  std::string in_path, out_path, executor = "interp";
  harness::ChipOptions chip;
  OptionParser p("run-calls", kUsage);
  p.text("out", &out_path)
      .text("executor", &executor)
      .text("arch", &chip.arch)
      .list("set", &chip.sets)
      .text("timing", &chip.timing)
      .positional("CALLS.jsonl", &in_path);
  if (auto rc = p.parse(args)) return *rc;
  if (p.given("timing") && chip.timing != "functional" && chip.timing != "lt")
    return p.error("--timing needs functional or lt, got '" + chip.timing + "'");
  if (in_path.empty()) return usage_error("run-calls", "missing CALLS.jsonl");
  if (out_path.empty()) return usage_error("run-calls", "missing --out RESULTS.jsonl");
  harness::ExecutorKind kind;
  try {
    kind = harness::parse_executor_kind(executor);
  } catch (const Error &e) {
    return usage_error("run-calls", e.message());
  }
  std::ifstream in(in_path);
  if (!in) {
    std::cerr << "opforge run-calls: error: cannot read " << in_path << "\n";
    return kExitFailure;
  }
  std::ofstream out(out_path);
  if (!out) {
    std::cerr << "opforge run-calls: error: cannot write " << out_path << "\n";
    return kExitFailure;
  }
  std::map<std::string, std::shared_ptr<compiler::ast::Module>> modules;
  std::string line;
  int64_t line_no = 0;
  while (std::getline(in, line)) {
    ++line_no;
    if (line.empty()) continue;
    json result;
    const auto start = std::chrono::steady_clock::now();
    try {
      result = run_one(parse_json(line, "line " + std::to_string(line_no)), kind, chip, modules);
    } catch (const compiler::CompileError &e) {
      result = {{"error", one_line(e.rendered())}};
    } catch (const std::exception &e) {
      result = {{"error", one_line(e.what())}};
    }
    result["line"] = line_no;
    result["seconds"] =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    out << result.dump() << "\n" << std::flush;
  }
  return out ? kExitOk : kExitFailure;
}

CommandRegistrar reg{{"run-calls",
                      "run wrapper calls from a JSON-lines file on an executor, outputs to a file",
                      run_calls}};

}  // namespace
}  // namespace opforge::cli
