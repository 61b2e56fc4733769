//===- pe.h - one processing element: ISS hart, local memory, FFUs --------===//
//
// A thin sc_module around the ISS (isa::Hart): its SC_THREAD takes program
// instances from the command processor, sets the Xmtia program-id CSRs,
// and runs the hart one quantum at a time (Hart::run with a cycle budget,
// then one tlm_quantumkeeper sync): no SystemC call per instruction. The PE
// is the hart's MemoryIf (own local memory via DMI, everything else through
// its bus socket, timed; instruction fetch from global memory through a
// per-PE instruction-cache model, ICacheModel) and owns the AcceleratorIf
// (PeAccelerator).
//
//===----------------------------------------------------------------------===//
#pragma once

#include <memory>
#include <vector>

#include "opforge/isa/hart.h"
#include "opforge/model/command_processor.h"
#include "opforge/model/counters.h"
#include "opforge/model/icache.h"
#include "opforge/model/local_mem.h"
#include "opforge/model/memory_map.h"
#include "opforge/model/pe_accel.h"
#include "opforge/model/sc_common.h"

#include <tlm_utils/tlm_quantumkeeper.h>

namespace opforge::model {

class Pe : public sc_core::sc_module, public PeServices, public isa::MemoryIf {
 public:
  SC_HAS_PROCESS(Pe);
  tlm_utils::simple_initiator_socket<Pe> socket;  // to the bus
  LocalMemTarget lmem;

  Pe(sc_core::sc_module_name name, const ChipParams &p, uint32_t id, const MemoryMap &map,
     CommandProcessor &cp, CounterRegistry &counters);
  ~Pe() override;

  uint32_t id() const { return id_; }
  isa::Hart &hart() { return *hart_; }
  PeAccelerator &accel() { return accel_; }

  // MemoryIf (the hart's view).
  bool load(uint64_t addr, void *dst, size_t len) override;
  bool store(uint64_t addr, const void *src, size_t len) override;
  bool fetch(uint64_t addr, void *dst, size_t len) override;
  isa::DmiRegion dmi(uint64_t addr) override;

  // PeServices (the accelerators' view).
  double now_cycles() override;
  void stall_until(double t, uint64_t &reason_counter) override;
  void hold_core(double cycles) override;
  uint64_t translate(uint64_t addr) const override { return map_.translate(id_, addr); }
  bool global_access(uint64_t addr, void *data, uint64_t len, bool is_write, double t,
                     double &done) override;
  bool mapped(uint64_t addr, uint64_t len) const override {
    return map_.decode(addr, len) != nullptr;
  }
  LocalMemTarget &local_mem() override { return lmem; }
  bool in_bounds(uint64_t addr, uint64_t len, bool is_write, std::string &why) override;

  // HTIF tohost address of the programs to run (rebuilds the hart if it changes).
  void set_tohost(std::optional<uint64_t> addr);

  // The ISS cost table for this configuration and timing mode.
  static isa::CostModel cost_model(const ChipParams &p);

 private:
  void thread();
  void run_instance(const ProgramInstance &inst);
  std::string where() const;
  // The launch's bounds check of a global access (after translate); a miss
  // is remembered for the instance's record.
  bool bounds_ok(uint64_t addr, uint64_t len, bool is_write);

  const ChipParams &p_;
  uint32_t id_;
  const MemoryMap &map_;
  CommandProcessor &cp_;
  ChipClock clk_;
  bool timed_;
  PeAccelerator accel_;
  isa::HartConfig hart_cfg_;
  std::unique_ptr<isa::Hart> hart_;
  tlm_utils::tlm_quantumkeeper qk_;
  double base_abs_ = 0;            // absolute cycle at the start of the current run
  uint64_t base_hart_ = 0;         // hart.cycles() at the same moment
  uint64_t generation_ = 0;        // last launch seen (flushes decoded code)
  std::vector<size_t> hpm_index_;  // hpmcounter3.. -> registry index
  CounterRegistry &counters_;
  uint64_t *instret_, *cycles_, *programs_, *traps_, *idle_cycles_, *vec_busy_;
  ICacheModel icache_;  // instruction fetch from global memory (timed mode)
  uint64_t *icache_hits_, *icache_misses_, *stall_ifetch_;
  std::vector<unsigned char> line_buf_;  // one icache line being filled
  uint64_t vec_busy_seen_ = 0;           // hart.vector_busy_cycles() already counted
  double hold_carry_ = 0;                // fraction of a cycle hold_core() still owes
  size_t vec_busy_hpm_ = 0;              // registry index of vec.busy_cycles
  tlm::tlm_generic_payload tr_;
  std::string out_of_bounds_;  // the current instance's bounds miss
};

}  // namespace opforge::model
