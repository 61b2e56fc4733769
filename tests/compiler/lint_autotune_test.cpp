//===- lint_autotune_test.cpp - OPF108 with configs built by code ---------===//
#include <gtest/gtest.h>

#include "opforge/compiler/lint.h"

using namespace opforge::compiler;

namespace {

std::vector<LintFinding> opf108(const std::vector<LintFinding> &fs) {
  std::vector<LintFinding> out;
  for (auto &f : fs)
    if (f.rule == "OPF108") out.push_back(f);
  return out;
}

const std::string kKernelAndWrapper =
    "@triton.jit\n"
    "def k(x_ptr, n, BLOCK: tl.constexpr, OTHER: tl.constexpr):\n"
    "    pass\n\n"
    "def op_default(x):\n"
    "    k[(1,)](x, 4)\n"
    "    return x\n";

}  // namespace

// Configs from a function (Triton's tutorial 03 style) supply the meta-parameters their
// triton.Config dicts name: no "missing argument" for those, still one for the others.
TEST(LintAutotune, ConfigsFromAFunctionSupplyTheirKeys) {
  const std::string head =
      "import torch\nimport triton\nimport triton.language as tl\n\n"
      "def get_autotune_config():\n"
      "    return [triton.Config({'BLOCK': b}, num_warps=4) for b in (16, 64)]\n\n"
      "@triton.autotune(configs=get_autotune_config(), key=['n'])\n";
  auto fs = opf108(lint_source("k.py", head + kKernelAndWrapper));
  ASSERT_EQ(fs.size(), 1u);
  EXPECT_NE(fs[0].message.find("missing argument 'OTHER'"), std::string::npos) << fs[0].message;
  // The test kernels of the autotune tests lint clean.
  EXPECT_TRUE(
      opf108(lint_file(std::string(OPFORGE_SOURCE_DIR) + "/tests/compiler/autotune/tuned_sum.py"))
          .empty());
}

// A config dict that is not a literal: nothing is known, nothing is reported missing.
TEST(LintAutotune, OpaqueConfigsReportNoMissingArgument) {
  const std::string head =
      "import torch\nimport triton\nimport triton.language as tl\n\n"
      "def get_autotune_config():\n"
      "    return [triton.Config(dict(BLOCK=b, OTHER=1)) for b in (16, 64)]\n\n"
      "@triton.autotune(configs=get_autotune_config(), key=['n'])\n";
  EXPECT_TRUE(opf108(lint_source("k.py", head + kKernelAndWrapper)).empty());
}
