//===- ir_printer.h - ttir textual form (printing) ----------------------===//
//
// One operation per line:
//   [%r0, %r1 =] op.name [%a, %b] [{attr = value, ...}] [: result types] [{]
// A trailing '{' opens the op's first region; regions are separated by '} {'
// and closed by '}'. A region's block arguments are declared on a first line
// '^bb(%v: type, ...):'. Values are numbered %0, %1, ... in print order;
// function arguments keep their names. parse_module() reads this form back.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <string>

#include "opforge/compiler/ir.h"

namespace opforge::ttir {

std::string print(const Module &m);
std::string print(const Function &f);

}  // namespace opforge::ttir
