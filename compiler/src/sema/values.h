//===- values.h - semantic-layer types and values (Triton's tl.dtype/tensor) ===//
//
// LType is a language-level type: like a ttir Type but integers keep their
// signedness (tl.uint32 vs tl.int32), as Triton's dtypes do. SValue is what a
// Python expression evaluates to inside a kernel: a compile-time constant
// (constexpr: None, bool, int, float, str, dtype, tuple, a function or module
// reference) or a tensor (a ttir value with its LType).
//
//===----------------------------------------------------------------------===//
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "opforge/compiler/ir.h"

namespace opforge::compiler::sema {

enum class Sc : uint8_t {
  I1,
  I8,
  I16,
  I32,
  I64,
  U8,
  U16,
  U32,
  U64,
  F16,
  BF16,
  F32,
  F64,
  F8E4NV,   // tl.float8e4nv: OCP e4m3fn (bias 7, no infinities, NaN = S.1111.111)
  F8E5,     // tl.float8e5: OCP e5m2 (bias 15, IEEE-style inf/NaN)
  F8E4B15,  // tl.float8e4b15: e4m3 with bias 15, all patterns finite
  Ptr,
  Void
};

struct LType {
  Sc sc = Sc::Void;
  std::vector<int64_t> shape;          // empty: scalar
  Sc pointee = Sc::Void;               // for pointers
  std::vector<int64_t> pointee_shape;  // block pointers

  static LType scalar(Sc s) { return LType{s, {}, Sc::Void, {}}; }
  static LType ptr(Sc p, std::vector<int64_t> bshape = {}) {
    return LType{Sc::Ptr, {}, p, std::move(bshape)};
  }
  bool is_block() const { return !shape.empty(); }
  bool is_ptr() const { return sc == Sc::Ptr; }
  bool is_block_ptr() const { return sc == Sc::Ptr && !pointee_shape.empty(); }
  bool is_float() const;
  bool is_int() const;  // includes bool
  bool is_bool() const { return sc == Sc::I1; }
  bool is_signed() const;  // signed integer (not bool)
  bool is_unsigned() const;
  int bits() const;
  int rank() const { return static_cast<int>(shape.size()); }
  int64_t numel() const {
    int64_t n = 1;
    for (auto d : shape) n *= d;
    return n;
  }
  LType elem() const { return with_shape({}); }
  LType with_shape(std::vector<int64_t> s) const {
    LType t = *this;
    t.shape = std::move(s);
    return t;
  }
  LType with_sc(Sc s) const {
    LType t = *this;
    t.sc = s;
    t.pointee = Sc::Void;
    t.pointee_shape.clear();
    return t;
  }
  ttir::Type ir() const;
  // Triton's names: "fp32", "int32", "pointer<fp16>", "<[128], fp32>" style.
  std::string str() const;
  bool operator==(const LType &o) const = default;
};

std::string sc_name(Sc s);  // "fp32", "int32", "uint8", "int1"
ttir::Elem sc_elem(Sc s);
int sc_bits(Sc s);
bool sc_is_float(Sc s);
bool sc_is_int(Sc s);
bool sc_is_signed(Sc s);
// fp8 types are floats to Triton's rules but held as their 8-bit patterns
// (ttir i8): loads, stores, selects and shape ops move the bits, casts decode
// and encode them with integer operations (semantic_fp8.cpp).
bool sc_is_fp8(Sc s);
// Triton's dtype names ("float32", "int8", "uint32", "bfloat16") and
// signature names ("fp32", "i32", "u8", "bf16", "i1").
std::optional<Sc> sc_from_name(std::string_view n);

struct SValue;
using SValuePtr = std::shared_ptr<SValue>;

struct NoneV {};
struct FuncRef {
  std::string name;  // jit function name or builtin path ("tl.arange", "math.inf")
  bool builtin = false;
};
struct DTypeV {
  LType type;  // scalar or pointer dtype
};

// A value during lowering.
struct SValue {
  enum class Kind { None, Bool, Int, Float, Str, DType, Tuple, Func, Tensor } kind = Kind::None;
  bool b = false;
  int64_t i = 0;
  double f = 0;
  std::string s;
  LType type;                    // DType value, or tensor type
  std::vector<SValue> elts;      // Tuple
  FuncRef func;                  // Func
  ttir::Value *value = nullptr;  // Tensor

  static SValue none() { return SValue{}; }
  static SValue boolean(bool v) {
    SValue x;
    x.kind = Kind::Bool;
    x.b = v;
    return x;
  }
  static SValue integer(int64_t v) {
    SValue x;
    x.kind = Kind::Int;
    x.i = v;
    return x;
  }
  static SValue floating(double v) {
    SValue x;
    x.kind = Kind::Float;
    x.f = v;
    return x;
  }
  static SValue str(std::string v) {
    SValue x;
    x.kind = Kind::Str;
    x.s = std::move(v);
    return x;
  }
  static SValue dtype(LType t) {
    SValue x;
    x.kind = Kind::DType;
    x.type = std::move(t);
    return x;
  }
  static SValue tuple(std::vector<SValue> e) {
    SValue x;
    x.kind = Kind::Tuple;
    x.elts = std::move(e);
    return x;
  }
  static SValue function(std::string n, bool builtin) {
    SValue x;
    x.kind = Kind::Func;
    x.func = {std::move(n), builtin};
    return x;
  }
  static SValue tensor(ttir::Value *v, LType t) {
    SValue x;
    x.kind = Kind::Tensor;
    x.value = v;
    x.type = std::move(t);
    return x;
  }

  bool is_tensor() const { return kind == Kind::Tensor; }
  bool is_constexpr() const {
    return kind != Kind::Tensor && kind != Kind::Tuple ? true
                                                       : kind == Kind::Tuple && all_constexpr();
  }
  bool is_number() const { return kind == Kind::Bool || kind == Kind::Int || kind == Kind::Float; }
  bool all_constexpr() const {
    for (auto &e : elts)
      if (!e.is_constexpr()) return false;
    return true;
  }
  // Python repr for messages and cache keys: "1024", "True", "'zero'", "(1, 0)".
  std::string repr() const;
};

}  // namespace opforge::compiler::sema
