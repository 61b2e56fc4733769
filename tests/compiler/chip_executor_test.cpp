//===- chip_executor_test.cpp - wrappers run on the chip through ChipExecutor ===//
#include <gtest/gtest.h>
#include <malloc.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <regex>
#include <set>
#include <sstream>

#include "diff_harness.h"
#include "opforge/compiler/chip_executor.h"
#include "opforge/compiler/interp_executor.h"
#include "opforge/compiler/parser.h"
#include "opforge/compiler/wrapper.h"
#include "opforge/isa/disasm.h"
#include "opforge/support/error.h"

namespace opforge::compiler::testing {
namespace {

// A contiguous copy of `t` in a new buffer of `ex`.
TensorHandle upload(Executor &ex, const HostTensor &t) {
  TensorHandle h;
  h.buffer = ex.allocate(t.numel() * t.element_size());
  h.dtype = t.dtype();
  h.sizes = t.sizes();
  h.strides = HostTensor::contiguous_strides(t.sizes());
  ex.copy_in(h, t);
  return h;
}

// Runs add_Tensor(x, y, alpha=2) of vector_add.py on `ex`; returns the output.
HostTensor run_add(Executor &ex, const ast::Module &m, const HostTensor &x, const HostTensor &y) {
  WrapperInterpreter wi(m, ex);
  auto r = wi.run("add_Tensor", {WrapperValue::of(upload(ex, x)), WrapperValue::of(upload(ex, y))},
                  {{"alpha", WrapperValue::integer(2)}});
  return ex.copy_out(r.value.tensor);
}

TEST(ChipExecutor, AddTensorWrapperOnTheChipEqualsTheInterpreterExecutor) {
  ast::Module m = parse_file(kernel_path("vector_add.py"));
  HostTensor x = random_tensor(DType::Float32, {33, 70}, 11),
             y = random_tensor(DType::Float32, {33, 70}, 12);
  ChipExecutor chip(device());
  InterpExecutor interp(Knobs{});
  HostTensor got = run_add(chip, m, x, y), want = run_add(interp, m, x, y);
  EXPECT_TRUE(got.equals(want)) << got.to_string(8) << "\nvs\n" << want.to_string(8);
  ASSERT_EQ(chip.launches().size(), 1u);
  EXPECT_GT(chip.launches()[0].cycles, 0u);
  // Same specialisation again: the binary comes from the cache.
  run_add(chip, m, x, y);
  EXPECT_EQ(chip.binaries_compiled(), 1u);
  EXPECT_EQ(chip.cache_hits(), 1u);
}

// A validation run launches thousands of kernels on one executor: without
// keep_launches the executor keeps the count, not each launch's record (~20 KB).
TEST(ChipExecutor, WithoutKeepLaunchesThousandsOfLaunchesKeepTheHeapFlat) {
  ast::Module m = parse_file(kernel_path("vector_add.py"));
  HostTensor x = random_tensor(DType::Float32, {8, 16}, 11),
             y = random_tensor(DType::Float32, {8, 16}, 12);
  auto heap_per_launch = [&](bool keep) {
    ChipExecutor chip(device());
    chip.keep_launches(keep);
    WrapperInterpreter wi(m, chip);
    auto add = [&] {  // one launch; every buffer freed again
      TensorHandle hx = upload(chip, x), hy = upload(chip, y);
      auto r = wi.run("add_Tensor", {WrapperValue::of(hx), WrapperValue::of(hy)},
                      {{"alpha", WrapperValue::integer(2)}});
      chip.free(r.value.tensor.buffer);
      chip.free(hx.buffer);
      chip.free(hy.buffer);
    };
    for (int i = 0; i < 50; ++i) add();  // warm: binary cache, pools
    const size_t before = mallinfo2().uordblks;
    constexpr int kLaunches = 500;
    for (int i = 0; i < kLaunches; ++i) add();
    EXPECT_EQ(chip.launch_count(), 50u + kLaunches);
    EXPECT_EQ(chip.launches().size(), keep ? 50u + kLaunches : 0u);
    return (double(mallinfo2().uordblks) - double(before)) / kLaunches;
  };
  const double kept = heap_per_launch(true), dropped = heap_per_launch(false);
  std::cout << "heap kept per launch: " << kept << " bytes with launch records, " << dropped
            << " without\n";
  EXPECT_GT(kept, 1000.0);
  EXPECT_LT(dropped, 256.0);
}

TEST(ChipExecutor, NonContiguousViewsRoundTrip) {
  ChipExecutor chip(device());
  HostTensor t = random_tensor(DType::Float32, {4, 6}, 13);
  TensorHandle h;
  h.buffer = chip.allocate(24 * 4);
  h.dtype = DType::Float32;
  h.sizes = {4, 6};
  h.strides = {6, 1};
  chip.copy_in(h, t);
  TensorHandle tr = h;  // the transpose view
  tr.sizes = {6, 4};
  tr.strides = {1, 6};
  HostTensor back = chip.copy_out(tr);
  for (int64_t i = 0; i < 6; ++i)
    for (int64_t j = 0; j < 4; ++j) EXPECT_EQ(back.get_double(i * 4 + j), t.get_double(j * 6 + i));
}

TEST(ChipExecutor, AGuestFaultNamesKernelProgramPcAndInstruction) {
  ast::Module m = parse_file(kernel_path("layer_norm.py"));
  ChipExecutor chip(device());
  auto tensor = [&](const char *name, int64_t n) {
    LaunchArg a;
    a.name = name;
    a.kind = LaunchArg::Kind::Tensor;
    a.tensor.buffer = chip.allocate(n * 4);
    a.tensor.sizes = {n};
    a.tensor.strides = {1};
    return a;
  };
  auto integer = [](const char *name, int64_t v) {
    LaunchArg a;
    a.name = name;
    a.kind = LaunchArg::Kind::Int;
    a.int_value = v;
    return a;
  };
  LaunchRequest r;
  r.kernel = "_layer_norm_fwd_fused";
  r.module = &m;
  for (auto *f : m.jit_functions())
    if (f->name == r.kernel) r.function = f;
  ASSERT_NE(r.function, nullptr);
  LaunchArg eps;
  eps.name = "eps";
  eps.kind = LaunchArg::Kind::Float;
  eps.float_value = 1e-5;
  LaunchArg block = integer("BLOCK_SIZE", 64);
  block.is_constexpr = true;
  // Row 1 starts 2 GiB past X: beyond the tiny chip's 1 GiB of DRAM.
  r.args = {tensor("X", 64),
            tensor("Y", 64),
            tensor("W", 64),
            tensor("B", 64),
            tensor("Mean", 2),
            tensor("Rstd", 2),
            integer("stride", int64_t(1) << 29),
            integer("N", 64),
            eps,
            block};
  r.grid.x = 2;
  try {
    chip.launch(r);
    FAIL() << "expected a trap";
  } catch (const Error &e) {
    std::string msg = e.what();
    EXPECT_NE(msg.find("kernel _layer_norm_fwd_fused program (1, 0, 0)"), std::string::npos) << msg;
    EXPECT_NE(msg.find("pc=0x8"), std::string::npos) << msg;
    // The row's load is a DMA transfer (affine pointer block) since codegen moved to DMA.
    EXPECT_TRUE(msg.find("(xmtia.dma") != std::string::npos ||
                msg.find("(vle32.v") != std::string::npos)
        << "disassembled faulting load: " << msg;
    // The kernel's source line (its def), and the PC as context for callers.
    EXPECT_NE(msg.find("layer_norm.py:"), std::string::npos) << msg;
    ASSERT_TRUE(e.context().pc.has_value());
    EXPECT_GE(*e.context().pc, 0x80000000u);
    EXPECT_GT(e.context().line.value_or(0), 0);
  }
}

// exp(x) into out, then 7.0 at out_ptr + STORE_SHIFT + offs; x is read at
// x_ptr + LOAD_SHIFT + offs. Allocations are 64-byte aligned, so with x, out
// and b of 16 bytes in that order, out + 16 floats and x + 32 floats are b's
// first element: outside the launch's buffers (x and out).
const char *kStrayKernel = R"PY(import triton
import triton.language as tl


@triton.jit
def exp_stray_kernel(x_ptr, out_ptr, n_elements, STORE_SHIFT: tl.constexpr,
                     LOAD_SHIFT: tl.constexpr, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(axis=0)
    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + LOAD_SHIFT + offsets, mask=mask)
    tl.store(out_ptr + offsets, tl.exp(x), mask=mask)
    tl.store(out_ptr + STORE_SHIFT + offsets, x * 0.0 + 7.0, mask=mask)
)PY";

// "stray.py:N:" for the line of kStrayKernel that holds `statement`.
std::string stray_line(const std::string &statement) {
  std::string text = kStrayKernel;
  size_t at = text.find(statement);
  EXPECT_NE(at, std::string::npos) << statement;
  return "stray.py:" + std::to_string(1 + std::count(text.begin(), text.begin() + at, '\n')) + ":";
}

struct StrayRun {
  std::string error;  // empty: the launch returned
  HostTensor b;       // the tensor allocated after out
};

// x, out and b of 4 floats each, allocated in that order; launches the
// stray kernel over 4 elements.
StrayRun run_stray(int64_t store_shift, int64_t load_shift) {
  ast::Module m = parse_source("stray.py", kStrayKernel);
  ChipExecutor chip(device());
  auto tensor = [&](const char *name, const HostTensor &t) {
    LaunchArg a;
    a.name = name;
    a.kind = LaunchArg::Kind::Tensor;
    a.tensor.buffer = chip.allocate(4 * 4);
    a.tensor.dtype = DType::Float32;
    a.tensor.sizes = {4};
    a.tensor.strides = {1};
    chip.copy_in(a.tensor, t);
    return a;
  };
  auto integer = [](const char *name, int64_t v, bool constexpr_) {
    LaunchArg a;
    a.name = name;
    a.kind = LaunchArg::Kind::Int;
    a.int_value = v;
    a.is_constexpr = constexpr_;
    return a;
  };
  HostTensor zeros(DType::Float32, {4});
  LaunchArg x = tensor("x_ptr", random_tensor(DType::Float32, {4}, 5));
  LaunchArg out = tensor("out_ptr", zeros);
  LaunchArg b = tensor("b", zeros);
  LaunchRequest r;
  r.kernel = "exp_stray_kernel";
  r.module = &m;
  for (auto *f : m.jit_functions())
    if (f->name == r.kernel) r.function = f;
  r.args = {x,
            out,
            integer("n_elements", 4, false),
            integer("STORE_SHIFT", store_shift, true),
            integer("LOAD_SHIFT", load_shift, true),
            integer("BLOCK_SIZE", 4, true)};
  StrayRun run;
  try {
    chip.launch(r);
  } catch (const Error &e) {
    run.error = e.what();
    if (e.context().line) run.error += " [line " + std::to_string(*e.context().line) + "]";
  }
  run.b = chip.copy_out(b.tensor);
  for (auto *a : {&x, &out, &b}) chip.free(a->tensor.buffer);
  return run;
}

// The interpreter reports a store past `out` ("out-of-bounds store at element
// 0 ..."); on the chip the same store used to land in the next tensor with
// no error.
TEST(ChipExecutor, AStoreOutsideTheLaunchsBuffersIsAnErrorNamingTheBufferItMissed) {
  StrayRun in_bounds = run_stray(0, 0);
  EXPECT_EQ(in_bounds.error, "");
  StrayRun run = run_stray(16, 0);
  for (int64_t i = 0; i < 4; ++i)
    EXPECT_EQ(run.b.get_double(i), 0.0) << "b[" << i << "] was overwritten by the stray store";
  ASSERT_NE(run.error, "") << "the stray store was not reported";
  EXPECT_NE(run.error.find("kernel exp_stray_kernel program (0, 0, 0)"), std::string::npos)
      << run.error;
  EXPECT_NE(run.error.find("out-of-bounds store"), std::string::npos) << run.error;
  EXPECT_NE(run.error.find("pc=0x8"), std::string::npos) << run.error;
  EXPECT_TRUE(std::regex_search(run.error, std::regex("at 0x[0-9a-f]+")))
      << "the address: " << run.error;
  EXPECT_NE(run.error.find("past the end of out_ptr"), std::string::npos)
      << "the buffer it missed: " << run.error;
  // The line of the stray tl.store, not the kernel's def line.
  EXPECT_EQ(run.error.rfind(stray_line("tl.store(out_ptr + STORE_SHIFT"), 0), 0u) << run.error;
}

TEST(ChipExecutor, ALoadOutsideTheLaunchsBuffersIsAnErrorNamingTheBufferItMissed) {
  StrayRun run = run_stray(0, 32);
  ASSERT_NE(run.error, "") << "the stray load was not reported";
  EXPECT_NE(run.error.find("kernel exp_stray_kernel program (0, 0, 0)"), std::string::npos)
      << run.error;
  EXPECT_NE(run.error.find("out-of-bounds load"), std::string::npos) << run.error;
  // The nearest buffer below the address is out (x + 32 floats is out + 16).
  EXPECT_NE(run.error.find("past the end of out_ptr"), std::string::npos) << run.error;
  EXPECT_EQ(run.error.rfind(stray_line("x = tl.load(x_ptr + LOAD_SHIFT"), 0), 0u) << run.error;
}

// Checking is functional: a checked launch takes the cycles, instructions
// and counters of an unchecked one (DMA rows, DPE tiles).
TEST(ChipExecutor, BoundsCheckingChargesNoCycles) {
  DiffCase add;
  add.file = "vector_add.py";
  add.signature = "x_ptr=*fp32,y_ptr=*fp32,output_ptr=*fp32,n_elements=i32,alpha=fp32";
  add.constexprs = {"BLOCK_SIZE=256"};
  add.args = {KArg::tensor(random_tensor(DType::Float32, {1000}, 1)),
              KArg::tensor(random_tensor(DType::Float32, {1000}, 2)),
              KArg::tensor(HostTensor(DType::Float32, {1000})), KArg::integer(1000),
              KArg::floating(2.5)};
  add.grid.x = 4;
  DiffCase mm;
  mm.file = "matmul.py";
  mm.signature = matmul_signature(DType::BFloat16, DType::Float32);
  mm.constexprs = {"BLOCK_SIZE_M=32", "BLOCK_SIZE_N=32", "BLOCK_SIZE_K=32", "GROUP_SIZE_M=2"};
  mm.args = matmul_args(DType::BFloat16, DType::Float32, 64, 48, 80, 31);
  mm.grid.x = 4;
  // A launch's cycles depend a little on where in the DRAM channels' and the
  // quantum's history it starts (a few cycles either way from run to run),
  // so the fastest of alternating runs is compared, each kind run as often
  // after the other kind as before it.
  for (const DiffCase &c : {add, mm}) {
    run_chip(device(), c, false);  // warm: caches as the runs below find them
    uint64_t plain = UINT64_MAX, checked = UINT64_MAX;
    for (int i = 0; i < 4; ++i) {
      ChipRun p, k;
      if (i % 2) {
        k = run_chip(device(), c, true);
        p = run_chip(device(), c, false);
      } else {
        p = run_chip(device(), c, false);
        k = run_chip(device(), c, true);
      }
      ASSERT_TRUE(k.launch.ok()) << c.file << ": " << k.launch.traps.front();
      EXPECT_EQ(k.launch.instructions, p.launch.instructions) << c.file;
      EXPECT_EQ(counter_sum(k.launch, "dma.bytes_read"), counter_sum(p.launch, "dma.bytes_read"));
      plain = std::min(plain, p.launch.cycles);
      checked = std::min(checked, k.launch.cycles);
    }
    EXPECT_EQ(checked, plain) << c.file;
  }
}

// GNU as assembles `opforge compile --dump asm` (the asm stage's text) to the
// same bytes our assembler and linker put in the binary's text. Words that
// carry a relocation in GNU's object (references to other sections, e.g.
// constant-pool auipc/addi pairs, and calls) hold zeros there until a linker
// resolves them, while ours are already linked at text_base: those words are
// left out of the comparison. -mno-relax keeps GNU as from leaving branches
// to the linker (our linker does not relax). Kernels using the SFU are not in
// the list: their `.insn r` lines name vector registers, which GNU as 2.40
// refuses (`illegal operands`).
TEST(ChipExecutor, GnuAsAssemblesTheAsmDumpToTheBytesOfTheBinarysText) {
  if (std::system("riscv64-unknown-elf-as --version > /dev/null 2>&1") != 0)
    GTEST_SKIP() << "riscv64-unknown-elf-as not installed";
  register_codegen_stages();
  struct Case {
    std::string file, signature;
    std::vector<std::string> constexprs;
  };
  const std::vector<Case> cases = {
      {"vector_add.py",
       "x_ptr=*fp32,y_ptr=*fp32,output_ptr=*fp32,n_elements=i32,alpha=fp32",
       {"BLOCK_SIZE=1024"}},
      {"layer_norm.py",
       "X=*fp32,Y=*fp32,W=*fp32,B=*fp32,Mean=*fp32,Rstd=*fp32,stride=i32,N=i32,eps=fp32",
       {"BLOCK_SIZE=128"}},
  };
  char tmpl[] = "/tmp/opforge-gnu-as-XXXXXX";
  ASSERT_NE(mkdtemp(tmpl), nullptr);
  const std::string dir = tmpl;
  for (const auto &c : cases) {
    SCOPED_TRACE(c.file);
    CompileOptions o;
    o.knobs = Knobs{};
    add_signature(o.spec, c.signature);
    for (auto &e : c.constexprs) add_constexpr(o.spec, e);
    CompileState s = compile_file(kernel_path(c.file), o, "bin");
    const KernelBinary &bin = *std::any_cast<std::shared_ptr<KernelBinary>>(s.extra.at("bin"));
    std::ofstream(dir + "/k.s") << dump_stage(s, "asm");
    const std::string tools = "riscv64-unknown-elf-";
    ASSERT_EQ(std::system((tools + "as -march=rv64imafdv_zicsr_zifencei -mno-relax -o " + dir +
                           "/k.o " + dir + "/k.s > " + dir + "/as.log 2>&1")
                              .c_str()),
              0)
        << std::ifstream(dir + "/as.log").rdbuf();
    ASSERT_EQ(std::system((tools + "objcopy -O binary --only-section=.text " + dir + "/k.o " + dir +
                           "/k.text")
                              .c_str()),
              0);
    ASSERT_EQ(
        std::system((tools + "objdump -r -j .text " + dir + "/k.o > " + dir + "/k.rel").c_str()),
        0);
    std::ifstream text_in(dir + "/k.text", std::ios::binary);
    std::vector<uint8_t> gnu((std::istreambuf_iterator<char>(text_in)),
                             std::istreambuf_iterator<char>());
    std::set<uint64_t> relocated;
    std::ifstream rel(dir + "/k.rel");
    std::string line;
    std::smatch m;
    while (std::getline(rel, line))
      if (std::regex_search(line, m, std::regex("^([0-9a-f]+) +R_RISCV_(CALL)?"))) {
        uint64_t at = std::stoull(m[1].str(), nullptr, 16) & ~uint64_t(3);
        relocated.insert(at);
        if (m[2].matched) relocated.insert(at + 4);  // a call's auipc + jalr pair
      }
    model::KernelImage image = model::read_elf(bin.elf, bin.kernel);
    const std::vector<uint8_t> *ours = nullptr;
    for (const auto &seg : image.segments)
      if (seg.addr == bin.text_base) ours = &seg.bytes;
    ASSERT_NE(ours, nullptr) << "no segment at the text base";
    ASSERT_GE(gnu.size(), 16u);
    ASSERT_LE(gnu.size(), ours->size());
    size_t compared = 0;
    for (size_t at = 0; at + 4 <= gnu.size(); at += 4) {
      if (relocated.count(at)) continue;
      uint32_t g, w;
      std::memcpy(&g, gnu.data() + at, 4);
      std::memcpy(&w, ours->data() + at, 4);
      EXPECT_EQ(g, w) << "text+0x" << std::hex << at << ": GNU as " << isa::disassemble(g, at)
                      << ", ours " << isa::disassemble(w, at);
      ++compared;
    }
    EXPECT_GT(compared, gnu.size() / 8) << "most words carry no relocation";
  }
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace opforge::compiler::testing
