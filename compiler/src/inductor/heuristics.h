//===- heuristics.h - what a kernel's @triton_heuristics decorator says ----===//
//
// Read from the decorator's literal arguments (never evaluated): the kind
// (pointwise, persistent_reduction, reduction), size_hints, the grid type and
// mutated arguments of inductor_meta, triton_meta's constants; and the
// candidate configs tuned on the first launch (internal).
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "opforge/compiler/ast.h"
#include "opforge/compiler/diagnostics.h"

namespace opforge::compiler::inductor_detail {

struct TuneConfig {
  std::vector<std::pair<std::string, int64_t>> values;  // XBLOCK, YBLOCK, R0_BLOCK, ...
  int num_warps = 4;
  int num_stages = 1;
  // As Triton's Config prints it: "XBLOCK: 64, num_warps: 4, num_ctas: 1, num_stages: 1".
  std::string text() const;
};

struct KernelHeuristics {
  std::string kind;                           // pointwise, persistent_reduction, reduction
  std::map<std::string, int64_t> size_hints;  // x, y, z, r0_, r1_
  std::string grid_type = "Grid1D";
  std::string reduction_hint;                // "INNER", "OUTER", "DEFAULT", ...
  std::vector<std::string> mutated;          // inductor_meta's mutated_arg_names
  std::map<std::string, int64_t> constants;  // triton_meta's constants (int ones)
  std::vector<TuneConfig> configs;
};

// The heuristics of kernel `k` (its @triton_heuristics.X decorator). Throws CompileError
// at the decorator for what it cannot read, naming the kernel.
KernelHeuristics read_heuristics(const SourceFile &file, const ast::FunctionDef &k);

}  // namespace opforge::compiler::inductor_detail
