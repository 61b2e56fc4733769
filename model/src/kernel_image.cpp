//===- kernel_image.cpp - ELF64 RISC-V executable reader ------------------===//
#include "opforge/model/kernel_image.h"

#include <cstring>
#include <fstream>
#include <iterator>

#include "opforge/support/budgets.h"
#include "opforge/support/error.h"

namespace opforge::model {
namespace {

template <class T>
T get(const std::vector<uint8_t> &b, uint64_t off, const std::string &origin, const char *field) {
  if (off > b.size() || b.size() - off < sizeof(T))
    throw Error(std::string("truncated ELF reading ") + field,
                ErrorContext{origin, field, {}, {}, {}});
  T v;
  std::memcpy(&v, b.data() + off, sizeof(T));
  return v;
}

}  // namespace

KernelImage KernelImage::from_code(std::vector<uint8_t> code, uint64_t addr) {
  KernelImage k;
  k.entry = addr;
  k.origin = "<code>";
  KernelSegment s;
  s.addr = addr;
  s.mem_bytes = code.size();
  s.bytes = std::move(code);
  k.segments.push_back(std::move(s));
  return k;
}

KernelImage read_elf(const std::vector<uint8_t> &b, const std::string &origin) {
  auto fail = [&](const char *field, const std::string &msg) -> void {
    throw Error(msg, ErrorContext{origin, field, {}, {}, {}});
  };
  if (b.size() < 64 || std::memcmp(b.data(),
                                   "\x7f"
                                   "ELF",
                                   4) != 0)
    fail("e_ident", "not an ELF file");
  if (b[4] != 2) fail("e_ident[EI_CLASS]", "not a 64-bit ELF");
  if (b[5] != 1) fail("e_ident[EI_DATA]", "not little endian");
  if (get<uint16_t>(b, 18, origin, "e_machine") != 243) fail("e_machine", "not a RISC-V ELF");
  uint16_t type = get<uint16_t>(b, 16, origin, "e_type");
  if (type != 2) fail("e_type", "not an executable (ET_EXEC)");
  KernelImage k;
  k.origin = origin;
  k.entry = get<uint64_t>(b, 24, origin, "e_entry");
  uint64_t phoff = get<uint64_t>(b, 32, origin, "e_phoff");
  uint64_t shoff = get<uint64_t>(b, 40, origin, "e_shoff");
  uint16_t phentsize = get<uint16_t>(b, 54, origin, "e_phentsize");
  uint16_t phnum = get<uint16_t>(b, 56, origin, "e_phnum");
  uint16_t shentsize = get<uint16_t>(b, 58, origin, "e_shentsize");
  uint16_t shnum = get<uint16_t>(b, 60, origin, "e_shnum");
  if (phnum && phentsize < 56) fail("e_phentsize", "program header entries too small");
  for (uint16_t i = 0; i < phnum; ++i) {
    uint64_t ph = phoff + uint64_t(i) * phentsize;
    if (get<uint32_t>(b, ph, origin, "p_type") != 1) continue;  // PT_LOAD
    uint64_t off = get<uint64_t>(b, ph + 8, origin, "p_offset");
    uint64_t vaddr = get<uint64_t>(b, ph + 16, origin, "p_vaddr");
    uint64_t paddr = get<uint64_t>(b, ph + 24, origin, "p_paddr");
    uint64_t filesz = get<uint64_t>(b, ph + 32, origin, "p_filesz");
    uint64_t memsz = get<uint64_t>(b, ph + 40, origin, "p_memsz");
    (void)vaddr;
    if (off > b.size() || filesz > b.size() - off)
      fail("p_filesz", "segment extends past the end of the file");
    if (memsz < filesz) fail("p_memsz", "smaller than p_filesz");
    if (memsz == 0) continue;
    if (memsz > static_cast<uint64_t>(budgets().elf_segment_bytes))
      fail("p_memsz", std::to_string(memsz) + " bytes: " +
                          budget_exceeded("ELF loader", "segment budget",
                                          &Budgets::elf_segment_bytes, "bytes"));
    KernelSegment s;
    s.addr = paddr;
    s.mem_bytes = memsz;
    s.bytes.assign(b.begin() + off, b.begin() + off + filesz);
    k.segments.push_back(std::move(s));
  }
  if (k.segments.empty()) fail("e_phnum", "no loadable segment");
  // Symbol `tohost` (HTIF), if any.
  if (shnum && shentsize >= 64) {
    for (uint16_t i = 0; i < shnum; ++i) {
      uint64_t sh = shoff + uint64_t(i) * shentsize;
      if (get<uint32_t>(b, sh + 4, origin, "sh_type") != 2) continue;  // SHT_SYMTAB
      uint64_t symoff = get<uint64_t>(b, sh + 24, origin, "sh_offset");
      uint64_t symsize = get<uint64_t>(b, sh + 32, origin, "sh_size");
      uint32_t strndx = get<uint32_t>(b, sh + 40, origin, "sh_link");
      uint64_t entsize = get<uint64_t>(b, sh + 56, origin, "sh_entsize");
      if (entsize < 24 || strndx >= shnum) fail("sh_entsize", "malformed symbol table");
      uint64_t strsh = shoff + uint64_t(strndx) * shentsize;
      uint64_t stroff = get<uint64_t>(b, strsh + 24, origin, "sh_offset");
      uint64_t strsize = get<uint64_t>(b, strsh + 32, origin, "sh_size");
      if (stroff > b.size() || strsize > b.size() - stroff)
        fail("sh_size", "string table past the end of the file");
      for (uint64_t e = 0; e + entsize <= symsize; e += entsize) {
        uint32_t name = get<uint32_t>(b, symoff + e, origin, "st_name");
        if (name >= strsize) continue;
        const char *s = reinterpret_cast<const char *>(b.data() + stroff + name);
        size_t maxlen = strsize - name;
        if (strnlen(s, maxlen) == 6 && std::memcmp(s, "tohost", 6) == 0)
          k.tohost = get<uint64_t>(b, symoff + e + 8, origin, "st_value");
      }
    }
  }
  return k;
}

KernelImage read_elf_file(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error("cannot open program file", ErrorContext{path, "", {}, {}, {}});
  std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)),
                             std::istreambuf_iterator<char>());
  return read_elf(bytes, path);
}

}  // namespace opforge::model
