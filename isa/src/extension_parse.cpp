//===- extension_parse.cpp - read an ISA extension file (docs/isa/extensions.md) ===//
//
// Line-based: `key value` per line, `#` starts a comment. `extension` and
// `description` describe the file; each `insn MNEMONIC` opens an instruction
// whose keys follow (indentation is for the reader). Every error names
// file:line(:column) and the key (opforge::Error's path).
//
//===----------------------------------------------------------------------===//
#include <algorithm>
#include <cctype>
#include <charconv>
#include <fstream>
#include <map>
#include <sstream>

#include "extension_expr.h"
#include "opforge/isa/spec.h"
#include "opforge/support/error.h"

namespace opforge::isa {
namespace {

struct Line {
  int number = 0;
  std::string key, value;
  int value_col = 0;  // 1-based column where the value starts
};

struct Ctx {
  std::string file;
  [[noreturn]] void fail(int line, const std::string &field, const std::string &msg,
                         std::optional<int> col = {}) const {
    ErrorContext c;
    c.file = file;
    c.line = line;
    c.col = col;
    c.path = field;
    throw Error(msg, c);
  }
};

bool is_name(std::string_view s, bool dots) {
  if (s.empty() || !(std::islower(static_cast<unsigned char>(s[0])) || s[0] == '_')) return false;
  return std::all_of(s.begin(), s.end(), [&](char c) {
    return std::islower(static_cast<unsigned char>(c)) ||
           std::isdigit(static_cast<unsigned char>(c)) || c == '_' || (dots && c == '.');
  });
}

std::vector<Line> split_lines(std::string_view text) {
  std::vector<Line> out;
  int number = 0;
  size_t i = 0;
  while (i <= text.size()) {
    size_t j = text.find('\n', i);
    if (j == std::string_view::npos) j = text.size();
    ++number;
    std::string_view raw = text.substr(i, j - i);
    if (auto h = raw.find('#'); h != std::string_view::npos) raw = raw.substr(0, h);
    size_t k = 0;
    while (k < raw.size() && std::isspace(static_cast<unsigned char>(raw[k]))) ++k;
    size_t e = k;
    while (e < raw.size() && !std::isspace(static_cast<unsigned char>(raw[e]))) ++e;
    if (e > k) {
      Line l;
      l.number = number;
      l.key = std::string(raw.substr(k, e - k));
      while (e < raw.size() && std::isspace(static_cast<unsigned char>(raw[e]))) ++e;
      size_t end = raw.size();
      while (end > e && std::isspace(static_cast<unsigned char>(raw[end - 1]))) --end;
      l.value = std::string(raw.substr(e, end - e));
      l.value_col = static_cast<int>(e) + 1;
      out.push_back(std::move(l));
    }
    if (j == text.size()) break;
    i = j + 1;
  }
  return out;
}

unsigned parse_count(const Ctx &c, const Line &l, unsigned lo, unsigned hi) {
  unsigned v = 0;
  const char *b = l.value.data(), *e = b + l.value.size();
  auto [p, ec] = std::from_chars(b, e, v);
  if (l.value.empty() || ec != std::errc() || p != e || v < lo || v > hi)
    c.fail(l.number, l.key,
           "expected an integer " + std::to_string(lo) + ".." + std::to_string(hi) + ", got '" +
               l.value + "'",
           l.value_col);
  return v;
}

// The encoding line through the tables' own parser (same checks as
// isa/spec/*.opcodes: known fields, bits covered once, values that fit).
void parse_encoding(const Ctx &c, const Line &l, ExtInsn &insn) {
  static const std::string kFields = [] {
    for (const TableSource &s : detail::embedded_tables())
      if (s.file.ends_with("fields.csv")) return s.text;
    return std::string();
  }();
  InsnTable t;
  try {
    t = parse_tables({{"fields.csv", kFields}, {"ext.opcodes", insn.mnemonic + " " + l.value}});
  } catch (const Error &e) {
    c.fail(l.number, "encoding", e.message(), l.value_col);
  }
  if (t.insns.size() != 1) c.fail(l.number, "encoding", "expected one encoding", l.value_col);
  insn.mask = t.insns[0].mask;
  insn.match = t.insns[0].match;
  insn.fields = t.insns[0].fields;
  const uint32_t opcode = insn.match & 0x7f;
  if ((insn.mask & 0x7f) != 0x7f ||
      (opcode != 0x0b && opcode != 0x2b && opcode != 0x5b && opcode != 0x7b))
    c.fail(l.number, "encoding",
           "bits 6..0 must select a custom opcode: custom-0 0x0B, custom-1 0x2B, custom-2 0x5B "
           "or custom-3 0x7B",
           l.value_col);
}

ExtOperands parse_operands(const Ctx &c, const Line &l) {
  if (l.value == "v") return ExtOperands::V;
  if (l.value == "vv") return ExtOperands::VV;
  if (l.value == "vf") return ExtOperands::VF;
  c.fail(l.number, "operands", "expected v, vv or vf, got '" + l.value + "'", l.value_col);
}

ExtUnit parse_unit(const Ctx &c, const Line &l) {
  if (l.value == "sfu") return ExtUnit::Sfu;
  if (l.value == "vfp") return ExtUnit::VecFp;
  if (l.value == "valu") return ExtUnit::VecAlu;
  c.fail(l.number, "unit", "expected sfu, vfp or valu, got '" + l.value + "'", l.value_col);
}

// The encoding's fields must be exactly those of the operand shape (the
// scalar of `vf` is an f register: riscv-opcodes' rs1 is read as fs1).
void check_fields(const Ctx &c, int line, ExtInsn &insn) {
  std::vector<std::string> want = {"vd", "vs2"};
  if (insn.operands == ExtOperands::VV) want.push_back("vs1");
  if (insn.operands == ExtOperands::VF) {
    want.push_back("fs1");
    std::replace(insn.fields.begin(), insn.fields.end(), std::string("rs1"), std::string("fs1"));
  }
  std::vector<std::string> have = insn.fields;
  have.erase(std::remove(have.begin(), have.end(), "vm"), have.end());
  std::sort(want.begin(), want.end());
  std::sort(have.begin(), have.end());
  if (have != want) {
    std::string w, h;
    for (const auto &f : want) w += " " + f;
    for (const auto &f : insn.fields) h += " " + f;
    c.fail(line, "encoding",
           "operands " +
               std::string(insn.operands == ExtOperands::V    ? "v"
                           : insn.operands == ExtOperands::VV ? "vv"
                                                              : "vf") +
               " need the fields" + w + " (and optionally vm); the encoding has" +
               (h.empty() ? " none" : h));
  }
}

ExtInsn finish_insn(const Ctx &c, int insn_line, const std::string &mnemonic,
                    const std::map<std::string, Line> &keys) {
  ExtInsn insn;
  insn.mnemonic = mnemonic;
  insn.source = c.file + ":" + std::to_string(insn_line);
  for (const char *k :
       {"encoding", "operands", "semantics", "unit", "latency", "throughput", "intrinsic"})
    if (!keys.count(k))
      c.fail(insn_line, k, "instruction '" + mnemonic + "' has no '" + k + "' line");
  insn.operands = parse_operands(c, keys.at("operands"));
  parse_encoding(c, keys.at("encoding"), insn);
  check_fields(c, keys.at("encoding").number, insn);
  if (auto it = keys.find("sew"); it != keys.end()) {
    insn.sew = parse_count(c, it->second, 8, 64);
    if (insn.sew != 32)
      c.fail(it->second.number, "sew", "only sew 32 is supported (semantics are fp32)",
             it->second.value_col);
  }
  const Line &sem = keys.at("semantics");
  insn.semantics = sem.value;
  try {
    insn.expr = parse_ext_expr(sem.value);
  } catch (const Error &e) {
    const auto col = e.context().col;
    c.fail(sem.number, "semantics", e.message(),
           col ? std::optional<int>(sem.value_col + *col - 1) : std::nullopt);
  }
  if (insn.expr->uses_y && insn.operands == ExtOperands::V)
    c.fail(sem.number, "semantics", "'y' needs operands vv or vf (this instruction has v)",
           sem.value_col);
  insn.unit = parse_unit(c, keys.at("unit"));
  insn.latency_cycles = parse_count(c, keys.at("latency"), 0, 100000);
  insn.elements_per_cycle = parse_count(c, keys.at("throughput"), 1, 4096);
  if (auto it = keys.find("occupancy"); it != keys.end())
    insn.occupancy_cycles = parse_count(c, it->second, 1, 100000);
  const Line &in = keys.at("intrinsic");
  if (!is_name(in.value, false))
    c.fail(in.number, "intrinsic",
           "expected a Python identifier in lower case (tl.extra.mtia.<intrinsic>), got '" +
               in.value + "'",
           in.value_col);
  insn.intrinsic = in.value;
  return insn;
}

}  // namespace

ExtensionFile parse_extension(std::string_view text, std::string_view file) {
  static const char *const kInsnKeys[] = {"encoding",   "operands",  "sew",
                                          "semantics",  "unit",      "latency",
                                          "throughput", "occupancy", "intrinsic"};
  Ctx c{std::string(file)};
  ExtensionFile out;
  out.path = std::string(file);
  int name_line = 0, insn_line = 0;
  std::string mnemonic;
  std::map<std::string, Line> keys;
  auto close = [&] {
    if (insn_line) out.insns.push_back(finish_insn(c, insn_line, mnemonic, keys));
    keys.clear();
  };
  for (const Line &l : split_lines(text)) {
    if (l.key == "extension" || (l.key == "description" && !insn_line)) {
      if (insn_line) c.fail(l.number, l.key, "'" + l.key + "' belongs before the first 'insn'");
      std::string &slot = l.key == "extension" ? out.name : out.description;
      if (!slot.empty()) c.fail(l.number, l.key, "'" + l.key + "' given twice");
      if (l.value.empty()) c.fail(l.number, l.key, "'" + l.key + "' needs a value");
      if (l.key == "extension") {
        if (!is_name(l.value, false))
          c.fail(l.number, "extension",
                 "expected a name of lower-case letters, digits and '_', got '" + l.value + "'",
                 l.value_col);
        name_line = l.number;
      }
      slot = l.value;
    } else if (l.key == "insn") {
      if (!name_line) c.fail(l.number, "extension", "the file must start with 'extension NAME'");
      close();
      if (!is_name(l.value, true))
        c.fail(
            l.number, "insn",
            "expected a mnemonic of lower-case letters, digits, '_' and '.', got '" + l.value + "'",
            l.value_col);
      for (const ExtInsn &o : out.insns)
        if (o.mnemonic == l.value)
          c.fail(l.number, "insn",
                 "duplicate mnemonic '" + l.value + "' (first at " + o.source + ")");
      mnemonic = l.value;
      insn_line = l.number;
    } else if (std::find(std::begin(kInsnKeys), std::end(kInsnKeys), l.key) !=
               std::end(kInsnKeys)) {
      if (!insn_line) c.fail(l.number, l.key, "'" + l.key + "' outside an 'insn' block");
      if (keys.count(l.key))
        c.fail(l.number, l.key,
               "'" + l.key + "' given twice (first at line " +
                   std::to_string(keys.at(l.key).number) + ")");
      if (l.value.empty()) c.fail(l.number, l.key, "'" + l.key + "' needs a value");
      keys.emplace(l.key, l);
    } else {
      c.fail(l.number, l.key,
             "unknown key '" + l.key +
                 "' (expected extension, description, insn, encoding, operands, sew, semantics, "
                 "unit, latency, throughput, occupancy or intrinsic)");
    }
  }
  close();
  if (!name_line) c.fail(1, "extension", "the file must start with 'extension NAME'");
  if (out.insns.empty()) c.fail(name_line, "insn", "the extension has no 'insn'");
  for (ExtInsn &i : out.insns) i.extension = out.name;
  // Intrinsics name the kernel-level function: one per instruction.
  for (size_t a = 0; a < out.insns.size(); ++a)
    for (size_t b = 0; b < a; ++b)
      if (out.insns[a].intrinsic == out.insns[b].intrinsic)
        throw Error("intrinsic '" + out.insns[a].intrinsic + "' of '" + out.insns[a].mnemonic +
                        "' (" + out.insns[a].source + ") is already that of '" +
                        out.insns[b].mnemonic + "' (" + out.insns[b].source + ")",
                    ErrorContext{c.file, "intrinsic", {}, {}, {}});
  return out;
}

ExtensionFile load_extension(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error("cannot open ISA extension file", ErrorContext{path, "", {}, {}, {}});
  std::stringstream ss;
  ss << in.rdbuf();
  return parse_extension(ss.str(), path);
}

}  // namespace opforge::isa
