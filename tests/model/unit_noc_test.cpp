//===- unit_noc_test.cpp - mesh XY routes, hop latency, link occupancy ----===//
#include <gtest/gtest.h>

#include <algorithm>

#include "opforge/model/noc.h"
#include "test_util.h"

namespace opforge::model {
namespace {

TEST(Noc, XyRouteGoesAlongTheRowThenTheColumn) {
  ChipParams p = testing::preset("mtia-2i");
  CounterRegistry c;
  NocModel noc(p.grid, p.noc, p.sim.quantum_cycles, c);
  // (1,2) -> (4,6): 4 hops east, then 3 hops south.
  auto r = noc.route_pe_to_pe(1 * 8 + 2, 4 * 8 + 6);
  ASSERT_EQ(noc.hops(r), 7u);
  EXPECT_EQ(r.links[0], NocModel::link_id(1 * 8 + 2, NocModel::East));
  EXPECT_EQ(r.links[3], NocModel::link_id(1 * 8 + 5, NocModel::East));
  EXPECT_EQ(r.links[4], NocModel::link_id(1 * 8 + 6, NocModel::South));
  EXPECT_EQ(r.links[6], NocModel::link_id(3 * 8 + 6, NocModel::South));
  // Back: west then north.
  auto back = noc.route_pe_to_pe(4 * 8 + 6, 1 * 8 + 2);
  EXPECT_EQ(back.links[0], NocModel::link_id(4 * 8 + 6, NocModel::West));
  EXPECT_EQ(back.links.back(), NocModel::link_id(2 * 8 + 2, NocModel::North));
  EXPECT_EQ(noc.hops(noc.route_pe_to_pe(9, 9)), 0u);
}

TEST(Noc, OneMemoryPortPerRowSitsWestOfColumnZero) {
  ChipParams p = testing::preset("mtia-2i", {"noc.mem_ports_per_row=1"});
  CounterRegistry c;
  NocModel noc(p.grid, p.noc, p.sim.quantum_cycles, c);
  auto m = noc.route_pe_to_mem(3 * 8 + 5);
  EXPECT_EQ(noc.hops(m), 6u);  // 5 west, then the port
  EXPECT_EQ(m.links.back(), NocModel::link_id(3 * 8, NocModel::MemPort));
  auto back = noc.route_mem_to_pe(3 * 8 + 5);
  EXPECT_EQ(back.links.front(), NocModel::link_id(3 * 8, NocModel::MemPort));
  EXPECT_EQ(back.links.back(), NocModel::link_id(3 * 8 + 4, NocModel::East));
}

TEST(Noc, TwoMemoryPortsServeTheNearerHalfOfEachRow) {
  ChipParams p = testing::preset("mtia-2i");
  ASSERT_EQ(p.noc.mem_ports_per_row, 2u);  // the preset's floorplan
  CounterRegistry c;
  NocModel noc(p.grid, p.noc, p.sim.quantum_cycles, c);
  // Columns 0..3 use the west port (node (r,0)), 4..7 the east one (node (r,7)).
  for (uint32_t col = 0; col < 8; ++col) {
    const uint32_t pe = 3 * 8 + col, port = col < 4 ? 3 * 8 : 3 * 8 + 7;
    EXPECT_EQ(noc.mem_port_node(pe), port) << col;
    auto m = noc.route_pe_to_mem(pe);
    EXPECT_EQ(noc.hops(m), (col < 4 ? col : 7 - col) + 1) << col;
    EXPECT_EQ(m.links.back(), NocModel::link_id(port, NocModel::MemPort)) << col;
    auto back = noc.route_mem_to_pe(pe);
    EXPECT_EQ(back.links.front(), NocModel::link_id(port, NocModel::MemPort)) << col;
    EXPECT_EQ(noc.hops(back), noc.hops(m)) << col;
  }
  // The two halves share no link: a full-row stream from memory takes half
  // as long as through one port.
  auto row_stream = [](const ChipParams &q) {
    CounterRegistry cr;
    NocModel n(q.grid, q.noc, q.sim.quantum_cycles, cr);
    const uint64_t bytes = uint64_t(100 * q.noc.link_bytes_per_cycle);
    double done = 0;
    for (uint32_t col = 0; col < q.grid.cols; ++col)
      done = std::max(done, n.traverse(n.route_mem_to_pe(col), bytes, 0));
    return done;
  };
  const double two = row_stream(p);
  const double one = row_stream(testing::preset("mtia-2i", {"noc.mem_ports_per_row=1"}));
  const double slack = 10.0 * p.noc.hop_latency_cycles;
  EXPECT_GE(two, 4 * 100.0 - 1);
  EXPECT_LE(two, 4 * 100.0 + slack);
  EXPECT_GE(one, 8 * 100.0 - 1);
  EXPECT_LE(one, 8 * 100.0 + slack);
}

TEST(Noc, LatencyGrowsPerHopAndLinksSerialiseTraffic) {
  ChipParams p = testing::preset("tiny");
  CounterRegistry c;
  NocModel noc(p.grid, p.noc, p.sim.quantum_cycles, c);
  const uint64_t bytes = 4 * p.noc.link_bytes_per_cycle;  // 4 cycles on a link
  double one = noc.traverse(noc.route_pe_to_pe(0, 1), bytes, 0);
  EXPECT_DOUBLE_EQ(one, p.noc.hop_latency_cycles + 4.0);
  double two = noc.traverse(noc.route_pe_to_pe(2, 1), bytes, 100);  // (1,0)->(0,1): east, north
  EXPECT_DOUBLE_EQ(two - 100, 2.0 * p.noc.hop_latency_cycles + 4.0);
  // A second payload on the busy (0,0)->(0,1) link waits for the first.
  double again = noc.traverse(noc.route_pe_to_pe(0, 1), bytes, 0);
  EXPECT_DOUBLE_EQ(again, 4.0 + p.noc.hop_latency_cycles + 4.0);
  EXPECT_EQ(c.value("noc.link[0][0].east.busy_cycles"), 8u);
  EXPECT_EQ(c.value("noc.stall_cycles"), 4u);
  EXPECT_EQ(c.value("noc.hops"), 4u);
}

}  // namespace
}  // namespace opforge::model

namespace opforge::model {
namespace {

TEST(Noc, EveryPresetsMemoryPortsCarryItsSramBandwidth) {
  // A preset whose ports carry less than its SRAM would claim an SRAM
  // bandwidth no PE can reach (docs/model/README.md, "NoC memory ports").
  for (const char *arch : {"mtia-2i", "mtia-v1", "tiny"}) {
    ChipParams p = testing::preset(arch);
    const double ports_gbps =
        double(p.grid.rows) * p.noc.mem_ports_per_row * p.arch.noc.link_bandwidth_gbps;
    EXPECT_GE(ports_gbps, p.arch.sram.bandwidth_gbps) << arch;
  }
}

}  // namespace
}  // namespace opforge::model

namespace opforge::model {
namespace {

TEST(Noc, GrantedPortIsBookedOnceAndDataCrossesTheRestAfterTheMemory) {
  ChipParams p = testing::preset("tiny");
  CounterRegistry c;
  NocModel noc(p.grid, p.noc, p.sim.quantum_cycles, c);
  const uint64_t bytes = uint64_t(4 * p.noc.link_bytes_per_cycle);  // 4 cycles on a link
  const double hop = p.noc.hop_latency_cycles;
  auto r = noc.route_mem_to_pe(1);  // (0,0)'s port, then east to (0,1)
  ASSERT_EQ(noc.hops(r), 2u);
  // Two reads through the same port: the second is granted after the first.
  EXPECT_DOUBLE_EQ(noc.grant(r, bytes, 10), 10);
  EXPECT_DOUBLE_EQ(noc.grant(r, bytes, 10), 14);
  // Data leaving the memory at 50 pays the port's hop latency, then the
  // east link, without booking the port again.
  EXPECT_DOUBLE_EQ(noc.traverse(r, bytes, 50, 1), 50 + hop + hop + 4);
  EXPECT_EQ(c.value("noc.link[0][0].mem.busy_cycles"), 8u);
  EXPECT_EQ(c.value("noc.link[0][0].east.busy_cycles"), 4u);
  EXPECT_EQ(c.value("noc.stall_cycles"), 4u);
  EXPECT_EQ(c.value("noc.hops"), 2u);
}

}  // namespace
}  // namespace opforge::model
