//===- corpus_reader_test.cpp - reading exported corpora and bad files -----===//
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>

#include <H5Cpp.h>

#include "corpus_fixture.h"
#include "opforge/harness/corpus.h"
#include "opforge/support/error.h"

using namespace opforge;
using namespace opforge::harness;
namespace fs = std::filesystem;

TEST(CorpusReader, ListsOverloadsWithSchemasAndCallCounts) {
  auto c = Corpus::open(test::small_corpus());
  ASSERT_TRUE(c.has_overload("aten::add.Tensor"));
  const auto &add = c.overload("aten::add.Tensor");
  EXPECT_EQ(add.schema, "aten::add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor");
  EXPECT_GT(add.calls_per_dtype.at(DType::Float32), 0);
  EXPECT_GT(add.calls_per_dtype.at(DType::Int64), 0);
  EXPECT_EQ(c.dtypes(),
            (std::vector<DType>{DType::Float32, DType::BFloat16, DType::Int64, DType::Bool}));
  EXPECT_TRUE(c.has_overload("aten::_softmax"));
  EXPECT_TRUE(c.has_overload("aten::mm"));
  EXPECT_GT(c.sample_count(DType::Float32), 100);
  // The exporter records torch.__version__ ("2.15.0+cu132"); its release part is the pin.
  EXPECT_TRUE(c.torch_version().starts_with(Corpus::expected_torch_version()))
      << c.torch_version() << " vs " << Corpus::expected_torch_version();
}

TEST(CorpusReader, DecodesTensorArgumentsScalarsAndOutputs) {
  auto c = Corpus::open(test::small_corpus());
  auto calls = c.calls("aten::add.Tensor", DType::Float32);
  ASSERT_FALSE(calls.empty());
  bool saw_alpha = false;
  for (const auto &call : calls) {
    ASSERT_GE(call.args.size(), 2u);
    ASSERT_EQ(call.out.kind, Value::Kind::Tensor);
    EXPECT_EQ(call.out.tensor.dtype(), DType::Float32);
    EXPECT_EQ(call.opinfo.substr(0, 3), "add");
    for (const auto &[k, v] : call.kwargs)
      if (k == "alpha") saw_alpha = true;
    // add without alpha: out == self + other wherever both are tensors of the output's shape.
    if (call.kwargs.empty() && call.args[0].is_tensor() && call.args[1].is_tensor() &&
        call.args[0].tensor.sizes() == call.out.tensor.sizes() &&
        call.args[1].tensor.sizes() == call.out.tensor.sizes() &&
        call.args[1].tensor.dtype() == DType::Float32) {
      for (int64_t i = 0; i < call.out.tensor.numel(); ++i) {
        float want = static_cast<float>(call.args[0].tensor.get_double(i)) +
                     static_cast<float>(call.args[1].tensor.get_double(i));
        double got = call.out.tensor.get_double(i);
        if (std::isnan(want))
          EXPECT_TRUE(std::isnan(got));
        else
          EXPECT_EQ(got, want) << call.summary() << " element " << i;
      }
    }
  }
  EXPECT_TRUE(saw_alpha) << "OpInfo add has samples with alpha=";
}

TEST(CorpusReader, KeepsStridesAndStorageOffsetsOfViews) {
  auto c = Corpus::open(test::small_corpus());
  bool saw_noncontiguous = false;
  for (const auto &o : c.overloads())
    c.for_each_call(o.name, DType::Float32, [&](const Call &call) {
      for (const auto &a : call.args)
        if (a.is_tensor() && !a.tensor.is_contiguous()) saw_noncontiguous = true;
      return !saw_noncontiguous;
    });
  EXPECT_TRUE(saw_noncontiguous);
}

TEST(CorpusReader, RecordsMutatedInputsOfInPlaceCalls) {
  auto c = Corpus::open(test::small_corpus());
  // isclose's decomposition calls the in-place aten::bitwise_or_ / bitwise_and_.
  bool found = false;
  for (const auto &o : c.overloads()) {
    if (o.name.find("bitwise_or_") == std::string::npos &&
        o.name.find("bitwise_and_") == std::string::npos)
      continue;
    for (const auto &call : c.calls(o.name, DType::Float32, 3)) {
      ASSERT_EQ(call.mutated.size(), 1u) << call.summary();
      EXPECT_EQ(call.mutated[0].first, "self");
      EXPECT_TRUE(call.mutated[0].second.is_tensor());
      found = true;
    }
  }
  EXPECT_TRUE(found);
}

TEST(CorpusReader, UnknownOverloadErrorNamesOverloadAndFile) {
  auto c = Corpus::open(test::small_corpus());
  try {
    c.overload("aten::no_such_op.Tensor");
    FAIL() << "expected an error";
  } catch (const Error &e) {
    EXPECT_NE(std::string(e.what()).find("aten::no_such_op.Tensor"), std::string::npos);
    EXPECT_NE(std::string(e.what()).find(test::small_corpus()), std::string::npos);
  }
}

TEST(CorpusReader, RecordsExclusionsWithReasons) {
  auto c = Corpus::open(test::small_corpus());
  bool complex = false, f64 = false;
  for (const auto &e : c.exclusions()) {
    if (e.dtype.find("complex64") != std::string::npos) complex = true;
    if (e.dtype == "float64") f64 = true;
    EXPECT_FALSE(e.reason.empty());
  }
  EXPECT_TRUE(complex);
  EXPECT_TRUE(f64);
}

namespace {
std::string expect_open_error(const std::string &path) {
  try {
    Corpus::open(path);
  } catch (const Error &e) {
    return e.what();
  }
  return "";
}
}  // namespace

TEST(CorpusBadFiles, MissingFileIsAnErrorNamingIt) {
  std::string msg = expect_open_error("/nonexistent/dir/opinfo.h5");
  EXPECT_NE(msg.find("/nonexistent/dir/opinfo.h5"), std::string::npos) << msg;
}

TEST(CorpusBadFiles, GarbageFileIsAnErrorNamingIt) {
  std::string path = test::temp_dir() + "/garbage.h5";
  std::ofstream(path) << "this is not an HDF5 file\n";
  std::string msg = expect_open_error(path);
  EXPECT_NE(msg.find(path), std::string::npos) << msg;
  EXPECT_NE(msg.find("not an HDF5 file"), std::string::npos) << msg;
}

TEST(CorpusBadFiles, TruncatedFileIsAnErrorNamingIt) {
  std::string path = test::temp_dir() + "/truncated.h5";
  fs::copy_file(test::small_corpus(), path);
  fs::resize_file(path, fs::file_size(path) / 3);
  std::string msg;
  try {
    auto c = Corpus::open(path);
    // Opening may succeed when the index survives; decoding the data must then fail cleanly.
    for (DType dt : c.dtypes())
      for (int64_t i = 0; i < c.call_count(dt); ++i) c.call(dt, i);
  } catch (const Error &e) {
    msg = e.what();
  }
  EXPECT_NE(msg.find(path), std::string::npos) << msg;
}

TEST(CorpusBadFiles, MissingGroupIsAnErrorNamingTheObject) {
  std::string path = test::temp_dir() + "/nogroup.h5";
  fs::copy_file(test::small_corpus(), path);
  {
    H5::H5File f(path, H5F_ACC_RDWR);
    f.unlink("/overloads");
  }
  std::string msg = expect_open_error(path);
  EXPECT_NE(msg.find(path), std::string::npos) << msg;
  EXPECT_NE(msg.find("/overloads/name"), std::string::npos) << msg;
}

TEST(CorpusBadFiles, CorruptCallIndexIsAnError) {
  std::string path = test::temp_dir() + "/badindex.h5";
  fs::copy_file(test::small_corpus(), path);
  {
    H5::H5File f(path, H5F_ACC_RDWR);
    H5::DataSet ds = f.openDataSet("/calls/float32/overload");
    hsize_t n = 0;
    ds.getSpace().getSimpleExtentDims(&n);
    std::vector<int32_t> v(n);
    ds.read(v.data(), H5::PredType::NATIVE_INT32);
    v[0] = 99999;
    ds.write(v.data(), H5::PredType::NATIVE_INT32);
  }
  std::string msg = expect_open_error(path);
  EXPECT_NE(msg.find("float32 call 0"), std::string::npos) << msg;
  EXPECT_NE(msg.find(path), std::string::npos) << msg;
}

namespace {
// A copy of the small corpus whose /@torch_version says `version`.
std::string corpus_with_torch_version(const std::string &version) {
  std::string path = test::temp_dir() + "/torch_version.h5";
  fs::copy_file(test::small_corpus(), path);
  H5::H5File f(path, H5F_ACC_RDWR);
  H5::Group root = f.openGroup("/");
  root.removeAttr("torch_version");
  H5::StrType st(H5::PredType::C_S1, H5T_VARIABLE);
  st.setCset(H5T_CSET_UTF8);
  root.createAttribute("torch_version", st, H5::DataSpace(H5S_SCALAR)).write(st, version);
  return path;
}
}  // namespace

// A null variable-length string (what one changed byte in a global heap reference can
// read as) made H5::Attribute::read call strlen(NULL): SIGSEGV in the reader.
TEST(CorpusBadFiles, NullStringAttributeIsAnErrorNamingTheAttribute) {
  std::string path = test::temp_dir() + "/nullstring.h5";
  fs::copy_file(test::small_corpus(), path);
  {
    H5::H5File f(path, H5F_ACC_RDWR);
    H5::Group root = f.openGroup("/");
    root.removeAttr("dtypes");
    H5::StrType st(H5::PredType::C_S1, H5T_VARIABLE);
    const char *null_string = nullptr;
    root.createAttribute("dtypes", st, H5::DataSpace(H5S_SCALAR)).write(st, &null_string);
  }
  std::string msg = expect_open_error(path);
  EXPECT_NE(msg.find(path), std::string::npos) << msg;
  EXPECT_NE(msg.find("dtypes"), std::string::npos) << msg;
}

TEST(CorpusBadFiles, CorpusFromAnotherTorchIsAnErrorNamingBothVersionsAndTheFix) {
  ASSERT_EQ(Corpus::expected_torch_version(), OPFORGE_TEST_TORCH_VERSION);
  std::string path = corpus_with_torch_version("1.13.0a0");
  std::string msg = expect_open_error(path);
  EXPECT_NE(msg.find(path), std::string::npos) << msg;
  EXPECT_NE(msg.find("torch 1.13.0a0"), std::string::npos) << msg;
  EXPECT_NE(msg.find("torch " + Corpus::expected_torch_version()), std::string::npos) << msg;
  EXPECT_NE(msg.find("make corpus"), std::string::npos) << msg;
}

TEST(CorpusBadFiles, TorchVersionsCompareByReleaseNotByLocalBuildOrPrefix) {
  const std::string pin = Corpus::expected_torch_version();
  // A CPU or CUDA build of the pinned release is the same ATen.
  EXPECT_EQ(Corpus::open(corpus_with_torch_version(pin + "+cpu")).torch_version(), pin + "+cpu");
  EXPECT_EQ(Corpus::open(corpus_with_torch_version(pin)).torch_version(), pin);
  // A release that merely starts with the pin ("2.15.0" vs "2.15.01") or a pre-release of it is
  // not.
  EXPECT_NE(expect_open_error(corpus_with_torch_version(pin + "1")).find("make corpus"),
            std::string::npos);
  EXPECT_NE(expect_open_error(corpus_with_torch_version(pin + "a0")).find("make corpus"),
            std::string::npos);
  EXPECT_NE(expect_open_error(corpus_with_torch_version("")).find("make corpus"),
            std::string::npos);
}
