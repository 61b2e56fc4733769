//===- bench_validate.cpp - validated corpus calls per second, extrapolated to the corpus ===//
//
// Validates the recorded calls of the kernel library's overloads (every dtype,
// at most --max-calls per overload) on the IR interpreter and on the chip model
// in functional mode (tiny and mtia-2i), each in its own process (one
// model::Device per process), and prints calls/s and the time the whole corpus
// would take at that rate (one process; --jobs N divides it by up to N).
//
// --whole-corpus measures instead of extrapolating: every inductor lowering row
// is rendered (`opforge inductor render --all`), the kernel library's files are
// laid over them, and `opforge validate --executor chip --jobs N` runs every
// recorded call of the corpus on the chip; it prints calls, passed, wall time
// and the time against the 10-minute target on 2 cores.
//
//   bench_validate [--corpus FILE] [--library DIR] [--max-calls N]
//   bench_validate --whole-corpus [--jobs N] [--arch tiny|mtia-2i]
//
//===----------------------------------------------------------------------===//
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iomanip>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "opforge/harness/corpus.h"
#include "opforge/harness/validate.h"
#include "opforge/support/error.h"

using namespace opforge;
using namespace opforge::harness;

namespace {

struct Config {
  std::string name;
  ExecutorKind executor;
  std::string arch;
};

const std::vector<Config> &configs() {
  static const std::vector<Config> c = {{"interp", ExecutorKind::Interp, ""},
                                        {"chip-tiny", ExecutorKind::Chip, "tiny"},
                                        {"chip-mtia-2i", ExecutorKind::Chip, "mtia-2i"}};
  return c;
}

// One configuration in this process: prints "calls passed seconds".
int run_one(const Config &config, const std::string &corpus_path, const std::string &library_dir,
            size_t max_calls) {
  auto corpus = Corpus::open(corpus_path);
  auto library = KernelLibrary::load(library_dir);
  ValidateOptions options;
  for (const auto &f : library.files()) options.overloads.push_back(f.overload);
  options.executor = config.executor;
  options.chip.arch = config.arch;
  options.chip.timing = "functional";
  options.max_calls_per_overload = max_calls;
  if (config.executor == ExecutorKind::Chip) chip_device(options.chip);  // elaboration not timed
  const auto start = std::chrono::steady_clock::now();
  auto report = validate(corpus, library, options);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::cout << report.calls_total() << " " << report.calls_passed() << " " << seconds << "\n";
  return 0;
}

// Runs a shell command, returns its exit status and output.
int run_command(const std::string &cmd, std::string *out) {
  FILE *p = popen(cmd.c_str(), "r");
  if (!p) return -1;
  char buf[4096];
  while (size_t n = fread(buf, 1, sizeof buf, p)) out->append(buf, n);
  int status = pclose(p);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

// --whole-corpus: every recorded call on the chip, every inductor row plus the library.
int run_whole_corpus(const std::string &corpus_path, const std::string &library_dir, int jobs,
                     const std::string &arch) {
  namespace fs = std::filesystem;
  const fs::path dir =
      fs::temp_directory_path() / ("opforge-bench-whole-" + std::to_string(getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  const std::string exe = OPFORGE_EXE;
  std::string log;
  if (run_command("'" + exe + "' inductor render --all --out '" + dir.string() + "' 2>&1", &log) !=
      0)
    throw Error("opforge inductor render --all failed:\n" + log);
  size_t rows = 0;
  for (const auto &e : fs::directory_iterator(dir)) rows += e.path().extension() == ".py";
  size_t lib = 0;
  for (const auto &e : fs::directory_iterator(library_dir))
    if (e.path().extension() == ".py") {
      fs::copy_file(e.path(), dir / e.path().filename(), fs::copy_options::overwrite_existing);
      ++lib;
    }
  std::cout << "whole-corpus chip validation: " << rows << " rendered inductor rows + " << lib
            << " library files, arch " << arch << ", functional timing, --jobs " << jobs << "\n";
  std::cout.flush();
  std::string out;
  const auto start = std::chrono::steady_clock::now();
  const int status = run_command("'" + exe + "' validate --corpus '" + corpus_path +
                                     "' --library '" + dir.string() + "' --executor chip --arch " +
                                     arch + " --jobs " + std::to_string(jobs) + " 2>&1",
                                 &out);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  fs::remove_all(dir);
  // "total    142751/160740" is validate's last table row.
  const auto at = out.rfind("\ntotal");
  int64_t passed = -1, total = -1;
  if (at != std::string::npos) {
    std::istringstream row(out.substr(at + 6));
    char slash = 0;
    row >> passed >> slash >> total;
  }
  if (total <= 0)
    throw Error("opforge validate printed no total (status " + std::to_string(status) + "):\n" +
                out.substr(out.size() > 2000 ? out.size() - 2000 : 0));
  std::cout << std::fixed << std::setprecision(1) << "calls " << total << ", passed " << passed
            << " (" << 100.0 * static_cast<double>(passed) / static_cast<double>(total)
            << "%), wall " << seconds << " s = " << std::setprecision(2) << seconds / 60.0
            << " min (target <= 10 min on 2 cores: " << (seconds <= 600 ? "met" : "MISSED") << "), "
            << std::setprecision(1) << static_cast<double>(total) / seconds << " calls/s\n";
  return 0;
}

}  // namespace

int main(int argc, char **argv) {
  std::string corpus_path = Corpus::default_path(), library_dir = default_library_dir(), one;
  size_t max_calls = 40;
  bool whole = false;
  int jobs = 2;
  std::string arch = "tiny";
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto next = [&]() -> std::string { return i + 1 < argc ? argv[++i] : ""; };
    if (a == "--corpus")
      corpus_path = next();
    else if (a == "--library")
      library_dir = next();
    else if (a == "--max-calls")
      max_calls = std::stoul(next());
    else if (a == "--one")
      one = next();
    else if (a == "--whole-corpus")
      whole = true;
    else if (a == "--jobs")
      jobs = std::atoi(next().c_str());
    else if (a == "--arch")
      arch = next();
    else {
      std::cerr << "usage: bench_validate [--corpus FILE] [--library DIR] [--max-calls N]\n"
                   "       bench_validate --whole-corpus [--jobs N] [--arch A]\n";
      return 2;
    }
  }
  if (jobs < 1) {
    std::cerr << "bench_validate: --jobs must be at least 1\n";
    return 2;
  }
  try {
    if (whole) return run_whole_corpus(corpus_path, library_dir, jobs, arch);
    for (const auto &c : configs())
      if (c.name == one) return run_one(c, corpus_path, library_dir, max_calls);
    if (!one.empty()) throw Error("unknown configuration " + one);

    auto corpus = Corpus::open(corpus_path);
    int64_t corpus_calls = 0;
    for (auto dt : corpus.dtypes()) corpus_calls += corpus.call_count(dt);
    std::cout << "corpus " << corpus_path << ": " << corpus_calls << " calls\n"
              << "library " << library_dir << ", at most " << max_calls
              << " calls per overload, every dtype, functional timing\n\n"
              << std::left << std::setw(14) << "executor" << std::right << std::setw(8) << "calls"
              << std::setw(8) << "passed" << std::setw(10) << "seconds" << std::setw(10)
              << "calls/s" << std::setw(20) << "full corpus (min)"
              << "\n";
    for (const auto &c : configs()) {
      std::string cmd = "'/proc/" + std::to_string(getpid()) + "/exe' --one " + c.name +
                        " --corpus '" + corpus_path + "' --library '" + library_dir +
                        "' --max-calls " + std::to_string(max_calls) + " 2>/dev/null";
      FILE *p = popen(cmd.c_str(), "r");
      std::string out;
      char buf[256];
      while (p && fgets(buf, sizeof buf, p)) out += buf;
      int status = p ? pclose(p) : -1;
      int64_t calls = 0, passed = 0;
      double seconds = 0;
      std::istringstream in(out);
      if (status != 0 || !(in >> calls >> passed >> seconds)) {
        std::cout << std::left << std::setw(14) << c.name << " failed (status " << status << ")\n";
        continue;
      }
      const double rate = seconds > 0 ? static_cast<double>(calls) / seconds : 0;
      std::cout << std::left << std::setw(14) << c.name << std::right << std::setw(8) << calls
                << std::setw(8) << passed << std::fixed << std::setprecision(2) << std::setw(10)
                << seconds << std::setprecision(1) << std::setw(10) << rate << std::setw(20)
                << (rate > 0 ? static_cast<double>(corpus_calls) / rate / 60.0 : 0.0) << "\n";
    }
    std::cout << "\nfull corpus (min): the corpus's calls at the measured rate in one process;\n"
                 "`opforge validate --jobs N` divides it by up to N (cores).\n";
  } catch (const Error &e) {
    std::cerr << "bench_validate: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
