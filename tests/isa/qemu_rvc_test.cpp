//===- qemu_rvc_test.cpp - compressed instructions: the ISS against qemu-riscv64 ===//
//
// A seeded generator writes random RVC instruction sequences (every
// compressed instruction but the stack-pointer adjustments and jumps through
// registers, which would leave the program; those run in iss_rvc_test and
// rv64uc) mixed with 4-byte instructions at 2-byte offsets, forward
// c.beqz/c.bnez/c.j over them, into a user-mode program that starts from
// random x and f registers and ends by writing x1..x31 (but sp, gp, tp),
// f8..f15 and its scratch buffer to stdout. qemu-riscv64 and the ISS must
// print the same bytes.
//
//===----------------------------------------------------------------------===//
#include <gtest/gtest.h>

#include <cstring>
#include <fstream>
#include <random>
#include <sstream>

#include "qemu_diff_util.h"

using namespace opforge::isa;
using opforge::isa::testing::build_program;
using opforge::isa::testing::run_iss;
using opforge::isa::testing::run_qemu;
using opforge::isa::testing::TempDir;

namespace {

class RvcGenerator {
 public:
  explicit RvcGenerator(uint32_t seed) : rng_(seed) {}

  std::string program(int n) {
    std::ostringstream o;
    o << ".globl _start\n_start:\n.option norvc\n";
    o << "  la s1, scratch\n  mv sp, s1\n  la t6, init\n";
    for (int r = 1; r < 32; ++r)
      if (r != 2 && r != 3 && r != 4 && r != 9 && r != 31)
        o << "  ld x" << r << ", " << 8 * r << "(t6)\n";
    for (int r = 8; r < 16; ++r) o << "  fld f" << r << ", " << 256 + 8 * r << "(t6)\n";
    o << ".option rvc\n";
    for (int k = 0; k < n; ++k) emit(o, k);
    o << ".option norvc\n  la t6, dump\n";
    for (int r = 1; r < 32; ++r)
      if (r != 2 && r != 3 && r != 4 && r != 31) o << "  sd x" << r << ", " << 8 * r << "(t6)\n";
    for (int r = 8; r < 16; ++r) o << "  fsd f" << r << ", " << 256 + 8 * r << "(t6)\n";
    o << "  li a0, 1\n  la a1, dump\n  li a2, 1024\n  li a7, 64\n  ecall\n"
         "  li a0, 0\n  li a7, 93\n  ecall\n";
    o << ".data\n.balign 8\ninit:\n";
    for (int k = 0; k < 64; ++k) o << "  .dword " << word() << "\n";
    o << "dump: .zero 512\nscratch:\n";
    for (int k = 0; k < 64; ++k) o << "  .dword " << word() << "\n";
    return o.str();
  }

 private:
  int pick(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng_); }
  long long word() {
    static const long long kEdge[] = {0, 1, -1, 0x7fffffff, -0x80000000ll, 0x7fffffffffffffffll};
    if (pick(0, 3) == 0) return kEdge[pick(0, 5)];
    return static_cast<long long>(std::uniform_int_distribution<uint64_t>()(rng_));
  }
  // Destinations: not sp (x2), gp, tp, s1 (x9: the c.lw base) or t6.
  std::string xd() {
    int r;
    do r = pick(1, 30);
    while (r == 2 || r == 3 || r == 4 || r == 9);
    return "x" + std::to_string(r);
  }
  std::string xs() { return "x" + std::to_string(pick(0, 31)); }
  std::string xs_nz() { return "x" + std::to_string(pick(1, 31)); }
  std::string cd() {  // x8..x15 but s1
    int r;
    do r = pick(8, 15);
    while (r == 9);
    return "x" + std::to_string(r);
  }
  std::string cs() { return "x" + std::to_string(pick(8, 15)); }
  std::string imm6() { return std::to_string(pick(-32, 31)); }
  std::string shamt() { return std::to_string(pick(1, 63)); }

  void emit(std::ostringstream &o, int k) {
    switch (pick(0, 27)) {
      case 0:
        o << "  c.addi " << xd() << ", " << imm6() << "\n";
        break;
      case 1:
        o << "  c.addiw " << xd() << ", " << imm6() << "\n";
        break;
      case 2:
        o << "  c.li " << xd() << ", " << imm6() << "\n";
        break;
      case 3: {
        const int v = pick(1, 63);
        o << "  c.lui " << xd() << ", " << (v < 32 ? v : 0xfffc0 + v) << "\n";
        break;
      }
      case 4:
        o << "  c.srli " << cd() << ", " << shamt() << "\n";
        break;
      case 5:
        o << "  c.srai " << cd() << ", " << shamt() << "\n";
        break;
      case 6:
        o << "  c.andi " << cd() << ", " << imm6() << "\n";
        break;
      case 7:
        o << "  c.sub " << cd() << ", " << cs() << "\n";
        break;
      case 8:
        o << "  c.xor " << cd() << ", " << cs() << "\n";
        break;
      case 9:
        o << "  c.or " << cd() << ", " << cs() << "\n";
        break;
      case 10:
        o << "  c.and " << cd() << ", " << cs() << "\n";
        break;
      case 11:
        o << "  c.subw " << cd() << ", " << cs() << "\n";
        break;
      case 12:
        o << "  c.addw " << cd() << ", " << cs() << "\n";
        break;
      case 13:
        o << "  c.slli " << xd() << ", " << shamt() << "\n";
        break;
      case 14:
        o << "  c.mv " << xd() << ", " << xs_nz() << "\n";
        break;
      case 15:
        o << "  c.add " << xd() << ", " << xs_nz() << "\n";
        break;
      case 16:
        o << "  c.lw " << cd() << ", " << 4 * pick(0, 31) << "(s1)\n";
        break;
      case 17:
        o << "  c.ld " << cd() << ", " << 8 * pick(0, 31) << "(s1)\n";
        break;
      case 18:
        o << "  c.sw " << cs() << ", " << 4 * pick(0, 31) << "(s1)\n";
        break;
      case 19:
        o << "  c.sd " << cs() << ", " << 8 * pick(0, 31) << "(s1)\n";
        break;
      case 20:
        o << "  c.lwsp " << xd() << ", " << 4 * pick(0, 63) << "(sp)\n";
        break;
      case 21:
        o << "  c.ldsp " << xd() << ", " << 8 * pick(0, 63) << "(sp)\n";
        break;
      case 22:
        o << "  c.swsp " << xs() << ", " << 4 * pick(0, 63) << "(sp)\n";
        break;
      case 23:
        o << "  c.sdsp " << xs() << ", " << 8 * pick(0, 63) << "(sp)\n";
        break;
      case 24:
        o << "  c." << (pick(0, 1) ? "fld f" : "fsd f") << pick(8, 15) << ", " << 8 * pick(0, 31)
          << "(s1)\n";
        break;
      case 25:
        o << "  c." << (pick(0, 1) ? "fldsp f" : "fsdsp f") << pick(8, 15) << ", "
          << 8 * pick(0, 63) << "(sp)\n";
        break;
      case 26:  // a 4-byte instruction, often at a 2-byte offset
        o << ".option norvc\n  " << (pick(0, 1) ? "add " : "xor ") << xd() << ", " << xs() << ", "
          << xs() << "\n.option rvc\n";
        break;
      default: {  // a forward branch or jump over the next instruction
        const char *kinds[] = {"c.beqz", "c.bnez", "c.j"};
        const char *b = kinds[pick(0, 2)];
        o << "  " << b << " " << (b[2] == 'j' ? "" : cs() + ", ") << "1f\n  c.addi " << xd()
          << ", 1\n1:\n";
        (void)k;
        break;
      }
    }
  }
  std::mt19937 rng_;
};

TEST(QemuRvc, RandomCompressedProgramsMatch) {
  if (opforge::isa::testing::run_command("qemu-riscv64 --version") != 0)
    GTEST_SKIP() << "qemu-riscv64 not installed";
  for (uint32_t seed = 500; seed < 508; ++seed) {
    TempDir dir;
    const std::string src = RvcGenerator(seed).program(400);
    const std::string elf = build_program(dir, "rvc", src, /*user=*/true);
    int status = 0;
    const std::string q = run_qemu("rv64", elf, status);
    ASSERT_EQ(status, 0) << "qemu-riscv64 rejected the program of seed " << seed;
    ASSERT_EQ(q.size(), 1024u);
    SimOptions iss;
    iss.max_instructions = 1'000'000;
    SimResult res;
    const std::string s = run_iss(elf, iss, res);
    ASSERT_EQ(res.verdict, Verdict::Done) << "seed " << seed << ": " << res.message;
    ASSERT_EQ(s.size(), q.size());
    for (size_t k = 0; k < q.size(); k += 8)
      if (std::memcmp(q.data() + k, s.data() + k, 8) != 0) {
        const std::string keep = "/tmp/opforge-qemu-rvc-seed" + std::to_string(seed) + ".S";
        std::ofstream(keep) << src;
        uint64_t a, b;
        std::memcpy(&a, q.data() + k, 8);
        std::memcpy(&b, s.data() + k, 8);
        FAIL() << "seed " << seed << ": dump byte " << k
               << (k < 256   ? " (x" + std::to_string(k / 8) + ")"
                   : k < 512 ? " (f" + std::to_string((k - 256) / 8) + ")"
                             : " (scratch)")
               << ": qemu 0x" << std::hex << a << ", iss 0x" << b << " (program kept in " << keep
               << ")";
      }
  }
}

}  // namespace
