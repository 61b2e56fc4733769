//===- inductor_module_test.cpp - TorchInductor output modules: call() and get_args() ===//
//
// Small modules in the exact form TorchInductor writes them (preamble, kernels
// defined with async_compile.triton, class Runner, get_args) run on the IR
// interpreter; extern kernels go to a host hook.
//
//===----------------------------------------------------------------------===//
#include <gtest/gtest.h>

#include <cmath>

#include "opforge/compiler/inductor_module.h"
#include "opforge/compiler/interp_executor.h"

using namespace opforge;
using namespace opforge::compiler;

namespace {

const char *kPreamble = R"(# AOT ID: ['0_inference']
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

const char *kKernelHeader = R"(
import triton
import triton.language as tl

from torch._inductor.runtime import triton_helpers, triton_heuristics
from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math
from torch._inductor.runtime.hints import AutotuneHint, ReductionHint, TileHint, DeviceProperties
triton_helpers.set_driver_to_gpu()
)";

std::string device_props() {
  return "'device': DeviceProperties(type='opforge', index=0, multi_processor_count=64, "
         "cc='mtia-2i', major=None, regs_per_multiprocessor=None, "
         "max_threads_per_multi_processor=None, max_threads_per_block=1024, warp_size=16), "
         "'constants': {}";
}

// A kernel definition as Inductor writes it: async_compile.triton('name', '''source''').
std::string kernel(const std::string &name, const std::string &decorator, const std::string &body) {
  return "# Topologically Sorted Source Nodes: [x], Original ATen: [aten.x]\n" + name +
         " = async_compile.triton('" + name + "', '''" + kKernelHeader + "\n" + decorator +
         "\n@triton.jit\n" + body + "''', device_str='opforge')\n\n\n";
}

// relu(in0 + in1) over 48 elements (Grid1D).
std::string add_relu_kernel() {
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
std::string row_sum_kernel() {
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
std::string transpose_kernel() {
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

std::string runner(const std::string &call_body) {
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

const char *kTail = R"(

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
std::string pointwise_module() {
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

TensorHandle input(InterpExecutor &ex, std::vector<int64_t> sizes, double scale, double shift) {
  TensorHandle t;
  t.dtype = DType::Float32;
  t.sizes = sizes;
  t.strides = HostTensor::contiguous_strides(sizes);
  t.buffer = ex.allocate(t.numel() * 4);
  HostTensor v = ex.view(t);
  for (int64_t i = 0; i < v.numel(); ++i) v.set_double(i, scale * static_cast<double>(i) + shift);
  return t;
}

int line_of(const std::string &text, const std::string &needle) {
  size_t p = text.find(needle);
  if (p == std::string::npos) return -1;
  return 1 + static_cast<int>(std::count(text.begin(), text.begin() + static_cast<long>(p), '\n'));
}

std::string error_of(const std::string &text, bool run = true) {
  try {
    InductorModule m(text, "m.py");
    if (run) {
      InterpExecutor ex(Knobs{});
      m.call(ex, m.example_args(ex), {});
    }
  } catch (const CompileError &e) {
    return e.rendered();
  } catch (const std::exception &e) {
    return std::string("not a CompileError: ") + e.what();
  }
  return "no error";
}

}  // namespace

TEST(InductorModule, PointwiseModuleRunsOnTheInterpreter) {
  const std::string text = pointwise_module();
  InductorModule m(text, "m.py");
  EXPECT_EQ(m.kernel_names(), (std::vector<std::string>{"triton_poi_fused_add_relu_0"}));
  InterpExecutor ex(Knobs{});
  TensorHandle a = input(ex, {48}, 1.0, -20.0), b = input(ex, {48}, 0.5, -3.0);
  InductorRunResult r = m.call(ex, {WrapperValue::of(a), WrapperValue::of(b)}, {});
  ASSERT_EQ(r.value.kind, WrapperValue::Kind::Tuple);
  ASSERT_EQ(r.value.items.size(), 1u);
  HostTensor out = ex.view(r.value.items[0].tensor);
  ASSERT_EQ(out.numel(), 48);
  for (int64_t i = 0; i < 48; ++i) {
    double want = std::max(0.0, (i - 20.0) + (0.5 * i - 3.0));
    EXPECT_DOUBLE_EQ(out.get_double(i), want) << i;
  }
  ASSERT_EQ(r.steps.size(), 1u);
  EXPECT_EQ(r.steps[0].kind, InductorStep::Kind::TritonKernel);
  EXPECT_EQ(r.steps[0].name, "triton_poi_fused_add_relu_0");
  EXPECT_EQ(r.steps[0].site,
            "m.py:" + std::to_string(line_of(text, "triton_poi_fused_add_relu_0.run(")));
  EXPECT_EQ(r.steps[0].aten_nodes, (std::vector<std::string>{"aten.add", "aten.relu"}));
  ASSERT_EQ(r.launches.size(), 1u);
  EXPECT_EQ(r.launches[0].grid.x, 1);  // XBLOCK 64 (the size hint) covers 48
  // Tuned once per key: the interpreter has no cycles, the first config that runs is kept.
  ASSERT_EQ(r.autotune.size(), 1u);
  EXPECT_EQ(r.autotune[0].kernel, "triton_poi_fused_add_relu_0");
  EXPECT_EQ(r.autotune[0].winner_config, r.steps[0].config);
  InductorRunResult again = m.call(ex, {WrapperValue::of(a), WrapperValue::of(b)}, {});
  EXPECT_TRUE(again.autotune.empty());
  ASSERT_EQ(again.steps.size(), 1u);
}

TEST(InductorModule, ExampleArgsFollowGetArgsAndTheSeed) {
  InductorModule m(pointwise_module(), "m.py");
  InterpExecutor ex(Knobs{});
  auto a1 = m.example_args(ex, 1), a1b = m.example_args(ex, 1), a2 = m.example_args(ex, 2);
  ASSERT_EQ(a1.size(), 2u);
  EXPECT_EQ(a1[0].tensor.sizes, (std::vector<int64_t>{48}));
  EXPECT_EQ(a1[0].tensor.dtype, DType::Float32);
  HostTensor x = ex.view(a1[0].tensor), y = ex.view(a1b[0].tensor), z = ex.view(a2[0].tensor);
  bool differs = false;
  for (int64_t i = 0; i < 48; ++i) {
    EXPECT_EQ(x.get_double(i), y.get_double(i));
    differs |= x.get_double(i) != z.get_double(i);
  }
  EXPECT_TRUE(differs);
  InductorRunResult r = m.call(ex, a1, {});
  HostTensor out = ex.view(r.value.items[0].tensor);
  HostTensor p = ex.view(a1[0].tensor), q = ex.view(a1[1].tensor);
  for (int64_t i = 0; i < 48; ++i)
    EXPECT_FLOAT_EQ(out.get_double(i), std::max(0.0, p.get_double(i) + q.get_double(i)));
}

// mm through the hook (extern_kernels.mm(..., out=buf0)), a persistent reduction writing
// its input in place (tuned with the input restored after each trial), a Grid2D
// transpose of a reinterpret_tensor view, a fallback returning a tuple (buf[0]).
TEST(InductorModule, ExternKernelsFallbacksReductionsAndViews) {
  const std::string text = std::string(kPreamble) + "\n" + row_sum_kernel() + transpose_kernel() +
                           runner(R"(        arg0_1, arg1_1 = args
        args.clear()
        assert_size_stride_grouped((arg0_1, arg1_1), ((8, 4), (4, 6)), ((4, 1), (6, 1)), 'input')
        buf0 = empty_strided((8, 6), (6, 1), device='opforge', dtype=torch.float32)
        # Topologically Sorted Source Nodes: [mm], Original ATen: [aten.mm]
        extern_kernels.mm(arg0_1, arg1_1, out=buf0)
        del arg0_1
        buf1 = buf0; del buf0  # reuse
        # Topologically Sorted Source Nodes: [sum_1], Original ATen: [aten.sum]
        raw_stream0 = get_raw_stream(0)
        triton_per_fused_sum_1.run(buf1, 8, 6, stream=raw_stream0)
        buf2 = torch.ops.aten.split_sum.default(buf1)
        buf3 = buf2[0]
        buf4 = empty_strided((5, 3), (3, 1), device='opforge', dtype=torch.float32)
        # Topologically Sorted Source Nodes: [t, clone], Original ATen: [aten.t, aten.clone]
        triton_poi_fused_clone_2.run(reinterpret_tensor(arg1_1, (3, 5), (5, 1), 2), buf4, 3, 5, stream=raw_stream0)
        return (buf1, buf3, buf4, )
)") + "\ndef get_args():\n    return []\n" +
                           kTail;
  InductorModule m(text, "m.py");
  InterpExecutor ex(Knobs{});
  TensorHandle a = input(ex, {8, 4}, 1.0, 0.0), b = input(ex, {4, 6}, 0.25, -1.0);
  std::vector<InductorAtenCall> calls;
  InductorAtenHook hook = [&](const InductorAtenCall &c) {
    calls.push_back(c);
    InductorAtenResult r;
    if (c.overload == "aten::mm.out") {
      HostTensor x = ex.view(c.args[0].tensor), y = ex.view(c.args[1].tensor);
      HostTensor o = ex.view(c.kwargs.at(0).second.tensor);
      for (int i = 0; i < 8; ++i)
        for (int j = 0; j < 6; ++j) {
          double s = 0;
          for (int k = 0; k < 4; ++k) s += x.get_double(i * 4 + k) * y.get_double(k * 6 + j);
          o.set_double(i * 6 + j, s);
        }
      r.cycles = 100;
      r.kernel = "host mm";
      return r;
    }
    // A fallback that returns a tuple: (a new tensor of the column 0, the input).
    TensorHandle t;
    t.dtype = DType::Float32;
    t.sizes = {8};
    t.strides = {1};
    t.buffer = ex.allocate(32);
    HostTensor in = ex.view(c.args[0].tensor), o = ex.view(t);
    for (int i = 0; i < 8; ++i) o.set_double(i, in.get_double(i * 6));
    r.value = WrapperValue::tuple({WrapperValue::of(t), c.args[0]});
    r.on_chip = false;
    r.kernel = "cpu";
    return r;
  };
  InductorRunResult r = m.call(ex, {WrapperValue::of(a), WrapperValue::of(b)}, hook);
  ASSERT_EQ(calls.size(), 2u);
  EXPECT_EQ(calls[0].overload, "aten::mm.out");
  EXPECT_EQ(calls[0].aten_nodes, (std::vector<std::string>{"aten.mm"}));
  EXPECT_EQ(calls[1].overload, "aten::split_sum");
  ASSERT_EQ(r.steps.size(), 4u);
  EXPECT_EQ(r.steps[0].kind, InductorStep::Kind::AtenCall);
  EXPECT_EQ(r.steps[0].cycles, 100u);
  EXPECT_EQ(r.steps[1].name, "triton_per_fused_sum_1");
  EXPECT_EQ(r.steps[1].aten_nodes, (std::vector<std::string>{"aten.sum"}));
  EXPECT_FALSE(r.steps[2].on_chip);
  EXPECT_EQ(r.steps[3].aten_nodes, (std::vector<std::string>{"aten.t", "aten.clone"}));
  // Row sums of a @ b (trials ran on the same buffer: it was restored between them).
  ASSERT_GE(r.autotune.size(), 1u);
  EXPECT_GE(r.autotune[0].trials.size(), 2u);
  HostTensor x = ex.view(a), y = ex.view(b);
  HostTensor sums = ex.view(r.value.items[0].tensor), col = ex.view(r.value.items[1].tensor);
  for (int i = 0; i < 8; ++i) {
    double s = 0;
    for (int j = 0; j < 6; ++j)
      for (int k = 0; k < 4; ++k) s += x.get_double(i * 4 + k) * y.get_double(k * 6 + j);
    EXPECT_NEAR(sums.get_double(i * 6), s, 1e-3 * std::abs(s) + 1e-4) << i;
    EXPECT_EQ(col.get_double(i), sums.get_double(i * 6));
  }
  // buf4[x, y] = b.flat[2 + 5 y + x] (the kernel reads a reinterpret_tensor view at offset 2).
  HostTensor t = ex.view(r.value.items[2].tensor);
  for (int xx = 0; xx < 5; ++xx)
    for (int yy = 0; yy < 3; ++yy)
      EXPECT_EQ(t.get_double(xx * 3 + yy), y.get_double(2 + 5 * yy + xx)) << xx << "," << yy;
  EXPECT_EQ(r.value.items[2].tensor.strides, (std::vector<int64_t>{3, 1}));
}

TEST(InductorModule, UnknownConstructsAreErrorsNamingThemAndTheLine) {
  const std::string good = pointwise_module();
  auto replaced = [&](const std::string &from, const std::string &to) {
    std::string t = good;
    t.replace(t.find(from), from.size(), to);
    return t;
  };
  // A `with` other than the device guard, in call().
  std::string t1 = replaced("with torch.opforge._DeviceGuard(0):", "with open('x') as f:");
  std::string e = error_of(t1);
  EXPECT_NE(e.find("m.py:" + std::to_string(line_of(t1, "with open")) + ":"), std::string::npos)
      << e;
  EXPECT_NE(e.find("'with'"), std::string::npos) << e;
  // An import of an unknown module.
  std::string t2 = replaced("import tempfile\n", "import subprocess\n");
  e = error_of(t2);
  EXPECT_NE(e.find("m.py:" + std::to_string(line_of(t2, "import subprocess")) + ":"),
            std::string::npos)
      << e;
  EXPECT_NE(e.find("'subprocess'"), std::string::npos) << e;
  // A class other than Runner.
  std::string t3 = replaced("class Runner:", "class Evil:");
  e = error_of(t3);
  EXPECT_NE(e.find("'class'"), std::string::npos) << e;
  // A kernel with a construct the Triton compiler does not know: the error names the
  // kernel and the kernel's line in the module.
  std::string t4 = replaced("tmp2 = tmp0 + tmp1", "tmp2 = tl.no_such_op(tmp0, tmp1)");
  e = error_of(t4);
  EXPECT_NE(e.find("triton_poi_fused_add_relu_0"), std::string::npos) << e;
  EXPECT_NE(e.find("m.py:" + std::to_string(line_of(t4, "tl.no_such_op"))), std::string::npos) << e;
  // Reflection in call() is refused at its line.
  std::string t5 = replaced("args.clear()", "eval('1')");
  e = error_of(t5);
  EXPECT_NE(e.find("m.py:" + std::to_string(line_of(t5, "eval('1')"))), std::string::npos) << e;
  // A kernel kind the chip does not run.
  std::string t6 = replaced("async_compile.triton('triton_poi_fused_add_relu_0', '''",
                            "async_compile.cpp_pybinding(['void'], '''");
  e = error_of(t6, false);
  EXPECT_NE(e.find("async_compile.cpp_pybinding"), std::string::npos) << e;
  // A wrong size assertion names the tensor's shape.
  std::string t7 = replaced("assert_size_stride(arg0_1, (48, ), (1, ), 'input')",
                            "assert_size_stride(arg0_1, (47, ), (1, ), 'input')");
  e = error_of(t7);
  EXPECT_NE(e.find("AssertionError"), std::string::npos) << e;
  EXPECT_EQ(error_of(good), "no error");
}
