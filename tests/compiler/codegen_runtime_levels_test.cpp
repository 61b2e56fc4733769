//===- codegen_runtime_levels_test.cpp - reduction-level routines under qemu-riscv64 ===//
//
// The runtime library's __opforge_rt_levels_* routines are assembly (module
// asm in its LLVM IR text) that kernels call from inline assembly naming
// the registers they change. Each one runs here under qemu-riscv64 (RVV at
// VLEN 128 and 512, so one register group holds 32 or 128 elements) on
// partial results of several counts: powers of two below and beyond one
// register group (register levels, memory then register levels) and counts
// that are not powers of two (memory levels only; no Triton kernel reaches
// them, its blocks having power-of-two lengths). The result must be
// bit-identical to the IR interpreter's tree order computed on the host,
// a0 and a1 must come back unchanged, and the registers outside the clobber
// list (a2..a6, s0..s11, fs0..fs11) keep their values.
//
//===----------------------------------------------------------------------===//
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <functional>
#include <sstream>
#include <string>
#include <vector>

#include "../isa/binutils_util.h"
#include "opforge/compiler/kernel_binary.h"

namespace opforge::compiler {
namespace {

using namespace isa::testutil;

// The routine's assembly lines from the runtime library's module asm.
std::string routine_asm(const std::string &name) {
  const std::string &ir = runtime_library_ir();
  std::istringstream in(ir);
  std::string line, out;
  bool inside = false;
  const std::string prefix = "module asm \"";
  while (std::getline(in, line)) {
    if (line.rfind(prefix, 0) != 0) continue;
    std::string text = line.substr(prefix.size(), line.size() - prefix.size() - 1);
    if (text == ".globl " + name) inside = true;
    if (inside) out += "  " + text + "\n";
    if (inside && text.rfind(".size " + name, 0) == 0) break;
  }
  return out;
}

// The interpreter's tree order: element k with element k + keep for k < half.
template <typename T>
T tree(std::vector<T> v, const std::function<T(T, T)> &combine) {
  size_t len = v.size();
  while (len > 1) {
    size_t half = len / 2, keep = len - half;
    for (size_t k = 0; k < half; ++k) v[k] = combine(v[k], v[k + keep]);
    len = keep;
  }
  return v[0];
}

class RuntimeLevels : public ::testing::Test {
 protected:
  void SetUp() override {
    for (const char *t : {"qemu-riscv64", "riscv64-unknown-elf-as", "riscv64-unknown-elf-ld"})
      if (!have_tool(t)) GTEST_SKIP() << t << " not installed";
  }

  // Runs `name` on `words` (the partial results' bits) and returns qemu's
  // exit status: 42 when element 0 equals `expect` and the registers hold.
  int run_routine(const std::string &name, const std::vector<uint32_t> &words, uint32_t expect,
                  int vlen, std::string *log) {
    std::ostringstream s;
    s << "  .globl _start\n  .text\n_start:\n";
    // Sentinels in the registers the routine must keep.
    const char *keep[] = {"a2", "a3", "a4", "a5", "a6", "s0", "s1",  "s2", "s3",
                          "s4", "s5", "s6", "s7", "s8", "s9", "s10", "s11"};
    int n = 0;
    for (const char *r : keep) s << "  li " << r << ", " << (1000 + 7 * n++) << "\n";
    s << "  li t0, 77\n  fcvt.s.w fs0, t0\n  fmv.s fs11, fs0\n";
    s << "  la a0, parts\n  li a1, " << words.size() << "\n  call " << name << "\n";
    s << "  la t0, parts\n  bne a0, t0, bad\n  li t0, " << words.size() << "\n  bne a1, t0, bad\n";
    n = 0;
    for (const char *r : keep)
      s << "  li t0, " << (1000 + 7 * n++) << "\n  bne " << r << ", t0, bad\n";
    s << "  li t0, 77\n  fcvt.s.w ft0, t0\n  feq.s t1, ft0, fs0\n  beqz t1, bad\n"
      << "  feq.s t1, ft0, fs11\n  beqz t1, bad\n";
    s << "  lw t1, 0(a0)\n  la t2, expect\n  lw t3, 0(t2)\n  bne t1, t3, wrong\n"
      << "  li a0, 42\n  j done\nwrong:\n  li a0, 2\n  j done\nbad:\n  li a0, 1\ndone:\n"
      << "  li a7, 93\n  ecall\n";
    s << routine_asm(name);
    s << "  .data\n  .p2align 4\nparts:\n";
    for (uint32_t w : words) s << "  .word " << w << "\n";
    s << "expect:\n  .word " << expect << "\n";
    ScratchDir dir("levels");
    write_text(dir / "t.s", s.str());
    int st = 0;
    *log = run(std::string("riscv64-unknown-elf-as -march=") + kMarch + " -o " + (dir / "t.o") +
                   " " + (dir / "t.s"),
               &st);
    if (st != 0) return -1;
    // No relaxation: gp is not set up (a bare program, no C runtime).
    *log += run("riscv64-unknown-elf-ld --no-relax -o " + (dir / "t") + " " + (dir / "t.o"), &st);
    if (st != 0) return -1;
    *log +=
        run("qemu-riscv64 -cpu rv64,v=true,vlen=" + std::to_string(vlen) + " " + (dir / "t"), &st);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  }

  // Partial results of `count` elements: magnitudes spread so that the
  // order of the additions shows in the rounding.
  static std::vector<float> floats(size_t count) {
    std::vector<float> v(count);
    for (size_t i = 0; i < count; ++i)
      v[i] = static_cast<float>((static_cast<int>(i * 37 % 11) - 5) + 0.5) *
             std::ldexp(1.0f, static_cast<int>(i * 13 % 29) - 14);
    return v;
  }
};

const size_t kCounts[] = {2, 8, 37, 100, 512, 1000};
const int kVlens[] = {128, 512};

TEST_F(RuntimeLevels, RoutinesAreInTheLibrary) {
  for (const char *r : {"sum_f32", "max_f32", "min_f32", "sum_i32"}) {
    std::string a = routine_asm(std::string("__opforge_rt_levels_") + r);
    EXPECT_NE(a.find("vslidedown.vx"), std::string::npos) << r << "\n" << a;
    EXPECT_NE(a.find("ret"), std::string::npos) << r;
  }
}

TEST_F(RuntimeLevels, FloatSumsFollowTheTreeOrderBitForBit) {
  int order_shows = 0;  // counts whose tree sum differs from the serial one
  for (size_t count : kCounts) {
    std::vector<float> v = floats(count);
    float want = tree<float>(v, [](float a, float b) { return a + b; });
    float serial = 0;
    for (float x : v) serial += x;
    order_shows += serial != want;
    std::vector<uint32_t> words;
    for (float x : v) words.push_back(std::bit_cast<uint32_t>(x));
    for (int vlen : kVlens) {
      std::string log;
      EXPECT_EQ(run_routine("__opforge_rt_levels_sum_f32", words, std::bit_cast<uint32_t>(want),
                            vlen, &log),
                42)
          << "count " << count << " vlen " << vlen << ": want " << want << " (serial sum " << serial
          << ")\n"
          << log;
    }
  }
  EXPECT_GT(order_shows, 0) << "the data must make the order of the additions visible";
}

TEST_F(RuntimeLevels, FloatMaximaAndMinimaIgnoreNans) {
  for (size_t count : kCounts) {
    std::vector<float> v = floats(count);
    v[count / 3] = std::nanf("");  // maxnum/minnum: the other operand wins
    std::vector<uint32_t> words;
    for (float x : v) words.push_back(std::bit_cast<uint32_t>(x));
    float hi = tree<float>(v, [](float a, float b) { return std::fmax(a, b); });
    float lo = tree<float>(v, [](float a, float b) { return std::fmin(a, b); });
    for (int vlen : kVlens) {
      std::string log;
      EXPECT_EQ(run_routine("__opforge_rt_levels_max_f32", words, std::bit_cast<uint32_t>(hi), vlen,
                            &log),
                42)
          << "max, count " << count << " vlen " << vlen << "\n"
          << log;
      EXPECT_EQ(run_routine("__opforge_rt_levels_min_f32", words, std::bit_cast<uint32_t>(lo), vlen,
                            &log),
                42)
          << "min, count " << count << " vlen " << vlen << "\n"
          << log;
    }
  }
}

TEST_F(RuntimeLevels, IntegerSumsWrapLikeTheInterpreter) {
  for (size_t count : kCounts) {
    std::vector<uint32_t> words(count);
    for (size_t i = 0; i < count; ++i) words[i] = static_cast<uint32_t>(0x7fff0000u + i * 40503u);
    uint32_t want = tree<uint32_t>(words, [](uint32_t a, uint32_t b) { return a + b; });
    for (int vlen : kVlens) {
      std::string log;
      EXPECT_EQ(run_routine("__opforge_rt_levels_sum_i32", words, want, vlen, &log), 42)
          << "count " << count << " vlen " << vlen << "\n"
          << log;
    }
  }
}

// The harness itself can fail: a wrong expected value is reported as such.
TEST_F(RuntimeLevels, AWrongExpectationFails) {
  std::vector<float> v = floats(37);
  float want = tree<float>(v, [](float a, float b) { return a + b; });
  std::vector<uint32_t> words;
  for (float x : v) words.push_back(std::bit_cast<uint32_t>(x));
  std::string log;
  EXPECT_EQ(run_routine("__opforge_rt_levels_sum_f32", words, std::bit_cast<uint32_t>(want) ^ 1u,
                        128, &log),
            2)
      << log;
}

}  // namespace
}  // namespace opforge::compiler
