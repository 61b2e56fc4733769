//===- report.cpp - the comparison table of `opforge report` --------------===//
#include <algorithm>
#include <cstdio>
#include <map>
#include <sstream>

#include "opforge/harness/results.h"
#include "opforge/support/error.h"
#include "opforge/support/h5store.h"

namespace opforge::harness {

namespace {

// Sum of counters whose name ends with `suffix` (over PEs / channels).
uint64_t sum_suffix(const std::vector<std::pair<std::string, uint64_t>> &counters,
                    const std::string &suffix) {
  uint64_t t = 0;
  for (const auto &[n, v] : counters)
    if (n.size() >= suffix.size() &&
        n.compare(n.size() - suffix.size(), suffix.size(), suffix) == 0)
      t += v;
  return t;
}

uint64_t sum_match(const std::vector<std::pair<std::string, uint64_t>> &counters,
                   const std::string &prefix, const std::string &suffix) {
  uint64_t t = 0;
  for (const auto &[n, v] : counters)
    if (n.rfind(prefix, 0) == 0 && n.size() >= suffix.size() &&
        n.compare(n.size() - suffix.size(), suffix.size(), suffix) == 0)
      t += v;
  return t;
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
      for (const char *h : {"status", "cycles", "speedup", "instr", "dma_bytes", "dram_bytes",
                            "dpe_macs", "sram_hit/miss", "reason"})
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
    row.push_back(ok ? std::to_string(sum_suffix(counters, ".dma.bytes_read") +
                                      sum_suffix(counters, ".dma.bytes_written"))
                     : "-");
    row.push_back(ok ? std::to_string(sum_match(counters, "dram.", ".bytes_read") +
                                      sum_match(counters, "dram.", ".bytes_written"))
                     : "-");
    row.push_back(ok ? std::to_string(sum_suffix(counters, ".dpe.macs")) : "-");
    row.push_back(ok ? std::to_string(sum_suffix(counters, "sram.hits")) + "/" +
                           std::to_string(sum_suffix(counters, "sram.misses"))
                     : "-");
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
         "point\n";
  return out.str();
}

}  // namespace opforge::harness
