//===- sram.h - shared SRAM: memory-side cache or scratch region ----------===//
//
// Mode `cache`: a set-associative, write-back, write-allocate, LRU cache in
// front of DRAM. It serves the DRAM address range; its data lives in DRAM's
// store (the cache keeps tags, LRU and dirty bits), so every initiator sees
// coherent data while fills and write-backs are charged to the DRAM channels
// as TLM_IGNORE_COMMAND transactions through `dram_socket`.
// Mode `scratch`: an addressable region [sram_base, sram_base + size); DRAM
// accesses pass through untouched.
// Either way line index L maps to bank hashed_unit(L, banks) (address_hash.h:
// consecutive lines take every bank once per group of `banks`, power-of-two
// strides spread over the banks); a bank is a Resource and a request that
// waits for a busy bank counts conflict cycles.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <vector>

#include "opforge/model/address_hash.h"
#include "opforge/model/counters.h"
#include "opforge/model/sc_common.h"
#include "opforge/model/sparse_store.h"
#include "opforge/model/timing.h"

namespace opforge::model {

class SramTarget : public sc_core::sc_module {
 public:
  tlm_utils::simple_target_socket<SramTarget> socket;
  tlm_utils::simple_initiator_socket<SramTarget> dram_socket;  // cache mode

  SramTarget(sc_core::sc_module_name name, const ChipParams &p, CounterRegistry &counters);

  // Cache mode: completion time of an access at DRAM offset `off` issued at t.
  double cache_access(uint64_t off, uint64_t len, bool is_write, double t);
  // Scratch mode: completion time of an access at SRAM offset `off`.
  double scratch_access(uint64_t off, uint64_t len, bool is_write, double t);
  // Cache mode: is the line holding DRAM offset `off` present (no side effects)?
  bool contains(uint64_t off) const;
  // The bank line index `line` (offset / line_bytes) maps to.
  uint32_t bank_of(uint64_t line) const { return hashed_unit(line, p_.sram.banks); }
  // The host wrote [addr, addr + len) of device memory behind the cache (host
  // link copies): cached lines of that range are dropped, so the next kernel
  // reads its new inputs from DRAM. No-op in scratch mode or outside DRAM.
  void host_wrote(uint64_t addr, uint64_t len);

 private:
  void b_transport(tlm::tlm_generic_payload &tr, sc_core::sc_time &delay);
  unsigned transport_dbg(tlm::tlm_generic_payload &tr);
  bool get_direct_mem_ptr(tlm::tlm_generic_payload &tr, tlm::tlm_dmi &dmi);
  bool in_dram(uint64_t addr, uint64_t len) const;
  double bank_access(uint64_t line, uint64_t bytes, double t);
  double dram_timing(uint64_t off, bool is_write, double t);

  const ChipParams &p_;
  ChipClock clk_;
  uint64_t sets_ = 0;
  uint32_t ways_ = 0;
  std::vector<uint64_t> tag_;  // line index + 1; 0 = invalid
  std::vector<uint64_t> lru_;  // last-use stamp
  std::vector<uint8_t> dirty_;
  uint64_t stamp_ = 0;
  SparseStore scratch_;
  std::vector<SharedResource> banks_;
  std::vector<FracCounter> bank_busy_, bank_conflict_;
  uint64_t *hits_, *misses_, *evictions_, *writebacks_, *bytes_read_, *bytes_written_;
  std::vector<uint8_t> dummy_;
};

}  // namespace opforge::model
