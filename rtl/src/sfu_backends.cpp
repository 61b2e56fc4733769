//===- sfu_backends.cpp - the verilated SFU lane as the chip model's SFU (rtl, lockstep) -===//
#include "opforge/rtl/sfu_backends.h"

#include <bit>
#include <sstream>

#include "opforge/model/sfu_timing.h"
#include "opforge/rtl/fp_bits.h"
#include "opforge/rtl/sfu_ref.h"
#include "opforge/rtl/sfu_timing.h"
#include "opforge/support/error.h"

namespace opforge::rtl {
namespace {

// The lane's function code, or -1 for a function the lane does not have.
int lane_func(isa::SfuFunc fn) {
  switch (fn) {
    case isa::SfuFunc::Exp:
      return static_cast<int>(kSfuFuncExp);
    case isa::SfuFunc::Recip:
      return static_cast<int>(kSfuFuncRecip);
    default:
      return -1;
  }
}

const char *func_name(isa::SfuFunc fn) {
  return fn == isa::SfuFunc::Exp ? "exp" : fn == isa::SfuFunc::Recip ? "recip" : "sfu";
}

void describe_bits(std::ostream &os, uint32_t bits) {
  os << "0x" << std::hex << bits << std::dec << " (" << std::bit_cast<float>(bits) << ")";
}

}  // namespace

std::string describe_sfu_job(const model::SfuJob &job) {
  std::ostringstream os;
  os << "pe[" << job.pe_row << "][" << job.pe_col << "] sfu instruction #"
     << job.instruction_index << " at pc 0x" << std::hex << job.pc;
  return os.str();
}

RtlSfuBackend::RtlSfuBackend(const model::ChipParams &p, uint32_t, uint32_t, bool lockstep,
                             bool inject_fault)
    : sfu_(p.sfu), lockstep_(lockstep) {
  lane_.set_inject_fault(inject_fault);
}

model::SfuOutcome RtlSfuBackend::execute(const model::SfuJob &job) {
  const uint64_t n = job.lanes.size();
  const int func = lane_func(job.fn);
  if (func < 0 || n == 0) return model::SfuOutcome{model::sfu_busy_cycles(sfu_, n), true, {}};
  x_.resize(n);
  for (uint64_t i = 0; i < n; ++i) x_[i] = job.lanes[i].x;
  SfuLaneRunResult r;
  try {
    r = lane_.run(static_cast<unsigned>(func), job.prec_bits, x_);
  } catch (const Error &e) {
    return model::SfuOutcome{0, false, "RTL SFU at " + describe_sfu_job(job) + ": " + e.what()};
  }
  // pe.sfu.elements_per_cycle copies of the lane side by side.
  const uint64_t lanes = sfu_.elements_per_cycle > 0 ? sfu_.elements_per_cycle : 1;
  const uint64_t stream = r.cycles > kSfuLaneLatencyCycles ? r.cycles - kSfuLaneLatencyCycles : 0;
  const double busy = double((stream + lanes - 1) / lanes + kSfuLaneLatencyCycles);
  if (lockstep_) {
    uint64_t mismatches = 0, first = 0;
    for (uint64_t i = 0; i < n; ++i) {
      const uint32_t want = job.lanes[i].y, got = r.y_bits[i];
      if (want == got || (fp32_bits_is_nan(want) && fp32_bits_is_nan(got))) continue;
      if (mismatches++ == 0) first = i;
    }
    if (mismatches > 0) {
      const isa::AcceleratorIf::SfuLane &l = job.lanes[first];
      std::ostringstream os;
      os.precision(9);
      os << "SFU lockstep divergence at " << describe_sfu_job(job) << ": " << func_name(job.fn)
         << " prec " << job.prec_bits << " element " << l.index << ": input ";
      describe_bits(os, l.x);
      os << " expected ";
      describe_bits(os, l.y);
      os << " got ";
      describe_bits(os, r.y_bits[first]);
      os << "; " << mismatches << " of " << n << " elements differ (expected: tlm, got: rtl)";
      return model::SfuOutcome{busy, false, os.str()};
    }
  }
  for (uint64_t i = 0; i < n; ++i) job.lanes[i].y = r.y_bits[i];
  return model::SfuOutcome{busy, true, {}};
}

}  // namespace opforge::rtl
