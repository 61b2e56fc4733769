// runner_doc_figures_tests.cpp - the figures docs quote are generated (scripts/doc-figures.py):
// every marker names a shipped scenario, and --check catches a stale figure.
#include <regex>

#include "runner_fixture.h"

using namespace opforge;
namespace fs = std::filesystem;

namespace {

class DocFigures : public runner_test::RunnerDir {
 protected:
  std::string script() const { return std::string(OPFORGE_SOURCE_DIR) + "/scripts/doc-figures.py"; }
  int run(const std::string &args) {
    return python(
        "import runpy, sys\nsys.argv = [sys.argv[1]] + sys.argv[2:]\n"
        "try:\n    runpy.run_path(sys.argv[0], run_name='__main__')\n"
        "except SystemExit as e:\n    sys.exit(e.code)\n",
        script() + " " + args);
  }
};

// The shipped docs carry markers, each naming scenarios the generator can sweep; the
// nanoGPT figures are among them (they went stale by hand before: 2.76 M vs 2.41 M).
TEST_F(DocFigures, DocMarkersNameShippedScenarios) {
  ASSERT_EQ(run("--list"), 0) << py_;
  EXPECT_NE(py_.find("docs/scenarios.md:"), std::string::npos) << py_;
  EXPECT_NE(py_.find("nanogpt"), std::string::npos) << py_;
  std::smatch m;
  std::string rest = py_;
  std::regex line(R"(([^\n:]+\.md): ([^\n]+)\n)");
  int markers = 0;
  while (std::regex_search(rest, m, line)) {
    ++markers;
    std::istringstream names(m[2].str());
    std::string n;
    while (names >> n)
      EXPECT_TRUE(fs::exists(fs::path(OPFORGE_SOURCE_DIR) / "scenarios" / (n + ".json")))
          << m[1] << " names " << n;
    rest = m.suffix();
  }
  EXPECT_GE(markers, 1) << py_;
}

// A block is written from a fresh sweep, --check then agrees; a hand-edited figure is stale.
TEST_F(DocFigures, CheckPassesOnFreshFiguresAndFailsOnAnEditedOne) {
  fs::create_directories(dir_ / "docs");
  std::ofstream(dir_ / "docs" / "x.md") << "# x\n\n<!-- figures runner_smoke -->\nold\n"
                                           "<!-- /figures -->\nafter\n";
  std::string common = "--docs " + (dir_ / "docs").string() + " --opforge " + OPFORGE_EXE;
  ASSERT_EQ(run(common), 0) << py_;
  std::string doc = slurp(dir_ / "docs" / "x.md");
  EXPECT_NE(doc.find("| `runner_smoke` | 4: 4 ok | stream_read: "), std::string::npos) << doc;
  EXPECT_NE(doc.find("\nafter\n"), std::string::npos) << doc;
  EXPECT_EQ(doc.find("old"), std::string::npos) << doc;
  ASSERT_EQ(run(common + " --check"), 0) << py_;
  // One digit of a cycle count changed by hand.
  size_t at = doc.find("stream_read: ") + std::string("stream_read: ").size();
  doc[at] = doc[at] == '9' ? '1' : char(doc[at] + 1);
  std::ofstream(dir_ / "docs" / "x.md") << doc;
  EXPECT_EQ(run(common + " --check"), 1) << py_;
  EXPECT_NE(py_.find("stale: " + (dir_ / "docs" / "x.md").string()), std::string::npos) << py_;
  EXPECT_EQ(slurp(dir_ / "docs" / "x.md"), doc);  // --check writes nothing
}

TEST_F(DocFigures, AMarkerNamingNoShippedScenarioIsAnError) {
  fs::create_directories(dir_ / "docs");
  std::ofstream(dir_ / "docs" / "y.md") << "<!-- figures no_such_scenario -->\n<!-- /figures -->\n";
  EXPECT_EQ(run("--list --docs " + (dir_ / "docs").string()), 2) << py_;
  EXPECT_NE(py_.find("no_such_scenario"), std::string::npos) << py_;
}

}  // namespace
