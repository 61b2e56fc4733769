//===- plugin.cpp - the oracle as a loadable module: C entry point over Oracle ===//
#include <exception>

#include "opforge/harness/oracle.h"

namespace {

using opforge::harness::Oracle;
using opforge::harness::OracleResult;
using opforge::harness::Value;

std::string schema(const std::string &overload, std::string &out) {
  try {
    out = Oracle::schema(overload);
    return "";
  } catch (const std::exception &e) {
    return e.what();
  }
}

bool has_overload(const std::string &overload) {
  try {
    return Oracle::has_overload(overload);
  } catch (const std::exception &) {
    return false;
  }
}

std::string call(const std::string &overload, const std::vector<Value> &args,
                 const std::vector<std::pair<std::string, Value>> &kwargs, OracleResult &out) {
  try {
    out = Oracle::call(overload, args, kwargs);
    return "";
  } catch (const std::exception &e) {
    std::string what = e.what();
    return what.empty() ? std::string("unknown error in the ATen oracle") : what;
  }
}

}  // namespace

extern "C" __attribute__((visibility("default"))) const opforge::harness::OraclePluginApi *
opforge_oracle_plugin_v1() {
  static const opforge::harness::OraclePluginApi api{opforge::harness::OraclePluginApi::kAbiVersion,
                                                     schema, has_overload, call};
  return &api;
}
