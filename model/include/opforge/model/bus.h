//===- bus.h - the address-decoding interconnect with NoC timing ----------===//
//
// Initiators bind to `in` in order: PE 0..N-1, then the host port (index N).
// Targets bind to `out` in order: PE 0..N-1 local memories, then the SRAM,
// which serves its scratch window and the DRAM range (caching it in cache
// mode, passing it through in scratch mode) and talks to DRAM itself. The bus decodes by address
// range from the memory map (docs/model/memory-map.md); an unmapped address gets
// TLM_ADDRESS_ERROR_RESPONSE. PE-originated payloads are charged NoC time:
// writes cross the mesh before the target, read data after it. Host
// transactions do not use the mesh (the host link times them).
//
//===----------------------------------------------------------------------===//
#pragma once

#include <vector>

#include "opforge/model/memory_map.h"
#include "opforge/model/noc.h"
#include "opforge/model/sc_common.h"

namespace opforge::model {

class Bus : public sc_core::sc_module {
 public:
  tlm_utils::multi_passthrough_target_socket<Bus> in;
  tlm_utils::multi_passthrough_initiator_socket<Bus> out;

  Bus(sc_core::sc_module_name name, const ChipParams &p, CounterRegistry &counters);

  const MemoryMap &map() const { return map_; }
  NocModel &noc() { return noc_; }

 private:
  void b_transport(int id, tlm::tlm_generic_payload &tr, sc_core::sc_time &delay);
  unsigned transport_dbg(int id, tlm::tlm_generic_payload &tr);
  bool get_direct_mem_ptr(int id, tlm::tlm_generic_payload &tr, tlm::tlm_dmi &dmi);

  const ChipParams &p_;
  ChipClock clk_;
  NocModel noc_;
  MemoryMap map_;
  std::vector<NocModel::Route> to_mem_, from_mem_;
};

}  // namespace opforge::model
