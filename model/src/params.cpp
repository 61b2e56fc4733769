//===- params.cpp - ChipParams from an architecture JSON document ---------===//
#include "opforge/model/params.h"

#include <cmath>
#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include "opforge/support/error.h"

namespace opforge::model {
namespace {

using nlohmann::json;

class Reader {
 public:
  Reader(const json &doc, std::string file) : doc_(doc), file_(std::move(file)) {}

  const json &at(const std::string &path) const {
    const json *cur = &doc_;
    size_t pos = 1;
    while (pos <= path.size()) {
      size_t next = path.find('/', pos);
      if (next == std::string::npos) next = path.size();
      std::string key = path.substr(pos, next - pos);
      if (!cur->is_object() || !cur->contains(key))
        throw Error("missing field", ErrorContext{file_, path, {}, {}, {}});
      cur = &(*cur)[key];
      pos = next + 1;
    }
    return *cur;
  }
  uint64_t u64(const std::string &path, uint64_t min = 0) const {
    const json &v = at(path);
    if (!v.is_number_unsigned() && !(v.is_number_integer() && v.get<int64_t>() >= 0))
      throw Error("expected a non-negative integer", ErrorContext{file_, path, {}, {}, {}});
    uint64_t x = v.get<uint64_t>();
    if (x < min)
      throw Error("must be at least " + std::to_string(min), ErrorContext{file_, path, {}, {}, {}});
    return x;
  }
  uint32_t u32(const std::string &path, uint32_t min = 0) const {
    uint64_t x = u64(path, min);
    if (x > 0xffffffffull) throw Error("value too large", ErrorContext{file_, path, {}, {}, {}});
    return static_cast<uint32_t>(x);
  }
  double positive(const std::string &path) const {
    const json &v = at(path);
    if (!v.is_number() || !(v.get<double>() > 0) || !std::isfinite(v.get<double>()))
      throw Error("expected a positive number", ErrorContext{file_, path, {}, {}, {}});
    return v.get<double>();
  }
  double non_negative(const std::string &path) const {
    const json &v = at(path);
    if (!v.is_number() || v.get<double>() < 0 || !std::isfinite(v.get<double>()))
      throw Error("expected a non-negative number", ErrorContext{file_, path, {}, {}, {}});
    return v.get<double>();
  }
  std::string str(const std::string &path) const {
    const json &v = at(path);
    if (!v.is_string()) throw Error("expected a string", ErrorContext{file_, path, {}, {}, {}});
    return v.get<std::string>();
  }
  [[noreturn]] void fail(const std::string &path, const std::string &msg) const {
    throw Error(msg, ErrorContext{file_, path, {}, {}, {}});
  }

 private:
  const json &doc_;
  std::string file_;
};

bool is_pow2(uint64_t x) { return x && !(x & (x - 1)); }

}  // namespace

const char *timing_mode_name(TimingMode m) { return m == TimingMode::Lt ? "lt" : "functional"; }

TimingMode parse_timing_mode(const std::string &s) {
  if (s == "lt") return TimingMode::Lt;
  if (s == "functional") return TimingMode::Functional;
  throw Error("unknown timing mode '" + s + "' (expected functional or lt)");
}

ChipParams chip_params_from_json(const nlohmann::json &doc, const std::string &file) {
  Reader r(doc, file);
  ChipParams p;
  p.name = doc.contains("name") && doc["name"].is_string() ? doc["name"].get<std::string>() : "";
  p.clock.freq_ghz = r.positive("/clock/freq_ghz");
  p.grid.rows = r.u32("/grid/rows", 1);
  p.grid.cols = r.u32("/grid/cols", 1);
  if (p.grid.rows > 64 || p.grid.cols > 64) r.fail("/grid", "grid larger than 64x64");

  p.core.vlen_bits = r.u32("/core/vlen_bits", 64);
  if (!is_pow2(p.core.vlen_bits)) r.fail("/core/vlen_bits", "must be a power of two");
  p.core.vec_lanes = r.u32("/core/vec_lanes", 1);
  auto &c = p.core.cost;
  c.alu_cycles = r.u32("/core/cost/alu_cycles", 1);
  c.mul_cycles = r.u32("/core/cost/mul_cycles", 1);
  c.div_cycles = r.u32("/core/cost/div_cycles", 1);
  c.load_cycles = r.u32("/core/cost/load_cycles", 1);
  c.store_cycles = r.u32("/core/cost/store_cycles", 1);
  c.branch_cycles = r.u32("/core/cost/branch_cycles", 1);
  c.fp_cycles = r.u32("/core/cost/fp_cycles", 1);
  c.fdiv_cycles = r.u32("/core/cost/fdiv_cycles", 1);
  c.csr_cycles = r.u32("/core/cost/csr_cycles", 1);
  c.vec_issue_cycles = r.u32("/core/cost/vec_issue_cycles", 0);
  c.vec_div_beat_cycles = r.u32("/core/cost/vec_div_beat_cycles", 1);
  c.vec_permute_beat_cycles = r.u32("/core/cost/vec_permute_beat_cycles", 1);
  c.vec_reduce_beat_cycles = r.u32("/core/cost/vec_reduce_beat_cycles", 1);

  p.local_mem.size_bytes = r.u64("/local_mem/size_bytes", 4096);
  p.local_mem.banks = r.u32("/local_mem/banks", 1);
  p.local_mem.bank_bytes_per_cycle = r.u32("/local_mem/bank_bytes_per_cycle", 1);
  p.local_mem.latency_cycles = r.u32("/local_mem/latency_cycles");

  p.dma.engines = r.u32("/dma/engines", 1);
  p.dma.queue_depth = r.u32("/dma/queue_depth", 1);
  p.dma.setup_cycles = r.u32("/dma/setup_cycles");
  p.dma.bytes_per_cycle = r.u32("/dma/bytes_per_cycle", 1);
  p.dma.burst_bytes = r.u32("/dma/burst_bytes", 8);

  p.dpe.macs_per_cycle_bf16 = r.u32("/dpe/macs_per_cycle_bf16", 1);
  p.dpe.macs_per_cycle_fp32 = r.u32("/dpe/macs_per_cycle_fp32", 1);
  p.dpe.macs_per_cycle_int8 = r.u32("/dpe/macs_per_cycle_int8", 1);
  p.dpe.setup_cycles = r.u32("/dpe/setup_cycles");
  p.dpe.queue_depth = r.u32("/dpe/queue_depth", 1);

  p.sfu.elements_per_cycle = r.u32("/sfu/elements_per_cycle", 1);
  p.sfu.latency_cycles = r.u32("/sfu/latency_cycles");
  p.sfu.precision_bits = r.u32("/sfu/precision_bits");
  if (p.sfu.precision_bits > 23) r.fail("/sfu/precision_bits", "at most 23 (fp32 mantissa)");

  p.noc.link_bytes_per_cycle = r.u32("/noc/link_bytes_per_cycle", 1);
  p.noc.hop_latency_cycles = r.u32("/noc/hop_latency_cycles");

  p.sram.size_bytes = r.u64("/sram/size_bytes", 4096);
  p.sram.banks = r.u32("/sram/banks", 1);
  p.sram.bank_bytes_per_cycle = r.u32("/sram/bank_bytes_per_cycle", 1);
  p.sram.latency_cycles = r.u32("/sram/latency_cycles");
  std::string mode = r.str("/sram/mode");
  if (mode == "cache")
    p.sram.mode = SramMode::Cache;
  else if (mode == "scratch")
    p.sram.mode = SramMode::Scratch;
  else
    r.fail("/sram/mode", "expected \"cache\" or \"scratch\", got \"" + mode + "\"");
  p.sram.line_bytes = r.u32("/sram/line_bytes", 8);
  p.sram.ways = r.u32("/sram/ways", 1);
  if (!is_pow2(p.sram.line_bytes)) r.fail("/sram/line_bytes", "must be a power of two");
  if (p.sram.size_bytes % (uint64_t(p.sram.line_bytes) * p.sram.ways) != 0)
    r.fail("/sram/size_bytes", "must be a multiple of line_bytes * ways");

  p.dram.capacity_bytes = r.u64("/dram/capacity_bytes", 1 << 20);
  p.dram.channels = r.u32("/dram/channels", 1);
  p.dram.channel_gbps = r.positive("/dram/channel_gbps");
  p.dram.latency_ns = r.non_negative("/dram/latency_ns");
  p.dram.interleave_bytes = r.u32("/dram/interleave_bytes", 8);
  if (!is_pow2(p.dram.interleave_bytes)) r.fail("/dram/interleave_bytes", "must be a power of two");

  p.host_link.gbps = r.positive("/host_link/gbps");
  p.host_link.latency_us = r.non_negative("/host_link/latency_us");

  p.cp.launch_latency_cycles = r.u32("/command_processor/launch_latency_cycles");
  p.cp.program_start_cycles = r.u32("/command_processor/program_start_cycles");
  std::string pol = r.str("/command_processor/policy");
  if (pol == "round_robin")
    p.cp.policy = DispatchPolicy::RoundRobin;
  else if (pol == "first_free")
    p.cp.policy = DispatchPolicy::FirstFree;
  else
    r.fail("/command_processor/policy", "expected \"round_robin\" or \"first_free\"");

  p.map.local_alias_base = r.u64("/memory_map/local_alias_base");
  p.map.local_window_base = r.u64("/memory_map/local_window_base");
  p.map.local_window_stride = r.u64("/memory_map/local_window_stride");
  p.map.sram_base = r.u64("/memory_map/sram_base");
  p.map.dram_base = r.u64("/memory_map/dram_base");
  p.map.code_reserved_bytes = r.u64("/memory_map/code_reserved_bytes");
  if (p.map.code_reserved_bytes >= p.dram.capacity_bytes)
    r.fail("/memory_map/code_reserved_bytes", "must be smaller than dram.capacity_bytes");
  if (p.map.local_window_stride < p.local_mem.size_bytes)
    r.fail("/memory_map/local_window_stride", "smaller than local_mem.size_bytes");

  p.sim.timing = parse_timing_mode(r.str("/sim/timing"));
  p.sim.quantum_cycles = r.u64("/sim/quantum_cycles", 1);
  p.sim.watchdog_cycles = r.u64("/sim/watchdog_cycles", 1);
  p.sim.sample_period_cycles = r.u64("/sim/sample_period_cycles");

  // The windows must not overlap (checked in cycles-free address arithmetic).
  struct Range {
    const char *name;
    uint64_t base, size;
  };
  Range ranges[] = {
      {"/memory_map/local_alias_base", p.map.local_alias_base, p.local_mem.size_bytes},
      {"/memory_map/local_window_base", p.map.local_window_base,
       p.map.local_window_stride * p.num_pes()},
      {"/memory_map/sram_base", p.map.sram_base,
       p.sram.mode == SramMode::Scratch ? p.sram.size_bytes : 0},
      {"/memory_map/dram_base", p.map.dram_base, p.dram.capacity_bytes}};
  for (size_t i = 0; i < 4; ++i)
    for (size_t j = i + 1; j < 4; ++j) {
      const Range &a = ranges[i], &b = ranges[j];
      if (a.size && b.size && a.base < b.base + b.size && b.base < a.base + a.size)
        r.fail(b.name, std::string("overlaps ") + a.name);
    }
  return p;
}

void apply_override(nlohmann::json &doc, const std::string &kv) {
  size_t eq = kv.find('=');
  if (eq == std::string::npos || eq == 0) throw Error("override '" + kv + "' is not KEY=VALUE");
  std::string key = kv.substr(0, eq), value = kv.substr(eq + 1);
  json *cur = &doc;
  size_t pos = 0;
  std::string path;
  while (true) {
    size_t dot = key.find('.', pos);
    std::string part = key.substr(pos, dot == std::string::npos ? std::string::npos : dot - pos);
    path += "/" + part;
    if (!cur->is_object() || !cur->contains(part))
      throw Error("override names an unknown field", ErrorContext{"", path, {}, {}, {}});
    cur = &(*cur)[part];
    if (dot == std::string::npos) break;
    pos = dot + 1;
  }
  json parsed = json::parse(value, nullptr, false);
  *cur = parsed.is_discarded() ? json(value) : parsed;
}

ChipParams load_chip_params(const std::string &name_or_path) {
  namespace fs = std::filesystem;
  fs::path path = name_or_path;
  if (!fs::exists(path) && name_or_path.find('/') == std::string::npos &&
      name_or_path.find(".json") == std::string::npos)
    path = fs::path(OPFORGE_MODEL_PRESET_DIR) / (name_or_path + ".json");
  std::ifstream in(path);
  if (!in)
    throw Error("cannot open architecture file", ErrorContext{path.string(), "", {}, {}, {}});
  json doc = json::parse(in, nullptr, false);
  if (doc.is_discarded())
    throw Error("malformed JSON", ErrorContext{path.string(), "", {}, {}, {}});
  return chip_params_from_json(doc, path.string());
}

nlohmann::json chip_params_to_json(const ChipParams &p) {
  json j;
  j["name"] = p.name;
  j["clock"] = {{"freq_ghz", p.clock.freq_ghz}};
  j["grid"] = {{"rows", p.grid.rows}, {"cols", p.grid.cols}};
  const auto &c = p.core.cost;
  j["core"] = {{"vlen_bits", p.core.vlen_bits},
               {"vec_lanes", p.core.vec_lanes},
               {"cost",
                {{"alu_cycles", c.alu_cycles},
                 {"mul_cycles", c.mul_cycles},
                 {"div_cycles", c.div_cycles},
                 {"load_cycles", c.load_cycles},
                 {"store_cycles", c.store_cycles},
                 {"branch_cycles", c.branch_cycles},
                 {"fp_cycles", c.fp_cycles},
                 {"fdiv_cycles", c.fdiv_cycles},
                 {"csr_cycles", c.csr_cycles},
                 {"vec_issue_cycles", c.vec_issue_cycles},
                 {"vec_div_beat_cycles", c.vec_div_beat_cycles},
                 {"vec_permute_beat_cycles", c.vec_permute_beat_cycles},
                 {"vec_reduce_beat_cycles", c.vec_reduce_beat_cycles}}}};
  j["local_mem"] = {{"size_bytes", p.local_mem.size_bytes},
                    {"banks", p.local_mem.banks},
                    {"bank_bytes_per_cycle", p.local_mem.bank_bytes_per_cycle},
                    {"latency_cycles", p.local_mem.latency_cycles}};
  j["dma"] = {{"engines", p.dma.engines},
              {"queue_depth", p.dma.queue_depth},
              {"setup_cycles", p.dma.setup_cycles},
              {"bytes_per_cycle", p.dma.bytes_per_cycle},
              {"burst_bytes", p.dma.burst_bytes}};
  j["dpe"] = {{"macs_per_cycle_bf16", p.dpe.macs_per_cycle_bf16},
              {"macs_per_cycle_fp32", p.dpe.macs_per_cycle_fp32},
              {"macs_per_cycle_int8", p.dpe.macs_per_cycle_int8},
              {"setup_cycles", p.dpe.setup_cycles},
              {"queue_depth", p.dpe.queue_depth}};
  j["sfu"] = {{"elements_per_cycle", p.sfu.elements_per_cycle},
              {"latency_cycles", p.sfu.latency_cycles},
              {"precision_bits", p.sfu.precision_bits}};
  j["noc"] = {{"link_bytes_per_cycle", p.noc.link_bytes_per_cycle},
              {"hop_latency_cycles", p.noc.hop_latency_cycles}};
  j["sram"] = {{"size_bytes", p.sram.size_bytes},
               {"banks", p.sram.banks},
               {"bank_bytes_per_cycle", p.sram.bank_bytes_per_cycle},
               {"latency_cycles", p.sram.latency_cycles},
               {"mode", p.sram.mode == SramMode::Cache ? "cache" : "scratch"},
               {"line_bytes", p.sram.line_bytes},
               {"ways", p.sram.ways}};
  j["dram"] = {{"capacity_bytes", p.dram.capacity_bytes},
               {"channels", p.dram.channels},
               {"channel_gbps", p.dram.channel_gbps},
               {"latency_ns", p.dram.latency_ns},
               {"interleave_bytes", p.dram.interleave_bytes}};
  j["host_link"] = {{"gbps", p.host_link.gbps}, {"latency_us", p.host_link.latency_us}};
  j["command_processor"] = {
      {"launch_latency_cycles", p.cp.launch_latency_cycles},
      {"program_start_cycles", p.cp.program_start_cycles},
      {"policy", p.cp.policy == DispatchPolicy::RoundRobin ? "round_robin" : "first_free"}};
  j["memory_map"] = {{"local_alias_base", p.map.local_alias_base},
                     {"local_window_base", p.map.local_window_base},
                     {"local_window_stride", p.map.local_window_stride},
                     {"sram_base", p.map.sram_base},
                     {"dram_base", p.map.dram_base},
                     {"code_reserved_bytes", p.map.code_reserved_bytes}};
  j["sim"] = {{"timing", timing_mode_name(p.sim.timing)},
              {"quantum_cycles", p.sim.quantum_cycles},
              {"watchdog_cycles", p.sim.watchdog_cycles},
              {"sample_period_cycles", p.sim.sample_period_cycles}};
  return j;
}

}  // namespace opforge::model
