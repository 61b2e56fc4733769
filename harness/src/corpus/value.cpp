//===- value.cpp - corpus Values: constructors, summaries, JSON decoding ---===//
#include <cmath>
#include <sstream>

#include "opforge/harness/value_json.h"
#include "opforge/support/error.h"

namespace opforge::harness {

Value Value::of_bool(bool b) {
  Value v;
  v.kind = Kind::Bool;
  v.boolean = b;
  return v;
}
Value Value::of_int(int64_t i) {
  Value v;
  v.kind = Kind::Int;
  v.integer = i;
  return v;
}
Value Value::of_double(double d) {
  Value v;
  v.kind = Kind::Double;
  v.number = d;
  return v;
}
Value Value::of_tensor(HostTensor t) {
  Value v;
  v.kind = Kind::Tensor;
  v.tensor = std::move(t);
  return v;
}
Value Value::of_list(std::vector<Value> items) {
  Value v;
  v.kind = Kind::List;
  v.list = std::move(items);
  return v;
}
Value Value::of_dtype(opforge::DType t) {
  Value v;
  v.kind = Kind::DType;
  v.dtype = t;
  return v;
}

std::string_view value_kind_name(Value::Kind kind) {
  switch (kind) {
    case Value::Kind::None:
      return "None";
    case Value::Kind::Bool:
      return "bool";
    case Value::Kind::Int:
      return "int";
    case Value::Kind::Double:
      return "float";
    case Value::Kind::Complex:
      return "complex";
    case Value::Kind::String:
      return "str";
    case Value::Kind::Tensor:
      return "Tensor";
    case Value::Kind::List:
      return "list";
    case Value::Kind::DType:
      return "dtype";
    case Value::Kind::Layout:
      return "layout";
    case Value::Kind::MemoryFormat:
      return "memory_format";
    case Value::Kind::Device:
      return "device";
    case Value::Kind::Opaque:
      return "opaque";
  }
  return "?";
}

namespace {
std::string short_dtype(opforge::DType t) {
  switch (t) {
    case DType::Bool:
      return "b8";
    case DType::UInt8:
      return "u8";
    case DType::Int8:
      return "i8";
    case DType::Int16:
      return "i16";
    case DType::Int32:
      return "i32";
    case DType::Int64:
      return "i64";
    case DType::Float16:
      return "f16";
    case DType::BFloat16:
      return "bf16";
    case DType::Float32:
      return "f32";
    case DType::Float64:
      return "f64";
  }
  return "?";
}
std::string number_text(double d) {
  if (std::isnan(d)) return "nan";
  if (std::isinf(d)) return d > 0 ? "inf" : "-inf";
  std::ostringstream os;
  os << d;
  return os.str();
}
}  // namespace

std::string Value::summary() const {
  switch (kind) {
    case Kind::None:
      return "None";
    case Kind::Bool:
      return boolean ? "True" : "False";
    case Kind::Int:
      return std::to_string(integer);
    case Kind::Double:
      return number_text(number);
    case Kind::Complex:
      return "(" + number_text(number) + "+" + number_text(imag) + "j)";
    case Kind::String:
      return "'" + text + "'";
    case Kind::Tensor: {
      std::string s = short_dtype(tensor.dtype()) + "[";
      for (size_t i = 0; i < tensor.sizes().size(); ++i)
        s += (i ? ", " : "") + std::to_string(tensor.sizes()[i]);
      s += "]";
      if (!tensor.is_contiguous() || tensor.storage_offset() != 0) {
        s += "{strides=";
        for (size_t i = 0; i < tensor.strides().size(); ++i)
          s += (i ? "," : "") + std::to_string(tensor.strides()[i]);
        if (tensor.storage_offset()) s += " offset=" + std::to_string(tensor.storage_offset());
        s += "}";
      }
      return s;
    }
    case Kind::List: {
      std::string s = "[";
      for (size_t i = 0; i < list.size(); ++i) s += (i ? ", " : "") + list[i].summary();
      return s + "]";
    }
    case Kind::DType:
      return "torch." + std::string(dtype_name(dtype));
    case Kind::Layout:
    case Kind::MemoryFormat:
      return "torch." + text;
    case Kind::Device:
      return "device('" + text + "')";
    case Kind::Opaque:
      return "<" + text + ">";
  }
  return "?";
}

std::string Call::summary() const {
  std::string s = overload + "(";
  bool first = true;
  for (const auto &a : args) {
    s += (first ? "" : ", ") + a.summary();
    first = false;
  }
  for (const auto &[k, v] : kwargs) {
    s += (first ? "" : ", ") + k + "=" + v.summary();
    first = false;
  }
  s += ") -> " + out.summary();
  if (!mutated.empty()) {
    s += "  mutates ";
    for (size_t i = 0; i < mutated.size(); ++i) s += (i ? ", " : "") + mutated[i].first;
  }
  return s;
}

namespace {
double decode_float(const nlohmann::json &j, const std::string &where) {
  if (j.is_number()) return j.get<double>();
  if (j.is_string()) {
    std::string s = j.get<std::string>();
    if (s == "nan") return std::nan("");
    if (s == "inf") return INFINITY;
    if (s == "-inf") return -INFINITY;
  }
  throw Error(where + ": bad float value " + j.dump());
}
}  // namespace

Value decode_value(const nlohmann::json &j, const TensorLookup &tensor, const std::string &where) {
  if (j.is_null()) return Value::none();
  if (j.is_boolean()) return Value::of_bool(j.get<bool>());
  if (j.is_number_integer()) return Value::of_int(j.get<int64_t>());
  if (j.is_number_float()) return Value::of_double(j.get<double>());
  if (j.is_array()) {
    std::vector<Value> items;
    items.reserve(j.size());
    for (const auto &x : j) items.push_back(decode_value(x, tensor, where));
    return Value::of_list(std::move(items));
  }
  if (!j.is_object() || j.size() != 1) throw Error(where + ": unrecognised value " + j.dump());
  const auto it = j.begin();
  const std::string key = it.key();
  const nlohmann::json &val = it.value();
  Value v;
  if (key == "t") {
    if (!val.is_number_integer()) throw Error(where + ": tensor reference is not an integer");
    return tensor(val.get<int64_t>());
  } else if (key == "float") {
    return Value::of_double(decode_float(val, where));
  } else if (key == "complex") {
    if (!val.is_array() || val.size() != 2)
      throw Error(where + ": bad complex value " + val.dump());
    v.kind = Value::Kind::Complex;
    v.number = decode_float(val[0], where);
    v.imag = decode_float(val[1], where);
    return v;
  } else if (key == "dtype") {
    if (!val.is_string()) throw Error(where + ": dtype is not a string");
    auto t = parse_dtype(val.get<std::string>());
    if (!t) {
      v.kind = Value::Kind::Opaque;
      v.text = "dtype " + val.get<std::string>();
      return v;
    }
    return Value::of_dtype(*t);
  }
  if (!val.is_string()) throw Error(where + ": '" + key + "' value is not a string");
  v.text = val.get<std::string>();
  if (key == "str")
    v.kind = Value::Kind::String;
  else if (key == "layout")
    v.kind = Value::Kind::Layout;
  else if (key == "memory_format")
    v.kind = Value::Kind::MemoryFormat;
  else if (key == "device")
    v.kind = Value::Kind::Device;
  else
    throw Error(where + ": unknown value kind '" + key + "'");
  return v;
}

}  // namespace opforge::harness
