// runner_sampled_point.h - a one-point sweep on the tiny chip with sampled counters (shared by
// the trace, triage and plot tests).
#pragma once

#include "runner_fixture.h"

namespace opforge::runner_test {

// Runs a DMA stream kernel on every PE of the tiny chip with counters sampled
// every 500 cycles; returns the results file.
inline std::filesystem::path sampled_sweep(RunnerDir &t) {
  nlohmann::json w = nlohmann::json::parse(R"({"name": "stream", "kind": "asm", "grid": "per_pe",
      "args": [{"alloc_bytes": 16384, "per_program": true}, 16384, 4096, {"local_base": 0}, 0, 0]})");
  w["path"] = std::string(OPFORGE_SOURCE_DIR) + "/bench/micro/stream.S";
  nlohmann::json s = {
      {"name", "sampled"},
      {"arch", "tiny"},
      {"timing", "lt"},
      {"sample_interval_cycles", 500},
      {"sample_counters", {"pe[*].core.instret", "pe[*].dma.busy_cycles", "dram.ch[*].bytes_read"}},
      {"sweep", nlohmann::json::parse(R"([{"field": "pe.dma.engines", "values": [1, 2]}])")},
      {"workloads", {w}}};
  auto sc = t.write_json("sampled.json", s);
  auto out = t.dir_ / "sampled.h5";
  int st = t.opforge("sweep " + sc.string() + " --jobs 2 --out " + out.string());
  EXPECT_EQ(st, 0) << t.err_;
  return out;
}

}  // namespace opforge::runner_test
