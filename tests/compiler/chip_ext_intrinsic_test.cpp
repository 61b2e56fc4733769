//===- chip_ext_intrinsic_test.cpp - extension intrinsics: interpreter vs chip ===//
//
// The instructions of a test-only extension file (ext_fixture.h: one V, one
// VV, one VF instruction in custom-2), registered at run time, are used from
// a Triton kernel (x as -a and a - s too, which the strip loop computes
// itself), compiled to `.insn` strip loops, run on the tiny chip and
// compared with the IR interpreter element for element: both evaluate the
// file's semantics with isa::ext_evaluate, so they agree exactly.
//
//===----------------------------------------------------------------------===//
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <tuple>

#include "diff_harness.h"
#include "ext_fixture.h"
#include "opforge/compiler/pipeline.h"

namespace opforge::compiler::testing {
namespace {

const char *kKernel = R"(import triton
import triton.language as tl


@triton.jit
def ext_kernel(x_ptr, y_ptr, v_ptr, vv_ptr, vf_ptr, s, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    y = tl.load(y_ptr + offs, mask=mask, other=0.0)
    tl.store(v_ptr + offs, tl.extra.mtia.tsigm(-x), mask=mask)
    tl.store(vv_ptr + offs, tl.extra.mtia.thypot(x, y), mask=mask)
    tl.store(vf_ptr + offs, tl.extra.mtia.taxpx(x - 0.5, s), mask=mask)


@triton.jit
def ext_whole_blocks(x_ptr, y_ptr, v_ptr, vv_ptr, vf_ptr, s, n, BLOCK: tl.constexpr):
    # unmasked: x and y arrive by DMA in fp32 buffers, so -x (0 - x) and
    # x - 0.5 are computed inside the strip loops (vfrsub.vf, vfsub.vf)
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    y = tl.load(y_ptr + offs)
    tl.store(v_ptr + offs, tl.extra.mtia.tsigm(-x))
    tl.store(vv_ptr + offs, tl.extra.mtia.thypot(x, y))
    tl.store(vf_ptr + offs, tl.extra.mtia.taxpx(x - 0.5, s))
)";

std::string kernel_file() {
  static const std::string path = [] {
    std::string p = ::testing::TempDir() + "/chip_ext_kernel.py";
    std::ofstream(p) << kKernel;
    return p;
  }();
  return path;
}

DiffCase ext_case(DType dt, int64_t n, const std::string &kernel = "ext_kernel") {
  DiffCase c;
  c.file = kernel_file();
  c.kernel = kernel;
  const std::string t = tl_type(dt);
  c.signature = "x_ptr=*" + t + ",y_ptr=*" + t + ",v_ptr=*" + t + ",vv_ptr=*" + t + ",vf_ptr=*" +
                t + ",s=fp32,n=i32";
  c.constexprs = {"BLOCK=64"};
  HostTensor x = random_tensor(dt, {n}, 11), y = random_tensor(dt, {n}, 12);
  c.args = {KArg::tensor(x),
            KArg::tensor(y),
            KArg::tensor(HostTensor(dt, {n})),
            KArg::tensor(HostTensor(dt, {n})),
            KArg::tensor(HostTensor(dt, {n})),
            KArg::floating(-1.25),
            KArg::integer(n)};
  c.grid.x = (n + 63) / 64;
  return c;
}

}  // namespace

TEST(ChipExtIntrinsic, EveryOperandShapeMatchesTheInterpreterExactly) {
  register_test_extension();
  for (auto [dt, kernel, n] : {std::tuple{DType::Float32, "ext_kernel", 150},
                               std::tuple{DType::Float16, "ext_kernel", 150},
                               std::tuple{DType::BFloat16, "ext_kernel", 150},
                               std::tuple{DType::Float32, "ext_whole_blocks", 192}}) {
    // ext_kernel: three programs, the last one partial
    DiffCase c = ext_case(dt, n, kernel);
    auto ref = run_interp(c);
    ChipRun chip = run_chip(device(), c);
    ASSERT_TRUE(chip.launch.ok()) << chip.launch.traps.front();
    for (int k = 2; k < 5; ++k)
      for (int64_t i = 0; i < n; ++i)
        ASSERT_EQ(chip.tensors[k].get_double(i), ref[k].get_double(i))
            << kernel << " " << dtype_name(dt) << " output " << k << " element " << i;
    // And the interpreter against the host formula (fp32 only).
    if (dt != DType::Float32) continue;
    const HostTensor &x = c.args[0].t, &y = c.args[1].t;
    for (int64_t i = 0; i < n; ++i) {
      double xi = x.get_double(i), yi = y.get_double(i);
      EXPECT_NEAR(ref[2].get_double(i), 1.0 / (1.0 + std::exp(xi)), 3e-7) << i;
      EXPECT_NEAR(ref[3].get_double(i), std::hypot(xi, yi), 1e-6 * std::hypot(xi, yi)) << i;
      EXPECT_NEAR(ref[4].get_double(i), -0.25 * (xi - 0.5), 1e-6) << i;
    }
  }
}

// The instruction is in the binary as the file encodes it, and the chip
// counts it: the kernel's asm holds one `.insn r 91, ...` line per call
// (opcode custom-2, funct3, funct6 and vm = 1 from the file's encoding line).
TEST(ChipExtIntrinsic, TheKernelAsmCarriesTheFilesEncodings) {
  register_test_extension();
  DiffCase c = ext_case(DType::Float32, 64, "ext_whole_blocks");
  register_codegen_stages();
  CompileState s = compile_file(c.file, options(c), "asm");
  std::string text = dump_stage(s, "asm");
  // (LLVM prints x8 as s0, x0 as zero, x16 as a6: the register numbers of v8, v16)
  EXPECT_NE(text.find(".insn r 91, 1, 1, s0, zero, s0"), std::string::npos) << text;  // vftsigm.v
  EXPECT_NE(text.find(".insn r 91, 1, 3, s0, a6, s0"), std::string::npos) << text;    // vfthypot.vv
  EXPECT_NE(text.find(".insn r 91, 5, 5, s0, f"), std::string::npos) << text;         // vftaxpx.vf
  // -x and x - 0.5 are computed in the strip loops, not by element loops.
  EXPECT_NE(text.find("vfrsub.vf\tv8, v8, f"), std::string::npos) << text;
  EXPECT_NE(text.find("vfsub.vf\tv8, v8, f"), std::string::npos) << text;
}

}  // namespace opforge::compiler::testing
