//===- inductor_heuristics.h - configs and grids of Inductor's kernel decorators ===//
//
// A TorchInductor kernel source (the text inside `async_compile.triton('name',
// '''...''')`) is one @triton.jit function under a decorator such as
//
//   @triton_heuristics.persistent_reduction(
//       size_hints={'x': 32, 'r0_': 64}, reduction_hint=ReductionHint.INNER,
//       filename=__file__,
//       triton_meta={'signature': {'in_ptr0': '*fp32', ..., 'XBLOCK': 'constexpr'},
//                    'device': DeviceProperties(...), 'constants': {}, ...},
//       inductor_meta={'grid_type': 'Grid1D', 'kernel_name': '...', ...})
//
// read_inductor_kernel() reads that decorator (without running any Python);
// inductor_configs() proposes the candidate configs (the constexpr block sizes
// XBLOCK, YBLOCK, R0_BLOCK, ...) from the size hints and the target, a handful
// per kernel as Inductor does for a GPU, for the caller to pick by simulated
// cycles (wrapper/autotune.cpp); inductor_grid() is the decorator's grid rule
// (Grid1D, Grid2D, ...): the programs a launch with given numels and config
// runs. inductor_specialization() is what the kernel compiles with.
// docs/compiler/inductor.md ("Kernels") lists what is supported.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "opforge/compiler/ast.h"
#include "opforge/compiler/sema.h"

namespace opforge::compiler {

enum class InductorKernelKind {
  Pointwise,            // @triton_heuristics.pointwise
  Reduction,            // @triton_heuristics.reduction (looped: R0_BLOCK is a config value)
  PersistentReduction,  // @triton_heuristics.persistent_reduction (R0_BLOCK set in the body)
  Template,             // @triton_heuristics.template (configs given: num_stages/num_warps)
  Foreach,              // @triton_heuristics.foreach
  SplitScan,            // @triton_heuristics.split_scan
};
const char *inductor_kernel_kind_name(InductorKernelKind kind);  // "pointwise", ...

// What the decorator says about one kernel.
struct InductorKernelInfo {
  std::string kernel;  // the @triton.jit function's name
  InductorKernelKind kind = InductorKernelKind::Pointwise;
  // size_hints in the decorator's order: {"y", 128}, {"x", 16} or {"x", 32}, {"r0_", 64}.
  std::vector<std::pair<std::string, int64_t>> size_hints;
  std::string reduction_hint;  // "INNER", "OUTER", "OUTER_TINY", "DEFAULT" or ""
  std::string tile_hint;       // "SQUARE", "DEFAULT" or ""
  // triton_meta['signature'] in parameter order: name -> "*fp32", "i32", "constexpr", ...
  std::vector<std::pair<std::string, std::string>> signature;
  // triton_meta['constants'] (parameters fixed at compile time), as constexpr specs.
  std::map<std::string, ParamSpec> constants;
  std::string grid_type = "Grid1D";  // inductor_meta['grid_type']
  std::vector<std::string> mutated_arg_names;
  std::optional<int> num_stages, num_warps;  // template / foreach decorators give them
  // The block-size constexprs the kernel takes as parameters ("XBLOCK", "R0_BLOCK", ...),
  // i.e. the signature's constexprs not in `constants`: what a config must set.
  std::vector<std::string> block_params;
  int line = 0;  // the decorator's line in the kernel source
};

// One candidate config: the block sizes, in block_params order.
struct InductorConfig {
  std::vector<std::pair<std::string, int64_t>> blocks;  // {"XBLOCK", 64}, {"R0_BLOCK", 8}
  int num_warps = 1;
  int num_stages = 1;
  // "XBLOCK: 64, R0_BLOCK: 8, num_warps: 1, num_stages: 1" (as triton.Config prints).
  std::string str() const;
  std::optional<int64_t> get(const std::string &name) const;
};

// What the candidate rule knows of the target chip.
struct InductorTarget {
  int vector_bits = 512;              // VLEN (isa.vlen_bits)
  uint64_t local_mem_bytes = 393216;  // one PE's local memory (pe.local_mem.size_bytes)
  int num_pes = 64;                   // PEs of the grid (programs that run at once)
};

// Reads the decorator of `kernel` (empty: the module's only @triton.jit function).
// Throws CompileError (source line) when the kernel has no triton_heuristics
// decorator, or a field it needs is missing or not a literal.
InductorKernelInfo read_inductor_kernel(const ast::Module &m, const std::string &kernel = "");

// The candidate configs, best guess first (at least one; at most about six).
// Every block size is a power of two no larger than the next power of two of its
// numel hint; a persistent reduction's configs set only XBLOCK (its R0_BLOCK is in
// the body), and keep XBLOCK * R0 elements within the local memory budget.
std::vector<InductorConfig> inductor_configs(const InductorKernelInfo &info,
                                             const InductorTarget &target = {});

// The launch grid (programs along x, y, z) for `numels` ("xnumel" -> 2048,
// "ynumel", "znumel", "r0_numel": the values the launch passes for those
// parameters) and `config`, by info.grid_type: Grid1D, Grid2D, Grid3D,
// Grid2DWithYZOverflow, SplitScanGrid, FixedGrid is not supported (CompileError).
std::array<int64_t, 3> inductor_grid(const InductorKernelInfo &info, const InductorConfig &config,
                                     const std::map<std::string, int64_t> &numels);

// The specialisation to compile with: the signature's runtime types, the
// constants, and the config's block sizes as constexprs.
Specialization inductor_specialization(const InductorKernelInfo &info,
                                       const InductorConfig &config);

// True when `m` is an Inductor kernel source: it imports triton_heuristics from
// torch._inductor.runtime (the linter and sema then accept Inductor's imports,
// triton_helpers.*, libdevice.* and tl_math.*).
bool is_inductor_kernel_source(const ast::Module &m);

// opforge's triton_helpers (inductor_prelude.cpp): the @triton.jit helper source,
// the helper names (`max2`, `welford`, ...), and appending them to a kernel
// module as `triton_helpers_<name>` functions (parse_module does this for an
// Inductor kernel source unless ParseOptions::inductor_helpers is off).
const char *inductor_helpers_source();
std::vector<std::string> inductor_helper_names();
void add_inductor_helpers(ast::Module &m);

}  // namespace opforge::compiler
