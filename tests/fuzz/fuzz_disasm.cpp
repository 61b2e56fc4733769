//===- fuzz_disasm.cpp - decoder and disassembler over any bytes ------------===//
//
// The bytes as one instruction word, and as a whole file (an ELF object or
// executable when they look like one, raw little-endian code otherwise).
#include <cstring>
#include <vector>

#include "fuzz_common.h"
#include "opforge/isa/disasm.h"

using namespace opforge;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fuzz::small_budgets();
  uint32_t word = 0;
  std::memcpy(&word, data, std::min<size_t>(size, 4));
  (void)isa::disassemble(word, 0x1000);
  fuzz::expect_only_errors([&] {
    (void)isa::disassemble_bytes(std::vector<uint8_t>(data, data + size), "fuzz.bin", 0x1000);
  });
  return 0;
}
