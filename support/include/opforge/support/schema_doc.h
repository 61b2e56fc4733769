//===- schema_doc.h - render a Schema as text, Markdown or JSON reference ---===//
//
// One rendering of a schema's fields (path, type, unit, default, allowed
// values, doc) shared by `opforge config schema` and docs/config.md, whose
// reference section is this Markdown verbatim (a test keeps them equal).
//
//===----------------------------------------------------------------------===//
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "opforge/support/json_schema.h"

namespace opforge {

// "1..256", "cache | scratch", ">= 0.001" or "" for a field's allowed values.
std::string describe_allowed(const FieldSpec &spec);

// One line per field: path, type, unit, default, allowed values, doc.
std::string schema_text(const Schema &schema);
// Markdown tables, one per top-level group.
std::string schema_markdown(const Schema &schema);
// [{"path", "type", "unit", "default", "allowed", "doc"}, ...]
nlohmann::json schema_json(const Schema &schema);

}  // namespace opforge
