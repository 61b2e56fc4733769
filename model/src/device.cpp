//===- device.cpp - model::Device: allocation, copies, launches -----------===//
#include "opforge/model/device.h"

#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <deque>
#include <map>
#include <sstream>

#include <nlohmann/json.hpp>

#include "opforge/model/chip.h"
#include "opforge/model/counters_h5.h"
#include "opforge/support/error.h"

namespace opforge::model {

namespace {
std::atomic<bool> g_device_created{false};
}

struct Device::Impl {
  explicit Impl(const ChipParams &p) : params(p) {}
  ChipParams params;
  std::unique_ptr<Chip> chip;
  std::map<uint64_t, uint64_t> free_ranges;  // base -> size
  std::map<uint64_t, uint64_t> allocated;    // base -> size
  std::deque<KernelLaunch> queue;
  uint64_t *host_cycles = nullptr, *host_bytes_in = nullptr, *host_bytes_out = nullptr;
  double host_frac = 0;

  void charge_host(uint64_t bytes, bool in) {
    double freq = ChipClock(params).freq_ghz();
    double cycles =
        params.host_link.latency_ns * freq + double(bytes) / (params.host_link.gbps / freq);
    double before = std::floor(host_frac);
    host_frac += cycles;
    *host_cycles += uint64_t(std::floor(host_frac) - before);
    *(in ? host_bytes_in : host_bytes_out) += bytes;
  }
};

Device::Device(const ChipParams &params) {
  if (g_device_created.exchange(true))
    throw Error(
        "model::Device: only one Device per process (SystemC elaborates a design once); "
        "run each configuration in its own process");
  // Keep SystemC's banner off stdout (library code does not print).
  setenv("SYSC_DISABLE_COPYRIGHT_MESSAGE", "1", 1);
  impl_ = std::make_unique<Impl>(params);
  impl_->chip = std::make_unique<Chip>("chip", impl_->params);
  CounterRegistry &c = impl_->chip->counters();
  impl_->host_cycles = &c.add("host.copy_cycles");
  impl_->host_bytes_in = &c.add("host.bytes_in");
  impl_->host_bytes_out = &c.add("host.bytes_out");
  // The bottom of DRAM holds program images (ELF files linked there).
  impl_->free_ranges[params.map.dram_base + params.map.code_reserved_bytes] =
      params.dram.capacity_bytes - params.map.code_reserved_bytes;
  sc_core::sc_start(sc_core::SC_ZERO_TIME);  // end elaboration, start the PE threads
}

Device::~Device() = default;

const ChipParams &Device::params() const { return impl_->params; }

uint64_t Device::alloc(uint64_t bytes, uint64_t align) {
  if (bytes == 0) bytes = 1;
  if (align == 0 || (align & (align - 1))) throw Error("alloc: alignment must be a power of two");
  for (auto it = impl_->free_ranges.begin(); it != impl_->free_ranges.end(); ++it) {
    uint64_t base = it->first, size = it->second;
    uint64_t a = (base + align - 1) & ~(align - 1);
    if (a - base > size || size - (a - base) < bytes) continue;
    impl_->free_ranges.erase(it);
    if (a > base) impl_->free_ranges[base] = a - base;
    if (base + size > a + bytes) impl_->free_ranges[a + bytes] = base + size - (a + bytes);
    impl_->allocated[a] = bytes;
    return a;
  }
  throw Error("alloc: out of device memory (" + std::to_string(bytes) + " bytes requested)");
}

void Device::free(uint64_t addr) {
  auto it = impl_->allocated.find(addr);
  if (it == impl_->allocated.end()) {
    std::ostringstream m;
    m << "free: 0x" << std::hex << addr << " was not returned by alloc";
    throw Error(m.str());
  }
  uint64_t base = addr, size = it->second;
  impl_->allocated.erase(it);
  auto &fr = impl_->free_ranges;
  auto next = fr.lower_bound(base);
  if (next != fr.end() && base + size == next->first) {
    size += next->second;
    next = fr.erase(next);
  }
  if (next != fr.begin()) {
    auto prev = std::prev(next);
    if (prev->first + prev->second == base) {
      prev->second += size;
      return;
    }
  }
  fr[base] = size;
}

uint64_t Device::bytes_allocated() const {
  uint64_t n = 0;
  for (auto &[a, s] : impl_->allocated) n += s;
  return n;
}

static std::string hex(uint64_t v) {
  std::ostringstream m;
  m << "0x" << std::hex << v;
  return m.str();
}

void Device::copy_in(uint64_t addr, const void *src, uint64_t bytes) {
  if (bytes == 0) return;
  if (!impl_->chip->host_write(addr, src, bytes))
    throw Error("copy_in: [" + hex(addr) + ", +" + std::to_string(bytes) +
                ") is not mapped device memory");
  impl_->charge_host(bytes, true);
}

void Device::copy_out(uint64_t addr, void *dst, uint64_t bytes) {
  if (bytes == 0) return;
  if (!impl_->chip->host_read(addr, dst, bytes))
    throw Error("copy_out: [" + hex(addr) + ", +" + std::to_string(bytes) +
                ") is not mapped device memory");
  impl_->charge_host(bytes, false);
}

void Device::copy_in(uint64_t addr, const HostTensor &t) {
  HostTensor c = t.contiguous();
  copy_in(addr, c.storage_data(), uint64_t(c.numel()) * c.element_size());
}

HostTensor Device::copy_out(uint64_t addr, DType dtype, const std::vector<int64_t> &sizes) {
  HostTensor t(dtype, sizes);
  copy_out(addr, t.storage_data(), uint64_t(t.numel()) * t.element_size());
  return t;
}

uint64_t Device::host_link_cycles() const { return *impl_->host_cycles; }

LaunchResult Device::launch(const KernelLaunch &k) {
  Chip &chip = *impl_->chip;
  if (k.grid.count() == 0) throw Error("launch: empty grid");
  for (const KernelSegment &s : k.image.segments) {
    if (!chip.map().decode(s.addr, s.mem_bytes)) {
      throw Error("launch: segment [" + hex(s.addr) + ", +" + std::to_string(s.mem_bytes) +
                      ") is outside device memory",
                  ErrorContext{k.image.origin, "", {}, {}, {}});
    }
    const ChipParams &p = impl_->params;
    if (s.addr >= p.map.dram_base && s.addr - p.map.dram_base < p.dram.capacity_bytes &&
        s.addr - p.map.dram_base + s.mem_bytes > p.map.code_reserved_bytes)
      throw Error("launch: segment [" + hex(s.addr) + ", +" + std::to_string(s.mem_bytes) +
                      ") is in DRAM outside the program area [" + hex(p.map.dram_base) + ", +" +
                      std::to_string(p.map.code_reserved_bytes) + ")",
                  ErrorContext{k.image.origin, "", {}, {}, {}});
    copy_in(s.addr, s.bytes.data(), s.bytes.size());
    if (s.mem_bytes > s.bytes.size()) {
      std::vector<uint8_t> zeros(s.mem_bytes - s.bytes.size());
      copy_in(s.addr + s.bytes.size(), zeros.data(), zeros.size());
    }
  }
  LaunchSpec spec;
  spec.entry = k.image.entry;
  spec.grid = k.grid;
  spec.tohost = k.image.tohost;
  uint64_t args = 0;
  if (!k.args.empty()) {
    args = alloc(k.args.size(), 64);
    copy_in(args, k.args.data(), k.args.size());
    spec.args_addr = args;
  }
  if (k.buffers) {
    std::vector<LaunchBuffer> regions = *k.buffers;
    for (const KernelSegment &s : k.image.segments)
      regions.push_back({"the program image", s.addr, s.mem_bytes, true});
    if (args) regions.push_back({"the argument block", args, k.args.size(), false});
    spec.bounds = LaunchBounds(std::move(regions));
  }
  for (uint32_t i = 0; i < impl_->params.num_pes(); ++i) chip.pe(i).set_tohost(spec.tohost);

  CounterSnapshot before = chip.counters().snapshot();
  auto t0 = std::chrono::steady_clock::now();
  chip.clear_series();
  chip.cp().begin(spec);
  sc_core::sc_start();
  auto t1 = std::chrono::steady_clock::now();
  if (args) free(args);
  if (chip.cp().active())
    throw Error("launch: the simulation stopped before every program instance finished");

  LaunchResult r;
  r.host_seconds = std::chrono::duration<double>(t1 - t0).count();
  r.start_cycle = uint64_t(std::llround(chip.cp().start_cycle()));
  r.end_cycle = uint64_t(std::llround(chip.cp().end_cycle()));
  r.cycles = r.end_cycle - r.start_cycle;
  r.counter_deltas = CounterRegistry::delta(before, chip.counters().snapshot());
  if (!chip.series().cycles.empty()) r.samples = chip.series();
  r.instances = chip.cp().records();
  for (uint32_t i = 0; i < impl_->params.num_pes(); ++i) {
    std::string pre =
        pe_prefix(i / impl_->params.grid.cols, i % impl_->params.grid.cols) + ".core.";
    PeActivity a;
    a.pe = i;
    for (const auto &[name, v] : r.counter_deltas) {
      if (name.compare(0, pre.size(), pre) != 0) continue;
      std::string leaf = name.substr(pre.size());
      if (leaf == "programs")
        a.programs = v;
      else if (leaf == "instret")
        a.instructions = v;
      else if (leaf == "cycles")
        a.busy_cycles = v;
    }
    r.instructions += a.instructions;
    r.pe_activity.push_back(a);
  }
  for (const InstanceRecord &rec : r.instances)
    if (rec.status == InstanceStatus::Trap || rec.status == InstanceStatus::Watchdog ||
        rec.status == InstanceStatus::Aborted) {
      std::ostringstream m;
      m << "program (" << rec.pid[0] << "," << rec.pid[1] << "," << rec.pid[2] << ") "
        << instance_status_name(rec.status) << ": " << rec.message;
      r.traps.push_back(m.str());
    }
  return r;
}

void Device::enqueue(KernelLaunch k) { impl_->queue.push_back(std::move(k)); }

std::vector<LaunchResult> Device::synchronize() {
  std::vector<LaunchResult> out;
  while (!impl_->queue.empty()) {
    KernelLaunch k = std::move(impl_->queue.front());
    impl_->queue.pop_front();
    out.push_back(launch(k));
  }
  return out;
}

CounterSnapshot Device::counters() const { return impl_->chip->counters().snapshot(); }
uint64_t Device::counter(const std::string &name) const {
  return impl_->chip->counters().value(name);
}
void Device::reset_counters() { impl_->chip->counters().reset(); }

void Device::set_sampled_counters(const std::vector<std::string> &globs) {
  std::vector<size_t> idx;
  for (const std::string &g : globs) {
    auto m = impl_->chip->counters().match(g);
    if (m.empty()) throw Error("no counter matches '" + g + "'");
    idx.insert(idx.end(), m.begin(), m.end());
  }
  impl_->chip->set_sampled(std::move(idx));
}

uint64_t Device::now_cycles() const { return uint64_t(std::llround(impl_->chip->now_cycles())); }

void Device::write_counters_h5(const std::string &path, const LaunchResult *last) const {
  const Chip &chip = *impl_->chip;
  write_counters_h5_file(path, impl_->chip->counters().snapshot(), chip.series(),
                         impl_->params.arch.to_json().dump(), last);
}

}  // namespace opforge::model
