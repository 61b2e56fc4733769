//===- elf_writer.cpp - link AsmUnits; write ELF64 objects and executables --===//
#include "opforge/isa/elf_writer.h"

#include <elf.h>

#include <algorithm>
#include <cstring>
#include <map>

#include "opforge/support/error.h"

namespace opforge::isa {
namespace {

constexpr uint32_t kEfRiscvFloatAbiDouble = 0x4;
constexpr uint32_t kEfRiscvRvc = 0x1;
constexpr uint64_t kPageBytes = 0x1000;

// Segment class of a section: 0 code, 1 read-only data, 2 writable (incl. NOBITS).
int segment_class(uint64_t flags) {
  if (flags & SHF_EXECINSTR) return 0;
  return (flags & SHF_WRITE) ? 2 : 1;
}

[[noreturn]] void fail(const AsmUnit &u, SourcePos pos, const std::string &msg) {
  ErrorContext ctx;
  ctx.file = u.filename;
  if (pos.line > 0) ctx.line = pos.line;
  if (pos.col > 0) ctx.col = pos.col;
  throw Error(msg, ctx);
}

uint64_t align_up(uint64_t v, uint64_t a) { return a <= 1 ? v : (v + a - 1) & ~(a - 1); }

uint32_t load32(const std::vector<uint8_t> &d, uint64_t at) {
  uint32_t w;
  std::memcpy(&w, d.data() + at, 4);
  return w;
}
void store32(std::vector<uint8_t> &d, uint64_t at, uint32_t w) {
  std::memcpy(d.data() + at, &w, 4);
}

int64_t sext12(int64_t v) { return static_cast<int64_t>(static_cast<uint64_t>(v) << 52) >> 52; }

uint32_t itype(uint32_t w, int64_t imm) {
  return (w & 0x000fffffu) | (static_cast<uint32_t>(imm & 0xfff) << 20);
}
uint32_t stype(uint32_t w, int64_t imm) {
  const uint32_t u = static_cast<uint32_t>(imm);
  return (w & 0x01fff07fu) | (((u >> 5) & 0x7f) << 25) | ((u & 0x1f) << 7);
}
uint32_t utype(uint32_t w, int64_t hi20) {
  return (w & 0xfffu) | (static_cast<uint32_t>(hi20 & 0xfffff) << 12);
}
uint32_t btype(uint32_t w, int64_t off) {
  const uint32_t u = static_cast<uint32_t>(off);
  return (w & 0x01fff07fu) | (((u >> 12) & 1) << 31) | (((u >> 5) & 0x3f) << 25) |
         (((u >> 1) & 0xf) << 8) | (((u >> 11) & 1) << 7);
}
uint32_t jtype(uint32_t w, int64_t off) {
  const uint32_t u = static_cast<uint32_t>(off);
  return (w & 0xfffu) | (((u >> 20) & 1) << 31) | (((u >> 1) & 0x3ff) << 21) |
         (((u >> 11) & 1) << 20) | (((u >> 12) & 0xff) << 12);
}

// hi20 of a 32-bit signed pc-relative or absolute value, with range check.
int64_t hi20_of(const AsmUnit &u, const Fixup &f, int64_t v) {
  if (v < -(int64_t{1} << 31) - 0x800 || v >= (int64_t{1} << 31) - 0x800)
    fail(u, f.pos, "relocation against '" + f.symbol + "' out of range for a 32-bit offset");
  return ((v + 0x800) >> 12) & 0xfffff;
}

}  // namespace

uint64_t LinkedImage::symbol_address(const AsmSymbol &s) const {
  if (s.absolute) return s.value;
  if (s.section < 0) return 0;
  return section_addr[static_cast<size_t>(s.section)] + s.value;
}

LinkedImage link(const AsmUnit &unit, const LinkOptions &opts) {
  LinkedImage img;
  img.unit = unit;
  AsmUnit &u = img.unit;
  // Layout: executable, read-only, writable, then NOBITS sections.
  std::vector<size_t> order(u.sections.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  auto rank = [&](const AsmSection &s) {
    if (s.type == SHT_NOBITS) return 3;
    if (s.flags & SHF_EXECINSTR) return 0;
    if (!(s.flags & SHF_WRITE)) return 1;
    return 2;
  };
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return rank(u.sections[a]) < rank(u.sections[b]); });
  img.section_addr.assign(u.sections.size(), 0);
  uint64_t addr = opts.text_base;
  int prev_class = -1;
  for (size_t i : order) {
    const AsmSection &s = u.sections[i];
    if (!(s.flags & SHF_ALLOC)) continue;
    // Code, read-only data and writable data go to separate pages (and
    // separate PT_LOAD segments with their own permissions).
    const int cls = std::min(rank(s), 2);
    if (prev_class >= 0 && cls != prev_class && s.size() > 0) addr = align_up(addr, kPageBytes);
    if (s.size() > 0) prev_class = cls;
    addr = align_up(addr, std::max<uint64_t>(s.align, 1));
    img.section_addr[i] = addr;
    addr += s.size();
  }
  std::map<std::string, const AsmSymbol *> by_name;
  for (const auto &s : u.symbols) by_name[s.name] = &s;
  auto resolve = [&](const Fixup &f) -> uint64_t {
    auto it = by_name.find(f.symbol);
    if (it == by_name.end() || (it->second->section < 0 && !it->second->absolute))
      fail(u, f.pos, "undefined symbol '" + f.symbol + "'");
    return img.symbol_address(*it->second);
  };
  // pcrel_hi fixups by their address, for %pcrel_lo.
  std::map<uint64_t, int64_t> pcrel_hi_value;
  for (size_t i = 0; i < u.sections.size(); ++i)
    for (const Fixup &f : u.sections[i].fixups)
      if (f.type == R_RISCV_PCREL_HI20) {
        const uint64_t p = img.section_addr[i] + f.offset;
        pcrel_hi_value[p] = static_cast<int64_t>(resolve(f) + static_cast<uint64_t>(f.addend) - p);
      }
  for (size_t i = 0; i < u.sections.size(); ++i) {
    AsmSection &s = u.sections[i];
    for (const Fixup &f : s.fixups) {
      const uint64_t p = img.section_addr[i] + f.offset;
      const uint64_t sa = resolve(f) + static_cast<uint64_t>(f.addend);
      const int64_t rel = static_cast<int64_t>(sa - p);
      auto &d = s.data;
      switch (f.type) {
        case R_RISCV_BRANCH:
          if (rel < -4096 || rel > 4094 || (rel & 1))
            fail(u, f.pos, "branch to '" + f.symbol + "' out of range (+-4 KiB)");
          store32(d, f.offset, btype(load32(d, f.offset), rel));
          break;
        case R_RISCV_JAL:
          if (rel < -(1 << 20) || rel >= (1 << 20) || (rel & 1))
            fail(u, f.pos, "jump to '" + f.symbol + "' out of range (+-1 MiB)");
          store32(d, f.offset, jtype(load32(d, f.offset), rel));
          break;
        case R_RISCV_CALL:
        case R_RISCV_CALL_PLT:
          store32(d, f.offset, utype(load32(d, f.offset), hi20_of(u, f, rel)));
          store32(d, f.offset + 4, itype(load32(d, f.offset + 4), sext12(rel)));
          break;
        case R_RISCV_PCREL_HI20:
          store32(d, f.offset, utype(load32(d, f.offset), hi20_of(u, f, rel)));
          break;
        case R_RISCV_PCREL_LO12_I:
        case R_RISCV_PCREL_LO12_S: {
          auto hi = pcrel_hi_value.find(resolve(f));
          if (hi == pcrel_hi_value.end())
            fail(u, f.pos, "%pcrel_lo(" + f.symbol + "): no %pcrel_hi at that label");
          const int64_t lo = sext12(hi->second);
          const uint32_t w = load32(d, f.offset);
          store32(d, f.offset, f.type == R_RISCV_PCREL_LO12_I ? itype(w, lo) : stype(w, lo));
          break;
        }
        case R_RISCV_HI20:
          store32(d, f.offset, utype(load32(d, f.offset), hi20_of(u, f, static_cast<int64_t>(sa))));
          break;
        case R_RISCV_LO12_I:
          store32(d, f.offset, itype(load32(d, f.offset), sext12(static_cast<int64_t>(sa))));
          break;
        case R_RISCV_LO12_S:
          store32(d, f.offset, stype(load32(d, f.offset), sext12(static_cast<int64_t>(sa))));
          break;
        case R_RISCV_32:
          if (sa > 0xffffffffu)
            fail(u, f.pos, "address of '" + f.symbol + "' does not fit in 32 bits");
          store32(d, f.offset, static_cast<uint32_t>(sa));
          break;
        case R_RISCV_64:
          std::memcpy(d.data() + f.offset, &sa, 8);
          break;
        default:
          fail(u, f.pos, "unsupported relocation type " + std::to_string(f.type));
      }
    }
    s.fixups.clear();
  }
  img.entry =
      img.section_addr.empty() ? opts.text_base : img.section_addr[order.empty() ? 0 : order[0]];
  if (auto it = by_name.find(opts.entry_symbol); it != by_name.end() && it->second->section >= 0)
    img.entry = img.symbol_address(*it->second);
  return img;
}

namespace {

// Accumulates an ELF file: section headers, string tables, symbols.
struct ElfBuilder {
  std::vector<uint8_t> out;
  std::vector<Elf64_Shdr> shdrs{Elf64_Shdr{}};
  std::string shstr{'\0'};

  uint32_t shname(const std::string &n) {
    const uint32_t off = static_cast<uint32_t>(shstr.size());
    shstr += n;
    shstr += '\0';
    return off;
  }
  uint64_t append(const void *p, size_t n, uint64_t align) {
    while (out.size() % std::max<uint64_t>(align, 1)) out.push_back(0);
    const uint64_t off = out.size();
    const auto *b = static_cast<const uint8_t *>(p);
    out.insert(out.end(), b, b + n);
    return off;
  }
  size_t add_section(const std::string &name, uint32_t type, uint64_t flags, uint64_t addr,
                     const void *data, size_t size, uint64_t align, uint32_t link = 0,
                     uint32_t info = 0, uint64_t entsize = 0) {
    Elf64_Shdr h{};
    h.sh_name = shname(name);
    h.sh_type = type;
    h.sh_flags = flags;
    h.sh_addr = addr;
    h.sh_offset = type == SHT_NOBITS ? out.size() : append(data, size, align);
    h.sh_size = size;
    h.sh_link = link;
    h.sh_info = info;
    h.sh_addralign = std::max<uint64_t>(align, 1);
    h.sh_entsize = entsize;
    shdrs.push_back(h);
    return shdrs.size() - 1;
  }
  // Writes .shstrtab and the section header table; patches the ELF header.
  void finish(Elf64_Ehdr &eh) {
    const size_t shstrndx = add_section(".shstrtab", SHT_STRTAB, 0, 0, nullptr, 0, 1);
    shdrs[shstrndx].sh_offset = append(shstr.data(), shstr.size(), 1);
    shdrs[shstrndx].sh_size = shstr.size();
    eh.e_shoff = append(shdrs.data(), shdrs.size() * sizeof(Elf64_Shdr), 8);
    eh.e_shnum = static_cast<uint16_t>(shdrs.size());
    eh.e_shstrndx = static_cast<uint16_t>(shstrndx);
    std::memcpy(out.data(), &eh, sizeof eh);
  }
};

Elf64_Ehdr make_header(uint16_t type, bool rvc) {
  Elf64_Ehdr eh{};
  std::memcpy(eh.e_ident, ELFMAG, SELFMAG);
  eh.e_ident[EI_CLASS] = ELFCLASS64;
  eh.e_ident[EI_DATA] = ELFDATA2LSB;
  eh.e_ident[EI_VERSION] = EV_CURRENT;
  eh.e_ident[EI_OSABI] = ELFOSABI_SYSV;
  eh.e_type = type;
  eh.e_machine = EM_RISCV;
  eh.e_version = EV_CURRENT;
  eh.e_flags = kEfRiscvFloatAbiDouble | (rvc ? kEfRiscvRvc : 0);
  eh.e_ehsize = sizeof(Elf64_Ehdr);
  eh.e_shentsize = sizeof(Elf64_Shdr);
  return eh;
}

// .riscv.attributes as GNU as writes it for our ISA, so that objdump and
// other tools know the file uses V (and the rest of RV64GV), and C when the
// source enabled compressed instructions.
constexpr uint32_t kShtRiscvAttributes = 0x70000003;
std::vector<uint8_t> riscv_attributes(bool rvc) {
  const std::string arch = std::string("rv64i2p1_m2p0_a2p1_f2p2_d2p2_") + (rvc ? "c2p0_" : "") +
                           "v1p0_zicsr2p0_zifencei2p0_zmmul1p0_zve32f1p0_zve32x1p0_"
                           "zve64d1p0_"
                           "zve64f1p0_zve64x1p0_zvl128b1p0_zvl32b1p0_zvl64b1p0";
  std::vector<uint8_t> attrs;
  attrs.push_back(5);  // Tag_RISCV_arch
  attrs.insert(attrs.end(), arch.begin(), arch.end());
  attrs.push_back(0);
  for (uint8_t b : {8, 1, 10, 11}) attrs.push_back(b);  // priv_spec 1.11
  auto u32 = [](std::vector<uint8_t> &v, uint32_t x) {
    for (int i = 0; i < 4; ++i) v.push_back(static_cast<uint8_t>(x >> (8 * i)));
  };
  std::vector<uint8_t> file_sub{1};  // Tag_File
  u32(file_sub, static_cast<uint32_t>(1 + 4 + attrs.size()));
  file_sub.insert(file_sub.end(), attrs.begin(), attrs.end());
  std::vector<uint8_t> out{'A'};
  u32(out, static_cast<uint32_t>(4 + 6 + file_sub.size()));
  for (char c : std::string("riscv")) out.push_back(static_cast<uint8_t>(c));
  out.push_back(0);
  out.insert(out.end(), file_sub.begin(), file_sub.end());
  return out;
}

bool hidden_local(const AsmSymbol &s) { return !s.global && s.name.rfind(".L", 0) == 0; }

}  // namespace

std::vector<uint8_t> write_object(const AsmUnit &u) {
  ElfBuilder b;
  Elf64_Ehdr eh = make_header(ET_REL, u.rvc);
  b.out.resize(sizeof(Elf64_Ehdr));
  std::vector<size_t> sec_index(u.sections.size());
  for (size_t i = 0; i < u.sections.size(); ++i) {
    const AsmSection &s = u.sections[i];
    sec_index[i] = b.add_section(s.name, s.type, s.flags, 0, s.data.data(), s.size(), s.align);
  }
  const std::vector<uint8_t> attributes = riscv_attributes(u.rvc);
  b.add_section(".riscv.attributes", kShtRiscvAttributes, 0, 0, attributes.data(),
                attributes.size(), 1);
  // Symbols: null, section symbols, locals, then globals (ELF order rule).
  std::string strtab{'\0'};
  std::vector<Elf64_Sym> syms{Elf64_Sym{}};
  auto str = [&](const std::string &n) {
    const uint32_t off = static_cast<uint32_t>(strtab.size());
    strtab += n;
    strtab += '\0';
    return off;
  };
  std::vector<uint32_t> section_sym(u.sections.size());
  for (size_t i = 0; i < u.sections.size(); ++i) {
    Elf64_Sym s{};
    s.st_info = ELF64_ST_INFO(STB_LOCAL, STT_SECTION);
    s.st_shndx = static_cast<uint16_t>(sec_index[i]);
    section_sym[i] = static_cast<uint32_t>(syms.size());
    syms.push_back(s);
  }
  // Labels needed by %pcrel_lo stay as symbols even when they are .L names.
  std::map<std::string, bool> pcrel_lo_target;
  for (const auto &s : u.sections)
    for (const auto &f : s.fixups)
      if (f.type == R_RISCV_PCREL_LO12_I || f.type == R_RISCV_PCREL_LO12_S)
        pcrel_lo_target[f.symbol] = true;
  std::map<std::string, uint32_t> sym_index;
  auto emit_sym = [&](const AsmSymbol &a, uint8_t bind) {
    Elf64_Sym s{};
    s.st_name = str(a.name);
    s.st_info = ELF64_ST_INFO(bind, a.type);
    s.st_shndx = a.absolute      ? SHN_ABS
                 : a.section < 0 ? SHN_UNDEF
                                 : static_cast<uint16_t>(sec_index[static_cast<size_t>(a.section)]);
    s.st_value = a.value;
    s.st_size = a.size;
    sym_index[a.name] = static_cast<uint32_t>(syms.size());
    syms.push_back(s);
  };
  for (const auto &a : u.symbols)
    if (!a.global && (a.section >= 0 || a.absolute) &&
        (!hidden_local(a) || pcrel_lo_target.count(a.name)))
      emit_sym(a, STB_LOCAL);
  const uint32_t first_global = static_cast<uint32_t>(syms.size());
  for (const auto &a : u.symbols)
    if (a.global || (a.section < 0 && !a.absolute)) emit_sym(a, STB_GLOBAL);
  const size_t strtab_idx = b.add_section(".strtab", SHT_STRTAB, 0, 0, nullptr, 0, 1);
  b.shdrs[strtab_idx].sh_offset = b.append(strtab.data(), strtab.size(), 1);
  b.shdrs[strtab_idx].sh_size = strtab.size();
  const size_t symtab_idx =
      b.add_section(".symtab", SHT_SYMTAB, 0, 0, syms.data(), syms.size() * sizeof(Elf64_Sym), 8,
                    static_cast<uint32_t>(strtab_idx), first_global, sizeof(Elf64_Sym));
  // Relocations: locals (other than %pcrel_lo labels) become section + offset.
  for (size_t i = 0; i < u.sections.size(); ++i) {
    const AsmSection &s = u.sections[i];
    if (s.fixups.empty()) continue;
    std::vector<Elf64_Rela> rela;
    for (const Fixup &f : s.fixups) {
      const AsmSymbol *a = u.find_symbol(f.symbol);
      Elf64_Rela r{};
      r.r_offset = f.offset;
      int64_t addend = f.addend;
      uint32_t symi = 0;
      if (a && sym_index.count(a->name) &&
          (a->global || a->section < 0 || pcrel_lo_target.count(a->name) || a->absolute)) {
        symi = sym_index[a->name];
      } else if (a && a->section >= 0) {
        symi = section_sym[static_cast<size_t>(a->section)];
        addend += static_cast<int64_t>(a->value);
      } else {
        fail(u, f.pos, "relocation against unknown symbol '" + f.symbol + "'");
      }
      r.r_info = ELF64_R_INFO(symi, f.type);
      r.r_addend = addend;
      rela.push_back(r);
    }
    b.add_section(".rela" + s.name, SHT_RELA, SHF_INFO_LINK, 0, rela.data(),
                  rela.size() * sizeof(Elf64_Rela), 8, static_cast<uint32_t>(symtab_idx),
                  static_cast<uint32_t>(sec_index[i]), sizeof(Elf64_Rela));
  }
  b.finish(eh);
  return b.out;
}

std::vector<uint8_t> link_executable(const AsmUnit &unit, const LinkOptions &opts) {
  const LinkedImage img = link(unit, opts);
  const AsmUnit &u = img.unit;
  ElfBuilder b;
  Elf64_Ehdr eh = make_header(ET_EXEC, u.rvc);
  eh.e_entry = img.entry;
  std::vector<size_t> alloc;
  for (size_t i = 0; i < u.sections.size(); ++i)
    if ((u.sections[i].flags & SHF_ALLOC) && u.sections[i].size() > 0) alloc.push_back(i);
  std::sort(alloc.begin(), alloc.end(),
            [&](size_t a, size_t c) { return img.section_addr[a] < img.section_addr[c]; });
  // Consecutive sections of one class form one PT_LOAD segment.
  std::vector<std::vector<size_t>> segments;
  for (size_t i : alloc) {
    if (segments.empty() || segment_class(u.sections[segments.back().back()].flags) !=
                                segment_class(u.sections[i].flags))
      segments.emplace_back();
    segments.back().push_back(i);
  }
  eh.e_phoff = sizeof(Elf64_Ehdr);
  eh.e_phentsize = sizeof(Elf64_Phdr);
  eh.e_phnum = static_cast<uint16_t>(segments.size());
  b.out.resize(sizeof(Elf64_Ehdr) + segments.size() * sizeof(Elf64_Phdr));
  std::vector<Elf64_Phdr> ph;
  std::vector<size_t> sec_index(u.sections.size(), 0);
  for (const auto &seg : segments) {
    Elf64_Phdr p{};
    p.p_type = PT_LOAD;
    p.p_align = kPageBytes;
    for (size_t i : seg) {
      const AsmSection &s = u.sections[i];
      const uint64_t addr = img.section_addr[i];
      // File offset congruent to the address modulo the page size.
      const uint64_t pad = (addr - b.out.size()) % kPageBytes;
      b.out.resize(b.out.size() + pad, 0);
      sec_index[i] = b.add_section(s.name, s.type, s.flags, addr, s.data.data(), s.size(), 1);
      b.shdrs[sec_index[i]].sh_addralign = std::max<uint64_t>(s.align, 1);
      if (i == seg.front()) {
        p.p_offset = b.shdrs[sec_index[i]].sh_offset;
        p.p_vaddr = p.p_paddr = addr;
        p.p_flags =
            PF_R | ((s.flags & SHF_WRITE) ? PF_W : 0) | ((s.flags & SHF_EXECINSTR) ? PF_X : 0);
      }
      if (s.type != SHT_NOBITS) p.p_filesz = addr + s.size() - p.p_vaddr;
      p.p_memsz = addr + s.size() - p.p_vaddr;
    }
    ph.push_back(p);
  }
  std::memcpy(b.out.data() + sizeof(Elf64_Ehdr), ph.data(), ph.size() * sizeof(Elf64_Phdr));
  const std::vector<uint8_t> attributes = riscv_attributes(u.rvc);
  b.add_section(".riscv.attributes", kShtRiscvAttributes, 0, 0, attributes.data(),
                attributes.size(), 1);
  // Symbol table with final addresses (no .L labels).
  std::string strtab{'\0'};
  std::vector<Elf64_Sym> syms{Elf64_Sym{}};
  for (int pass = 0; pass < 2; ++pass)
    for (const auto &a : u.symbols) {
      if (hidden_local(a) || (a.section < 0 && !a.absolute) || a.global != (pass == 1)) continue;
      Elf64_Sym s{};
      s.st_name = static_cast<uint32_t>(strtab.size());
      strtab += a.name;
      strtab += '\0';
      s.st_info = ELF64_ST_INFO(a.global ? STB_GLOBAL : STB_LOCAL, a.type);
      s.st_shndx =
          a.absolute ? SHN_ABS : static_cast<uint16_t>(sec_index[static_cast<size_t>(a.section)]);
      if (!a.absolute && s.st_shndx == 0) s.st_shndx = SHN_ABS;  // symbol in an empty section
      s.st_value = img.symbol_address(a);
      s.st_size = a.size;
      syms.push_back(s);
    }
  uint32_t first_global = 1;
  while (first_global < syms.size() && ELF64_ST_BIND(syms[first_global].st_info) == STB_LOCAL)
    ++first_global;
  const size_t strtab_idx =
      b.add_section(".strtab", SHT_STRTAB, 0, 0, strtab.data(), strtab.size(), 1);
  b.add_section(".symtab", SHT_SYMTAB, 0, 0, syms.data(), syms.size() * sizeof(Elf64_Sym), 8,
                static_cast<uint32_t>(strtab_idx), first_global, sizeof(Elf64_Sym));
  b.finish(eh);
  return b.out;
}

std::vector<uint8_t> assemble_text_bytes(std::string_view source, const std::string &filename) {
  LinkOptions opts;
  opts.text_base = 0;
  const LinkedImage img = link(assemble(source, filename), opts);
  for (const auto &s : img.unit.sections)
    if (s.name == ".text") return s.data;
  return {};
}

}  // namespace opforge::isa
