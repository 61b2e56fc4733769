//===- asm_insn_directive.cpp - GNU as `.insn` (raw words and r/i/s/b/u/j) ---===//
//
// `.insn 0x0000100b` (or `.insn 4, 0x...`) emits a word; `.insn r CUSTOM_0,
// 1, 0, x0, a0, a1` and the i/s/b/u/j forms build one from an opcode (number
// or GNU name), function codes and operands, with every value range-checked.
//
//===----------------------------------------------------------------------===//
#include <elf.h>

#include <cctype>
#include <utility>

#include "asm_internal.h"
#include "asm_pseudo.h"
#include "opforge/isa/encode.h"

namespace opforge::isa::asmimpl {
namespace {

const std::pair<const char *, uint32_t> kOpcodes[] = {
    {"LOAD", 0x03},     {"LOAD_FP", 0x07},  {"CUSTOM_0", 0x0b},  {"MISC_MEM", 0x0f},
    {"OP_IMM", 0x13},   {"AUIPC", 0x17},    {"OP_IMM_32", 0x1b}, {"STORE", 0x23},
    {"STORE_FP", 0x27}, {"CUSTOM_1", 0x2b}, {"AMO", 0x2f},       {"OP", 0x33},
    {"LUI", 0x37},      {"OP_32", 0x3b},    {"MADD", 0x43},      {"MSUB", 0x47},
    {"NMSUB", 0x4b},    {"NMADD", 0x4f},    {"OP_FP", 0x53},     {"OP_V", 0x57},
    {"CUSTOM_2", 0x5b}, {"BRANCH", 0x63},   {"JALR", 0x67},      {"JAL", 0x6f},
    {"SYSTEM", 0x73},   {"CUSTOM_3", 0x7b},
};

struct InsnBuilder {
  Assembler &as;
  const Stmt &st;
  size_t k = 1;  // operand index (0 is the format)

  SourcePos pos(size_t i) const {
    return {st.pos.line, i < st.ops.size() ? st.ops[i].col : st.pos.col};
  }
  const Operand &next(const char *what) {
    if (k >= st.ops.size()) as.error(pos(k), std::string(".insn: missing operand (") + what + ")");
    return st.ops[k++];
  }
  uint32_t number(const char *what, int64_t lo, int64_t hi) {
    const size_t i = k;
    const int64_t v = as.eval_const(next(what), st);
    if (v < lo || v > hi)
      as.error(pos(i), std::string(".insn: ") + what + " " + std::to_string(v) + " out of range [" +
                           std::to_string(lo) + ", " + std::to_string(hi) + "]");
    return static_cast<uint32_t>(v);
  }
  uint32_t opcode() {
    if (k >= st.ops.size()) as.error(pos(k), ".insn: missing operand (opcode)");
    const Operand &o = st.ops[k];
    for (const auto &[name, value] : kOpcodes)
      if (o.text == name) {
        ++k;
        return value;
      }
    if (!o.text.empty() &&
        (std::isalpha(static_cast<unsigned char>(o.text[0])) || o.text[0] == '_'))
      as.error(pos(k),
               ".insn: unknown opcode name '" + o.text + "' (LOAD, OP, CUSTOM_0, ... or a number)");
    const uint32_t v = number("opcode", 0, 127);
    if ((v & 3) != 3)
      as.error(pos(k - 1), ".insn: opcode must end in binary 11 (32-bit instruction)");
    return v;
  }
  uint32_t reg() {
    const Operand &o = next("register");
    if (auto r = parse_xreg(o.text)) return *r;
    if (auto r = parse_freg(o.text)) return *r;
    if (auto r = parse_vreg(o.text)) return *r;
    as.error({st.pos.line, o.col}, ".insn: bad register '" + o.text + "'");
  }
  // imm(rs1) or two operands "rs1, imm" (I type only).
  std::pair<uint32_t, int64_t> base_offset(bool allow_split) {
    const Operand &o = st.ops[k < st.ops.size() ? k : st.ops.size() - 1];
    const size_t open = o.text.rfind('(');
    if (k < st.ops.size() && open != std::string::npos && o.text.back() == ')') {
      ++k;
      auto r = parse_xreg(o.text.substr(open + 1, o.text.size() - open - 2));
      if (!r) as.error({st.pos.line, o.col}, ".insn: bad base register in '" + o.text + "'");
      const std::string off = o.text.substr(0, open);
      return {*r, off.empty() ? 0 : as.eval_const(Operand{off, o.col}, st)};
    }
    if (!allow_split) as.error(pos(k), ".insn: expected 'offset(register)'");
    const uint32_t r = reg();
    return {r, static_cast<int64_t>(static_cast<int32_t>(number("immediate", -2048, 2047)))};
  }
  int64_t pc_offset(const char *field) {
    const size_t i = k;
    const Value v = as.eval(next("target"), st);
    uint64_t off = 0;
    if (v.mod != Mod::None || v.absolute() || !as.local_offset(v.sym, st, off))
      as.error(pos(i), ".insn: target must be a label in this section");
    const int64_t rel = static_cast<int64_t>(off + static_cast<uint64_t>(v.add) - st.offset);
    const FieldRange r = field_range(field);
    if (rel < r.lo || rel > r.hi || rel % r.align)
      as.error(pos(i), ".insn: offset " + std::to_string(rel) + " out of range");
    return rel;
  }
};

}  // namespace

void emit_insn_directive(Assembler &as, const Stmt &in) {
  if (in.ops.empty()) as.error(in.pos, ".insn needs operands");
  // ".insn r OPCODE, ..." : the format letter and the opcode share operand 0.
  Stmt st = in;
  const std::string &first = in.ops[0].text;
  const size_t space = first.find_first_of(" \t");
  if (space != std::string::npos) {
    size_t rest = first.find_first_not_of(" \t", space);
    st.ops[0].text = first.substr(0, space);
    st.ops.insert(st.ops.begin() + 1,
                  Operand{first.substr(rest), in.ops[0].col + static_cast<int>(rest)});
  }
  InsnBuilder b{as, st};
  const std::string fmt = st.ops[0].text;
  uint32_t w = 0;
  auto check_imm = [&](int64_t v, int64_t lo, int64_t hi, size_t at) {
    if (v < lo || v > hi)
      as.error(b.pos(at), ".insn: immediate " + std::to_string(v) + " out of range [" +
                              std::to_string(lo) + ", " + std::to_string(hi) + "]");
  };
  if (fmt == "r") {
    const uint32_t op = b.opcode(), f3 = b.number("funct3", 0, 7);
    const size_t f_at = b.k;
    const int64_t f = b.number("funct7", 0, 127);
    const uint32_t rd = b.reg(), rs1 = b.reg(), rs2 = b.reg();
    if (b.k < st.ops.size()) {  // R4: funct2 and rs3
      if (f > 3) as.error(b.pos(f_at), ".insn: funct2 out of range [0, 3]");
      const uint32_t rs3 = b.reg();
      w = (rs3 << 27) | (static_cast<uint32_t>(f) << 25) | (rs2 << 20) | (rs1 << 15) | (f3 << 12) |
          (rd << 7) | op;
    } else {
      w = (static_cast<uint32_t>(f) << 25) | (rs2 << 20) | (rs1 << 15) | (f3 << 12) | (rd << 7) |
          op;
    }
  } else if (fmt == "i") {
    const uint32_t op = b.opcode(), f3 = b.number("funct3", 0, 7), rd = b.reg();
    const size_t at = b.k;
    auto [rs1, imm] = b.base_offset(true);
    check_imm(imm, -2048, 2047, at);
    w = (static_cast<uint32_t>(imm & 0xfff) << 20) | (rs1 << 15) | (f3 << 12) | (rd << 7) | op;
  } else if (fmt == "s") {
    const uint32_t op = b.opcode(), f3 = b.number("funct3", 0, 7), rs2 = b.reg();
    const size_t at = b.k;
    auto [rs1, imm] = b.base_offset(false);
    check_imm(imm, -2048, 2047, at);
    const uint32_t u = static_cast<uint32_t>(imm);
    w = (((u >> 5) & 0x7f) << 25) | (rs2 << 20) | (rs1 << 15) | (f3 << 12) | ((u & 0x1f) << 7) | op;
  } else if (fmt == "b") {
    const uint32_t op = b.opcode(), f3 = b.number("funct3", 0, 7), rs1 = b.reg(), rs2 = b.reg();
    const uint32_t u = static_cast<uint32_t>(b.pc_offset("imm_b"));
    w = (((u >> 12) & 1) << 31) | (((u >> 5) & 0x3f) << 25) | (rs2 << 20) | (rs1 << 15) |
        (f3 << 12) | (((u >> 1) & 0xf) << 8) | (((u >> 11) & 1) << 7) | op;
  } else if (fmt == "u") {
    const uint32_t op = b.opcode(), rd = b.reg(), imm = b.number("immediate", 0, 0xfffff);
    w = (imm << 12) | (rd << 7) | op;
  } else if (fmt == "j") {
    const uint32_t op = b.opcode(), rd = b.reg();
    const uint32_t u = static_cast<uint32_t>(b.pc_offset("imm_j"));
    w = (((u >> 20) & 1) << 31) | (((u >> 1) & 0x3ff) << 21) | (((u >> 11) & 1) << 20) |
        (((u >> 12) & 0xff) << 12) | (rd << 7) | op;
  } else {
    // Raw word: ".insn VALUE" or ".insn 4, VALUE".
    b.k = 0;
    if (st.ops.size() == 2) {
      const uint32_t len = b.number("length", 4, 4);
      (void)len;
    }
    const size_t at = b.k;
    const int64_t v = as.eval_const(b.next("value"), st);
    if (v < 0 || v > 0xffffffffLL) as.error(b.pos(at), ".insn: value does not fit in 32 bits");
    if ((v & 3) != 3)
      as.error(b.pos(at), ".insn: only 32-bit instructions (low bits 11) are supported");
    w = static_cast<uint32_t>(v);
  }
  if (b.k < st.ops.size()) as.error(b.pos(b.k), ".insn: too many operands");
  as.put_word(st, 0, w);
}

}  // namespace opforge::isa::asmimpl
