//===- chip_executor.cpp - the wrapper interpreter's Executor on model::Device ===//
#include "opforge/compiler/chip_executor.h"

#include <cstring>
#include <functional>
#include <iostream>
#include <mutex>
#include <unordered_map>
#include <sstream>

#include "opforge/compiler/diagnostics.h"
#include "opforge/compiler/sema.h"
#include "opforge/isa/disasm.h"
#include "opforge/isa/elf_loader.h"
#include "opforge/support/error.h"
#include "opforge/support/hash.h"

namespace opforge::compiler {

ChipExecutor::~ChipExecutor() {
  if (spill_addr_) {
    try {
      dev_.free(spill_addr_);
    } catch (...) {
    }
  }
}

uint64_t ChipExecutor::spill_scratch(const KernelBinary &bin) {
  const uint64_t need = static_cast<uint64_t>(bin.spill_bytes) * dev_.params().num_pes();
  if (need > spill_size_) {
    if (spill_addr_) dev_.free(spill_addr_);
    spill_addr_ = dev_.alloc(need);
    spill_size_ = need;
  }
  return spill_addr_;
}

BufferId ChipExecutor::allocate(int64_t bytes) {
  if (bytes < 0)
    throw Error("chip executor: negative allocation of " + std::to_string(bytes) + " bytes");
  Buffer b{dev_.alloc(static_cast<uint64_t>(std::max<int64_t>(bytes, 1))), bytes};
  buffers_[next_id_] = b;
  return next_id_++;
}

void ChipExecutor::free(BufferId buffer) {
  auto it = buffers_.find(buffer);
  if (it == buffers_.end())
    throw Error("chip executor: free of unknown buffer " + std::to_string(buffer));
  dev_.free(it->second.addr);
  buffers_.erase(it);
}

uint64_t ChipExecutor::address(const TensorHandle &t) const {
  auto it = buffers_.find(t.buffer);
  if (it == buffers_.end()) throw Error("chip executor: unknown buffer in " + t.to_string());
  return it->second.addr + static_cast<uint64_t>(t.storage_offset * dtype_size(t.dtype));
}

// The view's whole storage extent as a host tensor sharing t's strides.
HostTensor ChipExecutor::read_storage(const TensorHandle &t) {
  const Buffer &b = buffers_.at(t.buffer);
  auto bytes = std::make_shared<std::vector<uint8_t>>(static_cast<size_t>(b.bytes));
  if (b.bytes) dev_.copy_out(b.addr, bytes->data(), static_cast<uint64_t>(b.bytes));
  return HostTensor(t.dtype, t.sizes, t.strides, t.storage_offset, bytes);
}

void ChipExecutor::copy_in(const TensorHandle &dst, const HostTensor &src) {
  if (src.sizes() != dst.sizes || src.dtype() != dst.dtype)
    throw Error("chip executor: copy_in of " + src.to_string(4) + " into " + dst.to_string());
  if (!dst.numel()) return;
  if (dst.is_contiguous()) {
    dev_.copy_in(address(dst), src.contiguous());
    return;
  }
  HostTensor view = read_storage(dst);
  for (int64_t i = 0; i < src.numel(); ++i)
    std::memcpy(view.element_ptr(view.linear_to_offset(i)),
                src.element_ptr(src.linear_to_offset(i)), src.element_size());
  const Buffer &b = buffers_.at(dst.buffer);
  dev_.copy_in(b.addr, view.storage_data(), static_cast<uint64_t>(b.bytes));
}

HostTensor ChipExecutor::copy_out(const TensorHandle &src) {
  if (!src.numel()) return HostTensor(src.dtype, src.sizes);
  if (src.is_contiguous()) return dev_.copy_out(address(src), src.dtype, src.sizes);
  return read_storage(src).contiguous();
}

void ChipExecutor::copy(const TensorHandle &dst, const TensorHandle &src) {
  if (dst.sizes != src.sizes) throw Error("chip executor: copy between views of different sizes");
  HostTensor s = copy_out(src);
  copy_in(dst, s.dtype() == dst.dtype ? s : s.to(dst.dtype));
}

namespace {

// Binaries of the whole process, shared by every ChipExecutor: a validation run
// makes one executor per recorded call, and the calls of one overload mostly
// share their specialisations, so a per-executor cache alone recompiles the
// same kernel for every call. The key holds the full kernel source (no hash
// collisions). Bounded: when full, the cache starts again empty.
struct ProcessCache {
  std::mutex mutex;
  std::unordered_map<std::string, std::shared_ptr<const KernelBinary>> binaries;
  static constexpr size_t kMaxEntries = 4096;
};

ProcessCache &process_cache() {
  static ProcessCache cache;
  return cache;
}

// The name of the function symbol of `bin`'s ELF at or below `pc` ("" if none).
std::string routine_at(const KernelBinary &bin, uint64_t pc) {
  std::string name;
  uint64_t best = 0;
  try {
    for (const auto &[sym, addr] : isa::parse_elf(bin.elf, bin.kernel).symbols)
      if (addr <= pc && addr >= best && sym.rfind(".L", 0) != 0) {
        best = addr;
        name = sym;
      }
  } catch (const Error &) {
  }
  return name;
}

}  // namespace

std::shared_ptr<const KernelBinary> ChipExecutor::binary(const LaunchRequest &request) {
  if (!request.module)
    throw Error("chip executor: launch of " + request.kernel + " without its module");
  Specialization spec = specialization_of(request);
  std::string source =
      request.module->source ? request.module->source->text() : request.module->file;
  std::string key = request.module->file + "|" + request.kernel + "|" + spec.key() + "|" +
                    target_.key() + "|" + source;
  if (auto it = cache_.find(key); it != cache_.end()) {
    ++cache_hits_;
    return it->second;
  }
  ProcessCache &shared = process_cache();
  {
    std::lock_guard lock(shared.mutex);
    if (auto it = shared.binaries.find(key); it != shared.binaries.end()) {
      cache_[key] = it->second;
      return it->second;
    }
  }
  CompileOptions o;
  o.kernel = request.kernel;
  o.spec = spec;
  // Non-owning: the wrapper interpreter keeps the module alive during the launch.
  std::shared_ptr<const ast::Module> m(std::shared_ptr<const ast::Module>{}, request.module);
  auto bin = std::make_shared<const KernelBinary>(compile_kernel(m, o, target_));
  // Compile warnings (block buffers spilled out of local memory), once per compile.
  for (const std::string &w : bin->warnings)
    std::cerr << request.module->file << ": warning: " << w << "\n";
  cache_[key] = bin;
  std::lock_guard lock(shared.mutex);
  if (shared.binaries.size() >= ProcessCache::kMaxEntries) shared.binaries.clear();
  shared.binaries[key] = bin;
  return bin;
}

LaunchResult ChipExecutor::launch(const LaunchRequest &request) {
  auto bin = binary(request);
  std::vector<ArgValue> values;
  for (const ArgSlot &slot : bin->args) {
    const LaunchArg *arg = nullptr;
    for (auto &a : request.args)
      if (a.name == slot.name) arg = &a;
    if (!arg)
      throw Error("chip executor: kernel " + request.kernel + " has no argument for parameter " +
                  slot.name);
    switch (arg->kind) {
      case LaunchArg::Kind::Tensor:
        values.push_back({ArgValue::Kind::Address, address(arg->tensor), 0, 0});
        break;
      case LaunchArg::Kind::Int:
      case LaunchArg::Kind::Bool:
        values.push_back({ArgValue::Kind::Int, 0, arg->int_value, 0});
        break;
      case LaunchArg::Kind::Float:
        values.push_back({ArgValue::Kind::Float, 0, 0, arg->float_value});
        break;
      default:
        throw Error("chip executor: kernel " + request.kernel + " parameter " + slot.name +
                    " cannot be passed at run time");
    }
  }
  LaunchResult out;
  if (request.grid.programs() == 0) return out;
  model::KernelLaunch k;
  k.image = model::read_elf(bin->elf, bin->kernel);
  k.args = bin->pack_args(values);
  if (bin->spill_bytes > 0) bin->set_spill_base(k.args, spill_scratch(*bin));
  k.grid =
      model::Grid3{static_cast<uint32_t>(request.grid.x), static_cast<uint32_t>(request.grid.y),
                   static_cast<uint32_t>(request.grid.z)};
  // Bounds checking: the kernel may touch the storage of the tensors passed
  // to it (whole buffers: a view reaches its storage), nothing else in DRAM.
  std::vector<model::LaunchBuffer> buffers;
  std::map<BufferId, size_t> buffer_index;
  for (const LaunchArg &a : request.args) {
    if (a.kind != LaunchArg::Kind::Tensor) continue;
    auto it = buffers_.find(a.tensor.buffer);
    if (it == buffers_.end()) continue;
    auto [at, fresh] = buffer_index.emplace(a.tensor.buffer, buffers.size());
    if (fresh)
      buffers.push_back({a.name, it->second.addr, static_cast<uint64_t>(it->second.bytes), true});
    else
      buffers[at->second].name += "/" + a.name;
  }
  if (bin->spill_bytes > 0)
    buffers.push_back({"the spill scratch", spill_addr_, spill_size_, true});
  k.buffers = std::move(buffers);
  model::LaunchResult r = dev_.launch(k);
  ++launch_count_;
  if (keep_launches_) launches_.push_back(r);
  for (const auto &inst : r.instances) {
    if (inst.status == model::InstanceStatus::Done) continue;
    std::string insn;
    for (const auto &seg : k.image.segments)
      if (inst.pc >= seg.addr && inst.pc + 4 <= seg.addr + seg.bytes.size()) {
        uint32_t w;
        std::memcpy(&w, seg.bytes.data() + (inst.pc - seg.addr), 4);
        insn = isa::disassemble(w, inst.pc);
        break;
      }
    std::ostringstream os;
    os << "kernel " << request.kernel << " program (" << inst.pid[0] << ", " << inst.pid[1] << ", "
       << inst.pid[2] << ") ";
    if (!inst.out_of_bounds.empty()) {
      // "kernel K program (0, 0, 0) out-of-bounds store of 16 bytes at 0x...: 48 bytes past
      // the end of out_ptr [0x..., +16), by vse32.v v8, (a0) at pc=0x... on pe[0][1]"
      os << inst.out_of_bounds << ", by " << (insn.empty() ? "the instruction" : insn)
         << " at pc=0x" << std::hex << inst.pc << std::dec << " on "
         << inst.message.substr(0, inst.message.find(':'));
    } else {
      os << model::instance_status_name(inst.status);
      if (!insn.empty()) os << " (" << insn << ")";
      os << ": " << inst.message;
      // An access at most 64 MiB below the local memory: the stack (which
      // starts at its top) ran out, which the compile's check should have
      // prevented (fit_local_memory: a frame it could not measure).
      const uint64_t alias = dev_.params().map.local_alias_base;
      const uint64_t lmem = dev_.params().local_mem.size_bytes;
      if (inst.status == model::InstanceStatus::Trap && (inst.cause == 5 || inst.cause == 7) &&
          inst.addr < alias && alias - inst.addr <= (uint64_t{64} << 20))
        os << "; the address is " << alias - inst.addr
           << " bytes below the local memory: the kernel's stack (its frame and block buffers) "
              "overflowed the "
           << lmem << " bytes of pe.local_mem.size_bytes";
    }
    // Context: "FILE:LINE: pc=0x...: ", the line of the statement whose code
    // faulted (the binary's line table). In a runtime-library routine, the
    // line of its call (the return address); else the kernel's `def` line.
    ErrorContext ctx;
    ctx.pc = inst.pc;
    const SourceLine *at = bin->line_at(inst.pc);
    if (!at && (inst.pc < bin->code_begin || inst.pc >= bin->code_end)) {
      std::string routine = routine_at(*bin, inst.pc);
      if (!routine.empty()) os << " in runtime routine " << routine;
      if (inst.ra >= 4) at = bin->line_at(inst.ra - 4);  // the call (jalr) before the return
    }
    if (at) {
      // Locations name the file as given; the module may know its full path.
      const std::string &file = bin->source_files[at->file];
      const std::string &module_file = request.module->file;
      bool same = module_file == file ||
                  (module_file.size() > file.size() && module_file.ends_with("/" + file));
      ctx.file = same ? module_file : file;
      ctx.line = static_cast<int>(at->line);
    } else if (request.function && request.function->name_loc.known()) {
      ctx.file = request.module->file;
      ctx.line = request.function->name_loc.line;
    }
    throw Error(os.str(), ctx);
  }
  if (!r.ok()) throw Error("kernel " + request.kernel + ": " + r.traps.front());
  out.programs_run = static_cast<int64_t>(request.grid.programs());
  out.cycles = r.cycles;
  return out;
}

std::string ChipExecutor::tuning_target() const {
  const model::ChipParams &p = dev_.params();
  return fnv1a64_hex(p.arch.to_json().dump() + "|" + model::timing_mode_name(p.sim.timing) + "|" +
                     target_.key());
}

}  // namespace opforge::compiler
