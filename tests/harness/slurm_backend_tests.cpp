// slurm_backend_tests.cpp - `opforge sweep --backend slurm` on a real single-node Slurm (loopback).
#include "opforge/harness/results.h"
#include "opforge/support/h5store.h"
#include "runner_fixture.h"

using namespace opforge;
namespace fs = std::filesystem;
using nlohmann::json;

namespace {

const std::string kKernels = std::string(OPFORGE_SOURCE_DIR) + "/tests/harness/runner_kernels";
const std::string kCluster = std::string(OPFORGE_SOURCE_DIR) + "/tests/harness/slurm_cluster.sh";

bool have(const std::string &tool) {
  for (const char *d :
       {"/usr/sbin/", "/usr/bin/", "/sbin/", "/bin/", "/usr/local/bin/", "/usr/local/sbin/"})
    if (fs::exists(std::string(d) + tool)) return true;
  return false;
}

class SlurmBackend : public runner_test::RunnerDir {
 protected:
  void SetUp() override {
    runner_test::RunnerDir::SetUp();
    for (const char *t : {"munged", "slurmctld", "slurmd", "sbatch", "squeue", "sinfo"})
      if (!have(t))
        GTEST_SKIP() << "Slurm is not installed (" << t
                     << " missing; scripts/install-deps.sh installs slurmctld slurmd slurm-client "
                        "munge)";
    // Unique ports per test process: the daemons exit 0 even when a port is taken.
    port_ = 20000 + int(::getpid() % 15000) * 2;
    // Short path: munged's socket path must fit in 108 bytes.
    cluster_ = fs::temp_directory_path() / ("ofslurm-" + std::to_string(::getpid()));
    fs::remove_all(cluster_);
    std::string cmd = "bash " + kCluster + " start " + cluster_.string() + " " +
                      std::to_string(port_) + " >" + (dir_ / "cluster.out").string() + " 2>&1";
    int st = std::system(cmd.c_str());
    started_ = true;
    ASSERT_EQ(WIFEXITED(st) ? WEXITSTATUS(st) : -1, 0) << slurp(dir_ / "cluster.out");
    env_ = "SLURM_CONF=" + (cluster_ / "slurm.conf").string();
  }
  void TearDown() override {
    if (started_) {
      std::string cmd = "bash " + kCluster + " stop " + cluster_.string() + " >/dev/null 2>&1";
      (void)!std::system(cmd.c_str());
      fs::remove_all(cluster_);
    }
    runner_test::RunnerDir::TearDown();
  }
  fs::path scenario() {
    json spin = {{"name", "spin"},
                 {"kind", "asm"},
                 {"path", kKernels + "/spin.S"},
                 {"grid", "per_pe"},
                 {"args", {2000}}};
    return write_json("s.json", {{"name", "slurm"},
                                 {"arch", "tiny"},
                                 {"timing", "lt"},
                                 {"timeout_s", 60},
                                 {"sweep", json::parse(R"([{"field": "clock_ghz", "values": [1, 2]},
                                                 {"field": "pe.dma.engines", "values": [1, 2]}])")},
                                 {"workloads", {spin}}});
  }
  int port_ = 0;
  bool started_ = false;
  fs::path cluster_;
  std::string env_;
};

TEST_F(SlurmBackend, JobArrayAndMergeJobBuildTheResultsFileAndAFailedTaskDoesNotBlockTheMerge) {
  fs::path sc = scenario();
  fs::path out = dir_ / "out.h5";
  // Point 2 aborts inside its Slurm task; the merge job must still run.
  int st = opforge("sweep " + sc.string() + " --backend slurm --wait --out " + out.string(),
                   env_ + " OPFORGE_SWEEP_INJECT=crash@2");
  EXPECT_EQ(st, 1) << out_ << err_;
  EXPECT_NE(out_.find("Slurm job array"), std::string::npos) << out_;
  ASSERT_TRUE(fs::exists(out)) << out_ << err_
                               << slurp(fs::path(out.string() + ".slurm/merge.log"));
  h5::File f = h5::File::open(out);
  auto status = f.read_string_column("/summary", "status");
  auto reason = f.read_string_column("/summary", "reason");
  ASSERT_EQ(status.size(), 4u);
  EXPECT_EQ(status[0], "ok");
  EXPECT_EQ(status[1], "ok");
  EXPECT_EQ(status[2], "crashed") << reason[2];
  EXPECT_NE(reason[2].find("without a result"), std::string::npos) << reason[2];
  EXPECT_EQ(status[3], "ok");
  auto cycles = f.read_int_column("/summary", "cycles");
  EXPECT_GT(cycles[0], 2000);
  // One sbatch script per role, task logs per point.
  EXPECT_TRUE(fs::exists(fs::path(out.string() + ".slurm/points.sbatch")));
  EXPECT_TRUE(fs::exists(fs::path(out.string() + ".slurm/merge.sbatch")));
  EXPECT_TRUE(fs::exists(fs::path(out.string() + ".slurm/point-3.log")));

  // Resubmitting with --resume --retry-failed runs only the failed point, then merges again.
  st = opforge("sweep " + sc.string() + " --backend slurm --wait --resume --retry-failed --out " +
                   out.string(),
               env_);
  EXPECT_EQ(st, 0) << out_ << err_;
  EXPECT_NE(out_.find("submitted 1 point task"), std::string::npos) << out_;
  h5::File g = h5::File::open(out);
  for (const auto &s : g.read_string_column("/summary", "status")) EXPECT_EQ(s, "ok");
}

TEST_F(SlurmBackend, UnreachableControllerIsAClearError) {
  fs::path sc = scenario();
  // A copy of the config whose controller port has nothing listening.
  std::string conf = slurp(cluster_ / "slurm.conf");
  std::string key = "SlurmctldPort=" + std::to_string(port_);
  conf.replace(conf.find(key), key.size(), "SlurmctldPort=" + std::to_string(port_ + 7));
  std::ofstream(dir_ / "bad.conf") << conf << "MessageTimeout=2\n";
  int st = opforge("sweep " + sc.string() + " --backend slurm --out " + (dir_ / "o.h5").string(),
                   "SLURM_CONF=" + (dir_ / "bad.conf").string());
  EXPECT_EQ(st, 1);
  EXPECT_NE(err_.find("sbatch failed"), std::string::npos) << err_;
  EXPECT_NE(err_.find("Unable to contact slurm controller"), std::string::npos) << err_;
}

}  // namespace
