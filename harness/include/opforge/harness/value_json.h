//===- value_json.h - the corpus's JSON encoding of call values ------------===//
//
// One decoder for the call encoding of docs/corpus.md ("Call encoding"): the
// corpus reader and `opforge run-calls` both read values through it.
#pragma once

#include <cstdint>
#include <functional>
#include <string>

#include <nlohmann/json.hpp>

#include "opforge/harness/corpus.h"

namespace opforge::harness {

// Resolves a {"t": i} reference of a call to its tensor Value.
using TensorLookup = std::function<Value(int64_t)>;

// Decodes one JSON-encoded value; `where` prefixes error messages ("corpus F: float32 call 12").
Value decode_value(const nlohmann::json &j, const TensorLookup &tensor, const std::string &where);

}  // namespace opforge::harness
