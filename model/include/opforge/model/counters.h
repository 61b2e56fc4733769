//===- counters.h - one hierarchical registry of named 64-bit counters ----===//
//
// Every unit registers its counters here once, at construction, under a
// dotted hierarchical name (`pe[3][5].dma.bytes_read`, `dram.ch[2].busy_cycles`)
// and keeps the returned reference: counting is a plain increment. Names are
// unique; registration order is kept (it is the order of every snapshot, so
// snapshots of the same chip line up column by column).
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstdint>
#include <deque>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace opforge::model {

using CounterSnapshot = std::vector<std::pair<std::string, uint64_t>>;

// Sampled counters (Device::set_sampled_counters): the counters' values every
// simulation.sample_interval_cycles during a launch, first row at its start.
struct CounterSeries {
  std::vector<std::string> names;
  std::vector<uint64_t> cycles;               // sample times (absolute chip cycles)
  std::vector<std::vector<uint64_t>> values;  // [sample][counter]
};

class CounterRegistry {
 public:
  // A new counter, zero. Throws opforge::Error on a duplicate name.
  uint64_t &add(const std::string &name);
  // Index of a name (for fast sampling), or -1.
  int64_t find(const std::string &name) const;
  uint64_t value(const std::string &name) const;  // throws on unknown name
  uint64_t value_at(size_t index) const { return values_[index]; }
  const std::string &name_at(size_t index) const { return names_[index]; }
  size_t size() const { return names_.size(); }

  CounterSnapshot snapshot() const;
  // Names matching a glob with `*` (any run of characters), in registration order.
  std::vector<size_t> match(const std::string &glob) const;
  void reset();  // every counter to zero

  // after - before, by name (both from this registry).
  static CounterSnapshot delta(const CounterSnapshot &before, const CounterSnapshot &after);

 private:
  std::deque<uint64_t> values_;  // stable addresses
  std::vector<std::string> names_;
  std::unordered_map<std::string, size_t> index_;
};

// "pe[3][5]" - the prefix of PE (row, col)'s counters.
std::string pe_prefix(uint32_t row, uint32_t col);

}  // namespace opforge::model
