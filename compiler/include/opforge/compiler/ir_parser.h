//===- ir_parser.h - ttir textual form (parsing) ------------------------===//
//
// Reads the form ir_printer.h writes. Errors name the file, line and column.
// The parsed module is verified before it is returned.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "opforge/compiler/ir.h"

namespace opforge::ttir {

std::unique_ptr<Module> parse_module(std::string_view text, const std::string &file = "<ttir>");

}  // namespace opforge::ttir
