//===- verilated_port.h - lane access to verilated ports of any width -----===//
//
// Verilator maps a port to CData/SData/IData/QData or VlWide<N> by its width;
// these helpers read and write one lane (width <= 32, never straddling a
// 32-bit word) whatever the array parameters made the port.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <bit>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "verilated.h"

namespace opforge::rtl::detail {

// A lane of whole bytes (width and lsb multiples of 8) on a little-endian
// host is one plain store or load of its bytes: the adapters move 16- and
// 32-bit lanes every simulated cycle, so they skip the masked
// read-modify-write of the general case.
inline constexpr bool kLittleEndianHost = std::endian::native == std::endian::little;

template <typename T>
requires std::is_integral_v<T>
inline void put_lane(T &port, unsigned lsb, unsigned width, uint32_t value) {
  if (kLittleEndianHost && width % 8 == 0 && lsb % 8 == 0 && width <= 32) {
    std::memcpy(reinterpret_cast<unsigned char *>(&port) + lsb / 8, &value, width / 8);
    return;
  }
  const uint64_t mask = ((uint64_t{1} << width) - 1) << lsb;
  port = static_cast<T>((static_cast<uint64_t>(port) & ~mask) |
                        ((static_cast<uint64_t>(value) << lsb) & mask));
}

template <std::size_t N>
inline void put_lane(VlWide<N> &port, unsigned lsb, unsigned width, uint32_t value) {
  if (kLittleEndianHost && width % 8 == 0 && lsb % 8 == 0 && width <= 32) {
    std::memcpy(reinterpret_cast<unsigned char *>(port.data()) + lsb / 8, &value, width / 8);
    return;
  }
  EData &word = port.at(lsb / 32);
  const unsigned shift = lsb % 32;
  const uint64_t mask = ((uint64_t{1} << width) - 1) << shift;
  word = static_cast<EData>((word & ~mask) | ((static_cast<uint64_t>(value) << shift) & mask));
}

template <typename T>
requires std::is_integral_v<T>
inline uint32_t get_lane(const T &port, unsigned lsb, unsigned width) {
  return static_cast<uint32_t>((static_cast<uint64_t>(port) >> lsb) & ((uint64_t{1} << width) - 1));
}

template <std::size_t N>
inline uint32_t get_lane(const VlWide<N> &port, unsigned lsb, unsigned width) {
  if (kLittleEndianHost && width == 32 && lsb % 32 == 0) return port.data()[lsb / 32];
  return static_cast<uint32_t>((static_cast<uint64_t>(port.at(lsb / 32)) >> (lsb % 32)) &
                               ((uint64_t{1} << width) - 1));
}

// Write lanes 0..n-1 of 16 bits each (lane i at bits 16*i+15:16*i) from
// `lanes`: one copy of 2*n bytes on a little-endian host. The port must be
// at least 16*n bits wide.
template <typename Port>
inline void put_lanes16(Port &port, const uint16_t *lanes, unsigned n) {
  if constexpr (kLittleEndianHost) {
    static_assert(std::is_trivially_copyable_v<Port>);
    std::memcpy(reinterpret_cast<unsigned char *>(&port), lanes, std::size_t{n} * 2);
  } else {
    for (unsigned i = 0; i < n; ++i) put_lane(port, i * 16, 16, lanes[i]);
  }
}

// Tell a model whose last eval() saw its clock high that the clock is now low
// without evaluating it (the next eval() then sees a rising edge). Only for
// blocks with nothing on the falling edge. Uses Verilator 5's edge-detection
// field; returns false (the caller evaluates) where a model lacks it.
template <typename Root>
inline bool mark_clock_low(Root &root) {
  if constexpr (requires { root.__Vtrigrprev__TOP__clk; }) {
    root.__Vtrigrprev__TOP__clk = 0;
    return true;
  } else {
    return false;
  }
}

}  // namespace opforge::rtl::detail
