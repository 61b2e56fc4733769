// runner_keep_results_tests.cpp - finished sweep results are never lost: a rerun without
// --resume refuses to delete them, --merge never replaces a more complete file, and point
// processes die with a runner killed by SIGKILL.
#include <gtest/gtest.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <set>
#include <thread>

#include "opforge/harness/results.h"
#include "opforge/support/h5store.h"
#include "runner_fixture.h"

using namespace opforge;
namespace fs = std::filesystem;
using nlohmann::json;
using Clock = std::chrono::steady_clock;

namespace {

const std::string kKernels = std::string(OPFORGE_SOURCE_DIR) + "/tests/harness/runner_kernels";

class RunnerKeepsResults : public runner_test::RunnerDir {
 protected:
  // The tiny preset: 2 clocks x 2 DMA engine counts x the workloads.
  fs::path scenario(const json &workloads, double timeout_s = 60) {
    return write_json(
        "scenario.json",
        {{"name", "keep"},
         {"arch", "tiny"},
         {"timing", "lt"},
         {"timeout_s", timeout_s},
         {"overrides", {{"simulation.watchdog_cycles", 1000000000000ull}}},
         {"sweep", json::parse(R"([{"field": "clock_ghz", "values": [1, 2]},
                                   {"field": "pe.dma.engines", "values": [1, 2]}])")},
         {"workloads", workloads}});
  }
  json spin() {
    return {{"name", "spin"},
            {"kind", "asm"},
            {"path", kKernels + "/spin.S"},
            {"grid", "per_pe"},
            {"args", {2000}}};
  }
  json hang() { return {{"name", "hang"}, {"kind", "asm"}, {"path", kKernels + "/hang.S"}}; }
  fs::path out() const { return dir_ / "out.h5"; }
  std::string sweep_args(const fs::path &sc, const std::string &extra) {
    return "sweep " + sc.string() + " --out " + out().string() + " --jobs 2 --quiet " + extra;
  }
  std::vector<std::string> statuses() {
    h5::File f = h5::File::open(out());
    return f.read_string_column("/summary", "status");
  }
};

size_t count(const std::vector<std::string> &v, const std::string &s) {
  return size_t(std::count(v.begin(), v.end(), s));
}

TEST_F(RunnerKeepsResults, ARerunWithoutResumeRefusesToDeleteFinishedPoints) {
  fs::path sc = scenario(json::array({spin()}));
  ASSERT_EQ(opforge(sweep_args(sc, "")), 0) << err_;
  std::vector<fs::file_time_type> before;
  for (size_t i = 0; i < 4; ++i)
    before.push_back(fs::last_write_time(harness::shard_path(out(), i)));
  auto merged_before = fs::last_write_time(out());

  // Neither --resume nor --fresh: a usage error that names both, nothing deleted or rerun.
  EXPECT_EQ(opforge(sweep_args(sc, "")), 2) << err_;
  EXPECT_NE(err_.find("4 finished point"), std::string::npos) << err_;
  EXPECT_NE(err_.find("--resume"), std::string::npos) << err_;
  EXPECT_NE(err_.find("--fresh"), std::string::npos) << err_;
  for (size_t i = 0; i < 4; ++i) {
    ASSERT_TRUE(fs::exists(harness::shard_path(out(), i))) << "shard " << i << " deleted";
    EXPECT_EQ(fs::last_write_time(harness::shard_path(out(), i)), before[i]) << i;
  }
  EXPECT_EQ(fs::last_write_time(out()), merged_before);
  EXPECT_EQ(count(statuses(), "ok"), 4u);

  // --resume and --fresh exclude each other; --fresh runs everything again.
  EXPECT_EQ(opforge(sweep_args(sc, "--resume --fresh")), 2) << err_;
  ASSERT_EQ(opforge(sweep_args(sc, "--fresh")), 0) << err_;
  EXPECT_NE(out_.find("4 run, 0 skipped"), std::string::npos) << out_;
  EXPECT_EQ(count(statuses(), "ok"), 4u);
}

// What the Slurm merge job does after a rerun that deleted shards was killed:
// the complete file must survive.
TEST_F(RunnerKeepsResults, MergeNeverReplacesAMoreCompleteFileWithALessCompleteOne) {
  fs::path sc = scenario(json::array({spin()}));
  ASSERT_EQ(opforge(sweep_args(sc, "")), 0) << err_;
  ASSERT_EQ(count(statuses(), "ok"), 4u);
  // Only point 2's shard is left (a rerun removed the others and was killed
  // after finishing one point).
  for (size_t i : {0u, 1u, 3u}) fs::remove(harness::shard_path(out(), i));

  int rc = opforge("sweep " + sc.string() + " --merge --out " + out().string());
  auto st = statuses();
  EXPECT_EQ(count(st, "ok"), 4u) << "the merged file lost points";
  EXPECT_EQ(count(st, "missing"), 0u);
  EXPECT_EQ(rc, 0) << out_ << err_;

  // A file of another sweep (different scenario) with more finished points is
  // never replaced by fewer: the merge refuses and says how to proceed.
  json other = json::parse(slurp(sc));
  other["name"] = "keep-other";
  write_json("scenario.json", other);
  rc = opforge("sweep " + sc.string() + " --merge --out " + out().string());
  EXPECT_EQ(rc, 2) << out_ << err_;
  EXPECT_NE(err_.find("4 finished"), std::string::npos) << err_;
  EXPECT_NE(err_.find("not replacing"), std::string::npos) << err_;
  EXPECT_EQ(count(statuses(), "ok"), 4u);
  h5::File f = h5::File::open(out());
  EXPECT_EQ(f.attr_json("/meta", "scenario")["name"], "keep");
}

// Pids of the processes whose parent is `parent`.
std::set<pid_t> children_of(pid_t parent) {
  std::set<pid_t> out;
  for (const auto &e : fs::directory_iterator("/proc")) {
    std::string name = e.path().filename().string();
    if (name.find_first_not_of("0123456789") != std::string::npos) continue;
    std::ifstream in(e.path() / "stat");
    std::string stat((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    size_t close = stat.rfind(')');
    if (close == std::string::npos) continue;
    char state = 0;
    int ppid = 0;
    if (std::sscanf(stat.c_str() + close + 1, " %c %d", &state, &ppid) == 2 && ppid == parent)
      out.insert(pid_t(std::stol(name)));
  }
  return out;
}

// Alive and not a zombie.
bool running(pid_t pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
  std::string stat((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  size_t close = stat.rfind(')');
  return close != std::string::npos && close + 2 < stat.size() && stat[close + 2] != 'Z' &&
         stat[close + 2] != 'X';
}

TEST_F(RunnerKeepsResults, PointProcessesDieWithTheirRunner) {
  fs::path sc = scenario(json::array({hang()}), 600);
  pid_t runner = ::fork();
  ASSERT_GE(runner, 0);
  if (runner == 0) {
    int fd = ::open("/dev/null", O_WRONLY);
    ::dup2(fd, 1);
    ::dup2(fd, 2);
    std::string o = out().string();
    ::execl(OPFORGE_EXE, OPFORGE_EXE, "sweep", sc.c_str(), "--jobs", "2", "--out", o.c_str(),
            (char *)nullptr);
    ::_exit(127);
  }
  // Both point processes started (each simulates `hang` until its 600 s timeout).
  std::set<pid_t> points;
  auto t0 = Clock::now();
  while (points.size() < 2 && Clock::now() - t0 < std::chrono::seconds(60)) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    points = children_of(runner);
  }
  ::kill(runner, SIGKILL);  // the runner only, not its point processes' groups
  int st = 0;
  ::waitpid(runner, &st, 0);
  ASSERT_EQ(points.size(), 2u) << "the runner did not start its points";
  t0 = Clock::now();
  std::set<pid_t> alive = points;
  while (!alive.empty() && Clock::now() - t0 < std::chrono::seconds(10)) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    for (auto it = alive.begin(); it != alive.end();) it = running(*it) ? std::next(it) : alive.erase(it);
  }
  EXPECT_TRUE(alive.empty()) << alive.size() << " point process(es) outlived the runner";
  for (pid_t p : alive) ::kill(-p, SIGKILL), ::kill(p, SIGKILL);  // no orphans left behind
}

}  // namespace
