//===- local_mem.h - the stack an object's functions need (private) -------===//
//
// Read from an ELF relocatable object of llvm_ir_to_object: each function's
// static frame (LLVM's .stack_sizes section) and the functions it calls
// (R_RISCV_CALL, R_RISCV_CALL_PLT and R_RISCV_JAL relocations in its code).
// local_mem.cpp; the runtime library keeps the graph of its own object.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "opforge/compiler/kernel_binary.h"

namespace opforge::compiler {

struct StackFunction {
  int64_t frame = 0;  // bytes; 0 for a function without a .stack_sizes entry
  std::set<std::string> callees;
};
using StackGraph = std::map<std::string, StackFunction>;

// Throws opforge::Error naming `file` for a malformed object.
StackGraph object_stack_graph(const std::vector<uint8_t> &object, const std::string &file);

// The runtime library's graph for `target` (compiled once per process).
const StackGraph &runtime_library_stack_graph(const TargetOptions &target);

}  // namespace opforge::compiler
