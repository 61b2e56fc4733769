//===- llir_ext.cpp - ISA extension intrinsics (mtia.intrinsic) on whole blocks ===//
//
// A block-valued tl.extra.mtia.<intrinsic> is planned as a buffer, like the
// SFU functions (llir_sfu.cpp): x (and y for VV instructions) are read from
// their fp32 buffers, or written into one by a vectorizable element loop,
// then one strip-mined loop (vsetvli e32 m8, vle32, the instruction, vse32)
// writes the result buffer. The instruction is emitted as `.insn r`, built
// from the registered ExtInsn's match bits and operand fields (never a
// hard-coded word): vd = v8, vs2 = v8 (x), vs1 = v16 (y of VV), rs1 = the f
// register holding y of VF, vm = 1 (unmasked). An x of the form a - s, s - a
// (s a scalar or constant; -a is 0 - a) or -a, with `a` already in an fp32
// buffer, is computed inside the strip loop (vfsub.vf / vfrsub.vf /
// vfsgnjn.vv, rounding as the element loop would) instead of by an element
// loop writing x to a buffer first.
//
//===----------------------------------------------------------------------===//
#include "llir_emitter.h"
#include "opforge/compiler/ext_intrinsic.h"
#include "opforge/isa/spec.h"
#include "opforge/support/error.h"

namespace opforge::compiler::llir {

// The `.insn r` line of `insn` with the register operands given by role:
// `vd`, `x` (the vs2 field), `y` (the vs1/rs1 field; unused for V).
std::string ext_insn_asm(const isa::ExtInsn &insn, const std::string &vd, const std::string &x,
                         const std::string &y) {
  // R-type register slots and the fixed parts .insn r takes.
  struct Slot {
    int lsb;
    std::string text;
  };
  Slot rd{7, ""}, rs1{15, ""}, rs2{20, ""};
  uint32_t covered = insn.mask;
  bool vm = false;
  for (const std::string &name : insn.fields) {
    const isa::FieldSpec *f = isa::find_field(name);
    if (!f)
      throw Error("codegen: " + insn.mnemonic + ": the ISA tables have no field '" + name + "'");
    covered |= f->mask();
    if (name == "vm" && f->lsb == 25 && f->width() == 1) {
      vm = true;
      continue;
    }
    Slot *s = f->width() != 5 ? nullptr
              : f->lsb == 7   ? &rd
              : f->lsb == 15  ? &rs1
              : f->lsb == 20  ? &rs2
                              : nullptr;
    if (!s)
      throw Error("codegen: " + insn.mnemonic + ": operand field '" + name +
                  "' is not a register field of the R format (.insn r)");
    s->text = s == &rd ? vd : s == &rs2 ? x : y;
  }
  if (covered != 0xffffffffu)
    throw Error("codegen: " + insn.mnemonic +
                ": the encoding leaves bits neither fixed nor operand fields");
  // A register slot without an operand field holds fixed bits of the match.
  for (Slot *s : {&rd, &rs1, &rs2})
    if (s->text.empty()) s->text = "x" + std::to_string((insn.match >> s->lsb) & 31);
  // GNU as takes only integer or FP registers in .insn operands: vector
  // register vN is written xN, which puts the same number in the field.
  auto reg = [](const std::string &r) {
    return r.size() > 1 && r[0] == 'v' && r[1] >= '0' && r[1] <= '9' ? "x" + r.substr(1) : r;
  };
  const uint32_t funct7 = (insn.match >> 25) | (vm ? 1u : 0u);
  return ".insn r " + std::to_string(insn.match & 0x7f) + ", " +
         std::to_string((insn.match >> 12) & 7) + ", " + std::to_string(funct7) + ", " +
         reg(rd.text) + ", " + reg(rs1.text) + ", " + reg(rs2.text);
}

// `v` (an fp32 block) in an fp32 buffer: its own when it has one, else a
// fresh buffer written by an element loop.
std::string Emitter::ext_operand_buffer(const Value *v) {
  if (std::string b = f32_buffer_of(v); !b.empty()) return b;
  std::string buf = alloca_of("float", v->type.numel());
  loop_nest(v->type.shape, [&](const Idx &idx) {
    line("store float " + elem(v, idx) + ", ptr " +
         emit("getelementptr float, ptr " + buf + ", i64 " + linear(idx, v->type.shape)));
  });
  return buf;
}

void Emitter::ext_block(const Operation &op) {
  const Value *v = op.result(), *x = op.operands[0];
  const isa::ExtInsn *insn = find_ext_intrinsic(op.str_attr("intrinsic"));
  if (!insn) fail(op, ext_intrinsic_missing(op.str_attr("intrinsic")));
  if (v->type.elem != Elem::F32) fail(op, "extension intrinsics are lowered on fp32 blocks only");
  const bool vv = insn->operands == isa::ExtOperands::VV;
  const bool vf = insn->operands == isa::ExtOperands::VF;
  // x = a - s, s - a or -a with `a` in an fp32 buffer: applied in the strip
  // loop (softmax's exp(x - max), sigmoid's exp(-x) = exp(0 - x)).
  std::string src, pre, sub_scalar;
  // The scalar every element of block `b` holds (a splat or a block constant).
  auto uniform = [&](const Value *b) -> std::string {
    if (!b->def) return "";
    if (b->def->kind == OpKind::Splat && !b->def->operands[0]->type.is_block())
      return scalar(b->def->operands[0]);
    if (b->def->kind == OpKind::Constant && b->type.is_block())
      return float_lit(b->def->float_attr("value"), Elem::F32);
    return "";
  };
  if (x->def && x->def->kind == OpKind::SubF) {
    const Value *a = x->def->operands[0], *b = x->def->operands[1];
    if (std::string k = uniform(b); !k.empty() && !(src = f32_buffer_of(a)).empty())
      sub_scalar = k, pre = "vfsub.vf v8, v8, $F";  // a - k
    else if (std::string k0 = uniform(a); !k0.empty() && !(src = f32_buffer_of(b)).empty())
      sub_scalar = k0, pre = "vfrsub.vf v8, v8, $F";  // k - b (-b as 0 - b)
  } else if (x->def && x->def->kind == OpKind::NegF &&
             !(src = f32_buffer_of(x->def->operands[0])).empty()) {
    pre = "vfsgnjn.vv v8, v8, v8";
  }
  if (pre.empty()) src = ext_operand_buffer(x);
  std::string ysrc = vv ? ext_operand_buffer(op.operands[1]) : "";
  std::string dst = alloca_of("float", v->type.numel());
  // Outputs: $0 count, $1 x, $2 vl (scratch), $3 result[, $4 y]; the tied
  // inputs follow, then the f registers: y of VF, the subtracted scalar.
  const int outs = vv ? 5 : 4;
  int next_f = 2 * outs - 1;
  const std::string y_reg = vv ? "v16" : vf ? "$" + std::to_string(next_f++) : "";
  if (!sub_scalar.empty()) pre.replace(pre.find("$F"), 2, "$" + std::to_string(next_f++));
  const std::string nl = "\\0A\\09";
  std::string text =
      ".Lext${:uid}:" + nl + "vsetvli $2, $0, e32, m8, ta, ma" + nl + "vle32.v v8, ($1)" + nl;
  if (!pre.empty()) text += pre + nl;
  if (vv) text += "vle32.v v16, ($4)" + nl;
  text += ext_insn_asm(*insn, "v8", "v8", y_reg) + nl + "vse32.v v8, ($3)" + nl + "sub $0, $0, $2" +
          nl + "slli $2, $2, 2" + nl + "add $1, $1, $2" + nl + "add $3, $3, $2" + nl;
  if (vv) text += "add $4, $4, $2" + nl;
  text += "bnez $0, .Lext${:uid}";
  std::string constraints = vv ? "=&r,=&r,=&r,=&r,=&r,0,1,3,4" : "=&r,=&r,=&r,=&r,0,1,3";
  std::string args = "i64 " + std::to_string(v->type.numel()) + ", ptr " + src + ", ptr " + dst;
  if (vv) args += ", ptr " + ysrc;
  if (vf) constraints += ",f", args += ", float " + scalar(op.operands[1]);
  if (!sub_scalar.empty()) constraints += ",f", args += ", float " + sub_scalar;
  constraints += ",~{v8},~{v9},~{v10},~{v11},~{v12},~{v13},~{v14},~{v15},";
  if (vv) constraints += "~{v16},~{v17},~{v18},~{v19},~{v20},~{v21},~{v22},~{v23},";
  constraints += "~{vl},~{vtype},~{memory}";
  emit(std::string("call { i64, ptr, i64, ptr") + (vv ? ", ptr" : "") + " } asm sideeffect \"" +
       text + "\", \"" + constraints + "\"(" + args + ")");
  bufs_[v] = dst;
}

}  // namespace opforge::compiler::llir
