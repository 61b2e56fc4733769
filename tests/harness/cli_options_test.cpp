//===- cli_options_test.cpp - every `opforge` command parses through the one option parser ===//
//
// Runs the real `opforge`: for every command that `opforge --help` lists, `--help` exits 0 and
// an unknown option is a usage error (exit 2) naming the option in the shared parser's words, so
// a command that bypasses the shared parser (harness/src/cli/options.h) is caught. Then the
// parser's common behaviour, seen through a few commands: repeated options, --name=value, numbers,
// extra arguments.
//
//===----------------------------------------------------------------------===//
#include <gtest/gtest.h>

#include <filesystem>
#include <sstream>

#include "corpus_fixture.h"

#ifdef OPFORGE_EXE
namespace fs = std::filesystem;

namespace {

// `opforge ARGS` with stdout and stderr together; returns the exit status.
int opforge(const std::string &args, std::string *out) {
  return opforge::test::run_command("'" + std::string(OPFORGE_EXE) + "' " + args + " 2>&1", out);
}

// The command names `opforge --help` lists ("  NAME  summary" lines after "commands:").
std::vector<std::string> listed_commands() {
  std::string out;
  EXPECT_EQ(opforge("--help", &out), 0) << out;
  std::vector<std::string> names;
  std::istringstream in(out);
  bool in_list = false;
  for (std::string line; std::getline(in, line);) {
    if (line == "commands:") {
      in_list = true;
      continue;
    }
    if (!in_list) continue;
    if (line.empty()) break;
    std::istringstream words(line);
    std::string name;
    if (words >> name) names.push_back(name);
  }
  return names;
}

class CliOptions : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!fs::exists(OPFORGE_EXE)) GTEST_SKIP() << "build the opforge target first: " << OPFORGE_EXE;
  }
  // `opforge ARGS` must be a usage error (exit 2) of `command` whose message contains `needle`.
  void expect_usage_error(const std::string &command, const std::string &args,
                          const std::string &needle) {
    std::string out;
    EXPECT_EQ(opforge(command + " " + args, &out), 2) << command << " " << args << ":\n" << out;
    EXPECT_NE(out.find("opforge " + command + ": error: "), std::string::npos)
        << command << " " << args << ":\n"
        << out;
    EXPECT_NE(out.find(needle), std::string::npos) << command << " " << args << ":\n" << out;
  }
};

TEST_F(CliOptions, EveryCommandHasHelpAndRejectsAnUnknownOptionByName) {
  const std::vector<std::string> names = listed_commands();
  // The commands of a full build; each must be listed (a typo in the list parser would
  // otherwise make this test check nothing).
  for (const char *expected : {"version", "config", "run", "validate", "compile", "sim", "sweep"})
    EXPECT_NE(std::find(names.begin(), names.end(), expected), names.end())
        << "'" << expected << "' is not listed by opforge --help";
  for (const auto &name : names) {
    SCOPED_TRACE("opforge " + name);
    std::string out;
    EXPECT_EQ(opforge(name + " --help", &out), 0) << out;
    EXPECT_NE(out.find("usage: opforge " + name), std::string::npos) << out;
    EXPECT_EQ(opforge(name + " -h", &out), 0) << out;
    // The shared parser's wording (a hand-written loop would have its own).
    expect_usage_error(name, "--no-such-option", "unrecognised option '--no-such-option'");
    expect_usage_error(name, "--no-such-option", "usage: see 'opforge " + name + " --help'");
    // Also as --name=value, before other arguments.
    expect_usage_error(name, "--no-such-option=1 x", "unrecognised option '--no-such-option");
  }
}

TEST_F(CliOptions, ARepeatedOptionCollectsEveryValueInOrder) {
  std::string out;
  ASSERT_EQ(opforge("config show --arch tiny --set pe_grid.rows=4 --set=pe_grid.cols=3", &out), 0)
      << out;
  EXPECT_NE(out.find("\"rows\": 4"), std::string::npos) << out;
  EXPECT_NE(out.find("\"cols\": 3"), std::string::npos) << out;
  // A later --set of the same key wins (applied in order); a plain option takes its last value.
  ASSERT_EQ(
      opforge("config show --arch mtia-2i --arch=tiny --set pe_grid.rows=4 --set pe_grid.rows=1",
              &out),
      0)
      << out;
  EXPECT_NE(out.find("\"name\": \"tiny\""), std::string::npos) << out;
  EXPECT_NE(out.find("\"rows\": 1"), std::string::npos) << out;
}

TEST_F(CliOptions, BadNumbersAndMissingValuesNameTheOption) {
  expect_usage_error("sweep", "s.json --jobs many", "--jobs needs a positive integer, got 'many'");
  expect_usage_error("sweep", "s.json -j 0", "--jobs needs a positive integer, got '0'");
  expect_usage_error("sweep", "s.json --timeout -3", "--timeout needs a positive number, got '-3'");
  expect_usage_error("triage", "r.h5 --point 1.5",
                     "--point needs a non-negative integer, got '1.5'");
  expect_usage_error("run", "f.py --call 'f()' --seed 12abc",
                     "--seed needs a non-negative integer");
  expect_usage_error("sim", "p.elf --max-insns 0", "--max-insns needs a positive integer, got '0'");
  expect_usage_error("disasm", "p.bin --base 0xzz",
                     "--base needs a non-negative integer, got '0xzz'");
  expect_usage_error("generate", "--ops add.Tensor --k x", "--k");
  expect_usage_error("trace", "r.h5 --perfetto", "'--perfetto'");
  expect_usage_error("asm", "x.s -o", "'-o'");
  // Numbers in hex where an address is usual.
  std::string out;
  EXPECT_EQ(opforge("disasm /nonexistent.bin --base 0x1000", &out), 1) << out;
}

TEST_F(CliOptions, AnArgumentTooManyIsNamed) {
  expect_usage_error("disasm", "a.elf b.elf", "more than one input file given ('a.elf', 'b.elf')");
  expect_usage_error("version", "extra", "unexpected argument 'extra'");
  expect_usage_error("ops", "show aten::add.Tensor more", "unexpected argument 'more'");
}

}  // namespace
#endif
