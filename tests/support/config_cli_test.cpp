//===- config_cli_test.cpp - `opforge config` run as a real process -------===//
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "opforge/support/arch_config.h"

using nlohmann::json;
using ::testing::HasSubstr;
using ::testing::Not;
namespace fs = std::filesystem;

namespace {

struct Result {
  int rc;
  std::string out;  // stdout
  std::string err;  // stderr
};

Result opforge(const std::string &args) {
  const std::string bin = OPFORGE_BINARY_DIR "/harness/opforge";
  // One stderr file per call and process: ctest runs test cases in parallel.
  static int calls = 0;
  fs::path err_file =
      fs::path(::testing::TempDir()) /
      ("opforge_cli_stderr_" + std::to_string(getpid()) + "_" + std::to_string(++calls) + ".txt");
  std::string cmd = bin + " " + args + " 2>" + err_file.string();
  Result r{-1, "", ""};
  FILE *p = popen(cmd.c_str(), "r");
  if (!p) return r;
  char buf[4096];
  while (size_t n = fread(buf, 1, sizeof buf, p)) r.out.append(buf, n);
  int status = pclose(p);
  r.rc = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  std::ifstream in(err_file);
  r.err.assign(std::istreambuf_iterator<char>(in), {});
  fs::remove(err_file);
  return r;
}

TEST(ConfigCli, ShowPrintsResolvedTinyWithOverride) {
  Result r = opforge("config show --arch tiny --set pe_grid.rows=4");
  ASSERT_EQ(r.rc, 0) << r.err;
  json j = json::parse(r.out);
  EXPECT_EQ(j["pe_grid"]["rows"], 4);
  EXPECT_EQ(j["pe_grid"]["cols"], 2);
  EXPECT_EQ(j["name"], "tiny");
  EXPECT_EQ(j["sram"]["size_bytes"], 1 << 20);
  // Fields come in schema order, not alphabetically.
  EXPECT_LT(r.out.find("\"name\""), r.out.find("\"clock_ghz\""));
  EXPECT_LT(r.out.find("\"clock_ghz\""), r.out.find("\"pe_grid\""));
  EXPECT_LT(r.out.find("\"pe_grid\""), r.out.find("\"command_processor\""));
  // The output is a complete config: it loads back to the same thing.
  EXPECT_EQ(opforge::ArchConfig::from_document(j, "stdout").to_json(), j);
}

TEST(ConfigCli, ShowDefaultsToMtia2i) {
  Result r = opforge("config show");
  ASSERT_EQ(r.rc, 0) << r.err;
  EXPECT_EQ(json::parse(r.out)["name"], "mtia-2i");
}

TEST(ConfigCli, ShowAcceptsFilesAndUnitOverrides) {
  fs::path file = fs::path(::testing::TempDir()) / "cli_arch.json";
  std::ofstream(file) << R"({"extends": "tiny", "sram": {"mode": "scratch"}})";
  Result r =
      opforge("config show --arch " + file.string() + " --set sram.size=128MiB --set clock=800MHz");
  ASSERT_EQ(r.rc, 0) << r.err;
  json j = json::parse(r.out);
  EXPECT_EQ(j["sram"]["size_bytes"], 128ull << 20);
  EXPECT_EQ(j["sram"]["mode"], "scratch");
  EXPECT_DOUBLE_EQ(j["clock_ghz"].get<double>(), 0.8);
  fs::remove(file);
}

TEST(ConfigCli, UnknownOptionIsUsageError) {
  Result r = opforge("config show --bogus");
  EXPECT_EQ(r.rc, 2);
  EXPECT_THAT(r.err, HasSubstr("error: unrecognised option '--bogus'"));
  EXPECT_THAT(r.err, HasSubstr("usage"));
  EXPECT_EQ(r.out, "");
}

TEST(ConfigCli, BadOverrideIsUsageErrorNamingTheKey) {
  Result r = opforge("config show --arch tiny --set pe_grid.rowz=4");
  EXPECT_EQ(r.rc, 2);
  EXPECT_THAT(r.err, HasSubstr("unknown key 'pe_grid.rowz'"));
  r = opforge("config show --arch tiny --set sram.size=12XB");
  EXPECT_EQ(r.rc, 2);
  EXPECT_THAT(r.err, HasSubstr("key 'sram.size_bytes': bad size '12XB': unknown unit 'XB'"));
  r = opforge("config show --set");
  EXPECT_EQ(r.rc, 2);
}

TEST(ConfigCli, UnknownPresetIsUsageError) {
  Result r = opforge("config show --arch mtia-9");
  EXPECT_EQ(r.rc, 2);
  EXPECT_THAT(r.err, HasSubstr("unknown preset 'mtia-9'"));
  EXPECT_THAT(r.err, HasSubstr("mtia-2i"));
}

TEST(ConfigCli, BrokenFileIsFailureWithLineAndColumn) {
  fs::path file = fs::path(::testing::TempDir()) / "cli_broken.json";
  std::ofstream(file) << "{\n  \"pe_grid\": {\"rows\": }\n}\n";
  Result r = opforge("config show --arch " + file.string());
  EXPECT_EQ(r.rc, 1);
  EXPECT_THAT(r.err, HasSubstr(file.string() + ":2:23: malformed JSON"));
  fs::remove(file);
}

TEST(ConfigCli, UnknownSubcommandIsUsageError) {
  Result r = opforge("config frobnicate");
  EXPECT_EQ(r.rc, 2);
  EXPECT_THAT(r.err, HasSubstr("unknown subcommand 'frobnicate'"));
  EXPECT_EQ(opforge("config").rc, 2);
}

TEST(ConfigCli, HelpExitsZero) {
  Result r = opforge("config --help");
  EXPECT_EQ(r.rc, 0);
  EXPECT_THAT(r.out, HasSubstr("--set KEY=VALUE"));
  EXPECT_EQ(opforge("config show --help").rc, 0);
}

TEST(ConfigCli, SchemaListsEveryField) {
  Result r = opforge("config schema");
  ASSERT_EQ(r.rc, 0) << r.err;
  for (const auto &leaf : opforge::arch_schema().leaves())
    EXPECT_THAT(r.out, HasSubstr(leaf.dotted_path + " "));
  Result j = opforge("config schema --format json");
  ASSERT_EQ(j.rc, 0);
  EXPECT_EQ(json::parse(j.out).size(), opforge::arch_schema().leaves().size());
  EXPECT_EQ(opforge("config schema --format yaml").rc, 2);
}

TEST(ConfigCli, PresetsListsTheThree) {
  Result r = opforge("config presets");
  ASSERT_EQ(r.rc, 0);
  EXPECT_THAT(r.out, HasSubstr("mtia-2i\n"));
  EXPECT_THAT(r.out, HasSubstr("mtia-v1\n"));
  EXPECT_THAT(r.out, HasSubstr("tiny\n"));
  EXPECT_THAT(r.out, Not(HasSubstr("error")));
}

}  // namespace
