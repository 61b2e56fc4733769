//===- torch_ops.cpp - wrapper interpreter: torch functions and tensor views ===//
#include <cmath>

#include "interp_impl.h"
#include "shape.h"

namespace opforge::compiler {

using T = Value::T;
using wrapper_detail::Dims;
using wrapper_detail::dims_text;
using wrapper_detail::str_of;
using wrapper_detail::type_name;

namespace {

constexpr const char *kDevice = "mtia";

int64_t norm_dim(const WrapperInterpreter::Impl &im, int64_t d, int64_t ndim, SourceLoc loc) {
  int64_t n = ndim == 0 ? 1 : ndim;
  if (d < -n || d >= n)
    im.fail(loc, "IndexError: Dimension out of range (expected to be in range of [" +
                     std::to_string(-n) + ", " + std::to_string(n - 1) + "], but got " +
                     std::to_string(d) + ")");
  return d < 0 ? d + n : d;
}

HostTensor filled(DType dtype, const Dims &sizes, const Value &v) {
  HostTensor h(dtype, sizes);
  int64_t n = h.numel();
  bool as_int = v.t != T::Float && !dtype_is_float(dtype);
  for (int64_t i = 0; i < n; ++i) {
    if (as_int)
      h.set_int(i, v.t == T::Bool ? v.b : v.i);
    else
      h.set_double(i, v.t == T::Float  ? v.f
                      : v.t == T::Bool ? static_cast<double>(v.b)
                                       : static_cast<double>(v.i));
  }
  return h;
}

// Strides for a new tensor like `t` (torch.preserve_format): dense tensors keep
// their dimension order, others become contiguous.
Dims like_strides(const TensorHandle &t) {
  Dims sizes = t.sizes;
  if (t.is_contiguous()) return wrapper_detail::contiguous_strides(sizes);
  std::vector<size_t> order(sizes.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return t.strides[a] > t.strides[b]; });
  Dims st(sizes.size());
  int64_t acc = 1;
  for (size_t k = order.size(); k-- > 0;) {
    st[order[k]] = acc;
    acc *= std::max<int64_t>(sizes[order[k]], 1);
  }
  // Dense only when the original strides were exactly these (a permutation of contiguous).
  for (size_t i = 0; i < st.size(); ++i)
    if (sizes[i] != 1 && st[i] != t.strides[i]) return wrapper_detail::contiguous_strides(sizes);
  return st;
}

}  // namespace

TensorHandle WrapperInterpreter::Impl::new_tensor(DType dtype, const std::vector<int64_t> &sizes,
                                                  SourceLoc loc) {
  int64_t numel = 1;
  for (auto s : sizes) {
    if (s < 0)
      fail(loc, "RuntimeError: Trying to create tensor with negative dimension " +
                    std::to_string(s) + ": " + dims_text(sizes));
    if (s > 0 && numel > (int64_t{1} << 40) / s)
      fail(loc, "RuntimeError: tensor of shape " + dims_text(sizes) + " is too large");
    numel *= s;
  }
  TensorHandle h;
  h.dtype = dtype;
  h.sizes = sizes;
  h.strides = wrapper_detail::contiguous_strides(sizes);
  h.buffer = allocate(numel * dtype_size(dtype), loc);
  allocated.insert(h.buffer);
  return h;
}

TensorHandle WrapperInterpreter::Impl::contiguous_copy(const TensorHandle &src, DType dtype,
                                                       SourceLoc loc) {
  TensorHandle dst = new_tensor(dtype, src.sizes, loc);
  if (src.numel() > 0) executor.copy(dst, src);
  return dst;
}

namespace {

struct Creation {
  std::optional<DType> dtype;
};

Creation creation_kwargs(WrapperInterpreter::Impl &im, Kwargs &kwargs, const std::string &fn,
                         SourceLoc loc) {
  Creation c;
  if (auto d = take_kwarg(kwargs, "dtype"); d && d->t != T::None) {
    if (d->t != T::DType)
      im.fail(loc, "TypeError: " + fn + "(): dtype must be a torch.dtype, not " + type_name(*d));
    c.dtype = d->dtype;
  }
  if (auto d = take_kwarg(kwargs, "device"); d && d->t != T::None) {
    std::string dev = d->t == T::Device || d->t == T::Str ? d->s : "";
    if (dev.rfind(kDevice, 0) != 0)
      im.fail(loc, fn + "(): device '" + (dev.empty() ? str_of(*d) : dev) +
                       "' is not the accelerator; wrappers keep tensors on the device (use "
                       "device=<input>.device)");
  }
  for (const char *ignored : {"layout", "requires_grad", "memory_format"})
    take_kwarg(kwargs, ignored);
  if (auto p = take_kwarg(kwargs, "pin_memory"); p && p->t == T::Bool && p->b)
    im.fail(loc, fn + "(): pin_memory=True asks for host memory, which wrappers may not use");
  no_more_kwargs(im, kwargs, "torch." + fn, loc);
  return c;
}

}  // namespace

Value WrapperInterpreter::Impl::call_torch(const std::string &name, ValueList &args, Kwargs &kwargs,
                                           SourceLoc loc) {
  auto tensor_arg = [&](size_t i) -> const TensorHandle & {
    if (i >= args.size() || args[i].t != T::Tensor)
      fail(loc, "TypeError: torch." + name + "() argument " + std::to_string(i + 1) +
                    " must be a Tensor");
    return args[i].th();
  };
  if (name == "Size") return call_builtin("torch.Size", args, kwargs, loc);
  if (name == "empty" || name == "zeros" || name == "ones") {
    Dims sizes = sizes_from_args(args, 0, loc, "size");
    Creation c = creation_kwargs(*this, kwargs, name, loc);
    TensorHandle h = new_tensor(c.dtype.value_or(DType::Float32), sizes, loc);
    if (name != "empty" && h.numel() > 0)
      executor.copy_in(h, filled(h.dtype, sizes, Value::integer(name == "ones")));
    return Value::of(h);
  }
  if (name == "full") {
    if (args.size() != 2) fail(loc, "TypeError: torch.full() takes a size and a fill_value");
    Dims sizes = to_int_list(args[0], loc, "size");
    Creation c = creation_kwargs(*this, kwargs, name, loc);
    const Value &v = args[1];
    if (!v.is_num())
      fail(loc, "TypeError: torch.full(): fill_value must be a number, not " + type_name(v));
    DType dt = c.dtype.value_or(v.t == T::Bool  ? DType::Bool
                                : v.t == T::Int ? DType::Int64
                                                : DType::Float32);
    TensorHandle h = new_tensor(dt, sizes, loc);
    if (h.numel() > 0) executor.copy_in(h, filled(dt, sizes, v));
    return Value::of(h);
  }
  if (name == "empty_like" || name == "zeros_like" || name == "ones_like" || name == "full_like") {
    const TensorHandle &src = tensor_arg(0);
    Value fill = name == "full_like" ? (args.size() > 1 ? args[1] : Value::none())
                                     : Value::integer(name == "ones_like");
    if (name == "full_like" && !fill.is_num())
      fail(loc, "TypeError: torch.full_like() needs a numeric fill_value");
    Creation c = creation_kwargs(*this, kwargs, name, loc);
    DType dt = c.dtype.value_or(src.dtype);
    TensorHandle h = new_tensor(dt, src.sizes, loc);
    h.strides = like_strides(src);
    if (name != "empty_like" && h.numel() > 0) executor.copy_in(h, filled(dt, h.sizes, fill));
    return Value::of(h);
  }
  if (name == "empty_strided") {
    if (args.size() != 2) fail(loc, "TypeError: torch.empty_strided() takes a size and a stride");
    Dims sizes = to_int_list(args[0], loc, "size"), strides = to_int_list(args[1], loc, "stride");
    if (sizes.size() != strides.size())
      fail(loc, "RuntimeError: mismatch in length of strides and shape");
    for (auto s : strides)
      if (s < 0) fail(loc, "RuntimeError: empty_strided: negative strides are not supported");
    Creation c = creation_kwargs(*this, kwargs, name, loc);
    TensorHandle h;
    h.dtype = c.dtype.value_or(DType::Float32);
    h.sizes = sizes;
    h.strides = strides;
    for (auto s : sizes)
      if (s < 0)
        fail(loc,
             "RuntimeError: Trying to create tensor with negative dimension " + std::to_string(s));
    h.buffer = allocate(h.extent_bytes(), loc);
    allocated.insert(h.buffer);
    return Value::of(h);
  }
  if (name == "arange") {
    if (args.empty() || args.size() > 3)
      fail(loc, "TypeError: torch.arange() takes 1 to 3 positional arguments");
    Value start = args.size() > 1 ? args[0] : Value::integer(0);
    Value end = args.size() > 1 ? args[1] : args[0];
    Value stepv = args.size() > 2 ? args[2] : Value::integer(1);
    Creation c = creation_kwargs(*this, kwargs, name, loc);
    bool ints = start.is_int_like() && end.is_int_like() && stepv.is_int_like();
    double s = to_float(start, loc, "arange start"), e = to_float(end, loc, "arange end"),
           st = to_float(stepv, loc, "arange step");
    if (st == 0) fail(loc, "RuntimeError: arange: step must be nonzero");
    if ((st > 0 && e < s) || (st < 0 && e > s))
      fail(loc, "RuntimeError: arange: upper bound and larger bound inconsistent with step sign");
    int64_t n = static_cast<int64_t>(std::ceil((e - s) / st));
    DType dt = c.dtype.value_or(ints ? DType::Int64 : DType::Float32);
    TensorHandle h = new_tensor(dt, {n}, loc);
    if (n > 0) {
      HostTensor host(dt, {n});
      for (int64_t i = 0; i < n; ++i) {
        if (ints && !dtype_is_float(dt))
          host.set_int(i, start.i + i * stepv.i);
        else
          host.set_double(i, s + static_cast<double>(i) * st);
      }
      executor.copy_in(h, host);
    }
    return Value::of(h);
  }
  no_more_kwargs(*this, kwargs, "torch." + name, loc);
  if (name == "broadcast_shapes") {
    Dims out;
    for (auto &a : args) {
      Dims d = a.is_int_like() ? Dims{to_int(a, loc, "shape")} : to_int_list(a, loc, "shape");
      auto b = wrapper_detail::broadcast(out, d);
      if (!b)
        fail(loc,
             "RuntimeError: Shape mismatch: objects cannot be broadcast to a single shape.  "
             "Mismatch is between " +
                 dims_text(out) + " and " + dims_text(d));
      out = *b;
    }
    ValueList items;
    for (auto x : out) items.push_back(Value::integer(x));
    return Value::tuple(std::move(items));
  }
  if (name == "broadcast_tensors") {
    Dims out;
    for (size_t i = 0; i < args.size(); ++i) {
      auto b = wrapper_detail::broadcast(out, tensor_arg(i).sizes);
      if (!b)
        fail(loc, "RuntimeError: The size of tensor a (" + dims_text(out) +
                      ") must match the size of tensor b (" + dims_text(tensor_arg(i).sizes) +
                      ") at a non-singleton dimension");
      out = *b;
    }
    ValueList items;
    ValueList shape;
    for (auto x : out) shape.push_back(Value::integer(x));
    for (auto &a : args) {
      ValueList margs{Value::tuple(shape)};
      Kwargs none;
      items.push_back(tensor_method(a, "expand", margs, none, loc));
    }
    return Value::tuple(std::move(items));
  }
  if (name == "promote_types") {
    if (args.size() != 2 || args[0].t != T::DType || args[1].t != T::DType)
      fail(loc, "TypeError: torch.promote_types() takes two torch.dtype arguments");
    return Value::dtype_of(wrapper_detail::promote_types(args[0].dtype, args[1].dtype));
  }
  if (name == "result_type") {
    if (args.size() != 2) fail(loc, "TypeError: torch.result_type() takes two arguments");
    // Dimensioned tensors > zero-dim tensors > Python scalars; a lower group only
    // matters when its category (bool < int < float) is higher.
    std::optional<DType> groups[3];
    for (auto &a : args) {
      int g;
      DType d;
      if (a.t == T::Tensor) {
        g = a.th().dim() > 0 ? 0 : 1;
        d = a.th().dtype;
      } else if (a.is_num()) {
        g = 2;
        d = a.t == T::Bool ? DType::Bool : a.t == T::Int ? DType::Int64 : DType::Float32;
      } else {
        fail(loc, "TypeError: torch.result_type() arguments must be tensors or numbers, not " +
                      type_name(a));
      }
      groups[g] = groups[g] ? wrapper_detail::promote_types(*groups[g], d) : d;
    }
    std::optional<DType> r;
    for (int g = 0; g < 3; ++g) {
      if (!groups[g]) continue;
      if (!r)
        r = groups[g];
      else if (wrapper_detail::dtype_category(*groups[g]) > wrapper_detail::dtype_category(*r))
        r = g == 2 ? (dtype_is_float(*groups[g]) ? DType::Float32 : DType::Int64)
                   : wrapper_detail::promote_types(*r, *groups[g]);
    }
    return Value::dtype_of(*r);
  }
  if (name == "is_tensor") {
    if (args.size() != 1) fail(loc, "TypeError: torch.is_tensor() takes one argument");
    return Value::boolean(args[0].t == T::Tensor);
  }
  if (name == "is_floating_point") return Value::boolean(dtype_is_float(tensor_arg(0).dtype));
  if (name == "device") {
    if (args.size() != 1 || args[0].t != T::Str)
      fail(loc, "TypeError: torch.device() takes a device string");
    return Value::device(args[0].s);
  }
  fail(loc, "torch." + name + " is not available in wrappers");
}

Value WrapperInterpreter::Impl::tensor_attr(const Value &t, const std::string &name,
                                            SourceLoc loc) {
  const TensorHandle &h = t.th();
  if (name == "shape") {
    ValueList items;
    for (auto s : h.sizes) items.push_back(Value::integer(s));
    return Value::tuple(std::move(items));
  }
  if (name == "dtype") return Value::dtype_of(h.dtype);
  if (name == "device") return Value::device(kDevice);
  if (name == "ndim") return Value::integer(h.dim());
  if (name == "itemsize") return Value::integer(dtype_size(h.dtype));
  if (name == "is_cuda" || name == "is_cpu") return Value::boolean(false);
  if (name == "T") {
    ValueList dims;
    for (int64_t d = h.dim() - 1; d >= 0; --d) dims.push_back(Value::integer(d));
    ValueList a{Value::tuple(dims)};
    Kwargs none;
    return tensor_method(t, "permute", a, none, loc);
  }
  if (wrapper_tensor_methods().count(name)) return Value::method(t, name);
  static const std::set<std::string> to_host = {
      "cpu",        "cuda",     "numpy",           "item",   "tolist",
      "pin_memory", "data_ptr", "untyped_storage", "storage"};
  if (to_host.count(name))
    fail(loc,
         "'." + name + "' moves or exposes device data on the host, which wrappers may not do");
  fail(loc, "Tensor." + name +
                " is not available in wrappers (it is an ATen op or host facility); compute it "
                "with a Triton kernel");
}

Value WrapperInterpreter::Impl::tensor_method(const Value &t, const std::string &name,
                                              ValueList &args, Kwargs &kwargs, SourceLoc loc) {
  const TensorHandle &h = t.th();
  auto with = [&](Dims sizes, Dims strides, int64_t offset) {
    TensorHandle n = h;
    n.sizes = std::move(sizes);
    n.strides = std::move(strides);
    n.storage_offset = offset;
    return Value::of(n);
  };
  auto dim_arg = [&](size_t i, const char *what) {
    return norm_dim(*this, to_int(args.at(i), loc, what), h.dim(), loc);
  };
  auto need = [&](size_t lo, size_t hi) {
    if (args.size() < lo || args.size() > hi)
      fail(loc, "TypeError: Tensor." + name + "() takes " + std::to_string(lo) +
                    (lo == hi ? "" : " to " + std::to_string(hi)) + " arguments (" +
                    std::to_string(args.size()) + " given)");
  };
  if (name == "to" || name == "type_as") {
    std::optional<DType> dt;
    if (name == "type_as") {
      need(1, 1);
      if (args[0].t != T::Tensor) fail(loc, "TypeError: type_as() expects a Tensor");
      dt = args[0].th().dtype;
    }
    for (auto &a : args) {
      if (a.t == T::DType)
        dt = a.dtype;
      else if (a.t == T::Tensor && name == "to")
        dt = a.th().dtype;
      else if ((a.t == T::Str || a.t == T::Device) && a.s.rfind(kDevice, 0) != 0)
        fail(loc, "'.to(\"" + a.s +
                      "\")' moves the tensor off the accelerator, which wrappers may not do");
    }
    if (auto d = take_kwarg(kwargs, "dtype")) dt = d->dtype;
    if (auto d = take_kwarg(kwargs, "device"); d && d->t != T::None && d->s.rfind(kDevice, 0) != 0)
      fail(loc,
           "'.to(device=...)' moves the tensor off the accelerator, which wrappers may not do");
    bool force = false;
    if (auto c = take_kwarg(kwargs, "copy")) force = truthy(*c, loc);
    take_kwarg(kwargs, "non_blocking");
    take_kwarg(kwargs, "memory_format");
    no_more_kwargs(*this, kwargs, "Tensor.to", loc);
    if ((!dt || *dt == h.dtype) && !force) return t;
    return Value::of(contiguous_copy(h, dt.value_or(h.dtype), loc));
  }
  static const std::map<std::string, DType> conversions = {
      {"float", DType::Float32}, {"half", DType::Float16}, {"bfloat16", DType::BFloat16},
      {"int", DType::Int32},     {"long", DType::Int64},   {"bool", DType::Bool}};
  if (auto it = conversions.find(name); it != conversions.end()) {
    need(0, 0);
    no_more_kwargs(*this, kwargs, "Tensor." + name, loc);
    return it->second == h.dtype ? t : Value::of(contiguous_copy(h, it->second, loc));
  }
  if (name == "new_empty" || name == "new_zeros" || name == "new_ones" || name == "new_full") {
    Value fill = Value::integer(name == "new_ones");
    ValueList torch_args;
    if (name == "new_full") {
      need(2, 2);
      torch_args = {args[0], args[1]};
    } else {
      torch_args = {Value::list({})};
      Dims sizes = sizes_from_args(args, 0, loc, "size");
      for (auto s : sizes) torch_args[0].items->push_back(Value::integer(s));
    }
    if (!std::any_of(kwargs.begin(), kwargs.end(), [](auto &kv) { return kv.first == "dtype"; }))
      kwargs.push_back({"dtype", Value::dtype_of(h.dtype)});
    std::string fn = name == "new_full" ? "full" : name.substr(4);
    return call_torch(fn, torch_args, kwargs, loc);
  }
  if (name == "copy_") {
    need(1, 1);
    take_kwarg(kwargs, "non_blocking");
    no_more_kwargs(*this, kwargs, "Tensor.copy_", loc);
    if (args[0].t != T::Tensor) fail(loc, "TypeError: copy_() expects a Tensor");
    ValueList shape;
    for (auto s : h.sizes) shape.push_back(Value::integer(s));
    ValueList ea{Value::tuple(shape)};
    Kwargs none;
    Value src = tensor_method(args[0], "expand", ea, none, loc);
    if (h.numel() > 0) executor.copy(h, src.th());
    return t;
  }
  if (name == "zero_" || name == "fill_") {
    need(name == "zero_" ? 0 : 1, name == "zero_" ? 0 : 1);
    no_more_kwargs(*this, kwargs, "Tensor." + name, loc);
    Value v = name == "zero_" ? Value::integer(0) : args[0];
    if (!v.is_num()) fail(loc, "TypeError: fill_() expects a number");
    if (h.numel() > 0) executor.copy_in(h, filled(h.dtype, h.sizes, v));
    return t;
  }
  if (name == "clone") {
    take_kwarg(kwargs, "memory_format");
    no_more_kwargs(*this, kwargs, "Tensor.clone", loc);
    return Value::of(contiguous_copy(h, h.dtype, loc));
  }
  take_kwarg(kwargs, "memory_format");
  if (name == "flatten" || name == "squeeze" || name == "size" || name == "stride") {
    for (const char *k : {"start_dim", "end_dim", "dim"})
      if (auto v = take_kwarg(kwargs, k)) {
        if (std::string(k) == "end_dim" && args.empty()) args.push_back(Value::integer(0));
        args.push_back(*v);
      }
  }
  no_more_kwargs(*this, kwargs, "Tensor." + name, loc);
  if (name == "size" || name == "stride") {
    need(0, 1);
    const Dims &d = name == "size" ? h.sizes : h.strides;
    if (args.size() == 1) return Value::integer(d[static_cast<size_t>(dim_arg(0, "dim"))]);
    ValueList items;
    for (auto x : d) items.push_back(Value::integer(x));
    return Value::tuple(std::move(items));
  }
  if (name == "dim" || name == "ndimension") return Value::integer(h.dim());
  if (name == "numel" || name == "nelement") return Value::integer(h.numel());
  if (name == "is_contiguous") return Value::boolean(h.is_contiguous());
  if (name == "element_size") return Value::integer(dtype_size(h.dtype));
  if (name == "storage_offset") return Value::integer(h.storage_offset);
  if (name == "is_floating_point") return Value::boolean(dtype_is_float(h.dtype));
  if (name == "contiguous")
    return h.is_contiguous() ? t : Value::of(contiguous_copy(h, h.dtype, loc));
  if (name == "view" || name == "reshape" || name == "view_as" || name == "reshape_as") {
    Dims shape;
    if (name == "view_as" || name == "reshape_as") {
      need(1, 1);
      if (args[0].t != T::Tensor) fail(loc, "TypeError: " + name + "() expects a Tensor");
      shape = args[0].th().sizes;
    } else {
      if (name == "view" && args.size() == 1 && args[0].t == T::DType)
        fail(loc, "Tensor.view(dtype) reinterprets bits; it is not supported in wrappers");
      shape = sizes_from_args(args, 0, loc, "shape");
    }
    std::string err;
    auto sizes = wrapper_detail::infer_size(shape, h.numel(), err);
    if (!sizes) fail(loc, "RuntimeError: " + err);
    if (auto st = wrapper_detail::view_strides(h.sizes, h.strides, *sizes))
      return with(*sizes, *st, h.storage_offset);
    if (name == "view" || name == "view_as")
      fail(loc,
           "RuntimeError: view size is not compatible with input tensor's size and stride (at "
           "least one dimension "
           "spans across two contiguous subspaces). Use .reshape(...) instead.");
    TensorHandle c = contiguous_copy(h, h.dtype, loc);
    c.strides = wrapper_detail::contiguous_strides(*sizes);
    c.sizes = *sizes;
    return Value::of(c);
  }
  if (name == "expand" || name == "expand_as") {
    Dims target;
    if (name == "expand_as") {
      need(1, 1);
      if (args[0].t != T::Tensor) fail(loc, "TypeError: expand_as() expects a Tensor");
      target = args[0].th().sizes;
    } else {
      target = sizes_from_args(args, 0, loc, "size");
    }
    if (target.size() < h.sizes.size())
      fail(loc, "RuntimeError: expand: the number of sizes provided (" +
                    std::to_string(target.size()) +
                    ") must be greater or equal to the number of dimensions in the tensor (" +
                    std::to_string(h.dim()) + ")");
    size_t lead = target.size() - h.sizes.size();
    Dims sizes(target.size()), strides(target.size());
    for (size_t i = 0; i < target.size(); ++i) {
      if (i < lead) {
        if (target[i] < 0)
          fail(loc, "RuntimeError: expand: -1 is not allowed in a leading, non-existing dimension");
        sizes[i] = target[i];
        strides[i] = 0;
        continue;
      }
      int64_t cur = h.sizes[i - lead];
      int64_t want = target[i] == -1 ? cur : target[i];
      if (cur == want) {
        sizes[i] = cur;
        strides[i] = h.strides[i - lead];
      } else if (cur == 1) {
        sizes[i] = want;
        strides[i] = 0;
      } else {
        fail(loc, "RuntimeError: The expanded size of the tensor (" + std::to_string(want) +
                      ") must match the existing size (" + std::to_string(cur) +
                      ") at non-singleton dimension " + std::to_string(i) + ".  Target sizes: " +
                      dims_text(target) + ".  Tensor sizes: " + dims_text(h.sizes));
      }
    }
    return with(sizes, strides, h.storage_offset);
  }
  if (name == "permute") {
    Dims dims = sizes_from_args(args, 0, loc, "dims");
    if (static_cast<int64_t>(dims.size()) != h.dim())
      fail(loc,
           "RuntimeError: permute(sparse_coo): number of dimensions in the tensor input does not "
           "match the length of "
           "the desired ordering of dimensions i.e. input.dim() = " +
               std::to_string(h.dim()) +
               " is not equal to len(dims) = " + std::to_string(dims.size()));
    Dims sizes, strides;
    std::vector<bool> seen(dims.size());
    for (auto d : dims) {
      int64_t n = norm_dim(*this, d, h.dim(), loc);
      if (seen[static_cast<size_t>(n)])
        fail(loc, "RuntimeError: permute(): duplicate dims are not allowed.");
      seen[static_cast<size_t>(n)] = true;
      sizes.push_back(h.sizes[static_cast<size_t>(n)]);
      strides.push_back(h.strides[static_cast<size_t>(n)]);
    }
    return with(sizes, strides, h.storage_offset);
  }
  if (name == "transpose" || name == "t") {
    if (name == "t") {
      need(0, 0);
      if (h.dim() > 2)
        fail(loc, "RuntimeError: t() expects a tensor with <= 2 dimensions, but self is " +
                      std::to_string(h.dim()) + "D");
      if (h.dim() < 2) return t;
    } else {
      need(2, 2);
    }
    int64_t a = name == "t" ? 0 : dim_arg(0, "dim0"), b = name == "t" ? 1 : dim_arg(1, "dim1");
    if (h.dim() == 0) return t;
    Dims sizes = h.sizes, strides = h.strides;
    std::swap(sizes[static_cast<size_t>(a)], sizes[static_cast<size_t>(b)]);
    std::swap(strides[static_cast<size_t>(a)], strides[static_cast<size_t>(b)]);
    return with(sizes, strides, h.storage_offset);
  }
  if (name == "unsqueeze") {
    need(1, 1);
    int64_t d = to_int(args[0], loc, "dim");
    int64_t n = h.dim() + 1;
    if (d < -n || d >= n)
      fail(loc, "IndexError: Dimension out of range (expected to be in range of [" +
                    std::to_string(-n) + ", " + std::to_string(n - 1) + "], but got " +
                    std::to_string(d) + ")");
    if (d < 0) d += n;
    Dims sizes = h.sizes, strides = h.strides;
    int64_t st = static_cast<size_t>(d) < h.sizes.size()
                     ? h.sizes[static_cast<size_t>(d)] * h.strides[static_cast<size_t>(d)]
                     : 1;
    sizes.insert(sizes.begin() + d, 1);
    strides.insert(strides.begin() + d, std::max<int64_t>(st, 1));
    return with(sizes, strides, h.storage_offset);
  }
  if (name == "squeeze") {
    need(0, 1);
    std::vector<bool> drop(h.sizes.size(), false);
    if (args.empty()) {
      for (size_t i = 0; i < h.sizes.size(); ++i) drop[i] = h.sizes[i] == 1;
    } else {
      Dims ds =
          args[0].is_seq() ? to_int_list(args[0], loc, "dim") : Dims{to_int(args[0], loc, "dim")};
      for (auto d : ds) {
        if (h.dim() == 0) continue;
        int64_t n = norm_dim(*this, d, h.dim(), loc);
        drop[static_cast<size_t>(n)] = h.sizes[static_cast<size_t>(n)] == 1;
      }
    }
    Dims sizes, strides;
    for (size_t i = 0; i < h.sizes.size(); ++i)
      if (!drop[i]) {
        sizes.push_back(h.sizes[i]);
        strides.push_back(h.strides[i]);
      }
    return with(sizes, strides, h.storage_offset);
  }
  if (name == "flatten") {
    need(0, 2);
    if (h.dim() == 0) {
      ValueList a{Value::integer(1)};
      Kwargs none;
      return tensor_method(t, "reshape", a, none, loc);
    }
    int64_t s = args.size() > 0 ? dim_arg(0, "start_dim") : 0;
    int64_t e = args.size() > 1 ? dim_arg(1, "end_dim") : h.dim() - 1;
    if (s > e)
      fail(loc, "RuntimeError: flatten() has invalid args: start_dim cannot come after end_dim");
    ValueList shape;
    for (int64_t i = 0; i < s; ++i)
      shape.push_back(Value::integer(h.sizes[static_cast<size_t>(i)]));
    int64_t m = 1;
    for (int64_t i = s; i <= e; ++i) m *= h.sizes[static_cast<size_t>(i)];
    shape.push_back(Value::integer(m));
    for (int64_t i = e + 1; i < h.dim(); ++i)
      shape.push_back(Value::integer(h.sizes[static_cast<size_t>(i)]));
    ValueList a{Value::tuple(shape)};
    Kwargs none;
    return tensor_method(t, "reshape", a, none, loc);
  }
  if (name == "narrow") {
    need(3, 3);
    if (h.dim() == 0) fail(loc, "RuntimeError: narrow() cannot be applied to a 0-dim tensor.");
    int64_t d = dim_arg(0, "dim");
    int64_t size = h.sizes[static_cast<size_t>(d)];
    int64_t start = to_int(args[1], loc, "start"), len = to_int(args[2], loc, "length");
    if (start < 0) start += size;
    if (start < 0 || start > size || len < 0 || start + len > size)
      fail(loc, "RuntimeError: start (" + std::to_string(start) + ") + length (" +
                    std::to_string(len) + ") exceeds dimension size (" + std::to_string(size) +
                    ").");
    Dims sizes = h.sizes;
    sizes[static_cast<size_t>(d)] = len;
    return with(sizes, h.strides, h.storage_offset + start * h.strides[static_cast<size_t>(d)]);
  }
  if (name == "select") {
    need(2, 2);
    if (h.dim() == 0) fail(loc, "IndexError: select() cannot be applied to a 0-dim tensor.");
    int64_t d = dim_arg(0, "dim");
    int64_t size = h.sizes[static_cast<size_t>(d)];
    int64_t i = to_int(args[1], loc, "index");
    if (i < -size || i >= size)
      fail(loc, "IndexError: select(): index " + std::to_string(i) +
                    " out of range for tensor of size " + dims_text(h.sizes) + " at dimension " +
                    std::to_string(d));
    if (i < 0) i += size;
    Dims sizes = h.sizes, strides = h.strides;
    int64_t off = h.storage_offset + i * strides[static_cast<size_t>(d)];
    sizes.erase(sizes.begin() + d);
    strides.erase(strides.begin() + d);
    return with(sizes, strides, off);
  }
  fail(loc, "Tensor." + name + " is not available in wrappers");
}

Value WrapperInterpreter::Impl::tensor_index(const Value &t, const Value &index, SourceLoc loc) {
  ValueList idx = index.t == T::Tuple ? *index.items : ValueList{index};
  const TensorHandle &h = t.th();
  int64_t consuming = 0, ellipses = 0;
  for (auto &x : idx) {
    if (x.t == T::Ellipsis)
      ++ellipses;
    else if (x.t != T::None)
      ++consuming;
    if (x.t == T::Tensor)
      fail(loc, "advanced (tensor) indexing is not supported in wrappers; gather with a kernel");
    if (x.t == T::Bool) fail(loc, "boolean indexing is not supported in wrappers");
    if (x.t == T::List) fail(loc, "advanced (list) indexing is not supported in wrappers");
  }
  if (ellipses > 1) fail(loc, "IndexError: an index can only have a single ellipsis ('...')");
  if (consuming > h.dim())
    fail(loc, "IndexError: too many indices for tensor of dimension " + std::to_string(h.dim()));
  Dims sizes, strides;
  int64_t offset = h.storage_offset;
  size_t d = 0;
  for (auto &x : idx) {
    if (x.t == T::Ellipsis) {
      int64_t skip = h.dim() - consuming;
      for (int64_t k = 0; k < skip; ++k, ++d) {
        sizes.push_back(h.sizes[d]);
        strides.push_back(h.strides[d]);
      }
    } else if (x.t == T::None) {
      sizes.push_back(1);
      strides.push_back(d < h.sizes.size() ? h.sizes[d] * h.strides[d] : 1);
    } else if (x.t == T::Slice) {
      int64_t n = h.sizes[d];
      int64_t step = x.s_step && x.s_step->t != T::None ? to_int(*x.s_step, loc, "slice step") : 1;
      if (step <= 0) fail(loc, "ValueError: step must be greater than zero");
      auto bound = [&](const std::shared_ptr<Value> &b, int64_t dflt) {
        if (!b || b->t == T::None) return dflt;
        int64_t v = to_int(*b, loc, "slice index");
        if (v < 0) v += n;
        return std::clamp<int64_t>(v, 0, n);
      };
      int64_t start = bound(x.s_lower, 0), stop = bound(x.s_upper, n);
      int64_t len = stop > start ? (stop - start + step - 1) / step : 0;
      offset += start * h.strides[d];
      sizes.push_back(len);
      strides.push_back(h.strides[d] * step);
      ++d;
    } else {
      int64_t n = h.sizes[d];
      int64_t i = to_int(x, loc, "index");
      if (i < -n || i >= n)
        fail(loc, "IndexError: index " + std::to_string(i) + " is out of bounds for dimension " +
                      std::to_string(d) + " with size " + std::to_string(n));
      if (i < 0) i += n;
      offset += i * h.strides[d];
      ++d;
    }
  }
  for (; d < h.sizes.size(); ++d) {
    sizes.push_back(h.sizes[d]);
    strides.push_back(h.strides[d]);
  }
  TensorHandle out = h;
  out.sizes = sizes;
  out.strides = strides;
  out.storage_offset = offset;
  return Value::of(out);
}

}  // namespace opforge::compiler
