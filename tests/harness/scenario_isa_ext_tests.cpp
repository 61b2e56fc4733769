// scenario_isa_ext_tests.cpp - a scenario's isa_extensions and its isa_ext sweep axis.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "opforge/harness/scenario.h"
#include "opforge/harness/sweep.h"
#include "opforge/support/error.h"

using namespace opforge;
using namespace opforge::harness;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

const fs::path kSource = fs::path(__FILE__).parent_path().parent_path().parent_path();
const std::string kKernels = (kSource / "tests" / "harness" / "runner_kernels").string();
const std::string kExt = (kSource / "isa" / "ext" / "vfexpscale.ext").lexically_normal().string();

json doc_with(const json &extra) {
  json d = json::parse(R"({"name": "t", "arch": "tiny",
    "workloads": [{"kind": "asm", "path": "spin.S", "args": [10]}]})");
  d.update(extra);
  return d;
}

std::string error_of(const json &doc) {
  try {
    parse_scenario(doc, "t.json", kKernels);
  } catch (const Error &e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST(ScenarioIsaExt, ExtensionsResolveAgainstTheScenarioAndTheAxisAddsPerPoint) {
  // Relative to the scenario's directory (here the runner kernels' one).
  const std::string rel = "../../../isa/ext/vfexpscale.ext";
  Scenario s = parse_scenario(
      doc_with(
          {{"isa_extensions", {rel}},
           {"sweep", json::array({{{"field", "isa_ext"},
                                   {"values", json::array({json::array(), json::array({rel})})}},
                                  {{"field", "pe.dma.engines"}, {"values", {1, 2}}}})}}),
      "t.json", kKernels);
  ASSERT_EQ(s.isa_extensions, std::vector<std::string>{kExt});
  const auto points = expand_sweep(s);
  ASSERT_EQ(points.size(), 4u);
  EXPECT_EQ(point_isa_extensions(s, points[0]), std::vector<std::string>{kExt});
  EXPECT_EQ(point_isa_extensions(s, points[3]), (std::vector<std::string>{kExt, kExt}));
  EXPECT_EQ(points[3].axis_values.at(0).first, "isa_ext");
  EXPECT_EQ(points[3].axis_values.at(0).second, json::array({rel}));
  // Not an architecture field: the point's document has the other axis only.
  const json arch = point_arch_document(s, points[3]);
  EXPECT_FALSE(arch.contains("isa_ext"));
  EXPECT_EQ(arch["pe"]["dma"]["engines"], 2);
}

TEST(ScenarioIsaExt, BadValuesAndFilesAreErrorsNamingThePath) {
  EXPECT_EQ(error_of(doc_with({{"isa_extensions", "x.ext"}})),
            "t.json: /isa_extensions: expected a list of ISA extension files");
  const std::string missing = error_of(doc_with({{"isa_extensions", {"none.ext"}}}));
  EXPECT_NE(missing.find("t.json: /isa_extensions/0: "), std::string::npos) << missing;
  EXPECT_NE(missing.find("none.ext: cannot open ISA extension file"), std::string::npos) << missing;
  EXPECT_EQ(
      error_of(doc_with({{"sweep", json::array({{{"field", "isa_ext"}, {"values", {"a.ext"}}}})}})),
      "t.json: /sweep/0/values/0: an isa_ext value is a list of ISA extension files ([] "
      "for none)");
  // A file that does not parse names its own line and key.
  const fs::path bad = fs::temp_directory_path() / "opforge-scenario-bad.ext";
  std::ofstream(bad) << "extension xb\ninsn vb.v\n  encoding nonsense\n";
  const std::string e = error_of(
      doc_with({{"sweep", json::array({{{"zip",
                                         {{"isa_ext", json::array({json::array({bad.string()})})},
                                          {"pe.dma.engines", {1}}}}}})}}));
  fs::remove(bad);
  EXPECT_NE(e.find("t.json: /sweep/0/zip/isa_ext/0/0: " + bad.string() + ":2: "), std::string::npos)
      << e;
}
