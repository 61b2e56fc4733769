//===- fuzz_results_reader.cpp - the results-file reader over any file ------===//
//
// The bytes are written to a scratch file and opened as a results file; every
// group is listed, every attribute read, every dataset read as numbers.

#include <filesystem>
#include <functional>

#include "fuzz_common.h"
#include "opforge/support/h5store.h"

using namespace opforge;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fuzz::small_budgets();
  const std::string path = fuzz::scratch_file("opforge-fuzz-results", data, size);
  fuzz::expect_only_errors([&] {
    h5::File f = h5::File::open(path);
    int objects = 0;
    std::function<void(const std::string &)> walk = [&](const std::string &group) {
      for (const auto &name : f.list(group)) {
        if (++objects > 256) return;
        const std::string p = (group == "/" ? "" : group) + "/" + name;
        fuzz::expect_only_errors([&] {
          for (const auto &a : f.attr_names(p)) {
            fuzz::expect_only_errors([&] { (void)f.attr_string(p, a); });
            fuzz::expect_only_errors([&] { (void)f.attr_int(p, a); });
          }
          if (f.kind(p) == h5::ObjectKind::Group)
            walk(p);
          else
            fuzz::expect_only_errors([&] { (void)f.read_doubles(p); });
        });
      }
    };
    walk("/");
  });
  std::filesystem::remove(path);
  return 0;
}
