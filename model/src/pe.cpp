//===- pe.cpp - PE run loop, memory adapter, quantum keeping --------------===//
#include "opforge/model/pe.h"

#include <algorithm>
#include <cmath>
#include <sstream>

namespace opforge::model {

// hpmcounter3.. read these PE counters (docs/model/counters.md).
static const char *kHpmCounters[] = {
    "dma.bytes_read",         "dma.bytes_written",     "dpe.macs",
    "sfu.elements",           "stall.mem_cycles",      "stall.dma_wait_cycles",
    "stall.dpe_wait_cycles",  "lmem.bytes_read",       "lmem.bytes_written",
    "dma.commands",           "dpe.commands",          "vec.busy_cycles",
    "dma.busy_cycles",        "dpe.busy_cycles",       "sfu.busy_cycles",
    "stall.dma_queue_cycles", "stall.dpe_queue_cycles"};

isa::CostModel Pe::cost_model(const ChipParams &p) {
  isa::CostModel m;
  if (p.sim.timing == TimingMode::Functional) {
    // No timing: one cycle per instruction, whatever its kind or length.
    m.int_alu_cycles = m.mul_cycles = m.div_cycles = m.load_cycles = m.store_cycles = 1;
    m.branch_cycles = m.jump_cycles = m.csr_cycles = m.system_cycles = m.amo_cycles = 1;
    m.fp_add_cycles = m.fp_mul_cycles = m.fp_fma_cycles = m.fp_div_cycles = m.fp_sqrt_cycles = 1;
    m.fp_misc_cycles = 1;
    m.vec_issue_cycles = 1;
    m.vec_datapath_bits = p.core.vlen_bits * 8;  // every instruction is one beat
    m.vec_alu_beat_cycles = m.vec_mul_beat_cycles = m.vec_div_beat_cycles = 0;
    m.vec_fp_beat_cycles = m.vec_fdiv_beat_cycles = m.vec_mem_beat_cycles = 0;
    m.vec_permute_beat_cycles = m.vec_reduce_beat_cycles = m.sfu_beat_cycles = 0;
    return m;
  }
  // Scalar classes map one to one; the ISS charges one cost for every
  // conditional branch (not-taken) and jumps at the taken-branch cost.
  const ScalarTimingConfig &c = p.arch.pe.scalar_timing;
  m.int_alu_cycles = c.int_alu_cycles;
  m.mul_cycles = c.int_mul_cycles;
  m.div_cycles = c.int_div_cycles;
  m.load_cycles = c.load_cycles;
  m.store_cycles = c.store_cycles;
  m.branch_cycles = c.branch_not_taken_cycles;
  m.jump_cycles = c.branch_taken_cycles;
  m.csr_cycles = c.csr_cycles;
  m.system_cycles = c.csr_cycles;
  m.amo_cycles = c.load_cycles + c.store_cycles;
  m.fp_add_cycles = c.fp_add_cycles;
  m.fp_mul_cycles = c.fp_mul_cycles;
  m.fp_fma_cycles = c.fp_fma_cycles;
  m.fp_div_cycles = c.fp_div_cycles;
  m.fp_sqrt_cycles = c.fp_sqrt_cycles;
  m.fp_misc_cycles = c.fp_add_cycles;  // moves, compares, conversions
  // Vector: startup + beats * class cycles, a beat being one element group
  // of lanes x 32 bits (ArchConfig::vector_op_cycles). The ISS has one beat
  // cost per wider class: the slowest of its ArchConfig members.
  const VectorTimingConfig &v = p.arch.pe.vector_timing;
  m.vec_issue_cycles = v.startup_cycles;
  m.vec_datapath_bits = p.core.vec_lanes * 32;
  m.vec_alu_beat_cycles = v.int_alu_cycles;
  m.vec_mul_beat_cycles = v.int_mul_cycles;
  m.vec_div_beat_cycles = v.int_div_cycles;
  m.vec_fp_beat_cycles = std::max({v.fp_add_cycles, v.fp_mul_cycles, v.fp_fma_cycles});
  m.vec_fdiv_beat_cycles = std::max(v.fp_div_cycles, v.fp_sqrt_cycles);
  m.vec_mem_beat_cycles = std::max(v.load_cycles, v.store_cycles);
  m.vec_permute_beat_cycles = v.permute_cycles;
  m.vec_reduce_beat_cycles = v.fp_add_cycles + v.reduction_step_cycles;
  // The SFU's time depends on its precision: PeAccelerator::sfu_executed
  // holds the core for sfu_instruction_cycles() (sfu_timing.h), not the ISS.
  m.sfu_beat_cycles = 0;
  return m;
}

Pe::Pe(sc_core::sc_module_name name, const ChipParams &p, uint32_t id, const MemoryMap &map,
       CommandProcessor &cp, CounterRegistry &counters)
    : sc_module(name),
      socket("socket"),
      lmem("lmem", p, id, counters),
      p_(p),
      id_(id),
      map_(map),
      cp_(cp),
      clk_(p),
      timed_(p.sim.timing == TimingMode::Lt),
      accel_(p, id, *this, counters),
      counters_(counters),
      icache_(p.arch.pe.icache.size_bytes, p.arch.pe.icache.line_bytes, p.arch.pe.icache.ways) {
  std::string pre = pe_prefix(id / p.grid.cols, id % p.grid.cols) + ".";
  instret_ = &counters.add(pre + "core.instret");
  cycles_ = &counters.add(pre + "core.cycles");
  programs_ = &counters.add(pre + "core.programs");
  traps_ = &counters.add(pre + "core.traps");
  idle_cycles_ = &counters.add(pre + "core.start_cycles");
  vec_busy_ = &counters.add(pre + "vec.busy_cycles");
  icache_hits_ = &counters.add(pre + "icache.hits");
  icache_misses_ = &counters.add(pre + "icache.misses");
  stall_ifetch_ = &counters.add(pre + "stall.ifetch_cycles");
  line_buf_.resize(icache_.line_bytes());
  for (const char *n : kHpmCounters) hpm_index_.push_back(size_t(counters.find(pre + n)));
  vec_busy_hpm_ = size_t(counters.find(pre + "vec.busy_cycles"));

  isa::HartConfig &hc = hart_cfg_;
  hc.vlen_bits = p.core.vlen_bits;
  hc.hartid = id;
  hc.cost = cost_model(p);
  hc.xmtia.grid_rows = p.grid.rows;
  hc.xmtia.grid_cols = p.grid.cols;
  hc.xmtia.pe_id = id;
  hc.xmtia.sfu_prec_bits = p.sfu.precision_bits;
  set_tohost(std::nullopt);
  qk_.set_global_quantum(clk_.time(double(p.sim.quantum_cycles)));
  tr_.set_byte_enable_ptr(nullptr);
  tr_.set_dmi_allowed(false);
  SC_THREAD(thread);
}

void Pe::set_tohost(std::optional<uint64_t> addr) {
  if (hart_ && hart_cfg_.tohost_addr == addr) return;
  hart_cfg_.tohost_addr = addr;
  hart_ = std::make_unique<isa::Hart>(hart_cfg_, *this, accel_);
  vec_busy_seen_ = 0;
  hart_->set_hpm_reader([this](unsigned index) -> uint64_t {
    unsigned i = index - 3;
    if (i >= hpm_index_.size()) return 0;
    uint64_t v = counters_.value_at(hpm_index_[i]);
    // The hart's vector busy time since the last fold into the registry.
    if (hpm_index_[i] == vec_busy_hpm_) v += hart_->vector_busy_cycles() - vec_busy_seen_;
    return v;
  });
  hart_->set_time_reader([this] { return uint64_t(now_cycles()); });
}

Pe::~Pe() = default;

double Pe::now_cycles() { return base_abs_ + double(hart_->cycles() - base_hart_); }

void Pe::stall_until(double t, uint64_t &reason_counter) {
  double now = now_cycles();
  if (t <= now) return;
  uint64_t c = uint64_t(std::ceil(t - now));
  hart_->add_cycles(c);
  reason_counter += c;
}

void Pe::hold_core(double cycles) {
  hold_carry_ += cycles;
  const double whole = std::floor(hold_carry_);
  hold_carry_ -= whole;
  hart_->add_cycles(uint64_t(whole));
}

bool Pe::global_access(uint64_t addr, void *data, uint64_t len, bool is_write, double t,
                       double &done) {
  tr_.set_command(is_write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND);
  tr_.set_address(addr);
  tr_.set_data_ptr(static_cast<unsigned char *>(data));
  tr_.set_data_length(unsigned(len));
  tr_.set_streaming_width(unsigned(len));
  tr_.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
  sc_core::sc_time delay = clk_.delay_until(t);
  socket->b_transport(tr_, delay);
  done = clk_.cycles(sc_core::sc_time_stamp() + delay);
  return tr_.is_response_ok();
}

bool Pe::bounds_ok(uint64_t a, uint64_t len, bool is_write) {
  const LaunchBounds &b = cp_.spec().bounds;
  if (!b.active() || b.allows(a, len, is_write)) return true;
  // Only shared memory is checked; local windows and unmapped addresses are
  // left to the bus (an unmapped access faults there).
  const MemoryMap::Range *r = map_.decode(a, len);
  if (!r || r->kind == MemoryMap::Kind::Local) return true;
  out_of_bounds_ = b.describe_miss(a, len, is_write);
  return false;
}

bool Pe::in_bounds(uint64_t addr, uint64_t len, bool is_write, std::string &why) {
  if (bounds_ok(addr, len, is_write)) return true;
  why = out_of_bounds_;
  return false;
}

bool Pe::load(uint64_t addr, void *dst, size_t len) {
  uint64_t a = translate(addr);
  if (lmem.contains(a, len)) {
    std::memcpy(dst, lmem.data() + (a - lmem.base()), len);
    return true;
  }
  if (!bounds_ok(a, len, false)) return false;
  double now = now_cycles(), done = now;
  if (!global_access(a, dst, len, false, now, done)) return false;
  if (timed_) stall_until(done, accel_.stall_mem_cycles());
  return true;
}

bool Pe::fetch(uint64_t addr, void *dst, size_t len) {
  uint64_t a = translate(addr);
  if (!timed_ || lmem.contains(a, len)) return load(addr, dst, len);
  // The model is keyed by the hart's PC, the address its decoded cache knows.
  const uint64_t off = addr - icache_.line_of(addr);
  if (off + len > line_buf_.size()) return load(addr, dst, len);  // straddles a line
  uint64_t evicted = UINT64_MAX;
  if (icache_.lookup(addr, evicted)) {
    // Resident: the bytes come with no time (fetch is pipelined behind execution).
    ++*icache_hits_;
    tr_.set_command(tlm::TLM_READ_COMMAND);
    tr_.set_address(a);
    tr_.set_data_ptr(static_cast<unsigned char *>(dst));
    tr_.set_data_length(unsigned(len));
    tr_.set_streaming_width(unsigned(len));
    return socket->transport_dbg(tr_) == len;
  }
  // Miss: the evicted line's instructions must be fetched again when they run
  // next, so the hart forgets their decoded form.
  ++*icache_misses_;
  if (evicted != UINT64_MAX) hart_->forget_code(evicted, icache_.line_bytes());
  // One transaction of a whole line through the fabric; the core waits for it.
  double now = now_cycles(), done = now;
  if (!global_access(a - off, line_buf_.data(), line_buf_.size(), false, now, done))
    return load(addr, dst, len);  // part of the line is unmapped: fetch (or fault on) the word
  stall_until(done, *stall_ifetch_);
  std::memcpy(dst, line_buf_.data() + off, len);
  return true;
}

bool Pe::store(uint64_t addr, const void *src, size_t len) {
  uint64_t a = translate(addr);
  if (lmem.contains(a, len)) {
    std::memcpy(lmem.data() + (a - lmem.base()), src, len);
    return true;
  }
  if (!bounds_ok(a, len, true)) return false;
  double now = now_cycles(), done = now;
  // Stores are posted: the core does not wait for them.
  return global_access(a, const_cast<void *>(src), len, true, now, done);
}

isa::DmiRegion Pe::dmi(uint64_t addr) {
  if (addr - map_.alias_base() < map_.local_bytes())
    return {lmem.data(), map_.alias_base(), lmem.size_bytes(), true};
  if (lmem.contains(addr, 1)) return {lmem.data(), lmem.base(), lmem.size_bytes(), true};
  if (timed_) return {};
  tlm::tlm_generic_payload tr;
  tr.set_address(addr);
  tr.set_command(tlm::TLM_READ_COMMAND);
  tlm::tlm_dmi d;
  if (!socket->get_direct_mem_ptr(tr, d)) return {};
  isa::DmiRegion r{d.get_dmi_ptr(), d.get_start_address(),
                   d.get_end_address() - d.get_start_address() + 1, d.is_write_allowed()};
  const LaunchBounds &b = cp_.spec().bounds;
  if (b.active()) {
    // Direct access only within the launch region holding addr, so that the
    // hart's fast path stays inside the bounds; outside any, load()/store()
    // check and fault.
    const LaunchBuffer *g = b.at(addr);
    if (!g || !r.contains(addr, 1)) return {};
    const uint64_t lo = std::max(r.base, g->addr);
    const uint64_t hi = std::min(r.base + (r.size - 1), g->addr + (g->bytes - 1));  // inclusive
    r.host += lo - r.base;
    r.base = lo;
    r.size = hi - lo + 1;
    r.writable = r.writable && g->writable;
  }
  return r;
}

std::string Pe::where() const { return pe_prefix(id_ / p_.grid.cols, id_ % p_.grid.cols); }

void Pe::thread() {
  for (;;) {
    ProgramInstance inst;
    while (!cp_.next(id_, inst)) sc_core::wait(cp_.start_event());
    run_instance(inst);
  }
}

void Pe::run_instance(const ProgramInstance &inst) {
  isa::Hart &h = *hart_;
  // A new launch may bring new code and mappings; later instances of the same
  // launch keep the decoded-instruction cache and DMI pointers.
  const bool same_launch = generation_ == cp_.generation();
  generation_ = cp_.generation();
  const LaunchSpec &spec = cp_.spec();
  h.reset(/*keep_caches=*/same_launch);
  if (!same_launch) icache_.invalidate();  // the launch may bring new code
  h.set_pc(spec.entry);
  h.set_xreg(10, spec.args_addr);                         // a0
  h.set_xreg(2, map_.alias_base() + map_.local_bytes());  // sp: top of local memory
  isa::XmtiaIds ids = h.xmtia_ids();
  for (int i = 0; i < 3; ++i) ids.pid[i] = inst.pid[i];
  ids.nprog[0] = spec.grid.x;
  ids.nprog[1] = spec.grid.y;
  ids.nprog[2] = spec.grid.z;
  h.set_xmtia_ids(ids);
  accel_.reset_queues();
  out_of_bounds_.clear();
  hold_carry_ = 0;
  ++*programs_;

  InstanceRecord rec;
  std::copy(inst.pid, inst.pid + 3, rec.pid);
  rec.pe = id_;
  qk_.sync();
  if (timed_ && p_.cp.program_start_cycles) {
    sc_core::wait(clk_.time(p_.cp.program_start_cycles));
    *idle_cycles_ += p_.cp.program_start_cycles;
  }
  rec.start_cycle = uint64_t(std::llround(clk_.cycles(sc_core::sc_time_stamp())));
  uint64_t budget = p_.sim.quantum_cycles;
  for (;;) {
    base_abs_ = clk_.cycles(sc_core::sc_time_stamp() + qk_.get_local_time());
    base_hart_ = h.cycles();
    isa::RunResult res = h.run(UINT64_MAX, budget);
    uint64_t elapsed = h.cycles() - base_hart_;
    *vec_busy_ += h.vector_busy_cycles() - vec_busy_seen_;
    vec_busy_seen_ = h.vector_busy_cycles();
    *instret_ += res.instructions;
    *cycles_ += elapsed;
    rec.instructions += res.instructions;
    qk_.inc(clk_.time(double(elapsed)));
    bool stop = true;
    switch (res.reason) {
      case isa::StopReason::Done:
        rec.status = InstanceStatus::Done;
        break;
      case isa::StopReason::Tohost:
        rec.status = InstanceStatus::Tohost;
        rec.tohost_value = res.tohost_value;
        break;
      case isa::StopReason::Trap: {
        rec.status = InstanceStatus::Trap;
        rec.pc = res.trap.pc;
        rec.ra = h.xreg(1);
        rec.cause = res.trap.cause;
        rec.addr = res.trap.tval;
        std::ostringstream m;
        m << where() << ": " << res.trap.describe();
        if (*accel_.last_fault())
          m << " [" << accel_.last_fault() << "]";
        else if (!out_of_bounds_.empty())
          m << " [" << out_of_bounds_ << "]";
        rec.message = m.str();
        rec.out_of_bounds = out_of_bounds_;
        ++*traps_;
        break;
      }
      case isa::StopReason::Wfi:
        rec.status = InstanceStatus::Trap;
        rec.pc = h.pc();
        rec.message = where() + ": wfi with no interrupt source (the program can never resume)";
        ++*traps_;
        break;
      default:
        stop = false;  // budget spent, or a blocked wait to retry
    }
    if (stop) break;
    double now = clk_.cycles(sc_core::sc_time_stamp() + qk_.get_local_time());
    if (now - cp_.start_cycle() > double(p_.sim.watchdog_cycles)) {
      rec.status = InstanceStatus::Watchdog;
      rec.pc = h.pc();
      std::ostringstream m;
      m << where() << ": watchdog: still running after " << p_.sim.watchdog_cycles
        << " cycles (pc=0x" << std::hex << h.pc() << ")";
      rec.message = m.str();
      cp_.abort();
      break;
    }
    if (qk_.need_sync()) qk_.sync();
  }
  // The PE is free once its outstanding DMA/DPE work has drained.
  double end = std::max(clk_.cycles(sc_core::sc_time_stamp() + qk_.get_local_time()),
                        timed_ ? accel_.drain_time() : 0.0);
  qk_.set(clk_.delay_until(end));
  qk_.sync();
  rec.end_cycle = uint64_t(std::llround(clk_.cycles(sc_core::sc_time_stamp())));
  cp_.finished(std::move(rec));
}

}  // namespace opforge::model
