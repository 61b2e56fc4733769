//===- chip_prefetch_test.cpp - prefetched row loads: chip vs interpreter ===//
//
// Persistent kernels (programs looping over rows) prefetch the next rows by
// DMA while computing the current one (llir_prefetch.cpp) and reduce with RVV
// tree levels (llir_rvv.cpp). These run them on the chip and on the IR
// interpreter: partial last iterations (rows not a multiple of the programs),
// partial blocks (masked columns), a kernel whose stores overwrite the row the
// next iteration reads (the prefetch must not run ahead of that store), on the
// tiny and the mtia-2i presets.
//
//===----------------------------------------------------------------------===//
#include <gtest/gtest.h>

#include <cmath>

#include "diff_harness.h"

namespace opforge::compiler::testing {
namespace {

// A kernel argument: a pointer `elem_offset` elements into tensor `tensor`,
// an integer or a float.
struct PArg {
  int tensor = -1;
  int64_t elem_offset = 0;
  int64_t i = 0;
  double f = 0;
  bool is_float = false;
};
PArg ptr(int t, int64_t off = 0) { return {t, off, 0, 0, false}; }
PArg integer(int64_t v) { return {-1, 0, v, 0, false}; }
PArg floating(double v) { return {-1, 0, 0, v, true}; }

struct PCase {
  std::string file, kernel, signature;
  std::vector<std::string> constexprs;
  std::vector<HostTensor> tensors;
  std::vector<PArg> args;
  uint32_t programs = 1;
};

CompileOptions popts(const PCase &c) {
  CompileOptions o;
  o.kernel = c.kernel;
  o.knobs = Knobs{};
  add_signature(o.spec, c.signature);
  for (auto &e : c.constexprs) add_constexpr(o.spec, e);
  return o;
}

std::vector<HostTensor> interp(const PCase &c) {
  CompileState s = compile_file(kernel_path(c.file), popts(c), "opt");
  ttir::InterpMemory mem;
  std::vector<HostTensor> ts;
  for (auto &t : c.tensors) ts.push_back(t.contiguous());
  std::vector<ttir::KernelArg> args;
  for (auto &a : c.args) {
    if (a.tensor >= 0) {
      const HostTensor &t = ts[a.tensor];
      args.push_back(
          ttir::KernelArg::pointer(mem.address_of(t) + uint64_t(a.elem_offset) * t.element_size()));
    } else if (a.is_float) {
      args.push_back(ttir::KernelArg::floating(a.f));
    } else {
      args.push_back(ttir::KernelArg::integer(a.i));
    }
  }
  ttir::Grid g;
  g.x = c.programs;
  ttir::Interpreter(mem).run(*s.opt, s.kernel, args, g);
  return ts;
}

struct PRun {
  std::vector<HostTensor> tensors;
  model::LaunchResult launch;
  std::string llir;
};

PRun chip(model::Device &dev, const PCase &c) {
  register_codegen_stages();
  CompileOptions o = popts(c);
  o.target.dpe_tile_m = dev.params().dpe.tile_max_m;
  o.target.dpe_tile_n = dev.params().dpe.tile_max_n;
  o.target.dpe_tile_k = dev.params().dpe.tile_max_k;
  CompileState s = compile_file(kernel_path(c.file), o, "bin");
  KernelBinary bin = *std::any_cast<std::shared_ptr<KernelBinary>>(s.extra.at("bin"));
  PRun run;
  run.llir = dump_stage(s, "llir");
  std::vector<uint64_t> addrs;
  for (auto &t0 : c.tensors) {
    HostTensor t = t0.contiguous();
    uint64_t addr = dev.alloc(std::max<uint64_t>(1, t.numel() * t.element_size()));
    if (t.numel()) dev.copy_in(addr, t);
    addrs.push_back(addr);
    run.tensors.push_back(t);
  }
  std::vector<ArgValue> values;
  for (auto &a : c.args) {
    if (a.tensor >= 0)
      values.push_back(
          {ArgValue::Kind::Address,
           addrs[a.tensor] + uint64_t(a.elem_offset) * run.tensors[a.tensor].element_size(), 0, 0});
    else if (a.is_float)
      values.push_back({ArgValue::Kind::Float, 0, 0, a.f});
    else
      values.push_back({ArgValue::Kind::Int, 0, a.i, 0});
  }
  run.launch =
      launch_and_collect(dev, bin, values, model::Grid3{c.programs, 1, 1}, addrs, run.tensors);
  return run;
}

// Every tensor of the chip run equals the interpreter's within rtol/atol
// (bit for bit when both are 0).
PRun expect_match(model::Device &dev, const PCase &c, double rtol, double atol) {
  auto ref = interp(c);
  PRun got = chip(dev, c);
  EXPECT_TRUE(got.launch.ok()) << (got.launch.traps.empty() ? "" : got.launch.traps.front());
  EXPECT_EQ(ref.size(), got.tensors.size());
  for (size_t t = 0; t < ref.size() && t < got.tensors.size(); ++t) {
    int bad = 0;
    for (int64_t i = 0; i < ref[t].numel() && bad < 5; ++i) {
      double r = ref[t].get_double(i), g = got.tensors[t].get_double(i);
      bool same =
          rtol == 0 && atol == 0
              ? (std::isnan(r) ? std::isnan(g) : (r == g && std::signbit(r) == std::signbit(g)))
              : (std::isnan(r) && std::isnan(g)) || std::fabs(r - g) <= atol + rtol * std::fabs(r);
      if (!same) {
        ++bad;
        ADD_FAILURE() << c.kernel << " tensor " << t << " element " << i << ": chip " << g
                      << " interpreter " << r;
      }
    }
  }
  return got;
}

const char *kSoftmaxSig =
    "output_ptr=*fp32,input_ptr=*fp32,input_row_stride=i32,output_row_stride=i32,n_rows=i32,n_"
    "cols=i32";

PCase softmax(int64_t rows, int64_t cols, int64_t block, uint32_t programs, uint32_t seed) {
  PCase c;
  c.file = "fused_softmax.py";
  c.kernel = "softmax_kernel";
  c.signature = kSoftmaxSig;
  c.constexprs = {"BLOCK_SIZE=" + std::to_string(block)};
  c.tensors = {HostTensor(DType::Float32, {rows, cols}),
               random_tensor(DType::Float32, {rows, cols}, seed)};
  c.args = {ptr(0), ptr(1), integer(cols), integer(cols), integer(rows), integer(cols)};
  c.programs = programs;
  return c;
}

PCase argmax_rows(int64_t rows, int64_t cols, int64_t block, uint32_t programs, uint32_t seed) {
  PCase c;
  c.file = "argmax.py";
  c.kernel = "argmax_rows_kernel";
  c.signature = "x_ptr=*fp32,out_ptr=*i64,n_rows=i32,n_cols=i32,row_stride=i32";
  c.constexprs = {"BLOCK_SIZE=" + std::to_string(block)};
  HostTensor x = random_tensor(DType::Float32, {rows, cols}, seed);
  for (int64_t r = 0; r < rows && cols > 3; ++r) {  // ties: the first index wins
    x.set_double(r * cols + 2, 9.0);
    x.set_double(r * cols + cols - 1, 9.0);
  }
  c.tensors = {x, HostTensor(DType::Int64, {rows})};
  c.args = {ptr(0), ptr(1), integer(rows), integer(cols), integer(cols)};
  c.programs = programs;
  return c;
}

PCase layer_norm_rows(int64_t rows, int64_t n, int64_t block, uint32_t programs, uint32_t seed) {
  PCase c;
  c.file = "layer_norm.py";
  c.kernel = "_layer_norm_fwd_rows";
  c.signature =
      "X=*fp32,Y=*fp32,W=*fp32,B=*fp32,Mean=*fp32,Rstd=*fp32,stride=i32,M=i32,N=i32,eps=fp32";
  c.constexprs = {"BLOCK_SIZE=" + std::to_string(block)};
  c.tensors = {random_tensor(DType::Float32, {rows, n}, seed),
               HostTensor(DType::Float32, {rows, n}),
               random_tensor(DType::Float32, {n}, seed + 1),
               random_tensor(DType::Float32, {n}, seed + 2),
               HostTensor(DType::Float32, {rows}),
               HostTensor(DType::Float32, {rows})};
  c.args = {ptr(0), ptr(1),     ptr(2),        ptr(3),     ptr(4),
            ptr(5), integer(n), integer(rows), integer(n), floating(1e-5)};
  c.programs = programs;
  return c;
}

TEST(ChipPrefetch, SoftmaxPartialLastIterationAndMaskedColumnsMatch) {
  // 7 rows over 3 programs: programs run 3, 2 and 2 rows, the last prefetch
  // is skipped; 100 of 128 columns take the masked copy, 128 the DMA.
  auto r = expect_match(device(), softmax(7, 100, 128, 3, 31), 1e-5, 1e-7);
  EXPECT_NE(r.llir.find("urem i64"), std::string::npos) << "the row loop cycles a prefetch ring";
  expect_match(device(), softmax(9, 128, 128, 4, 32), 1e-5, 1e-7);
}

TEST(ChipPrefetch, StoresOverTheNextRowAreNotOvertakenByThePrefetch) {
  // One program; output row r is input row r + 1, so iteration r + 1 reads
  // what iteration r stored. Prefetching row r + 1 before that store would
  // read stale data: the run-time overlap check must skip it.
  const int64_t rows = 5, cols = 64;
  PCase c;
  c.file = "fused_softmax.py";
  c.kernel = "softmax_kernel";
  c.signature = kSoftmaxSig;
  c.constexprs = {"BLOCK_SIZE=64"};
  c.tensors = {random_tensor(DType::Float32, {rows + 1, cols}, 33)};
  c.args = {ptr(0, cols), ptr(0), integer(cols), integer(cols), integer(rows), integer(cols)};
  c.programs = 1;
  expect_match(device(), c, 1e-5, 1e-7);
}

TEST(ChipPrefetch, PersistentArgmaxIsExact) {
  auto r = expect_match(device(), argmax_rows(11, 77, 128, 4, 34), 0, 0);
  EXPECT_GT(counter_sum(r.launch, "dma.bytes_read"), 0u);
  expect_match(device(), argmax_rows(6, 256, 256, 4, 35), 0, 0);
}

TEST(ChipPrefetch, PersistentLayerNormIsExact) {
  // Tree-order sums on RVV levels: bit-identical means, rstds and outputs.
  expect_match(device(), layer_norm_rows(5, 100, 128, 2, 36), 0, 0);
  expect_match(device(), layer_norm_rows(6, 256, 256, 4, 37), 0, 0);
}

TEST(ChipPrefetch, Mtia2iPersistentKernelsMatch) {
  // The one Device of a process has one preset: ctest runs each case alone.
  model::Device &dev = device("mtia-2i");
  if (dev.params().grid.rows * dev.params().grid.cols != 64)
    GTEST_SKIP() << "this process's device is not mtia-2i (run this case alone)";
  expect_match(dev, argmax_rows(70, 1000, 1024, 64, 38), 0, 0);
  expect_match(dev, layer_norm_rows(67, 1024, 1024, 64, 39), 0, 0);
  expect_match(dev, softmax(130, 1024, 1024, 64, 40), 1e-5, 1e-7);
}

}  // namespace
}  // namespace opforge::compiler::testing
