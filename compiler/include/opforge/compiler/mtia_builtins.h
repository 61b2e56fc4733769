//===- mtia_builtins.h - tl.extra.mtia language extensions built into opforge ===//
//
// Besides the intrinsics of ISA extension files loaded at run time
// (ext_intrinsic.h), `tl.extra.mtia` has six functions of its own that give a
// kernel direct access to the chip (docs/compiler/mtia-extensions.md):
//
//   async_copy(pointer, mask=None, other=None) -> token   DMA into local memory
//   wait(token) -> block                                  xmtia.dmawait, the copied block
//   barrier()                                             every DMA/DPE command completed
//   atomic_add(pointer, val, mask=None, sem=None)         AMO add, no result
//   dot(a, b, acc=None) -> block                          one DPE command (xmtia.dpe)
//   sfu(op, x) -> block                                   one SFU function (vfexp.v, ...)
//
// Lint (arity, keywords), sema (types) and the docs share this table, so the
// signature in an error message is the same everywhere.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace opforge::compiler {

struct MtiaBuiltin {
  std::string name;                 // "async_copy"
  std::vector<std::string> params;  // in order; the first `required` are required
  size_t required = 0;
  std::string summary;  // one line for docs and capability listings
  // "async_copy(pointer, mask=None, other=None)"
  std::string signature() const;
};

const std::vector<MtiaBuiltin> &mtia_builtins();
// The built-in tl.extra.mtia function `name`, or null.
const MtiaBuiltin *find_mtia_builtin(std::string_view name);
// The SFU functions tl.extra.mtia.sfu(op, x) takes, in funct6 order of Xmtia.
const std::vector<std::string> &mtia_sfu_functions();

// Error text when the call's positional/keyword arguments do not fit `b`
// (Python's wording: "tl.extra.mtia.wait() takes 1 positional argument but 2
// were given"), empty when they fit. `positional`: count of positional
// arguments; `keywords`: their names in order.
std::string mtia_call_mismatch(const MtiaBuiltin &b, size_t positional,
                               const std::vector<std::string> &keywords);

}  // namespace opforge::compiler
