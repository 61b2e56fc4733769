//===- units.cpp - parsing and printing of quantities with units ----------===//
#include "opforge/support/units.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <limits>
#include <optional>
#include <span>

#include "opforge/support/error.h"

namespace opforge::units {
namespace {

struct UnitScale {
  std::string_view name;
  double scale;  // multiplier to the base unit (Hz, B/s, B, ns)
};

constexpr UnitScale kFrequencyUnits[] = {
    {"Hz", 1}, {"kHz", 1e3}, {"MHz", 1e6}, {"GHz", 1e9}, {"THz", 1e12}};
constexpr UnitScale kBandwidthUnits[] = {{"B/s", 1},
                                         {"kB/s", 1e3},
                                         {"KB/s", 1e3},
                                         {"MB/s", 1e6},
                                         {"GB/s", 1e9},
                                         {"TB/s", 1e12},
                                         {"KiB/s", 1024.0},
                                         {"MiB/s", 1048576.0},
                                         {"GiB/s", 1073741824.0},
                                         {"TiB/s", 1099511627776.0}};
constexpr UnitScale kSizeUnits[] = {{"B", 1},
                                    {"KiB", 1024.0},
                                    {"MiB", 1048576.0},
                                    {"GiB", 1073741824.0},
                                    {"TiB", 1099511627776.0},
                                    {"kB", 1e3},
                                    {"KB", 1e3},
                                    {"MB", 1e6},
                                    {"GB", 1e9},
                                    {"TB", 1e12}};
constexpr UnitScale kTimeUnits[] = {{"ps", 1e-3},       {"ns", 1},   {"us", 1e3},
                                    {"\xC2\xB5s", 1e3}, {"ms", 1e6}, {"s", 1e9}};
// Energy in pJ, power in mW, area in mm2 (their canonical units).
constexpr UnitScale kEnergyUnits[] = {{"fJ", 1e-3},       {"pJ", 1},   {"nJ", 1e3}, {"uJ", 1e6},
                                      {"\xC2\xB5J", 1e6}, {"mJ", 1e9}, {"J", 1e12}};
constexpr UnitScale kPowerUnits[] = {{"nW", 1e-6}, {"uW", 1e-3}, {"\xC2\xB5W", 1e-3},
                                     {"mW", 1},    {"W", 1e3},   {"kW", 1e6}};
constexpr UnitScale kAreaUnits[] = {{"um2", 1e-6}, {"um^2", 1e-6}, {"\xC2\xB5m2", 1e-6}, {"mm2", 1},
                                    {"mm^2", 1},   {"cm2", 100},   {"cm^2", 100}};

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

std::string unit_list(std::span<const UnitScale> units) {
  std::string out;
  for (const auto &u : units) {
    if (!out.empty()) out += ", ";
    out += u.name;
  }
  return out;
}

// A number followed by an optional unit. `plain_integer` is set when the
// number is only decimal digits (exact integer arithmetic is possible).
struct Split {
  double value = 0;
  std::string_view number;
  std::string_view unit;
  bool plain_integer = false;
  bool negative = false;
};

[[noreturn]] void fail(std::string_view what, std::string_view text, const std::string &why) {
  throw Error("bad " + std::string(what) + " '" + std::string(text) + "': " + why);
}

Split split(std::string_view what, std::string_view original) {
  std::string_view text = trim(original);
  if (text.empty()) fail(what, original, "empty text");
  size_t i = 0;
  auto digits = [&] {
    size_t start = i;
    while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]))) ++i;
    return i - start;
  };
  Split s;
  if (text[i] == '+' || text[i] == '-') {
    s.negative = text[i] == '-';
    ++i;
  }
  size_t int_digits = digits();
  size_t frac_digits = 0;
  bool has_point = false, has_exp = false;
  if (i < text.size() && text[i] == '.') {
    has_point = true;
    ++i;
    frac_digits = digits();
  }
  if (int_digits + frac_digits == 0) fail(what, original, "expected a number");
  if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
    size_t save = i;
    ++i;
    if (i < text.size() && (text[i] == '+' || text[i] == '-')) ++i;
    if (digits() == 0)
      i = save;  // "5EB"-style: the 'E' starts a unit, not an exponent
    else
      has_exp = true;
  }
  s.number = text.substr(0, i);
  s.unit = trim(text.substr(i));
  s.plain_integer =
      !has_point && !has_exp && s.number.find_first_of("+-") == std::string_view::npos;
  const char *begin = s.number.data();
  if (*begin == '+') ++begin;
  auto [ptr, ec] = std::from_chars(begin, s.number.data() + s.number.size(), s.value);
  if (ec == std::errc::result_out_of_range) fail(what, original, "number out of range");
  if (ec != std::errc() || ptr != s.number.data() + s.number.size())
    fail(what, original, "expected a number");
  if (!std::isfinite(s.value)) fail(what, original, "number out of range");
  return s;
}

const UnitScale *find_unit(std::span<const UnitScale> units, std::string_view name) {
  for (const auto &u : units)
    if (u.name == name) return &u;
  return nullptr;
}

// Parse a non-negative real quantity; a missing unit is an error unless
// `bare_scale` is given.
double parse_real(std::string_view what, std::string_view text, std::span<const UnitScale> units,
                  std::optional<double> bare_scale) {
  Split s = split(what, text);
  if (s.negative && s.value != 0) fail(what, text, "must not be negative");
  double scale;
  if (s.unit.empty()) {
    if (!bare_scale) fail(what, text, "missing unit (expected one of " + unit_list(units) + ")");
    scale = *bare_scale;
  } else {
    const UnitScale *u = find_unit(units, s.unit);
    if (!u)
      fail(what, text,
           "unknown unit '" + std::string(s.unit) + "' (expected one of " + unit_list(units) + ")");
    scale = u->scale;
  }
  double v = s.value * scale;
  if (!std::isfinite(v)) fail(what, text, "value out of range");
  return v;
}

std::string with_unit(double v, std::span<const UnitScale> ladder) {
  // ladder is ordered small to large; choose the largest unit with v/scale >= 1.
  const UnitScale *best = &ladder[0];
  for (const auto &u : ladder)
    if (v >= u.scale) best = &u;
  return format_number(v / best->scale) + std::string(best->name);
}

}  // namespace

std::string_view dimension_name(Dimension d) {
  switch (d) {
    case Dimension::Size:
      return "size";
    case Dimension::Frequency:
      return "frequency";
    case Dimension::Bandwidth:
      return "bandwidth";
    case Dimension::Time:
      return "time";
    case Dimension::Count:
      return "count";
    case Dimension::Energy:
      return "energy";
    case Dimension::Power:
      return "power";
    case Dimension::Area:
      return "area";
  }
  return "?";
}

std::string_view canonical_unit(Dimension d) {
  switch (d) {
    case Dimension::Size:
      return "bytes";
    case Dimension::Frequency:
      return "GHz";
    case Dimension::Bandwidth:
      return "GB/s";
    case Dimension::Time:
      return "ns";
    case Dimension::Count:
      return "count";
    case Dimension::Energy:
      return "pJ";
    case Dimension::Power:
      return "mW";
    case Dimension::Area:
      return "mm2";
  }
  return "?";
}

Frequency parse_frequency(std::string_view text) {
  return {parse_real("frequency", text, kFrequencyUnits, std::nullopt)};
}

Bandwidth parse_bandwidth(std::string_view text) {
  return {parse_real("bandwidth", text, kBandwidthUnits, std::nullopt)};
}

Duration parse_duration(std::string_view text) {
  return {parse_real("time", text, kTimeUnits, std::nullopt)};
}

Size parse_size(std::string_view text) {
  Split s = split("size", text);
  if (s.negative && s.value != 0) fail("size", text, "must not be negative");
  const UnitScale *u = s.unit.empty() ? &kSizeUnits[0] : find_unit(kSizeUnits, s.unit);
  if (!u)
    fail("size", text,
         "unknown unit '" + std::string(s.unit) + "' (expected one of " + unit_list(kSizeUnits) +
             ")");
  if (s.plain_integer) {
    uint64_t n = 0;
    auto [ptr, ec] = std::from_chars(s.number.data(), s.number.data() + s.number.size(), n);
    if (ec != std::errc() || ptr != s.number.data() + s.number.size())
      fail("size", text, "does not fit in 64 bits");
    uint64_t bytes = 0;
    if (__builtin_mul_overflow(n, static_cast<uint64_t>(u->scale), &bytes))
      fail("size", text, "does not fit in 64 bits");
    return {bytes};
  }
  double v = s.value * u->scale;
  if (!(v < 18446744073709551616.0)) fail("size", text, "does not fit in 64 bits");
  double r = std::round(v);
  if (std::fabs(v - r) > 1e-6 * std::max(1.0, r)) fail("size", text, "not a whole number of bytes");
  return {static_cast<uint64_t>(r)};
}

uint64_t parse_count(std::string_view text) {
  Split s = split("count", text);
  if (!s.unit.empty()) fail("count", text, "unexpected unit '" + std::string(s.unit) + "'");
  if (s.negative && s.value != 0) fail("count", text, "must not be negative");
  if (s.plain_integer) {
    uint64_t n = 0;
    auto [ptr, ec] = std::from_chars(s.number.data(), s.number.data() + s.number.size(), n);
    if (ec != std::errc() || ptr != s.number.data() + s.number.size())
      fail("count", text, "does not fit in 64 bits");
    return n;
  }
  if (!(s.value < 18446744073709551616.0)) fail("count", text, "does not fit in 64 bits");
  if (std::floor(s.value) != s.value) fail("count", text, "not a whole number");
  return static_cast<uint64_t>(s.value);
}

double parse_in_canonical_unit(Dimension d, std::string_view text) {
  switch (d) {
    case Dimension::Size:
      return static_cast<double>(parse_size(text).bytes);
    case Dimension::Count:
      return static_cast<double>(parse_count(text));
    case Dimension::Frequency:
      return parse_real("frequency", text, kFrequencyUnits, 1e9) / 1e9;
    case Dimension::Bandwidth:
      return parse_real("bandwidth", text, kBandwidthUnits, 1e9) / 1e9;
    case Dimension::Time:
      return parse_real("time", text, kTimeUnits, 1.0);
    case Dimension::Energy:
      return parse_real("energy", text, kEnergyUnits, 1.0);
    case Dimension::Power:
      return parse_real("power", text, kPowerUnits, 1.0);
    case Dimension::Area:
      return parse_real("area", text, kAreaUnits, 1.0);
  }
  throw Error("unknown dimension");
}

std::string format_number(double v) {
  char buf[64];
  auto [ptr, ec] = std::to_chars(buf, buf + sizeof buf, v);
  if (ec != std::errc()) return "nan";
  return std::string(buf, ptr);
}

std::string format_frequency(Frequency f) { return with_unit(f.hz, kFrequencyUnits); }

std::string format_bandwidth(Bandwidth b) {
  static constexpr UnitScale ladder[] = {
      {"B/s", 1}, {"kB/s", 1e3}, {"MB/s", 1e6}, {"GB/s", 1e9}, {"TB/s", 1e12}};
  return with_unit(b.bytes_per_s, ladder);
}

std::string format_size(Size s) {
  static constexpr std::pair<std::string_view, uint64_t> ladder[] = {
      {"TiB", 1ull << 40}, {"GiB", 1ull << 30}, {"MiB", 1ull << 20}, {"KiB", 1ull << 10}};
  if (s.bytes != 0)
    for (auto [name, scale] : ladder)
      if (s.bytes % scale == 0) return std::to_string(s.bytes / scale) + std::string(name);
  return std::to_string(s.bytes) + "B";
}

std::string format_duration(Duration d) {
  static constexpr UnitScale ladder[] = {
      {"ps", 1e-3}, {"ns", 1}, {"us", 1e3}, {"ms", 1e6}, {"s", 1e9}};
  return with_unit(d.ns, ladder);
}

std::string format_canonical(Dimension d, double v) {
  return format_number(v) + std::string(canonical_unit(d));
}

}  // namespace opforge::units
