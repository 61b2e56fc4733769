//===- harness_validate.cpp - `opforge validate`: corpus calls through the kernel library ===//
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <map>
#include <sstream>

#include "opforge/harness/cli.h"
#include "opforge/harness/corpus.h"
#include "opforge/harness/validate.h"
#include "opforge/support/error.h"
#include "opforge/support/process_pool.h"
#include "options.h"

namespace opforge::cli {
namespace {

constexpr const char *kUsage =
    "usage: opforge validate [--ops aten::add.Tensor,...|--all] [--dtype D,...] [--corpus FILE]\n"
    "                        [--library DIR] [--executor interp|chip] [--arch tiny|mtia-2i|FILE]\n"
    "                        [--set K=V]... [--timing functional|lt] [--jobs N] [--max-calls N]\n"
    "                        [--out FILE.h5]\n\n"
    "Runs every recorded corpus call of the selected overloads through the kernel library's\n"
    "wrappers (generator/library/aten/<overload>.py, wrapper named after the overload) on the\n"
    "executor and compares the results with the recorded ATen outputs (assert_close semantics,\n"
    "per-OpInfo tolerances). Prints overload, calls passed/total and the first failure reason.\n"
    "Exit status 0 only if every selected call passed. --all selects the overloads the library\n"
    "implements; without --ops or --all every overload of the corpus is validated.\n\n"
    "--executor chip runs every call on the SystemC chip model (--arch, --set, --timing; timing\n"
    "defaults to functional): kernels are compiled to RISC-V and launched on the PEs, tensors "
    "live\n"
    "in device DRAM, runtime copies (contiguous(), .to()) are host-side runtime operations over\n"
    "device memory. The model allows one chip per process, so --jobs N on the chip runs N child\n"
    "processes, each validating a share of the overloads (balanced by recorded calls).\n";

std::vector<std::string> split_list(const std::string &text) {
  std::vector<std::string> out;
  std::stringstream ss(text);
  std::string item;
  while (std::getline(ss, item, ','))
    if (!item.empty())
      out.push_back(item.rfind("aten::", 0) == 0 || item.find("::") != std::string::npos
                        ? item
                        : "aten::" + item);
  return out;
}

// The arguments of a child validating `overloads`: the parent's, without
// --ops/--all/--jobs/--out, plus the shard's overloads and its result file.
std::vector<std::string> child_args(const std::vector<std::string> &args,
                                    const std::vector<std::string> &overloads,
                                    const std::string &out) {
  std::vector<std::string> a = {"opforge", "validate"};
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string &x = args[i];
    auto flag = x.substr(0, x.find('='));
    if (flag == "--all") continue;
    if (flag == "--ops" || flag == "--jobs" || flag == "--out") {
      if (x.find('=') == std::string::npos) ++i;  // its value is the next argument
      continue;
    }
    a.push_back(x);
  }
  std::string ops;
  for (const auto &o : overloads) ops += (ops.empty() ? "" : ",") + o;
  a.insert(a.end(), {"--ops", ops, "--jobs", "1", "--shard-out", out});
  return a;
}

// --executor chip --jobs N: N child processes (one chip each), overloads dealt
// out by recorded calls (largest first, to the least loaded shard).
harness::ValidateReport validate_sharded(const harness::Corpus &corpus,
                                         const harness::ValidateOptions &options,
                                         const std::vector<std::string> &args) {
  const size_t n = std::min<size_t>(static_cast<size_t>(options.jobs), options.overloads.size());
  std::vector<std::pair<int64_t, size_t>> weights;  // calls, index
  for (size_t i = 0; i < options.overloads.size(); ++i)
    weights.push_back({corpus.has_overload(options.overloads[i])
                           ? corpus.overload(options.overloads[i]).total_calls()
                           : 0,
                       i});
  std::sort(weights.begin(), weights.end(), std::greater<>());
  std::vector<std::vector<std::string>> shards(n);
  std::vector<int64_t> load(n, 0);
  for (const auto &[calls, i] : weights) {
    size_t s = static_cast<size_t>(std::min_element(load.begin(), load.end()) - load.begin());
    shards[s].push_back(options.overloads[i]);
    load[s] += std::max<int64_t>(calls, 1);
  }
  auto dir =
      std::filesystem::temp_directory_path() / ("opforge-validate-" + std::to_string(getpid()));
  std::filesystem::create_directories(dir);
  auto log_of = [&](size_t s) { return (dir / ("shard" + std::to_string(s) + ".log")).string(); };
  // Each shard is this binary again, writing its results (JSON) to fd 3, the pool's pipe.
  ProcessPoolOptions pool;
  pool.workers = static_cast<unsigned>(n);
  auto outcomes = run_programs(
      n,
      [&](size_t s) {
        return Program{"/proc/self/exe", child_args(args, shards[s], "/dev/fd/3"), log_of(s)};
      },
      pool);
  std::map<std::string, harness::OverloadResult> by_name;
  for (size_t s = 0; s < n; ++s) {
    const TaskOutcome &outcome = outcomes[s];
    std::string error;
    if (!outcome.output.empty()) {
      try {
        for (auto &r :
             harness::ValidateReport::from_json(
                 outcome.output, "the results of validation process " + std::to_string(outcome.pid))
                 .results)
          by_name[r.overload] = std::move(r);
      } catch (const Error &e) {
        error = e.what();
      }
    } else {
      std::ifstream log(log_of(s));
      std::string line, last;
      while (std::getline(log, line))
        if (!line.empty()) last = line;
      error = "validation process " + std::to_string(outcome.pid) +
              (outcome.signal ? " killed by signal " + std::to_string(outcome.signal)
                              : " exited with status " + std::to_string(outcome.exit_code)) +
              " without results" + (last.empty() ? "" : ": " + last);
    }
    for (const auto &o : shards[s])
      if (!by_name.count(o)) {
        harness::OverloadResult r;
        r.overload = o;
        r.error = error.empty() ? "missing from its validation process's results" : error;
        by_name[o] = r;
      }
  }
  std::error_code ec;
  std::filesystem::remove_all(dir, ec);
  harness::ValidateReport report;
  for (const auto &o : options.overloads) report.results.push_back(by_name[o]);
  return report;
}

int run_validate(const std::vector<std::string> &args) {
  OptionParser parser("validate", kUsage);
  parser.add()("corpus", po::value<std::string>()->default_value(harness::Corpus::default_path()),
               "corpus HDF5 file")(
      "library", po::value<std::string>()->default_value(harness::default_library_dir()),
      "kernel library directory")("ops", po::value<std::string>(),
                                  "comma-separated overloads (aten:: may be left out)")(
      "all", "every overload the kernel library implements")(
      "dtype", po::value<std::string>(), "comma-separated dtypes (default: all in the corpus)")(
      "executor", po::value<std::string>()->default_value("interp"), "interp or chip")(
      "arch", po::value<std::string>()->default_value("mtia-2i"),
      "chip: architecture preset (tiny, mtia-2i, mtia-v1) or JSON file")(
      "set", po::value<std::vector<std::string>>()->composing(),
      "chip: override an architecture parameter (K=V, repeatable)")(
      "timing", po::value<std::string>()->default_value("functional"), "chip: functional or lt")(
      "shard-out", po::value<std::string>(), "(internal) write this process's results as JSON")(
      "jobs", po::value<int>()->default_value(1), "overloads validated in parallel")(
      "max-calls", po::value<int>()->default_value(0), "calls per overload (0: all)")(
      "out", po::value<std::string>(), "write the results to this HDF5 file");
  if (auto rc = parser.parse(args)) return *rc;
  const po::variables_map &vm = parser.vm();
  if (vm.count("ops") && vm.count("all"))
    return usage_error("validate", "give --ops or --all, not both");
  if (vm["jobs"].as<int>() < 1) return usage_error("validate", "--jobs must be at least 1");
  if (vm["max-calls"].as<int>() < 0)
    return usage_error("validate", "--max-calls must not be negative");
  try {
    harness::ValidateOptions options;
    options.executor = harness::parse_executor_kind(vm["executor"].as<std::string>());
    options.jobs = vm["jobs"].as<int>();
    options.chip.arch = vm["arch"].as<std::string>();
    if (vm.count("set")) options.chip.sets = vm["set"].as<std::vector<std::string>>();
    options.chip.timing = vm["timing"].as<std::string>();
    if (options.chip.timing != "functional" && options.chip.timing != "lt")
      return usage_error("validate", "--timing needs functional or lt");
    if (vm["max-calls"].as<int>() > 0)
      options.max_calls_per_overload = static_cast<size_t>(vm["max-calls"].as<int>());
    if (vm.count("dtype"))
      for (const auto &d : split_list(vm["dtype"].as<std::string>()))
        options.dtypes.push_back(dtype_from_name(d.substr(d.find("::") + 2)));
    auto corpus = harness::Corpus::open(vm["corpus"].as<std::string>());
    auto library = harness::KernelLibrary::load(vm["library"].as<std::string>());
    if (vm.count("ops")) {
      options.overloads = split_list(vm["ops"].as<std::string>());
    } else if (vm.count("all")) {
      for (const auto &f : library.files()) options.overloads.push_back(f.overload);
    }
    const bool shard_child = vm.count("shard-out") > 0;
    if (!shard_child)
      for (const auto &f : library.files())
        if (!f.error.empty())
          std::cerr << "opforge validate: library file " << f.path << ": " << f.error << "\n";
    const auto start = std::chrono::steady_clock::now();
    harness::ValidateReport report;
    if (options.executor == harness::ExecutorKind::Chip && options.jobs > 1 && !shard_child) {
      if (options.overloads.empty())
        for (const auto &o : corpus.overloads()) options.overloads.push_back(o.name);
      report = validate_sharded(corpus, options, args);
    } else {
      report = harness::validate(corpus, library, options);
    }
    if (shard_child) {
      std::ofstream out(vm["shard-out"].as<std::string>());
      out << report.to_json();
      if (!out) throw Error("cannot write " + vm["shard-out"].as<std::string>());
      return kExitOk;
    }
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::cout << report.table();
    std::cout << "validated " << report.calls_total() << " calls in " << std::fixed
              << std::setprecision(1) << seconds << " s (" << std::setprecision(1)
              << (seconds > 0 ? static_cast<double>(report.calls_total()) / seconds : 0.0)
              << " calls/s)\n";
    if (vm.count("out")) report.write_hdf5(vm["out"].as<std::string>());
    return report.ok() ? kExitOk : kExitFailure;
  } catch (const Error &e) {
    std::cerr << "opforge validate: error: " << e.what() << "\n";
    return kExitFailure;
  }
}

CommandRegistrar reg{{"validate",
                      "run recorded ATen calls through the kernel library and verify them",
                      run_validate}};

}  // namespace
}  // namespace opforge::cli
