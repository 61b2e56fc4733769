//===- loader.cpp - finds and dlopens the oracle plugin (no torch here) ----===//
#include <dlfcn.h>
#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <mutex>

#include "opforge/harness/oracle.h"
#include "opforge/support/error.h"

namespace opforge::harness {
namespace {

constexpr const char *kPluginFile = "libopforge_oracle_plugin.so";
std::atomic<bool> g_loaded{false};

std::vector<std::string> candidate_paths() {
  std::vector<std::string> paths;
  if (const char *env = std::getenv("OPFORGE_ORACLE_PLUGIN"); env && *env) {
    paths.push_back(env);
    return paths;  // an explicit choice is the only one tried
  }
  std::error_code ec;
  auto exe = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (!ec) paths.push_back((exe.parent_path() / kPluginFile).string());
#ifdef OPFORGE_ORACLE_PLUGIN_PATH
  if (paths.empty() || paths.back() != OPFORGE_ORACLE_PLUGIN_PATH)
    paths.push_back(OPFORGE_ORACLE_PLUGIN_PATH);
#endif
  return paths;
}

// The first candidate that loads; else one line naming the install command and every path tried.
OraclePlugin load() {
  std::string tried;
  auto note = [&](const std::string &path, const std::string &why) {
    tried += (tried.empty() ? "" : "; ") + path + ": " + why;
  };
  for (const auto &path : candidate_paths()) {
    std::error_code ec;
    if (!std::filesystem::exists(path, ec)) {
      note(path, "no such file");
      continue;
    }
    void *handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
      const char *why = dlerror();
      note(path, why ? why : "dlopen failed");
      continue;
    }
    using Entry = const OraclePluginApi *(*)();
    auto entry = reinterpret_cast<Entry>(dlsym(handle, "opforge_oracle_plugin_v1"));
    if (!entry) {
      note(path, "no opforge_oracle_plugin_v1 entry point");
      continue;
    }
    const OraclePluginApi *api = entry();
    if (!api || api->abi_version != OraclePluginApi::kAbiVersion) {
      note(path, "plugin ABI version mismatch");
      continue;
    }
    return OraclePlugin::from(path, api);
  }
  // One line: what failed, the command that installs torch, what else to do, what was tried.
  throw Error("the ATen oracle plugin (" + std::string(kPluginFile) +
              ", libtorch from the project venv) could not be loaded; install torch with "
              "'bash scripts/install-deps.sh' in the opforge source tree and rebuild opforge, "
              "or set OPFORGE_ORACLE_PLUGIN to the plugin's path (tried " +
              (tried.empty() ? std::string("no paths") : tried) + ")");
}

}  // namespace

OraclePlugin OraclePlugin::from(std::string path, const OraclePluginApi *api) {
  OraclePlugin p;
  p.path_ = std::move(path);
  p.api_ = api;
  return p;
}

const OraclePlugin &OraclePlugin::get() {
  static std::mutex mutex;
  static std::unique_ptr<OraclePlugin> plugin;
  std::lock_guard<std::mutex> lock(mutex);
  if (!plugin) {
    plugin = std::make_unique<OraclePlugin>(load());
    g_loaded = true;
  }
  return *plugin;
}

bool OraclePlugin::loaded() { return g_loaded; }

std::string OraclePlugin::schema(const std::string &overload) const {
  std::string out;
  std::string err = api_->schema(overload, out);
  if (!err.empty()) throw Error(err);
  return out;
}

bool OraclePlugin::has_overload(const std::string &overload) const {
  return api_->has_overload(overload);
}

OracleResult OraclePlugin::call(const std::string &overload, const std::vector<Value> &args,
                                const std::vector<std::pair<std::string, Value>> &kwargs) const {
  OracleResult out;
  std::string err = api_->call(overload, args, kwargs, out);
  if (!err.empty()) throw Error(err);
  return out;
}

}  // namespace opforge::harness
