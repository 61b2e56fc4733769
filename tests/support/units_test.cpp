//===- units_test.cpp - parsing and printing quantities with units --------===//
#include "opforge/support/units.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "opforge/support/error.h"

using namespace opforge;
using namespace opforge::units;
using ::testing::HasSubstr;

namespace {

// The message of the opforge::Error thrown by f, or "" if none was thrown.
template <class F>
std::string error_of(F f) {
  try {
    f();
  } catch (const Error &e) {
    return e.what();
  }
  return "";
}

TEST(Units, ParsesFrequencies) {
  EXPECT_DOUBLE_EQ(parse_frequency("1.35GHz").hz, 1.35e9);
  EXPECT_DOUBLE_EQ(parse_frequency("800MHz").ghz(), 0.8);
  EXPECT_DOUBLE_EQ(parse_frequency(" 100 kHz ").hz, 1e5);
  EXPECT_DOUBLE_EQ(parse_frequency("2Hz").hz, 2);
}

TEST(Units, ParsesBandwidthsInDecimalGigabytes) {
  EXPECT_DOUBLE_EQ(parse_bandwidth("204.8GB/s").bytes_per_s, 204.8e9);
  EXPECT_DOUBLE_EQ(parse_bandwidth("800GB/s").gbps(), 800);
  EXPECT_DOUBLE_EQ(parse_bandwidth("2.7TB/s").gbps(), 2700);
  EXPECT_DOUBLE_EQ(parse_bandwidth("1GiB/s").bytes_per_s, 1073741824.0);
}

TEST(Units, ParsesBinaryDecimalAndPlainSizes) {
  EXPECT_EQ(parse_size("384KiB").bytes, 384u * 1024);
  EXPECT_EQ(parse_size("256MiB").bytes, 256ull << 20);
  EXPECT_EQ(parse_size("128GiB").bytes, 128ull << 30);
  EXPECT_EQ(parse_size("64B").bytes, 64u);
  EXPECT_EQ(parse_size("2048").bytes, 2048u);
  EXPECT_EQ(parse_size("2kB").bytes, 2000u);
  EXPECT_EQ(parse_size("3MB").bytes, 3000000u);
  EXPECT_EQ(parse_size("1GB").bytes, 1000000000u);
  EXPECT_EQ(parse_size("1.5KiB").bytes, 1536u);
  EXPECT_EQ(parse_size("15TiB").bytes, 15ull << 40);
}

TEST(Units, ParsesTimes) {
  EXPECT_DOUBLE_EQ(parse_duration("100ns").ns, 100);
  EXPECT_DOUBLE_EQ(parse_duration("1us").ns, 1000);
  EXPECT_DOUBLE_EQ(parse_duration("2ms").ns, 2e6);
  EXPECT_DOUBLE_EQ(parse_duration("500ps").ns, 0.5);
  EXPECT_DOUBLE_EQ(parse_duration("1s").ns, 1e9);
}

TEST(Units, ParsesCounts) {
  EXPECT_EQ(parse_count("0"), 0u);
  EXPECT_EQ(parse_count("18446744073709551615"), UINT64_MAX);
  EXPECT_EQ(parse_count("1e6"), 1000000u);
}

TEST(Units, RejectsUnknownUnitsNamingTheText) {
  EXPECT_THAT(error_of([] { parse_size("12XB"); }), HasSubstr("'12XB'"));
  EXPECT_THAT(error_of([] { parse_size("12XB"); }), HasSubstr("unknown unit 'XB'"));
  EXPECT_THAT(error_of([] { parse_frequency("3GHZ"); }), HasSubstr("unknown unit 'GHZ'"));
  EXPECT_THAT(error_of([] { parse_bandwidth("3GB"); }), HasSubstr("unknown unit 'GB'"));
  EXPECT_THAT(error_of([] { parse_duration("3 fortnights"); }), HasSubstr("unknown unit"));
  EXPECT_THAT(error_of([] { parse_count("12 cycles"); }), HasSubstr("unexpected unit"));
}

TEST(Units, RejectsNegativeValues) {
  EXPECT_THAT(error_of([] { parse_size("-1KiB"); }), HasSubstr("'-1KiB': must not be negative"));
  EXPECT_THAT(error_of([] { parse_frequency("-1GHz"); }), HasSubstr("negative"));
  EXPECT_THAT(error_of([] { parse_count("-3"); }), HasSubstr("negative"));
}

TEST(Units, RejectsGarbageAndMissingUnits) {
  EXPECT_THAT(error_of([] { parse_size(""); }), HasSubstr("empty"));
  EXPECT_THAT(error_of([] { parse_size("KiB"); }), HasSubstr("expected a number"));
  EXPECT_THAT(error_of([] { parse_size("abc"); }), HasSubstr("'abc'"));
  EXPECT_THAT(error_of([] { parse_frequency("1.35"); }), HasSubstr("missing unit"));
  EXPECT_THAT(error_of([] { parse_size("1.3B"); }), HasSubstr("whole number of bytes"));
  EXPECT_THAT(error_of([] { parse_count("2.5"); }), HasSubstr("whole number"));
  EXPECT_THAT(error_of([] { parse_size("1..2KiB"); }), HasSubstr("unknown unit"));
}

TEST(Units, RejectsOverflow) {
  EXPECT_THAT(error_of([] { parse_size("16384PiB"); }), HasSubstr("unknown unit 'PiB'"));
  EXPECT_THAT(error_of([] { parse_size("17179869184GiB"); }), HasSubstr("64 bits"));
  EXPECT_THAT(error_of([] { parse_size("99999999999999999999"); }), HasSubstr("64 bits"));
  EXPECT_THAT(error_of([] { parse_size("2e19B"); }), HasSubstr("64 bits"));
  EXPECT_THAT(error_of([] { parse_count("18446744073709551616"); }), HasSubstr("64 bits"));
  EXPECT_THAT(error_of([] { parse_frequency("1e999GHz"); }), HasSubstr("out of range"));
}

TEST(Units, PrintsCanonicalForms) {
  EXPECT_EQ(format_frequency(parse_frequency("1.35GHz")), "1.35GHz");
  EXPECT_EQ(format_frequency(parse_frequency("800MHz")), "800MHz");
  EXPECT_EQ(format_frequency(parse_frequency("0.8GHz")), "800MHz");
  EXPECT_EQ(format_bandwidth(parse_bandwidth("204.8GB/s")), "204.8GB/s");
  EXPECT_EQ(format_bandwidth(parse_bandwidth("2700GB/s")), "2.7TB/s");
  EXPECT_EQ(format_size(parse_size("384KiB")), "384KiB");
  EXPECT_EQ(format_size(parse_size("262144KiB")), "256MiB");
  EXPECT_EQ(format_size(parse_size("2048")), "2KiB");
  EXPECT_EQ(format_size(parse_size("64B")), "64B");
  EXPECT_EQ(format_size(parse_size("1kB")), "1000B");
  EXPECT_EQ(format_duration(parse_duration("100ns")), "100ns");
  EXPECT_EQ(format_duration(parse_duration("1000ns")), "1us");
  EXPECT_EQ(format_duration(parse_duration("2ms")), "2ms");
}

TEST(Units, CanonicalFormsParseBackExactly) {
  for (const char *t : {"1.35GHz", "800MHz", "3.3GHz", "1.1GHz"})
    EXPECT_EQ(parse_frequency(format_frequency(parse_frequency(t))), parse_frequency(t)) << t;
  for (const char *t : {"204.8GB/s", "176GB/s", "0.5GB/s", "1.6TB/s"})
    EXPECT_EQ(parse_bandwidth(format_bandwidth(parse_bandwidth(t))), parse_bandwidth(t)) << t;
  for (uint64_t b : {0ull, 1ull, 1023ull, 1024ull, 3ull << 30, (1ull << 62) + 1})
    EXPECT_EQ(parse_size(format_size({b})).bytes, b) << b;
}

TEST(Units, ConvertsToTheCanonicalConfigUnit) {
  EXPECT_DOUBLE_EQ(parse_in_canonical_unit(Dimension::Frequency, "800MHz"), 0.8);
  EXPECT_DOUBLE_EQ(parse_in_canonical_unit(Dimension::Frequency, "1.35"), 1.35);
  EXPECT_DOUBLE_EQ(parse_in_canonical_unit(Dimension::Bandwidth, "1TB/s"), 1000);
  EXPECT_DOUBLE_EQ(parse_in_canonical_unit(Dimension::Size, "1MiB"), 1048576);
  EXPECT_DOUBLE_EQ(parse_in_canonical_unit(Dimension::Time, "1us"), 1000);
  EXPECT_DOUBLE_EQ(parse_in_canonical_unit(Dimension::Time, "12.5"), 12.5);
  EXPECT_DOUBLE_EQ(parse_in_canonical_unit(Dimension::Count, "42"), 42);
}

}  // namespace
