//===- budgets_cli_test.cpp - budgets for untrusted work end in a one-line error, in bounded time ===//
//
// Each hostile input (issue 27 item 3) runs the real `opforge` under `timeout`
// (exit 124 = the budget did not stop it) and must end with exit status 1 or 2
// and an error naming its budget's option.
//
//===----------------------------------------------------------------------===//
#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <fstream>

#include "corpus_fixture.h"

#ifdef OPFORGE_EXE
namespace fs = std::filesystem;

namespace {

constexpr const char *kHeader = "import torch\nimport triton\nimport triton.language as tl\n\n";

std::string write(const std::string &name, const std::string &text) {
  const std::string path = opforge::test::temp_dir() + "/" + name;
  std::ofstream(path, std::ios::binary) << text;
  return path;
}

// `opforge ARGS` under `timeout SECONDS`; returns the exit status (124: timed out).
int opforge(const std::string &args, std::string *out, int seconds = 60) {
  return opforge::test::run_command(
      "timeout " + std::to_string(seconds) + " '" + OPFORGE_EXE + "' " + args, out);
}

class Budgets : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!fs::exists(OPFORGE_EXE)) GTEST_SKIP() << "build the opforge target first: " << OPFORGE_EXE;
  }
  // `opforge run FILE --call 'f(zeros(4))' --arch tiny --executor EXECUTOR EXTRA`: exit status 1
  // and `needle` in the output.
  void expect_run_fails(const std::string &file, const std::string &executor,
                        const std::string &extra, const std::string &needle) {
    std::string out;
    int rc = opforge("run '" + file + "' --call 'f(zeros(4))' --arch tiny --executor " + executor +
                         " " + extra,
                     &out);
    EXPECT_EQ(rc, 1) << executor << ": " << out;
    EXPECT_NE(out.find(needle), std::string::npos) << executor << ": " << out;
  }
  std::string assemble(const std::string &name, const std::string &source) {
    const std::string src = write(name + ".S", source), elf = opforge::test::temp_dir() + "/" + name + ".elf";
    std::string out;
    EXPECT_EQ(opforge("asm '" + src + "' -o '" + elf + "'", &out), 0) << out;
    return elf;
  }
};

TEST_F(Budgets, AWrapperLoopingForeverStopsAtTheWrapperStepBudget) {
  auto f = write("wsteps.py", std::string(kHeader) + "def f(x):\n    while True:\n        pass\n    return x\n");
  expect_run_fails(f, "interp", "--max-wrapper-steps 100000",
                   "wrapper interpreter: step budget of 100000 exceeded (--max-wrapper-steps)");
}

TEST_F(Budgets, AWrapperDoublingAListIsChargedPerElement) {
  // 40 statements; the last lists hold 2^40 elements (gigabytes before the budget charged them).
  auto f = write("wlist.py", std::string(kHeader) +
                                 "def f(x):\n    a = [0] * 1000\n    for i in range(40):\n"
                                 "        a = a + a\n    return x\n");
  expect_run_fails(f, "interp", "", "step budget of 2000000 exceeded (--max-wrapper-steps)");
}

TEST_F(Budgets, AWrapperAllocatingWithoutLimitStopsAtTheTensorByteBudget) {
  auto f = write("alloc.py", std::string(kHeader) +
                                 "def f(x):\n    ys = []\n    for i in range(100000):\n"
                                 "        ys.append(torch.empty(1 << 28, dtype=torch.float32, "
                                 "device=x.device))\n    return x\n");
  expect_run_fails(f, "interp", "--max-wrapper-bytes 100000000",
                   "tensor memory budget of 100000000 bytes exceeded (--max-wrapper-bytes)");
}

TEST_F(Budgets, ALoopingKernelStopsAtTheInterpreterStepBudget) {
  auto f = write("loop.py", std::string(kHeader) + R"(@triton.jit
def spin(x_ptr, BLOCK: tl.constexpr):
    v = tl.load(x_ptr)
    while v < 1.0:
        tl.store(x_ptr + 1, v)
        v = tl.load(x_ptr)
    tl.store(x_ptr + tl.arange(0, BLOCK), tl.zeros([BLOCK], dtype=tl.float32))

def f(x):
    spin[(1,)](x, BLOCK=4)
    return x
)");
  expect_run_fails(f, "interp", "--max-interp-steps 1000000",
                   "IR interpreter: step budget of 1000000 block elements exceeded "
                   "(--max-interp-steps)");
  // The chip's own watchdog (simulation.watchdog_cycles) stops it there.
  expect_run_fails(f, "chip", "", "watchdog");
}

TEST_F(Budgets, AGridOfABillionProgramsIsRefusedBeforeItRuns) {
  auto f = write("grid.py", std::string(kHeader) +
                                "@triton.jit\ndef k(x_ptr):\n    tl.store(x_ptr, 1.0)\n\n"
                                "def f(x):\n    k[(1000000000,)](x)\n    return x\n");
  for (const char *ex : {"interp", "chip"})
    expect_run_fails(f, ex, "", "grid budget of 16777216 programs exceeded (--max-grid-programs)");
}

TEST_F(Budgets, AWrapperLaunchingInALoopStopsAtTheLaunchBudget) {
  auto f = write("launches.py", std::string(kHeader) +
                                    "@triton.jit\ndef k(x_ptr):\n    tl.store(x_ptr, 1.0)\n\n"
                                    "def f(x):\n    for i in range(1000000):\n        k[(1,)](x)\n"
                                    "    return x\n");
  for (const char *ex : {"interp", "chip"})
    expect_run_fails(f, ex, "--max-launches 50",
                     "launch budget of 50 exceeded (--max-launches)");
}

std::string big_block_kernel() {
  return std::string(kHeader) + R"(@triton.jit
def k(x_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    v = tl.load(x_ptr + offs, mask=offs < 4, other=0.0)
    tl.store(x_ptr + offs, v + 1.0, mask=offs < 4)

def f(x):
    k[(1,)](x, BLOCK=1 << 29)
    return x
)";
}

TEST_F(Budgets, ABlockOf2To29ElementsIsRefusedBeforeLlvmAndByTheInterpreter) {
  auto f = write("bigblock.py", big_block_kernel());
  expect_run_fails(f, "chip", "",
                   "block budget of 1048576 elements exceeded (--max-block-elements)");
  expect_run_fails(f, "interp", "", "exceeded (--max-interp-block-bytes)");
  std::string out;
  EXPECT_EQ(opforge("compile '" + f + "' --kernel k --signature 'x_ptr=*fp32' --constexpr "
                    "BLOCK=536870912 --dump bin",
                    &out),
            1)
      << out;
  EXPECT_NE(out.find("(--max-block-elements)"), std::string::npos) << out;
}

TEST_F(Budgets, AnLlvmFatalErrorIsAnErrorOfTheKernelNotAnAbort) {
  // Past the block budget, LLVM itself fails ("Frame offsets outside of the signed 32-bit
  // range"): it used to abort the process (exit 134).
  auto f = write("bigblock.py", big_block_kernel());
  expect_run_fails(f, "chip", "--max-block-elements=1000000000",
                   "codegen: LLVM fatal error: Frame offsets outside of the signed 32-bit range");
}

TEST_F(Budgets, ABudgetOptionNeedsAPositiveInteger) {
  std::string out;
  EXPECT_EQ(opforge("run x.py --call 'f()' --max-launches 0", &out), 2) << out;
  EXPECT_NE(out.find("--max-launches needs a positive integer"), std::string::npos) << out;
  EXPECT_EQ(opforge("--help", &out), 0) << out;
  EXPECT_NE(out.find("--max-interp-steps"), std::string::npos) << out;
}

// A DMA descriptor of 2^62 rows of 8 bytes (src = dst = buf), then xmtia.done.
constexpr const char *kDmaProgram = R"(.globl _start
_start:
  la a0, desc
  li a1, 0
  xmtia.dma a0, a1
  xmtia.done
1: j 1b
.data
.balign 8
desc:
  .dword buf
  .dword buf
  .dword 8
  .dword 0x4000000000000000
  .dword 0
  .dword 0
buf: .dword 0, 0
)";

TEST_F(Budgets, ADmaOf2To62RowsCountsAgainstSimMaxInsns) {
  const std::string elf = assemble("dma", kDmaProgram);
  std::string out;
  EXPECT_EQ(opforge("sim '" + elf + "' --max-insns 100", &out, 30), 1) << out;
  EXPECT_NE(out.find("instruction budget of 100 exceeded (--max-insns)"), std::string::npos) << out;
}

TEST_F(Budgets, ADpeCommandOf4096CubedCountsAgainstSimMaxInsns) {
  const std::string elf = assemble("dpe", R"(.globl _start
_start:
  la a0, desc
  xmtia.dpe a0
  xmtia.done
1: j 1b
.data
.balign 8
desc:
  .dword buf
  .dword buf
  .dword buf
  .word 4096, 4096, 4096
  .word 0, 0, 0
  .byte 2, 0
.balign 8
buf: .dword 0, 0
)");
  std::string out;
  EXPECT_EQ(opforge("sim '" + elf + "' --max-insns 100", &out, 30), 1) << out;
  EXPECT_NE(out.find("instruction budget of 100 exceeded (--max-insns)"), std::string::npos) << out;
}

TEST_F(Budgets, ADmaOf2To62RowsHitsTheChipWatchdog) {
  const std::string elf = assemble("dma", kDmaProgram);
  std::string out;
  EXPECT_EQ(opforge("chip-sim '" + elf + "' --arch tiny", &out, 30), 1) << out;
  EXPECT_NE(out.find("(simulation.watchdog_cycles)"), std::string::npos) << out;
}

TEST_F(Budgets, AnElfSegmentOf4GiBIsRefusedByTheLoader) {
  const std::string ok = assemble("ok", ".globl _start\n_start:\n  xmtia.done\n");
  std::ifstream in(ok, std::ios::binary);
  std::string b((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  ASSERT_GE(b.size(), 64u);
  uint64_t phoff = 0;
  uint16_t phnum = 0;
  std::memcpy(&phoff, b.data() + 32, 8);
  std::memcpy(&phnum, b.data() + 56, 2);
  bool patched = false;
  for (uint16_t i = 0; i < phnum && !patched; ++i) {
    const size_t ph = phoff + size_t(i) * 56;
    uint32_t type = 0;
    std::memcpy(&type, b.data() + ph, 4);
    if (type != 1) continue;
    const uint64_t memsz = 0xffffffffull;
    std::memcpy(b.data() + ph + 40, &memsz, 8);
    patched = true;
  }
  ASSERT_TRUE(patched);
  const std::string big = write("big.elf", b);
  for (const char *cmd : {"sim", "chip-sim"}) {
    std::string out;
    const std::string arch = std::string(cmd) == "chip-sim" ? " --arch tiny" : "";
    EXPECT_EQ(opforge(std::string(cmd) + " '" + big + "'" + arch, &out, 30), 1) << out;
    EXPECT_NE(out.find("segment budget of 1073741824 bytes exceeded (--max-elf-segment-bytes)"),
              std::string::npos)
        << cmd << ": " << out;
  }
}

}  // namespace
#endif
