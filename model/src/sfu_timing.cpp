//===- sfu_timing.cpp - SFU occupancy as a function of its precision ------===//
#include "opforge/model/sfu_timing.h"

#include <algorithm>

namespace opforge::model {

namespace {
constexpr uint32_t kFp32SignificandBits = 24;  // 23 stored + the hidden bit
}

uint32_t sfu_passes(const SfuParams &p, uint32_t precision_bits) {
  const uint32_t per = std::max<uint32_t>(1, p.bits_per_pass);
  const uint32_t bits = precision_bits == 0 ? kFp32SignificandBits
                                            : std::min(precision_bits + 1, kFp32SignificandBits);
  return (bits + per - 1) / per;
}

double sfu_busy_cycles(const SfuParams &p, uint64_t elements) {
  const double rate = double(std::max<uint32_t>(1, p.elements_per_cycle)) *
                      double(sfu_passes(p, 0)) / double(sfu_passes(p, p.precision_bits));
  return double(elements) / rate;
}

}  // namespace opforge::model
