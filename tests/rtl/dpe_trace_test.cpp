//===- dpe_trace_test.cpp - DPE waveforms: written only on request, within the window -===//
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

#include "dpe_test_util.h"
#include "opforge/support/error.h"

namespace opforge::rtl::testing {
namespace {

std::string read_text(const std::string &path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// Number of "#<time>" stamps in a VCD body.
int count_time_stamps(const std::string &vcd) {
  int n = 0;
  for (size_t pos = vcd.find("\n#"); pos != std::string::npos; pos = vcd.find("\n#", pos + 1)) ++n;
  return n;
}

TEST(DpeTrace, WindowLimitsTheDumpedCycles) {
  const std::string path = std::string(OPFORGE_BINARY_DIR) + "/dpe_trace_window_test.vcd";
  std::remove(path.c_str());
  {
    DpeRtlOptions opts;
    opts.trace_vcd_path = path;
    opts.trace_start_cycle = 10;
    opts.trace_cycles = 20;
    DpeRtl rtl(opts);
    DpeCase tc(isa::DpeDType::INT8, 8, 8, 16, false);
    EXPECT_EQ(run_and_compare(rtl, tc), 0);
  }
  const std::string vcd = read_text(path);
  ASSERT_FALSE(vcd.empty());
  EXPECT_NE(vcd.find("cmd_ready"), std::string::npos);
  EXPECT_NE(vcd.find("cout_data"), std::string::npos);
  // Two half-cycle samples per dumped cycle.
  EXPECT_EQ(count_time_stamps(vcd), 40);
  std::remove(path.c_str());
}

TEST(DpeTrace, NoWaveformByDefault) {
  const std::string path = std::string(OPFORGE_BINARY_DIR) + "/dpe_trace_default_test.vcd";
  std::remove(path.c_str());
  DpeRtl rtl;
  DpeCase tc(isa::DpeDType::BF16, 2, 2, 2, false);
  EXPECT_EQ(run_and_compare(rtl, tc), 0);
  EXPECT_EQ(std::fopen(path.c_str(), "r"), nullptr);
}

TEST(DpeTrace, UnwritableWaveformPathIsAnErrorNamingTheFile) {
  DpeRtlOptions opts;
  opts.trace_vcd_path = "/nonexistent-dir/dpe.vcd";
  try {
    DpeRtl rtl(opts);
    FAIL() << "unwritable trace path accepted";
  } catch (const Error &e) {
    EXPECT_EQ(e.context().file, "/nonexistent-dir/dpe.vcd");
  }
}

}  // namespace
}  // namespace opforge::rtl::testing
