//===- schema_doc.cpp - text, Markdown and JSON references of a schema -----===//
#include "opforge/support/schema_doc.h"

#include <algorithm>
#include <functional>

namespace opforge {

using Kind = FieldSpec::Kind;

namespace {

std::string show_bound(const FieldSpec &spec, double v) {
  if (spec.kind == Kind::Quantity && spec.dimension == units::Dimension::Size && v >= 0)
    return units::format_size({static_cast<uint64_t>(v)});
  return units::format_number(v);
}

std::string pad(std::string s, size_t width) {
  if (s.size() < width) s.append(width - s.size(), ' ');
  return s;
}

std::string cell(std::string s) {
  // Markdown table cells: escape pipes.
  std::string out;
  for (char c : s) {
    if (c == '|') out += "\\";
    out += c;
  }
  return out;
}

}  // namespace

std::string describe_allowed(const FieldSpec &spec) {
  if (spec.kind == Kind::Enum) {
    std::string out;
    for (const auto &c : spec.choices) out += (out.empty() ? "" : " | ") + c;
    return out;
  }
  if (spec.min && spec.max) return show_bound(spec, *spec.min) + ".." + show_bound(spec, *spec.max);
  if (spec.min) return ">= " + show_bound(spec, *spec.min);
  if (spec.max) return "<= " + show_bound(spec, *spec.max);
  return "";
}

std::string schema_text(const Schema &schema) {
  auto leaves = schema.leaves();
  size_t w = 0;
  for (const auto &l : leaves) w = std::max(w, l.dotted_path.size());
  std::string out;
  for (const auto &l : leaves) {
    const FieldSpec &f = *l.spec;
    out += pad(l.dotted_path, w + 2) + pad(f.type_name(), 11) + pad(f.unit_label, 16) +
           pad(describe_default(f), 14) + pad(describe_allowed(f), 22) + f.doc;
    while (!out.empty() && out.back() == ' ') out.pop_back();
    out += "\n";
  }
  return out;
}

std::string schema_markdown(const Schema &schema) {
  std::string out;
  auto table = [&](const std::string &heading, const std::string &doc,
                   const std::vector<SchemaLeaf> &leaves) {
    if (leaves.empty()) return;
    out += "### " + heading + "\n\n";
    if (!doc.empty()) out += doc + "\n\n";
    out += "| Field | Type | Unit | Default | Allowed | Description |\n";
    out += "|---|---|---|---|---|---|\n";
    for (const auto &l : leaves) {
      const FieldSpec &f = *l.spec;
      out += "| `" + l.dotted_path + "` | " + f.type_name() + " | " + cell(f.unit_label) + " | " +
             cell(describe_default(f)) + " | " + cell(describe_allowed(f)) + " | " + cell(f.doc) +
             " |\n";
    }
    out += "\n";
  };
  // One table per object that has fields of its own, in declaration order.
  std::function<void(const FieldSpec &, const std::string &)> visit =
      [&](const FieldSpec &obj, const std::string &prefix) {
        std::vector<SchemaLeaf> leaves;
        for (const auto &f : obj.fields)
          if (f.kind != Kind::Object)
            leaves.push_back({prefix.empty() ? f.name : prefix + "." + f.name, &f});
        table(prefix.empty() ? "Top level" : "`" + prefix + "`", obj.doc, leaves);
        for (const auto &f : obj.fields)
          if (f.kind == Kind::Object) visit(f, prefix.empty() ? f.name : prefix + "." + f.name);
      };
  visit(schema.root(), "");
  while (out.size() >= 2 && out.ends_with("\n\n")) out.pop_back();
  return out;
}

nlohmann::json schema_json(const Schema &schema) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto &l : schema.leaves()) {
    const FieldSpec &f = *l.spec;
    out.push_back({{"path", l.dotted_path},
                   {"type", f.type_name()},
                   {"unit", f.unit_label},
                   {"default", f.default_value},
                   {"allowed", describe_allowed(f)},
                   {"doc", f.doc}});
  }
  return out;
}

}  // namespace opforge
