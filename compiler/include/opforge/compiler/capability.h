//===- capability.h - what the target supports, in one table --------------===//
//
// The one place that says which `tl` builtins, element types, access
// patterns and dot-product forms the MTIA-class target supports. The linter
// derives its kernel rules from it; the generator renders it into prompts
// (to_json / describe). Everything here is data: change the table in
// capability.cpp (and docs/compiler/lint.md if a rule's meaning changes).
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace opforge::compiler {

// How well a pattern is supported: fully, correctly but slowly (the linter
// warns), or not at all (the linter reports an error).
enum class Support { Supported, Slow, Unsupported };
std::string_view support_name(Support s);

struct DotForm {
  std::string input;   // tl dtype name of both operands ("float16")
  std::string output;  // accumulator / out_dtype ("float32")
  std::string unit;    // which unit runs it ("dpe", "vector")
};

struct TargetCapabilities {
  std::string target;  // "mtia"

  // tl element types (Triton spelling: int1, int8, ..., float16, bfloat16, float32).
  std::set<std::string> dtypes;
  // Types a kernel or wrapper must not use, with the reason ("float64" -> "...").
  std::map<std::string, std::string> unsupported_dtypes;

  // `tl.X` builtins (and `tl.math.X` / `libdevice.X` math functions) the
  // compiler implements for this target.
  std::set<std::string> tl_functions;
  std::set<std::string> math_functions;  // names usable as tl.math.X / libdevice.X
  // `tl.<ext_intrinsic_module>.X`: the intrinsic X of an ISA extension loaded
  // at run time (--isa-ext FILE; ext_intrinsic.h). Which X exist depends on
  // the registered extensions, so they are looked up, not listed here.
  std::string ext_intrinsic_module = "extra.mtia";
  // Builtins that exist in Triton but not on this target, with the target
  // feature each one needs ("needs ..."): unsupported_builtin_message words it.
  std::map<std::string, std::string> unsupported_tl_functions;

  // Access patterns.
  Support gather_loads = Support::Supported;    // load addresses computed from loaded data
  Support scatter_stores = Support::Supported;  // store/atomic addresses computed from loaded data
  Support atomics = Support::Supported;
  std::set<std::string> atomic_functions;  // "atomic_add", ...
  std::set<std::string> atomic_dtypes;     // element types atomics accept
  std::set<std::string> atomic_sems;       // accepted `sem=` values
  int64_t tensor_alignment_bytes = 16;     // data pointers the fast path (DMA) expects
  bool block_dims_power_of_two = true;     // arange ranges and block shapes
  int64_t max_block_elements = 1 << 20;    // largest block (product of its shape)
  int max_grid_dims = 3;

  std::vector<DotForm> dot_forms;
  std::set<std::string> dot_input_precisions;  // "ieee", "tf32", ...

  // Is `name` ("float32", "fp32", "tl.float32", "torch.float32") a supported dtype?
  bool dtype_supported(std::string_view name) const;
  // The reason a dtype is unsupported, or empty when it is supported or unknown.
  std::string dtype_problem(std::string_view name) const;
  bool dot_supported(std::string_view input, std::string_view output) const;
};

// The error for a call of `fn` (a tl builtin's name, "sort"), written `shown`
// in the source ("tl.sort"), when the target lacks it: names the builtin, the
// target and the feature it needs. Empty when `fn` is not in
// unsupported_tl_functions. The linter (OPF003) and the compiler both use it.
std::string unsupported_builtin_message(const TargetCapabilities &caps, std::string_view shown,
                                        std::string_view fn);

// The default MTIA-class target's table.
const TargetCapabilities &mtia_capabilities();

// Canonical tl dtype name for Triton/torch spellings ("fp32", "float", "torch.float" ->
// "float32", "bool" -> "int1", "half" -> "float16"); the input when unknown.
std::string canonical_tl_dtype(std::string_view name);

nlohmann::json to_json(const TargetCapabilities &caps);
// A few lines of plain text for an LLM prompt's "target constraints" section.
std::string describe(const TargetCapabilities &caps);

}  // namespace opforge::compiler
