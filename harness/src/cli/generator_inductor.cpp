//===- generator_inductor.cpp - `opforge inductor`: the lowering table, listed and rendered ===//
#include <filesystem>
#include <fstream>
#include <iostream>

#include "opforge/generator/inductor.h"
#include "opforge/harness/catalog.h"
#include "opforge/harness/cli.h"
#include "opforge/harness/corpus.h"
#include "opforge/harness/validate.h"
#include "opforge/support/error.h"
#include "options.h"

namespace opforge::cli {
namespace {

constexpr const char *kUsage =
    "usage: opforge inductor list [--dir DIR] [--corpus FILE]\n"
    "       opforge inductor render OVERLOAD [--dir DIR] [--corpus FILE]\n"
    "       opforge inductor render --out OUTDIR [OVERLOAD|--all|--family F] [--dir DIR]\n"
    "                               [--corpus FILE]\n\n"
    "The inductor provider's lowering table (generator/inductor, format in its README.md).\n"
    "  list    overloads per family and the excluded ones; with the corpus, how many\n"
    "          corpus overloads have a row, are excluded or have neither, per category\n"
    "  render  print the filled template of an overload (its schema from the corpus);\n"
    "          with --out, write each selected overload's file as OUTDIR/<overload>.py\n"
    "          (the kernel library's naming) and print 'overload<TAB>family<TAB>file'\n"
    "          per file; overloads the corpus does not record are skipped, render\n"
    "          errors are printed to stderr (exit status 1)\n";

// `render --out DIR`: every selected row overload that the corpus records, one file each.
int render_to_dir(const generator::LoweringTable &table, const harness::Corpus &corpus,
                  const std::vector<std::string> &overloads, const std::string &dir) {
  std::filesystem::create_directories(dir);
  int failed = 0;
  for (const auto &ov : overloads) {
    if (!corpus.has_overload(ov)) continue;
    auto r = table.render(ov, corpus.overload(ov).schema);
    if (!r.error.empty()) {
      std::cerr << "opforge inductor: " << ov << ": " << r.error << "\n";
      ++failed;
      continue;
    }
    const auto path = std::filesystem::path(dir) / harness::library_file_name_for(ov);
    std::ofstream out(path);
    out << r.source;
    if (!out) throw Error("cannot write " + path.string());
    std::cout << ov << "\t" << r.family << "\t" << path.string() << "\n";
  }
  return failed ? kExitFailure : kExitOk;
}

int run(const std::vector<std::string> &args) {
  OptionParser parser("inductor", kUsage);
  parser.add()("dir", po::value<std::string>(), "lowering table directory")(
      "corpus", po::value<std::string>()->default_value(harness::Corpus::default_path()),
      "OpInfo corpus")("action", po::value<std::string>(), "list or render")(
      "overload", po::value<std::string>(), "overload")("out", po::value<std::string>(),
                                                        "render: write files into this directory")(
      "all", "render --out: every overload of the table")(
      "family", po::value<std::string>(), "render --out: every overload of this family");
  parser.positional("action", nullptr).positional("overload", nullptr);
  if (auto rc = parser.parse(args)) return *rc;
  const po::variables_map &vm = parser.vm();
  if (!vm.count("action")) {
    parser.print_help(std::cout);
    return kExitUsage;
  }
  std::string action = vm["action"].as<std::string>();
  try {
    auto table = generator::LoweringTable::load(
        vm.count("dir") ? vm["dir"].as<std::string>() : generator::LoweringTable::default_dir());
    if (action == "render" && vm.count("out")) {
      std::vector<std::string> overloads;
      if (vm.count("overload")) {
        std::string ov = vm["overload"].as<std::string>();
        overloads.push_back(ov.find("::") == std::string::npos ? "aten::" + ov : ov);
      }
      for (const auto &[family, ovs] : table.families())
        if (vm.count("all") || (vm.count("family") && vm["family"].as<std::string>() == family))
          overloads.insert(overloads.end(), ovs.begin(), ovs.end());
      if (overloads.empty())
        return usage_error("inductor", "render --out needs an OVERLOAD, --all or a known --family");
      auto corpus = harness::Corpus::open(vm["corpus"].as<std::string>());
      return render_to_dir(table, corpus, overloads, vm["out"].as<std::string>());
    }
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
