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
// lr: load, and remember the address, width and value loaded.
template <class T>
uint64_t load_reserved(Hart &h, uint64_t addr) {
  check_aligned<T>(addr, cause::kLoadMisaligned);
  const T v = h.load<T>(addr);
  h.reservation = addr;
  h.reservation_value = v;
  h.reservation_bytes = sizeof(T);
  return v;
}
// sc: store only if the reservation is for this address and width and memory
// still holds the value lr saw (another hart's store in between fails it).
// The check and the store run back to back in the hart's thread, so no other
// hart of the single-threaded simulation runs between them. The reservation
// is used up either way. Returns 0 on success, 1 on failure.
template <class T>
uint64_t store_conditional(Hart &h, uint64_t addr, T value) {
  check_aligned<T>(addr, cause::kStoreMisaligned);
  bool ok = h.reservation == addr && h.reservation_bytes == sizeof(T);
  h.reservation = UINT64_MAX;
  h.reservation_bytes = 0;
  if (ok) {
    T now;
    try {
      now = h.load<T>(addr);
    } catch (const TrapException &t) {
      Hart::raise(t.cause == cause::kLoadAccessFault ? cause::kStoreAccessFault : t.cause, t.tval);
    }
    ok = now == T(h.reservation_value);
  }
  if (ok) h.store<T>(addr, value);
  return ok ? 0 : 1;
}
using S32 = int32_t;
using S64 = int64_t;
}  // namespace

INSN(lr_w, Amo) {
  WRITE_RD(sext32(load_reserved<uint32_t>(h, RS1)));
  return NEXT;
}
INSN(lr_d, Amo) {
  WRITE_RD(load_reserved<uint64_t>(h, RS1));
  return NEXT;
}
INSN(sc_w, Amo) {
  WRITE_RD(store_conditional<uint32_t>(h, RS1, uint32_t(RS2)));
  return NEXT;
}
INSN(sc_d, Amo) {
  WRITE_RD(store_conditional<uint64_t>(h, RS1, RS2));
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
