//===- oracle.h - ATen's CPU kernels as the reference: call any overload ---===//
//
// Calls an ATen overload by name ("aten::add.Tensor", "aten::_softmax")
// through the c10 dispatcher with boxed arguments built from Values
// (HostTensors with their strides and storage offsets, scalars, lists, None,
// dtypes, layouts, memory formats, devices). Positional and keyword arguments
// are matched to the schema; omitted ones take the schema's defaults. Returns
// the outputs as Values and the values of the arguments the schema marks as
// written. libtorch stays inside this library (opforge_oracle): no torch header
// is visible here.
//
// Two ways in: link opforge_oracle and call Oracle directly (tests), or load
// the oracle plugin (libopforge_oracle_plugin.so, the same code as a module)
// with OraclePlugin::get() at run time, so programs pay libtorch's start-up
// only in the commands that call ATen.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "opforge/harness/corpus.h"

namespace opforge::harness {

struct OracleResult {
  Value out;                                           // one value, or a List for several returns
  std::vector<std::pair<std::string, Value>> mutated;  // written arguments after the call
};

class Oracle {
 public:
  // The overload's schema text; throws opforge::Error naming an unknown overload.
  static std::string schema(const std::string &overload);
  static bool has_overload(const std::string &overload);
  // Throws opforge::Error (naming the overload and argument) for bad arguments
  // and for errors ATen raises.
  static OracleResult call(const std::string &overload, const std::vector<Value> &args,
                           const std::vector<std::pair<std::string, Value>> &kwargs = {});
  static OracleResult call(const Call &c) { return call(c.overload, c.args, c.kwargs); }
};

// What the plugin exports (extern "C" opforge_oracle_plugin_v1()). Each entry
// returns "" on success, else the error text (no exception crosses the module
// boundary).
struct OraclePluginApi {
  static constexpr int kAbiVersion = 1;
  int abi_version = kAbiVersion;
  std::string (*schema)(const std::string &overload, std::string &out) = nullptr;
  bool (*has_overload)(const std::string &overload) = nullptr;
  std::string (*call)(const std::string &overload, const std::vector<Value> &args,
                      const std::vector<std::pair<std::string, Value>> &kwargs,
                      OracleResult &out) = nullptr;
};

// The oracle plugin, loaded on first use: $OPFORGE_ORACLE_PLUGIN, else
// libopforge_oracle_plugin.so beside the running executable, else the path
// the build put it at. Same interface as Oracle.
class OraclePlugin {
 public:
  // Throws opforge::Error naming every path tried when the plugin is missing
  // or does not load.
  static const OraclePlugin &get();
  // True when the plugin has been loaded in this process (tests: start-up paths
  // that must not load libtorch).
  static bool loaded();

  std::string schema(const std::string &overload) const;
  bool has_overload(const std::string &overload) const;
  OracleResult call(const std::string &overload, const std::vector<Value> &args,
                    const std::vector<std::pair<std::string, Value>> &kwargs = {}) const;
  OracleResult call(const Call &c) const { return call(c.overload, c.args, c.kwargs); }
  const std::string &path() const { return path_; }
  static OraclePlugin from(std::string path, const OraclePluginApi *api);

 private:
  std::string path_;
  const OraclePluginApi *api_ = nullptr;
};

}  // namespace opforge::harness
