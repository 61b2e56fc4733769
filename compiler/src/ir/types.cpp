//===- types.cpp - ttir types: predicates, printing and parsing ------------===//
#include "opforge/compiler/types.h"

#include <cctype>

#include "opforge/support/error.h"

namespace opforge::ttir {

Type Type::ptr(Elem pointee_elem, std::vector<int64_t> block_shape) {
  Type t(Elem::Ptr);
  t.pointee = pointee_elem;
  t.pointee_shape = std::move(block_shape);
  return t;
}

bool elem_is_float(Elem e) {
  return e == Elem::F16 || e == Elem::BF16 || e == Elem::F32 || e == Elem::F64;
}
bool elem_is_int(Elem e) {
  return e == Elem::I1 || e == Elem::I8 || e == Elem::I16 || e == Elem::I32 || e == Elem::I64;
}
int elem_bits(Elem e) {
  switch (e) {
    case Elem::I1:
      return 1;
    case Elem::I8:
      return 8;
    case Elem::I16:
    case Elem::F16:
    case Elem::BF16:
      return 16;
    case Elem::I32:
    case Elem::F32:
      return 32;
    case Elem::I64:
    case Elem::F64:
    case Elem::Ptr:
      return 64;
    case Elem::None:
      return 0;
  }
  return 0;
}
std::string_view elem_name(Elem e) {
  switch (e) {
    case Elem::None:
      return "none";
    case Elem::I1:
      return "i1";
    case Elem::I8:
      return "i8";
    case Elem::I16:
      return "i16";
    case Elem::I32:
      return "i32";
    case Elem::I64:
      return "i64";
    case Elem::F16:
      return "f16";
    case Elem::BF16:
      return "bf16";
    case Elem::F32:
      return "f32";
    case Elem::F64:
      return "f64";
    case Elem::Ptr:
      return "ptr";
  }
  return "?";
}
Elem elem_from_dtype(DType d) {
  switch (d) {
    case DType::Bool:
      return Elem::I1;
    case DType::UInt8:
    case DType::Int8:
      return Elem::I8;
    case DType::Int16:
      return Elem::I16;
    case DType::Int32:
      return Elem::I32;
    case DType::Int64:
      return Elem::I64;
    case DType::Float16:
      return Elem::F16;
    case DType::BFloat16:
      return Elem::BF16;
    case DType::Float32:
      return Elem::F32;
    case DType::Float64:
      return Elem::F64;
  }
  return Elem::None;
}

bool Type::is_float() const { return elem_is_float(elem); }
bool Type::is_int() const { return elem_is_int(elem); }
int Type::bitwidth() const { return elem_bits(elem); }
int64_t Type::numel() const {
  int64_t n = 1;
  for (auto d : shape) n *= d;
  return n;
}
Type Type::scalar() const { return with_shape({}); }
Type Type::with_shape(std::vector<int64_t> s) const {
  Type t = *this;
  t.shape = std::move(s);
  return t;
}
Type Type::pointee_type() const {
  Type t(pointee, pointee_shape);
  return t;
}

static std::string elem_str(Elem e, Elem pointee, const std::vector<int64_t> &pshape) {
  if (e != Elem::Ptr) return std::string(elem_name(e));
  std::string inner;
  if (!pshape.empty()) {
    inner = "tensor<";
    for (auto d : pshape) inner += std::to_string(d) + "x";
    inner += std::string(elem_name(pointee)) + ">";
  } else {
    inner = std::string(elem_name(pointee));
  }
  return "!tt.ptr<" + inner + ">";
}

std::string Type::str() const {
  std::string e = elem_str(elem, pointee, pointee_shape);
  if (shape.empty()) return e;
  std::string s = "tensor<";
  for (auto d : shape) s += std::to_string(d) + "x";
  return s + e + ">";
}

namespace {
struct TypeParser {
  std::string_view t;
  size_t p = 0;
  [[noreturn]] void fail(const std::string &why) {
    throw Error("bad type '" + std::string(t) + "': " + why);
  }
  bool eat(std::string_view s) {
    if (t.substr(p, s.size()) == s) {
      p += s.size();
      return true;
    }
    return false;
  }
  Elem scalar_elem() {
    static const std::pair<std::string_view, Elem> names[] = {
        {"bf16", Elem::BF16}, {"i16", Elem::I16}, {"i32", Elem::I32},
        {"i64", Elem::I64},   {"i1", Elem::I1},   {"i8", Elem::I8},
        {"f16", Elem::F16},   {"f32", Elem::F32}, {"f64", Elem::F64}};
    for (auto &[n, e] : names)
      if (eat(n)) return e;
    fail("expected an element type at offset " + std::to_string(p));
  }
  // element (scalar or pointer), sets pointee info into out
  void element(Type &out) {
    if (eat("!tt.ptr<")) {
      out.elem = Elem::Ptr;
      if (eat("tensor<")) {
        out.pointee_shape = dims();
        out.pointee = scalar_elem();
        if (!eat(">")) fail("expected '>'");
      } else {
        out.pointee = scalar_elem();
      }
      if (!eat(">")) fail("expected '>'");
      return;
    }
    out.elem = scalar_elem();
  }
  std::vector<int64_t> dims() {
    std::vector<int64_t> d;
    while (p < t.size() && std::isdigit(static_cast<unsigned char>(t[p]))) {
      int64_t v = 0;
      while (p < t.size() && std::isdigit(static_cast<unsigned char>(t[p])))
        v = v * 10 + (t[p++] - '0');
      if (!eat("x")) fail("expected 'x' after a dimension");
      d.push_back(v);
    }
    return d;
  }
  Type parse() {
    Type out;
    if (eat("tensor<")) {
      out.shape = dims();
      if (out.shape.empty()) fail("a tensor needs at least one dimension");
      element(out);
      if (!eat(">")) fail("expected '>'");
    } else {
      element(out);
    }
    if (p != t.size()) fail("unexpected text at offset " + std::to_string(p));
    return out;
  }
};
}  // namespace

Type parse_type(std::string_view text) {
  TypeParser tp{text};
  return tp.parse();
}

}  // namespace opforge::ttir
