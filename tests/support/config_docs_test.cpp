//===- config_docs_test.cpp - docs/config.md stays equal to the schema ----===//
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "opforge/support/arch_config.h"
#include "opforge/support/schema_doc.h"

namespace {

std::string read_file(const std::string &path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

TEST(ConfigDocs, ListsEverySchemaField) {
  std::string doc = read_file(OPFORGE_SOURCE_DIR "/docs/config.md");
  ASSERT_FALSE(doc.empty());
  for (const auto &leaf : opforge::arch_schema().leaves())
    EXPECT_NE(doc.find("`" + leaf.dotted_path + "`"), std::string::npos)
        << "docs/config.md does not list " << leaf.dotted_path;
}

TEST(ConfigDocs, ReferenceSectionIsTheGeneratedSchema) {
  std::string doc = read_file(OPFORGE_SOURCE_DIR "/docs/config.md");
  const std::string begin = "<!-- BEGIN generated: opforge config schema --format markdown -->\n";
  const std::string end = "<!-- END generated -->";
  size_t b = doc.find(begin), e = doc.find(end);
  ASSERT_NE(b, std::string::npos);
  ASSERT_NE(e, std::string::npos);
  std::string section = doc.substr(b + begin.size(), e - b - begin.size());
  EXPECT_EQ(section, opforge::schema_markdown(opforge::arch_schema()) + "\n")
      << "docs/config.md is out of date: regenerate its reference section with "
         "'opforge config schema --format markdown'";
}

}  // namespace
