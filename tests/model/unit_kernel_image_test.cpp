//===- unit_kernel_image_test.cpp - ELF reading of GNU ld output and bad files ===//
#include <gtest/gtest.h>

#include <fstream>
#include <iterator>

#include "opforge/model/kernel_image.h"
#include "opforge/support/error.h"

namespace opforge::model {
namespace {

TEST(KernelImage, ReadsSegmentsEntryAndTohostFromGnuLdOutput) {
  std::string dir = ::testing::TempDir();
  std::string s = dir + "ki.S", o = dir + "ki.o", e = dir + "ki.elf";
  std::ofstream(s)
      << ".globl _start\n_start:\n  j _start\n.data\n.globl tohost\n.align 3\ntohost: .dword 0\n";
  std::string cmd = "riscv64-unknown-elf-as -o " + o + " " + s +
                    " && riscv64-unknown-elf-ld -N -Ttext=0x80000000 -o " + e + " " + o;
  ASSERT_EQ(std::system(cmd.c_str()), 0) << cmd;
  KernelImage k = read_elf_file(e);
  EXPECT_EQ(k.entry, 0x80000000u);
  ASSERT_FALSE(k.segments.empty());
  EXPECT_EQ(k.segments[0].addr, 0x80000000u);
  ASSERT_TRUE(k.tohost.has_value());
  EXPECT_GT(*k.tohost, 0x80000000u);
  EXPECT_EQ(*k.tohost % 8, 0u);
}

TEST(KernelImage, MalformedFilesAreErrorsNamingTheField) {
  auto expect = [](std::vector<uint8_t> b, const std::string &field) {
    try {
      read_elf(b, "bad.elf");
      ADD_FAILURE() << "accepted";
    } catch (const Error &e) {
      EXPECT_EQ(e.context().file, "bad.elf");
      EXPECT_EQ(e.context().path, field) << e.what();
    }
  };
  expect({1, 2, 3}, "e_ident");
  std::vector<uint8_t> h(64, 0);
  h[0] = 0x7f;
  h[1] = 'E';
  h[2] = 'L';
  h[3] = 'F';
  h[4] = 1;
  expect(h, "e_ident[EI_CLASS]");
  h[4] = 2;
  h[5] = 1;
  h[18] = 62;  // x86-64
  expect(h, "e_machine");
  h[18] = 243;
  h[16] = 2;
  h[56] = 1;
  h[54] = 56;
  h[32] = 64;  // one program header past the end
  expect(h, "p_type");
}

}  // namespace
}  // namespace opforge::model
