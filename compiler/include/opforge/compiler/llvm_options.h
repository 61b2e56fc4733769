//===- llvm_options.h - LLVM command-line switches the backend sets in process ===//
//
// LLVM 16 exposes many code-generation choices only as global command-line
// options (llc's -disable-*). The backend (llvm_backend.cpp) sets its chosen
// ones through LLVM's option registry once per process, before the first
// compile; these functions name them, read them back and set others (for
// experiments: run before compiling, never while another thread compiles).
//
//===----------------------------------------------------------------------===//
#pragma once

#include <string>
#include <vector>

namespace opforge::compiler {

// A boolean or unsigned LLVM option as llc spells it, without the dash:
// {"disable-machine-dce", "true", "false"}, {"instcombine-max-iterations",
// "1", "1000"}.
struct LlvmSwitch {
  std::string name;
  std::string value;          // what the backend sets
  std::string default_value;  // LLVM 16's own default
};

// The switches every compile runs with (llvm_backend.cpp says why each one
// is safe: docs/compiler/compile_time.md).
std::vector<LlvmSwitch> llvm_codegen_switches();

// Sets LLVM options by name to `value` through each option's own parser. An
// option LLVM does not have, one that is neither boolean nor unsigned, or a
// value it does not take is an Error naming it (nothing is set silently).
void set_llvm_switches(const std::vector<LlvmSwitch> &switches);

// The current value ("true"/"false" or a number) of the boolean or unsigned
// LLVM option `name` (after the backend's start-up has set its switches); an
// Error when LLVM has no such option.
std::string llvm_switch_value(const std::string &name);

// Whether llvm_ir_to_object() reuses one legacy code-generation pass manager
// per thread and target machine (the default) or builds one per compile (for
// comparisons: both give the same bytes).
void set_llvm_codegen_pm_reuse(bool reuse);

}  // namespace opforge::compiler
