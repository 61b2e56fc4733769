// aten_call.cpp - marshal an ATen call into a wrapper call, run it, read the results back.
#include "opforge/harness/aten_call.h"

#include <algorithm>

#include "opforge/compiler/executor.h"
#include "opforge/compiler/wrapper.h"
#include "opforge/harness/aten_runtime.h"
#include "opforge/support/error.h"

namespace opforge::harness {

using compiler::TensorHandle;
using compiler::WrapperValue;

CallMarshal::CallMarshal(compiler::Executor &executor) : ex_(executor) {}

CallMarshal::~CallMarshal() {
  for (auto id : ids_) try {
      ex_.free(id);
    } catch (...) {
      // A buffer the wrapper freed itself; nothing to give back.
    }
}

void CallMarshal::release() { ids_.clear(); }

void CallMarshal::own(const WrapperValue &value) {
  if (value.kind == WrapperValue::Kind::Tensor) {
    const uint64_t id = value.tensor.buffer;
    if (id != 0 && std::find(ids_.begin(), ids_.end(), id) == ids_.end()) ids_.push_back(id);
  }
  if (value.kind == WrapperValue::Kind::List || value.kind == WrapperValue::Kind::Tuple)
    for (const auto &item : value.items) own(item);
}

WrapperValue CallMarshal::to_wrapper(const Value &v, const std::string &where) {
  switch (v.kind) {
    case Value::Kind::None:
      return WrapperValue::none();
    case Value::Kind::Bool:
      return WrapperValue::boolean(v.boolean);
    case Value::Kind::Int:
      return WrapperValue::integer(v.integer);
    case Value::Kind::Double:
      return WrapperValue::floating(v.number);
    case Value::Kind::String:
    case Value::Kind::Layout:
    case Value::Kind::MemoryFormat:
    case Value::Kind::Device:
      return WrapperValue::string(v.text);
    case Value::Kind::DType:
      return WrapperValue::dtype(v.dtype);
    case Value::Kind::Tensor: {
      const HostTensor &t = v.tensor;
      TensorHandle h;
      h.dtype = t.dtype();
      h.sizes = t.sizes();
      h.strides = t.strides();
      h.storage_offset = t.storage_offset();
      // The whole recorded storage goes up, not just the view's elements: as_strided (an
      // explicit storage offset) reads storage outside its input's view.
      const int64_t elem = std::max<int64_t>(dtype_size(t.dtype()), 1);
      const int64_t storage_elems = static_cast<int64_t>(t.storage_bytes()) / elem;
      h.buffer = ex_.allocate(std::max<int64_t>({h.extent_bytes(), storage_elems * elem, 1}));
      WrapperValue w = WrapperValue::of(h);
      own(w);
      if (storage_elems > 0 && h.numel() > 0) {
        TensorHandle flat = h;
        flat.sizes = {storage_elems};
        flat.strides = {1};
        flat.storage_offset = 0;
        ex_.copy_in(flat, HostTensor(t.dtype(), {storage_elems}, {1}, 0, t.storage()));
      } else if (h.numel() > 0) {
        ex_.copy_in(h, t);
      }
      return w;
    }
    case Value::Kind::List: {
      std::vector<WrapperValue> items;
      for (size_t i = 0; i < v.list.size(); ++i)
        items.push_back(to_wrapper(v.list[i], where + "[" + std::to_string(i) + "]"));
      return WrapperValue::list(std::move(items));
    }
    case Value::Kind::Complex:
    case Value::Kind::Opaque:
      break;
  }
  ErrorContext ctx;
  ctx.path = where;
  throw Error("argument " + where + " has a kind the wrappers cannot take (" +
                  std::string(value_kind_name(v.kind)) + "): " + v.summary(),
              ctx);
}

Value CallMarshal::to_host(const WrapperValue &w) {
  switch (w.kind) {
    case WrapperValue::Kind::None:
      return Value::none();
    case WrapperValue::Kind::Bool:
      return Value::of_bool(w.bool_value);
    case WrapperValue::Kind::Int:
      return Value::of_int(w.int_value);
    case WrapperValue::Kind::Float:
      return Value::of_double(w.float_value);
    case WrapperValue::Kind::DType:
      return Value::of_dtype(w.dtype_value);
    case WrapperValue::Kind::Str: {
      Value v;
      v.kind = Value::Kind::String;
      v.text = w.str_value;
      return v;
    }
    case WrapperValue::Kind::Tensor:
      own(w);
      if (w.tensor.numel() == 0)
        return Value::of_tensor(HostTensor(w.tensor.dtype, w.tensor.sizes));
      return Value::of_tensor(ex_.copy_out(w.tensor));
    case WrapperValue::Kind::List:
    case WrapperValue::Kind::Tuple: {
      std::vector<Value> items;
      for (const auto &item : w.items) items.push_back(to_host(item));
      return Value::of_list(std::move(items));
    }
  }
  return Value::none();
}

WrapperValue run_wrapper_call_on_device(
    const CallKernel &kernel, compiler::Executor &executor, const std::string &overload,
    const std::vector<WrapperValue> &args,
    const std::vector<std::pair<std::string, WrapperValue>> &kwargs) {
  if (!kernel.module) return run_view_op(overload, args, kwargs);
  compiler::WrapperOptions wo;
  wo.max_steps = kernel.max_wrapper_steps;
  compiler::WrapperInterpreter interp(*kernel.module, executor, wo);
  return interp.run(kernel.wrapper, args, kwargs).value;
}

CallOutcome run_aten_call(const CallKernel &kernel, compiler::Executor &executor, const Call &call,
                          const std::vector<std::string> &schema_names) {
  CallMarshal marshal(executor);
  std::vector<WrapperValue> args;
  std::vector<std::pair<std::string, WrapperValue>> kwargs;
  for (size_t i = 0; i < call.args.size(); ++i)
    args.push_back(marshal.to_wrapper(call.args[i], "#" + std::to_string(i)));
  for (const auto &[name, value] : call.kwargs)
    kwargs.emplace_back(name, marshal.to_wrapper(value, name));
  const WrapperValue out =
      run_wrapper_call_on_device(kernel, executor, call.overload, args, kwargs);
  CallOutcome r;
  r.out = marshal.to_host(out);
  // The arguments the call should have written, by schema name (positional or keyword);
  // one not passed stays missing and the verifier reports it.
  for (const auto &[name, expected] : call.mutated) {
    (void)expected;
    const WrapperValue *passed = nullptr;
    for (size_t a = 0; a < schema_names.size() && a < args.size(); ++a)
      if (schema_names[a] == name) passed = &args[a];
    for (const auto &[k, v] : kwargs)
      if (k == name) passed = &v;
    if (passed) r.mutated.emplace_back(name, marshal.to_host(*passed));
  }
  return r;
}

}  // namespace opforge::harness
