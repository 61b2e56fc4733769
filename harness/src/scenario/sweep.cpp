//===- sweep.cpp - cartesian expansion of sweep axes into points ----------===//
#include "opforge/harness/sweep.h"

#include <filesystem>

#include "opforge/support/error.h"

namespace opforge::harness {

std::vector<SweepPoint> expand_sweep(const Scenario &s) {
  if (s.workloads.empty())
    throw Error("empty sweep: no workloads", ErrorContext{s.file, "/workloads", {}, {}, {}});
  size_t combos = 1;
  for (size_t a = 0; a < s.axes.size(); ++a) {
    if (s.axes[a].values.empty())
      throw Error("empty sweep: axis has no values",
                  ErrorContext{s.file, "/sweep/" + std::to_string(a), {}, {}, {}});
    combos *= s.axes[a].values.size();
    if (combos > 1000000)
      throw Error("sweep has more than a million points",
                  ErrorContext{s.file, "/sweep", {}, {}, {}});
  }
  std::vector<SweepPoint> points;
  points.reserve(combos * s.workloads.size());
  for (size_t c = 0; c < combos; ++c) {
    // Mixed-radix digits of c, the last axis varying fastest.
    std::vector<size_t> digit(s.axes.size());
    size_t rest = c;
    for (size_t a = s.axes.size(); a-- > 0;) {
      digit[a] = rest % s.axes[a].values.size();
      rest /= s.axes[a].values.size();
    }
    for (size_t w = 0; w < s.workloads.size(); ++w) {
      SweepPoint p;
      p.index = points.size();
      p.workload = w;
      p.settings = s.overrides;
      for (size_t a = 0; a < s.axes.size(); ++a)
        for (size_t f = 0; f < s.axes[a].fields.size(); ++f) {
          p.settings.emplace_back(s.axes[a].fields[f], s.axes[a].values[digit[a]][f]);
          p.axis_values.emplace_back(s.axes[a].fields[f], s.axes[a].values[digit[a]][f]);
        }
      points.push_back(std::move(p));
    }
  }
  return points;
}

nlohmann::json point_arch_document(const Scenario &s, const SweepPoint &p) {
  nlohmann::json doc = resolved_arch_document(s.arch);
  std::string where = s.file.empty() ? s.name : s.file;
  for (const auto &[field, value] : p.settings)
    if (field != kIsaExtAxis) set_arch_field(doc, field, value, where);
  if (!s.timing.empty()) set_arch_field(doc, "simulation.timing_mode", s.timing, where);
  if (s.sample_interval_cycles)
    set_arch_field(doc, "simulation.sample_interval_cycles", s.sample_interval_cycles, where);
  return doc;
}

std::vector<std::string> point_isa_extensions(const Scenario &s, const SweepPoint &p) {
  std::vector<std::string> out = s.isa_extensions;
  for (const auto &[field, value] : p.settings) {
    if (field != kIsaExtAxis || !value.is_array()) continue;
    for (const auto &f : value) {
      std::filesystem::path path = f.get<std::string>();
      if (path.is_relative()) path = std::filesystem::path(s.base_dir) / path;
      out.push_back(path.lexically_normal().string());
    }
  }
  return out;
}

}  // namespace opforge::harness
