//===- config_test.cpp - JSON loading, schema validation and overrides ----===//
#include "opforge/support/config.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fstream>

#include "opforge/support/error.h"
#include "opforge/support/json_schema.h"

using namespace opforge;
using nlohmann::json;
using ::testing::HasSubstr;
namespace fs = std::filesystem;

namespace {

Schema test_schema() {
  return Schema(object(
      "", "test",
      {
          string("name").def(""), metadata("comment", "free text"),
          quantity(units::Dimension::Frequency, "clock_ghz").range(0.001, 10).def(1.0),
          object("grid", "grid",
                 {integer("rows").range(1, 64).def(2), integer("cols").range(1, 64).def(2)}),
          object("sram", "sram",
                 {
                     quantity(units::Dimension::Size, "size_bytes").range(0, 1ull << 40).def(1024),
                     quantity(units::Dimension::Size, "line_bytes").range(8, 4096).def(64),
                     enumeration({"cache", "scratch"}, "mode").def("cache"),
                     quantity(units::Dimension::Bandwidth, "bandwidth_gbps")
                         .range(0.001, 1e6)
                         .def(100.0),
                     boolean("ecc").def(false),
                     number("ratio").range(0, 1).def(0.5),
                 }),
          integer("seed"),  // required
      }));
}

class ConfigFiles : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::path(::testing::TempDir()) /
           ("opforge_config_" +
            std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::string write(const std::string &name, const std::string &text) {
    fs::path p = dir_ / name;
    std::ofstream(p) << text;
    return p.string();
  }
  // The error message of loading `name` from dir_ with the test schema.
  std::string load_error(const std::string &name, std::vector<std::string> overrides = {}) {
    try {
      load_config(schema_, name, overrides, {dir_});
    } catch (const Error &e) {
      return e.what();
    }
    return "";
  }
  json load(const std::string &name, std::vector<std::string> overrides = {}) {
    return load_config(schema_, name, overrides, {dir_}).resolved;
  }

  fs::path dir_;
  Schema schema_ = test_schema();
};

TEST_F(ConfigFiles, MalformedJsonNamesFileLineAndColumn) {
  std::string p = write("bad.json", "{\n  \"seed\": 1,\n  \"grid\": { \"rows\": 2, }\n}\n");
  std::string msg = load_error("bad");
  EXPECT_THAT(msg, HasSubstr(p + ":3:24: malformed JSON")) << msg;
  try {
    load_json_file(p);
    FAIL() << "no error";
  } catch (const Error &e) {
    EXPECT_EQ(e.context().line, 3);
    EXPECT_EQ(e.context().col, 24);
    EXPECT_EQ(e.context().file, p);
  }
}

TEST_F(ConfigFiles, TruncatedJsonPointsAtTheEnd) {
  std::string p = write("cut.json", "{\"seed\": 1,\n\"grid\": {");
  EXPECT_THAT(load_error("cut"), HasSubstr(p + ":2:10: malformed JSON"));
}

TEST_F(ConfigFiles, MissingFileIsNamed) {
  EXPECT_THAT(load_error((dir_ / "nope.json").string()),
              HasSubstr("nope.json: no such configuration file"));
  EXPECT_THAT(load_error("nope"), HasSubstr("unknown preset 'nope'"));
}

TEST_F(ConfigFiles, UnknownPresetListsKnownOnes) {
  write("alpha.json", R"({"seed": 1})");
  write("beta.json", R"({"seed": 1})");
  EXPECT_THAT(load_error("gamma"), HasSubstr("known presets: alpha, beta"));
}

TEST_F(ConfigFiles, UnknownFieldNamesPathAndSuggests) {
  std::string p = write("u.json", R"({"seed": 1, "sram": {"size_byte": 4}})");
  EXPECT_THAT(
      load_error("u"),
      HasSubstr(p + ": /sram/size_byte: unknown field 'size_byte' (did you mean 'size_bytes'?)"));
}

TEST_F(ConfigFiles, WrongTypeNamesPath) {
  std::string p = write("t.json", R"({"seed": 1, "grid": {"rows": "four"}})");
  EXPECT_THAT(load_error("t"),
              HasSubstr(p + ": /grid/rows: expected an integer, got string \"four\""));
  write("t2.json", R"({"seed": 1, "grid": [1, 2]})");
  EXPECT_THAT(load_error("t2"), HasSubstr("/grid: expected an object, got array"));
  write("t3.json", R"({"seed": 1.5})");
  EXPECT_THAT(load_error("t3"), HasSubstr("/seed: expected an integer, got 1.5"));
  write("t4.json", R"({"seed": 1, "sram": {"ecc": 1}})");
  EXPECT_THAT(load_error("t4"), HasSubstr("/sram/ecc: expected true or false"));
}

TEST_F(ConfigFiles, BadUnitNamesPathAndText) {
  std::string p = write("bu.json", R"({"seed": 1, "sram": {"size_bytes": "12XB"}})");
  EXPECT_THAT(load_error("bu"),
              HasSubstr(p + ": /sram/size_bytes: bad size '12XB': unknown unit 'XB'"));
  write("bu2.json", R"({"seed": 1, "clock_ghz": "1.35GB/s"})");
  EXPECT_THAT(load_error("bu2"), HasSubstr("/clock_ghz: bad frequency '1.35GB/s': unknown unit"));
  write("bu3.json", R"({"seed": 1, "sram": {"size_bytes": -5}})");
  EXPECT_THAT(load_error("bu3"), HasSubstr("/sram/size_bytes: value -5 must not be negative"));
}

TEST_F(ConfigFiles, OutOfRangeNamesPathAndRange) {
  std::string p = write("r.json", R"({"seed": 1, "grid": {"rows": 0}})");
  EXPECT_THAT(load_error("r"), HasSubstr(p + ": /grid/rows: value 0 out of range (allowed 1..64)"));
  write("r2.json", R"({"seed": 1, "sram": {"line_bytes": "8KiB"}})");
  EXPECT_THAT(load_error("r2"),
              HasSubstr("/sram/line_bytes: value 8192 bytes out of range (allowed 8..4096 bytes)"));
}

TEST_F(ConfigFiles, BadEnumListsChoices) {
  std::string p = write("e.json", R"({"seed": 1, "sram": {"mode": "victim"}})");
  EXPECT_THAT(load_error("e"),
              HasSubstr(p + ": /sram/mode: bad value 'victim' (expected one of cache, scratch)"));
}

TEST_F(ConfigFiles, MissingRequiredFieldIsNamed) {
  std::string p = write("m.json", R"({"grid": {"rows": 3}})");
  EXPECT_THAT(load_error("m"), HasSubstr(p + ": /seed: missing required field 'seed'"));
}

TEST_F(ConfigFiles, NormalizeFillsDefaultsAndConvertsUnits) {
  write("ok.json", R"({"seed": 7, "comment": "kept out", "clock_ghz": "800MHz",
                       "sram": {"size_bytes": "2KiB", "bandwidth_gbps": "1.5TB/s"}})");
  json j = load("ok");
  EXPECT_DOUBLE_EQ(j["clock_ghz"].get<double>(), 0.8);
  EXPECT_EQ(j["sram"]["size_bytes"].get<uint64_t>(), 2048u);
  EXPECT_DOUBLE_EQ(j["sram"]["bandwidth_gbps"].get<double>(), 1500);
  EXPECT_EQ(j["sram"]["line_bytes"].get<uint64_t>(), 64u);
  EXPECT_EQ(j["grid"]["rows"].get<int>(), 2);
  EXPECT_EQ(j["sram"]["mode"], "cache");
  EXPECT_FALSE(j.contains("comment"));
  EXPECT_EQ(j["seed"].get<int>(), 7);
}

TEST_F(ConfigFiles, OverridesParseValuesPerFieldType) {
  write("o.json", R"({"seed": 1})");
  json j =
      load("o", {"sram.size=128MiB", "grid.rows=4", "sram.mode=scratch", "sram.ecc=true",
                 "clock_ghz=1.35GHz", "sram.ratio=0.25", "sram.bandwidth_gbps=204.8", "name=x"});
  EXPECT_EQ(j["sram"]["size_bytes"].get<uint64_t>(), 128ull << 20);
  EXPECT_EQ(j["grid"]["rows"].get<int>(), 4);
  EXPECT_EQ(j["sram"]["mode"], "scratch");
  EXPECT_EQ(j["sram"]["ecc"], true);
  EXPECT_DOUBLE_EQ(j["clock_ghz"].get<double>(), 1.35);
  EXPECT_DOUBLE_EQ(j["sram"]["ratio"].get<double>(), 0.25);
  EXPECT_DOUBLE_EQ(j["sram"]["bandwidth_gbps"].get<double>(), 204.8);
  EXPECT_EQ(j["name"], "x");
}

TEST_F(ConfigFiles, LaterOverridesWin) {
  write("o.json", R"({"seed": 1})");
  EXPECT_EQ(load("o", {"grid.rows=4", "grid.rows=8"})["grid"]["rows"].get<int>(), 8);
}

TEST_F(ConfigFiles, BadOverridesNameTheKey) {
  write("o.json", R"({"seed": 1})");
  EXPECT_THAT(
      load_error("o", {"sram.sise=1MiB"}),
      HasSubstr("--set sram.sise=1MiB: unknown key 'sram.sise' (did you mean 'size_bytes'?)"));
  EXPECT_THAT(load_error("o", {"nosuch.rows=1"}), HasSubstr("unknown key 'nosuch.rows'"));
  EXPECT_THAT(
      load_error("o", {"sram.size=12XB"}),
      HasSubstr("--set sram.size=12XB: key 'sram.size_bytes': bad size '12XB': unknown unit 'XB'"));
  EXPECT_THAT(load_error("o", {"grid.rows=four"}),
              HasSubstr("bad value 'four' for key 'grid.rows' (expected an integer)"));
  EXPECT_THAT(load_error("o", {"grid.rows=100"}),
              HasSubstr("key 'grid.rows': value 100 out of range (allowed 1..64)"));
  EXPECT_THAT(load_error("o", {"sram.mode=victim"}),
              HasSubstr("key 'sram.mode': bad value 'victim'"));
  EXPECT_THAT(load_error("o", {"sram.ecc=maybe"}), HasSubstr("expected true or false"));
  EXPECT_THAT(load_error("o", {"grid=4"}),
              HasSubstr("key 'grid' is a group; set one of its fields: rows, cols"));
  EXPECT_THAT(load_error("o", {"grid.rows"}), HasSubstr("expected KEY=VALUE"));
  EXPECT_THAT(load_error("o", {"grid.rows="}), HasSubstr("empty value for key 'grid.rows'"));
  EXPECT_THAT(load_error("o", {"comment=hi"}), HasSubstr("documentation"));
}

TEST_F(ConfigFiles, ExtendsMergesAndBlamesTheRightFile) {
  std::string base = write(
      "base.json", R"({"seed": 3, "grid": {"rows": 4, "cols": 4}, "sram": {"mode": "scratch"}})");
  write("child.json", R"({"extends": "base", "grid": {"cols": 8}})");
  auto loaded = load_config(schema_, "child", {}, {dir_});
  EXPECT_EQ(loaded.resolved["grid"]["rows"].get<int>(), 4);
  EXPECT_EQ(loaded.resolved["grid"]["cols"].get<int>(), 8);
  EXPECT_EQ(loaded.resolved["seed"].get<int>(), 3);
  EXPECT_EQ(loaded.resolved["sram"]["mode"], "scratch");
  ASSERT_EQ(loaded.chain.size(), 2u);
  EXPECT_EQ(loaded.chain[0], base);

  write("badbase.json", R"({"seed": 3, "grid": {"rows": 400}})");
  write("child2.json", R"({"extends": "badbase", "grid": {"cols": 8}})");
  EXPECT_THAT(load_error("child2"), HasSubstr("badbase.json: /grid/rows: value 400 out of range"));

  std::string c3 = write("child3.json", R"({"extends": "missing"})");
  EXPECT_THAT(load_error("child3"), HasSubstr(c3 + ": /extends: unknown preset 'missing'"));
  write("loop_a.json", R"({"extends": "loop_b", "seed": 1})");
  write("loop_b.json", R"({"extends": "loop_a"})");
  EXPECT_THAT(load_error("loop_a"), HasSubstr("\"extends\" cycle"));
}

TEST(Schema, FindResolvesUnitSuffixOnlyWhenUnambiguous) {
  Schema s = test_schema();
  std::string resolved;
  ASSERT_NE(s.find("sram.size", &resolved), nullptr);
  EXPECT_EQ(resolved, "sram.size_bytes");
  EXPECT_EQ(s.find("sram.nothing"), nullptr);
  EXPECT_EQ(s.find("grid.rows.x"), nullptr);
  EXPECT_EQ(s.find(""), nullptr);
}

TEST(Schema, LeavesListEveryFieldInOrder) {
  Schema s = test_schema();
  std::vector<std::string> paths;
  for (const auto &l : s.leaves()) paths.push_back(l.dotted_path);
  EXPECT_EQ(paths,
            (std::vector<std::string>{"name", "comment", "clock_ghz", "grid.rows", "grid.cols",
                                      "sram.size_bytes", "sram.line_bytes", "sram.mode",
                                      "sram.bandwidth_gbps", "sram.ecc", "sram.ratio", "seed"}));
}

TEST(Schema, DumpsInDeclarationOrder) {
  Schema s = test_schema();
  json doc = s.normalize({{"seed", 1}}, "x");
  std::string text = s.dump_ordered(doc, -1);
  EXPECT_TRUE(text.starts_with(R"({"name":"","clock_ghz":1.0,"grid":{"rows":2,"cols":2})")) << text;
  EXPECT_LT(text.find("\"sram\""), text.find("\"seed\""));
  EXPECT_EQ(json::parse(text), doc);
}

TEST(Schema, DescribesDefaultsWithUnits) {
  Schema s = test_schema();
  EXPECT_EQ(describe_default(*s.find("clock_ghz")), "1GHz");
  EXPECT_EQ(describe_default(*s.find("sram.size_bytes")), "1KiB");
  EXPECT_EQ(describe_default(*s.find("sram.bandwidth_gbps")), "100GB/s");
  EXPECT_EQ(describe_default(*s.find("sram.mode")), "cache");
  EXPECT_EQ(describe_default(*s.find("seed")), "(required)");
}

}  // namespace
