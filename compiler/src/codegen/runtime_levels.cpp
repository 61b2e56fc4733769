//===- runtime_levels.cpp - the runtime library's reduction-level routines ===//
//
// __opforge_rt_levels_<name> (kReduceLevels) as module-level assembly of
// the runtime library's LLVM IR text (runtime_ir.cpp appends it).
//
//===----------------------------------------------------------------------===//
#include <string>

#include "runtime_library.h"

namespace opforge::compiler {

// The levels after the first of a one-operand tree reduction whose combine
// is one operation (llir_control.cpp, tree_reduce), in assembly so that the
// registers it uses are fixed (kLevelsClobbers): a kernel calls it from
// inline assembly and keeps everything else in registers across the call.
// a0 points at the partial results, a1 is their count; while more than one
// is left, element k combines with element k + keep (keep = len - len/2)
// for k < len/2, as the IR interpreter orders it: strip loops at LMUL 8 in
// memory; with a power-of-two count the levels that fit one register group
// run in registers (vslidedown by half). The result is left in element 0.
// a0 and a1 are not changed.
std::string reduce_levels_asm() {
  std::string a;
  for (const ReduceLevels &r : kReduceLevels) {
    const std::string f = std::string("__opforge_rt_levels_") + r.name, op = r.insn;
    const std::string lines[] = {".text",
                                 ".globl " + f,
                                 ".p2align 2",
                                 ".type " + f + ",@function",
                                 f + ":",
                                 "addi t0, a1, -1",
                                 "and t0, t0, a1",  // zero: a power of two
                                 "vsetvli t1, zero, e32, m8, ta, ma",
                                 "li t2, 1",
                                 "bnez t0, 1f",
                                 "mv t2, t1",  // the limit of the memory levels: one register group
                                 "1:",
                                 "mv t6, a1",
                                 "2:",
                                 "bge t2, t6, 5f",  // cur <= limit
                                 "srli t3, t6, 1",
                                 "sub t6, t6, t3",
                                 "slli t4, t6, 2",
                                 "mv t0, a0",  // half, keep
                                 "3:",
                                 "beqz t3, 2b",
                                 "vsetvli t1, t3, e32, m8, ta, ma",
                                 "vle32.v v8, (t0)",
                                 "add t5, t0, t4",
                                 "vle32.v v16, (t5)",
                                 op + " v8, v8, v16",
                                 "vse32.v v8, (t0)",
                                 "sub t3, t3, t1",
                                 "slli t1, t1, 2",
                                 "add t0, t0, t1",
                                 "j 3b",
                                 "5:",
                                 "li t0, 1",
                                 "bge t0, t6, 7f",  // one element left
                                 "vsetvli zero, t6, e32, m8, ta, ma",
                                 "vle32.v v8, (a0)",
                                 "6:",
                                 "srli t6, t6, 1",
                                 "vsetvli zero, t6, e32, m8, ta, ma",
                                 "vslidedown.vx v16, v8, t6",
                                 op + " v8, v8, v16",
                                 "li t0, 1",
                                 "blt t0, t6, 6b",
                                 "vsetivli zero, 1, e32, m8, ta, ma",
                                 "vse32.v v8, (a0)",
                                 "7:",
                                 "ret",
                                 ".size " + f + ", .-" + f};
    for (const std::string &l : lines) a += "module asm \"" + l + "\"\n";
  }
  return a;
}

}  // namespace opforge::compiler
