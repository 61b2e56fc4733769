//===- sem_ext.cpp - the one semantics body of ISA extension instructions -===//
//
// Every extension instruction (extension.h) executes here: per active
// element i < vl, vd[i] = ext_evaluate(insn, vs2[i], y, mtia.sfu_prec) with
// y = vs1[i] (vv) or f[rs1] (vf, NaN-boxed fp32). Like the SFU bodies of
// sem_xmtia.cpp: vector unit on, SEW the file's `sew` (else illegal), vd and
// sources aligned to LMUL, a masked instruction may not write v0, inactive
// and tail elements undisturbed, fflags unchanged. Time: the accelerator's
// (AcceleratorIf::ext_executed) or latency + ceil(n / throughput) * occupancy
// charged to the hart.
//
// InsnFn is a plain function pointer, so each registered instruction gets a
// slot with its own trampoline (kSlots of them): no lookup per execution.
//
//===----------------------------------------------------------------------===//
#include <algorithm>
#include <array>
#include <bit>
#include <deque>
#include <mutex>
#include <shared_mutex>
#include <utility>

#include "fp_helpers.h"
#include "registry.h"
#include "opforge/support/error.h"
#include "vec_common.h"

using namespace opforge::isa;
using namespace opforge::isa::sem;
using namespace opforge::isa::vec;

namespace {

constexpr size_t kSlots = 256;

struct Slot {
  const ExtInsn *insn = nullptr;
  bool has_vm = false;
};
std::array<Slot, kSlots> g_slots;  // written before the entry is published

uint64_t execute(const Slot &s, Hart &h, Insn i, uint64_t pc) {
  const ExtInsn &x = *s.insn;
  require_vec(h, i);
  if (x.operands == ExtOperands::VF && !(h.mstatus & csr::kMstatusFs)) illegal(i);
  require(h.vsew_bits == x.sew, i);
  require_aligned(i, i.vd(), h.vlmul_log2);
  require_aligned(i, i.vs2(), h.vlmul_log2);
  if (x.operands == ExtOperands::VV) require_aligned(i, i.vs1(), h.vlmul_log2);
  // Without a vm field the instruction is unmasked whatever bit 25 holds.
  const Insn lanes{s.has_vm ? i.bits : (i.bits | (1u << 25))};
  require_vd_not_v0(lanes);
  fp::host_begin(fp::kRne);
  const unsigned prec = static_cast<unsigned>(h.xmtia_ids().sfu_prec_bits);
  float y = 0;
  if (x.operands == ExtOperands::VF) {
    const uint64_t v = h.f[i.rs1()];
    y = std::bit_cast<float>((v >> 32) == 0xffffffffu ? uint32_t(v) : fp::kCanonNan32);
  }
  uint64_t n = 0;
  each(h, lanes, [&](uint64_t k) {
    const float a = std::bit_cast<float>(get<uint32_t>(h, i.vs2(), k));
    const float b =
        x.operands == ExtOperands::VV ? std::bit_cast<float>(get<uint32_t>(h, i.vs1(), k)) : y;
    set<uint32_t>(h, i.vd(), k, std::bit_cast<uint32_t>(ext_evaluate(x, a, b, prec)));
    ++n;
  });
  if (!h.accel().ext_executed(x, n)) {
    const uint64_t groups = (n + x.elements_per_cycle - 1) / x.elements_per_cycle;
    h.charge_unit(x.latency_cycles + groups * x.occupancy_cycles, x.unit != ExtUnit::Sfu);
  }
  return pc + 4;
}

template <size_t K>
uint64_t trampoline(Hart &h, Insn i, uint64_t pc) {
  return execute(g_slots[K], h, i, pc);
}

template <size_t... K>
constexpr std::array<InsnFn, kSlots> make_trampolines(std::index_sequence<K...>) {
  return {&trampoline<K>...};
}
constexpr std::array<InsnFn, kSlots> kTrampolines =
    make_trampolines(std::make_index_sequence<kSlots>{});

struct ExtDecode {
  std::shared_mutex mutex;
  std::deque<DecodeEntry> entries;  // stable addresses
};
ExtDecode &ext_decode() {
  static ExtDecode d;
  return d;
}

InsnClass class_of(ExtUnit u) {
  switch (u) {
    case ExtUnit::Sfu:
      return InsnClass::Sfu;
    case ExtUnit::VecFp:
      return InsnClass::VecFp;
    case ExtUnit::VecAlu:
      return InsnClass::VecAlu;
  }
  return InsnClass::Sfu;
}

}  // namespace

namespace opforge::isa::sem {

void add_extension_semantics(const ExtInsn &insn) {
  ExtDecode &d = ext_decode();
  std::unique_lock lock(d.mutex);
  const size_t slot = d.entries.size();
  if (slot >= kSlots)
    throw Error("too many ISA extension instructions (the ISS has room for " +
                std::to_string(kSlots) + "): '" + insn.mnemonic + "' (" + insn.source + ")");
  g_slots[slot].insn = &insn;
  g_slots[slot].has_vm =
      std::find(insn.fields.begin(), insn.fields.end(), "vm") != insn.fields.end();
  DecodeEntry e;
  e.mask = insn.mask;
  e.match = insn.match;
  e.id = insn.spec_id;
  e.fn = kTrampolines[slot];
  e.cls = class_of(insn.unit);
  e.has_semantics = true;
  d.entries.push_back(e);
}

const DecodeEntry *decode_extension(uint32_t word) {
  ExtDecode &d = ext_decode();
  std::shared_lock lock(d.mutex);
  for (const DecodeEntry &e : d.entries)
    if ((word & e.mask) == e.match) return &e;
  return nullptr;
}

}  // namespace opforge::isa::sem
