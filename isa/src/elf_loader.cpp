//===- elf_loader.cpp - validate and load static RISC-V ELF64 executables --===//
#include "opforge/isa/elf_loader.h"

#include <cstring>
#include <fstream>
#include <iterator>

#include "opforge/support/budgets.h"
#include "opforge/support/error.h"

namespace opforge::isa {

namespace {
constexpr uint16_t kEmRiscv = 243;
constexpr uint16_t kEtExec = 2, kEtDyn = 3;
constexpr uint32_t kPtLoad = 1, kPtDynamic = 2, kPtInterp = 3;
constexpr uint32_t kShtSymtab = 2;

class Reader {
 public:
  Reader(std::span<const uint8_t> b, const std::string &name) : b_(b), name_(name) {}
  [[noreturn]] void fail(const std::string &what) const {
    throw Error("not a loadable ELF: " + what).with_file(name_);
  }
  void need(uint64_t off, uint64_t len, const char *what) const {
    if (off > b_.size() || len > b_.size() - off)
      fail(std::string(what) + " at offset " + std::to_string(off) + " (+" + std::to_string(len) +
           " bytes) lies beyond the end of the file (" + std::to_string(b_.size()) +
           " bytes; truncated?)");
  }
  template <class T>
  T get(uint64_t off, const char *what) const {
    need(off, sizeof(T), what);
    T v;
    std::memcpy(&v, b_.data() + off, sizeof(T));
    return v;
  }
  std::span<const uint8_t> bytes() const { return b_; }

 private:
  std::span<const uint8_t> b_;
  const std::string &name_;
};
}  // namespace

uint64_t ElfImage::low_addr() const {
  uint64_t lo = UINT64_MAX;
  for (const auto &s : segments) lo = std::min(lo, s.vaddr);
  return segments.empty() ? 0 : lo;
}
uint64_t ElfImage::high_addr() const {
  uint64_t hi = 0;
  for (const auto &s : segments) hi = std::max(hi, s.vaddr + s.memsz);
  return hi;
}

ElfImage parse_elf(std::span<const uint8_t> b, const std::string &name) {
  Reader r(b, name);
  if (b.size() < 64) {
    if (b.size() >= 4 && std::memcmp(b.data(),
                                     "\x7f"
                                     "ELF",
                                     4) == 0)
      r.fail("file is " + std::to_string(b.size()) +
             " bytes, shorter than the 64-byte ELF64 header (truncated)");
    r.fail("file is too short to be an ELF file (" + std::to_string(b.size()) + " bytes)");
  }
  if (std::memcmp(b.data(),
                  "\x7f"
                  "ELF",
                  4) != 0)
    r.fail("bad magic (the file does not start with \\x7fELF)");
  if (b[4] != 2)
    r.fail(b[4] == 1 ? "ELFCLASS32 file; RV64 needs ELFCLASS64"
                     : "unknown ELF class " + std::to_string(b[4]));
  if (b[5] != 1) r.fail("not little endian (EI_DATA = " + std::to_string(b[5]) + ")");
  if (b[6] != 1) r.fail("unknown ELF version " + std::to_string(b[6]));
  const uint16_t type = r.get<uint16_t>(16, "e_type");
  const uint16_t machine = r.get<uint16_t>(18, "e_machine");
  if (machine != kEmRiscv)
    r.fail("e_machine is " + std::to_string(machine) + ", not RISC-V (" + std::to_string(kEmRiscv) +
           ")");
  if (type == kEtDyn)
    r.fail("position-independent or shared object (ET_DYN); only static executables are supported");
  if (type != kEtExec)
    r.fail("e_type is " + std::to_string(type) + ", not an executable (ET_EXEC)");

  ElfImage img;
  img.path = name;
  img.entry = r.get<uint64_t>(24, "e_entry");
  const uint64_t phoff = r.get<uint64_t>(32, "e_phoff");
  const uint64_t shoff = r.get<uint64_t>(40, "e_shoff");
  const uint16_t phentsize = r.get<uint16_t>(54, "e_phentsize");
  const uint16_t phnum = r.get<uint16_t>(56, "e_phnum");
  const uint16_t shentsize = r.get<uint16_t>(58, "e_shentsize");
  const uint16_t shnum = r.get<uint16_t>(60, "e_shnum");
  if (phnum == 0) r.fail("no program headers");
  if (phentsize != 56) r.fail("e_phentsize is " + std::to_string(phentsize) + ", expected 56");
  r.need(phoff, uint64_t(phnum) * phentsize, "program header table");

  for (uint16_t k = 0; k < phnum; ++k) {
    const uint64_t ph = phoff + uint64_t(k) * phentsize;
    const uint32_t ptype = r.get<uint32_t>(ph, "p_type");
    if (ptype == kPtInterp || ptype == kPtDynamic)
      r.fail("dynamically linked (has PT_INTERP/PT_DYNAMIC); link with -static");
    if (ptype != kPtLoad) continue;
    ElfSegment s;
    s.flags = r.get<uint32_t>(ph + 4, "p_flags");
    const uint64_t off = r.get<uint64_t>(ph + 8, "p_offset");
    s.vaddr = r.get<uint64_t>(ph + 16, "p_vaddr");
    const uint64_t filesz = r.get<uint64_t>(ph + 32, "p_filesz");
    s.memsz = r.get<uint64_t>(ph + 40, "p_memsz");
    const std::string which = "program header " + std::to_string(k);
    if (filesz > s.memsz)
      r.fail(which + ": p_filesz " + std::to_string(filesz) + " exceeds p_memsz " +
             std::to_string(s.memsz));
    if (s.vaddr + s.memsz < s.vaddr) r.fail(which + ": segment wraps around the address space");
    if (s.memsz > static_cast<uint64_t>(budgets().elf_segment_bytes))
      r.fail(which + ": p_memsz " + std::to_string(s.memsz) + ": " +
             budget_exceeded("ELF loader", "segment budget", &Budgets::elf_segment_bytes, "bytes"));
    r.need(off, filesz, (which + " data").c_str());
    s.data.assign(b.begin() + static_cast<long>(off), b.begin() + static_cast<long>(off + filesz));
    if (s.memsz) img.segments.push_back(std::move(s));
  }
  if (img.segments.empty()) r.fail("no loadable (PT_LOAD) segments");

  // Symbols (optional: a stripped file simply has no tohost).
  if (shoff != 0 && shnum != 0) {
    if (shentsize != 64) r.fail("e_shentsize is " + std::to_string(shentsize) + ", expected 64");
    r.need(shoff, uint64_t(shnum) * shentsize, "section header table");
    for (uint16_t k = 0; k < shnum; ++k) {
      const uint64_t sh = shoff + uint64_t(k) * shentsize;
      if (r.get<uint32_t>(sh + 4, "sh_type") != kShtSymtab) continue;
      const uint64_t sym_off = r.get<uint64_t>(sh + 24, "sh_offset");
      const uint64_t sym_size = r.get<uint64_t>(sh + 32, "sh_size");
      const uint32_t link = r.get<uint32_t>(sh + 40, "sh_link");
      if (link >= shnum)
        r.fail("symbol table links to section " + std::to_string(link) + " of " +
               std::to_string(shnum));
      const uint64_t str_sh = shoff + uint64_t(link) * shentsize;
      const uint64_t str_off = r.get<uint64_t>(str_sh + 24, "sh_offset");
      const uint64_t str_size = r.get<uint64_t>(str_sh + 32, "sh_size");
      r.need(sym_off, sym_size, "symbol table");
      r.need(str_off, str_size, "string table");
      for (uint64_t e = sym_off; e + 24 <= sym_off + sym_size; e += 24) {
        const uint32_t name_idx = r.get<uint32_t>(e, "st_name");
        const uint16_t shndx = r.get<uint16_t>(e + 6, "st_shndx");
        const uint64_t value = r.get<uint64_t>(e + 8, "st_value");
        if (name_idx == 0 || shndx == 0 || name_idx >= str_size) continue;
        const char *s = reinterpret_cast<const char *>(b.data() + str_off + name_idx);
        const size_t max_len = str_size - name_idx;
        const size_t len = strnlen(s, max_len);
        if (len == max_len) r.fail("symbol name runs past the end of the string table");
        img.symbols.emplace(std::string(s, len), value);
      }
    }
  }
  if (auto it = img.symbols.find("tohost"); it != img.symbols.end()) img.tohost = it->second;
  if (auto it = img.symbols.find("fromhost"); it != img.symbols.end()) img.fromhost = it->second;
  return img;
}

ElfImage read_elf(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error("cannot open ELF file").with_file(path);
  std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)),
                             std::istreambuf_iterator<char>());
  return parse_elf(bytes, path);
}

void load_elf(const ElfImage &img, MemoryIf &mem) {
  for (const auto &s : img.segments) {
    std::vector<uint8_t> buf(s.data);
    buf.resize(s.memsz, 0);
    if (!mem.store(s.vaddr, buf.data(), buf.size())) {
      char msg[160];
      std::snprintf(msg, sizeof msg, "segment [0x%llx, 0x%llx) does not fit the target memory",
                    static_cast<unsigned long long>(s.vaddr),
                    static_cast<unsigned long long>(s.vaddr + s.memsz));
      throw Error(msg).with_file(img.path);
    }
  }
}

}  // namespace opforge::isa
