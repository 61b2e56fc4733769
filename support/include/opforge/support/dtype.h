//===- dtype.h - element types and exact conversions ----------------------===//
//
// The element types opforge moves between host, compiler and chip, named as
// PyTorch names them ("float32", "bfloat16"; "torch.bfloat16" also accepted).
// fp16/bf16 <-> fp32 conversions are exact IEEE-754: round-to-nearest-even,
// NaN and infinity preserved, subnormals handled.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace opforge {

enum class DType : uint8_t {
  Bool,
  UInt8,
  Int8,
  Int16,
  Int32,
  Int64,
  Float16,
  BFloat16,
  Float32,
  Float64,
};

inline constexpr int kNumDTypes = 10;

// Size of one element in bytes.
int dtype_size(DType t);
// PyTorch's name without the "torch." prefix: "float32", "bfloat16", "bool".
std::string_view dtype_name(DType t);
// Parse "float32", "torch.float32", and PyTorch's aliases ("float", "half",
// "long", "int"). Returns nullopt for unknown names.
std::optional<DType> parse_dtype(std::string_view name);
// Like parse_dtype but throws opforge::Error naming the text.
DType dtype_from_name(std::string_view name);

bool dtype_is_float(DType t);
bool dtype_is_signed_int(DType t);
bool dtype_is_integral(DType t);  // includes Bool

// --- exact half-precision conversions ---
float fp16_to_fp32(uint16_t bits);
uint16_t fp32_to_fp16(float value);  // round-to-nearest-even
float bf16_to_fp32(uint16_t bits);
uint16_t fp32_to_bf16(float value);  // round-to-nearest-even, NaN stays NaN

}  // namespace opforge
