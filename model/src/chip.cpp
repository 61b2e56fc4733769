//===- chip.cpp - chip elaboration, host port and counter sampler ---------===//
#include "opforge/model/chip.h"

#include <algorithm>

namespace opforge::model {

Chip::Chip(sc_core::sc_module_name name, const ChipParams &p)
    : sc_module(name), p_(p), clk_(p_), map_(p_), cp_(p_, counters_), host_socket_("host_socket") {
  bus_ = std::make_unique<Bus>("bus", p_, counters_);
  dram_ = std::make_unique<DramTarget>("dram", p_, counters_);
  sram_ = std::make_unique<SramTarget>("sram", p_, counters_);
  for (uint32_t i = 0; i < p_.num_pes(); ++i) {
    std::string n =
        "pe_" + std::to_string(i / p_.grid.cols) + "_" + std::to_string(i % p_.grid.cols);
    pes_.push_back(std::make_unique<Pe>(n.c_str(), p_, i, map_, cp_, counters_));
  }
  // Initiators: PEs 0..N-1, then the host port.
  for (auto &pe : pes_) pe->socket.bind(bus_->in);
  host_socket_.bind(bus_->in);
  // Targets: local memories 0..N-1, then the SRAM (which fronts DRAM).
  for (auto &pe : pes_) bus_->out.bind(pe->lmem.socket);
  bus_->out.bind(sram_->socket);
  sram_->dram_socket.bind(dram_->socket);
  SC_THREAD(sampler);
}

Chip::~Chip() = default;

bool Chip::host_transfer(tlm::tlm_command cmd, uint64_t addr, void *data, uint64_t len) {
  // Debug transport: no simulated time (the host link is timed by Device).
  uint64_t done = 0;
  const uint64_t chunk = 1u << 30;
  while (done < len) {
    uint64_t n = std::min(chunk, len - done);
    tlm::tlm_generic_payload tr;
    tr.set_command(cmd);
    tr.set_address(addr + done);
    tr.set_data_ptr(static_cast<unsigned char *>(data) + done);
    tr.set_data_length(unsigned(n));
    if (host_socket_->transport_dbg(tr) != n) return false;
    done += n;
  }
  return true;
}

bool Chip::host_write(uint64_t addr, const void *src, uint64_t len) {
  // A copy may span PE windows only if contiguous in one range.
  if (!map_.decode(addr, len)) return false;
  if (!host_transfer(tlm::TLM_WRITE_COMMAND, addr, const_cast<void *>(src), len)) return false;
  sram_->host_wrote(addr, len);
  return true;
}

bool Chip::host_read(uint64_t addr, void *dst, uint64_t len) {
  if (!map_.decode(addr, len)) return false;
  return host_transfer(tlm::TLM_READ_COMMAND, addr, dst, len);
}

void Chip::set_sampled(std::vector<size_t> indices) {
  sampled_ = std::move(indices);
  series_ = CounterSeries{};
  for (size_t i : sampled_) series_.names.push_back(counters_.name_at(i));
}

void Chip::clear_series() {
  series_.cycles.clear();
  series_.values.clear();
}

void Chip::sampler() {
  if (p_.sim.sample_period_cycles == 0) return;
  sc_core::sc_time period = clk_.time(double(p_.sim.sample_period_cycles));
  auto record = [this] {
    if (sampled_.empty()) return;
    series_.cycles.push_back(uint64_t(std::llround(now_cycles())));
    std::vector<uint64_t> row;
    row.reserve(sampled_.size());
    for (size_t i : sampled_) row.push_back(counters_.value_at(i));
    series_.values.push_back(std::move(row));
  };
  for (;;) {
    if (!cp_.active()) {
      while (!cp_.active()) sc_core::wait(cp_.start_event());
      // A launch's first row holds the counters at its start, so the first
      // interval's increments (work booked before the first period ends)
      // are in the series too.
      record();
    }
    sc_core::wait(period);
    record();
  }
}

}  // namespace opforge::model
