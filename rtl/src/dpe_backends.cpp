//===- dpe_backends.cpp - the verilated DPE as the chip model's DPE (rtl, lockstep) -===//
#include "opforge/rtl/dpe_backends.h"

#include <cstring>
#include <sstream>

#include "opforge/rtl/sfu_backends.h"
#include "opforge/support/error.h"

namespace opforge::rtl {
namespace {

DpeRtlOptions block_options(const model::ChipParams &p, uint32_t pe_row, uint32_t pe_col,
                            const model::DpeBackendOptions &mo, const RtlBackendOptions &o) {
  const model::DpeArrayDims dims = model::dpe_array_dims(p.dpe);
  DpeRtlOptions opts;
  opts.array = DpeArrayShape{dims.rows, dims.cols};
  opts.burst_cycles = o.burst_cycles;
  if (mo.trace && mo.trace_pe_row == pe_row && mo.trace_pe_col == pe_col) {
    opts.trace_path = mo.trace_path.empty() ? "dpe_pe" + std::to_string(pe_row) + "_" +
                                                  std::to_string(pe_col) + ".fst"
                                            : mo.trace_path;
    opts.trace_start_cycle = 0;
    opts.trace_cycles = mo.trace_window_cycles;
  }
  return opts;
}

}  // namespace

std::string describe_dpe_job(const model::DpeJob &job) {
  std::ostringstream os;
  os << "pe[" << job.pe_row << "][" << job.pe_col << "] dpe command #" << job.command_index
     << " (issued at cycle " << static_cast<uint64_t>(job.issue_cycle) << ")";
  return os.str();
}

RtlDpeBackend::RtlDpeBackend(const model::ChipParams &p, uint32_t pe_row, uint32_t pe_col,
                             const model::DpeBackendOptions &model_options,
                             const RtlBackendOptions &options)
    : tlm_(p.dpe),
      rtl_(block_options(p, pe_row, pe_col, model_options, options)),
      pe_row_(pe_row),
      pe_col_(pe_col) {
  rtl_.set_inject_fault(options.inject_fault);
}

model::DpeOutcome RtlDpeBackend::run_rtl(const model::DpeJob &job) {
  if (job.cmd.dtype == isa::DpeDType::FP32) return tlm_.execute(job);
  try {
    const DpeIssueResult r =
        rtl_.issue(job.cmd, job.local_mem, job.local_base, job.chain, job.command_index);
    return model::DpeOutcome{r.cycles, true, {}, r.pending};
  } catch (const Error &e) {
    return model::DpeOutcome{0, false, "RTL DPE at " + describe_dpe_job(job) + ": " + e.what()};
  }
}

model::DpeOutcome RtlDpeBackend::finish_rtl() {
  try {
    return model::DpeOutcome{rtl_.finish(), true, {}};
  } catch (const Error &e) {
    return model::DpeOutcome{0, false, std::string("RTL DPE finishing its stream: ") + e.what()};
  }
}

model::DpeOutcome RtlDpeBackend::execute(const model::DpeJob &job) { return run_rtl(job); }

model::DpeOutcome RtlDpeBackend::finish() { return finish_rtl(); }

LockstepDpeBackend::LockstepDpeBackend(const model::ChipParams &p, uint32_t pe_row, uint32_t pe_col,
                                       const model::DpeBackendOptions &model_options,
                                       const RtlBackendOptions &options)
    : RtlDpeBackend(p, pe_row, pe_col, model_options, options) {
  rtl_.set_retire_callback([this](uint64_t id) { retire(id); });
}

void LockstepDpeBackend::retire(uint64_t command_index) {
  if (inflight_.empty() || inflight_.front().job.command_index != command_index) {
    if (divergence_.empty())
      divergence_ = "DPE lockstep: the RTL retired dpe command #" + std::to_string(command_index) +
                    " out of order";
    return;
  }
  const InFlight &f = inflight_.front();
  const DpeLockstepResult cmp =
      compare_dpe_results(f.job.cmd, rtl_.array_shape(), f.expected, f.job.local_mem,
                          f.job.local_base, f.expected_cycles, f.expected_cycles);
  if (!cmp.ok() && divergence_.empty())
    divergence_ = "DPE lockstep divergence at " + describe_dpe_job(f.job) + ": " +
                  cmp.report(f.job.cmd) + " (expected: tlm, got: rtl)";
  inflight_.pop_front();
}

model::DpeOutcome LockstepDpeBackend::execute(const model::DpeJob &job) {
  if (job.cmd.dtype == isa::DpeDType::FP32) return tlm_.execute(job);
  // The C++ DPE writes a copy of local memory, with the C of the commands
  // still in the block (their last rows not yet written) as it computed
  // them; the RTL writes local memory (its C is kept).
  InFlight f;
  f.job = job;
  f.expected.assign(job.local_mem.begin(), job.local_mem.end());
  for (const InFlight &prev : inflight_) {
    const isa::DpeCommand &c = prev.job.cmd;
    const uint64_t off = c.c - prev.job.local_base;
    for (uint32_t i = 0; i < c.m; ++i) {
      const uint64_t row = off + uint64_t{i} * c.ldc * 4;
      std::memcpy(f.expected.data() + row, prev.expected.data() + row, uint64_t{c.n} * 4);
    }
  }
  model::DpeJob copy = job;
  copy.local_mem = std::span<uint8_t>(f.expected);
  const model::DpeOutcome want = tlm_.execute(copy);
  f.expected_cycles = want.busy_cycles;
  inflight_.push_back(std::move(f));
  const model::DpeOutcome got = run_rtl(job);
  if (!got.ok) {
    inflight_.clear();
    tlm_.finish();
    return got;
  }
  std::string fault;
  if (!divergence_.empty()) {
    fault = divergence_;
  } else if (want.busy_cycles != got.busy_cycles || want.pending != got.pending) {
    std::ostringstream os;
    os << "DPE lockstep divergence at " << describe_dpe_job(job) << ": cycles to the pause point"
       << (job.chain ? " (chained)" : "") << " expected " << want.busy_cycles << " got "
       << got.busy_cycles << (want.pending != got.pending ? "; the stream ended early" : "")
       << " (expected: tlm, got: rtl)";
    fault = os.str();
  }
  if (fault.empty()) return got;
  divergence_.clear();
  return model::DpeOutcome{got.busy_cycles, false, fault, got.pending};
}

model::DpeOutcome LockstepDpeBackend::finish() {
  const model::DpeOutcome want = tlm_.finish();
  const model::DpeOutcome got = finish_rtl();
  inflight_.clear();
  if (!got.ok) return got;
  std::string fault;
  if (!divergence_.empty()) {
    fault = divergence_;
  } else if (want.busy_cycles != got.busy_cycles) {
    fault = "DPE lockstep divergence at pe[" + std::to_string(pe_row_) + "][" +
            std::to_string(pe_col_) + "] dpe stream tail: cycles expected " +
            std::to_string(want.busy_cycles) + " got " + std::to_string(got.busy_cycles) +
            " (expected: tlm, got: rtl)";
  }
  divergence_.clear();
  if (fault.empty()) return got;
  return model::DpeOutcome{got.busy_cycles, false, fault};
}

void register_model_backends(RtlBackendOptions options) {
  for (const bool lockstep : {false, true}) {
    model::register_sfu_backend(
        lockstep ? "lockstep" : "rtl",
        [options, lockstep](const model::ChipParams &p, uint32_t r,
                            uint32_t c) -> std::unique_ptr<model::SfuBackend> {
          return std::make_unique<RtlSfuBackend>(p, r, c, lockstep, options.sfu_inject_fault);
        });
  }
  model::register_dpe_backend(
      "rtl",
      [options](const model::ChipParams &p, uint32_t r, uint32_t c,
                const model::DpeBackendOptions &mo) -> std::unique_ptr<model::DpeBackend> {
        return std::make_unique<RtlDpeBackend>(p, r, c, mo, options);
      });
  model::register_dpe_backend(
      "lockstep",
      [options](const model::ChipParams &p, uint32_t r, uint32_t c,
                const model::DpeBackendOptions &mo) -> std::unique_ptr<model::DpeBackend> {
        return std::make_unique<LockstepDpeBackend>(p, r, c, mo, options);
      });
}

}  // namespace opforge::rtl
