//===- xmtia_asm.h - inline-assembly text for Xmtia, encoded from the ISA tables ===//
#pragma once

#include <cstdint>
#include <map>
#include <string>

#include "opforge/compiler/ir.h"

namespace opforge::compiler {

// The instruction word of `mnemonic` with the named operand fields set
// (e.g. {{"vd", 8}, {"vs2", 8}, {"vm", 1}}); throws when the tables lack it.
uint32_t xmtia_encode(const std::string &mnemonic,
                      const std::map<std::string, uint32_t> &fields = {});
// "csrr $0, 0xfc0" for a named CSR of the tables.
std::string csr_read_asm(const std::string &csr_name);
// ".insn 0x..." ending the program instance (xmtia.done).
std::string done_asm();
// xmtia.dma with the descriptor address in $0 and the tag in $1.
std::string dma_issue_asm();
// xmtia.dmawait on the tag in $0.
std::string dma_wait_asm();
// xmtia.dpe with the descriptor address in $0.
std::string dpe_issue_asm();
// xmtia.dpewait.
std::string dpe_wait_asm();
// One SFU function on a scalar float ($1 -> $0) through v8 at SEW=32, VL=1.
std::string sfu_scalar_asm(ttir::OpKind k);
// A strip-mined loop applying one SFU function in place to $0 fp32 elements
// at address $1 ($2 is a scratch register), LMUL 8 on v8..v15.
std::string sfu_strip_asm(ttir::OpKind k);
// The SFU instruction for `k` on v8 in place, unmasked (".insn r ..."), the
// line sfu_strip_asm's loop applies.
std::string sfu_insn_asm(ttir::OpKind k);
// The SFU instruction's mnemonic for an op kind (vfexp.v, ...); empty if none.
std::string sfu_mnemonic(ttir::OpKind k);

}  // namespace opforge::compiler
