//===- fuzz_elf_loader.cpp - ELF parsing and loading over any bytes ---------===//
#include <span>

#include "fuzz_common.h"
#include "opforge/isa/elf_loader.h"
#include "opforge/isa/flat_memory.h"

using namespace opforge;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fuzz::small_budgets();
  fuzz::expect_only_errors([&] {
    isa::ElfImage image = isa::parse_elf(std::span<const uint8_t>(data, size), "fuzz.elf");
    if (image.segments.empty()) return;
    const uint64_t lo = image.low_addr(), hi = image.high_addr();
    if (hi <= lo || hi - lo > (1u << 20)) return;  // the segment budget's business
    isa::FlatMemory mem(lo, hi - lo);
    isa::load_elf(image, mem);
  });
  return 0;
}
