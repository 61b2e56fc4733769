//===- semantics.h - the tiny vocabulary instruction bodies are written in ===//
//
// One body per instruction, registered by mnemonic:
//
//   INSN(addw, IntAlu) { WRITE_RD(sext32(RS1 + RS2)); return NEXT; }
//
// The identifier spells the mnemonic with '.' written as '_' (fcvt_w_s is
// "fcvt.w.s"). A body receives the hart `h`, the instruction `i` and its
// `pc`, and returns the next pc. Exceptions are raised with h.raise().
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "opforge/isa/hart.h"

namespace opforge::isa::sem {

struct SemEntry {
  std::string name;  // mnemonic with dots
  InsnFn fn;
  InsnClass cls;
};

// Every registered body (populated by static registrars in sem_*.cpp).
std::vector<SemEntry> &registry();
const SemEntry *find_semantics(std::string_view mnemonic);

struct Registrar {
  Registrar(const char *ident, InsnFn fn, InsnClass cls) {
    std::string n(ident);
    for (char &c : n)
      if (c == '_') c = '.';
    registry().push_back({std::move(n), fn, cls});
  }
};

inline uint64_t sext32(uint64_t v) {
  return static_cast<uint64_t>(static_cast<int64_t>(static_cast<int32_t>(v)));
}
inline uint64_t zext32(uint64_t v) { return v & 0xffffffffull; }

}  // namespace opforge::isa::sem

#define OPF_CAT2(a, b) a##b
#define OPF_CAT(a, b) OPF_CAT2(a, b)
#define INSN(ident, cls)                                                                      \
  static uint64_t insn_##ident(::opforge::isa::Hart &h, ::opforge::isa::Insn i, uint64_t pc); \
  static ::opforge::isa::sem::Registrar reg_##ident(#ident, &insn_##ident,                    \
                                                    ::opforge::isa::InsnClass::cls);          \
  static uint64_t insn_##ident([[maybe_unused]] ::opforge::isa::Hart &h,                      \
                               [[maybe_unused]] ::opforge::isa::Insn i,                       \
                               [[maybe_unused]] uint64_t pc)

// Each sem_*.cpp defines OPF_SEM_UNIT(name) once so registry.cpp can pull it
// into the link (static registrars in an unreferenced object would be dropped).
#define OPF_SEM_UNIT(unit)      \
  namespace opforge::isa::sem { \
  void link_##unit() {}         \
  }

#define NEXT (pc + 4)
#define RS1 (h.x[i.rs1()])
#define RS2 (h.x[i.rs2()])
#define WRITE_RD(v)     \
  do {                  \
    uint64_t v__ = (v); \
    h.x[i.rd()] = v__;  \
    h.x[0] = 0;         \
  } while (0)
#define ILLEGAL() ::opforge::isa::Hart::raise(::opforge::isa::cause::kIllegalInsn, i.bits)
