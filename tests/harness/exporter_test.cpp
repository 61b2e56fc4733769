//===- exporter_test.cpp - scripts/export-opinfo.py on a small subset ------===//
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>

#include "corpus_fixture.h"
#include "opforge/harness/corpus.h"

using namespace opforge;
using namespace opforge::harness;

namespace {
std::string slurp(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}
}  // namespace

TEST(Exporter, SmallSubsetIsDeterministicAndReadable) {
  const std::string dir = test::temp_dir();
  std::string log;
  ASSERT_EQ(
      test::run_exporter(
          {"--ops", "add,sum,softmax", "--dtypes", "float32,int64", "--out", dir + "/a.h5"}, &log),
      0)
      << log;
  EXPECT_NE(log.find("float32   opinfos"), std::string::npos) << log;
  ASSERT_EQ(test::run_exporter({"--ops", "add,sum,softmax", "--dtypes", "float32,int64", "--out",
                                dir + "/b.h5", "--quiet"},
                               &log),
            0)
      << log;
  const std::string a = slurp(dir + "/a.h5"), b = slurp(dir + "/b.h5");
  ASSERT_GT(a.size(), 1000u);
  EXPECT_TRUE(a == b) << "two exports of the same subset differ";

  auto c = Corpus::open(dir + "/a.h5");
  EXPECT_EQ(c.dtypes(), (std::vector<DType>{DType::Float32, DType::Int64}));
  for (const char *o : {"aten::add.Tensor", "aten::sum.dim_IntList", "aten::_softmax"})
    EXPECT_TRUE(c.has_overload(o)) << o;
  EXPECT_GT(c.overload("aten::_softmax").calls_per_dtype.at(DType::Float32), 0);
  std::vector<std::string> names;
  for (const auto &o : c.opinfos()) names.push_back(o.name);
  EXPECT_NE(std::find(names.begin(), names.end(), "softmax"), names.end());
  EXPECT_GT(c.sample_count(DType::Float32), 20);
}

TEST(Exporter, RandomOpInfosAreExcludedAndMaxSamplesLimitsSamples) {
  const std::string dir = test::temp_dir();
  std::string log;
  ASSERT_EQ(test::run_exporter({"--ops", "add,bernoulli,nn.functional.dropout", "--dtypes",
                                "float32", "--max-samples", "3", "--quiet", "--out", dir + "/r.h5"},
                               &log),
            0)
      << log;
  auto c = Corpus::open(dir + "/r.h5");
  EXPECT_EQ(c.sample_count(DType::Float32), 3);  // add's first three samples
  int random = 0;
  for (const auto &e : c.exclusions())
    if ((e.opinfo == "bernoulli" || e.opinfo == "nn.functional.dropout") &&
        e.reason.find("nondeterministic") != std::string::npos)
      ++random;
  EXPECT_EQ(random, 2);
  for (const auto &o : c.overloads())
    EXPECT_EQ(o.name.find("bernoulli"), std::string::npos) << o.name;
}

TEST(Exporter, UninitializedAndOversizedOpInfosAreExcludedWithReasons) {
  // empty_permuted (new in torch 2.x) returns uninitialized memory: two runs differed.
  // grid_sampler_3d's float32 samples hold ~125 MB of tensors, over the 16 MB limit.
  const std::string dir = test::temp_dir();
  std::string log;
  ASSERT_EQ(test::run_exporter({"--ops", "empty_permuted,grid_sampler_3d", "--dtypes", "float32",
                                "--quiet", "--out", dir + "/u.h5"},
                               &log),
            0)
      << log;
  auto c = Corpus::open(dir + "/u.h5");
  std::string uninitialized, oversized;
  for (const auto &e : c.exclusions()) {
    if (e.opinfo == "empty_permuted") uninitialized = e.reason;
    if (e.opinfo == "grid_sampler_3d") oversized = e.reason;
  }
  EXPECT_NE(uninitialized.find("nondeterministic"), std::string::npos) << uninitialized;
  EXPECT_NE(oversized.find("MB of tensor data (more than 16 MB)"), std::string::npos) << oversized;
  EXPECT_EQ(c.call_count(DType::Float32), 0);
  EXPECT_TRUE(c.overloads().empty());
}

TEST(Exporter, UnknownOpInfoOrDtypeIsAnError) {
  std::string log;
  EXPECT_NE(
      test::run_exporter({"--ops", "no_such_opinfo", "--out", test::temp_dir() + "/x.h5"}, &log),
      0);
  EXPECT_NE(log.find("no_such_opinfo"), std::string::npos) << log;
  EXPECT_NE(
      test::run_exporter({"--dtypes", "complex64", "--out", test::temp_dir() + "/x.h5"}, &log), 0);
  EXPECT_NE(log.find("complex64"), std::string::npos) << log;
}

TEST(Exporter, CustomOperatorsAreRecordedAsTheAtenCallsBeneathThem) {
  // torch 2.15's F.linear_cross_entropy calls the Python custom operators
  // torch_nn::_linear_cross_entropy_batch_chunked[_no_reduction] (torch.library): the c10
  // dispatcher of libtorch cannot replay them and no kernel is generated for them, so the
  // exporter records the ATen calls their implementations make instead.
  const std::string dir = test::temp_dir();
  const std::string out = dir + "/lce.h5";
  std::string log;
  ASSERT_EQ(test::run_exporter({"--ops", "nn.functional.linear_cross_entropy", "--dtypes",
                                "float32,bfloat16", "--max-samples", "2", "--quiet", "--out", out},
                               &log),
            0)
      << log;
  auto c = Corpus::open(out);
  EXPECT_GT(c.call_count(DType::Float32), 0);
  bool calls_mm = false;
  for (const auto &o : c.overloads()) {
    EXPECT_EQ(o.name.rfind("aten::", 0), 0u) << o.name << " is not an ATen overload";
    if (o.name.find("mm") != std::string::npos) calls_mm = true;
  }
  EXPECT_TRUE(calls_mm) << "the linear projection's matmul beneath the custom operator is missing";
#if defined(OPFORGE_EXE) && defined(OPFORGE_EXE_HAS_ORACLE)
  if (!std::filesystem::exists(OPFORGE_EXE)) GTEST_SKIP() << "build the opforge target first";
  ASSERT_EQ(test::run_command(std::string("'") + OPFORGE_EXE + "' ops check --corpus '" + out + "'",
                              &log),
            0)
      << log;
  EXPECT_NE(log.find(" 0 mismatched, 0 not replayable"), std::string::npos) << log;
#endif
}

TEST(Exporter, BackwardRecordsTheCallsOfTheBackwardPassOnly) {
  // --backward: each sample's forward runs unrecorded, then torch.autograd.grad with seeded
  // gradients; the corpus holds what autograd's backward formulas call, so the generation loop
  // and validate can work on backward overloads like any other.
  const std::string dir = test::temp_dir();
  const std::string out = dir + "/bw.h5";
  std::string log;
  ASSERT_EQ(test::run_exporter({"--backward", "--ops", "nn.functional.relu,softmax,mm", "--dtypes",
                                "float32", "--max-samples", "3", "--out", out},
                               &log),
            0)
      << log;
  auto c = Corpus::open(out);
  for (const char *o : {"aten::threshold_backward", "aten::_softmax_backward_data", "aten::mm"})
    EXPECT_TRUE(c.has_overload(o)) << o << " missing from the backward pass\n" << log;
  // The forward calls were not recorded.
  for (const char *o : {"aten::relu", "aten::_softmax"})
    EXPECT_FALSE(c.has_overload(o)) << o << " is a forward call";
#if defined(OPFORGE_EXE) && defined(OPFORGE_EXE_HAS_ORACLE)
  if (!std::filesystem::exists(OPFORGE_EXE)) GTEST_SKIP() << "build the opforge target first";
  // The recorded backward calls replay through libtorch to the recorded results.
  ASSERT_EQ(test::run_command(std::string("'") + OPFORGE_EXE + "' ops check --corpus '" + out + "'",
                              &log),
            0)
      << log;
  EXPECT_NE(log.find(" 0 mismatched, 0 not replayable"), std::string::npos) << log;
#endif
}

TEST(Exporter, BackwardOfAnIntegralDtypeIsAnError) {
  std::string log;
  EXPECT_NE(test::run_exporter({"--backward", "--ops", "add", "--dtypes", "int64", "--out",
                                test::temp_dir() + "/x.h5"},
                               &log),
            0);
  EXPECT_NE(log.find("need floating dtypes; not int64"), std::string::npos) << log;
}
