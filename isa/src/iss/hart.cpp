//===- hart.cpp - the hart's run loop, decoded-instruction cache and traps -===//
#include "opforge/isa/hart.h"

#include <algorithm>
#include <cstdio>

#include "opforge/isa/disasm.h"
#include "opforge/isa/spec.h"
#include "opforge/support/error.h"
#include "registry.h"

#if defined(__x86_64__) || defined(__i386__)
#include <xmmintrin.h>
#endif

namespace opforge::isa {

const char *stop_reason_name(StopReason r) {
  switch (r) {
    case StopReason::None:
      return "none";
    case StopReason::InsnLimit:
      return "instruction limit";
    case StopReason::CycleBudget:
      return "cycle budget";
    case StopReason::Done:
      return "done";
    case StopReason::Tohost:
      return "tohost";
    case StopReason::Trap:
      return "trap";
    case StopReason::Wfi:
      return "wfi";
    case StopReason::AccelBlocked:
      return "accelerator wait";
  }
  return "?";
}

const char *cause::name(uint64_t c) {
  switch (c) {
    case kInsnMisaligned:
      return "instruction address misaligned";
    case kInsnAccessFault:
      return "instruction access fault";
    case kIllegalInsn:
      return "illegal instruction";
    case kBreakpoint:
      return "breakpoint";
    case kLoadMisaligned:
      return "load address misaligned";
    case kLoadAccessFault:
      return "load access fault";
    case kStoreMisaligned:
      return "store/AMO address misaligned";
    case kStoreAccessFault:
      return "store/AMO access fault";
    case kEcallU:
      return "environment call from U-mode";
    case kEcallS:
      return "environment call from S-mode";
    case kEcallM:
      return "environment call from M-mode";
    default:
      return "unknown";
  }
}

std::string TrapInfo::describe() const {
  char buf[256];
  const std::string &text = disassembly.empty() ? mnemonic : disassembly;
  std::snprintf(buf, sizeof buf, "%s (cause %llu) at pc=0x%llx, encoding 0x%08x%s%s%s, tval=0x%llx",
                cause::name(cause), static_cast<unsigned long long>(cause),
                static_cast<unsigned long long>(pc), encoding, text.empty() ? "" : " (",
                text.c_str(), text.empty() ? "" : ")", static_cast<unsigned long long>(tval));
  return buf;
}

namespace {
// Saves the host FP control word around a run (semantics bodies change it).
struct HostFpScope {
#if defined(__x86_64__) || defined(__i386__)
  unsigned saved = _mm_getcsr();
  ~HostFpScope() { _mm_setcsr(saved); }
#endif
};

uint32_t class_cost(const CostModel &c, InsnClass k) {
  switch (k) {
    case InsnClass::IntAlu:
      return c.int_alu_cycles;
    case InsnClass::Mul:
      return c.mul_cycles;
    case InsnClass::Div:
      return c.div_cycles;
    case InsnClass::Load:
      return c.load_cycles;
    case InsnClass::Store:
      return c.store_cycles;
    case InsnClass::Branch:
      return c.branch_cycles;
    case InsnClass::Jump:
      return c.jump_cycles;
    case InsnClass::Csr:
      return c.csr_cycles;
    case InsnClass::System:
      return c.system_cycles;
    case InsnClass::Amo:
      return c.amo_cycles;
    case InsnClass::FpAdd:
      return c.fp_add_cycles;
    case InsnClass::FpMul:
      return c.fp_mul_cycles;
    case InsnClass::FpFma:
      return c.fp_fma_cycles;
    case InsnClass::FpDiv:
      return c.fp_div_cycles;
    case InsnClass::FpSqrt:
      return c.fp_sqrt_cycles;
    case InsnClass::FpMisc:
      return c.fp_misc_cycles;
    default:
      return c.vec_issue_cycles;  // vector: beats are charged by the body
  }
}
}  // namespace

Hart::Hart(const HartConfig &cfg, MemoryIf &mem, AcceleratorIf &accel)
    : cfg_(cfg), mem_(mem), accel_(accel) {
  const uint32_t vlen = cfg_.vlen_bits;
  if (vlen < 128 || vlen > 4096 || (vlen & (vlen - 1)))
    throw Error("VLEN must be a power of two in 128..4096 bits, got " + std::to_string(vlen));
  if (cfg_.icache_entries == 0 || (cfg_.icache_entries & (cfg_.icache_entries - 1)))
    throw Error("decoded-instruction cache entries must be a power of two");
  vlenb_ = vlen / 8;
  vreg_storage_.reset(new uint8_t[32 * vlenb_ + 64]);
  vregs_ = vreg_storage_.get();
  icache_.resize(cfg_.icache_entries);
  icache_mask_ = cfg_.icache_entries - 1;
  ialign_mask_ = cfg_.compressed ? 1 : 3;
  for (int k = 0; k <= static_cast<int>(InsnClass::Sfu); ++k)
    class_cost_[k] = class_cost(cfg_.cost, static_cast<InsnClass>(k));
  if (cfg_.tohost_addr) {
    tohost_ = *cfg_.tohost_addr;
    tohost_span_ = 8;
  }
  xmtia_ = cfg_.xmtia;
  (void)sem::decode_table();  // bind tables and semantics once, up front
  reset();
}

Hart::~Hart() = default;

void Hart::reset(bool keep_caches) {
  std::fill(std::begin(x), std::end(x), 0);
  std::fill(std::begin(f), std::end(f), 0);
  std::memset(vregs_, 0, 32 * vlenb_);
  fflags = frm = 0;
  vtype = 1ull << 63;
  vill = true;
  vl = vstart = 0;
  vxrm = vxsat = 0;
  // FS and VS start Initial so programs can use FP and vectors at once.
  mstatus = csr::kMstatusMpp | (1ull << 13) | (1ull << 9);
  misa = (2ull << 62) | (1u << 0) | (1u << 3) | (1u << 5) | (1u << 8) | (1u << 12) | (1u << 21) |
         (1u << 23) | (cfg_.compressed ? 1u << 2 : 0u);
  mtvec = mepc = mcause = mtval = mscratch = mie = mip = mcounteren = mcountinhibit = 0;
  mcycle_delta = minstret_delta = 0;
  reservation = UINT64_MAX;
  reservation_value = 0;
  reservation_bytes = 0;
  pc_ = cfg_.reset_pc;
  instret_ = cycles_ = 0;
  stop_ = StopReason::None;
  if (keep_caches) return;
  flush_icache();
  invalidate_dmi();
}

void Hart::flush_icache() {
  // Entries never filled hold no instruction and no run: only the filled ones
  // need clearing (a launch touches a few hundred of the 16K entries).
  if (filled_overflow_) {
    for (auto &e : icache_) {
      e.pc = UINT64_MAX;
      e.run_len = 0;
    }
  } else {
    for (uint32_t idx : filled_) {
      icache_[idx].pc = UINT64_MAX;
      icache_[idx].run_len = 0;
    }
  }
  filled_.clear();
  filled_overflow_ = false;
}

void Hart::forget_code(uint64_t addr, uint64_t bytes) {
  // A 4-byte instruction starting 2 bytes before addr is stale too.
  for (uint64_t pc = (addr & ~1ull) - (addr >= 2 ? 2 : 0); pc < addr + bytes; pc += 2) {
    const size_t idx = (pc >> 1) & icache_mask_;
    if (icache_[idx].pc != pc) continue;
    icache_[idx].pc = UINT64_MAX;
    icache_[idx].run_len = 0;
    // Runs that ran through this slot are stale too.
    for (size_t k = 1; k < 2 * kMaxRunInsns && k <= idx; ++k) icache_[idx - k].run_len = 0;
  }
}

void Hart::invalidate_dmi() {
  rd_host_ = wr_host_ = ex_host_ = nullptr;
  rd_base_ = wr_base_ = ex_base_ = 0;
  rd_lim_ = wr_lim_ = ex_lim_ = 0;
}

uint64_t Hart::vlmax() const {
  if (vill) return 0;
  uint64_t v = uint64_t(vlenb_) * 8 / vsew_bits;
  return vlmul_log2 >= 0 ? v << vlmul_log2 : v >> -vlmul_log2;
}

uint64_t Hart::set_vtype(uint64_t t, uint64_t avl) {
  const unsigned lmul = t & 7, sew = (t >> 3) & 7;
  const bool reserved = (t >> 8) != 0 || lmul == 4 || sew > 3;
  const int lmul_log2 = lmul < 4 ? int(lmul) : int(lmul) - 8;
  const unsigned sew_bits = 8u << sew;
  // Fractional LMUL needs SEW <= LMUL * ELEN (ELEN = 64).
  const bool bad_frac = lmul_log2 < 0 && sew_bits > (64u >> -lmul_log2);
  if (reserved || bad_frac) {
    vill = true;
    vtype = 1ull << 63;
    vl = 0;
  } else {
    vill = false;
    vtype = t;
    vsew_bits = sew_bits;
    vlmul_log2 = lmul_log2;
    vta = (t >> 6) & 1;
    vma = (t >> 7) & 1;
    vl = avl < vlmax() ? avl : vlmax();
  }
  vstart = 0;
  mstatus |= csr::kMstatusVs;
  return vl;
}

void Hart::charge_vector(InsnClass c, uint64_t elements, unsigned sew_bits) {
  const CostModel &m = cfg_.cost;
  const uint64_t bits = elements * sew_bits;
  const uint64_t beats =
      (bits + m.vec_datapath_bits - 1) / (m.vec_datapath_bits ? m.vec_datapath_bits : 1);
  uint32_t per = m.vec_alu_beat_cycles;
  switch (c) {
    case InsnClass::VecMul:
      per = m.vec_mul_beat_cycles;
      break;
    case InsnClass::VecDiv:
      per = m.vec_div_beat_cycles;
      break;
    case InsnClass::VecFp:
      per = m.vec_fp_beat_cycles;
      break;
    case InsnClass::VecFdiv:
      per = m.vec_fdiv_beat_cycles;
      break;
    case InsnClass::VecMem:
      per = m.vec_mem_beat_cycles;
      break;
    case InsnClass::VecPermute:
      per = m.vec_permute_beat_cycles;
      break;
    case InsnClass::VecReduce:
      per = m.vec_reduce_beat_cycles;
      break;
    case InsnClass::Sfu:
      per = m.sfu_beat_cycles;
      break;
    default:
      break;
  }
  cycles_ += beats * per;
  if (c != InsnClass::Sfu) vector_busy_cycles_ += beats * per;
}

// ---------------------------------------------------------------- memory

void Hart::load_slow(uint64_t addr, void *dst, size_t len) {
  DmiRegion r = mem_.dmi(addr);
  if (r.contains(addr, len)) {
    rd_host_ = r.host;
    rd_base_ = r.base;
    rd_lim_ = r.size >= 8 ? r.size - 7 : 0;
    std::memcpy(dst, r.host + (addr - r.base), len);
    return;
  }
  if (!mem_.load(addr, dst, len)) raise(cause::kLoadAccessFault, addr);
}

void hart_note_tohost(Hart &h, uint64_t value) {
  h.tohost_value_ = value;
  h.request_stop(StopReason::Tohost);
}

void Hart::store_slow(uint64_t addr, const void *src, size_t len) {
  DmiRegion r = mem_.dmi(addr);
  if (r.writable && r.contains(addr, len)) {
    wr_host_ = r.host;
    wr_base_ = r.base;
    wr_lim_ = r.size >= 8 ? r.size - 7 : 0;
    std::memcpy(r.host + (addr - r.base), src, len);
  } else if (!mem_.store(addr, src, len)) {
    raise(cause::kStoreAccessFault, addr);
  }
  if (tohost_span_ && addr < tohost_ + 8 && addr + len > tohost_) {
    uint64_t v = 0;
    if (mem_.load(tohost_, &v, 8) && v != 0) hart_note_tohost(*this, v);
  }
}

uint32_t Hart::fetch_word(uint64_t pc) {
  uint64_t off = pc - ex_base_;
  if (off >= ex_lim_) {
    DmiRegion r = mem_.dmi(pc);
    if (r.contains(pc, 4)) {
      ex_host_ = r.host;
      ex_base_ = r.base;
      ex_lim_ = r.size >= 8 ? r.size - 7 : 0;
      off = pc - ex_base_;
    }
  }
  uint32_t w;
  if (off < ex_lim_) {
    std::memcpy(&w, ex_host_ + off, 4);
    return w;
  }
  // One fetch of the whole word: a timed memory (the chip's PE) counts one
  // instruction-cache access per instruction, not one per half.
  if (mem_.fetch(pc, &w, 4)) return w;
  // The word runs past its memory region: a 16-bit instruction may still end it.
  uint16_t lo = 0;
  if (!mem_.fetch(pc, &lo, 2)) raise(cause::kInsnAccessFault, pc);
  if ((lo & 3) == 3) raise(cause::kInsnAccessFault, pc + 2);
  return lo;
}

namespace {
bool is_vector_class(InsnClass c) { return c >= InsnClass::VecConfig; }
}  // namespace

Hart::CacheEntry &Hart::fill(uint64_t pc) {
  if (pc & ialign_mask_) raise(cause::kInsnMisaligned, pc);
  const size_t idx = (pc >> 1) & icache_mask_;
  CacheEntry &e = icache_[idx];
  uint32_t w = fetch_word(pc);
  if (e.pc == UINT64_MAX) {  // remember it for flush_icache()
    if (filled_.size() < icache_.size())
      filled_.push_back(static_cast<uint32_t>(idx));
    else
      filled_overflow_ = true;
  }
  const bool rvc = (w & 3) != 3;  // a 16-bit instruction (illegal without C)
  if (rvc) w &= 0xffffu;
  const sem::DecodeEntry *d = rvc && !cfg_.compressed ? nullptr : sem::decode_for_iss(w);
  e.pc = pc;
  e.insn = Insn{w};
  e.slots = rvc ? 1 : 2;
  e.fn = d ? d->fn : sem::illegal_handler();
  e.cost_cycles = d ? class_cost_[static_cast<int>(d->cls)] : 0;
  e.vector = d && is_vector_class(d->cls);
  e.role = RunRole::Plain;
  if (!d || !d->has_semantics) {
    e.role = RunRole::Alone;
  } else {
    switch (d->cls) {
      case InsnClass::Csr:
      case InsnClass::System:
        e.role = RunRole::Alone;
        break;
      case InsnClass::Branch:
      case InsnClass::Jump:
      case InsnClass::Store:
      case InsnClass::Amo:
      case InsnClass::VecMem:
        e.role = RunRole::Last;
        break;
      default:
        break;
    }
  }
  // Runs that ran through this slot are stale now.
  e.run_len = 0;
  for (size_t k = 1; k < 2 * kMaxRunInsns && k <= idx; ++k) icache_[idx - k].run_len = 0;
  return e;
}

// A run is the straight line from `head` up to the first instruction that
// may branch or stop (included) or must execute alone (excluded), at most
// kMaxRunInsns long and within one direct-fetch region (look-ahead never
// touches memory through the slow path).
void Hart::form_run(CacheEntry &head) {
  // Entries are per 2 bytes: the next instruction sits `slots` entries on.
  const size_t idx0 = static_cast<size_t>(&head - icache_.data());
  unsigned len = 0, span = 0;
  uint32_t cost = 0;
  bool vector = false;
  while (len < kMaxRunInsns && idx0 + span < icache_.size()) {
    const uint64_t want = head.pc + 2 * span;
    CacheEntry *c = &icache_[idx0 + span];
    if (c->pc != want) {
      if (want - ex_base_ >= ex_lim_) break;
      try {
        c = &fill(want);
      } catch (const TrapException &) {
        break;
      }
    }
    if (c->role == RunRole::Alone || idx0 + span + c->slots > icache_.size()) break;
    ++len;
    span += c->slots;
    cost += c->cost_cycles;
    vector |= c->vector;
    if (c->role == RunRole::Last) break;
  }
  if (len == 0) {  // an instruction that executes alone
    len = 1;
    span = head.slots;
    cost = head.cost_cycles;
    vector = head.vector;
  }
  head.run_len = static_cast<uint8_t>(len);
  head.run_slots = static_cast<uint8_t>(span);
  head.run_cost_cycles = cost;
  head.run_vector = vector;
}

// ---------------------------------------------------------------- traps

bool Hart::take_trap(const TrapException &t, uint64_t pc, RunResult &res) {
  mcause = t.cause;
  mepc = pc;
  mtval = t.tval;
  const bool mie_bit = mstatus & csr::kMstatusMie;
  mstatus = (mstatus & ~(csr::kMstatusMie | csr::kMstatusMpie)) |
            (mie_bit ? csr::kMstatusMpie : 0) | csr::kMstatusMpp;
  if (mtvec != 0) {
    pc_ = mtvec & ~3ull;
    return false;
  }
  // No handler: stop and report.
  pc_ = pc;
  res.reason = StopReason::Trap;
  res.trap.cause = t.cause;
  res.trap.pc = pc;
  res.trap.tval = t.tval;
  res.trap.encoding = 0;
  res.trap.mnemonic.clear();
  if (t.cause != cause::kInsnAccessFault && t.cause != cause::kInsnMisaligned) {
    try {
      res.trap.encoding = fetch_word(pc);
      if ((res.trap.encoding & 3) != 3) res.trap.encoding &= 0xffffu;  // 16-bit
      if (const InsnSpec *s = decode(res.trap.encoding)) {
        res.trap.mnemonic = s->name;
        try {
          res.trap.disassembly = disassemble(res.trap.encoding, pc);
        } catch (const std::exception &) {
          res.trap.disassembly = s->name;
        }
      }
    } catch (const TrapException &) {
    }
  }
  return true;
}

// ---------------------------------------------------------------- run loop

RunResult Hart::run(uint64_t max_instructions, uint64_t budget_cycles) {
  if (trace_hook_) return run_traced(max_instructions, budget_cycles);
  HostFpScope fp_scope;
  RunResult res;
  const uint64_t start_instret = instret_, start_cycles = cycles_;
  const uint64_t insn_end =
      max_instructions > UINT64_MAX - instret_ ? UINT64_MAX : instret_ + max_instructions;
  const uint64_t cyc_end =
      budget_cycles > UINT64_MAX - cycles_ ? UINT64_MAX : cycles_ + budget_cycles;
  const bool budgeted = cyc_end != UINT64_MAX;
  stop_ = StopReason::None;
  accel_work_refused_ = false;
  insn_end_ = insn_end;  // request_stop() sets it to 0
  uint64_t pc = pc_;
  // The run being executed: a trap inside it retires the instructions
  // before the trapping one.
  const CacheEntry *run_head = nullptr;
  for (;;) {
    try {
      while (instret_ < insn_end_ && cycles_ < cyc_end) {
        CacheEntry *e = &icache_[(pc >> 1) & icache_mask_];
        if (e->pc != pc) [[unlikely]] {
          pc_ = pc;
          e = &fill(pc);
        }
        if (e->run_len == 0) [[unlikely]]
          form_run(*e);
        const unsigned len = e->run_len;
        // A whole run when it fits the instruction limit and, under a cycle
        // budget, cannot cross it (then it stops where single steps would).
        if (len > 1 && insn_end_ - instret_ >= len &&
            (!budgeted || (!e->run_vector && cyc_end - cycles_ >= e->run_cost_cycles))) [[likely]] {
          run_head = e;
          const CacheEntry *op = e, *end = e + e->run_slots;
          do {
            pc = op->fn(*this, op->insn, pc);
            op += op->slots;
          } while (op != end);
          run_head = nullptr;
          instret_ += len;
          cycles_ += e->run_cost_cycles;
        } else {
          pc = e->fn(*this, e->insn, pc);
          // A wait that did not complete retires when it is run again.
          if (stop_ != StopReason::AccelBlocked) [[likely]] {
            ++instret_;
            cycles_ += e->cost_cycles;
          }
        }
      }
      pc_ = pc;
      if (stop_ != StopReason::None)
        res.reason = stop_;
      else
        res.reason = instret_ >= insn_end ? StopReason::InsnLimit : StopReason::CycleBudget;
      break;
    } catch (const TrapException &t) {
      if (run_head) {  // retire the run's instructions before the trapping one
        for (const CacheEntry *op = run_head; op->pc != pc; op += op->slots) {
          ++instret_;
          cycles_ += op->cost_cycles;
        }
        run_head = nullptr;
      }
      if (take_trap(t, pc, res)) break;
      pc = pc_;
    }
  }
  insn_end_ = 0;
  res.instructions = instret_ - start_instret;
  res.cycles = cycles_ - start_cycles;
  res.tohost_value = tohost_value_;
  return res;
}

RunResult Hart::run_traced(uint64_t max_instructions, uint64_t budget_cycles) {
  RunResult total;
  const uint64_t start_instret = instret_, start_cycles = cycles_;
  for (uint64_t n = 0; n < max_instructions; ++n) {
    if (cycles_ - start_cycles >= budget_cycles) {
      total.reason = StopReason::CycleBudget;
      break;
    }
    uint32_t w = 0;
    {
      uint64_t off = pc_ - ex_base_;
      if (off < ex_lim_)
        std::memcpy(&w, ex_host_ + off, 4);
      else if (!mem_.load(pc_, &w, 4))
        w = 0;
    }
    if ((w & 3) != 3) w &= 0xffffu;  // a 16-bit instruction
    trace_hook_(pc_, w);
    auto hook = std::move(trace_hook_);
    RunResult r = run(1, UINT64_MAX);
    trace_hook_ = std::move(hook);
    if (r.reason != StopReason::InsnLimit) {
      total = r;
      break;
    }
    total.reason = StopReason::InsnLimit;
  }
  total.instructions = instret_ - start_instret;
  total.cycles = cycles_ - start_cycles;
  return total;
}

}  // namespace opforge::isa
