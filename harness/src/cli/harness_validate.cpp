//===- harness_validate.cpp - `opforge validate`: corpus calls through the kernel library ===//
#include <boost/program_options.hpp>

#include <chrono>
#include <iomanip>
#include <iostream>
#include <sstream>

#include "opforge/harness/cli.h"
#include "opforge/harness/corpus.h"
#include "opforge/harness/validate.h"
#include "opforge/support/error.h"

namespace po = boost::program_options;

namespace opforge::cli {
namespace {

constexpr const char *kUsage =
    "usage: opforge validate [--ops aten::add.Tensor,...|--all] [--dtype D,...] [--corpus FILE]\n"
    "                        [--library DIR] [--executor interp|chip] [--jobs N] [--max-calls N] "
    "[--out FILE.h5]\n\n"
    "Runs every recorded corpus call of the selected overloads through the kernel library's\n"
    "wrappers (generator/library/aten/<overload>.py, wrapper named after the overload) on the\n"
    "executor and compares the results with the recorded ATen outputs (assert_close semantics,\n"
    "per-OpInfo tolerances). Prints overload, calls passed/total and the first failure reason.\n"
    "Exit status 0 only if every selected call passed. --all selects the overloads the library\n"
    "implements; without --ops or --all every overload of the corpus is validated.\n";

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

int run_validate(const std::vector<std::string> &args) {
  po::options_description opts("options");
  opts.add_options()("help,h", "show this help")(
      "corpus", po::value<std::string>()->default_value(harness::Corpus::default_path()),
      "corpus HDF5 file")("library",
                          po::value<std::string>()->default_value(harness::default_library_dir()),
                          "kernel library directory")(
      "ops", po::value<std::string>(), "comma-separated overloads (aten:: may be left out)")(
      "all", "every overload the kernel library implements")(
      "dtype", po::value<std::string>(), "comma-separated dtypes (default: all in the corpus)")(
      "executor", po::value<std::string>()->default_value("interp"), "interp or chip")(
      "jobs", po::value<int>()->default_value(1), "overloads validated in parallel")(
      "max-calls", po::value<int>()->default_value(0), "calls per overload (0: all)")(
      "out", po::value<std::string>(), "write the results to this HDF5 file");
  po::variables_map vm;
  try {
    po::store(po::command_line_parser(args).options(opts).run(), vm);
    po::notify(vm);
  } catch (const po::error &e) {
    return usage_error("validate", e.what());
  }
  if (vm.count("help")) {
    std::cout << kUsage << "\n" << opts;
    return kExitOk;
  }
  if (vm.count("ops") && vm.count("all"))
    return usage_error("validate", "give --ops or --all, not both");
  if (vm["jobs"].as<int>() < 1) return usage_error("validate", "--jobs must be at least 1");
  if (vm["max-calls"].as<int>() < 0)
    return usage_error("validate", "--max-calls must not be negative");
  try {
    harness::ValidateOptions options;
    options.executor = harness::parse_executor_kind(vm["executor"].as<std::string>());
    options.jobs = vm["jobs"].as<int>();
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
    for (const auto &f : library.files())
      if (!f.error.empty())
        std::cerr << "opforge validate: library file " << f.path << ": " << f.error << "\n";
    const auto start = std::chrono::steady_clock::now();
    auto report = harness::validate(corpus, library, options);
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
