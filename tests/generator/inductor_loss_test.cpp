//===- inductor_loss_test.cpp - loss templates rendered and validated on recorded calls ===//
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "inductor_coverage_corpus.h"
#include "inductor_family_util.h"

using namespace opforge;

TEST(InductorLoss, MultiMarginLossPassesEveryRecordedCall) {
  test::inductor::expect_all_pass("loss", test::inductor::coverage_corpus(), "aten::multi_margin_loss",
                                  {DType::Float32});
}

TEST(InductorLoss, MultilabelMarginLossForwardPassesEveryRecordedCall) {
  test::inductor::expect_all_pass("loss", test::inductor::coverage_corpus(),
                                  "aten::multilabel_margin_loss_forward", {DType::Float32});
}

TEST(InductorLoss, EveryTableRowRendersParsesAndLints) { test::inductor::expect_family_renders_and_lints("loss"); }
