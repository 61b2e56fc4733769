//===- fuzz_corpus_reader.cpp - the OpInfo corpus reader over any file ------===//
//
// The bytes are written to a scratch file (one per process) and opened as a
// corpus; a few calls of each overload are decoded. Opening checks the file in
// a forked child first (h5check.cpp), so each input costs a fork.

#include <filesystem>

#include "fuzz_common.h"
#include "opforge/harness/corpus.h"

using namespace opforge;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fuzz::small_budgets();
  const std::string path = fuzz::scratch_file("opforge-fuzz-corpus", data, size);
  fuzz::expect_only_errors([&] {
    harness::Corpus c = harness::Corpus::open(path);
    int n = 0;
    for (const auto &o : c.overloads()) {
      if (++n > 8) break;
      fuzz::expect_only_errors([&] { (void)c.calls(o.name, {}, 2); });
    }
  });
  std::filesystem::remove(path);
  return 0;
}
