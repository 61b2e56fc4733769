//===- model_point.cpp - runs a model workload's point (python -m opforge.point) ===//
//
// A model workload (docs/scenarios.md) runs a model of python/opforge/models.py on the
// opforge PyTorch device. The point's process starts the project's Python on
// python/opforge/point.py with the point's resolved architecture (a JSON file in its work
// directory), which runs the model on the device and on the CPU and saves the device pass's
// profile as a one-point results file; that point becomes this point's result (ops per ATen
// call, cycles, instructions, counters, program instances), with status ok only when the
// output matched the CPU's.
//
//===----------------------------------------------------------------------===//
#include "model_point.h"

#include <filesystem>
#include <fstream>
#include <vector>

#include "capture.h"
#include "opforge/support/error.h"
#include "opforge/support/python.h"

namespace opforge::harness::detail {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

// The last `n` non-empty lines of `s`, joined with " | ".
std::string last_lines(const std::string &s, size_t n) {
  std::vector<std::string> lines;
  size_t start = 0;
  while (start < s.size()) {
    size_t end = s.find('\n', start);
    if (end == std::string::npos) end = s.size();
    if (end > start) lines.push_back(s.substr(start, end - start));
    start = end + 1;
  }
  std::string out;
  for (size_t i = lines.size() > n ? lines.size() - n : 0; i < lines.size(); ++i)
    out += (out.empty() ? "" : " | ") + lines[i];
  return out;
}

}  // namespace

void run_model_workload(const Scenario &s, const Workload &w, const model::ChipParams &params,
                        PointResult &r, const fs::path &work) {
  fs::create_directories(work);
  const fs::path arch = work / "arch.json", out = work / "profile.h5";
  std::ofstream(arch) << params.arch.to_json().dump(1) << "\n";
  std::vector<std::string> argv = {"env",
                                   "PYTHONPATH=" + std::string(OPFORGE_SOURCE_DIR) + "/python",
                                   project_python(),
                                   "-m",
                                   "opforge.point",
                                   "--model",
                                   w.model,
                                   "--dtype",
                                   w.dtypes.empty() ? "float32" : w.dtypes[0],
                                   "--shape",
                                   w.model_shape.is_null() ? "{}" : w.model_shape.dump(),
                                   "--arch",
                                   arch.string(),
                                   "--timing",
                                   s.timing.empty() ? "lt" : s.timing,
                                   "--out",
                                   out.string()};
  if (w.train) argv.push_back("--train");
  if (!w.library.empty()) argv.insert(argv.end(), {"--library", w.library});
  std::string log;
  int rc = capture(argv, log);
  json summary;
  size_t line = log.rfind("{\"match\"");
  if (line != std::string::npos)
    summary = json::parse(log.substr(line, log.find('\n', line) - line), nullptr, false);
  if (rc != 0 || !summary.is_object() || !fs::exists(out)) {
    r.status = "failed";
    r.reason = "model " + w.model + ": python -m opforge.point exited " + std::to_string(rc) +
               ": " + last_lines(log, 3);
    return;
  }
  PointResult got = read_result_point(out, 0);
  r.cycles = got.cycles;
  r.instructions = got.instructions;
  r.host_seconds = got.host_seconds;
  r.counters = std::move(got.counters);
  r.ops = std::move(got.ops);
  r.instances = std::move(got.instances);
  for (auto &in : r.instances) in.kernel = in.kernel.empty() ? w.name : in.kernel;
  bool match = summary.value("match", false);
  r.status = match ? "ok" : "failed";
  r.reason = match ? ""
                   : "model " + w.model + " output differs from the CPU's (max error " +
                         std::to_string(summary.value("max_error", 0.0)) + ")";
}

}  // namespace opforge::harness::detail
