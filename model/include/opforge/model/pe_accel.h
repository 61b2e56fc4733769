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

// One checked command for a backend: operand addresses are translated into
// the PE's local memory, whose first byte `local_mem[0]` is at `local_base`.
struct DpeJob {
  isa::DpeCommand cmd;
  std::span<uint8_t> local_mem;
  uint64_t local_base = 0;
  uint32_t pe_row = 0, pe_col = 0;
  uint64_t command_index = 0;  // commands this PE's DPE ran before this one
  double issue_cycle = 0;      // the hart's time at issue (0 in functional mode)
};

struct DpeOutcome {
  uint64_t busy_cycles = 0;  // cycles the command occupies the unit
  bool ok = true;            // false: the run stops with `fault` (a trap)
  std::string fault;
};

class DpeBackend {
 public:
  virtual ~DpeBackend() = default;
  // Compute C in local memory and time the command.
  virtual DpeOutcome execute(const DpeJob &job) = 0;
};

// The C++ DPE: dpe_matmul() numerics, dpe_tlm_cycles() timing.
class TlmDpeBackend final : public DpeBackend {
 public:
  explicit TlmDpeBackend(const DpeParams &p) : p_(p) {}
  DpeOutcome execute(const DpeJob &job) override;

 private:
  DpeParams p_;
};

// Process-wide options for the DPE backends, set by the front end before the
// Device is built (`opforge chip-sim --trace-rtl pe=R,C --trace-window N`).
struct DpeBackendOptions {
  std::string impl;              // overrides the architecture's impl when not empty
  bool trace = false;            // waveform of one PE's block (RTL backends)
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
  uint64_t instruction_index = 0;  // SFU instructions this PE ran before this one
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

  // Forget outstanding work (a new program instance, or a trap).
  void reset_queues();
  // Latest completion time of anything issued (for the end of an instance).
  double drain_time() const;

  uint64_t &stall_mem_cycles() { return *stall_mem_; }
  const char *last_fault() const { return last_fault_.c_str(); }

 private:
  // One byte range access on the PE's behalf: own local memory directly,
  // everything else through the bus.
  bool move(uint64_t addr, void *data, uint64_t len, bool is_write, double t, double &done);

  const ChipParams &p_;
  bool timed_;
  PeServices &svc_;
  std::vector<uint8_t> buf_;
  struct Engine {
    Resource issue;
    std::deque<double> inflight;  // completion times
  };
  std::vector<Engine> dma_;
  std::array<double, 16> tag_done_{};
  Resource dpe_;
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
  uint64_t *dpe_cmds_, *dpe_macs_, *dpe_bad_;
  FracCounter dpe_busy_;
  uint64_t *sfu_ops_, *sfu_elements_;
  FracCounter sfu_busy_;
  uint64_t *stall_dma_wait_, *stall_dpe_wait_, *stall_dma_queue_, *stall_dpe_queue_, *stall_mem_;
};

}  // namespace opforge::model
