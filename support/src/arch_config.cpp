//===- arch_config.cpp - ArchConfig's schema, JSON binding and loading ----===//
//
// Every field is declared once, in arch_fields(): dotted path, type, range,
// unit, doc and an accessor into ArchConfig. The schema, from_json and
// to_json are all derived from that one table, so they cannot drift apart;
// defaults come from ArchConfig's member initializers.
//
//===----------------------------------------------------------------------===//
#include "opforge/support/arch_config.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <functional>
#include <map>

#include "opforge/support/config.h"
#include "opforge/support/error.h"

#ifndef OPFORGE_DEFAULT_SCENARIO_DIR
#define OPFORGE_DEFAULT_SCENARIO_DIR "scenarios"
#endif

namespace opforge {

using nlohmann::json;
using units::Dimension;

namespace {

// The largest SRAM cache the model keeps tags for (17 bytes of host memory a line).
constexpr uint64_t kMaxSramCacheLines = uint64_t{1} << 24;

template <class E>
struct EnumNames {
  static const std::vector<std::pair<E, std::string_view>> &table();
};
template <>
const std::vector<std::pair<UnitImpl, std::string_view>> &EnumNames<UnitImpl>::table() {
  static const std::vector<std::pair<UnitImpl, std::string_view>> t{
      {UnitImpl::Tlm, "tlm"}, {UnitImpl::Rtl, "rtl"}, {UnitImpl::Lockstep, "lockstep"}};
  return t;
}
template <>
const std::vector<std::pair<SramMode, std::string_view>> &EnumNames<SramMode>::table() {
  static const std::vector<std::pair<SramMode, std::string_view>> t{{SramMode::Cache, "cache"},
                                                                    {SramMode::Scratch, "scratch"}};
  return t;
}
template <>
const std::vector<std::pair<DispatchPolicy, std::string_view>> &EnumNames<DispatchPolicy>::table() {
  static const std::vector<std::pair<DispatchPolicy, std::string_view>> t{
      {DispatchPolicy::RoundRobin, "round_robin"}, {DispatchPolicy::FirstFree, "first_free"}};
  return t;
}
template <>
const std::vector<std::pair<TimingMode, std::string_view>> &EnumNames<TimingMode>::table() {
  static const std::vector<std::pair<TimingMode, std::string_view>> t{
      {TimingMode::Functional, "functional"}, {TimingMode::Lt, "lt"}};
  return t;
}
template <>
const std::vector<std::pair<NocTopology, std::string_view>> &EnumNames<NocTopology>::table() {
  static const std::vector<std::pair<NocTopology, std::string_view>> t{{NocTopology::Mesh, "mesh"}};
  return t;
}

template <class E>
std::string_view enum_name(E v) {
  for (auto [e, n] : EnumNames<E>::table())
    if (e == v) return n;
  return "?";
}

template <class E>
std::vector<std::string> enum_choices() {
  std::vector<std::string> out;
  for (auto [e, n] : EnumNames<E>::table()) out.emplace_back(n);
  return out;
}

// JSON <-> member conversions for the member types ArchConfig uses.
template <class T>
json encode(const T &v) {
  if constexpr (std::is_enum_v<T>)
    return std::string(enum_name(v));
  else
    return v;
}

template <class T>
void decode(const json &j, T &out) {
  if constexpr (std::is_enum_v<T>) {
    auto s = j.get<std::string>();
    for (auto [e, n] : EnumNames<T>::table())
      if (n == s) {
        out = e;
        return;
      }
    throw Error("bad value '" + s + "'");
  } else {
    out = j.get<T>();
  }
}

struct Leaf {
  std::string dotted;
  FieldSpec spec;
  std::function<void(ArchConfig &, const json &)> read;
  std::function<json(const ArchConfig &)> write;
};

struct Tables {
  std::vector<Leaf> leaves;
  Schema schema{FieldSpec{}};
};

json::json_pointer pointer_of(const std::string &dotted) {
  std::string p;
  size_t start = 0;
  while (true) {
    size_t dot = dotted.find('.', start);
    p += "/" + dotted.substr(start, dot == std::string::npos ? std::string::npos : dot - start);
    if (dot == std::string::npos) break;
    start = dot + 1;
  }
  return json::json_pointer(p);
}

class Declarer {
 public:
  template <class Acc>
  void add(const std::string &dotted, FieldSpec spec, Acc acc) {
    spec.name = dotted.substr(dotted.rfind('.') == std::string::npos ? 0 : dotted.rfind('.') + 1);
    using T = std::remove_cvref_t<decltype(acc(std::declval<ArchConfig &>()))>;
    if constexpr (std::is_enum_v<T>) spec.choices = enum_choices<T>();
    spec.default_value = encode(acc(defaults_));
    leaves_.push_back({dotted, std::move(spec),
                       [acc](ArchConfig &c, const json &j) { decode(j, acc(c)); },
                       [acc](const ArchConfig &c) { return encode(acc(c)); }});
  }
  void group(const std::string &dotted, std::string doc) { group_docs_[dotted] = std::move(doc); }

  Tables build(std::vector<FieldSpec> metadata_fields) {
    FieldSpec root = object("", "an opforge architecture configuration", {});
    for (auto &m : metadata_fields) root.fields.push_back(std::move(m));
    for (const auto &leaf : leaves_) {
      FieldSpec *cur = &root;
      size_t start = 0;
      std::string prefix;
      while (true) {
        size_t dot = leaf.dotted.find('.', start);
        if (dot == std::string::npos) break;
        std::string part = leaf.dotted.substr(start, dot - start);
        prefix += (prefix.empty() ? "" : ".") + part;
        FieldSpec *next = nullptr;
        for (auto &f : cur->fields)
          if (f.name == part) next = &f;
        if (!next) {
          cur->fields.push_back(object(part, group_docs_[prefix], {}));
          next = &cur->fields.back();
        }
        cur = next;
        start = dot + 1;
      }
      cur->fields.push_back(leaf.spec);
    }
    Tables t;
    t.leaves = std::move(leaves_);
    t.schema = Schema(std::move(root));
    return t;
  }

 private:
  ArchConfig defaults_{};
  std::vector<Leaf> leaves_;
  std::map<std::string, std::string> group_docs_;
};

#define FIELD(path, spec, member) \
  d.add(                          \
      path, spec, [](auto &c) -> auto & { return c.member; })

FieldSpec cycles() { return integer().range(0, 1e9).unit("cycles"); }
FieldSpec pos_cycles() { return integer().range(1, 1e9).unit("cycles"); }
FieldSpec count(double lo, double hi, std::string unit) {
  return integer().range(lo, hi).unit(std::move(unit));
}
FieldSpec gbps() { return quantity(Dimension::Bandwidth).range(0.001, 1e6); }
FieldSpec impl() { return enumeration({}); }
FieldSpec address() { return integer().range(0, double(1ull << 52)).unit("address"); }
FieldSpec pj() { return quantity(Dimension::Energy).range(0, 1e9); }
FieldSpec mw() { return quantity(Dimension::Power).range(0, 1e9); }
FieldSpec mm2() { return quantity(Dimension::Area).range(0, 1e6); }

Tables make_tables() {
  Declarer d;
  d.add(
      "name", string().describe("Preset name, shown in results."),
      [](auto &c) -> auto & { return c.name; });
  FIELD("clock_ghz",
        quantity(Dimension::Frequency)
            .range(0.001, 20)
            .describe("Clock of the PEs and on-chip fabric."),
        clock_ghz);

  d.group("pe_grid", "The grid of processing elements.");
  FIELD("pe_grid.rows", count(1, 256, "PEs").describe("PE rows."), pe_grid.rows);
  FIELD("pe_grid.cols", count(1, 256, "PEs").describe("PE columns."), pe_grid.cols);

  d.group("pe", "One processing element (all PEs are identical).");
  d.group("pe.vector", "The RVV vector core.");
  FIELD("pe.vector.vlen_bits",
        count(64, 65536, "bits").describe("RVV VLEN: bits per vector register (power of two)."),
        pe.vector.vlen_bits);
  FIELD("pe.vector.lanes",
        count(1, 1024, "32-bit lanes")
            .describe("Datapath width: elements per cycle = lanes * 32 / SEW."),
        pe.vector.lanes);

  d.group("pe.local_mem", "The PE's local memory (scratchpad).");
  FIELD("pe.local_mem.size_bytes",
        quantity(Dimension::Size).range(1024, 1ull << 40).describe("Capacity."),
        pe.local_mem.size_bytes);
  FIELD("pe.local_mem.banks", count(1, 1024, "banks").describe("Independent banks."),
        pe.local_mem.banks);
  FIELD("pe.local_mem.bandwidth_gbps", gbps().describe("Total bandwidth over all banks."),
        pe.local_mem.bandwidth_gbps);
  FIELD("pe.local_mem.latency_cycles", cycles().describe("Load-to-use latency."),
        pe.local_mem.latency_cycles);
  FIELD("pe.local_mem.interleave_bytes",
        quantity(Dimension::Size)
            .range(4, 1 << 20)
            .describe("Consecutive bytes mapped to one bank (power of two)."),
        pe.local_mem.interleave_bytes);

  d.group("pe.icache",
          "The PE's instruction cache for code in global memory (hits are free; a miss "
          "fetches one line and stalls the core until it arrives).");
  FIELD("pe.icache.size_bytes",
        quantity(Dimension::Size).range(64, 1ull << 30).describe("Capacity."),
        pe.icache.size_bytes);
  FIELD("pe.icache.line_bytes",
        quantity(Dimension::Size)
            .range(4, 4096)
            .describe("Line size: the bytes one miss fetches (power of two)."),
        pe.icache.line_bytes);
  FIELD("pe.icache.ways", count(1, 64, "ways").describe("Associativity (LRU within a set)."),
        pe.icache.ways);

  d.group("pe.scalar_timing", "Cycles per instruction class of the scalar RV64 core.");
  FIELD("pe.scalar_timing.int_alu_cycles",
        pos_cycles().describe("Integer ALU, shifts, compares, lui/auipc."),
        pe.scalar_timing.int_alu_cycles);
  FIELD("pe.scalar_timing.int_mul_cycles", pos_cycles().describe("Integer multiply."),
        pe.scalar_timing.int_mul_cycles);
  FIELD("pe.scalar_timing.int_div_cycles", pos_cycles().describe("Integer divide and remainder."),
        pe.scalar_timing.int_div_cycles);
  FIELD("pe.scalar_timing.load_cycles",
        pos_cycles().describe("Load issue (memory latency added by the target)."),
        pe.scalar_timing.load_cycles);
  FIELD("pe.scalar_timing.store_cycles", pos_cycles().describe("Store issue."),
        pe.scalar_timing.store_cycles);
  FIELD("pe.scalar_timing.branch_taken_cycles", pos_cycles().describe("Taken branch or jump."),
        pe.scalar_timing.branch_taken_cycles);
  FIELD("pe.scalar_timing.branch_not_taken_cycles", pos_cycles().describe("Branch not taken."),
        pe.scalar_timing.branch_not_taken_cycles);
  FIELD("pe.scalar_timing.csr_cycles", pos_cycles().describe("CSR access."),
        pe.scalar_timing.csr_cycles);
  FIELD("pe.scalar_timing.fp_add_cycles",
        pos_cycles().describe("FP add/sub, compare, convert, move."),
        pe.scalar_timing.fp_add_cycles);
  FIELD("pe.scalar_timing.fp_mul_cycles", pos_cycles().describe("FP multiply."),
        pe.scalar_timing.fp_mul_cycles);
  FIELD("pe.scalar_timing.fp_fma_cycles", pos_cycles().describe("FP fused multiply-add."),
        pe.scalar_timing.fp_fma_cycles);
  FIELD("pe.scalar_timing.fp_div_cycles", pos_cycles().describe("FP divide."),
        pe.scalar_timing.fp_div_cycles);
  FIELD("pe.scalar_timing.fp_sqrt_cycles", pos_cycles().describe("FP square root."),
        pe.scalar_timing.fp_sqrt_cycles);

  d.group(
      "pe.vector_timing",
      "Vector instruction cost: startup_cycles + ceil(VL / (lanes * 32 / SEW)) * class cycles.");
  FIELD("pe.vector_timing.startup_cycles",
        cycles().describe("Fixed cost of every vector instruction."),
        pe.vector_timing.startup_cycles);
  FIELD("pe.vector_timing.int_alu_cycles", pos_cycles().describe("Per element group: integer ALU."),
        pe.vector_timing.int_alu_cycles);
  FIELD("pe.vector_timing.int_mul_cycles",
        pos_cycles().describe("Per element group: integer multiply."),
        pe.vector_timing.int_mul_cycles);
  FIELD("pe.vector_timing.int_div_cycles",
        pos_cycles().describe("Per element group: integer divide."),
        pe.vector_timing.int_div_cycles);
  FIELD("pe.vector_timing.fp_add_cycles",
        pos_cycles().describe("Per element group: FP add/sub/compare/convert."),
        pe.vector_timing.fp_add_cycles);
  FIELD("pe.vector_timing.fp_mul_cycles", pos_cycles().describe("Per element group: FP multiply."),
        pe.vector_timing.fp_mul_cycles);
  FIELD("pe.vector_timing.fp_fma_cycles",
        pos_cycles().describe("Per element group: FP fused multiply-add."),
        pe.vector_timing.fp_fma_cycles);
  FIELD("pe.vector_timing.fp_div_cycles", pos_cycles().describe("Per element group: FP divide."),
        pe.vector_timing.fp_div_cycles);
  FIELD("pe.vector_timing.fp_sqrt_cycles",
        pos_cycles().describe("Per element group: FP square root."),
        pe.vector_timing.fp_sqrt_cycles);
  FIELD("pe.vector_timing.load_cycles",
        pos_cycles().describe(
            "Per element group: unit-stride load (memory latency added by the target)."),
        pe.vector_timing.load_cycles);
  FIELD("pe.vector_timing.store_cycles",
        pos_cycles().describe("Per element group: unit-stride store."),
        pe.vector_timing.store_cycles);
  FIELD("pe.vector_timing.indexed_cycles_per_element",
        pos_cycles().describe("Per element: strided and indexed loads/stores."),
        pe.vector_timing.indexed_cycles_per_element);
  FIELD("pe.vector_timing.reduction_step_cycles",
        pos_cycles().describe(
            "Per tree step (log2 of the group) of a reduction, added to the element groups."),
        pe.vector_timing.reduction_step_cycles);
  FIELD("pe.vector_timing.permute_cycles",
        pos_cycles().describe("Per element group: slides, register gathers, compress."),
        pe.vector_timing.permute_cycles);

  d.group("pe.dpe", "The dot-product engine (tile matrix multiply).");
  d.group("pe.dpe.macs_per_cycle",
          "Multiply-accumulates per cycle per PE, by input dtype (0 = unsupported).");
  FIELD("pe.dpe.macs_per_cycle.bf16",
        count(0, 1 << 20, "MACs/cycle").describe("bfloat16 inputs, fp32 accumulate."),
        pe.dpe.macs_per_cycle.bf16);
  FIELD("pe.dpe.macs_per_cycle.fp16",
        count(0, 1 << 20, "MACs/cycle").describe("float16 inputs, fp32 accumulate."),
        pe.dpe.macs_per_cycle.fp16);
  FIELD("pe.dpe.macs_per_cycle.fp32", count(0, 1 << 20, "MACs/cycle").describe("float32 inputs."),
        pe.dpe.macs_per_cycle.fp32);
  FIELD("pe.dpe.macs_per_cycle.int8",
        count(0, 1 << 20, "MACs/cycle").describe("int8 inputs, int32 accumulate."),
        pe.dpe.macs_per_cycle.int8);
  FIELD("pe.dpe.tile_max_m", count(1, 4096, "rows").describe("Largest M of one DPE tile command."),
        pe.dpe.tile_max_m);
  FIELD("pe.dpe.tile_max_n",
        count(1, 4096, "columns").describe("Largest N of one DPE tile command."),
        pe.dpe.tile_max_n);
  FIELD("pe.dpe.tile_max_k",
        count(1, 4096, "elements").describe("Largest K of one DPE tile command."),
        pe.dpe.tile_max_k);
  FIELD("pe.dpe.setup_cycles", cycles().describe("Fixed cost per tile command."),
        pe.dpe.setup_cycles);
  FIELD("pe.dpe.queue_depth",
        count(1, 1024, "commands").describe("Commands queued before the core stalls."),
        pe.dpe.queue_depth);
  FIELD("pe.dpe.impl",
        impl().describe("Model: tlm (C++), rtl (Verilator) or lockstep (both, compared)."),
        pe.dpe.impl);

  d.group("pe.sfu",
          "The special-function unit (exp, log, tanh, erf, sin, cos, rsqrt, reciprocal).");
  FIELD("pe.sfu.elements_per_cycle", count(1, 4096, "elements/cycle").describe("Throughput."),
        pe.sfu.elements_per_cycle);
  FIELD("pe.sfu.latency_cycles", cycles().describe("Latency of one operation."),
        pe.sfu.latency_cycles);
  FIELD("pe.sfu.precision_bits",
        count(0, 23, "mantissa bits")
            .describe("Mantissa bits the fp32 results keep; 0 = exact (correctly rounded fp32)."),
        pe.sfu.precision_bits);
  FIELD("pe.sfu.bits_per_pass",
        count(1, 24, "bits")
            .describe("Significand bits one evaluation pass resolves: an element takes "
                      "ceil((precision_bits + 1) / bits_per_pass) passes (24 significand bits "
                      "when exact); elements_per_cycle is the rate at exact precision and "
                      "scales with the passes saved."),
        pe.sfu.bits_per_pass);
  FIELD("pe.sfu.impl", impl().describe("Model: tlm, rtl or lockstep."), pe.sfu.impl);

  d.group("pe.dma", "The PE's DMA engines (local memory <-> SRAM/DRAM/other PEs).");
  FIELD("pe.dma.engines", count(1, 64, "engines").describe("DMA engines per PE."), pe.dma.engines);
  FIELD("pe.dma.bandwidth_gbps", gbps().describe("Bandwidth of one engine."),
        pe.dma.bandwidth_gbps);
  FIELD("pe.dma.outstanding",
        count(1, 1024, "transfers").describe("Transfers in flight per engine."),
        pe.dma.outstanding);
  FIELD("pe.dma.setup_cycles", cycles().describe("Fixed cost per descriptor."),
        pe.dma.setup_cycles);
  FIELD("pe.dma.burst_bytes",
        quantity(Dimension::Size)
            .range(8, 1 << 20)
            .describe("Transfer granule on the fabric: one read and one write per burst."),
        pe.dma.burst_bytes);

  d.group("noc", "The network on chip joining PEs, SRAM and DRAM.");
  FIELD("noc.topology", enumeration({}).describe("Topology."), noc.topology);
  FIELD("noc.link_bandwidth_gbps", gbps().describe("Bandwidth of one link, each direction."),
        noc.link_bandwidth_gbps);
  FIELD("noc.hop_latency_cycles", cycles().describe("Latency per router hop."),
        noc.hop_latency_cycles);
  FIELD("noc.mem_ports_per_row",
        count(1, 2, "ports")
            .describe("Memory ports (SRAM/DRAM entry links) per PE row: 1 = west of column 0; "
                      "2 = west of column 0 and east of the last column, each serving the "
                      "nearer half of the row."),
        noc.mem_ports_per_row);

  d.group("sram", "The shared on-chip SRAM.");
  FIELD("sram.size_bytes",
        quantity(Dimension::Size)
            .range(1024, 1ull << 44)
            .describe("Capacity (in cache mode at most 2^24 lines: the tags live in host memory)."),
        sram.size_bytes);
  FIELD("sram.banks", count(1, 4096, "banks").describe("Independent banks."), sram.banks);
  FIELD("sram.mode",
        enumeration({}).describe("cache (in front of DRAM) or scratch (software-managed)."),
        sram.mode);
  FIELD("sram.line_bytes", quantity(Dimension::Size).range(8, 4096).describe("Cache line size."),
        sram.line_bytes);
  FIELD("sram.ways", count(1, 256, "ways").describe("Associativity in cache mode."), sram.ways);
  FIELD("sram.bandwidth_gbps", gbps().describe("Total bandwidth over all banks."),
        sram.bandwidth_gbps);
  FIELD("sram.latency_cycles", cycles().describe("Access latency, not counting the NoC."),
        sram.latency_cycles);

  d.group("dram", "Off-chip DRAM.");
  FIELD("dram.channels", count(1, 1024, "channels").describe("Independent channels."),
        dram.channels);
  FIELD("dram.bandwidth_gbps", gbps().describe("Total bandwidth over all channels."),
        dram.bandwidth_gbps);
  FIELD("dram.latency_ns", quantity(Dimension::Time).range(0, 1e6).describe("Access latency."),
        dram.latency_ns);
  FIELD("dram.capacity_bytes",
        quantity(Dimension::Size).range(1 << 20, 1ull << 50).describe("Capacity."),
        dram.capacity_bytes);
  FIELD("dram.interleave_bytes",
        quantity(Dimension::Size)
            .range(32, 1ull << 30)
            .describe("Consecutive bytes mapped to one channel."),
        dram.interleave_bytes);

  d.group("host_link", "The link to the host (PCIe).");
  FIELD("host_link.bandwidth_gbps", gbps().describe("Bandwidth, each direction."),
        host_link.bandwidth_gbps);
  FIELD("host_link.latency_ns",
        quantity(Dimension::Time).range(0, 1e9).describe("Latency per transfer."),
        host_link.latency_ns);

  d.group("command_processor", "The command processor: launch queue and grid dispatch.");
  FIELD("command_processor.dispatch_latency_cycles",
        cycles().describe("Per program instance handed to a PE."),
        command_processor.dispatch_latency_cycles);
  FIELD("command_processor.launch_latency_cycles", cycles().describe("Per kernel launch."),
        command_processor.launch_latency_cycles);
  FIELD("command_processor.dispatch_policy",
        enumeration({}).describe("round_robin over PEs or first_free PE."),
        command_processor.dispatch_policy);

  d.group("memory_map",
          "Guest physical address map (docs/model/memory-map.md). A base or stride left 0 is "
          "derived from the grid and the memory sizes so that no windows overlap; one set "
          "explicitly is kept and must not overlap another.");
  FIELD("memory_map.local_alias_base",
        address().describe("Each PE sees its own local memory at this address (0: derived, "
                           "0x10000000 unless the local memory does not fit there)."),
        memory_map.local_alias_base);
  FIELD("memory_map.local_window_base",
        address().describe("PE i's local memory, seen by everyone, at base + i * stride (0: "
                           "derived, below DRAM when the windows fit there, else above it)."),
        memory_map.local_window_base);
  FIELD("memory_map.local_window_stride_bytes",
        quantity(Dimension::Size)
            .range(0, 1ull << 41)
            .describe("Distance between PE windows, at least the local memory size (0: derived, "
                      "the smallest power of two larger than the local memory)."),
        memory_map.local_window_stride_bytes);
  FIELD("memory_map.sram_base", address().describe("The SRAM window in scratch mode (0: derived)."),
        memory_map.sram_base);
  FIELD("memory_map.dram_base",
        address().describe("Start of DRAM; programs are linked at this address."),
        memory_map.dram_base);
  FIELD("memory_map.code_reserved_bytes",
        quantity(Dimension::Size)
            .range(0, 1ull << 40)
            .describe("DRAM bottom kept for program images (never handed out by alloc)."),
        memory_map.code_reserved_bytes);

  d.group("simulation", "How the model runs.");
  FIELD("simulation.timing_mode",
        enumeration({}).describe("functional (no timing, fastest) or lt (loosely timed)."),
        simulation.timing_mode);
  FIELD("simulation.quantum_cycles",
        count(1, 1e12, "cycles").describe("Time quantum of the loosely-timed model."),
        simulation.quantum_cycles);
  FIELD("simulation.watchdog_cycles",
        count(1, 1e18, "cycles").describe("A launch running longer is stopped as hung."),
        simulation.watchdog_cycles);
  FIELD("simulation.sample_interval_cycles",
        count(0, 1e12, "cycles").describe("Counter sampling period; 0 = no sampling."),
        simulation.sample_interval_cycles);

  d.group("energy",
          "Energy per event, for the energy_j, avg_power_w and perf_per_w of each sweep point "
          "(docs/results.md); estimates with cited sources in the presets, never read by the "
          "model's timing.");
  FIELD("energy.mac_fp32_pj", pj().describe("One DPE multiply-accumulate, float32 inputs."),
        energy.mac_fp32_pj);
  FIELD("energy.mac_bf16_pj",
        pj().describe("One DPE multiply-accumulate, bfloat16 inputs, fp32 accumulate."),
        energy.mac_bf16_pj);
  FIELD("energy.mac_fp16_pj",
        pj().describe("One DPE multiply-accumulate, float16 inputs, fp32 accumulate."),
        energy.mac_fp16_pj);
  FIELD("energy.mac_int8_pj",
        pj().describe("One DPE multiply-accumulate, int8 inputs, int32 accumulate."),
        energy.mac_int8_pj);
  FIELD("energy.instruction_pj",
        pj().describe("One instruction retired by a PE's core (fetch, decode, register file; "
                      "the core's own local-memory loads and stores included)."),
        energy.instruction_pj);
  FIELD("energy.vector_pj_per_lane_cycle",
        pj().describe("One busy vector-datapath cycle (pe[*].vec.busy_cycles), per 32-bit lane."),
        energy.vector_pj_per_lane_cycle);
  FIELD("energy.sfu_pj_per_element",
        pj().describe("One element of a special function (pe[*].sfu.elements)."),
        energy.sfu_pj_per_element);
  FIELD("energy.local_mem_pj_per_byte",
        pj().describe("One byte read or written in local memory by DMA, DPE or a remote PE."),
        energy.local_mem_pj_per_byte);
  FIELD("energy.sram_pj_per_byte", pj().describe("One byte read or written in the shared SRAM."),
        energy.sram_pj_per_byte);
  FIELD("energy.noc_pj_per_byte_hop",
        pj().describe("One byte over one NoC link (router and wire of one hop)."),
        energy.noc_pj_per_byte_hop);
  FIELD("energy.dram_pj_per_byte",
        pj().describe("One byte read or written in DRAM (devices and interface)."),
        energy.dram_pj_per_byte);

  d.group("energy.static_power",
          "Static power (leakage, clock tree, idle) drawn for the whole simulated time, per "
          "unit instance.");
  FIELD("energy.static_power.core_mw", mw().describe("Per PE: scalar core and instruction cache."),
        energy.static_power.core_mw);
  FIELD("energy.static_power.vector_mw", mw().describe("Per PE: the RVV vector unit."),
        energy.static_power.vector_mw);
  FIELD("energy.static_power.dpe_mw", mw().describe("Per PE: the dot-product engine."),
        energy.static_power.dpe_mw);
  FIELD("energy.static_power.sfu_mw", mw().describe("Per PE: the special-function unit."),
        energy.static_power.sfu_mw);
  FIELD("energy.static_power.dma_engine_mw",
        mw().describe("Per DMA engine (pe.dma.engines per PE)."),
        energy.static_power.dma_engine_mw);
  FIELD("energy.static_power.local_mem_mw_per_kib",
        mw().describe("Local memory, per KiB of pe.local_mem.size_bytes, per PE."),
        energy.static_power.local_mem_mw_per_kib);
  FIELD("energy.static_power.sram_mw_per_mib",
        mw().describe("Shared SRAM, per MiB of sram.size_bytes."),
        energy.static_power.sram_mw_per_mib);
  FIELD("energy.static_power.noc_router_mw", mw().describe("Per NoC router (one per PE)."),
        energy.static_power.noc_router_mw);
  FIELD("energy.static_power.dram_phy_mw", mw().describe("Per DRAM channel: controller and PHY."),
        energy.static_power.dram_phy_mw);
  FIELD("energy.static_power.other_mw",
        mw().describe("Once per chip: command processor, host link, I/O and the rest."),
        energy.static_power.other_mw);

  d.group("area",
          "Silicon area per unit; a point's area_mm2 is their sum scaled by the unit counts and "
          "memory sizes (docs/results.md). Widths (lanes, MACs/cycle) do not scale it: sweep an "
          "area field together with the width it belongs to (zipped axes).");
  FIELD("area.pe_core_mm2", mm2().describe("Per PE: scalar core, instruction cache, control."),
        area.pe_core_mm2);
  FIELD("area.vector_mm2", mm2().describe("Per PE: the RVV vector unit and its registers."),
        area.vector_mm2);
  FIELD("area.dpe_mm2", mm2().describe("Per PE: the dot-product engine."), area.dpe_mm2);
  FIELD("area.sfu_mm2", mm2().describe("Per PE: the special-function unit."), area.sfu_mm2);
  FIELD("area.dma_engine_mm2", mm2().describe("Per DMA engine."), area.dma_engine_mm2);
  FIELD("area.local_mem_mm2_per_kib", mm2().describe("Local memory, per KiB, per PE."),
        area.local_mem_mm2_per_kib);
  FIELD("area.sram_mm2_per_mib", mm2().describe("Shared SRAM, per MiB."), area.sram_mm2_per_mib);
  FIELD("area.noc_router_mm2", mm2().describe("Per NoC router (one per PE)."), area.noc_router_mm2);
  FIELD("area.dram_ctrl_mm2", mm2().describe("Per DRAM channel: controller and PHY."),
        area.dram_ctrl_mm2);
  FIELD("area.other_mm2",
        mm2().describe("Once per chip: command processor, host link, I/O ring and the rest."),
        area.other_mm2);

  return d.build(
      {metadata("comment", "Free text: what the preset models, which numbers are assumptions."),
       metadata("sources", "Where each public figure comes from (free-form JSON)."),
       metadata("extends", "Preset name or file this document inherits from.")});
}
#undef FIELD

const Tables &tables() {
  static const Tables t = make_tables();
  return t;
}

}  // namespace

const Schema &arch_schema() { return tables().schema; }

std::vector<std::filesystem::path> arch_search_dirs() {
  std::vector<std::filesystem::path> dirs;
  if (const char *env = std::getenv("OPFORGE_ARCH_DIR"); env && *env) dirs.emplace_back(env);
  dirs.emplace_back(std::filesystem::path(OPFORGE_DEFAULT_SCENARIO_DIR) / "arch");
  return dirs;
}

ArchConfig ArchConfig::from_json(const json &resolved) {
  ArchConfig c;
  for (const auto &leaf : tables().leaves) {
    auto ptr = pointer_of(leaf.dotted);
    if (!resolved.contains(ptr))
      throw Error("missing field in resolved config",
                  ErrorContext{{}, ptr.to_string(), {}, {}, {}});
    try {
      leaf.read(c, resolved.at(ptr));
    } catch (const json::exception &e) {
      throw Error(std::string("bad value in resolved config: ") + e.what(),
                  ErrorContext{{}, ptr.to_string(), {}, {}, {}});
    }
  }
  return c;
}

ArchConfig ArchConfig::from_document(const json &doc, const std::string &file) {
  ArchConfig c = from_json(arch_schema().normalize(doc, file));
  c.check(file);
  return c;
}

json ArchConfig::to_json() const {
  json out = json::object();
  for (const auto &leaf : tables().leaves) out[pointer_of(leaf.dotted)] = leaf.write(*this);
  return out;
}

ArchConfig ArchConfig::load(const std::string &name_or_file,
                            const std::vector<std::string> &overrides) {
  LoadedConfig loaded = load_config(arch_schema(), name_or_file, overrides, arch_search_dirs());
  ArchConfig c = from_json(loaded.resolved);
  if (c.name.empty()) c.name = loaded.file.stem().string();
  c.check(loaded.file.string());
  return c;
}

void ArchConfig::check(const std::string &file) const {
  auto fail = [&](const char *path, const std::string &msg) {
    throw Error(msg, ErrorContext{file, path, {}, {}, {}});
  };
  auto pow2 = [](uint64_t v) { return v != 0 && (v & (v - 1)) == 0; };
  auto n = [](uint64_t v) { return std::to_string(v); };
  if (!pow2(pe.vector.vlen_bits))
    fail("/pe/vector/vlen_bits", "VLEN " + n(pe.vector.vlen_bits) + " is not a power of two");
  if (uint64_t{pe.vector.lanes} * 32 > pe.vector.vlen_bits)
    fail("/pe/vector/lanes", n(pe.vector.lanes) + " 32-bit lanes are wider than VLEN " +
                                 n(pe.vector.vlen_bits) + " bits");
  if (pe.local_mem.size_bytes % pe.local_mem.banks != 0)
    fail("/pe/local_mem/banks", "size " + n(pe.local_mem.size_bytes) +
                                    " bytes does not divide into " + n(pe.local_mem.banks) +
                                    " equal banks");
  if (!pow2(pe.icache.line_bytes))
    fail("/pe/icache/line_bytes",
         "line size " + n(pe.icache.line_bytes) + " is not a power of two");
  if (pe.icache.size_bytes % (uint64_t{pe.icache.line_bytes} * pe.icache.ways) != 0)
    fail("/pe/icache/ways", "size " + n(pe.icache.size_bytes) + " bytes is not a whole number of " +
                                n(pe.icache.ways) + "-way sets of " + n(pe.icache.line_bytes) +
                                "-byte lines");
  if (!pow2(sram.line_bytes))
    fail("/sram/line_bytes", "line size " + n(sram.line_bytes) + " is not a power of two");
  if (sram.mode == SramMode::Cache &&
      sram.size_bytes % (uint64_t{sram.line_bytes} * sram.ways) != 0)
    fail("/sram/ways", "size " + n(sram.size_bytes) + " bytes is not a whole number of " +
                           n(sram.ways) + "-way sets of " + n(sram.line_bytes) + "-byte lines");
  if (sram.mode == SramMode::Cache && sram.size_bytes / sram.line_bytes > kMaxSramCacheLines)
    fail("/sram/size_bytes", "a cache of " + n(sram.size_bytes / sram.line_bytes) +
                                 " lines is larger than the model's " + n(kMaxSramCacheLines) +
                                 " (its tags are kept in host memory; use longer lines or "
                                 "scratch mode)");
  if (!pow2(dram.interleave_bytes))
    fail("/dram/interleave_bytes",
         "interleave " + n(dram.interleave_bytes) + " bytes is not a power of two");
  if (dram.capacity_bytes % (dram.interleave_bytes * dram.channels) != 0)
    fail("/dram/capacity_bytes", "capacity " + n(dram.capacity_bytes) +
                                     " bytes is not a whole number of " + n(dram.channels) +
                                     " channels x " + n(dram.interleave_bytes) +
                                     "-byte interleave blocks");
  if (!pow2(pe.local_mem.interleave_bytes))
    fail("/pe/local_mem/interleave_bytes",
         "interleave " + n(pe.local_mem.interleave_bytes) + " bytes is not a power of two");
  memory_layout(file);  // throws when windows collide or pass the address limit
  if (dpe_macs_per_cycle(DType::BFloat16) + dpe_macs_per_cycle(DType::Float16) +
          dpe_macs_per_cycle(DType::Float32) + dpe_macs_per_cycle(DType::Int8) ==
      0)
    fail("/pe/dpe/macs_per_cycle", "the DPE supports no dtype (all MACs/cycle are 0)");
}

uint32_t ArchConfig::dpe_macs_per_cycle(DType t) const {
  switch (t) {
    case DType::BFloat16:
      return pe.dpe.macs_per_cycle.bf16;
    case DType::Float16:
      return pe.dpe.macs_per_cycle.fp16;
    case DType::Float32:
      return pe.dpe.macs_per_cycle.fp32;
    case DType::Int8:
      return pe.dpe.macs_per_cycle.int8;
    default:
      return 0;
  }
}

double ArchConfig::dpe_peak_flops(DType t) const {
  return 2.0 * dpe_macs_per_cycle(t) * num_pes() * clock_hz();
}

double ArchConfig::vector_peak_fp32_flops() const {
  return 2.0 * pe.vector.lanes * num_pes() * clock_hz() / pe.vector_timing.fp_fma_cycles;
}

uint64_t ArchConfig::vector_op_cycles(VectorOpClass cls, uint64_t vl, uint32_t sew_bits) const {
  const auto &t = pe.vector_timing;
  uint64_t per_cycle =
      std::max<uint64_t>(1, uint64_t{pe.vector.lanes} * 32 / std::max<uint32_t>(sew_bits, 1));
  uint64_t groups = (vl + per_cycle - 1) / per_cycle;
  uint64_t per_group = 1;
  switch (cls) {
    case VectorOpClass::IntAlu:
      per_group = t.int_alu_cycles;
      break;
    case VectorOpClass::IntMul:
      per_group = t.int_mul_cycles;
      break;
    case VectorOpClass::IntDiv:
      per_group = t.int_div_cycles;
      break;
    case VectorOpClass::FpAdd:
      per_group = t.fp_add_cycles;
      break;
    case VectorOpClass::FpMul:
      per_group = t.fp_mul_cycles;
      break;
    case VectorOpClass::FpFma:
      per_group = t.fp_fma_cycles;
      break;
    case VectorOpClass::FpDiv:
      per_group = t.fp_div_cycles;
      break;
    case VectorOpClass::FpSqrt:
      per_group = t.fp_sqrt_cycles;
      break;
    case VectorOpClass::Load:
      per_group = t.load_cycles;
      break;
    case VectorOpClass::Store:
      per_group = t.store_cycles;
      break;
    case VectorOpClass::Permute:
      per_group = t.permute_cycles;
      break;
    case VectorOpClass::Indexed:
      return t.startup_cycles + vl * t.indexed_cycles_per_element;
    case VectorOpClass::Reduction: {
      uint64_t steps = 0;
      for (uint64_t w = std::min(vl, per_cycle); w > 1; w = (w + 1) / 2) ++steps;
      return t.startup_cycles + groups * t.fp_add_cycles + steps * t.reduction_step_cycles;
    }
  }
  return t.startup_cycles + groups * per_group;
}

std::string_view to_string(UnitImpl v) { return enum_name(v); }
std::string_view to_string(SramMode v) { return enum_name(v); }
std::string_view to_string(DispatchPolicy v) { return enum_name(v); }
std::string_view to_string(TimingMode v) { return enum_name(v); }
std::string_view to_string(NocTopology v) { return enum_name(v); }

}  // namespace opforge
