//===- inductor_table_test.cpp - lowering table loader, template filling, inductor provider ===//
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "corpus_fixture.h"
#include "opforge/generator/extract.h"
#include "opforge/generator/inductor.h"
#include "opforge/support/error.h"

using namespace opforge;
using namespace opforge::generator;
namespace fs = std::filesystem;

namespace {

void write(const fs::path &p, const std::string &text) {
  fs::create_directories(p.parent_path());
  std::ofstream(p) << text;
}

// A table directory with one family "fam" and its template "t".
fs::path make_table(const std::string &table_json, const std::string &template_text) {
  fs::path dir = test::temp_dir();
  write(dir / "table" / "fam.json", table_json);
  write(dir / "templates" / "fam" / "t.py", template_text);
  return dir;
}

std::string load_error(const fs::path &dir) {
  try {
    LoweringTable::load(dir.string());
  } catch (const Error &e) {
    return e.what();
  }
  return "";
}

const char *kTemplate = "def {{WRAPPER}}({{SIGNATURE}}):\n    return {{EXPR}}\n";

}  // namespace

TEST(InductorSignature, SchemaArgumentsBecomePythonParameters) {
  EXPECT_EQ(python_signature(
                "aten::add_.Tensor(Tensor(a!) self, Tensor other, *, Scalar alpha=1) -> Tensor(a!)"),
            "self, other, *, alpha=1");
  EXPECT_EQ(python_signature("sum.dim_IntList(Tensor self, int[1]? dim, bool keepdim=False, *, "
                             "ScalarType? dtype=None) -> Tensor"),
            "self, dim, keepdim=False, *, dtype=None");
  EXPECT_EQ(python_signature("gelu(Tensor self, *, str approximate=\"none\") -> Tensor"),
            "self, *, approximate=\"none\"");
  EXPECT_EQ(python_signature("celu(Tensor self, Scalar alpha=1.) -> Tensor"), "self, alpha=1.");
  EXPECT_EQ(python_signature("f(Tensor self, int[2] pad=[0, 0]) -> Tensor"), "self, pad=[0, 0]");
  EXPECT_EQ(schema_argument_names("where.self(Tensor condition, Tensor self, Tensor other) -> T"),
            "condition, self, other");
  EXPECT_THROW(python_signature("no arguments here"), Error);
}

TEST(InductorTemplate, FillsPlaceholdersAndValuesThatNameOthers) {
  std::string out = fill_template("t.py", "a = {{A}}\nb = {{B}}\n",
                                  {{"A", "1"}, {"B", "{{A}} + 1"}});
  EXPECT_EQ(out, "a = 1\nb = 1 + 1\n");
  // Python braces and lower-case names are not placeholders.
  EXPECT_EQ(fill_template("t.py", "d = {{'k': 1}}\n{{x}}\n", {}), "d = {{'k': 1}}\n{{x}}\n");
}

TEST(InductorTemplate, MissingValueNamesFileLineAndPlaceholder) {
  try {
    fill_template("tmpl.py", "x = 1\ny = {{EXPR}}\n", {});
    FAIL() << "no error";
  } catch (const Error &e) {
    EXPECT_EQ(e.context().file, "tmpl.py");
    EXPECT_EQ(e.context().line, 2);
    EXPECT_NE(std::string(e.what()).find("{{EXPR}}"), std::string::npos) << e.what();
  }
}

TEST(InductorTemplate, UnusedParameterIsAnError) {
  try {
    fill_template("tmpl.py", "x = {{A}}\n", {{"A", "1"}, {"EXRP", "2"}});
    FAIL() << "no error";
  } catch (const Error &e) {
    EXPECT_NE(std::string(e.what()).find("'EXRP' is not used"), std::string::npos) << e.what();
  }
}

TEST(InductorTemplate, SelfReferenceIsCaught) {
  EXPECT_THROW(fill_template("t.py", "{{A}}", {{"A", "{{A}}"}}), Error);
}

TEST(InductorTable, RendersRowWithDefaultsAndOverloadParams) {
  auto dir = make_table(R"({"family": "fam", "defaults": {"EXPR": "0"},
    "rows": [{"overloads": ["aten::neg", "aten::neg_"], "template": "t",
              "params": {"EXPR": "-self"}, "overload_params": {"aten::neg_": {"EXPR": "-self * 1"}}},
             {"overloads": ["aten::zero"], "template": "t"}]})",
                        kTemplate);
  auto t = LoweringTable::load(dir.string());
  auto r = t.render("aten::neg", "neg(Tensor self) -> Tensor");
  ASSERT_TRUE(r.error.empty()) << r.error;
  EXPECT_EQ(r.source, "def neg(self):\n    return -self\n");
  EXPECT_EQ(r.family, "fam");
  auto r2 = t.render("aten::neg_", "neg_(Tensor(a!) self) -> Tensor(a!)");
  EXPECT_EQ(r2.source, "def neg_(self):\n    return -self * 1\n");
  EXPECT_EQ(t.render("aten::zero", "zero(Tensor self) -> Tensor").source,
            "def zero(self):\n    return 0\n");
  auto none = t.render("aten::nothing", "nothing(Tensor self) -> Tensor");
  EXPECT_TRUE(none.source.empty());
  EXPECT_NE(none.error.find("no lowering rule for aten::nothing"), std::string::npos);
  EXPECT_EQ(t.families().at("fam").size(), 3u);
}

TEST(InductorTable, ExcludedOverloadsCarryTheirReason) {
  auto dir = make_table(R"({"family": "fam", "rows": []})", kTemplate);
  write(dir / "excluded.json",
        R"({"excluded": [{"overloads": ["aten::_fft_c2c"], "reason": "complex tensors"}]})");
  auto t = LoweringTable::load(dir.string());
  ASSERT_TRUE(t.excluded("aten::_fft_c2c").has_value());
  EXPECT_EQ(*t.excluded("aten::_fft_c2c"), "complex tensors");
  auto r = t.render("aten::_fft_c2c", "_fft_c2c(Tensor self) -> Tensor");
  EXPECT_TRUE(r.excluded);
  EXPECT_NE(r.error.find("complex tensors"), std::string::npos);
}

TEST(InductorTable, BadFilesGetErrorsNamingFileAndField) {
  EXPECT_NE(load_error(make_table("{\"family\": \"fam\",\n \"rows\": [}", kTemplate))
                .find("fam.json:2"),
            std::string::npos);
  EXPECT_NE(load_error(make_table(R"({"family": "fam"})", kTemplate)).find("missing field 'rows'"),
            std::string::npos);
  EXPECT_NE(load_error(make_table(R"({"family": "other", "rows": []})", kTemplate))
                .find("differs from the file name"),
            std::string::npos);
  std::string e = load_error(
      make_table(R"({"family": "fam", "rows": [{"overloads": ["aten::a"], "template": "nope"}]})",
                 kTemplate));
  EXPECT_NE(e.find("rows[0].template"), std::string::npos) << e;
  EXPECT_NE(e.find("'nope' not found"), std::string::npos) << e;
  e = load_error(make_table(
      R"({"family": "fam", "rows": [{"overloads": ["add"], "template": "t"}]})", kTemplate));
  EXPECT_NE(e.find("rows[0].overloads[0]"), std::string::npos) << e;
  e = load_error(make_table(R"({"family": "fam", "rows": [
      {"overloads": ["aten::a"], "template": "t", "params": {"lower": "1"}}]})",
                            kTemplate));
  EXPECT_NE(e.find("upper case"), std::string::npos) << e;
}

TEST(InductorTable, AnOverloadHasOneRowInTheWholeTable) {
  auto dir = make_table(R"({"family": "fam", "rows": [{"overloads": ["aten::a"], "template": "t"}]})",
                        kTemplate);
  write(dir / "table" / "gam.json",
        R"({"family": "gam", "rows": [{"overloads": ["aten::a"], "template": "t"}]})");
  write(dir / "templates" / "gam" / "t.py", kTemplate);
  std::string e = load_error(dir);
  EXPECT_NE(e.find("gam.json"), std::string::npos) << e;
  EXPECT_NE(e.find("already has a row in"), std::string::npos) << e;
  EXPECT_NE(e.find("fam.json"), std::string::npos) << e;
}

TEST(InductorTable, ShippedTableLoadsAndRendersPointwise) {
  auto t = LoweringTable::load(LoweringTable::default_dir());
  ASSERT_TRUE(t.families().count("pointwise"));
  EXPECT_GT(t.families().at("pointwise").size(), 80u);
  auto r = t.render("aten::add_.Tensor",
                    "add_.Tensor(Tensor(a!) self, Tensor other, *, Scalar alpha=1) -> Tensor(a!)");
  ASSERT_TRUE(r.error.empty()) << r.error;
  EXPECT_NE(r.source.find("def add__Tensor(self, other, *, alpha=1):"), std::string::npos);
  EXPECT_NE(r.source.find("@triton.jit"), std::string::npos);
  EXPECT_EQ(r.source.find("{{"), std::string::npos) << "unfilled placeholder";
}

TEST(InductorProvider, AnswersWithAFencedFileOrUnsupported) {
  auto dir = make_table(
      R"({"family": "fam", "rows": [{"overloads": ["aten::neg"], "template": "t", "params": {"EXPR": "-self"}}]})",
      kTemplate);
  auto table = std::make_shared<const LoweringTable>(LoweringTable::load(dir.string()));
  auto p = make_inductor_provider(table, {{"aten::neg", "neg(Tensor self) -> Tensor"}});
  EXPECT_EQ(p->name(), "inductor");
  ChatRequest a, b;
  a.key.overload = "aten::neg";
  b.key.overload = "aten::cos";
  auto replies = p->complete({a, b});
  ASSERT_EQ(replies.size(), 2u);
  ASSERT_TRUE(replies[0].ok()) << replies[0].error;
  EXPECT_NE(extract_code(replies[0].text).find("def neg(self):\n    return -self"), std::string::npos)
      << replies[0].text;
  EXPECT_EQ(replies[1].status, ChatReply::Status::Unsupported);
  EXPECT_NE(replies[1].error.find("no lowering rule for aten::cos"), std::string::npos);
  EXPECT_EQ(status_name(ChatReply::Status::Unsupported), "unsupported");
  EXPECT_EQ(parse_status("unsupported"), ChatReply::Status::Unsupported);
}
