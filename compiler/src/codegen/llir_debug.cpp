//===- llir_debug.cpp - source lines of the emitted LLVM IR (line-tables-only debug info) ===//
//
// Each instruction the emitter writes carries `!dbg` with the Triton source
// line of the ttir op it was emitted for (no column: one row per statement
// line); code outside any op (the argument block's DMA) carries the
// kernel's `def` line. The module holds one DICompileUnit (emissionKind
// LineTablesOnly) and a DISubprogram for `_start` (each cold function gets
// its own when the backend outlines it, llvm_outline.cpp: a location's scope
// must be its function's subprogram), and the module flags "Dwarf Version"
// 4 and "Debug Info Version" 3, without which LLVM drops it. The object's
// .debug_line is read back into KernelBinary::lines (llvm_line_table.cpp).
// Metadata node ids start at kFirstId, above the emitter's other nodes (the
// LMUL flag and loop ids from 0).
//
//===----------------------------------------------------------------------===//
#include <cstdio>

#include "llir_emitter.h"

namespace opforge::compiler::llir {
namespace {

constexpr int kFirstId = 1 << 20;

// `s` as an LLVM IR string literal's contents.
std::string quoted(const std::string &s) {
  std::string out;
  for (unsigned char c : s) {
    if (c == '"' || c == '\\' || c < 0x20 || c >= 0x7f) {
      char buf[4];
      std::snprintf(buf, sizeof buf, "\\%02X", c);
      out += buf;
    } else {
      out += static_cast<char>(c);
    }
  }
  return out;
}

std::string ref(int id) { return "!" + std::to_string(id); }

}  // namespace

void Emitter::dbg_begin(const ttir::Function &f) {
  if (!line_table_) return;
  dbg_next_ = kFirstId;
  dbg_file_ = f.loc.file;
  def_line_ = f.loc.line;
  int file = dbg_next_++;
  dbg_files_[dbg_file_] = file;
  dbg_nodes_.push_back(ref(file) + " = !DIFile(filename: \"" + quoted(dbg_file_) +
                       "\", directory: \"\")");
  dbg_cu_ = dbg_next_++;
  dbg_nodes_.push_back(ref(dbg_cu_) +
                       " = distinct !DICompileUnit(language: DW_LANG_Python, file: " + ref(file) +
                       ", producer: \"opforge\", isOptimized: true, runtimeVersion: 0, "
                       "emissionKind: LineTablesOnly)");
  int types = dbg_next_++, type = dbg_next_++;
  dbg_nodes_.push_back(ref(types) + " = !{}");
  dbg_nodes_.push_back(ref(type) + " = !DISubroutineType(types: " + ref(types) + ")");
  dbg_sp_ = dbg_subprogram(f.name, "_start", def_line_);
  dbg_ = dbg_location(dbg_sp_, dbg_file_, def_line_);
}

int Emitter::dbg_subprogram(const std::string &name, const std::string &linkage, int line) {
  int file = dbg_files_.at(dbg_file_), id = dbg_next_++;
  // The subroutine type is the node after the compile unit (dbg_begin).
  dbg_nodes_.push_back(ref(id) + " = distinct !DISubprogram(name: \"" + quoted(name) +
                       "\", linkageName: \"" + quoted(linkage) + "\", scope: " + ref(file) +
                       ", file: " + ref(file) + ", line: " + std::to_string(line) +
                       ", type: " + ref(dbg_cu_ + 2) + ", scopeLine: " + std::to_string(line) +
                       ", spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: " + ref(dbg_cu_) +
                       ")");
  return id;
}

int Emitter::dbg_location(int sp, const std::string &file, int line) {
  auto key = std::make_tuple(sp, file, line);
  if (auto it = dbg_loc_ids_.find(key); it != dbg_loc_ids_.end()) return it->second;
  int scope = sp;
  if (file != dbg_file_) {  // a line of another file: a lexical block file of it
    auto f = dbg_files_.find(file);
    if (f == dbg_files_.end()) {
      f = dbg_files_.emplace(file, dbg_next_++).first;
      dbg_nodes_.push_back(ref(f->second) + " = !DIFile(filename: \"" + quoted(file) +
                           "\", directory: \"\")");
    }
    auto [s, fresh] = dbg_scopes_.emplace(std::make_pair(sp, file), 0);
    if (fresh) {
      s->second = dbg_next_++;
      dbg_nodes_.push_back(ref(s->second) + " = !DILexicalBlockFile(scope: " + ref(sp) +
                           ", file: " + ref(f->second) + ", discriminator: 0)");
    }
    scope = s->second;
  }
  int id = dbg_next_++;
  dbg_nodes_.push_back(ref(id) + " = !DILocation(line: " + std::to_string(line) +
                       ", column: 0, scope: " + ref(scope) + ")");
  dbg_loc_ids_[key] = id;
  return id;
}

Emitter::AtOp::AtOp(Emitter &em, const ttir::Location &loc) : e(em), saved(em.dbg_) {
  if (e.line_table_ && loc.line > 0)
    e.dbg_ = e.dbg_location(e.dbg_sp_, loc.file.empty() ? e.dbg_file_ : loc.file, loc.line);
}

std::string Emitter::dbg_metadata() const {
  std::string out;
  for (const std::string &n : dbg_nodes_) out += n + "\n";
  out += "!llvm.dbg.cu = !{" + ref(dbg_cu_) + "}\n";
  return out;
}

}  // namespace opforge::compiler::llir
