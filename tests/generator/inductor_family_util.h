//===- inductor_family_util.h - render a lowering-table family and validate it on recorded calls
//===//
#pragma once

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "corpus_fixture.h"
#include "opforge/generator/inductor.h"
#include "opforge/harness/corpus.h"
#include "opforge/harness/validate.h"

namespace opforge::test::inductor {

namespace fs = std::filesystem;

// Renders `overload` from the lowering table into a fresh library directory and validates
// every recorded call of `dtypes` in the corpus on the IR interpreter.
inline harness::OverloadResult render_and_validate(const std::string &family,
                                                   const std::string &corpus_path,
                                                   const std::string &overload,
                                                   const std::vector<DType> &dtypes) {
  auto corpus = harness::Corpus::open(corpus_path);
  auto table = generator::LoweringTable::load(generator::LoweringTable::default_dir());
  auto rendered = table.render(overload, corpus.overload(overload).schema);
  harness::OverloadResult failed;
  failed.overload = overload;
  if (!rendered.error.empty()) {
    failed.error = "render: " + rendered.error;
    return failed;
  }
  if (rendered.family != family) {
    failed.error = "rendered from family '" + rendered.family + "'";
    return failed;
  }
  const std::string dir = test::temp_dir();
  std::ofstream(fs::path(dir) / harness::library_file_name_for(overload)) << rendered.source;
  auto library = harness::KernelLibrary::load(dir);
  harness::ValidateOptions options;
  options.overloads = {overload};
  options.dtypes = dtypes;
  auto report = harness::validate(corpus, library, options);
  if (report.results.size() != 1) {
    failed.error = "validate returned " + std::to_string(report.results.size()) + " results";
    return failed;
  }
  return report.results[0];
}

inline std::string describe(const harness::OverloadResult &r) {
  std::string s =
      r.overload + " " + std::to_string(r.passed) + "/" + std::to_string(r.total) + " " + r.error;
  for (size_t i = 0; i < r.failures.size() && i < 5; ++i)
    s += "\n  " + r.failures[i].summary + ": " + r.failures[i].reason;
  return s;
}

inline void expect_all_pass(const std::string &family, const std::string &corpus_path,
                            const std::string &overload, const std::vector<DType> &dtypes) {
  auto r = render_and_validate(family, corpus_path, overload, dtypes);
  EXPECT_GT(r.total, 0) << overload << " has no recorded calls in the test corpus";
  EXPECT_TRUE(r.ok()) << describe(r);
  EXPECT_EQ(r.passed, r.total) << describe(r);
}

// Every overload of the family's table, rendered with its schema from the full corpus
// (corpus/opinfo.h5, made by `make corpus`), loads into a kernel library: it parses and lints.
inline void expect_family_renders_and_lints(const std::string &family) {
  const std::string corpus_path = OPFORGE_SOURCE_DIR "/corpus/opinfo.h5";
  if (!fs::exists(corpus_path)) GTEST_SKIP() << "no full corpus at " << corpus_path;
  auto corpus = harness::Corpus::open(corpus_path);
  auto table = generator::LoweringTable::load(generator::LoweringTable::default_dir());
  auto families = table.families();
  ASSERT_TRUE(families.count(family)) << "no table for family " << family;
  const std::string dir = test::temp_dir();
  int rendered_count = 0;
  for (const auto &overload : families[family]) {
    if (!corpus.has_overload(overload)) continue;
    auto r = table.render(overload, corpus.overload(overload).schema);
    ASSERT_EQ(r.error, "") << overload;
    std::ofstream(fs::path(dir) / harness::library_file_name_for(overload)) << r.source;
    ++rendered_count;
  }
  EXPECT_GT(rendered_count, 0);
  auto library = harness::KernelLibrary::load(dir);
  EXPECT_EQ(static_cast<int>(library.files().size()), rendered_count);
  for (const auto &f : library.files()) {
    EXPECT_EQ(f.error, "") << f.path;
    EXPECT_NE(f.wrapper_for(f.overload), "") << f.path << " has no wrapper for " << f.overload;
  }
}

}  // namespace opforge::test::inductor
