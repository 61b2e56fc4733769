//===- hart.h - one RV64IMAFDV + Xmtia hart: state, traps, run loop -------===//
//
// The instruction-set simulator's core. A Hart owns architectural state
// (x, f, v registers, CSRs, pc), a decoded-instruction cache and a cost
// model, and reaches memory and the Xmtia accelerators only through
// MemoryIf and AcceleratorIf. It knows nothing of SystemC: the chip model
// drives it with run(max_instructions, budget_cycles) and reads back why it
// stopped.
//
// Semantics bodies (isa/src/iss/sem_*.cpp) operate on the public state
// below through the vocabulary in isa/src/iss/semantics.h.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstdint>
#include <cstring>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "opforge/isa/accel_if.h"
#include "opforge/isa/csr.h"
#include "opforge/isa/insn.h"
#include "opforge/isa/memory_if.h"

namespace opforge::isa {

// Cost of one instruction by class, in core cycles. The caller (the chip
// model) fills it from its configuration; the defaults are a simple
// single-issue in-order core.
struct CostModel {
  uint32_t int_alu_cycles = 1;
  uint32_t mul_cycles = 3;
  uint32_t div_cycles = 20;
  uint32_t load_cycles = 2;
  uint32_t store_cycles = 1;
  uint32_t branch_cycles = 1;
  uint32_t jump_cycles = 2;
  uint32_t csr_cycles = 2;
  uint32_t system_cycles = 2;  // fence, ecall, mret, wfi, xmtia commands
  uint32_t amo_cycles = 4;
  uint32_t fp_add_cycles = 3;
  uint32_t fp_mul_cycles = 3;
  uint32_t fp_fma_cycles = 4;
  uint32_t fp_div_cycles = 12;
  uint32_t fp_sqrt_cycles = 12;
  uint32_t fp_misc_cycles = 1;  // moves, compares, sign injection, classify, conversions
  // Vector: issue cycles plus ceil(vl * SEW / vec_datapath_bits) beats,
  // each costing the class's beat cycles.
  uint32_t vec_issue_cycles = 1;
  uint32_t vec_datapath_bits = 256;  // bits processed per beat ("lanes" x 32)
  uint32_t vec_alu_beat_cycles = 1;
  uint32_t vec_mul_beat_cycles = 1;
  uint32_t vec_div_beat_cycles = 8;
  uint32_t vec_fp_beat_cycles = 1;
  uint32_t vec_fdiv_beat_cycles = 8;
  uint32_t vec_mem_beat_cycles = 1;
  uint32_t vec_permute_beat_cycles = 2;
  uint32_t vec_reduce_beat_cycles = 2;
  uint32_t sfu_beat_cycles = 4;
};

// Instruction classes the cost model charges (one per decoded instruction).
enum class InsnClass : uint8_t {
  IntAlu,
  Mul,
  Div,
  Load,
  Store,
  Branch,
  Jump,
  Csr,
  System,
  Amo,
  FpAdd,
  FpMul,
  FpFma,
  FpDiv,
  FpSqrt,
  FpMisc,
  VecConfig,
  VecAlu,
  VecMul,
  VecDiv,
  VecFp,
  VecFdiv,
  VecMem,
  VecPermute,
  VecReduce,
  Sfu,
};

// Values of the Xmtia read-only CSRs, set by the command processor before a
// program instance starts.
struct XmtiaIds {
  uint64_t pid[3] = {0, 0, 0};
  uint64_t nprog[3] = {1, 1, 1};
  uint64_t pe_id = 0;
  uint64_t grid_rows = 1;
  uint64_t grid_cols = 1;
  uint64_t sfu_prec_bits = 0;  // SFU mantissa bits; 0 = exact
};

struct HartConfig {
  uint32_t vlen_bits = 128;  // 128..4096, power of two
  uint64_t hartid = 0;
  uint64_t reset_pc = 0x80000000;
  CostModel cost;
  std::optional<uint64_t> tohost_addr;    // HTIF: a store here stops the run
  std::optional<uint64_t> fromhost_addr;  // recorded for completeness
  XmtiaIds xmtia;
  // Decoded-instruction cache, power of two; one entry per 2 bytes of code
  // (1 << 14 covers 32 KiB).
  size_t icache_entries = 1u << 14;
  // The C extension: 16-bit instructions, jump targets and mepc need only
  // 2-byte alignment, misa.C set. Off: 16-bit words are illegal instructions
  // and targets must be 4-byte aligned.
  bool compressed = true;
};

enum class StopReason : uint8_t {
  None,
  InsnLimit,     // max_instructions retired
  CycleBudget,   // budget_cycles spent
  Done,          // xmtia.done
  Tohost,        // a store to tohost
  Trap,          // an exception with mtvec == 0 (no handler)
  Wfi,           // wfi
  AccelBlocked,  // dmawait/dpewait not complete yet: run again to retry the wait
};
const char *stop_reason_name(StopReason r);

struct TrapInfo {
  uint64_t cause = 0;
  uint64_t pc = 0;
  uint64_t tval = 0;
  uint32_t encoding = 0;    // the instruction word at pc (0 if it could not be fetched)
  std::string mnemonic;     // from the tables, empty for an undecodable word
  std::string disassembly;  // "fdiv.s ft0, ft1, ft2" when the word decodes
  // "illegal instruction at pc=0x80000010 (encoding 0xffffffff, ...)"
  std::string describe() const;
};

struct RunResult {
  StopReason reason = StopReason::None;
  uint64_t instructions = 0;  // retired during this call
  uint64_t cycles = 0;        // charged during this call
  uint64_t tohost_value = 0;  // when reason == Tohost
  TrapInfo trap;              // when reason == Trap
};

// An exception raised by a semantics body; caught by the run loop.
struct TrapException {
  uint64_t cause;
  uint64_t tval;
};

class Hart;
using InsnFn = uint64_t (*)(Hart &h, Insn insn, uint64_t pc);  // returns the next pc

class Hart {
 public:
  Hart(const HartConfig &cfg, MemoryIf &mem, AcceleratorIf &accel);
  ~Hart();
  Hart(const Hart &) = delete;
  Hart &operator=(const Hart &) = delete;

  // Reset architectural state (registers 0, pc = reset_pc, CSRs defaults).
  // Also drops the decoded-instruction cache and DMI pointers, unless the
  // caller knows code and memory mappings are unchanged (keep_caches): a PE
  // starting the next program instance of the same launch keeps them.
  void reset(bool keep_caches = false);
  // Run until one of the stop reasons. max_instructions / budget_cycles are
  // counted from this call.
  RunResult run(uint64_t max_instructions, uint64_t budget_cycles = UINT64_MAX);
  // Execute exactly one instruction (for tracing); same stop semantics.
  RunResult step() { return run(1); }

  uint64_t pc() const { return pc_; }
  // Low pc bits a jump target must have clear: 1 with C, else 3.
  uint64_t ialign_mask() const { return ialign_mask_; }
  void set_pc(uint64_t pc) { pc_ = pc; }
  uint64_t xreg(unsigned i) const { return x[i & 31]; }
  void set_xreg(unsigned i, uint64_t v) {
    if (i & 31) x[i & 31] = v;
  }
  uint64_t freg(unsigned i) const { return f[i & 31]; }
  void set_freg(unsigned i, uint64_t v) { f[i & 31] = v; }
  // Vector register i as VLEN/8 bytes.
  const uint8_t *vreg(unsigned i) const { return vregs_ + (i & 31) * vlenb_; }
  uint8_t *vreg_mut(unsigned i) { return vregs_ + (i & 31) * vlenb_; }
  uint32_t vlen_bits() const { return vlenb_ * 8; }
  uint32_t vlenb() const { return vlenb_; }

  // CSR access from outside the guest (debuggers, the command processor).
  // Returns nullopt for an unimplemented CSR.
  std::optional<uint64_t> read_csr(uint16_t num);
  // Writes like the guest would, but may also write read-only CSRs' backing
  // values where that makes sense (mcycle/minstret); false if unimplemented.
  bool write_csr(uint16_t num, uint64_t value);
  void set_xmtia_ids(const XmtiaIds &ids) { xmtia_ = ids; }
  const XmtiaIds &xmtia_ids() const { return xmtia_; }
  // hpmcounter3..31 values come from the model: index is 3..31.
  void set_hpm_reader(std::function<uint64_t(unsigned index)> reader) {
    hpm_reader_ = std::move(reader);
  }
  // `time` CSR source; defaults to the cycle count.
  void set_time_reader(std::function<uint64_t()> reader) { time_reader_ = std::move(reader); }
  // Environment call hook (user-mode test harnesses): called on ecall; if it
  // returns true the ecall is handled and execution continues after it.
  void set_ecall_handler(std::function<bool(Hart &)> handler) {
    ecall_handler_ = std::move(handler);
  }
  // Trace hook called before each instruction executes (slow path: the run
  // loop switches to single-stepping while a hook is set).
  void set_trace_hook(std::function<void(uint64_t pc, uint32_t word)> hook) {
    trace_hook_ = std::move(hook);
  }

  // Drop cached direct-memory regions (the model calls this when a DMI
  // grant is revoked) and decoded instructions (on code changes).
  void invalidate_dmi();
  void flush_icache();
  // Drop the decoded instructions of [addr, addr + bytes) (a timing model's
  // instruction cache evicted that line: the next execution fetches again).
  void forget_code(uint64_t addr, uint64_t bytes);

  uint64_t instret() const { return instret_; }
  uint64_t cycles() const { return cycles_; }
  void add_cycles(uint64_t c) { cycles_ += c; }
  // Cycles the vector datapath spent on element groups (beats; SFU beats
  // and issue cycles excluded), summed over the hart's life.
  uint64_t vector_busy_cycles() const { return vector_busy_cycles_; }
  const HartConfig &config() const { return cfg_; }
  MemoryIf &memory() { return mem_; }
  AcceleratorIf &accel() { return accel_; }

  // ----- architectural state, used directly by the semantics bodies -----
  uint64_t x[32] = {};
  uint64_t f[32] = {};
  uint32_t fflags = 0, frm = 0;
  uint64_t vtype = 0, vl = 0, vstart = 0;
  uint32_t vxrm = 0, vxsat = 0;
  uint64_t mstatus = 0, misa = 0, mtvec = 0, mepc = 0, mcause = 0, mtval = 0, mscratch = 0;
  uint64_t mie = 0, mip = 0, mcounteren = 0, mcountinhibit = 0;
  // mcycle/minstret as the guest sees them = cycles()/instret() + delta
  // (guest writes move the delta, never the run loop's own counters).
  uint64_t mcycle_delta = 0, minstret_delta = 0;
  // Decoded vtype (valid when !vill).
  bool vill = true;
  unsigned vsew_bits = 8;  // 8..64
  int vlmul_log2 = 0;      // -3..3
  bool vta = false, vma = false;

  // ----- helpers for semantics bodies -----
  [[noreturn]] static void raise(uint64_t cause, uint64_t tval) {
    throw TrapException{cause, tval};
  }
  // An accelerator command about to be issued does `units` of work (a DMA's rows and
  // 8-byte words, a DPE command's multiply-adds): they count against the run's
  // instruction limit like instructions, without retiring. Returns false, and stops
  // the run with InsnLimit before the command, when they do not fit the limit.
  bool charge_accel_work(uint64_t units) {
    if (insn_end_ <= instret_ || units > insn_end_ - instret_ - 1) {
      request_stop(StopReason::InsnLimit);
      accel_work_refused_ = true;
      return false;
    }
    if (insn_end_ != UINT64_MAX) insn_end_ -= units;
    return true;
  }
  // True when the last run stopped because a command's work did not fit.
  bool accel_work_refused() const { return accel_work_refused_; }
  // Request the run loop to stop after this instruction.
  void request_stop(StopReason r) {
    stop_ = r;
    insn_end_ = 0;  // ends the run loop after this instruction
  }
  // Charge extra cycles for a vector instruction of class c over vl elements of sew bits.
  void charge_vector(InsnClass c, uint64_t elements, unsigned sew_bits);
  // Charge the cycles of a unit an ISA extension instruction occupies
  // (extension.h); a vector datapath's count as vector busy time too.
  void charge_unit(uint64_t cycles, bool vector_datapath) {
    cycles_ += cycles;
    if (vector_datapath) vector_busy_cycles_ += cycles;
  }
  bool ecall_hook() { return ecall_handler_ && ecall_handler_(*this); }
  uint64_t vlmax() const;
  // Set vtype/vl as vsetvl* does; returns the new vl.
  uint64_t set_vtype(uint64_t vtype_value, uint64_t avl);

  template <class T>
  T load(uint64_t addr) {
    uint64_t off = addr - rd_base_;
    if (off < rd_lim_) [[likely]] {
      T v;
      std::memcpy(&v, rd_host_ + off, sizeof(T));
      return v;
    }
    T v;
    load_slow(addr, &v, sizeof(T));
    return v;
  }
  template <class T>
  void store(uint64_t addr, T v) {
    uint64_t off = addr - wr_base_;
    if (off < wr_lim_ && addr - tohost_ >= tohost_span_) [[likely]] {
      std::memcpy(wr_host_ + off, &v, sizeof(T));
      return;
    }
    store_slow(addr, &v, sizeof(T));
  }
  // Host bytes of [addr, addr + len) when the whole span lies in the direct
  // region loads (or stores) currently use, else nullptr: a bulk copy there
  // does what per-element load()/store() calls would (vector unit-stride
  // accesses). The store span never covers tohost.
  const uint8_t *load_span(uint64_t addr, uint64_t len) const {
    const uint64_t off = addr - rd_base_;
    if (rd_lim_ == 0 || off > rd_lim_ + 7 || len > rd_lim_ + 7 - off) return nullptr;
    return rd_host_ + off;
  }
  uint8_t *store_span(uint64_t addr, uint64_t len) const {
    const uint64_t off = addr - wr_base_;
    if (wr_lim_ == 0 || off > wr_lim_ + 7 || len > wr_lim_ + 7 - off) return nullptr;
    if (tohost_span_ && addr < tohost_ + tohost_span_ && tohost_ < addr + len) return nullptr;
    return wr_host_ + off;
  }
  void load_bytes(uint64_t addr, void *dst, size_t len) { load_slow(addr, dst, len); }
  void store_bytes(uint64_t addr, const void *src, size_t len) { store_slow(addr, src, len); }

  // LR/SC reservation: the address lr loaded, and the value and width it saw.
  // sc succeeds only while memory still holds that value (as QEMU does in user
  // mode), so a store by another hart between lr and sc makes it fail.
  uint64_t reservation = UINT64_MAX;
  uint64_t reservation_value = 0;
  uint8_t reservation_bytes = 0;

 private:
  // How an instruction joins a run (a straight line of cached instructions
  // executed back to back, with instret/cycles added once per run).
  enum class RunRole : uint8_t {
    Plain,  // falls through to pc + 4 and never stops the hart
    Last,   // may branch or stop the hart (branches, jumps, stores, AMOs): ends a run
    Alone,  // reads counters, traps on purpose or stops (CSR, system, illegal): own step
  };
  struct CacheEntry {
    uint64_t pc = UINT64_MAX;
    InsnFn fn = nullptr;
    Insn insn;
    uint32_t cost_cycles = 0;
    RunRole role = RunRole::Alone;
    bool vector = false;           // charges extra cycles as it runs (vector, SFU)
    bool run_vector = false;       // some instruction of the run starting here is vector
    uint8_t run_len = 0;           // instructions in the run starting here; 0 = not formed yet
    uint8_t slots = 2;             // this instruction's bytes / 2 (entries are per 2 bytes)
    uint8_t run_slots = 0;         // entries the run starting here spans
    uint32_t run_cost_cycles = 0;  // static cost of that run
  };
  static constexpr unsigned kMaxRunInsns = 32;
  void load_slow(uint64_t addr, void *dst, size_t len);
  void store_slow(uint64_t addr, const void *src, size_t len);
  CacheEntry &fill(uint64_t pc);
  void form_run(CacheEntry &head);
  uint32_t fetch_word(uint64_t pc);
  bool take_trap(const TrapException &t, uint64_t pc, RunResult &res);
  RunResult run_traced(uint64_t max_instructions, uint64_t budget_cycles);

  HartConfig cfg_;
  MemoryIf &mem_;
  AcceleratorIf &accel_;
  XmtiaIds xmtia_;
  uint64_t pc_ = 0;
  uint64_t instret_ = 0, cycles_ = 0;
  uint64_t vector_busy_cycles_ = 0;
  StopReason stop_ = StopReason::None;
  uint64_t insn_end_ = 0;  // the run loop's instret limit (0 once a stop is requested)
  bool accel_work_refused_ = false;
  uint64_t tohost_value_ = 0;
  uint32_t vlenb_ = 16;
  uint8_t *vregs_ = nullptr;
  std::unique_ptr<uint8_t[]> vreg_storage_;
  std::vector<CacheEntry> icache_;
  // Entries filled since the last flush (indices), unless more fills than
  // entries happened (filled_overflow_: flush clears every entry).
  std::vector<uint32_t> filled_;
  bool filled_overflow_ = false;
  uint64_t icache_mask_ = 0;  // entry of pc: (pc >> 1) & icache_mask_
  uint64_t ialign_mask_ = 1;
  uint32_t class_cost_[32] = {};
  // DMI: loads (rd), stores (wr), fetch (ex). lim = size - 7, 0 if none.
  uint8_t *rd_host_ = nullptr, *wr_host_ = nullptr, *ex_host_ = nullptr;
  uint64_t rd_base_ = 0, wr_base_ = 0, ex_base_ = 0;
  uint64_t rd_lim_ = 0, wr_lim_ = 0, ex_lim_ = 0;
  uint64_t tohost_ = 0, tohost_span_ = 0;
  std::function<uint64_t(unsigned)> hpm_reader_;
  std::function<uint64_t()> time_reader_;
  std::function<bool(Hart &)> ecall_handler_;
  std::function<void(uint64_t, uint32_t)> trace_hook_;

  friend uint64_t csr_read_impl(Hart &h, uint16_t num, bool &ok);
  friend bool csr_write_impl(Hart &h, uint16_t num, uint64_t v);
  friend uint64_t xmtia_tohost_value(Hart &h);
  friend void hart_note_tohost(Hart &h, uint64_t value);
};

}  // namespace opforge::isa
