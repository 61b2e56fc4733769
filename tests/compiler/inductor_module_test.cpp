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
#include "opforge/compiler/parser.h"
#include "inductor_module_texts.h"

using namespace opforge;
using namespace opforge::compiler;
using namespace opforge::test::inductor;

namespace {

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

// The source inside async_compile.triton('...', '''...''').
std::string kernel_source(const std::string &definition) {
  size_t a = definition.find("'''") + 3;
  return definition.substr(a, definition.find("'''", a) - a);
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
  int64_t xblock = 0;
  for (auto &a : r.launches[0].args)
    if (a.name == "XBLOCK") xblock = a.int_value;
  ASSERT_GT(xblock, 0);
  EXPECT_EQ(r.launches[0].grid.x, (48 + xblock - 1) / xblock);  // Grid1D
  EXPECT_NE(r.steps[0].config.find("XBLOCK: " + std::to_string(xblock)), std::string::npos);
  // Tuned once per key: the interpreter has no cycles, the first config that runs is kept.
  ASSERT_EQ(r.autotune.size(), 1u);
  EXPECT_EQ(r.autotune[0].kernel, "triton_poi_fused_add_relu_0");
  EXPECT_EQ(r.autotune[0].winner_config, r.steps[0].config);
  InductorRunResult again = m.call(ex, {WrapperValue::of(a), WrapperValue::of(b)}, {});
  EXPECT_TRUE(again.autotune.empty());
  ASSERT_EQ(again.steps.size(), 1u);
  // Another target: its configs, chosen again on the next call.
  InductorTarget small;
  small.num_pes = 4;
  small.local_mem_bytes = 16384;
  m.set_target(small);
  InductorRunResult retuned = m.call(ex, {WrapperValue::of(a), WrapperValue::of(b)}, {});
  ASSERT_EQ(retuned.autotune.size(), 1u);
  std::vector<std::string> want;
  for (auto &c : inductor_configs(
           read_inductor_kernel(parse_source("k.py", kernel_source(add_relu_kernel()))), small))
    want.push_back(c.str());
  std::vector<std::string> got;
  for (auto &t : retuned.autotune[0].trials) got.push_back(t.config);
  if (want.size() > 1) {
    EXPECT_EQ(got, want);
  }
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

// `del` frees a buffer once no variable holds it (as Python's last reference going):
// two 192-byte results in turn fit a 300-byte budget only when the first is freed.
TEST(InductorModule, DelFreesABufferWhenItsLastNameGoes) {
  auto module = [](const std::string &dels) {
    return std::string(kPreamble) + "\n" + add_relu_kernel() +
           runner(R"(        arg0_1, arg1_1 = args
        args.clear()
        buf0 = empty_strided((48, ), (1, ), device='opforge', dtype=torch.float32)
        triton_poi_fused_add_relu_0.run(arg0_1, arg1_1, buf0, 48, stream=get_raw_stream(0))
        buf1 = buf0; del buf0  # reuse
)" + dels + R"(        buf2 = empty_strided((48, ), (1, ), device='opforge', dtype=torch.float32)
        triton_poi_fused_add_relu_0.run(arg0_1, arg1_1, buf2, 48, stream=get_raw_stream(0))
        return (buf2, )
)") + "\ndef get_args():\n    return []\n" +
           kTail;
  };
  WrapperOptions o;
  o.max_bytes = 300;
  InterpExecutor ex(Knobs{});
  TensorHandle a = input(ex, {48}, 1.0, -20.0), b = input(ex, {48}, 0.5, -3.0);
  std::vector<WrapperValue> args = {WrapperValue::of(a), WrapperValue::of(b)};
  InductorModule freed(module("        del buf1\n"), "m.py");
  InductorRunResult r = freed.call(ex, args, {}, o);
  EXPECT_EQ(ex.view(r.value.items[0].tensor).get_double(47), std::max(0.0, 27.0 + 20.5));
  // buf1 still holds the first buffer: it is not freed and the budget is exceeded.
  InductorModule kept(module(""), "m.py");
  try {
    kept.call(ex, args, {}, o);
    ADD_FAILURE() << "the budget should be exceeded";
  } catch (const CompileError &e) {
    EXPECT_NE(e.rendered().find("memory budget"), std::string::npos) << e.rendered();
  }
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
  // A syntax error in a kernel's source names the kernel and the module's line.
  std::string t8 = replaced("tmp2 = tmp0 + tmp1", "tmp2 = tmp0 + ");
  e = error_of(t8, false);
  EXPECT_NE(e.find("m.py:" + std::to_string(line_of(t8, "tmp2 = tmp0 + ")) + ":"),
            std::string::npos)
      << e;
  EXPECT_NE(e.find("kernel 'triton_poi_fused_add_relu_0'"), std::string::npos) << e;
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
