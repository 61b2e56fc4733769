//===- sfu_timing.h - closed-form cycle count of the RTL SFU lane ---------===//
//
// The sfu_lane block takes one element per cycle and returns it one cycle
// later, so a stream of `elements` (never stalled) takes elements + 1 cycles,
// and `lanes` lanes side by side take ceil(elements / lanes) + 1.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstdint>

namespace opforge::rtl {

inline constexpr uint64_t kSfuLaneLatencyCycles = 1;

inline uint64_t sfu_stream_cycles(uint64_t elements, uint64_t lanes = 1) {
  if (elements == 0 || lanes == 0) return 0;
  return (elements + lanes - 1) / lanes + kSfuLaneLatencyCycles;
}

}  // namespace opforge::rtl
