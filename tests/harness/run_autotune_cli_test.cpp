//===- run_autotune_cli_test.cpp - `opforge run --autotune-report / --autotune-cache` ===//
#include <gtest/gtest.h>

#include <filesystem>

#include "corpus_fixture.h"

#ifdef OPFORGE_EXE
namespace fs = std::filesystem;

namespace {

int run_opforge(const std::string &args, std::string *out) {
  return opforge::test::run_command(std::string("'") + OPFORGE_EXE + "' " + args, out);
}

}  // namespace

// The first run tunes sum_kernel on the chip (three configs, each with its cycles) and
// writes the cache; the second run with the same cache reads it and launches no trial.
TEST(RunAutotuneCli, ReportShowsEachConfigAndTheSecondRunReadsTheCache) {
  if (!fs::exists(OPFORGE_EXE)) GTEST_SKIP() << "build the opforge target first";
  const std::string cache = opforge::test::temp_dir() + "/autotune";
  const std::string cmd = "run '" + std::string(OPFORGE_SOURCE_DIR) +
                          "/tests/compiler/autotune/tuned_sum.py' --call 'tuned_sum(randn(2000))' "
                          "--arch tiny --autotune-report --autotune-cache '" +
                          cache + "'";
  std::string first, second;
  ASSERT_EQ(run_opforge(cmd, &first), 0) << first;
  EXPECT_NE(first.find("autotune sum_kernel key (2000, 'torch.float32', 'torch.float32'): tuned ("),
            std::string::npos)
      << first;
  for (int b : {16, 64, 256})
    EXPECT_NE(first.find(" cycles  BLOCK_SIZE: " + std::to_string(b) + ", num_warps: 4"),
              std::string::npos)
        << first;
  EXPECT_NE(first.find("  winner: BLOCK_SIZE: "), std::string::npos) << first;
  EXPECT_NE(first.find("launches 1 (and 3 autotune trials, "), std::string::npos) << first;
  ASSERT_EQ(run_opforge(cmd, &second), 0) << second;
  EXPECT_NE(second.find("): disk cache ("), std::string::npos) << second;
  EXPECT_NE(second.find("launches 1\n"), std::string::npos) << second;
  // The same winner both times.
  auto winner = [](const std::string &s) {
    auto at = s.find("  winner: ");
    return s.substr(at, s.find('\n', at) - at);
  };
  EXPECT_EQ(winner(first), winner(second));
  // --autotune-cache none: memory only, so every run tunes.
  std::string third;
  ASSERT_EQ(
      run_opforge(cmd.substr(0, cmd.find("--autotune-cache")) + "--autotune-cache none", &third), 0)
      << third;
  EXPECT_NE(third.find("): tuned\n"), std::string::npos) << third;
  fs::remove_all(cache);
}
#endif
