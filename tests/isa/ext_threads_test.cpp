//===- ext_threads_test.cpp - registering while other threads decode and run ===//
#include <gtest/gtest.h>

#include <atomic>
#include <string>
#include <thread>
#include <vector>

#include "opforge/isa/asm.h"
#include "opforge/isa/disasm.h"
#include "opforge/isa/extension.h"
#include "opforge/isa/flat_memory.h"
#include "opforge/isa/functional_accel.h"
#include "opforge/isa/hart.h"
#include "opforge/isa/spec.h"

using namespace opforge::isa;

namespace {

// Extension k: funct6 0x10 + k in custom-2, operands v.
std::string ext_text(int k) {
  const std::string n = std::to_string(k);
  return "extension xthr" + n + "\ninsn vthr" + n +
         ".v\n  encoding 31..26=" + std::to_string(0x10 + k) +
         " vm vs2 19..15=0 14..12=2 vd 6..0=0x5B\n  operands v\n" + "  semantics x * " + n +
         "\n  unit valu\n  latency 1\n  throughput 4\n  intrinsic thr" + n + "\n";
}

uint32_t word_of(int k) { return (uint32_t(0x10 + k) << 26) | (1u << 25) | (2u << 12) | 0x5Bu; }

}  // namespace

TEST(ExtThreads, LookupsAndHartsRunWhileExtensionsAreRegistered) {
  constexpr int kExtensions = 16;
  const std::vector<uint8_t> setup = assemble_text_bytes("  vsetivli zero, 4, e32, m1, ta, ma\n");
  std::atomic<bool> stop{false};
  std::atomic<int> registered{0};
  std::vector<std::thread> readers;
  for (int t = 0; t < 3; ++t)
    readers.emplace_back([&, t] {
      FlatMemory mem(0x1000, 4096);
      FunctionalAccelerator accel(mem);
      HartConfig cfg;
      cfg.reset_pc = 0x1000;
      Hart hart(cfg, mem, accel);
      const uint32_t done = 0x0000000b;
      while (!stop.load()) {
        // Everything registered before this read is found completely.
        const int n = registered.load();
        for (int k = 0; k < n; ++k) {
          const InsnSpec *s = decode(word_of(k));
          ASSERT_NE(s, nullptr) << k;
          ASSERT_EQ(s->name, "vthr" + std::to_string(k) + ".v");
          ASSERT_EQ(find_insn(s->name), s);
          ASSERT_NE(find_ext_intrinsic("thr" + std::to_string(k)), nullptr);
          ASSERT_EQ(disassemble(word_of(k)), s->name + "\tv0,v0");
        }
        // A hart (built before most registrations) runs the newest one.
        if (n > 0) {
          const uint32_t prog[2] = {word_of(n - 1), done};
          mem.store(0x1000, setup.data(), 4);
          mem.store(0x1004, prog, sizeof prog);
          hart.reset();
          const RunResult r = hart.run(10);
          ASSERT_EQ(r.reason, StopReason::Done) << t << ": " << r.trap.describe();
        }
      }
    });
  for (int k = 0; k < kExtensions; ++k) {
    register_extension(parse_extension(ext_text(k), "thr" + std::to_string(k) + ".ext"));
    registered.store(k + 1);
    std::this_thread::yield();
  }
  stop.store(true);
  for (auto &r : readers) r.join();
  int ours = 0;
  for (const ExtInsn *e : extension_insns()) ours += e->extension.starts_with("xthr");
  EXPECT_EQ(ours, kExtensions);
}
