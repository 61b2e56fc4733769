//===- diff_harness.h - run one kernel on the IR interpreter and on the chip ===//
#pragma once

#include <cmath>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "opforge/compiler/codegen.h"
#include "opforge/compiler/interp.h"
#include "opforge/model/device.h"
#include "opforge/model/params.h"
#include "opforge/support/host_tensor.h"

namespace opforge::compiler::testing {

struct KArg {
  enum class Kind { Tensor, Int, Float } kind = Kind::Int;
  HostTensor t;
  int64_t i = 0;
  double f = 0;
  static KArg tensor(HostTensor t) { return {Kind::Tensor, std::move(t), 0, 0}; }
  static KArg integer(int64_t v) { return {Kind::Int, {}, v, 0}; }
  static KArg floating(double v) { return {Kind::Float, {}, 0, v}; }
};

struct DiffCase {
  std::string file;    // under tests/compiler/kernels/ (or an absolute path)
  std::string kernel;  // the @triton.jit function (empty: the file's only or first one)
  std::string signature;
  std::vector<std::string> constexprs;
  std::vector<KArg> args;
  ttir::Grid grid;
};

// The signature name of a tensor element type (`*bf16` without the star).
inline std::string tl_type(DType d) {
  switch (d) {
    case DType::BFloat16:
      return "bf16";
    case DType::Float16:
      return "fp16";
    case DType::Int8:
      return "i8";
    case DType::Int32:
      return "i32";
    case DType::Int64:
      return "i64";
    default:
      return "fp32";
  }
}

// The test matmul kernels' parameters (matmul.py, block_ptr_matmul.py,
// matmul_int8.py): A and B of `ab`, C of `c`, M, N, K and six strides.
inline std::string matmul_signature(DType ab, DType c) {
  const std::string t = tl_type(ab);
  return "a_ptr=*" + t + ",b_ptr=*" + t + ",c_ptr=*" + tl_type(c) +
         ",M=i32,N=i32,K=i32,stride_am=i32,stride_ak=i32,stride_bk=i32,stride_bn=i32,"
         "stride_cm=i32,stride_cn=i32";
}

inline std::string kernel_path(const std::string &file) {
  if (!file.empty() && file[0] == '/') return file;  // a kernel written by the test
  return std::string(OPFORGE_SOURCE_DIR) + "/tests/compiler/kernels/" + file;
}

inline CompileOptions options(const DiffCase &c) {
  CompileOptions o;
  o.knobs = Knobs{};
  o.kernel = c.kernel;
  add_signature(o.spec, c.signature);
  for (auto &e : c.constexprs) add_constexpr(o.spec, e);
  return o;
}

inline HostTensor random_tensor(DType d, std::vector<int64_t> sizes, uint32_t seed) {
  HostTensor t(d, std::move(sizes));
  std::mt19937 rng(seed);
  std::normal_distribution<double> dist(0.0, 1.0);
  for (int64_t i = 0; i < t.numel(); ++i) {
    if (dtype_is_float(d))
      t.set_double(i, dist(rng));
    else
      t.set_int(i, static_cast<int64_t>(rng() % 200) - 100);
  }
  return t;
}

// The test matmul kernels' arguments: random row-major A (m x k, seed) and B (k x n, seed + 1;
// column-major when `b_transposed`), an m x n C of zeros.
inline std::vector<KArg> matmul_args(DType ab, DType c, int64_t m, int64_t n, int64_t k,
                                     uint32_t seed, bool b_transposed = false) {
  return {KArg::tensor(random_tensor(ab, {m, k}, seed)),
          KArg::tensor(random_tensor(ab, {k, n}, seed + 1)),
          KArg::tensor(HostTensor(c, {m, n})),
          KArg::integer(m),
          KArg::integer(n),
          KArg::integer(k),
          KArg::integer(k),
          KArg::integer(1),
          KArg::integer(b_transposed ? 1 : n),
          KArg::integer(b_transposed ? k : 1),
          KArg::integer(n),
          KArg::integer(1)};
}

// Tensors after running the kernel on the IR interpreter (inputs copied).
inline std::vector<HostTensor> run_interp(const DiffCase &c) {
  CompileState s = compile_file(kernel_path(c.file), options(c), "opt");
  ttir::InterpMemory mem;
  std::vector<HostTensor> tensors;
  std::vector<ttir::KernelArg> args;
  for (auto &a : c.args) {
    if (a.kind == KArg::Kind::Tensor) {
      tensors.push_back(a.t.contiguous());
      args.push_back(ttir::KernelArg::pointer(mem.address_of(tensors.back())));
    } else if (a.kind == KArg::Kind::Int) {
      args.push_back(ttir::KernelArg::integer(a.i));
    } else {
      args.push_back(ttir::KernelArg::floating(a.f));
    }
  }
  ttir::Interpreter(mem).run(*s.opt, s.kernel, args, c.grid);
  return tensors;
}

inline KernelBinary compile_binary(const DiffCase &c) {
  register_codegen_stages();
  CompileOptions o = options(c);
  // DPE commands within the tiny preset's pe.dpe.tile_max_*.
  static const model::DpeParams dpe = model::load_params("tiny").dpe;
  o.target.dpe_tile_m = dpe.tile_max_m;
  o.target.dpe_tile_n = dpe.tile_max_n;
  o.target.dpe_tile_k = dpe.tile_max_k;
  CompileState s = compile_file(kernel_path(c.file), o, "bin");
  return *std::any_cast<std::shared_ptr<KernelBinary>>(s.extra.at("bin"));
}

// Launches `bin` on `dev` with `values` over `grid`, then copies the device
// tensors at `addrs` back into `tensors` (same order) and frees them.
inline model::LaunchResult launch_and_collect(model::Device &dev, const KernelBinary &bin,
                                              const std::vector<ArgValue> &values,
                                              model::Grid3 grid, const std::vector<uint64_t> &addrs,
                                              std::vector<HostTensor> &tensors,
                                              bool bounds_checked = true) {
  model::KernelLaunch k;
  k.image = model::read_elf(bin.elf, bin.kernel);
  k.args = bin.pack_args(values);
  k.grid = grid;
  // Bounds-checked, as ChipExecutor launches are: a kernel touching memory
  // outside its tensors traps.
  std::vector<model::LaunchBuffer> buffers;
  for (size_t i = 0; i < addrs.size(); ++i)
    buffers.push_back({"tensor " + std::to_string(i), addrs[i],
                       uint64_t(tensors[i].numel()) * tensors[i].element_size(), true});
  if (bounds_checked) k.buffers = std::move(buffers);
  model::LaunchResult r = dev.launch(k);
  for (size_t i = 0; i < addrs.size(); ++i) {
    if (tensors[i].numel())
      tensors[i] = dev.copy_out(addrs[i], tensors[i].dtype(), tensors[i].sizes());
    dev.free(addrs[i]);
  }
  return r;
}

struct ChipRun {
  std::vector<HostTensor> tensors;
  model::LaunchResult launch;
};

inline ChipRun run_chip(model::Device &dev, const DiffCase &c, bool bounds_checked = true) {
  KernelBinary bin = compile_binary(c);
  ChipRun run;
  std::vector<uint64_t> addrs;
  std::vector<ArgValue> values;
  for (auto &a : c.args) {
    if (a.kind == KArg::Kind::Tensor) {
      HostTensor t = a.t.contiguous();
      uint64_t addr = dev.alloc(std::max<uint64_t>(1, t.numel() * t.element_size()));
      if (t.numel()) dev.copy_in(addr, t);
      addrs.push_back(addr);
      run.tensors.push_back(t);
      values.push_back(ArgValue{ArgValue::Kind::Address, addr, 0, 0});
    } else if (a.kind == KArg::Kind::Int) {
      values.push_back(ArgValue{ArgValue::Kind::Int, 0, a.i, 0});
    } else {
      values.push_back(ArgValue{ArgValue::Kind::Float, 0, 0, a.f});
    }
  }
  run.launch = launch_and_collect(
      dev, bin, values,
      model::Grid3{static_cast<uint32_t>(c.grid.x), static_cast<uint32_t>(c.grid.y),
                   static_cast<uint32_t>(c.grid.z)},
      addrs, run.tensors, bounds_checked);
  return run;
}

// The one Device of this process (SystemC elaborates once), on a preset.
inline model::Device &device(const std::string &preset = "tiny") {
  static std::unique_ptr<model::Device> dev;
  if (!dev) dev = std::make_unique<model::Device>(model::load_params(preset));
  return *dev;
}

// Sum of the counters whose name ends with `suffix` (all PEs).
inline uint64_t counter_sum(const model::LaunchResult &r, const std::string &suffix) {
  uint64_t n = 0;
  for (auto &[name, v] : r.counter_deltas)
    if (name.size() >= suffix.size() &&
        name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0)
      n += v;
  return n;
}

// Every tensor of the chip run (on device()) within rtol/atol of the
// interpreter's (exact when both are 0, NaN where both are NaN); returns the
// chip run. Needs <gtest/gtest.h> and <cmath>.
inline ChipRun expect_chip_close(const DiffCase &c, double rtol, double atol) {
  auto ref = run_interp(c);
  ChipRun chip = run_chip(device(), c);
  EXPECT_TRUE(chip.launch.ok()) << (chip.launch.traps.empty() ? "" : chip.launch.traps.front());
  EXPECT_EQ(ref.size(), chip.tensors.size());
  for (size_t t = 0; t < ref.size() && t < chip.tensors.size(); ++t) {
    EXPECT_EQ(ref[t].numel(), chip.tensors[t].numel());
    if (ref[t].numel() != chip.tensors[t].numel()) continue;
    int bad = 0;
    for (int64_t i = 0; i < ref[t].numel() && bad < 5; ++i) {
      double r = ref[t].get_double(i), g = chip.tensors[t].get_double(i);
      bool ok = (std::isnan(r) && std::isnan(g)) || std::fabs(r - g) <= atol + rtol * std::fabs(r);
      if (!ok) {
        ++bad;
        ADD_FAILURE() << c.file << " tensor " << t << " element " << i << ": chip " << g
                      << " interpreter " << r;
      }
    }
  }
  return chip;
}

// expect_chip_close, returning the chip launch for counter checks.
inline model::LaunchResult expect_close(const DiffCase &c, double rtol, double atol) {
  return expect_chip_close(c, rtol, atol).launch;
}

}  // namespace opforge::compiler::testing
