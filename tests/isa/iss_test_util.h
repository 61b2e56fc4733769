//===- iss_test_util.h - build small RISC-V programs with GNU tools for ISS tests ===//
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

namespace opforge::isa::testing {

// A scratch directory removed at the end of the test.
class TempDir {
 public:
  TempDir() {
    char tmpl[] = "/tmp/opforge-iss-XXXXXX";
    const char *p = mkdtemp(tmpl);
    path_ = p ? p : "/tmp";
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  std::string file(const std::string &name) const { return path_ + "/" + name; }

 private:
  std::string path_;
};

inline int run_command(const std::string &cmd) {
  return std::system((cmd + " >/dev/null 2>&1").c_str());
}

// Assemble and link `source` (GNU as syntax, entry `_start`) with
// riscv64-unknown-elf-gcc into a static ELF at 0x80000000 (bare metal) or
// at the default Linux user address (user = true). Fails the test on error.
inline std::string build_program(const TempDir &dir, const std::string &name,
                                 const std::string &source, bool user = false) {
  const std::string src = dir.file(name + ".S"), elf = dir.file(name + ".elf");
  std::ofstream(src) << source;
  std::string cmd =
      "riscv64-unknown-elf-gcc -march=rv64imafdv -mabi=lp64d -nostdlib -static -mno-relax "
      "-Wl,--no-warn-rwx-segments ";
  if (!user) cmd += "-Wl,-Ttext=0x80000000 ";
  cmd += src + " -o " + elf;
  const std::string log = dir.file(name + ".log");
  const int rc = std::system((cmd + " >" + log + " 2>&1").c_str());
  if (rc != 0) {
    std::ifstream in(log);
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    ADD_FAILURE() << "assembling failed: " << cmd << "\n" << text.substr(0, 2000);
  }
  return elf;
}

inline std::string baremetal_elf(const std::string &stem) {
  return std::string(OPFORGE_BINARY_DIR) + "/tests/isa/baremetal/" + stem + ".elf";
}

}  // namespace opforge::isa::testing
