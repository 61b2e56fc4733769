//===- validate_isa_ext_test.cpp - a new instruction from a file, used by a kernel, checked against
// ATen ===//
//
// Issue 23's done-when test: the test writes an ISA extension file with an
// instruction the tables do not have (vfxsigmoid.v, 1 / (1 + exp(-x)) on the
// SFU), registers it at run time, writes an aten::sigmoid kernel that calls
// tl.extra.mtia.xsigmoid, and runs the OpInfo corpus's recorded sigmoid calls
// through it on the chip model, each compared with the output ATen recorded
// under the OpInfo tolerances. Nothing is rebuilt.
//
//===----------------------------------------------------------------------===//
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "corpus_fixture.h"
#include "opforge/compiler/codegen.h"
#include "opforge/compiler/pipeline.h"
#include "opforge/harness/corpus.h"
#include "opforge/harness/validate.h"
#include "opforge/isa/extension.h"
#include "opforge/isa/spec.h"

using namespace opforge;
using namespace opforge::harness;

#ifdef OPFORGE_HAVE_CHIP

namespace {

const char *kExtension = R"(# an instruction the shipped tables do not have
extension xsigmoid
description sigmoid in one SFU instruction
insn vfxsigmoid.v
  encoding 31..26=0x3 vm vs2 19..15=0 14..12=2 vd 6..0=0x7B
  operands v
  semantics recip(1 + exp(-x))
  unit sfu
  latency 10
  throughput 16
  occupancy 2
  intrinsic xsigmoid
)";

const char *kKernel =
    R"("""aten::sigmoid(Tensor self) -> Tensor through the vfxsigmoid.v extension instruction."""
import torch
import triton
import triton.language as tl


@triton.jit
def sigmoid_kernel(x_ptr, out_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    offsets = tl.program_id(axis=0) * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask)
    tl.store(out_ptr + offsets, tl.extra.mtia.xsigmoid(x), mask=mask)


def sigmoid(self):
    out_dtype = self.dtype if self.is_floating_point() else torch.float32
    out = torch.empty(self.shape, dtype=out_dtype, device=self.device)
    n_elements = out.numel()
    if n_elements == 0:
        return out
    x = self.to(out_dtype).contiguous()
    sigmoid_kernel[(triton.cdiv(n_elements, 256), )](x, out, n_elements, BLOCK_SIZE=256)
    return out
)";

ChipOptions tiny() {
  ChipOptions o;
  o.arch = "tiny";
  o.timing = "functional";
  return o;
}

}  // namespace

TEST(ValidateIsaExt, AnInstructionFromAFileRunsInAKernelOnTheChipAndMatchesAten) {
  std::string dir = test::temp_dir();
  std::ofstream(dir + "/sigmoid.py") << kKernel;
  // Before the extension is registered the kernel is refused, naming what it needs.
  ASSERT_EQ(isa::find_ext_intrinsic("xsigmoid"), nullptr);
  {
    auto lib = KernelLibrary::load(dir);
    const KernelLibrary::File *f = lib.find("aten::sigmoid");
    ASSERT_NE(f, nullptr);
    EXPECT_NE(f->error.find("OPF014"), std::string::npos) << f->error;
    EXPECT_NE(f->error.find("tl.extra.mtia.xsigmoid needs an ISA extension that defines "
                            "intrinsic 'xsigmoid' (--isa-ext FILE)"),
              std::string::npos)
        << f->error;
  }
  ASSERT_EQ(isa::find_insn("vfxsigmoid.v"), nullptr);
  std::ofstream(dir + "/xsigmoid.ext") << kExtension;
  isa::register_extension_files({dir + "/xsigmoid.ext"});
  ASSERT_NE(isa::find_insn("vfxsigmoid.v"), nullptr);

  // The kernel's code carries the instruction as the file encodes it.
  compiler::register_codegen_stages();
  compiler::CompileOptions o;
  o.knobs = compiler::Knobs{};
  o.kernel = "sigmoid_kernel";
  compiler::add_signature(o.spec, "x_ptr=*fp32,out_ptr=*fp32,n_elements=i32");
  compiler::add_constexpr(o.spec, "BLOCK_SIZE=256");
  auto s = compiler::compile_file(dir + "/sigmoid.py", o, "asm");
  EXPECT_NE(compiler::dump_stage(s, "asm").find(".insn r 123, 2, 7, s0, zero, s0"),
            std::string::npos);

  auto corpus = Corpus::open(test::small_corpus());
  ValidateOptions options;
  options.executor = ExecutorKind::Chip;
  options.chip = tiny();
  options.overloads = {"aten::sigmoid"};
  options.dtypes = {DType::Float32, DType::BFloat16};
  auto report = validate(corpus, KernelLibrary::load(dir), options);
  ASSERT_EQ(report.results.size(), 1u);
  const OverloadResult &r = report.results[0];
  EXPECT_GE(r.total, 4);
  std::string why = r.first_failure();
  EXPECT_TRUE(r.ok()) << r.passed << "/" << r.total << ": " << why;
  EXPECT_EQ(r.per_dtype.size(), 2u);
}

// The shipped expscale variants: searched only while isa/ext/vfexpscale.ext
// is registered, lint clean, and within the OpInfo tolerances on the chip.
TEST(ValidateIsaExt, TheExpscaleVariantsAreUsedOnlyWithTheExtensionAndMatchAten) {
  for (const std::string &d : extension_library_dirs())
    EXPECT_EQ(d.find("expscale"), std::string::npos) << d;
  isa::register_extension_files({std::string(OPFORGE_SOURCE_DIR) + "/isa/ext/vfexpscale.ext"});
  std::vector<std::string> dirs = extension_library_dirs();
  ASSERT_EQ(dirs.size(), 1u);
  EXPECT_EQ(dirs[0],
            std::filesystem::path(default_library_dir()).parent_path().string() + "/ext/expscale");
  auto lib = KernelLibrary::load(dirs[0]);
  ASSERT_EQ(lib.files().size(), 3u);
  for (const auto &f : lib.files()) EXPECT_EQ(f.error, "") << f.path;
  auto corpus = Corpus::open(test::small_corpus());
  ValidateOptions options;
  options.executor = ExecutorKind::Chip;
  options.chip = tiny();
  options.overloads = {"aten::_softmax", "aten::sigmoid"};
  options.dtypes = {DType::Float32, DType::BFloat16};
  auto report = validate(corpus, lib, options);
  ASSERT_EQ(report.results.size(), 2u);
  for (const OverloadResult &r : report.results) {
    EXPECT_GT(r.total, 0) << r.overload;
    EXPECT_TRUE(r.ok()) << r.overload << " " << r.passed << "/" << r.total << ": "
                        << r.first_failure();
    EXPECT_NE(r.file.find("/ext/expscale/"), std::string::npos) << r.file;
  }
}

#endif  // OPFORGE_HAVE_CHIP
