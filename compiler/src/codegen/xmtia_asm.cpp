//===- xmtia_asm.cpp - inline-assembly text for Xmtia, encoded from the ISA tables ===//
#include "xmtia_asm.h"

#include <cstdio>

#include "opforge/isa/spec.h"
#include "opforge/support/error.h"

namespace opforge::compiler {

uint32_t xmtia_encode(const std::string &mnemonic, const std::map<std::string, uint32_t> &fields) {
  const isa::InsnSpec *s = isa::find_insn(mnemonic);
  if (!s) throw Error("codegen: the ISA tables have no instruction '" + mnemonic + "'");
  uint32_t word = s->match;
  for (auto &[name, value] : fields) {
    const isa::FieldSpec *f = isa::find_field(name);
    if (!f) throw Error("codegen: the ISA tables have no field '" + name + "'");
    if (f->width() < 32 && value >> f->width())
      throw Error("codegen: value out of range for field '" + name + "'");
    word = (word & ~f->mask()) | ((value << f->lsb) & f->mask());
  }
  return word;
}

std::string csr_read_asm(const std::string &csr_name) {
  const isa::CsrSpec *c = isa::find_csr(csr_name);
  if (!c) throw Error("codegen: the ISA tables have no CSR '" + csr_name + "'");
  char buf[32];
  std::snprintf(buf, sizeof buf, "csrr $0, 0x%03x", c->number);
  return buf;
}

// GNU as takes only integer or FP registers in .insn operands: vector
// register vN is written as xN, which puts the same number in the field.
static std::string insn_reg(const std::string &r) {
  return r.size() > 1 && r[0] == 'v' && r[1] >= '0' && r[1] <= '9' ? "x" + r.substr(1) : r;
}

// ".insn r OPCODE, FUNCT3, FUNCT7, rd, rs1, rs2" with the fixed bits of the
// encoded word (LLVM's integrated assembler, GNU as and ours take this form).
std::string insn_r(uint32_t word, const std::string &rd, const std::string &rs1,
                   const std::string &rs2) {
  return ".insn r " + std::to_string(word & 0x7f) + ", " + std::to_string((word >> 12) & 7) + ", " +
         std::to_string(word >> 25) + ", " + insn_reg(rd) + ", " + insn_reg(rs1) + ", " +
         insn_reg(rs2);
}

std::string done_asm() { return insn_r(xmtia_encode("xmtia.done"), "x0", "x0", "x0"); }

std::string dma_issue_asm() { return insn_r(xmtia_encode("xmtia.dma"), "x0", "$0", "$1"); }
std::string dma_wait_asm() { return insn_r(xmtia_encode("xmtia.dmawait"), "x0", "$0", "x0"); }
std::string dpe_issue_asm() { return insn_r(xmtia_encode("xmtia.dpe"), "x0", "$0", "x0"); }
std::string dpe_wait_asm() { return insn_r(xmtia_encode("xmtia.dpewait"), "x0", "x0", "x0"); }

std::string sfu_mnemonic(ttir::OpKind k) {
  switch (k) {
    case ttir::OpKind::Exp:
      return "vfexp.v";
    case ttir::OpKind::Log:
      return "vflog.v";
    case ttir::OpKind::Tanh:
      return "vftanh.v";
    case ttir::OpKind::Erf:
      return "vferf.v";
    case ttir::OpKind::Sin:
      return "vfsin.v";
    case ttir::OpKind::Cos:
      return "vfcos.v";
    case ttir::OpKind::Rsqrt:
      return "vfrsqrt.v";
    default:
      return "";
  }
}

std::string sfu_scalar_asm(ttir::OpKind k) {
  std::string m = sfu_mnemonic(k);
  if (m.empty()) throw Error("codegen: no SFU instruction for this operation");
  uint32_t w = xmtia_encode(m, {{"vm", 1}});
  return "vsetivli zero, 1, e32, m1, ta, ma\\0A\\09vfmv.s.f v8, $1\\0A\\09" +
         insn_r(w, "v8", "x0", "v8") + "\\0A\\09vfmv.f.s $0, v8";
}

}  // namespace opforge::compiler

namespace opforge::compiler {

std::string sfu_insn_asm(ttir::OpKind k) {
  std::string m = sfu_mnemonic(k);
  if (m.empty()) throw Error("codegen: no SFU instruction for this operation");
  return insn_r(xmtia_encode(m, {{"vm", 1}}), "v8", "x0", "v8");
}

std::string sfu_strip_asm(ttir::OpKind k) {
  const char *nl = "\\0A\\09";
  return std::string(".Lsfu${:uid}:") + nl + "vsetvli $2, $0, e32, m8, ta, ma" + nl +
         "vle32.v v8, ($1)" + nl + sfu_insn_asm(k) + nl + "vse32.v v8, ($1)" + nl +
         "sub $0, $0, $2" + nl + "slli $2, $2, 2" + nl + "add $1, $1, $2" + nl +
         "bnez $0, .Lsfu${:uid}";
}

}  // namespace opforge::compiler
