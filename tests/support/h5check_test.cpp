//===- h5check_test.cpp - a damaged HDF5 file is an error, soon, with no process left ===//
#include "opforge/support/h5check.h"

#include <gtest/gtest.h>

#include <chrono>
#include <string>

#include "opforge/support/error.h"

namespace opforge::h5 {
namespace {

// A 41 KB results file with bytes changed so that libhdf5 never finishes reading it
// (found by fuzz_results_reader). The check gave up after a fixed 120 s; its time
// limit now scales with the file: 5 s plus 1 s per 2 MB.
TEST(H5Check, ASmallFileThatSendsLibhdf5IntoALoopIsAnErrorAfterFiveSeconds) {
  const std::string path =
      std::string(OPFORGE_SOURCE_DIR) + "/tests/fuzz/regressions/results_reader/loops-libhdf5.h5";
  const auto t0 = std::chrono::steady_clock::now();
  try {
    check_readable(path);
    ADD_FAILURE() << "no error for " << path;
  } catch (const Error &e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("damaged HDF5 file: reading"), std::string::npos) << what;
    EXPECT_NE(what.find("did not finish in 5 s"), std::string::npos) << what;
    EXPECT_NE(what.find("loops-libhdf5.h5"), std::string::npos) << what;
  }
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  EXPECT_GE(s, 5.0);
  EXPECT_LT(s, 30.0);
}

// An explicit limit is kept as given.
TEST(H5Check, AnExplicitTimeLimitIsUsed) {
  const std::string path =
      std::string(OPFORGE_SOURCE_DIR) + "/tests/fuzz/regressions/corpus_reader/loops-libhdf5.h5";
  CheckOptions options;
  options.timeout_s = 1;
  try {
    check_readable(path, options);
    ADD_FAILURE() << "no error for " << path;
  } catch (const Error &e) {
    EXPECT_NE(std::string(e.what()).find("did not finish in 1 s"), std::string::npos) << e.what();
  }
}

// The base of the default limit can be lowered (the fuzz targets use 0.5 s).
TEST(H5Check, TheBaseOfTheDefaultLimitCanBeSet) {
  const std::string path =
      std::string(OPFORGE_SOURCE_DIR) + "/tests/fuzz/regressions/results_reader/loops-libhdf5.h5";
  set_check_base_time_s(2);
  try {
    check_readable(path);
    ADD_FAILURE() << "no error for " << path;
  } catch (const Error &e) {
    EXPECT_NE(std::string(e.what()).find("did not finish in 2 s"), std::string::npos) << e.what();
  }
  set_check_base_time_s(5);
}

// A file whose variable-length attribute sends libhdf5 to a bad address: the reading
// child dies by SIGSEGV and the caller gets an error naming the object (in a sanitizer
// or libFuzzer build the child no longer runs the parent's crash handlers).
TEST(H5Check, ACrashOfTheReadingChildIsAnErrorNamingTheObject) {
  const std::string path =
      std::string(OPFORGE_SOURCE_DIR) +
      "/tests/fuzz/regressions/results_reader/vlen-attribute-segfaults-libhdf5.h5";
  try {
    check_readable(path);
    ADD_FAILURE() << "no error for " << path;
  } catch (const Error &e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("damaged HDF5 file"), std::string::npos) << what;
    EXPECT_NE(what.find("crashed libhdf5 (Segmentation fault)"), std::string::npos) << what;
  }
}

}  // namespace
}  // namespace opforge::h5
