//===- json_schema.h - declared schemas for JSON configuration documents --===//
//
// A schema is a tree of typed fields (object, bool, integer, number, string,
// enum, quantity with a unit, free-form metadata), each with a default (or
// required), a range or a set of choices and a one-line doc. `normalize`
// checks a document against it and returns the fully resolved document:
// every field present, quantities converted to numbers in the field's unit
// ("384KiB" -> 393216 for a *_bytes field). Every error names the file and
// the JSON path ("tiny.json: /sram/size_bytes: ..."). `apply_override`
// applies one "--set dotted.key=value" assignment, parsing the value per the
// field's type; an unknown key or bad value is an error naming the key.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "opforge/support/units.h"

namespace opforge {

struct FieldSpec {
  enum class Kind { Object, Bool, Integer, Number, String, Enum, Quantity, Metadata };

  Kind kind = Kind::Object;
  std::string name;
  std::string doc;
  std::string unit_label;                                // shown in docs: "cycles", "GHz", "bytes"
  units::Dimension dimension = units::Dimension::Count;  // Quantity only
  std::optional<double> min, max;    // inclusive range (Integer, Number, Quantity)
  std::vector<std::string> choices;  // Enum only
  nlohmann::json default_value;      // null: the field is required
  std::vector<FieldSpec> fields;     // Object only

  // Fluent setters used to declare schemas.
  FieldSpec &def(nlohmann::json v) {
    default_value = std::move(v);
    return *this;
  }
  FieldSpec &range(double lo, double hi) {
    min = lo;
    max = hi;
    return *this;
  }
  FieldSpec &at_least(double lo) {
    min = lo;
    return *this;
  }
  FieldSpec &unit(std::string u) {
    unit_label = std::move(u);
    return *this;
  }
  FieldSpec &describe(std::string d) {
    doc = std::move(d);
    return *this;
  }

  bool required() const {
    return kind != Kind::Object && kind != Kind::Metadata && default_value.is_null();
  }
  // Quantities of size and count dimension, and integers, hold whole numbers.
  bool is_whole() const;
  // "integer", "number", "size", "enum", ... for docs and messages.
  std::string type_name() const;
  const FieldSpec *child(std::string_view name) const;
};

// Declaration helpers: `integer("rows").range(1, 64).def(8).describe("...")`.
FieldSpec object(std::string name, std::string doc, std::vector<FieldSpec> fields);
FieldSpec boolean(std::string name = {});
FieldSpec integer(std::string name = {});
FieldSpec number(std::string name = {});
FieldSpec string(std::string name = {});
FieldSpec enumeration(std::vector<std::string> choices, std::string name = {});
// A quantity in the dimension's canonical unit (bytes, GHz, GB/s, ns, count);
// documents may write a number in that unit or a string with any unit.
FieldSpec quantity(units::Dimension dimension, std::string name = {});
// Free-form documentation ("comment", "sources"): accepted, not kept.
FieldSpec metadata(std::string name, std::string doc);

// One leaf of a schema, for listings and docs.
struct SchemaLeaf {
  std::string dotted_path;  // "sram.size_bytes"
  const FieldSpec *spec;
};

class Schema {
 public:
  explicit Schema(FieldSpec root) : root_(std::move(root)) {}

  const FieldSpec &root() const { return root_; }

  // Validate `doc` and return it fully resolved. `file` names the document in
  // errors. Throws opforge::Error with file and JSON path.
  nlohmann::json normalize(const nlohmann::json &doc, const std::string &file) const;

  // Apply "dotted.key=value" to doc (creating objects on the way). A key may
  // omit its unit suffix when that is unambiguous ("sram.size" for
  // "sram.size_bytes"). Throws opforge::Error naming the assignment.
  void apply_override(nlohmann::json &doc, std::string_view assignment) const;

  // The field at a dotted path (after unit-suffix resolution) or null.
  const FieldSpec *find(std::string_view dotted_path, std::string *resolved = nullptr) const;

  // A resolved document as JSON text with fields in declaration order (plain
  // nlohmann::json sorts keys); fields the schema does not know come last.
  std::string dump_ordered(const nlohmann::json &resolved, int indent = 2) const;

  // Every non-object field in declaration order.
  std::vector<SchemaLeaf> leaves() const;

 private:
  FieldSpec root_;
};

// Render a field's value for docs: quantities with their unit ("384KiB").
std::string describe_default(const FieldSpec &spec);

}  // namespace opforge
