//===- spec_encode.cpp - field packing with range checks; register names ---===//
#include <array>
#include <charconv>

#include "opforge/isa/encode.h"
#include "opforge/support/error.h"
#include "spec_rvc.h"

namespace opforge::isa {
namespace {

constexpr std::array<std::string_view, 32> kXRegs = {
    "zero", "ra", "sp", "gp", "tp",  "t0",  "t1", "t2", "s0", "s1", "a0",
    "a1",   "a2", "a3", "a4", "a5",  "a6",  "a7", "s2", "s3", "s4", "s5",
    "s6",   "s7", "s8", "s9", "s10", "s11", "t3", "t4", "t5", "t6"};
constexpr std::array<std::string_view, 32> kFRegs = {
    "ft0", "ft1", "ft2", "ft3", "ft4",  "ft5",  "ft6", "ft7", "fs0",  "fs1", "fa0",
    "fa1", "fa2", "fa3", "fa4", "fa5",  "fa6",  "fa7", "fs2", "fs3",  "fs4", "fs5",
    "fs6", "fs7", "fs8", "fs9", "fs10", "fs11", "ft8", "ft9", "ft10", "ft11"};
constexpr std::array<std::string_view, 8> kRoundModes = {"rne", "rtz", "rdn", "rup",
                                                         "rmm", "",    "",    "dyn"};

std::optional<uint32_t> parse_numbered(std::string_view s, char prefix) {
  if (s.size() < 2 || s.size() > 3 || s[0] != prefix) return std::nullopt;
  uint32_t n = 0;
  auto [p, ec] = std::from_chars(s.data() + 1, s.data() + s.size(), n);
  if (ec != std::errc() || p != s.data() + s.size() || n > 31) return std::nullopt;
  if (s.size() == 3 && s[1] == '0') return std::nullopt;  // "x01" is not a register
  return n;
}

int64_t sext(uint64_t v, int bits) {
  const uint64_t m = uint64_t{1} << (bits - 1);
  v &= (bits >= 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1);
  return static_cast<int64_t>((v ^ m) - m);
}

const FieldSpec &need_field(std::string_view name) {
  const FieldSpec *f = find_field(name);
  if (!f) throw Error("unknown instruction field '" + std::string(name) + "'");
  return *f;
}

}  // namespace

FieldRange field_range(std::string_view field) {
  if (field == "imm_s") return {-2048, 2047, 1};
  if (field == "imm_b") return {-4096, 4094, 2};
  if (field == "imm_j") return {-(int64_t{1} << 20), (int64_t{1} << 20) - 2, 2};
  if (const detail::RvcImm *c = detail::find_rvc_imm(field)) return detail::rvc_imm_range(*c);
  const FieldSpec &f = need_field(field);
  const int w = f.width();
  if (f.kind == "creg" || f.kind == "cfreg") return {8, 15, 1};
  if (f.kind == "simm") return {-(int64_t{1} << (w - 1)), (int64_t{1} << (w - 1)) - 1, 1};
  return {0, (int64_t{1} << w) - 1, 1};
}

uint32_t encode(const InsnSpec &insn, std::span<const FieldValue> values) {
  uint32_t word = insn.match;
  auto has = [&](std::string_view f) {
    for (const auto &n : insn.fields)
      if (n == f) return true;
    return false;
  };
  auto put = [&](std::string_view name, uint64_t bits) {
    const FieldSpec &f = need_field(name);
    word |= (static_cast<uint32_t>(bits) << f.lsb) & f.mask();
  };
  for (const auto &v : values) {
    if (const detail::RvcImm *c = detail::find_rvc_imm(v.field)) {
      if (!has(c->parts[0].field))
        throw Error(insn.name + ": has no field '" + std::string(v.field) + "'");
      const FieldRange r = detail::rvc_imm_range(*c);
      if (v.value < r.lo || v.value > r.hi || v.value % r.align != 0 || (c->nonzero && !v.value))
        throw Error(insn.name + ": immediate " + std::to_string(v.value) + " out of range [" +
                    std::to_string(r.lo) + ", " + std::to_string(r.hi) + "]" +
                    (r.align > 1 ? ", not a multiple of " + std::to_string(r.align) : "") +
                    (c->nonzero ? " or zero" : ""));
      word |= detail::rvc_imm_pack(*c, v.value);
      continue;
    }
    const bool logical = v.field == "imm_s" || v.field == "imm_b" || v.field == "imm_j";
    const char *part = v.field == "imm_s" ? "imm12hi" : v.field == "imm_b" ? "bimm12hi" : "jimm20";
    if (logical ? !has(part) : !has(v.field))
      throw Error(insn.name + ": has no field '" + std::string(v.field) + "'");
    const FieldRange r = field_range(v.field);
    if (v.value < r.lo || v.value > r.hi || v.value % r.align != 0)
      throw Error(insn.name + ": " + std::string(v.field) + " value " + std::to_string(v.value) +
                  " out of range [" + std::to_string(r.lo) + ", " + std::to_string(r.hi) + "]" +
                  (r.align > 1 ? " or not a multiple of " + std::to_string(r.align) : ""));
    const uint64_t u = static_cast<uint64_t>(v.value);
    if (v.field == "imm_s") {
      put("imm12hi", (u >> 5) & 0x7f);
      put("imm12lo", u & 0x1f);
    } else if (v.field == "imm_b") {
      put("bimm12hi", (((u >> 12) & 1) << 6) | ((u >> 5) & 0x3f));
      put("bimm12lo", (((u >> 1) & 0xf) << 1) | ((u >> 11) & 1));
    } else if (v.field == "imm_j") {
      put("jimm20", (((u >> 20) & 1) << 19) | (((u >> 1) & 0x3ff) << 9) | (((u >> 11) & 1) << 8) |
                        ((u >> 12) & 0xff));
    } else {
      const std::string &kind = need_field(v.field).kind;
      put(v.field, kind == "creg" || kind == "cfreg" ? u - 8 : u);
    }
  }
  for (const auto &e : insn.excluded)
    if ((word & e.mask) == e.value)
      for (const auto &name : insn.fields)
        if (need_field(name).mask() == e.mask)
          throw Error(insn.name + ": " + name + " may not be " +
                      std::to_string(e.value >> need_field(name).lsb));
  return word;
}

int64_t field_operand(std::string_view field, uint32_t word) {
  const uint64_t w = word;
  if (field == "imm_s") return sext(((w >> 25) << 5) | ((w >> 7) & 0x1f), 12);
  if (field == "imm_b")
    return sext((((w >> 31) & 1) << 12) | (((w >> 7) & 1) << 11) | (((w >> 25) & 0x3f) << 5) |
                    (((w >> 8) & 0xf) << 1),
                13);
  if (field == "imm_j")
    return sext((((w >> 31) & 1) << 20) | (((w >> 12) & 0xff) << 12) | (((w >> 20) & 1) << 11) |
                    (((w >> 21) & 0x3ff) << 1),
                21);
  if (const detail::RvcImm *c = detail::find_rvc_imm(field))
    return detail::rvc_imm_unpack(*c, word);
  const FieldSpec &f = need_field(field);
  const uint32_t raw = f.extract(word);
  if (f.kind == "creg" || f.kind == "cfreg") return 8 + static_cast<int64_t>(raw);
  return f.kind == "simm" ? sext(raw, f.width()) : static_cast<int64_t>(raw);
}

std::string_view xreg_name(uint32_t r) { return r < 32 ? kXRegs[r] : "?"; }
std::string_view freg_name(uint32_t r) { return r < 32 ? kFRegs[r] : "?"; }

std::optional<uint32_t> parse_xreg(std::string_view s) {
  for (uint32_t i = 0; i < 32; ++i)
    if (kXRegs[i] == s) return i;
  if (s == "fp") return 8;
  return parse_numbered(s, 'x');
}

std::optional<uint32_t> parse_freg(std::string_view s) {
  for (uint32_t i = 0; i < 32; ++i)
    if (kFRegs[i] == s) return i;
  return parse_numbered(s, 'f');
}

std::optional<uint32_t> parse_vreg(std::string_view s) { return parse_numbered(s, 'v'); }

std::optional<uint32_t> parse_rounding_mode(std::string_view s) {
  for (uint32_t i = 0; i < kRoundModes.size(); ++i)
    if (!kRoundModes[i].empty() && kRoundModes[i] == s) return i;
  return std::nullopt;
}

std::string_view rounding_mode_name(uint32_t rm) { return rm < 8 ? kRoundModes[rm] : ""; }

std::optional<uint32_t> parse_vtype(std::string_view s) {
  // Comma-separated items: e<sew> [m<lmul>|mf<n>] [ta|tu] [ma|mu]; sew required.
  uint32_t sew = 8, lmul = 0, ta = 0, ma = 0;
  bool have_sew = false;
  int stage = 0;  // items must come in order
  size_t i = 0;
  while (i <= s.size()) {
    size_t j = s.find(',', i);
    if (j == std::string_view::npos) j = s.size();
    std::string_view item = s.substr(i, j - i);
    while (!item.empty() && item.front() == ' ') item.remove_prefix(1);
    while (!item.empty() && item.back() == ' ') item.remove_suffix(1);
    if (item == "e8" || item == "e16" || item == "e32" || item == "e64") {
      if (stage > 0) return std::nullopt;
      sew = item == "e8" ? 0 : item == "e16" ? 1 : item == "e32" ? 2 : 3;
      have_sew = true;
      stage = 1;
    } else if (item == "m1" || item == "m2" || item == "m4" || item == "m8" || item == "mf2" ||
               item == "mf4" || item == "mf8") {
      if (stage != 1) return std::nullopt;
      lmul = item == "m1"    ? 0
             : item == "m2"  ? 1
             : item == "m4"  ? 2
             : item == "m8"  ? 3
             : item == "mf8" ? 5
             : item == "mf4" ? 6
                             : 7;
      stage = 2;
    } else if (item == "ta" || item == "tu") {
      if (stage < 1 || stage > 2) return std::nullopt;
      ta = item == "ta";
      stage = 3;
    } else if (item == "ma" || item == "mu") {
      if (stage < 1 || stage > 3) return std::nullopt;
      ma = item == "ma";
      stage = 4;
    } else {
      return std::nullopt;
    }
    if (j == s.size()) break;
    i = j + 1;
  }
  if (!have_sew) return std::nullopt;
  return (ma << 7) | (ta << 6) | (sew << 3) | lmul;
}

std::string format_vtype(uint32_t vtype) {
  const uint32_t sew = (vtype >> 3) & 7, lmul = vtype & 7;
  if ((vtype >> 8) != 0 || sew > 3 || lmul == 4) {
    char buf[16];
    std::snprintf(buf, sizeof buf, "0x%x", vtype);
    return buf;
  }
  static const char *const kSew[] = {"e8", "e16", "e32", "e64"};
  static const char *const kLmul[] = {"m1", "m2", "m4", "m8", "", "mf8", "mf4", "mf2"};
  std::string out = std::string(kSew[sew]) + "," + kLmul[lmul];
  out += (vtype >> 6) & 1 ? ",ta" : ",tu";
  out += (vtype >> 7) & 1 ? ",ma" : ",mu";
  return out;
}

std::optional<uint32_t> parse_fence_set(std::string_view s) {
  if (s == "0") return 0;
  uint32_t bits = 0;
  const std::string_view order = "iorw";
  size_t pos = 0;
  for (char c : s) {
    size_t k = order.find(c, pos);
    if (k == std::string_view::npos) return std::nullopt;
    bits |= 8u >> k;
    pos = k + 1;
  }
  return s.empty() ? std::nullopt : std::optional<uint32_t>(bits);
}

std::string format_fence_set(uint32_t set) {
  std::string out;
  if (set & 8) out += 'i';
  if (set & 4) out += 'o';
  if (set & 2) out += 'r';
  if (set & 1) out += 'w';
  return out.empty() ? "0" : out;
}

AtomicSuffix split_atomic_suffix(std::string_view m) {
  AtomicSuffix r{m, 0, 0};
  auto ends = [&](std::string_view suf) {
    return m.size() > suf.size() && m.substr(m.size() - suf.size()) == suf;
  };
  if (ends(".aqrl")) {
    r = {m.substr(0, m.size() - 5), 1, 1};
  } else if (ends(".aq")) {
    r = {m.substr(0, m.size() - 3), 1, 0};
  } else if (ends(".rl")) {
    r = {m.substr(0, m.size() - 3), 0, 1};
  }
  return r;
}

}  // namespace opforge::isa
