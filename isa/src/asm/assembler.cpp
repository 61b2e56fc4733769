//===- assembler.cpp - two-pass assembler driver: lines, labels, directives -===//
#include <elf.h>

#include <algorithm>
#include <cctype>

#include "asm_internal.h"
#include "opforge/support/error.h"

namespace opforge::isa {

const AsmSymbol *AsmUnit::find_symbol(std::string_view name) const {
  for (const auto &s : symbols)
    if (s.name == name) return &s;
  return nullptr;
}

namespace asmimpl {
namespace {

bool ident_start(char c) {
  return std::isalpha(static_cast<unsigned char>(c)) || c == '_' || c == '.' || c == '$';
}
bool ident_char(char c) { return ident_start(c) || std::isdigit(static_cast<unsigned char>(c)); }

std::string trim(std::string_view s) {
  size_t a = 0, b = s.size();
  while (a < b && std::isspace(static_cast<unsigned char>(s[a]))) ++a;
  while (b > a && std::isspace(static_cast<unsigned char>(s[b - 1]))) --b;
  return std::string(s.substr(a, b - a));
}

// Position of the first '#' outside a string/char literal, or npos.
size_t comment_start(std::string_view line) {
  bool in_str = false;
  for (size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (in_str) {
      if (c == '\\')
        ++i;
      else if (c == '"')
        in_str = false;
    } else if (c == '"') {
      in_str = true;
    } else if (c == '\'' && i + 2 < line.size() && line[i + 2] == '\'') {
      i += 2;
    } else if (c == '#') {
      return i;
    }
  }
  return std::string_view::npos;
}

}  // namespace

std::vector<Operand> split_operands(std::string_view text, int first_col) {
  std::vector<Operand> out;
  int depth = 0;
  bool in_str = false;
  size_t start = 0;
  auto push = [&](size_t end) {
    std::string_view part = text.substr(start, end - start);
    size_t lead = 0;
    while (lead < part.size() && std::isspace(static_cast<unsigned char>(part[lead]))) ++lead;
    out.push_back({trim(part), first_col + static_cast<int>(start + lead)});
  };
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_str) {
      if (c == '\\')
        ++i;
      else if (c == '"')
        in_str = false;
    } else if (c == '"') {
      in_str = true;
    } else if (c == '(') {
      ++depth;
    } else if (c == ')') {
      --depth;
    } else if (c == ',' && depth == 0) {
      push(i);
      start = i + 1;
    }
  }
  if (!trim(text).empty() || !out.empty()) push(text.size());
  return out;
}

Assembler::Assembler(std::string_view source, std::string filename, const AsmOptions &options)
    : source_(source), filename_(std::move(filename)), rvc_(options.rvc), rvc_seen_(options.rvc) {
  unit_.filename = filename_;
  switch_section(".text", "", {});
}

void Assembler::error(SourcePos pos, const std::string &msg) const {
  ErrorContext ctx;
  ctx.file = filename_;
  if (pos.line > 0) ctx.line = pos.line;
  if (pos.col > 0) ctx.col = pos.col;
  throw Error(msg, ctx);
}

int Assembler::symbol_index(const std::string &name, SourcePos pos) {
  auto it = sym_index_.find(name);
  if (it != sym_index_.end()) return it->second;
  AsmSymbol s;
  s.name = name;
  s.pos = pos;
  unit_.symbols.push_back(s);
  sym_index_[name] = static_cast<int>(unit_.symbols.size() - 1);
  return static_cast<int>(unit_.symbols.size() - 1);
}

void Assembler::define_label(const std::string &name, SourcePos pos) {
  AsmSymbol &s = unit_.symbols[static_cast<size_t>(symbol_index(name, pos))];
  if (s.section >= 0 || s.absolute) error(pos, "symbol '" + name + "' is already defined");
  s.section = cur_;
  s.value = unit_.sections[static_cast<size_t>(cur_)].size();
  s.pos = pos;
}

void Assembler::switch_section(const std::string &name, const std::string &flags, SourcePos pos) {
  for (size_t k = 0; k < unit_.sections.size(); ++k)
    if (unit_.sections[k].name == name) {
      cur_ = static_cast<int>(k);
      return;
    }
  AsmSection sec;
  sec.name = name;
  auto starts = [&](const char *p) { return name.rfind(p, 0) == 0; };
  if (!flags.empty()) {
    for (char c : flags) {
      if (c == 'a')
        sec.flags |= SHF_ALLOC;
      else if (c == 'w')
        sec.flags |= SHF_WRITE;
      else if (c == 'x')
        sec.flags |= SHF_EXECINSTR;
      else
        error(pos, std::string("unknown section flag '") + c + "'");
    }
  } else if (starts(".text")) {
    sec.flags = SHF_ALLOC | SHF_EXECINSTR;
  } else if (starts(".rodata") || starts(".srodata")) {
    sec.flags = SHF_ALLOC;
  } else {
    sec.flags = SHF_ALLOC | SHF_WRITE;
  }
  if (starts(".bss") || starts(".sbss") || starts(".tbss")) sec.type = SHT_NOBITS;
  if (sec.flags & SHF_EXECINSTR) sec.align = 4;
  unit_.sections.push_back(std::move(sec));
  cur_ = static_cast<int>(unit_.sections.size() - 1);
}

void Assembler::align_to(uint64_t bytes, SourcePos pos) {
  if (bytes == 0 || (bytes & (bytes - 1)))
    error(pos, "alignment " + std::to_string(bytes) + " is not a power of 2");
  if (bytes > 4096) error(pos, "alignment " + std::to_string(bytes) + " larger than 4096");
  AsmSection &sec = unit_.sections[static_cast<size_t>(cur_)];
  sec.align = std::max(sec.align, bytes);
  if (sec.type == SHT_NOBITS) {
    sec.nobits_size = (sec.nobits_size + bytes - 1) & ~(bytes - 1);
    return;
  }
  const bool code =
      (sec.flags & SHF_EXECINSTR) && sec.data.size() % (rvc_seen_ ? 2 : 4) == 0 && bytes >= 4;
  // Like GNU as: a c.nop first when code sits at a 2-byte offset.
  if (code && sec.data.size() % 4 && sec.data.size() % bytes)
    for (uint8_t b : {0x01, 0x00}) sec.data.push_back(b);
  while (sec.data.size() % bytes) {
    if (code) {
      for (uint8_t b : {0x13, 0x00, 0x00, 0x00}) sec.data.push_back(b);  // nop
    } else {
      sec.data.push_back(0);
    }
  }
}

void Assembler::reserve(Stmt st) {
  AsmSection &sec = unit_.sections[static_cast<size_t>(cur_)];
  if (sec.type == SHT_NOBITS) error(st.pos, "contents in the NOBITS section " + sec.name);
  st.section = cur_;
  st.offset = sec.data.size();
  st.label_epoch = numeric_seq_;
  sec.data.resize(sec.data.size() + st.size, 0);
  stmts_.push_back(std::move(st));
}

std::string Assembler::resolve_numeric(const std::string &ref, const Stmt &st,
                                       SourcePos pos) const {
  if (ref.size() > 10) error(pos, "local label number too large in '" + ref + "'");
  const int num = std::stoi(ref.substr(0, ref.size() - 1));
  const bool back = ref.back() == 'b';
  auto it = numeric_.find(num);
  if (it != numeric_.end()) {
    if (back) {
      for (auto d = it->second.rbegin(); d != it->second.rend(); ++d)
        if (d->first < st.label_epoch) return d->second;
    } else {
      for (const auto &d : it->second)
        if (d.first >= st.label_epoch) return d.second;
    }
  }
  error(pos, "undefined local label '" + ref + "'");
}

namespace {
std::string parse_string(const Assembler &as, const Operand &op, int line) {
  const std::string &t = op.text;
  if (t.size() < 2 || t.front() != '"' || t.back() != '"')
    as.error({line, op.col}, "expected a string literal");
  std::string out;
  for (size_t i = 1; i + 1 < t.size(); ++i) {
    char c = t[i];
    if (c != '\\') {
      out += c;
      continue;
    }
    if (++i >= t.size() - 1) as.error({line, op.col + static_cast<int>(i)}, "bad escape");
    c = t[i];
    switch (c) {
      case 'n':
        out += '\n';
        break;
      case 't':
        out += '\t';
        break;
      case 'r':
        out += '\r';
        break;
      case '0':
      case '1':
      case '2':
      case '3':
      case '4':
      case '5':
      case '6':
      case '7': {
        int v = 0, k = 0;
        while (k < 3 && i < t.size() - 1 && t[i] >= '0' && t[i] <= '7')
          v = v * 8 + (t[i++] - '0'), ++k;
        --i;
        out += static_cast<char>(v);
        break;
      }
      case '\\':
        out += '\\';
        break;
      case '"':
        out += '"';
        break;
      default:
        as.error({line, op.col + static_cast<int>(i)}, std::string("unknown escape '\\") + c + "'");
    }
  }
  return out;
}
}  // namespace

void Assembler::directive(const std::string &name, const std::vector<Operand> &ops, SourcePos pos) {
  Stmt probe;
  probe.pos = pos;
  probe.section = cur_;
  probe.offset = unit_.sections[static_cast<size_t>(cur_)].size();
  probe.label_epoch = numeric_seq_;
  auto need = [&](size_t lo, size_t hi) {
    if (ops.size() < lo || ops.size() > hi)
      error(pos,
            name + " expects " +
                (lo == hi ? std::to_string(lo) : std::to_string(lo) + ".." + std::to_string(hi)) +
                " operand(s), got " + std::to_string(ops.size()));
  };
  auto constant = [&](const Operand &o) { return eval_const(o, probe); };
  if (name == ".text" || name == ".data" || name == ".bss" || name == ".rodata") {
    need(0, 0);
    switch_section(name, "", pos);
  } else if (name == ".section") {
    if (ops.empty()) error(pos, ".section needs a name");
    std::string flags;
    if (ops.size() > 1) {
      const std::string &f = ops[1].text;
      if (f.size() < 2 || f.front() != '"' || f.back() != '"')
        error({pos.line, ops[1].col}, "expected section flags string");
      flags = f.substr(1, f.size() - 2);
    }
    switch_section(ops[0].text, flags, pos);
    if (ops.size() > 2 && (ops[2].text == "@nobits" || ops[2].text == "%nobits"))
      unit_.sections[static_cast<size_t>(cur_)].type = SHT_NOBITS;
  } else if (name == ".globl" || name == ".global") {
    need(1, 1);
    unit_.symbols[static_cast<size_t>(symbol_index(ops[0].text, pos))].global = true;
  } else if (name == ".local") {
    need(1, 1);
    unit_.symbols[static_cast<size_t>(symbol_index(ops[0].text, pos))].global = false;
  } else if (name == ".type") {
    need(2, 2);
    AsmSymbol &s = unit_.symbols[static_cast<size_t>(symbol_index(ops[0].text, pos))];
    const std::string &t = ops[1].text;
    if (t == "@function" || t == "%function" || t == "STT_FUNC")
      s.type = STT_FUNC;
    else if (t == "@object" || t == "%object" || t == "STT_OBJECT")
      s.type = STT_OBJECT;
    else if (t == "@notype" || t == "%notype")
      s.type = STT_NOTYPE;
    else
      error({pos.line, ops[1].col}, "unknown symbol type '" + t + "'");
  } else if (name == ".size") {
    need(2, 2);
    // .size sym, .-sym is evaluated at this point.
    const int64_t v = constant(ops[1]);
    unit_.symbols[static_cast<size_t>(symbol_index(ops[0].text, pos))].size =
        static_cast<uint64_t>(v);
  } else if (name == ".equ" || name == ".set" || name == ".equiv") {
    need(2, 2);
    const int64_t v = constant(ops[1]);
    AsmSymbol &s = unit_.symbols[static_cast<size_t>(symbol_index(ops[0].text, pos))];
    if (s.section >= 0 || (name == ".equiv" && s.absolute))
      error(pos, "symbol '" + ops[0].text + "' is already defined");
    s.absolute = true;
    s.value = static_cast<uint64_t>(v);
  } else if (name == ".align" || name == ".p2align" || name == ".balign") {
    need(1, 3);
    const int64_t v = constant(ops[0]);
    if (name == ".balign") {
      align_to(static_cast<uint64_t>(v), pos);
    } else {
      if (v < 0 || v > 12)
        error({pos.line, ops[0].col},
              name + " exponent " + std::to_string(v) + " out of range [0, 12]");
      align_to(uint64_t{1} << v, pos);
    }
  } else if (name == ".zero" || name == ".space" || name == ".skip") {
    need(1, 2);
    const int64_t n = constant(ops[0]);
    const int64_t fill = ops.size() > 1 ? constant(ops[1]) : 0;
    if (n < 0 || n > (int64_t{1} << 30))
      error({pos.line, ops[0].col}, name + " size " + std::to_string(n) + " out of range");
    if (fill < -128 || fill > 255)
      error({pos.line, ops[1].col}, name + " fill value does not fit in a byte");
    AsmSection &sec = unit_.sections[static_cast<size_t>(cur_)];
    if (sec.type == SHT_NOBITS) {
      if (fill != 0) error(pos, "non-zero fill in a NOBITS section");
      sec.nobits_size += static_cast<uint64_t>(n);
    } else {
      sec.data.insert(sec.data.end(), static_cast<size_t>(n), static_cast<uint8_t>(fill));
    }
  } else if (name == ".ascii" || name == ".asciz" || name == ".string") {
    if (ops.empty()) error(pos, name + " needs a string");
    for (const auto &o : ops) {
      std::string s = parse_string(*this, o, pos.line);
      if (name != ".ascii") s.push_back('\0');
      AsmSection &sec = unit_.sections[static_cast<size_t>(cur_)];
      if (sec.type == SHT_NOBITS) error(pos, "contents in the NOBITS section " + sec.name);
      sec.data.insert(sec.data.end(), s.begin(), s.end());
    }
  } else if (name == ".byte" || name == ".half" || name == ".short" || name == ".2byte" ||
             name == ".word" || name == ".long" || name == ".4byte" || name == ".dword" ||
             name == ".quad" || name == ".8byte") {
    const int w = (name == ".byte")                                           ? 1
                  : (name == ".half" || name == ".short" || name == ".2byte") ? 2
                  : (name == ".dword" || name == ".quad" || name == ".8byte") ? 8
                                                                              : 4;
    if (ops.empty()) error(pos, name + " needs at least one value");
    for (const auto &o : ops) {
      Stmt st;
      st.mnemonic = name;
      st.ops = {o};
      st.pos = {pos.line, o.col};
      st.size = static_cast<uint64_t>(w);
      st.data_width = w;
      reserve(std::move(st));
    }
  } else if (name == ".insn") {
    AsmSection &sec = unit_.sections[static_cast<size_t>(cur_)];
    if (!(sec.flags & SHF_EXECINSTR)) error(pos, ".insn in the non-executable section " + sec.name);
    if (sec.data.size() % 4)
      error(pos, "instruction at a misaligned offset in " + sec.name + " (use .align 2)");
    Stmt st;
    st.mnemonic = ".insn";
    st.ops = ops;
    st.pos = pos;
    st.size = 4;
    reserve(std::move(st));
  } else if (name == ".option" && ops.size() == 1 &&
             (ops[0].text == "rvc" || ops[0].text == "norvc" || ops[0].text == "push" ||
              ops[0].text == "pop")) {
    const std::string &o = ops[0].text;
    if (o == "push") {
      option_stack_.push_back(rvc_);
    } else if (o == "pop") {
      if (option_stack_.empty()) error(pos, ".option pop with no .option push");
      rvc_ = option_stack_.back();
      option_stack_.pop_back();
    } else {
      rvc_ = o == "rvc";
      rvc_seen_ |= rvc_;
    }
  } else if (name == ".option" || name == ".file" || name == ".ident" || name == ".attribute" ||
             name == ".addrsig" || name == ".cfi_startproc" || name == ".cfi_endproc" ||
             name == ".cfi_sections") {
    // Accepted and ignored (other .option values such as norelax; no debug info).
  } else {
    error(pos, "unknown directive '" + name + "'");
  }
}

void Assembler::parse_line(std::string_view raw, int line_no) {
  std::string_view line = raw;
  if (size_t c = comment_start(line); c != std::string_view::npos) line = line.substr(0, c);
  size_t i = 0;
  auto skip_ws = [&] {
    while (i < line.size() && std::isspace(static_cast<unsigned char>(line[i]))) ++i;
  };
  // Labels: "name:" or "123:" (possibly several).
  while (true) {
    skip_ws();
    size_t j = i;
    if (j < line.size() && std::isdigit(static_cast<unsigned char>(line[j]))) {
      while (j < line.size() && std::isdigit(static_cast<unsigned char>(line[j]))) ++j;
      if (j < line.size() && line[j] == ':') {
        if (j - i > 9) error({line_no, static_cast<int>(i) + 1}, "local label number too large");
        const int num = std::stoi(std::string(line.substr(i, j - i)));
        const std::string unique = ".L" + std::to_string(num) + "^" + std::to_string(numeric_seq_);
        define_label(unique, {line_no, static_cast<int>(i) + 1});
        numeric_[num].push_back({numeric_seq_++, unique});
        i = j + 1;
        continue;
      }
      break;
    }
    if (j < line.size() && ident_start(line[j])) {
      while (j < line.size() && ident_char(line[j])) ++j;
      if (j < line.size() && line[j] == ':') {
        define_label(std::string(line.substr(i, j - i)), {line_no, static_cast<int>(i) + 1});
        i = j + 1;
        continue;
      }
    }
    break;
  }
  skip_ws();
  if (i >= line.size()) return;
  const size_t m0 = i;
  while (i < line.size() && !std::isspace(static_cast<unsigned char>(line[i]))) ++i;
  std::string mnemonic(line.substr(m0, i - m0));
  const SourcePos pos{line_no, static_cast<int>(m0) + 1};
  skip_ws();
  // "sym = expr" is .set.
  if (i < line.size() && line[i] == '=' && (i + 1 >= line.size() || line[i + 1] != '=')) {
    auto rhs = split_operands(line.substr(i + 1), static_cast<int>(i) + 2);
    std::vector<Operand> ops{{mnemonic, pos.col}};
    ops.insert(ops.end(), rhs.begin(), rhs.end());
    directive(".set", ops, pos);
    return;
  }
  auto ops = split_operands(line.substr(i), static_cast<int>(i) + 1);
  for (const auto &o : ops)
    if (o.text.empty()) error({line_no, o.col}, "empty operand");
  if (!mnemonic.empty() && mnemonic[0] == '.' && mnemonic.find('.', 1) == std::string::npos &&
      !find_insn(mnemonic)) {
    directive(mnemonic, ops, pos);
    return;
  }
  std::transform(mnemonic.begin(), mnemonic.end(), mnemonic.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  Stmt st;
  st.mnemonic = mnemonic;
  st.ops = std::move(ops);
  st.pos = pos;
  st.section = cur_;
  st.offset = unit_.sections[static_cast<size_t>(cur_)].size();
  st.label_epoch = numeric_seq_;
  AsmSection &sec = unit_.sections[static_cast<size_t>(cur_)];
  if (!(sec.flags & SHF_EXECINSTR))
    error(pos, "instruction in the non-executable section " + sec.name);
  if (sec.data.size() % (rvc_seen_ ? 2 : 4))
    error(pos, "instruction at a misaligned offset in " + sec.name + " (use .align 2)");
  st.size = insn_size(st);
  if (st.size == 2 && !rvc_)
    error(pos, "'" + mnemonic + "' is a compressed instruction: enable them with '.option rvc'");
  reserve(std::move(st));
}

void Assembler::pass1() {
  size_t i = 0;
  int line_no = 0;
  while (i <= source_.size()) {
    size_t j = source_.find('\n', i);
    if (j == std::string::npos) j = source_.size();
    ++line_no;
    line_no_ = line_no;
    std::string_view line(source_.data() + i, j - i);
    // ';' separates statements (outside strings and comments).
    size_t c = comment_start(line);
    std::string_view body = line.substr(0, c);
    size_t start = 0;
    bool in_str = false;
    for (size_t k = 0; k <= body.size(); ++k) {
      if (k < body.size() && body[k] == '"' && (k == 0 || body[k - 1] != '\\')) in_str = !in_str;
      if (k == body.size() || (body[k] == ';' && !in_str)) {
        // Keep columns right by blanking the other statements.
        std::string piece(body.size(), ' ');
        std::copy(body.begin() + static_cast<long>(start), body.begin() + static_cast<long>(k),
                  piece.begin() + static_cast<long>(start));
        parse_line(piece, line_no);
        start = k + 1;
      }
    }
    if (j == source_.size()) break;
    i = j + 1;
  }
}

bool Assembler::local_offset(const std::string &sym, const Stmt &st, uint64_t &offset) const {
  if (sym == ".") {
    offset = 0;
    return true;
  }
  auto it = sym_index_.find(sym);
  if (it == sym_index_.end()) return false;
  const AsmSymbol &s = unit_.symbols[static_cast<size_t>(it->second)];
  if (s.absolute || s.section != st.section) return false;
  offset = s.value;
  return true;
}

void Assembler::put_word(const Stmt &st, uint64_t at, uint32_t word) {
  auto &d = unit_.sections[static_cast<size_t>(st.section)].data;
  for (int b = 0; b < 4; ++b)
    d[st.offset + at + static_cast<uint64_t>(b)] = static_cast<uint8_t>(word >> (8 * b));
}

void Assembler::put_half(const Stmt &st, uint64_t at, uint16_t half) {
  auto &d = unit_.sections[static_cast<size_t>(st.section)].data;
  d[st.offset + at] = static_cast<uint8_t>(half);
  d[st.offset + at + 1] = static_cast<uint8_t>(half >> 8);
}

void Assembler::add_fixup(const Stmt &st, uint64_t at, uint32_t type, const std::string &sym,
                          int64_t add) {
  if (sym == ".") error(st.pos, "relocation against '.' is not supported");
  symbol_index(sym, st.pos);  // make sure it is in the symbol table (undefined = external)
  unit_.sections[static_cast<size_t>(st.section)].fixups.push_back(
      {type, st.offset + at, sym, add, st.pos});
}

std::string Assembler::make_local_label(const Stmt &st, uint64_t at) {
  const std::string name = ".Lpcrel_hi" + std::to_string(hidden_++);
  AsmSymbol &s = unit_.symbols[static_cast<size_t>(symbol_index(name, st.pos))];
  s.section = st.section;
  s.value = st.offset + at;
  return name;
}

void Assembler::pass2() {
  for (const Stmt &st : stmts_) {
    line_no_ = st.pos.line;
    if (st.data_width == 0) {
      emit_insn(st);
      continue;
    }
    const Value v = eval(st.ops[0], st);
    if (v.mod != Mod::None) error(st.pos, "%-modifiers are not allowed in data");
    auto &d = unit_.sections[static_cast<size_t>(st.section)].data;
    const int w = st.data_width;
    if (v.absolute()) {
      if (w < 8) {
        const int64_t lo = -(int64_t{1} << (8 * w - 1)), hi = (int64_t{1} << (8 * w)) - 1;
        if (v.add < lo || v.add > hi)
          error(st.pos, "value " + std::to_string(v.add) + " does not fit in " + std::to_string(w) +
                            " byte(s)");
      }
      for (int b = 0; b < w; ++b)
        d[st.offset + static_cast<uint64_t>(b)] =
            static_cast<uint8_t>(static_cast<uint64_t>(v.add) >> (8 * b));
    } else {
      if (w != 4 && w != 8) error(st.pos, "a symbol address needs a 4- or 8-byte data directive");
      add_fixup(st, 0, w == 8 ? R_RISCV_64 : R_RISCV_32, v.sym, v.add);
    }
  }
}

AsmUnit Assembler::run() {
  pass1();
  pass2();
  unit_.rvc = rvc_seen_;
  return std::move(unit_);
}

}  // namespace asmimpl

AsmUnit assemble(std::string_view source, const std::string &filename, const AsmOptions &options) {
  asmimpl::Assembler as(source, filename, options);
  return as.run();
}

}  // namespace opforge::isa
