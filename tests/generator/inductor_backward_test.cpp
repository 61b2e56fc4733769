//===- inductor_backward_test.cpp - backward-pass rows validated on a backward corpus ===//
//
// The pointwise rows of the backward pass (sigmoid_backward, threshold_backward, the loss
// backwards, ...) rendered from the lowering table and validated on every call of a small
// corpus exported with `export-opinfo.py --backward` (float32 and bfloat16, at most 3
// samples per OpInfo): the calls a training step's backward pass makes.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "corpus_fixture.h"
#include "inductor_family_util.h"

using namespace opforge;

namespace {

const std::string &backward_corpus() {
  static const std::string path = test::exported_corpus(
      "backward", {"--backward", "--ops",
                   "sigmoid,tanh,nn.functional.relu,nn.functional.gelu,nn.functional.silu,"
                   "nn.functional.hardtanh,nn.functional.leaky_relu,nn.functional.softplus,"
                   "nn.functional.hardsigmoid,nn.functional.hardswish,nn.functional.mish,logit,"
                   "nn.functional.softshrink,nn.functional.hardshrink,nn.functional.logsigmoid,"
                   "nn.functional.elu,nn.functional.mse_loss,nn.functional.huber_loss,"
                   "nn.functional.smooth_l1_loss,nn.functional.soft_margin_loss",
                   "--dtypes", "float32,bfloat16", "--max-samples", "3"});
  return path;
}

class InductorBackward : public ::testing::TestWithParam<const char *> {};

TEST_P(InductorBackward, PassesEveryRecordedCallOfTheBackwardPass) {
  test::inductor::expect_all_pass("pointwise", backward_corpus(), GetParam(),
                                  {DType::Float32, DType::BFloat16});
}

INSTANTIATE_TEST_SUITE_P(
    Pointwise, InductorBackward,
    ::testing::Values("aten::sigmoid_backward", "aten::tanh_backward", "aten::threshold_backward",
                      "aten::gelu_backward", "aten::silu_backward", "aten::hardtanh_backward",
                      "aten::leaky_relu_backward", "aten::softplus_backward",
                      "aten::hardsigmoid_backward", "aten::hardswish_backward",
                      "aten::mish_backward", "aten::logit_backward", "aten::softshrink_backward",
                      "aten::hardshrink_backward", "aten::log_sigmoid_backward",
                      "aten::elu_backward", "aten::mse_loss_backward", "aten::huber_loss_backward",
                      "aten::smooth_l1_loss_backward", "aten::soft_margin_loss_backward"),
    [](const ::testing::TestParamInfo<const char *> &info) {
      std::string n = std::string(info.param).substr(6);
      for (char &c : n)
        if (c == '.') c = '_';
      return n;
    });

}  // namespace
