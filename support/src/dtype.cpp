//===- dtype.cpp - element type names and exact fp16/bf16 conversions -----===//
#include "opforge/support/dtype.h"

#include <bit>
#include <cstring>

#include "opforge/support/error.h"

namespace opforge {

int dtype_size(DType t) {
  switch (t) {
    case DType::Bool:
    case DType::UInt8:
    case DType::Int8:
      return 1;
    case DType::Int16:
    case DType::Float16:
    case DType::BFloat16:
      return 2;
    case DType::Int32:
    case DType::Float32:
      return 4;
    case DType::Int64:
    case DType::Float64:
      return 8;
  }
  return 0;
}

std::string_view dtype_name(DType t) {
  switch (t) {
    case DType::Bool:
      return "bool";
    case DType::UInt8:
      return "uint8";
    case DType::Int8:
      return "int8";
    case DType::Int16:
      return "int16";
    case DType::Int32:
      return "int32";
    case DType::Int64:
      return "int64";
    case DType::Float16:
      return "float16";
    case DType::BFloat16:
      return "bfloat16";
    case DType::Float32:
      return "float32";
    case DType::Float64:
      return "float64";
  }
  return "?";
}

std::optional<DType> parse_dtype(std::string_view name) {
  if (name.starts_with("torch.")) name.remove_prefix(6);
  struct Alias {
    std::string_view name;
    DType type;
  };
  static constexpr Alias kAliases[] = {
      {"bool", DType::Bool},       {"uint8", DType::UInt8},   {"int8", DType::Int8},
      {"int16", DType::Int16},     {"short", DType::Int16},   {"int32", DType::Int32},
      {"int", DType::Int32},       {"int64", DType::Int64},   {"long", DType::Int64},
      {"float16", DType::Float16}, {"half", DType::Float16},  {"bfloat16", DType::BFloat16},
      {"float32", DType::Float32}, {"float", DType::Float32}, {"float64", DType::Float64},
      {"double", DType::Float64},
  };
  for (const auto &a : kAliases)
    if (a.name == name) return a.type;
  return std::nullopt;
}

DType dtype_from_name(std::string_view name) {
  if (auto t = parse_dtype(name)) return *t;
  throw Error("unknown dtype '" + std::string(name) +
              "' (expected one of bool, uint8, int8, int16, int32, int64, float16, bfloat16, "
              "float32, float64)");
}

bool dtype_is_float(DType t) {
  return t == DType::Float16 || t == DType::BFloat16 || t == DType::Float32 || t == DType::Float64;
}
bool dtype_is_signed_int(DType t) {
  return t == DType::Int8 || t == DType::Int16 || t == DType::Int32 || t == DType::Int64;
}
bool dtype_is_integral(DType t) { return !dtype_is_float(t); }

float fp16_to_fp32(uint16_t h) {
  uint32_t sign = static_cast<uint32_t>(h & 0x8000u) << 16;
  uint32_t exp = (h >> 10) & 0x1f;
  uint32_t man = h & 0x3ffu;
  uint32_t bits;
  if (exp == 0x1f) {  // inf / NaN: keep payload
    bits = sign | 0x7f800000u | (man << 13);
  } else if (exp == 0) {
    if (man == 0) {
      bits = sign;
    } else {  // subnormal: normalise
      int e = -1;
      do {
        ++e;
        man <<= 1;
      } while ((man & 0x400u) == 0);
      man &= 0x3ffu;
      bits = sign | static_cast<uint32_t>(127 - 15 - e) << 23 | (man << 13);
    }
  } else {
    bits = sign | (exp + (127 - 15)) << 23 | (man << 13);
  }
  return std::bit_cast<float>(bits);
}

uint16_t fp32_to_fp16(float f) {
  uint32_t x = std::bit_cast<uint32_t>(f);
  uint16_t sign = static_cast<uint16_t>((x >> 16) & 0x8000u);
  uint32_t exp = (x >> 23) & 0xff;
  uint32_t man = x & 0x7fffffu;
  if (exp == 0xff) {
    if (man == 0) return sign | 0x7c00u;
    uint16_t payload = static_cast<uint16_t>(man >> 13);
    return sign | 0x7c00u | (payload ? payload : 0x200u);  // keep it a NaN (quiet)
  }
  int32_t e = static_cast<int32_t>(exp) - 127 + 15;
  if (e >= 0x1f) return sign | 0x7c00u;  // overflow -> inf
  if (e <= 0) {
    // Subnormal or zero in fp16.
    if (e < -10) return sign;  // too small: rounds to zero (even the halfway case)
    man |= 0x800000u;          // implicit bit
    uint32_t shift = static_cast<uint32_t>(14 - e);
    uint32_t half = man >> shift;
    uint32_t rem = man & ((1u << shift) - 1);
    uint32_t halfway = 1u << (shift - 1);
    if (rem > halfway || (rem == halfway && (half & 1u))) ++half;
    return sign | static_cast<uint16_t>(half);
  }
  uint32_t half = static_cast<uint32_t>(e) << 10 | (man >> 13);
  uint32_t rem = man & 0x1fffu;
  if (rem > 0x1000u || (rem == 0x1000u && (half & 1u))) ++half;  // may carry into exp: correct
  return sign | static_cast<uint16_t>(half);
}

float bf16_to_fp32(uint16_t b) { return std::bit_cast<float>(static_cast<uint32_t>(b) << 16); }

uint16_t fp32_to_bf16(float f) {
  uint32_t x = std::bit_cast<uint32_t>(f);
  if ((x & 0x7f800000u) == 0x7f800000u && (x & 0x7fffffu)) {
    return static_cast<uint16_t>((x >> 16) | 0x40u);  // quiet NaN, sign kept
  }
  uint32_t lsb = (x >> 16) & 1u;
  x += 0x7fffu + lsb;
  return static_cast<uint16_t>(x >> 16);
}

}  // namespace opforge
