//===- qemu_diff_test.cpp - differential test of the ISS against qemu-riscv64 ===//
//
// A seeded generator writes random scalar-FP and RVV instruction sequences
// into a user-mode program that starts from random register contents and
// ends by writing its integer, FP and vector register files, fcsr, vl,
// vtype and a scratch buffer to stdout (Linux write syscall). The program
// is assembled with riscv64-unknown-elf-gcc and run under
// `qemu-riscv64 -cpu rv64,v=true,vlen=N` and on the ISS (whose test
// environment implements write/exit); the dumps must be identical.
// qemu 7.2 aborts on the vector .rtz conversions (a translator assertion),
// so the generator leaves those out; they are covered by the semantics tests.
//
//===----------------------------------------------------------------------===//
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <random>
#include <sstream>
#include <vector>

#include "qemu_diff_util.h"

using namespace opforge::isa;
using opforge::isa::testing::qemu_rvv_cpu;
using opforge::isa::testing::run_differential;

namespace {

constexpr int kScratchBytes = 16384;

class Generator {
 public:
  // fixed_point: programs also use the RVV fixed-point group under random vxrm.
  Generator(uint32_t seed, unsigned vlen, bool fixed_point = false)
      : rng_(seed), vlen_(vlen), fixed_point_(fixed_point) {}

  std::string program(int n_insns) {
    std::ostringstream o;
    o << ".globl _start\n_start:\n";
    o << "  la s11, scratch\n  la t6, init_x\n";
    for (int r = 5; r <= 30; ++r)
      if (r != 27) o << "  ld x" << r << ", " << 8 * r << "(t6)\n";
    o << "  la t6, init_f\n";
    for (int r = 0; r < 32; ++r) o << "  fld f" << r << ", " << 8 * r << "(t6)\n";
    o << "  la t6, init_v\n  csrr t5, vlenb\n  slli t5, t5, 3\n";
    for (int g = 0; g < 32; g += 8) o << "  vl8re8.v v" << g << ", (t6)\n  add t6, t6, t5\n";
    o << "  fsflagsi 0\n  fsrmi " << pick(0, 4) << "\n";  // frm in rne..rmm
    if (fixed_point_) o << "  csrwi vxsat, 0\n  csrwi vxrm, " << pick(0, 3) << "\n";
    set_vtype(o);
    for (int k = 0; k < n_insns; ++k) emit(o);
    // Dump: x, f, fcsr, vl, vtype, v0..v31, scratch.
    o << "  la t6, dump\n";
    for (int r = 1; r <= 30; ++r)
      if (r != 2 && r != 3 && r != 4) o << "  sd x" << r << ", " << 8 * r << "(t6)\n";
    for (int r = 0; r < 32; ++r) o << "  fsd f" << r << ", " << 256 + 8 * r << "(t6)\n";
    o << "  frcsr t5\n  sd t5, 512(t6)\n  csrr t5, vl\n  sd t5, 520(t6)\n  csrr t5, vtype\n  sd "
         "t5, 528(t6)\n  csrr t5, vcsr\n  sd t5, 536(t6)\n";
    o << "  addi t6, t6, 1024\n  csrr t5, vlenb\n  slli t5, t5, 3\n";
    for (int g = 0; g < 32; g += 8) o << "  vs8r.v v" << g << ", (t6)\n  add t6, t6, t5\n";
    o << "  la a1, dump\n  sub a2, t6, a1\n  li a0, 1\n  li a7, 64\n  ecall\n";
    o << "  la a1, scratch\n  li a2, " << kScratchBytes << "\n  li a0, 1\n  li a7, 64\n  ecall\n";
    o << "  li a0, 0\n  li a7, 93\n  ecall\n";
    // Data.
    o << "  .data\n  .balign 64\ninit_x:\n";
    for (int r = 0; r < 32; ++r) o << "  .dword " << random_x() << "\n";
    o << "init_f:\n";
    for (int r = 0; r < 32; ++r) o << "  .dword " << random_f(r) << "\n";
    o << "init_v:\n";
    for (unsigned k = 0; k < 32 * vlen_ / 64; ++k) o << "  .dword " << random_v() << "\n";
    o << "  .balign 64\nscratch:\n";
    for (int k = 0; k < kScratchBytes / 8; ++k) o << "  .dword " << random_v() << "\n";
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

  std::string random_x() {
    switch (pick(0, 3)) {
      case 0:
        return std::to_string(pick(0, 40));  // vector lengths, shifts
      case 1:
        return std::to_string(pick(-100, 100));
      default:
        return std::to_string(static_cast<int64_t>(bits64()));
    }
  }
  std::string random_f(int reg) {
    static const uint32_t f32[] = {0x3f800000, 0xbf800000, 0x00000000, 0x80000000,
                                   0x7f800000, 0xff800000, 0x7fc00000, 0x7f800001,
                                   0x00000001, 0x007fffff, 0x7f7fffff, 0x40490fdb,
                                   0x3eaaaaab, 0xc2f60000, 0x4f000000, 0xcf000000};
    static const uint64_t f64[] = {
        0x3ff0000000000000ull, 0xbff0000000000000ull, 0,
        0x8000000000000000ull, 0x7ff0000000000000ull, 0x7ff8000000000000ull,
        0x7ff0000000000001ull, 0x0000000000000001ull, 0x400921fb54442d18ull,
        0x43e0000000000000ull, 0xc3e0000000000000ull, 0x41dfffffffc00000ull};
    uint64_t v;
    if (reg % 2 == 0) {
      uint32_t s = pick(0, 2) ? f32[pick(0, 15)] : static_cast<uint32_t>(bits64() & 0xbfffffff);
      v = 0xffffffff00000000ull | s;
      if (pick(0, 15) == 0) v &= 0x00000000ffffffffull;  // not NaN-boxed
    } else {
      v = pick(0, 2) ? f64[pick(0, 11)] : (bits64() & 0xbfffffffffffffffull);
    }
    return std::to_string(v);
  }
  std::string random_v() {
    // Mostly ordinary floats/ints so FP ops do real arithmetic.
    if (pick(0, 2) == 0) return std::to_string(bits64());
    uint32_t lo = 0x3f000000u + (static_cast<uint32_t>(bits64()) & 0x00ffffffu);
    uint32_t hi =
        (pick(0, 1) ? 0x40000000u : 0xc0000000u) + (static_cast<uint32_t>(bits64()) & 0x0fffffffu);
    return std::to_string((uint64_t(hi) << 32) | lo);
  }

  // ----- vector configuration -----
  void set_vtype(std::ostringstream &o) {
    static const int sews[] = {8, 16, 32, 64};
    sew_ = sews[pick(0, 3)];
    static const int lmuls[] = {-1, 0, 0, 1, 1, 2};  // log2; mf2 only when legal
    lmul_ = lmuls[pick(0, 5)];
    if (lmul_ < 0 && sew_ > 32) lmul_ = 0;
    const char *l = lmul_ == -1 ? "mf2" : lmul_ == 0 ? "m1" : lmul_ == 1 ? "m2" : "m4";
    const int avl = pick(0, 4) ? pick(1, 40) : 1000;
    o << "  li t4, " << avl << "\n  vsetvli t3, t4, e" << sew_ << ", " << l << ", tu, mu\n";
  }
  int group(int lmul_log2) const { return lmul_log2 > 0 ? 1 << lmul_log2 : 1; }
  // A register group of `size` aligned registers, not v0, not overlapping `avoid`.
  int vreg(int size, std::vector<std::pair<int, int>> avoid = {}) {
    for (int tries = 0; tries < 100; ++tries) {
      int r = pick(1, 31 / size) * size;
      if (r + size > 32 || r == 0) continue;
      bool ok = true;
      for (auto [a, n] : avoid) ok &= (r + size <= a || a + n <= r);
      if (ok) return r;
    }
    return 8;  // unreachable in practice with the sizes used
  }
  std::string vm() { return pick(0, 2) == 0 ? ", v0.t" : ""; }
  int xreg() {
    int r;
    do {
      r = pick(5, 30);
    } while (r == 27);
    return r;
  }
  std::string x() { return "x" + std::to_string(xreg()); }
  std::string f() { return "f" + std::to_string(pick(0, 31)); }
  std::string rm_static() {
    static const char *rms[] = {"rne", "rtz", "rdn", "rup", "rmm", "dyn"};
    return rms[pick(0, 5)];
  }
  std::string v(int r) { return "v" + std::to_string(r); }

  void emit(std::ostringstream &o) {
    const int kind = pick(0, 99);
    if (kind < 25)
      scalar_fp(o);
    else if (kind < 30)
      set_vtype(o);
    else if (kind < 60) {
      if (fixed_point_ && pick(0, 1))
        vector_fixed_point(o);
      else
        vector_int(o);
    } else if (kind < 68)
      vector_mem(o);
    else if (kind < 78)
      vector_perm(o);
    else
      vector_fp(o);
  }

  void scalar_fp(std::ostringstream &o) {
    const char *p = pick(0, 1) ? "s" : "d";
    const int op = pick(0, 14);
    switch (op) {
      case 0:
        o << "  fadd." << p << " " << f() << ", " << f() << ", " << f() << ", " << rm_static()
          << "\n";
        break;
      case 1:
        o << "  fsub." << p << " " << f() << ", " << f() << ", " << f() << ", " << rm_static()
          << "\n";
        break;
      case 2:
        o << "  fmul." << p << " " << f() << ", " << f() << ", " << f() << ", " << rm_static()
          << "\n";
        break;
      case 3:
        o << "  fdiv." << p << " " << f() << ", " << f() << ", " << f() << ", " << rm_static()
          << "\n";
        break;
      case 4:
        o << "  fsqrt." << p << " " << f() << ", " << f() << ", " << rm_static() << "\n";
        break;
      case 5:
        o << "  " << choose<std::string>({"fmin.", "fmax.", "fsgnj.", "fsgnjn.", "fsgnjx."}) << p
          << " " << f() << ", " << f() << ", " << f() << "\n";
        break;
      case 6:
        o << "  " << choose<std::string>({"fmadd.", "fmsub.", "fnmadd.", "fnmsub."}) << p << " "
          << f() << ", " << f() << ", " << f() << ", " << f() << ", " << rm_static() << "\n";
        break;
      case 7:
        o << "  " << choose<std::string>({"feq.", "flt.", "fle."}) << p << " " << x() << ", " << f()
          << ", " << f() << "\n";
        break;
      case 8:
        o << "  fclass." << p << " " << x() << ", " << f() << "\n";
        break;
      case 9:
        o << "  fcvt." << choose<std::string>({"w", "wu", "l", "lu"}) << "." << p << " " << x()
          << ", " << f() << ", " << rm_static() << "\n";
        break;
      case 10: {
        const std::string src = choose<std::string>({"w", "wu", "l", "lu"});
        const bool exact = p[0] == 'd' && (src == "w" || src == "wu");  // no rounding operand
        o << "  fcvt." << p << "." << src << " " << f() << ", " << x()
          << (exact ? "" : ", " + rm_static()) << "\n";
        break;
      }
      case 11:
        if (pick(0, 1))
          o << "  fcvt.s.d " << f() << ", " << f() << ", " << rm_static() << "\n";
        else
          o << "  fcvt.d.s " << f() << ", " << f() << "\n";
        break;
      case 12:
        o << (p[0] == 's' ? "  fmv.x.w " : "  fmv.x.d ") << x() << ", " << f() << "\n";
        break;
      case 13:
        o << (p[0] == 's' ? "  fmv.w.x " : "  fmv.d.x ") << f() << ", " << x() << "\n";
        break;
      default:
        o << "  frflags " << x() << "\n";
        break;
    }
  }

  // RVV fixed-point group: saturating, averaging, fractional multiply, scaling
  // shifts, narrowing clips; now and then a new rounding mode.
  void vector_fixed_point(std::ostringstream &o) {
    const int g = group(lmul_);
    const int op = pick(0, 9);
    if (op == 0) {
      o << "  csrwi vxrm, " << pick(0, 3) << "\n";
    } else if (op <= 6) {
      static const char *ops[] = {"vsaddu", "vsadd", "vssubu", "vssub", "vaaddu", "vaadd",
                                  "vasubu", "vasub", "vsmul",  "vssrl", "vssra"};
      const std::string name = ops[pick(0, 10)];
      const int vs2 = vreg(g), vs1 = vreg(g), vd = vreg(g);
      const bool has_vi = name == "vsaddu" || name == "vsadd" || name == "vssrl" || name == "vssra";
      const int form = pick(0, has_vi ? 2 : 1);
      if (form == 0)
        o << "  " << name << ".vv " << v(vd) << ", " << v(vs2) << ", " << v(vs1) << vm() << "\n";
      else if (form == 1)
        o << "  " << name << ".vx " << v(vd) << ", " << v(vs2) << ", " << x() << vm() << "\n";
      else
        o << "  " << name << ".vi " << v(vd) << ", " << v(vs2) << ", "
          << (name[2] == 's' ? pick(0, 31) : pick(-16, 15)) << vm() << "\n";
    } else if (sew_ < 64 && lmul_ < 3) {  // narrowing clips
      const int wg = group(lmul_ + 1);
      const int vs2 = vreg(wg), vd = vreg(g, {{vs2, wg}});
      const std::string name = choose<std::string>({"vnclipu", "vnclip"});
      const int f = pick(0, 2);
      if (f == 0)
        o << "  " << name << ".wv " << v(vd) << ", " << v(vs2) << ", " << v(vreg(g, {{vd, g}}))
          << vm() << "\n";
      else if (f == 1)
        o << "  " << name << ".wx " << v(vd) << ", " << v(vs2) << ", " << x() << vm() << "\n";
      else
        o << "  " << name << ".wi " << v(vd) << ", " << v(vs2) << ", " << pick(0, 31) << vm()
          << "\n";
    }
  }

  void vector_int(std::ostringstream &o) {
    const int g = group(lmul_);
    const int op = pick(0, 13);
    if (op <= 4) {  // plain binary
      static const char *ops[] = {"vadd",   "vsub",    "vand",  "vor",   "vxor",  "vsll", "vsrl",
                                  "vsra",   "vminu",   "vmin",  "vmaxu", "vmax",  "vmul", "vmulh",
                                  "vmulhu", "vmulhsu", "vdivu", "vdiv",  "vremu", "vrem"};
      const std::string name = ops[pick(0, 19)];
      const int vs2 = vreg(g), vs1 = vreg(g), vd = vreg(g);
      const int form = pick(0, 2);
      if (form == 0)
        o << "  " << name << ".vv " << v(vd) << ", " << v(vs2) << ", " << v(vs1) << vm() << "\n";
      else if (form == 1)
        o << "  " << name << ".vx " << v(vd) << ", " << v(vs2) << ", " << x() << vm() << "\n";
      else {
        static const char *iops[] = {"vadd", "vand", "vor",  "vxor",
                                     "vsll", "vsrl", "vsra", "vrsub"};
        const std::string in = iops[pick(0, 7)];
        const bool uimm = in == "vsll" || in == "vsrl" || in == "vsra";
        o << "  " << in << ".vi " << v(vd) << ", " << v(vs2) << ", "
          << (uimm ? pick(0, 31) : pick(-16, 15)) << vm() << "\n";
      }
    } else if (op == 5) {  // compares -> mask
      static const char *ops[] = {"vmseq", "vmsne", "vmsltu", "vmslt", "vmsleu", "vmsle"};
      const int vs2 = vreg(g), vs1 = vreg(g), vd = vreg(1, {{vs2, g}, {vs1, g}});
      if (pick(0, 1))
        o << "  " << ops[pick(0, 5)] << ".vv " << v(vd) << ", " << v(vs2) << ", " << v(vs1) << vm()
          << "\n";
      else
        o << "  " << choose<std::string>({"vmsgtu", "vmsgt", "vmseq", "vmsltu"}) << ".vx " << v(vd)
          << ", " << v(vs2) << ", " << x() << vm() << "\n";
    } else if (op == 6) {  // multiply-add
      const int vs2 = vreg(g), vs1 = vreg(g), vd = vreg(g);
      const std::string name = choose<std::string>({"vmacc", "vnmsac", "vmadd", "vnmsub"});
      if (pick(0, 1))
        o << "  " << name << ".vv " << v(vd) << ", " << v(vs1) << ", " << v(vs2) << vm() << "\n";
      else
        o << "  " << name << ".vx " << v(vd) << ", " << x() << ", " << v(vs2) << vm() << "\n";
    } else if (op == 7 && sew_ < 64 && lmul_ < 3) {  // widening
      const int wg = group(lmul_ + 1);
      const int vd = vreg(wg);
      const int vs2n = vreg(g, {{vd, wg}}), vs1 = vreg(g, {{vd, wg}});
      const int f = pick(0, 3);
      if (f == 0)
        o << "  "
          << choose<std::string>(
                 {"vwaddu", "vwadd", "vwsubu", "vwsub", "vwmulu", "vwmul", "vwmulsu"})
          << ".vv " << v(vd) << ", " << v(vs2n) << ", " << v(vs1) << vm() << "\n";
      else if (f == 1)
        o << "  " << choose<std::string>({"vwaddu", "vwadd", "vwsubu", "vwsub"}) << ".wv " << v(vd)
          << ", " << v(vreg(wg, {{vd, wg}})) << ", " << v(vs1) << vm() << "\n";
      else if (f == 2)
        o << "  " << choose<std::string>({"vwmaccu", "vwmacc", "vwmaccsu"}) << ".vv " << v(vd)
          << ", " << v(vs1) << ", " << v(vs2n) << vm() << "\n";
      else
        o << "  " << choose<std::string>({"vwmaccu", "vwmacc", "vwmaccsu", "vwmaccus"}) << ".vx "
          << v(vd) << ", " << x() << ", " << v(vs2n) << vm() << "\n";
    } else if (op == 8 && sew_ < 64 && lmul_ < 3) {  // narrowing shifts
      const int wg = group(lmul_ + 1);
      const int vs2 = vreg(wg), vd = vreg(g, {{vs2, wg}});
      const std::string name = choose<std::string>({"vnsrl", "vnsra"});
      const int f = pick(0, 2);
      if (f == 0)
        o << "  " << name << ".wv " << v(vd) << ", " << v(vs2) << ", " << v(vreg(g, {{vd, g}}))
          << vm() << "\n";
      else if (f == 1)
        o << "  " << name << ".wx " << v(vd) << ", " << v(vs2) << ", " << x() << vm() << "\n";
      else
        o << "  " << name << ".wi " << v(vd) << ", " << v(vs2) << ", " << pick(0, 31) << vm()
          << "\n";
    } else if (op == 9 && sew_ >= 16 && lmul_ >= 0) {  // extension
      const int factor = sew_ == 16 ? 2 : (sew_ == 32 ? (pick(0, 1) ? 2 : 4) : (1 << pick(1, 3)));
      const int src_lmul = lmul_ - (factor == 2 ? 1 : factor == 4 ? 2 : 3);
      const int vd = vreg(g), vs2 = vreg(group(src_lmul), {{vd, g}});
      o << "  " << (pick(0, 1) ? "vzext" : "vsext") << ".vf" << factor << " " << v(vd) << ", "
        << v(vs2) << vm() << "\n";
    } else if (op == 10) {  // merge / move
      const int vd = vreg(g), vs2 = vreg(g), vs1 = vreg(g);
      switch (pick(0, 4)) {
        case 0:
          o << "  vmerge.vvm " << v(vd) << ", " << v(vs2) << ", " << v(vs1) << ", v0\n";
          break;
        case 1:
          o << "  vmerge.vxm " << v(vd) << ", " << v(vs2) << ", " << x() << ", v0\n";
          break;
        case 2:
          o << "  vmerge.vim " << v(vd) << ", " << v(vs2) << ", " << pick(-16, 15) << ", v0\n";
          break;
        case 3:
          o << "  vmv.v.x " << v(vd) << ", " << x() << "\n";
          break;
        default:
          o << "  vmv.v.v " << v(vd) << ", " << v(vs1) << "\n";
          break;
      }
    } else if (op == 11) {  // reductions
      const int vs2 = vreg(g), vs1 = vreg(1), vd = vreg(1);
      if (pick(0, 3) == 0 && sew_ < 64)
        o << "  " << choose<std::string>({"vwredsumu", "vwredsum"}) << ".vs " << v(vd) << ", "
          << v(vs2) << ", " << v(vs1) << vm() << "\n";
      else
        o << "  "
          << choose<std::string>({"vredsum", "vredand", "vredor", "vredxor", "vredminu", "vredmin",
                                  "vredmaxu", "vredmax"})
          << ".vs " << v(vd) << ", " << v(vs2) << ", " << v(vs1) << vm() << "\n";
    } else {  // mask logic and counts
      const int a = vreg(1), b = vreg(1), d = vreg(1);
      switch (pick(0, 3)) {
        case 0:
          o << "  "
            << choose<std::string>(
                   {"vmand", "vmnand", "vmandn", "vmxor", "vmor", "vmnor", "vmorn", "vmxnor"})
            << ".mm " << v(d) << ", " << v(a) << ", " << v(b) << "\n";
          break;
        case 1:
          o << "  " << choose<std::string>({"vcpop.m", "vfirst.m"}) << " " << x() << ", " << v(a)
            << vm() << "\n";
          break;
        case 2:
          o << "  " << choose<std::string>({"vmsbf.m", "vmsif.m", "vmsof.m"}) << " "
            << v(vreg(1, {{a, 1}})) << ", " << v(a) << vm() << "\n";
          break;
        default: {
          const int vd = vreg(g, {{a, 1}});
          if (pick(0, 1))
            o << "  viota.m " << v(vd) << ", " << v(a) << vm() << "\n";
          else
            o << "  vid.v " << v(vd) << vm() << "\n";
        }
      }
    }
  }

  void vector_mem(std::ostringstream &o) {
    static const int eews[] = {8, 16, 32, 64};
    const int eew = eews[pick(0, 3)];
    int emul = lmul_;
    for (int s = sew_; s < eew; s <<= 1) ++emul;
    for (int s = sew_; s > eew; s >>= 1) --emul;
    if (emul > 3 || emul < -3) return;
    const int g = group(emul);
    const int vd = vreg(g);
    o << "  addi t4, s11, " << 8 * pick(0, 120) << "\n";
    if (pick(0, 4) == 0) {  // indexed: byte offsets (k ^ 5) << log2(SEW/8) at index EEW = SEW
      const int lg = sew_ == 8 ? 0 : sew_ == 16 ? 1 : sew_ == 32 ? 2 : 3;
      const int gs = group(lmul_);
      const int vi = vreg(gs), vdat = vreg(gs, {{vi, gs}});
      o << "  vid.v " << v(vi) << "\n  vxor.vi " << v(vi) << ", " << v(vi) << ", 5\n  vsll.vi "
        << v(vi) << ", " << v(vi) << ", " << lg << "\n";
      o << "  addi t4, s11, 256\n";
      o << "  " << choose<std::string>({"vluxei", "vloxei", "vsuxei", "vsoxei"}) << sew_ << ".v "
        << v(vdat) << ", (t4), " << v(vi) << vm() << "\n";
      return;
    }
    if (pick(0, 9) == 0) {  // mask load/store
      o << "  " << (pick(0, 1) ? "vlm.v " : "vsm.v ") << v(vreg(1)) << ", (t4)\n";
      return;
    }
    switch (pick(0, 4)) {
      case 4:
        o << "  vle" << eew << "ff.v " << v(vd) << ", (t4)" << vm() << "\n";
        break;
      case 0:
        o << "  vle" << eew << ".v " << v(vd) << ", (t4)" << vm() << "\n";
        break;
      case 1:
        o << "  vse" << eew << ".v " << v(vd) << ", (t4)" << vm() << "\n";
        break;
      case 2:
        o << "  li t5, " << pick(-2, 6) * (eew / 8) << "\n  addi t4, t4, 256\n  vlse" << eew
          << ".v " << v(vd) << ", (t4), t5" << vm() << "\n";
        break;
      default:
        o << "  li t5, " << pick(0, 6) * (eew / 8) << "\n  vsse" << eew << ".v " << v(vd)
          << ", (t4), t5" << vm() << "\n";
        break;
    }
  }

  void vector_perm(std::ostringstream &o) {
    const int g = group(lmul_);
    const int vs2 = vreg(g), vd = vreg(g, {{vs2, g}});
    switch (pick(0, 7)) {
      case 0:
        o << "  " << choose<std::string>({"vslideup", "vslidedown"}) << ".vx " << v(vd) << ", "
          << v(vs2) << ", " << x() << vm() << "\n";
        break;
      case 1:
        o << "  " << choose<std::string>({"vslideup", "vslidedown"}) << ".vi " << v(vd) << ", "
          << v(vs2) << ", " << pick(0, 31) << vm() << "\n";
        break;
      case 2:
        o << "  " << choose<std::string>({"vslide1up", "vslide1down"}) << ".vx " << v(vd) << ", "
          << v(vs2) << ", " << x() << vm() << "\n";
        break;
      case 3:
        o << "  vrgather.vv " << v(vd) << ", " << v(vs2) << ", " << v(vreg(g, {{vd, g}})) << vm()
          << "\n";
        break;
      case 4:
        if (pick(0, 1) && sew_ <= 16 + 16 * (lmul_ < 3) &&
            lmul_ + (16 / sew_ >= 2 ? 1 : 0) - (sew_ > 16 ? (sew_ == 64 ? 2 : 1) : 0) <= 3) {
          // vrgatherei16: index EMUL = 16/SEW * LMUL.
          int emul = lmul_;
          for (int sz = sew_; sz < 16; sz <<= 1) ++emul;
          for (int sz = sew_; sz > 16; sz >>= 1) --emul;
          if (emul <= 3 && emul >= -3) {
            o << "  vrgatherei16.vv " << v(vd) << ", " << v(vs2) << ", "
              << v(vreg(group(emul), {{vd, g}})) << vm() << "\n";
            break;
          }
        }
        o << "  vrgather.vx " << v(vd) << ", " << v(vs2) << ", " << x() << vm() << "\n";
        break;
      case 5:
        o << "  vcompress.vm " << v(vd) << ", " << v(vs2) << ", " << v(vreg(1, {{vd, g}})) << "\n";
        break;
      case 6:
        o << "  vmv.x.s " << x() << ", " << v(vs2) << "\n  vmv.s.x " << v(vd) << ", " << x()
          << "\n";
        break;
      default:
        o << "  vmv" << (pick(0, 1) ? "1" : "2") << "r.v v" << 2 * pick(1, 7) << ", v"
          << 2 * pick(8, 15) << "\n";
        break;
    }
  }

  void vector_fp(std::ostringstream &o) {
    if (sew_ == 16 && lmul_ < 3) {  // Zvfhmin conversions
      const int g = group(lmul_), wg = group(lmul_ + 1);
      const int wd = vreg(wg), n = vreg(g, {{wd, wg}});
      if (pick(0, 1))
        o << "  vfwcvt.f.f.v " << v(wd) << ", " << v(n) << vm() << "\n";
      else
        o << "  vfncvt.f.f.w " << v(n) << ", " << v(wd) << vm() << "\n";
      return;
    }
    if (sew_ != 32 && sew_ != 64) return;
    const int g = group(lmul_);
    const int vs2 = vreg(g), vs1 = vreg(g), vd = vreg(g);
    const int op = pick(0, 11);
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
      const int rd = vreg(1), rs = vreg(1);
      o << "  " << choose<std::string>({"vfredusum", "vfredosum", "vfredmin", "vfredmax"}) << ".vs "
        << v(rd) << ", " << v(vs2) << ", " << v(rs) << vm() << "\n";
    } else if (op == 8) {
      if (pick(0, 1))
        o << "  vfmerge.vfm " << v(vd) << ", " << v(vs2) << ", " << f() << ", v0\n";
      else
        o << "  vfmv.v.f " << v(vd) << ", " << f() << "\n";
      o << "  vfmv.f.s " << f() << ", " << v(vs2) << "\n  vfmv.s.f " << v(vd) << ", " << f()
        << "\n";
      o << "  " << choose<std::string>({"vfslide1up", "vfslide1down"}) << ".vf "
        << v(vreg(g, {{vs2, g}})) << ", " << v(vs2) << ", " << f() << vm() << "\n";
    } else if (sew_ == 32 && lmul_ < 3) {  // widening / narrowing at SEW=32
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
            o << "  " << choose<std::string>({"vfwadd", "vfwsub"}) << ".wv " << v(wd) << ", "
              << v(vreg(wg, {{wd, wg}})) << ", " << v(n1) << vm() << "\n";
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
          o << "  " << choose<std::string>({"vfwredusum", "vfwredosum"}) << ".vs " << v(vreg(2))
            << ", " << v(n2) << ", " << v(vreg(2)) << vm() << "\n";
          break;
      }
    }
  }

  std::mt19937 rng_;
  unsigned vlen_;
  bool fixed_point_ = false;
  int sew_ = 32, lmul_ = 0;
};

void differential(unsigned vlen, uint32_t first_seed, int programs, int insns,
                  bool fixed_point = false) {
  SimOptions iss;
  iss.vlen_bits = vlen;
  iss.max_instructions = 10'000'000;
  run_differential(
      "diff", vlen, first_seed, programs,
      [&](uint32_t seed) {
        const std::string src = Generator(seed, vlen, fixed_point).program(insns);
        // OPFORGE_QEMU_DIFF_KEEP=DIR keeps every generated program there.
        if (const char *keep_dir = std::getenv("OPFORGE_QEMU_DIFF_KEEP"))
          std::ofstream(std::string(keep_dir) + "/vlen" + std::to_string(vlen) + "-seed" +
                        std::to_string(seed) + ".S")
              << src;
        return src;
      },
      qemu_rvv_cpu(vlen), iss);
}
}  // namespace

TEST(QemuDiff, RandomScalarFpAndRvvProgramsMatchAtVlen128) { differential(128, 1000, 6, 300); }
TEST(QemuDiff, RandomScalarFpAndRvvProgramsMatchAtVlen512) { differential(512, 2000, 6, 300); }
TEST(QemuDiff, RandomFixedPointProgramsMatchAtVlen128) {
  differential(128, 3000, 4, 300, /*fixed_point=*/true);
}
TEST(QemuDiff, RandomFixedPointProgramsMatchAtVlen512) {
  differential(512, 4000, 4, 300, /*fixed_point=*/true);
}
