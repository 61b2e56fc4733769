//===- asm_internal.h - the assembler's state shared by its source files ---===//
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "opforge/isa/asm.h"
#include "opforge/isa/spec.h"

namespace opforge::isa::asmimpl {

// Relocation modifiers written as %name(expr).
enum class Mod { None, Hi, Lo, PcrelHi, PcrelLo };

// An evaluated expression: sym + add (sym empty: an absolute constant).
struct Value {
  std::string sym;
  int64_t add = 0;
  Mod mod = Mod::None;
  bool absolute() const { return sym.empty(); }
};

// One operand as written, with its 1-based column.
struct Operand {
  std::string text;
  int col = 0;
};

// One statement kept from pass 1 for encoding in pass 2.
struct Stmt {
  std::string mnemonic;
  std::vector<Operand> ops;
  SourcePos pos;
  int section = 0;
  uint64_t offset = 0;
  uint64_t size = 0;    // bytes reserved in pass 1
  int label_epoch = 0;  // numeric labels defined before this statement
  int data_width = 0;   // >0: a data directive element of this many bytes
};

class Assembler {
 public:
  Assembler(std::string_view source, std::string filename, const AsmOptions &options = {});
  AsmUnit run();

  // --- used by the instruction encoder (asm_insn.cpp) ---
  [[noreturn]] void error(SourcePos pos, const std::string &msg) const;
  Value eval(const Operand &op, const Stmt &st) const;  // expression, maybe with a %modifier
  int64_t eval_const(const Operand &op, const Stmt &st) const;  // must be an absolute constant
  // Symbol defined in the same section as `st`: its offset.
  bool local_offset(const std::string &sym, const Stmt &st, uint64_t &offset) const;
  void put_word(const Stmt &st, uint64_t at, uint32_t word);
  void put_half(const Stmt &st, uint64_t at, uint16_t half);  // a compressed instruction
  void add_fixup(const Stmt &st, uint64_t at, uint32_t type, const std::string &sym, int64_t add);
  std::string make_local_label(const Stmt &st, uint64_t at);  // a hidden label at st.offset + at

  // Size of an instruction or pseudo-instruction statement (pass 1).
  uint64_t insn_size(const Stmt &st) const;
  // Encode an instruction statement (pass 2).
  void emit_insn(const Stmt &st);

 private:
  friend struct ExprParser;
  void pass1();
  void pass2();
  void parse_line(std::string_view line, int line_no);
  void directive(const std::string &name, const std::vector<Operand> &ops, SourcePos pos);
  void define_label(const std::string &name, SourcePos pos);
  int symbol_index(const std::string &name, SourcePos pos);
  void switch_section(const std::string &name, const std::string &flags, SourcePos pos);
  void align_to(uint64_t bytes, SourcePos pos);
  void reserve(Stmt st);
  std::string resolve_numeric(const std::string &ref, const Stmt &st, SourcePos pos) const;

  std::string source_;
  std::string filename_;
  AsmUnit unit_;
  int cur_ = 0;  // current section
  std::vector<Stmt> stmts_;
  std::map<std::string, int> sym_index_;
  // Numeric local labels: label number -> (definition sequence, unique name).
  std::map<int, std::vector<std::pair<int, std::string>>> numeric_;
  int numeric_seq_ = 0;
  int hidden_ = 0;
  int line_no_ = 0;
  // `.option rvc` / `.option norvc` (and push/pop): compressed c.* mnemonics
  // are accepted and code may sit at 2-byte offsets. Off by default; the
  // assembler never compresses base instructions by itself.
  bool rvc_ = false;
  bool rvc_seen_ = false;  // once on, code may sit at 2-byte offsets (also under norvc)
  std::vector<bool> option_stack_;
};

// Split "a, b(c), d" at top-level commas; columns are 1-based in the line.
std::vector<Operand> split_operands(std::string_view text, int first_col);

}  // namespace opforge::isa::asmimpl
