//===- mtia_builtins.cpp - the tl.extra.mtia built-in functions' table ===//
#include "opforge/compiler/mtia_builtins.h"

namespace opforge::compiler {

std::string MtiaBuiltin::signature() const {
  std::string s = name + "(";
  for (size_t i = 0; i < params.size(); ++i)
    s += (i ? ", " : "") + params[i] + (i < required ? "" : "=None");
  return s + ")";
}

const std::vector<MtiaBuiltin> &mtia_builtins() {
  static const std::vector<MtiaBuiltin> table = {
      {"async_copy",
       {"pointer", "mask", "other"},
       1,
       "starts a DMA of the pointer block into a local-memory buffer; returns a token"},
      {"wait", {"token"}, 1, "waits for an async_copy (xmtia.dmawait); returns the copied block"},
      {"barrier", {}, 0, "waits until every DMA and DPE command this program issued has completed"},
      {"atomic_add",
       {"pointer", "val", "mask", "sem"},
       2,
       "atomic add in global memory (RISC-V AMO), returns nothing"},
      {"dot", {"a", "b", "acc"}, 2, "a tile matrix multiply on the dot-product engine"},
      {"sfu", {"op", "x"}, 2, "an SFU function (exp log tanh erf sin cos rsqrt) of a block"},
  };
  return table;
}

const MtiaBuiltin *find_mtia_builtin(std::string_view name) {
  for (const auto &b : mtia_builtins())
    if (b.name == name) return &b;
  return nullptr;
}

const std::vector<std::string> &mtia_sfu_functions() {
  static const std::vector<std::string> fns = {"exp", "log", "tanh", "erf", "sin", "cos", "rsqrt"};
  return fns;
}

std::string mtia_call_mismatch(const MtiaBuiltin &b, size_t positional,
                               const std::vector<std::string> &keywords) {
  const std::string fn = "tl.extra.mtia." + b.name;
  const size_t n = b.params.size();
  if (positional > n)
    return fn + "() takes " + std::to_string(n) + " positional argument" + (n == 1 ? "" : "s") +
           " but " + std::to_string(positional) + (positional == 1 ? " was" : " were") +
           " given (" + b.signature() + ")";
  std::vector<bool> given(n, false);
  for (size_t i = 0; i < positional; ++i) given[i] = true;
  for (const auto &k : keywords) {
    size_t i = 0;
    while (i < n && b.params[i] != k) ++i;
    if (i == n)
      return fn + "() got an unexpected keyword argument '" + k + "' (" + b.signature() + ")";
    if (given[i]) return fn + "() got multiple values for argument '" + k + "'";
    given[i] = true;
  }
  for (size_t i = 0; i < b.required; ++i)
    if (!given[i])
      return fn + "() missing 1 required positional argument: '" + b.params[i] + "' (" +
             b.signature() + ")";
  return {};
}

}  // namespace opforge::compiler
