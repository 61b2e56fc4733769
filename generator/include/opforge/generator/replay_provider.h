//===- replay_provider.h - replies recorded in a run log, for reproduction ---===//
//
// Answers each request with the response the run log recorded for the same
// (overload, attempt, dialog, call), including failed replies. A request the
// log has no response for gets a Transport failure naming the key, so a
// diverging replay stops instead of inventing text.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "opforge/generator/provider.h"

namespace opforge::generator {

std::unique_ptr<Provider> make_replay_provider(const std::vector<nlohmann::json> &records);
std::unique_ptr<Provider> make_replay_provider(const std::string &runlog_path);

}  // namespace opforge::generator
