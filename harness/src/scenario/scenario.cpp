//===- scenario.cpp - reading and validating scenario JSON files ----------===//
#include "opforge/harness/scenario.h"

#include <cmath>
#include <filesystem>
#include <fstream>
#include <set>

#include "opforge/isa/extension.h"
#include "opforge/model/params.h"
#include "opforge/support/arch_config.h"
#include "opforge/support/config.h"
#include "opforge/support/error.h"
#include "workload_parse.h"

namespace opforge::harness {
namespace fs = std::filesystem;
using nlohmann::json;

namespace {

struct Ctx {
  std::string file;
  [[noreturn]] void fail(const std::string &path, const std::string &msg) const {
    throw Error(msg, ErrorContext{file, path.empty() ? "/" : path, {}, {}, {}});
  }
  void only(const json &obj, const std::string &path, std::set<std::string> allowed) const {
    if (!obj.is_object()) fail(path, "expected an object");
    for (auto it = obj.begin(); it != obj.end(); ++it)
      if (!allowed.count(it.key())) fail(path + "/" + it.key(), "unknown field '" + it.key() + "'");
  }
  const json &need(const json &obj, const std::string &path, const std::string &key) const {
    if (!obj.contains(key)) fail(path + "/" + key, "missing required field '" + key + "'");
    return obj.at(key);
  }
  std::string str(const json &v, const std::string &path) const {
    if (!v.is_string()) fail(path, "expected a string");
    return v.get<std::string>();
  }
  uint64_t u64(const json &v, const std::string &path) const {
    if (v.is_number_unsigned()) return v.get<uint64_t>();
    if (v.is_number_integer() && v.get<int64_t>() >= 0) return uint64_t(v.get<int64_t>());
    fail(path, "expected a non-negative integer");
  }
  double num(const json &v, const std::string &path) const {
    if (!v.is_number()) fail(path, "expected a number");
    return v.get<double>();
  }
};

const json *find_dotted(const json &doc, const std::string &dotted) {
  const json *cur = &doc;
  size_t pos = 0;
  while (true) {
    size_t dot = dotted.find('.', pos);
    std::string key = dotted.substr(pos, dot == std::string::npos ? std::string::npos : dot - pos);
    if (!cur->is_object() || !cur->contains(key)) return nullptr;
    cur = &(*cur)[key];
    if (dot == std::string::npos) return cur;
    pos = dot + 1;
  }
}

// Values of one field: a list, or a range {start, stop, step|factor} (stop inclusive).
std::vector<json> axis_values(const Ctx &c, const json &v, const std::string &path) {
  std::vector<json> out;
  if (v.is_array()) {
    for (const auto &e : v) out.push_back(e);
  } else if (v.is_object()) {
    c.only(v, path, {"start", "stop", "step", "factor"});
    double start = c.num(c.need(v, path, "start"), path + "/start");
    double stop = c.num(c.need(v, path, "stop"), path + "/stop");
    bool has_step = v.contains("step"), has_factor = v.contains("factor");
    if (has_step == has_factor) c.fail(path, "a range needs exactly one of 'step' or 'factor'");
    bool integral = v["start"].is_number_integer() && v["stop"].is_number_integer();
    auto push = [&](double x) {
      if (integral)
        out.push_back(int64_t(std::llround(x)));
      else
        out.push_back(x);
    };
    if (has_step) {
      double step = c.num(v["step"], path + "/step");
      integral &= v["step"].is_number_integer();
      if (step <= 0) c.fail(path + "/step", "step must be positive");
      for (double x = start; x <= stop + 1e-9 * std::fabs(stop) && out.size() < 100000; x += step)
        push(x);
    } else {
      double factor = c.num(v["factor"], path + "/factor");
      integral &= v["factor"].is_number_integer();
      if (factor <= 1) c.fail(path + "/factor", "factor must be greater than 1");
      if (start <= 0) c.fail(path + "/start", "a geometric range needs a positive start");
      for (double x = start; x <= stop * (1 + 1e-9) && out.size() < 100000; x *= factor) push(x);
    }
  } else {
    c.fail(path, "expected a list of values or a range {start, stop, step|factor}");
  }
  if (out.empty()) c.fail(path, "empty sweep: no values");
  return out;
}

void check_field(const Ctx &c, const json &arch_doc, const std::string &field,
                 const std::string &path) {
  if (field.empty()) c.fail(path, "empty architecture field name");
  const json *f = find_dotted(arch_doc, field);
  if (!f) c.fail(path, "unknown architecture field '" + field + "'");
  if (f->is_object()) c.fail(path, "'" + field + "' is a group of fields, not a field");
}

// ISA extension files: a list of paths relative to base_dir, each read and
// parsed now so a bad file is an error of the scenario (registered per point).
std::vector<std::string> isa_extension_files(const Ctx &c, const json &v, const std::string &path,
                                             const std::string &base_dir) {
  if (!v.is_array()) c.fail(path, "expected a list of ISA extension files");
  std::vector<std::string> out;
  for (size_t i = 0; i < v.size(); ++i) {
    const std::string ip = path + "/" + std::to_string(i);
    fs::path p = c.str(v[i], ip);
    if (p.is_relative()) p = fs::path(base_dir) / p;
    try {
      isa::load_extension(p.string());
    } catch (const Error &e) {
      c.fail(ip, e.what());
    }
    out.push_back(fs::absolute(p).lexically_normal().string());
  }
  return out;
}

// An `isa_ext` axis: every value a list of extension files.
void check_isa_ext_axis(const Ctx &c, const std::vector<json> &values, const std::string &path,
                        const std::string &base_dir) {
  for (size_t i = 0; i < values.size(); ++i) {
    if (!values[i].is_array())
      c.fail(path + "/" + std::to_string(i),
             "an isa_ext value is a list of ISA extension files ([] for none)");
    isa_extension_files(c, values[i], path + "/" + std::to_string(i), base_dir);
  }
}

Workload parse_workload(const Ctx &c, const json &w, const std::string &path,
                        const std::string &base_dir) {
  Workload out;
  std::string kind = c.str(c.need(w, path, "kind"), path + "/kind");
  if (kind == "aten" || kind == "corpus" || kind == "trace")
    return detail::parse_aten_family_workload(w, c.file, path, base_dir);
  if (kind == "model") return detail::parse_model_workload(w, c.file, path, base_dir);
  if (kind != "elf" && kind != "asm")
    c.fail(path + "/kind", "unknown workload kind '" + kind +
                               "' (expected elf, asm, aten, corpus, trace or model)");
  c.only(w, path, {"name", "kind", "path", "grid", "args"});
  out.kind = kind == "elf" ? Workload::Kind::Elf : Workload::Kind::Asm;
  fs::path p = c.str(c.need(w, path, "path"), path + "/path");
  if (p.is_relative()) p = fs::path(base_dir) / p;
  if (!fs::exists(p)) c.fail(path + "/path", "program not found: " + p.string());
  out.path = fs::absolute(p).lexically_normal().string();
  out.name = w.contains("name") ? c.str(w["name"], path + "/name") : p.stem().string();
  if (w.contains("grid")) {
    const json &g = w["grid"];
    if (g.is_string() && g.get<std::string>() == "per_pe") {
      out.grid_per_pe = true;
    } else if (g.is_array() && !g.empty() && g.size() <= 3) {
      for (size_t i = 0; i < g.size(); ++i) {
        uint64_t v = c.u64(g[i], path + "/grid/" + std::to_string(i));
        if (v == 0 || v > 65535)
          c.fail(path + "/grid/" + std::to_string(i), "grid extent must be 1..65535");
        out.grid[i] = uint32_t(v);
      }
    } else {
      c.fail(path + "/grid", "expected [x, y, z] (1 to 3 extents) or \"per_pe\"");
    }
  }
  if (w.contains("args")) {
    if (!w["args"].is_array()) c.fail(path + "/args", "expected a list");
    for (size_t i = 0; i < w["args"].size(); ++i) {
      const json &a = w["args"][i];
      std::string ap = path + "/args/" + std::to_string(i);
      KernelArg k;
      if (a.is_number()) {
        k.value = c.u64(a, ap);
      } else if (a.is_object() && a.contains("alloc_bytes")) {
        c.only(a, ap, {"alloc_bytes", "per_program"});
        k.kind = KernelArg::Kind::Alloc;
        k.value = c.u64(a["alloc_bytes"], ap + "/alloc_bytes");
        if (k.value == 0) c.fail(ap + "/alloc_bytes", "must be positive");
        if (a.contains("per_program")) {
          if (!a["per_program"].is_boolean()) c.fail(ap + "/per_program", "expected true or false");
          k.per_program = a["per_program"].get<bool>();
        }
      } else if (a.is_object() && a.contains("local_base")) {
        c.only(a, ap, {"local_base"});
        k.kind = KernelArg::Kind::LocalBase;
        k.value = c.u64(a["local_base"], ap + "/local_base");
      } else {
        c.fail(ap,
               "expected an integer, {\"alloc_bytes\": N[, \"per_program\": bool]} or "
               "{\"local_base\": OFFSET}");
      }
      out.args.push_back(k);
    }
  }
  return out;
}

}  // namespace

json resolved_arch_document(const std::string &arch) { return ArchConfig::load(arch).to_json(); }

void set_arch_field(json &doc, const std::string &dotted, const json &value,
                    const std::string &where) {
  json *cur = &doc;
  size_t pos = 0;
  while (true) {
    size_t dot = dotted.find('.', pos);
    std::string key = dotted.substr(pos, dot == std::string::npos ? std::string::npos : dot - pos);
    if (!cur->is_object() || !cur->contains(key))
      throw Error("unknown architecture field '" + dotted + "'",
                  ErrorContext{where, dotted, {}, {}, {}});
    cur = &(*cur)[key];
    if (dot == std::string::npos) break;
    pos = dot + 1;
  }
  *cur = value;
}

Scenario parse_scenario(const json &doc, const std::string &file, const std::string &base_dir) {
  Ctx c{file};
  c.only(doc, "",
         {"name", "description", "arch", "overrides", "sweep", "workloads", "timing",
          "sample_interval_cycles", "sample_counters", "timeout_s", "output", "isa_extensions"});
  Scenario s;
  s.file = file;
  s.base_dir = base_dir;
  if (doc.contains("isa_extensions"))
    s.isa_extensions = isa_extension_files(c, doc["isa_extensions"], "/isa_extensions", base_dir);
  s.document = doc;
  s.name = c.str(c.need(doc, "", "name"), "/name");
  if (doc.contains("description")) s.description = c.str(doc["description"], "/description");
  if (doc.contains("arch")) s.arch = c.str(doc["arch"], "/arch");
  json arch_doc;
  try {
    arch_doc = resolved_arch_document(s.arch);
  } catch (const Error &e) {
    c.fail("/arch", "cannot load architecture '" + s.arch + "': " + e.what());
  }
  if (doc.contains("overrides")) {
    if (!doc["overrides"].is_object())
      c.fail("/overrides", "expected an object {\"field\": value}");
    for (auto it = doc["overrides"].begin(); it != doc["overrides"].end(); ++it) {
      check_field(c, arch_doc, it.key(), "/overrides/" + it.key());
      s.overrides.emplace_back(it.key(), it.value());
    }
  }
  if (doc.contains("sweep")) {
    const json &sw = doc["sweep"];
    if (!sw.is_array()) c.fail("/sweep", "expected a list of axes");
    for (size_t i = 0; i < sw.size(); ++i) {
      std::string ap = "/sweep/" + std::to_string(i);
      const json &a = sw[i];
      SweepAxis axis;
      if (a.is_object() && a.contains("zip")) {
        c.only(a, ap, {"zip"});
        const json &z = a["zip"];
        if (!z.is_object() || z.empty())
          c.fail(ap + "/zip", "expected an object {\"field\": values, ...}");
        std::vector<std::vector<json>> cols;
        for (auto it = z.begin(); it != z.end(); ++it) {
          if (it.key() != kIsaExtAxis) check_field(c, arch_doc, it.key(), ap + "/zip/" + it.key());
          axis.fields.push_back(it.key());
          cols.push_back(axis_values(c, it.value(), ap + "/zip/" + it.key()));
          if (it.key() == kIsaExtAxis)
            check_isa_ext_axis(c, cols.back(), ap + "/zip/" + it.key(), base_dir);
          if (cols.back().size() != cols.front().size())
            c.fail(ap + "/zip/" + it.key(), "zipped fields need the same number of values (" +
                                                std::to_string(cols.front().size()) + " vs " +
                                                std::to_string(cols.back().size()) + ")");
        }
        for (size_t k = 0; k < cols.front().size(); ++k) {
          std::vector<json> step;
          for (const auto &col : cols) step.push_back(col[k]);
          axis.values.push_back(std::move(step));
        }
      } else if (a.is_object() && a.contains("field")) {
        c.only(a, ap, {"field", "values"});
        std::string f = c.str(a["field"], ap + "/field");
        if (f != kIsaExtAxis) check_field(c, arch_doc, f, ap + "/field");
        axis.fields.push_back(f);
        std::vector<json> values = axis_values(c, c.need(a, ap, "values"), ap + "/values");
        if (f == kIsaExtAxis) check_isa_ext_axis(c, values, ap + "/values", base_dir);
        for (auto &v : values) axis.values.push_back({v});
      } else {
        c.fail(ap, "expected {\"field\": NAME, \"values\": [...] | {range}} or {\"zip\": {...}}");
      }
      s.axes.push_back(std::move(axis));
    }
  }
  const json &wl = c.need(doc, "", "workloads");
  if (!wl.is_array()) c.fail("/workloads", "expected a list");
  if (wl.empty()) c.fail("/workloads", "empty sweep: no workloads");
  for (size_t i = 0; i < wl.size(); ++i)
    s.workloads.push_back(parse_workload(c, wl[i], "/workloads/" + std::to_string(i), base_dir));
  if (doc.contains("timing")) {
    s.timing = c.str(doc["timing"], "/timing");
    if (s.timing != "functional" && s.timing != "lt")
      c.fail("/timing", "expected 'functional' or 'lt'");
  }
  if (doc.contains("sample_interval_cycles"))
    s.sample_interval_cycles = c.u64(doc["sample_interval_cycles"], "/sample_interval_cycles");
  if (doc.contains("sample_counters")) {
    if (!doc["sample_counters"].is_array()) c.fail("/sample_counters", "expected a list of globs");
    for (size_t i = 0; i < doc["sample_counters"].size(); ++i)
      s.sample_counters.push_back(
          c.str(doc["sample_counters"][i], "/sample_counters/" + std::to_string(i)));
  }
  if (s.sample_interval_cycles && s.sample_counters.empty())
    s.sample_counters = {"pe[*].core.instret"};
  if (doc.contains("timeout_s")) {
    s.timeout_s = c.num(doc["timeout_s"], "/timeout_s");
    if (s.timeout_s <= 0) c.fail("/timeout_s", "must be positive");
  }
  s.output = doc.contains("output") ? c.str(doc["output"], "/output") : "results/" + s.name + ".h5";
  return s;
}

Scenario parse_scenario_file(const std::string &path) {
  if (!std::ifstream(path))
    throw Error("cannot open scenario file", ErrorContext{path, "", {}, {}, {}});
  json doc = load_json_file(path);
  std::string base = fs::absolute(fs::path(path)).parent_path().string();
  return parse_scenario(doc, path, base);
}

}  // namespace opforge::harness
