//===- corpus_internal.h - corpus decoding helpers shared by its sources ---===//
#pragma once

#include <functional>
#include <string>

#include <nlohmann/json.hpp>

#include "opforge/harness/corpus.h"

namespace opforge::harness::detail {

// Resolves a {"t": i} reference of a call to its tensor Value.
using TensorLookup = std::function<Value(int64_t)>;

// Decode one JSON-encoded value (docs/corpus.md, "Call encoding"); `where`
// prefixes error messages ("corpus F: float32 call 12").
Value decode_value(const nlohmann::json &j, const TensorLookup &tensor, const std::string &where);

}  // namespace opforge::harness::detail
