//===- bench_mtia_async.cpp - tl.extra.mtia.async_copy double buffering vs tl.load ===//
//
// bench/kernels/mtia_async.py: row_sumsq_async (the next tile's async_copy
// is in flight while the current tile is computed) and its plain-load twin
// row_sumsq_plain, on the same rows: one launch each on the preset (default
// mtia-2i), the simulated cycles of both and plain / async. The outputs must
// be bit-identical (the same arithmetic in the same order); a difference or
// a trap is an error (exit 1). One program per row: with every PE of the
// grid streaming at once (64 rows on mtia-2i) DRAM bandwidth bounds both
// kernels and overlap gains nothing; the default 32 rows leave it headroom.
// BENCH_COUNTERS=1 also prints PE (0, 0)'s non-zero counters of each launch.
// Usage: bench_mtia_async [PRESET] [ROWS=32] [COLS=16384] [BLOCK=512]
//
//===----------------------------------------------------------------------===//
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "opforge/compiler/codegen.h"
#include "opforge/model/device.h"
#include "opforge/model/params.h"

using namespace opforge;
using namespace opforge::compiler;

namespace {

struct Run {
  uint64_t cycles = 0, dma_wait = 0, instructions = 0;
  std::vector<float> out;
};

// Sum over the PEs of the counters pe[r][c].<name>.
uint64_t pe_sum(const model::LaunchResult &r, const std::string &name) {
  uint64_t s = 0;
  for (const auto &[n, v] : r.counter_deltas)
    if (n.size() > name.size() && n.compare(n.size() - name.size(), name.size(), name) == 0 &&
        n[n.size() - name.size() - 1] == '.')
      s += v;
  return s;
}

Run run(model::Device &dev, const std::string &kernel, const std::vector<float> &x, int64_t rows,
        int64_t cols, int64_t block) {
  CompileOptions o;
  o.kernel = kernel;
  o.knobs = Knobs::from_env();
  o.target.dpe_tile_m = dev.params().dpe.tile_max_m;
  o.target.dpe_tile_n = dev.params().dpe.tile_max_n;
  o.target.dpe_tile_k = dev.params().dpe.tile_max_k;
  add_signature(o.spec, "x_ptr=*fp32,out_ptr=*fp32,n_cols=i32");
  add_constexpr(o.spec, "BLOCK=" + std::to_string(block));
  register_codegen_stages();
  CompileState s =
      compile_file(std::string(OPFORGE_SOURCE_DIR) + "/bench/kernels/mtia_async.py", o, "bin");
  const auto &bin = *std::any_cast<std::shared_ptr<KernelBinary>>(s.extra.at("bin"));
  uint64_t xa = dev.alloc(x.size() * 4), oa = dev.alloc(rows * 4);
  dev.copy_in(xa, x.data(), x.size() * 4);
  std::vector<ArgValue> values = {{ArgValue::Kind::Address, xa, 0, 0},
                                  {ArgValue::Kind::Address, oa, 0, 0},
                                  {ArgValue::Kind::Int, 0, cols, 0}};
  model::KernelLaunch k;
  k.image = model::read_elf(bin.elf, bin.kernel);
  k.args = bin.pack_args(values);
  k.grid = model::Grid3{static_cast<uint32_t>(rows), 1, 1};
  model::LaunchResult r = dev.launch(k);
  if (!r.ok()) throw std::runtime_error(kernel + ": " + r.traps.front());
  Run out;
  out.cycles = r.cycles;
  out.dma_wait = pe_sum(r, "stall.dma_wait_cycles");
  out.instructions = r.instructions;
  if (std::getenv("BENCH_COUNTERS"))
    for (const auto &[n, v] : r.counter_deltas)
      if (n.rfind("pe[0][0].", 0) == 0 && v)
        std::printf("%s %s %llu\n", kernel.c_str(), n.c_str(), (unsigned long long)v);
  out.out.resize(rows);
  dev.copy_out(oa, out.out.data(), rows * 4);
  dev.free(xa);
  dev.free(oa);
  return out;
}

}  // namespace

int main(int argc, char **argv) {
  const std::string preset = argc > 1 ? argv[1] : "mtia-2i";
  const int64_t rows = argc > 2 ? std::atoll(argv[2]) : 32;
  const int64_t cols = argc > 3 ? std::atoll(argv[3]) : 16384;
  const int64_t block = argc > 4 ? std::atoll(argv[4]) : 512;
  try {
    model::Device dev(model::load_params(preset));
    std::mt19937 rng(1);
    std::normal_distribution<float> dist;
    std::vector<float> x(rows * cols);
    for (auto &v : x) v = dist(rng);
    Run plain = run(dev, "row_sumsq_plain", x, rows, cols, block);
    Run async = run(dev, "row_sumsq_async", x, rows, cols, block);
    if (std::memcmp(plain.out.data(), async.out.data(), rows * 4) != 0) {
      std::fprintf(stderr, "bench_mtia_async: the two kernels' outputs differ\n");
      return 1;
    }
    std::printf(
        "preset %s  %lld rows x %lld cols fp32, BLOCK %lld\n"
        "async_copy double buffering: plain tl.load %llu cycles  async_copy %llu cycles  "
        "plain/async %.2fx\n",
        preset.c_str(), static_cast<long long>(rows), static_cast<long long>(cols),
        static_cast<long long>(block), static_cast<unsigned long long>(plain.cycles),
        static_cast<unsigned long long>(async.cycles),
        static_cast<double>(plain.cycles) / static_cast<double>(async.cycles));
    std::printf(
        "  DMA-wait stall cycles (all PEs): plain %llu  async_copy %llu; instructions: "
        "plain %llu  async_copy %llu\n",
        static_cast<unsigned long long>(plain.dma_wait),
        static_cast<unsigned long long>(async.dma_wait),
        static_cast<unsigned long long>(plain.instructions),
        static_cast<unsigned long long>(async.instructions));
  } catch (const std::exception &e) {
    std::fprintf(stderr, "bench_mtia_async: %s\n", e.what());
    return 1;
  }
  return 0;
}
