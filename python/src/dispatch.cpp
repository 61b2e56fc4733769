// dispatch.cpp - the boxed PrivateUse1 fallback: every ATen op on opforge tensors
// that device.cpp does not implement runs through the kernel library on the chip
// (the harness's call path, run_wrapper_call_on_device, with the tensors' device
// buffers used in place), or, with no kernel or a dtype the chip cannot run, on
// the CPU (copy out, run, copy in), warned once per op and dtype and counted.
#include <ATen/native/CPUFallback.h>
#include <torch/library.h>

#include <algorithm>
#include <cstring>
#include <map>
#include <set>
#include <sstream>

#include "opforge/harness/aten_call.h"
#include "opforge/support/error.h"
#include "torch_device.h"

namespace opforge::pydev {
namespace {

using compiler::WrapperValue;

// The dtypes the kernel library's kernels are validated for (docs/library.md).
bool chip_runs(c10::ScalarType t) {
  switch (t) {
    case c10::ScalarType::Bool:
    case c10::ScalarType::Int:
    case c10::ScalarType::Long:
    case c10::ScalarType::Half:
    case c10::ScalarType::BFloat16:
    case c10::ScalarType::Float:
      return true;
    default:
      return false;
  }
}

// Why a call cannot run on the chip (the fallback's reason).
struct NotOnChip {
  std::string reason;
};

c10::TypePtr element_type(const c10::TypePtr &type) {
  if (auto opt = type->cast<c10::OptionalType>()) return opt->getElementType();
  return type;
}

bool is_kind(const c10::TypePtr &type, c10::TypeKind kind) {
  return element_type(type)->kind() == kind;
}

std::string memory_format_name(int64_t v) {
  switch (static_cast<c10::MemoryFormat>(v)) {
    case c10::MemoryFormat::Contiguous:
      return "contiguous_format";
    case c10::MemoryFormat::Preserve:
      return "preserve_format";
    case c10::MemoryFormat::ChannelsLast:
      return "channels_last";
    case c10::MemoryFormat::ChannelsLast3d:
      return "channels_last_3d";
    default:
      return "contiguous_format";
  }
}

// The dtype a call is counted under: its first tensor argument's.
void first_dtype(const c10::IValue &v, std::optional<c10::ScalarType> &out) {
  if (out) return;
  if (v.isTensor() && v.toTensor().defined()) {
    out = v.toTensor().scalar_type();
  } else if (v.isTensorList()) {
    for (const at::Tensor &t : v.toTensorList().vec())
      if (!out && t.defined()) out = t.scalar_type();
  } else if (v.isList()) {
    for (const c10::IValue &e : v.toListRef()) first_dtype(e, out);
  }
}

void summarize(std::ostringstream &os, const c10::IValue &v) {
  if (v.isTensor()) {
    const at::Tensor &t = v.toTensor();
    if (!t.defined()) {
      os << "None";
      return;
    }
    os << dtype_label(t.scalar_type()) << "[";
    for (int64_t d = 0; d < t.dim(); ++d) os << (d ? ", " : "") << t.size(d);
    os << "]";
  } else if (v.isTensorList() || v.isList()) {
    os << "[";
    bool first = true;
    for (const c10::IValue &e : v.toListRef()) {
      os << (first ? "" : ", ");
      summarize(os, e);
      first = false;
    }
    os << "]";
  } else {
    os << v;
  }
}

// "aten::add.Tensor(float32[4, 4], float32[4, 4], alpha=1)"
std::string call_summary(const std::string &overload, const c10::FunctionSchema &schema,
                         c10::ArrayRef<c10::IValue> args) {
  std::ostringstream os;
  os << overload << "(";
  for (size_t i = 0; i < args.size(); ++i) {
    os << (i ? ", " : "");
    if (schema.arguments()[i].kwarg_only()) os << schema.arguments()[i].name() << "=";
    summarize(os, args[i]);
  }
  os << ")";
  return os.str();
}

// One call's arguments on the chip: opforge tensors by their device buffers, CPU
// tensors (wrapped scalars) uploaded for the call and freed after it.
class Marshal {
 public:
  explicit Marshal(compiler::Executor &ex) : temporaries_(ex) {}

  WrapperValue to_wrapper(const c10::IValue &v, const c10::TypePtr &type) {
    if (v.isNone()) return WrapperValue::none();
    if (v.isTensor()) return tensor(v.toTensor());
    if (v.isBool()) return WrapperValue::boolean(v.toBool());
    if (v.isInt()) {
      const int64_t i = v.toInt();
      if (is_kind(type, c10::TypeKind::ScalarTypeType)) {
        auto st = static_cast<c10::ScalarType>(i);
        auto d = to_dtype(st);
        if (!d || !chip_runs(st)) throw NotOnChip{"dtype " + dtype_label(st) + " argument"};
        return WrapperValue::dtype(*d);
      }
      if (is_kind(type, c10::TypeKind::LayoutType)) return WrapperValue::string("strided");
      if (is_kind(type, c10::TypeKind::MemoryFormatType))
        return WrapperValue::string(memory_format_name(i));
      return WrapperValue::integer(i);
    }
    if (v.isSymInt()) return WrapperValue::integer(v.toSymInt().expect_int());
    if (v.isDouble()) return WrapperValue::floating(v.toDouble());
    if (v.isString()) return WrapperValue::string(v.toStringRef());
    if (v.isDevice()) return WrapperValue::string(v.toDevice().str());
    if (v.isList() || v.isTensorList() || v.isIntList() || v.isDoubleList() || v.isBoolList()) {
      c10::TypePtr item = element_type(type);
      if (auto list = item->cast<c10::ListType>()) item = list->getElementType();
      std::vector<WrapperValue> items;
      for (const c10::IValue &e : v.toListRef()) items.push_back(to_wrapper(e, item));
      return WrapperValue::list(std::move(items));
    }
    if (v.isComplexDouble()) throw NotOnChip{"a complex scalar argument"};
    if (v.isGenerator()) throw NotOnChip{"a generator argument"};
    throw NotOnChip{"an argument of type " + v.tagKind()};
  }

  // Input storages by buffer: outputs over them share the storage.
  const std::map<uint64_t, at::Tensor> &inputs() const { return inputs_; }

 private:
  WrapperValue tensor(const at::Tensor &t) {
    if (!t.defined()) return WrapperValue::none();
    // A Python number ATen wrapped in a 0-d CPU tensor goes to the wrapper as the
    // number (the wrappers' type promotion treats it as a scalar, as ATen does).
    if (t.unsafeGetTensorImpl()->is_wrapped_number() && t.device().is_cpu()) {
      if (t.is_floating_point()) return WrapperValue::floating(t.item<double>());
      if (t.scalar_type() == c10::ScalarType::Bool) return WrapperValue::boolean(t.item<bool>());
      if (c10::isIntegralType(t.scalar_type(), false))
        return WrapperValue::integer(t.item<int64_t>());
    }
    if (!chip_runs(t.scalar_type()))
      throw NotOnChip{"dtype " + dtype_label(t.scalar_type()) + " is not run on the chip"};
    if (t.device().type() == kDeviceType) {
      compiler::TensorHandle h = handle_of(t);
      inputs_.emplace(h.buffer, t);
      return WrapperValue::of(h);
    }
    TORCH_CHECK(t.device().is_cpu(), "opforge: an argument on ", t.device());
    at::Tensor c = t.contiguous();
    auto d = to_dtype(c.scalar_type());
    HostTensor host(*d, c.sizes().vec());
    std::memcpy(host.storage_data(), c.data_ptr(), c.numel() * c.element_size());
    return temporaries_.to_wrapper(harness::Value::of_tensor(host), "cpu argument");
  }

  harness::CallMarshal temporaries_;
  std::map<uint64_t, at::Tensor> inputs_;
};

// Output tensors over device buffers: an input's buffer keeps its storage, a new
// buffer (the wrapper allocated it) gets one storage for every output that uses it.
class Outputs {
 public:
  explicit Outputs(const Marshal &marshal) : marshal_(marshal) {}

  c10::IValue to_ivalue(const WrapperValue &w) {
    switch (w.kind) {
      case WrapperValue::Kind::None:
        return c10::IValue();
      case WrapperValue::Kind::Bool:
        return c10::IValue(w.bool_value);
      case WrapperValue::Kind::Int:
        return c10::IValue(w.int_value);
      case WrapperValue::Kind::Float:
        return c10::IValue(w.float_value);
      case WrapperValue::Kind::Str:
        return c10::IValue(w.str_value);
      case WrapperValue::Kind::DType:
        return c10::IValue(static_cast<int64_t>(to_scalar_type(w.dtype_value)));
      case WrapperValue::Kind::Tensor:
        return c10::IValue(tensor(w.tensor));
      case WrapperValue::Kind::List:
      case WrapperValue::Kind::Tuple: {
        bool tensors = !w.items.empty();
        for (const auto &i : w.items) tensors &= i.kind == WrapperValue::Kind::Tensor;
        if (tensors) {
          std::vector<at::Tensor> ts;
          for (const auto &i : w.items) ts.push_back(tensor(i.tensor));
          return c10::IValue(ts);
        }
        std::vector<c10::IValue> items;
        for (const auto &i : w.items) items.push_back(to_ivalue(i));
        return c10::ivalue::Tuple::create(std::move(items));
      }
    }
    return c10::IValue();
  }

  // Every buffer the outputs reach and its extent, before storages are made.
  void scan(const WrapperValue &w) {
    if (w.kind == WrapperValue::Kind::Tensor && w.tensor.buffer) {
      const int64_t bytes = w.tensor.extent_bytes();
      extent_[w.tensor.buffer] = std::max(extent_[w.tensor.buffer], bytes);
    }
    for (const auto &i : w.items) scan(i);
  }

 private:
  at::Tensor tensor(const compiler::TensorHandle &h) {
    c10::Storage storage;
    auto in = marshal_.inputs().find(h.buffer);
    if (in != marshal_.inputs().end()) {
      storage = in->second.storage();
    } else if (auto s = made_.find(h.buffer); s != made_.end()) {
      storage = s->second;
    } else {
      storage = buffer_storage(h.buffer, size_t(std::max<int64_t>(extent_[h.buffer], 1)),
                               /*owning=*/true);
      made_.emplace(h.buffer, storage);
    }
    return tensor_over(std::move(storage), h);
  }

  const Marshal &marshal_;
  std::map<uint64_t, int64_t> extent_;
  std::map<uint64_t, c10::Storage> made_;
};

// The argument a written (a!) return aliases, or -1.
int aliased_argument(const c10::FunctionSchema &schema, const c10::Argument &ret) {
  const c10::AliasInfo *ra = ret.alias_info();
  if (!ra || !ra->isWrite()) return -1;
  for (size_t i = 0; i < schema.arguments().size(); ++i) {
    const c10::AliasInfo *a = schema.arguments()[i].alias_info();
    if (a && a->isWrite() && a->beforeSets() == ra->beforeSets()) return int(i);
  }
  return -1;
}

// An out= overload the library has no kernel for, served by the kernel of its
// functional overload (add.out -> add.Tensor, sum.IntList_out -> sum.dim_IntList):
// the same op with the same arguments but the out= ones. ATen's composite kernels
// (in-place add_ -> add.out(self, other, out=self)) reach the backend this way.
struct OutForm {
  std::string functional;
  std::vector<size_t> out_args;  // argument indices of the out= tensors
};

std::optional<OutForm> out_form(const c10::FunctionSchema &schema, Runtime &rt) {
  static std::map<std::string, std::optional<OutForm>> cache;
  const std::string key = schema.name() + "." + schema.overload_name();
  if (auto it = cache.find(key); it != cache.end()) return it->second;
  std::optional<OutForm> found;
  std::vector<size_t> outs;
  std::vector<const c10::Argument *> rest;
  for (size_t i = 0; i < schema.arguments().size(); ++i) {
    const c10::Argument &a = schema.arguments()[i];
    if (a.kwarg_only() && a.alias_info() && a.alias_info()->isWrite())
      outs.push_back(i);
    else
      rest.push_back(&a);
  }
  for (const std::string &cand :
       outs.empty() ? std::vector<std::string>{} : rt.library_overloads()) {
    const size_t dot = cand.find('.');
    if (cand.substr(0, dot) != schema.name()) continue;
    auto h = c10::Dispatcher::singleton().findSchema(
        {cand.substr(0, dot), dot == std::string::npos ? "" : cand.substr(dot + 1)});
    if (!h || h->schema().returns().size() != outs.size()) continue;
    const auto &fa = h->schema().arguments();
    bool same = fa.size() == rest.size();
    for (size_t k = 0; same && k < fa.size(); ++k)
      same = fa[k].name() == rest[k]->name() && fa[k].type()->str() == rest[k]->type()->str();
    if (same) {
      found = OutForm{cand, outs};
      break;
    }
  }
  cache.emplace(key, found);
  return found;
}

// Runs the call through `kernel` on the chip and replaces its arguments on the
// stack by its results; false (with `why`) when an argument cannot go to the chip.
// With `outs` (an out= overload served by its functional kernel) the out= arguments
// are left out of the wrapper call and receive its results (resized as ATen does).
bool run_on_chip(const c10::OperatorHandle &op, torch::jit::Stack *stack, Runtime &rt,
                 const std::string &overload, const KernelRef &kernel, const std::string &dtype,
                 const std::string &call, const std::vector<size_t> &outs, std::string *why,
                 bool into_self = false, size_t max_args = SIZE_MAX,
                 std::vector<std::pair<std::string, WrapperValue>> kw = {}) {
  const c10::FunctionSchema &schema = op.schema();
  const size_t n = schema.arguments().size();
  auto args = torch::jit::last(*stack, n);
  Marshal marshal(rt.executor());
  std::vector<WrapperValue> pos;
  try {
    for (size_t i = 0; i < n; ++i) {
      if (i >= max_args || std::find(outs.begin(), outs.end(), i) != outs.end()) continue;
      const c10::Argument &a = schema.arguments()[i];
      WrapperValue w = marshal.to_wrapper(args[i], a.real_type());
      if (a.kwarg_only())
        kw.emplace_back(a.name(), std::move(w));
      else
        pos.push_back(std::move(w));
    }
  } catch (const NotOnChip &e) {
    *why = e.reason;
    return false;
  }
  WrapperValue out;
  try {
    out = rt.run_on_chip(overload, kernel, dtype, call, pos, kw);
  } catch (const Error &e) {
    TORCH_CHECK(false, e.what());
  }
  const auto &rets = schema.returns();
  std::vector<WrapperValue> values;
  if (rets.size() == 1)
    values.push_back(out);
  else if (out.kind == WrapperValue::Kind::Tuple || out.kind == WrapperValue::Kind::List)
    values = out.items;
  TORCH_CHECK(values.size() == rets.size(), "opforge: ", overload, ": kernel ", kernel.name,
              " returned ", out.to_string(), " for ", rets.size(), " results");
  Outputs made(marshal);
  for (const auto &v : values) made.scan(v);
  std::vector<c10::IValue> results;
  for (size_t j = 0; j < rets.size(); ++j) {
    if (!outs.empty()) {
      // The functional result into the out= tensor (device to device).
      at::Tensor dst = args[outs[j]].toTensor();
      at::Tensor value = made.to_ivalue(values[j]).toTensor();
      if (dst.sizes() != value.sizes()) dst.resize_(value.sizes());
      dst.copy_(value);
      results.push_back(args[outs[j]]);
      continue;
    }
    if (into_self) {
      // An in-place overload served by its functional kernel: the result into self.
      at::Tensor self = args[0].toTensor();
      self.copy_(made.to_ivalue(values[j]).toTensor());
      results.push_back(args[0]);
      continue;
    }
    const int alias = aliased_argument(schema, rets[j]);
    // A Tensor result the kernel leaves out (None: output_mask) is an undefined tensor.
    if (alias < 0 && values[j].kind == WrapperValue::Kind::None &&
        rets[j].type()->kind() == c10::TypeKind::TensorType) {
      results.emplace_back(at::Tensor());
      continue;
    }
    results.push_back(alias >= 0 ? args[size_t(alias)] : made.to_ivalue(values[j]));
  }
  torch::jit::drop(*stack, n);
  for (auto &r : results) torch::jit::push(*stack, std::move(r));
  return true;
}

// An in-place overload (fill_.Scalar, zero_) the library has no kernel for, served by
// the kernel of its functional twin (fill.Scalar, zero): same name without the
// trailing '_', same arguments, one result; the result is copied into self.
std::optional<std::string> inplace_form(const c10::FunctionSchema &schema, Runtime &rt) {
  static std::map<std::string, std::optional<std::string>> cache;
  const std::string key = schema.name() + "." + schema.overload_name();
  if (auto it = cache.find(key); it != cache.end()) return it->second;
  std::optional<std::string> found;
  const std::string &name = schema.name();
  const auto &args = schema.arguments();
  const bool inplace = name.size() > 1 && name.back() == '_' && !args.empty() &&
                       args[0].alias_info() && args[0].alias_info()->isWrite() &&
                       schema.returns().size() == 1;
  const std::string base = inplace ? name.substr(0, name.size() - 1) : "";
  for (const std::string &cand : inplace ? rt.library_overloads() : std::vector<std::string>{}) {
    const size_t dot = cand.find('.');
    if (cand.substr(0, dot) != base) continue;
    auto h = c10::Dispatcher::singleton().findSchema(
        {base, dot == std::string::npos ? "" : cand.substr(dot + 1)});
    if (!h || h->schema().returns().size() != 1) continue;
    const auto &fa = h->schema().arguments();
    bool same = fa.size() == args.size();
    for (size_t k = 0; same && k < fa.size(); ++k)
      same = fa[k].name() == args[k].name() && fa[k].type()->str() == args[k].type()->str();
    if (same) {
      found = cand;
      break;
    }
  }
  cache.emplace(key, found);
  return found;
}

// Overloads served by the kernel of another ATen overload taking the same leading
// arguments: ones ATen gives no backend kernel of its own (a throwing composite), and
// in-place internals whose functional form has a kernel under another name.
struct Alias {
  std::string kernel;  // the overload whose kernel runs the call
  size_t args;         // how many leading arguments it takes
  bool into_self;      // the result is copied into the (in-place) self
  int out_arg = -1;    // an out= argument: the result goes into it (resized), in its dtype
};

const std::map<std::string, Alias> &kernel_aliases() {
  static const std::map<std::string, Alias> m = {
      {"aten::convolution_overrideable", {"aten::convolution", 9, false}},
      // _index_put_impl_(self, indices, values, accumulate, unsafe): index_put's four.
      {"aten::_index_put_impl_", {"aten::index_put", 4, true}},
      // arange.start_out(start, end, step, *, out): arange.start_step(start, end, step,
      // dtype=out's dtype) into out (ATen's arange factories end here).
      {"aten::arange.start_out", {"aten::arange.start_step", 3, false, 3}},
  };
  return m;
}

// The CPU run of a call with no chip kernel: ATen's CPU fallback, or for the
// overrideable convolutions (whose CPU kernels throw) the CPU convolution itself.
at::Tensor on_cpu(const c10::IValue &v) {
  return v.isTensor() && v.toTensor().defined() ? v.toTensor().cpu() : at::Tensor();
}

at::Tensor on_device(const at::Tensor &t, const c10::Device &d) {
  return t.defined() ? t.to(d) : t;
}

void cpu_run(const c10::OperatorHandle &op, torch::jit::Stack *stack) {
  const c10::FunctionSchema &schema = op.schema();
  if (schema.name() == "aten::convolution_overrideable") {
    auto a = torch::jit::last(*stack, 9);
    const c10::Device dev = a[0].toTensor().device();
    at::Tensor bias = on_cpu(a[2]);
    at::Tensor out = at::convolution(
        on_cpu(a[0]), on_cpu(a[1]), bias.defined() ? c10::optional<at::Tensor>(bias) : c10::nullopt,
        a[3].toIntVector(), a[4].toIntVector(), a[5].toIntVector(), a[6].toBool(),
        a[7].toIntVector(), a[8].toInt());
    torch::jit::drop(*stack, 9);
    torch::jit::push(*stack, on_device(out, dev));
    return;
  }
  if (schema.name() == "aten::convolution_backward_overrideable") {
    auto a = torch::jit::last(*stack, 10);
    const c10::Device dev = a[0].toTensor().device();
    at::Tensor w = on_cpu(a[2]);
    const bool transposed = a[6].toBool();
    const int64_t groups = a[8].toInt();
    const std::vector<int64_t> bias_sizes = {transposed ? w.size(1) * groups : w.size(0)};
    const auto mask = a[9].toBoolList();
    auto [gi, gw, gb] = at::convolution_backward(
        on_cpu(a[0]), on_cpu(a[1]), w, at::OptionalIntArrayRef(bias_sizes), a[3].toIntVector(),
        a[4].toIntVector(), a[5].toIntVector(), transposed, a[7].toIntVector(), groups,
        {mask[0], mask[1], mask[2]});
    torch::jit::drop(*stack, 10);
    torch::jit::push(*stack, on_device(gi, dev));
    torch::jit::push(*stack, on_device(gw, dev));
    torch::jit::push(*stack, on_device(gb, dev));
    return;
  }
  at::native::cpu_fallback(op, stack);
}

// A 2-d convolution without groups, transposition or bias as im2col and a matmul (each
// its own call on the device, so each runs on the chip where it has a kernel): the
// direct kernel's one lane per output element simulates about 100x slower. float32
// accumulation and one rounding, as the direct kernel and ATen's CPU convolution.
bool convolution_as_matmul(torch::jit::Stack *stack) {
  auto a = torch::jit::last(*stack, 9);
  const at::Tensor &x = a[0].toTensor();
  const at::Tensor &w = a[1].toTensor();
  if (x.dim() != 4 || w.dim() != 4 || a[6].toBool() || a[8].toInt() != 1) return false;
  if (a[2].isTensor() && a[2].toTensor().defined()) return false;
  if (!x.is_floating_point() || !chip_runs(x.scalar_type()) || w.scalar_type() != x.scalar_type())
    return false;
  const std::vector<int64_t> stride = a[3].toIntVector(), padding = a[4].toIntVector(),
                             dilation = a[5].toIntVector();
  if (stride.size() != 2 || padding.size() != 2 || dilation.size() != 2) return false;
  if (x.size(1) != w.size(1)) return false;
  const int64_t n = x.size(0), co = w.size(0);
  int64_t o[2];
  for (int d = 0; d < 2; ++d) {
    o[d] = (x.size(2 + d) + 2 * padding[d] - dilation[d] * (w.size(2 + d) - 1) - 1) / stride[d] + 1;
    if (o[d] <= 0) return false;
  }
  at::Tensor cols = at::im2col(x, {w.size(2), w.size(3)}, dilation, padding, stride);
  at::Tensor out = at::matmul(w.reshape({co, -1}), cols).reshape({n, co, o[0], o[1]});
  torch::jit::drop(*stack, 9);
  torch::jit::push(*stack, std::move(out));
  return true;
}

// The backward of a 2-d convolution without transposition (any groups) as chip calls:
// with cols = im2col(x) viewed [N, g, K, L] (K = C_in/g * kh * kw, L = output pixels)
// and dy viewed [N, g, C_out/g, L], per group grad_weight = dy @ cols^T summed over the
// batch (one bmm over [g, C_out/g, N*L] x [g, N*L, K]), grad_input = col2im(w^T @ dy)
// (one bmm, then col2im sums each pixel's column entries), grad_bias = dy summed over
// batch and pixels. float32 accumulation inside each kernel, one rounding each.
bool convolution_backward_as_matmul(torch::jit::Stack *stack) {
  auto a = torch::jit::last(*stack, 10);
  const at::Tensor &dy = a[0].toTensor();
  const at::Tensor &x = a[1].toTensor();
  const at::Tensor &w = a[2].toTensor();
  if (x.dim() != 4 || w.dim() != 4 || dy.dim() != 4 || a[6].toBool()) return false;
  if (!x.is_floating_point() || !chip_runs(x.scalar_type()) || w.scalar_type() != x.scalar_type() ||
      dy.scalar_type() != x.scalar_type())
    return false;
  const std::vector<int64_t> stride = a[3].toIntVector(), padding = a[4].toIntVector(),
                             dilation = a[5].toIntVector();
  if (stride.size() != 2 || padding.size() != 2 || dilation.size() != 2) return false;
  const int64_t g = a[8].toInt();
  const int64_t n = x.size(0), ci = x.size(1), co = w.size(0);
  if (g < 1 || ci % g != 0 || co % g != 0 || w.size(1) * g != ci) return false;
  const int64_t l = dy.size(2) * dy.size(3), k = w.size(1) * w.size(2) * w.size(3);
  const auto mask = a[9].toBoolList();
  // dy as [g, C_out/g, N*L]
  at::Tensor dyg = dy.reshape({n, g, co / g, l}).permute({1, 2, 0, 3}).reshape({g, co / g, n * l});
  at::Tensor gi, gw, gb;
  if (mask[0]) {
    // w^T as a strided view: the bmm kernel reads strided operands (no copy of the weight)
    at::Tensor wt = w.reshape({g, co / g, k}).transpose(1, 2);  // [g, K, C_out/g]
    at::Tensor cols = at::bmm(wt, dyg);                         // [g, K, N*L]
    cols = cols.reshape({g, k, n, l}).permute({2, 0, 1, 3}).reshape({n, g * k, l});
    gi =
        at::col2im(cols, {x.size(2), x.size(3)}, {w.size(2), w.size(3)}, dilation, padding, stride);
  }
  if (mask[1]) {
    at::Tensor cols = at::im2col(x, {w.size(2), w.size(3)}, dilation, padding, stride);
    cols = cols.reshape({n, g, k, l}).permute({1, 0, 3, 2}).reshape({g, n * l, k});
    gw = at::bmm(dyg, cols).reshape(w.sizes());
  }
  if (mask[2]) gb = at::sum(dy, {0, 2, 3});
  torch::jit::drop(*stack, 10);
  torch::jit::push(*stack, std::move(gi));
  torch::jit::push(*stack, std::move(gw));
  torch::jit::push(*stack, std::move(gb));
  return true;
}

void fallback(const c10::OperatorHandle &op, torch::jit::Stack *stack) {
  Runtime &rt = runtime();
  if (op.schema().name() == "aten::convolution_backward_overrideable" &&
      convolution_backward_as_matmul(stack))
    return;
  // aten::convolution itself reaches the device once its kernel is registered directly.
  if ((op.schema().name() == "aten::convolution_overrideable" ||
       op.schema().name() == "aten::convolution") &&
      convolution_as_matmul(stack))
    return;
  const c10::FunctionSchema &schema = op.schema();
  const std::string overload =
      schema.name() + (schema.overload_name().empty() ? "" : "." + schema.overload_name());
  auto args = torch::jit::last(*stack, schema.arguments().size());
  std::optional<c10::ScalarType> st;
  for (const c10::IValue &a : args) first_dtype(a, st);
  const std::string dtype = st ? dtype_label(*st) : "none";
  const std::string call = call_summary(overload, schema, args);
  std::string why;
  std::string unused;
  const KernelRef *kernel = rt.kernel_for(overload, &why);
  const Alias *alias = nullptr;
  if (!kernel)
    if (auto it = kernel_aliases().find(overload); it != kernel_aliases().end())
      if ((kernel = rt.kernel_for(it->second.kernel, &unused))) alias = &it->second;
  if (kernel && alias && alias->out_arg >= 0) {
    const c10::IValue &out = args[size_t(alias->out_arg)];
    std::optional<DType> d;
    if (out.isTensor() && chip_runs(out.toTensor().scalar_type()))
      d = to_dtype(out.toTensor().scalar_type());
    if (!d) {
      why = "its out= tensor's dtype is not run on the chip";
    } else if (run_on_chip(op, stack, rt, overload, *kernel, dtype, call, {size_t(alias->out_arg)},
                           &why, false, alias->args, {{"dtype", WrapperValue::dtype(*d)}})) {
      return;
    }
  } else if (kernel) {
    if (run_on_chip(op, stack, rt, overload, *kernel, dtype, call, {}, &why,
                    alias && alias->into_self, alias ? alias->args : SIZE_MAX))
      return;
  } else if (auto form = out_form(schema, rt)) {
    if (const KernelRef *functional = rt.kernel_for(form->functional, &unused))
      if (run_on_chip(op, stack, rt, overload, *functional, dtype, call, form->out_args, &why))
        return;
  } else if (auto twin = inplace_form(schema, rt)) {
    if (const KernelRef *functional = rt.kernel_for(*twin, &unused))
      if (run_on_chip(op, stack, rt, overload, *functional, dtype, call, {}, &why, true)) return;
  }
  if (rt.note_fallback(overload, dtype, call, why))
    TORCH_WARN("opforge: ", overload, " (", dtype, ") runs on the CPU: ", why,
               " (warned once per op and dtype; opforge.stats() counts the fallbacks)");
  cpu_run(op, stack);
}

}  // namespace

void register_library_overloads(const std::vector<std::string> &overloads) {
  static std::set<std::string> done;
  static torch::Library *lib = new torch::Library(
      torch::Library::IMPL, "aten", c10::DispatchKey::PrivateUse1, __FILE__, __LINE__);
  for (const std::string &overload : overloads) {
    if (done.count(overload) || overload.rfind("aten::", 0) != 0) continue;
    const size_t dot = overload.find('.');
    const std::string name = overload.substr(0, dot);
    const std::string over = dot == std::string::npos ? "" : overload.substr(dot + 1);
    auto op = c10::Dispatcher::singleton().findSchema({name, over});
    // A CompositeImplicitAutograd op keeps its decomposition (and its autograd).
    if (!op || op->hasKernelForDispatchKey(c10::DispatchKey::CompositeImplicitAutograd)) continue;
    if (op->hasKernelForDispatchKey(c10::DispatchKey::PrivateUse1)) continue;
    // Factories (no tensor argument) and ops whose results alias an input (split,
    // unbind: views) keep ATen's kernels.
    const c10::FunctionSchema &schema = op->schema();
    bool takes_tensor = false, returns_alias = false;
    for (const auto &a : schema.arguments())
      takes_tensor |= a.type()->kind() == c10::TypeKind::TensorType ||
                      a.type()->str().find("Tensor") != std::string::npos;
    for (const auto &r : schema.returns()) returns_alias |= r.alias_info() != nullptr;
    if (!takes_tensor || returns_alias) continue;
    const std::string qualified = overload.substr(6);
    lib->impl(qualified.c_str(), torch::CppFunction::makeFromBoxedFunction<&fallback>());
    done.insert(overload);
  }
}

namespace {

TORCH_LIBRARY_IMPL(_, PrivateUse1, m) {
  m.fallback(torch::CppFunction::makeFromBoxedFunction<&fallback>());
}

// ATen's convolution reaches a PrivateUse1 backend as the overrideable pair, whose
// CompositeExplicitAutograd kernels throw: the device's own kernels take them
// (convolution_overrideable on the chip through aten::convolution's kernel).
TORCH_LIBRARY_IMPL(aten, PrivateUse1, m) {
  m.impl("convolution_overrideable", torch::CppFunction::makeFromBoxedFunction<&fallback>());
  m.impl("convolution_backward_overrideable",
         torch::CppFunction::makeFromBoxedFunction<&fallback>());
}

}  // namespace
}  // namespace opforge::pydev
