//===- fuzz_asm.cpp - the assembler over any text, then its output read back ===//
//
// What assembles is written as a relocatable object and linked as an executable
// (what `opforge asm` writes), and both are read back by the disassembler: each
// step gives a result or an opforge::Error.
#include "fuzz_common.h"
#include "opforge/isa/asm.h"
#include "opforge/isa/disasm.h"
#include "opforge/isa/elf_writer.h"

using namespace opforge;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fuzz::small_budgets();
  fuzz::expect_only_errors([&] {
    const isa::AsmUnit unit = isa::assemble(fuzz::text_of(data, size), "fuzz.S");
    fuzz::expect_only_errors(
        [&] { (void)isa::disassemble_bytes(isa::write_object(unit), "fuzz.o"); });
    fuzz::expect_only_errors(
        [&] { (void)isa::disassemble_bytes(isa::link_executable(unit), "fuzz.elf"); });
  });
  return 0;
}
