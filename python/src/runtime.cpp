// runtime.cpp - the opforge PyTorch device's chip, kernel library, statistics and profiles.
#include "runtime.h"

#include <filesystem>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <set>

#include "opforge/compiler/chip_executor.h"
#include "opforge/harness/aten_runtime.h"
#include "opforge/harness/inductor_kernels.h"
#include "opforge/harness/results.h"
#include "opforge/harness/scenario.h"
#include "opforge/harness/sweep.h"
#include "opforge/harness/validate.h"
#include "opforge/model/device.h"
#include "opforge/support/error.h"

namespace opforge::pydev {

using json = nlohmann::json;

namespace {

std::mutex g_mutex;
Runtime *g_runtime = nullptr;  // never destroyed: SystemC cannot tear the chip down

struct Tally {
  uint64_t calls = 0, chip_calls = 0, fallbacks = 0, cycles = 0, launches = 0;
  std::string fallback_reason;
};

using OpKey = std::pair<std::string, std::string>;  // overload, dtype

// Cycles and launches only where they were recorded (profiles).
json tallies_json(const std::map<OpKey, Tally> &tallies, bool timed) {
  json ops = json::array();
  for (const auto &[key, t] : tallies) {
    json o = {{"op", key.first},
              {"dtype", key.second},
              {"calls", t.calls},
              {"chip_calls", t.chip_calls},
              {"fallbacks", t.fallbacks}};
    if (timed) {
      o["cycles"] = t.cycles;
      o["launches"] = t.launches;
    }
    if (!t.fallback_reason.empty()) o["fallback_reason"] = t.fallback_reason;
    ops.push_back(std::move(o));
  }
  return ops;
}

// "dram.channels=8" -> ("dram.channels", 8); a value that is no JSON stays a string.
std::pair<std::string, json> parse_setting(const std::string &text) {
  const size_t eq = text.find('=');
  if (eq == std::string::npos || eq == 0)
    throw Error("opforge.init: set entry '" + text + "' is not FIELD=VALUE");
  const std::string value = text.substr(eq + 1);
  json v = json::parse(value, nullptr, false);
  if (v.is_discarded()) v = value;
  return {text.substr(0, eq), v};
}

}  // namespace

std::string Config::describe() const {
  std::string s = "arch " + arch + ", timing " + timing + ", set [";
  for (size_t i = 0; i < sets.size(); ++i) s += (i ? ", " : "") + sets[i];
  s += "], library " + (library.empty() ? std::string("(shipped)") : library);
  for (const auto &k : kernel_sets) s += ", inductor kernels " + k;
  return s;
}

struct Runtime::Impl {
  model::Device *device = nullptr;
  std::unique_ptr<compiler::Executor> executor;
  compiler::ChipExecutor *chip = nullptr;
  std::vector<harness::KernelLibrary> libraries;
  std::map<std::string, std::optional<KernelRef>> kernels;
  std::map<std::string, std::string> kernel_why;
  std::map<OpKey, Tally> stats;
  // The open profile (and the last one stopped, for profile_save).
  bool profiling = false;
  std::map<OpKey, Tally> profile_ops;
  harness::PointResult point;
  std::map<std::string, uint64_t> counters;
  std::vector<std::string> counter_order;
  std::optional<harness::PointResult> saved;
  std::vector<std::unique_ptr<compiler::InductorModule>> inductor_modules;

  Tally &profile_tally(const OpKey &key) { return profile_ops[key]; }

  // Adds the launches [before, end) (end: all) to `rec` and the profile's point.
  void tally_launches(size_t before, const std::string &op, harness::OpRecord &rec,
                      size_t end = SIZE_MAX) {
    const auto &launches = chip->launches();
    for (size_t i = before; i < std::min(end, launches.size()); ++i) {
      const model::LaunchResult &lr = launches[i];
      rec.cycles += lr.cycles;
      ++rec.launches;
      point.cycles += lr.cycles;
      point.instructions += lr.instructions;
      point.host_seconds += lr.host_seconds;
      for (const auto &in : lr.instances) {
        if (point.instances.size() >= harness::PointResult::kMaxInstances) break;
        point.instances.push_back(
            {op, in.pe, uint64_t(in.pid[0]), in.start_cycle, in.end_cycle, in.instructions});
      }
      for (const auto &[n, v] : lr.counter_deltas) {
        auto [it, inserted] = counters.emplace(n, 0);
        if (inserted) counter_order.push_back(n);
        it->second += v;
      }
    }
  }
};

Runtime::Runtime(const Config &config) : config_(config), impl_(std::make_unique<Impl>()) {
  harness::ChipOptions chip;
  chip.arch = config.arch;
  chip.sets = config.sets;
  chip.timing = config.timing;
  impl_->device = &harness::chip_device(chip);
  impl_->executor = harness::make_executor(harness::ExecutorKind::Chip, chip, false);
  impl_->chip = dynamic_cast<compiler::ChipExecutor *>(impl_->executor.get());
  if (!impl_->chip) throw Error("opforge: this build's chip executor is not a ChipExecutor");
  if (config.library.empty()) {
    for (const auto &d : harness::extension_library_dirs())
      impl_->libraries.push_back(harness::KernelLibrary::load(d));
    impl_->libraries.push_back(harness::KernelLibrary::load(harness::default_library_dir()));
  } else {
    impl_->libraries.push_back(harness::KernelLibrary::load(config.library));
  }
  for (const auto &manifest : config.kernel_sets)
    impl_->libraries.push_back(
        harness::KernelLibrary::load(harness::rendered_inductor_kernel_dir(manifest)));
}

Runtime &Runtime::init(const Config &config) {
  std::lock_guard<std::mutex> lock(g_mutex);
  if (g_runtime) {
    if (g_runtime->config_.describe() != config.describe())
      throw Error("opforge.init: this process's chip was made for " +
                  g_runtime->config_.describe() + "; " + config.describe() +
                  " needs another process (SystemC elaborates one chip per process)");
    return *g_runtime;
  }
  g_runtime = new Runtime(config);
  return *g_runtime;
}

Runtime &Runtime::get() {
  std::lock_guard<std::mutex> lock(g_mutex);
  if (!g_runtime) throw Error("opforge: the device is not initialised; call opforge.init() first");
  return *g_runtime;
}

bool Runtime::initialized() {
  std::lock_guard<std::mutex> lock(g_mutex);
  return g_runtime != nullptr;
}

compiler::Executor &Runtime::executor() { return *impl_->executor; }

uint64_t Runtime::allocate(int64_t bytes) {
  try {
    return impl_->executor->allocate(bytes);
  } catch (const Error &e) {
    if (std::string(e.what()).find("out of device memory") == std::string::npos) throw;
    const model::ChipParams &p = impl_->device->params();
    const uint64_t total = p.dram.capacity_bytes - p.map.code_reserved_bytes;
    const uint64_t used = impl_->device->bytes_allocated();
    throw Error("opforge: out of device memory: " + std::to_string(bytes) + " bytes requested, " +
                std::to_string(total > used ? total - used : 0) + " bytes free of " +
                std::to_string(total) + " bytes of DRAM (arch " + config_.arch +
                "; dram.capacity_bytes sets it)");
  }
}

void Runtime::free(uint64_t buffer) noexcept {
  try {
    impl_->executor->free(buffer);
  } catch (...) {
    // A buffer the chip no longer knows: nothing to give back.
  }
}

const KernelRef *Runtime::kernel_for(const std::string &overload, std::string *why) {
  auto it = impl_->kernels.find(overload);
  if (it == impl_->kernels.end()) {
    std::optional<KernelRef> ref;
    std::string reason;
    const harness::KernelLibrary::File *file = nullptr;
    for (const auto &lib : impl_->libraries)
      if ((file = lib.find(overload))) break;
    if (file && file->module) {
      const std::string wrapper = file->wrapper_for(overload);
      if (!wrapper.empty()) {
        ref = KernelRef{{file->module.get(), wrapper, 0},
                        std::filesystem::path(file->path).filename().string() + ":" + wrapper};
      } else {
        reason = file->path + " has no wrapper for " + overload;
      }
    } else if (file) {
      reason = "its kernel file " + file->path + " does not load: " + file->error;
    } else if (harness::is_view_op(overload)) {
      ref = KernelRef{{nullptr, "", 0}, "view runtime"};
    } else {
      reason = "no kernel for it in the library";
    }
    it = impl_->kernels.emplace(overload, ref).first;
    impl_->kernel_why[overload] = reason;
  }
  if (why) *why = impl_->kernel_why[overload];
  return it->second ? &*it->second : nullptr;
}

std::vector<std::string> Runtime::library_overloads() const {
  std::set<std::string> names;
  for (const auto &lib : impl_->libraries)
    for (const auto &f : lib.files()) names.insert(f.overload);
  return {names.begin(), names.end()};
}

compiler::WrapperValue Runtime::run_on_chip(
    const std::string &overload, const KernelRef &kernel, const std::string &dtype,
    const std::string &call, const std::vector<compiler::WrapperValue> &args,
    const std::vector<std::pair<std::string, compiler::WrapperValue>> &kwargs) {
  Tally &t = impl_->stats[{overload, dtype}];
  ++t.calls;
  ++t.chip_calls;
  const size_t before = impl_->chip->launches().size();
  harness::OpRecord rec;
  rec.op = overload;
  rec.call = call;
  rec.status = "ok";
  try {
    compiler::WrapperValue out = harness::run_wrapper_call_on_device(
        kernel.kernel, *impl_->executor, overload, args, kwargs);
    if (impl_->profiling) {
      impl_->tally_launches(before, overload, rec);
      Tally &p = impl_->profile_tally({overload, dtype});
      ++p.calls;
      ++p.chip_calls;
      p.cycles += rec.cycles;
      p.launches += rec.launches;
      impl_->point.ops.push_back(std::move(rec));
    }
    return out;
  } catch (const Error &e) {
    const std::string msg = "opforge: " + overload + " (" + dtype + ") on the chip, kernel " +
                            kernel.name + ": " + e.what();
    if (impl_->profiling) {
      impl_->tally_launches(before, overload, rec);
      rec.status = "failed";
      rec.reason = e.what();
      impl_->point.ops.push_back(std::move(rec));
    }
    throw Error(msg);
  }
}

bool Runtime::note_fallback(const std::string &overload, const std::string &dtype,
                            const std::string &call, const std::string &reason) {
  Tally &t = impl_->stats[{overload, dtype}];
  const bool first = t.fallbacks == 0;
  ++t.calls;
  ++t.fallbacks;
  if (t.fallback_reason.empty()) t.fallback_reason = reason;
  if (impl_->profiling) {
    Tally &p = impl_->profile_tally({overload, dtype});
    ++p.calls;
    ++p.fallbacks;
    if (p.fallback_reason.empty()) p.fallback_reason = reason;
    harness::OpRecord rec;
    rec.op = overload;
    rec.call = call;
    rec.status = "unsupported";
    rec.reason = "ran on the CPU: " + reason;
    impl_->point.ops.push_back(std::move(rec));
  }
  return first;
}

std::string Runtime::stats_json() const {
  uint64_t calls = 0, chip = 0, fallbacks = 0;
  for (const auto &[key, t] : impl_->stats) {
    calls += t.calls;
    chip += t.chip_calls;
    fallbacks += t.fallbacks;
  }
  json j = {{"calls", calls},
            {"chip_calls", chip},
            {"fallbacks", fallbacks},
            {"device_bytes_allocated", impl_->device->bytes_allocated()},
            {"ops", tallies_json(impl_->stats, false)}};
  return j.dump();
}

compiler::InductorTarget Runtime::inductor_target() const {
  const auto &params = impl_->device->params();
  compiler::InductorTarget target;
  target.vector_bits = static_cast<int>(params.core.vlen_bits);
  target.local_mem_bytes = params.local_mem.size_bytes;
  target.num_pes = static_cast<int>(params.num_pes());
  return target;
}

int64_t Runtime::add_inductor_module(std::unique_ptr<compiler::InductorModule> module) {
  impl_->inductor_modules.push_back(std::move(module));
  return int64_t(impl_->inductor_modules.size()) - 1;
}

compiler::InductorModule &Runtime::inductor_module(int64_t handle) {
  if (handle < 0 || size_t(handle) >= impl_->inductor_modules.size())
    throw Error("opforge: no Inductor module with handle " + std::to_string(handle) + " (" +
                std::to_string(impl_->inductor_modules.size()) + " loaded)");
  return *impl_->inductor_modules[size_t(handle)];
}

size_t Runtime::launch_count() const { return impl_->chip->launches().size(); }

bool Runtime::keep_launches(bool keep) {
  const bool was = impl_->chip->keeps_launches();
  impl_->chip->keep_launches(keep);
  return was;
}

void Runtime::truncate_launches(size_t n) { impl_->chip->truncate_launches(n); }

uint64_t Runtime::launch_cycles(size_t from, size_t to) const {
  const auto &l = impl_->chip->launches();
  uint64_t c = 0;
  for (size_t i = from; i < std::min(to, l.size()); ++i) c += l[i].cycles;
  return c;
}

std::pair<uint64_t, uint64_t> Runtime::chip_and_fallback_calls() const {
  uint64_t chip = 0, fallbacks = 0;
  for (const auto &[key, t] : impl_->stats) {
    chip += t.chip_calls;
    fallbacks += t.fallbacks;
  }
  return {chip, fallbacks};
}

bool Runtime::profiling() const { return impl_->profiling; }

void Runtime::profile_triton_kernel(const std::string &name, const std::string &dtype,
                                    const std::string &site, uint64_t cycles) {
  const std::string op = "triton::" + name;
  Tally &t = impl_->stats[{op, dtype}];
  ++t.calls;
  ++t.chip_calls;
  if (!impl_->profiling) return;
  harness::OpRecord rec;
  rec.op = op;
  rec.call = op + " at " + site;
  rec.status = "ok";
  rec.cycles = cycles;
  rec.launches = 1;
  impl_->point.cycles += cycles;
  Tally &p = impl_->profile_tally({op, dtype});
  ++p.calls;
  ++p.chip_calls;
  p.cycles += cycles;
  p.launches += 1;
  impl_->point.ops.push_back(std::move(rec));
}

void Runtime::profile_launch_counters(size_t from, size_t to, const std::string &label) {
  if (!impl_->profiling) return;
  harness::OpRecord scratch;
  const uint64_t cycles = impl_->point.cycles;
  impl_->tally_launches(from, label, scratch, to);
  impl_->point.cycles = cycles;  // cycles come from the kernels' own records
}

void Runtime::profile_start() {
  if (impl_->profiling) throw Error("opforge.profile: a profile is already open");
  impl_->profiling = true;
  impl_->profile_ops.clear();
  impl_->point = harness::PointResult{};
  impl_->counters.clear();
  impl_->counter_order.clear();
  impl_->chip->keep_launches(true);
}

std::string Runtime::profile_stop() {
  if (!impl_->profiling) throw Error("opforge.profile: no profile is open");
  impl_->profiling = false;
  impl_->chip->keep_launches(false);
  harness::PointResult &r = impl_->point;
  r.index = 0;
  r.workload = "pytorch";
  r.config = impl_->device->params().arch.to_json();
  for (const auto &n : impl_->counter_order) r.counters.emplace_back(n, impl_->counters[n]);
  uint64_t chip = 0, fallbacks = 0, launches = 0;
  for (const auto &[key, t] : impl_->profile_ops) {
    chip += t.chip_calls;
    fallbacks += t.fallbacks;
    launches += t.launches;
  }
  size_t failed = 0;
  for (const auto &op : r.ops) failed += op.status == "failed";
  r.status = failed ? "failed" : "ok";
  r.reason = failed ? std::to_string(failed) + " calls failed on the chip" : "";
  harness::add_energy(r, impl_->device->params().arch);
  json counters = json::object();
  for (const auto &[n, v] : r.counters) counters[n] = v;
  json calls = json::array();
  for (const auto &op : r.ops)
    calls.push_back({{"op", op.op},
                     {"call", op.call},
                     {"status", op.status},
                     {"reason", op.reason},
                     {"cycles", op.cycles},
                     {"launches", op.launches}});
  json j = {{"ops", tallies_json(impl_->profile_ops, true)},
            {"calls", calls},
            {"cycles", r.cycles},
            {"instructions", r.instructions},
            {"launches", launches},
            {"chip_calls", chip},
            {"fallbacks", fallbacks},
            {"counters", counters}};
  impl_->saved = r;
  return j.dump();
}

void Runtime::profile_save(const std::string &path) const {
  namespace fs = std::filesystem;
  if (!impl_->saved) throw Error("opforge.profile: save() needs a finished profile");
  const fs::path out(path);
  harness::Scenario s;
  s.name = "opforge-profile";
  s.arch = config_.arch;
  s.timing = config_.timing;
  s.output = path;
  harness::Workload w;
  w.name = "pytorch";
  w.kind = harness::Workload::Kind::Aten;
  w.library = config_.library;
  s.workloads.push_back(w);
  harness::SweepPoint p;
  json overrides = json::object();
  for (const auto &set : config_.sets) {
    auto kv = parse_setting(set);
    s.overrides.push_back(kv);
    p.settings.push_back(kv);
    overrides[kv.first] = kv.second;
  }
  s.document = {{"name", s.name},
                {"description", "operators run on the opforge PyTorch device (opforge.profile)"},
                {"arch", s.arch},
                {"timing", s.timing},
                {"overrides", overrides},
                {"workloads", json::array({{{"name", w.name}, {"kind", "aten"}}})}};
  std::error_code ec;
  fs::remove(out, ec);
  fs::remove_all(harness::shard_dir(out), ec);
  harness::write_shard(harness::shard_path(out, 0), *impl_->saved);
  harness::merge_results(out, s, {p});
  fs::remove_all(harness::shard_dir(out), ec);
}

}  // namespace opforge::pydev
