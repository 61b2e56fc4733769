//===- dpe_cli_test.cpp - opforge chip-sim --trace-rtl writes an FST waveform of the chosen PE -===//
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

#include "../fst_test_util.h"
#include "dpe_model_test_util.h"

namespace opforge::rtl::testing {
namespace {

std::string read_text(const std::string &path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// Four 8x8x16 bf16 DPE commands on local memory (as it is: zeros) and a
// wait, as the argument block of the command-list kernel.
std::string write_args(const std::string &path) {
  CmdList cl;
  const uint64_t local = model::load_params("tiny").map.local_alias_base;
  for (uint32_t i = 0; i < 16; i += 8)
    for (uint32_t j = 0; j < 16; j += 8)
      cl.dpe(isa::DpeCommand{local + i * 16 * 2, local + 1024 + j * 2,
                             local + 2048 + (i * 16 + j) * 4, 8, 8, 16, 16, 16, 16, DpeDType::BF16,
                             true});
  cl.dpe_wait();
  const std::vector<uint8_t> bytes = cl.bytes();
  std::ofstream(path, std::ios::binary)
      .write(reinterpret_cast<const char *>(bytes.data()), std::streamsize(bytes.size()));
  return path;
}

int run(const std::string &args, const std::string &log) {
  const std::string cmd = std::string(OPFORGE_EXE) + " chip-sim " +
                          model::testing::kernel("cmdlist") + " --arch tiny " + args + " > " + log +
                          " 2>&1";
  const int status = std::system(cmd.c_str());
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

TEST(DpeCli, TraceRtlWritesTheWindowOfTheChosenPe) {
  const std::string dir = OPFORGE_BINARY_DIR;
  const std::string fst_path = dir + "/dpe_cli_trace_test.fst", log = dir + "/dpe_cli_trace_test.log";
  std::remove(fst_path.c_str());
  const std::string args = write_args(dir + "/dpe_cli_trace_test.args");
  ASSERT_EQ(run("--set pe.dpe.impl=lockstep --args " + args + " --trace-rtl pe=0,0,file=" + fst_path +
                    " --trace-window 40",
                log),
            0)
      << read_text(log);
  const FstSummary fst = read_fst(fst_path);
  ASSERT_TRUE(fst.opened) << "no FST waveform in " << fst_path;
  EXPECT_TRUE(fst.has_var("cmd_valid"));
  EXPECT_EQ(fst.times.size(), 80u);  // both edges of 40 cycles
  EXPECT_GT(fst.changes, 80u);
  if (!::testing::Test::HasFailure()) std::remove(fst_path.c_str());
}

TEST(DpeCli, TraceRtlNeedsTheVerilatedDpeAndAPeOfTheGrid) {
  const std::string dir = OPFORGE_BINARY_DIR;
  const std::string log = dir + "/dpe_cli_trace_bad.log";
  EXPECT_EQ(run("--trace-rtl pe=0,0", log), 1);
  EXPECT_NE(read_text(log).find("pe.dpe.impl=rtl or lockstep"), std::string::npos)
      << read_text(log);
  EXPECT_EQ(run("--set pe.dpe.impl=rtl --trace-rtl pe=2,0", log), 1);
  EXPECT_NE(read_text(log).find("outside the 2x2 grid"), std::string::npos) << read_text(log);
  EXPECT_EQ(run("--set pe.dpe.impl=rtl --trace-rtl core=0", log), 1);
  EXPECT_NE(read_text(log).find("--trace-rtl"), std::string::npos) << read_text(log);
}

}  // namespace
}  // namespace opforge::rtl::testing
