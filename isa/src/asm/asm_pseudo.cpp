//===- asm_pseudo.cpp - GNU as pseudo-instructions (li, la, call, mv, ...) --===//
#include "asm_pseudo.h"

#include <elf.h>

#include <bit>
#include <cstring>

#include "opforge/isa/encode.h"

namespace opforge::isa::asmimpl {
namespace {

// A one-instruction alias: operands $0.. of the pseudo fill the template.
struct Alias {
  const char *name;
  int nops;  // operands written (without a trailing v0.t)
  const char *real;
  const char *tmpl[4];  // operand templates, nullptr-terminated
  bool mask = false;    // accepts a trailing v0.t
};

const Alias kAliases[] = {
    {"nop", 0, "addi", {"zero", "zero", "0", nullptr}},
    {"c.nop", 0, "c.addi", {"zero", "0", nullptr, nullptr}},
    {"mv", 2, "addi", {"$0", "$1", "0", nullptr}},
    {"not", 2, "xori", {"$0", "$1", "-1", nullptr}},
    {"neg", 2, "sub", {"$0", "zero", "$1", nullptr}},
    {"negw", 2, "subw", {"$0", "zero", "$1", nullptr}},
    {"sext.w", 2, "addiw", {"$0", "$1", "0", nullptr}},
    {"seqz", 2, "sltiu", {"$0", "$1", "1", nullptr}},
    {"snez", 2, "sltu", {"$0", "zero", "$1", nullptr}},
    {"sltz", 2, "slt", {"$0", "$1", "zero", nullptr}},
    {"sgtz", 2, "slt", {"$0", "zero", "$1", nullptr}},
    {"beqz", 2, "beq", {"$0", "zero", "$1", nullptr}},
    {"bnez", 2, "bne", {"$0", "zero", "$1", nullptr}},
    {"blez", 2, "bge", {"zero", "$0", "$1", nullptr}},
    {"bgez", 2, "bge", {"$0", "zero", "$1", nullptr}},
    {"bltz", 2, "blt", {"$0", "zero", "$1", nullptr}},
    {"bgtz", 2, "blt", {"zero", "$0", "$1", nullptr}},
    {"bgt", 3, "blt", {"$1", "$0", "$2", nullptr}},
    {"ble", 3, "bge", {"$1", "$0", "$2", nullptr}},
    {"bgtu", 3, "bltu", {"$1", "$0", "$2", nullptr}},
    {"bleu", 3, "bgeu", {"$1", "$0", "$2", nullptr}},
    {"j", 1, "jal", {"zero", "$0", nullptr, nullptr}},
    {"jal", 1, "jal", {"ra", "$0", nullptr, nullptr}},
    {"jr", 1, "jalr", {"zero", "0($0)", nullptr, nullptr}},
    {"jalr", 1, "jalr", {"ra", "0($0)", nullptr, nullptr}},
    {"ret", 0, "jalr", {"zero", "0(ra)", nullptr, nullptr}},
    {"fence", 0, "fence", {"iorw", "iorw", nullptr, nullptr}},
    {"fmv.s", 2, "fsgnj.s", {"$0", "$1", "$1", nullptr}},
    {"fabs.s", 2, "fsgnjx.s", {"$0", "$1", "$1", nullptr}},
    {"fneg.s", 2, "fsgnjn.s", {"$0", "$1", "$1", nullptr}},
    {"fmv.d", 2, "fsgnj.d", {"$0", "$1", "$1", nullptr}},
    {"fabs.d", 2, "fsgnjx.d", {"$0", "$1", "$1", nullptr}},
    {"fneg.d", 2, "fsgnjn.d", {"$0", "$1", "$1", nullptr}},
    {"csrr", 2, "csrrs", {"$0", "$1", "zero", nullptr}},
    {"csrw", 2, "csrrw", {"zero", "$0", "$1", nullptr}},
    {"csrs", 2, "csrrs", {"zero", "$0", "$1", nullptr}},
    {"csrc", 2, "csrrc", {"zero", "$0", "$1", nullptr}},
    {"csrwi", 2, "csrrwi", {"zero", "$0", "$1", nullptr}},
    {"csrsi", 2, "csrrsi", {"zero", "$0", "$1", nullptr}},
    {"csrci", 2, "csrrci", {"zero", "$0", "$1", nullptr}},
    {"rdcycle", 1, "csrrs", {"$0", "cycle", "zero", nullptr}},
    {"rdtime", 1, "csrrs", {"$0", "time", "zero", nullptr}},
    {"rdinstret", 1, "csrrs", {"$0", "instret", "zero", nullptr}},
    {"frflags", 1, "csrrs", {"$0", "fflags", "zero", nullptr}},
    {"fsflags", 1, "csrrw", {"zero", "fflags", "$0", nullptr}},
    {"frrm", 1, "csrrs", {"$0", "frm", "zero", nullptr}},
    {"fsrm", 1, "csrrw", {"zero", "frm", "$0", nullptr}},
    {"frcsr", 1, "csrrs", {"$0", "fcsr", "zero", nullptr}},
    {"fscsr", 1, "csrrw", {"zero", "fcsr", "$0", nullptr}},
    // Swap forms (old value to rd) and immediate forms, as GNU as and LLVM write them.
    {"fsflags", 2, "csrrw", {"$0", "fflags", "$1", nullptr}},
    {"fsrm", 2, "csrrw", {"$0", "frm", "$1", nullptr}},
    {"fscsr", 2, "csrrw", {"$0", "fcsr", "$1", nullptr}},
    {"fsflagsi", 1, "csrrwi", {"zero", "fflags", "$0", nullptr}},
    {"fsflagsi", 2, "csrrwi", {"$0", "fflags", "$1", nullptr}},
    {"fsrmi", 1, "csrrwi", {"zero", "frm", "$0", nullptr}},
    {"fsrmi", 2, "csrrwi", {"$0", "frm", "$1", nullptr}},
    {"vneg.v", 2, "vrsub.vx", {"$0", "$1", "zero", nullptr}, true},
    {"vnot.v", 2, "vxor.vi", {"$0", "$1", "-1", nullptr}, true},
    {"vwcvt.x.x.v", 2, "vwadd.vx", {"$0", "$1", "zero", nullptr}, true},
    {"vwcvtu.x.x.v", 2, "vwaddu.vx", {"$0", "$1", "zero", nullptr}, true},
    {"vncvt.x.x.w", 2, "vnsrl.wx", {"$0", "$1", "zero", nullptr}, true},
    {"vmmv.m", 2, "vmand.mm", {"$0", "$1", "$1", nullptr}},
    {"vmclr.m", 1, "vmxor.mm", {"$0", "$0", "$0", nullptr}},
    {"vmset.m", 1, "vmxnor.mm", {"$0", "$0", "$0", nullptr}},
    {"vmnot.m", 2, "vmnand.mm", {"$0", "$1", "$1", nullptr}},
    {"vfneg.v", 2, "vfsgnjn.vv", {"$0", "$1", "$1", nullptr}, true},
    {"vfabs.v", 2, "vfsgnjx.vv", {"$0", "$1", "$1", nullptr}, true},
    {"vmsgt.vv", 3, "vmslt.vv", {"$0", "$2", "$1", nullptr}, true},
    {"vmsgtu.vv", 3, "vmsltu.vv", {"$0", "$2", "$1", nullptr}, true},
    {"vmsge.vv", 3, "vmsle.vv", {"$0", "$2", "$1", nullptr}, true},
    {"vmsgeu.vv", 3, "vmsleu.vv", {"$0", "$2", "$1", nullptr}, true},
    {"vmfgt.vv", 3, "vmflt.vv", {"$0", "$2", "$1", nullptr}, true},
    {"vmfge.vv", 3, "vmfle.vv", {"$0", "$2", "$1", nullptr}, true},
    // Whole-register loads without an element width (LLVM writes these): EEW=8.
    {"vl1r.v", 2, "vl1re8.v", {"$0", "$1", nullptr, nullptr}},
    {"vl2r.v", 2, "vl2re8.v", {"$0", "$1", nullptr, nullptr}},
    {"vl4r.v", 2, "vl4re8.v", {"$0", "$1", nullptr, nullptr}},
    {"vl8r.v", 2, "vl8re8.v", {"$0", "$1", nullptr, nullptr}},
};

const Alias *find_alias(const Stmt &st) {
  for (const auto &a : kAliases) {
    if (st.mnemonic != a.name) continue;
    const int n = static_cast<int>(st.ops.size());
    if (n == a.nops) return &a;
    if (a.mask && n == a.nops + 1 && st.ops.back().text == "v0.t") return &a;
  }
  return nullptr;
}

int64_t sext12(int64_t v) { return static_cast<int64_t>(static_cast<uint64_t>(v) << 52) >> 52; }
int64_t sext_bits(uint64_t v, int bits) {
  return bits >= 64 ? static_cast<int64_t>(v)
                    : static_cast<int64_t>(v << (64 - bits)) >> (64 - bits);
}

bool is_call(const Stmt &st) {
  return (st.mnemonic == "call" && (st.ops.size() == 1 || st.ops.size() == 2)) ||
         (st.mnemonic == "tail" && st.ops.size() == 1);
}
bool is_la(const Stmt &st) {
  return (st.mnemonic == "la" || st.mnemonic == "lla") && st.ops.size() == 2;
}
bool is_li(const Stmt &st) { return st.mnemonic == "li" && st.ops.size() == 2; }
// jalr rd, rs / jalr rd, rs, imm (register without parentheses).
bool is_jalr_short(const Stmt &st) {
  return st.mnemonic == "jalr" && (st.ops.size() == 2 || st.ops.size() == 3) &&
         st.ops[1].text.find('(') == std::string::npos;
}

}  // namespace

namespace {
// As GNU as builds it: a 12-bit value is addi at the top level but addiw
// inside a longer sequence.
std::vector<std::pair<std::string, std::vector<std::string>>> li_build(const std::string &rd,
                                                                       int64_t value, bool nested) {
  std::vector<std::pair<std::string, std::vector<std::string>>> out;
  if (value == static_cast<int64_t>(static_cast<int32_t>(value))) {
    const int64_t lo = sext12(value);
    const int64_t hi20 = ((value + 0x800) >> 12) & 0xfffff;
    if (hi20 != 0) {
      out.push_back({"lui", {rd, std::to_string(hi20)}});
      if (lo != 0) out.push_back({"addiw", {rd, rd, std::to_string(lo)}});
    } else {
      out.push_back({nested ? "addiw" : "addi", {rd, "zero", std::to_string(lo)}});
    }
    return out;
  }
  const int64_t lo12 = sext12(value);
  uint64_t hi52 = (static_cast<uint64_t>(value) + 0x800u) >> 12;
  const int shift = 12 + std::countr_zero(hi52);
  const int64_t upper = sext_bits(hi52 >> (shift - 12), 64 - shift);
  out = li_build(rd, upper, true);
  out.push_back({"slli", {rd, rd, std::to_string(shift)}});
  if (lo12 != 0) out.push_back({"addi", {rd, rd, std::to_string(lo12)}});
  return out;
}
// "lw rd, symbol" and "sw rs, symbol, rt" / "flw fd, symbol, rt": a
// pc-relative access through auipc (rd, or the temporary rt).
bool is_symbol_access(const Stmt &st) {
  static const char *const kLoads[] = {"lb", "lh", "lw", "ld", "lbu", "lhu", "lwu"};
  static const char *const kViaTemp[] = {"sb", "sh", "sw", "sd", "flw", "fld", "fsw", "fsd"};
  auto plain_symbol = [](const Operand &o) {
    return !o.text.empty() && o.text.back() != ')' && !parse_xreg(o.text) && !parse_freg(o.text);
  };
  for (const char *m : kLoads)
    if (st.mnemonic == m && st.ops.size() == 2 && plain_symbol(st.ops[1])) return true;
  for (const char *m : kViaTemp)
    if (st.mnemonic == m && st.ops.size() == 3 && plain_symbol(st.ops[1])) return true;
  return false;
}

}  // namespace

std::vector<std::pair<std::string, std::vector<std::string>>> li_sequence(const std::string &rd,
                                                                          int64_t value) {
  return li_build(rd, value, false);
}

std::optional<uint64_t> pseudo_size(const Assembler &as, const Stmt &st) {
  if (const Alias *a = find_alias(st)) return find_insn(a->real)->length_bytes();
  if (is_jalr_short(st) || (st.mnemonic == "fence.tso" && st.ops.empty())) return 4;
  if (is_call(st) || is_la(st) || is_symbol_access(st)) return 8;
  if (is_li(st)) {
    const int64_t v = as.eval_const(st.ops[1], st);
    return 4 * li_sequence(st.ops[0].text, v).size();
  }
  return std::nullopt;
}

bool expand_pseudo(Assembler &as, const Stmt &st) {
  if (const Alias *a = find_alias(st)) {
    std::vector<Operand> ops;
    for (const char *t : a->tmpl) {
      if (!t) break;
      // One left-to-right pass: "$N" is operand N (its text may itself hold '$').
      std::string text;
      int col = st.pos.col;
      for (const char *c = t; *c; ++c) {
        if (c[0] == '$' && c[1] >= '0' && c[1] <= '9') {
          const size_t idx = static_cast<size_t>(c[1] - '0');
          text += st.ops[idx].text;
          col = st.ops[idx].col;
          ++c;
        } else {
          text += *c;
        }
      }
      ops.push_back({text, col});
    }
    if (a->mask && static_cast<int>(st.ops.size()) == a->nops + 1) ops.push_back(st.ops.back());
    encode_real(as, st, 0, a->real, ops);
    return true;
  }
  if (st.mnemonic == "fence.tso" && st.ops.empty()) {
    // fence with fm=1000, rw,rw (RVWMO's TSO fence; executes as a fence).
    const FieldValue vals[] = {{"fm", 8}, {"pred", 3}, {"succ", 3}};
    as.put_word(st, 0, encode(*find_insn("fence"), vals));
    return true;
  }
  if (is_jalr_short(st)) {
    std::vector<Operand> ops{
        st.ops[0],
        {(st.ops.size() == 3 ? st.ops[2].text : "0") + "(" + st.ops[1].text + ")", st.ops[1].col}};
    encode_real(as, st, 0, "jalr", ops);
    return true;
  }
  if (is_li(st)) {
    const int64_t v = as.eval_const(st.ops[1], st);
    if (!parse_xreg(st.ops[0].text))
      as.error({st.pos.line, st.ops[0].col}, "li: bad integer register '" + st.ops[0].text + "'");
    uint64_t at = 0;
    for (const auto &[m, texts] : li_sequence(st.ops[0].text, v)) {
      std::vector<Operand> ops;
      for (const auto &t : texts) ops.push_back({t, st.ops[1].col});
      ops[0].col = st.ops[0].col;
      encode_real(as, st, at, m, ops);
      at += 4;
    }
    return true;
  }
  if (is_la(st)) {
    const Operand &rd = st.ops[0];
    const Operand &target = st.ops[1];
    encode_real(as, st, 0, "auipc", {rd, {"%pcrel_hi(" + target.text + ")", target.col}});
    const std::string label = as.make_local_label(st, 0);
    encode_real(as, st, 4, "addi", {rd, rd, {"%pcrel_lo(" + label + ")", target.col}});
    return true;
  }
  if (is_symbol_access(st)) {
    const Operand &base = st.ops.size() == 3 ? st.ops[2] : st.ops[0];
    const Operand &target = st.ops[1];
    encode_real(as, st, 0, "auipc", {base, {"%pcrel_hi(" + target.text + ")", target.col}});
    const std::string label = as.make_local_label(st, 0);
    encode_real(as, st, 4, st.mnemonic,
                {st.ops[0], {"%pcrel_lo(" + label + ")(" + base.text + ")", target.col}});
    return true;
  }
  if (is_call(st)) {
    const bool tail = st.mnemonic == "tail";
    const Operand link = st.ops.size() == 2 ? st.ops[0] : Operand{tail ? "t1" : "ra", st.pos.col};
    const Operand &target = st.ops.back();
    const Value v = as.eval(target, st);
    if (v.absolute() || v.mod != Mod::None)
      as.error({st.pos.line, target.col}, st.mnemonic + ": target must be a symbol");
    encode_real(as, st, 0, "auipc", {link, {"0", target.col}});
    encode_real(as, st, 4, "jalr",
                {tail ? Operand{"zero", st.pos.col} : link, {"0(" + link.text + ")", target.col}});
    as.add_fixup(st, 0, R_RISCV_CALL_PLT, v.sym, v.add);
    return true;
  }
  return false;
}

}  // namespace opforge::isa::asmimpl
