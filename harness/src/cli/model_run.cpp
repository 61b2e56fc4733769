//===- model_run.cpp - `opforge chip-sim`: run a program on the chip model ===//
//
// Also reached as `opforge sim PROGRAM.elf --arch ...` (isa_sim.cpp hands
// over when --arch is given).
//
//===----------------------------------------------------------------------===//
#include <fstream>
#include <iostream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "opforge/harness/cli.h"
#include "opforge/model/device.h"
#include "opforge/model/pe_accel.h"
#include "opforge/support/error.h"
#include "options.h"

namespace opforge::cli {
namespace {

constexpr const char *kUsage =
    "usage: opforge chip-sim PROGRAM.elf [--arch mtia-2i|mtia-v1|tiny|FILE] [--set K=V]...\n"
    "                        [--timing functional|lt] [--grid X,Y,Z] [--counters OUT.h5]\n"
    "                        [--sample GLOB]... [--args FILE]\n"
    "                        [--trace-rtl pe=ROW,COL[,file=OUT.fst]] [--trace-window CYCLES]\n"
    "       opforge sim PROGRAM.elf --arch ... (same options)\n\n"
    "Run a bare-metal RISC-V program on the SystemC chip model: one instance on\n"
    "PE (0,0), or a grid of program instances dispatched over the PEs. Prints\n"
    "cycles, instructions, per-instance status and traps.\n\n"
    "  --arch NAME|FILE   architecture preset or JSON file (default mtia-2i)\n"
    "  --set K=V          override a parameter, e.g. --set dram.channels=32 (docs/config.md)\n"
    "  --timing MODE      functional (no timing) or lt (loosely timed; default from the preset)\n"
    "  --grid X,Y,Z       program instances (default 1,1,1)\n"
    "  --counters OUT.h5  write counters, sampled series and config to HDF5\n"
    "  --sample GLOB      counters to sample every simulation.sample_interval_cycles\n"
    "  --args FILE        bytes of the argument block (a0 points at it)\n"
    "  --trace-rtl SPEC   FST waveform of one PE's verilated DPE (pe.dpe.impl=rtl|lockstep;\n"
    "                     default file dpe_pe<ROW>_<COL>.fst)\n"
    "  --trace-window N   dump only the block's first N cycles (default: all)\n"
    "Exit status: 0 if every instance ended (done or tohost 1), 1 otherwise, 2 usage.\n";

bool parse_grid(const std::string &s, model::Grid3 &g) {
  unsigned x = 0, y = 0, z = 0;
  char c1 = 0, c2 = 0;
  std::istringstream in(s);
  if (!(in >> x)) return false;
  if (in >> c1) {
    if (c1 != ',' || !(in >> y)) return false;
    if (in >> c2) {
      if (c2 != ',' || !(in >> z)) return false;
    } else
      z = 1;
  } else
    y = z = 1;
  std::string rest;
  if (in >> rest || !x || !y || !z) return false;
  g = {x, y, z};
  return true;
}

int run_chip_sim(const std::vector<std::string> &args) {
  std::string program, arch = "mtia-2i", timing, counters_out, args_file;
  std::vector<std::string> sets, samples;
  std::string trace_rtl;
  uint64_t trace_window_cycles = 0;
  std::string grid_text;
  model::Grid3 grid;
  OptionParser p("chip-sim", kUsage);
  p.text("arch", &arch)
      .list("set", &sets)
      .text("timing", &timing)
      .text("grid", &grid_text)
      .text("counters", &counters_out)
      .list("sample", &samples)
      .text("args", &args_file)
      .text("trace-rtl", &trace_rtl)
      .number("trace-window", &trace_window_cycles)
      .positional("program", &program);
  if (auto rc = p.parse(args)) return *rc;
  if (p.given("timing") && timing != "functional" && timing != "lt")
    return p.error("--timing needs functional or lt, got '" + timing + "'");
  if (p.given("grid") && !parse_grid(grid_text, grid))
    return p.error("--grid needs X[,Y[,Z]] (positive), got '" + grid_text + "'");
  if (program.empty()) return usage_error("chip-sim", "no program given");
  try {
    // Preset or file, then overrides, then the timing mode (all via ArchConfig).
    if (!timing.empty()) sets.push_back("simulation.timing_mode=" + timing);
    model::ChipParams p = model::load_params(arch, sets);
    if (!trace_rtl.empty()) {
      model::DpeBackendOptions o = model::parse_rtl_trace_request(trace_rtl, trace_window_cycles);
      if (p.arch.pe.dpe.impl == UnitImpl::Tlm)
        throw Error("a waveform needs the verilated DPE (--set pe.dpe.impl=rtl or lockstep)")
            .with_path("--trace-rtl");
      if (o.trace_pe_row >= p.grid.rows || o.trace_pe_col >= p.grid.cols)
        throw Error("PE " + std::to_string(o.trace_pe_row) + "," + std::to_string(o.trace_pe_col) +
                    " is outside the " + std::to_string(p.grid.rows) + "x" +
                    std::to_string(p.grid.cols) + " grid")
            .with_path("--trace-rtl");
      model::set_dpe_backend_options(o);
    }

    model::KernelLaunch k;
    k.image = model::read_elf_file(program);
    k.grid = grid;
    if (!args_file.empty()) {
      std::ifstream in(args_file, std::ios::binary);
      if (!in) throw Error("cannot open argument block", ErrorContext{args_file, "", {}, {}, {}});
      k.args.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    }
    model::Device dev(p);
    if (!samples.empty()) dev.set_sampled_counters(samples);
    model::LaunchResult r = dev.launch(k);

    std::cout << "arch " << p.name << " (" << p.grid.rows << "x" << p.grid.cols << " PEs, "
              << model::timing_mode_name(p.sim.timing) << ")\n"
              << "cycles " << r.cycles << "\n"
              << "instructions " << r.instructions << "\n"
              << "host_link_cycles " << dev.host_link_cycles() << "\n"
              << "sim_mips "
              << (r.host_seconds > 0 ? double(r.instructions) / r.host_seconds / 1e6 : 0) << "\n";
    bool ok = true;
    for (const auto &rec : r.instances) {
      std::cout << "program (" << rec.pid[0] << "," << rec.pid[1] << "," << rec.pid[2] << ") pe "
                << rec.pe << " " << model::instance_status_name(rec.status);
      if (rec.status == model::InstanceStatus::Tohost) {
        std::cout << " " << rec.tohost_value;
        ok &= rec.tohost_value == 1;
      }
      std::cout << " cycles " << rec.start_cycle << ".." << rec.end_cycle << "\n";
    }
    for (const auto &t : r.traps) std::cout << "trap: " << t << "\n";
    ok &= r.ok();
    if (!counters_out.empty()) dev.write_counters_h5(counters_out, &r);
    return ok ? kExitOk : kExitFailure;
  } catch (const Error &e) {
    std::cerr << "opforge chip-sim: error: " << e.what() << "\n";
    return kExitFailure;
  }
}

CommandRegistrar reg{{"chip-sim", "run a RISC-V program on the SystemC chip model", run_chip_sim}};

}  // namespace
}  // namespace opforge::cli
