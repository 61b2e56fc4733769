//===- sem_rv_a.cpp - RV64A semantics (LR/SC and AMOs) ---------------------===//
#include <algorithm>

#include "semantics.h"

using namespace opforge::isa;
using namespace opforge::isa::sem;

OPF_SEM_UNIT(rv_a)

namespace {
template <class T>
uint64_t check_aligned(uint64_t addr, uint64_t cause_code) {
  if (addr % sizeof(T)) Hart::raise(cause_code, addr);
  return addr;
}
// Read-modify-write: rd gets the old value (sign-extended for .w).
template <class T, class Op>
uint64_t amo(Hart &h, Insn i, uint64_t pc, Op op) {
  uint64_t a = check_aligned<T>(h.x[i.rs1()], cause::kStoreMisaligned);
  T old;
  try {
    old = h.load<T>(a);
  } catch (const TrapException &t) {
    Hart::raise(t.cause == cause::kLoadAccessFault ? cause::kStoreAccessFault : t.cause, t.tval);
  }
  h.store<T>(a, op(old, T(h.x[i.rs2()])));
  uint64_t r = std::is_same_v<T, uint32_t> ? sext32(old) : uint64_t(old);
  WRITE_RD(r);
  return NEXT;
}
using S32 = int32_t;
using S64 = int64_t;
}  // namespace

INSN(lr_w, Amo) {
  uint64_t a = check_aligned<uint32_t>(RS1, cause::kLoadMisaligned);
  WRITE_RD(sext32(h.load<uint32_t>(a)));
  h.reservation = a;
  return NEXT;
}
INSN(lr_d, Amo) {
  uint64_t a = check_aligned<uint64_t>(RS1, cause::kLoadMisaligned);
  WRITE_RD(h.load<uint64_t>(a));
  h.reservation = a;
  return NEXT;
}
INSN(sc_w, Amo) {
  uint64_t a = check_aligned<uint32_t>(RS1, cause::kStoreMisaligned);
  bool ok = h.reservation == a;
  if (ok) h.store<uint32_t>(a, uint32_t(RS2));
  h.reservation = UINT64_MAX;
  WRITE_RD(ok ? 0 : 1);
  return NEXT;
}
INSN(sc_d, Amo) {
  uint64_t a = check_aligned<uint64_t>(RS1, cause::kStoreMisaligned);
  bool ok = h.reservation == a;
  if (ok) h.store<uint64_t>(a, RS2);
  h.reservation = UINT64_MAX;
  WRITE_RD(ok ? 0 : 1);
  return NEXT;
}

#define AMO_PAIR(name, expr)                                                \
  INSN(name##_w, Amo) {                                                     \
    return amo<uint32_t>(h, i, pc, [](uint32_t a, uint32_t b) -> uint32_t { \
      using S = S32;                                                        \
      (void)sizeof(S);                                                      \
      (void)a;                                                              \
      return expr;                                                          \
    });                                                                     \
  }                                                                         \
  INSN(name##_d, Amo) {                                                     \
    return amo<uint64_t>(h, i, pc, [](uint64_t a, uint64_t b) -> uint64_t { \
      using S = S64;                                                        \
      (void)sizeof(S);                                                      \
      (void)a;                                                              \
      return expr;                                                          \
    });                                                                     \
  }

AMO_PAIR(amoswap, b)
AMO_PAIR(amoadd, a + b)
AMO_PAIR(amoxor, a ^ b)
AMO_PAIR(amoand, a &b)
AMO_PAIR(amoor, a | b)
AMO_PAIR(amomin, S(a) < S(b) ? a : b)
AMO_PAIR(amomax, S(a) > S(b) ? a : b)
AMO_PAIR(amominu, a < b ? a : b)
AMO_PAIR(amomaxu, a > b ? a : b)
