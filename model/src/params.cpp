//===- params.cpp - the model's per-unit parameters derived from ArchConfig ===//
#include "opforge/model/params.h"

#include "opforge/support/error.h"

namespace opforge::model {

const char *timing_mode_name(TimingMode m) { return m == TimingMode::Lt ? "lt" : "functional"; }

TimingMode parse_timing_mode(const std::string &s) {
  if (s == "lt") return TimingMode::Lt;
  if (s == "functional") return TimingMode::Functional;
  throw Error("unknown timing mode '" + s + "' (expected functional or lt)");
}

ChipParams params_from(const ArchConfig &a) {
  auto fail = [&](const char *path, const std::string &msg) {
    throw Error(msg, ErrorContext{a.name, path, {}, {}, {}});
  };
  // The model's own limits (beyond ArchConfig::check): the ISS's VLEN range.
  if (a.pe.vector.vlen_bits < 128 || a.pe.vector.vlen_bits > 4096)
    fail("/pe/vector/vlen_bits", "the model's ISS supports VLEN 128..4096 bits, not " +
                                     std::to_string(a.pe.vector.vlen_bits));
  ChipParams p;
  p.name = a.name;
  p.arch = a;
  p.clock.freq_ghz = a.clock_ghz;
  p.grid = {a.pe_grid.rows, a.pe_grid.cols};

  p.core.vlen_bits = a.pe.vector.vlen_bits;
  p.core.vec_lanes = a.pe.vector.lanes;

  const auto &lm = a.pe.local_mem;
  p.local_mem.size_bytes = lm.size_bytes;
  p.local_mem.banks = lm.banks;
  p.local_mem.interleave_bytes = lm.interleave_bytes;
  p.local_mem.bank_bytes_per_cycle = a.bytes_per_cycle(lm.bandwidth_gbps) / lm.banks;
  p.local_mem.latency_cycles = lm.latency_cycles;

  const auto &dma = a.pe.dma;
  p.dma.engines = dma.engines;
  p.dma.queue_depth = dma.outstanding;
  p.dma.setup_cycles = dma.setup_cycles;
  p.dma.bytes_per_cycle = a.bytes_per_cycle(dma.bandwidth_gbps);
  p.dma.burst_bytes = dma.burst_bytes;

  const auto &dpe = a.pe.dpe;
  p.dpe.macs_per_cycle_bf16 = dpe.macs_per_cycle.bf16;
  p.dpe.macs_per_cycle_fp16 = dpe.macs_per_cycle.fp16;
  p.dpe.macs_per_cycle_fp32 = dpe.macs_per_cycle.fp32;
  p.dpe.macs_per_cycle_int8 = dpe.macs_per_cycle.int8;
  p.dpe.tile_max_m = dpe.tile_max_m;
  p.dpe.tile_max_n = dpe.tile_max_n;
  p.dpe.tile_max_k = dpe.tile_max_k;
  p.dpe.setup_cycles = dpe.setup_cycles;
  p.dpe.queue_depth = dpe.queue_depth;

  p.sfu.elements_per_cycle = a.pe.sfu.elements_per_cycle;
  p.sfu.latency_cycles = a.pe.sfu.latency_cycles;
  p.sfu.precision_bits = a.pe.sfu.precision_bits;
  p.sfu.bits_per_pass = a.pe.sfu.bits_per_pass;

  p.noc.link_bytes_per_cycle = a.bytes_per_cycle(a.noc.link_bandwidth_gbps);
  p.noc.hop_latency_cycles = a.noc.hop_latency_cycles;
  p.noc.mem_ports_per_row = a.noc.mem_ports_per_row;

  p.sram.size_bytes = a.sram.size_bytes;
  p.sram.banks = a.sram.banks;
  p.sram.bank_bytes_per_cycle = a.sram_bytes_per_cycle() / a.sram.banks;
  p.sram.latency_cycles = a.sram.latency_cycles;
  p.sram.mode = a.sram.mode;
  p.sram.line_bytes = a.sram.line_bytes;
  p.sram.ways = a.sram.ways;

  p.dram.capacity_bytes = a.dram.capacity_bytes;
  p.dram.channels = a.dram.channels;
  p.dram.channel_gbps = a.dram.bandwidth_gbps / a.dram.channels;
  p.dram.latency_ns = a.dram.latency_ns;
  p.dram.interleave_bytes = a.dram.interleave_bytes;

  p.host_link.gbps = a.host_link.bandwidth_gbps;
  p.host_link.latency_ns = a.host_link.latency_ns;

  p.cp.launch_latency_cycles = a.command_processor.launch_latency_cycles;
  p.cp.program_start_cycles = a.command_processor.dispatch_latency_cycles;
  p.cp.policy = a.command_processor.dispatch_policy;

  const MemoryMapConfig m = a.memory_layout(a.name);  // derived bases filled in
  p.map = {m.local_alias_base, m.local_window_base, m.local_window_stride_bytes,
           m.sram_base,        m.dram_base,         m.code_reserved_bytes};

  p.sim.timing = a.simulation.timing_mode;
  p.sim.quantum_cycles = a.simulation.quantum_cycles;
  p.sim.watchdog_cycles = a.simulation.watchdog_cycles;
  p.sim.sample_period_cycles = a.simulation.sample_interval_cycles;
  return p;
}

ChipParams load_params(const std::string &name_or_file, const std::vector<std::string> &overrides) {
  return params_from(ArchConfig::load(name_or_file, overrides));
}

}  // namespace opforge::model
