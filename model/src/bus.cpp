//===- bus.cpp - address decode and NoC charging --------------------------===//
#include "opforge/model/bus.h"

namespace opforge::model {

Bus::Bus(sc_core::sc_module_name name, const ChipParams &p, CounterRegistry &counters)
    : sc_module(name),
      in("in"),
      out("out"),
      p_(p),
      clk_(p),
      noc_(p.grid, p.noc, p.sim.quantum_cycles, counters),
      map_(p) {
  uint32_t n = p.num_pes();
  for (uint32_t i = 0; i < n; ++i) {
    to_mem_.push_back(noc_.route_pe_to_mem(i));
    from_mem_.push_back(noc_.route_mem_to_pe(i));
  }
  in.register_b_transport(this, &Bus::b_transport);
  in.register_transport_dbg(this, &Bus::transport_dbg);
  in.register_get_direct_mem_ptr(this, &Bus::get_direct_mem_ptr);
}

// Output socket of a decoded range: PE i's local memory is out[i], the
// SRAM (and DRAM behind it) out[N].
static unsigned out_index(const MemoryMap::Range &r, uint32_t n) {
  return r.kind == MemoryMap::Kind::Local ? r.pe : n;
}

void Bus::b_transport(int id, tlm::tlm_generic_payload &tr, sc_core::sc_time &delay) {
  const MemoryMap::Range *r = map_.decode(tr.get_address(), tr.get_data_length());
  if (!r) {
    tr.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
    return;
  }
  bool from_pe = id >= 0 && uint32_t(id) < p_.num_pes();
  if (!from_pe || p_.sim.timing != TimingMode::Lt) {
    out[out_index(*r, p_.num_pes())]->b_transport(tr, delay);
    return;
  }
  uint32_t src = uint32_t(id);
  uint64_t bytes = tr.get_data_length();
  bool is_write = tr.get_command() == tlm::TLM_WRITE_COMMAND;
  NocModel::Route local_route;
  const NocModel::Route *route;
  if (r->kind == MemoryMap::Kind::Local) {
    local_route = is_write ? noc_.route_pe_to_pe(src, r->pe) : noc_.route_pe_to_pe(r->pe, src);
    route = &local_route;
  } else {
    route = is_write ? &to_mem_[src] : &from_mem_[src];
  }
  if (is_write) delay = clk_.delay_until(noc_.traverse(*route, bytes, clk_.now_cycles(delay)));
  // Read data from the memory side: the row's memory port grants the slot
  // its data will use before the SRAM serves the request, so the SRAM sees
  // each port's requests at most at the port's rate, in arrival order.
  size_t granted = 0;
  if (!is_write && r->kind != MemoryMap::Kind::Local) {
    delay = clk_.delay_until(noc_.grant(*route, bytes, clk_.now_cycles(delay)));
    granted = 1;
  }
  out[out_index(*r, p_.num_pes())]->b_transport(tr, delay);
  if (!is_write && tr.is_response_ok())
    delay = clk_.delay_until(noc_.traverse(*route, bytes, clk_.now_cycles(delay), granted));
}

unsigned Bus::transport_dbg(int, tlm::tlm_generic_payload &tr) {
  const MemoryMap::Range *r = map_.decode(tr.get_address(), tr.get_data_length());
  if (!r) {
    tr.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
    return 0;
  }
  return out[out_index(*r, p_.num_pes())]->transport_dbg(tr);
}

bool Bus::get_direct_mem_ptr(int, tlm::tlm_generic_payload &tr, tlm::tlm_dmi &dmi) {
  const MemoryMap::Range *r = map_.decode(tr.get_address(), 1);
  if (!r) return false;
  return out[out_index(*r, p_.num_pes())]->get_direct_mem_ptr(tr, dmi);
}

}  // namespace opforge::model
