//===- qemu_diff_zfh_test.cpp - Zfh and Zvfh against qemu-riscv64 -----------===//
//
// A seeded generator writes random half-precision programs: scalar Zfh
// (arithmetic in static and dynamic rounding modes, fused multiply-add,
// compares, classification, conversions with integers, single and double,
// moves, flh/fsh, NaN-boxed and unboxed operands) and vector FP at SEW=16
// (Zvfh: arithmetic, fused multiply-add, compares, reductions, merges and
// moves, conversions, and the f16 -> f32 widening and f32 -> f16 narrowing
// operations), with frm changed now and then. The program dumps the x, f and
// v register files, fcsr (so fflags are compared), vl, vtype and a scratch
// buffer; qemu's and the ISS's dumps must be identical.
//
// qemu 7.2 has no zvfh CPU property: with zfh=true it accepts vector FP at
// SEW=16, which is what is compared here. It aborts on the .rtz vector
// conversions (as at SEW=32, see qemu_diff_test.cpp), so those are left out.
//
//===----------------------------------------------------------------------===//
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <iterator>
#include <random>
#include <sstream>
#include <vector>

#include "qemu_diff_util.h"

using namespace opforge::isa;
using opforge::isa::testing::qemu_rvv_cpu;
using opforge::isa::testing::run_differential;

namespace {

constexpr int kScratchBytes = 1024;

class HalfGenerator {
 public:
  HalfGenerator(uint32_t seed, unsigned vlen) : rng_(seed), vlen_(vlen) {}

  std::string program(int n_insns) {
    std::ostringstream o;
    o << "  .option arch, +zfh\n.globl _start\n_start:\n  la s11, scratch\n  la t6, init_x\n";
    for (int r = 5; r <= 30; ++r)
      if (r != 27) o << "  ld x" << r << ", " << 8 * r << "(t6)\n";
    o << "  la t6, init_f\n";
    for (int r = 0; r < 32; ++r) o << "  fld f" << r << ", " << 8 * r << "(t6)\n";
    o << "  la t6, init_v\n  csrr t5, vlenb\n  slli t5, t5, 3\n";
    for (int g = 0; g < 32; g += 8) o << "  vl8re8.v v" << g << ", (t6)\n  add t6, t6, t5\n";
    o << "  fsflagsi 0\n  fsrmi " << pick(0, 4) << "\n";
    set_vtype(o);
    for (int k = 0; k < n_insns; ++k) emit(o);
    o << "  la t6, dump\n";
    for (int r = 1; r <= 30; ++r)
      if (r != 2 && r != 3 && r != 4) o << "  sd x" << r << ", " << 8 * r << "(t6)\n";
    for (int r = 0; r < 32; ++r) o << "  fsd f" << r << ", " << 256 + 8 * r << "(t6)\n";
    o << "  frcsr t5\n  sd t5, 512(t6)\n  csrr t5, vl\n  sd t5, 520(t6)\n  csrr t5, vtype\n"
         "  sd t5, 528(t6)\n";
    o << "  addi t6, t6, 1024\n  csrr t5, vlenb\n  slli t5, t5, 3\n";
    for (int g = 0; g < 32; g += 8) o << "  vs8r.v v" << g << ", (t6)\n  add t6, t6, t5\n";
    o << "  la a1, dump\n  sub a2, t6, a1\n  li a0, 1\n  li a7, 64\n  ecall\n";
    o << "  la a1, scratch\n  li a2, " << kScratchBytes << "\n  li a0, 1\n  li a7, 64\n  ecall\n";
    o << "  li a0, 0\n  li a7, 93\n  ecall\n";
    o << "  .data\n  .balign 64\ninit_x:\n";
    for (int r = 0; r < 32; ++r) o << "  .dword " << random_x() << "\n";
    o << "init_f:\n";
    for (int r = 0; r < 32; ++r) o << "  .dword " << random_f() << "\n";
    o << "init_v:\n";
    for (unsigned k = 0; k < 32 * vlen_ / 64; ++k)
      o << "  .dword " << ((uint64_t(half_pair()) << 32) | half_pair()) << "\n";
    o << "  .balign 64\nscratch:\n";
    for (int k = 0; k < kScratchBytes / 8; ++k)
      o << "  .dword " << ((uint64_t(half_pair()) << 32) | half_pair()) << "\n";
    o << "  .bss\n  .balign 64\ndump: .zero " << 1024 + 32 * vlen_ / 8 << "\n";
    return o.str();
  }

 private:
  int pick(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng_); }
  template <class T>
  const T &choose(const std::vector<T> &v) {
    return v[pick(0, static_cast<int>(v.size()) - 1)];
  }
  uint64_t bits64() { return std::uniform_int_distribution<uint64_t>()(rng_); }

  // Mostly ordinary halves near 1 (so arithmetic rounds rather than
  // overflows), with zeros, infinities, NaNs, subnormals and extremes.
  uint16_t half() {
    static const uint16_t specials[] = {0x0000, 0x8000, 0x7c00, 0xfc00, 0x7e00, 0x7c01,
                                        0xfe01, 0x0001, 0x03ff, 0x0400, 0x7bff, 0xfbff,
                                        0x3c00, 0xbc00, 0x3555, 0x5640, 0x7800, 0x0200};
    const int k = pick(0, 9);
    if (k == 0) return specials[pick(0, 17)];
    if (k == 1) return static_cast<uint16_t>(bits64());
    const uint16_t sign = pick(0, 1) ? 0x8000 : 0;
    const uint16_t exp = static_cast<uint16_t>(pick(15 - 6, 15 + 6) << 10);
    return sign | exp | static_cast<uint16_t>(bits64() & 0x3ff);
  }
  uint32_t half_pair() { return (uint32_t(half()) << 16) | half(); }
  std::string random_x() {
    switch (pick(0, 3)) {
      case 0:
        return std::to_string(pick(0, 40));
      case 1:
        return std::to_string(pick(-70000, 70000));
      default:
        return std::to_string(static_cast<int64_t>(bits64()));
    }
  }
  std::string random_f() {
    uint64_t v = 0xffffffffffff0000ull | half();
    const int k = pick(0, 15);
    if (k == 0) v &= 0x00000000ffffffffull;               // not NaN-boxed
    if (k == 1) v = 0xffffffff00000000ull | half_pair();  // a single, not a boxed half
    if (k == 2) v = 0x3ff0000000000000ull + (bits64() & 0x000fffffffffffffull);
    return std::to_string(v);
  }

  void set_vtype(std::ostringstream &o) {
    static const int lmuls[] = {-2, -1, 0, 0, 1, 1, 2};
    lmul_ = lmuls[pick(0, 6)];
    sew_ = pick(0, 7) == 0 ? 8 : 16;
    if (sew_ == 8 && lmul_ < -1) lmul_ = -1;
    const char *l = lmul_ == -2   ? "mf4"
                    : lmul_ == -1 ? "mf2"
                    : lmul_ == 0  ? "m1"
                    : lmul_ == 1  ? "m2"
                                  : "m4";
    const int avl = pick(0, 4) ? pick(1, 40) : 1000;
    o << "  li t4, " << avl << "\n  vsetvli t3, t4, e" << sew_ << ", " << l << ", tu, mu\n";
  }
  int group(int lmul_log2) const { return lmul_log2 > 0 ? 1 << lmul_log2 : 1; }
  int vreg(int size, std::vector<std::pair<int, int>> avoid = {}) {
    for (int tries = 0; tries < 100; ++tries) {
      const int r = pick(1, 31 / size) * size;
      if (r + size > 32 || r == 0) continue;
      bool ok = true;
      for (auto [a, n] : avoid) ok &= (r + size <= a || a + n <= r);
      if (ok) return r;
    }
    return 8;
  }
  std::string vm() { return pick(0, 2) == 0 ? ", v0.t" : ""; }
  std::string x() {
    int r;
    do {
      r = pick(5, 30);
    } while (r == 27);
    return "x" + std::to_string(r);
  }
  std::string f() { return "f" + std::to_string(pick(0, 31)); }
  std::string rm() {
    static const char *rms[] = {"rne", "rtz", "rdn", "rup", "rmm", "dyn"};
    return rms[pick(0, 5)];
  }
  static std::string v(int r) { return "v" + std::to_string(r); }

  void emit(std::ostringstream &o) {
    const int kind = pick(0, 99);
    if (kind < 45)
      scalar(o);
    else if (kind < 50)
      set_vtype(o);
    else if (kind < 53)
      o << "  fsrmi " << pick(0, 4) << "\n";
    else if (sew_ == 8)
      vector_e8(o);
    else
      vector(o);
  }

  void scalar(std::ostringstream &o) {
    switch (pick(0, 13)) {
      case 0:
      case 1:
        o << "  " << choose<std::string>({"fadd.h", "fsub.h", "fmul.h", "fdiv.h"}) << " " << f()
          << ", " << f() << ", " << f() << ", " << rm() << "\n";
        break;
      case 2:
        o << "  fsqrt.h " << f() << ", " << f() << ", " << rm() << "\n";
        break;
      case 3:
        o << "  " << choose<std::string>({"fmin.h", "fmax.h", "fsgnj.h", "fsgnjn.h", "fsgnjx.h"})
          << " " << f() << ", " << f() << ", " << f() << "\n";
        break;
      case 4:
      case 5:
        o << "  " << choose<std::string>({"fmadd.h", "fmsub.h", "fnmadd.h", "fnmsub.h"}) << " "
          << f() << ", " << f() << ", " << f() << ", " << f() << ", " << rm() << "\n";
        break;
      case 6:
        o << "  " << choose<std::string>({"feq.h", "flt.h", "fle.h"}) << " " << x() << ", " << f()
          << ", " << f() << "\n  fclass.h " << x() << ", " << f() << "\n";
        break;
      case 7:
        o << "  fcvt." << choose<std::string>({"w", "wu", "l", "lu"}) << ".h " << x() << ", " << f()
          << ", " << rm() << "\n";
        break;
      case 8:
        o << "  fcvt.h." << choose<std::string>({"w", "wu", "l", "lu"}) << " " << f() << ", " << x()
          << ", " << rm() << "\n";
        break;
      case 9:
        switch (pick(0, 3)) {
          case 0:
            o << "  fcvt.s.h " << f() << ", " << f() << "\n";
            break;
          case 1:
            o << "  fcvt.d.h " << f() << ", " << f() << "\n";
            break;
          case 2:
            o << "  fcvt.h.s " << f() << ", " << f() << ", " << rm() << "\n";
            break;
          default:
            o << "  fcvt.h.d " << f() << ", " << f() << ", " << rm() << "\n";
            break;
        }
        break;
      case 10:
        o << "  fmv.x.h " << x() << ", " << f() << "\n  fmv.h.x " << f() << ", " << x() << "\n";
        break;
      case 11:
        o << "  flh " << f() << ", " << 2 * pick(0, 200) << "(s11)\n";
        break;
      case 12:
        o << "  fsh " << f() << ", " << 2 * pick(0, 200) << "(s11)\n";
        break;
      default:
        o << "  frflags " << x() << "\n";
        break;
    }
  }

  // SEW=8: the conversions between 8-bit integers and halves.
  void vector_e8(std::ostringstream &o) {
    if (lmul_ >= 3) return;
    const int g = group(lmul_), wg = group(lmul_ + 1);
    const int wd = vreg(wg), n = vreg(g, {{wd, wg}});
    if (pick(0, 1))
      o << "  " << choose<std::string>({"vfwcvt.f.x.v", "vfwcvt.f.xu.v"}) << " " << v(wd) << ", "
        << v(n) << vm() << "\n";
    else
      o << "  " << choose<std::string>({"vfncvt.x.f.w", "vfncvt.xu.f.w"}) << " " << v(n) << ", "
        << v(wd) << vm() << "\n";
  }

  void vector(std::ostringstream &o) {
    const int g = group(lmul_);
    const int vs2 = vreg(g), vs1 = vreg(g), vd = vreg(g);
    const int op = pick(0, 13);
    if (op <= 2) {
      const std::string name = choose<std::string>(
          {"vfadd", "vfsub", "vfmul", "vfdiv", "vfmin", "vfmax", "vfsgnj", "vfsgnjn", "vfsgnjx"});
      if (pick(0, 1))
        o << "  " << name << ".vv " << v(vd) << ", " << v(vs2) << ", " << v(vs1) << vm() << "\n";
      else
        o << "  " << name << ".vf " << v(vd) << ", " << v(vs2) << ", " << f() << vm() << "\n";
    } else if (op == 3) {
      o << "  " << choose<std::string>({"vfrsub", "vfrdiv"}) << ".vf " << v(vd) << ", " << v(vs2)
        << ", " << f() << vm() << "\n";
    } else if (op == 4) {
      const std::string name = choose<std::string>(
          {"vfmacc", "vfnmacc", "vfmsac", "vfnmsac", "vfmadd", "vfnmadd", "vfmsub", "vfnmsub"});
      if (pick(0, 1))
        o << "  " << name << ".vv " << v(vd) << ", " << v(vs1) << ", " << v(vs2) << vm() << "\n";
      else
        o << "  " << name << ".vf " << v(vd) << ", " << f() << ", " << v(vs2) << vm() << "\n";
    } else if (op == 5) {
      o << "  "
        << choose<std::string>({"vfsqrt.v", "vfclass.v", "vfrec7.v", "vfrsqrt7.v", "vfcvt.xu.f.v",
                                "vfcvt.x.f.v", "vfcvt.f.xu.v", "vfcvt.f.x.v"})
        << " " << v(vd) << ", " << v(vs2) << vm() << "\n";
    } else if (op == 6) {
      const int md = vreg(1, {{vs2, g}, {vs1, g}});
      if (pick(0, 1))
        o << "  " << choose<std::string>({"vmfeq", "vmfne", "vmflt", "vmfle"}) << ".vv " << v(md)
          << ", " << v(vs2) << ", " << v(vs1) << vm() << "\n";
      else
        o << "  " << choose<std::string>({"vmfeq", "vmfne", "vmflt", "vmfle", "vmfgt", "vmfge"})
          << ".vf " << v(md) << ", " << v(vs2) << ", " << f() << vm() << "\n";
    } else if (op == 7) {
      o << "  " << choose<std::string>({"vfredusum", "vfredosum", "vfredmin", "vfredmax"}) << ".vs "
        << v(vreg(1)) << ", " << v(vs2) << ", " << v(vreg(1)) << vm() << "\n";
    } else if (op == 8) {
      if (pick(0, 1))
        o << "  vfmerge.vfm " << v(vd) << ", " << v(vs2) << ", " << f() << ", v0\n";
      else
        o << "  vfmv.v.f " << v(vd) << ", " << f() << "\n";
      o << "  vfmv.f.s " << f() << ", " << v(vs2) << "\n  vfmv.s.f " << v(vd) << ", " << f()
        << "\n";
      o << "  " << choose<std::string>({"vfslide1up", "vfslide1down"}) << ".vf "
        << v(vreg(g, {{vs2, g}})) << ", " << v(vs2) << ", " << f() << vm() << "\n";
    } else if (lmul_ < 3) {  // f16 -> f32 widening, f32 -> f16 narrowing
      const int wg = group(lmul_ + 1);
      const int wd = vreg(wg);
      const int n2 = vreg(g, {{wd, wg}}), n1 = vreg(g, {{wd, wg}});
      switch (pick(0, 5)) {
        case 0:
          o << "  " << choose<std::string>({"vfwadd", "vfwsub", "vfwmul"}) << ".vv " << v(wd)
            << ", " << v(n2) << ", " << v(n1) << vm() << "\n";
          break;
        case 1:
          if (pick(0, 1))
            o << "  " << choose<std::string>({"vfwadd", "vfwsub"}) << ".wf " << v(wd) << ", "
              << v(vreg(wg, {{wd, wg}})) << ", " << f() << vm() << "\n";
          else
            o << "  " << choose<std::string>({"vfwadd", "vfwsub", "vfwmul"}) << ".vf " << v(wd)
              << ", " << v(n2) << ", " << f() << vm() << "\n";
          break;
        case 2:
          if (pick(0, 1))
            o << "  " << choose<std::string>({"vfwmacc", "vfwnmacc", "vfwmsac", "vfwnmsac"})
              << ".vf " << v(wd) << ", " << f() << ", " << v(n2) << vm() << "\n";
          else
            o << "  " << choose<std::string>({"vfwmacc", "vfwnmacc", "vfwmsac", "vfwnmsac"})
              << ".vv " << v(wd) << ", " << v(n1) << ", " << v(n2) << vm() << "\n";
          break;
        case 3:
          o << "  "
            << choose<std::string>({"vfwcvt.f.f.v", "vfwcvt.xu.f.v", "vfwcvt.x.f.v",
                                    "vfwcvt.f.xu.v", "vfwcvt.f.x.v"})
            << " " << v(wd) << ", " << v(n2) << vm() << "\n";
          break;
        case 4:
          o << "  "
            << choose<std::string>({"vfncvt.f.f.w", "vfncvt.rod.f.f.w", "vfncvt.xu.f.w",
                                    "vfncvt.x.f.w", "vfncvt.f.xu.w", "vfncvt.f.x.w"})
            << " " << v(n2) << ", " << v(wd) << vm() << "\n";
          break;
        default:
          o << "  " << choose<std::string>({"vfwredusum", "vfwredosum"}) << ".vs " << v(vreg(1))
            << ", " << v(n2) << ", " << v(vreg(1)) << vm() << "\n";
          break;
      }
    }
  }

  std::mt19937 rng_;
  unsigned vlen_;
  int sew_ = 16, lmul_ = 0;
};

void differential(unsigned vlen, uint32_t first_seed, int programs, int insns) {
  SimOptions iss;
  iss.vlen_bits = vlen;
  iss.max_instructions = 10'000'000;
  iss.isa_string = "rv64imafdv_zicsr_zfh_zvfh";
  run_differential(
      "zfh", vlen, first_seed, programs,
      [&](uint32_t seed) {
        std::string src = HalfGenerator(seed, vlen).program(insns);
        // OPFORGE_QEMU_DIFF_SOURCE=FILE runs that program instead (reproduction).
        if (const char *file = std::getenv("OPFORGE_QEMU_DIFF_SOURCE")) {
          std::ifstream in(file);
          src.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
        }
        return src;
      },
      qemu_rvv_cpu(vlen, ",Zfh=true"), iss);
}
}  // namespace

TEST(QemuDiffZfh, RandomHalfPrecisionProgramsMatchAtVlen128) { differential(128, 7000, 8, 300); }
TEST(QemuDiffZfh, RandomHalfPrecisionProgramsMatchAtVlen256) { differential(256, 8000, 6, 300); }
