//===- llir_ir.cpp - printing the emitter's instruction records as LLVM IR text ===//
#include "opforge/compiler/llir_ir.h"

namespace opforge::compiler::llir {

void Inst::print(std::string &out) const {
  out += "  ";
  if (!def.empty()) {
    out += def;
    out += " = ";
  }
  out += text;
  if (role == InstRole::ColdEntry) {
    out += ", !";
    out += kColdEntryMd;
    out += " !{!\"";
    out += callee;
    out += "\"}";
  } else if (role == InstRole::ColdExit) {
    out += ", !";
    out += kColdExitMd;
    out += " !{}";
  }
  if (dbg) {
    out += ", !dbg !";
    out += std::to_string(dbg);
  }
  out += '\n';
}

bool IrBody::calls(const std::string &name) const {
  for (const IrBlock &b : blocks_)
    for (const Inst &i : b.insts)
      if (i.role == InstRole::Plain && i.callee == name) return true;
  return false;
}

void IrBody::print(std::string &out) const {
  for (const IrBlock &b : blocks_) {
    out += b.label;
    out += ":\n";
    for (const Inst &i : b.insts) i.print(out);
  }
}

}  // namespace opforge::compiler::llir
