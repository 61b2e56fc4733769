//===- iss_machine_util.h - a hart over flat memory for single-instruction ISS tests ===//
//
// Separate from iss_test_util.h, which the codec-only targets (isa_asm_tests,
// isa_disasm_tests) include too: this header needs the ISS (opforge::isa).
//
//===----------------------------------------------------------------------===//
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <initializer_list>
#include <memory>
#include <vector>

#include "opforge/isa/encode.h"
#include "opforge/isa/flat_memory.h"
#include "opforge/isa/functional_accel.h"
#include "opforge/isa/hart.h"
#include "opforge/isa/spec.h"

namespace opforge::isa::testing {

// A hart over flat memory at 0x1000 with a program of encoded instructions.
struct Machine {
  FlatMemory mem{0x1000, 1 << 16};
  FunctionalAccelerator accel{mem};
  HartConfig cfg;
  std::unique_ptr<Hart> hart;
  explicit Machine(uint32_t vlen = 128) {
    cfg.vlen_bits = vlen;
    cfg.reset_pc = 0x1000;
    hart = std::make_unique<Hart>(cfg, mem, accel);
  }
  // Assemble one instruction from the tables with the given field values
  // (0, and a test failure, for an unknown mnemonic).
  static uint32_t enc(const char *name, std::initializer_list<FieldValue> fields) {
    const InsnSpec *s = find_insn(name);
    EXPECT_NE(s, nullptr) << name;
    return s ? encode(*s, std::vector<FieldValue>(fields)) : 0;
  }
  // Runs `words` from 0x1000, followed by xmtia.done, for at most 1000 steps.
  RunResult run(std::initializer_list<uint32_t> words) {
    uint64_t a = 0x1000;
    for (uint32_t w : words) {
      mem.store(a, &w, 4);
      a += 4;
    }
    const uint32_t done = enc("xmtia.done", {});
    mem.store(a, &done, 4);
    hart->flush_icache();
    hart->set_pc(0x1000);
    return hart->run(1000);
  }
  uint64_t fflags() { return hart->read_csr(csr::kFflags).value(); }
};

}  // namespace opforge::isa::testing
