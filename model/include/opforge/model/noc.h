//===- noc.h - 2-D mesh NoC with XY routing, loosely timed ----------------===//
//
// Plain C++ (no SystemC): the bus asks it how long a payload takes from one
// node to another. Nodes are PEs (row, col). Each row also has a memory port
// west of column 0 through which SRAM/DRAM traffic enters and leaves the
// mesh; with noc.mem_ports_per_row = 2 a second one east of the last column
// serves the east half of the row (its link is that node's `mem` link). Every directed link has a
// bandwidth (bytes/cycle) and a per-hop latency, and one next-free time (occupancy): a payload is
// pipelined across the links of its route (wormhole-like), each link busy bytes/bandwidth.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstdint>
#include <vector>

#include "opforge/model/counters.h"
#include "opforge/model/params.h"
#include "opforge/model/timing.h"

namespace opforge::model {

class NocModel {
 public:
  enum Dir { East = 0, West = 1, North = 2, South = 3, MemPort = 4 };

  // window_cycles: accounting window of the shared links (SharedResource).
  NocModel(const GridParams &grid, const NocParams &noc, uint64_t window_cycles,
           CounterRegistry &counters);

  struct Route {
    std::vector<uint32_t> links;  // link ids in traversal order
  };
  // PE node -> PE node (XY: along the row first, then the column).
  Route route_pe_to_pe(uint32_t src_pe, uint32_t dst_pe) const;
  // The node whose `mem` link is PE pe's memory port.
  uint32_t mem_port_node(uint32_t pe) const;
  // PE -> its memory port, and back.
  Route route_pe_to_mem(uint32_t pe) const;
  Route route_mem_to_pe(uint32_t pe) const;

  // Time (absolute cycles) the last byte of `bytes` arrives when the payload
  // enters the route at t. Charges link occupancy and counters. `skip`
  // leading links were booked before with grant() (their hop latency is
  // still added once the payload is there at t).
  double traverse(const Route &r, uint64_t bytes, double t, size_t skip = 0);
  // Books the first link of r for `bytes` from t on and returns the start of
  // its slot (the link's grant). Read data from the memory side books its
  // memory port this way before the SRAM serves it, so a congested port
  // holds back its own requests (arrival order per port) instead of the
  // SRAM serving them while other ports idle; traverse(r, ..., skip = 1)
  // then carries the data over the rest of the route.
  double grant(const Route &r, uint64_t bytes, double t);

  uint32_t hops(const Route &r) const { return static_cast<uint32_t>(r.links.size()); }
  static uint32_t link_id(uint32_t node, Dir d) { return node * 5 + d; }

 private:
  GridParams grid_;
  NocParams p_;
  std::vector<SharedResource> links_;
  std::vector<FracCounter> busy_;
  uint64_t *bytes_ = nullptr;
  uint64_t *packets_ = nullptr;
  uint64_t *hop_count_ = nullptr;
  uint64_t *wait_cycles_ = nullptr;
  FracCounter wait_;
};

}  // namespace opforge::model
