//===- tables_xmtia_doc_test.cpp - docs/isa/xmtia.md agrees with the tables ===//
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <regex>
#include <sstream>

#include "opforge/isa/asm.h"
#include "opforge/isa/encode.h"
#include "opforge/isa/spec.h"

namespace opforge::isa {
namespace {

std::string read_doc() {
  std::ifstream in(std::string(OPFORGE_SOURCE_DIR) + "/docs/isa/xmtia.md");
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// Rows "| `a` | `b` | ... |" between <!-- tag: begin --> and <!-- tag: end -->.
std::vector<std::vector<std::string>> table_rows(const std::string &doc, const std::string &tag) {
  const size_t b = doc.find("<!-- " + tag + ": begin -->"),
               e = doc.find("<!-- " + tag + ": end -->");
  EXPECT_NE(b, std::string::npos) << tag;
  EXPECT_NE(e, std::string::npos) << tag;
  std::vector<std::vector<std::string>> rows;
  if (b == std::string::npos || e == std::string::npos) return rows;
  std::istringstream in(doc.substr(b, e - b));
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("| `", 0) != 0) continue;
    std::vector<std::string> cells;
    std::regex cell("\\|\\s*`?([^`|]*)`?\\s*(?=\\|)");
    for (std::sregex_iterator it(line.begin(), line.end(), cell), end; it != end; ++it)
      cells.push_back((*it)[1]);
    rows.push_back(cells);
  }
  return rows;
}

std::string operand_text(const InsnSpec &i) {
  std::string out;
  for (const auto &o : asm_operands(i)) {
    if (!out.empty()) out += ", ";
    out += o.kind == OperandKind::VMask ? "[v0.t]" : o.field;
  }
  return out;
}

TEST(XmtiaDoc, EncodingTableMatchesTheOpcodeTable) {
  const auto rows = table_rows(read_doc(), "xmtia-encodings");
  std::map<std::string, bool> documented;
  for (const auto &r : rows) {
    ASSERT_EQ(r.size(), 4u);
    const InsnSpec *i = find_insn(r[0]);
    ASSERT_NE(i, nullptr) << "documented but not in the tables: " << r[0];
    EXPECT_EQ(i->extension, "xmtia") << r[0];
    EXPECT_EQ(operand_text(*i), r[1]) << r[0];
    EXPECT_EQ(i->mask, std::stoul(r[2], nullptr, 16)) << r[0];
    EXPECT_EQ(i->match, std::stoul(r[3], nullptr, 16)) << r[0];
    documented[r[0]] = true;
  }
  for (const auto &i : instructions())
    if (i.extension == "xmtia") {
      EXPECT_TRUE(documented.count(i.name)) << "not documented: " << i.name;
    }
  EXPECT_EQ(documented.size(), 13u);
}

TEST(XmtiaDoc, CsrTableMatchesCsrsCsv) {
  const auto rows = table_rows(read_doc(), "xmtia-csrs");
  std::map<std::string, bool> documented;
  for (const auto &r : rows) {
    ASSERT_GE(r.size(), 2u);
    const CsrSpec *c = find_csr(r[1]);
    ASSERT_NE(c, nullptr) << "documented but not in csrs.csv: " << r[1];
    EXPECT_EQ(c->number, std::stoul(r[0], nullptr, 16)) << r[1];
    EXPECT_EQ(c->extension, "xmtia");
    documented[r[1]] = true;
  }
  for (const auto &c : csrs())
    if (c.extension == "xmtia") {
      EXPECT_TRUE(documented.count(c.name)) << "not documented: " << c.name;
    }
}

TEST(XmtiaDoc, ExampleAssembles) {
  const std::string doc = read_doc();
  const size_t h = doc.find("## Using Xmtia from assembly");
  ASSERT_NE(h, std::string::npos);
  const size_t b = doc.find("```\n", h), e = doc.find("```", b + 4);
  ASSERT_NE(b, std::string::npos);
  const AsmUnit u = assemble(doc.substr(b + 4, e - b - 4), "xmtia.md");
  ASSERT_FALSE(u.sections.empty());
  EXPECT_EQ(u.sections[0].name, ".text");
  EXPECT_GT(u.sections[0].data.size(), 40u);
}

}  // namespace
}  // namespace opforge::isa
