//===- test_util.h - shared helpers for the chip model tests --------------===//
#pragma once

#include <fstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "opforge/model/params.h"

namespace opforge::model::testing {

// The tiny preset with KEY=VALUE overrides applied.
inline ChipParams preset(const std::string &name, const std::vector<std::string> &overrides = {}) {
  std::string path = std::string(OPFORGE_SOURCE_DIR) + "/model/presets/" + name + ".json";
  nlohmann::json doc = nlohmann::json::parse(std::ifstream(path));
  for (const auto &o : overrides) apply_override(doc, o);
  return chip_params_from_json(doc, path);
}

}  // namespace opforge::model::testing
