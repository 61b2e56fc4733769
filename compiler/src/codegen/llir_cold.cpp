//===- llir_cold.cpp - cold fallback paths, outlined into functions LLVM does not optimize ===//
//
// A fallback that almost never runs (the element copy of a rectangle-masked
// tile whose index sequence wraps, llir_rect.cpp) still costs LLVM the full
// -O2 middle end and code generator: in a masked matmul those paths were
// about 30% of the compile time. cold() emits such a path as a cold region
// of the kernel's body: a block of its own entered by a branch marked
// !opforge.cold (naming the function it becomes) and left by one marked
// !opforge.cold.end, both recorded as ColdRegion facts. Right after parsing,
// the backend (llvm_outline.cpp) moves each region into its own function,
// marked `noinline optnone`, with LLVM's CodeExtractor: the middle end skips
// it and the code generator selects instructions for it at -O0. The region's
// free values become the function's parameters with the types LLVM's own
// IR gives them; the emitter never reads its text back. A region that LLVM
// cannot outline stays inline (its loops still marked not to vectorize).
//
//===----------------------------------------------------------------------===//
#include "llir_emitter.h"

namespace opforge::compiler::llir {

void Emitter::cold(const std::function<void()> &body) {
  ColdRegion region;
  region.function = "__opforge_cold_" + std::to_string(cold_regions_.size());
  const std::string entry = label();
  code_.add({"", "br label %" + entry, dbg_, InstRole::ColdEntry, region.function});
  const bool was = cold_loops_;
  cold_loops_ = true;
  code_.start(entry);
  region.first_block = code_.block_count() - 1;
  body();
  cold_loops_ = was;
  const std::string exit = label();
  code_.add({"", "br label %" + exit, dbg_, InstRole::ColdExit});
  region.last_block = code_.block_count() - 1;
  code_.start(exit);
  cold_regions_.push_back(std::move(region));
}

}  // namespace opforge::compiler::llir
