//===- llvm_outline.h - the emitter's cold regions outlined into optnone functions ===//
#pragma once

namespace llvm {
class Module;
}

namespace opforge::compiler {

// Moves each cold region of the parsed kernel (llir_cold.cpp: entered by a
// branch marked !opforge.cold !{!"<function>"}, left by branches marked
// !opforge.cold.end) into an internal function of that name, `noinline
// optnone`, called where the region was, with LLVM's CodeExtractor; with
// the line table, the function gets a subprogram of its own and the
// region's locations move there (their lines and files kept). A region
// CodeExtractor cannot outline stays inline. The markers are removed.
void outline_cold_regions(llvm::Module &mod);

}  // namespace opforge::compiler
