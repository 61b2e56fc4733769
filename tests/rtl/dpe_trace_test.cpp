//===- dpe_trace_test.cpp - DPE FST waveforms: written only on request, within the window -===//
#include <gtest/gtest.h>

#include <cstdio>
#include <string>

#include "dpe_test_util.h"
#include "fst_test_util.h"
#include "opforge/support/error.h"

namespace opforge::rtl::testing {
namespace {

TEST(DpeTrace, WindowLimitsTheDumpedCycles) {
  const std::string path = std::string(OPFORGE_BINARY_DIR) + "/dpe_trace_window_test.fst";
  std::remove(path.c_str());
  {
    DpeRtlOptions opts;
    opts.trace_path = path;
    opts.trace_start_cycle = 10;
    opts.trace_cycles = 20;
    DpeRtl rtl(opts);
    DpeCase tc(isa::DpeDType::INT8, 8, 8, 16, false);
    EXPECT_EQ(run_and_compare(rtl, tc), 0);
  }
  const FstSummary fst = read_fst(path);
  ASSERT_TRUE(fst.opened) << path << " is not an FST file";
  EXPECT_TRUE(fst.has_var("cmd_ready"));
  EXPECT_TRUE(fst.has_var("cout_data"));
  EXPECT_TRUE(fst.has_var("clk"));
  // Two half-cycle samples per dumped cycle (the clock changes at each), and
  // more value changes than samples (data moves too).
  EXPECT_EQ(fst.times.size(), 40u);
  EXPECT_GT(fst.changes, 80u);
  std::remove(path.c_str());
}

TEST(DpeTrace, NoWaveformByDefault) {
  const std::string path = std::string(OPFORGE_BINARY_DIR) + "/dpe_trace_default_test.fst";
  std::remove(path.c_str());
  DpeRtl rtl;
  DpeCase tc(isa::DpeDType::BF16, 2, 2, 2, false);
  EXPECT_EQ(run_and_compare(rtl, tc), 0);
  EXPECT_EQ(std::fopen(path.c_str(), "r"), nullptr);
}

TEST(DpeTrace, UnwritableWaveformPathIsAnErrorNamingTheFile) {
  DpeRtlOptions opts;
  opts.trace_path = "/nonexistent-dir/dpe.fst";
  try {
    DpeRtl rtl(opts);
    FAIL() << "unwritable trace path accepted";
  } catch (const Error &e) {
    EXPECT_EQ(e.context().file, "/nonexistent-dir/dpe.fst");
  }
}

}  // namespace
}  // namespace opforge::rtl::testing
