//===- disasm_file.cpp - objdump -d style listings of ELF files and raw code ===//
#include <elf.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <map>

#include "opforge/isa/disasm.h"
#include "opforge/support/error.h"

namespace opforge::isa {
namespace {

[[noreturn]] void bad(const std::string &file, const std::string &msg) {
  ErrorContext ctx;
  ctx.file = file;
  throw Error(msg, ctx);
}

template <typename T>
T read_at(const std::vector<uint8_t> &b, uint64_t off, const std::string &file, const char *what) {
  if (off > b.size() || b.size() - off < sizeof(T))
    bad(file, std::string("truncated ELF file: ") + what + " out of bounds");
  T v;
  std::memcpy(&v, b.data() + off, sizeof(T));
  return v;
}

std::string cstr_at(const std::vector<uint8_t> &b, uint64_t off, uint64_t end,
                    const std::string &file) {
  if (off >= end || end > b.size()) bad(file, "malformed ELF file: string offset out of bounds");
  const auto *p = reinterpret_cast<const char *>(b.data() + off);
  const size_t n = strnlen(p, static_cast<size_t>(end - off));
  if (n == end - off) bad(file, "malformed ELF file: unterminated string");
  return std::string(p, n);
}

// objdump's address column: leading zero digits common to the section (in
// groups of four) are dropped, the remaining leading zeros become spaces.
struct AddrColumn {
  int skip = 0;
  AddrColumn(uint64_t vma, uint64_t size) {
    char buf[20];
    std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(vma + size));
    int z = 0;
    while (buf[z] == '0') ++z;
    if (buf[z] == '\0' && vma != 0) z = 0;
    skip = z != 0 ? ((z - 1) & ~3) : 0;
  }
  std::string operator()(uint64_t addr) const {
    char buf[20];
    std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(addr));
    char *s = buf + skip;
    char *p = s;
    while (*p == '0') *p++ = ' ';
    if (*p == '\0') *--p = '0';
    return s;
  }
};

// Labels: address -> name; a global symbol wins over a local one.
using Labels = std::map<uint64_t, std::pair<bool, std::string>>;

void list_code(std::string &out, const uint8_t *data, uint64_t size, uint64_t base,
               const Labels &labels, const std::string &section_name, bool file_has_symbols) {
  Symbolizer sym;
  if (file_has_symbols)
    sym = [&](uint64_t a) -> std::optional<std::string> {
      auto it = labels.upper_bound(a);
      if (it == labels.begin() || a < base || a > base + size) return std::nullopt;
      --it;
      if (it->first == a) return it->second.second;
      char buf[24];
      std::snprintf(buf, sizeof buf, "+0x%llx", static_cast<unsigned long long>(a - it->first));
      return it->second.second + buf;
    };
  const AddrColumn col(base, size);
  for (uint64_t off = 0; off < size;) {
    const uint64_t addr = base + off;
    auto it = labels.find(addr);
    if (it != labels.end() || off == 0) {
      char buf[32];
      std::snprintf(buf, sizeof buf, "\n%016llx <", static_cast<unsigned long long>(addr));
      out += buf + (it != labels.end() ? it->second.second : section_name) + ">:\n";
    }
    char buf[64];
    const bool compressed = size - off >= 2 && (data[off] & 3) != 3;
    if (compressed) {  // a 16-bit instruction: 2-byte step
      uint16_t h;
      std::memcpy(&h, data + off, 2);
      std::snprintf(buf, sizeof buf, ":\t%04x                \t", h);
      out += col(addr) + buf + disassemble(h, addr, sym) + "\n";
      off += 2;
    } else if (size - off >= 4) {
      uint32_t w;
      std::memcpy(&w, data + off, 4);
      std::snprintf(buf, sizeof buf, ":\t%08x          \t", w);
      out += col(addr) + buf + disassemble(w, addr, sym) + "\n";
      off += 4;
    } else {
      std::snprintf(buf, sizeof buf, ":\t%02x                \t.byte\t0x%x\n", data[off],
                    data[off]);
      out += col(addr) + buf;
      off += 1;
    }
  }
}

}  // namespace

std::string disassemble_bytes(const std::vector<uint8_t> &b, const std::string &name,
                              uint64_t raw_base) {
  std::string out = "\n" + name + ":     file format ";
  const bool is_elf = b.size() >= 4 && std::memcmp(b.data(), ELFMAG, SELFMAG) == 0;
  if (!is_elf) {
    out += "binary\n\n\nDisassembly of section .data:\n";
    list_code(out, b.data(), b.size(), raw_base, {}, ".data", false);
    return out;
  }
  const auto eh = read_at<Elf64_Ehdr>(b, 0, name, "ELF header");
  if (eh.e_ident[EI_CLASS] != ELFCLASS64)
    bad(name, "not an ELF64 file (EI_CLASS " + std::to_string(eh.e_ident[EI_CLASS]) + ")");
  if (eh.e_ident[EI_DATA] != ELFDATA2LSB) bad(name, "not a little-endian ELF file");
  if (eh.e_machine != EM_RISCV)
    bad(name, "not a RISC-V ELF file (e_machine " + std::to_string(eh.e_machine) + ")");
  if (eh.e_shnum == 0) bad(name, "ELF file has no section headers");
  if (eh.e_shentsize != sizeof(Elf64_Shdr))
    bad(name, "malformed ELF file: e_shentsize " + std::to_string(eh.e_shentsize));
  std::vector<Elf64_Shdr> sh(eh.e_shnum);
  for (size_t i = 0; i < sh.size(); ++i)
    sh[i] = read_at<Elf64_Shdr>(b, eh.e_shoff + i * sizeof(Elf64_Shdr), name, "section header");
  auto check_range = [&](const Elf64_Shdr &s) {
    if (s.sh_type != SHT_NOBITS && (s.sh_offset > b.size() || b.size() - s.sh_offset < s.sh_size))
      bad(name, "truncated ELF file: section data out of bounds");
  };
  for (const auto &s : sh) check_range(s);
  if (eh.e_shstrndx >= sh.size()) bad(name, "malformed ELF file: e_shstrndx out of range");
  const auto &shstr = sh[eh.e_shstrndx];
  auto sec_name = [&](const Elf64_Shdr &s) {
    return cstr_at(b, shstr.sh_offset + s.sh_name, shstr.sh_offset + shstr.sh_size, name);
  };
  // Labels per section from .symtab (mapping symbols like $x are skipped).
  std::vector<Labels> labels(sh.size());
  for (const auto &s : sh) {
    if (s.sh_type != SHT_SYMTAB) continue;
    if (s.sh_link >= sh.size() || s.sh_entsize != sizeof(Elf64_Sym))
      bad(name, "malformed ELF file: bad .symtab header");
    const auto &strtab = sh[s.sh_link];
    for (uint64_t off = 0; off + sizeof(Elf64_Sym) <= s.sh_size; off += sizeof(Elf64_Sym)) {
      const auto sym = read_at<Elf64_Sym>(b, s.sh_offset + off, name, "symbol");
      const int type = ELF64_ST_TYPE(sym.st_info);
      if (sym.st_name == 0 || sym.st_shndx == SHN_UNDEF || sym.st_shndx >= sh.size()) continue;
      if (type == STT_SECTION || type == STT_FILE) continue;
      std::string n =
          cstr_at(b, strtab.sh_offset + sym.st_name, strtab.sh_offset + strtab.sh_size, name);
      if (n.empty() || n[0] == '$') continue;
      const bool global = ELF64_ST_BIND(sym.st_info) != STB_LOCAL;
      auto [it, fresh] = labels[sym.st_shndx].emplace(sym.st_value, std::make_pair(global, n));
      if (!fresh && global && !it->second.first) it->second = {global, n};
    }
  }
  bool has_symbols = false;
  for (const auto &l : labels) has_symbols |= !l.empty();
  out += "elf64-littleriscv\n\n";
  for (size_t i = 0; i < sh.size(); ++i) {
    const auto &s = sh[i];
    if (s.sh_type != SHT_PROGBITS || !(s.sh_flags & SHF_EXECINSTR) || s.sh_size == 0) continue;
    out += "\nDisassembly of section " + sec_name(s) + ":\n";
    list_code(out, b.data() + s.sh_offset, s.sh_size, s.sh_addr, labels[i], sec_name(s),
              has_symbols);
  }
  return out;
}

std::string disassemble_file(const std::string &path, uint64_t raw_base) {
  std::ifstream in(path, std::ios::binary);
  if (!in) bad(path, "cannot open file");
  std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)),
                             std::istreambuf_iterator<char>());
  if (in.bad()) bad(path, "read error");
  return disassemble_bytes(bytes, path, raw_base);
}

}  // namespace opforge::isa
