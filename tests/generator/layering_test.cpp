//===- layering_test.cpp - the generator depends on nothing above it (DESIGN.md §3) ===//
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>

namespace fs = std::filesystem;

namespace {

std::string read(const fs::path &p) {
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// Libraries above the generator in the dependency order.
const std::regex kUpward(R"((^|[;:/ ])(opforge_|opforge::)(harness|validate|runner|oracle|oracle_plugin)\b)");

}  // namespace

TEST(Layering, GeneratorLibraryLinksNoHarnessTarget) {
  std::string deps = read(OPFORGE_GENERATOR_LINK_DEPS);
  ASSERT_FALSE(deps.empty()) << "link list not written: " << OPFORGE_GENERATOR_LINK_DEPS;
  EXPECT_NE(deps.find("compiler"), std::string::npos) << "expected the compiler among: " << deps;
  std::smatch m;
  EXPECT_FALSE(std::regex_search(deps, m, kUpward))
      << "opforge_generator links '" << m.str() << "' (upward arrow): " << deps;
}

TEST(Layering, GeneratorSourcesIncludeNoHarnessHeader) {
  const fs::path root = fs::path(OPFORGE_SOURCE_DIR) / "generator";
  int files = 0;
  for (const auto &e : fs::recursive_directory_iterator(root)) {
    auto ext = e.path().extension();
    if (ext != ".h" && ext != ".cpp") continue;
    ++files;
    std::istringstream in(read(e.path()));
    std::string line;
    int n = 0;
    while (std::getline(in, line)) {
      ++n;
      if (line.rfind("#include", 0) == 0) {
        EXPECT_EQ(line.find("opforge/harness/"), std::string::npos)
            << e.path().string() << ":" << n << ": " << line;
      }
    }
  }
  EXPECT_GT(files, 10) << "generator sources not found under " << root;
}

TEST(Layering, UpwardPatternRecognisesHarnessTargets) {
  // The check above is only as good as its pattern: it must catch each spelling.
  for (const char *bad : {"opforge_harness", "opforge::compiler;opforge::harness",
                          "a;opforge::validate", "opforge_runner"})
    EXPECT_TRUE(std::regex_search(std::string(bad), kUpward)) << bad;
  for (const char *ok : {"opforge::compiler;nlohmann_json::nlohmann_json", "opforge_support"})
    EXPECT_FALSE(std::regex_search(std::string(ok), kUpward)) << ok;
}
