//===- feedback_prompt_test.cpp - feedback summaries, prompt templates, references, evaluator ===//
#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>

#include "opforge/compiler/capability.h"
#include "opforge/generator/evaluator.h"
#include "opforge/generator/feedback.h"
#include "opforge/generator/openai_provider.h"
#include "opforge/generator/prompt.h"
#include "opforge/harness/judge.h"
#include "opforge/support/error.h"

using namespace opforge;
using namespace opforge::generator;
namespace fs = std::filesystem;

namespace {
fs::path temp_dir(const std::string &name) {
  auto d = fs::temp_directory_path() / ("opforge-gen-" + name + "-" + std::to_string(::getpid()));
  fs::remove_all(d);
  fs::create_directories(d);
  return d;
}
void write(const fs::path &p, const std::string &text) { std::ofstream(p) << text; }
}  // namespace

TEST(Feedback, LintFindingsListRuleLineAndCaretAndAreBounded) {
  EvaluatorOptions o;
  auto ev = make_reference_evaluator(o);
  std::string src =
      "import os\nimport triton\nimport triton.language as tl\n\n@triton.jit\ndef k(x_ptr):\n"
      "    v = tl.load(x_ptr).to(tl.float64)\n    tl.store(x_ptr, v)\n\ndef k_default(x):\n    "
      "return x\n";
  ev->begin("k.py", src, "k_default");
  auto r = ev->run_stage(Stage::Lint);
  ASSERT_FALSE(r.ok);
  ASSERT_EQ(r.failure.kind, Failure::Kind::Lint);
  std::string fb = summarize_failure(Stage::Lint, r.failure);
  EXPECT_NE(fb.find(" line 1, col 1: "), std::string::npos) << fb;  // import os
  EXPECT_NE(fb.find("- OPF002 line 7"), std::string::npos) << fb;
  EXPECT_NE(fb.find("first error at:\n    import os\n"), std::string::npos) << fb;
  EXPECT_NE(fb.find("^"), std::string::npos) << fb;
  EXPECT_EQ(summarize_failure(Stage::Lint, r.failure), fb);  // deterministic
  FeedbackOptions small;
  small.max_bytes = 80;
  std::string cut = summarize_failure(Stage::Lint, r.failure, small);
  EXPECT_LE(cut.size(), 80u);
  EXPECT_NE(cut.find("[feedback truncated]"), std::string::npos);
}

TEST(Feedback, CompileErrorCarriesTheFirstErrorWithCaret) {
  auto ev = make_reference_evaluator({});
  ev->begin("bad.py", "import triton\n\ndef f(x:\n    return x\n", "f");
  auto r = ev->run_stage(Stage::Compile);
  ASSERT_FALSE(r.ok);
  EXPECT_EQ(r.failure.kind, Failure::Kind::Compile);
  std::string fb = summarize_failure(Stage::Compile, r.failure);
  EXPECT_NE(fb.find("bad.py:3:"), std::string::npos) << fb;
  EXPECT_NE(fb.find("^"), std::string::npos) << fb;
}

TEST(Feedback, MissingWrapperIsACompileFailureNamingIt) {
  auto ev = make_reference_evaluator({});
  ev->begin("k.py", "import triton\n\n@triton.jit\ndef k(x):\n    pass\n", "exp_default");
  auto r = ev->run_stage(Stage::Compile);
  ASSERT_FALSE(r.ok);
  EXPECT_NE(summarize_failure(Stage::Compile, r.failure)
                .find("no host wrapper function named 'exp_default'"),
            std::string::npos);
}

TEST(Feedback, TimeoutAndTrapAreSummarized) {
  Failure t;
  t.kind = Failure::Kind::Timeout;
  t.message = "run exceeded its wall-clock limit of 1 s";
  t.call_index = 3;
  t.call_summary = "aten::exp.default(f32[4]) -> f32[4]";
  std::string fb = summarize_failure(Stage::Run, t);
  EXPECT_NE(fb.find("timeout: run exceeded"), std::string::npos);
  EXPECT_NE(fb.find("failing call #3: aten::exp.default(f32[4])"), std::string::npos);
  Failure trap;
  trap.kind = Failure::Kind::Trap;
  trap.message = "load access fault";
  trap.pc = 0x80001234;
  trap.instruction = "vle32.v v8, (a0)";
  trap.snippet = "x = tl.load(p)\n    ^\n";
  fb = summarize_failure(Stage::Run, trap);
  EXPECT_NE(fb.find("pc: 0x80001234"), std::string::npos) << fb;
  EXPECT_NE(fb.find("instruction: vle32.v v8, (a0)"), std::string::npos) << fb;
  EXPECT_NE(fb.find("x = tl.load(p)"), std::string::npos) << fb;
}

TEST(Prompt, ShippedTemplatesRenderEveryField) {
  auto t = PromptTemplates::load(PromptTemplates::default_dir());
  PromptContext c;
  c.overload = "aten::exp.default";
  c.wrapper = "exp_default";
  c.schema = "exp(Tensor self) -> Tensor";
  c.category = "pointwise";
  c.dtypes = "float32, float16";
  c.target_constraints = compiler::describe(compiler::mtia_capabilities());
  auto msgs = t.first_turn(c);
  ASSERT_EQ(msgs.size(), 2u);
  EXPECT_EQ(msgs[0].role, "system");
  EXPECT_NE(msgs[0].content.find("`exp_default`"), std::string::npos);
  EXPECT_NE(msgs[1].content.find("exp(Tensor self) -> Tensor"), std::string::npos);
  EXPECT_NE(msgs[1].content.find(c.target_constraints), std::string::npos);
  EXPECT_EQ(msgs[1].content.find("{{"), std::string::npos);
  c.feedback = "stage: lint\n";
  EXPECT_NE(t.feedback_turn(c).content.find("stage: lint"), std::string::npos);
}

TEST(Prompt, UnknownFieldIsAnErrorNamingTemplateAndLine) {
  auto d = temp_dir("tmpl");
  write(d / "system.md", "ok\n");
  write(d / "task.md", "line one\n{{overload}} and {{nonsense}}\n");
  write(d / "feedback.md", "{{feedback}}");
  auto t = PromptTemplates::load(d.string());
  try {
    t.first_turn({});
    FAIL() << "expected an error";
  } catch (const Error &e) {
    EXPECT_EQ(e.context().file, (d / "task.md").string());
    EXPECT_EQ(e.context().line, 2);
    EXPECT_NE(e.message().find("nonsense"), std::string::npos);
  }
  fs::remove(d / "feedback.md");
  EXPECT_THROW(PromptTemplates::load(d.string()), Error);
}

TEST(Prompt, ReferenceKernelsPreferTheSameCategoryAndStopAtThree) {
  auto d = temp_dir("lib");
  write(d / "a_mm.py", "# category: linear algebra\nA\n");
  write(d / "b_sum.py", "# category: reduction\nB\n");
  write(d / "c_exp.py", "# category: pointwise\nC\n");
  write(d / "d_neg.py", "# category: pointwise\nD\n");
  write(d / "e_abs.py", "# category: pointwise\nE\n");
  std::string refs = reference_kernels(d.string(), "pointwise", "e_abs.py");
  EXPECT_NE(refs.find("### c_exp.py"), std::string::npos);
  EXPECT_NE(refs.find("### d_neg.py"), std::string::npos);
  EXPECT_NE(refs.find("### a_mm.py"), std::string::npos);  // third: first other file by name
  EXPECT_EQ(refs.find("e_abs.py"), std::string::npos);     // the overload's own file is excluded
  EXPECT_EQ(refs.find("b_sum.py"), std::string::npos);
  EXPECT_LT(refs.find("c_exp.py"), refs.find("a_mm.py"));
  EXPECT_EQ(reference_kernels((d / "missing").string(), "pointwise", ""), "");
}

TEST(OpenAIConfigFile, UnknownKeyAndBadValuesNameTheField) {
  auto d = temp_dir("cfg");
  write(d / "ok.json",
        R"({"base_url":"http://h/v1","model":"m","concurrency":8,"api_key_env":"MY_KEY"})");
  auto c = OpenAIConfig::from_file((d / "ok.json").string());
  EXPECT_EQ(c.model, "m");
  EXPECT_EQ(c.concurrency, 8);
  EXPECT_EQ(c.to_json()["api_key_env"], "MY_KEY");
  write(d / "bad.json", R"({"modle":"m"})");
  try {
    OpenAIConfig::from_file((d / "bad.json").string());
    FAIL();
  } catch (const Error &e) {
    EXPECT_EQ(e.context().path, "/modle");
  }
  write(d / "type.json", R"({"max_tokens":"many"})");
  try {
    OpenAIConfig::from_file((d / "type.json").string());
    FAIL();
  } catch (const Error &e) {
    EXPECT_EQ(e.context().path, "/max_tokens");
  }
}

namespace {
std::string kernel_text(const std::string &name) {
  std::ifstream in(std::string(OPFORGE_SOURCE_DIR) + "/tests/generator/kernels/" + name);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// aten::add_.Tensor(x, y, alpha=3): out and the mutated self are x + 3 * y.
EvaluatorOptions inplace_add_options() {
  HostTensor x(DType::Float32, {7}), y(DType::Float32, {7}), want(DType::Float32, {7});
  for (int64_t i = 0; i < 7; ++i) {
    x.set_double(i, 0.5 * static_cast<double>(i) - 1.0);
    y.set_double(i, 0.25 * static_cast<double>(i));
    want.set_double(i, static_cast<float>(x.get_double(i) + 3.0 * y.get_double(i)));
  }
  harness::Call c;
  c.overload = "aten::add_.Tensor";
  c.dtype = DType::Float32;
  c.args = {harness::Value::of_tensor(x), harness::Value::of_tensor(y)};
  c.kwargs = {{"alpha", harness::Value::of_int(3)}};
  c.out = harness::Value::of_tensor(want);
  c.mutated = {{"self", harness::Value::of_tensor(want)}};
  harness::JudgeOptions j;
  j.calls = {c};
  j.schema = "add_.Tensor(Tensor(a!) self, Tensor other, *, Scalar alpha=1) -> Tensor(a!)";
  EvaluatorOptions o;
  o.judge = harness::corpus_judge_factory(std::move(j));
  return o;
}
}  // namespace

TEST(Evaluator, InPlaceOverloadPassesWhenSelfIsMutated) {
  auto ev = make_reference_evaluator(inplace_add_options());
  ev->begin("add__Tensor.py", kernel_text("add_inplace.py"), "add__Tensor");
  for (Stage s : {Stage::Lint, Stage::Compile, Stage::Run, Stage::Verify}) {
    auto r = ev->run_stage(s);
    ASSERT_TRUE(r.ok) << stage_name(s) << ": " << summarize_failure(s, r.failure);
  }
}

TEST(Evaluator, InPlaceOverloadThatLeavesSelfUnchangedFailsVerify) {
  auto ev = make_reference_evaluator(inplace_add_options());
  ev->begin("add__Tensor.py", kernel_text("add_not_inplace.py"), "add__Tensor");
  for (Stage s : {Stage::Lint, Stage::Compile, Stage::Run})
    ASSERT_TRUE(ev->run_stage(s).ok) << stage_name(s);
  auto r = ev->run_stage(Stage::Verify);
  ASSERT_FALSE(r.ok);
  EXPECT_EQ(r.failure.kind, Failure::Kind::Mismatch);
  ASSERT_TRUE(r.failure.mismatch.has_value());
  EXPECT_NE(r.failure.mismatch->path.find("self"), std::string::npos) << r.failure.mismatch->path;
}

// JSON has no inf or nan: the run log writes them as strings, not as an indistinguishable null.
TEST(Evaluator, NonFiniteMismatchFiguresAreDistinctStringsInTheRunLog) {
  Failure f;
  f.kind = Failure::Kind::Mismatch;
  f.message = "out: 1 of 4 elements differ";
  MismatchFacts m;
  m.path = "out";
  m.max_abs_error = std::numeric_limits<double>::infinity();
  m.max_rel_error = std::numeric_limits<double>::quiet_NaN();
  m.worst_actual = -std::numeric_limits<double>::infinity();
  m.worst_expected = std::numeric_limits<double>::quiet_NaN();
  m.tolerance.atol = 1e-5;
  f.mismatch = m;
  const nlohmann::json j = failure_to_json(f);
  EXPECT_EQ(j["mismatch"]["max_abs_error"], "inf");
  EXPECT_EQ(j["mismatch"]["max_rel_error"], "nan");
  EXPECT_EQ(j["mismatch"]["worst_actual"], "-inf");
  EXPECT_EQ(j["mismatch"]["worst_expected"], "nan");
  EXPECT_EQ(j["mismatch"]["atol"].get<double>(), 1e-5);
  EXPECT_EQ(j.dump().find("null"), std::string::npos) << j.dump();
}

namespace {
EvaluatorOptions judge_of(harness::Call c, const std::string &schema) {
  harness::JudgeOptions j;
  j.calls = {std::move(c)};
  j.schema = schema;
  EvaluatorOptions o;
  o.judge = harness::corpus_judge_factory(std::move(j));
  return o;
}
}  // namespace

// Issue 25's example: remainder.Tensor(bf16[10, 5], bf16[]) got "worst index [0, 0] actual inf
// expected -nan" four turns running, never the operands. The feedback shows a window of each
// operand around the worst index and the expected and actual values there.
TEST(Feedback, MismatchShowsTheOperandValuesAroundTheWorstIndex) {
  HostTensor self(DType::BFloat16, {10, 5}), other(DType::BFloat16, {}),
      want(DType::BFloat16, {10, 5});
  other.set_double(0, 3.0);
  for (int64_t i = 0; i < 50; ++i) {
    double a = 0.5 * static_cast<double>(i - 25);  // -12.5 .. 12: exact in bfloat16
    self.set_double(i, a);
    want.set_double(i, a - std::floor(a / 3.0) * 3.0);  // Python's remainder
  }
  harness::Call c;
  c.overload = "aten::remainder.Tensor";
  c.dtype = DType::BFloat16;
  c.args = {harness::Value::of_tensor(self), harness::Value::of_tensor(other)};
  c.out = harness::Value::of_tensor(want);
  auto ev = make_reference_evaluator(
      judge_of(c, "remainder.Tensor(Tensor self, Tensor other) -> Tensor"));
  ev->begin("remainder_Tensor.py", kernel_text("remainder_wrong.py"), "remainder_Tensor");
  for (Stage s : {Stage::Lint, Stage::Compile, Stage::Run}) {
    auto r = ev->run_stage(s);
    ASSERT_TRUE(r.ok) << stage_name(s) << ": " << summarize_failure(s, r.failure);
  }
  auto r = ev->run_stage(Stage::Verify);
  ASSERT_FALSE(r.ok);
  const std::string fb = summarize_failure(Stage::Verify, r.failure);
  // The worst element is self[0, 0] = -12.5: remainder 2.5, the kernel's -15.5.
  EXPECT_NE(fb.find("worst index: [0, 0] actual -15.5 expected 2.5"), std::string::npos) << fb;
  EXPECT_NE(fb.find("self bf16[10, 5] [0:5, 0:5]"), std::string::npos) << fb;
  EXPECT_NE(fb.find("[-12.5, -12, -11.5, -11, -10.5]"), std::string::npos) << fb;
  EXPECT_NE(fb.find("other bf16[] (0-d) = 3"), std::string::npos) << fb;
  EXPECT_NE(fb.find("expected out bf16[10, 5] [0:5, 0:5]"), std::string::npos) << fb;
  EXPECT_NE(fb.find("[2.5, 0, 0.5, 1, 1.5]"), std::string::npos) << fb;
  EXPECT_NE(fb.find("actual out bf16[10, 5] [0:5, 0:5]"), std::string::npos) << fb;
  EXPECT_NE(fb.find("[-15.5, -15, -14.5, -14, -13.5]"), std::string::npos) << fb;
  EXPECT_LE(fb.size(), FeedbackOptions{}.max_bytes);
}

// A fault inside a @triton.jit kernel at run time names the kernel's file:line:col and shows
// that line, not the wrapper's launch line.
TEST(Feedback, RuntimeErrorInAKernelPointsAtTheKernelLine) {
  HostTensor x(DType::Float32, {5}), y(DType::Float32, {5}), want(DType::Float32, {5});
  harness::Call c;
  c.overload = "aten::add.Tensor";
  c.dtype = DType::Float32;
  c.args = {harness::Value::of_tensor(x), harness::Value::of_tensor(y)};
  c.out = harness::Value::of_tensor(want);
  auto ev = make_reference_evaluator(
      judge_of(c, "add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor"));
  ev->begin("add_Tensor.py", kernel_text("add_no_mask.py"), "add_Tensor");
  for (Stage s : {Stage::Lint, Stage::Compile}) {
    auto r = ev->run_stage(s);
    ASSERT_TRUE(r.ok) << stage_name(s) << ": " << summarize_failure(s, r.failure);
  }
  auto r = ev->run_stage(Stage::Run);
  ASSERT_FALSE(r.ok);
  const std::string fb = summarize_failure(Stage::Run, r.failure);
  EXPECT_NE(fb.find("add_Tensor.py:13:"), std::string::npos) << fb;  // the unmasked tl.load
  EXPECT_NE(fb.find("out-of-bounds load"), std::string::npos) << fb;
  EXPECT_NE(fb.find("    x = tl.load(x_ptr + offsets)\n"), std::string::npos) << fb;
  EXPECT_NE(fb.find("launched at add_Tensor.py:26"), std::string::npos) << fb;
  EXPECT_EQ(fb.find("    add_kernel[grid]("), std::string::npos) << "not the launch line\n" << fb;
}
