//===- spec.cpp - parse the embedded instruction tables; lookup and decode -===//
#include "opforge/isa/spec.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <bit>
#include <charconv>
#include <mutex>
#include <shared_mutex>
#include <sstream>
#include <unordered_map>

#include "opforge/support/error.h"

namespace opforge::isa {
namespace {

[[noreturn]] void fail(const std::string &file, int line, const std::string &msg) {
  ErrorContext ctx;
  ctx.file = file;
  ctx.line = line;
  throw Error(msg, ctx);
}

std::vector<std::string> split_ws(std::string_view s) {
  std::vector<std::string> out;
  size_t i = 0;
  while (i < s.size()) {
    while (i < s.size() && (s[i] == ' ' || s[i] == '\t' || s[i] == '\r')) ++i;
    size_t j = i;
    while (j < s.size() && s[j] != ' ' && s[j] != '\t' && s[j] != '\r') ++j;
    if (j > i) out.emplace_back(s.substr(i, j - i));
    i = j;
  }
  return out;
}

std::vector<std::string> split_char(std::string_view s, char c) {
  std::vector<std::string> out;
  size_t i = 0;
  while (true) {
    size_t j = s.find(c, i);
    std::string part(s.substr(i, j == std::string_view::npos ? std::string_view::npos : j - i));
    while (!part.empty() && (part.back() == ' ' || part.back() == '\r')) part.pop_back();
    while (!part.empty() && part.front() == ' ') part.erase(part.begin());
    out.push_back(part);
    if (j == std::string_view::npos) break;
    i = j + 1;
  }
  return out;
}

// Decimal, 0x hex or 0b binary, unsigned.
bool parse_uint(std::string_view s, uint64_t &out) {
  int base = 10;
  if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
    base = 16;
    s.remove_prefix(2);
  } else if (s.size() > 2 && s[0] == '0' && (s[1] == 'b' || s[1] == 'B')) {
    base = 2;
    s.remove_prefix(2);
  }
  if (s.empty()) return false;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), out, base);
  return ec == std::errc() && p == s.data() + s.size();
}

template <typename F>
void for_each_line(const std::string &text, F &&f) {
  int line_no = 0;
  size_t i = 0;
  while (i <= text.size()) {
    size_t j = text.find('\n', i);
    if (j == std::string::npos) j = text.size();
    ++line_no;
    std::string_view line(text.data() + i, j - i);
    if (auto h = line.find('#'); h != std::string_view::npos) line = line.substr(0, h);
    f(line_no, line);
    if (j == text.size()) break;
    i = j + 1;
  }
}

std::string file_stem(const std::string &path) {
  size_t slash = path.find_last_of('/');
  std::string base = slash == std::string::npos ? path : path.substr(slash + 1);
  size_t dot = base.find('.');
  return dot == std::string::npos ? base : base.substr(0, dot);
}

const char *const kFieldKinds[] = {"reg",  "freg", "vreg", "creg", "cfreg", "simm",  "uimm",
                                   "part", "csr",  "rm",   "bit",  "fence", "vtype", "vm"};

std::vector<FieldSpec> parse_fields(const TableSource &src) {
  std::vector<FieldSpec> fields;
  bool header_seen = false;
  for_each_line(src.text, [&](int line_no, std::string_view line) {
    if (split_ws(line).empty()) return;
    auto cols = split_char(line, ',');
    if (!header_seen && cols.size() >= 1 && cols[0] == "name") {
      header_seen = true;
      return;
    }
    if (cols.size() < 4) fail(src.file, line_no, "expected 'name,msb,lsb,kind[,description]'");
    FieldSpec f;
    f.name = cols[0];
    uint64_t msb = 0, lsb = 0;
    if (f.name.empty()) fail(src.file, line_no, "empty field name");
    if (!parse_uint(cols[1], msb) || !parse_uint(cols[2], lsb) || msb > 31 || lsb > msb)
      fail(src.file, line_no,
           "field '" + f.name + "': bad bit range '" + cols[1] + ".." + cols[2] + "'");
    f.msb = static_cast<int>(msb);
    f.lsb = static_cast<int>(lsb);
    // "reg!0!2": kind reg, values 0 and 2 excluded.
    auto kind_parts = split_char(cols[3], '!');
    f.kind = kind_parts[0];
    for (size_t k = 1; k < kind_parts.size(); ++k) {
      uint64_t v = 0;
      if (!parse_uint(kind_parts[k], v) || v >> f.width())
        fail(src.file, line_no,
             "field '" + f.name + "': bad excluded value '" + kind_parts[k] + "' in '" + cols[3] +
                 "'");
      f.excluded.push_back(static_cast<uint32_t>(v));
    }
    if (std::find(std::begin(kFieldKinds), std::end(kFieldKinds), f.kind) == std::end(kFieldKinds))
      fail(src.file, line_no, "field '" + f.name + "': unknown kind '" + f.kind + "'");
    if (cols.size() > 4) {
      for (size_t c = 4; c < cols.size(); ++c) f.description += (c > 4 ? "," : "") + cols[c];
    }
    for (const auto &g : fields)
      if (g.name == f.name) fail(src.file, line_no, "duplicate field '" + f.name + "'");
    fields.push_back(std::move(f));
  });
  return fields;
}

std::vector<CsrSpec> parse_csrs(const TableSource &src) {
  std::vector<CsrSpec> csrs;
  for_each_line(src.text, [&](int line_no, std::string_view line) {
    if (split_ws(line).empty()) return;
    auto cols = split_char(line, ',');
    if (cols.size() < 3) fail(src.file, line_no, "expected 'name,number,extension[,description]'");
    CsrSpec c;
    c.name = cols[0];
    uint64_t num = 0;
    if (c.name.empty()) fail(src.file, line_no, "empty CSR name");
    if (!parse_uint(cols[1], num) || num > 0xfff)
      fail(src.file, line_no, "CSR '" + c.name + "': bad number '" + cols[1] + "'");
    c.number = static_cast<uint32_t>(num);
    c.extension = cols[2];
    for (size_t k = 3; k < cols.size(); ++k) c.description += (k > 3 ? "," : "") + cols[k];
    for (const auto &o : csrs)
      if (o.name == c.name || o.number == c.number)
        fail(src.file, line_no, "CSR '" + c.name + "' duplicates '" + o.name + "'");
    csrs.push_back(std::move(c));
  });
  return csrs;
}

void parse_opcodes(const TableSource &src, const std::vector<FieldSpec> &fields,
                   std::vector<InsnSpec> &out) {
  const std::string ext = file_stem(src.file);
  for_each_line(src.text, [&](int line_no, std::string_view line) {
    auto toks = split_ws(line);
    if (toks.empty()) return;
    InsnSpec insn;
    insn.name = toks[0];
    insn.extension = ext;
    insn.source = src.file + ":" + std::to_string(line_no);
    uint32_t covered = 0;
    auto claim = [&](uint32_t bits, const std::string &what) {
      if (covered & bits)
        fail(src.file, line_no, insn.name + ": '" + what + "' overlaps bits already defined");
      covered |= bits;
    };
    for (size_t t = 1; t < toks.size(); ++t) {
      const std::string &tok = toks[t];
      size_t eq = tok.find('=');
      if (eq == std::string::npos) {
        auto it = std::find_if(fields.begin(), fields.end(),
                               [&](const FieldSpec &f) { return f.name == tok; });
        if (it == fields.end())
          fail(src.file, line_no, insn.name + ": unknown field '" + tok + "'");
        claim(it->mask(), tok);
        insn.fields.push_back(tok);
        for (uint32_t v : it->excluded) insn.excluded.push_back({it->mask(), v << it->lsb});
        continue;
      }
      std::string lhs = tok.substr(0, eq), rhs = tok.substr(eq + 1);
      uint64_t value = 0;
      if (!parse_uint(rhs, value))
        fail(src.file, line_no, insn.name + ": bad value in '" + tok + "'");
      uint64_t hi = 0, lo = 0;
      size_t dots = lhs.find("..");
      if (dots != std::string::npos) {
        if (!parse_uint(lhs.substr(0, dots), hi) || !parse_uint(lhs.substr(dots + 2), lo))
          fail(src.file, line_no, insn.name + ": bad bit range in '" + tok + "'");
      } else if (parse_uint(lhs, hi)) {
        lo = hi;
      } else {
        auto it = std::find_if(fields.begin(), fields.end(),
                               [&](const FieldSpec &f) { return f.name == lhs; });
        if (it == fields.end())
          fail(src.file, line_no, insn.name + ": unknown field '" + lhs + "' in '" + tok + "'");
        hi = static_cast<uint64_t>(it->msb);
        lo = static_cast<uint64_t>(it->lsb);
      }
      if (hi > 31 || lo > hi)
        fail(src.file, line_no, insn.name + ": bit range out of 31..0 in '" + tok + "'");
      const int width = static_cast<int>(hi - lo + 1);
      if (width < 64 && value >= (uint64_t{1} << width))
        fail(src.file, line_no, insn.name + ": value does not fit in '" + tok + "'");
      const uint32_t bits = (width >= 32 ? ~0u : ((1u << width) - 1u)) << lo;
      claim(bits, tok);
      insn.mask |= bits;
      insn.match |= static_cast<uint32_t>(value << lo);
    }
    if ((insn.mask & 3u) != 3u && (covered & 3u) == 3u)
      fail(src.file, line_no,
           insn.name + ": bits 1..0 must be fixed (3: 32-bit encoding, 0..2: 16-bit compressed)");
    // Bits 1..0 = 3: a 32-bit word; otherwise a 16-bit compressed one.
    const bool compressed = (insn.mask & 3u) == 3u && (insn.match & 3u) != 3u;
    const uint32_t all_bits = compressed ? 0xffffu : ~0u;
    if (covered & ~all_bits)
      fail(src.file, line_no,
           insn.name + ": bits 1..0 = " + std::to_string(insn.match & 3u) +
               " make a 16-bit encoding, but bits above 15 are used");
    if (covered != all_bits) {
      std::ostringstream os;
      os << insn.name << ": bits not covered by a value or a field:";
      for (int b = compressed ? 15 : 31; b >= 0; --b)
        if (!(covered & (1u << b))) os << ' ' << b;
      fail(src.file, line_no, os.str());
    }
    if (compressed && (insn.mask & 0xe000u) != 0xe000u)
      fail(src.file, line_no, insn.name + ": a 16-bit encoding must fix bits 15..13 (funct3)");
    for (const auto &other : out)
      if (other.name == insn.name)
        fail(src.file, line_no,
             "duplicate mnemonic '" + insn.name + "' (first at " + other.source + ")");
    insn.id = static_cast<int>(out.size());
    out.push_back(std::move(insn));
  });
}

// Decode index: bucket by major opcode (bits 6..0) and funct3 (bits 14..12);
// an entry that leaves funct3 open sits in all 8 buckets of its opcode. A
// bucket with many entries is split again by those of bits 31..25 that all
// its entries fix (funct6/funct7, or nf/mew/mop for vector memory ops), so
// a decode scans a handful of candidates. Within a list the most specific
// masks come first, so a specialisation would win over the general form.
struct Bucket {
  std::vector<const InsnSpec *> all;
  std::vector<int> key_bits;  // bit positions of the secondary key, low first
  std::vector<std::vector<const InsnSpec *>> sub;

  uint32_t key(uint32_t word) const {
    uint32_t k = 0;
    for (size_t b = 0; b < key_bits.size(); ++b) k |= ((word >> key_bits[b]) & 1u) << b;
    return k;
  }
  const std::vector<const InsnSpec *> &candidates(uint32_t word) const {
    return key_bits.empty() ? all : sub[key(word)];
  }
};

// Instructions added at run time (ISA extension files, extension.h) are
// appended to `insns` (capacity reserved up front, so references stay valid)
// and looked up second, under `added_mutex`, when the built-in index misses.
constexpr size_t kMaxAddedInsns = 1024;

size_t compressed_bucket(uint32_t halfword) {
  return ((halfword & 3u) << 3) | ((halfword >> 13) & 7u);
}

struct Tables {
  std::vector<FieldSpec> fields;
  std::vector<InsnSpec> insns;
  std::vector<CsrSpec> csrs;
  std::unordered_map<std::string_view, int> by_name;
  std::array<Bucket, 1024> buckets;
  // 16-bit encodings by quadrant (bits 1..0) and funct3 (bits 15..13).
  std::array<std::vector<const InsnSpec *>, 32> compressed;
  size_t builtin_count = 0;
  std::shared_mutex added_mutex;
  std::atomic<bool> any_added{false};
};

Tables &mutable_tables() {
  static Tables t;
  static std::once_flag once;
  std::call_once(once, [] {
    Tables &r = t;
    InsnTable parsed = parse_tables(detail::embedded_tables());
    r.fields = std::move(parsed.fields);
    r.insns = std::move(parsed.insns);
    r.builtin_count = r.insns.size();
    r.insns.reserve(r.builtin_count + kMaxAddedInsns);
    r.csrs = std::move(parsed.csrs);
    for (const auto &i : r.insns) r.by_name.emplace(i.name, i.id);
    for (const auto &i : r.insns) {
      if (i.length_bytes() == 2) {
        r.compressed[compressed_bucket(i.match)].push_back(&i);
        continue;
      }
      const uint32_t op = i.match & 0x7f;
      const bool f3_fixed = (i.mask & 0x7000u) == 0x7000u;
      for (uint32_t f3 = 0; f3 < 8; ++f3) {
        if (f3_fixed && ((i.match >> 12) & 7u) != f3) continue;
        r.buckets[(op << 3) | f3].all.push_back(&i);
      }
    }
    auto specific_first = [](std::vector<const InsnSpec *> &v) {
      std::stable_sort(v.begin(), v.end(), [](const InsnSpec *a, const InsnSpec *c) {
        return std::popcount(a->mask) > std::popcount(c->mask);
      });
    };
    for (auto &c : r.compressed) specific_first(c);
    for (auto &b : r.buckets) {
      specific_first(b.all);
      if (b.all.size() <= 8) continue;
      uint32_t common = 0xfe000000u;
      for (const InsnSpec *i : b.all) common &= i->mask;
      for (int bit = 25; bit < 32; ++bit)
        if (common & (1u << bit)) b.key_bits.push_back(bit);
      if (b.key_bits.empty()) continue;
      b.sub.resize(size_t{1} << b.key_bits.size());
      for (const InsnSpec *i : b.all) b.sub[b.key(i->match)].push_back(i);
    }
  });
  return t;
}

const Tables &tables() { return mutable_tables(); }

const InsnSpec *find_added(std::string_view name) {
  Tables &t = mutable_tables();
  if (!t.any_added.load(std::memory_order_acquire)) return nullptr;
  std::shared_lock lock(t.added_mutex);
  for (size_t k = t.builtin_count; k < t.insns.size(); ++k)
    if (t.insns[k].name == name) return &t.insns[k];
  return nullptr;
}

}  // namespace

InsnTable parse_tables(const std::vector<TableSource> &sources) {
  InsnTable t;
  auto ends_with = [](const std::string &s, std::string_view suffix) {
    return s.size() >= suffix.size() &&
           s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
  };
  const TableSource *field_src = nullptr;
  std::vector<const TableSource *> order;
  for (const auto &s : sources) {
    if (ends_with(s.file, "fields.csv"))
      field_src = &s;
    else if (ends_with(s.file, "csrs.csv"))
      t.csrs = parse_csrs(s);
    else
      order.push_back(&s);
  }
  if (!field_src) throw Error("instruction tables: no fields.csv among the sources");
  t.fields = parse_fields(*field_src);
  std::stable_sort(order.begin(), order.end(),
                   [](const TableSource *a, const TableSource *b) { return a->file < b->file; });
  for (const auto *s : order) parse_opcodes(*s, t.fields, t.insns);
  return t;
}

const std::vector<InsnSpec> &instructions() { return tables().insns; }
const std::vector<FieldSpec> &fields() { return tables().fields; }

const FieldSpec *find_field(std::string_view name) {
  for (const auto &f : tables().fields)
    if (f.name == name) return &f;
  return nullptr;
}

const std::vector<CsrSpec> &csrs() { return tables().csrs; }

const CsrSpec *find_csr(std::string_view name) {
  for (const auto &c : tables().csrs)
    if (c.name == name) return &c;
  return nullptr;
}

const CsrSpec *find_csr(uint32_t number) {
  for (const auto &c : tables().csrs)
    if (c.number == number) return &c;
  return nullptr;
}

const InsnSpec *find_insn(std::string_view name) {
  const auto &t = tables();
  auto it = t.by_name.find(name);
  return it == t.by_name.end() ? find_added(name) : &t.insns[static_cast<size_t>(it->second)];
}

const InsnSpec *decode(uint32_t word) {
  Tables &t = mutable_tables();
  if ((word & 3u) != 3u) {
    word &= 0xffffu;
    for (const InsnSpec *i : t.compressed[compressed_bucket(word)])
      if (i->matches(word)) return i;
    return nullptr;
  }
  const Bucket &bucket = t.buckets[((word & 0x7fu) << 3) | ((word >> 12) & 7u)];
  for (const InsnSpec *i : bucket.candidates(word))
    if ((word & i->mask) == i->match) return i;
  if (!t.any_added.load(std::memory_order_acquire)) return nullptr;
  std::shared_lock lock(t.added_mutex);
  for (size_t k = t.builtin_count; k < t.insns.size(); ++k)
    if ((word & t.insns[k].mask) == t.insns[k].match) return &t.insns[k];
  return nullptr;
}

size_t detail::builtin_instruction_count() { return mutable_tables().builtin_count; }

std::vector<int> detail::add_instructions(std::vector<InsnSpec> added) {
  Tables &t = mutable_tables();
  std::unique_lock lock(t.added_mutex);
  auto describe = [](const InsnSpec &i) { return "'" + i.name + "' (" + i.source + ")"; };
  for (size_t a = 0; a < added.size(); ++a) {
    const InsnSpec &n = added[a];
    auto check = [&](const InsnSpec &o) {
      if (o.name == n.name)
        throw Error("duplicate mnemonic: " + describe(n) + " is already " + describe(o));
      if ((n.mask & o.mask & (n.match ^ o.match)) == 0)
        throw Error("encoding of " + describe(n) + " overlaps " + describe(o));
    };
    for (const InsnSpec &o : t.insns) check(o);
    for (size_t b = 0; b < a; ++b) check(added[b]);
  }
  if (t.insns.size() + added.size() > t.insns.capacity())
    throw Error("too many instructions added at run time (at most " +
                std::to_string(kMaxAddedInsns) + ")");
  std::vector<int> ids;
  for (InsnSpec &n : added) {
    n.id = static_cast<int>(t.insns.size());
    ids.push_back(n.id);
    t.insns.push_back(std::move(n));
  }
  t.any_added.store(true, std::memory_order_release);
  return ids;
}

}  // namespace opforge::isa
