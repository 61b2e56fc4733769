//===- sram.cpp - shared SRAM cache/scratch timing and data ---------------===//
#include "opforge/model/sram.h"

#include <algorithm>

namespace opforge::model {

SramTarget::SramTarget(sc_core::sc_module_name name, const ChipParams &p, CounterRegistry &counters)
    : sc_module(name),
      socket("socket"),
      dram_socket("dram_socket"),
      p_(p),
      clk_(p),
      scratch_(p.sram.mode == SramMode::Scratch ? p.sram.size_bytes : 0),
      banks_(p.sram.banks, SharedResource(double(p.sim.quantum_cycles))),
      dummy_(p.sram.line_bytes) {
  if (p.sram.mode == SramMode::Cache) {
    ways_ = p.sram.ways;
    sets_ = p.sram.size_bytes / (uint64_t(p.sram.line_bytes) * ways_);
    tag_.assign(sets_ * ways_, 0);
    lru_.assign(sets_ * ways_, 0);
    dirty_.assign(sets_ * ways_, 0);
  }
  for (uint32_t b = 0; b < p.sram.banks; ++b) {
    std::string pre = "sram.bank[" + std::to_string(b) + "].";
    bank_busy_.emplace_back(counters.add(pre + "busy_cycles"));
    bank_conflict_.emplace_back(counters.add(pre + "conflict_cycles"));
  }
  hits_ = &counters.add("sram.hits");
  misses_ = &counters.add("sram.misses");
  evictions_ = &counters.add("sram.evictions");
  writebacks_ = &counters.add("sram.writebacks");
  bytes_read_ = &counters.add("sram.bytes_read");
  bytes_written_ = &counters.add("sram.bytes_written");
  socket.register_b_transport(this, &SramTarget::b_transport);
  socket.register_transport_dbg(this, &SramTarget::transport_dbg);
  socket.register_get_direct_mem_ptr(this, &SramTarget::get_direct_mem_ptr);
}

double SramTarget::bank_access(uint64_t line, uint64_t bytes, double t) {
  const uint32_t b = bank_of(line);
  double busy = double(bytes) / p_.sram.bank_bytes_per_cycle;
  double start = banks_[b].occupy(t, busy);
  bank_conflict_[b].add(start - t);
  bank_busy_[b].add(busy);
  return start + busy + p_.sram.latency_cycles;
}

double SramTarget::dram_timing(uint64_t off, bool is_write, double t) {
  tlm::tlm_generic_payload tr;
  tr.set_command(tlm::TLM_IGNORE_COMMAND);
  tr.set_address(p_.map.dram_base + off);
  tr.set_data_ptr(dummy_.data());
  tr.set_data_length(p_.sram.line_bytes);
  tr.set_streaming_width(p_.sram.line_bytes);
  tr.set_byte_enable_ptr(nullptr);
  tr.set_dmi_allowed(false);
  tr.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
  sc_core::sc_time delay = clk_.delay_until(t);
  dram_socket->b_transport(tr, delay);
  (void)is_write;
  return clk_.cycles(sc_core::sc_time_stamp() + delay);
}

bool SramTarget::contains(uint64_t off) const {
  uint64_t line = off / p_.sram.line_bytes, set = line % sets_;
  for (uint32_t w = 0; w < ways_; ++w)
    if (tag_[set * ways_ + w] == line + 1) return true;
  return false;
}

void SramTarget::host_wrote(uint64_t addr, uint64_t len) {
  if (p_.sram.mode != SramMode::Cache || len == 0 || !in_dram(addr, len)) return;
  const uint64_t lb = p_.sram.line_bytes, off = addr - p_.map.dram_base;
  const uint64_t first = off / lb, last = (off + len - 1) / lb;
  if (last - first >= tag_.size()) {  // larger than the cache: scan the tags once
    for (size_t i = 0; i < tag_.size(); ++i)
      if (tag_[i] && tag_[i] - 1 >= first && tag_[i] - 1 <= last) tag_[i] = dirty_[i] = 0;
    return;
  }
  for (uint64_t line = first; line <= last; ++line) {
    uint64_t *tags = &tag_[(line % sets_) * ways_];
    for (uint32_t w = 0; w < ways_; ++w)
      if (tags[w] == line + 1) {
        tags[w] = 0;
        dirty_[&tags[w] - tag_.data()] = 0;
      }
  }
}

double SramTarget::cache_access(uint64_t off, uint64_t len, bool is_write, double t) {
  uint64_t lb = p_.sram.line_bytes;
  double done = t;
  while (len) {
    uint64_t n = std::min(len, lb - off % lb);
    uint64_t line = off / lb, set = line % sets_;
    uint64_t *tags = &tag_[set * ways_];
    uint32_t hit_way = ways_;
    for (uint32_t w = 0; w < ways_; ++w)
      if (tags[w] == line + 1) {
        hit_way = w;
        break;
      }
    uint32_t victim = 0;
    if (hit_way == ways_) {
      const uint64_t *lru = &lru_[set * ways_];
      for (uint32_t w = 0; w < ways_; ++w) {
        if (tags[w] == 0) {
          victim = w;
          break;
        }
        if (lru[w] < lru[victim]) victim = w;
      }
    }
    double ready = t;
    uint32_t way = hit_way;
    if (hit_way < ways_) {
      ++*hits_;
    } else {
      ++*misses_;
      way = victim;
      size_t slot = set * ways_ + way;
      if (tag_[slot] != 0) {
        ++*evictions_;
        if (dirty_[slot]) {
          ++*writebacks_;
          dram_timing((tag_[slot] - 1) * lb, true, t);  // write buffer: off the critical path
        }
      }
      // A full-line write allocates without fetching.
      if (!(is_write && n == lb)) ready = dram_timing(line * lb, false, t);
      tag_[slot] = line + 1;
      dirty_[slot] = 0;
    }
    size_t slot = set * ways_ + way;
    lru_[slot] = ++stamp_;
    if (is_write) dirty_[slot] = 1;
    done = std::max(done, bank_access(line, n, ready));
    off += n;
    len -= n;
  }
  return done;
}

double SramTarget::scratch_access(uint64_t off, uint64_t len, bool is_write, double t) {
  (void)is_write;
  uint64_t lb = p_.sram.line_bytes;
  double done = t;
  while (len) {
    uint64_t n = std::min(len, lb - off % lb);
    done = std::max(done, bank_access(off / lb, n, t));
    off += n;
    len -= n;
  }
  return done;
}

bool SramTarget::in_dram(uint64_t a, uint64_t len) const {
  return a >= p_.map.dram_base && a - p_.map.dram_base < p_.dram.capacity_bytes &&
         len <= p_.dram.capacity_bytes - (a - p_.map.dram_base);
}

void SramTarget::b_transport(tlm::tlm_generic_payload &tr, sc_core::sc_time &delay) {
  uint64_t a = tr.get_address(), len = tr.get_data_length();
  bool is_write = tr.get_command() == tlm::TLM_WRITE_COMMAND;
  bool timed = p_.sim.timing == TimingMode::Lt;
  if (in_dram(a, len)) {
    if (p_.sram.mode == SramMode::Scratch) {  // not cached: straight to DRAM
      dram_socket->b_transport(tr, delay);
      return;
    }
    // Data from/to DRAM's store; the time is the cache's.
    if (dram_socket->transport_dbg(tr) != len) {
      tr.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
      return;
    }
    if (timed)
      delay = clk_.delay_until(
          cache_access(a - p_.map.dram_base, len, is_write, clk_.now_cycles(delay)));
  } else {
    if (p_.sram.mode != SramMode::Scratch || a < p_.map.sram_base ||
        a - p_.map.sram_base + len > p_.sram.size_bytes) {
      tr.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
      return;
    }
    uint64_t off = a - p_.map.sram_base;
    if (tr.get_command() == tlm::TLM_READ_COMMAND)
      scratch_.read(off, tr.get_data_ptr(), len);
    else if (is_write)
      scratch_.write(off, tr.get_data_ptr(), len);
    if (timed) delay = clk_.delay_until(scratch_access(off, len, is_write, clk_.now_cycles(delay)));
  }
  *(is_write ? bytes_written_ : bytes_read_) += len;
  tr.set_response_status(tlm::TLM_OK_RESPONSE);
}

unsigned SramTarget::transport_dbg(tlm::tlm_generic_payload &tr) {
  uint64_t a = tr.get_address(), len = tr.get_data_length();
  if (in_dram(a, len)) return dram_socket->transport_dbg(tr);
  if (p_.sram.mode != SramMode::Scratch || a < p_.map.sram_base ||
      a - p_.map.sram_base + len > p_.sram.size_bytes)
    return 0;
  if (tr.get_command() == tlm::TLM_READ_COMMAND)
    scratch_.read(a - p_.map.sram_base, tr.get_data_ptr(), len);
  else if (tr.get_command() == tlm::TLM_WRITE_COMMAND)
    scratch_.write(a - p_.map.sram_base, tr.get_data_ptr(), len);
  tr.set_response_status(tlm::TLM_OK_RESPONSE);
  return unsigned(len);
}

bool SramTarget::get_direct_mem_ptr(tlm::tlm_generic_payload &tr, tlm::tlm_dmi &dmi) {
  return in_dram(tr.get_address(), 1) && dram_socket->get_direct_mem_ptr(tr, dmi);
}

}  // namespace opforge::model
