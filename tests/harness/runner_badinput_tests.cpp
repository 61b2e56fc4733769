// runner_badinput_tests.cpp - invalid point configurations and failing calls are per-point
// failures.
#include "opforge/harness/results.h"
#include "opforge/support/h5store.h"
#include "runner_fixture.h"

using namespace opforge;
namespace fs = std::filesystem;
using nlohmann::json;

namespace {

class RunnerBadInput : public runner_test::RunnerDir {};

TEST_F(RunnerBadInput, InvalidConfigurationOfOnePointIsRecordedAndTheRestCompletes) {
  json spin = {{"name", "spin"},
               {"kind", "asm"},
               {"path", std::string(OPFORGE_SOURCE_DIR) + "/tests/harness/runner_kernels/spin.S"},
               {"grid", "per_pe"},
               {"args", {500}}};
  auto sc = write_json("s.json", {{"name", "bad"},
                                  {"arch", "tiny"},
                                  {"sweep", json::parse(R"([{"field": "pe.vector.vlen_bits",
                                                             "values": [128, 100]}])")},
                                  {"workloads", {spin}}});
  EXPECT_EQ(opforge("sweep " + sc.string() + " --jobs 2 --out " + (dir_ / "r.h5").string()), 1)
      << err_;
  h5::File f = h5::File::open(dir_ / "r.h5");
  auto status = f.read_string_column("/summary", "status");
  auto reason = f.read_string_column("/summary", "reason");
  ASSERT_EQ(status.size(), 2u);
  EXPECT_EQ(status[0], "ok") << reason[0];
  EXPECT_EQ(status[1], "failed");
  EXPECT_NE(reason[1].find("vlen_bits"), std::string::npos) << reason[1];
  // The report still reads the file.
  EXPECT_EQ(opforge("report " + (dir_ / "r.h5").string()), 0) << err_;
  EXPECT_NE(out_.find("failed"), std::string::npos) << out_;
}

TEST_F(RunnerBadInput, SweepAxisNamingAnOldOrUnknownConfigFieldIsAUsageError) {
  json spin = {{"kind", "asm"},
               {"path", std::string(OPFORGE_SOURCE_DIR) + "/tests/harness/runner_kernels/spin.S"}};
  auto sc =
      write_json("s.json", {{"name", "bad"},
                            {"arch", "tiny"},
                            {"sweep", json::parse(R"([{"field": "grid.rows", "values": [2]}])")},
                            {"workloads", {spin}}});
  EXPECT_EQ(opforge("sweep " + sc.string() + " --out " + (dir_ / "r.h5").string()), 2);
  EXPECT_NE(err_.find("unknown architecture field 'grid.rows'"), std::string::npos) << err_;
  EXPECT_NE(err_.find("/sweep/0/field"), std::string::npos) << err_;
  auto empty =
      write_json("e.json", {{"name", "e"}, {"arch", "tiny"}, {"workloads", json::array()}});
  EXPECT_EQ(opforge("sweep " + empty.string()), 2);
  EXPECT_NE(err_.find("empty sweep"), std::string::npos) << err_;
}

}  // namespace
