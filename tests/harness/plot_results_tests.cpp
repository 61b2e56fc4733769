// plot_results_tests.cpp - `opforge plot` renders PNGs from a real results file.
#include "runner_sampled_point.h"

using namespace opforge;
namespace fs = std::filesystem;

namespace {

class PlotResults : public runner_test::RunnerDir {};

bool is_png(const std::string &bytes) { return bytes.rfind("\x89PNG\r\n\x1a\n", 0) == 0; }

TEST_F(PlotResults, RooflineSweepAndTimelineFiguresAreWritten) {
  auto results = runner_test::sampled_sweep(*this);
  auto out = dir_ / "plots";
  ASSERT_EQ(opforge("plot " + results.string() + " --out " + out.string()), 0) << err_ << out_;
  for (const char *f :
       {"roofline.png", "sweep_pe_dma_engines.png", "timeline_point0.png", "timeline_point1.png"}) {
    ASSERT_TRUE(fs::exists(out / f)) << f << "\n" << out_;
    std::string bytes = slurp(out / f);
    EXPECT_TRUE(is_png(bytes)) << f;
    EXPECT_GT(bytes.size(), 10000u) << f;  // a rendered figure, not an empty canvas
  }
}

TEST_F(PlotResults, AChainedTraceGetsItsPerOpFigureAndReportSection) {
  nlohmann::json w = {
      {"kind", "trace"},
      {"name", "mlp"},
      {"path", std::string(OPFORGE_SOURCE_DIR) + "/scenarios/traces/mlp.json"},
      {"inductor_kernels", std::string(OPFORGE_SOURCE_DIR) + "/scenarios/traces/kernels.json"}};
  auto sc = write_json("mlp.json",
                       {{"name", "mlp"}, {"arch", "tiny"}, {"timing", "lt"}, {"workloads", {w}}});
  auto results = dir_ / "mlp.h5";
  ASSERT_EQ(opforge("sweep " + sc.string() + " --jobs 1 --quiet --out " + results.string()), 0)
      << err_;
  ASSERT_EQ(opforge("report " + results.string() + " --ops"), 0) << err_;
  EXPECT_NE(out_.find("7 calls, 7 ok, 0 without kernel, 0 failed; simulated"), std::string::npos)
      << out_;
  EXPECT_NE(out_.find("aten::addmm"), std::string::npos) << out_;
  auto out = dir_ / "plots";
  ASSERT_EQ(opforge("plot " + results.string() + " --out " + out.string()), 0) << err_ << out_;
  ASSERT_TRUE(fs::exists(out / "ops_point0.png")) << out_;
  std::string bytes = slurp(out / "ops_point0.png");
  EXPECT_TRUE(is_png(bytes));
  EXPECT_GT(bytes.size(), 10000u);
}

TEST_F(PlotResults, NotAResultsFileIsAnError) {
  std::ofstream(dir_ / "junk.h5") << "not hdf5";
  EXPECT_EQ(opforge("plot " + (dir_ / "junk.h5").string() + " --out " + (dir_ / "p").string()), 1);
  EXPECT_NE(err_.find("junk.h5"), std::string::npos) << err_;
}

// A results file h5py reads but whose contents are malformed (a point's config attribute
// is not JSON) is one error line naming the file, not a Python traceback.
TEST_F(PlotResults, AMalformedResultsFileIsOneErrorLineNotATraceback) {
  auto results = runner_test::sampled_sweep(*this);
  ASSERT_EQ(python("import h5py, sys\n"
                   "with h5py.File(sys.argv[1], 'r+') as f:\n"
                   "    f['points']['0'].attrs['config'] = '{not json'\n",
                   results.string()),
            0)
      << py_;
  EXPECT_EQ(opforge("plot " + results.string() + " --out " + (dir_ / "p").string()), 1);
  EXPECT_EQ(err_.find("Traceback (most recent call last)"), std::string::npos) << err_;
  std::string line = err_;
  while (!line.empty() && line.back() == '\n') line.pop_back();
  EXPECT_EQ(line.find('\n'), std::string::npos) << "more than one line:\n" << err_;
  EXPECT_NE(err_.find(results.string()), std::string::npos) << err_;
  EXPECT_NE(err_.find("/points/0"), std::string::npos) << err_;
}

}  // namespace
