//===- inductor_kernels.cpp - kernel sets rendered on demand from the inductor lowering table ===//
#include "opforge/harness/inductor_kernels.h"

#include <unistd.h>

#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "opforge/support/config.h"
#include "opforge/support/error.h"
#include "opforge/support/hash.h"
#ifdef OPFORGE_RUNNER_HAVE_INDUCTOR
#include "opforge/generator/inductor.h"
#endif

namespace opforge::harness {
namespace fs = std::filesystem;
using nlohmann::json;

namespace {

[[noreturn]] void fail(const std::string &file, const std::string &path, const std::string &msg) {
  throw Error(msg, ErrorContext{file, path.empty() ? "/" : path, {}, {}, {}});
}

std::string read_file(const fs::path &p) {
  std::ifstream in(p, std::ios::binary);
  if (!in) throw Error("cannot read " + p.string());
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// "aten::add.Tensor" -> "add.Tensor.py", the kernel library's naming (validate.h).
std::string file_name_for(const std::string &overload) {
  return (overload.rfind("aten::", 0) == 0 ? overload.substr(6) : overload) + ".py";
}

// True when `dir` holds exactly `files` (its .py files, byte for byte).
bool holds_exactly(const fs::path &dir, const std::map<std::string, std::string> &files) {
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) return false;
  size_t seen = 0;
  for (const auto &e : fs::directory_iterator(dir, ec)) {
    if (e.path().extension() != ".py") continue;
    auto it = files.find(e.path().filename().string());
    if (it == files.end()) return false;
    try {
      if (read_file(e.path()) != it->second) return false;
    } catch (const Error &) {
      return false;
    }
    ++seen;
  }
  return !ec && seen == files.size();
}

std::string unique_suffix() {
  static std::atomic<int> counter{0};
  return std::to_string(::getpid()) + "-" + std::to_string(++counter);
}

}  // namespace

InductorKernelSet read_inductor_kernel_set(const std::string &path) {
  InductorKernelSet set;
  set.file = path;
  json doc = parse_json(read_file(path), path);
  if (!doc.is_object()) fail(path, "/", "expected an object");
  for (auto it = doc.begin(); it != doc.end(); ++it)
    if (it.key() != "description" && it.key() != "kernels")
      fail(path, "/" + it.key(), "unknown field '" + it.key() + "'");
  if (!doc.contains("kernels") || !doc["kernels"].is_array() || doc["kernels"].empty())
    fail(path, "/kernels", "expected a non-empty list of {\"overload\", \"schema\"[, \"note\"]}");
  std::set<std::string> seen;
  const json &ks = doc["kernels"];
  for (size_t i = 0; i < ks.size(); ++i) {
    const std::string q = "/kernels/" + std::to_string(i);
    const json &k = ks[i];
    if (!k.is_object()) fail(path, q, "expected an object");
    for (auto it = k.begin(); it != k.end(); ++it)
      if (it.key() != "overload" && it.key() != "schema" && it.key() != "note")
        fail(path, q + "/" + it.key(), "unknown field '" + it.key() + "'");
    InductorKernel kernel;
    for (auto [field, out] : {std::pair<const char *, std::string *>{"overload", &kernel.overload},
                              {"schema", &kernel.schema},
                              {"note", &kernel.note}}) {
      if (!k.contains(field)) {
        if (std::string(field) == "note") continue;
        fail(path, q + "/" + field, std::string("missing required field '") + field + "'");
      }
      if (!k[field].is_string() || k[field].get<std::string>().empty())
        fail(path, q + "/" + field, "expected a non-empty string");
      *out = k[field].get<std::string>();
    }
    if (kernel.overload.rfind("aten::", 0) != 0)
      fail(path, q + "/overload", "expected an ATen overload (\"aten::addmm\")");
    if (!seen.insert(kernel.overload).second)
      fail(path, q + "/overload", kernel.overload + " is listed twice");
    set.kernels.push_back(std::move(kernel));
  }
  return set;
}

#ifdef OPFORGE_RUNNER_HAVE_INDUCTOR

std::map<std::string, std::string> render_inductor_kernel_set(
    const InductorKernelSet &set, const generator::LoweringTable &table) {
  std::map<std::string, std::string> files;
  for (size_t i = 0; i < set.kernels.size(); ++i) {
    const InductorKernel &k = set.kernels[i];
    auto r = table.render(k.overload, k.schema);
    if (!r.error.empty())
      fail(set.file, "/kernels/" + std::to_string(i),
           k.overload + " does not render from the inductor lowering table: " + r.error);
    std::string rel = fs::path(r.template_path).lexically_relative(table.dir()).generic_string();
    std::string header =
        "# Rendered by opforge from the inductor lowering table: do not edit.\n"
        "# overload: " +
        k.overload + ", template: generator/inductor/" + rel +
        "\n# kernel set: " + fs::path(set.file).filename().string() + "\n";
    if (!k.note.empty()) {
      std::istringstream note(k.note);
      for (std::string line; std::getline(note, line);) header += "# note: " + line + "\n";
    }
    files[file_name_for(k.overload)] = header + r.source;
  }
  return files;
}

#else

std::map<std::string, std::string> render_inductor_kernel_set(const InductorKernelSet &set,
                                                              const generator::LoweringTable &) {
  fail(set.file, "/", "this opforge was built without the inductor provider (generator/)");
}

#endif

std::string inductor_kernel_cache_dir() {
  if (const char *env = std::getenv("OPFORGE_CACHE_DIR"); env && *env)
    return (fs::path(env) / "inductor-kernels").string();
#ifdef OPFORGE_BINARY_DIR
  return (fs::path(OPFORGE_BINARY_DIR) / "cache" / "inductor-kernels").string();
#else
  return (fs::temp_directory_path() / ("opforge-cache-" + std::to_string(::getuid())) /
          "inductor-kernels")
      .string();
#endif
}

std::string rendered_inductor_kernel_dir(const std::string &manifest_path,
                                         const std::string &table_dir) {
#ifdef OPFORGE_RUNNER_HAVE_INDUCTOR
  InductorKernelSet set = read_inductor_kernel_set(manifest_path);
  auto table = generator::LoweringTable::load(
      table_dir.empty() ? generator::LoweringTable::default_dir() : table_dir);
  auto files = render_inductor_kernel_set(set, table);
  std::string keyed;
  for (const auto &[name, text] : files) keyed += name + '\0' + text + '\0';
  const fs::path root = inductor_kernel_cache_dir();
  const fs::path dir = root / (fs::path(manifest_path).stem().string() + "-" + fnv1a64_hex(keyed));
  if (holds_exactly(dir, files)) return dir.string();

  std::error_code ec;
  fs::create_directories(root, ec);
  if (ec) throw Error("cannot create the kernel cache " + root.string() + ": " + ec.message());
  const fs::path tmp = root / (".tmp-" + unique_suffix());
  fs::remove_all(tmp, ec);
  fs::create_directories(tmp, ec);
  if (ec) throw Error("cannot create " + tmp.string() + ": " + ec.message());
  for (const auto &[name, text] : files) {
    std::ofstream out(tmp / name, std::ios::binary);
    out << text;
    if (!out) throw Error("cannot write " + (tmp / name).string());
  }
  // Another process may have installed the same set meanwhile; a directory that does
  // not hold it (edited, half-removed) is moved aside first.
  for (int attempt = 0; attempt < 3; ++attempt) {
    fs::rename(tmp, dir, ec);
    if (!ec) return dir.string();
    if (holds_exactly(dir, files)) {
      fs::remove_all(tmp, ec);
      return dir.string();
    }
    const fs::path stale = root / (".stale-" + unique_suffix());
    fs::rename(dir, stale, ec);
    fs::remove_all(stale, ec);
  }
  fs::remove_all(tmp, ec);
  throw Error("cannot install the rendered kernels of " + manifest_path + " as " + dir.string());
#else
  (void)table_dir;
  fail(manifest_path, "/", "this opforge was built without the inductor provider (generator/)");
#endif
}

}  // namespace opforge::harness
