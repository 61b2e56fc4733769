//===- corpus_fixture.cpp - small OpInfo corpora made by the real exporter -===//
#include "corpus_fixture.h"

#include <unistd.h>

#include <array>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include "opforge/support/python.h"
#include <stdexcept>

namespace fs = std::filesystem;

namespace opforge::test {

int run_command(const std::string &cmd, std::string *output) {
  FILE *p = popen((cmd + " 2>&1").c_str(), "r");
  if (!p) return -1;
  std::array<char, 4096> buf{};
  std::string out;
  size_t n;
  while ((n = fread(buf.data(), 1, buf.size(), p)) > 0) out.append(buf.data(), n);
  int status = pclose(p);
  if (output) *output = out;
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

int run_exporter(const std::vector<std::string> &args, std::string *output) {
  std::string cmd =
      "'" + opforge::project_python() + "' '" OPFORGE_SOURCE_DIR "/scripts/export-opinfo.py'";
  for (const auto &a : args) cmd += " '" + a + "'";
  return run_command(cmd, output);
}

std::string temp_dir() {
  std::string tmpl = (fs::temp_directory_path() / "opforge-harness-XXXXXX").string();
  if (!mkdtemp(tmpl.data())) throw std::runtime_error("mkdtemp failed");
  static std::vector<std::string> dirs;
  static struct Cleanup {
    ~Cleanup() {
      std::error_code ec;
      for (const auto &d : dirs) fs::remove_all(d, ec);
    }
  } cleanup;
  dirs.push_back(tmpl);
  return tmpl;
}

std::string exported_corpus(const std::string &name, const std::vector<std::string> &args) {
  const fs::path script = fs::path(OPFORGE_SOURCE_DIR) / "scripts" / "export-opinfo.py";
  const auto stamp = fs::last_write_time(script).time_since_epoch().count();
  std::string key = std::to_string(stamp);
  for (const auto &a : args) key += "\x1f" + a;
  const fs::path dir = fs::path(OPFORGE_BINARY_DIR) / "tests" / "corpora";
  fs::create_directories(dir);
  const fs::path out = dir / (name + "_" + std::to_string(std::hash<std::string>{}(key)) + ".h5");
  if (fs::exists(out)) return out.string();
  // Export to a private name, then rename: parallel test processes never see a partial file.
  const fs::path tmp = dir / (name + "_" + std::to_string(getpid()) + ".tmp.h5");
  std::vector<std::string> full = args;
  full.insert(full.end(), {"--quiet", "--out", tmp.string()});
  std::string log;
  if (run_exporter(full, &log) != 0) throw std::runtime_error("export-opinfo.py failed:\n" + log);
  fs::rename(tmp, out);
  return out.string();
}

const std::string &small_corpus() {
  static const std::string path = exported_corpus(
      "small_corpus",
      {"--ops",
       "add,sum,softmax,mm,index_select,cat,where,sigmoid,exp,nn.functional.layer_norm,"
       "mean,amax,argmax,gather,clamp,abs,mul,div,matmul,transpose,index_put,isclose,max."
       "reduction_with_dim,clone",
       "--dtypes", "float32,bfloat16,int64,bool", "--max-samples", "12"});
  return path;
}

}  // namespace opforge::test
