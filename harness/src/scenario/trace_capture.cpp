//===- trace_capture.cpp - trace workloads at a requested size (params) ----===//
//
// A trace workload's "params" ({"batch": 1, "seq": 64, "width": 768}) asks for
// the model of its trace file at those sizes. When the file was captured at
// them (its own "params"), it is used as is; otherwise the trace is captured
// on demand by scripts/capture-model-trace.py (the project venv's torch) into
// <cache>/traces/<model>-<key>.json, the key a hash of the script's text, the
// model and the sizes, so an edited script gets a new file and concurrent
// point processes share one capture. Format: docs/scenarios.md.
//
//===----------------------------------------------------------------------===//
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "opforge/harness/inductor_kernels.h"
#include "opforge/support/config.h"
#include "opforge/support/error.h"
#include "opforge/support/hash.h"
#include "opforge/support/python.h"
#include "workload_parse.h"

namespace opforge::harness::detail {
namespace fs = std::filesystem;
using nlohmann::json;

namespace {

[[noreturn]] void fail(const std::string &file, const std::string &path, const std::string &msg) {
  throw Error(msg, ErrorContext{file, path.empty() ? "/" : path, {}, {}, {}});
}

std::string read_text(const fs::path &p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string capture_script_path() {
  if (const char *env = std::getenv("OPFORGE_CAPTURE_SCRIPT"); env && *env) return env;
#ifdef OPFORGE_SOURCE_DIR
  return std::string(OPFORGE_SOURCE_DIR) + "/scripts/capture-model-trace.py";
#else
  return "scripts/capture-model-trace.py";
#endif
}

std::string trace_cache_dir() {
  // Beside the rendered kernel sets: <cache>/inductor-kernels -> <cache>/traces.
  return (fs::path(inductor_kernel_cache_dir()).parent_path() / "traces").string();
}

// The last non-empty line of `text` (the script's error), or "".
std::string last_line(const std::string &text) {
  size_t end = text.find_last_not_of("\n\r ");
  if (end == std::string::npos) return "";
  size_t start = text.rfind('\n', end);
  start = start == std::string::npos ? 0 : start + 1;
  return text.substr(start, end + 1 - start);
}

// Runs `python script model --params JSON --out out`; returns "" or the reason it failed.
std::string run_capture(const std::string &python, const std::string &script,
                        const std::string &model, const std::string &params, const fs::path &out,
                        const fs::path &log) {
  pid_t pid = ::fork();
  if (pid < 0) return "fork failed";
  if (pid == 0) {
    int fd = ::open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd >= 0) {
      ::dup2(fd, 1);
      ::dup2(fd, 2);
      ::close(fd);
    }
    ::execl(python.c_str(), python.c_str(), script.c_str(), model.c_str(), "--params",
            params.c_str(), "--out", out.c_str(), static_cast<char *>(nullptr));
    std::fprintf(stderr, "cannot run %s\n", python.c_str());
    ::_exit(127);
  }
  int st = 0;
  while (::waitpid(pid, &st, 0) < 0) {
  }
  if (WIFEXITED(st) && WEXITSTATUS(st) == 0) return "";
  std::string why = last_line(read_text(log));
  std::string how = WIFEXITED(st) ? "exit status " + std::to_string(WEXITSTATUS(st))
                                  : "signal " + std::to_string(WTERMSIG(st));
  return how + (why.empty() ? "" : ": " + why);
}

std::string unique_suffix() {
  static std::atomic<int> counter{0};
  return std::to_string(::getpid()) + "-" + std::to_string(++counter);
}

}  // namespace

std::string trace_at_params(const std::string &trace_path, const json &params,
                            const std::string &file, const std::string &path) {
  if (!params.is_object() || params.empty())
    fail(file, path,
         "expected an object of sizes, e.g. {\"batch\": 1, \"seq\": 64, \"width\": 768}");
  for (auto it = params.begin(); it != params.end(); ++it)
    if (!it.value().is_number_integer() || it.value().get<int64_t>() <= 0)
      fail(file, path + "/" + it.key(), "expected a positive integer");
  json doc = load_json_file(trace_path);
  if (!doc.is_object() || !doc.contains("model") || !doc["model"].is_string())
    fail(trace_path, "/model",
         "a trace workload with params needs the trace's model name "
         "(scripts/capture-model-trace.py)");
  const std::string model = doc["model"].get<std::string>();
  // Captured at the requested sizes already: every requested size is recorded with that value.
  if (doc.contains("params") && doc["params"].is_object()) {
    bool same = true;
    for (auto it = params.begin(); it != params.end() && same; ++it)
      same = doc["params"].contains(it.key()) && doc["params"][it.key()] == it.value();
    if (same) return trace_path;
  }
  const std::string script = capture_script_path();
  if (!fs::is_regular_file(script))
    fail(file, path,
         "the trace capture script is missing: " + script + " (set OPFORGE_CAPTURE_SCRIPT)");
  const std::string sizes = params.dump();  // nlohmann orders keys: one text per set of sizes
  const fs::path root = trace_cache_dir();
  const fs::path target =
      root / (model + "-" + fnv1a64_hex(read_text(script) + '\0' + model + '\0' + sizes) + ".json");
  if (fs::is_regular_file(target)) return target.string();

  std::string python;
  try {
    python = project_python();
  } catch (const Error &e) {
    fail(file, path, std::string("capturing the trace at these sizes needs torch: ") + e.what());
  }
  std::error_code ec;
  fs::create_directories(root, ec);
  if (ec) throw Error("cannot create the trace cache " + root.string() + ": " + ec.message());
  const std::string suffix = unique_suffix();
  const fs::path tmp = root / (".tmp-" + suffix + ".json"), log = root / (".log-" + suffix);
  std::string why = run_capture(python, script, model, sizes, tmp, log);
  fs::remove(log, ec);
  if (!why.empty()) {
    fs::remove(tmp, ec);
    fail(file, path,
         "capturing " + model + " at " + sizes + " failed (" + script + ", " + why + ")");
  }
  // Another point process may have installed the same capture meanwhile: same content.
  fs::rename(tmp, target, ec);
  if (ec) {
    fs::remove(tmp, ec);
    if (!fs::is_regular_file(target))
      throw Error("cannot install the captured trace as " + target.string());
  }
  return target.string();
}

}  // namespace opforge::harness::detail
