//===- inductor_run_cli_test.cpp - `opforge inductor-run` on a module the test writes ===//
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>

#include "../compiler/inductor_module_texts.h"
#include "corpus_fixture.h"

#ifdef OPFORGE_EXE
namespace fs = std::filesystem;
using namespace opforge::test::inductor;

namespace {

int run_opforge(const std::string &args, std::string *out) {
  return opforge::test::run_command(std::string("'") + OPFORGE_EXE + "' " + args, out);
}

// relu(a + b) in a Triton kernel, mm of two inputs through extern_kernels (the library's
// mm on the chip), and an op the library has no kernel for (the CPU through ATen).
std::string module_text() {
  return std::string(kPreamble) + "\n" + add_relu_kernel() +
         runner(R"(        arg0_1, arg1_1, arg2_1, arg3_1 = args
        args.clear()
        assert_size_stride_grouped((arg2_1, arg3_1), ((8, 4), (4, 6)), ((4, 1), (6, 1)), 'input')
        buf0 = empty_strided((48, ), (1, ), device='opforge', dtype=torch.float32)
        # Topologically Sorted Source Nodes: [add, relu], Original ATen: [aten.add, aten.relu]
        raw_stream0 = get_raw_stream(0)
        triton_poi_fused_add_relu_0.run(arg0_1, arg1_1, buf0, 48, stream=raw_stream0)
        buf1 = empty_strided((8, 6), (6, 1), device='opforge', dtype=torch.float32)
        # Topologically Sorted Source Nodes: [mm], Original ATen: [aten.mm]
        extern_kernels.mm(arg2_1, arg3_1, out=buf1)
        # Topologically Sorted Source Nodes: [j0], Original ATen: [aten.special_bessel_j0]
        buf2 = torch.ops.aten.special_bessel_j0.default(buf1)
        return (buf0, buf1, buf2, )
)") + R"(
def get_args():
    from torch._dynamo.testing import rand_strided
    arg0_1 = rand_strided((48, ), (1, ), device='opforge:0', dtype=torch.float32)
    arg1_1 = rand_strided((48, ), (1, ), device='opforge:0', dtype=torch.float32)
    arg2_1 = rand_strided((8, 4), (4, 1), device='opforge:0', dtype=torch.float32)
    arg3_1 = rand_strided((4, 6), (6, 1), device='opforge:0', dtype=torch.float32)
    return [arg0_1, arg1_1, arg2_1, arg3_1]
)" + kTail;
}

class InductorRunCli : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!fs::exists(OPFORGE_EXE)) GTEST_SKIP() << "build the opforge target first: " << OPFORGE_EXE;
#ifndef OPFORGE_EXE_HAS_ORACLE
    GTEST_SKIP() << "the CPU fallback needs the ATen oracle plugin";
#endif
  }
};

}  // namespace

TEST_F(InductorRunCli, RunsTheModulePrintsStepsAndSharesAndWritesAProfileReportReads) {
  const std::string dir = opforge::test::temp_dir();
  const std::string path = dir + "/module.py", h5 = dir + "/inductor.h5";
  std::ofstream(path) << module_text();
  std::string out;
  int rc = run_opforge(
      "inductor-run '" + path + "' --arch tiny --timing lt --seed 1 --profile '" + h5 + "'", &out);
  ASSERT_EQ(rc, 0) << out;
  // One line per step: kind, name, cycles, on chip.
  EXPECT_TRUE(std::regex_search(
      out, std::regex(R"(\n0 +triton +triton_poi_fused_add_relu_0 +[1-9]\d* +yes)")))
      << out;
  EXPECT_TRUE(std::regex_search(out, std::regex(R"(\n1 +aten +aten::mm\.out +[1-9]\d* +yes)")))
      << out;
  EXPECT_TRUE(
      std::regex_search(out, std::regex(R"(\n2 +aten +aten::special_bessel_j0 +0 +no \(CPU\))")))
      << out;
  // Nodes: 2 in the Triton kernel, 1 in the library's mm, 1 on the CPU.
  EXPECT_TRUE(std::regex_search(out, std::regex(R"(Inductor Triton kernels +2 +50\.0%)"))) << out;
  EXPECT_TRUE(std::regex_search(out, std::regex(R"(library kernels \(chip\) +1 +25\.0%)"))) << out;
  EXPECT_TRUE(std::regex_search(out, std::regex(R"(CPU fallback +1 +25\.0% +0 +0\.0%)"))) << out;
  EXPECT_NE(out.find("Triton kernels' share of ATen nodes: 50.0% (Triton for MTIA: 50% of layers)"),
            std::string::npos)
      << out;
  EXPECT_NE(out.find("(Triton for MTIA: 47%)"), std::string::npos) << out;
  ASSERT_TRUE(fs::exists(h5)) << out;
  std::string report;
  rc = run_opforge("report '" + h5 + "'", &report);
  ASSERT_EQ(rc, 0) << report;
  EXPECT_NE(report.find("3 calls, 2 ok, 1 without kernel"), std::string::npos) << report;
  EXPECT_NE(report.find("triton_poi_fused_add_relu_0"), std::string::npos) << report;
  EXPECT_NE(report.find("aten::mm.out"), std::string::npos) << report;
}

TEST_F(InductorRunCli, AModuleWithAnUnknownConstructIsAnErrorAtItsLine) {
  const std::string path = opforge::test::temp_dir() + "/bad.py";
  std::string text = module_text();
  text.replace(text.find("import tempfile\n"), 16, "import subprocess\n");
  std::ofstream(path) << text;
  std::string out;
  int rc = run_opforge("inductor-run '" + path + "' --arch tiny", &out);
  EXPECT_EQ(rc, 1) << out;
  EXPECT_NE(out.find(path + ":7:1: error: Inductor module: import of module 'subprocess'"),
            std::string::npos)
      << out;
}
#endif
