//===- bench_sweep.cpp - sweep runner throughput and overhead per point ---===//
//
// usage: bench_sweep [SCENARIO.json] [--max-jobs N]
// Runs the scenario (default scenarios/pe_grid_sweep.json) with `opforge
// sweep --jobs 1` and `--jobs 2` (up to --max-jobs) into temporary files and
// prints points per minute, the speedup of each job count over one job, and
// the runner's overhead per point: the wall time of the one-job run minus the
// simulation time the points report (host_seconds), divided by the points.
// That overhead is everything but simulating: process start, SystemC
// elaboration, assembling the workload, shard writing and the final merge.
//
//===----------------------------------------------------------------------===//
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include "opforge/support/h5store.h"

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

namespace {

struct Run {
  double wall_s = 0, sim_s = 0;
  size_t points = 0, ok = 0;
};

Run run(const std::string &scenario, unsigned jobs, const fs::path &dir) {
  fs::path out = dir / ("jobs" + std::to_string(jobs) + ".h5");
  std::string cmd = std::string(OPFORGE_EXE) + " sweep " + scenario + " --quiet --jobs " +
                    std::to_string(jobs) + " --out " + out.string() + " >/dev/null 2>" +
                    (dir / "stderr").string();
  auto t0 = Clock::now();
  int st = std::system(cmd.c_str());
  Run r;
  r.wall_s = std::chrono::duration<double>(Clock::now() - t0).count();
  if (!WIFEXITED(st) || WEXITSTATUS(st) > 1) {
    std::fprintf(stderr, "bench_sweep: `%s` failed\n", cmd.c_str());
    std::exit(1);
  }
  auto f = opforge::h5::File::open(out);
  auto secs = f.read_double_column("/summary", "host_seconds");
  auto status = f.read_string_column("/summary", "status");
  r.points = secs.size();
  for (double s : secs) r.sim_s += s;
  for (const auto &s : status) r.ok += s == "ok";
  return r;
}

}  // namespace

int bench_main(int argc, char **argv) {
  std::string scenario = std::string(OPFORGE_SOURCE_DIR) + "/scenarios/pe_grid_sweep.json";
  unsigned max_jobs = 2;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "-h" || a == "--help") {
      std::printf("usage: bench_sweep [SCENARIO.json] [--max-jobs N]\n");
      return 0;
    } else if (a == "--max-jobs" && i + 1 < argc) {
      max_jobs = unsigned(std::max(1, std::atoi(argv[++i])));
    } else if (a.rfind("-", 0) == 0) {
      std::fprintf(stderr, "bench_sweep: unknown option '%s'\n", a.c_str());
      return 2;
    } else {
      scenario = a;
    }
  }
  if (!fs::exists(scenario)) {
    std::fprintf(stderr, "bench_sweep: %s: no such scenario file\n", scenario.c_str());
    return 2;
  }
  fs::path dir = fs::temp_directory_path() / ("bench-sweep-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  std::printf("sweep runner on %s (%u cores)\n", fs::path(scenario).filename().c_str(),
              std::thread::hardware_concurrency());
  std::printf("%-6s %7s %5s %9s %11s %9s %14s\n", "jobs", "points", "ok", "wall_s", "points/min",
              "speedup", "sim_s(total)");
  Run one;
  std::vector<unsigned> counts;
  for (unsigned j = 1; j < max_jobs; j *= 2) counts.push_back(j);
  counts.push_back(max_jobs);
  for (unsigned j : counts) {
    Run r = run(scenario, j, dir);
    if (j == 1) one = r;
    std::printf("%-6u %7zu %5zu %9.2f %11.1f %8.2fx %14.2f\n", j, r.points, r.ok, r.wall_s,
                60.0 * double(r.points) / r.wall_s, one.wall_s / r.wall_s, r.sim_s);
  }
  double overhead = (one.wall_s - one.sim_s) / double(std::max<size_t>(one.points, 1));
  std::printf(
      "runner overhead per point (jobs 1): %.3f s  (wall %.2f s - simulation %.2f s) / %zu "
      "points; target <= 0.5 s\n",
      overhead, one.wall_s, one.sim_s, one.points);
  fs::remove_all(dir);
  return 0;
}

int main(int argc, char **argv) {
  try {
    return bench_main(argc, argv);
  } catch (const std::exception &e) {
    std::fprintf(stderr, "bench_sweep: %s\n", e.what());
    return 1;
  }
}
