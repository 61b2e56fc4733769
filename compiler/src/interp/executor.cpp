//===- executor.cpp - Executor backed by the ttir interpreter -------------===//
#include "opforge/compiler/interp_executor.h"

#include <cstring>
#include <mutex>
#include <unordered_map>

#include "opforge/compiler/diagnostics.h"
#include "opforge/compiler/passes.h"
#include "opforge/support/error.h"

namespace opforge::compiler {

const InterpExecutor::Buffer &InterpExecutor::buffer(BufferId id) const {
  auto it = buffers_.find(id);
  if (it == buffers_.end()) throw Error("interp executor: unknown buffer " + std::to_string(id));
  return it->second;
}

BufferId InterpExecutor::allocate(int64_t bytes) {
  if (bytes < 0)
    throw Error("interp executor: negative allocation of " + std::to_string(bytes) + " bytes");
  Buffer b;
  // Never zero bytes: every buffer gets a distinct address.
  b.storage = std::make_shared<std::vector<uint8_t>>(static_cast<size_t>(bytes), 0);
  b.base = memory_.map(b.storage);
  BufferId id = next_id_++;
  buffers_[id] = b;
  return id;
}

void InterpExecutor::free(BufferId id) {
  const Buffer &b = buffer(id);
  memory_.unmap(b.base);
  buffers_.erase(id);
}

HostTensor InterpExecutor::view(const TensorHandle &t) {
  const Buffer &b = buffer(t.buffer);
  return HostTensor(t.dtype, t.sizes, t.strides, t.storage_offset, b.storage);
}

void InterpExecutor::copy_in(const TensorHandle &dst, const HostTensor &src) {
  HostTensor d = view(dst);
  if (src.sizes() != d.sizes() || src.dtype() != d.dtype())
    throw Error("interp executor: copy_in of " + src.to_string(4) +
                " into a view of another shape or dtype");
  int64_t n = d.numel();
  int es = d.element_size();
  for (int64_t i = 0; i < n; ++i)
    std::memcpy(d.element_ptr(d.linear_to_offset(i)), src.element_ptr(src.linear_to_offset(i)),
                static_cast<size_t>(es));
}

HostTensor InterpExecutor::copy_out(const TensorHandle &src) { return view(src).contiguous(); }

void InterpExecutor::copy(const TensorHandle &dst, const TensorHandle &src) {
  HostTensor d = view(dst), s = view(src);
  if (d.sizes() != s.sizes()) throw Error("interp executor: copy between views of different sizes");
  int64_t n = d.numel();
  bool ints = dtype_is_integral(d.dtype()) && dtype_is_integral(s.dtype());
  if (d.dtype() == s.dtype()) {
    HostTensor tmp = s.contiguous();  // source and destination may overlap
    int es = d.element_size();
    for (int64_t i = 0; i < n; ++i)
      std::memcpy(d.element_ptr(d.linear_to_offset(i)), tmp.element_ptr(tmp.linear_to_offset(i)),
                  static_cast<size_t>(es));
    return;
  }
  HostTensor tmp = s.contiguous();
  for (int64_t i = 0; i < n; ++i) {
    if (ints)
      d.set_int(i, tmp.get_int(i));
    else
      d.set_double(i, tmp.get_double(i));
  }
}

namespace {

// Lowered kernels shared by the executors of a process: the generation loop's
// Compile stage lowers once and each call of Run gets a fresh executor. The key
// holds the kernel's source text and the knobs that change the result; bounded
// like the chip's binary cache (full: it starts again empty).
struct LoweredCache {
  std::mutex mutex;
  std::unordered_map<std::string, std::shared_ptr<ttir::Module>> modules;
  static constexpr size_t kMaxEntries = 4096;
};

LoweredCache &lowered_cache() {
  static LoweredCache cache;
  return cache;
}

}  // namespace

const ttir::Module &InterpExecutor::lowered(const LaunchRequest &r) {
  if (!r.module || !r.function)
    throw Error("interp executor: launch of '" + r.kernel + "' without its source module");
  Specialization spec = specialization_of(r);
  std::string key =
      r.module->file + "|" + r.kernel + "|" + spec.key() + (optimize_ ? "|opt" : "|noopt");
  auto it = compiled_.find(key);
  if (it != compiled_.end()) return *it->second;
  // Dumping or replacing IR has effects a cached module would skip.
  const bool shareable = knobs_.dump_ir_dir.empty() && knobs_.replace_ir.empty();
  std::string shared_key;
  if (shareable) {
    shared_key = key + "|" + knobs_.dot_precision + (knobs_.verify_each_pass ? "|v" : "|nv");
    for (const auto &p : knobs_.disabled_passes) shared_key += "|-" + p;
    shared_key += "|" + (r.module->source ? r.module->source->text() : std::string());
    LoweredCache &cache = lowered_cache();
    std::lock_guard lock(cache.mutex);
    if (auto hit = cache.modules.find(shared_key); hit != cache.modules.end())
      return *compiled_.emplace(key, hit->second).first->second;
  }
  LoweredKernel k = lower_kernel(*r.module, r.kernel, spec);
  if (optimize_) ttir::run_pass_pipeline(*k.module, knobs_);
  if (shareable) {
    LoweredCache &cache = lowered_cache();
    std::lock_guard lock(cache.mutex);
    if (cache.modules.size() >= LoweredCache::kMaxEntries) cache.modules.clear();
    cache.modules[shared_key] = k.module;
  }
  return *compiled_.emplace(key, k.module).first->second;
}

LaunchResult InterpExecutor::launch(const LaunchRequest &r) {
  const ttir::Module &m = lowered(r);
  const ttir::Function *f = m.find(r.kernel);
  std::vector<ttir::KernelArg> args;
  for (auto &a : r.args) {
    if (a.is_constexpr) continue;
    switch (a.kind) {
      case LaunchArg::Kind::Tensor: {
        const Buffer &b = buffer(a.tensor.buffer);
        args.push_back(ttir::KernelArg::pointer(
            b.base + static_cast<uint64_t>(a.tensor.storage_offset) *
                         static_cast<uint64_t>(dtype_size(a.tensor.dtype))));
        break;
      }
      case LaunchArg::Kind::Int:
      case LaunchArg::Kind::Bool:
        args.push_back(ttir::KernelArg::integer(a.int_value));
        break;
      case LaunchArg::Kind::Float:
        args.push_back(ttir::KernelArg::floating(a.float_value));
        break;
      default:
        break;  // None/Str/DType are constexpr-specialised
    }
  }
  if (f && args.size() != f->body->args.size())
    throw Error("interp executor: '" + r.kernel + "' expects " +
                std::to_string(f->body->args.size()) + " runtime arguments, the launch has " +
                std::to_string(args.size()));
  ttir::Interpreter interp(memory_);
  interp.set_sfu_prec_bits(sfu_prec_bits_);
  ttir::Grid g{r.grid.x, r.grid.y, r.grid.z};
  auto res = interp.run(m, r.kernel, args, g);
  LaunchResult out;
  out.programs_run = res.programs_run;
  out.prints = std::move(res.prints);
  return out;
}

}  // namespace opforge::compiler
