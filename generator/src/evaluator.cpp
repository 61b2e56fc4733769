// evaluator.cpp - the real KernelEvaluator: linter and frontend here, Run and Verify by a
// CallJudge.
#include "opforge/generator/evaluator.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <memory>

#include "opforge/compiler/diagnostics.h"
#include "opforge/compiler/interp_executor.h"
#include "opforge/compiler/parser.h"
#include "error_ctx.h"
#include "opforge/support/error.h"

namespace opforge::generator {

std::string stage_name(Stage s) {
  switch (s) {
    case Stage::Lint:
      return "lint";
    case Stage::Compile:
      return "compile";
    case Stage::Run:
      return "run";
    case Stage::Verify:
      return "verify";
  }
  return "?";
}

std::string failure_kind_name(Failure::Kind k) {
  switch (k) {
    case Failure::Kind::None:
      return "none";
    case Failure::Kind::NoCode:
      return "no_code";
    case Failure::Kind::Lint:
      return "lint";
    case Failure::Kind::Compile:
      return "compile";
    case Failure::Kind::Runtime:
      return "runtime";
    case Failure::Kind::Trap:
      return "trap";
    case Failure::Kind::Mismatch:
      return "mismatch";
    case Failure::Kind::Timeout:
      return "timeout";
  }
  return "?";
}

std::string wrapper_name(const std::string &overload) {
  std::string s = overload;
  if (auto p = s.find("::"); p != std::string::npos) s = s.substr(p + 2);
  for (auto &c : s)
    if (c == '.') c = '_';
  return s;
}

ExecutorFactory interp_executor_factory() {
  return [] { return std::make_unique<compiler::InterpExecutor>(); };
}

namespace {

// A double as JSON: non-finite values as the strings "inf", "-inf", "nan"
// (docs/generator/runlog.md).
nlohmann::json json_number(double v) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  return v;
}

}  // namespace

nlohmann::json failure_to_json(const Failure &f) {
  nlohmann::json j = {{"kind", failure_kind_name(f.kind)}, {"message", f.message}};
  if (!f.snippet.empty()) j["snippet"] = f.snippet;
  if (!f.findings.empty()) j["findings"] = compiler::findings_to_json(f.findings);
  if (!f.call_summary.empty()) j["call"] = f.call_summary;
  if (f.call_index >= 0) j["call_index"] = f.call_index;
  if (!f.failing_calls.empty()) j["failing_calls"] = f.failing_calls;
  if (f.mismatch) {
    const auto &m = *f.mismatch;
    j["mismatch"] = {{"path", m.path},
                     {"message", m.message},
                     {"mismatched", m.mismatched},
                     {"total", m.total},
                     {"max_abs_error", json_number(m.max_abs_error)},
                     {"max_rel_error", json_number(m.max_rel_error)},
                     {"worst_index", m.worst_index},
                     {"worst_actual", json_number(m.worst_actual)},
                     {"worst_expected", json_number(m.worst_expected)},
                     {"atol", json_number(m.tolerance.atol)},
                     {"rtol", json_number(m.tolerance.rtol)}};
    for (auto [key, windows] :
         {std::pair{"operands", &m.operands}, std::pair{"results", &m.results}}) {
      if (windows->empty()) continue;
      nlohmann::json arr = nlohmann::json::array();
      for (const auto &w : *windows)
        arr.push_back(
            {{"name", w.name}, {"type", w.type}, {"region", w.region}, {"values", w.values}});
      j["mismatch"][key] = arr;
    }
  }
  if (f.kind == Failure::Kind::Trap) {
    j["pc"] = f.pc;
    j["instruction"] = f.instruction;
  }
  return j;
}

namespace {

using Clock = std::chrono::steady_clock;

class ReferenceEvaluator : public KernelEvaluator {
 public:
  explicit ReferenceEvaluator(EvaluatorOptions o) : opts_(std::move(o)) {}

  void begin(const std::string &path, const std::string &source,
             const std::string &wrapper) override {
    path_ = path;
    source_ = source;
    wrapper_ = wrapper;
    module_.reset();
    ran_ = false;
    if (!judge_ && opts_.judge) judge_ = opts_.judge();
  }

  StageResult run_stage(Stage stage) override {
    auto t0 = Clock::now();
    StageResult r;
    r.stage = stage;
    switch (stage) {
      case Stage::Lint:
        lint(r);
        break;
      case Stage::Compile:
        compile(r);
        break;
      case Stage::Run:
        if (!module_) throw Error("evaluator: Run before a successful Compile");
        if (!judge_) throw Error("evaluator: no call judge to run the calls with");
        r = judge_->run(*module_, wrapper_);
        ran_ = r.ok;
        break;
      case Stage::Verify:
        if (!ran_) throw Error("evaluator: Verify before a successful Run");
        r = judge_->verify();
        break;
    }
    r.stage = stage;
    r.wall_ms = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
    return r;
  }

 private:
  EvaluatorOptions opts_;
  std::unique_ptr<CallJudge> judge_;
  std::string path_, source_, wrapper_;
  std::unique_ptr<compiler::ast::Module> module_;
  bool ran_ = false;

  void lint(StageResult &r) {
    auto findings = compiler::lint_source(path_, source_, opts_.lint);
    if (!compiler::has_errors(findings)) {
      r.ok = true;
      return;
    }
    r.failure.kind = Failure::Kind::Lint;
    for (const auto &f : findings)
      if (f.severity == compiler::Severity::Error) r.failure.findings.push_back(f);
    r.failure.message = compiler::format_finding(r.failure.findings.front());
    compiler::SourceFile file(path_, source_);
    r.failure.snippet = compiler::source_snippet(file, r.failure.findings.front().loc);
  }

  void compile(StageResult &r) {
    try {
      module_ = std::make_unique<compiler::ast::Module>(compiler::parse_source(path_, source_));
    } catch (const compiler::CompileError &e) {
      r.failure.kind = Failure::Kind::Compile;
      r.failure.message = e.what();
      r.failure.snippet = e.snippet();
      return;
    } catch (const Error &e) {
      r.failure.kind = Failure::Kind::Compile;
      r.failure.message = e.what();
      return;
    }
    if (module_->jit_functions().empty()) {
      r.failure.kind = Failure::Kind::Compile;
      r.failure.message = path_ + ": no @triton.jit kernel in the file";
      return;
    }
    const auto *fn = module_->function(wrapper_);
    if (!fn || fn->is_jit()) {
      r.failure.kind = Failure::Kind::Compile;
      r.failure.message = path_ + ": no host wrapper function named '" + wrapper_ + "'";
      module_.reset();
      return;
    }
    if (judge_) {
      // The kernels themselves, compiled to the target for the recorded calls' signatures.
      StageResult compiled = judge_->compile(*module_, wrapper_);
      if (!compiled.ok) {
        r = compiled;
        module_.reset();
        return;
      }
    }
    r.ok = true;
  }
};

}  // namespace

std::unique_ptr<KernelEvaluator> make_reference_evaluator(EvaluatorOptions options) {
  return std::make_unique<ReferenceEvaluator>(std::move(options));
}

}  // namespace opforge::generator
