//===- config.h - loading layered JSON configuration documents ------------===//
//
// Reads JSON files (a parse error names file:line:col), resolves preset
// names in search directories, follows `"extends": "<preset>"` inheritance
// (the child's fields override the base's, objects merge field by field),
// applies "--set key=value" overrides and checks the result against a
// Schema. Errors name the file a bad value came from and its JSON path.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "opforge/support/json_schema.h"

namespace opforge {

// The deepest nesting of arrays and objects a JSON document may have.
inline constexpr int kMaxJsonDepth = 64;

// Parse JSON text; `file` names it in errors (file:line:col: malformed JSON: ...).
nlohmann::json parse_json(std::string_view text, const std::string &file);
// Read and parse a JSON file; a missing or unreadable file is an error naming it.
nlohmann::json load_json_file(const std::filesystem::path &path);

// Resolve `name_or_file`: an existing path (or any text containing '/' or
// ending in ".json") is a file; otherwise "<dir>/<name>.json" in the first
// search directory that has it. The error lists the presets available.
std::filesystem::path resolve_config_path(const std::string &name_or_file,
                                          const std::vector<std::filesystem::path> &search_dirs);

// Names of the presets (*.json stems) in the search directories, sorted.
std::vector<std::string> list_presets(const std::vector<std::filesystem::path> &search_dirs);

struct LoadedConfig {
  nlohmann::json resolved;         // normalized against the schema
  std::filesystem::path file;      // the file that was asked for
  std::vector<std::string> chain;  // files read, base first
};

// Load `name_or_file` (following "extends" through the file's own directory,
// then the search directories), apply overrides in order, normalize.
LoadedConfig load_config(const Schema &schema, const std::string &name_or_file,
                         const std::vector<std::string> &overrides,
                         const std::vector<std::filesystem::path> &search_dirs);

// Deep merge: fields of `over` replace those of `base`; objects merge.
void merge_json(nlohmann::json &base, const nlohmann::json &over);

}  // namespace opforge
