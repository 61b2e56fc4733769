//===- llvm_line_table.cpp - the DWARF line table of LLVM's kernel object ===//
//
// Reads .debug_line of the relocatable object llvm_ir_to_object() wrote
// (line-tables-only debug info, llir_debug.cpp) with LLVM's DWARFContext,
// which applies the object's relocations (the sequence's start address is
// a relocation against .text). Keeps the rows of .text as offsets in it,
// one row per change of line or file; link_kernel_object() relocates them
// to the linked kernel's PCs. An object without a line table (or one LLVM
// cannot read) gives none: the line table only names lines in errors.
//
//===----------------------------------------------------------------------===//
#include <llvm/DebugInfo/DWARF/DWARFContext.h>
#include <llvm/Object/ObjectFile.h>
#include <llvm/Support/MemoryBuffer.h>

#include "opforge/compiler/codegen.h"

namespace opforge::compiler {

ObjectLineTable object_line_table(const std::vector<uint8_t> &object) {
  ObjectLineTable out;
  llvm::MemoryBufferRef buffer(
      llvm::StringRef(reinterpret_cast<const char *>(object.data()), object.size()), "kernel.o");
  auto file = llvm::object::ObjectFile::createObjectFile(buffer);
  if (!file) {
    llvm::consumeError(file.takeError());
    return out;
  }
  uint64_t text = ~uint64_t{0};
  bool has_lines = false;
  for (const llvm::object::SectionRef &s : (*file)->sections()) {
    auto name = s.getName();
    if (!name) {
      llvm::consumeError(name.takeError());
      continue;
    }
    if (*name == ".text") text = s.getIndex();
    if (*name == ".debug_line") has_lines = true;
  }
  if (!has_lines || text == ~uint64_t{0}) return out;
  auto ignore = [](llvm::Error e) { llvm::consumeError(std::move(e)); };
  std::unique_ptr<llvm::DWARFContext> dwarf = llvm::DWARFContext::create(
      **file, llvm::DWARFContext::ProcessDebugRelocations::Process, nullptr, "", ignore, ignore);
  std::map<uint64_t, uint32_t> file_index;  // the table's file -> index in out.files
  for (const auto &unit : dwarf->compile_units()) {
    const llvm::DWARFDebugLine::LineTable *table = dwarf->getLineTableForUnit(unit.get());
    if (!table) continue;
    for (const llvm::DWARFDebugLine::Row &row : table->Rows) {
      if (row.Address.SectionIndex != text) continue;
      SourceLine l;
      l.pc = row.Address.Address;
      l.line = row.EndSequence ? 0 : row.Line;
      if (l.line) {
        auto [it, fresh] = file_index.emplace(row.File, out.files.size());
        if (fresh) {
          std::string name;
          table->getFileNameByIndex(row.File, "",
                                    llvm::DILineInfoSpecifier::FileLineInfoKind::RawValue, name);
          out.files.push_back(name);
        }
        l.file = it->second;
      }
      if (!out.rows.empty() && out.rows.back().pc == l.pc)
        out.rows.back() = l;  // the last row at an address holds there
      else if (out.rows.empty() || out.rows.back().line != l.line || out.rows.back().file != l.file)
        out.rows.push_back(l);
    }
  }
  std::stable_sort(out.rows.begin(), out.rows.end(),
                   [](const SourceLine &a, const SourceLine &b) { return a.pc < b.pc; });
  return out;
}

}  // namespace opforge::compiler
