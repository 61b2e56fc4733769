// inductor.cpp - torch.compile on the chip: the opforge:: ops that load a TorchInductor
// output module (compiler/inductor_module.h) and run its call() over opforge tensors.
// Every ATen op the module calls (extern_kernels.mm, convolution, fallbacks such as
// _embedding_bag) goes through the PyTorch dispatcher on opforge tensors, so it takes
// the device's one path (dispatch.cpp): the kernel library on the chip, or the CPU,
// counted and profiled like an eager call. The module's own Triton kernels are
// compiled by opforge and recorded in the profile as "triton::NAME" ops.
#include <ATen/core/dispatch/Dispatcher.h>
#include <torch/library.h>

#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

#include "opforge/compiler/inductor_module.h"
#include "opforge/support/error.h"
#include "torch_device.h"

namespace opforge::pydev {
namespace {

using compiler::WrapperValue;
using nlohmann::json;

// Storages of the device buffers one call() sees. Buffers of the arguments and of
// the ATen calls' results keep their torch storages (the tensors stay alive for the
// call); a buffer the module allocated gets a storage that does not own it while the
// module runs, and an owning one when call() returns it.
class Storages {
 public:
  void keep(const at::Tensor &t) {
    if (!t.defined() || t.device().type() != kDeviceType) return;
    owned_.emplace(handle_of(t).buffer, t.storage());
    alive_.push_back(t);
  }

  at::Tensor tensor(const compiler::TensorHandle &h, bool returned) {
    c10::Storage storage;
    if (auto it = owned_.find(h.buffer); it != owned_.end()) {
      storage = it->second;
    } else if (auto r = returned_.find(h.buffer); returned && r != returned_.end()) {
      storage = r->second;
    } else {
      storage = buffer_storage(h.buffer, size_t(std::max<int64_t>(extent_of(h), 1)), returned);
      if (returned) returned_.emplace(h.buffer, storage);
    }
    return tensor_over(std::move(storage), h);
  }

  // The largest extent any returned view needs of its buffer.
  void note_extent(const compiler::TensorHandle &h) {
    extent_[h.buffer] = std::max(extent_[h.buffer], h.extent_bytes());
  }

 private:
  int64_t extent_of(const compiler::TensorHandle &h) const {
    auto it = extent_.find(h.buffer);
    return std::max(h.extent_bytes(), it == extent_.end() ? 0 : it->second);
  }
  std::map<uint64_t, c10::Storage> owned_, returned_;
  std::map<uint64_t, int64_t> extent_;
  std::vector<at::Tensor> alive_;
};

WrapperValue to_wrapper(const c10::IValue &v) {
  if (v.isNone()) return WrapperValue::none();
  if (v.isTensor()) {
    const at::Tensor &t = v.toTensor();
    if (!t.defined()) return WrapperValue::none();
    TORCH_CHECK(t.device().type() == kDeviceType,
                "opforge: an Inductor module's ATen call returned a tensor on ", t.device());
    return WrapperValue::of(handle_of(t));
  }
  if (v.isBool()) return WrapperValue::boolean(v.toBool());
  if (v.isInt()) return WrapperValue::integer(v.toInt());
  if (v.isDouble()) return WrapperValue::floating(v.toDouble());
  if (v.isString()) return WrapperValue::string(v.toStringRef());
  if (v.isList() || v.isTensorList() || v.isIntList() || v.isDoubleList() || v.isBoolList()) {
    std::vector<WrapperValue> items;
    for (const c10::IValue &e : v.toListRef()) items.push_back(to_wrapper(e));
    return WrapperValue::list(std::move(items));
  }
  if (v.isTuple()) {
    std::vector<WrapperValue> items;
    for (const c10::IValue &e : v.toTupleRef().elements()) items.push_back(to_wrapper(e));
    return WrapperValue::tuple(std::move(items));
  }
  TORCH_CHECK(false, "opforge: an Inductor module's ATen call returned a ", v.tagKind());
}

c10::TypePtr unwrap_optional(const c10::TypePtr &type) {
  if (auto opt = type->cast<c10::OptionalType>()) return opt->getElementType();
  return type;
}

// A wrapper value as the IValue `type` of the op's schema wants.
c10::IValue to_ivalue(const WrapperValue &w, const c10::TypePtr &type, Storages &st) {
  using K = WrapperValue::Kind;
  if (w.kind == K::None) return c10::IValue();
  const c10::TypePtr t = unwrap_optional(type);
  switch (t->kind()) {
    case c10::TypeKind::TensorType:
      if (w.kind == K::Tensor) return st.tensor(w.tensor, false);
      if (w.kind == K::Float) return at::scalar_tensor(w.float_value);
      if (w.kind == K::Int) return at::scalar_tensor(w.int_value);
      break;
    case c10::TypeKind::ListType: {
      const c10::TypePtr elem = t->castRaw<c10::ListType>()->getElementType();
      std::vector<WrapperValue> items = w.items;
      if (w.kind != K::List && w.kind != K::Tuple) items = {w};
      const c10::TypePtr e = unwrap_optional(elem);
      if (e->kind() == c10::TypeKind::TensorType) {
        if (elem->kind() == c10::TypeKind::OptionalType) {
          c10::List<std::optional<at::Tensor>> list;
          for (const auto &i : items)
            list.push_back(i.kind == K::None
                               ? std::optional<at::Tensor>()
                               : std::optional<at::Tensor>(st.tensor(i.tensor, false)));
          return list;
        }
        c10::List<at::Tensor> list;
        for (const auto &i : items) list.push_back(st.tensor(i.tensor, false));
        return list;
      }
      if (e->kind() == c10::TypeKind::IntType || e->kind() == c10::TypeKind::SymIntType) {
        std::vector<int64_t> v;
        for (const auto &i : items) v.push_back(i.int_value);
        return v;
      }
      if (e->kind() == c10::TypeKind::FloatType) {
        std::vector<double> v;
        for (const auto &i : items)
          v.push_back(i.kind == K::Int ? double(i.int_value) : i.float_value);
        return v;
      }
      if (e->kind() == c10::TypeKind::BoolType) {
        c10::List<bool> v;
        for (const auto &i : items) v.push_back(i.bool_value);
        return v;
      }
      break;
    }
    case c10::TypeKind::IntType:
    case c10::TypeKind::SymIntType:
      if (w.kind == K::DType) return int64_t(to_scalar_type(w.dtype_value));
      if (w.kind == K::Bool) return int64_t(w.bool_value);
      return w.int_value;
    case c10::TypeKind::FloatType:
      return w.kind == K::Int ? double(w.int_value) : w.float_value;
    case c10::TypeKind::BoolType:
      return w.kind == K::Int ? w.int_value != 0 : w.bool_value;
    case c10::TypeKind::NumberType:
      if (w.kind == K::Int) return c10::Scalar(w.int_value);
      if (w.kind == K::Bool) return c10::Scalar(w.bool_value);
      return c10::Scalar(w.float_value);
    case c10::TypeKind::StringType:
      return w.str_value;
    case c10::TypeKind::ScalarTypeType:
      return int64_t(to_scalar_type(w.dtype_value));
    case c10::TypeKind::DeviceObjType:
      return c10::Device(kDeviceType, 0);
    case c10::TypeKind::LayoutType:
      return int64_t(c10::Layout::Strided);
    case c10::TypeKind::MemoryFormatType:
      return int64_t(c10::MemoryFormat::Contiguous);
    default:
      break;
  }
  TORCH_CHECK(false, "opforge: an Inductor module passes ", w.to_string(),
              " where the schema wants ", type->str());
}

// One ATen call of a module through the dispatcher (the device's one path).
compiler::InductorAtenResult run_aten(const compiler::InductorAtenCall &call, Storages &st,
                                      Runtime &rt) {
  const std::string &name = call.overload;
  const size_t dot = name.find('.', name.find("::") + 2);
  const std::string op = dot == std::string::npos ? name : name.substr(0, dot);
  const std::string overload = dot == std::string::npos ? "" : name.substr(dot + 1);
  auto handle =
      c10::Dispatcher::singleton().findSchema({op, overload == "default" ? "" : overload});
  TORCH_CHECK(handle, "opforge: the Inductor module at ", call.site, " calls ", name,
              ", which is not an ATen operator");
  const c10::FunctionSchema &schema = handle->schema();
  const auto &params = schema.arguments();
  std::vector<std::optional<c10::IValue>> bound(params.size());
  TORCH_CHECK(call.args.size() <= params.size(), "opforge: ", call.site, ": ", name, " takes ",
              params.size(), " arguments, the module passes ", call.args.size());
  for (size_t i = 0; i < call.args.size(); ++i)
    bound[i] = to_ivalue(call.args[i], params[i].type(), st);
  for (const auto &[key, value] : call.kwargs) {
    size_t i = 0;
    while (i < params.size() && params[i].name() != key) ++i;
    TORCH_CHECK(i < params.size(), "opforge: ", call.site, ": ", name, " has no argument '", key,
                "'");
    bound[i] = to_ivalue(value, params[i].type(), st);
  }
  torch::jit::Stack stack;
  for (size_t i = 0; i < params.size(); ++i) {
    if (bound[i]) {
      stack.push_back(*bound[i]);
    } else {
      TORCH_CHECK(params[i].default_value().has_value(), "opforge: ", call.site, ": ", name,
                  " misses its argument '", params[i].name(), "'");
      stack.push_back(*params[i].default_value());
    }
  }
  const auto [chip0, fall0] = rt.chip_and_fallback_calls();
  const size_t launches0 = rt.launch_count();
  handle->callBoxed(&stack);
  const auto [chip1, fall1] = rt.chip_and_fallback_calls();
  compiler::InductorAtenResult r;
  r.on_chip = fall1 == fall0 && chip1 > chip0;
  r.cycles = rt.launch_cycles(launches0, rt.launch_count());
  r.kernel = r.on_chip ? "library" : "cpu fallback";
  for (const c10::IValue &v : stack) {
    if (v.isTensor()) st.keep(v.toTensor());
    if (v.isTensorList())
      for (const at::Tensor &t : v.toTensorList().vec()) st.keep(t);
  }
  if (stack.size() == 1) {
    r.value = to_wrapper(stack[0]);
  } else {
    std::vector<WrapperValue> items;
    for (const c10::IValue &v : stack) items.push_back(to_wrapper(v));
    r.value = WrapperValue::tuple(std::move(items));
  }
  return r;
}

// The last call()'s steps, for opforge.inductor's coverage report.
json last_run;

int64_t inductor_load(std::string source, std::string path) {
  Runtime &rt = runtime();
  try {
    auto module = std::make_unique<compiler::InductorModule>(std::move(source), path);
    module->set_target(rt.inductor_target());
    return rt.add_inductor_module(std::move(module));
  } catch (const Error &e) {
    TORCH_CHECK(false, "opforge: Inductor module ", path, ": ", e.what());
  }
}

std::string dtype_of_args(const std::vector<at::Tensor> &args) {
  for (const at::Tensor &t : args)
    if (t.defined() && t.is_floating_point()) return dtype_label(t.scalar_type());
  return args.empty() || !args[0].defined() ? "none" : dtype_label(args[0].scalar_type());
}

void collect_outputs(const WrapperValue &w, Storages &st) {
  if (w.kind == WrapperValue::Kind::Tensor) st.note_extent(w.tensor);
  for (const auto &i : w.items) collect_outputs(i, st);
}

void flatten_outputs(const WrapperValue &w, Storages &st, std::vector<at::Tensor> &out) {
  if (w.kind == WrapperValue::Kind::Tensor) {
    out.push_back(st.tensor(w.tensor, true));
  } else if (w.kind == WrapperValue::Kind::None) {
    out.push_back(at::Tensor());
  } else {
    for (const auto &i : w.items) flatten_outputs(i, st, out);
  }
}

std::vector<at::Tensor> inductor_call(int64_t handle, std::vector<at::Tensor> args) {
  Runtime &rt = runtime();
  compiler::InductorModule *module = nullptr;
  try {
    module = &rt.inductor_module(handle);
  } catch (const Error &e) {
    TORCH_CHECK(false, e.what());
  }
  Storages st;
  std::vector<WrapperValue> wargs;
  for (const at::Tensor &t : args) {
    if (!t.defined()) {
      wargs.push_back(WrapperValue::none());
      continue;
    }
    if (t.device().type() != kDeviceType && t.dim() == 0) {
      // A CPU scalar input (a symbolic size or a Python number Dynamo lifted).
      wargs.push_back(t.is_floating_point() ? WrapperValue::floating(t.item<double>())
                                            : WrapperValue::integer(t.item<int64_t>()));
      continue;
    }
    TORCH_CHECK(t.device().type() == kDeviceType,
                "opforge: torch.compile's opforge backend got an ", "input on ", t.device(),
                "; move the model and its inputs to the opforge device");
    st.keep(t);
    wargs.push_back(WrapperValue::of(handle_of(t)));
  }
  const std::string dtype = dtype_of_args(args);
  const bool kept = rt.keep_launches(true);
  const size_t first_launch = rt.launch_count();
  std::vector<std::pair<size_t, size_t>> aten_ranges;
  compiler::InductorAtenHook hook = [&](const compiler::InductorAtenCall &call) {
    const size_t from = rt.launch_count();
    compiler::InductorAtenResult r = run_aten(call, st, rt);
    aten_ranges.emplace_back(from, rt.launch_count());
    return r;
  };
  compiler::InductorRunResult result;
  try {
    result = module->call(rt.executor(), wargs, hook);
  } catch (const Error &e) {
    rt.keep_launches(kept);
    TORCH_CHECK(false, "opforge: Inductor module ", module->path(), ": ", e.what());
  }
  // The profile: each Triton kernel as an op with its own cycles; the counters of every
  // launch outside the ATen calls (which the dispatcher's path tallied itself).
  json steps = json::array();
  for (const auto &s : result.steps) {
    if (s.kind == compiler::InductorStep::Kind::TritonKernel)
      rt.profile_triton_kernel(s.name, dtype, s.site, s.cycles);
    steps.push_back(
        {{"kind", s.kind == compiler::InductorStep::Kind::TritonKernel ? "triton" : "aten"},
         {"name", s.name},
         {"site", s.site},
         {"aten_nodes", s.aten_nodes},
         {"on_chip", s.on_chip},
         {"cycles", s.cycles},
         {"config", s.config}});
  }
  size_t from = first_launch;
  for (const auto &[a, b] : aten_ranges) {
    rt.profile_launch_counters(from, a, "triton");
    from = b;
  }
  rt.profile_launch_counters(from, rt.launch_count(), "triton");
  if (!rt.profiling()) rt.truncate_launches(first_launch);
  rt.keep_launches(kept);
  last_run = {{"module", module->path()},
              {"dtype", dtype},
              {"steps", std::move(steps)},
              {"autotune_trial_cycles", result.autotune_trial_cycles}};
  collect_outputs(result.value, st);
  std::vector<at::Tensor> out;
  flatten_outputs(result.value, st, out);
  return out;
}

std::string inductor_last_run() { return last_run.dump(); }

}  // namespace

TORCH_LIBRARY_FRAGMENT(opforge, m) {
  m.def("inductor_load(str source, str path) -> int", inductor_load);
  m.def("inductor_call(int handle, Tensor[] args) -> Tensor[]", inductor_call);
  m.def("inductor_last_run() -> str", inductor_last_run);
}

}  // namespace opforge::pydev
