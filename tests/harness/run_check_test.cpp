//===- run_check_test.cpp - `opforge run --check`: ATen in the dtype and the float64 reference ===//
//
// On user shapes `--check` judges the kernel, not ATen's rounding: an element passes when it is
// within tolerance of ATen's result in the call's dtype or of the float64 reference (the call on
// float64-upcast inputs, rounded to the output dtype); docs/verification.md. Correct float16
// kernels of the library pass, the same kernels with a small bias added fail.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include "corpus_fixture.h"

#if defined(OPFORGE_EXE) && defined(OPFORGE_EXE_HAS_ORACLE)
namespace fs = std::filesystem;

namespace {

int run_opforge(const std::string &args, std::string *out) {
  return opforge::test::run_command(std::string("'") + OPFORGE_EXE + "' " + args, out);
}

std::string library(const std::string &file) {
  return std::string(OPFORGE_SOURCE_DIR) + "/generator/library/aten/" + file;
}

std::string read(const std::string &path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// `text` with `from` (which must occur) replaced by `to`, written to a fresh file.
std::string variant(std::string text, const std::string &from, const std::string &to,
                    const std::string &name) {
  const size_t at = text.find(from);
  if (at == std::string::npos) throw std::runtime_error("'" + from + "' not in " + name);
  text.replace(at, from.size(), to);
  std::string path = opforge::test::temp_dir() + "/" + name;
  std::ofstream(path) << text;
  return path;
}

// native_layer_norm's kernel, rendered by the inductor provider (it has no library file).
std::string layer_norm_file() {
  std::string out;
  const int rc = run_opforge(
      "inductor render aten::native_layer_norm --corpus '" + opforge::test::small_corpus() + "'",
      &out);
  if (rc != 0) throw std::runtime_error("inductor render failed: " + out);
  std::string path = opforge::test::temp_dir() + "/native_layer_norm.py";
  std::ofstream(path) << out;
  return path;
}

// The number in "vs <what>: max abs error X" of the check's report (-1 when absent).
double max_abs_error(const std::string &out, const std::string &what) {
  std::smatch m;
  const std::regex re(what + R"([^\n]*max abs error ([0-9.eE+-]+))");
  return std::regex_search(out, m, re) ? std::stod(m[1]) : -1;
}

// N in "<what>: ..., N of M elements outside" of the check's report (-1 when absent).
int64_t outside(const std::string &out, const std::string &what) {
  std::smatch m;
  const std::regex re(std::regex_replace(what, std::regex(R"([()])"), R"(\$&)") +
                      R"(: [^\n]* (\d+) of \d+ elements outside)");
  return std::regex_search(out, m, re) ? std::stoll(m[1]) : -1;
}

// The rms error on the "<what>: ..." line of the check's report (-1 when absent).
double rms_error(const std::string &out, const std::string &what) {
  std::smatch m;
  const std::regex re(std::regex_replace(what, std::regex(R"([()])"), R"(\$&)") +
                      R"(: [^\n]*rms error ([0-9.eE+-]+))");
  return std::regex_search(out, m, re) ? std::stod(m[1]) : -1;
}

class RunCheck : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!fs::exists(OPFORGE_EXE)) GTEST_SKIP() << "build the opforge target first: " << OPFORGE_EXE;
  }
  // Runs FILE with CALL on the tiny chip and --check OVERLOAD; returns the exit status.
  int check(const std::string &file, const std::string &call, const std::string &overload,
            std::string *out) {
    return run_opforge("run '" + file + "' --call '" + call + "' --arch tiny --check " + overload,
                       out);
  }
};

constexpr const char *kMmFp16 =
    "mm(randn(128, 512, dtype=torch.float16), randn(512, 512, dtype=torch.float16))";
constexpr const char *kSoftmaxFp16 = "_softmax(randn(128, 512, dtype=torch.float16), 1, False)";
constexpr const char *kLayerNormFp16 =
    "native_layer_norm(randn(64, 512, dtype=torch.float16), [512], "
    "randn(512, dtype=torch.float16), randn(512, dtype=torch.float16), 1e-5)";

}  // namespace

TEST_F(RunCheck, Float16MmOfTheLibraryPassesAndReportsBothErrors) {
  std::string out;
  EXPECT_EQ(check(library("mm.py"), kMmFp16, "aten::mm", &out), 0) << out;
  EXPECT_NE(out.find("check aten::mm: ok"), std::string::npos) << out;
  EXPECT_GE(max_abs_error(out, "vs ATen in float16"), 0) << out;
  EXPECT_GE(max_abs_error(out, "vs the float64 reference"), 0) << out;
}

TEST_F(RunCheck, Float16MmWithABiasFails) {
  std::string out;
  const std::string broken = variant(read(library("mm.py")), "    c_mask = ", "    acc += 0.05\n    c_mask = ", "mm.py");
  EXPECT_EQ(check(broken, kMmFp16, "aten::mm", &out), 1) << out;
  EXPECT_NE(out.find("check aten::mm: MISMATCH"), std::string::npos) << out;
  EXPECT_GT(max_abs_error(out, "vs the float64 reference"), 0.04) << out;
}

TEST_F(RunCheck, Float16SoftmaxOfTheLibraryPassesAndWithABiasFails) {
  std::string out;
  EXPECT_EQ(check(library("_softmax.py"), kSoftmaxFp16, "aten::_softmax", &out), 0) << out;
  EXPECT_NE(out.find("check aten::_softmax: ok"), std::string::npos) << out;
  EXPECT_GE(max_abs_error(out, "vs the float64 reference"), 0) << out;
  const std::string broken =
      variant(read(library("_softmax.py")), "num / den,", "num / den + 0.001,", "_softmax.py");
  EXPECT_EQ(check(broken, kSoftmaxFp16, "aten::_softmax", &out), 1) << out;
  EXPECT_NE(out.find("check aten::_softmax: MISMATCH"), std::string::npos) << out;
}

TEST_F(RunCheck, Float16NativeLayerNormPassesAndWithABiasFails) {
  const std::string good = layer_norm_file();
  std::string out;
  EXPECT_EQ(check(good, kLayerNormFp16, "aten::native_layer_norm", &out), 0) << out;
  EXPECT_NE(out.find("check aten::native_layer_norm: ok"), std::string::npos) << out;
  EXPECT_GE(max_abs_error(out, "vs the float64 reference"), 0) << out;
  const std::string broken =
      variant(read(good), "tl.store(out_ptr + base + cols, y, mask=mask)",
              "tl.store(out_ptr + base + cols, y + 0.01, mask=mask)", "native_layer_norm.py");
  EXPECT_EQ(check(broken, kLayerNormFp16, "aten::native_layer_norm", &out), 1) << out;
  EXPECT_NE(out.find("check aten::native_layer_norm: MISMATCH"), std::string::npos) << out;
}

// A float32 product of K = 512 summed in another order than ATen's gemm: hundreds of its
// elements are outside assert_close's float32 tolerance of ATen's float32 result (as ATen's
// own are of the exact product), but its error against the float64 reference is of the size
// of ATen's, so the check passes.
TEST_F(RunCheck, Float32MmPassesThanksToTheFloat64Reference) {
  std::string out;
  EXPECT_EQ(check(library("mm.py"), "mm(randn(512, 512), randn(512, 512))", "aten::mm", &out), 0)
      << out;
  EXPECT_NE(out.find("check aten::mm: ok"), std::string::npos) << out;
  EXPECT_GT(outside(out, "out vs ATen in float32"), 0) << "differs from ATen in float32: " << out;
  EXPECT_GT(outside(out, "(ATen in float32) vs the float64 reference"), 0)
      << "ATen in float32 is not within float32 tolerance of the exact product either: " << out;
  const double ours = rms_error(out, "out vs the float64 reference");
  const double atens = rms_error(out, "(ATen in float32) vs the float64 reference");
  ASSERT_GT(atens, 0) << out;
  EXPECT_LE(ours, 2 * atens) << out;
}

TEST_F(RunCheck, IntegerCallsAreCheckedAgainstATenInTheirDtypeOnlySayingSo) {
  std::string out;
  EXPECT_EQ(check(library("add.Tensor.py"),
                  "add_Tensor(randint(0, 100, (64,)), randint(0, 100, (64,)), alpha=3)",
                  "aten::add.Tensor", &out),
            0)
      << out;
  EXPECT_NE(out.find("check aten::add.Tensor: ok"), std::string::npos) << out;
  EXPECT_NE(out.find("no float64 reference (no floating-point inputs)"), std::string::npos) << out;
}
#endif
