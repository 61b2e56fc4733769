//===- harness_plot.cpp - `opforge plot`: matplotlib figures of a sweep ---===//
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <iostream>

#include "opforge/harness/cli.h"
#include "opforge/harness/results.h"
#include "opforge/support/error.h"
#include "opforge/support/python.h"
#include "options.h"

namespace opforge::cli {
namespace {
namespace fs = std::filesystem;

constexpr const char *kUsage =
    "usage: opforge plot RESULTS.h5 --out DIR\n\n"
    "Render a sweep's results with matplotlib (the project venv's matplotlib and\n"
    "h5py; scripts/plot-results.py): a roofline per workload, cycles against the\n"
    "sweep axes as line plots (zipped fields are one axis) and, with exactly two\n"
    "axes, a heatmap with one colour scale for all panels; counter timelines of\n"
    "sampled points, per-op cycles of aten/trace workloads and a Pareto plot\n"
    "(time vs energy and vs area; skipped with a note when the results have no\n"
    "energy_j/area_mm2 columns). Titles name the scenario, arch and the fixed\n"
    "fields. PNG files and figures.json (what each figure shows) go to DIR\n"
    "(docs/results.md).\n";

int run_plot(const std::vector<std::string> &args) {
  std::string file, out;
  OptionParser p("plot", kUsage);
  p.text("out", &out).positional("results file", &file);
  if (auto rc = p.parse(args)) return *rc;
  if (file.empty() || out.empty()) return usage_error("plot", "needs RESULTS.h5 --out DIR");
  std::string script = harness::plot_script_path();
  if (!fs::exists(script)) {
    std::cerr << "opforge plot: error: plotting script not found: " << script
              << " (set OPFORGE_PLOT_SCRIPT)\n";
    return kExitFailure;
  }
  // The project venv's python (matplotlib, h5py from requirements.txt).
  std::string python_path;
  try {
    python_path = project_python();
  } catch (const Error &e) {
    std::cerr << "opforge plot: error: " << e.what() << "\n";
    return kExitFailure;
  }
  const char *python = python_path.c_str();
  std::cout << std::flush;
  pid_t pid = ::fork();
  if (pid < 0) {
    std::cerr << "opforge plot: error: fork failed\n";
    return kExitFailure;
  }
  if (pid == 0) {
    ::execlp(python, python, script.c_str(), file.c_str(), "--out", out.c_str(),
             static_cast<char *>(nullptr));
    std::cerr << "opforge plot: error: cannot run " << python << "\n";
    ::_exit(127);
  }
  int st = 0;
  while (::waitpid(pid, &st, 0) < 0) {
  }
  // Exit status 1: the script printed its one error line ("opforge plot: error: ...").
  if (WIFEXITED(st) && WEXITSTATUS(st) == 1) return kExitFailure;
  if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
    std::cerr << "opforge plot: error: " << script << " failed ("
              << (WIFEXITED(st) ? "exit status " + std::to_string(WEXITSTATUS(st))
                                : std::string("signal ") + std::to_string(WTERMSIG(st)))
              << ")\n";
    return kExitFailure;
  }
  return kExitOk;
}

CommandRegistrar reg{{"plot", "render a sweep's results as PNG figures (matplotlib)", run_plot}};

}  // namespace
}  // namespace opforge::cli
