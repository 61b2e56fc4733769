//===- sem_rv_m.cpp - RV64M semantics (multiply, divide) -------------------===//
#include <limits>

#include "semantics.h"

using namespace opforge::isa;
using namespace opforge::isa::sem;

OPF_SEM_UNIT(rv_m)

namespace {
using i128 = __int128;
using u128 = unsigned __int128;
template <class S>
S div_s(S a, S b) {
  if (b == 0) return S(-1);
  if (b == S(-1) && a == std::numeric_limits<S>::min()) return a;
  return a / b;
}
template <class S>
S rem_s(S a, S b) {
  if (b == 0) return a;
  if (b == S(-1) && a == std::numeric_limits<S>::min()) return 0;
  return a % b;
}
template <class U>
U div_u(U a, U b) {
  return b == 0 ? U(~U(0)) : a / b;
}
template <class U>
U rem_u(U a, U b) {
  return b == 0 ? a : a % b;
}
}  // namespace

INSN(mul, Mul) {
  WRITE_RD(RS1 * RS2);
  return NEXT;
}
INSN(mulh, Mul) {
  WRITE_RD(uint64_t((i128(int64_t(RS1)) * i128(int64_t(RS2))) >> 64));
  return NEXT;
}
INSN(mulhu, Mul) {
  WRITE_RD(uint64_t((u128(RS1) * u128(RS2)) >> 64));
  return NEXT;
}
INSN(mulhsu, Mul) {
  WRITE_RD(uint64_t((i128(int64_t(RS1)) * i128(u128(RS2))) >> 64));
  return NEXT;
}
INSN(div, Div) {
  WRITE_RD(uint64_t(div_s<int64_t>(int64_t(RS1), int64_t(RS2))));
  return NEXT;
}
INSN(divu, Div) {
  WRITE_RD(div_u<uint64_t>(RS1, RS2));
  return NEXT;
}
INSN(rem, Div) {
  WRITE_RD(uint64_t(rem_s<int64_t>(int64_t(RS1), int64_t(RS2))));
  return NEXT;
}
INSN(remu, Div) {
  WRITE_RD(rem_u<uint64_t>(RS1, RS2));
  return NEXT;
}
INSN(mulw, Mul) {
  WRITE_RD(sext32(uint32_t(RS1) * uint32_t(RS2)));
  return NEXT;
}
INSN(divw, Div) {
  WRITE_RD(sext32(uint32_t(div_s<int32_t>(int32_t(RS1), int32_t(RS2)))));
  return NEXT;
}
INSN(divuw, Div) {
  WRITE_RD(sext32(div_u<uint32_t>(uint32_t(RS1), uint32_t(RS2))));
  return NEXT;
}
INSN(remw, Div) {
  WRITE_RD(sext32(uint32_t(rem_s<int32_t>(int32_t(RS1), int32_t(RS2)))));
  return NEXT;
}
INSN(remuw, Div) {
  WRITE_RD(sext32(rem_u<uint32_t>(uint32_t(RS1), uint32_t(RS2))));
  return NEXT;
}
