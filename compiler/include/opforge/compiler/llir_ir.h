//===- llir_ir.h - the LLVM IR emitter's structured record of the code it writes ===//
//
// The emitter (compiler/src/codegen/llir_*.cpp) does not keep its output as
// one growing string that later steps search: every instruction is an Inst
// record (the value it defines, its text, its source line's location node,
// what it is to later steps), kept in the blocks of an IrBody, and every fact
// a later step needs is read from these records: the kernel's cold regions
// (outlined by LLVM's CodeExtractor, llvm_outline.cpp), the helpers the code
// calls (the fp16 helpers are appended only then), the definition order of
// values (the register-pressure estimate that picks the LMUL), where to cut
// an abandoned strip loop. The text is printed once, at the end (print()).
// Values the emitter folds or tests (a rectangle's bounds and checks, DMA
// tags, descriptor fields) are LlVals: a constant is known from the record.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace opforge::compiler::llir {

// A value of the emitted IR as the emitter knows it: how instructions refer
// to it, its LLVM type and, for an integer or i1 constant, its value. Folding
// and "is it known to hold?" read `constant`, never the text.
struct LlVal {
  std::string ref;                  // "%t4", "7", "true"
  std::string type;                 // "i64", "i1", ...
  std::optional<int64_t> constant;  // an integer constant's value (i1: 0 or 1)

  // A value an instruction defines (or any value not known to be constant).
  static LlVal of(std::string ref, std::string type) {
    return {std::move(ref), std::move(type), std::nullopt};
  }
  // The constant `v` of integer type `type` (i1: "true"/"false").
  static LlVal integer(int64_t v, std::string type = "i64") {
    if (type == "i1") return boolean(v & 1);
    return {std::to_string(v), std::move(type), v};
  }
  static LlVal boolean(bool b) { return {b ? "true" : "false", "i1", b ? 1 : 0}; }
  // Is it the constant `c`?
  bool is(int64_t c) const { return constant && *constant == c; }
  // "<type> <ref>", an instruction's operand.
  std::string typed() const { return type + " " + ref; }
};

// What an instruction is to later steps besides its text.
enum class InstRole : unsigned char {
  Plain,
  ColdEntry,  // the branch into a cold region (metadata !opforge.cold !{!"<function>"})
  ColdExit,   // the branch out of it (metadata !opforge.cold.end)
};

// Metadata kinds marking a cold region's branches in the printed IR.
inline constexpr const char *kColdEntryMd = "opforge.cold";
inline constexpr const char *kColdExitMd = "opforge.cold.end";

struct Inst {
  Inst() = default;
  Inst(std::string def_, std::string text_, int dbg_ = 0, InstRole role_ = InstRole::Plain,
       std::string callee_ = {})
      : def(std::move(def_)),
        text(std::move(text_)),
        dbg(dbg_),
        role(role_),
        callee(std::move(callee_)) {}

  std::string def;   // the SSA value it defines ("%t4"); empty when none
  std::string text;  // the instruction after "<def> = "
  int dbg = 0;       // its !DILocation node (0: no location)
  InstRole role = InstRole::Plain;
  // A helper of the module it calls (without '@'); for a ColdEntry branch,
  // the function its region becomes. Empty otherwise.
  std::string callee;

  // "  <def> = <text>[, !opforge.cold !{!"<callee>"}][, !dbg !N]\n" appended to `out`.
  void print(std::string &out) const;
};

struct IrBlock {
  std::string label;
  std::vector<Inst> insts;
};

// A rarely taken path: blocks [first_block, last_block] of the body, entered
// from the block before by a ColdEntry branch, left by last_block's ColdExit
// branch, and outlined into `function` (noinline optnone) by the backend.
struct ColdRegion {
  size_t first_block = 0, last_block = 0;
  std::string function;
};

// A function body under construction: instructions go to the last block.
class IrBody {
 public:
  explicit IrBody(std::string first_label = "body") {
    blocks_.push_back({std::move(first_label), {}});
  }
  void add(Inst i) { blocks_.back().insts.push_back(std::move(i)); }
  Inst &back() { return blocks_.back().insts.back(); }
  void start(std::string label) { blocks_.push_back({std::move(label), {}}); }
  const std::vector<IrBlock> &blocks() const { return blocks_; }
  size_t block_count() const { return blocks_.size(); }

  // A position in the body; cut() drops everything added after it.
  struct Mark {
    size_t blocks = 0, insts = 0;
  };
  Mark mark() const { return {blocks_.size(), blocks_.back().insts.size()}; }
  void cut(Mark m) {
    blocks_.resize(m.blocks);
    blocks_.back().insts.resize(m.insts);
  }

  // Does an instruction call helper `name`?
  bool calls(const std::string &name) const;
  // The body as LLVM IR text (its first block's label included).
  void print(std::string &out) const;

 private:
  std::vector<IrBlock> blocks_;
};

}  // namespace opforge::compiler::llir
