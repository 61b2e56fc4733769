//===- generator_inductor.cpp - `opforge inductor`: the lowering table, listed and rendered ===//
#include <boost/program_options.hpp>

#include <iostream>

#include "opforge/generator/inductor.h"
#include "opforge/harness/catalog.h"
#include "opforge/harness/cli.h"
#include "opforge/harness/corpus.h"
#include "opforge/support/error.h"

namespace po = boost::program_options;

namespace opforge::cli {
namespace {

constexpr const char *kUsage =
    "usage: opforge inductor list [--dir DIR] [--corpus FILE]\n"
    "       opforge inductor render OVERLOAD [--dir DIR] [--corpus FILE]\n\n"
    "The inductor provider's lowering table (generator/inductor, format in its README.md).\n"
    "  list    overloads per family and the excluded ones; with the corpus, how many\n"
    "          corpus overloads have a row, are excluded or have neither, per category\n"
    "  render  print the filled template of an overload (its schema from the corpus)\n";

int run(const std::vector<std::string> &args) {
  po::options_description opts("options");
  opts.add_options()("help,h", "show help")("dir", po::value<std::string>(),
                                            "lowering table directory")(
      "corpus", po::value<std::string>()->default_value(harness::Corpus::default_path()),
      "OpInfo corpus")("action", po::value<std::string>(), "list or render")(
      "overload", po::value<std::string>(), "overload");
  po::positional_options_description pos;
  pos.add("action", 1).add("overload", 1);
  po::variables_map vm;
  try {
    po::store(po::command_line_parser(args).options(opts).positional(pos).run(), vm);
    po::notify(vm);
  } catch (const po::error &e) {
    return usage_error("inductor", e.what());
  }
  if (vm.count("help") || !vm.count("action")) {
    std::cout << kUsage << "\n" << opts;
    return vm.count("help") ? kExitOk : kExitUsage;
  }
  std::string action = vm["action"].as<std::string>();
  try {
    auto table = generator::LoweringTable::load(
        vm.count("dir") ? vm["dir"].as<std::string>() : generator::LoweringTable::default_dir());
    if (action == "render") {
      if (!vm.count("overload")) return usage_error("inductor", "render needs an OVERLOAD");
      std::string ov = vm["overload"].as<std::string>();
      if (ov.find("::") == std::string::npos) ov = "aten::" + ov;
      auto corpus = harness::Corpus::open(vm["corpus"].as<std::string>());
      auto r = table.render(ov, corpus.overload(ov).schema);
      if (!r.error.empty()) {
        std::cerr << "opforge inductor: " << ov << ": " << r.error << "\n";
        return kExitFailure;
      }
      std::cout << r.source;
      return kExitOk;
    }
    if (action != "list") return usage_error("inductor", "unknown action '" + action + "'");
    for (const auto &[family, ovs] : table.families())
      std::cout << family << ": " << ovs.size() << " overloads\n";
    auto corpus = harness::Corpus::open(vm["corpus"].as<std::string>());
    std::cout << "\ncategory          corpus  rows  excluded  neither\n";
    for (auto cat : harness::kAllCategories) {
      int n = 0, rows = 0, ex = 0;
      std::string missing;
      for (const auto &e : harness::catalog(corpus, cat)) {
        ++n;
        if (table.row(e.overload))
          ++rows;
        else if (table.excluded(e.overload))
          ++ex;
      }
      std::string name(harness::category_name(cat));
      name.resize(18, ' ');
      std::cout << name << std::to_string(n) << std::string(8 - std::to_string(n).size(), ' ')
                << rows << std::string(6 - std::to_string(rows).size(), ' ') << ex
                << std::string(10 - std::to_string(ex).size(), ' ') << (n - rows - ex) << "\n";
    }
    return kExitOk;
  } catch (const Error &e) {
    std::cerr << "opforge inductor: error: " << e.what() << "\n";
    return kExitFailure;
  }
}

CommandRegistrar reg({"inductor", "list or render the inductor provider's lowering table", run});

}  // namespace
}  // namespace opforge::cli
