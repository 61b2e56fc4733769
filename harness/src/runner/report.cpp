//===- report.cpp - the comparison table of `opforge report` --------------===//
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <sstream>

#include "opforge/harness/results.h"
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

}  // namespace

std::string format_report(const std::filesystem::path &results) {
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
  for (int64_t i : idx) {
    std::string g = "/points/" + std::to_string(i);
    std::string status = f.attr_string(g, "status");
    std::string workload = f.attr_string(g, "workload");
    uint64_t cycles = uint64_t(f.attr_int(g, "cycles"));
    nlohmann::json axes = f.attr_json(g, "axis_values");
    if (!fields_known) {
      for (auto it = axes.begin(); it != axes.end(); ++it) fields.push_back(it.key());
      head.insert(head.end(), fields.begin(), fields.end());
      for (const char *h : {"status", "cycles", "speedup", "instr", "util core/dma/dpe/sfu/dram",
                            "bytes lmem/sram/dram", "sram_hit", "roofline", "reason"})
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
    row.push_back(ok ? std::to_string(cycles) : "-");
    if (ok && !baseline.count(workload)) baseline[workload] = cycles;
    char sp[32] = "-";
    if (ok && cycles && baseline[workload])
      std::snprintf(sp, sizeof sp, "%.2fx", double(baseline[workload]) / double(cycles));
    row.push_back(sp);
    row.push_back(ok ? std::to_string(f.attr_int(g, "instructions")) : "-");
    if (ok) {
      PointResult pr;
      pr.cycles = cycles;
      pr.instructions = uint64_t(f.attr_int(g, "instructions"));
      pr.config = f.attr_json(g, "config");
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
    std::string reason = f.attr_string(g, "reason");
    if (reason.size() > 60) reason = reason.substr(0, 57) + "...";
    for (char &ch : reason)
      if (ch == '\n') ch = ' ';
    row.push_back(reason);
    rows.push_back(std::move(row));
  }
  std::vector<size_t> width(head.size(), 0);
  for (size_t c = 0; c < head.size(); ++c) width[c] = head[c].size();
  for (const auto &r : rows)
    for (size_t c = 0; c < r.size() && c < width.size(); ++c)
      width[c] = std::max(width[c], r[c].size());
  auto line = [&](const std::vector<std::string> &r) {
    for (size_t c = 0; c < r.size(); ++c) {
      out << r[c];
      if (c + 1 < r.size()) out << std::string(width[c] - r[c].size() + 2, ' ');
    }
    out << "\n";
  };
  line(head);
  for (const auto &r : rows) line(r);
  out << "speedup: cycles of the first successful point of the same workload / cycles of the "
         "point; util: busy fraction per unit; roofline: bound cycles / cycles and the binding "
         "bound (docs/results.md)\n";
  return out.str();
}

}  // namespace opforge::harness
