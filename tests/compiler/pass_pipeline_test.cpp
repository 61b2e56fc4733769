//===- pass_pipeline_test.cpp - stages ast -> ttir -> opt, dumps and knobs ---===//
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <unistd.h>

#include "opforge/compiler/diagnostics.h"
#include "opforge/compiler/interp_executor.h"
#include "opforge/compiler/ir_parser.h"
#include "opforge/compiler/ir_printer.h"
#include "opforge/compiler/parser.h"
#include "opforge/compiler/pipeline.h"
#include "opforge/compiler/wrapper.h"

using namespace opforge;
using namespace opforge::compiler;

namespace {

std::string kernels() { return std::string(OPFORGE_SOURCE_DIR) + "/tests/compiler/kernels/"; }

CompileOptions matmul_options() {
  CompileOptions o;
  o.knobs = Knobs{};
  add_signature(o.spec,
                "a_ptr=*fp16,b_ptr=*fp16,c_ptr=*fp16,M=i32,N=i32,K=i32,stride_am=i32,stride_ak=i32,"
                "stride_bk=i32,stride_bn=i32,stride_cm=i32,stride_cn=i32");
  for (auto c : {"BLOCK_SIZE_M=32", "BLOCK_SIZE_N=32", "BLOCK_SIZE_K=32", "GROUP_SIZE_M=8"})
    add_constexpr(o.spec, c);
  return o;
}

TEST(Pipeline, StagesAreNamedInOrderAndEachDumps) {
  ASSERT_GE(stages().size(), 3u);
  EXPECT_EQ(stages()[0].name, "ast");
  EXPECT_EQ(stages()[1].name, "ttir");
  EXPECT_EQ(stages()[2].name, "opt");
  auto st = compile_file(kernels() + "matmul.py", matmul_options(), "opt");
  EXPECT_EQ(st.kernel, "matmul_kernel");
  EXPECT_NE(dump_stage(st, "ast").find("FunctionDef"), std::string::npos);
  std::string ttir = dump_stage(st, "ttir"), opt = dump_stage(st, "opt");
  EXPECT_NE(ttir.find("tt.func @matmul_kernel("), std::string::npos);
  EXPECT_NE(opt.find("tt.dot"), std::string::npos);
  EXPECT_LT(opt.size(), ttir.size()) << "the passes shrink the matmul kernel";
  // Every dump is valid ttir that reads back to the same text.
  EXPECT_EQ(ttir::print(*ttir::parse_module(ttir)), ttir);
  EXPECT_EQ(ttir::print(*ttir::parse_module(opt)), opt);
  EXPECT_EQ(st.runtime_params.size(), 12u);
  EXPECT_THROW(compile_file(kernels() + "matmul.py", matmul_options(), "nonsense"), Error);
}

TEST(Pipeline, LicmHoistsTheLoopInvariantPointerIncrementsOfMatmul) {
  auto st = compile_file(kernels() + "matmul.py", matmul_options(), "opt");
  std::string opt = dump_stage(st, "opt");
  // BLOCK_SIZE_K * stride_ak is computed once, before the K loop.
  size_t loop = opt.find("scf.for");
  ASSERT_NE(loop, std::string::npos);
  size_t mul = opt.find("arith.muli %stride_ak");
  if (mul == std::string::npos) mul = opt.find("%stride_ak : i32");
  ASSERT_NE(mul, std::string::npos) << opt;
  EXPECT_LT(mul, loop) << opt;
}

TEST(Pipeline, DisabledPassesAreSkippedAndUnknownOnesRejected) {
  CompileOptions o = matmul_options();
  o.knobs.disabled_passes = {"licm", "cse"};
  auto st = compile_file(kernels() + "matmul.py", o, "opt");
  for (auto &p : st.passes_run) {
    EXPECT_NE(p, "licm");
    EXPECT_NE(p, "cse");
  }
  EXPECT_FALSE(st.passes_run.empty());
  o.knobs.disabled_passes = {"no-such-pass"};
  EXPECT_THROW(compile_file(kernels() + "matmul.py", o, "opt"), Error);
}

TEST(Pipeline, DumpDirectoryReceivesEveryStage) {
  CompileOptions o = matmul_options();
  auto dir =
      std::filesystem::temp_directory_path() / ("opforge_dump_" + std::to_string(::getpid()));
  o.knobs.dump_ir_dir = dir.string();
  compile_file(kernels() + "matmul.py", o, "opt");
  for (auto s : {"ast", "ttir", "opt"})
    EXPECT_TRUE(std::filesystem::exists(dir / (std::string("matmul_kernel.") + s + ".txt"))) << s;
  std::filesystem::remove_all(dir);
}

TEST(Pipeline, SourceErrorsAreCompileErrorsWithCaret) {
  CompileOptions o;
  o.knobs = Knobs{};
  add_signature(o.spec, "x_ptr=*fp32,y_ptr=*fp32,output_ptr=*fp32,n_elements=i32,alpha=fp32");
  add_constexpr(o.spec, "BLOCK_SIZE=1000");  // not a power of 2
  try {
    compile_file(kernels() + "vector_add.py", o, "ttir");
    FAIL() << "expected an error";
  } catch (const CompileError &e) {
    EXPECT_NE(e.message().find("arange's range must be a power of 2"), std::string::npos)
        << e.rendered();
    EXPECT_NE(e.rendered().find("tl.arange(0, BLOCK_SIZE)"), std::string::npos) << e.rendered();
  }
}

// Differential: the optimised and the unoptimised ttir compute the same bits.
TEST(Pipeline, OptimisedAndUnoptimisedKernelsAgreeBitForBit) {
  auto mod = parse_file(kernels() + "layer_norm.py");
  HostTensor x(DType::Float16, {3, 77}), w(DType::Float16, {77}), b(DType::Float16, {77});
  for (int64_t i = 0; i < x.numel(); ++i) x.set_double(i, std::sin(0.37 * static_cast<double>(i)));
  for (int64_t i = 0; i < 77; ++i)
    w.set_double(i, 1 + 0.01 * static_cast<double>(i)), b.set_double(i, -0.5);
  std::vector<HostTensor> outs[2];
  for (int opt = 0; opt < 2; ++opt) {
    InterpExecutor ex(Knobs{});
    ex.set_optimize(opt == 1);
    WrapperInterpreter wi(mod, ex);
    auto up = [&](const HostTensor &t) {
      TensorHandle h;
      h.dtype = t.dtype();
      h.sizes = t.sizes();
      h.strides = HostTensor::contiguous_strides(t.sizes());
      h.buffer = ex.allocate(t.numel() * dtype_size(t.dtype()));
      ex.copy_in(h, t);
      return WrapperValue::of(h);
    };
    auto r =
        wi.run("native_layer_norm_default", {up(x), WrapperValue::list({WrapperValue::integer(77)}),
                                             up(w), up(b), WrapperValue::floating(1e-5)});
    for (auto &item : r.value.items) outs[opt].push_back(ex.copy_out(item.tensor));
  }
  ASSERT_EQ(outs[0].size(), 3u);
  for (size_t i = 0; i < 3; ++i) EXPECT_TRUE(outs[0][i].equals(outs[1][i])) << "output " << i;
}

}  // namespace

namespace {
TEST(Pipeline, AutotunedKernelsDefaultToTheirFirstConfig) {
  CompileOptions o;
  o.knobs = Knobs{};
  add_signature(
      o.spec, "x_ptr=*fp32,out_ptr=*fp32,n_elements=i32,scale=fp32,shift=fp32,negative_slope=fp32");
  auto st = compile_file(kernels() + "autotuned.py", o, "ttir");
  EXPECT_NE(dump_stage(st, "ttir").find("tensor<256xf32>"), std::string::npos)
      << "BLOCK_SIZE from the first triton.Config";
  add_constexpr(o.spec, "BLOCK_SIZE=1024");
  st = compile_file(kernels() + "autotuned.py", o, "ttir");
  EXPECT_NE(dump_stage(st, "ttir").find("tensor<1024xf32>"), std::string::npos)
      << "an explicit constexpr wins";
}

TEST(Pipeline, AStageCanBeReplacedFromAFile) {
  CompileOptions o = matmul_options();
  auto path = std::filesystem::temp_directory_path() /
              ("opforge_replace_" + std::to_string(::getpid()) + ".ttir");
  {
    std::ofstream out(path);
    out << "tt.func @matmul_kernel(%a: i32) {\n  tt.return\n}\n";
  }
  o.knobs.replace_ir["ttir"] = path.string();
  auto st = compile_file(kernels() + "matmul.py", o, "opt");
  EXPECT_EQ(dump_stage(st, "opt"), "tt.func @matmul_kernel(%a: i32) {\n  tt.return\n}\n");
  std::filesystem::remove(path);
}
}  // namespace
