//===- inductor_module.cpp - TorchInductor output modules on the chip ------===//
#include "opforge/compiler/inductor_module.h"

#include <array>
#include <cmath>
#include <random>

#include "../wrapper/interp_impl.h"
#include "module_text.h"
#include "opforge/compiler/inductor_heuristics.h"
#include "opforge/compiler/parser.h"

namespace opforge::compiler {

using namespace inductor_detail;
using Impl_ = WrapperInterpreter::Impl;
using T = Value::T;

struct InductorModule::Impl {
  std::string path;
  std::shared_ptr<const SourceFile> source;
  ScannedModule scanned;
  ast::Module module;
  struct Kernel {
    InductorKernelInfo info;
    std::vector<InductorConfig> configs;
  };
  std::map<std::string, Kernel> kernels;  // by kernel name
  std::map<std::string, size_t> tuned;    // "kernel|key" -> config index
  std::vector<std::pair<std::string, Value>> bindings(const ast::Module &m) const;
};

namespace {

std::string overload_name(const std::string &qualified) {
  // "aten.mm.out" -> "aten::mm.out"; "aten.relu.default" -> "aten::relu".
  size_t d1 = qualified.find('.');
  std::string ns = qualified.substr(0, d1), rest = qualified.substr(d1 + 1);
  if (rest.size() > 8 && rest.substr(rest.size() - 8) == ".default")
    rest = rest.substr(0, rest.size() - 8);
  return ns + "::" + rest;
}

// extern_kernels.X -> the ATen overload it stands for (select_algorithm's ExternKernelChoice
// list: the out= variants of the GEMMs, convolution's functional form).
std::string extern_overload(const std::string &name, bool has_out) {
  static const std::map<std::string, std::string> table = {{"mm", "aten::mm.out"},
                                                           {"addmm", "aten::addmm.out"},
                                                           {"bmm", "aten::bmm.out"},
                                                           {"baddbmm", "aten::baddbmm.out"},
                                                           {"_int_mm", "aten::_int_mm.out"},
                                                           {"convolution", "aten::convolution"},
                                                           {"_mm_plus_mm", "aten::_mm_plus_mm"}};
  if (auto it = table.find(name); it != table.end()) return it->second;
  return "aten::" + name + (has_out ? ".out" : "");
}

class Extension : public Impl_::Extension {
 public:
  Extension(InductorModule::Impl &m, const InductorAtenHook &hook, InductorRunResult &r,
            uint64_t seed)
      : mod_(m), hook_(hook), result_(r), rng_(seed) {}

  std::optional<Value> module_attr(Impl_ &, const std::string &mod, const std::string &name,
                                   SourceLoc) override {
    if (mod == "torch" && name == "ops") return Value::module("torch.ops");
    if (mod == "torch.ops") return Value::module("torch.ops." + name);
    if (mod.rfind("torch.ops.", 0) == 0) {
      std::string rest = mod.substr(10);
      if (rest.find('.') == std::string::npos) return Value::module(mod + "." + name);
      return Value::builtin("ext.op:" + overload_name(rest + "." + name));
    }
    if (mod == "ext.extern_kernels") return Value::builtin("ext.extern:" + name);
    return std::nullopt;
  }

  Value call(Impl_ &im, const std::string &name, ValueList &args, Kwargs &kwargs,
             SourceLoc loc) override;
  Value kernel_method(Impl_ &im, const Value &kernel, const std::string &name, ValueList &args,
                      Kwargs &kwargs, SourceLoc loc) override;

 private:
  InductorModule::Impl &mod_;
  const InductorAtenHook &hook_;
  InductorRunResult &result_;
  std::mt19937_64 rng_;
  std::map<BufferId, int64_t> sizes_;  // bytes of the buffers this run allocated

  // `del a, b` in call(): unbinds the names in the innermost call scope holding them and
  // frees each buffer this run allocated that no variable of a live call scope still holds
  // (Python frees it when its last reference goes; `buf1 = buf0; del buf0` keeps it).
  // `keep`: a value about to be bound (its buffers stay).
  Value del(Impl_ &im, ValueList &args, SourceLoc loc, const Value *keep = nullptr);

  std::string site(SourceLoc loc) const { return mod_.path + ":" + std::to_string(loc.line); }
  std::vector<std::string> nodes_at(SourceLoc loc) const {
    auto it = mod_.scanned.aten_nodes.find(loc.line);
    return it == mod_.scanned.aten_nodes.end() ? std::vector<std::string>{} : it->second;
  }
  Value aten_call(Impl_ &im, const std::string &overload, ValueList &args, Kwargs &kwargs,
                  SourceLoc loc);
  Value strided(Impl_ &im, ValueList &args, Kwargs &kwargs, SourceLoc loc, bool random);
  void check_size_stride(Impl_ &im, const Value &t, const Value &size, const Value &stride,
                         SourceLoc loc);
};

void add_buffers(const Value &v, std::set<BufferId> &out) {
  if (v.t == T::Tensor) out.insert(v.th().buffer);
  if (v.is_seq())
    for (auto &x : *v.items) add_buffers(x, out);
}

Value Extension::strided(Impl_ &im, ValueList &args, Kwargs &kwargs, SourceLoc loc, bool random) {
  auto dtype = take_kwarg(kwargs, "dtype");
  take_kwarg(kwargs, "device");
  take_kwarg(kwargs, "extra_size");
  if (args.size() < 2) im.fail(loc, "empty_strided(size, stride, ...) takes a size and a stride");
  TensorHandle h;
  h.dtype = dtype ? dtype->dtype : DType::Float32;
  if (args.size() >= 3 && args[2].t == T::DType) h.dtype = args[2].dtype;
  h.sizes = im.to_int_list(args[0], loc, "size");
  h.strides = im.to_int_list(args[1], loc, "stride");
  if (h.sizes.size() != h.strides.size())
    im.fail(loc, "empty_strided: size and stride have different lengths");
  int64_t extent = 1;
  bool empty = false;
  for (size_t i = 0; i < h.sizes.size(); ++i) {
    if (h.sizes[i] < 0 || h.strides[i] < 0) im.fail(loc, "empty_strided: negative size or stride");
    empty |= h.sizes[i] == 0;
    extent += (h.sizes[i] - 1) * h.strides[i];
  }
  if (empty) extent = 0;
  const int64_t bytes = std::max<int64_t>(extent, 1) * dtype_size(h.dtype);
  h.buffer = im.allocate(bytes, loc);
  im.allocated.insert(h.buffer);
  sizes_[h.buffer] = bytes;
  if (random && extent > 0) {
    HostTensor host(h.dtype, {extent});
    std::normal_distribution<double> normal;
    for (int64_t i = 0; i < extent; ++i)
      host.set_double(i, dtype_is_float(h.dtype) ? normal(rng_) : 0.0);
    TensorHandle flat = h;
    flat.sizes = {extent};
    flat.strides = {1};
    im.executor.copy_in(flat, host);
  }
  return Value::of(h);
}

void Extension::check_size_stride(Impl_ &im, const Value &t, const Value &size, const Value &stride,
                                  SourceLoc loc) {
  if (t.t != T::Tensor) im.fail(loc, "assert_size_stride: expected a tensor, got " + repr(t));
  auto s = im.to_int_list(size, loc, "size");
  auto st = im.to_int_list(stride, loc, "stride");
  const TensorHandle &h = t.th();
  bool ok = h.sizes == s;
  for (size_t i = 0; ok && i < s.size(); ++i) ok = s[i] <= 1 || h.strides[i] == st[i];
  if (!ok)
    im.fail(loc, "AssertionError: expected size " + repr(size) + " and stride " + repr(stride) +
                     ", got " + h.to_string());
}

Value Extension::call(Impl_ &im, const std::string &name, ValueList &args, Kwargs &kwargs,
                      SourceLoc loc) {
  std::string n = name.substr(4);
  if (n == "del") return del(im, args, loc);
  if (n == "del_after") {  // (value, names...): the del once value is computed; returns it
    if (args.empty()) im.fail(loc, "del: expected a value");
    Value v = args[0];
    ValueList names(args.begin() + 1, args.end());
    del(im, names, loc, &v);
    return v;
  }
  if (n == "empty_strided") return strided(im, args, kwargs, loc, false);
  if (n == "rand_strided") return strided(im, args, kwargs, loc, true);
  if (n == "get_raw_stream") return Value::integer(0);
  if (n == "device") return Value::device(args.empty() ? "opforge" : str_of(args[0]));
  if (n == "assert_alignment") return Value::none();
  if (n == "assert_size_stride") {
    if (args.size() < 3) im.fail(loc, "assert_size_stride(tensor, size, stride) takes 3 arguments");
    check_size_stride(im, args[0], args[1], args[2], loc);
    return Value::none();
  }
  if (n == "assert_size_stride_grouped") {
    if (args.size() < 3 || !args[0].is_seq() || !args[1].is_seq() || !args[2].is_seq())
      im.fail(loc, "assert_size_stride_grouped(tensors, sizes, strides) takes three tuples");
    for (size_t i = 0; i < args[0].items->size(); ++i)
      check_size_stride(im, (*args[0].items)[i], args[1].items->at(i), args[2].items->at(i), loc);
    return Value::none();
  }
  if (n == "assert_tensor_metadata") {
    auto size = take_kwarg(kwargs, "size");
    auto stride = take_kwarg(kwargs, "stride");
    auto dtype = take_kwarg(kwargs, "dtype");
    if (args.empty() || args[0].t != T::Tensor)
      im.fail(loc, "assert_tensor_metadata takes a tensor");
    if (size && size->t != T::None && im.to_int_list(*size, loc, "size") != args[0].th().sizes)
      im.fail(loc, "AssertionError: tensor size is not " + repr(*size));
    if (dtype && dtype->t == T::DType && dtype->dtype != args[0].th().dtype)
      im.fail(loc, "AssertionError: tensor dtype is not " + repr(*dtype));
    (void)stride;
    return Value::none();
  }
  if (n == "reinterpret_tensor" || n == "alloc_from_pool") {
    if (args.size() < 4) im.fail(loc, n + " takes a tensor, a size, a stride and an offset");
    if (args[0].t != T::Tensor) im.fail(loc, n + ": expected a tensor, got " + repr(args[0]));
    TensorHandle h = args[0].th();
    if (n == "alloc_from_pool") {  // (pool, byte offset, dtype, size, stride)
      if (args.size() < 5 || args[2].t != T::DType)
        im.fail(loc, "alloc_from_pool(pool, offset, dtype, size, stride)");
      int64_t byte_off = im.to_int(args[1], loc, "offset") + h.storage_offset * dtype_size(h.dtype);
      h.dtype = args[2].dtype;
      h.storage_offset = byte_off / dtype_size(h.dtype);
      h.sizes = im.to_int_list(args[3], loc, "size");
      h.strides = im.to_int_list(args[4], loc, "stride");
    } else {
      h.sizes = im.to_int_list(args[1], loc, "size");
      h.strides = im.to_int_list(args[2], loc, "stride");
      h.storage_offset += im.to_int(args[3], loc, "offset");
    }
    if (h.sizes.size() != h.strides.size()) im.fail(loc, n + ": size and stride differ in length");
    return Value::of(h);
  }
  if (n.rfind("extern:", 0) == 0) {
    bool has_out = false;
    for (auto &[k, v] : kwargs) has_out |= k == "out";
    return aten_call(im, extern_overload(n.substr(7), has_out), args, kwargs, loc);
  }
  if (n.rfind("op:", 0) == 0) return aten_call(im, n.substr(3), args, kwargs, loc);
  if (n.rfind("unavailable:", 0) == 0)
    im.fail(loc, "Inductor module: '" + n.substr(12) + "' is not available on the chip");
  im.fail(loc, "Inductor module: unknown name '" + n + "'");
}

Value Extension::del(Impl_ &im, ValueList &args, SourceLoc loc, const Value *keep) {
  std::set<BufferId> dropped;
  for (auto &a : args) {
    if (a.t != T::Str) im.fail(loc, "del: expected a name");
    for (auto it = im.call_scopes.rbegin(); it != im.call_scopes.rend(); ++it)
      if (auto scope = it->lock()) {
        auto v = scope->vars.find(a.s);
        if (v == scope->vars.end()) continue;
        add_buffers(v->second, dropped);
        scope->vars.erase(v);
        break;
      }
  }
  for (auto it = dropped.begin(); it != dropped.end();)
    if (!im.allocated.count(*it))
      it = dropped.erase(it);
    else
      ++it;
  if (dropped.empty()) return Value::none();
  std::set<BufferId> live;
  if (keep) add_buffers(*keep, live);
  for (auto &w : im.call_scopes)
    if (auto scope = w.lock())
      for (auto &[name, v] : scope->vars) add_buffers(v, live);
  for (BufferId b : dropped)
    if (!live.count(b)) {
      im.executor.free(b);
      im.allocated.erase(b);
      auto s = sizes_.find(b);
      if (s != sizes_.end()) {
        im.bytes_allocated -= s->second;
        sizes_.erase(s);
      }
    }
  return Value::none();
}

Value Extension::aten_call(Impl_ &im, const std::string &overload, ValueList &args, Kwargs &kwargs,
                           SourceLoc loc) {
  if (!hook_) im.fail(loc, overload + ": no ATen hook to run it with");
  InductorAtenCall c;
  c.overload = overload;
  for (auto &a : args) c.args.push_back(im.to_wrapper_value(a, loc));
  for (auto &[k, v] : kwargs) c.kwargs.push_back({k, im.to_wrapper_value(v, loc)});
  c.site = site(loc);
  c.aten_nodes = nodes_at(loc);
  InductorAtenResult r;
  try {
    r = hook_(c);
  } catch (const CompileError &) {
    throw;
  } catch (const std::exception &e) {
    im.fail(loc, overload + " failed: " + e.what());
  }
  // The hook's result buffers are its owner's (inductor_module.h): never freed here.
  Value out = im.from_wrapper_value(r.value);
  InductorStep s;
  s.kind = InductorStep::Kind::AtenCall;
  s.name = overload;
  s.site = c.site;
  s.aten_nodes = c.aten_nodes;
  s.on_chip = r.on_chip;
  s.cycles = r.cycles;
  s.config = r.kernel;
  result_.steps.push_back(std::move(s));
  if (im.run_result)
    for (auto &l : r.launches) im.run_result->launches.push_back(l);
  if (out.t == T::None) {
    for (auto &[k, v] : kwargs)
      if (k == "out") return v;
  }
  return out;
}

Value Extension::kernel_method(Impl_ &im, const Value &kernel, const std::string &name,
                               ValueList &args, Kwargs &kwargs, SourceLoc loc) {
  const ast::FunctionDef &k = *kernel.fn;
  if (name != "run")
    im.fail(loc, "Inductor module: kernel '" + k.name + "' has no method '" + name +
                     "' on the chip (kernels are launched with .run(*args, stream=...))");
  take_kwarg(kwargs, "stream");
  no_more_kwargs(im, kwargs, k.name + ".run", loc);
  auto hit = mod_.kernels.find(k.name);
  if (hit == mod_.kernels.end())
    im.fail(loc, "Inductor module: '" + k.name + "' is not a kernel of async_compile.triton");
  const InductorKernelInfo &info = hit->second.info;
  const std::vector<InductorConfig> &configs = hit->second.configs;
  // Positional arguments are the kernel's runtime parameters in order.
  Impl_::Binding base;
  size_t next = 0;
  for (auto &p : k.params.params) {
    bool cexpr = p.annotation && dotted_name(*p.annotation).find("constexpr") != std::string::npos;
    if (cexpr) continue;
    if (next >= args.size())
      im.fail(loc, "kernel '" + k.name + "'.run: missing argument '" + p.name + "'");
    base.args.push_back({p.name, args[next++]});
  }
  if (next != args.size())
    im.fail(loc, "kernel '" + k.name + "'.run: " + std::to_string(args.size()) + " arguments for " +
                     std::to_string(next) + " runtime parameters");
  base.positional = base.args.size();
  // Constexpr constants the launch does not pass (triton_meta['constants']).
  for (auto &[c, spec] : info.constants)
    if (k.params.find(c) >= 0 && !base.find(c) && spec.ckind == ParamSpec::CKind::Int)
      base.args.push_back({c, Value::integer(spec.i)});
  std::map<std::string, int64_t> numels;
  for (const char *n : {"xnumel", "ynumel", "znumel", "r0_numel", "r1_numel"})
    if (Value *v = base.find(n); v && v->is_int_like()) numels[n] = im.to_int(*v, loc, n);
  std::string key = "(";
  for (auto &[n, v] : base.args)
    if (v.t == T::Int)
      key += std::to_string(v.i) + ", ";
    else if (v.t == T::Tensor)
      key += "'" + std::string(dtype_name(v.th().dtype)) + "', ";
  key += ")";
  auto bind_config = [&](const InductorConfig &c) {
    Impl_::Binding b = base;
    for (auto &[n, v] : c.blocks)
      if (k.params.find(n) >= 0 && !b.find(n)) b.args.push_back({n, Value::integer(v)});
    b.options.push_back({"num_warps", Value::integer(c.num_warps)});
    b.options.push_back({"num_stages", Value::integer(c.num_stages)});
    std::array<int64_t, 3> g;
    try {
      g = inductor_grid(info, c, numels);
    } catch (const CompileError &e) {
      im.fail(loc, e.message());
    }
    Value l;
    l.t = T::Launcher;
    l.fn = &k;
    l.self = std::make_shared<Value>(
        Value::tuple({Value::integer(g[0]), Value::integer(g[1]), Value::integer(g[2])}));
    return std::make_pair(l, b);
  };
  std::string tkey = k.name + "|" + key;
  size_t pick = 0;
  if (auto it = mod_.tuned.find(tkey); it != mod_.tuned.end()) {
    pick = it->second;
  } else {
    AutotuneRecord rec;
    rec.kernel = k.name;
    rec.key = key;
    if (configs.size() == 1) {
      rec.source = "single config";
    } else {
      // Trials write the kernel's outputs: the arguments it mutates are saved and restored.
      std::vector<std::pair<TensorHandle, TensorHandle>> saved;
      for (auto &m : info.mutated_arg_names)
        if (Value *v = base.find(m); v && v->t == T::Tensor)
          saved.push_back({v->th(), im.contiguous_copy(v->th(), v->th().dtype, loc)});
      std::optional<uint64_t> best;
      bool any = false, timed = false;
      for (size_t i = 0; i < configs.size(); ++i) {
        AutotuneRecord::Trial t;
        t.config = configs[i].str();
        auto [l, b] = bind_config(configs[i]);
        try {
          t.cycles = im.jit_launch(l, b, loc, Impl_::LaunchMode::Trial);
          for (auto &[orig, copy] : saved) im.executor.copy(orig, copy);
          if (!any || (t.cycles && (!best || *t.cycles < *best))) {
            if (!any || t.cycles) pick = i;
            if (t.cycles) best = t.cycles;
          }
          any = true;
          timed |= t.cycles.has_value();
        } catch (const Impl_::TrialSkipped &s) {
          t.skipped = s.reason;
          for (auto &[orig, copy] : saved) im.executor.copy(orig, copy);
        }
        rec.trials.push_back(t);
      }
      for (auto &[orig, copy] : saved) {
        im.executor.free(copy.buffer);
        im.allocated.erase(copy.buffer);
      }
      if (!any)
        im.fail(loc, "kernel '" + k.name + "': no config compiles and runs (" +
                         rec.trials.front().config + ": " + rec.trials.front().skipped + ")");
      rec.source = timed ? "tuned" : "tuned (first fitting config: the executor has no cycles)";
    }
    rec.winner = static_cast<int>(pick);
    rec.winner_config = configs[pick].str();
    result_.autotune.push_back(rec);
    mod_.tuned[tkey] = pick;
  }
  auto [l, b] = bind_config(configs[pick]);
  std::optional<uint64_t> cycles;
  try {
    cycles = im.jit_launch(l, b, loc, Impl_::LaunchMode::Final);
  } catch (const CompileError &e) {
    const std::string &msg = e.message();
    if (msg.find("kernel '" + k.name + "'") != std::string::npos) throw;
    throw CompileError("kernel '" + k.name + "' (launched at " + site(loc) + "): " + msg,
                       e.context().file, e.loc(), e.snippet());
  }
  InductorStep s;
  s.kind = InductorStep::Kind::TritonKernel;
  s.name = k.name;
  s.site = site(loc);
  s.aten_nodes = nodes_at(loc);
  s.cycles = cycles.value_or(0);
  s.config = configs[pick].str();
  result_.steps.push_back(std::move(s));
  return Value::none();
}

}  // namespace

std::vector<std::pair<std::string, Value>> InductorModule::Impl::bindings(
    const ast::Module &m) const {
  std::vector<std::pair<std::string, Value>> out;
  for (auto &[name, what] : scanned.bindings) {
    size_t c = what.find(':');
    std::string kind = what.substr(0, c), arg = what.substr(c + 1);
    if (kind == "module") {
      out.push_back({name, Value::module(arg)});
    } else if (kind == "builtin") {
      out.push_back({name, Value::builtin(arg)});
    } else if (kind == "float") {
      out.push_back({name, Value::floating(arg == "inf" ? HUGE_VAL : std::nan(""))});
    } else if (kind == "kernel" || kind == "function") {
      if (const ast::FunctionDef *f = m.function(arg)) {
        Value v;
        v.t = f->is_jit() ? T::Kernel : T::Function;
        v.fn = f;
        out.push_back({name, v});
      }
    } else {
      out.push_back({name, Value::builtin("ext.unavailable:" + arg)});
    }
  }
  return out;
}

InductorModule::InductorModule(std::string source, std::string path)
    : impl_(std::make_unique<Impl>()) {
  impl_->path = path;
  impl_->source = std::make_shared<SourceFile>(path, std::move(source));
  impl_->scanned = scan_module(impl_->source);
  ParseOptions po;
  po.check_imports = false;
  try {
    impl_->module = parse_module(std::make_shared<SourceFile>(path, impl_->scanned.text), po);
  } catch (const CompileError &e) {
    // An error inside a kernel's source names the kernel (the line is the module's).
    for (auto &k : impl_->scanned.kernels)
      if (e.loc().line > k.line && e.loc().line < k.end_line)
        throw CompileError("kernel '" + k.name + "': " + e.message(), e.context().file, e.loc(),
                           e.snippet());
    throw;
  }
  if (!impl_->scanned.has_call)
    throw CompileError("Inductor module: no Runner.call(self, args) in " + path, path, {});
  for (auto &k : impl_->scanned.kernels) {
    const ast::FunctionDef *f = impl_->module.function(k.name);
    SourceLoc at;
    at.line = k.line;
    at.col = 1;
    if (!f || !f->is_jit())
      throw CompileError::at(*impl_->source, at,
                             "Inductor module: kernel '" + k.name +
                                 "': its source defines no @triton.jit function of that name");
    Impl::Kernel kernel;
    kernel.info = read_inductor_kernel(impl_->module, k.name);
    kernel.configs = inductor_configs(kernel.info);
    if (kernel.configs.empty())
      throw CompileError::at(*impl_->source, at,
                             "Inductor module: kernel '" + k.name + "': no candidate config");
    impl_->kernels[k.name] = std::move(kernel);
  }
}

InductorModule::~InductorModule() = default;

const std::string &InductorModule::path() const { return impl_->path; }

void InductorModule::set_target(const InductorTarget &target) {
  for (auto &[name, k] : impl_->kernels) {
    std::vector<InductorConfig> configs = inductor_configs(k.info, target);
    if (configs.empty())
      throw CompileError(
          "Inductor module: kernel '" + name + "': no candidate config for the target", impl_->path,
          {});
    k.configs = std::move(configs);
  }
  impl_->tuned.clear();
}

std::vector<std::string> InductorModule::kernel_names() const {
  std::vector<std::string> out;
  for (auto &k : impl_->scanned.kernels) out.push_back(k.name);
  return out;
}

namespace {

InductorRunResult run_function(InductorModule::Impl &m, const std::string &fn, Executor &executor,
                               const std::vector<WrapperValue> &args, const InductorAtenHook &aten,
                               WrapperOptions options, uint64_t seed) {
  InductorRunResult result;
  WrapperInterpreter interp(m.module, executor, options);
  Impl_ &im = interp.internals();
  Extension ext(m, aten, result, seed);
  im.extension = &ext;
  for (auto &[n, v] : m.bindings(m.module)) im.globals->vars[n] = v;
  if (!im.globals->find("torch")) im.globals->vars["torch"] = Value::module("torch");
  im.globals->vars["_opforge_del_"] = Value::builtin("ext.del");
  im.globals->vars["_opforge_del_after_"] = Value::builtin("ext.del_after");
  WrapperRunResult r = interp.run(fn, args);
  result.value = std::move(r.value);
  result.launches = std::move(r.launches);
  for (auto &a : r.autotune) result.autotune.push_back(a);
  result.autotune_trial_cycles = r.autotune_trial_cycles;
  return result;
}

}  // namespace

InductorRunResult InductorModule::call(Executor &executor, const std::vector<WrapperValue> &args,
                                       const InductorAtenHook &aten, WrapperOptions options) {
  // call(args) takes one list (and clears it).
  return run_function(*impl_, "call", executor, {WrapperValue::list(args)}, aten, options, 0);
}

std::vector<WrapperValue> InductorModule::example_args(Executor &executor, uint64_t seed) {
  if (!impl_->scanned.has_get_args)
    throw CompileError("Inductor module: no get_args() in " + impl_->path, impl_->path, {});
  InductorRunResult r = run_function(*impl_, "get_args", executor, {}, {}, {}, seed);
  if (r.value.kind != WrapperValue::Kind::List && r.value.kind != WrapperValue::Kind::Tuple)
    throw CompileError("Inductor module: get_args() did not return a list", impl_->path, {});
  return r.value.items;
}

}  // namespace opforge::compiler
