//===- inductor_module_texts.h - small TorchInductor output modules for tests ===//
//
// Modules in the exact form TorchInductor writes them (the preamble of imports
// and aliases, kernels defined with async_compile.triton, class Runner with
// call(self, args), get_args, the benchmark tail), made from parts.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <string>

namespace opforge::test::inductor {

inline const char *kPreamble = R"(# AOT ID: ['0_inference']
from ctypes import c_void_p, c_long, c_int
import torch
import math
import random
import os
import tempfile
from math import inf, nan
from cmath import nanj
from torch._inductor.hooks import run_intermediate_hooks
from torch._inductor.utils import maybe_profile
from torch._inductor.codegen.memory_planning import _align as align
from torch import device, empty_strided
from torch._inductor.async_compile import AsyncCompile
from torch._inductor.select_algorithm import extern_kernels
import triton
import triton.language as tl
from torch._inductor.runtime.triton_heuristics import start_graph, end_graph
from opforge.inductor import get_raw_stream as get_raw_stream

aten = torch.ops.aten
inductor_ops = torch.ops.inductor
_quantized = torch.ops._quantized
assert_size_stride = torch._C._dynamo.guards.assert_size_stride
assert_size_stride_grouped = torch._C._dynamo.guards.assert_size_stride_grouped
assert_alignment = torch._C._dynamo.guards.assert_alignment
empty_strided_cpu = torch._C._dynamo.guards._empty_strided_cpu
empty_strided_cpu_pinned = torch._C._dynamo.guards._empty_strided_cpu_pinned
empty_strided_cuda = torch._C._dynamo.guards._empty_strided_cuda
empty_strided_xpu = torch._C._dynamo.guards._empty_strided_xpu
empty_strided_mtia = torch._C._dynamo.guards._empty_strided_mtia
reinterpret_tensor = torch._C._dynamo.guards._reinterpret_tensor
alloc_from_pool = torch.ops.inductor._alloc_from_pool
async_compile = AsyncCompile()
empty_strided_p2p = torch._C._distributed_c10d._SymmetricMemory.empty_strided_p2p

)";

inline const char *kKernelHeader = R"(
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()
)";

inline std::string device_props() {
  return "'device': DeviceProperties(type='opforge', index=0, multi_processor_count=64, "
         "cc='mtia-2i', major=None, regs_per_multiprocessor=None, "
         "max_threads_per_multi_processor=None, max_threads_per_block=1024, warp_size=16), "
         "'constants': {}";
}

// A kernel definition as Inductor writes it: async_compile.triton('name', '''source''').
inline std::string kernel(const std::string &name, const std::string &decorator,
                          const std::string &body) {
  return "# Topologically Sorted Source Nodes: [x], Original ATen: [aten.x]\n" + name +
         " = async_compile.triton('" + name + "', '''" + kKernelHeader + "\n" + decorator +
         "\n@triton.jit\n" + body + "''', device_str='opforge')\n\n\n";
}

// relu(in0 + in1) over 48 elements (Grid1D).
inline std::string add_relu_kernel() {
  return kernel(
      "triton_poi_fused_add_relu_0",
      "@triton_heuristics.pointwise(\n    size_hints={'x': 64}, \n    filename=__file__,\n"
      "    triton_meta={'signature': {'in_ptr0': '*fp32', 'in_ptr1': '*fp32', 'out_ptr0': "
      "'*fp32', 'xnumel': 'i32', 'XBLOCK': 'constexpr'}, " +
          device_props() +
          ", 'configs': [{(0,): [['tt.divisibility', 16]]}]},\n"
          "    inductor_meta={'grid_type': 'Grid1D', 'kernel_name': "
          "'triton_poi_fused_add_relu_0', 'mutated_arg_names': [], 'optimize_mem': True},\n"
          "    min_elem_per_thread=0\n)",
      R"(def triton_poi_fused_add_relu_0(in_ptr0, in_ptr1, out_ptr0, xnumel, XBLOCK : tl.constexpr):
    xnumel = 48
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = xindex < xnumel
    x0 = xindex
    tmp0 = tl.load(in_ptr0 + (x0), xmask)
    tmp1 = tl.load(in_ptr1 + (x0), xmask)
    tmp2 = tmp0 + tmp1
    tmp3 = tl.full([1], 0, tl.int32)
    tmp4 = tl.maximum(tmp3, tmp2)
    tl.store(out_ptr0 + (x0), tmp4, xmask)
)");
}

// Row sums of an [8, 6] buffer in place: in_out_ptr0[x, 0] = sum_r in_out_ptr0[x, r]
// (persistent reduction, mutated argument).
inline std::string row_sum_kernel() {
  return kernel(
      "triton_per_fused_sum_1",
      "@triton_heuristics.persistent_reduction(\n    size_hints={'x': 8, 'r0_': 8},\n"
      "    reduction_hint=ReductionHint.INNER,\n    filename=__file__,\n"
      "    triton_meta={'signature': {'in_out_ptr0': '*fp32', 'xnumel': 'i32', 'r0_numel': "
      "'i32', 'XBLOCK': 'constexpr'}, " +
          device_props() +
          "},\n    inductor_meta={'grid_type': 'Grid1D', 'kernel_name': "
          "'triton_per_fused_sum_1', 'mutated_arg_names': ['in_out_ptr0']}\n)",
      R"(def triton_per_fused_sum_1(in_out_ptr0, xnumel, r0_numel, XBLOCK : tl.constexpr):
    xnumel = 8
    r0_numel = 6
    R0_BLOCK: tl.constexpr = 8
    rnumel = r0_numel
    RBLOCK: tl.constexpr = R0_BLOCK
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = xindex < xnumel
    r0_index = tl.arange(0, R0_BLOCK)[None, :]
    r0_offset = 0
    r0_mask = r0_index < r0_numel
    r0_1 = r0_index
    x0 = xindex
    tmp0 = tl.load(in_out_ptr0 + (r0_1 + 6*x0), r0_mask & xmask, other=0.0)
    tmp1 = tl.broadcast_to(tmp0, [XBLOCK, R0_BLOCK])
    tmp3 = tl.where(r0_mask & xmask, tmp1, 0)
    tmp4 = tl.sum(tmp3, 1)[:, None].to(tl.float32)
    tl.debug_barrier()
    tl.store(in_out_ptr0 + (6*x0), tmp4, xmask)
)");
}

// out[x, y] = in[y, x] for in [3, 5] (Grid2D).
inline std::string transpose_kernel() {
  return kernel(
      "triton_poi_fused_clone_2",
      "@triton_heuristics.pointwise(\n    size_hints={'y': 4, 'x': 8}, tile_hint=TileHint.SQUARE,\n"
      "    filename=__file__,\n    triton_meta={'signature': {'in_ptr0': '*fp32', 'out_ptr0': "
      "'*fp32', 'ynumel': 'i32', 'xnumel': 'i32', 'YBLOCK': 'constexpr', 'XBLOCK': "
      "'constexpr'}, " +
          device_props() +
          "},\n    inductor_meta={'grid_type': 'Grid2D', 'kernel_name': "
          "'triton_poi_fused_clone_2', 'mutated_arg_names': []},\n    min_elem_per_thread=0\n)",
      R"(def triton_poi_fused_clone_2(in_ptr0, out_ptr0, ynumel, xnumel, YBLOCK : tl.constexpr, XBLOCK : tl.constexpr):
    ynumel = 3
    xnumel = 5
    yoffset = tl.program_id(1) * YBLOCK
    yindex = yoffset + tl.arange(0, YBLOCK)[:, None]
    ymask = yindex < ynumel
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[None, :]
    xmask = xindex < xnumel
    x1 = xindex
    y0 = yindex
    tmp0 = tl.load(in_ptr0 + (x1 + 5*y0), xmask & ymask)
    tl.store(out_ptr0 + (y0 + 3*x1), tmp0, xmask & ymask)
)");
}

inline std::string runner(const std::string &call_body) {
  return "async_compile.wait(globals())\ndel async_compile\n\nclass Runner:\n"
         "    def __init__(self, partitions):\n        self.partitions = partitions\n\n"
         "    def recursively_apply_fns(self, fns):\n        new_callables = []\n"
         "        for fn, c in zip(fns, self.partitions):\n"
         "            new_callables.append(fn(c))\n        self.partitions = new_callables\n\n"
         "    def call(self, args):\n" +
         call_body +
         "\nrunner = Runner(partitions=[])\ncall = runner.call\n"
         "recursively_apply_fns = runner.recursively_apply_fns\n\n\n";
}

inline const char *kTail = R"(

def benchmark_compiled_module(args, times=10, repeat=10):
    from torch._inductor.utils import print_performance
    fn = lambda: call(list(args))
    return print_performance(fn, times=times, repeat=repeat, device='opforge')


if __name__ == "__main__":
    from torch._inductor.wrapper_benchmark import compiled_module_main
    args = get_args()
    compiled_module_main('None', lambda times, repeat: benchmark_compiled_module(args, times=times, repeat=repeat))
)";

// The pointwise module: buf0 = relu(arg0_1 + arg1_1), returned.
inline std::string pointwise_module() {
  return std::string(kPreamble) + "\n" + add_relu_kernel() + runner(R"(        arg0_1, arg1_1 = args
        args.clear()
        assert_size_stride(arg0_1, (48, ), (1, ), 'input')
        assert_size_stride(arg1_1, (48, ), (1, ), 'input')
        with torch.opforge._DeviceGuard(0):
            buf0 = empty_strided((48, ), (1, ), device='opforge', dtype=torch.float32)
            # Topologically Sorted Source Nodes: [add, relu], Original ATen: [aten.add, aten.relu]
            raw_stream0 = get_raw_stream(0)
            triton_poi_fused_add_relu_0.run(arg0_1, arg1_1, buf0, 48, stream=raw_stream0)
            del arg0_1
            del arg1_1
        return (buf0, )
)") + R"(
def get_args():
    from torch._dynamo.testing import rand_strided
    arg0_1 = rand_strided((48, ), (1, ), device='opforge:0', dtype=torch.float32)
    arg1_1 = rand_strided((48, ), (1, ), device='opforge:0', dtype=torch.float32)
    return [arg0_1, arg1_1]
)" + kTail;
}

}  // namespace opforge::test::inductor
