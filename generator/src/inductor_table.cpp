// inductor_table.cpp - loads the lowering table and fills Triton templates.
#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>

#include "error_ctx.h"
#include "opforge/generator/evaluator.h"
#include "opforge/generator/inductor.h"
#include "opforge/support/config.h"
#include "opforge/support/error.h"

namespace fs = std::filesystem;

namespace opforge::generator {

namespace {

std::string read_text(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error("cannot read file", at_file(path));
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::string trim(std::string s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.erase(s.begin());
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.pop_back();
  return s;
}

struct SchemaArg {
  std::string name;
  std::string default_value;  // as written in the schema ("" when none)
  bool has_default = false;
  bool keyword_only = false;
};

// Arguments of "name(ARGS) -> ret".
std::vector<SchemaArg> schema_args(const std::string &schema) {
  std::vector<SchemaArg> out;
  size_t open = schema.find('(');
  if (open == std::string::npos) throw Error("schema has no argument list: '" + schema + "'");
  int depth = 0;
  bool kw = false;
  std::string cur;
  auto flush = [&] {
    std::string a = trim(cur);
    cur.clear();
    if (a.empty()) return;
    if (a == "*") {
      kw = true;
      return;
    }
    SchemaArg arg;
    arg.keyword_only = kw;
    // Split "type name=default" at the first '=' outside brackets.
    int d = 0;
    size_t eq = std::string::npos;
    for (size_t i = 0; i < a.size(); ++i) {
      if (a[i] == '(' || a[i] == '[') ++d;
      if (a[i] == ')' || a[i] == ']') --d;
      if (a[i] == '=' && d == 0) {
        eq = i;
        break;
      }
    }
    std::string decl = trim(eq == std::string::npos ? a : a.substr(0, eq));
    if (eq != std::string::npos) {
      arg.has_default = true;
      arg.default_value = trim(a.substr(eq + 1));
    }
    auto sp = decl.find_last_of(' ');
    if (sp == std::string::npos)
      throw Error("schema argument '" + a + "' has no name: '" + schema + "'");
    arg.name = decl.substr(sp + 1);
    out.push_back(arg);
  };
  size_t i = open + 1;
  for (; i < schema.size(); ++i) {
    char c = schema[i];
    if (c == '(' || c == '[') ++depth;
    if (c == ')' || c == ']') {
      if (depth == 0) break;
      --depth;
    }
    if (c == ',' && depth == 0) {
      flush();
      continue;
    }
    cur += c;
  }
  if (i >= schema.size()) throw Error("schema's argument list is not closed: '" + schema + "'");
  flush();
  return out;
}

// A schema default as a Python expression.
std::string python_default(const std::string &v) {
  if (v == "True" || v == "False" || v == "None") return v;
  if (v == "true") return "True";
  if (v == "false") return "False";
  if (!v.empty() && v.front() == '[') return v;  // int lists: [], [0, 1]
  if (!v.empty() && (v.front() == '"' || v.front() == '\'')) return v;
  if (v == "contiguous_format" || v == "strided" || v == "long" || v == "float")
    return "None";  // enum defaults the wrapper interpreter has no literal for
  return v;         // numbers (1, -1, 0.5, 1e-05)
}

}  // namespace

std::string python_signature(const std::string &schema) {
  std::string out;
  bool kw_started = false;
  for (const auto &a : schema_args(schema)) {
    if (!out.empty()) out += ", ";
    if (a.keyword_only && !kw_started) {
      out += "*, ";
      kw_started = true;
    }
    out += a.name;
    if (a.has_default) out += "=" + python_default(a.default_value);
  }
  return out;
}

std::string schema_argument_names(const std::string &schema) {
  std::string out;
  for (const auto &a : schema_args(schema)) out += (out.empty() ? "" : ", ") + a.name;
  return out;
}

namespace {

bool is_placeholder_char(char c) {
  return std::isupper(static_cast<unsigned char>(c)) ||
         std::isdigit(static_cast<unsigned char>(c)) || c == '_';
}

bool is_builtin(const std::string &k) {
  return k == "OVERLOAD" || k == "SCHEMA" || k == "WRAPPER" || k == "KERNEL" || k == "SIGNATURE" ||
         k == "ARG_NAMES" || k == "FAMILY";
}

// Fills placeholders of `text`; a value may itself name placeholders (a table
// default "PROMOTE": "{{OPERANDS}}"), filled in turn up to a small depth.
std::string fill(const std::string &path, const std::string &text,
                 const std::map<std::string, std::string> &values, std::set<std::string> &used,
                 int depth, int first_line) {
  if (depth > 4)
    throw Error("parameter values refer to each other too deeply (a cycle?)", at_file(path));
  std::string out;
  int line = first_line;
  size_t i = 0;
  while (i < text.size()) {
    if (text.compare(i, 2, "{{") == 0) {
      size_t j = i + 2;
      while (j < text.size() && is_placeholder_char(text[j])) ++j;
      if (j > i + 2 && text.compare(j, 2, "}}") == 0) {
        std::string name = text.substr(i + 2, j - i - 2);
        auto it = values.find(name);
        if (it == values.end())
          throw Error(
              "placeholder {{" + name + "}} has no value (give it in the table row's params)",
              at_file(path, line));
        used.insert(name);
        out += fill(path, it->second, values, used, depth + 1, line);
        i = j + 2;
        continue;
      }
    }
    if (text[i] == '\n') ++line;
    out += text[i++];
  }
  return out;
}

}  // namespace

std::string fill_template(const std::string &path, const std::string &text,
                          const std::map<std::string, std::string> &values) {
  std::set<std::string> used;
  std::string out = fill(path, text, values, used, 0, 1);
  for (const auto &[k, v] : values) {
    (void)v;
    if (!used.count(k) && !is_builtin(k))
      throw Error("parameter '" + k + "' is not used by the template", at_file(path));
  }
  return out;
}

namespace {

std::string param_text(const nlohmann::json &v, const std::string &file, const std::string &at) {
  if (v.is_string()) return v.get<std::string>();
  if (v.is_boolean()) return v.get<bool>() ? "True" : "False";
  if (v.is_number_integer()) return std::to_string(v.get<int64_t>());
  if (v.is_number()) {
    std::ostringstream ss;
    ss.precision(17);
    ss << v.get<double>();
    return ss.str();
  }
  if (v.is_null()) return "None";
  throw Error("a parameter must be a string, number, boolean or null", at_field(file, at));
}

void read_params(const nlohmann::json &obj, const std::string &file, const std::string &at,
                 std::map<std::string, std::string> &into) {
  if (!obj.is_object()) throw Error("must be an object", at_field(file, at));
  for (const auto &[k, v] : obj.items()) {
    if (k.empty() ||
        k.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") != std::string::npos)
      throw Error("parameter names are upper case (A-Z, 0-9, _): '" + k + "'",
                  at_field(file, at + "." + k));
    into[k] = param_text(v, file, at + "." + k);
  }
}

nlohmann::json parse_json_file(const std::string &path) {
  return parse_json(read_text(path), path);
}

const nlohmann::json &field(const nlohmann::json &obj, const char *name, const std::string &file,
                            const std::string &at) {
  if (!obj.is_object() || !obj.contains(name))
    throw Error(std::string("missing field '") + name + "'", at_field(file, at));
  return obj.at(name);
}

std::string string_field(const nlohmann::json &obj, const char *name, const std::string &file,
                         const std::string &at) {
  const auto &v = field(obj, name, file, at);
  if (!v.is_string() || v.get<std::string>().empty())
    throw Error("must be a non-empty string", at_field(file, at + "." + name));
  return v.get<std::string>();
}

std::vector<std::string> overload_list(const nlohmann::json &obj, const std::string &file,
                                       const std::string &at) {
  const auto &v = field(obj, "overloads", file, at);
  if (!v.is_array() || v.empty())
    throw Error("must be a non-empty array of overload names", at_field(file, at + ".overloads"));
  std::vector<std::string> out;
  for (size_t i = 0; i < v.size(); ++i) {
    std::string where = at + ".overloads[" + std::to_string(i) + "]";
    if (!v[i].is_string() || v[i].get<std::string>().rfind("aten::", 0) != 0)
      throw Error("must be an overload name like \"aten::add.Tensor\"", at_field(file, where));
    out.push_back(v[i].get<std::string>());
  }
  return out;
}

}  // namespace

std::string LoweringTable::default_dir() {
  return std::string(OPFORGE_SOURCE_DIR) + "/generator/inductor";
}

LoweringTable LoweringTable::load(const std::string &dir) {
  LoweringTable t;
  t.dir_ = dir;
  fs::path table_dir = fs::path(dir) / "table";
  if (!fs::is_directory(table_dir))
    throw Error("lowering table directory not found", at_file(table_dir.string()));
  std::vector<fs::path> files;
  for (const auto &e : fs::directory_iterator(table_dir))
    if (e.path().extension() == ".json") files.push_back(e.path());
  std::sort(files.begin(), files.end());
  std::map<std::string, std::string> owner;  // overload -> file
  for (const auto &p : files) {
    std::string file = p.string();
    auto j = parse_json_file(file);
    if (!j.is_object()) throw Error("a table file holds one JSON object", at_file(file));
    std::string family = string_field(j, "family", file, "");
    if (family != p.stem().string())
      throw Error("family '" + family + "' differs from the file name '" + p.stem().string() + "'",
                  at_field(file, "family"));
    std::map<std::string, std::string> defaults;
    if (j.contains("defaults")) read_params(j["defaults"], file, "defaults", defaults);
    const auto &rows = field(j, "rows", file, "");
    if (!rows.is_array()) throw Error("must be an array", at_field(file, "rows"));
    for (size_t r = 0; r < rows.size(); ++r) {
      std::string at = "rows[" + std::to_string(r) + "]";
      const auto &row = rows[r];
      auto overloads = overload_list(row, file, at);
      std::string tmpl = string_field(row, "template", file, at);
      fs::path tpath = fs::path(dir) / "templates" / family / (tmpl + ".py");
      if (!fs::exists(tpath))
        throw Error("template '" + tmpl + "' not found (" + tpath.string() + ")",
                    at_field(file, at + ".template"));
      std::map<std::string, std::string> params = defaults;
      if (row.contains("params")) read_params(row["params"], file, at + ".params", params);
      std::map<std::string, std::map<std::string, std::string>> per;
      if (row.contains("overload_params")) {
        const auto &op = row["overload_params"];
        if (!op.is_object())
          throw Error("must be an object", at_field(file, at + ".overload_params"));
        for (const auto &[ov, ps] : op.items()) {
          if (std::find(overloads.begin(), overloads.end(), ov) == overloads.end())
            throw Error("'" + ov + "' is not one of the row's overloads",
                        at_field(file, at + ".overload_params"));
          read_params(ps, file, at + ".overload_params." + ov, per[ov]);
        }
      }
      for (const auto &ov : overloads) {
        if (auto it = owner.find(ov); it != owner.end())
          throw Error("overload '" + ov + "' already has a row in " + it->second,
                      at_field(file, at + ".overloads"));
        owner[ov] = file + " " + at;
        LoweringRow lr;
        lr.family = family;
        lr.table_file = file;
        lr.row_index = static_cast<int>(r);
        lr.template_name = tmpl;
        lr.params = params;
        for (const auto &[k, v] : per[ov]) lr.params[k] = v;
        t.rows_[ov] = lr;
      }
    }
  }
  fs::path ex = fs::path(dir) / "excluded.json";
  if (fs::exists(ex)) {
    std::string file = ex.string();
    auto j = parse_json_file(file);
    const auto &list = field(j, "excluded", file, "");
    if (!list.is_array()) throw Error("must be an array", at_field(file, "excluded"));
    for (size_t i = 0; i < list.size(); ++i) {
      std::string at = "excluded[" + std::to_string(i) + "]";
      std::string reason = string_field(list[i], "reason", file, at);
      for (const auto &ov : overload_list(list[i], file, at)) {
        if (t.rows_.count(ov))
          throw Error("overload '" + ov + "' is excluded but also has a lowering row",
                      at_field(file, at));
        t.excluded_[ov] = reason;
      }
    }
  }
  return t;
}

std::optional<LoweringRow> LoweringTable::row(const std::string &overload) const {
  auto it = rows_.find(overload);
  if (it == rows_.end()) return std::nullopt;
  return it->second;
}

std::optional<std::string> LoweringTable::excluded(const std::string &overload) const {
  auto it = excluded_.find(overload);
  if (it == excluded_.end()) return std::nullopt;
  return it->second;
}

std::map<std::string, std::vector<std::string>> LoweringTable::families() const {
  std::map<std::string, std::vector<std::string>> out;
  for (const auto &[ov, r] : rows_) out[r.family].push_back(ov);
  return out;
}

Rendered LoweringTable::render(const std::string &overload, const std::string &schema) const {
  Rendered out;
  if (auto why = excluded(overload)) {
    out.excluded = true;
    out.error = "excluded: " + *why;
    return out;
  }
  auto r = row(overload);
  if (!r) {
    out.error = "no lowering rule for " + overload + " in " + dir_ + "/table";
    return out;
  }
  out.family = r->family;
  out.template_path =
      (fs::path(dir_) / "templates" / r->family / (r->template_name + ".py")).string();
  try {
    auto values = r->params;
    std::string w = wrapper_name(overload);
    values["OVERLOAD"] = overload;
    values["SCHEMA"] = schema;
    values["WRAPPER"] = w;
    values["KERNEL"] = w;
    values["FAMILY"] = r->family;
    values["SIGNATURE"] = python_signature(schema);
    values["ARG_NAMES"] = schema_argument_names(schema);
    out.source = fill_template(out.template_path, read_text(out.template_path), values);
  } catch (const Error &e) {
    out.error = e.what();
    out.source.clear();
  }
  return out;
}

}  // namespace opforge::generator
