//===- disasm_insn.cpp - one instruction word to objdump no-aliases text ---===//
#include <algorithm>
#include <cstdio>

#include "opforge/isa/disasm.h"
#include "opforge/isa/encode.h"
#include "opforge/isa/spec.h"

namespace opforge::isa {
namespace {

std::string hex(uint64_t v, bool prefix = true) {
  char buf[24];
  std::snprintf(buf, sizeof buf, prefix ? "0x%llx" : "%llx", static_cast<unsigned long long>(v));
  return buf;
}

std::string reg_text(OperandKind k, uint32_t r) {
  if (k == OperandKind::FReg) return std::string(freg_name(r));
  if (k == OperandKind::VReg) return "v" + std::to_string(r);
  return std::string(xreg_name(r));
}

std::string csr_text(uint32_t num) {
  // Named CSRs by name (objdump's names for the standard ones; the Xmtia
  // ones, which objdump prints as numbers, by our names), others as numbers.
  const CsrSpec *c = find_csr(num);
  return c ? c->name : hex(num);
}

}  // namespace

std::string disassemble(uint32_t word, uint64_t pc, const Symbolizer &sym) {
  const InsnSpec *insn = decode(word);
  if ((word & 3u) != 3u) {  // a 16-bit compressed instruction
    word &= 0xffffu;
    if (!insn) return word == 0 ? "c.unimp" : ".2byte\t" + hex(word);
  }
  if (!insn) return ".4byte\t" + hex(word);
  std::string mnemonic = insn->name;
  if (mnemonic == "fence" && field_operand("fm", word) == 8 && field_operand("pred", word) == 3 &&
      field_operand("succ", word) == 3 && field_operand("rd", word) == 0 &&
      field_operand("rs1", word) == 0)
    return "fence.tso";
  if (find_field("aq") &&
      std::find(insn->fields.begin(), insn->fields.end(), "aq") != insn->fields.end()) {
    const bool aq = field_operand("aq", word) != 0, rl = field_operand("rl", word) != 0;
    mnemonic += aq && rl ? ".aqrl" : aq ? ".aq" : rl ? ".rl" : "";
  }
  std::string ops;
  auto sep = [&] {
    if (!ops.empty()) ops += ',';
  };
  for (const AsmOperand &op : asm_operands(*insn)) {
    switch (op.kind) {
      case OperandKind::XReg:
      case OperandKind::FReg:
      case OperandKind::VReg:
        sep();
        ops += reg_text(op.kind, static_cast<uint32_t>(field_operand(op.field, word)));
        break;
      case OperandKind::Imm: {
        sep();
        const int64_t v = field_operand(op.field, word);
        // binutils prints shift amounts in hex, other immediates in decimal.
        ops += (op.field == "shamtd" || op.field == "shamtw" || op.field == "cshamt")
                   ? hex(static_cast<uint64_t>(v))
                   : std::to_string(v);
        break;
      }
      case OperandKind::MemOffset: {
        sep();
        const uint32_t base =
            op.base.empty() ? 2u : static_cast<uint32_t>(field_operand(op.base, word));
        ops += std::to_string(field_operand(op.field, word)) + "(" + std::string(xreg_name(base)) +
               ")";
        break;
      }
      case OperandKind::MemBase:
        sep();
        ops +=
            "(" + std::string(xreg_name(static_cast<uint32_t>(field_operand("rs1", word)))) + ")";
        break;
      case OperandKind::PcRel: {
        sep();
        const uint64_t target = pc + static_cast<uint64_t>(field_operand(op.field, word));
        // Like objdump: "0x<hex>" without a symbol table, "<hex> <sym+off>" with one.
        ops += hex(target, !sym);
        if (sym)
          if (auto s = sym(target)) ops += " <" + *s + ">";
        break;
      }
      case OperandKind::Upper: {
        sep();
        const int64_t v = field_operand(op.field, word);
        // c.lui's immediate is the lui one it expands to: 20 bits, unsigned.
        ops += op.field == "imm20" ? hex(static_cast<uint64_t>(v))
                                   : hex(static_cast<uint64_t>(v >> 12) & 0xfffffu);
        break;
      }
      case OperandKind::Csr:
        sep();
        ops += csr_text(static_cast<uint32_t>(field_operand(op.field, word)));
        break;
      case OperandKind::RoundMode: {
        const uint32_t rm = static_cast<uint32_t>(field_operand(op.field, word));
        if (rm != default_rounding_mode(*insn)) {
          sep();
          const std::string_view n = rounding_mode_name(rm);
          ops += n.empty() ? std::to_string(rm) : std::string(n);
        }
        break;
      }
      case OperandKind::Fence: {
        sep();
        const uint32_t set = static_cast<uint32_t>(field_operand(op.field, word));
        ops += set == 0 ? "unknown" : format_fence_set(set);
        break;
      }
      case OperandKind::VType:
        sep();
        ops += format_vtype(static_cast<uint32_t>(field_operand(op.field, word)));
        break;
      case OperandKind::VMask:
        if (field_operand(op.field, word) == 0) {
          sep();
          ops += "v0.t";
        }
        break;
      case OperandKind::V0:
        sep();
        ops += "v0";
        break;
      case OperandKind::Sp:
        sep();
        ops += "sp";
        break;
    }
  }
  return ops.empty() ? mnemonic : mnemonic + "\t" + ops;
}

}  // namespace opforge::isa
