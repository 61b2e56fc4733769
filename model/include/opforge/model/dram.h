//===- dram.h - DRAM target: interleaved channels over a sparse store -----===//
//
// Addresses [dram_base, dram_base + capacity) map to channel
// hashed_unit(offset / interleave_bytes, channels) (address_hash.h: consecutive
// granules take every channel once per group of `channels`, power-of-two
// strides spread over the channels instead of landing on one). Each channel is a Resource busy
// bytes / (channel_gbps / freq_ghz) cycles per access and adds latency_ns.
// TLM_IGNORE_COMMAND transactions (cache fills and write-backs, whose data is
// already in the store) are charged time but move no data.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <string>
#include <vector>

#include "opforge/model/address_hash.h"
#include "opforge/model/counters.h"
#include "opforge/model/sc_common.h"
#include "opforge/model/sparse_store.h"
#include "opforge/model/timing.h"

namespace opforge::model {

class DramTarget : public sc_core::sc_module {
 public:
  tlm_utils::simple_target_socket<DramTarget> socket;

  DramTarget(sc_core::sc_module_name name, const ChipParams &p, CounterRegistry &counters);

  // Completion time (absolute cycles) of an access of len bytes at device
  // offset off issued at t; charges channels and counters.
  double access(uint64_t off, uint64_t len, bool is_write, double t);
  uint32_t channel_of(uint64_t off) const {
    return hashed_unit(off / p_.dram.interleave_bytes, p_.dram.channels);
  }
  SparseStore &store() { return store_; }

 private:
  void b_transport(tlm::tlm_generic_payload &tr, sc_core::sc_time &delay);
  unsigned transport_dbg(tlm::tlm_generic_payload &tr);
  bool get_direct_mem_ptr(tlm::tlm_generic_payload &tr, tlm::tlm_dmi &dmi);
  bool decode(tlm::tlm_generic_payload &tr, uint64_t &off);

  const ChipParams &p_;
  ChipClock clk_;
  SparseStore store_;
  double bytes_per_cycle_;
  double latency_cycles_;
  std::vector<SharedResource> ch_;
  std::vector<FracCounter> busy_;
  std::vector<uint64_t *> ch_bytes_read_, ch_bytes_written_, ch_accesses_;
  std::vector<FracCounter> ch_wait_;
};

}  // namespace opforge::model
