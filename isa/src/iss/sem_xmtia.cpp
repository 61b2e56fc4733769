//===- sem_xmtia.cpp - Xmtia semantics: done, DMA, DPE and SFU -------------===//
//
// DMA/DPE descriptors are read from guest memory (layouts in
// docs/isa/xmtia-contract.md) and handed to AcceleratorIf. A descriptor that
// cannot be read raises a load access fault at its address; a command the
// accelerator rejects raises a load access fault at the reported address;
// a DPE descriptor with an unknown dtype is an illegal instruction. A command's
// work (DMA rows and words, DPE multiply-adds) counts against the run's
// instruction limit before it is issued (Hart::charge_accel_work), so one
// command cannot run past `opforge sim --max-insns`.
//
//===----------------------------------------------------------------------===//
#include <vector>

#include "fp_helpers.h"
#include "opforge/isa/sfu_math.h"
#include "vec_common.h"

using namespace opforge::isa;
using namespace opforge::isa::sem;
using namespace opforge::isa::vec;

OPF_SEM_UNIT(xmtia)

namespace {
// A DMA command's work in instruction-limit units: one per row and per 8 bytes moved
// (saturating; 2^62 rows is a number, not a loop).
uint64_t dma_work(const DmaCommand &c) {
  const unsigned __int128 words = (static_cast<unsigned __int128>(c.row_bytes) + 7) / 8;
  const unsigned __int128 w = static_cast<unsigned __int128>(c.rows) * (words + 1);
  return w > UINT64_MAX ? UINT64_MAX : static_cast<uint64_t>(w);
}

void check(const AccelStatus &s) {
  if (!s.ok) Hart::raise(cause::kLoadAccessFault, s.fault_addr);
}

uint64_t sfu_op(Hart &h, Insn i, uint64_t pc, SfuFunc fn) {
  require_vec(h, i);
  require(h.vsew_bits == 32, i);
  require_aligned(i, i.vd(), h.vlmul_log2);
  require_aligned(i, i.vs2(), h.vlmul_log2);
  require_vd_not_v0(i);
  fp::host_begin(fp::kRne);
  const unsigned prec = static_cast<unsigned>(h.xmtia_ids().sfu_prec_bits);
  uint64_t n = 0;
  if (h.accel().sfu_observes_results()) {
    // The accelerator sees (and may replace or refuse) the results first.
    std::vector<AcceleratorIf::SfuLane> lanes;
    each(h, i, [&](uint64_t k) {
      const uint32_t x = get<uint32_t>(h, i.vs2(), k);
      lanes.push_back({k, x,
                       std::bit_cast<uint32_t>(sfu::evaluate(fn, std::bit_cast<float>(x), prec))});
    });
    check(h.accel().sfu_results(fn, prec, pc, lanes));
    for (const AcceleratorIf::SfuLane &l : lanes) set<uint32_t>(h, i.vd(), l.index, l.y);
    n = lanes.size();
  } else {
    each(h, i, [&](uint64_t k) {
      const float x = std::bit_cast<float>(get<uint32_t>(h, i.vs2(), k));
      set<uint32_t>(h, i.vd(), k, std::bit_cast<uint32_t>(sfu::evaluate(fn, x, prec)));
      ++n;
    });
  }
  h.accel().sfu_executed(fn, n);
  h.charge_vector(InsnClass::Sfu, h.vl, 32);
  return pc + 4;
}
}  // namespace

INSN(xmtia_done, System) {
  h.request_stop(StopReason::Done);
  return NEXT;
}

INSN(xmtia_dma, System) {
  const uint64_t d = RS1;
  DmaCommand c;
  c.src = h.load<uint64_t>(d + 0);
  c.dst = h.load<uint64_t>(d + 8);
  c.row_bytes = h.load<uint64_t>(d + 16);
  c.rows = h.load<uint64_t>(d + 24);
  c.src_stride = static_cast<int64_t>(h.load<uint64_t>(d + 32));
  c.dst_stride = static_cast<int64_t>(h.load<uint64_t>(d + 40));
  c.tag = static_cast<uint32_t>(RS2 & 15);
  if (!h.charge_accel_work(dma_work(c))) return pc;
  fp::host_begin(fp::kRne);
  check(h.accel().dma_issue(c));
  return NEXT;
}

INSN(xmtia_dmawait, System) {
  fp::host_begin(fp::kRne);
  AccelStatus s = h.accel().dma_wait(static_cast<uint32_t>(RS1 & 15));
  if (s.pending) {
    h.request_stop(StopReason::AccelBlocked);
    return pc;
  }
  check(s);
  return NEXT;
}

INSN(xmtia_dpe, System) {
  const uint64_t d = RS1;
  DpeCommand c;
  c.a = h.load<uint64_t>(d + 0);
  c.b = h.load<uint64_t>(d + 8);
  c.c = h.load<uint64_t>(d + 16);
  c.m = h.load<uint32_t>(d + 24);
  c.n = h.load<uint32_t>(d + 28);
  c.k = h.load<uint32_t>(d + 32);
  c.lda = h.load<uint32_t>(d + 36);
  c.ldb = h.load<uint32_t>(d + 40);
  c.ldc = h.load<uint32_t>(d + 44);
  const uint8_t dtype = h.load<uint8_t>(d + 48);
  if (dtype > 3) ILLEGAL();
  c.dtype = static_cast<DpeDType>(dtype);
  c.accumulate = h.load<uint8_t>(d + 49) != 0;
  if (!h.charge_accel_work(uint64_t(c.m) * c.n * c.k)) return pc;
  fp::host_begin(fp::kRne);
  check(h.accel().dpe_issue(c));
  return NEXT;
}

INSN(xmtia_dpewait, System) {
  fp::host_begin(fp::kRne);
  AccelStatus s = h.accel().dpe_wait();
  if (s.pending) {
    h.request_stop(StopReason::AccelBlocked);
    return pc;
  }
  check(s);
  return NEXT;
}

INSN(vfexp_v, Sfu) { return sfu_op(h, i, pc, SfuFunc::Exp); }
INSN(vflog_v, Sfu) { return sfu_op(h, i, pc, SfuFunc::Log); }
INSN(vftanh_v, Sfu) { return sfu_op(h, i, pc, SfuFunc::Tanh); }
INSN(vferf_v, Sfu) { return sfu_op(h, i, pc, SfuFunc::Erf); }
INSN(vfsin_v, Sfu) { return sfu_op(h, i, pc, SfuFunc::Sin); }
INSN(vfcos_v, Sfu) { return sfu_op(h, i, pc, SfuFunc::Cos); }
INSN(vfrsqrt_v, Sfu) { return sfu_op(h, i, pc, SfuFunc::Rsqrt); }
INSN(vfrecip_v, Sfu) { return sfu_op(h, i, pc, SfuFunc::Recip); }
