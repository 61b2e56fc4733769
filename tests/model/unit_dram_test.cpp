//===- unit_dram_test.cpp - DRAM channels, interleaving, sparse backing ---===//
#include <gtest/gtest.h>

#include <set>

#include "opforge/model/dram.h"
#include "test_util.h"

namespace opforge::model {
namespace {

// A test initiator bound to the DRAM's socket, as the bus would be.
struct Initiator : sc_core::sc_module {
  tlm_utils::simple_initiator_socket<Initiator> socket;
  explicit Initiator(sc_core::sc_module_name n) : sc_module(n), socket("socket") {}
};

void payload(tlm::tlm_generic_payload &tr, tlm::tlm_command cmd, uint64_t addr, uint8_t *data,
             unsigned len) {
  tr.set_command(cmd);
  tr.set_address(addr);
  tr.set_data_ptr(data);
  tr.set_data_length(len);
  tr.set_streaming_width(len);
  tr.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
}

TEST(Dram, AddressesInterleaveOverChannels) {
  ChipParams p = testing::preset("mtia-2i");
  CounterRegistry c;
  DramTarget dram("dram_interleave", p, c);
  const uint64_t g = p.dram.interleave_bytes;
  for (uint64_t i = 0; i < p.dram.channels; ++i) EXPECT_EQ(dram.channel_of(i * g + 5), i);
  // One access spanning three granules touches three channels.
  dram.access(g - 8, 2 * g + 16, false, 0);
  EXPECT_EQ(c.value("dram.ch[0].bytes_read"), 8u);
  EXPECT_EQ(c.value("dram.ch[1].bytes_read"), g);
  EXPECT_EQ(c.value("dram.ch[2].bytes_read"), g);
  EXPECT_EQ(c.value("dram.ch[3].bytes_read"), 8u);
}

// Each aligned group of `channels` granules visits every channel once, and a
// power-of-two stride does not stay on one channel: the rows of a bf16 matrix
// 2048 wide (4 KiB apart, 16 granules of 256 B) spread over all 16 channels.
TEST(Dram, PowerOfTwoStridesSpreadOverTheChannels) {
  ChipParams p = testing::preset("mtia-2i");
  CounterRegistry c;
  DramTarget dram("dram_hash", p, c);
  const uint64_t g = p.dram.interleave_bytes, n = p.dram.channels;
  for (uint64_t group : {0, 1, 7, 4097}) {
    std::set<uint32_t> seen;
    for (uint64_t i = 0; i < n; ++i) seen.insert(dram.channel_of((group * n + i) * g));
    EXPECT_EQ(seen.size(), n) << "group " << group;
  }
  for (uint64_t stride : {uint64_t(n * g), uint64_t(2 * n * g), uint64_t(4096), uint64_t(8192)}) {
    std::set<uint32_t> seen;
    for (uint64_t r = 0; r < 128; ++r) seen.insert(dram.channel_of(r * stride + 128));
    EXPECT_GE(seen.size(), n / 2) << "stride " << stride;
  }
}

double stream_cycles(const ChipParams &p, const char *name, uint64_t bytes) {
  CounterRegistry c;
  DramTarget dram(name, p, c);
  double done = 0;
  for (uint64_t off = 0; off < bytes; off += 256)
    done = std::max(done, dram.access(off, 256, false, 0));
  return done;
}

TEST(Dram, StreamRunsAtConfiguredBandwidthAndScalesWithChannels) {
  ChipParams p = testing::preset("mtia-2i");
  const uint64_t bytes = 64ull << 20;
  double cycles = stream_cycles(p, "dram_stream16", bytes);
  double gbps = double(bytes) / (cycles / p.clock.freq_ghz);
  double peak = p.dram.channels * p.dram.channel_gbps;
  EXPECT_NEAR(gbps, peak, 0.01 * peak);
  ChipParams doubled =
      testing::preset("mtia-2i", {"dram.channels=32", "dram.bandwidth_gbps=409.6"});
  double half = stream_cycles(doubled, "dram_stream32", bytes);
  EXPECT_NEAR(half / cycles, 0.5, 0.05);
}

TEST(Dram, ChannelsNeverBeatTheConfiguredBandwidthAtAClockOfFractionalPicoseconds) {
  // 1.35 GHz is 740.74 ps, a SystemC period of 741 ps: the channels count
  // cycles of the configured clock, so a saturated stream takes at least the
  // bytes over the configured bandwidth (latency aside), to the cycle.
  ChipParams p = testing::preset("mtia-2i");
  ASSERT_DOUBLE_EQ(p.clock.freq_ghz, 1.35);
  const uint64_t bytes = 16ull << 20;
  double cycles = stream_cycles(p, "dram_stream_clock", bytes);
  double transfer = double(bytes) / (p.dram.channels * p.dram.channel_gbps / p.clock.freq_ghz);
  EXPECT_GE(cycles, transfer + p.dram.latency_ns * p.clock.freq_ghz - 1e-6);
  EXPECT_LT(cycles, transfer + p.dram.latency_ns * p.clock.freq_ghz + 2);
}

TEST(Dram, CapacityIsSparseAndBoundsAreChecked) {
  ChipParams p = testing::preset("mtia-2i");  // 128 GiB
  CounterRegistry c;
  DramTarget dram("dram_sparse", p, c);
  Initiator init("init_sparse");
  init.socket.bind(dram.socket);
  uint8_t data[16] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};
  uint64_t last = p.map.dram_base + p.dram.capacity_bytes - 16;
  tlm::tlm_generic_payload tr;
  payload(tr, tlm::TLM_WRITE_COMMAND, last, data, 16);
  sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
  init.socket->b_transport(tr, delay);  // through the socket, as the bus does
  EXPECT_TRUE(tr.is_response_ok());
  EXPECT_GT(delay, sc_core::SC_ZERO_TIME);
  EXPECT_EQ(dram.store().pages_allocated(), 1u);
  uint8_t back[16] = {};
  tlm::tlm_generic_payload rd;
  payload(rd, tlm::TLM_READ_COMMAND, last, back, 16);
  EXPECT_EQ(init.socket->transport_dbg(rd), 16u);
  EXPECT_EQ(std::memcmp(back, data, 16), 0);
  tlm::tlm_generic_payload over;
  payload(over, tlm::TLM_READ_COMMAND, last + 8, back, 16);
  init.socket->b_transport(over, delay);
  EXPECT_EQ(over.get_response_status(), tlm::TLM_ADDRESS_ERROR_RESPONSE);
  // Untouched memory reads as zero without allocating.
  tlm::tlm_generic_payload zero;
  payload(zero, tlm::TLM_READ_COMMAND, p.map.dram_base + (64ull << 30), back, 16);
  init.socket->transport_dbg(zero);
  EXPECT_EQ(back[0], 0);
  EXPECT_EQ(dram.store().pages_allocated(), 1u);
}

}  // namespace
}  // namespace opforge::model
