//===- binary.cpp - the `bin` stage: link LLVM's object (or assembly) into a KernelBinary ===//
//
// LLVM's relocatable object is read back into an isa::AsmUnit (or, for the
// assembly path, the text is assembled by the ISA library's assembler) and
// linked by the ISA library's linker (text at TargetOptions::text_base, entry
// `_start`); a non-allocated .opforge.meta section carries the kernel's
// metadata JSON.
//
//===----------------------------------------------------------------------===//
#include <elf.h>

#include <algorithm>
#include <cstring>
#include <tuple>
#include <utility>

#include <nlohmann/json.hpp>

#include "opforge/compiler/codegen.h"
#include "opforge/isa/asm.h"
#include "opforge/isa/elf_writer.h"
#include "opforge/support/error.h"
#include "runtime_library.h"

namespace opforge::compiler {

std::vector<uint8_t> KernelBinary::pack_args(const std::vector<ArgValue> &values) const {
  if (values.size() != args.size())
    throw Error("kernel " + kernel + ": " + std::to_string(values.size()) + " arguments given, " +
                std::to_string(args.size()) + " expected");
  std::vector<uint8_t> block(arg_block_bytes, 0);
  for (size_t i = 0; i < args.size(); ++i) {
    const ArgSlot &s = args[i];
    const ArgValue &v = values[i];
    uint8_t *p = block.data() + s.offset_bytes;
    bool is_ptr = s.type.rfind("!tt.ptr", 0) == 0;
    bool is_float = s.type == "f32" || s.type == "f64" || s.type == "f16" || s.type == "bf16";
    if (is_ptr) {
      if (v.kind != ArgValue::Kind::Address)
        throw Error("kernel " + kernel + ": argument " + s.name + " needs a tensor");
      std::memcpy(p, &v.address, 8);
    } else if (is_float) {
      double d = v.kind == ArgValue::Kind::Float ? v.float_value : static_cast<double>(v.int_value);
      if (v.kind == ArgValue::Kind::Address)
        throw Error("kernel " + kernel + ": argument " + s.name + " needs a number");
      if (s.type == "f64")
        std::memcpy(p, &d, 8);
      else {
        float f = static_cast<float>(d);
        std::memcpy(p, &f, 4);
      }
    } else {
      if (v.kind != ArgValue::Kind::Int)
        throw Error("kernel " + kernel + ": argument " + s.name + " needs an integer");
      std::memcpy(p, &v.int_value, 8);
    }
  }
  return block;
}

namespace {

// An ELF64 little-endian RISC-V relocatable object (as LLVM's MC writes it)
// back into an isa::AsmUnit: its allocated sections, its symbols (section
// symbols get hidden .L names) and its RELA relocations as fixups, so the
// ISA library's linker lays it out exactly as it would the assembled text.
template <typename T>
T read_at(const std::vector<uint8_t> &elf, uint64_t offset, const std::string &file,
          const std::string &what) {
  if (offset > elf.size() || elf.size() - offset < sizeof(T))
    throw Error(file + ": " + what + " at offset " + std::to_string(offset) +
                " lies outside the object's " + std::to_string(elf.size()) + " bytes");
  T v;
  std::memcpy(&v, elf.data() + offset, sizeof(T));
  return v;
}

std::string string_at(const std::vector<uint8_t> &elf, const Elf64_Shdr &strtab, uint32_t index,
                      const std::string &file) {
  if (index >= strtab.sh_size || strtab.sh_offset + strtab.sh_size > elf.size())
    throw Error(file + ": string " + std::to_string(index) + " lies outside its string table");
  const char *p = reinterpret_cast<const char *>(elf.data() + strtab.sh_offset + index);
  return std::string(p, strnlen(p, strtab.sh_size - index));
}

}  // namespace

isa::AsmUnit read_relocatable_elf(const std::vector<uint8_t> &elf, const std::string &file) {
  auto eh = read_at<Elf64_Ehdr>(elf, 0, file, "ELF header");
  if (std::memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0 || eh.e_ident[EI_CLASS] != ELFCLASS64 ||
      eh.e_ident[EI_DATA] != ELFDATA2LSB || eh.e_type != ET_REL || eh.e_machine != EM_RISCV)
    throw Error(file + ": not an ELF64 little-endian RISC-V relocatable object");
  std::vector<Elf64_Shdr> sh(eh.e_shnum);
  for (size_t i = 0; i < sh.size(); ++i)
    sh[i] = read_at<Elf64_Shdr>(elf, eh.e_shoff + i * sizeof(Elf64_Shdr), file,
                                "section header " + std::to_string(i));
  if (eh.e_shstrndx >= sh.size()) throw Error(file + ": no section-name table");
  auto section_name = [&](size_t i) {
    return string_at(elf, sh[eh.e_shstrndx], sh[i].sh_name, file);
  };
  isa::AsmUnit unit;
  unit.filename = file;
  std::vector<int> unit_index(sh.size(), -1);  // ELF section -> unit section
  for (size_t i = 1; i < sh.size(); ++i) {
    if (!(sh[i].sh_flags & SHF_ALLOC)) continue;
    if (sh[i].sh_type != SHT_PROGBITS && sh[i].sh_type != SHT_NOBITS)
      throw Error(file + ": allocated section " + section_name(i) + " has type " +
                  std::to_string(sh[i].sh_type) + " (only PROGBITS and NOBITS are linked)");
    isa::AsmSection sec;
    sec.name = section_name(i);
    sec.type = sh[i].sh_type;
    sec.flags = sh[i].sh_flags & (SHF_ALLOC | SHF_WRITE | SHF_EXECINSTR);
    sec.align = std::max<uint64_t>(sh[i].sh_addralign, 1);
    if (sh[i].sh_type == SHT_NOBITS) {
      sec.nobits_size = sh[i].sh_size;
    } else {
      if (sh[i].sh_offset > elf.size() || elf.size() - sh[i].sh_offset < sh[i].sh_size)
        throw Error(file + ": section " + sec.name + " lies outside the object");
      sec.data.assign(elf.begin() + static_cast<std::ptrdiff_t>(sh[i].sh_offset),
                      elf.begin() + static_cast<std::ptrdiff_t>(sh[i].sh_offset + sh[i].sh_size));
    }
    unit_index[i] = static_cast<int>(unit.sections.size());
    unit.sections.push_back(std::move(sec));
  }
  // Symbols, by ELF index (0 and FILE symbols stay unnamed).
  std::vector<std::string> sym_name;
  for (size_t i = 1; i < sh.size(); ++i) {
    if (sh[i].sh_type != SHT_SYMTAB) continue;
    if (sh[i].sh_link >= sh.size()) throw Error(file + ": symbol table without string table");
    size_t n = sh[i].sh_size / sizeof(Elf64_Sym);
    sym_name.assign(n, "");
    for (size_t k = 1; k < n; ++k) {
      auto es = read_at<Elf64_Sym>(elf, sh[i].sh_offset + k * sizeof(Elf64_Sym), file,
                                   "symbol " + std::to_string(k));
      unsigned type = ELF64_ST_TYPE(es.st_info);
      if (type == STT_FILE) continue;
      isa::AsmSymbol a;
      a.name = type == STT_SECTION ? ".Lsection." + std::to_string(es.st_shndx)
                                   : string_at(elf, sh[sh[i].sh_link], es.st_name, file);
      a.global = ELF64_ST_BIND(es.st_info) != STB_LOCAL;
      a.type = static_cast<uint8_t>(type);
      a.size = es.st_size;
      a.value = es.st_value;
      // Unnamed local labels (LLVM's for the line table's addresses): only
      // the .debug_* relocations, which are not linked, name them.
      if (a.name.empty() && !a.global && type != STT_SECTION) continue;
      if (es.st_shndx == SHN_ABS) {
        a.absolute = true;
      } else if (es.st_shndx != SHN_UNDEF) {
        if (es.st_shndx >= sh.size() || unit_index[es.st_shndx] < 0) {
          // A section we do not link (.riscv.attributes, .debug_*), or a local
          // symbol in one (the line table's string offsets): only that
          // section's relocations, which are not linked either, name it.
          if (type == STT_SECTION || !a.global) continue;
          throw Error(file + ": symbol " + a.name + " lies in section " +
                      section_name(es.st_shndx) + ", which is not linked");
        }
        a.section = unit_index[es.st_shndx];
      }
      sym_name[k] = a.name;
      unit.symbols.push_back(std::move(a));
    }
  }
  for (size_t i = 1; i < sh.size(); ++i) {
    if (sh[i].sh_type == SHT_REL)
      throw Error(file + ": REL relocations (" + section_name(i) + ") are not supported");
    if (sh[i].sh_type != SHT_RELA || sh[i].sh_info >= sh.size()) continue;
    int target = unit_index[sh[i].sh_info];
    if (target < 0) continue;  // relocations of a section we do not link
    size_t n = sh[i].sh_size / sizeof(Elf64_Rela);
    for (size_t k = 0; k < n; ++k) {
      auto r = read_at<Elf64_Rela>(elf, sh[i].sh_offset + k * sizeof(Elf64_Rela), file,
                                   "relocation " + std::to_string(k));
      uint32_t type = static_cast<uint32_t>(ELF64_R_TYPE(r.r_info));
      size_t sym = ELF64_R_SYM(r.r_info);
      switch (type) {
        case R_RISCV_BRANCH:
        case R_RISCV_JAL:
        case R_RISCV_CALL:
        case R_RISCV_CALL_PLT:
        case R_RISCV_PCREL_HI20:
        case R_RISCV_PCREL_LO12_I:
        case R_RISCV_PCREL_LO12_S:
        case R_RISCV_HI20:
        case R_RISCV_LO12_I:
        case R_RISCV_LO12_S:
        case R_RISCV_32:
        case R_RISCV_64:
          break;
        default:
          throw Error(file + ": relocation type " + std::to_string(type) + " at " +
                      section_name(sh[i].sh_info) + "+" + std::to_string(r.r_offset) +
                      " is not supported by the kernel linker");
      }
      if (sym == 0 || sym >= sym_name.size() || sym_name[sym].empty())
        throw Error(file + ": relocation at " + section_name(sh[i].sh_info) + "+" +
                    std::to_string(r.r_offset) + " names symbol " + std::to_string(sym) +
                    ", which the object does not define");
      isa::Fixup f;
      f.type = type;
      f.offset = r.r_offset;
      f.symbol = sym_name[sym];
      f.addend = r.r_addend;
      if ((type == R_RISCV_PCREL_LO12_I || type == R_RISCV_PCREL_LO12_S) && f.addend != 0) {
        // The linker finds the %pcrel_hi by the label's address: name the
        // labelled place (symbol + addend) with a label of its own.
        const isa::AsmSymbol *base = unit.find_symbol(f.symbol);
        if (!base || base->section < 0)
          throw Error(file + ": %pcrel_lo relocation against " + f.symbol + " without a section");
        isa::AsmSymbol label;
        label.name = ".Lpcrel_lo_target." + std::to_string(unit.symbols.size());
        label.section = base->section;
        label.value = base->value + static_cast<uint64_t>(f.addend);
        f.symbol = label.name;
        f.addend = 0;
        unit.symbols.push_back(std::move(label));
      }
      unit.sections[static_cast<size_t>(target)].fixups.push_back(std::move(f));
    }
  }
  return unit;
}

namespace {

// The KernelBinary fields that come from the plan, and the metadata JSON.
KernelBinary describe(const LoweredKernelPlan &plan, const std::string &spec_key,
                      const TargetOptions &target) {
  KernelBinary b;
  b.kernel = plan.function->name;
  b.args = plan.args;
  b.arg_block_bytes = static_cast<uint32_t>(plan.args.size() * 8);
  b.spec_key = spec_key;
  b.local_mem_bytes = plan.local_mem_bytes;
  b.stack_bytes = plan.stack_bytes;
  b.warnings = plan.warnings;
  if (plan.spill_bytes > 0) {  // the scratch base: a hidden slot after the arguments
    b.spill_bytes = plan.spill_bytes;
    b.spill_arg_offset = b.arg_block_bytes;
    b.arg_block_bytes += 8;
  }
  b.text_base = target.text_base;
  nlohmann::json meta;
  meta["kernel"] = b.kernel;
  meta["spec_key"] = spec_key;
  meta["target"] = target.key();
  meta["runtime"] = runtime_library_key();
  meta["local_mem_bytes"] = b.local_mem_bytes;
  meta["arg_block_bytes"] = b.arg_block_bytes;
  if (b.stack_bytes) meta["stack_bytes"] = b.stack_bytes;
  if (b.spill_bytes) {
    meta["spill_bytes_per_pe"] = b.spill_bytes;
    meta["spill_arg_offset"] = b.spill_arg_offset;
  }
  for (auto &a : b.args)
    meta["args"].push_back({{"name", a.name}, {"type", a.type}, {"offset", a.offset_bytes}});
  b.metadata_json = meta.dump();
  return b;
}

// Links the unit (text at target.text_base, entry `_start`), with the runtime
// library when it calls a routine of it, into b.elf; the
// entry address is the executable's e_entry. Symbols go in address order
// (section, offset, name): the object path lists them in LLVM's symbol-table
// order, the assembly path in label order, and both must give the same ELF.
void link_into(KernelBinary &b, isa::AsmUnit unit, const TargetOptions &target) {
  isa::LinkOptions lo;
  lo.text_base = target.text_base;
  lo.entry_symbol = "_start";
  link_runtime_library(unit, target);
  std::stable_sort(unit.symbols.begin(), unit.symbols.end(),
                   [](const isa::AsmSymbol &x, const isa::AsmSymbol &y) {
                     return std::tie(x.section, x.value, x.name) <
                            std::tie(y.section, y.value, y.name);
                   });
  b.elf = isa::link_executable(unit, lo);
  if (b.elf.size() < 32) throw Error("kernel " + b.kernel + ": the linker wrote no ELF header");
  std::memcpy(&b.entry, b.elf.data() + 24, 8);  // Elf64_Ehdr::e_entry
}

}  // namespace

KernelBinary link_kernel_binary(const std::string &asm_text, const LoweredKernelPlan &plan,
                                const std::string &spec_key, const TargetOptions &target) {
  KernelBinary b = describe(plan, spec_key, target);
  std::string escaped;
  for (char c : b.metadata_json) {
    if (c == '"' || c == '\\') escaped += '\\';
    escaped += c;
  }
  b.asm_text =
      asm_text + "\n\t.section .opforge.meta,\"\",@progbits\n\t.ascii \"" + escaped + "\"\n";
  // LLVM prints whole-register loads with the short aliases vl<N>r.v (GNU as
  // takes them); spell them as the element-width form vl<N>re8.v.
  for (const char *n : {"1", "2", "4", "8"}) {
    std::string from = std::string("\tvl") + n + "r.v\t", to = std::string("\tvl") + n + "re8.v\t";
    for (size_t pos = 0; (pos = b.asm_text.find(from, pos)) != std::string::npos; pos += to.size())
      b.asm_text.replace(pos, from.size(), to);
  }
  link_into(b, isa::assemble(b.asm_text, b.kernel + ".s"), target);
  return b;
}

KernelBinary link_kernel_object(const std::vector<uint8_t> &object, const LoweredKernelPlan &plan,
                                const std::string &spec_key, const TargetOptions &target) {
  KernelBinary b = describe(plan, spec_key, target);
  isa::AsmUnit unit = read_relocatable_elf(object, b.kernel + ".o");
  // The kernel's code: the section holding _start, linked as one piece.
  uint64_t start_offset = 0, code_bytes = 0;
  if (const isa::AsmSymbol *start = unit.find_symbol("_start"); start && start->section >= 0) {
    start_offset = start->value;
    code_bytes = unit.sections[static_cast<size_t>(start->section)].data.size();
  }
  // As the assembler places `.section .opforge.meta,""` (link_kernel_binary):
  // allocated and writable, so the metadata travels in the loaded image.
  isa::AsmSection meta;
  meta.name = ".opforge.meta";
  meta.flags = SHF_ALLOC | SHF_WRITE;
  meta.data.assign(b.metadata_json.begin(), b.metadata_json.end());
  unit.sections.push_back(std::move(meta));
  link_into(b, std::move(unit), target);
  b.code_begin = b.entry - start_offset;
  b.code_end = b.code_begin + code_bytes;
  ObjectLineTable table = object_line_table(object);
  b.source_files = std::move(table.files);
  b.lines = std::move(table.rows);
  for (SourceLine &l : b.lines) l.pc += b.code_begin;
  return b;
}

void KernelBinary::set_spill_base(std::vector<uint8_t> &block, uint64_t base) const {
  if (spill_bytes <= 0) return;
  if (block.size() < spill_arg_offset + 8u)
    throw Error("kernel " + kernel + ": argument block of " + std::to_string(block.size()) +
                " bytes has no spill scratch slot at " + std::to_string(spill_arg_offset));
  std::memcpy(block.data() + spill_arg_offset, &base, 8);
}

const SourceLine *KernelBinary::line_at(uint64_t pc) const {
  if (pc < code_begin || pc >= code_end) return nullptr;
  auto it = std::upper_bound(lines.begin(), lines.end(), pc,
                             [](uint64_t p, const SourceLine &l) { return p < l.pc; });
  if (it == lines.begin()) return nullptr;
  --it;
  return it->line && it->file < source_files.size() ? &*it : nullptr;
}

}  // namespace opforge::compiler
