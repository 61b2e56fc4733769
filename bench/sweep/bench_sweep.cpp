//===- bench_sweep.cpp - sweep throughput and the shipped scenarios' run times ===//
//
// usage: bench_sweep [SCENARIO.json] [--max-jobs N] [--repeat R] [--no-scenarios] [--all]
// 1. Throughput: runs SCENARIO (default scenarios/quickstart.json, eleven
//    quickstart-sized points) with `opforge sweep --jobs 1` and `--jobs 2` (up to
//    --max-jobs) into temporary files and prints points per minute, the speedup
//    over one job (the one-job run --repeat times, default 3, the fastest
//    counted: the machine is shared) and the runner's overhead per point (wall time of the one-job
//    run minus the simulation time the points report, divided by the points:
//    process start, SystemC elaboration, shard writing, the merge). The one-job
//    figure of the quickstart scenario is printed beside the reference of the
//    previous round (kReferencePointsPerMin) as a ratio; below 0.90 is a drop.
// 2. The shipped scenarios (scenarios/*.json, default scenario only): each run
//    once with --jobs 1; wall time, points, ok, simulated cycles. The long ones
//    (kLong, with the reason) are listed and skipped unless --all.
// Exit status 0, 1 when a sweep could not run (a point failing its check is
// the scenario's result, not a bench failure).
//
//===----------------------------------------------------------------------===//
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "opforge/support/h5store.h"

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

namespace {

// Points per minute of quickstart.json at --jobs 1, the previous round (issue 22).
constexpr double kReferencePointsPerMin = 157.0;
constexpr double kAllowedDrop = 0.10;

// Shipped scenarios that take more than a few minutes, with the reason.
const std::map<std::string, std::string> kLong = {
    {"nanogpt",
     "GPT-2-small width (768, 12 heads, 2 layers, 64 tokens): one point of ~25 M "
     "simulated cycles, 4-5 min"},
};

struct Run {
  bool ran = false;
  double wall_s = 0, sim_s = 0, cpu_s = 0;  // cpu_s: user + system time of the sweep's processes
  size_t points = 0, ok = 0;
  uint64_t cycles = 0;
};

Run run(const std::string &scenario, unsigned jobs, const fs::path &out, const fs::path &dir) {
  std::string cmd = std::string(OPFORGE_EXE) + " sweep '" + scenario + "' --quiet --fresh --jobs " +
                    std::to_string(jobs) + " --out '" + out.string() + "' >/dev/null 2>'" +
                    (dir / "stderr").string() + "'";
  auto cpu = [] {
    rusage u{};
    ::getrusage(RUSAGE_CHILDREN, &u);
    return double(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
           1e-6 * double(u.ru_utime.tv_usec + u.ru_stime.tv_usec);
  };
  double c0 = cpu();
  auto t0 = Clock::now();
  int st = std::system(cmd.c_str());
  Run r;
  r.wall_s = std::chrono::duration<double>(Clock::now() - t0).count();
  r.cpu_s = cpu() - c0;
  if (!WIFEXITED(st) || WEXITSTATUS(st) > 1) {
    std::ifstream in(dir / "stderr");
    std::stringstream text;
    text << in.rdbuf();
    std::string err = text.str();
    // The last lines (progress lines end in \r, not \n).
    if (err.size() > 600) err = "..." + err.substr(err.size() - 600);
    std::fprintf(stderr, "bench_sweep: `%s` failed:\n%s\n", cmd.c_str(), err.c_str());
    return r;
  }
  auto f = opforge::h5::File::open(out);
  auto secs = f.read_double_column("/summary", "host_seconds");
  auto status = f.read_string_column("/summary", "status");
  auto cycles = f.read_int_column("/summary", "cycles");
  r.ran = true;
  r.points = secs.size();
  for (double s : secs) r.sim_s += s;
  for (const auto &s : status) r.ok += s == "ok";
  for (int64_t c : cycles) r.cycles += uint64_t(std::max<int64_t>(c, 0));
  return r;
}

// Part 1: points/min of `scenario` at 1 .. max_jobs jobs (the one-job run `repeat` times,
// the fastest counted: the machine is shared); false when a sweep did not run.
bool throughput(const std::string &scenario, unsigned max_jobs, unsigned repeat,
                const fs::path &dir) {
  std::printf("sweep throughput on %s (%u cores)\n", fs::path(scenario).filename().c_str(),
              std::thread::hardware_concurrency());
  std::printf("%-6s %7s %5s %9s %11s %9s %14s %8s\n", "jobs", "points", "ok", "wall_s",
              "points/min", "speedup", "sim_s(total)", "cpu_s");
  Run one;
  std::vector<unsigned> counts;
  for (unsigned j = 1; j < max_jobs; j *= 2) counts.push_back(j);
  counts.push_back(max_jobs);
  std::vector<double> one_walls;
  for (unsigned j : counts) {
    Run r;
    for (unsigned k = 0; k < (j == 1 ? repeat : 1); ++k) {
      Run t = run(scenario, j, dir / ("jobs" + std::to_string(j) + ".h5"), dir);
      if (!t.ran) return false;
      if (j == 1) one_walls.push_back(t.wall_s);
      if (k == 0 || t.wall_s < r.wall_s) r = t;
    }
    if (j == 1) one = r;
    std::printf("%-6u %7zu %5zu %9.2f %11.1f %8.2fx %14.2f %8.2f\n", j, r.points, r.ok, r.wall_s,
                60.0 * double(r.points) / r.wall_s, one.wall_s / r.wall_s, r.sim_s, r.cpu_s);
  }
  double overhead = (one.wall_s - one.sim_s) / double(std::max<size_t>(one.points, 1));
  std::printf(
      "runner overhead per point (jobs 1): %.3f s  (wall %.2f s - simulation %.2f s) / %zu "
      "points; target <= 0.5 s\n",
      overhead, one.wall_s, one.sim_s, one.points);
  std::printf("jobs 1 runs (fastest counted):");
  for (double w : one_walls) std::printf(" %.2f s", w);
  std::printf("\n");
  if (fs::path(scenario).filename() == "quickstart.json") {
    double per_min = 60.0 * double(one.points) / one.wall_s;
    double ratio = per_min / kReferencePointsPerMin;
    double load[1] = {0};
    ::getloadavg(load, 1);
    std::printf("points/min at --jobs 1: %.1f, reference %.0f (previous round): %.2fx  %s\n",
                per_min, kReferencePointsPerMin, ratio,
                ratio >= 1.0 - kAllowedDrop ? "ok (no drop over 10%)" : "DROP OVER 10%");
    std::printf(
        "(load average %.2f on %u cores; per CPU-minute of the sweep's processes: %.1f "
        "points)\n",
        load[0], std::thread::hardware_concurrency(), 60.0 * double(one.points) / one.cpu_s);
  }
  return true;
}

// Part 2: every shipped scenario once at --jobs 1, the long ones listed.
bool shipped(const fs::path &scenarios, bool all, const fs::path &dir) {
  std::vector<fs::path> files;
  for (const auto &e : fs::directory_iterator(scenarios))
    if (e.is_regular_file() && e.path().extension() == ".json") files.push_back(e.path());
  std::sort(files.begin(), files.end());
  std::printf("\nshipped scenarios (%s/*.json, --jobs 1)\n", scenarios.c_str());
  std::printf("%-16s %7s %5s %9s %14s\n", "scenario", "points", "ok", "wall_s", "cycles(total)");
  bool good = true;
  std::vector<std::string> skipped;
  for (const auto &f : files) {
    std::string name = f.stem().string();
    auto it = kLong.find(name);
    if (it != kLong.end() && !all) {
      skipped.push_back(name + ": " + it->second);
      continue;
    }
    Run r = run(f.string(), 1, dir / (name + ".h5"), dir);
    if (!r.ran) {
      std::printf("%-16s %7s\n", name.c_str(), "did not run");
      good = false;
      continue;
    }
    std::printf("%-16s %7zu %5zu %9.2f %14llu\n", name.c_str(), r.points, r.ok, r.wall_s,
                static_cast<unsigned long long>(r.cycles));
    std::fflush(stdout);
  }
  if (!skipped.empty()) {
    std::printf("not run (long; bench_sweep --all runs them):\n");
    for (const auto &s : skipped) std::printf("  %s\n", s.c_str());
  }
  return good;
}

}  // namespace

int bench_main(int argc, char **argv) {
  const fs::path source = OPFORGE_SOURCE_DIR;
  std::string scenario = (source / "scenarios" / "quickstart.json").string();
  unsigned max_jobs = 2, repeat = 3;
  bool scenarios = true, all = false, named = false;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "-h" || a == "--help") {
      std::printf(
          "usage: bench_sweep [SCENARIO.json] [--max-jobs N] [--repeat R] [--no-scenarios] "
          "[--all]\n");
      return 0;
    } else if (a == "--max-jobs" && i + 1 < argc) {
      max_jobs = unsigned(std::max(1, std::atoi(argv[++i])));
    } else if (a == "--repeat" && i + 1 < argc) {
      repeat = unsigned(std::max(1, std::atoi(argv[++i])));
    } else if (a == "--no-scenarios") {
      scenarios = false;
    } else if (a == "--all") {
      all = true;
    } else if (a.rfind("-", 0) == 0) {
      std::fprintf(stderr, "bench_sweep: unknown option '%s'\n", a.c_str());
      return 2;
    } else {
      scenario = a;
      named = true;
    }
  }
  if (!fs::exists(scenario)) {
    std::fprintf(stderr, "bench_sweep: %s: no such scenario file\n", scenario.c_str());
    return 2;
  }
  fs::path dir = fs::temp_directory_path() / ("bench-sweep-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  bool good = throughput(scenario, max_jobs, repeat, dir);
  // The shipped scenarios' run times go with the default throughput run.
  if (good && scenarios && !named) good = shipped(source / "scenarios", all, dir);
  fs::remove_all(dir);
  return good ? 0 : 1;
}

int main(int argc, char **argv) {
  try {
    return bench_main(argc, argv);
  } catch (const std::exception &e) {
    std::fprintf(stderr, "bench_sweep: %s\n", e.what());
    return 1;
  }
}
