//===- sem_rv_v_cfg_mem.cpp - RVV configuration, loads and stores ----------===//
#include "vec_common.h"

using namespace opforge::isa;
using namespace opforge::isa::sem;
using namespace opforge::isa::vec;

OPF_SEM_UNIT(rv_v_cfg_mem)

namespace {
inline void require_vs(Hart &h, Insn i) {
  if (!(h.mstatus & csr::kMstatusVs)) illegal(i);
}
// AVL rule shared by vsetvli and vsetvl.
uint64_t setvl(Hart &h, Insn i, uint64_t pc, uint64_t vtype_value) {
  require_vs(h, i);
  uint64_t avl;
  if (i.rs1() != 0)
    avl = h.x[i.rs1()];
  else if (i.rd() != 0)
    avl = UINT64_MAX;
  else
    avl = h.vl;  // keep vl
  WRITE_RD(h.set_vtype(vtype_value, avl));
  return pc + 4;
}

// EMUL for a data/index EEW given SEW and LMUL; illegal outside 1/8..8.
inline int emul_log2(Hart &h, Insn i, unsigned eew_bits) {
  int e = h.vlmul_log2;
  for (unsigned s = h.vsew_bits; s < eew_bits; s <<= 1) ++e;
  for (unsigned s = h.vsew_bits; s > eew_bits; s >>= 1) --e;
  if (e < -3 || e > 3) illegal(i);
  return e;
}

enum class Addr { Unit, Strided, Indexed };

// Loads/stores of EEW-wide data: unit-stride, strided (x[rs2]) or indexed
// (vs2 holds EEW-wide byte offsets and the data is SEW wide).
template <Addr mode, bool is_store, class T>
uint64_t vmem(Hart &h, Insn i, uint64_t pc, bool fault_first = false) {
  require_vec(h, i);
  const unsigned data_bits = mode == Addr::Indexed ? h.vsew_bits : sizeof(T) * 8;
  const int data_emul = mode == Addr::Indexed ? h.vlmul_log2 : emul_log2(h, i, sizeof(T) * 8);
  require_aligned(i, i.vd(), data_emul);
  if (mode == Addr::Indexed) require_aligned(i, i.vs2(), emul_log2(h, i, sizeof(T) * 8));
  if (!is_store) require_vd_not_v0(i);
  const uint64_t base = h.x[i.rs1()];
  const int64_t stride = mode == Addr::Strided ? static_cast<int64_t>(h.x[i.rs2()]) : 0;
  if constexpr (mode == Addr::Unit) {
    // Unmasked and wholly inside the direct region: one copy of the span.
    if (i.vm() && h.vl > h.vstart) {
      const uint64_t k0 = h.vstart, bytes = (h.vl - k0) * sizeof(T), a0 = base + k0 * sizeof(T);
      uint8_t *reg = vbase(h) + (is_store ? i.vs3() : i.vd()) * h.vlenb() + k0 * sizeof(T);
      if constexpr (is_store) {
        if (uint8_t *m = h.store_span(a0, bytes)) {
          std::memcpy(m, reg, bytes);
          h.vstart = 0;
          h.charge_vector(InsnClass::VecMem, h.vl, data_bits);
          return pc + 4;
        }
      } else {
        if (const uint8_t *m = h.load_span(a0, bytes)) {
          std::memcpy(reg, m, bytes);
          h.vstart = 0;
          h.charge_vector(InsnClass::VecMem, h.vl, data_bits);
          return pc + 4;
        }
      }
    }
  }
  uint64_t k_cur = h.vstart;
  auto addr_of = [&](uint64_t k) -> uint64_t {
    if constexpr (mode == Addr::Unit)
      return base + k * sizeof(T);
    else if constexpr (mode == Addr::Strided)
      return base + static_cast<uint64_t>(static_cast<int64_t>(k) * stride);
    else
      return base + static_cast<uint64_t>(get<T>(h, i.vs2(), k));
  };
  try {
    by_sew(data_bits, [&](auto t) {
      using D = std::conditional_t<mode == Addr::Indexed, decltype(t), T>;
      each(h, i, [&](uint64_t k) {
        k_cur = k;
        if constexpr (is_store)
          h.store<D>(addr_of(k), get<D>(h, i.vs3(), k));
        else
          set<D>(h, i.vd(), k, h.load<D>(addr_of(k)));
      });
    });
  } catch (const TrapException &) {
    if (fault_first && k_cur > 0) {  // trim vl to the elements that loaded
      h.vl = k_cur;
      h.vstart = 0;
      return pc + 4;
    }
    h.vstart = k_cur;
    throw;
  }
  h.charge_vector(InsnClass::VecMem, h.vl, data_bits);
  return pc + 4;
}

// Whole-register loads/stores: nregs * VLENB bytes, independent of vtype.
template <bool is_store>
uint64_t vwhole(Hart &h, Insn i, uint64_t pc, unsigned nregs, unsigned eew_bytes) {
  require_vs(h, i);
  require((i.vd() & (nregs - 1)) == 0, i);
  const uint64_t base = h.x[i.rs1()];
  const uint64_t total = uint64_t(nregs) * h.vlenb() / eew_bytes;
  uint8_t *regs = vbase(h) + i.vd() * h.vlenb();
  uint64_t k = h.vstart;
  if (k < total) {  // wholly inside the direct region: one copy
    const uint64_t a0 = base + k * eew_bytes, bytes = (total - k) * eew_bytes;
    if constexpr (is_store) {
      if (uint8_t *m = h.store_span(a0, bytes)) {
        std::memcpy(m, regs + k * eew_bytes, bytes);
        k = total;
      }
    } else {
      if (const uint8_t *m = h.load_span(a0, bytes)) {
        std::memcpy(regs + k * eew_bytes, m, bytes);
        k = total;
      }
    }
  }
  try {
    for (; k < total; ++k) {
      if constexpr (is_store)
        h.store_bytes(base + k * eew_bytes, regs + k * eew_bytes, eew_bytes);
      else
        h.load_bytes(base + k * eew_bytes, regs + k * eew_bytes, eew_bytes);
    }
  } catch (const TrapException &) {
    h.vstart = k;
    throw;
  }
  h.vstart = 0;
  h.charge_vector(InsnClass::VecMem, total, eew_bytes * 8);
  return pc + 4;
}

// Mask loads/stores: ceil(vl/8) bytes, unmasked.
template <bool is_store>
uint64_t vmask_mem(Hart &h, Insn i, uint64_t pc) {
  require_vec(h, i);
  const uint64_t bytes = (h.vl + 7) / 8;
  const uint64_t base = h.x[i.rs1()];
  uint8_t *reg = vbase(h) + i.vd() * h.vlenb();
  uint64_t k = h.vstart;
  try {
    for (; k < bytes; ++k) {
      if constexpr (is_store)
        h.store<uint8_t>(base + k, reg[k]);
      else
        reg[k] = h.load<uint8_t>(base + k);
    }
  } catch (const TrapException &) {
    h.vstart = k;
    throw;
  }
  h.vstart = 0;
  h.charge_vector(InsnClass::VecMem, bytes, 8);
  return pc + 4;
}
}  // namespace

INSN(vsetvli, VecConfig) { return setvl(h, i, pc, i.vzimm11()); }
INSN(vsetivli, VecConfig) {
  require_vs(h, i);
  WRITE_RD(h.set_vtype(i.vzimm10(), i.uimm5()));
  return pc + 4;
}
INSN(vsetvl, VecConfig) { return setvl(h, i, pc, h.x[i.rs2()]); }

INSN(vle8_v, VecMem) { return vmem<Addr::Unit, false, uint8_t>(h, i, pc); }
INSN(vle16_v, VecMem) { return vmem<Addr::Unit, false, uint16_t>(h, i, pc); }
INSN(vle32_v, VecMem) { return vmem<Addr::Unit, false, uint32_t>(h, i, pc); }
INSN(vle64_v, VecMem) { return vmem<Addr::Unit, false, uint64_t>(h, i, pc); }
INSN(vle8ff_v, VecMem) { return vmem<Addr::Unit, false, uint8_t>(h, i, pc, true); }
INSN(vle16ff_v, VecMem) { return vmem<Addr::Unit, false, uint16_t>(h, i, pc, true); }
INSN(vle32ff_v, VecMem) { return vmem<Addr::Unit, false, uint32_t>(h, i, pc, true); }
INSN(vle64ff_v, VecMem) { return vmem<Addr::Unit, false, uint64_t>(h, i, pc, true); }
INSN(vse8_v, VecMem) { return vmem<Addr::Unit, true, uint8_t>(h, i, pc); }
INSN(vse16_v, VecMem) { return vmem<Addr::Unit, true, uint16_t>(h, i, pc); }
INSN(vse32_v, VecMem) { return vmem<Addr::Unit, true, uint32_t>(h, i, pc); }
INSN(vse64_v, VecMem) { return vmem<Addr::Unit, true, uint64_t>(h, i, pc); }
INSN(vlse8_v, VecMem) { return vmem<Addr::Strided, false, uint8_t>(h, i, pc); }
INSN(vlse16_v, VecMem) { return vmem<Addr::Strided, false, uint16_t>(h, i, pc); }
INSN(vlse32_v, VecMem) { return vmem<Addr::Strided, false, uint32_t>(h, i, pc); }
INSN(vlse64_v, VecMem) { return vmem<Addr::Strided, false, uint64_t>(h, i, pc); }
INSN(vsse8_v, VecMem) { return vmem<Addr::Strided, true, uint8_t>(h, i, pc); }
INSN(vsse16_v, VecMem) { return vmem<Addr::Strided, true, uint16_t>(h, i, pc); }
INSN(vsse32_v, VecMem) { return vmem<Addr::Strided, true, uint32_t>(h, i, pc); }
INSN(vsse64_v, VecMem) { return vmem<Addr::Strided, true, uint64_t>(h, i, pc); }
// Ordered and unordered indexed accesses are the same on one in-order hart.
INSN(vluxei8_v, VecMem) { return vmem<Addr::Indexed, false, uint8_t>(h, i, pc); }
INSN(vluxei16_v, VecMem) { return vmem<Addr::Indexed, false, uint16_t>(h, i, pc); }
INSN(vluxei32_v, VecMem) { return vmem<Addr::Indexed, false, uint32_t>(h, i, pc); }
INSN(vluxei64_v, VecMem) { return vmem<Addr::Indexed, false, uint64_t>(h, i, pc); }
INSN(vloxei8_v, VecMem) { return vmem<Addr::Indexed, false, uint8_t>(h, i, pc); }
INSN(vloxei16_v, VecMem) { return vmem<Addr::Indexed, false, uint16_t>(h, i, pc); }
INSN(vloxei32_v, VecMem) { return vmem<Addr::Indexed, false, uint32_t>(h, i, pc); }
INSN(vloxei64_v, VecMem) { return vmem<Addr::Indexed, false, uint64_t>(h, i, pc); }
INSN(vsuxei8_v, VecMem) { return vmem<Addr::Indexed, true, uint8_t>(h, i, pc); }
INSN(vsuxei16_v, VecMem) { return vmem<Addr::Indexed, true, uint16_t>(h, i, pc); }
INSN(vsuxei32_v, VecMem) { return vmem<Addr::Indexed, true, uint32_t>(h, i, pc); }
INSN(vsuxei64_v, VecMem) { return vmem<Addr::Indexed, true, uint64_t>(h, i, pc); }
INSN(vsoxei8_v, VecMem) { return vmem<Addr::Indexed, true, uint8_t>(h, i, pc); }
INSN(vsoxei16_v, VecMem) { return vmem<Addr::Indexed, true, uint16_t>(h, i, pc); }
INSN(vsoxei32_v, VecMem) { return vmem<Addr::Indexed, true, uint32_t>(h, i, pc); }
INSN(vsoxei64_v, VecMem) { return vmem<Addr::Indexed, true, uint64_t>(h, i, pc); }

INSN(vlm_v, VecMem) { return vmask_mem<false>(h, i, pc); }
INSN(vsm_v, VecMem) { return vmask_mem<true>(h, i, pc); }

#define VLRE(n, eew) \
  INSN(vl##n##re##eew##_v, VecMem) { return vwhole<false>(h, i, pc, n, eew / 8); }
// clang-format off
VLRE(1, 8)
VLRE(1, 16)
VLRE(1, 32)
VLRE(1, 64)
VLRE(2, 8)
VLRE(2, 16)
VLRE(2, 32)
VLRE(2, 64)
VLRE(4, 8)
VLRE(4, 16)
VLRE(4, 32)
VLRE(4, 64)
VLRE(8, 8)
VLRE(8, 16)
VLRE(8, 32)
VLRE(8, 64)
// clang-format on
INSN(vs1r_v, VecMem) { return vwhole<true>(h, i, pc, 1, 1); }
INSN(vs2r_v, VecMem) { return vwhole<true>(h, i, pc, 2, 1); }
INSN(vs4r_v, VecMem) { return vwhole<true>(h, i, pc, 4, 1); }
INSN(vs8r_v, VecMem) { return vwhole<true>(h, i, pc, 8, 1); }
