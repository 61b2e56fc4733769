//===- triage_verify.cpp - `opforge triage --verify`: measure each suggestion ===//
//
// Reruns a point of a results file as it was run (the scenario document
// stored in /meta, the point's workload and settings) once as a baseline and
// once per suggested config change (the point's settings followed by the
// change), each in a fresh child process of the shared process pool, and
// ranks the changes by measured speedup.
//
//===----------------------------------------------------------------------===//
#include <unistd.h>

#include <algorithm>
#include <sstream>
#include <thread>

#include "opforge/harness/results.h"
#include "opforge/harness/runner.h"
#include "opforge/support/error.h"
#include "opforge/support/h5store.h"
#include "opforge/support/process_pool.h"

namespace opforge::harness {
namespace fs = std::filesystem;

namespace {

// Removes the reruns' scratch directory however verify_changes ends.
struct ScratchDir {
  fs::path path;
  ~ScratchDir() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
};

}  // namespace

VerifyResult verify_changes(const fs::path &results, size_t point,
                            const std::vector<ConfigChange> &changes, unsigned jobs) {
  nlohmann::json doc;
  std::string file;
  {
    h5::File f = h5::File::open(results);
    if (!f.exists("/meta"))
      throw Error("not a sweep results file (no /meta)",
                  ErrorContext{results.string(), "/meta", {}, {}, {}});
    doc = f.attr_json("/meta", "scenario");
    file = f.attr_string("/meta", "scenario_file");
  }
  // Relative paths in the scenario resolve against its file's folder.
  std::string base = file.empty() ? fs::current_path().string()
                                  : fs::absolute(fs::path(file)).parent_path().string();
  Scenario s = parse_scenario(doc, file, base);
  std::vector<SweepPoint> points = expand_sweep(s);
  if (point >= points.size())
    throw Error("no point " + std::to_string(point) + " (the sweep has " +
                    std::to_string(points.size()) + " points: 0.." +
                    std::to_string(points.size() - 1) + ")",
                ErrorContext{results.string(), "/points", {}, {}, {}});
  const SweepPoint base_point = points[point];

  ScratchDir scratch{fs::temp_directory_path() / ("opforge-triage-" + std::to_string(::getpid()) +
                                                  "-" + std::to_string(point))};
  fs::create_directories(scratch.path);

  // Task 0: the baseline; task i: changes[i - 1].
  auto body = [&](size_t task) -> std::string {
    SweepPoint p = base_point;
    if (task > 0)
      for (const auto &kv : changes[task - 1].settings) p.settings.push_back(kv);
    fs::path dir = scratch.path / ("run-" + std::to_string(task));
    fs::create_directories(dir);
    PointResult r = run_point(s, p, dir / "shard.h5");
    std::string reason = r.reason;
    std::replace(reason.begin(), reason.end(), '\n', ' ');
    return r.status + "\n" + std::to_string(r.cycles) + "\n" + reason;
  };
  ProcessPoolOptions pool;
  pool.workers = jobs ? jobs : std::max(1u, std::thread::hardware_concurrency());
  pool.task_timeout_s = s.timeout_s;
  std::vector<TaskOutcome> out = run_in_processes(changes.size() + 1, body, pool);

  auto verified = [&](size_t task) {
    VerifiedChange v;
    if (task > 0) v.change = changes[task - 1];
    const TaskOutcome &o = out[task];
    if (!o.ok()) {
      v.status = std::string(task_status_name(o.status));
      v.reason = o.reason;
      return v;
    }
    std::istringstream in(o.output);
    std::string cycles;
    std::getline(in, v.status);
    std::getline(in, cycles);
    std::getline(in, v.reason);
    v.cycles = std::strtoull(cycles.c_str(), nullptr, 10);
    return v;
  };
  VerifyResult res;
  res.baseline = verified(0);
  res.baseline.speedup = res.baseline.status == "ok" && res.baseline.cycles ? 1.0 : 0.0;
  for (size_t i = 1; i <= changes.size(); ++i) {
    VerifiedChange v = verified(i);
    if (v.status == "ok" && v.cycles && res.baseline.speedup > 0)
      v.speedup = double(res.baseline.cycles) / double(v.cycles);
    res.ranked.push_back(std::move(v));
  }
  std::stable_sort(
      res.ranked.begin(), res.ranked.end(),
      [](const VerifiedChange &a, const VerifiedChange &b) { return a.speedup > b.speedup; });
  return res;
}

}  // namespace opforge::harness
