//===- taxonomy_test.cpp - every failure of a run is classed from its evidence (issue 25 item 4)
//===//
//
// Real candidates of aten::add.Tensor go through the loop against a loopback
// OpenAI-compatible server (the first reply fails, the second is correct), are
// linted, compiled, run on the IR interpreter and verified; the failing
// diagnostic record must carry the class its evidence gives. The alignment
// class is checked on the ISS's own trap text (no Triton kernel of this target
// can misalign: pointers are element-typed, there are no pointer casts and
// Tensor.view(dtype) is rejected in wrappers).
//
//===----------------------------------------------------------------------===//
#include <gtest/gtest.h>
#include <httplib.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>

#include "loopback_endpoint.h"
#include "opforge/compiler/capability.h"
#include "opforge/generator/loop.h"
#include "opforge/generator/openai_provider.h"
#include "opforge/generator/taxonomy.h"
#include "opforge/harness/judge.h"
#include "opforge/isa/hart.h"

using namespace opforge;
using namespace opforge::generator;
using nlohmann::json;

namespace {

std::string read_kernel(const std::string &name) {
  std::ifstream in(std::string(OPFORGE_SOURCE_DIR) + "/tests/generator/kernels/" + name);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

HostTensor random_f32(int64_t n, uint32_t seed) {
  HostTensor t(DType::Float32, {n});
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> u(-2.f, 2.f);
  for (int64_t i = 0; i < n; ++i) t.set_double(i, u(rng));
  return t;
}

// aten::add.Tensor(x, y, alpha=2) on float32, outputs computed here.
OverloadJob add_job() {
  OverloadJob job;
  job.overload = "aten::add.Tensor";
  job.context.overload = job.overload;
  job.context.wrapper = wrapper_name(job.overload);
  job.context.schema = "add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor";
  job.context.category = "pointwise";
  job.context.dtypes = "float32";
  job.context.target_constraints = compiler::describe(compiler::mtia_capabilities());
  job.make_evaluator = [] {
    std::vector<harness::Call> calls;
    for (int64_t n : {5, 1000}) {
      HostTensor x = random_f32(n, 10), y = random_f32(n, 20), out(DType::Float32, {n});
      for (int64_t i = 0; i < n; ++i)
        out.set_double(i, static_cast<float>(static_cast<float>(x.get_double(i)) +
                                             2.0f * static_cast<float>(y.get_double(i))));
      harness::Call c;
      c.overload = "aten::add.Tensor";
      c.opinfo = "add";
      c.dtype = DType::Float32;
      c.index = static_cast<int64_t>(calls.size());
      c.args = {harness::Value::of_tensor(x), harness::Value::of_tensor(y)};
      c.kwargs = {{"alpha", harness::Value::of_int(2)}};
      c.out = harness::Value::of_tensor(out);
      calls.push_back(c);
    }
    harness::JudgeOptions j;
    j.calls = calls;
    EvaluatorOptions o;
    o.judge = harness::corpus_judge_factory(std::move(j));
    return make_reference_evaluator(std::move(o));
  };
  return job;
}

// Runs `first` (failing) then add_correct.py through the loop; returns the run log's records.
std::vector<json> run_failing_then_correct(const std::string &first) {
  const std::vector<std::string> replies = {test::fenced(read_kernel(first)),
                                            test::fenced(read_kernel("add_correct.py"))};
  test::LoopbackEndpoint ep([&](int n, const httplib::Request &, httplib::Response &res) {
    res.set_content(test::completion(replies.at(static_cast<size_t>(n))).dump(),
                    "application/json");
  });
  ::setenv("OPFORGE_TEST_LOOPBACK_KEY", "sk-loopback-secret", 1);
  RunLog log;
  auto provider = make_openai_provider(test::config_for(ep));
  auto templates = PromptTemplates::load(PromptTemplates::default_dir());
  auto results = run_overload(add_job(), templates, *provider, log, {});
  ::unsetenv("OPFORGE_TEST_LOOPBACK_KEY");
  EXPECT_EQ(results.at(0).final_state, State::Done) << results[0].reason;
  return log.records();
}

// The one failing diagnostic record of a run.
json failed_diagnostic(const std::vector<json> &records) {
  json out;
  int n = 0;
  for (const auto &r : records)
    if (r.value("event", "") == "diagnostic" && !r.value("ok", true)) {
      out = r;
      ++n;
    }
  EXPECT_EQ(n, 1);
  return out;
}

void expect_class(const std::string &kernel, const std::string &cls, const std::string &evidence) {
  auto records = run_failing_then_correct(kernel);
  json d = failed_diagnostic(records);
  EXPECT_EQ(d.value("failure_class", ""), cls) << d.dump(1);
  EXPECT_NE(d.value("failure_class_reason", "").find(evidence), std::string::npos) << d.dump(1);
  // The taxonomy of the run counts it once, in that class.
  FailureTaxonomy t = failure_taxonomy(records);
  EXPECT_EQ(t.total(), 1);
  EXPECT_EQ(t.count[*failure_class_from_name(cls)], 1);
  // The feedback record says the class too.
  for (const auto &r : records) {
    if (r.value("event", "") == "feedback") {
      EXPECT_EQ(r.value("failure_class", ""), cls);
    }
  }
}

}  // namespace

TEST(FailureTaxonomy, AnUnmaskedLoadPastTheTensorIsBoundaryMask) {
  expect_class("add_no_mask.py", "boundary_mask", "out-of-bounds load");
}

TEST(FailureTaxonomy, AWrongOutputDtypeIsTypeConversion) {
  expect_class("add_bf16_out.py", "type_conversion", "dtype bfloat16 != expected float32");
}

TEST(FailureTaxonomy, AnUnsupportedTritonBuiltinIsAHardwareLimit) {
  expect_class("add_flip.py", "hardware_limits", "OPF003");
}

TEST(FailureTaxonomy, ValuesOutsideTheToleranceAreNumerics) {
  expect_class("add_wrong_sign.py", "numerics", "mismatch: out");
}

// The ISS's trap for a misaligned AMO (IssTrap.MisalignedAtomicTraps), as the chip
// executor reports a program's trap.
TEST(FailureTaxonomy, AMisalignedAccessTrapIsAlignment) {
  isa::TrapInfo trap;
  trap.cause = isa::cause::kStoreMisaligned;
  trap.pc = 0x80000008;
  trap.tval = 0x80000014;
  trap.mnemonic = "amoadd.d";
  trap.disassembly = "amoadd.d t1, t1, (t0)";
  Failure f;
  f.kind = Failure::Kind::Trap;
  f.message = "kernel add_kernel: program (0,0,0) trap: " + trap.describe();
  f.pc = trap.pc;
  auto c = classify_failure("run", failure_to_json(f));
  EXPECT_EQ(c.cls, FailureClass::Alignment) << f.message;
  EXPECT_NE(c.reason.find("misaligned"), std::string::npos) << c.reason;
  // A load access fault on the chip is boundary/mask.
  trap.cause = isa::cause::kLoadAccessFault;
  f.message = "kernel add_kernel: program (0,0,0) trap: " + trap.describe();
  EXPECT_EQ(classify_failure("run", failure_to_json(f)).cls, FailureClass::BoundaryMask);
}

TEST(FailureTaxonomy, TheReportTablePrintsCountsSharesAndTritorXFigures) {
  auto diag = [](const std::string &stage, json failure) {
    return json{{"event", "diagnostic"}, {"stage", stage}, {"ok", false}, {"failure", failure}};
  };
  std::vector<json> records = {
      // A record of an older run log, classified from its failure object.
      diag("run", {{"kind", "runtime"}, {"message", "out-of-bounds store at element 7"}}),
      diag("verify", {{"kind", "mismatch"}, {"mismatch", {{"message", "3 of 8 differ"}}}}),
      diag("verify", {{"kind", "mismatch"}, {"mismatch", {{"message", "4 of 8 differ"}}}}),
      diag("compile", {{"kind", "compile"}, {"message", "codegen: 'arith.remf' not supported"}}),
      diag("compile", {{"kind", "compile"}, {"message", "name 'foo' is not defined"}}),
      // The full corpus's complex calls: a value the target cannot hold.
      diag("run", {{"kind", "runtime"},
                   {"message",
                    "#0: argument #0 has a kind the wrappers cannot take (opaque): "
                    "<complex64 tensor>"}}),
      {{"event", "diagnostic"}, {"stage", "lint"}, {"ok", true}},
      {{"event", "feedback"}, {"kind", "no_code"}},
      // No candidate at all: counted beside the table, not in it.
      {{"event", "verdict"},
       {"state", "failed"},
       {"reason", "provider: unsupported: no lowering rule for aten::foo in table"}},
  };
  FailureTaxonomy t = failure_taxonomy(records);
  EXPECT_EQ(t.total(), 7);
  std::string table = format_taxonomy(t);
  EXPECT_NE(table.find("7 failed stages"), std::string::npos) << table;
  EXPECT_NE(table.find("boundary_mask            1    14.3%       18%"), std::string::npos)
      << table;
  EXPECT_NE(table.find("numerics                 2    28.6%        5%"), std::string::npos)
      << table;
  EXPECT_NE(table.find("hardware_limits          2    28.6%       12%"), std::string::npos)
      << table;
  EXPECT_NE(table.find("alignment                0     0.0%       42%"), std::string::npos)
      << table;
  EXPECT_NE(table.find("other                    2    28.6%         -"), std::string::npos)
      << table;
  EXPECT_NE(table.find("compile: name 'foo' is not defined"), std::string::npos) << table;
  EXPECT_NE(table.find("no code in the reply"), std::string::npos) << table;
  EXPECT_NE(table.find("not in the table: 1 attempts ended without a candidate (provider: "
                       "unsupported 1)"),
            std::string::npos)
      << table;
}
