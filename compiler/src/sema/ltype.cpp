//===- ltype.cpp - language-level types (signed ints) and value printing --===//
#include <cmath>
#include <cstdio>

#include "values.h"

namespace opforge::compiler::sema {

bool sc_is_fp8(Sc s) { return s == Sc::F8E4NV || s == Sc::F8E5 || s == Sc::F8E4B15; }
bool sc_is_float(Sc s) {
  return s == Sc::F16 || s == Sc::BF16 || s == Sc::F32 || s == Sc::F64 || sc_is_fp8(s);
}
bool sc_is_int(Sc s) {
  switch (s) {
    case Sc::I1:
    case Sc::I8:
    case Sc::I16:
    case Sc::I32:
    case Sc::I64:
    case Sc::U8:
    case Sc::U16:
    case Sc::U32:
    case Sc::U64:
      return true;
    default:
      return false;
  }
}
bool sc_is_signed(Sc s) { return s == Sc::I8 || s == Sc::I16 || s == Sc::I32 || s == Sc::I64; }
int sc_bits(Sc s) {
  switch (s) {
    case Sc::I1:
      return 1;
    case Sc::I8:
    case Sc::U8:
    case Sc::F8E4NV:
    case Sc::F8E5:
    case Sc::F8E4B15:
      return 8;
    case Sc::I16:
    case Sc::U16:
    case Sc::F16:
    case Sc::BF16:
      return 16;
    case Sc::I32:
    case Sc::U32:
    case Sc::F32:
      return 32;
    case Sc::I64:
    case Sc::U64:
    case Sc::F64:
    case Sc::Ptr:
      return 64;
    case Sc::Void:
      return 0;
  }
  return 0;
}
ttir::Elem sc_elem(Sc s) {
  using E = ttir::Elem;
  switch (s) {
    case Sc::I1:
      return E::I1;
    case Sc::I8:
    case Sc::U8:
    case Sc::F8E4NV:
    case Sc::F8E5:
    case Sc::F8E4B15:
      return E::I8;
    case Sc::I16:
    case Sc::U16:
      return E::I16;
    case Sc::I32:
    case Sc::U32:
      return E::I32;
    case Sc::I64:
    case Sc::U64:
      return E::I64;
    case Sc::F16:
      return E::F16;
    case Sc::BF16:
      return E::BF16;
    case Sc::F32:
      return E::F32;
    case Sc::F64:
      return E::F64;
    case Sc::Ptr:
      return E::Ptr;
    case Sc::Void:
      return E::None;
  }
  return E::None;
}
std::string sc_name(Sc s) {
  switch (s) {
    case Sc::I1:
      return "int1";
    case Sc::I8:
      return "int8";
    case Sc::I16:
      return "int16";
    case Sc::I32:
      return "int32";
    case Sc::I64:
      return "int64";
    case Sc::U8:
      return "uint8";
    case Sc::U16:
      return "uint16";
    case Sc::U32:
      return "uint32";
    case Sc::U64:
      return "uint64";
    case Sc::F16:
      return "fp16";
    case Sc::BF16:
      return "bf16";
    case Sc::F32:
      return "fp32";
    case Sc::F64:
      return "fp64";
    case Sc::F8E4NV:
      return "fp8e4nv";
    case Sc::F8E5:
      return "fp8e5";
    case Sc::F8E4B15:
      return "fp8e4b15";
    case Sc::Ptr:
      return "pointer";
    case Sc::Void:
      return "void";
  }
  return "?";
}
std::optional<Sc> sc_from_name(std::string_view n) {
  static const std::pair<std::string_view, Sc> names[] = {{"int1", Sc::I1},
                                                          {"i1", Sc::I1},
                                                          {"bool", Sc::I1},
                                                          {"int8", Sc::I8},
                                                          {"i8", Sc::I8},
                                                          {"int16", Sc::I16},
                                                          {"i16", Sc::I16},
                                                          {"int32", Sc::I32},
                                                          {"i32", Sc::I32},
                                                          {"int64", Sc::I64},
                                                          {"i64", Sc::I64},
                                                          {"uint8", Sc::U8},
                                                          {"u8", Sc::U8},
                                                          {"uint16", Sc::U16},
                                                          {"u16", Sc::U16},
                                                          {"uint32", Sc::U32},
                                                          {"u32", Sc::U32},
                                                          {"uint64", Sc::U64},
                                                          {"u64", Sc::U64},
                                                          {"float16", Sc::F16},
                                                          {"fp16", Sc::F16},
                                                          {"half", Sc::F16},
                                                          {"bfloat16", Sc::BF16},
                                                          {"bf16", Sc::BF16},
                                                          {"float32", Sc::F32},
                                                          {"fp32", Sc::F32},
                                                          {"float", Sc::F32},
                                                          {"float64", Sc::F64},
                                                          {"fp64", Sc::F64},
                                                          {"double", Sc::F64},
                                                          {"int", Sc::I32},
                                                          {"long", Sc::I64},
                                                          {"float8e4nv", Sc::F8E4NV},
                                                          {"fp8e4nv", Sc::F8E4NV},
                                                          {"float8e5", Sc::F8E5},
                                                          {"fp8e5", Sc::F8E5},
                                                          {"float8e4b15", Sc::F8E4B15},
                                                          {"fp8e4b15", Sc::F8E4B15}};
  for (auto &[k, v] : names)
    if (k == n) return v;
  return std::nullopt;
}

bool LType::is_float() const { return sc_is_float(sc); }
bool LType::is_int() const { return sc_is_int(sc); }
bool LType::is_signed() const { return sc_is_signed(sc); }
bool LType::is_unsigned() const {
  return sc == Sc::U8 || sc == Sc::U16 || sc == Sc::U32 || sc == Sc::U64;
}
int LType::bits() const { return sc_bits(sc); }

ttir::Type LType::ir() const {
  if (sc == Sc::Ptr) {
    ttir::Type t = ttir::Type::ptr(sc_elem(pointee), pointee_shape);
    t.shape = shape;
    return t;
  }
  return ttir::Type(sc_elem(sc), shape);
}

std::string LType::str() const {
  std::string e;
  if (sc == Sc::Ptr) {
    if (!pointee_shape.empty()) {
      e = "pointer<<[";
      for (size_t i = 0; i < pointee_shape.size(); ++i)
        e += (i ? ", " : "") + std::to_string(pointee_shape[i]);
      e += "], " + sc_name(pointee) + ">>";
    } else {
      e = "pointer<" + sc_name(pointee) + ">";
    }
  } else {
    e = sc_name(sc);
  }
  if (shape.empty()) return e;
  std::string s = "<[";
  for (size_t i = 0; i < shape.size(); ++i) s += (i ? ", " : "") + std::to_string(shape[i]);
  return s + "], " + e + ">";
}

std::string SValue::repr() const {
  switch (kind) {
    case Kind::None:
      return "None";
    case Kind::Bool:
      return b ? "True" : "False";
    case Kind::Int:
      return std::to_string(i);
    case Kind::Float: {
      if (std::isinf(f)) return f < 0 ? "-inf" : "inf";
      if (std::isnan(f)) return "nan";
      char buf[64];
      std::snprintf(buf, sizeof buf, "%.17g", f);
      std::string r = buf;
      if (r.find_first_of(".e") == std::string::npos) r += ".0";
      return r;
    }
    case Kind::Str:
      return "'" + s + "'";
    case Kind::DType:
      return "tl." + (type.sc == Sc::Ptr ? type.str() : sc_name(type.sc));
    case Kind::Tuple: {
      std::string r = "(";
      for (size_t k = 0; k < elts.size(); ++k) r += (k ? ", " : "") + elts[k].repr();
      if (elts.size() == 1) r += ",";
      return r + ")";
    }
    case Kind::Func:
      return "<function " + func.name + ">";
    case Kind::Tensor:
      return "tensor<" + type.str() + ">";
  }
  return "?";
}

}  // namespace opforge::compiler::sema
