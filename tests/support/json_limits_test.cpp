//===- json_limits_test.cpp - hostile JSON: nesting depth, number overflow ===//
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "opforge/support/arch_config.h"
#include "opforge/support/config.h"
#include "opforge/support/error.h"
#include "opforge/support/h5store.h"

using namespace opforge;
using nlohmann::json;
using ::testing::HasSubstr;
namespace fs = std::filesystem;

namespace {

std::string nested_arrays(size_t depth) {
  return std::string(depth, '[') + std::string(depth, ']');
}
std::string nested_objects(size_t depth) {
  std::string s;
  for (size_t i = 0; i < depth; ++i) s += "{\"a\":";
  s += "1";
  s += std::string(depth, '}');
  return s;
}

std::string error_of(const std::function<void()> &f) {
  try {
    f();
  } catch (const Error &e) {
    return e.what();
  }
  return "(no error)";
}

TEST(JsonLimits, DeepNestingIsAnErrorNamingFileLineAndDepth) {
  std::string text = "{\n \"x\": " + nested_arrays(200000) + "}";
  try {
    parse_json(text, "deep.json");
    FAIL() << "no error";
  } catch (const Error &e) {
    EXPECT_EQ(e.context().file, "deep.json");
    EXPECT_EQ(e.context().line, 2);
    EXPECT_THAT(e.message(), HasSubstr("nested deeper than " + std::to_string(kMaxJsonDepth)));
  }
  // Objects too, and just under the limit is fine.
  EXPECT_THAT(error_of([&] { parse_json(nested_objects(100000), "o.json"); }),
              HasSubstr("o.json:1:"));
  EXPECT_NO_THROW(parse_json(nested_arrays(kMaxJsonDepth), "ok.json"));
  // Brackets inside strings do not count.
  EXPECT_NO_THROW(parse_json("[\"" + std::string(5000, '[') + "\\\"[\"]", "s.json"));
}

TEST(JsonLimits, NumberOverflowNamesFileLineAndField) {
  std::string msg = error_of(
      [] { parse_json("{\"sram\": {\n  \"size_bytes\": 1e99999}}", "big.json"); });
  EXPECT_THAT(msg, HasSubstr("big.json:2:"));
  EXPECT_THAT(msg, HasSubstr("/sram/size_bytes"));
  EXPECT_THAT(msg, HasSubstr("1e99999"));
  // Inside a list, the index is the field.
  msg = error_of([] { parse_json("{\"v\": [1, 2, -1e400]}", "list.json"); });
  EXPECT_THAT(msg, HasSubstr("/v/2"));
  // A malformed document still names line and column and where it was.
  msg = error_of([] { parse_json("{\"a\": {\"b\": [1, }}", "bad.json"); });
  EXPECT_THAT(msg, HasSubstr("bad.json:1:"));
  EXPECT_THAT(msg, HasSubstr("malformed JSON"));
}

TEST(JsonLimits, ArchConfigFilesAreLimited) {
  fs::path dir = fs::path(::testing::TempDir()) / "json_limits_arch";
  fs::create_directories(dir);
  std::ofstream(dir / "deep.json") << "{\"extends\": \"tiny\", \"comment\": "
                                   << nested_arrays(300000) << "}";
  std::ofstream(dir / "big.json") << "{\"extends\": \"tiny\", \"sram\": {\"size_bytes\": 1e99999}}";
  std::string msg = error_of([&] { ArchConfig::load((dir / "deep.json").string()); });
  EXPECT_THAT(msg, HasSubstr("deep.json:1:"));
  EXPECT_THAT(msg, HasSubstr("nested deeper than"));
  msg = error_of([&] { ArchConfig::load((dir / "big.json").string()); });
  EXPECT_THAT(msg, HasSubstr("big.json:1:"));
  EXPECT_THAT(msg, HasSubstr("/sram/size_bytes"));
  fs::remove_all(dir);
}

TEST(JsonLimits, Hdf5JsonAttributesAreLimited) {
  fs::path file = fs::path(::testing::TempDir()) / "json_limits.h5";
  {
    auto f = h5::File::create(file);
    f.create_group("/points/0");
    f.set_attr("/points/0", "axis_values", nested_arrays(200000));
  }
  auto f = h5::File::open(file);
  std::string msg = error_of([&] { f.attr_json("/points/0", "axis_values"); });
  EXPECT_THAT(msg, HasSubstr(file.string()));
  EXPECT_THAT(msg, HasSubstr("axis_values"));
  EXPECT_THAT(msg, HasSubstr("nested deeper than"));
  fs::remove(file);
}

}  // namespace
