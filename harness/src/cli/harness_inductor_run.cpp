//===- harness_inductor_run.cpp - `opforge inductor-run`: a TorchInductor module on the chip ===//
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <map>
#include <set>
#include <sstream>

#include "opforge/compiler/diagnostics.h"
#include "opforge/compiler/inductor_module.h"
#include "opforge/harness/aten_call.h"
#include "opforge/harness/aten_runtime.h"
#include "opforge/harness/cli.h"
#include "opforge/harness/inductor_kernels.h"
#include "opforge/harness/oracle.h"
#include "opforge/harness/results.h"
#include "opforge/harness/scenario.h"
#include "opforge/harness/sweep.h"
#include "opforge/harness/validate.h"
#include "opforge/support/error.h"
#include "options.h"
#ifdef OPFORGE_HAVE_CHIP
#include "opforge/compiler/chip_executor.h"
#include "opforge/model/device.h"
#endif

namespace opforge::cli {
namespace {

using compiler::BufferId;
using compiler::InductorAtenCall;
using compiler::InductorAtenResult;
using compiler::InductorStep;
using compiler::WrapperValue;

constexpr const char *kUsage =
    "usage: opforge inductor-run FILE.py [--arch tiny|mtia-2i|FILE] [--set K=V]...\n"
    "                   [--timing lt|functional] [--library DIR] [--profile OUT.h5] [--seed N]\n"
    "                   [--inductor-kernels MANIFEST|none]...\n\n"
    "Runs a TorchInductor output module (the Python file torch.compile writes per graph)\n"
    "on the chip model without Python: its get_args() makes random inputs (seeded by --seed),\n"
    "call() runs in the wrapper interpreter, its Triton kernels compile for the chip and are\n"
    "tuned over their decorator's configs by simulated cycles, and every ATen call it makes\n"
    "(extern_kernels.mm/addmm/bmm/convolution, torch.ops.aten fallbacks) runs through the\n"
    "kernel library (--library DIR, default the shipped one) on the chip, or on the CPU\n"
    "through ATen (the oracle plugin) when the library has no kernel for it: a fallback.\n"
    "Without --library, the kernels rendered from the inductor lowering table for\n"
    "scenarios/traces/kernels.json and python/opforge/device_kernels.json are searched after\n"
    "the library, as opforge.init() does (--inductor-kernels names other manifests; none: no\n"
    "rendered kernels).\n"
    "Prints each step (kind, name, cycles, on chip) and the shares of ATen graph nodes and of\n"
    "cycles in Inductor's Triton kernels, library kernels and CPU fallbacks, beside Triton for\n"
    "MTIA's 50% of layers and 47% of non-GEMM time. --profile writes the results-format HDF5\n"
    "that `opforge report` reads (docs/results.md). docs/compiler/inductor.md, \"Modules\".\n";

// GEMM-like ops: the non-GEMM time share is of the time outside them (as opforge.inductor).
bool is_gemm(const InductorStep &s) {
  static const std::set<std::string> gemm = {"aten.mm",
                                             "aten.addmm",
                                             "aten.bmm",
                                             "aten.baddbmm",
                                             "aten.convolution",
                                             "aten._convolution",
                                             "aten.convolution_backward",
                                             "aten.addmv",
                                             "aten.mv"};
  if (s.kind == InductorStep::Kind::TritonKernel) return false;
  std::vector<std::string> names = s.aten_nodes;
  std::string base =
      s.name.substr(s.name.find("::") == std::string::npos ? 0 : s.name.find("::") + 2);
  names.push_back("aten." + base.substr(0, base.find('.')));
  for (auto &n : names) {
    size_t d1 = n.find('.'), d2 = d1 == std::string::npos ? d1 : n.find('.', d1 + 1);
    if (gemm.count(n.substr(0, d2))) return true;
  }
  return false;
}

std::string short_call(const InductorAtenCall &c) {
  std::string s = c.overload + "(";
  auto one = [](const WrapperValue &v) {
    if (v.kind != WrapperValue::Kind::Tensor) {
      std::string t = v.to_string();
      return t.size() > 24 ? t.substr(0, 21) + "..." : t;
    }
    std::string t = std::string(dtype_name(v.tensor.dtype)) + "[";
    for (size_t i = 0; i < v.tensor.sizes.size(); ++i)
      t += (i ? ", " : "") + std::to_string(v.tensor.sizes[i]);
    return t + "]";
  };
  bool first = true;
  for (auto &a : c.args) {
    s += (first ? "" : ", ") + one(a);
    first = false;
  }
  for (auto &[k, v] : c.kwargs) {
    s += (first ? "" : ", ") + k + "=" + one(v);
    first = false;
  }
  return s + ")";
}

// Runs ATen calls through the kernel library on the chip, else ATen on the CPU.
class LibraryHook {
 public:
  LibraryHook(compiler::Executor &ex, const std::string &library,
              const std::vector<std::string> &kernel_sets)
      : ex_(ex) {
    if (library.empty()) {
      for (const auto &d : harness::extension_library_dirs())
        libs_.push_back(harness::KernelLibrary::load(d));
      libs_.push_back(harness::KernelLibrary::load(harness::default_library_dir()));
    } else {
      libs_.push_back(harness::KernelLibrary::load(library));
    }
    for (const auto &manifest : kernel_sets)
      libs_.push_back(
          harness::KernelLibrary::load(harness::rendered_inductor_kernel_dir(manifest)));
  }
  std::vector<std::pair<InductorAtenCall, InductorAtenResult>> calls;

  InductorAtenResult operator()(const InductorAtenCall &c) {
    InductorAtenResult r;
    std::string why;
    if (auto k = kernel_for(c.overload, &why)) {
      r = on_chip(*k, c.overload, c.args, c.kwargs, c);
    } else if (c.overload.size() > 4 && c.overload.substr(c.overload.size() - 4) == ".out" &&
               kernel_for(c.overload.substr(0, c.overload.size() - 4), nullptr)) {
      // X.out(..., out=buf): the functional X on the chip, its result copied into out.
      const std::string base = c.overload.substr(0, c.overload.size() - 4);
      std::vector<std::pair<std::string, WrapperValue>> kw;
      const WrapperValue *out = nullptr;
      for (auto &[n, v] : c.kwargs)
        if (n == "out")
          out = &v;
        else
          kw.push_back({n, v});
      r = on_chip(*kernel_for(base, nullptr), base, c.args, kw, c);
      if (r.on_chip && out && r.value.kind == WrapperValue::Kind::Tensor) {
        ex_.copy(out->tensor, r.value.tensor);
        ex_.free(r.value.tensor.buffer);
        r.value = *out;
      }
    } else {
      r = on_cpu(c, why);
    }
    calls.push_back({c, r});
    return r;
  }

 private:
  compiler::Executor &ex_;
  std::vector<harness::KernelLibrary> libs_;
  std::map<std::string, std::optional<harness::CallKernel>> cache_;
  std::map<std::string, std::string> why_;

  const harness::CallKernel *kernel_for(const std::string &overload, std::string *why) {
    auto it = cache_.find(overload);
    if (it == cache_.end()) {
      std::optional<harness::CallKernel> ref;
      std::string reason;
      const harness::KernelLibrary::File *file = nullptr;
      for (const auto &lib : libs_)
        if ((file = lib.find(overload))) break;
      if (file && file->module) {
        std::string w = file->wrapper_for(overload);
        if (!w.empty())
          ref = harness::CallKernel{file->module.get(), w, 0};
        else
          reason = file->path + " has no wrapper for " + overload;
      } else if (file) {
        reason = "its kernel file " + file->path + " does not load";
      } else if (harness::is_view_op(overload)) {
        ref = harness::CallKernel{nullptr, "", 0};
      } else {
        reason = "no kernel for it in the library";
      }
      it = cache_.emplace(overload, ref).first;
      why_[overload] = reason;
    }
    if (why) *why = why_[overload];
    return it->second ? &*it->second : nullptr;
  }

  size_t launches() const {
#ifdef OPFORGE_HAVE_CHIP
    if (auto *chip = dynamic_cast<compiler::ChipExecutor *>(&ex_)) return chip->launches().size();
#endif
    return 0;
  }
  uint64_t cycles_since(size_t before) const {
    uint64_t c = 0;
#ifdef OPFORGE_HAVE_CHIP
    if (auto *chip = dynamic_cast<compiler::ChipExecutor *>(&ex_))
      for (size_t i = before; i < chip->launches().size(); ++i) c += chip->launches()[i].cycles;
#else
    (void)before;
#endif
    return c;
  }

  InductorAtenResult on_chip(const harness::CallKernel &k, const std::string &overload,
                             const std::vector<WrapperValue> &args,
                             const std::vector<std::pair<std::string, WrapperValue>> &kwargs,
                             const InductorAtenCall &c) {
    InductorAtenResult r;
    size_t before = launches();
    try {
      r.value = harness::run_wrapper_call_on_device(k, ex_, overload, args, kwargs);
    } catch (const Error &e) {
      std::string what = e.what();
      std::cerr << "opforge inductor-run: " << overload << " failed on the chip ("
                << what.substr(0, what.find('\n')) << "); running it on the CPU\n";
      return on_cpu(c, "the chip run failed: " + what.substr(0, what.find('\n')));
    }
    r.cycles = cycles_since(before);
    r.kernel = k.module ? k.wrapper : "view runtime";
    return r;
  }

  InductorAtenResult on_cpu(const InductorAtenCall &c, const std::string &why) {
    InductorAtenResult r;
    r.on_chip = false;
    r.kernel = "CPU (" + why + ")";
    harness::CallMarshal m(ex_);
    std::vector<harness::Value> args;
    std::vector<std::pair<std::string, harness::Value>> kwargs;
    for (auto &a : c.args) args.push_back(m.to_host(a));
    for (auto &[n, v] : c.kwargs) kwargs.push_back({n, m.to_host(v)});
    const auto &oracle = harness::OraclePlugin::get();
    harness::OracleResult res = oracle.call(c.overload, args, kwargs);
    // Written arguments go back into the module's tensors.
    auto names = harness::schema_argument_names(oracle.schema(c.overload));
    for (auto &[name, value] : res.mutated) {
      const WrapperValue *dst = nullptr;
      for (size_t i = 0; i < names.size() && i < c.args.size(); ++i)
        if (names[i] == name) dst = &c.args[i];
      for (auto &[k, v] : c.kwargs)
        if (k == name) dst = &v;
      if (dst && dst->kind == WrapperValue::Kind::Tensor && value.is_tensor())
        ex_.copy_in(dst->tensor, value.tensor);
    }
    bool has_out = false;
    for (auto &[k, v] : c.kwargs) has_out |= k == "out";
    if (!has_out) r.value = m.to_wrapper(res.out, "out");
    m.release();
    return r;
  }
};

void collect_buffers(const WrapperValue &v, std::set<BufferId> &out) {
  if (v.kind == WrapperValue::Kind::Tensor) out.insert(v.tensor.buffer);
  for (const auto &x : v.items) collect_buffers(x, out);
}

std::string pct(uint64_t a, uint64_t b) {
  std::ostringstream os;
  os << std::fixed << std::setprecision(1) << (b ? 100.0 * double(a) / double(b) : 0.0) << "%";
  return os.str();
}

int run_inductor_run(const std::vector<std::string> &args) {
  std::string file, library, profile;
  std::vector<std::string> kernel_sets;
  harness::ChipOptions chip;
  chip.timing = "";
  uint64_t seed = 0;
  OptionParser p("inductor-run", kUsage);
  p.text("arch", &chip.arch)
      .list("set", &chip.sets)
      .text("timing", &chip.timing)
      .text("library", &library)
      .list("inductor-kernels", &kernel_sets)
      .text("profile", &profile)
      .number("seed", &seed)
      .positional("FILE.py", &file);
  if (auto rc = p.parse(args)) return *rc;
  if (p.given("timing") && chip.timing != "functional" && chip.timing != "lt")
    return p.error("--timing needs functional or lt, got '" + chip.timing + "'");
  if (file.empty()) return usage_error("inductor-run", "missing FILE.py");
  std::ifstream in(file);
  if (!in) {
    std::cerr << "opforge inductor-run: error: cannot read " << file << "\n";
    return kExitFailure;
  }
  std::stringstream text;
  text << in.rdbuf();
  try {
    compiler::InductorModule module(text.str(), file);
    std::unique_ptr<compiler::Executor> ex =
        harness::make_executor(harness::ExecutorKind::Chip, chip, /*keep_launches=*/true);
#ifdef OPFORGE_HAVE_CHIP
    {
      // Configs proposed for this chip (vector length, local memory, PEs).
      const auto &params = harness::chip_device(chip).params();
      compiler::InductorTarget target;
      target.vector_bits = static_cast<int>(params.core.vlen_bits);
      target.local_mem_bytes = params.local_mem.size_bytes;
      target.num_pes = static_cast<int>(params.num_pes());
      module.set_target(target);
    }
#endif
    if (!p.given("inductor-kernels") && library.empty()) {
      // As opforge.init(): the trace set and the models' kernels after the library.
      const std::string src = std::filesystem::path(harness::default_library_dir())
                                  .parent_path()
                                  .parent_path()
                                  .parent_path()
                                  .string();
      kernel_sets = {src + "/scenarios/traces/kernels.json",
                     src + "/python/opforge/device_kernels.json"};
    }
    kernel_sets.erase(std::remove(kernel_sets.begin(), kernel_sets.end(), "none"),
                      kernel_sets.end());
    LibraryHook hook(*ex, library, kernel_sets);
    std::vector<WrapperValue> inputs = module.example_args(*ex, seed);
    std::cout << "module " << file << ": " << module.kernel_names().size() << " Triton kernels, "
              << inputs.size() << " inputs\n";
    auto aten = [&](const InductorAtenCall &c) { return hook(c); };
    // A first call tunes each kernel's configs (trial launches); the second, measured, runs
    // the winners only, so the cycles, counters and the profile are of one clean call.
    compiler::InductorRunResult tuning = module.call(*ex, inputs, aten);
    {
      std::set<BufferId> keep;
      for (const auto &a : inputs) collect_buffers(a, keep);
      std::set<BufferId> out;
      collect_buffers(tuning.value, out);
      for (BufferId b : out)
        if (!keep.count(b)) ex->free(b);
    }
    size_t tuned = 0;
    for (const auto &a : tuning.autotune) tuned += a.trials.size() > 1;
    std::cout << "tuning call: " << tuning.autotune.size() << " kernel configs chosen (" << tuned
              << " by trial launches, " << tuning.autotune_trial_cycles << " trial cycles)\n";
    hook.calls.clear();
    size_t first_launch = 0;
#ifdef OPFORGE_HAVE_CHIP
    if (auto *chip_ex = dynamic_cast<compiler::ChipExecutor *>(ex.get()))
      first_launch = chip_ex->launches().size();
#endif
    compiler::InductorRunResult r = module.call(*ex, inputs, aten);
    // Steps and the shares.
    std::cout << std::left << std::setw(7) << "step" << std::setw(8) << "kind" << std::setw(56)
              << "name" << std::right << std::setw(12) << "cycles"
              << "  on chip  kernel / config\n";
    enum { kTriton, kLibrary, kCpu };
    uint64_t nodes[3] = {0, 0, 0}, cycles[3] = {0, 0, 0}, gemm_cycles = 0;
    harness::PointResult point;
    for (size_t i = 0; i < r.steps.size(); ++i) {
      const InductorStep &s = r.steps[i];
      const bool triton = s.kind == InductorStep::Kind::TritonKernel;
      int where = triton ? kTriton : s.on_chip ? kLibrary : kCpu;
      nodes[where] += std::max<size_t>(1, s.aten_nodes.size());
      cycles[where] += s.cycles;
      if (!triton && s.on_chip && is_gemm(s)) gemm_cycles += s.cycles;
      std::cout << std::left << std::setw(7) << i << std::setw(8) << (triton ? "triton" : "aten")
                << std::setw(56) << s.name << std::right << std::setw(12) << s.cycles << "  "
                << (s.on_chip ? "yes      " : "no (CPU) ") << s.config << "\n";
      harness::OpRecord op;
      op.op = s.name;
      op.call = s.site;
      op.status = s.on_chip ? "ok" : "unsupported";
      if (!s.on_chip) op.reason = "ran on the " + s.config;
      op.cycles = s.cycles;
      op.launches = s.on_chip ? 1 : 0;
      point.ops.push_back(op);
    }
    for (const auto &[c, res] : hook.calls)
      for (auto &op : point.ops)
        if (op.call == c.site && op.op == c.overload) {
          op.call = c.site + " " + short_call(c);
          op.launches = res.launches.empty() ? op.launches : res.launches.size();
        }
    const uint64_t total_nodes = nodes[0] + nodes[1] + nodes[2];
    const uint64_t total_cycles = cycles[0] + cycles[1] + cycles[2];
    const char *names[3] = {"Inductor Triton kernels", "library kernels (chip)", "CPU fallback"};
    std::cout << "\n"
              << std::left << std::setw(28) << "where" << std::right << std::setw(12)
              << "ATen nodes" << std::setw(8) << "share" << std::setw(14) << "cycles"
              << std::setw(8) << "share"
              << "\n";
    for (int k = 0; k < 3; ++k)
      std::cout << std::left << std::setw(28) << names[k] << std::right << std::setw(12) << nodes[k]
                << std::setw(8) << pct(nodes[k], total_nodes) << std::setw(14) << cycles[k]
                << std::setw(8) << pct(cycles[k], total_cycles) << "\n";
    std::cout << "simulated cycles " << total_cycles << "\n"
              << "Triton kernels' share of ATen nodes: " << pct(nodes[0], total_nodes)
              << " (Triton for MTIA: 50% of layers); of non-GEMM time: "
              << pct(cycles[0], total_cycles - gemm_cycles) << " (Triton for MTIA: 47%)\n";
    if (!profile.empty()) {
      namespace fs = std::filesystem;
      point.index = 0;
      point.workload = "inductor";
      point.cycles = total_cycles;
      point.status = "ok";
#ifdef OPFORGE_HAVE_CHIP
      const auto &device = harness::chip_device(chip);
      point.config = device.params().arch.to_json();
      if (auto *chip_ex = dynamic_cast<compiler::ChipExecutor *>(ex.get())) {
        std::map<std::string, uint64_t> counters;
        std::vector<std::string> order;
        for (size_t i = first_launch; i < chip_ex->launches().size(); ++i) {
          const auto &l = chip_ex->launches()[i];
          point.instructions += l.instructions;
          point.host_seconds += l.host_seconds;
          for (const auto &[n, v] : l.counter_deltas) {
            auto [it, fresh] = counters.emplace(n, 0);
            if (fresh) order.push_back(n);
            it->second += v;
          }
        }
        for (const auto &n : order) point.counters.emplace_back(n, counters[n]);
      }
      harness::add_energy(point, device.params().arch);
#else
      (void)first_launch;
#endif
      harness::Scenario s;
      s.name = "opforge-inductor-run";
      s.arch = chip.arch;
      s.timing = chip.timing;
      s.output = profile;
      harness::Workload w;
      w.name = "inductor";
      w.kind = harness::Workload::Kind::Aten;
      w.library = library;
      s.workloads.push_back(w);
      harness::SweepPoint sp;
      nlohmann::json overrides = nlohmann::json::object();
      for (const auto &set : chip.sets) {
        auto eq = set.find('=');
        std::string k = set.substr(0, eq), v = eq == std::string::npos ? "" : set.substr(eq + 1);
        nlohmann::json jv = nlohmann::json::parse(v, nullptr, false);
        if (jv.is_discarded()) jv = v;
        s.overrides.push_back({k, jv});
        sp.settings.push_back({k, jv});
        overrides[k] = jv;
      }
      s.document = {{"name", s.name},
                    {"description", "a TorchInductor output module on the chip (" + file + ")"},
                    {"arch", s.arch},
                    {"timing", s.timing},
                    {"overrides", overrides},
                    {"workloads", nlohmann::json::array({{{"name", w.name}, {"kind", "aten"}}})}};
      const fs::path out(profile);
      std::error_code ec;
      fs::remove(out, ec);
      fs::remove_all(harness::shard_dir(out), ec);
      harness::write_shard(harness::shard_path(out, 0), point);
      harness::merge_results(out, s, {sp});
      fs::remove_all(harness::shard_dir(out), ec);
      std::cout << "profile written to " << profile << "\n";
    }
    return kExitOk;
  } catch (const compiler::CompileError &e) {
    std::cerr << e.rendered();
    return kExitFailure;
  }
}

CommandRegistrar reg{{"inductor-run",
                      "run a TorchInductor output module on the chip model (steps, cycles, "
                      "shares in Triton kernels / library / CPU; --profile HDF5)",
                      run_inductor_run}};

}  // namespace
}  // namespace opforge::cli
