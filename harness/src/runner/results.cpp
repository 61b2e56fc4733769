//===- results.cpp - point shards and the merged sweep HDF5 file ----------===//
#include "opforge/harness/results.h"

#include <unistd.h>

#include <algorithm>
#include <map>
#include <optional>

#include "opforge/support/error.h"
#include "opforge/support/h5store.h"

#ifndef OPFORGE_RUNNER_VERSION
#define OPFORGE_RUNNER_VERSION "0"
#endif
#ifndef OPFORGE_RUNNER_GIT_SHA
#define OPFORGE_RUNNER_GIT_SHA "unknown"
#endif

namespace opforge::harness {
namespace fs = std::filesystem;
using nlohmann::json;

namespace {

// Write one point under `g` ("/point" in a shard, "/points/<i>" in the sweep file).
void write_point(h5::File &f, const std::string &g, const PointResult &r) {
  f.create_group(g);
  f.set_attr(g, "index", int64_t(r.index));
  f.set_attr(g, "workload", r.workload);
  f.set_attr(g, "reason", r.reason);
  f.set_attr(g, "cycles", int64_t(r.cycles));
  f.set_attr(g, "instructions", int64_t(r.instructions));
  f.set_attr(g, "host_seconds", r.host_seconds);
  f.set_json_attr(g, "config", r.config);
  f.set_json_attr(g, "axis_values", r.axis_values);
  f.set_attr(g, "energy_j", r.energy_j);
  f.set_attr(g, "avg_power_w", r.avg_power_w);
  f.set_attr(g, "perf_per_w", r.perf_per_w);
  f.set_attr(g, "area_mm2", r.area_mm2);
  if (!r.energy_breakdown_j.is_null())
    f.set_json_attr(g, "energy_breakdown_j", r.energy_breakdown_j);
  if (!r.counters.empty()) {
    h5::Table t = f.create_table(
        g + "/counters", {{"name", h5::ColumnType::String}, {"value", h5::ColumnType::Int64}});
    std::vector<h5::Row> rows;
    rows.reserve(r.counters.size());
    for (const auto &[n, v] : r.counters) rows.push_back({n, int64_t(v)});
    t.append(rows);
  }
  if (!r.trace_names.empty() && !r.trace_cycles.empty()) {
    f.create_group(g + "/trace");
    f.set_json_attr(g + "/trace", "names", r.trace_names);
    f.write_dataset(g + "/trace/cycles", {r.trace_cycles.size()},
                    std::span<const int64_t>(r.trace_cycles));
    std::vector<int64_t> flat;
    for (const auto &row : r.trace_rows) flat.insert(flat.end(), row.begin(), row.end());
    f.write_dataset(g + "/trace/values", {r.trace_rows.size(), r.trace_names.size()},
                    std::span<const int64_t>(flat));
  }
  if (!r.ops.empty()) {
    h5::Table t = f.create_table(g + "/ops", {{"op", h5::ColumnType::String},
                                              {"call", h5::ColumnType::String},
                                              {"status", h5::ColumnType::String},
                                              {"reason", h5::ColumnType::String},
                                              {"cycles", h5::ColumnType::Int64},
                                              {"launches", h5::ColumnType::Int64}});
    std::vector<h5::Row> rows;
    for (const auto &o : r.ops)
      rows.push_back({o.op, o.call, o.status, o.reason, int64_t(o.cycles), int64_t(o.launches)});
    t.append(rows);
  }
  if (!r.instances.empty()) {
    h5::Table t = f.create_table(g + "/instances", {{"kernel", h5::ColumnType::String},
                                                    {"pe", h5::ColumnType::Int64},
                                                    {"program", h5::ColumnType::Int64},
                                                    {"start_cycle", h5::ColumnType::Int64},
                                                    {"end_cycle", h5::ColumnType::Int64},
                                                    {"instructions", h5::ColumnType::Int64}});
    std::vector<h5::Row> rows;
    for (const auto &x : r.instances)
      rows.push_back({x.kernel, int64_t(x.pe), int64_t(x.program), int64_t(x.start_cycle),
                      int64_t(x.end_cycle), int64_t(x.instructions)});
    t.append(rows);
  }
  // Status last: a point with a status attribute is complete.
  f.set_attr(g, "status", r.status);
}

PointResult read_point(const h5::File &f, const std::string &g) {
  PointResult r;
  r.index = size_t(f.attr_int(g, "index"));
  r.workload = f.attr_string(g, "workload");
  r.status = f.attr_string(g, "status");
  r.reason = f.attr_string(g, "reason");
  r.cycles = uint64_t(f.attr_int(g, "cycles"));
  r.instructions = uint64_t(f.attr_int(g, "instructions"));
  r.host_seconds = f.attr_double(g, "host_seconds");
  r.config = f.attr_json(g, "config");
  r.axis_values = f.attr_json(g, "axis_values");
  // Energy attributes are absent from files written before they existed.
  std::vector<std::string> attrs = f.attr_names(g);
  auto has = [&](const char *n) { return std::find(attrs.begin(), attrs.end(), n) != attrs.end(); };
  for (auto [name, field] :
       {std::pair{"energy_j", &r.energy_j}, std::pair{"avg_power_w", &r.avg_power_w},
        std::pair{"perf_per_w", &r.perf_per_w}, std::pair{"area_mm2", &r.area_mm2}})
    if (has(name)) *field = f.attr_double(g, name);
  if (has("energy_breakdown_j")) r.energy_breakdown_j = f.attr_json(g, "energy_breakdown_j");
  if (f.exists(g + "/counters")) {
    auto names = f.read_string_column(g + "/counters", "name");
    auto values = f.read_int_column(g + "/counters", "value");
    for (size_t i = 0; i < names.size() && i < values.size(); ++i)
      r.counters.emplace_back(names[i], uint64_t(values[i]));
  }
  if (f.exists(g + "/ops")) {
    auto op = f.read_string_column(g + "/ops", "op");
    auto call = f.read_string_column(g + "/ops", "call");
    auto status = f.read_string_column(g + "/ops", "status");
    auto reason = f.read_string_column(g + "/ops", "reason");
    auto cycles = f.read_int_column(g + "/ops", "cycles");
    auto launches = f.read_int_column(g + "/ops", "launches");
    for (size_t i = 0; i < op.size(); ++i)
      r.ops.push_back({op[i], call.at(i), status.at(i), reason.at(i), uint64_t(cycles.at(i)),
                       uint64_t(launches.at(i))});
  }
  if (f.exists(g + "/instances")) {
    auto kernel = f.read_string_column(g + "/instances", "kernel");
    auto pe = f.read_int_column(g + "/instances", "pe");
    auto program = f.read_int_column(g + "/instances", "program");
    auto start = f.read_int_column(g + "/instances", "start_cycle");
    auto end = f.read_int_column(g + "/instances", "end_cycle");
    auto instr = f.read_int_column(g + "/instances", "instructions");
    for (size_t i = 0; i < kernel.size(); ++i)
      r.instances.push_back({kernel[i], uint32_t(pe.at(i)), uint64_t(program.at(i)),
                             uint64_t(start.at(i)), uint64_t(end.at(i)), uint64_t(instr.at(i))});
  }
  if (f.exists(g + "/trace")) {
    r.trace_names = f.attr_json(g + "/trace", "names").get<std::vector<std::string>>();
    r.trace_cycles = f.read_ints(g + "/trace/cycles").values;
    auto vals = f.read_ints(g + "/trace/values");
    size_t cols = r.trace_names.size();
    for (size_t i = 0; cols && i + cols <= vals.values.size(); i += cols)
      r.trace_rows.emplace_back(vals.values.begin() + i, vals.values.begin() + i + cols);
  }
  return r;
}

}  // namespace

fs::path shard_dir(const fs::path &out) { return fs::path(out.string() + ".shards"); }

fs::path shard_path(const fs::path &out, size_t index) {
  return shard_dir(out) / ("point-" + std::to_string(index) + ".h5");
}

void write_shard(const fs::path &path, const PointResult &r) {
  fs::create_directories(path.parent_path());
  fs::path tmp = path;
  tmp += ".tmp" + std::to_string(::getpid());
  {
    h5::File f = h5::File::create(tmp);
    write_point(f, "/point", r);
    f.close();
  }
  fs::rename(tmp, path);
}

PointResult read_shard(const fs::path &path) {
  h5::File f = h5::File::open(path);
  if (!f.exists("/point"))
    throw Error("not a point shard (no /point)", ErrorContext{path.string(), "/point", {}, {}, {}});
  return read_point(f, "/point");
}

PointResult read_result_point(const fs::path &results, size_t index) {
  h5::File f = h5::File::open(results);
  std::string g = "/points/" + std::to_string(index);
  if (!f.exists("/points"))
    throw Error("not a sweep results file (no /points)",
                ErrorContext{results.string(), "/points", {}, {}, {}});
  if (!f.exists(g))
    throw Error("no point " + std::to_string(index) + " (the file has " +
                    std::to_string(f.attr_int("/meta", "points")) + " points)",
                ErrorContext{results.string(), g, {}, {}, {}});
  return read_point(f, g);
}

namespace {

// The results file a merge would replace: its finished points, and whether
// it is of the same sweep (then points without a shard keep its results).
struct Previous {
  bool exists = false, same_sweep = false;
  size_t finished = 0;
  std::vector<std::string> status;  // per point, when same_sweep
  std::optional<h5::File> file;
};

Previous previous_results(const fs::path &out, const Scenario &s, size_t points) {
  Previous prev;
  if (!fs::exists(out)) return prev;
  prev.exists = true;
  try {
    h5::File f = h5::File::open(out);
    std::vector<std::string> st = f.read_string_column("/summary", "status");
    for (const auto &x : st) prev.finished += x != "missing";
    prev.same_sweep = st.size() == points && f.attr_int("/meta", "points") == int64_t(points) &&
                      f.attr_json("/meta", "scenario") == s.document;
    if (prev.same_sweep) {
      prev.status = std::move(st);
      prev.file.emplace(std::move(f));
    }
  } catch (const Error &) {
    // Not a readable sweep file: nothing in it to keep or to compare with.
    prev = Previous{};
    prev.exists = true;
  }
  return prev;
}

}  // namespace

MergeSummary merge_results(const fs::path &out, const Scenario &s,
                           const std::vector<SweepPoint> &points) {
  if (out.has_parent_path()) fs::create_directories(out.parent_path());
  fs::path tmp = out;
  tmp += ".tmp" + std::to_string(::getpid());
  Previous prev = previous_results(out, s, points.size());
  MergeSummary sum;
  sum.points = points.size();
  std::vector<PointResult> results;
  for (const auto &p : points) {
    PointResult r;
    fs::path sp = shard_path(out, p.index);
    bool have = false;
    if (fs::exists(sp)) {
      try {
        r = read_shard(sp);
        have = true;
      } catch (const Error &e) {
        r.reason = std::string("unreadable shard: ") + e.what();
      }
    }
    if (!have && prev.file && p.index < prev.status.size() && prev.status[p.index] != "missing") {
      try {
        r = read_point(*prev.file, "/points/" + std::to_string(p.index));
        have = true;
        ++sum.kept;
      } catch (const Error &) {
      }
    }
    if (!have) {
      r.index = p.index;
      r.workload = s.workloads[p.workload].name;
      r.status = "missing";
      if (r.reason.empty()) r.reason = "point not run";
      r.axis_values = json::object();
      for (const auto &[k, v] : p.axis_values) r.axis_values[k] = v;
    }
    sum.finished += r.status != "missing";
    sum.ok += r.status == "ok";
    results.push_back(std::move(r));
  }
  if (prev.finished > sum.finished)
    throw FinishedWorkError("not replacing " + out.string() + ": it holds " +
                            std::to_string(prev.finished) + " finished point(s), the shards in " +
                            shard_dir(out).string() + " only " + std::to_string(sum.finished) +
                            (prev.same_sweep ? "" : " (and it is of another sweep)") +
                            "; finish the points with `opforge sweep SCENARIO --resume`, or move " +
                            out.string() + " away to replace it");
  prev.file.reset();
  {
    h5::File f = h5::File::create(tmp);
    f.create_group("/meta");
    f.set_attr("/meta", "version", OPFORGE_RUNNER_VERSION);
    f.set_attr("/meta", "git_sha", OPFORGE_RUNNER_GIT_SHA);
    f.set_attr("/meta", "scenario_name", s.name);
    f.set_attr("/meta", "scenario_file", s.file);
    f.set_json_attr("/meta", "scenario", s.document);
    f.set_attr("/meta", "points", int64_t(points.size()));
    f.create_group("/points");
    for (const auto &r : results) write_point(f, "/points/" + std::to_string(r.index), r);
    // Summary: fixed columns, then one column per swept field.
    std::vector<std::string> fields;
    for (const auto &a : s.axes) fields.insert(fields.end(), a.fields.begin(), a.fields.end());
    std::vector<h5::Column> cols = {
        {"point", h5::ColumnType::Int64},          {"workload", h5::ColumnType::String},
        {"status", h5::ColumnType::String},        {"reason", h5::ColumnType::String},
        {"cycles", h5::ColumnType::Int64},         {"instructions", h5::ColumnType::Int64},
        {"host_seconds", h5::ColumnType::Float64}, {"energy_j", h5::ColumnType::Float64},
        {"avg_power_w", h5::ColumnType::Float64},  {"perf_per_w", h5::ColumnType::Float64},
        {"area_mm2", h5::ColumnType::Float64}};
    std::vector<bool> numeric;
    for (const auto &fld : fields) {
      bool num = true;
      for (const auto &p : points)
        for (const auto &[k, v] : p.axis_values)
          if (k == fld && !v.is_number()) num = false;
      numeric.push_back(num);
      cols.push_back({fld, num ? h5::ColumnType::Float64 : h5::ColumnType::String});
    }
    h5::Table t = f.create_table("/summary", cols);
    std::vector<h5::Row> rows;
    for (const auto &r : results) {
      h5::Row row = {int64_t(r.index),        r.workload,    r.status, r.reason, int64_t(r.cycles),
                     int64_t(r.instructions), r.host_seconds};
      for (double v : {r.energy_j, r.avg_power_w, r.perf_per_w, r.area_mm2}) row.push_back(v);
      for (size_t i = 0; i < fields.size(); ++i) {
        json v = r.axis_values.is_object() && r.axis_values.contains(fields[i])
                     ? r.axis_values[fields[i]]
                     : json();
        if (numeric[i])
          row.push_back(v.is_number() ? v.get<double>() : 0.0);
        else
          row.push_back(v.is_string() ? v.get<std::string>() : v.dump());
      }
      rows.push_back(std::move(row));
    }
    if (!rows.empty()) t.append(rows);
    f.close();
  }
  fs::rename(tmp, out);
  return sum;
}

}  // namespace opforge::harness
