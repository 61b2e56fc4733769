//===- encode.h - encoder, operand syntax and register names from the tables ===//
//
// encode() builds an instruction word from field values and checks that
// every value fits its field. asm_operands() gives an instruction's operand
// list in GNU `as` order; it is derived from the table's fields (and a few
// syntax rules such as "multiply-adds take vs1 before vs2"), and drives both
// the assembler and the disassembler so they cannot disagree.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "opforge/isa/spec.h"

namespace opforge::isa {

// A value for one field of an instruction. Besides the table's fields, the
// split immediates have logical names: "imm_s" (imm12hi/imm12lo, signed 12
// bits), "imm_b" (bimm12hi/bimm12lo, signed 13 bits, even) and "imm_j"
// (jimm20, signed 21 bits, even). Compressed instructions' scrambled
// immediates have one logical name each ("cimm_lw", "cimm6", "cimm_j", ...,
// see spec_rvc.cpp); their register fields rd_p, rs1_p, ... (creg/cfreg)
// take the register number 8..15.
struct FieldValue {
  std::string_view field;
  int64_t value = 0;
};

// Encode `insn` with the given field values; fields not given are 0.
// Throws opforge::Error("<insn>: <field> value V out of range [lo, hi]") for
// a value that does not fit, or for a field the instruction does not have.
uint32_t encode(const InsnSpec &insn, std::span<const FieldValue> values);

// The allowed range of a field (or logical immediate) as an assembler
// operand: signed for simm kinds and the split immediates.
struct FieldRange {
  int64_t lo = 0, hi = 0;
  int64_t align = 1;  // value must be a multiple of this
};
FieldRange field_range(std::string_view field);

// Read a field (sign-extended for simm kinds) or logical immediate from a word.
int64_t field_operand(std::string_view field, uint32_t word);

// One operand in assembly syntax.
enum class OperandKind {
  XReg,       // integer register in field `field`
  FReg,       // floating-point register
  VReg,       // vector register
  Imm,        // plain immediate (simm/uimm field or logical immediate)
  MemOffset,  // imm(rs1): `field` is the immediate, rs1 the base
  MemBase,    // (rs1)
  PcRel,      // branch/jump target: `field` is imm_b or imm_j, written as a label
  Upper,      // lui/auipc 20-bit immediate (also %hi/%pcrel_hi)
  Csr,        // CSR name or number
  RoundMode,  // rne/rtz/rdn/rup/rmm/dyn; optional, defaults per instruction
  Fence,      // fence set: i,o,r,w letters
  VType,      // e32,m4,ta,ma
  VMask,      // optional trailing v0.t (field vm; absent = unmasked)
  V0,         // the literal v0 of vmerge/vfmerge (no field)
  Sp,         // the literal sp of c.addi4spn/c.addi16sp (no field)
};

struct AsmOperand {
  OperandKind kind = OperandKind::XReg;
  std::string field;  // field (or logical immediate) it fills; empty for V0
  // MemOffset: the base register's field; empty for the implied sp of the
  // compressed c.lwsp/c.swsp forms.
  std::string base = "rs1";
};

// Operands of `insn` in GNU as order (aq/rl of atomics are mnemonic
// suffixes, not operands). Derived from the fields once and cached.
const std::vector<AsmOperand> &asm_operands(const InsnSpec &insn);

// The rounding mode the assembler uses when the operand is omitted, and
// that the disassembler therefore leaves out: 7 (dyn) for most, 0 (rne) for
// the exact conversions binutils writes without one (fcvt.d.s, fcvt.d.w, ...).
uint32_t default_rounding_mode(const InsnSpec &insn);

// Register names. ABI names as objdump prints them (x8 is "s0").
std::string_view xreg_name(uint32_t r);
std::string_view freg_name(uint32_t r);
// Parse "a0", "x10", "fp", "ft3", "f3", "v7"; nullopt if not a register.
std::optional<uint32_t> parse_xreg(std::string_view s);
std::optional<uint32_t> parse_freg(std::string_view s);
std::optional<uint32_t> parse_vreg(std::string_view s);

// Rounding modes: "rne" 0 ... "rmm" 4, "dyn" 7.
std::optional<uint32_t> parse_rounding_mode(std::string_view s);
std::string_view rounding_mode_name(uint32_t rm);  // "" for reserved 5, 6

// vtype immediates: "e32,m4,ta,ma" <-> bits (vsew 5..3, vlmul 2..0, vta 6, vma 7).
std::optional<uint32_t> parse_vtype(std::string_view s);
// objdump's spelling; a vtype with reserved bits set prints as hex.
std::string format_vtype(uint32_t vtype);

// fence sets: "iorw" <-> 4 bits (i=8, o=4, r=2, w=1).
std::optional<uint32_t> parse_fence_set(std::string_view s);
std::string format_fence_set(uint32_t set);

// Atomic ordering suffix of a mnemonic: "amoadd.w.aqrl" -> base "amoadd.w",
// aq=1, rl=1. Returns the base unchanged when there is no suffix.
struct AtomicSuffix {
  std::string_view base;
  uint32_t aq = 0, rl = 0;
};
AtomicSuffix split_atomic_suffix(std::string_view mnemonic);

}  // namespace opforge::isa
