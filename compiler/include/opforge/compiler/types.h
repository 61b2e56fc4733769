//===- types.h - ttir value types: scalars, pointers, blocks --------------===//
//
// A ttir type is an element kind plus an optional block shape. Pointers name
// their pointee element (and, for block pointers made by tt.make_tensor_ptr, the
// pointee block shape). Textual forms follow Triton's TTIR:
//   i1 i8 i16 i32 i64 f16 bf16 f32 f64, !tt.ptr<f32>, tensor<128x64xf32>,
//   tensor<128x!tt.ptr<f16>>, !tt.ptr<tensor<64x64xf16>>.
// Integer types are signless as in MLIR; operations say how to interpret them.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "opforge/support/dtype.h"

namespace opforge::ttir {

enum class Elem : uint8_t { None, I1, I8, I16, I32, I64, F16, BF16, F32, F64, Ptr };

struct Type {
  Elem elem = Elem::None;
  std::vector<int64_t> shape;          // empty: a scalar
  Elem pointee = Elem::None;           // element pointed to when elem == Ptr
  std::vector<int64_t> pointee_shape;  // non-empty for block pointers

  Type() = default;
  explicit Type(Elem e, std::vector<int64_t> s = {}) : elem(e), shape(std::move(s)) {}
  static Type ptr(Elem pointee_elem, std::vector<int64_t> block_shape = {});
  static Type none() { return Type(); }

  bool is_none() const { return elem == Elem::None; }
  bool is_block() const { return !shape.empty(); }
  bool is_ptr() const { return elem == Elem::Ptr; }
  bool is_block_ptr() const { return elem == Elem::Ptr && !pointee_shape.empty(); }
  bool is_float() const;
  bool is_int() const;  // includes i1
  bool is_bool() const { return elem == Elem::I1; }
  int bitwidth() const;  // element bit width (pointers: 64)
  int64_t numel() const;
  int rank() const { return static_cast<int>(shape.size()); }
  // The element type as a scalar (drops the shape).
  Type scalar() const;
  // Same element (and pointee), another shape.
  Type with_shape(std::vector<int64_t> s) const;
  // The scalar type pointed to (pointers only; for block pointers the block).
  Type pointee_type() const;
  std::string str() const;
  bool operator==(const Type &o) const = default;
};

bool elem_is_float(Elem e);
bool elem_is_int(Elem e);
int elem_bits(Elem e);
std::string_view elem_name(Elem e);
// Element kind for a tensor dtype (UInt8 maps to i8: ttir integers are signless).
Elem elem_from_dtype(DType d);
// Parse a type's textual form; throws opforge::Error on bad text.
Type parse_type(std::string_view text);

}  // namespace opforge::ttir
