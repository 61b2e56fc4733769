//===- corpus_damage_test.cpp - a damaged corpus file is an error, never a crash ===//
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "corpus_fixture.h"

#ifdef OPFORGE_EXE
namespace fs = std::filesystem;

namespace {

std::string slurp(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// One changed byte at each of many offsets of a real corpus: `ops list` and
// `validate` end with exit status 0, 1 or 2 (an error naming the file in one
// line), never with a signal.
TEST(CorpusDamage, OneChangedByteIsAnErrorNamingTheFileNotACrash) {
  const std::string good = opforge::test::small_corpus();
  const std::string bytes = slurp(good);
  ASSERT_GT(bytes.size(), 1000u);
  const std::string dir = opforge::test::temp_dir();
  const std::string bad = dir + "/bad.h5";
  int errors = 0;
  for (uint64_t i = 0; i < 40; ++i) {
    // Deterministic offsets: the first kilobytes (superblock, root group, heaps) and spread.
    uint64_t off = i < 8 ? i * 97 + 24 : (i * 2654435761ull) % bytes.size();
    std::string copy = bytes;
    copy[off] = static_cast<char>(copy[off] ^ static_cast<char>(0xa5 + i));
    std::ofstream(bad, std::ios::binary | std::ios::trunc) << copy;
    const std::string ctx = "byte " + std::to_string(off);
    std::vector<std::string> commands = {"ops list --corpus '" + bad + "'"};
    if (i % 4 == 0)
      commands.push_back("validate --ops aten::exp,aten::add.Tensor --max-calls 2 --corpus '" +
                         bad + "'");
    for (const auto &args : commands) {
      std::string out;
      int rc = opforge::test::run_command(
          "ulimit -v 8000000; timeout 120 '" + std::string(OPFORGE_EXE) + "' " + args, &out);
      EXPECT_TRUE(rc == 0 || rc == 1 || rc == 2)
          << ctx << ": " << args << ": exit status " << rc << "\n" << out.substr(0, 2000);
      if (rc != 0 && args.starts_with("ops")) {
        ++errors;
        EXPECT_NE(out.find(bad), std::string::npos) << ctx << ": " << out.substr(0, 2000);
        EXPECT_EQ(out.find("internal error"), std::string::npos) << ctx << ": " << out;
      }
    }
  }
  EXPECT_GT(errors, 0);
}

}  // namespace
#endif
