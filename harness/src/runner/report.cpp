//===- report.cpp - the comparison table of `opforge report` --------------===//
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <map>
#include <sstream>

#include "opforge/harness/results.h"
#include "opforge/harness/sweep.h"
#include "opforge/model/params.h"
#include "opforge/support/arch_config.h"
#include "opforge/support/error.h"
#include "opforge/support/h5store.h"

namespace opforge::harness {

namespace {

std::string human(uint64_t bytes) {
  const char *unit[] = {"B", "K", "M", "G", "T"};
  double v = double(bytes);
  int u = 0;
  while (v >= 1024 && u < 4) {
    v /= 1024;
    ++u;
  }
  char b[32];
  std::snprintf(b, sizeof b, u ? "%.1f%s" : "%.0f%s", v, unit[u]);
  return b;
}

std::string cell(const nlohmann::json &v) {
  if (v.is_string()) return v.get<std::string>();
  if (v.is_number_float()) {
    char b[32];
    std::snprintf(b, sizeof b, "%g", v.get<double>());
    return b;
  }
  return v.dump();
}

bool ends_with(const std::string &s, const std::string &suffix) {
  return s.size() >= suffix.size() &&
         s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// Sum and largest value of the counters named PREFIX...SUFFIX.
std::pair<uint64_t, uint64_t> sum_max(const std::vector<std::pair<std::string, uint64_t>> &c,
                                      const std::string &prefix, const std::string &suffix) {
  uint64_t total = 0, most = 0;
  for (const auto &[n, v] : c)
    if (n.rfind(prefix, 0) == 0 && ends_with(n, suffix)) {
      total += v;
      most = std::max(most, v);
    }
  return {total, most};
}

using Table = std::vector<std::vector<std::string>>;

void print_table(std::ostringstream &out, const std::vector<std::string> &head, const Table &rows) {
  std::vector<size_t> width(head.size(), 0);
  for (size_t c = 0; c < head.size(); ++c) width[c] = head[c].size();
  for (const auto &r : rows)
    for (size_t c = 0; c < r.size() && c < width.size(); ++c)
      width[c] = std::max(width[c], r[c].size());
  auto line = [&](const std::vector<std::string> &r) {
    for (size_t c = 0; c < r.size(); ++c) {
      out << r[c];
      if (c + 1 < r.size() && c + 1 < width.size())
        out << std::string(width[c] - std::min(width[c], r[c].size()) + 2, ' ');
    }
    out << "\n";
  };
  line(head);
  for (const auto &r : rows) line(r);
}

std::string fmt(const char *f, double v) {
  char b[64];
  std::snprintf(b, sizeof b, f, v);
  return b;
}

// What the sections after the main table need of each point.
struct PointRow {
  int64_t index = 0;
  std::string workload, status, reason;
  std::string axes;    // "field=value,..." of the point
  std::string values;  // its values alone: "8/cache/65536"
  uint64_t cycles = 0;
  double clock_ghz = 1;
  std::vector<std::pair<std::string, uint64_t>> counters;
};

// One sweep axis (or zipped axes) and several workloads: a workload x value
// grid of status, cycles and the change against the first value.
void pivot_section(std::ostringstream &out, const std::vector<PointRow> &pts,
                   const std::vector<std::string> &fields) {
  std::vector<std::string> workloads, columns;
  std::map<std::pair<std::string, std::string>, const PointRow *> at;
  for (const auto &p : pts) {
    if (std::find(workloads.begin(), workloads.end(), p.workload) == workloads.end())
      workloads.push_back(p.workload);
    if (std::find(columns.begin(), columns.end(), p.values) == columns.end())
      columns.push_back(p.values);
    at[{p.workload, p.values}] = &p;
  }
  if (columns.size() < 2) return;
  std::string names;
  for (const auto &f : fields) names += (names.empty() ? "" : "/") + f;
  out << "\nper workload: status and cycles at each " << names << " (change against " << columns[0]
      << "; a failed point that ran shows its cycles)\n";
  std::vector<std::string> head = {"workload"};
  head.insert(head.end(), columns.begin(), columns.end());
  Table rows;
  for (const auto &w : workloads) {
    std::vector<std::string> row = {w};
    const PointRow *base = at.count({w, columns[0]}) ? at[{w, columns[0]}] : nullptr;
    for (const auto &c : columns) {
      const PointRow *p = at.count({w, c}) ? at[{w, c}] : nullptr;
      if (!p) {
        row.push_back("-");
        continue;
      }
      std::string cellv = p->status == "ok" ? "ok" : "FAIL";
      if (p->cycles) {
        cellv += " " + std::to_string(p->cycles);
        if (base && base->cycles && p != base)
          cellv += fmt(" (%+.1f%%)",
                       100.0 * (double(p->cycles) - double(base->cycles)) / double(base->cycles));
      }
      row.push_back(cellv);
    }
    rows.push_back(std::move(row));
  }
  print_table(out, head, rows);
}

// Energy, average power, perf/W and area per point (docs/results.md, "Energy,
// power and area"), with the static share and the largest dynamic terms.
void energy_section(std::ostringstream &out, const h5::File &f, const std::vector<PointRow> &pts) {
  Table rows;
  for (const auto &p : pts) {
    std::string g = "/points/" + std::to_string(p.index);
    std::vector<std::string> attrs = f.attr_names(g);
    auto get = [&](const char *n) {
      return std::find(attrs.begin(), attrs.end(), n) != attrs.end()
                 ? f.attr_double(g, n)
                 : std::numeric_limits<double>::quiet_NaN();
    };
    double energy = get("energy_j"), power = get("avg_power_w"), ppw = get("perf_per_w"),
           area = get("area_mm2");
    if (std::isnan(energy) && std::isnan(area)) continue;
    auto num = [](double v) { return std::isnan(v) ? std::string("-") : fmt("%.4g", v); };
    std::string static_share = "-", top;
    if (std::find(attrs.begin(), attrs.end(), "energy_breakdown_j") != attrs.end() && energy > 0) {
      nlohmann::json b = f.attr_json(g, "energy_breakdown_j");
      std::vector<std::pair<double, std::string>> terms;
      for (auto it = b.begin(); it != b.end(); ++it) {
        if (!it.value().is_number()) continue;
        if (it.key() == "static")
          static_share = fmt("%.0f%%", 100 * it.value().get<double>() / energy);
        else if (it.value().get<double>() > 0)
          terms.emplace_back(it.value().get<double>(), it.key());
      }
      std::sort(terms.rbegin(), terms.rend());
      for (size_t k = 0; k < terms.size() && k < 3; ++k)
        top += (top.empty() ? "" : ", ") + terms[k].second +
               fmt(" %.3g%%", 100 * terms[k].first / energy);
    }
    rows.push_back({std::to_string(p.index), p.workload, p.axes.empty() ? "-" : p.axes, p.status,
                    num(energy), num(power), num(ppw), num(area), static_share,
                    top.empty() ? "-" : top});
  }
  if (rows.empty()) return;
  out << "\nenergy, power and area (estimates from the config's energy/area sections; "
         "energy_j = counted events x pJ + static power x simulated time, avg_power_w = "
         "energy_j / time, perf_per_w = runs/s per W = 1 / energy_j; docs/results.md)\n";
  print_table(out,
              {"point", "workload", "axes", "status", "energy_j", "avg_power_w", "perf_per_w",
               "area_mm2", "static", "largest dynamic terms"},
              rows);
}

// Memory-system counters per point: DRAM channels, SRAM banks, NoC links.
void memory_section(std::ostringstream &out, const std::vector<PointRow> &pts) {
  Table rows;
  for (const auto &p : pts) {
    auto dram = sum_max(p.counters, "dram.ch[", ".busy_cycles");
    auto dq = sum_max(p.counters, "dram.ch[", ".queue_cycles");
    auto conflict = sum_max(p.counters, "sram.bank[", ".conflict_cycles");
    auto sbusy = sum_max(p.counters, "sram.bank[", ".busy_cycles");
    auto noc = sum_max(p.counters, "noc.link[", ".busy_cycles");
    auto lconf = sum_max(p.counters, "pe[", ".lmem.conflict_cycles");
    if (!dram.first && !sbusy.first && !noc.first) continue;
    double cyc = std::max<double>(1, double(p.cycles));
    rows.push_back({std::to_string(p.index), p.workload, std::to_string(dram.first),
                    fmt("%.0f%%", 100 * double(dram.second) / cyc), std::to_string(dq.first),
                    std::to_string(sbusy.first), std::to_string(conflict.first),
                    std::to_string(noc.first), fmt("%.0f%%", 100 * double(noc.second) / cyc),
                    std::to_string(lconf.first)});
  }
  if (rows.empty()) return;
  out << "\nmemory system (cycles summed over channels / banks / links; busiest one as % of the "
         "point's cycles)\n";
  print_table(out,
              {"point", "workload", "dram_busy", "dram_ch_max", "dram_queue", "sram_busy",
               "sram_conflict", "noc_busy", "noc_link_max", "lmem_conflict"},
              rows);
}

// TEXT as lines of at most WIDTH characters, each after INDENT, broken at
// spaces (a longer word is split); the text's own line breaks are kept and
// nothing is dropped.
std::string wrap(const std::string &text, size_t width, const std::string &indent) {
  std::string out;
  std::istringstream lines(text);
  std::string line;
  while (std::getline(lines, line)) {
    std::istringstream words(line);
    std::string word, cur;
    auto flush = [&] {
      out += indent + cur + "\n";
      cur.clear();
    };
    while (words >> word) {
      while (word.size() > width) {
        if (!cur.empty()) flush();
        cur = word.substr(0, width);
        word = word.substr(width);
        flush();
      }
      if (!cur.empty() && cur.size() + 1 + word.size() > width) flush();
      cur += (cur.empty() ? "" : " ") + word;
    }
    if (!cur.empty()) flush();
  }
  return out;
}

// Leaves of a JSON document by dotted path (arrays are leaves).
void flatten(const nlohmann::json &v, const std::string &path,
             std::map<std::string, nlohmann::json> &out) {
  if (v.is_object() && !v.empty()) {
    for (auto it = v.begin(); it != v.end(); ++it)
      flatten(it.value(), path.empty() ? it.key() : path + "." + it.key(), out);
    return;
  }
  out[path] = v;
}

// The scenario's base configuration, resolved as a point's is (point.cpp): the
// arch preset with the scenario's overrides, timing mode and sampling interval
// and no axis value. Read from /meta/scenario; throws when it cannot be rebuilt
// (a preset file moved, a base that is not a valid chip on its own).
nlohmann::json base_config(h5::File &f) {
  nlohmann::json doc = f.attr_json("/meta", "scenario");
  if (!doc.is_object()) throw Error("/meta/scenario is not a scenario document");
  Scenario s;
  s.file = f.attr_string("/meta", "scenario_file");
  if (doc.contains("arch") && doc["arch"].is_string()) s.arch = doc["arch"].get<std::string>();
  if (doc.contains("overrides") && doc["overrides"].is_object())
    for (auto it = doc["overrides"].begin(); it != doc["overrides"].end(); ++it)
      s.overrides.emplace_back(it.key(), it.value());
  if (doc.contains("timing") && doc["timing"].is_string())
    s.timing = doc["timing"].get<std::string>();
  if (doc.contains("sample_interval_cycles") && doc["sample_interval_cycles"].is_number_unsigned())
    s.sample_interval_cycles = doc["sample_interval_cycles"].get<uint64_t>();
  SweepPoint base;
  base.settings = s.overrides;
  nlohmann::json arch = point_arch_document(s, base);
  return model::params_from(ArchConfig::from_document(arch, s.file + " (base)")).arch.to_json();
}

// Per point, the fields of its resolved config that differ from the base.
void config_section(std::ostringstream &out, h5::File &f, const std::vector<PointRow> &pts) {
  nlohmann::json base;
  try {
    base = base_config(f);
  } catch (const std::exception &e) {
    out << "\nconfig against the scenario's base: not available (" << e.what() << ")\n";
    return;
  }
  std::map<std::string, nlohmann::json> flat_base;
  flatten(base, "", flat_base);
  std::vector<std::pair<const PointRow *, std::string>> lines;
  bool any = false;
  for (const auto &p : pts) {
    std::string diff;
    nlohmann::json config;
    try {
      config = f.attr_json("/points/" + std::to_string(p.index), "config");
    } catch (const std::exception &) {
    }
    if (!config.is_object() || config.empty()) {
      diff = "(no config recorded: the point failed before its config was resolved)";
    } else {
      std::map<std::string, nlohmann::json> flat;
      flatten(config, "", flat);
      for (const auto &[k, v] : flat) {
        auto b = flat_base.find(k);
        if (b == flat_base.end() || b->second != v)
          diff += (diff.empty() ? "" : " ") + k + "=" + cell(v);
      }
      for (const auto &[k, v] : flat_base)
        if (!flat.count(k)) diff += (diff.empty() ? "" : " ") + k + "=(absent)";
      any |= !diff.empty();
      if (diff.empty()) diff = "(base)";
    }
    lines.emplace_back(&p, diff);
  }
  out << "\nconfig against the scenario's base (arch preset + overrides, no axis value): the "
         "fields of each point's resolved config that differ\n";
  if (!any && !pts.empty()) {
    out << "  every point runs the base config\n";
    return;
  }
  for (const auto &[p, diff] : lines) {
    std::string head = "  point " + std::to_string(p->index) + " (" + p->workload + "): ";
    if (head.size() + diff.size() <= 100)
      out << head << diff << "\n";  // fits on one line
    else
      out << head << "\n" << wrap(diff, 96, "    ");
  }
}

// Failed points with their whole reason, wrapped.
void failures_section(std::ostringstream &out, const std::vector<PointRow> &pts) {
  bool head = false;
  for (const auto &p : pts) {
    if (p.status == "ok") continue;
    if (!head) out << "\nfailed points (full reasons)\n";
    head = true;
    out << "  point " << p.index << " (" << p.workload << (p.axes.empty() ? "" : ", " + p.axes)
        << "): " << p.status << "\n";
    out << wrap(p.reason.empty() ? "(no reason recorded)" : p.reason, 96, "    ");
  }
}

// Points with several ATen calls (traces): cycles per overload and the total
// simulated time; with `all_calls`, every call.
void ops_section(std::ostringstream &out, const std::filesystem::path &results,
                 const std::vector<PointRow> &pts, bool all_calls) {
  for (const auto &p : pts) {
    PointResult r = read_result_point(results, size_t(p.index));
    if (r.ops.size() < 2) continue;
    struct Agg {
      uint64_t calls = 0, ok = 0, failed = 0, unsupported = 0, cycles = 0, launches = 0;
    };
    std::map<std::string, Agg> agg;
    uint64_t total = 0, ok = 0, unsupported = 0;
    for (const auto &o : r.ops) {
      Agg &a = agg[o.op];
      ++a.calls;
      a.cycles += o.cycles;
      a.launches += o.launches;
      total += o.cycles;
      if (o.status == "ok")
        ++a.ok, ++ok;
      else if (o.status == "unsupported")
        ++a.unsupported, ++unsupported;
      else
        ++a.failed;
    }
    out << "\npoint " << p.index << " (" << p.workload << (p.axes.empty() ? "" : ", " + p.axes)
        << "): " << r.ops.size() << " calls, " << ok << " ok, " << unsupported
        << " without kernel, " << (r.ops.size() - ok - unsupported) << " failed; simulated "
        << total << " cycles = " << fmt("%.2f us", double(total) / (p.clock_ghz * 1e3)) << " at "
        << fmt("%g GHz", p.clock_ghz) << "\n";
    std::vector<std::pair<std::string, Agg>> sorted(agg.begin(), agg.end());
    std::stable_sort(sorted.begin(), sorted.end(), [](const auto &a, const auto &b) {
      return a.second.cycles > b.second.cycles;
    });
    Table rows;
    for (const auto &[op, a] : sorted)
      rows.push_back({op, std::to_string(a.calls), std::to_string(a.ok), std::to_string(a.failed),
                      std::to_string(a.unsupported), std::to_string(a.launches),
                      std::to_string(a.cycles),
                      fmt("%.1f%%", total ? 100.0 * double(a.cycles) / double(total) : 0.0)});
    print_table(out, {"op", "calls", "ok", "failed", "no_kernel", "launches", "cycles", "share"},
                rows);
    if (!all_calls) continue;
    Table calls;
    for (size_t i = 0; i < r.ops.size(); ++i) {
      std::string reason = r.ops[i].reason;
      if (reason.size() > 100) reason = reason.substr(0, 97) + "...";
      calls.push_back({std::to_string(i), r.ops[i].call, r.ops[i].status,
                       std::to_string(r.ops[i].cycles), reason});
    }
    print_table(out, {"call", "op", "status", "cycles", "reason"}, calls);
  }
}

}  // namespace

std::string format_report(const std::filesystem::path &results, bool all_calls) {
  h5::File f = h5::File::open(results);
  if (!f.exists("/summary") || !f.exists("/points"))
    throw Error("not a sweep results file (no /summary or /points)",
                ErrorContext{results.string(), "/", {}, {}, {}});
  std::string name = f.attr_string("/meta", "scenario_name");
  auto idx = f.read_int_column("/summary", "point");
  std::ostringstream out;
  out << "sweep " << name << ": " << idx.size() << " points (" << results.string() << ")\n";
  // Baseline: the first point that succeeded for each workload.
  std::map<std::string, uint64_t> baseline;
  std::vector<std::string> fields;
  std::vector<std::vector<std::string>> rows;
  std::vector<std::string> head = {"point", "workload"};
  bool fields_known = false;
  std::vector<PointRow> pts;
  for (int64_t i : idx) {
    std::string g = "/points/" + std::to_string(i);
    std::string status = f.attr_string(g, "status");
    std::string workload = f.attr_string(g, "workload");
    uint64_t cycles = uint64_t(f.attr_int(g, "cycles"));
    nlohmann::json axes = f.attr_json(g, "axis_values");
    if (!fields_known) {
      for (auto it = axes.begin(); it != axes.end(); ++it) fields.push_back(it.key());
      head.insert(head.end(), fields.begin(), fields.end());
      for (const char *h :
           {"status", "cycles", "sim_us", "speedup", "instr", "util core/dma/dpe/sfu/dram",
            "bytes lmem/sram/dram", "sram_hit", "roofline"})
        head.push_back(h);
      fields_known = true;
    }
    std::vector<std::pair<std::string, uint64_t>> counters;
    if (f.exists(g + "/counters")) {
      auto n = f.read_string_column(g + "/counters", "name");
      auto v = f.read_int_column(g + "/counters", "value");
      for (size_t k = 0; k < n.size() && k < v.size(); ++k)
        counters.emplace_back(n[k], uint64_t(v[k]));
    }
    std::vector<std::string> row = {std::to_string(i), workload};
    for (const auto &fl : fields) row.push_back(axes.contains(fl) ? cell(axes[fl]) : "-");
    row.push_back(status);
    bool ok = status == "ok";
    nlohmann::json config = f.attr_json(g, "config");
    double clock_ghz = config.contains("clock_ghz") && config["clock_ghz"].is_number()
                           ? config["clock_ghz"].get<double>()
                           : 1.0;
    if (clock_ghz <= 0) clock_ghz = 1.0;
    // A failed point that ran (a wrong result, a failing call of a trace) still has cycles.
    bool ran = ok || cycles > 0;
    row.push_back(ran ? std::to_string(cycles) : "-");
    row.push_back(ran ? fmt("%.2f", double(cycles) / (clock_ghz * 1e3)) : "-");
    if (ok && !baseline.count(workload)) baseline[workload] = cycles;
    char sp[32] = "-";
    if (ran && cycles && baseline[workload])
      std::snprintf(sp, sizeof sp, "%.2fx", double(baseline[workload]) / double(cycles));
    row.push_back(sp);
    row.push_back(ran ? std::to_string(f.attr_int(g, "instructions")) : "-");
    PointRow pt;
    pt.index = i;
    pt.workload = workload;
    pt.status = status;
    pt.cycles = cycles;
    pt.clock_ghz = clock_ghz;
    pt.counters = counters;
    for (const auto &fl : fields)
      if (axes.contains(fl)) {
        pt.axes += (pt.axes.empty() ? "" : ",") + fl + "=" + cell(axes[fl]);
        pt.values += (pt.values.empty() ? "" : "/") + cell(axes[fl]);
      }
    pts.push_back(pt);
    if (ran) {
      PointResult pr;
      pr.cycles = cycles;
      pr.instructions = uint64_t(f.attr_int(g, "instructions"));
      pr.config = config;
      pr.counters = counters;
      PointAnalysis an = analyze_point(pr);
      std::string util;
      for (const char *u : {"core", "dma", "dpe", "sfu", "dram"})
        for (const auto &x : an.units)
          if (x.unit == u)
            util +=
                (util.empty() ? "" : "/") + std::to_string(int(std::lround(100 * x.utilization)));
      row.push_back(util + "%");
      row.push_back(human(an.lmem_bytes) + "/" + human(an.sram_bytes) + "/" + human(an.dram_bytes));
      char b[64];
      std::snprintf(b, sizeof b, "%.0f%%", 100 * an.sram_hit_rate);
      row.push_back(an.sram_hit_rate < 0 ? "-" : b);
      std::snprintf(b, sizeof b, "%.0f%% %s", 100 * an.roofline_fraction, an.bound.c_str());
      row.push_back(b);
    } else {
      for (int k = 0; k < 4; ++k) row.push_back("-");
    }
    pts.back().reason = f.attr_string(g, "reason");  // in full, after the table
    rows.push_back(std::move(row));
  }
  print_table(out, head, rows);
  out << "speedup: cycles of the first successful point of the same workload / cycles of the "
         "point; sim_us: cycles / clock; util: busy fraction per unit; roofline: bound cycles / "
         "cycles and the binding bound (docs/results.md)\n";
  failures_section(out, pts);
  config_section(out, f, pts);
  pivot_section(out, pts, fields);
  memory_section(out, pts);
  energy_section(out, f, pts);
  ops_section(out, results, pts, all_calls);
  return out.str();
}

}  // namespace opforge::harness
