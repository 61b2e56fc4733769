//===- point.cpp - runs one sweep point in this process, writes its shard -===//
#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <H5Cpp.h>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "aten_point.h"
#include "model_point.h"
#include "opforge/harness/results.h"
#include "opforge/harness/runner.h"
#include "opforge/harness/sweep.h"
#include "opforge/isa/extension.h"
#include "opforge/model/device.h"
#include "opforge/support/error.h"

namespace opforge::harness {
namespace fs = std::filesystem;
using nlohmann::json;

namespace {

// Run a tool with stdout/stderr to `log`; returns the exit status (-1 if it could not start).
int run_tool(const std::vector<std::string> &argv, const fs::path &log) {
  const pid_t point = ::getpid();
  pid_t pid = ::fork();
  if (pid < 0) return -1;
  if (pid == 0) {
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);  // dies with the point process (and so its runner)
    if (::getppid() != point) ::_exit(128 + SIGKILL);
    int fd = ::open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd >= 0) {
      ::dup2(fd, 1);
      ::dup2(fd, 2);
    }
    std::vector<char *> args;
    for (const auto &a : argv) args.push_back(const_cast<char *>(a.c_str()));
    args.push_back(nullptr);
    ::execvp(args[0], args.data());
    ::_exit(127);
  }
  int st = 0;
  while (::waitpid(pid, &st, 0) < 0) {
  }
  return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

std::string slurp(const fs::path &p) {
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// GNU ld's -Ttext takes hexadecimal.
std::string hex_address(uint64_t v) {
  std::ostringstream o;
  o << "0x" << std::hex << v;
  return o.str();
}

// Assemble and link a .S workload with the GNU RISC-V toolchain, text at
// the point's memory_map.dram_base.
fs::path build_asm(const Workload &w, const fs::path &work, uint64_t text_base) {
  fs::create_directories(work);
  fs::path obj = work / (w.name + ".o"), elf = work / (w.name + ".elf"),
           log = work / (w.name + ".log");
  std::string inc = fs::path(w.path).parent_path().string();
  if (run_tool({"riscv64-unknown-elf-as", "-march=rv64imafdv_zicsr_zifencei", "-I", inc, "-o",
                obj.string(), w.path},
               log) != 0)
    throw Error("assembling failed: " + slurp(log), ErrorContext{w.path, "", {}, {}, {}});
  if (run_tool({"riscv64-unknown-elf-ld", "-N", "-Ttext=" + hex_address(text_base), "-o",
                elf.string(), obj.string()},
               log) != 0)
    throw Error("linking failed: " + slurp(log), ErrorContext{w.path, "", {}, {}, {}});
  return elf;
}

void put_u64(std::vector<uint8_t> &out, uint64_t v) {
  for (int i = 0; i < 8; ++i) out.push_back(uint8_t(v >> (8 * i)));
}

// The sampled series from the model's counters file (docs/model/counters.md).
void read_trace(const fs::path &file, PointResult &r) try {
  H5::Exception::dontPrint();
  H5::H5File f(file.string(), H5F_ACC_RDONLY);
  if (!H5Lexists(f.getId(), "/series", H5P_DEFAULT)) return;
  H5::DataSet names = f.openDataSet("/series/names");
  hsize_t n = 0;
  names.getSpace().getSimpleExtentDims(&n);
  if (n == 0) return;
  std::vector<char *> raw(n);
  H5::StrType st(H5::PredType::C_S1, H5T_VARIABLE);
  st.setCset(H5T_CSET_UTF8);
  names.read(raw.data(), st);
  for (auto *c : raw) r.trace_names.push_back(c ? c : "");
  H5Dvlen_reclaim(st.getId(), names.getSpace().getId(), H5P_DEFAULT, raw.data());
  H5::DataSet cyc = f.openDataSet("/series/cycles");
  hsize_t m = 0;
  cyc.getSpace().getSimpleExtentDims(&m);
  r.trace_cycles.resize(m);
  if (m) cyc.read(r.trace_cycles.data(), H5::PredType::NATIVE_INT64);
  std::vector<int64_t> flat(m * n);
  if (m) f.openDataSet("/series/values").read(flat.data(), H5::PredType::NATIVE_INT64);
  for (size_t i = 0; i < m; ++i)
    r.trace_rows.emplace_back(flat.begin() + i * n, flat.begin() + (i + 1) * n);
} catch (const H5::Exception &e) {
  throw Error("cannot read the sampled counters: " + e.getDetailMsg(),
              ErrorContext{file.string(), "/series", {}, {}, {}});
}

// Test hook: OPFORGE_SWEEP_INJECT="crash@N" aborts point N (a crashing child).
void maybe_inject(size_t index) {
  const char *inj = std::getenv("OPFORGE_SWEEP_INJECT");
  if (inj && std::string(inj) == "crash@" + std::to_string(index)) std::abort();
}

}  // namespace

PointResult run_point(const Scenario &s, const SweepPoint &p, const fs::path &shard) {
  PointResult r;
  r.index = p.index;
  const Workload &w = s.workloads.at(p.workload);
  r.workload = w.name;
  r.axis_values = json::object();
  for (const auto &[k, v] : p.axis_values) r.axis_values[k] = v;
  maybe_inject(p.index);
  fs::path work = shard.parent_path() / ("work-" + std::to_string(p.index));
  try {
    // A point is its own process: its ISA extensions are registered for good.
    isa::register_extension_files(point_isa_extensions(s, p));
    r.config = point_arch_document(s, p);
    model::ChipParams params = model::params_from(
        ArchConfig::from_document(r.config, s.file + " (point " + std::to_string(p.index) + ")"));
    r.config = params.arch.to_json();
    if (w.kind == Workload::Kind::Model) {
      detail::run_model_workload(s, w, params, r, work);
      add_energy(r, params.arch);
      std::error_code ec;
      fs::remove_all(work, ec);
      write_shard(shard, r);
      return r;
    }
    if (is_aten_family(w.kind)) {
      detail::run_aten_workload(s, w, params, r);
      add_energy(r, params.arch);
      std::error_code ec;
      fs::remove_all(work, ec);
      write_shard(shard, r);
      return r;
    }
    model::KernelLaunch k;
    fs::path elf =
        w.kind == Workload::Kind::Asm ? build_asm(w, work, params.map.dram_base) : fs::path(w.path);
    k.image = model::read_elf_file(elf.string());
    if (w.grid_per_pe)
      k.grid = {params.num_pes(), 1, 1};
    else
      k.grid = {w.grid[0], w.grid[1], w.grid[2]};
    model::Device dev(params);
    uint64_t programs = uint64_t(k.grid.x) * k.grid.y * k.grid.z;
    for (const auto &a : w.args) {
      switch (a.kind) {
        case KernelArg::Kind::Value:
          put_u64(k.args, a.value);
          break;
        case KernelArg::Kind::Alloc:
          put_u64(k.args, dev.alloc(a.per_program ? a.value * programs : a.value));
          break;
        case KernelArg::Kind::LocalBase:
          put_u64(k.args, params.map.local_alias_base + a.value);
          break;
      }
    }
    if (s.sample_interval_cycles) dev.set_sampled_counters(s.sample_counters);
    model::LaunchResult lr = dev.launch(k);
    r.cycles = lr.cycles;
    r.instructions = lr.instructions;
    r.host_seconds = lr.host_seconds;
    for (const auto &[n, v] : lr.counter_deltas) r.counters.emplace_back(n, v);
    for (const auto &in : lr.instances) {
      if (r.instances.size() >= PointResult::kMaxInstances) break;
      uint64_t prog = (uint64_t(in.pid[2]) * k.grid.y + in.pid[1]) * k.grid.x + in.pid[0];
      r.instances.push_back({w.name, in.pe, prog, in.start_cycle, in.end_cycle, in.instructions});
    }
    if (s.sample_interval_cycles) {
      fs::create_directories(work);
      fs::path cf = work / "counters.h5";
      dev.write_counters_h5(cf.string(), &lr);
      read_trace(cf, r);
    }
    bool ok = lr.ok();
    std::string why;
    for (const auto &rec : lr.instances)
      if (rec.status == model::InstanceStatus::Tohost && rec.tohost_value != 1) {
        ok = false;
        why = "program exited with tohost " + std::to_string(rec.tohost_value);
      }
    if (!lr.traps.empty()) why = lr.traps.front();
    r.status = ok ? "ok" : "failed";
    r.reason = ok ? "" : why;
    add_energy(r, params.arch);
  } catch (const std::exception &e) {
    r.status = "failed";
    r.reason = e.what();
  }
  std::error_code ec;
  fs::remove_all(work, ec);
  write_shard(shard, r);
  return r;
}

}  // namespace opforge::harness
