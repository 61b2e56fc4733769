//===- pass_files_test.cpp - IR-in / IR-out tests for every ttir pass -------===//
//
// tests/compiler/passes/<pass>.ttir holds cases separated by "// -----"; each
// case is input ttir, a line "// EXPECT:", then the exact printed output after
// running pass <pass> once.
//
//===----------------------------------------------------------------------===//
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "opforge/compiler/ir_parser.h"
#include "opforge/compiler/ir_printer.h"
#include "opforge/compiler/passes.h"

using namespace opforge;
using namespace opforge::ttir;

namespace {

std::string trim(std::string s) {
  while (!s.empty() && (s.back() == '\n' || s.back() == ' ')) s.pop_back();
  size_t b = 0;
  while (b < s.size() && (s[b] == '\n' || s[b] == ' ')) ++b;
  return s.substr(b) + "\n";
}

struct Case {
  std::string input, expect;
  int line = 0;
};

std::vector<Case> read_cases(const std::string &path) {
  std::ifstream in(path);
  std::string line;
  std::vector<Case> cases(1);
  bool in_expect = false;
  int n = 0;
  cases.back().line = 1;
  while (std::getline(in, line)) {
    ++n;
    if (line == "// -----") {
      cases.emplace_back();
      cases.back().line = n + 1;
      in_expect = false;
      continue;
    }
    if (line == "// EXPECT:") {
      in_expect = true;
      continue;
    }
    if (line.rfind("//", 0) == 0) continue;
    (in_expect ? cases.back().expect : cases.back().input) += line + "\n";
  }
  return cases;
}

class PassFile : public ::testing::TestWithParam<std::string> {};

TEST_P(PassFile, EachCaseProducesTheExpectedIR) {
  std::string pass_name = GetParam();
  const Pass *pass = find_pass(pass_name);
  ASSERT_NE(pass, nullptr) << "no pass named " << pass_name;
  std::string path =
      std::string(OPFORGE_SOURCE_DIR) + "/tests/compiler/passes/" + pass_name + ".ttir";
  ASSERT_TRUE(std::filesystem::exists(path)) << path;
  auto cases = read_cases(path);
  ASSERT_GE(cases.size(), 3u) << "each pass needs several cases";
  for (auto &c : cases) {
    SCOPED_TRACE(path + ":" + std::to_string(c.line));
    ASSERT_FALSE(c.expect.empty()) << "case without // EXPECT:";
    auto m = parse_module(c.input, path);
    pass->run(*m);
    verify(*m);
    EXPECT_EQ(trim(print(*m)), trim(c.expect));
  }
}

INSTANTIATE_TEST_SUITE_P(Passes, PassFile,
                         ::testing::Values("inline", "canonicalize", "constant-fold", "cse", "licm",
                                           "dce"),
                         [](const auto &info) {
                           std::string n = info.param;
                           for (auto &ch : n)
                             if (ch == '-') ch = '_';
                           return n;
                         });

TEST(PassRegistry, EveryPassHasASummaryAndADescription) {
  for (auto &p : pass_registry()) {
    EXPECT_FALSE(p.summary.empty()) << p.name;
    EXPECT_GT(p.description.size(), 40u) << p.name;
    EXPECT_TRUE(std::filesystem::exists(std::string(OPFORGE_SOURCE_DIR) +
                                        "/tests/compiler/passes/" + p.name + ".ttir"))
        << "pass " << p.name << " has no IR-in/IR-out test file";
  }
}

}  // namespace
