//===- runner_isa_ext_tests.cpp - ISA extension files through the real `opforge` ===//
//
// --isa-ext on asm, disasm and sim (before or after the command name), the
// OPFORGE_ISA_EXT inheritance, a bad file's error, and a sweep whose
// `isa_ext` axis runs a program with and without the extension.
//
//===----------------------------------------------------------------------===//
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdio>

#include "runner_fixture.h"

using nlohmann::json;
using opforge::runner_test::RunnerDir;

namespace {

class IsaExtCli : public RunnerDir {
 protected:
  // A copy of the shipped example under another name, so the test owns its file.
  std::string write_ext() {
    const std::string path = (dir_ / "vfexpscale.ext").string();
    std::ofstream(path) << slurp(std::filesystem::path(__FILE__).parent_path() / ".." / ".." /
                                 "isa" / "ext" / "vfexpscale.ext");
    return path;
  }
  // vfexpscale.vf on 4 elements; DONE when element 0 is exp(1) * 0.5 (fp32), else a trap.
  // GNU as (the sweep's asm workloads) knows it only as `.insn r` (funct7 = funct6 0x08, vm 1)
  // and Xmtia not at all.
  std::string write_program(bool gnu_as = false) {
    const float want = static_cast<float>(std::exp(1.0)) * 0.5f;
    char word[16];
    std::snprintf(word, sizeof word, "0x%08x", std::bit_cast<uint32_t>(want));
    const std::string path = (dir_ / "expscale.S").string();
    const std::string insn =
        gnu_as ? ".insn r 0x2B, 5, 0x11, x16, x10, x8" : "vfexpscale.vf v16, v8, fa0";
    const std::string done = gnu_as ? ".word 0x0000000b  # xmtia.done" : "xmtia.done";
    std::ofstream(path) << ".globl _start\n_start:\n"
                           "  la a1, data\n"
                           "  flw fa0, 4(a1)\n"
                           "  li t0, 4\n"
                           "  vsetvli t1, t0, e32, m1, ta, ma\n"
                           "  vle32.v v8, (a1)\n"
                           "  "
                        << insn
                        << "\n"
                           "  vmv.x.s a2, v16\n"
                           "  lw a3, 16(a1)\n"
                           "  bne a2, a3, 1f\n"
                           "  "
                        << done
                        << "\n"
                           "1:\n"
                           "  ebreak\n"
                           "data:\n"
                           "  .word 0x3f800000, 0x3f000000, 0x40000000, 0x40400000\n"
                           "  .word "
                        << word << "\n";
    return path;
  }
};

TEST_F(IsaExtCli, AsmDisasmAndSimLoadTheFileBeforeOrAfterTheCommand) {
  const std::string ext = write_ext(), src = write_program(),
                    elf = (dir_ / "expscale.elf").string();
  // Without the extension the mnemonic is unknown.
  EXPECT_EQ(opforge("asm " + src + " -o " + elf), 1);
  EXPECT_NE(err_.find("vfexpscale.vf"), std::string::npos) << err_;
  ASSERT_EQ(opforge("asm --isa-ext " + ext + " " + src + " -o " + elf), 0) << err_;
  ASSERT_EQ(opforge("--isa-ext=" + ext + " disasm " + elf), 0) << err_;
  EXPECT_NE(out_.find("vfexpscale.vf\tv16,v8,fa0"), std::string::npos) << out_;
  ASSERT_EQ(opforge("disasm " + elf), 0) << err_;
  EXPECT_EQ(out_.find("vfexpscale.vf"), std::string::npos) << out_;
  ASSERT_EQ(opforge("sim " + elf + " --isa-ext " + ext), 0) << out_ << err_;
  EXPECT_NE(out_.find("verdict: DONE"), std::string::npos) << out_;
  // Unknown to the ISS without it: an illegal instruction.
  EXPECT_EQ(opforge("sim " + elf), 1);
  EXPECT_NE(out_.find("illegal instruction"), std::string::npos) << out_;
  // Inherited the way child processes get it.
  EXPECT_EQ(opforge("sim " + elf, "OPFORGE_ISA_EXT=/nonexistent.ext:" + ext), 1);
  EXPECT_NE(err_.find("/nonexistent.ext: cannot open ISA extension file"), std::string::npos)
      << err_;
  ASSERT_EQ(opforge("sim " + elf, "OPFORGE_ISA_EXT=" + ext), 0) << out_ << err_;
  // --isa-ext needs its file.
  EXPECT_EQ(opforge("sim " + elf + " --isa-ext"), 2);
  EXPECT_NE(err_.find("--isa-ext needs a FILE"), std::string::npos) << err_;
}

TEST_F(IsaExtCli, ABadFileIsAnErrorNamingFileLineAndField) {
  const std::string bad = (dir_ / "bad.ext").string();
  std::ofstream(bad) << "extension xbad\ninsn vbad.vf\n  encoding 31..26=0x30 vm vs2 rs1 "
                        "14..12=5 vd 6..0=0x2B\n  operands vf\n  semantics exp(x) * gelu(y)\n"
                        "  unit sfu\n  latency 1\n  throughput 1\n  intrinsic bad\n";
  EXPECT_EQ(opforge("--isa-ext " + bad + " disasm " + bad), 1);
  EXPECT_NE(err_.find(bad + ":5:22: semantics: unknown helper 'gelu'"), std::string::npos) << err_;
}

TEST_F(IsaExtCli, SweepAxisRunsEachPointWithAndWithoutTheExtension) {
  write_ext();
  write_program(true);
  json doc = {
      {"name", "isa_ext_axis"},
      {"arch", "tiny"},
      {"sweep",
       json::array({{{"field", "isa_ext"},
                     {"values", json::array({json::array(), json::array({"vfexpscale.ext"})})}}})},
      {"workloads", json::array({{{"kind", "asm"}, {"path", "expscale.S"}}})},
      {"output", (dir_ / "out.h5").string()}};
  const auto scenario = write_json("axis.json", doc);
  EXPECT_EQ(opforge("sweep " + scenario.string() + " --list"), 0) << err_;
  EXPECT_NE(out_.find("isa_ext"), std::string::npos) << out_;
  // Point 0 has no extension (the program traps), point 1 loads it.
  EXPECT_EQ(opforge("sweep " + scenario.string() + " --jobs 2 --quiet"), 1) << out_ << err_;
  ASSERT_EQ(opforge("report " + (dir_ / "out.h5").string()), 0) << err_;
  EXPECT_NE(out_.find("vfexpscale.ext"), std::string::npos) << out_;
  ASSERT_EQ(python("import h5py, sys\n"
                   "f = h5py.File(sys.argv[1], 'r')\n"
                   "for r in f['/summary'][:]:\n"
                   "    print(r['point'], r['status'].decode(), r['isa_ext'].decode())\n",
                   (dir_ / "out.h5").string()),
            0)
      << py_;
  EXPECT_NE(py_.find("0 failed []"), std::string::npos) << py_;
  EXPECT_NE(py_.find("1 ok [\"vfexpscale.ext\"]"), std::string::npos) << py_;
  // A scenario naming a file that does not parse is rejected with its path.
  doc["sweep"][0]["values"][1] = json::array({"missing.ext"});
  const auto bad = write_json("bad_axis.json", doc);
  EXPECT_EQ(opforge("sweep " + bad.string() + " --list"), 2) << err_;
  EXPECT_NE(err_.find("/sweep/0/values/1/0"), std::string::npos) << err_;
  EXPECT_NE(err_.find("missing.ext: cannot open ISA extension file"), std::string::npos) << err_;
}

}  // namespace
