// runner_aten_tests.cpp - aten and trace workloads: kernel-library wrappers on the chip, per-op
// records.
#include "opforge/harness/results.h"
#include "opforge/support/h5store.h"
#include "runner_fixture.h"

using namespace opforge;
namespace fs = std::filesystem;
using nlohmann::json;

namespace {

class AtenRunner : public runner_test::RunnerDir {
 protected:
  fs::path scenario(const json &workloads) {
    return write_json("s.json", {{"name", "aten"},
                                 {"arch", "tiny"},
                                 {"timing", "lt"},
                                 {"timeout_s", 120},
                                 {"workloads", workloads}});
  }
};

TEST_F(AtenRunner, AddTensorRunsOnTheChipVerifiedAndAnOpWithoutKernelIsRecordedAsUnsupported) {
  json w = json::parse(R"([
    {"name": "add", "kind": "aten", "op": "aten::add.Tensor", "shapes": [[4, 96], [4, 96]],
     "dtypes": ["float32"], "kwargs": {"alpha": 2}},
    {"name": "gelu", "kind": "aten", "op": "gelu", "shapes": [[64]]}
  ])");
  fs::path sc = scenario(w);
  EXPECT_EQ(opforge("sweep " + sc.string() + " --jobs 2 --out " + (dir_ / "r.h5").string()), 1)
      << err_;
  harness::PointResult add = harness::read_result_point(dir_ / "r.h5", 0);
  EXPECT_EQ(add.status, "ok") << add.reason;
  ASSERT_EQ(add.ops.size(), 1u);
  EXPECT_EQ(add.ops[0].op, "aten::add.Tensor");
  EXPECT_EQ(add.ops[0].status, "ok");
  EXPECT_GE(add.ops[0].launches, 1u);
  EXPECT_GT(add.ops[0].cycles, 0u);
  EXPECT_EQ(add.cycles, add.ops[0].cycles);
  EXPECT_NE(add.ops[0].call.find("f32[4, 96]"), std::string::npos) << add.ops[0].call;
  EXPECT_FALSE(add.counters.empty());
  EXPECT_FALSE(add.instances.empty());
  harness::PointResult gelu = harness::read_result_point(dir_ / "r.h5", 1);
  EXPECT_EQ(gelu.status, "failed");
  ASSERT_EQ(gelu.ops.size(), 1u);
  EXPECT_EQ(gelu.ops[0].status, "unsupported");
  EXPECT_NE(gelu.ops[0].reason.find("no wrapper 'gelu'"), std::string::npos) << gelu.ops[0].reason;
  EXPECT_NE(gelu.reason.find("1 of 1 calls failed"), std::string::npos) << gelu.reason;
  // The report table carries the new columns.
  std::string report = harness::format_report(dir_ / "r.h5");
  EXPECT_NE(report.find("roofline"), std::string::npos) << report;
}

TEST_F(AtenRunner, TraceRunsInCallOrderAndContinuesPastOpsWithoutKernels) {
  json trace = json::parse(R"({"model": "t", "calls": [
    {"op": "aten::add.Tensor", "args": [{"shape": [8, 16], "dtype": "float32"},
                                        {"shape": [8, 16], "dtype": "float32"}]},
    {"op": "aten::view", "args": [{"shape": [8, 16], "dtype": "float32"}, [128]]},
    {"op": "aten::gelu", "args": [{"shape": [128], "dtype": "float32"}]},
    {"op": "aten::exp", "args": [{"shape": [128], "dtype": "float32"}]}
  ]})");
  write_json("trace.json", trace);
  fs::path sc = scenario({{{"name", "model"}, {"kind", "trace"}, {"path", "trace.json"}}});
  EXPECT_EQ(opforge("sweep " + sc.string() + " --out " + (dir_ / "r.h5").string()), 1) << err_;
  harness::PointResult r = harness::read_result_point(dir_ / "r.h5", 0);
  ASSERT_EQ(r.ops.size(), 4u);
  EXPECT_EQ(r.ops[0].status, "ok") << r.ops[0].reason;
  EXPECT_EQ(r.ops[1].status, "ok") << r.ops[1].reason;  // the view runtime: no kernel launch
  EXPECT_EQ(r.ops[1].launches, 0u);
  EXPECT_EQ(r.ops[2].status, "unsupported");
  EXPECT_EQ(r.ops[3].status, "ok") << r.ops[3].reason;
  EXPECT_EQ(r.cycles, r.ops[0].cycles + r.ops[3].cycles);
  EXPECT_GT(r.ops[3].cycles, 0u);
  EXPECT_NE(r.reason.find("1 of 4 calls failed"), std::string::npos) << r.reason;
  EXPECT_NE(r.reason.find("aten::gelu"), std::string::npos) << r.reason;
  // The per-op table is readable with h5py.
  ASSERT_EQ(python("import h5py, sys\n"
                   "t = h5py.File(sys.argv[1])['points/0/ops'][:]\n"
                   "print([x.decode() for x in t['status']])\n",
                   (dir_ / "r.h5").string()),
            0)
      << py_;
  EXPECT_NE(py_.find("['ok', 'ok', 'unsupported', 'ok']"), std::string::npos) << py_;
}

}  // namespace
