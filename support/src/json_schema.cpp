//===- json_schema.cpp - checking and resolving documents against a schema -===//
#include "opforge/support/json_schema.h"

#include <algorithm>
#include <charconv>
#include <cmath>

#include "opforge/support/error.h"

namespace opforge {

using nlohmann::json;
using Kind = FieldSpec::Kind;

bool FieldSpec::is_whole() const {
  return kind == Kind::Integer ||
         (kind == Kind::Quantity &&
          (dimension == units::Dimension::Size || dimension == units::Dimension::Count));
}

std::string FieldSpec::type_name() const {
  switch (kind) {
    case Kind::Object:
      return "object";
    case Kind::Bool:
      return "bool";
    case Kind::Integer:
      return "integer";
    case Kind::Number:
      return "number";
    case Kind::String:
      return "string";
    case Kind::Enum:
      return "enum";
    case Kind::Quantity:
      return std::string(units::dimension_name(dimension));
    case Kind::Metadata:
      return "metadata";
  }
  return "?";
}

const FieldSpec *FieldSpec::child(std::string_view n) const {
  for (const auto &f : fields)
    if (f.name == n) return &f;
  return nullptr;
}

static FieldSpec make(Kind kind, std::string name) {
  FieldSpec f;
  f.kind = kind;
  f.name = std::move(name);
  return f;
}

FieldSpec object(std::string name, std::string doc, std::vector<FieldSpec> fields) {
  FieldSpec f = make(Kind::Object, std::move(name));
  f.doc = std::move(doc);
  f.fields = std::move(fields);
  return f;
}
FieldSpec boolean(std::string name) { return make(Kind::Bool, std::move(name)); }
FieldSpec integer(std::string name) { return make(Kind::Integer, std::move(name)); }
FieldSpec number(std::string name) { return make(Kind::Number, std::move(name)); }
FieldSpec string(std::string name) { return make(Kind::String, std::move(name)); }
FieldSpec enumeration(std::vector<std::string> choices, std::string name) {
  FieldSpec f = make(Kind::Enum, std::move(name));
  f.choices = std::move(choices);
  return f;
}
FieldSpec quantity(units::Dimension dimension, std::string name) {
  FieldSpec f = make(Kind::Quantity, std::move(name));
  f.dimension = dimension;
  f.unit_label = std::string(units::canonical_unit(dimension));
  return f;
}
FieldSpec metadata(std::string name, std::string doc) {
  FieldSpec f = make(Kind::Metadata, std::move(name));
  f.doc = std::move(doc);
  return f;
}

namespace {

[[noreturn]] void fail(const std::string &file, const std::string &path, const std::string &msg) {
  throw Error(msg, ErrorContext{file, path.empty() ? "/" : path, {}, {}, {}});
}

size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diag = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diag + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diag = up;
    }
  }
  return row[b.size()];
}

// " (did you mean 'x'?)" for a close field name, or "" if none is close.
std::string suggestion(const FieldSpec &obj, std::string_view name) {
  const FieldSpec *best = nullptr;
  size_t best_d = 0;
  for (const auto &f : obj.fields) {
    size_t d = edit_distance(f.name, name);
    // Compare with the name less its unit suffix too ("size" for "size_bytes").
    if (size_t us = f.name.rfind('_'); us != std::string::npos)
      d = std::min(d, edit_distance(std::string_view(f.name).substr(0, us), name) + 1);
    if (!best || d < best_d) {
      best = &f;
      best_d = d;
    }
  }
  if (best && best_d <= std::max<size_t>(2, name.size() / 3))
    return " (did you mean '" + best->name + "'?)";
  return "";
}

std::string field_list(const FieldSpec &obj) {
  std::string out;
  for (const auto &f : obj.fields) {
    if (!out.empty()) out += ", ";
    out += f.name;
  }
  return out;
}

std::string choice_list(const FieldSpec &spec) {
  std::string out;
  for (const auto &c : spec.choices) {
    if (!out.empty()) out += ", ";
    out += c;
  }
  return out;
}

std::string show(double v) { return units::format_number(v); }

void check_range(const FieldSpec &spec, double v, const std::string &file,
                 const std::string &path) {
  bool low = spec.min && v < *spec.min, high = spec.max && v > *spec.max;
  if (!low && !high) return;
  std::string unit = spec.unit_label.empty() ? "" : " " + spec.unit_label;
  std::string allowed;
  if (spec.min && spec.max)
    allowed = "allowed " + show(*spec.min) + ".." + show(*spec.max) + unit;
  else if (spec.min)
    allowed = "minimum " + show(*spec.min) + unit;
  else
    allowed = "maximum " + show(*spec.max) + unit;
  fail(file, path, "value " + show(v) + unit + " out of range (" + allowed + ")");
}

json whole_number(double v) {
  if (v >= 0) return json(static_cast<uint64_t>(v));
  return json(static_cast<int64_t>(v));
}

json normalize_value(const FieldSpec &spec, const json &value, const std::string &file,
                     const std::string &path) {
  auto wrong_type = [&](const std::string &expected) {
    fail(file, path,
         "expected " + expected + ", got " + std::string(value.type_name()) + " " + value.dump());
  };
  switch (spec.kind) {
    case Kind::Object: {
      if (!value.is_object()) wrong_type("an object");
      for (const auto &[key, v] : value.items()) {
        (void)v;
        if (!spec.child(key))
          fail(file, path + "/" + key,
               "unknown field '" + key + "'" + suggestion(spec, key) +
                   "; known fields: " + field_list(spec));
      }
      json out = json::object();
      for (const auto &f : spec.fields) {
        const std::string p = path + "/" + f.name;
        if (value.contains(f.name)) {
          if (f.kind != Kind::Metadata) out[f.name] = normalize_value(f, value.at(f.name), file, p);
        } else if (f.kind == Kind::Object) {
          out[f.name] = normalize_value(f, json::object(), file, p);
        } else if (f.kind == Kind::Metadata) {
          continue;
        } else if (f.default_value.is_null()) {
          fail(file, p, "missing required field '" + f.name + "'");
        } else {
          out[f.name] = normalize_value(f, f.default_value, file, p);
        }
      }
      return out;
    }
    case Kind::Metadata:
      return value;
    case Kind::Bool:
      if (!value.is_boolean()) wrong_type("true or false");
      return value;
    case Kind::String:
      if (!value.is_string()) wrong_type("a string");
      return value;
    case Kind::Enum: {
      if (!value.is_string()) wrong_type("one of " + choice_list(spec));
      auto s = value.get<std::string>();
      if (std::find(spec.choices.begin(), spec.choices.end(), s) == spec.choices.end())
        fail(file, path, "bad value '" + s + "' (expected one of " + choice_list(spec) + ")");
      return value;
    }
    case Kind::Integer:
    case Kind::Number: {
      bool integral = spec.kind == Kind::Integer;
      if (!value.is_number()) wrong_type(integral ? "an integer" : "a number");
      double v = value.get<double>();
      if (!std::isfinite(v)) fail(file, path, "expected a finite number");
      if (integral && (value.is_number_float() && std::floor(v) != v))
        fail(file, path, "expected an integer, got " + value.dump());
      check_range(spec, v, file, path);
      if (integral) return value.is_number_float() ? whole_number(v) : value;
      return json(v);
    }
    case Kind::Quantity: {
      double v = 0;
      if (value.is_number()) {
        v = value.get<double>();
        if (!std::isfinite(v)) fail(file, path, "expected a finite number");
        if (v < 0) fail(file, path, "value " + value.dump() + " must not be negative");
        if (spec.is_whole() && !value.is_number_integer() && std::floor(v) != v)
          fail(file, path,
               "expected a whole number of " + spec.unit_label + ", got " + value.dump());
      } else if (value.is_string()) {
        try {
          v = units::parse_in_canonical_unit(spec.dimension, value.get<std::string>());
        } catch (const Error &e) {
          fail(file, path, e.message());
        }
      } else {
        wrong_type("a " + spec.type_name() + " (a number in " + spec.unit_label +
                   " or a string with a unit)");
      }
      check_range(spec, v, file, path);
      if (spec.is_whole()) {
        if (value.is_number_unsigned()) return value;
        return whole_number(v);
      }
      return json(v);
    }
  }
  return value;
}

std::vector<std::string> split_dotted(std::string_view dotted) {
  std::vector<std::string> parts;
  size_t start = 0;
  while (true) {
    size_t dot = dotted.find('.', start);
    parts.emplace_back(
        dotted.substr(start, dot == std::string_view::npos ? dotted.npos : dot - start));
    if (dot == std::string_view::npos) break;
    start = dot + 1;
  }
  return parts;
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

void collect_leaves(const FieldSpec &obj, const std::string &prefix, std::vector<SchemaLeaf> &out) {
  for (const auto &f : obj.fields) {
    std::string p = prefix.empty() ? f.name : prefix + "." + f.name;
    if (f.kind == Kind::Object)
      collect_leaves(f, p, out);
    else
      out.push_back({p, &f});
  }
}

}  // namespace

json Schema::normalize(const json &doc, const std::string &file) const {
  return normalize_value(root_, doc, file, "");
}

const FieldSpec *Schema::find(std::string_view dotted, std::string *resolved) const {
  const FieldSpec *cur = &root_;
  std::string path;
  auto parts = split_dotted(dotted);
  for (size_t i = 0; i < parts.size(); ++i) {
    if (cur->kind != Kind::Object || parts[i].empty()) return nullptr;
    const FieldSpec *next = cur->child(parts[i]);
    if (!next && i + 1 == parts.size()) {
      // "size" may stand for the one field "size_<unit>".
      for (const auto &f : cur->fields)
        if (f.kind != Kind::Object && f.name.starts_with(parts[i] + "_") &&
            f.name.find('_', parts[i].size() + 1) == std::string::npos) {
          if (next) return nullptr;  // ambiguous
          next = &f;
        }
    }
    if (!next) return nullptr;
    path += (path.empty() ? "" : ".") + next->name;
    cur = next;
  }
  if (resolved) *resolved = path;
  return cur;
}

void Schema::apply_override(json &doc, std::string_view assignment) const {
  const std::string where = "--set " + std::string(assignment);
  size_t eq = assignment.find('=');
  if (eq == std::string_view::npos)
    throw Error("expected KEY=VALUE, e.g. sram.size_bytes=128MiB",
                ErrorContext{where, {}, {}, {}, {}});
  std::string key(trim(assignment.substr(0, eq)));
  std::string text(trim(assignment.substr(eq + 1)));
  std::string resolved;
  const FieldSpec *spec = find(key, &resolved);
  auto fail_key = [&](const std::string &msg) {
    throw Error(msg, ErrorContext{where, {}, {}, {}, {}});
  };
  if (!spec) {
    // Name the deepest known prefix to help.
    std::string hint;
    auto parts = split_dotted(key);
    const FieldSpec *cur = &root_;
    for (const auto &p : parts) {
      const FieldSpec *n = cur->kind == Kind::Object ? cur->child(p) : nullptr;
      if (!n) {
        if (cur->kind == Kind::Object)
          hint = suggestion(*cur, p) + "; known fields here: " + field_list(*cur);
        break;
      }
      cur = n;
    }
    fail_key("unknown key '" + key + "'" + hint);
  }
  if (spec->kind == Kind::Object)
    fail_key("key '" + key + "' is a group; set one of its fields: " + field_list(*spec));
  if (spec->kind == Kind::Metadata)
    fail_key("key '" + key + "' is documentation and cannot be set");
  if (text.empty()) fail_key("empty value for key '" + resolved + "'");

  json value;
  switch (spec->kind) {
    case Kind::Bool:
      if (text == "true" || text == "1" || text == "yes" || text == "on")
        value = true;
      else if (text == "false" || text == "0" || text == "no" || text == "off")
        value = false;
      else
        fail_key("bad value '" + text + "' for key '" + resolved + "' (expected true or false)");
      break;
    case Kind::Integer: {
      int64_t n = 0;
      auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), n);
      if (ec != std::errc() || ptr != text.data() + text.size())
        fail_key("bad value '" + text + "' for key '" + resolved + "' (expected an integer)");
      value = n;
      break;
    }
    case Kind::Number: {
      double d = 0;
      auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), d);
      if (ec != std::errc() || ptr != text.data() + text.size())
        fail_key("bad value '" + text + "' for key '" + resolved + "' (expected a number)");
      value = d;
      break;
    }
    case Kind::String:
    case Kind::Enum:
      value = text;
      break;
    case Kind::Quantity:
      try {
        double d = units::parse_in_canonical_unit(spec->dimension, text);
        value = spec->is_whole() ? whole_number(d) : json(d);
      } catch (const Error &e) {
        fail_key("key '" + resolved + "': " + e.message());
      }
      break;
    case Kind::Object:
    case Kind::Metadata:
      break;
  }
  // Range and choices, reported against the assignment.
  try {
    value = normalize_value(*spec, value, "", "");
  } catch (const Error &e) {
    fail_key("key '" + resolved + "': " + e.message());
  }
  json *cur = &doc;
  auto parts = split_dotted(resolved);
  for (size_t i = 0; i + 1 < parts.size(); ++i) {
    if (!cur->is_object()) fail_key("cannot set '" + resolved + "': its parent is not an object");
    cur = &(*cur)[parts[i]];
    if (cur->is_null()) *cur = json::object();
  }
  if (!cur->is_object()) fail_key("cannot set '" + resolved + "': its parent is not an object");
  (*cur)[parts.back()] = value;
}

namespace {

nlohmann::ordered_json ordered(const FieldSpec &spec, const json &value) {
  if (spec.kind != Kind::Object || !value.is_object())
    return nlohmann::ordered_json::parse(value.dump());
  nlohmann::ordered_json out = nlohmann::ordered_json::object();
  for (const auto &f : spec.fields)
    if (value.contains(f.name)) out[f.name] = ordered(f, value.at(f.name));
  for (const auto &[k, v] : value.items())
    if (!spec.child(k)) out[k] = nlohmann::ordered_json::parse(v.dump());
  return out;
}

}  // namespace

std::string Schema::dump_ordered(const json &resolved, int indent) const {
  return ordered(root_, resolved).dump(indent);
}

std::vector<SchemaLeaf> Schema::leaves() const {
  std::vector<SchemaLeaf> out;
  collect_leaves(root_, "", out);
  return out;
}

std::string describe_default(const FieldSpec &spec) {
  if (spec.kind == Kind::Metadata) return "-";
  if (spec.default_value.is_null()) return "(required)";
  const json &d = spec.default_value;
  if (spec.kind == Kind::Quantity && d.is_number()) {
    double v = d.get<double>();
    switch (spec.dimension) {
      case units::Dimension::Size:
        return units::format_size({d.get<uint64_t>()});
      case units::Dimension::Frequency:
        return units::format_frequency(units::Frequency::from_ghz(v));
      case units::Dimension::Bandwidth:
        return units::format_bandwidth(units::Bandwidth::from_gbps(v));
      case units::Dimension::Time:
        return units::format_duration({v});
      case units::Dimension::Count:
        return units::format_number(v);
      case units::Dimension::Energy:
      case units::Dimension::Power:
      case units::Dimension::Area:
        return units::format_canonical(spec.dimension, v);
    }
  }
  if (d.is_string()) return d.get<std::string>();
  return d.dump();
}

}  // namespace opforge
