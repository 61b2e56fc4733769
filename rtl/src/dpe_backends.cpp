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
    : tlm_(p.dpe), rtl_(block_options(p, pe_row, pe_col, model_options, options)) {
  rtl_.set_inject_fault(options.inject_fault);
}

model::DpeOutcome RtlDpeBackend::run_rtl(const model::DpeJob &job) {
  if (job.cmd.dtype == isa::DpeDType::FP32) return tlm_.execute(job);
  try {
    const DpeRunResult r = rtl_.run(job.cmd, job.local_mem, job.local_base);
    return model::DpeOutcome{r.cycles, true, {}};
  } catch (const Error &e) {
    return model::DpeOutcome{0, false, "RTL DPE at " + describe_dpe_job(job) + ": " + e.what()};
  }
}

model::DpeOutcome RtlDpeBackend::execute(const model::DpeJob &job) { return run_rtl(job); }

model::DpeOutcome LockstepDpeBackend::execute(const model::DpeJob &job) {
  if (job.cmd.dtype == isa::DpeDType::FP32) return tlm_.execute(job);
  // The C++ DPE writes a copy; the RTL writes local memory (its C is kept).
  expected_.assign(job.local_mem.begin(), job.local_mem.end());
  model::DpeJob copy = job;
  copy.local_mem = std::span<uint8_t>(expected_);
  const model::DpeOutcome want = tlm_.execute(copy);
  const model::DpeOutcome got = run_rtl(job);
  if (!got.ok) return got;
  const DpeLockstepResult cmp =
      compare_dpe_results(job.cmd, rtl_.array_shape(), expected_, job.local_mem, job.local_base,
                          want.busy_cycles, got.busy_cycles);
  if (cmp.ok()) return got;
  return model::DpeOutcome{got.busy_cycles, false,
                           "DPE lockstep divergence at " + describe_dpe_job(job) + ": " +
                               cmp.report(job.cmd) + " (expected: tlm, got: rtl)"};
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
