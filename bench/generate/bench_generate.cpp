//===- bench_generate.cpp - inductor-provider coverage of the corpus beside TritorX's figures ===//
//
// Runs the generation loop with the offline inductor provider over every
// overload of the OpInfo corpus (or --category C), verifying each against its
// recorded calls on an executor, and prints coverage by category beside
// TritorX's published figures, pass@1, and every failing or excluded overload
// with its reason. Usage:
//   bench_generate [--corpus FILE] [--category C] [--ops aten::X,...] [--executor interp|chip]
//                  [--jobs N] [--max-calls N] [--out DIR]
// --max-calls 0 (the default) verifies every recorded call; fewer makes passing overloads
// partial, not passing. With the chip executor, --jobs N
// runs N worker processes (one chip model each).
//
//===----------------------------------------------------------------------===//
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <map>
#include <set>
#include <string>
#include <unistd.h>

#include "opforge/generator/inductor.h"
#include "opforge/generator/report.h"
#include "opforge/generator/taxonomy.h"
#include "opforge/generator/runlog.h"
#include "opforge/harness/catalog.h"
#include "opforge/harness/judge.h"
#include "opforge/support/error.h"

using namespace opforge;
namespace fs = std::filesystem;

int main(int argc, char **argv) {
  std::string corpus_path = harness::Corpus::default_path(), executor = "interp", category;
  std::string out_dir, ops;
  int jobs = 2, max_calls = 0;  // every recorded call: fewer makes a pass only partial
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto value = [&](const char *name) -> std::string {
      if (i + 1 >= argc) {
        std::cerr << "bench_generate: " << name << " needs a value\n";
        std::exit(2);
      }
      return argv[++i];
    };
    if (a == "--corpus")
      corpus_path = value("--corpus");
    else if (a == "--executor")
      executor = value("--executor");
    else if (a == "--category")
      category = value("--category");
    else if (a == "--jobs")
      jobs = std::atoi(value("--jobs").c_str());
    else if (a == "--max-calls")
      max_calls = std::atoi(value("--max-calls").c_str());
    else if (a == "--ops")
      ops = value("--ops");
    else if (a == "--out")
      out_dir = value("--out");
    else {
      std::cerr << "usage: bench_generate [--corpus FILE] [--category C] [--ops aten::X,...]"
                   " [--executor interp|chip] [--jobs N] [--max-calls N] [--out DIR]\n";
      return a == "-h" || a == "--help" ? 0 : 2;
    }
  }
  try {
    auto corpus = harness::Corpus::open(corpus_path);
    std::optional<harness::Category> cat;
    if (!category.empty()) {
      cat = harness::parse_category(category);
      if (!cat) throw Error("unknown category '" + category + "'");
    }
    std::vector<std::string> overloads;
    std::map<std::string, std::string> schemas;
    std::set<std::string> only;
    for (size_t at = 0; at < ops.size();) {
      size_t comma = std::min(ops.find(',', at), ops.size());
      if (comma > at) only.insert(ops.substr(at, comma - at));
      at = comma + 1;
    }
    for (const auto &e : harness::catalog(corpus, cat)) {
      if (!only.empty() && !only.count(e.overload)) continue;
      overloads.push_back(e.overload);
      schemas[e.overload] = e.schema;
    }
    fs::path out = out_dir.empty() ? fs::temp_directory_path() /
                                         ("opforge-bench-generate-" + std::to_string(getpid()))
                                   : fs::path(out_dir);
    fs::remove_all(out / "library");
    fs::remove(out / "runlog.jsonl");
    auto table = std::make_shared<const generator::LoweringTable>(
        generator::LoweringTable::load(generator::LoweringTable::default_dir()));
    auto provider = generator::make_inductor_provider(table, schemas);
    auto templates = generator::PromptTemplates::load(generator::PromptTemplates::default_dir());
    generator::RunLog log((out / "runlog.jsonl").string());
    harness::GenerateOptions g;
    g.overloads = overloads;
    g.library_dir = (out / "library").string();
    g.force = true;
    g.jobs = jobs;
    g.max_calls = max_calls <= 0 ? SIZE_MAX : static_cast<size_t>(max_calls);
    g.executor = harness::parse_executor_kind(executor);
    g.table = table;
    g.loop.budget.max_dialogs = 1;
    g.loop.budget.max_calls_per_dialog = 1;
    auto t0 = std::chrono::steady_clock::now();
    g.progress = [t0](size_t d, size_t n, size_t p) {
      double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      std::cerr << "\r[" << d << "/" << n << "] passing " << p << ", " << static_cast<int>(s)
                << " s, ETA " << static_cast<int>(d ? s / d * (n - d) : 0) << " s   " << std::flush;
    };
    auto rows = harness::run_generation(corpus, *provider, templates, log, g);
    double wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::cerr << "\n";
    auto cov = generator::coverage_by_category(rows);
    std::cout << "inductor provider coverage of " << corpus.path() << " (" << rows.size()
              << " overloads, "
              << (max_calls <= 0 ? std::string("every recorded call")
                                 : "up to " + std::to_string(max_calls) + " recorded calls each")
              << ", executor " << executor << ", " << jobs << " jobs, " << static_cast<int>(wall_s)
              << " s)\n\n"
              << generator::format_report(rows) << "\n"
              << generator::format_taxonomy(generator::failure_taxonomy(
                     generator::read_runlog((out / "runlog.jsonl").string())))
              << "\n"
              << "supportable coverage: " << cov.back().passing << " / " << cov.back().supportable()
              << " = " << 100.0 * cov.back().coverage() << "% (target 60%)\n"
              << "run log: " << (out / "runlog.jsonl").string() << "\n";
    return 0;
  } catch (const std::exception &e) {
    std::cerr << "bench_generate: error: " << e.what() << "\n";
    return 1;
  }
}
