//===- module_text.h - the module-level layout of a TorchInductor module ---===//
//
// An Inductor output module's top level is a fixed set of statements (imports,
// aliases of torch._C._dynamo.guards names, `async_compile.triton(...)` kernel
// definitions, `class Runner` with `call(self, args)`, `get_args()`, the
// benchmark harness). scan_module() reads that layout from the text and writes
// a Python text of the same line count that the parser and the wrapper
// interpreter take: the kernel sources in place (so their lines are the
// module's), `call` as a top-level `def call(args)`, `get_args()`, everything
// else blank. Names the module binds are returned as bindings (internal).
//
//===----------------------------------------------------------------------===//
#pragma once

#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "opforge/compiler/diagnostics.h"

namespace opforge::compiler::inductor_detail {

struct ScannedKernel {
  std::string var;   // the module-level name it is bound to
  std::string name;  // async_compile.triton's first argument
  int line = 0;      // the async_compile.triton line
  int end_line = 0;  // the line that closes its source
};

struct ScannedModule {
  std::string text;  // same lines as the module: what the parser reads
  std::vector<ScannedKernel> kernels;
  // Module-level names: "module:torch.ops.aten", "builtin:ext.empty_strided",
  // "float:inf", "kernel:NAME", "unavailable:what".
  std::vector<std::pair<std::string, std::string>> bindings;
  // "Original ATen: [...]" nodes of the launch or ATen call at a line of call().
  std::map<int, std::vector<std::string>> aten_nodes;
  bool has_call = false;
  bool has_get_args = false;
};

// Throws CompileError (file:line) naming a construct the layout does not allow.
ScannedModule scan_module(const std::shared_ptr<const SourceFile> &source);

}  // namespace opforge::compiler::inductor_detail
