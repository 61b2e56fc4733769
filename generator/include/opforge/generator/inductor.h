//===- inductor.h - the offline provider: lowering table + Triton templates ===//
//
// The lowering table (generator/inductor/table/<family>.json) maps ATen
// overloads to a template (generator/inductor/templates/<family>/<name>.py)
// and the parameters that fill its {{PLACEHOLDERS}}; excluded.json lists the
// overloads the target cannot support. Format: generator/inductor/README.md.
// The provider answers a request for an overload with the filled file.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "opforge/generator/provider.h"

namespace opforge::generator {

// "f(Tensor(a!) self, Tensor other, *, Scalar alpha=1) -> T" -> "self, other, *, alpha=1".
// Throws opforge::Error naming the schema when it cannot be read.
std::string python_signature(const std::string &schema);
// "self, other, alpha".
std::string schema_argument_names(const std::string &schema);

// Fills {{NAME}} placeholders of `text` (named `path` in errors). Throws
// opforge::Error naming the file, line and placeholder when one has no value,
// and naming the parameter when a value is never used.
std::string fill_template(const std::string &path, const std::string &text,
                          const std::map<std::string, std::string> &values);

struct LoweringRow {
  std::string family;
  std::string table_file;  // the JSON file the row came from
  int row_index = 0;
  std::string template_name;                  // file stem under templates/<family>/
  std::map<std::string, std::string> params;  // defaults + params + overload_params
};

struct Rendered {
  std::string source;         // filled template ("" when not rendered)
  std::string template_path;  // file used
  std::string family;
  std::string error;  // why not ("" when rendered)
  bool excluded = false;
};

class LoweringTable {
 public:
  // Reads <dir>/table/*.json and <dir>/excluded.json (optional). Throws
  // opforge::Error naming the file and JSON path of the first problem.
  static LoweringTable load(const std::string &dir);
  // <source dir>/generator/inductor
  static std::string default_dir();

  const std::string &dir() const { return dir_; }
  std::optional<LoweringRow> row(const std::string &overload) const;
  // The reason an overload is excluded, if it is.
  std::optional<std::string> excluded(const std::string &overload) const;
  // Families with a table file, and the overloads of each.
  std::map<std::string, std::vector<std::string>> families() const;
  // Fills the overload's template; never throws (problems go to Rendered::error).
  Rendered render(const std::string &overload, const std::string &schema) const;

 private:
  std::string dir_;
  std::map<std::string, LoweringRow> rows_;
  std::map<std::string, std::string> excluded_;
};

// A provider that answers each request with the rendered template of its
// overload (fenced), or Status::Unsupported naming why. Schemas come from
// `schemas` (overload -> schema); an overload missing there renders with "".
std::unique_ptr<Provider> make_inductor_provider(std::shared_ptr<const LoweringTable> table,
                                                 std::map<std::string, std::string> schemas);

}  // namespace opforge::generator
