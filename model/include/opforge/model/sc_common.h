//===- sc_common.h - SystemC/TLM includes and time conversion for units ---===//
//
// Included only by model sources and tests (never by device.h). Transaction
// times travel as TLM annotated delays; units convert them to absolute
// core-clock cycles (ChipClock) to run their occupancy models.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cmath>
#include <cstdint>

#include <systemc>
#include <tlm>
#include <tlm_utils/multi_passthrough_initiator_socket.h>
#include <tlm_utils/multi_passthrough_target_socket.h>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include "opforge/model/params.h"

namespace opforge::model {

// The core clock period rounded to SystemC's 1 ps resolution; every
// conversion uses the same period so cycles stay integral in SystemC time.
struct ChipClock {
  explicit ChipClock(const ChipParams &p)
      : period_ps(std::max<uint64_t>(1, uint64_t(std::llround(p.cycle_ps())))),
        period(double(period_ps), sc_core::SC_PS) {}
  uint64_t period_ps;
  sc_core::sc_time period;

  double cycles(const sc_core::sc_time &t) const { return double(t.value()) / double(period_ps); }
  double now_cycles(const sc_core::sc_time &delay) const {
    return cycles(sc_core::sc_time_stamp() + delay);
  }
  sc_core::sc_time time(double cycles) const {
    return sc_core::sc_time::from_value(uint64_t(std::ceil(cycles * double(period_ps))));
  }
  // The annotated delay for an absolute completion time (never negative).
  sc_core::sc_time delay_until(double abs_cycles) const {
    sc_core::sc_time t = time(abs_cycles), now = sc_core::sc_time_stamp();
    return t > now ? t - now : sc_core::SC_ZERO_TIME;
  }
  double freq_ghz() const { return 1000.0 / double(period_ps); }
};

}  // namespace opforge::model
