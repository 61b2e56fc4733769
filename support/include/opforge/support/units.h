//===- units.h - quantities with units: parse, check and print ------------===//
//
// Typed values for the quantities a chip configuration speaks in, parsed from
// text such as "1.35GHz", "204.8GB/s", "384KiB", "100ns" or "2048", and
// printed back in one canonical form. Bad text (unknown unit, negative size,
// garbage, overflow) throws opforge::Error naming the text.
//
// Conventions: sizes are binary (KiB = 1024 B) when written with "i" and
// decimal otherwise (kB = 1000 B); bandwidths are decimal (GB/s = 1e9 B/s),
// as memory vendors quote them. A bare number is bytes for a size and a plain
// count for a count; frequencies, bandwidths and times need a unit.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace opforge::units {

struct Frequency {
  double hz = 0;
  double ghz() const { return hz / 1e9; }
  static Frequency from_ghz(double ghz) { return {ghz * 1e9}; }
  friend bool operator==(const Frequency &, const Frequency &) = default;
};

struct Bandwidth {
  double bytes_per_s = 0;
  double gbps() const { return bytes_per_s / 1e9; }  // decimal GB/s
  static Bandwidth from_gbps(double gbps) { return {gbps * 1e9}; }
  friend bool operator==(const Bandwidth &, const Bandwidth &) = default;
};

struct Size {
  uint64_t bytes = 0;
  friend bool operator==(const Size &, const Size &) = default;
};

struct Duration {
  double ns = 0;
  friend bool operator==(const Duration &, const Duration &) = default;
};

// The dimension of a configuration quantity and its canonical unit in config
// files: Size -> bytes, Frequency -> GHz, Bandwidth -> GB/s, Time -> ns,
// Count -> a plain non-negative integer (cycles, elements, ...), Energy -> pJ
// (fJ..J), Power -> mW (nW..kW), Area -> mm2 (um2, mm2, cm2; "mm^2" too).
enum class Dimension { Size, Frequency, Bandwidth, Time, Count, Energy, Power, Area };

std::string_view dimension_name(Dimension d);
// The unit a number of this dimension is expressed in: "bytes", "GHz", ...
std::string_view canonical_unit(Dimension d);

Frequency parse_frequency(std::string_view text);
Bandwidth parse_bandwidth(std::string_view text);
Size parse_size(std::string_view text);
Duration parse_duration(std::string_view text);
uint64_t parse_count(std::string_view text);

// Parse text of dimension d into a number in d's canonical unit (bytes, GHz,
// GB/s, ns, count, pJ, mW, mm2). A bare number is taken as already in the
// canonical unit.
double parse_in_canonical_unit(Dimension d, std::string_view text);

// Canonical printing: the largest unit that keeps the number >= 1 (sizes: the
// largest binary unit that divides exactly), shortest round-trip digits:
// "1.35GHz", "800MHz", "204.8GB/s", "384KiB", "64B", "100ns", "1us".
std::string format_frequency(Frequency f);
std::string format_bandwidth(Bandwidth b);
std::string format_size(Size s);
std::string format_duration(Duration d);
// A number in d's canonical unit with that unit appended: "0.3pJ", "12mW".
std::string format_canonical(Dimension d, double v);

// Shortest text that parses back to exactly v ("1.35", "800", "0.001").
std::string format_number(double v);

}  // namespace opforge::units
