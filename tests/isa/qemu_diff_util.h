//===- qemu_diff_util.h - run user-mode programs under qemu-riscv64 and the ISS ===//
//
// The differential tests (qemu_diff_test, qemu_diff_zfh_test, qemu_rvc_test)
// build a Linux user-mode program that writes a dump of its state to stdout
// (write syscall, then exit), run it under qemu-riscv64 and on the ISS, and
// compare the two outputs.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <functional>
#include <string>

#include "iss_test_util.h"
#include "opforge/isa/iss.h"

namespace opforge::isa::testing {

// Runs `elf` under `qemu-riscv64 -cpu <cpu>`; returns its stdout and sets
// `status` to the exit status (as from pclose; -1 when popen failed).
inline std::string run_qemu(const std::string &cpu, const std::string &elf, int &status) {
  const std::string cmd = "qemu-riscv64 -cpu " + cpu + " " + elf + " 2>/dev/null";
  std::string out;
  FILE *p = popen(cmd.c_str(), "r");
  if (!p) {
    status = -1;
    return out;
  }
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
  status = pclose(p);
  return out;
}

// qemu's -cpu for RVV programs at VLEN `vlen`, with `extra` properties
// appended (e.g. ",Zfh=true").
inline std::string qemu_rvv_cpu(unsigned vlen, const std::string &extra = "") {
  return "rv64,v=true,vlen=" + std::to_string(vlen) + ",vext_spec=v1.0" + extra;
}

// Runs `elf` on the ISS with `opt` and the Linux calls the programs use:
// write (64) appends to the returned output, exit (93) stops the run.
inline std::string run_iss(const std::string &elf, SimOptions opt, SimResult &res) {
  std::string out;
  opt.prepare = [&out](Hart &h) {
    h.set_ecall_handler([&out](Hart &hart) {
      const uint64_t nr = hart.xreg(17);
      if (nr == 93) {
        hart.request_stop(StopReason::Done);
        return true;
      }
      if (nr != 64) return false;
      std::string chunk(hart.xreg(12), '\0');
      hart.load_bytes(hart.xreg(11), chunk.data(), chunk.size());
      out += chunk;
      hart.set_xreg(10, chunk.size());
      return true;
    });
  };
  res = run_elf_functional(read_elf(elf), opt);
  return out;
}

// Names the first differing item of two dumps laid out as the generated RVV
// programs write them: x0..x31 at byte 0, f0..f31 at 256, fcsr at 512, vl at
// 520, vtype at 528, vcsr at 536, v0..v31 at 1024, then the scratch buffer.
// Returns "" when the dumps are identical.
inline std::string describe_difference(const std::string &a, const std::string &b, unsigned vlen) {
  const size_t vbytes = 32 * vlen / 8, dump_bytes = 1024 + vbytes;
  if (a.size() != b.size())
    return "dump sizes differ: qemu " + std::to_string(a.size()) + ", iss " +
           std::to_string(b.size());
  size_t k = 0;
  while (k < a.size() && a[k] == b[k]) ++k;
  if (k == a.size()) return "";
  char buf[160];
  auto word = [&](const std::string &s, size_t off) {
    uint64_t v = 0;
    std::memcpy(&v, s.data() + off, 8);
    return static_cast<unsigned long long>(v);
  };
  const size_t w = k & ~size_t(7);
  if (k < 256)
    std::snprintf(buf, sizeof buf, "x%zu: qemu 0x%llx, iss 0x%llx", k / 8, word(a, w), word(b, w));
  else if (k < 512)
    std::snprintf(buf, sizeof buf, "f%zu: qemu 0x%llx, iss 0x%llx", (k - 256) / 8, word(a, w),
                  word(b, w));
  else if (k < 1024)
    std::snprintf(buf, sizeof buf, "%s: qemu 0x%llx, iss 0x%llx",
                  k < 520   ? "fcsr"
                  : k < 528 ? "vl"
                  : k < 536 ? "vtype"
                            : "vcsr",
                  word(a, w), word(b, w));
  else if (k < dump_bytes)
    std::snprintf(buf, sizeof buf, "v%zu byte %zu: qemu 0x%llx, iss 0x%llx (8 bytes from there)",
                  (k - 1024) / (vlen / 8), (k - 1024) % (vlen / 8), word(a, w), word(b, w));
  else
    std::snprintf(buf, sizeof buf, "scratch memory byte %zu: qemu 0x%llx, iss 0x%llx",
                  k - dump_bytes, word(a, w), word(b, w));
  return buf;
}

// The differential loop: for each seed in [first_seed, first_seed + programs)
// builds `source(seed)` as a user program, runs it under qemu-riscv64 -cpu
// `qemu_cpu` and on the ISS with `iss`, and fails the test where the dumps
// differ, keeping the program in /tmp/opforge-qemu-<name>-vlen<V>-seed<S>.S.
// OPFORGE_QEMU_DIFF_PROGRAMS=N runs N programs instead (a longer soak).
// Skips the test when qemu-riscv64 is not installed.
inline void run_differential(const std::string &name, unsigned vlen, uint32_t first_seed,
                             int programs, const std::function<std::string(uint32_t)> &source,
                             const std::string &qemu_cpu, const SimOptions &iss) {
  if (const char *n = std::getenv("OPFORGE_QEMU_DIFF_PROGRAMS"))
    programs = std::max(1, std::atoi(n));
  if (run_command("qemu-riscv64 --version") != 0) GTEST_SKIP() << "qemu-riscv64 not installed";
  for (uint32_t seed = first_seed; seed < first_seed + programs; ++seed) {
    TempDir dir;
    const std::string src = source(seed);
    const std::string elf = build_program(dir, name, src, /*user=*/true);
    const std::string keep = "/tmp/opforge-qemu-" + name + "-vlen" + std::to_string(vlen) +
                             "-seed" + std::to_string(seed) + ".S";
    int status = 0;
    const std::string q = run_qemu(qemu_cpu, elf, status);
    if (status != 0) {
      std::ofstream(keep) << src;
      FAIL() << "qemu-riscv64 rejected the program of seed " << seed << " (status " << status
             << "; kept in " << keep << ")";
    }
    SimResult res;
    const std::string s = run_iss(elf, iss, res);
    ASSERT_EQ(res.verdict, Verdict::Done) << "seed " << seed << ": " << res.message;
    const std::string diff = describe_difference(q, s, vlen);
    if (!diff.empty()) {
      std::ofstream(keep) << src;
      ADD_FAILURE() << "VLEN " << vlen << " seed " << seed << ": " << diff << " (program kept in "
                    << keep << ")";
    }
  }
}

}  // namespace opforge::isa::testing
