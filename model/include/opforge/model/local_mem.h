//===- local_mem.h - a PE's local memory (scratchpad): banks, DMI ---------===//
//
// Serves PE i's window [local_window_base + i * stride, + size). Consecutive
// interleave_bytes granules rotate over the banks; each bank moves
// bank_bytes_per_cycle (a SharedResource: its users run out of time order)
// and an access adds latency_cycles. The PE's
// own core reaches it through DMI (and charges the core's load/store cost);
// its DMA engines and DPE call access() directly; other PEs come through the
// bus and the NoC. The bytes are an anonymous mapping, zero until touched,
// so a 32x32 grid of 4 MiB memories costs host memory only for what runs.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <string>
#include <vector>

#include "opforge/model/counters.h"
#include "opforge/model/sc_common.h"
#include "opforge/model/timing.h"

namespace opforge::model {

// Zero-filled bytes backed by an anonymous mapping (pages cost host memory
// only once written).
class ZeroPages {
 public:
  explicit ZeroPages(uint64_t size);
  ~ZeroPages();
  ZeroPages(const ZeroPages &) = delete;
  ZeroPages &operator=(const ZeroPages &) = delete;
  uint8_t *data() const { return data_; }
  uint64_t size() const { return size_; }
  uint8_t &operator[](uint64_t i) const { return data_[i]; }
  void clear();  // back to zero pages

 private:
  uint8_t *data_ = nullptr;
  uint64_t size_ = 0;
};

class LocalMemTarget : public sc_core::sc_module {
 public:
  tlm_utils::simple_target_socket<LocalMemTarget> socket;

  LocalMemTarget(sc_core::sc_module_name name, const ChipParams &p, uint32_t pe,
                 CounterRegistry &counters);

  uint64_t base() const { return base_; }
  uint64_t size_bytes() const { return data_.size(); }
  uint8_t *data() { return data_.data(); }
  bool contains(uint64_t addr, uint64_t len) const {
    return addr >= base_ && addr - base_ + len <= data_.size();
  }
  // Completion time of an access at offset off issued at t (lt mode).
  double access(uint64_t off, uint64_t len, bool is_write, double t);
  void clear() { data_.clear(); }

 private:
  void b_transport(tlm::tlm_generic_payload &tr, sc_core::sc_time &delay);
  unsigned transport_dbg(tlm::tlm_generic_payload &tr);
  bool get_direct_mem_ptr(tlm::tlm_generic_payload &tr, tlm::tlm_dmi &dmi);

  const ChipParams &p_;
  ChipClock clk_;
  uint64_t base_;
  ZeroPages data_;
  std::vector<SharedResource> banks_;  // DMA engines, DPE and remote PEs interleave
  FracCounter conflict_;
  uint64_t *bytes_read_, *bytes_written_;
};

}  // namespace opforge::model
