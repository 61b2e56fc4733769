//===- pe_accel.h - a PE's DMA engines, DPE and SFU (AcceleratorIf) -------===//
//
// The timed implementation of isa::AcceleratorIf. Data moves when a command
// is issued (loosely timed: the guest must wait before it may rely on the
// result anyway); time is booked on each unit's queue and occupancy model,
// and waits stall the hart until the recorded completion time.
//  - DMA: `engines` engines, each with a queue of `queue_depth` commands; a
//    command costs setup_cycles, then issues burst_bytes bursts at
//    bytes_per_cycle; every burst reads its source and writes its destination
//    through local memory banks or the bus (NoC, SRAM, DRAM). Completion per
//    tag is the latest burst's completion.
//  - DPE: one engine with a queue; its DpeBackend (pe.dpe.impl) computes C
//    and says how many cycles the command occupies it (setup_cycles of
//    latency overlap the previous command). The `tlm` backend uses
//    dpe_tlm_cycles(), the cycle count of the RTL MAC array (docs/rtl/dpe.md).
//    Commands chain (their tiles follow the previous command's in the
//    array's step pipeline, DpeStream) when the command was waiting when the
//    block could take it and its operands do not collide with the rows still
//    to be written (dpe_chain_safe); the open stream's tail is run at
//    dpewait, at the next unchained command and at the end of an instance.
//  - SFU: the hart computes; here it is counted and the core is held for
//    sfu_busy_cycles() (sfu_timing.h: a function of the precision). With
//    pe.sfu.impl = rtl | lockstep an SfuBackend sees the results first and
//    gives the busy time (the verilated SFU lane; docs/rtl/dpe.md).
//
//===----------------------------------------------------------------------===//
#pragma once

#include <array>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "opforge/isa/accel_if.h"
#include "opforge/model/counters.h"
#include "opforge/model/params.h"
#include "opforge/model/timing.h"

namespace opforge::model {

class LocalMemTarget;

// --- DPE implementations (pe.dpe.impl = tlm | rtl | lockstep) -------------

// The DPE's MAC array: rows x cols cells, one bf16/fp16 MAC per cell and
// cycle; rows is the largest power of two with rows^2 <= macs_per_cycle_bf16,
// cols = macs_per_cycle_bf16 / rows (tiny: 8x8, mtia-2i: 32x32).
struct DpeArrayDims {
  uint32_t rows = 1, cols = 1;
};
DpeArrayDims dpe_array_dims(const DpeParams &p);

// Cycles one command occupies the DPE (the RTL block's count, docs/rtl/dpe.md):
// bf16/fp16/int8 with double-buffered accumulators (tile t computes while
// tile t-1 drains and tile t+1 loads): 2 + (accumulate ? r(0) : 0) +
// sum_t max(1, k_beats, r(t-1), accumulate ? r(t+1) : 0) + r(T-1) over the
// T row-major tiles of the array, r(t) the rows of tile t (0 outside),
// k_beats = k (bf16/fp16) or ceil(k / int8_per_cell)
// with int8_per_cell = max(1, macs_per_cycle_int8 / (rows*cols)); fp32 (not
// in the array) takes ceil(m*n*k / macs_per_cycle_fp32).
uint64_t dpe_tlm_cycles(const DpeParams &p, const isa::DpeCommand &cmd);

// Step-level model of the DPE array's pipeline over a stream of chained
// commands (rtl::DpeStreamTiming's twin, docs/rtl/dpe.md "Chaining"): in a
// step, COMP of tile s-1, DRAIN of tile s-2 and LOAD of tile s (accumulating
// tiles) run side by side for max(1, k_beats(s-1), rows(s-2), rows(s))
// cycles. A command's head ends at its pause point, the start of the step
// that loads its last tile, where the block can take the next command; the
// tail runs from there to the edge leaving DONE. head + tail of a command
// alone is dpe_tlm_cycles(). Commands must be of an array dtype (not fp32).
class DpeStream {
 public:
  // A tile in the pipeline and the rectangle of C it writes.
  struct Tile {
    bool on = false, load = false;
    uint32_t rows = 0, cols = 0;
    uint64_t k_beats = 0;
    uint64_t c_addr = 0;     // address of its first C element
    uint64_t ldc_bytes = 0;  // bytes between its rows
  };
  explicit DpeStream(const DpeParams &p);
  // A command on an idle block: cycles from the accepting edge to its pause
  // point (2 and nothing pending when m or n is 0). Throws when pending.
  uint64_t start(const isa::DpeCommand &cmd);
  // A command taken at the pause point: cycles to its own pause point.
  uint64_t chain(const isa::DpeCommand &cmd);
  // Cycles from the pause point to the edge leaving DONE (0: none pending).
  uint64_t finish();
  bool pending() const { return pending_; }
  // At the pause point: the tile in LOAD (the last one handed out; written
  // in the second step after a chained command is taken) and the tile in
  // COMP (written in the first); `on` false for an empty slot.
  const Tile &load_tile() const { return f_; }
  const Tile &comp_tile() const { return c_; }

 private:
  void append(const isa::DpeCommand &cmd);
  Tile pop();
  uint64_t step();

  DpeArrayDims array_;
  uint64_t int8_per_cell_ = 1;
  Tile c_, f_;
  uint32_t d_rows_ = 0;
  std::deque<Tile> gen_;
  bool pending_ = false;
};

// May `next` chain behind the stream paused in `s`? Its A and B must not
// overlap the C rectangles (their byte spans, first to last element) of the
// tiles in COMP and LOAD; when it accumulates, the C of its tile 0 (loaded
// in the step that drains the COMP tile, before the LOAD tile is written)
// must be disjoint from the LOAD tile's and either disjoint from or
// identical to (same address, ldc, rows, cols) the COMP tile's (a row loaded
// in the cycle its old value drains reads the drained row), and its tile 1
// (loaded while the LOAD tile drains) disjoint from or identical to the LOAD
// tile's. Addresses are local-memory addresses.
bool dpe_chain_safe(const DpeStream &s, const DpeParams &p, const isa::DpeCommand &next);

// One checked command for a backend: operand addresses are translated into
// the PE's local memory, whose first byte `local_mem[0]` is at `local_base`.
struct DpeJob {
  isa::DpeCommand cmd;
  std::span<uint8_t> local_mem;
  uint64_t local_base = 0;
  uint32_t pe_row = 0, pe_col = 0;
  uint64_t command_index = 0;  // commands this PE's DPE ran before this one
  double issue_cycle = 0;      // the hart's time at issue (0 in functional mode)
  // Chain behind the paused stream (only for a backend whose chains() is
  // true, with a stream pending); otherwise the block is idle.
  bool chain = false;
};

struct DpeOutcome {
  // Cycles the command occupies the unit; for a backend that chains, its
  // head (to its pause point) or, chained, the cycles it adds to the stream
  // up to its pause point.
  uint64_t busy_cycles = 0;
  bool ok = true;  // false: the run stops with `fault` (a trap)
  std::string fault;
  bool pending = false;  // the stream stays open: finish() runs its tail
};

class DpeBackend {
 public:
  virtual ~DpeBackend() = default;
  // Compute C in local memory and time the command.
  virtual DpeOutcome execute(const DpeJob &job) = 0;
  // Whether commands may chain (DpeJob::chain, DpeOutcome::pending).
  virtual bool chains() const { return false; }
  // Run the open stream's tail: its cycles; every C is complete afterwards.
  virtual DpeOutcome finish() { return {}; }
};

// The C++ DPE: dpe_matmul() numerics, DpeStream timing (dpe_tlm_cycles()
// for a command alone).
class TlmDpeBackend final : public DpeBackend {
 public:
  explicit TlmDpeBackend(const DpeParams &p) : p_(p), stream_(p) {}
  DpeOutcome execute(const DpeJob &job) override;
  bool chains() const override { return true; }
  DpeOutcome finish() override;

 private:
  DpeParams p_;
  DpeStream stream_;
};

// Process-wide options for the DPE backends, set by the front end before the
// Device is built (`opforge chip-sim --trace-rtl pe=R,C --trace-window N`).
struct DpeBackendOptions {
  std::string impl;    // overrides the architecture's impl when not empty
  bool trace = false;  // waveform of one PE's block (RTL backends)
  uint32_t trace_pe_row = 0, trace_pe_col = 0;
  uint64_t trace_window_cycles = 0;  // cycles dumped from the block's first (0: all)
  std::string trace_path;            // FST file; empty: dpe_pe<R>_<C>.fst
};
// Parse a waveform request "pe=ROW,COL[,file=OUT.fst]" (and the window in
// cycles, 0 = all) into options with trace set; throws opforge::Error (path
// --trace-rtl) for a malformed one.
DpeBackendOptions parse_rtl_trace_request(const std::string &spec, uint64_t window_cycles);
void set_dpe_backend_options(DpeBackendOptions options);
const DpeBackendOptions &dpe_backend_options();

// Backends by impl name; `tlm` is built in, opforge_rtl registers `rtl` and
// `lockstep` (rtl::register_model_backends()).
using DpeBackendFactory = std::function<std::unique_ptr<DpeBackend>(
    const ChipParams &p, uint32_t pe_row, uint32_t pe_col, const DpeBackendOptions &options)>;
void register_dpe_backend(const std::string &impl, DpeBackendFactory factory);
std::vector<std::string> dpe_backend_names();
// The backend for a PE; throws opforge::Error (path pe.dpe.impl) for an impl
// nobody registered.
std::unique_ptr<DpeBackend> make_dpe_backend(const std::string &impl, const ChipParams &p,
                                             uint32_t pe_row, uint32_t pe_col);

// --- SFU implementations (pe.sfu.impl = tlm | rtl | lockstep) -------------

// One SFU instruction's elements, computed by the ISS (isa::sfu::evaluate).
struct SfuJob {
  isa::SfuFunc fn = isa::SfuFunc::Exp;
  unsigned prec_bits = 0;  // mantissa bits kept (0 = exact fp32)
  uint64_t pc = 0;
  uint32_t pe_row = 0, pe_col = 0;
  uint64_t instruction_index = 0;                // SFU instructions this PE ran before this one
  std::span<isa::AcceleratorIf::SfuLane> lanes;  // a backend may replace y
};

struct SfuOutcome {
  double busy_cycles = 0;  // cycles the SFU holds the core
  bool ok = true;          // false: the run stops with `fault` (a trap)
  std::string fault;
};

class SfuBackend {
 public:
  virtual ~SfuBackend() = default;
  virtual SfuOutcome execute(const SfuJob &job) = 0;
};

// Backends by impl name. `tlm` is built in and has no backend object (the
// ISS's results, sfu_busy_cycles() timing: make_sfu_backend returns nullptr);
// opforge_rtl registers `rtl` and `lockstep` (rtl::register_model_backends()).
using SfuBackendFactory = std::function<std::unique_ptr<SfuBackend>(
    const ChipParams &p, uint32_t pe_row, uint32_t pe_col)>;
void register_sfu_backend(const std::string &impl, SfuBackendFactory factory);
// Throws opforge::Error (path pe.sfu.impl) for an impl nobody registered.
std::unique_ptr<SfuBackend> make_sfu_backend(const std::string &impl, const ChipParams &p,
                                             uint32_t pe_row, uint32_t pe_col);

// What the accelerators need from their PE.
class PeServices {
 public:
  virtual ~PeServices() = default;
  virtual double now_cycles() = 0;  // the hart's current absolute time
  virtual void stall_until(double t, uint64_t &reason_counter) = 0;
  // The core is held `cycles` more by a unit it waits on in line (the SFU);
  // fractions carry over to the next hold.
  virtual void hold_core(double cycles) = 0;
  // Own local memory alias or window -> window address; others unchanged.
  virtual uint64_t translate(uint64_t addr) const = 0;
  // A timed access outside this PE's local memory, through the bus; false if
  // unmapped. `done` receives the completion time.
  virtual bool global_access(uint64_t addr, void *data, uint64_t len, bool is_write, double t,
                             double &done) = 0;
  // Is [addr, addr + len) mapped at all (after translate)?
  virtual bool mapped(uint64_t addr, uint64_t len) const = 0;
  // May the running launch access [addr, addr + len) (after translate)? False
  // for a bounds-checked launch's access to DRAM/SRAM outside its buffers,
  // with `why` saying so (LaunchBounds::describe_miss).
  virtual bool in_bounds(uint64_t /*addr*/, uint64_t /*len*/, bool /*is_write*/,
                         std::string & /*why*/) {
    return true;
  }
  virtual LocalMemTarget &local_mem() = 0;
};

class PeAccelerator : public isa::AcceleratorIf {
 public:
  PeAccelerator(const ChipParams &p, uint32_t pe, PeServices &svc, CounterRegistry &counters);

  isa::AccelStatus dma_issue(const isa::DmaCommand &cmd) override;
  isa::AccelStatus dma_wait(uint32_t tag) override;
  isa::AccelStatus dpe_issue(const isa::DpeCommand &cmd) override;
  isa::AccelStatus dpe_wait() override;
  void sfu_executed(isa::SfuFunc fn, uint64_t elements) override;
  bool sfu_observes_results() const override { return sfu_backend_ != nullptr; }
  isa::AccelStatus sfu_results(isa::SfuFunc fn, unsigned prec_bits, uint64_t pc,
                               std::span<SfuLane> lanes) override;
  // ISA extension instructions (isa/extension.h): an `sfu` unit one counts
  // as SFU work (sfu.ops, sfu.elements, sfu.busy_cycles += ceil(n /
  // throughput) * occupancy) and holds the core latency + that busy time;
  // a vector unit's time the hart charges (vec.busy_cycles). Untimed: counted only.
  bool ext_executed(const isa::ExtInsn &insn, uint64_t elements) override;

  // Forget outstanding work (a new program instance, or a trap); an open
  // DPE stream is finished first (its rows are written).
  void reset_queues();
  // Latest completion time of anything issued (for the end of an instance);
  // finishes an open DPE stream.
  double drain_time();

  uint64_t &stall_mem_cycles() { return *stall_mem_; }
  const char *last_fault() const { return last_fault_.c_str(); }

 private:
  // One byte range access on the PE's behalf: own local memory directly,
  // everything else through the bus.
  bool move(uint64_t addr, void *data, uint64_t len, bool is_write, double t, double &done);
  // Run the open DPE stream's tail (the backend writes the last rows); false
  // with last_fault_ set when the backend reports a fault.
  bool close_dpe_stream();

  const ChipParams &p_;
  bool timed_;
  PeServices &svc_;
  std::vector<uint8_t> buf_;
  struct Engine {
    Resource issue;
    std::deque<double> inflight;  // completion times
    double busy_until = 0;        // end of the time already counted in dma.busy_cycles
  };
  std::vector<Engine> dma_;
  std::array<double, 16> tag_done_{};
  double dpe_free_ = 0;                   // the block is idle from here (no open stream)
  bool dpe_open_ = false;                 // a stream is paused at dpe_tail_start_
  double dpe_tail_start_ = 0;             // its pause point
  std::unique_ptr<DpeStream> dpe_slots_;  // the open stream's tiles (hazard checks)
  std::unique_ptr<DpeBackend> dpe_backend_;
  uint32_t pe_row_ = 0, pe_col_ = 0;
  uint64_t dpe_command_index_ = 0;
  std::deque<double> dpe_inflight_;
  std::unique_ptr<SfuBackend> sfu_backend_;  // null for `tlm`
  uint64_t sfu_instruction_index_ = 0;
  bool sfu_busy_from_backend_ = false;  // sfu_results() set the next busy time
  double sfu_backend_busy_ = 0;
  double dpe_done_ = 0;
  std::string last_fault_;

  uint64_t *dma_cmds_, *dma_bytes_read_, *dma_bytes_written_, *dma_bad_;
  FracCounter dma_busy_;
  uint64_t *dpe_cmds_, *dpe_macs_, *dpe_bad_, *dpe_chained_;
  uint64_t *dpe_macs_by_dtype_[4];  // indexed by isa::DpeDType (energy per MAC per dtype)
  FracCounter dpe_busy_;
  uint64_t *sfu_ops_, *sfu_elements_;
  FracCounter sfu_busy_;
  uint64_t *stall_dma_wait_, *stall_dpe_wait_, *stall_dma_queue_, *stall_dpe_queue_, *stall_mem_;
};

}  // namespace opforge::model
