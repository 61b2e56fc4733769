//===- bench_corpus.cpp - corpus export time and `opforge ops check` calls/s ===//
//
// Prints two figures of the OpInfo call corpus (docs/corpus.md):
//   1. scripts/export-opinfo.py on a fixed subset (ten OpInfos, six dtypes, every
//      sample), wall time including the interpreter's start-up, and the documented
//      full export (--full re-measures it: minutes);
//   2. `opforge ops check` over the whole corpus: calls replayed through the libtorch
//      oracle and verified per second, as the CLI reports them.
//
//   bench_corpus [--corpus FILE] [--full] [--skip-check]
//
//===----------------------------------------------------------------------===//
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <iomanip>
#include <iostream>
#include <sstream>
#include <string>

#include "opforge/harness/corpus.h"
#include "opforge/support/error.h"
#include "opforge/support/python.h"

using namespace opforge;
using namespace opforge::harness;
namespace fs = std::filesystem;

namespace {

// The fixed export subset: common pointwise, reduction, normalization, linear
// algebra and indexing OpInfos.
constexpr const char *kSubsetOps =
    "add,mul,exp,sigmoid,sum,softmax,nn.functional.layer_norm,mm,index_select,cat";

// The full export as measured for docs/corpus.md ("Figures", torch 2.15.0; `make corpus`,
// --jobs 1, on the project's 2-core machine shared with builds). --full measures it again.
constexpr const char *kDocumentedFullExport =
    "160,740 calls, 33.0 MB, 90 s wall (about 80 s CPU) with torch 2.15.0, 204-232 s at load "
    "average 7-8 (docs/corpus.md, Figures)";

struct Timed {
  int status = -1;
  std::string output;
  double seconds = 0;
};

Timed run(const std::string &cmd) {
  Timed t;
  const auto start = std::chrono::steady_clock::now();
  FILE *p = popen((cmd + " 2>&1").c_str(), "r");
  if (!p) return t;
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, p)) > 0) t.output.append(buf, n);
  const int status = pclose(p);
  t.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  t.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return t;
}

int64_t total_calls(const Corpus &c) {
  int64_t n = 0;
  for (auto dt : c.dtypes()) n += c.call_count(dt);
  return n;
}

std::string last_line_starting(const std::string &text, const std::string &prefix) {
  std::istringstream in(text);
  std::string line, found;
  while (std::getline(in, line))
    if (line.starts_with(prefix)) found = line;
  return found;
}

// Export with the project venv's python into `out`; prints the exporter's table and the time.
bool bench_export(const std::string &label, const std::string &extra_args, const std::string &out) {
  const std::string cmd = "'" + project_python() +
                          "' '" OPFORGE_SOURCE_DIR "/scripts/export-opinfo.py' " + extra_args +
                          " --out '" + out + "'";
  Timed t = run(cmd);
  if (t.status != 0) {
    std::cout << label << ": export failed (status " << t.status << ")\n" << t.output << "\n";
    return false;
  }
  const auto c = Corpus::open(out);
  std::cout << label << ": " << total_calls(c) << " calls, " << std::fixed << std::setprecision(1)
            << static_cast<double>(fs::file_size(out)) / 1e6 << " MB, " << t.seconds
            << " s wall (python start-up and op_db import included)\n";
  std::istringstream in(t.output);
  for (std::string line; std::getline(in, line);)
    if (line.find(" opinfos ") != std::string::npos) std::cout << "  " << line << "\n";
  return true;
}

}  // namespace

int main(int argc, char **argv) {
  std::string corpus_path = Corpus::default_path();
  bool full = false, check = true;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--corpus" && i + 1 < argc) {
      corpus_path = argv[++i];
    } else if (a == "--full") {
      full = true;
    } else if (a == "--skip-check") {
      check = false;
    } else {
      std::cerr << "usage: bench_corpus [--corpus FILE] [--full] [--skip-check]\n";
      return 2;
    }
  }
  int rc = 0;
  try {
    const fs::path tmp = fs::temp_directory_path() / ("bench_corpus_" + std::to_string(getpid()));
    fs::create_directories(tmp);
    std::cout << "== corpus export (scripts/export-opinfo.py, --jobs 1)\n";
    if (!bench_export(std::string("subset ") + kSubsetOps, std::string("--ops ") + kSubsetOps,
                      (tmp / "subset.h5").string()))
      rc = 1;
    if (full) {
      if (!bench_export("full op_db", "", (tmp / "full.h5").string())) rc = 1;
    } else {
      std::cout << "full op_db: " << kDocumentedFullExport << " (--full measures it)\n";
    }
    fs::remove_all(tmp);

    std::cout << "\n== opforge ops check (libtorch oracle + verifier) over " << corpus_path << "\n";
#ifdef OPFORGE_EXE
    if (!check) {
      std::cout << "skipped (--skip-check)\n";
    } else if (!fs::exists(corpus_path)) {
      std::cout << "no corpus (run 'make corpus')\n";
    } else {
      const int64_t calls = total_calls(Corpus::open(corpus_path));
      Timed t = run("'" OPFORGE_EXE "' ops check --corpus '" + corpus_path + "'");
      const std::string summary = last_line_starting(t.output, "checked ");
      if (summary.empty()) {
        std::cout << "ops check failed (status " << t.status << "):\n" << t.output << "\n";
        rc = 1;
      } else {
        // Exit status 1 only says some calls mismatched or were not replayable.
        std::cout << summary << "\n"
                  << calls << " corpus calls; " << std::fixed << std::setprecision(1) << t.seconds
                  << " s wall with start-up and libtorch loading (" << std::setprecision(0)
                  << static_cast<double>(calls) / t.seconds << " calls/s)\n";
      }
    }
#else
    (void)check;
    std::cout << "not measured: this build has no `opforge` with the libtorch oracle plugin\n";
#endif
  } catch (const Error &e) {
    std::cerr << "bench_corpus: " << e.what() << "\n";
    return 1;
  }
  return rc;
}
