//===- mtia_ext_test.cpp - tl.extra.mtia built-ins: lint, sema, IR, interpreter ===//
//
// async_copy / wait / barrier / atomic_add / dot / sfu (mtia_builtins.h,
// docs/compiler/mtia-extensions.md) without the code generator: lint knows
// them (no OPF014, OPF015 for calls that do not fit), sema types them and
// rejects misuse at the call's line, the IR round-trips, and the interpreter
// runs them (an expired token is an error). Chip vs interpreter:
// chip_mtia_ext_test.cpp.
//
//===----------------------------------------------------------------------===//
#include <gtest/gtest.h>

#include <fstream>

#include "opforge/compiler/interp.h"
#include "opforge/compiler/ir_parser.h"
#include "opforge/compiler/ir_printer.h"
#include "opforge/compiler/lint.h"
#include "opforge/compiler/pipeline.h"
#include "opforge/isa/sfu_math.h"
#include "opforge/support/error.h"
#include "opforge/support/host_tensor.h"

namespace opforge::compiler::testing {
namespace {

const std::string kHead = "import triton\nimport triton.language as tl\n\n\n@triton.jit\n";

// Every built-in, used as documented (lines 6..).
const std::string kAll =
    kHead +
    "def k(x_ptr, a_ptr, b_ptr, out_ptr, c_ptr, h_ptr, n, BLOCK: "
    "tl.constexpr):\n"
    "    i = tl.arange(0, BLOCK)\n"
    "    t = tl.extra.mtia.async_copy(x_ptr + i, mask=i < n, other=0.0)\n"
    "    r = tl.arange(0, 16)\n"
    "    ta = tl.extra.mtia.async_copy(a_ptr + r[:, None] * 16 + r[None, :])\n"
    "    tb = tl.extra.mtia.async_copy(b_ptr + r[:, None] * 16 + r[None, :])\n"
    "    x = tl.extra.mtia.wait(t)\n"
    "    y = tl.extra.mtia.sfu('exp', x) * tl.extra.mtia.sfu(op='rsqrt', x=x)\n"
    "    tl.store(out_ptr + i, y, mask=i < n)\n"
    "    c = tl.extra.mtia.dot(tl.extra.mtia.wait(ta), tl.extra.mtia.wait(tb))\n"
    "    tl.store(c_ptr + r[:, None] * 16 + r[None, :], c)\n"
    "    tl.extra.mtia.atomic_add(h_ptr + (x > 0).to(tl.int32), 1, mask=i < n, "
    "sem='relaxed')\n"
    "    tl.extra.mtia.barrier()\n";
const char *kAllSig =
    "x_ptr=*fp32,a_ptr=*fp32,b_ptr=*fp32,out_ptr=*fp32,c_ptr=*fp32,h_ptr=*i32,n=i32";

std::string write(const std::string &name, const std::string &text) {
  std::string path = ::testing::TempDir() + "/" + name;
  std::ofstream(path) << text;
  return path;
}

CompileOptions opts(const std::string &signature, const std::string &constexprs) {
  CompileOptions o;
  o.knobs = Knobs{};
  add_signature(o.spec, signature);
  for (size_t a = 0, b; a < constexprs.size(); a = b + 1) {  // "N=2,BLOCK=8"
    b = constexprs.find(',', a);
    if (b == std::string::npos) b = constexprs.size();
    add_constexpr(o.spec, constexprs.substr(a, b - a));
  }
  return o;
}

std::vector<LintFinding> errors(const std::string &text) {
  std::vector<LintFinding> fs;
  for (auto &f : lint_source("k.py", text))
    if (f.severity == Severity::Error) fs.push_back(f);
  return fs;
}

// A kernel whose line 9 is `tl.store(out_ptr + i, <expr>)` after x and a token t.
std::string with_line9(const std::string &expr) {
  return kHead +
         "def k(x_ptr, out_ptr, BLOCK: tl.constexpr):\n"
         "    i = tl.arange(0, BLOCK)\n"
         "    x = tl.load(x_ptr + i)\n"
         "    tl.store(out_ptr + i, " +
         expr + ")\n";
}

}  // namespace

TEST(MtiaExt, LintKnowsEveryBuiltinWithoutFalsePositives) {
  for (auto &f : errors(kAll)) ADD_FAILURE() << format_finding(f);
}

TEST(MtiaExt, LintNamesACallThatDoesNotFitItsSignatureWithItsLine) {
  struct Case {
    std::string call, want;
  } cases[] = {
      {"tl.extra.mtia.wait(x, x)",
       "tl.extra.mtia.wait() takes 1 positional argument but 2 were given (wait(token))"},
      {"tl.extra.mtia.async_copy(x_ptr + i, msk=i < 4)",
       "tl.extra.mtia.async_copy() got an unexpected keyword argument 'msk' "
       "(async_copy(pointer, mask=None, other=None))"},
      {"tl.extra.mtia.sfu('exp')",
       "tl.extra.mtia.sfu() missing 1 required positional argument: 'x' (sfu(op, x))"},
      {"tl.extra.mtia.dot(x, x, x, x)", "tl.extra.mtia.dot() takes 3 positional arguments"},
  };
  for (const Case &c : cases) {
    auto fs = errors(with_line9(c.call));
    ASSERT_EQ(fs.size(), 1u) << c.call;
    EXPECT_EQ(fs[0].rule, "OPF015");
    EXPECT_NE(fs[0].message.find(c.want), std::string::npos) << fs[0].message;
    EXPECT_EQ(fs[0].loc.line, 9) << c.call;
  }
  // barrier() takes nothing
  auto fs = errors(kHead + "def k(x_ptr):\n    tl.extra.mtia.barrier(1)\n");
  ASSERT_EQ(fs.size(), 1u);
  EXPECT_EQ(fs[0].message,
            "tl.extra.mtia.barrier() takes 0 positional arguments but 1 was given (barrier())");
  EXPECT_EQ(fs[0].loc.line, 7);
}

TEST(MtiaExt, SemaTypesTheBuiltinsAndTheIrRoundTrips) {
  std::string path = write("mtia_all.py", kAll);
  CompileState s = compile_file(path, opts(kAllSig, "BLOCK=64"), "opt");
  std::string text = ttir::print(*s.opt);
  for (const char *want : {"mtia.async_copy %", ": i64", "mtia.wait %", ": tensor<64xf32>",
                           ": tensor<16x16xf32>", "math.exp", "{sfu = true}", "math.rsqrt",
                           "tt.dot", "tt.atomic_rmw", "gpu.barrier {scope = \"pe\"}"})
    EXPECT_NE(text.find(want), std::string::npos) << want << " in\n" << text;
  auto back = ttir::parse_module(text);
  ttir::verify(*back);
  EXPECT_EQ(ttir::print(*back), text);
}

TEST(MtiaExt, MisuseIsACompileErrorAtTheCallsLine) {
  struct Case {
    std::string call, want, x = "fp32";
  } cases[] = {
      {"tl.extra.mtia.wait(x)",
       "tl.extra.mtia.wait() expects a token returned by tl.extra.mtia.async_copy, got <[8], "
       "fp32>"},
      {"tl.extra.mtia.wait(tl.extra.mtia.async_copy(x_ptr + i) + 1)",
       "expects a token returned by tl.extra.mtia.async_copy, got int64"},
      {"tl.extra.mtia.wait(tl.extra.mtia.async_copy(x_ptr))",
       "tl.extra.mtia.async_copy() copies a block of pointers into local memory; got "
       "pointer<fp32>"},
      {"tl.extra.mtia.wait(tl.extra.mtia.async_copy(x))",
       "copies a block of pointers into local memory; got <[8], fp32>"},
      {"tl.extra.mtia.wait(tl.extra.mtia.async_copy(x_ptr + i)).to(tl.float32)",
       "tl.extra.mtia.async_copy() copies 8/16/32/64-bit integer or float32 elements; got fp16",
       "fp16"},
      {"tl.extra.mtia.sfu('gelu', x)",
       "tl.extra.mtia.sfu(): op must be a constant string, one of exp, log, tanh, erf, sin, cos, "
       "rsqrt; got 'gelu'"},
      {"tl.extra.mtia.sfu('exp', x.to(tl.float16))", "takes a float32 block"},
      {"tl.extra.mtia.dot(x, x)", "Both inputs must be 2D tensors"},
      {"tl.extra.mtia.dot(x[:, None].to(tl.int32) * tl.zeros([8, 16], tl.int32), "
       "tl.zeros([16, 16], tl.int32))",
       "runs on the DPE, which takes bf16, fp16, fp32 or int8 operands"},
      {"tl.extra.mtia.atomic_add(x_ptr + i, x, sem='seq_cst')",
       "tl.extra.mtia.atomic_add(): sem must be 'relaxed', 'acquire', 'release' or 'acq_rel'"},
  };
  int n = 0;
  for (const Case &c : cases) {
    std::string path = write("mtia_bad" + std::to_string(n++) + ".py", with_line9(c.call));
    try {
      compile_file(path, opts("x_ptr=*" + c.x + ",out_ptr=*fp32", "BLOCK=8"), "ttir");
      ADD_FAILURE() << c.call << " compiled";
    } catch (const Error &e) {
      std::string what = e.what();
      EXPECT_NE(what.find(c.want), std::string::npos) << c.call << ": " << what;
      EXPECT_NE(what.find(".py:9:"), std::string::npos) << what;
    }
  }
}

TEST(MtiaExt, TheVerifierChecksTheAsyncOps) {
  const char *bad[] = {
      "tt.func @k(%t: i32) {\n  %0 = mtia.wait %t : tensor<4xf32>\n  tt.return\n}\n",
      "tt.func @k(%p: tensor<4x!tt.ptr<f32>>) {\n  %0 = mtia.async_copy %p : i32\n  tt.return\n}\n",
      "tt.func @k(%p: !tt.ptr<f32>) {\n  %0 = mtia.async_copy %p : i64\n  tt.return\n}\n",
  };
  for (const char *text : bad) {
    try {
      ttir::verify(*ttir::parse_module(text));  // (parse_module verifies too)
      ADD_FAILURE() << "verified:\n" << text;
    } catch (const Error &e) {
      EXPECT_NE(std::string(e.what()).find("'mtia."), std::string::npos) << e.what();
    }
  }
}

// The interpreter runs every built-in; sfu values are the SFU's (sfu::evaluate).
TEST(MtiaExt, TheInterpreterRunsEveryBuiltin) {
  std::string path = write("mtia_all_interp.py", kAll);
  CompileState s = compile_file(path, opts(kAllSig, "BLOCK=64"), "opt");
  HostTensor x(DType::Float32, {64}), a(DType::Float32, {16, 16}), b(DType::Float32, {16, 16});
  for (int i = 0; i < 64; ++i) x.set_double(i, -2.0 + 0.0625 * i);
  for (int i = 0; i < 256; ++i) a.set_double(i, i % 3), b.set_double(i, (i % 4) - 1);
  HostTensor out(DType::Float32, {64}), c(DType::Float32, {16, 16}), h(DType::Int32, {2});
  ttir::InterpMemory mem;
  std::vector<ttir::KernelArg> args;
  for (HostTensor *t : {&x, &a, &b, &out, &c, &h})
    args.push_back(ttir::KernelArg::pointer(mem.address_of(*t)));
  args.push_back(ttir::KernelArg::integer(50));
  ttir::Interpreter in(mem);
  in.run(*s.opt, s.kernel, args, {});
  for (int i = 0; i < 50; ++i) {
    float xi = static_cast<float>(x.get_double(i));
    float want = isa::sfu::evaluate(isa::SfuFunc::Exp, xi, 0) *
                 isa::sfu::evaluate(isa::SfuFunc::Rsqrt, xi, 0);
    if (std::isnan(want))
      EXPECT_TRUE(std::isnan(out.get_double(i))) << i;
    else
      EXPECT_EQ(out.get_double(i), want) << i;
  }
  for (int i = 50; i < 64; ++i) EXPECT_EQ(out.get_double(i), 0.0) << "masked off " << i;
  double c23 = 0;
  for (int k = 0; k < 16; ++k) c23 += a.get_double(2 * 16 + k) * b.get_double(k * 16 + 3);
  EXPECT_EQ(c.get_double(2 * 16 + 3), c23);
  // x > 0 for i >= 33 (x = -2 + i/16): 17 of the 50 active elements
  EXPECT_EQ(h.get_int(1), 17);
  EXPECT_EQ(h.get_int(0), 33);
}

// Each call site has two local buffers: a token stays valid until its site
// issued two more copies; waiting on an older one is an error naming the site.
TEST(MtiaExt, TheInterpreterRejectsATokenWhoseBufferWasReused) {
  const std::string text = kHead +
                           "def k(x_ptr, out_ptr, N: tl.constexpr, BLOCK: tl.constexpr):\n"
                           "    i = tl.arange(0, BLOCK)\n"
                           "    keep = tl.extra.mtia.async_copy(x_ptr + i)\n"
                           "    for j in range(N):\n"
                           "        t = tl.extra.mtia.async_copy(x_ptr + j * BLOCK + i)\n"
                           "        if j == 0:\n"
                           "            keep = t\n"
                           "    tl.store(out_ptr + i, tl.extra.mtia.wait(keep))\n";
  std::string path = write("mtia_reuse.py", text);
  for (int n : {2, 3}) {
    CompileState s = compile_file(
        path, opts("x_ptr=*fp32,out_ptr=*fp32", "N=" + std::to_string(n) + ",BLOCK=8"), "opt");
    HostTensor x(DType::Float32, {32}), out(DType::Float32, {8});
    for (int i = 0; i < 32; ++i) x.set_double(i, i + 1);
    ttir::InterpMemory mem;
    std::vector<ttir::KernelArg> args = {ttir::KernelArg::pointer(mem.address_of(x)),
                                         ttir::KernelArg::pointer(mem.address_of(out))};
    ttir::Interpreter in(mem);
    if (n == 2) {
      in.run(*s.opt, s.kernel, args, {});
      for (int i = 0; i < 8; ++i) EXPECT_EQ(out.get_double(i), i + 1) << i;
      continue;
    }
    try {
      in.run(*s.opt, s.kernel, args, {});
      ADD_FAILURE() << "ran";
    } catch (const Error &e) {
      EXPECT_NE(std::string(e.what()).find("the token's local buffer was reused: the async_copy "
                                           "at line 10 issued 2 more copies after it"),
                std::string::npos)
          << e.what();
    }
  }
}

}  // namespace opforge::compiler::testing
