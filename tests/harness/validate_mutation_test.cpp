//===- validate_mutation_test.cpp - validate checks what in-place calls write ===//
#include <gtest/gtest.h>

#include <fstream>

#include "corpus_fixture.h"
#include "opforge/harness/corpus.h"
#include "opforge/harness/validate.h"

using namespace opforge;
using namespace opforge::harness;

namespace {

// aten::bitwise_and_.Tensor (recorded by isclose's samples on bool tensors,
// mutates self). `tail` ends the wrapper: it writes self or it does not.
std::string write_library(const std::string &tail) {
  std::string dir = test::temp_dir();
  std::ofstream(dir + "/bitwise_and_.Tensor.py") << R"PY("""aten::bitwise_and_.Tensor: self &= other."""
import torch
import triton
import triton.language as tl


@triton.jit
def and_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    y = tl.load(y_ptr + offs, mask=mask)
    tl.store(out_ptr + offs, x & y, mask=mask)


def bitwise_and__Tensor(self, other):
    shape = self.shape
    x = self.to(torch.int32).contiguous()
    y = other.to(torch.int32).expand(shape).contiguous()
    result = torch.empty(shape, dtype=torch.int32, device=self.device)
    n = result.numel()
    if n > 0:
        and_kernel[(triton.cdiv(n, 256), )](x, y, result, n, BLOCK=256)
)PY" << tail;
  return dir;
}

OverloadResult validate_and(const std::string &dir) {
  auto corpus = Corpus::open(test::small_corpus());
  auto library = KernelLibrary::load(dir);
  ValidateOptions options;
  options.overloads = {"aten::bitwise_and_.Tensor"};
  options.dtypes = {DType::Float32};
  auto report = validate(corpus, library, options);
  EXPECT_EQ(report.results.size(), 1u);
  return report.results.at(0);
}

}  // namespace

TEST(ValidateMutation, InPlaceWrapperThatWritesSelfPasses) {
  auto r = validate_and(write_library("    self.copy_(result)\n    return self\n"));
  EXPECT_EQ(r.error, "");
  EXPECT_GT(r.total, 0);
  EXPECT_TRUE(r.ok()) << r.first_failure();
}

TEST(ValidateMutation, WrapperThatReturnsTheRightValueButLeavesSelfUnwrittenFails) {
  // The returned tensor is right; the in-place write is missing.
  auto r = validate_and(write_library("    return result.to(self.dtype)\n"));
  EXPECT_EQ(r.error, "");
  ASSERT_GT(r.total, 0);
  EXPECT_LT(r.passed, r.total);
  ASSERT_FALSE(r.failures.empty());
  for (const auto &f : r.failures)
    EXPECT_NE(f.reason.find("mutated self"), std::string::npos) << f.summary << ": " << f.reason;
}

TEST(ValidateMutation, SchemaArgumentNamesSkipTheKeywordMarkerAndAliasAnnotations) {
  EXPECT_EQ(schema_argument_names(
                "add_.Tensor(Tensor(a!) self, Tensor other, *, Scalar alpha=1) -> Tensor(a!)"),
            (std::vector<std::string>{"self", "other", "alpha"}));
  EXPECT_EQ(schema_argument_names("sum.dim_IntList(Tensor self, int[1]? dim, bool keepdim=False, "
                                  "*, ScalarType? dtype=None) -> Tensor"),
            (std::vector<std::string>{"self", "dim", "keepdim", "dtype"}));
  EXPECT_EQ(schema_argument_names("cat.out(Tensor[] tensors, int dim=0, *, Tensor(a!) out)"),
            (std::vector<std::string>{"tensors", "dim", "out"}));
}
