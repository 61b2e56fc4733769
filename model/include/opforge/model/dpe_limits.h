//===- dpe_limits.h - DPE tile-size limits (pe.dpe.tile_max_*) ------------===//
//
// A DPE command whose M, N or K exceeds the configured tile maximum is a bad
// descriptor: the PE traps (reported with the PE and the PC of the
// xmtia.dpe instruction) before any backend computes or times it.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <optional>
#include <string>

#include "opforge/isa/accel_if.h"
#include "opforge/model/params.h"

namespace opforge::model {

// Why `cmd` exceeds the tile limits (the first offending dimension, its value
// and the limit with its ArchConfig name), or nothing when it fits.
std::optional<std::string> dpe_tile_limit_violation(const DpeParams &p, const isa::DpeCommand &cmd);

}  // namespace opforge::model
