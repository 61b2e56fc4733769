//===- csr.cpp - the hart's control and status registers -------------------===//
#include "opforge/isa/csr.h"

#include "opforge/isa/hart.h"

namespace opforge::isa {

namespace {
constexpr uint64_t kMieMask = (1ull << 3) | (1ull << 7) | (1ull << 11);
bool fs_on(const Hart &h) { return h.mstatus & csr::kMstatusFs; }
bool vs_on(const Hart &h) { return h.mstatus & csr::kMstatusVs; }
}  // namespace

// Value of CSR num; ok = false if it does not exist (or is inaccessible now).
uint64_t csr_read_impl(Hart &h, uint16_t num, bool &ok) {
  ok = true;
  using namespace csr;
  switch (num) {
    case kFflags:
      ok = fs_on(h);
      return h.fflags;
    case kFrm:
      ok = fs_on(h);
      return h.frm;
    case kFcsr:
      ok = fs_on(h);
      return (h.frm << 5) | h.fflags;
    case kVstart:
      ok = vs_on(h);
      return h.vstart;
    case kVxsat:
      ok = vs_on(h);
      return h.vxsat;
    case kVxrm:
      ok = vs_on(h);
      return h.vxrm;
    case kVcsr:
      ok = vs_on(h);
      return (h.vxrm << 1) | h.vxsat;
    case kVl:
      ok = vs_on(h);
      return h.vl;
    case kVtype:
      ok = vs_on(h);
      return h.vtype;
    case kVlenb:
      ok = vs_on(h);
      return h.vlenb();
    case kCycle:
    case kMcycle:
      return h.cycles_ + h.mcycle_delta;
    case kInstret:
    case kMinstret:
      return h.instret_ + h.minstret_delta;
    case kTime:
      return h.time_reader_ ? h.time_reader_() : h.cycles_;
    case kMvendorid:
    case kMarchid:
    case kMimpid:
    case 0xf15:  // mconfigptr
      return 0;
    case kMhartid:
      return h.cfg_.hartid;
    case kMstatus: {
      uint64_t s = h.mstatus;
      if ((s & kMstatusFs) == kMstatusFs || (s & kMstatusVs) == kMstatusVs) s |= kMstatusSd;
      return s | (2ull << 32);  // UXL = 64 (read-only)
    }
    case kMisa:
      return h.misa;
    case kMie:
      return h.mie;
    case kMip:
      return h.mip;
    case kMtvec:
      return h.mtvec;
    case kMcounteren:
      return h.mcounteren;
    case kMcountinhibit:
      return h.mcountinhibit;
    case kMscratch:
      return h.mscratch;
    case kMepc:
      return h.mepc;
    case kMcause:
      return h.mcause;
    case kMtval:
      return h.mtval;
    case kMtiaPidX:
    case kMtiaPidY:
    case kMtiaPidZ:
      return h.xmtia_.pid[num - kMtiaPidX];
    case kMtiaNprogX:
    case kMtiaNprogY:
    case kMtiaNprogZ:
      return h.xmtia_.nprog[num - kMtiaNprogX];
    case kMtiaPeId:
      return h.xmtia_.pe_id;
    case kMtiaGridRows:
      return h.xmtia_.grid_rows;
    case kMtiaGridCols:
      return h.xmtia_.grid_cols;
    case kMtiaSfuPrec:
      return h.xmtia_.sfu_prec_bits;
    default:
      break;
  }
  if ((num >= kHpmcounter3 && num <= kHpmcounter31) ||
      (num >= kMhpmcounter3 && num <= kMhpmcounter31)) {
    unsigned idx = num & 31;
    return h.hpm_reader_ ? h.hpm_reader_(idx) : 0;
  }
  if (num >= kMhpmevent3 && num <= kMhpmevent31) return 0;
  ok = false;
  return 0;
}

// Write CSR num; false if it does not exist or is read-only.
bool csr_write_impl(Hart &h, uint16_t num, uint64_t v) {
  using namespace csr;
  if ((num >> 10) == 3) return false;  // read-only range
  switch (num) {
    case kFflags:
      if (!fs_on(h)) return false;
      h.fflags = v & 31;
      h.mstatus |= kMstatusFs;
      return true;
    case kFrm:
      if (!fs_on(h)) return false;
      h.frm = v & 7;
      h.mstatus |= kMstatusFs;
      return true;
    case kFcsr:
      if (!fs_on(h)) return false;
      h.fflags = v & 31;
      h.frm = (v >> 5) & 7;
      h.mstatus |= kMstatusFs;
      return true;
    case kVstart:
      if (!vs_on(h)) return false;
      h.vstart = v & (uint64_t(h.vlenb()) * 8 - 1);
      h.mstatus |= kMstatusVs;
      return true;
    case kVxsat:
      if (!vs_on(h)) return false;
      h.vxsat = v & 1;
      h.mstatus |= kMstatusVs;
      return true;
    case kVxrm:
      if (!vs_on(h)) return false;
      h.vxrm = v & 3;
      h.mstatus |= kMstatusVs;
      return true;
    case kVcsr:
      if (!vs_on(h)) return false;
      h.vxsat = v & 1;
      h.vxrm = (v >> 1) & 3;
      h.mstatus |= kMstatusVs;
      return true;
    case kMcycle:
      h.mcycle_delta = v - h.cycles_;
      return true;
    case kMinstret:
      h.minstret_delta = v - h.instret_ - 1;
      return true;  // the csrw itself retires
    case kMstatus: {
      const uint64_t writable = kMstatusMie | kMstatusMpie | kMstatusFs | kMstatusVs;
      h.mstatus = (h.mstatus & ~writable) | (v & writable) | kMstatusMpp;
      return true;
    }
    case kMisa:
      return true;  // WARL: the extensions are fixed
    case kMie:
      h.mie = v & kMieMask;
      return true;
    case kMip:
      return true;  // no software-writable pending bits
    case kMtvec:
      h.mtvec = v & ~2ull;
      return true;
    case kMcounteren:
      h.mcounteren = v & 0xffffffffu;
      return true;
    case kMcountinhibit:
      h.mcountinhibit = v & 0xfffffffdu;
      return true;
    case kMscratch:
      h.mscratch = v;
      return true;
    case kMepc:
      h.mepc = v & ~h.ialign_mask();
      return true;
    case kMcause:
      h.mcause = v;
      return true;
    case kMtval:
      h.mtval = v;
      return true;
    default:
      break;
  }
  if (num >= kMhpmcounter3 && num <= kMhpmcounter31) return true;  // counters belong to the model
  if (num >= kMhpmevent3 && num <= kMhpmevent31) return true;      // no selectable events
  return false;
}

std::optional<uint64_t> Hart::read_csr(uint16_t num) {
  bool ok = false;
  uint64_t v = csr_read_impl(*this, num, ok);
  if (!ok) return std::nullopt;
  return v;
}

bool Hart::write_csr(uint16_t num, uint64_t value) { return csr_write_impl(*this, num, value); }

}  // namespace opforge::isa
