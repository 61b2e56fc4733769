//===- harness_trace.cpp - `opforge trace`: a point as Perfetto/Chrome JSON ===//
#include <algorithm>
#include <fstream>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>

#include "opforge/harness/cli.h"
#include "opforge/harness/results.h"
#include "opforge/support/error.h"
#include "options.h"

namespace opforge::cli {
namespace {
using nlohmann::json;

constexpr const char *kUsage =
    "usage: opforge trace RESULTS.h5 --point N --perfetto OUT.json\n\n"
    "Write one sweep point as Chrome trace-event JSON (open in ui.perfetto.dev or\n"
    "chrome://tracing): a track per PE with its program instances, a track per\n"
    "PE functional unit (DMA, DPE, SFU) with its busy share per sampling\n"
    "interval (or over the whole run without sampling), and a counter track per\n"
    "sampled counter. Time is simulated: chip cycles converted with the point's clock.\n";

// "pe[1][2].dma.busy_cycles" -> {"pe[1][2]", "dma"}; false when not a PE unit counter.
bool pe_unit(const std::string &name, std::string &pe, std::string &unit) {
  if (name.rfind("pe[", 0) != 0) return false;
  auto dot = name.find("].");
  if (dot == std::string::npos) return false;
  // pe[r][c] ends at the last "]." before the unit name.
  auto end = name.find('.', dot + 2);
  pe = name.substr(0, dot + 1);
  if (end == std::string::npos) return false;
  unit = name.substr(dot + 2, end - dot - 2);
  return name.compare(end, std::string::npos, ".busy_cycles") == 0;
}

json build_trace(const harness::PointResult &r, const std::string &file) {
  double ghz = 1;
  try {
    ghz = r.config.at("clock_ghz").get<double>();
  } catch (const std::exception &) {
  }
  auto us = [&](double cycles) { return cycles / (ghz * 1000.0); };
  uint64_t t0 = UINT64_MAX;
  for (const auto &in : r.instances) t0 = std::min(t0, in.start_cycle);
  if (!r.trace_cycles.empty()) t0 = std::min<uint64_t>(t0, uint64_t(r.trace_cycles.front()));
  if (t0 == UINT64_MAX) t0 = 0;

  json ev = json::array();
  const int pid = 1;
  ev.push_back({{"ph", "M"},
                {"pid", pid},
                {"name", "process_name"},
                {"args", {{"name", "chip: point " + std::to_string(r.index) + " " + r.workload}}}});
  std::map<std::string, int> tids;
  auto track = [&](const std::string &name) {
    auto it = tids.find(name);
    if (it != tids.end()) return it->second;
    int tid = int(tids.size()) + 1;
    tids[name] = tid;
    ev.push_back({{"ph", "M"},
                  {"pid", pid},
                  {"tid", tid},
                  {"name", "thread_name"},
                  {"args", {{"name", name}}}});
    ev.push_back({{"ph", "M"},
                  {"pid", pid},
                  {"tid", tid},
                  {"name", "thread_sort_index"},
                  {"args", {{"sort_index", tid}}}});
    return tid;
  };
  // Program instances on their PE's track.
  std::map<uint32_t, std::string> pe_names;
  for (const auto &[n, v] : r.counters) {
    (void)v;
    std::string pe, unit;
    if (n.rfind("pe[", 0) == 0 && n.find(".core.cycles") != std::string::npos) {
      pe = n.substr(0, n.find(".core.cycles"));
      pe_names[uint32_t(pe_names.size())] = pe;
    }
  }
  for (const auto &in : r.instances) {
    std::string pe = pe_names.count(in.pe) ? pe_names[in.pe] : "pe " + std::to_string(in.pe);
    int tid = track(pe + " core");
    ev.push_back({{"ph", "X"},
                  {"pid", pid},
                  {"tid", tid},
                  {"name", in.kernel},
                  {"cat", "program"},
                  {"ts", us(double(in.start_cycle - t0))},
                  {"dur", us(double(in.end_cycle - in.start_cycle))},
                  {"args",
                   {{"program", in.program},
                    {"instructions", in.instructions},
                    {"start_cycle", in.start_cycle},
                    {"end_cycle", in.end_cycle}}}});
  }
  // Functional units: sampled busy shares when sampled, else one slice over the run.
  std::map<std::string, size_t> sampled;
  for (size_t k = 0; k < r.trace_names.size(); ++k) sampled[r.trace_names[k]] = k;
  uint64_t run_end = t0 + r.cycles;
  for (const auto &in : r.instances) run_end = std::max(run_end, in.end_cycle);
  for (const auto &[n, total] : r.counters) {
    std::string pe, unit;
    if (!pe_unit(n, pe, unit) || unit == "core" || total == 0) continue;
    int tid = track(pe + " " + unit);
    auto it = sampled.find(n);
    if (it != sampled.end() && r.trace_rows.size() > 1) {
      for (size_t s = 1; s < r.trace_rows.size(); ++s) {
        double dt = double(r.trace_cycles[s] - r.trace_cycles[s - 1]);
        double busy = double(r.trace_rows[s][it->second] - r.trace_rows[s - 1][it->second]);
        if (busy <= 0 || dt <= 0) continue;
        ev.push_back({{"ph", "X"},
                      {"pid", pid},
                      {"tid", tid},
                      {"name", unit + " " + std::to_string(int(100 * busy / dt)) + "%"},
                      {"cat", unit},
                      {"ts", us(double(r.trace_cycles[s - 1]) - double(t0))},
                      {"dur", us(dt)},
                      {"args", {{"busy_cycles", busy}}}});
      }
    } else {
      ev.push_back({{"ph", "X"},
                    {"pid", pid},
                    {"tid", tid},
                    {"name", unit + " busy " + std::to_string(total) + " cycles"},
                    {"cat", unit},
                    {"ts", 0.0},
                    {"dur", us(double(run_end - t0))},
                    {"args", {{"busy_cycles", total}, {"unsampled", true}}}});
    }
  }
  // Counter tracks: per-interval increments of every sampled counter.
  for (size_t k = 0; k < r.trace_names.size(); ++k)
    for (size_t s = 1; s < r.trace_rows.size(); ++s)
      ev.push_back({{"ph", "C"},
                    {"pid", pid},
                    {"name", r.trace_names[k]},
                    {"ts", us(double(r.trace_cycles[s - 1]) - double(t0))},
                    {"args", {{"per_interval", r.trace_rows[s][k] - r.trace_rows[s - 1][k]}}}});
  // Ops of aten/trace workloads on their own track, laid out by their cycles.
  if (!r.ops.empty()) {
    int tid = track("ops");
    double at = 0;
    for (const auto &o : r.ops) {
      ev.push_back({{"ph", "X"},
                    {"pid", pid},
                    {"tid", tid},
                    {"name", o.op},
                    {"cat", "op"},
                    {"ts", us(at)},
                    {"dur", us(double(std::max<uint64_t>(o.cycles, 1)))},
                    {"args",
                     {{"call", o.call},
                      {"status", o.status},
                      {"reason", o.reason},
                      {"cycles", o.cycles},
                      {"launches", o.launches}}}});
      at += double(o.cycles);
    }
  }
  return {{"traceEvents", ev},
          {"displayTimeUnit", "ns"},
          {"otherData",
           {{"results", file},
            {"point", r.index},
            {"workload", r.workload},
            {"status", r.status},
            {"cycles", r.cycles},
            {"clock_ghz", ghz},
            {"axis_values", r.axis_values}}}};
}

int run_trace(const std::vector<std::string> &args) {
  std::string file, out;
  long point = -1;
  OptionParser p("trace", kUsage);
  p.number("point", &point, "", Sign::NonNegative)
      .text("perfetto", &out)
      .positional("results file", &file);
  if (auto rc = p.parse(args)) return *rc;
  if (file.empty() || point < 0 || out.empty())
    return usage_error("trace", "needs RESULTS.h5 --point N --perfetto OUT.json");
  try {
    harness::PointResult r = harness::read_result_point(file, size_t(point));
    json t = build_trace(r, file);
    std::ofstream os(out);
    if (!os) throw Error("cannot write " + out);
    os << t.dump() << "\n";
    if (!os) throw Error("cannot write " + out);
    std::cout << "wrote " << t["traceEvents"].size() << " trace events of point " << point << " to "
              << out << "\n";
    return kExitOk;
  } catch (const std::exception &e) {
    std::cerr << "opforge trace: error: " << e.what() << "\n";
    return kExitFailure;
  }
}

CommandRegistrar reg{
    {"trace", "write a sweep point as Perfetto/Chrome trace-event JSON", run_trace}};

}  // namespace
}  // namespace opforge::cli
