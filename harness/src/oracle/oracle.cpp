//===- oracle.cpp - call ATen overloads by name through the c10 dispatcher ===//
#include "opforge/harness/oracle.h"

#include <ATen/ATen.h>
#include <ATen/Parallel.h>
#include <ATen/core/dispatch/Dispatcher.h>

#include <cstring>
#include <mutex>

#include "opforge/harness/c10_dtype.h"
#include "opforge/support/error.h"

namespace opforge::harness {

namespace {

// "aten::add.Tensor" -> {"aten::add", "Tensor"}; "aten::_softmax" -> {"aten::_softmax", ""}.
c10::OperatorName split_name(const std::string &overload) {
  std::string full = overload.find("::") == std::string::npos ? "aten::" + overload : overload;
  const size_t ns = full.find("::");
  const size_t dot = full.find('.', ns);
  if (dot == std::string::npos) return {full, ""};
  std::string ov = full.substr(dot + 1);
  if (ov == "default") ov.clear();
  return {full.substr(0, dot), ov};
}

// ATen's TORCH_WARN messages (e.g. var_mean's "degrees of freedom is <= 0") are about the
// recorded sample's inputs, which ATen already saw when the corpus was exported; they say
// nothing about a verdict, and thousands of them buried `opforge ops check`'s output.
class SilentWarnings final : public c10::WarningHandler {
 public:
  void process(const c10::Warning &) override {}
};

// One intra-op thread: the oracle's calls are small and many, and ATen's OpenMP pool spinning
// on a busy machine made `opforge ops check` ~17x slower (1,700 instead of 29,000 calls/s on
// 2 cores); results are the same.
void single_threaded_once() {
  static std::once_flag once;
  std::call_once(once, [] {
    at::set_num_threads(1);
    static SilentWarnings silent;
    c10::WarningUtils::set_warning_handler(&silent);
  });
}

c10::OperatorHandle find_op(const std::string &overload) {
  single_threaded_once();
  auto op = c10::Dispatcher::singleton().findSchema(split_name(overload));
  if (!op) throw Error("oracle: unknown ATen overload '" + overload + "'");
  return *op;
}

at::Tensor to_aten(const HostTensor &t) {
  const int64_t es = t.element_size();
  const int64_t storage_elems = static_cast<int64_t>(t.storage_bytes()) / es;
  at::Tensor base =
      at::empty({storage_elems}, at::TensorOptions().dtype(to_scalar_type(t.dtype())));
  if (storage_elems)
    std::memcpy(base.data_ptr(), t.storage_data(), static_cast<size_t>(storage_elems * es));
  return base.as_strided(t.sizes(), t.strides(), t.storage_offset());
}

Value from_aten(const at::Tensor &t, const std::string &where) {
  if (!t.defined()) return Value::none();
  if (t.layout() != c10::kStrided || !t.device().is_cpu()) {
    Value v;
    v.kind = Value::Kind::Opaque;
    v.text = "non-strided or non-CPU tensor";
    return v;
  }
  at::Tensor r = t.resolve_conj().resolve_neg();
  auto dt = from_scalar_type(r.scalar_type());
  if (!dt) {
    Value v;
    v.kind = Value::Kind::Opaque;
    v.text = std::string(c10::toString(r.scalar_type())) + " tensor";
    for (auto &c : v.text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (v.text.starts_with("complexfloat"))
      v.text = "complex64 tensor";
    else if (v.text.starts_with("complexdouble"))
      v.text = "complex128 tensor";
    return v;
  }
  // Keep the tensor's strides and storage offset: copy its storage.
  const size_t nbytes = r.storage().nbytes();
  auto storage = std::make_shared<std::vector<uint8_t>>(nbytes);
  if (nbytes) std::memcpy(storage->data(), r.storage().data(), nbytes);
  try {
    return Value::of_tensor(
        HostTensor(*dt, r.sizes().vec(), r.strides().vec(), r.storage_offset(), storage));
  } catch (const Error &e) {
    throw Error(where + ": " + e.message());
  }
}

Value from_ivalue(const c10::IValue &v, const std::string &where) {
  if (v.isNone()) return Value::none();
  if (v.isTensor()) return from_aten(v.toTensor(), where);
  if (v.isBool()) return Value::of_bool(v.toBool());
  if (v.isInt()) return Value::of_int(v.toInt());
  if (v.isDouble()) return Value::of_double(v.toDouble());
  if (v.isComplexDouble()) {
    Value c;
    c.kind = Value::Kind::Complex;
    c.number = v.toComplexDouble().real();
    c.imag = v.toComplexDouble().imag();
    return c;
  }
  if (v.isString()) {
    Value s;
    s.kind = Value::Kind::String;
    s.text = v.toStringRef();
    return s;
  }
  if (v.isTuple()) {
    std::vector<Value> items;
    for (const auto &e : v.toTupleRef().elements()) items.push_back(from_ivalue(e, where));
    return Value::of_list(std::move(items));
  }
  if (v.isList()) {
    std::vector<Value> items;
    for (const auto &e : v.toListRef()) items.push_back(from_ivalue(e, where));
    return Value::of_list(std::move(items));
  }
  if (v.isSymInt()) return Value::of_int(v.toSymInt().expect_int());
  throw Error(where + ": result of type " + v.tagKind() + " is not supported");
}

double as_double(const Value &v, const std::string &where) {
  switch (v.kind) {
    case Value::Kind::Double:
      return v.number;
    case Value::Kind::Int:
      return static_cast<double>(v.integer);
    case Value::Kind::Bool:
      return v.boolean ? 1.0 : 0.0;
    default:
      throw Error(where + ": expected a number, got " + v.summary());
  }
}

// Schemas carry ScalarType, Layout and MemoryFormat as int; Values carry them by name.
int64_t as_int(const Value &v, const std::string &where) {
  switch (v.kind) {
    case Value::Kind::Int:
      return v.integer;
    case Value::Kind::Bool:
      return v.boolean ? 1 : 0;
    case Value::Kind::DType:
      return static_cast<int64_t>(to_scalar_type(v.dtype));
    case Value::Kind::Layout:
      if (v.text == "strided") return static_cast<int64_t>(c10::kStrided);
      throw Error(where + ": layout '" + v.text + "' is not supported");
    case Value::Kind::MemoryFormat:
      if (v.text == "contiguous_format") return static_cast<int64_t>(c10::MemoryFormat::Contiguous);
      if (v.text == "preserve_format") return static_cast<int64_t>(c10::MemoryFormat::Preserve);
      if (v.text == "channels_last") return static_cast<int64_t>(c10::MemoryFormat::ChannelsLast);
      if (v.text == "channels_last_3d")
        return static_cast<int64_t>(c10::MemoryFormat::ChannelsLast3d);
      throw Error(where + ": memory format '" + v.text + "' is not supported");
    default:
      throw Error(where + ": expected an integer, got " + v.summary());
  }
}

c10::IValue to_ivalue(const Value &v, const c10::TypePtr &type, const std::string &where);

c10::IValue list_to_ivalue(const Value &v, const c10::ListTypePtr &lt, const std::string &where) {
  const c10::TypePtr &elem = lt->getElementType();
  // A single number passed where a list is expected (e.g. int[1] dims) is broadcast by ATen's
  // parser.
  std::vector<Value> items = v.kind == Value::Kind::List ? v.list : std::vector<Value>{v};
  switch (elem->kind()) {
    case c10::TypeKind::IntType:
    case c10::TypeKind::SymIntType: {  // ATen unboxes an int list as SymInt[]
      c10::List<int64_t> l;
      for (const auto &x : items) l.push_back(as_int(x, where));
      return l;
    }
    case c10::TypeKind::FloatType: {
      c10::List<double> l;
      for (const auto &x : items) l.push_back(as_double(x, where));
      return l;
    }
    case c10::TypeKind::BoolType: {
      c10::List<bool> l;
      for (const auto &x : items) l.push_back(as_int(x, where) != 0);
      return l;
    }
    case c10::TypeKind::TensorType: {
      c10::List<at::Tensor> l;
      for (const auto &x : items) {
        if (!x.is_tensor())
          throw Error(where + ": expected a tensor in the list, got " + x.summary());
        l.push_back(to_aten(x.tensor));
      }
      return l;
    }
    case c10::TypeKind::OptionalType: {
      c10::List<c10::optional<at::Tensor>> l;
      for (const auto &x : items) {
        if (x.kind == Value::Kind::None)
          l.push_back(c10::nullopt);
        else if (x.is_tensor())
          l.push_back(to_aten(x.tensor));
        else
          throw Error(where + ": expected a tensor or None in the list, got " + x.summary());
      }
      return l;
    }
    default: {
      c10::impl::GenericList l(elem);
      for (const auto &x : items) l.push_back(to_ivalue(x, elem, where));
      return l;
    }
  }
}

c10::IValue to_ivalue(const Value &v, const c10::TypePtr &type, const std::string &where) {
  c10::TypePtr t = type;
  if (t->kind() == c10::TypeKind::OptionalType) {
    if (v.kind == Value::Kind::None) return c10::IValue();
    t = t->castRaw<c10::OptionalType>()->getElementType();
  }
  switch (t->kind()) {
    case c10::TypeKind::TensorType:
      if (v.is_tensor()) return to_aten(v.tensor);
      // A Python number where the schema wants a Tensor: ATen's wrapped-number scalar tensor.
      if (v.kind == Value::Kind::Double || v.kind == Value::Kind::Int ||
          v.kind == Value::Kind::Bool) {
        at::Tensor t = v.kind == Value::Kind::Double ? at::scalar_tensor(v.number, at::kDouble)
                       : v.kind == Value::Kind::Int  ? at::scalar_tensor(v.integer, at::kLong)
                                                     : at::scalar_tensor(v.boolean, at::kBool);
        t.unsafeGetTensorImpl()->set_wrapped_number(true);
        return t;
      }
      throw Error(where + ": expected a tensor, got " + v.summary());
    case c10::TypeKind::IntType:
      return as_int(v, where);
    case c10::TypeKind::SymIntType:
      return as_int(v, where);
    case c10::TypeKind::FloatType:
      return as_double(v, where);
    case c10::TypeKind::BoolType:
      return as_int(v, where) != 0;
    case c10::TypeKind::ListType:
      return list_to_ivalue(v, t->cast<c10::ListType>(), where);
    default:
      break;
  }
  switch (v.kind) {
    case Value::Kind::None:
      return c10::IValue();
    case Value::Kind::Bool:
      return v.boolean;
    case Value::Kind::Int:
      return v.integer;
    case Value::Kind::Double:
      return v.number;
    case Value::Kind::Complex:
      return c10::complex<double>(v.number, v.imag);
    case Value::Kind::String:
      return v.text;
    case Value::Kind::Tensor:
      return to_aten(v.tensor);
    case Value::Kind::DType:
    case Value::Kind::Layout:
    case Value::Kind::MemoryFormat:
      return as_int(v, where);
    case Value::Kind::Device:
      return c10::Device(v.text);
    case Value::Kind::List: {
      std::vector<c10::IValue> items;
      for (const auto &x : v.list) items.push_back(to_ivalue(x, c10::AnyType::get(), where));
      return c10::ivalue::Tuple::create(std::move(items));
    }
    case Value::Kind::Opaque:
      throw Error(where + ": cannot pass " + v.summary() + " to ATen");
  }
  throw Error(where + ": unsupported argument");
}

}  // namespace

bool Oracle::has_overload(const std::string &overload) {
  return c10::Dispatcher::singleton().findSchema(split_name(overload)).has_value();
}

std::string Oracle::schema(const std::string &overload) {
  std::ostringstream os;
  os << find_op(overload).schema();
  return os.str();
}

OracleResult Oracle::call(const std::string &overload, const std::vector<Value> &args,
                          const std::vector<std::pair<std::string, Value>> &kwargs) {
  c10::OperatorHandle op = find_op(overload);
  const c10::FunctionSchema &schema = op.schema();
  const auto &formals = schema.arguments();
  size_t positional = 0;
  for (const auto &f : formals)
    if (!f.kwarg_only()) ++positional;
  if (args.size() > positional)
    throw Error("oracle: " + overload + ": " + std::to_string(args.size()) +
                " positional arguments, schema takes " + std::to_string(positional));
  for (const auto &[name, value] : kwargs) {
    bool known = false;
    for (const auto &f : formals) known = known || f.name() == name;
    if (!known) throw Error("oracle: " + overload + ": no argument named '" + name + "'");
  }
  torch::jit::Stack stack;
  std::vector<c10::IValue> inputs;
  for (size_t i = 0; i < formals.size(); ++i) {
    const auto &f = formals[i];
    const std::string where = "oracle: " + overload + ": argument '" + f.name() + "'";
    const Value *given = nullptr;
    if (!f.kwarg_only() && i < args.size()) given = &args[i];
    for (const auto &[name, value] : kwargs)
      if (name == f.name()) given = &value;
    c10::IValue iv;
    if (given)
      iv = to_ivalue(*given, f.type(), where);
    else if (f.default_value())
      iv = *f.default_value();
    else
      throw Error(where + " is missing and has no default");
    inputs.push_back(iv);
    stack.push_back(std::move(iv));
  }
  try {
    op.callBoxed(&stack);
  } catch (const c10::Error &e) {
    throw Error("oracle: " + overload + ": ATen raised: " + e.what_without_backtrace());
  }
  OracleResult result;
  const std::string where = "oracle: " + overload + ": result";
  if (stack.empty()) {
    result.out = Value::none();
  } else if (stack.size() == 1) {
    result.out = from_ivalue(stack[0], where);
  } else {
    std::vector<Value> outs;
    for (const auto &v : stack) outs.push_back(from_ivalue(v, where));
    result.out = Value::of_list(std::move(outs));
  }
  for (size_t i = 0; i < formals.size(); ++i) {
    const auto *alias = formals[i].alias_info();
    if (alias && alias->isWrite() && !inputs[i].isNone())
      result.mutated.emplace_back(formals[i].name(), from_ivalue(inputs[i], where));
  }
  return result;
}

}  // namespace opforge::harness
