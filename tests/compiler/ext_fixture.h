//===- ext_fixture.h - a test-only ISA extension, written to a file and registered ===//
#pragma once

#include <gtest/gtest.h>

#include <fstream>
#include <string>

#include "opforge/isa/extension.h"

namespace opforge::compiler::testing {

// Three new instructions in custom-2, one per operand shape (none of them in
// isa/spec or isa/ext): tsigm(x) = 1 / (1 + exp(-x)), thypot(x, y) =
// sqrt(x*x + y*y) on two blocks, taxpx(x, s) = s * x + x with s an f register.
inline const char *kTestExtension = R"(# written by tests/compiler/ext_fixture.h
extension xtestvec
description test-only vector instructions, one per operand shape
insn vftsigm.v
  encoding 31..26=0x00 vm vs2 19..15=0 14..12=1 vd 6..0=0x5B
  operands v
  semantics recip(1 + exp(-x))
  unit sfu
  latency 6
  throughput 8
  intrinsic tsigm
insn vfthypot.vv
  encoding 31..26=0x01 vm vs2 vs1 14..12=1 vd 6..0=0x5B
  operands vv
  semantics sqrt(x * x + y * y)
  unit vfp
  latency 4
  throughput 8
  intrinsic thypot
insn vftaxpx.vf
  encoding 31..26=0x02 vm vs2 rs1 14..12=5 vd 6..0=0x5B
  operands vf
  semantics fma(y, x, x)
  unit vfp
  latency 4
  throughput 8
  intrinsic taxpx
)";

// Writes kTestExtension to a file and registers it (once per process).
inline void register_test_extension() {
  static const bool done = [] {
    std::string path = ::testing::TempDir() + "/xtestvec.ext";
    std::ofstream(path) << kTestExtension;
    isa::register_extension_files({path});
    return true;
  }();
  (void)done;
}

}  // namespace opforge::compiler::testing
