//===- catalog.h - the ATen op catalog: overloads by category ---------------===//
//
// Classifies ATen overloads into the categories the generator and reports use.
// The rules are one table (harness/src/corpus/catalog.cpp, documented in
// docs/corpus.md): an overload's base name ("aten::add_.Tensor" -> "add") is
// matched against exact names, then prefixes and suffixes, category by category
// in a fixed order; anything unmatched is "other".
//
//===----------------------------------------------------------------------===//
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "opforge/harness/corpus.h"

namespace opforge::harness {

enum class Category {
  Pointwise,
  Reduction,
  Indexing,
  ShapeView,
  LinearAlgebra,
  NormalizationDL,
  Other
};

inline constexpr Category kAllCategories[] = {
    Category::Pointwise,     Category::Reduction,       Category::Indexing, Category::ShapeView,
    Category::LinearAlgebra, Category::NormalizationDL, Category::Other};

// "pointwise", "reduction", "indexing", "shape/view", "linear algebra", "normalization/DL",
// "other".
std::string_view category_name(Category c);
// Accepts the names above and short forms ("shape", "view", "linalg", "norm", "dl").
std::optional<Category> parse_category(std::string_view name);
// "aten::add_.Tensor" -> "add" (namespace, overload and in-place underscore removed).
std::string overload_base_name(std::string_view overload);
Category categorize(std::string_view overload);

struct CatalogEntry {
  std::string overload;
  std::string schema;
  Category category;
  std::vector<opforge::DType> dtypes;  // with recorded calls, in the corpus's dtype order
  int64_t calls = 0;
};

// Every overload in the corpus, sorted by name, optionally filtered.
std::vector<CatalogEntry> catalog(const Corpus &corpus, std::optional<Category> category = {},
                                  std::optional<opforge::DType> dtype = {});

}  // namespace opforge::harness
