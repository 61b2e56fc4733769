//===- inductor_helpers_test.cpp - the rest of opforge's triton_helpers ---===//
//
// Kernels in TorchInductor's form calling the triton_helpers that
// torch.compile graphs of tests/python/test_compile.py do not reach on this
// device: pow_integer (Inductor's integer pow with a tensor exponent),
// if_mask (a load's other=), fmax2 and max/min_with_first_index (NaN and ties), and the online
// softmax helpers (online_softmax_combine's one-value form, online_softmax_reduce,
// online_softmax_reduce_scalar_combine), which Inductor emits for CUDA
// modules; randint64 (torch.randint). Each runs on the IR interpreter for every candidate config
// and is checked against values the test computes.
//
//===----------------------------------------------------------------------===//
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <map>
#include <memory>
#include <random>
#include <vector>

#include "inductor_run_configs.h"
#include "opforge/compiler/inductor_heuristics.h"
#include "opforge/compiler/interp_executor.h"
#include "opforge/compiler/lint.h"
#include "opforge/compiler/parser.h"

using namespace opforge;
using namespace opforge::compiler;
using namespace opforge::compiler::test;

namespace {

// clang-format off
const char *kPowInteger = R"PY(import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.pointwise(
    size_hints={'x': 256}, 
    filename=__file__,
    triton_meta={'signature': {'in_ptr0': '*i64', 'in_ptr1': '*i32', 'out_ptr0': '*i64', 'out_ptr1': '*i32', 'xnumel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='opforge', index=0, multi_processor_count=64, cc='mtia-2i', major=None, regs_per_multiprocessor=None, max_threads_per_multi_processor=None, max_threads_per_block=1024, warp_size=16), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]], (4,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'kernel_name': 'triton_poi_fused_pow_0', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'autotune_hints': (), 'backend_hash': 'B7BBB866D4DDDDFF78D07266742D3CAC2721DD7D2EDAF5A799814337966BA6E5', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False},
    min_elem_per_thread=0
)
@triton.jit
def triton_poi_fused_pow_0(in_ptr0, in_ptr1, out_ptr0, out_ptr1, xnumel, XBLOCK : tl.constexpr):
    xnumel = 256
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = xindex < xnumel
    x0 = xindex
    tmp0 = tl.load(in_ptr0 + (x0), xmask)
    tmp1 = tl.full([1], 19, tl.int64)
    tmp2 = triton_helpers.pow_integer(tmp0, tmp1)
    tmp3 = tl.load(in_ptr1 + (x0), xmask, other=triton_helpers.if_mask(xmask, 0))
    tmp4 = tmp0.to(tl.int32)
    tmp5 = triton_helpers.pow_integer(tmp4, tmp3)
    tl.store(out_ptr0 + (x0), tmp2, xmask)
    tl.store(out_ptr1 + (x0), tmp5, xmask)
)PY";

const char *kArgWithFirstIndexAndFmax = R"PY(import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.persistent_reduction(
    size_hints={'x': 32, 'r0_': 16},
    reduction_hint=ReductionHint.INNER,
    filename=__file__,
    triton_meta={'signature': {'in_ptr0': '*fp32', 'out_ptr0': '*fp32', 'out_ptr1': '*i64', 'out_ptr2': '*i64', 'xnumel': 'i32', 'r0_numel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='opforge', index=0, multi_processor_count=64, cc='mtia-2i', major=None, regs_per_multiprocessor=None, max_threads_per_multi_processor=None, max_threads_per_block=1024, warp_size=16), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]], (4,): [['tt.divisibility', 16]], (5,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'kernel_name': 'triton_per_fused_argmax_argmin_fmax_0', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'autotune_hints': (), 'backend_hash': 'B7BBB866D4DDDDFF78D07266742D3CAC2721DD7D2EDAF5A799814337966BA6E5', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False}
)
@triton.jit
def triton_per_fused_argmax_argmin_fmax_0(in_ptr0, out_ptr0, out_ptr1, out_ptr2, xnumel, r0_numel, XBLOCK : tl.constexpr):
    xnumel = 32
    r0_numel = 16
    R0_BLOCK: tl.constexpr = 16
    rnumel = r0_numel
    RBLOCK: tl.constexpr = R0_BLOCK
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = xindex < xnumel
    r0_index = tl.arange(0, R0_BLOCK)[None, :]
    r0_offset = 0
    r0_mask = tl.full([R0_BLOCK], True, tl.int1)[None, :]
    roffset = r0_offset
    rindex = r0_index
    r0_1 = r0_index
    x0 = xindex
    tmp0 = tl.load(in_ptr0 + (r0_1 + 16*x0), xmask, other=0.0)
    tmp1 = tl.broadcast_to(tmp0, [XBLOCK, R0_BLOCK])
    tmp3 = tl.where(xmask, tmp1, float("-inf"))
    tmp4 = triton_helpers.fmax2(tmp3, 1)[:, None].to(tl.float32)
    tmp5 = tl.broadcast_to(rindex, tmp3.shape)
    tmp6_val, tmp6_idx = triton_helpers.max_with_first_index(tmp3, tmp5, 1)
    tmp6 = tmp6_idx[:, None]
    tmp7 = tl.where(xmask, tmp1, float("inf"))
    tmp8_val, tmp8_idx = triton_helpers.min_with_first_index(tmp7, tmp5, 1)
    tmp8 = tmp8_idx[:, None]
    tl.store(out_ptr0 + (x0), tmp4, xmask)
    tl.store(out_ptr1 + (x0), tmp6, xmask)
    tl.store(out_ptr2 + (x0), tmp8, xmask)
)PY";

const char *kRandint64 = R"PY(
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.pointwise(
    size_hints={'x': 512}, 
    filename=__file__,
    triton_meta={'signature': {'in_ptr0': '*i64', 'out_ptr0': '*i64', 'load_seed_offset': 'i32', 'xnumel': 'i32', 'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='opforge', index=0, multi_processor_count=64, cc='mtia-2i', major=None, regs_per_multiprocessor=None, max_threads_per_multi_processor=None, max_threads_per_block=1024, warp_size=16), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'kernel_name': 'triton_poi_fused_randint_2', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'num_load': 0, 'num_store': 1, 'num_reduction': 0, 'autotune_hints': (), 'tiling_scores': {'x': 8192}, 'backend_hash': 'B7BBB866D4DDDDFF78D07266742D3CAC2721DD7D2EDAF5A799814337966BA6E5', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'incremental_autotune': False, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False, 'batch_invariant': False, 'force_filter_reduction_configs': False, 'mix_order_reduction_allow_multi_stages': True, 'dynamic_disable_pipelining': True, 'are_deterministic_algorithms_enabled': False},
    min_elem_per_thread=0
)
@triton.jit
def triton_poi_fused_randint_2(in_ptr0, out_ptr0, load_seed_offset, xnumel, XBLOCK : tl.constexpr):
    xnumel = 512
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = xindex < xnumel
    x0 = xindex
    tmp0 = tl.load(in_ptr0 + load_seed_offset)
    tmp1 = tl.full([1], 3, tl.int64)
    tmp2 = tl.full([1], 10, tl.int64)
    tmp3 = (x0).to(tl.int32)
    tmp4 = triton_helpers.randint64(tmp0, (tmp3).to(tl.uint32), tmp1, tmp2)
    tl.store(out_ptr0 + (x0), tmp4, xmask)
)PY";

const char *kOnlineSoftmax = R"PY(import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()

@triton_heuristics.reduction(
    size_hints={'x': 8, 'r0_': 512},
    reduction_hint=ReductionHint.INNER,
    filename=__file__,
    triton_meta={'signature': {'in_ptr0': '*fp32', 'out_ptr0': '*fp32', 'out_ptr1': '*fp32', 'out_ptr2': '*fp32', 'out_ptr3': '*fp32', 'xnumel': 'i32', 'r0_numel': 'i32', 'XBLOCK': 'constexpr', 'R0_BLOCK': 'constexpr'}, 'device': DeviceProperties(type='opforge', index=0, multi_processor_count=64, cc='mtia-2i', major=None, regs_per_multiprocessor=None, max_threads_per_multi_processor=None, max_threads_per_block=1024, warp_size=16), 'constants': {}, 'native_matmul': False, 'enable_fp_fusion': True, 'launch_pdl': False, 'disable_ftz': False, 'configs': [{(0,): [['tt.divisibility', 16]], (1,): [['tt.divisibility', 16]], (2,): [['tt.divisibility', 16]], (3,): [['tt.divisibility', 16]], (4,): [['tt.divisibility', 16]], (5,): [['tt.divisibility', 16]]}]},
    inductor_meta={'grid_type': 'Grid1D', 'kernel_name': 'triton_red_fused__softmax_0', 'mutated_arg_names': [], 'optimize_mem': True, 'no_x_dim': False, 'atomic_add_found': False, 'autotune_hints': (), 'backend_hash': 'B7BBB866D4DDDDFF78D07266742D3CAC2721DD7D2EDAF5A799814337966BA6E5', 'assert_indirect_indexing': True, 'autotune_local_cache': True, 'autotune_pointwise': True, 'autotune_remote_cache': None, 'force_disable_caches': False, 'dynamic_scale_rblock': True, 'max_autotune': False, 'max_autotune_pointwise': False, 'min_split_scan_rblock': 256, 'spill_threshold': 16, 'store_cubin': False, 'deterministic': False}
)
@triton.jit
def triton_red_fused__softmax_0(in_ptr0, out_ptr0, out_ptr1, out_ptr2, out_ptr3, xnumel, r0_numel, XBLOCK : tl.constexpr, R0_BLOCK : tl.constexpr):
    xnumel = 8
    r0_numel = 300
    rnumel = r0_numel
    RBLOCK: tl.constexpr = R0_BLOCK
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = xindex < xnumel
    r0_base = tl.arange(0, R0_BLOCK)[None, :]
    rbase = r0_base
    x0 = xindex
    _tmp2_max = tl.full([XBLOCK, R0_BLOCK], float('-inf'), tl.float32)
    _tmp2_sum = tl.zeros([XBLOCK, R0_BLOCK], tl.float32)
    _tmp3_max = tl.full([XBLOCK], float('-inf'), tl.float32)
    _tmp3_sum = tl.full([XBLOCK], 0.0, tl.float32)
    for r0_offset in range(0, r0_numel, R0_BLOCK):
        r0_index = r0_offset + r0_base
        r0_mask = r0_index < r0_numel
        roffset = r0_offset
        rindex = r0_index
        r0_1 = r0_index
        tmp0 = tl.load(in_ptr0 + (r0_1 + 300*x0), r0_mask & xmask, eviction_policy='evict_first', other=0.0)
        tmp1 = tl.broadcast_to(tmp0, [XBLOCK, R0_BLOCK])

        _tmp2_max_next, _tmp2_sum_next = triton_helpers.online_softmax_combine(
            _tmp2_max, _tmp2_sum, tmp1, False, False
        )

        _tmp2_max = tl.where(r0_mask & xmask, _tmp2_max_next, _tmp2_max)
        _tmp2_sum = tl.where(r0_mask & xmask, _tmp2_sum_next, _tmp2_sum)

        _tmp3_max, _tmp3_sum = triton_helpers.online_softmax_reduce_scalar_combine(
            _tmp3_max, _tmp3_sum, tmp1, r0_mask & xmask, 1,
            False, False
        )
    tmp2, tmp4 = triton_helpers.online_softmax_reduce(
        _tmp2_max, _tmp2_sum, 1, False, False)
    tmp2 = tmp2[:, None]
    tmp4 = tmp4[:, None]
    tmp3 = _tmp3_max[:, None]
    tmp5 = _tmp3_sum[:, None]
    tl.store(out_ptr0 + (x0), tmp2, xmask)
    tl.store(out_ptr1 + (x0), tmp4, xmask)
    tl.store(out_ptr2 + (x0), tmp3, xmask)
    tl.store(out_ptr3 + (x0), tmp5, xmask)
)PY";
// clang-format on

TEST(InductorHelpers, LintClean) {
  for (const char *text : {kPowInteger, kArgWithFirstIndexAndFmax, kRandint64, kOnlineSoftmax})
    for (auto &f : lint_source("kernel.py", text)) ADD_FAILURE() << format_finding(f);
}

TEST(InductorHelpers, PowIntegerWithConstantAndTensorExponentsAndIfMask) {
  HostTensor base(DType::Int64, {256}), exponent(DType::Int32, {256});
  HostTensor out64(DType::Int64, {256}), out32(DType::Int32, {256});
  for (int64_t i = 0; i < 256; ++i) {
    base.set_double(i, static_cast<double>(i % 11 - 5));
    exponent.set_double(i, static_cast<double>((i / 11) % 13));
  }
  for (auto &[config, out] : run_configs(
           kPowInteger,
           {{"in_ptr0", base}, {"in_ptr1", exponent}, {"out_ptr0", out64}, {"out_ptr1", out32}},
           {{"xnumel", 256}}))
    for (int64_t i = 0; i < 256; ++i) {
      int64_t b = i % 11 - 5, e = (i / 11) % 13, p19 = 1, pe = 1;
      for (int k = 0; k < 19; ++k) p19 *= b;
      for (int k = 0; k < e; ++k) pe *= b;
      ASSERT_EQ(out["out_ptr0"].get_double(i), static_cast<double>(p19)) << i;
      ASSERT_EQ(out["out_ptr1"].get_double(i), static_cast<double>(pe)) << i;
    }
}

TEST(InductorHelpers, FmaxAndArgReductionsWithFirstIndex) {
  // Row 0: ties (first index wins); row 1: a NaN (argmax/argmin pick it, fmax skips it);
  // row 2: all NaN; other rows random.
  const double nan = std::numeric_limits<double>::quiet_NaN();
  HostTensor in(DType::Float32, {32 * 16});
  std::mt19937 rng(3);
  std::normal_distribution<double> dist;
  for (int64_t i = 0; i < 32 * 16; ++i) in.set_double(i, dist(rng));
  for (int64_t r = 0; r < 16; ++r) in.set_double(r, r % 4 == 1 ? 5.0 : (r % 4 == 2 ? -5.0 : 0.0));
  in.set_double(16 + 9, nan);
  for (int64_t r = 0; r < 16; ++r) in.set_double(32 + r, nan);
  HostTensor fmax(DType::Float32, {32}), amax(DType::Int64, {32}), amin(DType::Int64, {32});
  for (auto &[config, out] :
       run_configs(kArgWithFirstIndexAndFmax,
                   {{"in_ptr0", in}, {"out_ptr0", fmax}, {"out_ptr1", amax}, {"out_ptr2", amin}},
                   {{"xnumel", 32}, {"r0_numel", 16}}))
    for (int64_t x = 0; x < 32; ++x) {
      double top = nan;
      int64_t hi = -1, lo = -1;
      for (int64_t r = 0; r < 16; ++r) {
        double v = in.get_double(r + 16 * x);
        if (!std::isnan(v) && (std::isnan(top) || v > top)) top = v;
        auto wins = [&](int64_t best, bool greater) {
          if (best < 0) return true;
          double b = in.get_double(best + 16 * x);
          if (std::isnan(b)) return false;
          return std::isnan(v) || (greater ? v > b : v < b);
        };
        if (wins(hi, true)) hi = r;
        if (wins(lo, false)) lo = r;
      }
      double got = out["out_ptr0"].get_double(x);
      if (std::isnan(top))
        ASSERT_TRUE(std::isnan(got)) << x;
      else
        ASSERT_EQ(got, top) << x;
      ASSERT_EQ(out["out_ptr1"].get_double(x), hi) << x;
      ASSERT_EQ(out["out_ptr2"].get_double(x), lo) << x;
    }
}

TEST(InductorHelpers, Randint64InRangeAndSpread) {
  // torch.randint(3, 10, (8, 64)) as Inductor writes it: every value in [3, 10), each of the
  // seven about equally often, the same stream for every config.
  HostTensor seed(DType::Int64, {1}), out(DType::Int64, {512});
  seed.set_double(0, 1234.0);
  std::vector<double> first;
  for (auto &[config, run] : run_configs(kRandint64, {{"in_ptr0", seed}, {"out_ptr0", out}},
                                         {{"xnumel", 512}, {"load_seed_offset", 0}})) {
    std::map<int64_t, int> count;
    std::vector<double> values;
    for (int64_t i = 0; i < 512; ++i) {
      values.push_back(run["out_ptr0"].get_double(i));
      count[static_cast<int64_t>(values.back())]++;
    }
    ASSERT_EQ(count.size(), 7u);
    EXPECT_EQ(count.begin()->first, 3);
    EXPECT_EQ(count.rbegin()->first, 9);
    for (auto &[v, n] : count) EXPECT_GT(n, 40) << v;
    if (first.empty()) first = values;
    EXPECT_EQ(values, first);
  }
}

TEST(InductorHelpers, OnlineSoftmaxCombineAndScalarCombine) {
  // Rows of 300 over a looped reduction: the running (max, sum of exp(v - max)) kept per
  // lane with online_softmax_combine and per row with online_softmax_reduce_scalar_combine.
  HostTensor in(DType::Float32, {8 * 300});
  std::mt19937 rng(4);
  std::normal_distribution<double> dist(0.0, 4.0);
  for (int64_t i = 0; i < 8 * 300; ++i) in.set_double(i, dist(rng));
  in.set_double(5 * 300 + 299, 40.0);  // the last element, past any whole block
  HostTensor m0(DType::Float32, {8}), s0(DType::Float32, {8}), m1(DType::Float32, {8}),
      s1(DType::Float32, {8});
  for (auto &[config, out] : run_configs(kOnlineSoftmax,
                                         {{"in_ptr0", in},
                                          {"out_ptr0", m0},
                                          {"out_ptr1", s0},
                                          {"out_ptr2", m1},
                                          {"out_ptr3", s1}},
                                         {{"xnumel", 8}, {"r0_numel", 300}}))
    for (int64_t x = 0; x < 8; ++x) {
      double top = -INFINITY, sum = 0;
      for (int64_t r = 0; r < 300; ++r) top = std::max(top, in.get_double(r + 300 * x));
      for (int64_t r = 0; r < 300; ++r) sum += std::exp(in.get_double(r + 300 * x) - top);
      for (const char *m : {"out_ptr0", "out_ptr2"}) ASSERT_EQ(out[m].get_double(x), top) << x;
      for (const char *s : {"out_ptr1", "out_ptr3"})
        ASSERT_NEAR(out[s].get_double(x), sum, sum * 1e-5) << s << " " << x;
    }
}

}  // namespace
