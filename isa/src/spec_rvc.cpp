//===- spec_rvc.cpp - compressed (RVC) immediates and operand syntax -------===//
#include "spec_rvc.h"

#include <algorithm>
#include <charconv>

#include "opforge/support/error.h"

namespace opforge::isa::detail {
namespace {

struct Layout {
  const char *name;
  bool is_signed, nonzero;
  std::vector<std::pair<const char *, const char *>> parts;  // field, spec notation
};

// The RISC-V spec's immediate layouts of the C extension (Volume I, "RVC
// instruction formats"), keyed by the part fields of fields.csv.
const Layout kLayouts[] = {
    {"cimm_addi4spn", false, true, {{"c_nzuimm10", "5:4|9:6|2|3"}}},
    {"cimm_lw", false, false, {{"c_uimm7hi", "5:3"}, {"c_uimm7lo", "2|6"}}},
    {"cimm_ld", false, false, {{"c_uimm8hi", "5:3"}, {"c_uimm8lo", "7:6"}}},
    {"cimm6", true, false, {{"c_imm6hi", "5"}, {"c_imm6lo", "4:0"}}},
    {"cimm_addi16sp", true, true, {{"c_nzimm10hi", "9"}, {"c_nzimm10lo", "4|6|8:7|5"}}},
    {"cimm_lui", true, true, {{"c_nzimm18hi", "17"}, {"c_nzimm18lo", "16:12"}}},
    {"cshamt", false, true, {{"c_nzuimm6hi", "5"}, {"c_nzuimm6lo", "4:0"}}},
    {"cimm_j", true, false, {{"c_imm12", "11|4|9:8|10|6|7|3:1|5"}}},
    {"cimm_b", true, false, {{"c_bimm9hi", "8|4:3"}, {"c_bimm9lo", "7:6|2:1|5"}}},
    {"cimm_lwsp", false, false, {{"c_uimm8sphi", "5"}, {"c_uimm8splo", "4:2|7:6"}}},
    {"cimm_ldsp", false, false, {{"c_uimm9sphi", "5"}, {"c_uimm9splo", "4:3|8:6"}}},
    {"cimm_swsp", false, false, {{"c_uimm8sp_s", "5:2|7:6"}}},
    {"cimm_sdsp", false, false, {{"c_uimm9sp_s", "5:3|8:6"}}},
};

// "4|6|8:7|5" -> {4, 6, 8, 7, 5}.
std::vector<int> parse_bits(std::string_view s) {
  std::vector<int> out;
  auto num = [&](std::string_view t) {
    int v = 0;
    auto [p, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
    if (ec != std::errc() || p != t.data() + t.size())
      throw Error("RVC immediate layout: bad bit '" + std::string(t) + "'");
    return v;
  };
  while (!s.empty()) {
    const size_t bar = s.find('|');
    const std::string_view item = s.substr(0, bar);
    const size_t colon = item.find(':');
    if (colon == std::string_view::npos) {
      out.push_back(num(item));
    } else {
      const int hi = num(item.substr(0, colon)), lo = num(item.substr(colon + 1));
      for (int b = hi; b >= lo; --b) out.push_back(b);
    }
    s = bar == std::string_view::npos ? std::string_view() : s.substr(bar + 1);
  }
  return out;
}

std::vector<RvcImm> build() {
  std::vector<RvcImm> out;
  for (const Layout &l : kLayouts) {
    RvcImm imm;
    imm.name = l.name;
    imm.is_signed = l.is_signed;
    imm.nonzero = l.nonzero;
    int lo = 64;
    for (const auto &[field, spec] : l.parts) {
      RvcImmPart p{field, parse_bits(spec)};
      const FieldSpec *f = find_field(field);
      if (!f || f->width() != static_cast<int>(p.bits.size()))
        throw Error(std::string("RVC immediate ") + l.name + ": part " + field +
                    (f ? " is " + std::to_string(f->width()) + " bits wide, layout '" + spec +
                             "' names " + std::to_string(p.bits.size())
                       : " is not in fields.csv"));
      for (int b : p.bits) {
        imm.width = std::max(imm.width, b + 1);
        lo = std::min(lo, b);
      }
      imm.parts.push_back(std::move(p));
    }
    imm.align = 1 << lo;
    out.push_back(std::move(imm));
  }
  return out;
}

bool has(const InsnSpec &i, std::string_view f) {
  return std::find(i.fields.begin(), i.fields.end(), f) != i.fields.end();
}

}  // namespace

const std::vector<RvcImm> &rvc_imms() {
  static const std::vector<RvcImm> all = build();
  return all;
}

const RvcImm *find_rvc_imm(std::string_view name) {
  if (name.substr(0, 2) != "cs" && name.substr(0, 4) != "cimm") return nullptr;
  for (const auto &i : rvc_imms())
    if (i.name == name) return &i;
  return nullptr;
}

const RvcImm *rvc_imm_of(const InsnSpec &insn) {
  for (const auto &i : rvc_imms())
    if (has(insn, i.parts[0].field)) return &i;
  return nullptr;
}

uint32_t rvc_imm_pack(const RvcImm &imm, int64_t value) {
  const uint64_t v = static_cast<uint64_t>(value);
  uint32_t word = 0;
  for (const auto &p : imm.parts) {
    const FieldSpec *f = find_field(p.field);
    int pos = f->msb;
    for (int b : p.bits) word |= static_cast<uint32_t>((v >> b) & 1u) << pos--;
  }
  return word;
}

int64_t rvc_imm_unpack(const RvcImm &imm, uint32_t word) {
  uint64_t v = 0;
  for (const auto &p : imm.parts) {
    const FieldSpec *f = find_field(p.field);
    int pos = f->msb;
    for (int b : p.bits) v |= uint64_t{(word >> pos--) & 1u} << b;
  }
  if (imm.is_signed && (v >> (imm.width - 1)) & 1u) v |= ~uint64_t{0} << imm.width;
  return static_cast<int64_t>(v);
}

FieldRange rvc_imm_range(const RvcImm &imm) {
  if (imm.is_signed)
    return {-(int64_t{1} << (imm.width - 1)), (int64_t{1} << (imm.width - 1)) - imm.align,
            imm.align};
  return {0, (int64_t{1} << imm.width) - imm.align, imm.align};
}

std::vector<AsmOperand> rvc_asm_operands(const InsnSpec &i) {
  std::vector<AsmOperand> ops;
  auto reg_kind = [](std::string_view field) {
    const FieldSpec *f = find_field(field);
    return f && (f->kind == "freg" || f->kind == "cfreg") ? OperandKind::FReg : OperandKind::XReg;
  };
  auto is_reg = [](std::string_view field) {
    const FieldSpec *f = find_field(field);
    return f && (f->kind == "reg" || f->kind == "freg" || f->kind == "creg" || f->kind == "cfreg");
  };
  const RvcImm *imm = rvc_imm_of(i);
  const std::string_view n = imm ? imm->name : "";
  const bool memory = n == "cimm_lw" || n == "cimm_ld" || n == "cimm_lwsp" || n == "cimm_ldsp" ||
                      n == "cimm_swsp" || n == "cimm_sdsp";
  if (memory) {
    // data register, offset(base): base rs1_p, or sp for the *sp forms.
    for (const auto &f : i.fields)
      if (is_reg(f) && f != "rs1_p") ops.push_back({reg_kind(f), f});
    AsmOperand mem{OperandKind::MemOffset, std::string(n)};
    mem.base = has(i, "rs1_p") ? "rs1_p" : "";
    ops.push_back(mem);
    return ops;
  }
  for (const auto &f : i.fields)
    if (is_reg(f)) ops.push_back({reg_kind(f), f});
  if (n == "cimm_addi4spn") ops.push_back({OperandKind::Sp, ""});
  if (n == "cimm_addi16sp") ops.insert(ops.begin(), {OperandKind::Sp, ""});
  if (!imm) return ops;
  if (n == "cimm_lui")
    ops.push_back({OperandKind::Upper, std::string(n)});
  else if (n == "cimm_j" || n == "cimm_b")
    ops.push_back({OperandKind::PcRel, std::string(n)});
  else
    ops.push_back({OperandKind::Imm, std::string(n)});
  return ops;
}

}  // namespace opforge::isa::detail
