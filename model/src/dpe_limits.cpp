//===- dpe_limits.cpp - DPE tile-size limits (pe.dpe.tile_max_*) ----------===//
#include "opforge/model/dpe_limits.h"

namespace opforge::model {

std::optional<std::string> dpe_tile_limit_violation(const DpeParams &p,
                                                    const isa::DpeCommand &cmd) {
  struct Dim {
    const char *name;
    uint32_t value, limit;
  };
  const Dim dims[3] = {
      {"m", cmd.m, p.tile_max_m}, {"n", cmd.n, p.tile_max_n}, {"k", cmd.k, p.tile_max_k}};
  for (const Dim &d : dims)
    if (d.value > d.limit)
      return std::string("tile ") + d.name + " = " + std::to_string(d.value) +
             " exceeds pe.dpe.tile_max_" + d.name + " = " + std::to_string(d.limit);
  return std::nullopt;
}

}  // namespace opforge::model
