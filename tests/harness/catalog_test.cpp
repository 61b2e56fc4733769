//===- catalog_test.cpp - overload categories and the catalog listing ------===//
#include <gtest/gtest.h>

#include "corpus_fixture.h"
#include "opforge/harness/catalog.h"

using namespace opforge;
using namespace opforge::harness;

TEST(Catalog, CategorizesRepresentativeOverloads) {
  EXPECT_EQ(categorize("aten::add.Tensor"), Category::Pointwise);
  EXPECT_EQ(categorize("aten::add_.Tensor"), Category::Pointwise);
  EXPECT_EQ(categorize("aten::sigmoid"), Category::Pointwise);
  EXPECT_EQ(categorize("aten::where.self"), Category::Pointwise);
  EXPECT_EQ(categorize("aten::sum.dim_IntList"), Category::Reduction);
  EXPECT_EQ(categorize("aten::amax"), Category::Reduction);
  EXPECT_EQ(categorize("aten::index_select"), Category::Indexing);
  EXPECT_EQ(categorize("aten::index_copy"), Category::Indexing);
  EXPECT_EQ(categorize("aten::gather"), Category::Indexing);
  EXPECT_EQ(categorize("aten::view"), Category::ShapeView);
  EXPECT_EQ(categorize("aten::cat"), Category::ShapeView);
  EXPECT_EQ(categorize("aten::_reshape_alias"), Category::ShapeView);
  EXPECT_EQ(categorize("aten::mm"), Category::LinearAlgebra);
  EXPECT_EQ(categorize("aten::linalg_vector_norm"), Category::LinearAlgebra);
  EXPECT_EQ(categorize("aten::_softmax"), Category::NormalizationDL);
  EXPECT_EQ(categorize("aten::native_layer_norm"), Category::NormalizationDL);
  EXPECT_EQ(categorize("aten::max_pool2d_with_indices"), Category::NormalizationDL);
  EXPECT_EQ(categorize("aten::mse_loss"), Category::NormalizationDL);
  EXPECT_EQ(categorize("aten::arange.start"), Category::Other);
}

TEST(Catalog, ParsesCategoryNamesAndShortForms) {
  for (Category c : kAllCategories) EXPECT_EQ(parse_category(category_name(c)), c);
  EXPECT_EQ(parse_category("linalg"), Category::LinearAlgebra);
  EXPECT_EQ(parse_category("shape"), Category::ShapeView);
  EXPECT_FALSE(parse_category("bogus").has_value());
}

TEST(Catalog, ListsCorpusOverloadsFilteredByCategoryAndDtype) {
  auto corpus = Corpus::open(test::small_corpus());
  auto all = catalog(corpus);
  ASSERT_EQ(all.size(), corpus.overloads().size());
  auto pointwise = catalog(corpus, Category::Pointwise);
  ASSERT_FALSE(pointwise.empty());
  bool has_add = false;
  for (const auto &e : pointwise) {
    EXPECT_EQ(e.category, Category::Pointwise);
    has_add = has_add || e.overload == "aten::add.Tensor";
  }
  EXPECT_TRUE(has_add);
  // layer_norm supports no bool inputs: no bool calls of native_layer_norm; float32 has them.
  auto bool_rows = catalog(corpus, std::nullopt, DType::Bool);
  ASSERT_FALSE(bool_rows.empty());
  for (const auto &e : bool_rows) EXPECT_NE(e.overload, "aten::native_layer_norm");
  auto f32 = catalog(corpus, Category::NormalizationDL, DType::Float32);
  bool has_softmax = false;
  for (const auto &e : f32) {
    if (e.overload == "aten::_softmax") {
      has_softmax = true;
      EXPECT_EQ(e.calls, corpus.overload("aten::_softmax").calls_per_dtype.at(DType::Float32));
    }
  }
  EXPECT_TRUE(has_softmax);
}

TEST(Catalog, DocstringComesFromThePublicFunction) {
  auto corpus = Corpus::open(test::small_corpus());
  EXPECT_NE(corpus.docstring("aten::add.Tensor").find("add(input, other, *, alpha=1, out=None)"),
            std::string::npos);
  EXPECT_NE(corpus.docstring("aten::_softmax").find("softmax"), std::string::npos);
}
