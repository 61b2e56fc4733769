//===- spec_syntax.cpp - assembly operand order derived from table fields --===//
//
// The tables say which fields an instruction has, not the order GNU as
// writes them. The rules here are the whole of that knowledge; assembler and
// disassembler both read asm_operands(), so they agree by construction.
//
//===----------------------------------------------------------------------===//
#include <algorithm>
#include <map>
#include <mutex>

#include "opforge/isa/encode.h"
#include "spec_rvc.h"

namespace opforge::isa {
namespace {

bool has(const InsnSpec &i, std::string_view f) {
  return std::find(i.fields.begin(), i.fields.end(), f) != i.fields.end();
}

// Multiply-adds write `vd, vs1|rs1, vs2` (the addend/accumulator is vd).
bool is_vector_multiply_add(std::string_view name) {
  static const std::string_view kBases[] = {
      "vmacc",    "vnmsac",  "vmadd",   "vnmsub",   "vwmaccu", "vwmacc",  "vwmaccsu",
      "vwmaccus", "vfmacc",  "vfnmacc", "vfmsac",   "vfnmsac", "vfmadd",  "vfnmadd",
      "vfmsub",   "vfnmsub", "vfwmacc", "vfwnmacc", "vfwmsac", "vfwnmsac"};
  const std::string_view base = name.substr(0, name.find('.'));
  return std::find(std::begin(kBases), std::end(kBases), base) != std::end(kBases);
}

OperandKind reg_kind(std::string_view field) {
  const FieldSpec *f = find_field(field);
  if (f && f->kind == "freg") return OperandKind::FReg;
  if (f && f->kind == "vreg") return OperandKind::VReg;
  return OperandKind::XReg;
}

std::vector<AsmOperand> derive(const InsnSpec &i) {
  if (i.length_bytes() == 2) return detail::rvc_asm_operands(i);
  std::vector<AsmOperand> ops;
  auto add = [&](OperandKind k, std::string f) { ops.push_back({k, std::move(f)}); };
  auto reg = [&](std::string_view f) {
    if (has(i, f)) add(reg_kind(f), std::string(f));
  };
  const uint32_t opcode = i.match & 0x7f;
  const bool vector_mem = (opcode == 0x07 || opcode == 0x27) && (has(i, "vd") || has(i, "vs3"));
  // OP-V, and vector instructions in the custom opcodes (Xmtia's SFU in
  // custom-1, ISA extension files in any of custom-0..3).
  const bool custom = opcode == 0x0b || opcode == 0x2b || opcode == 0x5b || opcode == 0x7b;
  const bool vector_alu = opcode == 0x57 || (custom && (has(i, "vd") || has(i, "vs2")));

  if (i.name == "vsetvli") {
    add(OperandKind::XReg, "rd"), add(OperandKind::XReg, "rs1"), add(OperandKind::VType, "zimm11");
  } else if (i.name == "vsetivli") {
    add(OperandKind::XReg, "rd"), add(OperandKind::Imm, "zimm5"), add(OperandKind::VType, "zimm10");
  } else if (vector_mem) {
    reg(has(i, "vd") ? "vd" : "vs3");
    add(OperandKind::MemBase, "rs1");
    reg("rs2");
    reg("vs2");
  } else if (vector_alu) {
    for (const char *d : {"vd", "rd", "fd"}) reg(d);
    const bool fma = is_vector_multiply_add(i.name);
    if (!fma) reg("vs2");
    for (const char *s : {"vs1", "rs1", "fs1"}) reg(s);
    if (has(i, "simm5") || has(i, "zimm5"))
      add(OperandKind::Imm, has(i, "simm5") ? "simm5" : "zimm5");
    if (fma) reg("vs2");
    if (i.name == "vsetvl") reg("rs2");
    // vmerge/vfmerge (vm fixed 0) name the mask register explicitly.
    const std::string_view suffix = std::string_view(i.name).substr(i.name.rfind('.') + 1);
    const FieldSpec *vm = find_field("vm");
    if (vm && !has(i, "vm") && (i.mask & vm->mask()) && !(i.match & vm->mask()) &&
        suffix.size() == 3 && suffix[0] == 'v' && suffix[2] == 'm')
      add(OperandKind::V0, "");
  } else if (has(i, "imm20")) {
    reg("rd"), add(OperandKind::Upper, "imm20");
  } else if (has(i, "jimm20")) {
    reg("rd"), add(OperandKind::PcRel, "imm_j");
  } else if (has(i, "bimm12hi")) {
    reg("rs1"), reg("rs2"), add(OperandKind::PcRel, "imm_b");
  } else if (has(i, "imm12hi")) {
    reg(has(i, "fs2") ? "fs2" : "rs2"), add(OperandKind::MemOffset, "imm_s");
  } else if (has(i, "csr")) {
    reg("rd"), add(OperandKind::Csr, "csr");
    if (has(i, "rs1")) reg("rs1");
    if (has(i, "zimm")) add(OperandKind::Imm, "zimm");
  } else if (has(i, "pred")) {
    add(OperandKind::Fence, "pred"), add(OperandKind::Fence, "succ");
  } else if (i.name == "fence.i") {
    // rd, rs1 and imm12 are reserved (written as zero).
  } else if (has(i, "aq")) {
    reg("rd");
    reg("rs2");
    add(OperandKind::MemBase, "rs1");
  } else if (has(i, "imm12") && (opcode == 0x03 || opcode == 0x07 || opcode == 0x67)) {
    reg(has(i, "fd") ? "fd" : "rd"), add(OperandKind::MemOffset, "imm12");
  } else {
    for (const char *f : {"rd", "fd", "rs1", "fs1", "rs2", "fs2", "fs3"}) reg(f);
    for (const char *f : {"imm12", "shamtd", "shamtw"})
      if (has(i, f)) add(OperandKind::Imm, f);
    if (has(i, "rm")) add(OperandKind::RoundMode, "rm");
  }
  if (has(i, "vm")) add(OperandKind::VMask, "vm");
  return ops;
}

}  // namespace

const std::vector<AsmOperand> &asm_operands(const InsnSpec &insn) {
  static std::once_flag once;
  static std::vector<std::vector<AsmOperand>> cache;
  std::call_once(once, [] {
    // The built-in tables only: indexing them is safe while extensions are added.
    const std::vector<InsnSpec> &all = instructions();
    for (size_t k = 0; k < detail::builtin_instruction_count(); ++k)
      cache.push_back(derive(all[k]));
  });
  if (static_cast<size_t>(insn.id) < cache.size()) return cache[static_cast<size_t>(insn.id)];
  // Instructions added at run time (extension.h) after the cache was built.
  static std::mutex added_mutex;
  static std::map<int, std::vector<AsmOperand>> added;
  std::lock_guard lock(added_mutex);
  auto it = added.find(insn.id);
  if (it == added.end()) it = added.emplace(insn.id, derive(insn)).first;
  return it->second;
}

uint32_t default_rounding_mode(const InsnSpec &insn) {
  // Conversions that are always exact: binutils encodes rne and omits it.
  static const std::string_view kExact[] = {"fcvt.d.s", "fcvt.d.w", "fcvt.d.wu", "fcvt.s.h",
                                            "fcvt.d.h"};
  for (auto n : kExact)
    if (insn.name == n) return 0;
  return 7;
}

}  // namespace opforge::isa
