//===- fuzz_asm.cpp - the assembler over any text ---------------------------===//
#include "fuzz_common.h"
#include "opforge/isa/asm.h"

using namespace opforge;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fuzz::small_budgets();
  fuzz::expect_only_errors([&] { isa::assemble(fuzz::text_of(data, size), "fuzz.S"); });
  return 0;
}
