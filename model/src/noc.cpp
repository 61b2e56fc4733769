//===- noc.cpp - mesh routes and link occupancy ---------------------------===//
#include "opforge/model/noc.h"

#include <algorithm>
#include <string>

namespace opforge::model {

NocModel::NocModel(const GridParams &grid, const NocParams &noc, uint64_t window_cycles,
                   CounterRegistry &counters)
    : grid_(grid),
      p_(noc),
      links_(size_t(grid.rows) * grid.cols * 5, SharedResource(double(window_cycles))) {
  static const char *kDirName[5] = {"east", "west", "north", "south", "mem"};
  busy_.reserve(links_.size());
  for (uint32_t r = 0; r < grid.rows; ++r)
    for (uint32_t c = 0; c < grid.cols; ++c)
      for (int d = 0; d < 5; ++d)
        busy_.emplace_back(counters.add("noc.link[" + std::to_string(r) + "][" + std::to_string(c) +
                                        "]." + kDirName[d] + ".busy_cycles"));
  bytes_ = &counters.add("noc.bytes");
  packets_ = &counters.add("noc.packets");
  hop_count_ = &counters.add("noc.hops");
  wait_cycles_ = &counters.add("noc.stall_cycles");
  wait_ = FracCounter(*wait_cycles_);
}

NocModel::Route NocModel::route_pe_to_pe(uint32_t src, uint32_t dst) const {
  Route r;
  uint32_t row = src / grid_.cols, col = src % grid_.cols;
  uint32_t drow = dst / grid_.cols, dcol = dst % grid_.cols;
  while (col != dcol) {
    uint32_t node = row * grid_.cols + col;
    if (dcol > col) {
      r.links.push_back(link_id(node, East));
      ++col;
    } else {
      r.links.push_back(link_id(node, West));
      --col;
    }
  }
  while (row != drow) {
    uint32_t node = row * grid_.cols + col;
    if (drow > row) {
      r.links.push_back(link_id(node, South));
      ++row;
    } else {
      r.links.push_back(link_id(node, North));
      --row;
    }
  }
  return r;
}

uint32_t NocModel::mem_port_node(uint32_t pe) const {
  const uint32_t row = pe / grid_.cols, col = pe % grid_.cols;
  // Two ports: the west one serves columns [0, ceil(cols/2)), the east one
  // (at the last column) the rest.
  const bool east = p_.mem_ports_per_row >= 2 && col >= (grid_.cols + 1) / 2;
  return row * grid_.cols + (east ? grid_.cols - 1 : 0);
}

NocModel::Route NocModel::route_pe_to_mem(uint32_t pe) const {
  const uint32_t port = mem_port_node(pe);
  Route r = route_pe_to_pe(pe, port);
  r.links.push_back(link_id(port, MemPort));
  return r;
}

NocModel::Route NocModel::route_mem_to_pe(uint32_t pe) const {
  const uint32_t port = mem_port_node(pe);
  Route r;
  r.links.push_back(link_id(port, MemPort));
  Route rest = route_pe_to_pe(port, pe);
  r.links.insert(r.links.end(), rest.links.begin(), rest.links.end());
  return r;
}

double NocModel::grant(const Route &r, uint64_t bytes, double t) {
  if (r.links.empty()) return t;
  double busy = double(bytes) / p_.link_bytes_per_cycle;
  const uint32_t id = r.links.front();
  double start = links_[id].occupy(t, busy);
  wait_.add(start - t);
  busy_[id].add(busy);
  return start;
}

double NocModel::traverse(const Route &r, uint64_t bytes, double t, size_t skip) {
  double busy = double(bytes) / p_.link_bytes_per_cycle;
  double head = t + double(std::min(skip, r.links.size())) * p_.hop_latency_cycles;
  for (size_t i = skip; i < r.links.size(); ++i) {
    const uint32_t id = r.links[i];
    double start = links_[id].occupy(head, busy);
    wait_.add(start - head);
    busy_[id].add(busy);
    head = start + p_.hop_latency_cycles;
  }
  *bytes_ += bytes;
  *packets_ += 1;
  *hop_count_ += r.links.size();
  return r.links.empty() ? t : head + busy;
}

}  // namespace opforge::model
