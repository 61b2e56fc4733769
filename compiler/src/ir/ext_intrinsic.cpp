//===- ext_intrinsic.cpp - lookup and messages for tl.extra.mtia intrinsics ===//
#include "opforge/compiler/ext_intrinsic.h"

namespace opforge::compiler {

const isa::ExtInsn *find_ext_intrinsic(std::string_view name) {
  return isa::find_ext_intrinsic(name);
}

std::string ext_intrinsic_missing(std::string_view name) {
  return std::string(kExtIntrinsicPrefix) + std::string(name) +
         " needs an ISA extension that defines intrinsic '" + std::string(name) +
         "' (--isa-ext FILE)";
}

int ext_intrinsic_arity(const isa::ExtInsn &insn) {
  return insn.operands == isa::ExtOperands::V ? 1 : 2;
}

std::string ext_intrinsic_signature(const isa::ExtInsn &insn) {
  switch (insn.operands) {
    case isa::ExtOperands::V:
      return "x";
    case isa::ExtOperands::VV:
      return "x, y";
    case isa::ExtOperands::VF:
      return "x, scalar y";
  }
  return "x";
}

}  // namespace opforge::compiler
