//===- fuzz_lint.cpp - the linter over any source text ---------------------===//
#include "fuzz_common.h"
#include "opforge/compiler/lint.h"

using namespace opforge;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fuzz::small_budgets();
  fuzz::expect_only_errors([&] {
    auto findings = compiler::lint_source("fuzz.py", fuzz::text_of(data, size));
    for (const auto &f : findings) (void)compiler::format_finding(f);
    (void)compiler::findings_to_json(findings).dump();
  });
  return 0;
}
