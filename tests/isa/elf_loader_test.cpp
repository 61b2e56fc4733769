//===- elf_loader_test.cpp - ELF64 loader accepts RISC-V executables, rejects the rest ===//
#include <gtest/gtest.h>

#include <cstring>
#include <fstream>
#include <iterator>

#include "iss_test_util.h"
#include "opforge/isa/elf_loader.h"
#include "opforge/isa/flat_memory.h"
#include "opforge/support/error.h"

using namespace opforge::isa;
using opforge::isa::testing::baremetal_elf;
using opforge::isa::testing::TempDir;

namespace {
std::vector<uint8_t> slurp(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}
// The error message parse_elf gives for these bytes ("" if it accepts them).
std::string error_for(const std::vector<uint8_t> &bytes) {
  try {
    parse_elf(bytes, "prog.elf");
  } catch (const opforge::Error &e) {
    return e.what();
  }
  return "";
}
}  // namespace

TEST(ElfLoader, LoadsSegmentsAndFindsTohost) {
  ElfImage img = read_elf(baremetal_elf("int_test"));
  EXPECT_EQ(img.entry, 0x80000000u);
  ASSERT_TRUE(img.tohost.has_value());
  ASSERT_TRUE(img.fromhost.has_value());
  EXPECT_GT(*img.fromhost, *img.tohost);
  FlatMemory mem(0x80000000, 1 << 20);
  load_elf(img, mem);
  uint32_t first = 0;
  ASSERT_TRUE(mem.load(0x80000000, &first, 4));
  EXPECT_EQ(first & 0x7f, 0x17u);  // crt0 starts with auipc (la sp, ...)
}

TEST(ElfLoader, RejectsTruncatedFileNamingIt) {
  auto bytes = slurp(baremetal_elf("int_test"));
  bytes.resize(40);
  const std::string msg = error_for(bytes);
  EXPECT_NE(msg.find("prog.elf"), std::string::npos) << msg;
  EXPECT_NE(msg.find("truncated"), std::string::npos) << msg;
}

TEST(ElfLoader, RejectsTruncatedSegmentData) {
  auto bytes = slurp(baremetal_elf("int_test"));
  bytes.resize(bytes.size() / 3);
  const std::string msg = error_for(bytes);
  EXPECT_NE(msg.find("beyond the end of the file"), std::string::npos) << msg;
}

TEST(ElfLoader, RejectsWrongMachine) {
  auto bytes = slurp(baremetal_elf("int_test"));
  bytes[18] = 62;  // EM_X86_64
  bytes[19] = 0;
  const std::string msg = error_for(bytes);
  EXPECT_NE(msg.find("not RISC-V"), std::string::npos) << msg;
  EXPECT_NE(msg.find("62"), std::string::npos) << msg;
}

TEST(ElfLoader, RejectsHostExecutable) {
  const std::string msg = error_for(slurp("/bin/sh"));
  EXPECT_FALSE(msg.empty());
  EXPECT_NE(msg.find("not a loadable ELF"), std::string::npos) << msg;
}

TEST(ElfLoader, RejectsGarbageAndEmptyFiles) {
  std::vector<uint8_t> garbage(4096);
  for (size_t k = 0; k < garbage.size(); ++k) garbage[k] = static_cast<uint8_t>(k * 131 + 7);
  EXPECT_NE(error_for(garbage).find("bad magic"), std::string::npos);
  EXPECT_NE(error_for({}).find("too short"), std::string::npos);
}

TEST(ElfLoader, RejectsElf32AndBigEndian) {
  auto bytes = slurp(baremetal_elf("int_test"));
  auto b32 = bytes;
  b32[4] = 1;
  EXPECT_NE(error_for(b32).find("ELFCLASS32"), std::string::npos);
  auto be = bytes;
  be[5] = 2;
  EXPECT_NE(error_for(be).find("little endian"), std::string::npos);
}

TEST(ElfLoader, RejectsSegmentWithFileSizeAboveMemSize) {
  auto bytes = slurp(baremetal_elf("int_test"));
  uint64_t phoff;
  std::memcpy(&phoff, bytes.data() + 32, 8);
  // Find the first PT_LOAD and shrink p_memsz below p_filesz.
  for (int k = 0; k < 8; ++k) {
    uint8_t *ph = bytes.data() + phoff + 56 * k;
    uint32_t type;
    std::memcpy(&type, ph, 4);
    if (type != 1) continue;
    uint64_t filesz;
    std::memcpy(&filesz, ph + 32, 8);
    const uint64_t memsz = filesz - 1;
    std::memcpy(ph + 40, &memsz, 8);
    break;
  }
  EXPECT_NE(error_for(bytes).find("exceeds p_memsz"), std::string::npos) << error_for(bytes);
}

TEST(ElfLoader, MissingFileIsAClearError) {
  try {
    read_elf("/nonexistent/prog.elf");
    FAIL() << "no error";
  } catch (const opforge::Error &e) {
    EXPECT_NE(std::string(e.what()).find("/nonexistent/prog.elf"), std::string::npos);
  }
}

TEST(ElfLoader, SegmentOutsideMemoryIsAnError) {
  ElfImage img = read_elf(baremetal_elf("int_test"));
  FlatMemory small(0x10000, 4096);
  EXPECT_THROW(load_elf(img, small), opforge::Error);
}

// The range in the error is hexadecimal where it says 0x (it printed the decimal digits of
// the base after "0x": "base 0x2147487744").
TEST(FlatMemory, ABadRangeIsAnErrorWithAHexadecimalBase) {
  try {
    FlatMemory wraps(0xffffffffffff0000ull, 0x20000);
    FAIL() << "no error";
  } catch (const opforge::Error &e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("base 0xffffffffffff0000"), std::string::npos) << msg;
    EXPECT_NE(msg.find("size 131072 bytes"), std::string::npos) << msg;
  }
}
