// runner_sweep_tests.cpp - real sweeps: child processes of `opforge sweep`, failures, resume, h5py
// read.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <fcntl.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <thread>

#include "opforge/support/python.h"
#include "opforge/harness/results.h"
#include "opforge/harness/scenario.h"
#include "opforge/support/h5store.h"

#ifndef OPFORGE_EXE
#define OPFORGE_EXE ""
#endif

using namespace opforge;
namespace fs = std::filesystem;
using nlohmann::json;

namespace {

const std::string kKernels = std::string(OPFORGE_SOURCE_DIR) + "/tests/harness/runner_kernels";

class RunnerSweep : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(fs::exists(OPFORGE_EXE)) << "opforge binary not built: " << OPFORGE_EXE;
    dir_ = fs::temp_directory_path() /
           ("opforge-runner-" + std::to_string(::getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  // A scenario on the tiny preset: 2 clocks x 2 DMA engine counts x the given workloads.
  fs::path write_scenario(const json &workloads, double timeout_s = 60) {
    json d = {{"name", "t"},
              {"arch", "tiny"},
              {"timing", "lt"},
              {"timeout_s", timeout_s},
              {"overrides", {{"simulation.watchdog_cycles", 1000000000000ull}}},
              {"sweep", json::parse(R"([{"field": "clock_ghz", "values": [1, 2]},
                                        {"field": "pe.dma.engines", "values": [1, 2]}])")},
              {"workloads", workloads}};
    fs::path p = dir_ / "scenario.json";
    std::ofstream(p) << d.dump(2);
    return p;
  }
  json spin(int n = 2000) {
    return {{"name", "spin"},
            {"kind", "asm"},
            {"path", kKernels + "/spin.S"},
            {"grid", "per_pe"},
            {"args", {n}}};
  }
  // Run `opforge sweep`; returns the exit status, stderr in err_.
  int sweep(const fs::path &scenario, const std::string &extra, const std::string &env = "") {
    std::string cmd = env + " " + std::string(OPFORGE_EXE) + " sweep " + scenario.string() +
                      " --out " + (dir_ / "out.h5").string() + " " + extra + " >" +
                      (dir_ / "stdout").string() + " 2>" + (dir_ / "stderr").string();
    int st = std::system(cmd.c_str());
    std::ifstream in(dir_ / "stderr");
    err_.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  }
  std::vector<std::string> statuses() {
    h5::File f = h5::File::open(dir_ / "out.h5");
    return f.read_string_column("/summary", "status");
  }
  fs::path dir_;
  std::string err_;
};

TEST_F(RunnerSweep, FourPointsWithTwoJobsAllSucceedAndScaleWithClock) {
  fs::path sc = write_scenario(json::array({spin()}));
  ASSERT_EQ(sweep(sc, "--jobs 2"), 0) << err_;
  EXPECT_NE(err_.find("4/4 points"), std::string::npos) << err_;
  h5::File f = h5::File::open(dir_ / "out.h5");
  auto st = f.read_string_column("/summary", "status");
  ASSERT_EQ(st.size(), 4u);
  for (const auto &s : st) EXPECT_EQ(s, "ok");
  auto cycles = f.read_int_column("/summary", "cycles");
  for (auto c : cycles) EXPECT_GT(c, 2000);  // 2000 loop iterations at least
  auto clock = f.read_double_column("/summary", "clock_ghz");
  EXPECT_EQ(clock[0], 1.0);
  EXPECT_EQ(clock[3], 2.0);
  // Each point records its resolved config and counters.
  json cfg = f.attr_json("/points/3", "config");
  EXPECT_EQ(cfg["pe"]["dma"]["engines"], 2);
  EXPECT_EQ(cfg["pe_grid"]["rows"], 2);
  EXPECT_TRUE(f.exists("/points/0/counters"));
  EXPECT_EQ(f.attr_json("/meta", "scenario")["name"], "t");
  auto instr = f.read_int_column("/summary", "instructions");
  EXPECT_EQ(instr[0], instr[3]);  // same program, same instruction count
}

TEST_F(RunnerSweep, CrashingAndHangingPointsAreRecordedAndTheRestCompletes) {
  json hang = {{"name", "hang"}, {"kind", "asm"}, {"path", kKernels + "/hang.S"}};
  fs::path sc = write_scenario(json::array({spin(), hang}), 3);
  // Point 2 (spin at clock 1, 2 engines) aborts; every "hang" point runs until killed.
  EXPECT_EQ(sweep(sc, "--jobs 2 --timeout 3", "OPFORGE_SWEEP_INJECT=crash@2"), 1) << err_;
  h5::File f = h5::File::open(dir_ / "out.h5");
  auto st = f.read_string_column("/summary", "status");
  auto reason = f.read_string_column("/summary", "reason");
  ASSERT_EQ(st.size(), 8u);
  EXPECT_EQ(st[0], "ok");
  EXPECT_EQ(st[2], "crashed");
  EXPECT_NE(reason[2].find("signal 6"), std::string::npos) << reason[2];
  EXPECT_EQ(st[4], "ok");
  EXPECT_EQ(st[6], "ok");
  for (size_t i : {1u, 3u, 5u, 7u}) {
    EXPECT_EQ(st[i], "timeout") << i;
    EXPECT_NE(reason[i].find("timeout"), std::string::npos) << reason[i];
  }
}

TEST_F(RunnerSweep, ResumeAfterKillNineSkipsFinishedPoints) {
  fs::path sc = write_scenario(json::array({spin(3000000)}), 120);
  // Start the runner with one job and kill -9 it once the first point is done.
  pid_t pid = ::fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    ::setpgid(0, 0);
    std::string out = (dir_ / "out.h5").string();
    int fd = ::open("/dev/null", O_WRONLY);
    ::dup2(fd, 2);
    ::execl(OPFORGE_EXE, OPFORGE_EXE, "sweep", sc.c_str(), "--jobs", "1", "--out", out.c_str(),
            (char *)nullptr);
    ::_exit(127);
  }
  fs::path first = harness::shard_path(dir_ / "out.h5", 0);
  auto t0 = std::chrono::steady_clock::now();
  while (!fs::exists(first) && std::chrono::steady_clock::now() - t0 < std::chrono::seconds(120))
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  ::kill(-pid, SIGKILL);  // the runner and its running child
  int st = 0;
  ::waitpid(pid, &st, 0);
  ASSERT_TRUE(fs::exists(first)) << "first point never finished";
  EXPECT_FALSE(fs::exists(dir_ / "out.h5"));  // the merged file comes at the end
  auto before = fs::last_write_time(first);
  ASSERT_EQ(sweep(sc, "--jobs 2 --resume"), 0) << err_;
  std::ifstream so(dir_ / "stdout");
  std::string out((std::istreambuf_iterator<char>(so)), std::istreambuf_iterator<char>());
  EXPECT_NE(out.find("skipped (resume)"), std::string::npos);
  EXPECT_EQ(fs::last_write_time(first), before);  // not run again
  auto sts = statuses();
  ASSERT_EQ(sts.size(), 4u);
  for (const auto &s : sts) EXPECT_EQ(s, "ok");
}

TEST_F(RunnerSweep, ResultsAreReadableWithH5pyAndReportPrintsATable) {
  fs::path sc = write_scenario(json::array({spin()}));
  ASSERT_EQ(sweep(sc, "--jobs 2"), 0) << err_;
  std::string py =
      "import h5py, json, sys\n"
      "f = h5py.File(sys.argv[1], 'r')\n"
      "s = f['summary'][:]\n"
      "assert len(s) == 4, len(s)\n"
      "assert all(x.decode() == 'ok' for x in s['status'])\n"
      "assert s['cycles'].min() > 0\n"
      "cfg = json.loads(f['points/1'].attrs['config'])\n"
      "assert cfg['pe']['dma']['engines'] == 2, cfg['pe']\n"
      "assert json.loads(f['meta'].attrs['scenario'])['name'] == 't'\n"
      "c = f['points/0/counters'][:]\n"
      "assert len(c) > 0\n"
      "print('h5py-ok', len(s))\n";
  std::ofstream(dir_ / "check.py") << py;
  // The project venv's python (h5py from requirements.txt).
  std::string python = opforge::project_python();
  std::string cmd =
      python + " " + (dir_ / "check.py").string() + " " + (dir_ / "out.h5").string() + " 2>&1";
  FILE *p = ::popen(cmd.c_str(), "r");
  ASSERT_NE(p, nullptr);
  char buf[4096];
  std::string got;
  while (fgets(buf, sizeof buf, p)) got += buf;
  EXPECT_EQ(::pclose(p), 0) << got;
  EXPECT_NE(got.find("h5py-ok 4"), std::string::npos) << got;

  std::string report = harness::format_report(dir_ / "out.h5");
  EXPECT_NE(report.find("speedup"), std::string::npos) << report;
  EXPECT_NE(report.find("1.00x"), std::string::npos) << report;
  EXPECT_NE(report.find("clock_ghz"), std::string::npos) << report;
  EXPECT_NE(report.find("sim_us"), std::string::npos) << report;
  // One workload over four points: the workload x sweep-value grid, changes against the first.
  EXPECT_NE(report.find("per workload: status and cycles at each"), std::string::npos) << report;
  EXPECT_NE(report.find("(change against"), std::string::npos) << report;
}

TEST_F(RunnerSweep, BadScenarioIsAUsageErrorNamingTheField) {
  json d = {{"name", "t"},
            {"arch", "tiny"},
            {"sweep", json::parse(R"([{"field": "dram.chanels", "values": [1]}])")},
            {"workloads", json::array({spin()})}};
  std::ofstream(dir_ / "bad.json") << d.dump();
  EXPECT_EQ(sweep(dir_ / "bad.json", ""), 2);
  EXPECT_NE(err_.find("dram.chanels"), std::string::npos) << err_;
  EXPECT_NE(err_.find("/sweep/0/field"), std::string::npos) << err_;
  EXPECT_FALSE(fs::exists(dir_ / "out.h5"));
}

TEST_F(RunnerSweep, SamplingIntervalRecordsCounterTraces) {
  fs::path sc = write_scenario(json::array({spin(20000)}));
  json d;
  std::ifstream(sc) >> d;
  d["sample_interval_cycles"] = 1000;
  d["sample_counters"] = {"pe[*].core.instret"};
  std::ofstream(sc) << d.dump();
  ASSERT_EQ(sweep(sc, "--jobs 2"), 0) << err_;
  h5::File f = h5::File::open(dir_ / "out.h5");
  ASSERT_TRUE(f.exists("/points/0/trace/values")) << "no trace";
  auto v = f.read_ints("/points/0/trace/values");
  ASSERT_EQ(v.dims.size(), 2u);
  EXPECT_GT(v.dims[0], 5u);  // >= 20000 cycles sampled every 1000
  EXPECT_EQ(v.dims[1], 4u);  // four PEs of the tiny chip
  EXPECT_GT(v.values.back(), 0);
}

}  // namespace
