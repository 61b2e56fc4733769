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

namespace {

using nlohmann::json;

class PlotFigures : public runner_test::RunnerDir {
 protected:
  json workload(const std::string &name, int bytes) {
    json w = json::parse(R"({"kind": "asm", "grid": "per_pe"})");
    w["name"] = name;
    w["path"] = std::string(OPFORGE_SOURCE_DIR) + "/bench/micro/stream.S";
    w["args"] = json::array(
        {{{"alloc_bytes", bytes}, {"per_program", true}}, bytes, 4096, {{"local_base", 0}}, 0, 0});
    return w;
  }
  // Sweeps `sweep` over two stream workloads on the tiny chip and plots it; returns figures.json.
  json plot(const json &sweep) {
    auto sc =
        write_json("s.json", {{"name", "figs"},
                              {"arch", "tiny"},
                              {"timing", "lt"},
                              {"sweep", sweep},
                              {"workloads", {workload("small", 8192), workload("big", 32768)}}});
    auto results = dir_ / "r.h5";
    EXPECT_EQ(opforge("sweep " + sc.string() + " --jobs 2 --quiet --out " + results.string()), 0)
        << err_;
    EXPECT_EQ(opforge("plot " + results.string() + " --out " + (dir_ / "p").string()), 0)
        << err_ << out_;
    json figs;
    std::ifstream(dir_ / "p" / "figures.json") >> figs;
    return figs;
  }
  static std::vector<json> of_kind(const json &figs, const std::string &kind) {
    std::vector<json> v;
    for (const auto &f : figs["figures"])
      if (f["kind"] == kind) v.push_back(f);
    return v;
  }
};

// Zipped fields are one axis: a line plot over its steps, never a heatmap of one field against
// the other (a diagonal with empty cells).
TEST_F(PlotFigures, ZippedAxesGiveALinePlot) {
  json figs = plot(json::parse(R"([{"zip": {"pe.dma.engines": [1, 2], "clock_ghz": [1, 2]}}])"));
  auto lines = of_kind(figs, "line");
  ASSERT_EQ(lines.size(), 1u) << figs.dump(1);
  EXPECT_EQ(lines[0]["x_axis"].size(), 2u) << lines[0].dump();
  EXPECT_TRUE(of_kind(figs, "heatmap").empty()) << figs.dump(1);
  EXPECT_TRUE(fs::exists(dir_ / "p" / lines[0]["file"].get<std::string>()));
}

// Two axes: one heatmap whose panels (one per workload) share a single colour scale that
// spans every panel's cycles.
TEST_F(PlotFigures, HeatmapPanelsShareOneColourScale) {
  json figs = plot(json::parse(R"([{"field": "pe.dma.engines", "values": [1, 2]},
                                   {"field": "clock_ghz", "values": [1, 2]}])"));
  auto maps = of_kind(figs, "heatmap");
  ASSERT_EQ(maps.size(), 1u) << figs.dump(1);
  EXPECT_EQ(maps[0]["colour_scales"], 1) << maps[0].dump();
  EXPECT_EQ(maps[0]["panels"], 2) << maps[0].dump();
  // The scale spans both workloads: the small stream's fastest point to the big one's slowest.
  ASSERT_EQ(python("import h5py, json, sys\n"
                   "f = h5py.File(sys.argv[1]); c = [int(x) for x in f['summary']['cycles']]\n"
                   "m = json.load(open(sys.argv[2]))\n"
                   "h = [x for x in m['figures'] if x['kind'] == 'heatmap'][0]\n"
                   "assert h['vmin'] == min(c) and h['vmax'] == max(c), (h, c)\n"
                   "print('shared-scale-ok')\n",
                   (dir_ / "r.h5").string() + " " + (dir_ / "p" / "figures.json").string()),
            0)
      << py_;
}

// The Pareto plot needs the energy and area columns; without them it is skipped with a note
// naming them, and the other figures are still drawn.
TEST_F(PlotFigures, ParetoIsSkippedWithANoteWhenEnergyColumnsAreAbsent) {
  json figs = plot(json::parse(R"([{"field": "pe.dma.engines", "values": [1, 2]}])"));
  ASSERT_EQ(python("import h5py, numpy as np, sys\n"
                   "with h5py.File(sys.argv[1], 'r+') as f:\n"
                   "    s = f['summary'][:]\n"
                   "    keep = [n for n in s.dtype.names if n not in ('energy_j', 'avg_power_w',\n"
                   "            'perf_per_w', 'area_mm2')]\n"
                   "    t = np.empty(len(s), dtype=[(n, s.dtype[n]) for n in keep])\n"
                   "    for n in keep: t[n] = s[n]\n"
                   "    del f['summary']\n"
                   "    f.create_dataset('summary', data=t, maxshape=(None,))\n",
                   (dir_ / "r.h5").string()),
            0)
      << py_;
  fs::remove_all(dir_ / "p");
  ASSERT_EQ(opforge("plot " + (dir_ / "r.h5").string() + " --out " + (dir_ / "p").string()), 0)
      << err_;
  EXPECT_NE(out_.find("note: pareto.png not drawn: the results have no energy_j or area_mm2"),
            std::string::npos)
      << out_;
  EXPECT_FALSE(fs::exists(dir_ / "p" / "pareto.png"));
  EXPECT_TRUE(fs::exists(dir_ / "p" / "roofline.png"));
}

}  // namespace
