//===- c10_dtype.h - opforge dtypes <-> c10 scalar types (libtorch code only) ===//
//
// For the two places libtorch is compiled in: the ATen oracle plugin
// (harness/src/oracle) and the Python package's extension (python/src). Nothing
// else may include it: it pulls in c10's headers.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <c10/core/ScalarType.h>

#include <optional>

#include "opforge/support/dtype.h"

namespace opforge::harness {

// The opforge dtype of a c10 scalar type; nullopt for those opforge has none of
// (complex, fp8, quantized, ...).
inline std::optional<DType> from_scalar_type(c10::ScalarType t) {
  switch (t) {
    case c10::ScalarType::Bool:
      return DType::Bool;
    case c10::ScalarType::Byte:
      return DType::UInt8;
    case c10::ScalarType::Char:
      return DType::Int8;
    case c10::ScalarType::Short:
      return DType::Int16;
    case c10::ScalarType::Int:
      return DType::Int32;
    case c10::ScalarType::Long:
      return DType::Int64;
    case c10::ScalarType::Half:
      return DType::Float16;
    case c10::ScalarType::BFloat16:
      return DType::BFloat16;
    case c10::ScalarType::Float:
      return DType::Float32;
    case c10::ScalarType::Double:
      return DType::Float64;
    default:
      return std::nullopt;
  }
}

inline c10::ScalarType to_scalar_type(DType t) {
  switch (t) {
    case DType::Bool:
      return c10::ScalarType::Bool;
    case DType::UInt8:
      return c10::ScalarType::Byte;
    case DType::Int8:
      return c10::ScalarType::Char;
    case DType::Int16:
      return c10::ScalarType::Short;
    case DType::Int32:
      return c10::ScalarType::Int;
    case DType::Int64:
      return c10::ScalarType::Long;
    case DType::Float16:
      return c10::ScalarType::Half;
    case DType::BFloat16:
      return c10::ScalarType::BFloat16;
    case DType::Float32:
      return c10::ScalarType::Float;
    case DType::Float64:
      return c10::ScalarType::Double;
  }
  return c10::ScalarType::Float;
}

}  // namespace opforge::harness
