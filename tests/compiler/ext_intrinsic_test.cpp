//===- ext_intrinsic_test.cpp - tl.extra.mtia.<intrinsic>: lint, sema, IR, interpreter ===//
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>

#include "ext_fixture.h"
#include "opforge/compiler/interp.h"
#include "opforge/compiler/ir_parser.h"
#include "opforge/compiler/ir_printer.h"
#include "opforge/compiler/lint.h"
#include "opforge/compiler/pipeline.h"
#include "opforge/support/error.h"
#include "opforge/support/host_tensor.h"

namespace opforge::compiler::testing {
namespace {

const char *kUnknownKernel =
    "import triton\nimport triton.language as tl\n\n\n@triton.jit\n"
    "def k(x_ptr, out_ptr, BLOCK: tl.constexpr):\n"
    "    i = tl.arange(0, BLOCK)\n"
    "    tl.store(out_ptr + i, tl.extra.mtia.nosuchfn(tl.load(x_ptr + i)))\n";

const char *kExtKernel =
    "import triton\nimport triton.language as tl\n\n\n@triton.jit\n"
    "def k(x_ptr, y_ptr, v_ptr, vv_ptr, vf_ptr, s, BLOCK: tl.constexpr):\n"
    "    i = tl.arange(0, BLOCK)\n"
    "    x = tl.load(x_ptr + i)\n"
    "    y = tl.load(y_ptr + i)\n"
    "    tl.store(v_ptr + i, tl.extra.mtia.tsigm(x))\n"
    "    tl.store(vv_ptr + i, tl.extra.mtia.thypot(x, y))\n"
    "    tl.store(vf_ptr + i, tl.extra.mtia.taxpx(x, s))\n";

std::string write(const std::string &name, const std::string &text) {
  std::string path = ::testing::TempDir() + "/" + name;
  std::ofstream(path) << text;
  return path;
}

CompileOptions opts(const std::string &signature, const std::string &constexprs) {
  CompileOptions o;
  o.knobs = Knobs{};
  add_signature(o.spec, signature);
  add_constexpr(o.spec, constexprs);
  return o;
}

const std::string kMissing =
    "tl.extra.mtia.nosuchfn needs an ISA extension that defines intrinsic 'nosuchfn' "
    "(--isa-ext FILE)";

}  // namespace

TEST(ExtIntrinsic, AnUnregisteredIntrinsicIsALintErrorNamingItAndTheOption) {
  std::vector<LintFinding> fs;
  for (auto &f : lint_source("k.py", kUnknownKernel))
    if (f.severity == Severity::Error) fs.push_back(f);
  ASSERT_EQ(fs.size(), 1u) << (fs.empty() ? "" : format_finding(fs[0]));
  EXPECT_EQ(fs[0].rule, "OPF014");
  EXPECT_EQ(fs[0].message, kMissing);
  EXPECT_EQ(fs[0].loc.line, 8);
}

TEST(ExtIntrinsic, AnUnregisteredIntrinsicIsACompileErrorWithTheLintMessage) {
  std::string path = write("ext_unknown.py", kUnknownKernel);
  try {
    compile_file(path, opts("x_ptr=*fp32,out_ptr=*fp32", "BLOCK=8"), "ttir");
    FAIL() << "compiled";
  } catch (const Error &e) {
    EXPECT_NE(std::string(e.what()).find(kMissing), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("ext_unknown.py:8:"), std::string::npos) << e.what();
  }
}

TEST(ExtIntrinsic, ARegisteredIntrinsicLintsCleanAndBuildsOneOpPerCall) {
  register_test_extension();
  for (auto &f : lint_source("k.py", kExtKernel))
    EXPECT_NE(f.severity, Severity::Error) << format_finding(f);
  std::string path = write("ext_kernel.py", kExtKernel);
  CompileState s = compile_file(
      path, opts("x_ptr=*fp32,y_ptr=*fp32,v_ptr=*fp32,vv_ptr=*fp32,vf_ptr=*fp32,s=fp32", "BLOCK=8"),
      "opt");
  std::string text = ttir::print(*s.opt);
  for (const char *want :
       {"mtia.intrinsic %", "{intrinsic = \"tsigm\"} : tensor<8xf32>",
        "{intrinsic = \"thypot\"} : tensor<8xf32>", "{intrinsic = \"taxpx\"} : tensor<8xf32>"})
    EXPECT_NE(text.find(want), std::string::npos) << want << " in\n" << text;
  // The textual form parses back, verifies and prints the same.
  auto back = ttir::parse_module(text);
  ttir::verify(*back);
  EXPECT_EQ(ttir::print(*back), text);
}

TEST(ExtIntrinsic, WrongOperandsAreErrorsNamingTheIntrinsic) {
  register_test_extension();
  struct Case {
    std::string call, want;
  } cases[] = {
      {"tl.extra.mtia.tsigm(x, y)",
       "tl.extra.mtia.tsigm() takes 1 positional argument (x) but 2 were given"},
      {"tl.extra.mtia.thypot(x)",
       "tl.extra.mtia.thypot() missing 1 required positional argument: 'y'"},
      {"tl.extra.mtia.taxpx(x, y)",
       "tl.extra.mtia.taxpx() expects a scalar for y (vftaxpx.vf takes it in an f register), got "
       "the block"},
      {"tl.extra.mtia.tsigm(tl.sum(x, axis=0))", "tl.extra.mtia.tsigm() expects a block for x"},
      {"tl.extra.mtia.tsigm(x.to(tl.int32))",
       "tl.extra.mtia.tsigm() expects float32, float16 or bfloat16 for x, got int32"},
  };
  int n = 0;
  for (const Case &c : cases) {
    std::string path = write("ext_bad" + std::to_string(n++) + ".py",
                             "import triton\nimport triton.language as tl\n\n\n@triton.jit\n"
                             "def k(x_ptr, y_ptr, out_ptr, BLOCK: tl.constexpr):\n"
                             "    i = tl.arange(0, BLOCK)\n"
                             "    x = tl.load(x_ptr + i)\n"
                             "    y = tl.load(y_ptr + i)\n"
                             "    tl.store(out_ptr + i, " +
                                 c.call + ")\n");
    try {
      compile_file(path, opts("x_ptr=*fp32,y_ptr=*fp32,out_ptr=*fp32", "BLOCK=8"), "ttir");
      ADD_FAILURE() << c.call << " compiled";
    } catch (const Error &e) {
      EXPECT_NE(std::string(e.what()).find(c.want), std::string::npos) << e.what();
    }
  }
}

TEST(ExtIntrinsic, TheVerifierRejectsAnIntrinsicNoExtensionDefines) {
  try {
    auto m = ttir::parse_module(
        "tt.func @k(%x: tensor<4xf32>) {\n"
        "  %0 = mtia.intrinsic %x {intrinsic = \"nosuchfn\"} : tensor<4xf32>\n"
        "  tt.return\n}\n");
    ttir::verify(*m);
    FAIL() << "verified";
  } catch (const Error &e) {
    EXPECT_NE(std::string(e.what()).find(kMissing), std::string::npos) << e.what();
  }
}

// The interpreter evaluates each element with isa::ext_evaluate, at the SFU
// precision it is given; fp16 operands are computed in fp32 and rounded back.
TEST(ExtIntrinsic, TheInterpreterEvaluatesEachElementAtTheGivenSfuPrecision) {
  register_test_extension();
  std::string path = write("ext_interp.py", kExtKernel);
  CompileState s = compile_file(
      path,
      opts("x_ptr=*fp32,y_ptr=*fp32,v_ptr=*fp32,vv_ptr=*fp32,vf_ptr=*fp32,s=fp32", "BLOCK=16"),
      "opt");
  const isa::ExtInsn *sigm = isa::find_ext_intrinsic("tsigm");
  ASSERT_NE(sigm, nullptr);
  for (unsigned prec : {0u, 7u}) {
    HostTensor x(DType::Float32, {16}), y(DType::Float32, {16});
    for (int i = 0; i < 16; ++i) {
      x.set_double(i, -4.0 + 0.53 * i);
      y.set_double(i, 3.0 - 0.25 * i);
    }
    std::vector<HostTensor> out;  // three buffers (copies of one HostTensor share its storage)
    for (int k = 0; k < 3; ++k) out.emplace_back(DType::Float32, std::vector<int64_t>{16});
    ttir::InterpMemory mem;
    std::vector<ttir::KernelArg> args = {ttir::KernelArg::pointer(mem.address_of(x)),
                                         ttir::KernelArg::pointer(mem.address_of(y))};
    for (auto &o : out) args.push_back(ttir::KernelArg::pointer(mem.address_of(o)));
    args.push_back(ttir::KernelArg::floating(0.75));
    ttir::Interpreter in(mem);
    in.set_sfu_prec_bits(prec);
    in.run(*s.opt, s.kernel, args, {});
    for (int i = 0; i < 16; ++i) {
      float xi = static_cast<float>(x.get_double(i)), yi = static_cast<float>(y.get_double(i));
      EXPECT_EQ(out[0].get_double(i), isa::ext_evaluate(*sigm, xi, 0, prec)) << i;
      if (prec == 0) {
        EXPECT_NEAR(out[0].get_double(i), 1.0 / (1.0 + std::exp(-xi)), 2e-7) << i;
        EXPECT_EQ(out[1].get_double(i), std::sqrt(xi * xi + yi * yi)) << i;
        EXPECT_EQ(out[2].get_double(i), std::fma(0.75f, xi, xi)) << i;
      } else {
        // 7 mantissa bits in the SFU's exp: a visibly coarser sigmoid.
        EXPECT_NEAR(out[0].get_double(i), 1.0 / (1.0 + std::exp(-xi)), 1e-2) << i;
      }
    }
  }
}

}  // namespace opforge::compiler::testing
