//===- chip_determinism_test.cpp - same inputs, same mode: identical results ===//
//
// The workload runs in two fresh child processes (this binary, filtered to
// ChipDeterminismChild) which write outputs, cycles and every counter to a
// file; the parent compares the files byte for byte.
//
//===----------------------------------------------------------------------===//
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <unistd.h>

#include "opforge/model/device.h"
#include "test_util.h"

namespace opforge::model {
namespace {

using testing::CmdList;

std::string self_exe() {
  char buf[4096];
  ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
  return n > 0 ? std::string(buf, size_t(n)) : std::string();
}

std::string slurp(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

TEST(ChipDeterminismChild, Workload) {
  const char *out_path = std::getenv("MODEL_DETERMINISM_OUT");
  const char *timing = std::getenv("MODEL_DETERMINISM_TIMING");
  if (!out_path || !timing) GTEST_SKIP() << "runs as a child of ChipDeterminism";
  ChipParams p = testing::preset(
      "tiny", {std::string("simulation.timing_mode=") + timing, "command_processor.dispatch_policy=first_free"});
  Device dev(p);
  const uint64_t bytes = 3000;
  std::ofstream out(out_path, std::ios::binary);
  std::vector<uint64_t> bufs;
  for (int i = 0; i < 3; ++i) {
    uint64_t src = dev.alloc(bytes), dst = dev.alloc(bytes);
    auto in = testing::pattern(bytes, uint32_t(i));
    dev.copy_in(src, in.data(), bytes);
    uint64_t la = p.map.local_alias_base;
    isa::DpeCommand mm{la, la + 1024, la + 2048, 8, 8, 8, 8, 8, 8, isa::DpeDType::BF16, false};
    CmdList cl;
    cl.dma({src, la, bytes, 1, 0, 0, 0})
        .dma_wait(0)
        .dpe(mm)
        .dpe_wait()
        .dma({la, dst, bytes, 1, 0, 0, 1})
        .dma_wait(1);
    LaunchResult r = dev.launch(cl.launch({5, 1, 1}));
    ASSERT_TRUE(r.ok());
    out << "cycles " << r.cycles << " start " << r.start_cycle << "\n";
    for (const auto &rec : r.instances)
      out << rec.pid[0] << " pe " << rec.pe << " " << rec.start_cycle << ".." << rec.end_cycle
          << "\n";
    std::vector<uint8_t> data(bytes);
    dev.copy_out(dst, data.data(), bytes);
    out.write(reinterpret_cast<const char *>(data.data()), std::streamsize(bytes));
  }
  for (const auto &[name, v] : dev.counters()) out << name << " " << v << "\n";
}

void run_twice_and_compare(const std::string &timing) {
  std::string exe = self_exe();
  ASSERT_FALSE(exe.empty());
  std::string files[2];
  for (int i = 0; i < 2; ++i) {
    files[i] = ::testing::TempDir() + "determinism_" + timing + "_" + std::to_string(i) + ".txt";
    std::string cmd = "MODEL_DETERMINISM_OUT=" + files[i] + " MODEL_DETERMINISM_TIMING=" + timing +
                      " " + exe + " --gtest_filter=ChipDeterminismChild.Workload >/dev/null 2>&1";
    ASSERT_EQ(std::system(cmd.c_str()), 0) << cmd;
  }
  std::string a = slurp(files[0]), b = slurp(files[1]);
  ASSERT_GT(a.size(), 9000u);
  EXPECT_TRUE(a == b) << "runs differ";
}

TEST(ChipDeterminism, LtRunsAreBitIdentical) { run_twice_and_compare("lt"); }
TEST(ChipDeterminism, FunctionalRunsAreBitIdentical) { run_twice_and_compare("functional"); }

}  // namespace
}  // namespace opforge::model
