//===- run_out_of_bounds_test.cpp - `opforge run`: a kernel's stray store is an error ===//
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <regex>

#include "corpus_fixture.h"

#ifdef OPFORGE_EXE
namespace fs = std::filesystem;

namespace {

// exp with a second store 16 floats past out: 64 bytes on, where the next
// 64-byte aligned allocation (b) begins.
const char *kExpStoringPastOut = R"PY(import torch
import triton
import triton.language as tl


@triton.jit
def exp_kernel(x_ptr, out_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(axis=0)
    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask)
    tl.store(out_ptr + offsets, tl.exp(x), mask=mask)
    tl.store(out_ptr + 16 + offsets, x * 0.0 + 7.0, mask=mask)


def exp(self):
    out = torch.empty(self.shape, dtype=self.dtype, device=self.device)
    b = torch.zeros(self.shape, dtype=self.dtype, device=self.device)
    exp_kernel[(1, )](self, out, self.numel(), BLOCK_SIZE=4)
    return out, b
)PY";

TEST(RunOutOfBounds, AKernelStoringPastItsOutputFailsNamingKernelPcAddressAndBuffer) {
  if (!fs::exists(OPFORGE_EXE)) GTEST_SKIP() << "build the opforge target first: " << OPFORGE_EXE;
  std::string path = opforge::test::temp_dir() + "/exp_stray.py";
  std::ofstream(path) << kExpStoringPastOut;
  for (const char *timing : {"functional", "lt"}) {
    std::string out;
    int rc =
        opforge::test::run_command(std::string("'") + OPFORGE_EXE + "' run '" + path +
                                       "' --call 'exp(randn(4))' --arch tiny --timing " + timing,
                                   &out);
    EXPECT_EQ(rc, 1) << timing << ": " << out;
    EXPECT_NE(out.find("kernel exp_kernel program (0, 0, 0) out-of-bounds store"),
              std::string::npos)
        << timing << ": " << out;
    EXPECT_TRUE(std::regex_search(out, std::regex(R"(store of \d+ bytes at 0x[0-9a-f]+: )")))
        << "the address: " << out;
    EXPECT_NE(out.find("past the end of out_ptr [0x"), std::string::npos)
        << "the buffer it missed: " << out;
    EXPECT_NE(out.find("pc=0x"), std::string::npos) << out;
    // The line of the stray statement (the binary's line table), not the kernel's def.
    const std::string src = kExpStoringPastOut;
    const size_t at = src.find("tl.store(out_ptr + 16");
    ASSERT_NE(at, std::string::npos);
    const auto line = 1 + std::count(src.begin(), src.begin() + static_cast<long>(at), '\n');
    EXPECT_NE(out.find(path + ":" + std::to_string(line) + ": pc=0x"), std::string::npos)
        << "the stray store's source line " << line << ": " << out;
  }
}

}  // namespace
#endif
