//===- ext_intrinsic.h - tl.extra.mtia.<name>: intrinsics of loaded ISA extensions ===//
//
// An ISA extension file (docs/isa/extensions.md, isa/extension.h) names the
// Triton intrinsic its instruction becomes. A kernel calls it as
// `tl.extra.mtia.<intrinsic>(x[, y])`; sema builds one `mtia.intrinsic` op
// (attribute `intrinsic`), the IR interpreter evaluates it element-wise with
// isa::ext_evaluate and the code generator lowers it to a strip-mined loop of
// the instruction (`.insn`). Lint, sema, the verifier and codegen share the
// lookup and its error text here, so the message is the same everywhere.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <string>
#include <string_view>

#include "opforge/isa/extension.h"

namespace opforge::compiler {

// The module path kernels write before an intrinsic's name.
inline constexpr std::string_view kExtIntrinsicPrefix = "tl.extra.mtia.";

// The registered instruction whose intrinsic is `name`, or null.
const isa::ExtInsn *find_ext_intrinsic(std::string_view name);
// "tl.extra.mtia.NAME needs an ISA extension that defines intrinsic 'NAME'
// (--isa-ext FILE)": the error for an intrinsic no loaded extension defines.
std::string ext_intrinsic_missing(std::string_view name);
// Number of operands the intrinsic takes: 1 for V, 2 for VV and VF.
int ext_intrinsic_arity(const isa::ExtInsn &insn);
// "x" / "x, y" / "x, scalar y": the call's signature for error messages.
std::string ext_intrinsic_signature(const isa::ExtInsn &insn);

}  // namespace opforge::compiler
