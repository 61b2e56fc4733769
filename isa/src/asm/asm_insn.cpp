//===- asm_insn.cpp - operands of table instructions to encoded words ------===//
#include <elf.h>

#include <algorithm>
#include <cctype>

#include "asm_internal.h"
#include "asm_pseudo.h"
#include "opforge/isa/encode.h"
#include "opforge/support/error.h"

namespace opforge::isa::asmimpl {
namespace {

std::string range_text(const FieldRange &r) {
  return "[" + std::to_string(r.lo) + ", " + std::to_string(r.hi) + "]";
}

int64_t sext12(int64_t v) { return static_cast<int64_t>(static_cast<uint64_t>(v) << 52) >> 52; }

}  // namespace

// Encode one real (table) instruction at byte `at` of the statement.
void encode_real(Assembler &as, const Stmt &st, uint64_t at, const std::string &mnemonic,
                 const std::vector<Operand> &ops) {
  const AtomicSuffix sfx = split_atomic_suffix(mnemonic);
  const InsnSpec *insn = find_insn(mnemonic);
  std::vector<FieldValue> vals;
  if (!insn && sfx.base != mnemonic) {
    insn = find_insn(sfx.base);
    if (insn && std::find(insn->fields.begin(), insn->fields.end(), "aq") == insn->fields.end())
      insn = nullptr;
    if (insn) {
      vals.push_back({"aq", sfx.aq});
      vals.push_back({"rl", sfx.rl});
    }
  }
  if (!insn) as.error(st.pos, "unknown instruction '" + mnemonic + "'");
  const auto &form = asm_operands(*insn);
  const uint64_t pc = st.offset + at;
  size_t k = 0;  // next written operand
  auto pos_of = [&](size_t idx) {
    return SourcePos{st.pos.line, idx < ops.size() ? ops[idx].col : st.pos.col};
  };
  auto check_range = [&](const std::string &field, int64_t v, size_t idx) {
    const FieldRange r = field_range(field);
    if (v < r.lo || v > r.hi)
      as.error(pos_of(idx),
               mnemonic + ": immediate " + std::to_string(v) + " out of range " + range_text(r));
    if (v % r.align != 0)
      as.error(pos_of(idx), mnemonic + ": offset " + std::to_string(v) + " is not a multiple of " +
                                std::to_string(r.align));
    vals.push_back({field, v});
  };
  auto need = [&](const char *what) -> const Operand & {
    if (k >= ops.size())
      as.error(pos_of(ops.size()), mnemonic + ": missing operand (" + what + ")");
    return ops[k++];
  };
  auto reg = [&](OperandKind kind, const std::string &field) {
    const Operand &o = need(kind == OperandKind::FReg   ? "f register"
                            : kind == OperandKind::VReg ? "v register"
                                                        : "x register");
    auto r = kind == OperandKind::FReg   ? parse_freg(o.text)
             : kind == OperandKind::VReg ? parse_vreg(o.text)
                                         : parse_xreg(o.text);
    if (!r)
      as.error({st.pos.line, o.col}, mnemonic + ": bad " +
                                         (kind == OperandKind::FReg ? std::string("floating-point")
                                          : kind == OperandKind::VReg ? std::string("vector")
                                                                      : std::string("integer")) +
                                         " register '" + o.text + "'");
    vals.push_back({field, *r});
  };
  // imm or %lo/%pcrel_lo(...) in an I- or S-type immediate.
  auto low_imm = [&](const Operand &o, const std::string &field, size_t idx) {
    const Value v = as.eval(o, st);
    const bool s_type = field == "imm_s";
    if (v.mod != Mod::None && field != "imm12" && !s_type)
      as.error(pos_of(idx), mnemonic + ": %-modifiers do not fit a compressed immediate");
    if (v.mod == Mod::Lo) {
      if (v.absolute()) return check_range(field, sext12(v.add), idx);
      as.add_fixup(st, at, s_type ? R_RISCV_LO12_S : R_RISCV_LO12_I, v.sym, v.add);
      return check_range(field, 0, idx);
    }
    if (v.mod == Mod::PcrelLo) {
      if (v.absolute()) as.error(pos_of(idx), "%pcrel_lo needs the label of an auipc");
      as.add_fixup(st, at, s_type ? R_RISCV_PCREL_LO12_S : R_RISCV_PCREL_LO12_I, v.sym, v.add);
      return check_range(field, 0, idx);
    }
    if (v.mod != Mod::None)
      as.error(pos_of(idx), mnemonic + ": this %-modifier does not fit a 12-bit immediate");
    if (!v.absolute())
      as.error(pos_of(idx), mnemonic + ": expected a constant, got symbol '" + v.sym + "'");
    check_range(field, v.add, idx);
  };

  for (const AsmOperand &op : form) {
    switch (op.kind) {
      case OperandKind::XReg:
      case OperandKind::FReg:
      case OperandKind::VReg:
        reg(op.kind, op.field);
        break;
      case OperandKind::Imm: {
        const size_t idx = k;
        const Operand &o = need("immediate");
        if (op.field == "imm12") {
          low_imm(o, op.field, idx);
        } else {
          check_range(op.field, as.eval_const(o, st), idx);
        }
        break;
      }
      case OperandKind::MemOffset: {
        const size_t idx = k;
        const Operand &o = need("address");
        const std::string &t = o.text;
        if (t.empty() || t.back() != ')')
          as.error({st.pos.line, o.col}, mnemonic + ": expected 'offset(register)'");
        int depth = 0;
        size_t open = std::string::npos;
        for (size_t p = t.size(); p-- > 0;) {
          if (t[p] == ')') ++depth;
          if (t[p] == '(' && --depth == 0) {
            open = p;
            break;
          }
        }
        if (open == std::string::npos)
          as.error({st.pos.line, o.col}, mnemonic + ": unbalanced parentheses");
        const std::string base = t.substr(open + 1, t.size() - open - 2);
        auto r = parse_xreg(base);
        if (!r)
          as.error({st.pos.line, o.col + static_cast<int>(open) + 1},
                   mnemonic + ": bad base register '" + base + "'");
        if (op.base.empty()) {  // compressed *sp forms: the base is sp
          if (*r != 2)
            as.error({st.pos.line, o.col + static_cast<int>(open) + 1},
                     mnemonic + ": the base register must be sp, got '" + base + "'");
        } else {
          vals.push_back({op.base, *r});
        }
        std::string off = t.substr(0, open);
        while (!off.empty() && off.back() == ' ') off.pop_back();
        if (off.empty())
          check_range(op.field, 0, idx);
        else
          low_imm(Operand{off, o.col}, op.field, idx);
        break;
      }
      case OperandKind::MemBase: {
        const Operand &o = need("(register)");
        const std::string &t = o.text;
        std::optional<uint32_t> r;
        if (t.size() > 2 && t.front() == '(' && t.back() == ')')
          r = parse_xreg(t.substr(1, t.size() - 2));
        if (!r && t.size() > 3 && t.substr(0, 2) == "0(" && t.back() == ')')
          r = parse_xreg(t.substr(2, t.size() - 3));
        if (!r)
          as.error({st.pos.line, o.col}, mnemonic + ": expected '(register)', got '" + t + "'");
        vals.push_back({op.field, *r});
        break;
      }
      case OperandKind::PcRel: {
        const size_t idx = k;
        const Operand &o = need("target");
        const Value v = as.eval(o, st);
        if (v.mod != Mod::None)
          as.error(pos_of(idx), mnemonic + ": %-modifier not allowed for a branch target");
        if (v.absolute())
          as.error(pos_of(idx), mnemonic + ": branch target must be a label or '.'-relative");
        uint64_t off = 0;
        if (as.local_offset(v.sym, st, off)) {
          check_range(op.field, static_cast<int64_t>(off + static_cast<uint64_t>(v.add) - pc), idx);
        } else {
          if (insn->length_bytes() == 2)
            as.error(pos_of(idx), mnemonic + ": target '" + v.sym +
                                      "' must be a label in the same section (compressed "
                                      "branches take no relocations here)");
          as.add_fixup(st, at, op.field == "imm_b" ? R_RISCV_BRANCH : R_RISCV_JAL, v.sym, v.add);
          check_range(op.field, 0, idx);
        }
        break;
      }
      case OperandKind::Upper: {
        const size_t idx = k;
        const Operand &o = need("upper immediate");
        const Value v = as.eval(o, st);
        if (op.field != "imm20") {  // c.lui: the 20-bit lui immediate, 6 bits significant
          if (!v.absolute() || v.mod != Mod::None)
            as.error(pos_of(idx), mnemonic + ": expected a constant");
          const int64_t u = v.add;
          if (!((u >= 1 && u <= 0x1f) || (u >= 0xfffe0 && u <= 0xfffff)))
            as.error(pos_of(idx), mnemonic + ": immediate " + std::to_string(u) +
                                      " out of range [1, 0x1f] or [0xfffe0, 0xfffff]");
          vals.push_back({op.field, (u >= 0x80000 ? u - 0x100000 : u) * 4096});
          break;
        }
        if (v.mod == Mod::Hi) {
          if (v.absolute()) {
            check_range(op.field, ((v.add + 0x800) >> 12) & 0xfffff, idx);
          } else {
            as.add_fixup(st, at, R_RISCV_HI20, v.sym, v.add);
            check_range(op.field, 0, idx);
          }
        } else if (v.mod == Mod::PcrelHi) {
          if (v.absolute()) as.error(pos_of(idx), "%pcrel_hi needs a symbol");
          as.add_fixup(st, at, R_RISCV_PCREL_HI20, v.sym, v.add);
          check_range(op.field, 0, idx);
        } else if (v.mod != Mod::None) {
          as.error(pos_of(idx), mnemonic + ": only %hi or %pcrel_hi fit a 20-bit upper immediate");
        } else {
          if (!v.absolute())
            as.error(pos_of(idx), mnemonic + ": expected a constant, got symbol '" + v.sym + "'");
          check_range(op.field, v.add, idx);
        }
        break;
      }
      case OperandKind::Csr: {
        const size_t idx = k;
        const Operand &o = need("CSR");
        if (const CsrSpec *c = find_csr(o.text)) {
          vals.push_back({op.field, c->number});
        } else {
          const Value v = as.eval(o, st);
          if (!v.absolute() || v.mod != Mod::None)
            as.error(pos_of(idx), mnemonic + ": unknown CSR '" + o.text + "'");
          check_range(op.field, v.add, idx);
        }
        break;
      }
      case OperandKind::RoundMode: {
        uint32_t rm = default_rounding_mode(*insn);
        if (k < ops.size()) {
          auto r = parse_rounding_mode(ops[k].text);
          if (!r) as.error(pos_of(k), mnemonic + ": bad rounding mode '" + ops[k].text + "'");
          rm = *r;
          ++k;
        }
        vals.push_back({op.field, rm});
        break;
      }
      case OperandKind::Fence: {
        const Operand &o = need("fence set");
        auto s = parse_fence_set(o.text);
        if (!s)
          as.error({st.pos.line, o.col},
                   mnemonic + ": bad fence set '" + o.text + "' (letters of 'iorw')");
        vals.push_back({op.field, *s});
        break;
      }
      case OperandKind::VType: {
        if (k >= ops.size()) as.error(pos_of(k), mnemonic + ": missing vtype (e.g. e32,m1,ta,ma)");
        const size_t idx = k;
        std::string text;
        for (size_t j = k; j < ops.size(); ++j) text += (j > k ? "," : "") + ops[j].text;
        auto vt = parse_vtype(text);
        if (vt) {
          k = ops.size();
          check_range(op.field, *vt, idx);
        } else if (k + 1 == ops.size() && ops[k].text.find_first_of("0123456789") == 0) {
          check_range(op.field, as.eval_const(ops[k], st), idx);
          ++k;
        } else {
          as.error(pos_of(idx), mnemonic + ": bad vtype '" + text + "'");
        }
        break;
      }
      case OperandKind::VMask: {
        uint32_t vm = 1;
        if (k < ops.size()) {
          if (ops[k].text != "v0.t")
            as.error(pos_of(k), mnemonic + ": expected 'v0.t', got '" + ops[k].text + "'");
          vm = 0;
          ++k;
        }
        vals.push_back({op.field, vm});
        break;
      }
      case OperandKind::V0: {
        const Operand &o = need("v0");
        if (o.text != "v0")
          as.error({st.pos.line, o.col}, mnemonic + ": expected 'v0', got '" + o.text + "'");
        break;
      }
      case OperandKind::Sp: {
        const Operand &o = need("sp");
        if (parse_xreg(o.text) != 2u)
          as.error({st.pos.line, o.col}, mnemonic + ": expected 'sp', got '" + o.text + "'");
        break;
      }
    }
  }
  if (k < ops.size()) as.error(pos_of(k), mnemonic + ": too many operands");
  uint32_t word = 0;
  try {
    word = encode(*insn, vals);
  } catch (const Error &e) {
    as.error(st.pos, e.message());
  }
  if (insn->length_bytes() == 2)
    as.put_half(st, at, static_cast<uint16_t>(word));
  else
    as.put_word(st, at, word);
}

uint64_t Assembler::insn_size(const Stmt &st) const {
  if (auto n = pseudo_size(*this, st)) return *n;
  const AtomicSuffix sfx = split_atomic_suffix(st.mnemonic);
  const InsnSpec *insn = find_insn(st.mnemonic);
  if (!insn && !find_insn(sfx.base)) error(st.pos, "unknown instruction '" + st.mnemonic + "'");
  return insn ? static_cast<uint64_t>(insn->length_bytes()) : 4;
}

void Assembler::emit_insn(const Stmt &st) {
  if (st.mnemonic == ".insn") return emit_insn_directive(*this, st);
  if (expand_pseudo(*this, st)) return;
  encode_real(*this, st, 0, st.mnemonic, st.ops);
}

}  // namespace opforge::isa::asmimpl
