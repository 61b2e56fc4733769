// evaluator.cpp - the real KernelEvaluator: linter, frontend, wrapper interpreter, verifier.
#include "opforge/generator/evaluator.h"

#include <algorithm>
#include <chrono>
#include <memory>

#include "opforge/compiler/diagnostics.h"
#include "opforge/compiler/interp_executor.h"
#include "opforge/compiler/parser.h"
#include "opforge/compiler/wrapper.h"
#include "error_ctx.h"
#include "opforge/support/error.h"

namespace opforge::generator {

using compiler::TensorHandle;
using compiler::WrapperValue;

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

nlohmann::json failure_to_json(const Failure &f) {
  nlohmann::json j = {{"kind", failure_kind_name(f.kind)}, {"message", f.message}};
  if (!f.snippet.empty()) j["snippet"] = f.snippet;
  if (!f.findings.empty()) j["findings"] = compiler::findings_to_json(f.findings);
  if (!f.call_summary.empty()) j["call"] = f.call_summary;
  if (f.call_index >= 0) j["call_index"] = f.call_index;
  if (f.mismatch) {
    const auto &m = *f.mismatch;
    j["mismatch"] = {{"path", m.path},
                     {"message", m.message},
                     {"mismatched", m.mismatched},
                     {"total", m.total},
                     {"max_abs_error", m.max_abs_error},
                     {"max_rel_error", m.max_rel_error},
                     {"worst_index", m.worst_index},
                     {"worst_actual", m.worst_actual},
                     {"worst_expected", m.worst_expected},
                     {"atol", m.tolerance.atol},
                     {"rtol", m.tolerance.rtol}};
  }
  if (f.kind == Failure::Kind::Trap) {
    j["pc"] = f.pc;
    j["instruction"] = f.instruction;
  }
  return j;
}

namespace {

using Clock = std::chrono::steady_clock;

// Argument names of a schema in order: "f(Tensor(a!) self, Tensor other, *, Scalar alpha=1) -> T"
// -> {"self", "other", "alpha"}.
std::vector<std::string> schema_arg_names(const std::string &schema) {
  std::vector<std::string> names;
  size_t open = schema.find('(');
  if (open == std::string::npos) return names;
  int depth = 0;
  std::string cur;
  auto flush = [&] {
    std::string a = cur;
    cur.clear();
    if (auto eq = a.find('='); eq != std::string::npos) a.resize(eq);
    while (!a.empty() && a.back() == ' ') a.pop_back();
    if (a.empty() || a == "*") return;
    auto sp = a.find_last_of(' ');
    names.push_back(sp == std::string::npos ? a : a.substr(sp + 1));
  };
  for (size_t i = open + 1; i < schema.size(); ++i) {
    char c = schema[i];
    if (c == '(' || c == '[') ++depth;
    if (c == ')' || c == ']') {
      if (depth == 0) break;
      --depth;
    }
    if (c == ',' && depth == 0) {
      flush();
      continue;
    }
    cur += c;
  }
  flush();
  return names;
}

class ReferenceEvaluator : public KernelEvaluator {
 public:
  explicit ReferenceEvaluator(EvaluatorOptions o) : opts_(std::move(o)) {
    if (!opts_.executor) opts_.executor = interp_executor_factory();
  }

  void begin(const std::string &path, const std::string &source,
             const std::string &wrapper) override {
    path_ = path;
    source_ = source;
    wrapper_ = wrapper;
    module_.reset();
    outputs_.clear();
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
        run(r);
        break;
      case Stage::Verify:
        verify(r);
        break;
    }
    r.wall_ms = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
    return r;
  }

 private:
  EvaluatorOptions opts_;
  std::string path_, source_, wrapper_;
  std::unique_ptr<compiler::ast::Module> module_;
  std::vector<harness::Value> outputs_;
  std::vector<std::vector<std::pair<std::string, harness::Value>>> mutated_;

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
      return;
    }
    r.ok = true;
  }

  static WrapperValue to_wrapper(const harness::Value &v, compiler::Executor &ex,
                                 const std::string &where) {
    using K = harness::Value::Kind;
    switch (v.kind) {
      case K::None:
        return WrapperValue::none();
      case K::Bool:
        return WrapperValue::boolean(v.boolean);
      case K::Int:
        return WrapperValue::integer(v.integer);
      case K::Double:
        return WrapperValue::floating(v.number);
      case K::String:
        return WrapperValue::string(v.text);
      case K::DType:
        return WrapperValue::dtype(v.dtype);
      case K::Layout:
      case K::MemoryFormat:
      case K::Device:
        return WrapperValue::string(v.text);
      case K::Tensor: {
        const HostTensor &t = v.tensor;
        TensorHandle h;
        h.dtype = t.dtype();
        h.sizes = t.sizes();
        h.strides = t.strides();
        h.storage_offset = 0;
        // Keep the recorded strides when they describe a dense-enough view; else contiguous.
        HostTensor src = t;
        if (!t.is_contiguous()) {
          h.strides = HostTensor::contiguous_strides(t.sizes());
          src = t.contiguous();
        }
        h.buffer = ex.allocate(std::max<int64_t>(1, h.extent_bytes()));
        ex.copy_in(h, src);
        return WrapperValue::of(h);
      }
      case K::List: {
        std::vector<WrapperValue> items;
        for (size_t i = 0; i < v.list.size(); ++i)
          items.push_back(to_wrapper(v.list[i], ex, where + "[" + std::to_string(i) + "]"));
        return WrapperValue::list(std::move(items));
      }
      default:
        break;
    }
    throw Error("argument of kind '" + std::string(harness::value_kind_name(v.kind)) +
                    "' cannot be passed to a wrapper",
                at_field("", where));
  }

  static harness::Value from_wrapper(const WrapperValue &v, compiler::Executor &ex) {
    using K = WrapperValue::Kind;
    switch (v.kind) {
      case K::None:
        return harness::Value::none();
      case K::Bool:
        return harness::Value::of_bool(v.bool_value);
      case K::Int:
        return harness::Value::of_int(v.int_value);
      case K::Float:
        return harness::Value::of_double(v.float_value);
      case K::DType:
        return harness::Value::of_dtype(v.dtype_value);
      case K::Tensor:
        return harness::Value::of_tensor(ex.copy_out(v.tensor));
      case K::List:
      case K::Tuple: {
        std::vector<harness::Value> items;
        for (const auto &i : v.items) items.push_back(from_wrapper(i, ex));
        return harness::Value::of_list(std::move(items));
      }
      case K::Str: {
        harness::Value s;
        s.kind = harness::Value::Kind::String;
        s.text = v.str_value;
        return s;
      }
    }
    return harness::Value::none();
  }

  void run(StageResult &r) {
    if (!module_) throw Error("evaluator: Run before a successful Compile");
    auto deadline = Clock::now() + std::chrono::duration<double>(opts_.run_timeout_s);
    outputs_.clear();
    mutated_.clear();
    for (size_t i = 0; i < opts_.calls.size(); ++i) {
      const auto &call = opts_.calls[i];
      if (Clock::now() > deadline) {
        r.failure.kind = Failure::Kind::Timeout;
        r.failure.message = "run exceeded its wall-clock limit of " +
                            std::to_string(opts_.run_timeout_s) + " s after " + std::to_string(i) +
                            " of " + std::to_string(opts_.calls.size()) + " calls";
        r.failure.call_index = static_cast<int64_t>(i);
        r.failure.call_summary = call.summary();
        return;
      }
      try {
        auto ex = opts_.executor();
        compiler::WrapperOptions wo;
        wo.max_steps = opts_.max_wrapper_steps;
        compiler::WrapperInterpreter wi(*module_, *ex, wo);
        std::vector<WrapperValue> args;
        for (size_t a = 0; a < call.args.size(); ++a)
          args.push_back(to_wrapper(call.args[a], *ex, "args[" + std::to_string(a) + "]"));
        std::vector<std::pair<std::string, WrapperValue>> kwargs;
        for (const auto &[k, v] : call.kwargs) kwargs.emplace_back(k, to_wrapper(v, *ex, k));
        auto res = wi.run(wrapper_, args, kwargs);
        outputs_.push_back(from_wrapper(res.value, *ex));
        // Mutated inputs, read back by schema argument name.
        std::vector<std::pair<std::string, harness::Value>> mutated;
        auto names = schema_arg_names(opts_.schema);
        for (const auto &[name, expected] : call.mutated) {
          (void)expected;
          const WrapperValue *passed = nullptr;
          for (size_t a = 0; a < names.size() && a < args.size(); ++a)
            if (names[a] == name) passed = &args[a];
          for (size_t a = 0; a < kwargs.size(); ++a)
            if (kwargs[a].first == name) passed = &kwargs[a].second;
          if (passed) mutated.emplace_back(name, from_wrapper(*passed, *ex));
        }
        mutated_.push_back(std::move(mutated));
      } catch (const compiler::CompileError &e) {
        r.failure.kind = Failure::Kind::Runtime;
        r.failure.message = e.what();
        r.failure.snippet = e.snippet();
      } catch (const Error &e) {
        r.failure.kind = e.context().pc ? Failure::Kind::Trap : Failure::Kind::Runtime;
        r.failure.message = e.what();
        if (e.context().pc) r.failure.pc = *e.context().pc;
      } catch (const std::exception &e) {
        r.failure.kind = Failure::Kind::Runtime;
        r.failure.message = std::string("internal error: ") + e.what();
      }
      if (r.failure.kind != Failure::Kind::None) {
        r.failure.call_index = static_cast<int64_t>(i);
        r.failure.call_summary = call.summary();
        return;
      }
    }
    r.ok = true;
  }

  void verify(StageResult &r) {
    if (outputs_.size() != opts_.calls.size())
      throw Error("evaluator: Verify before a successful Run");
    for (size_t i = 0; i < opts_.calls.size(); ++i) {
      const auto &call = opts_.calls[i];
      auto verdict = harness::verify_call(call, outputs_[i], mutated_[i], opts_.corpus);
      if (!verdict.ok()) {
        r.failure.kind = Failure::Kind::Mismatch;
        r.failure.message = verdict.first_reason();
        r.failure.call_index = static_cast<int64_t>(i);
        r.failure.call_summary = call.summary();
        r.failure.mismatch = verdict.mismatches.front();
        r.failure.mismatches_total = static_cast<int64_t>(verdict.mismatches.size());
        return;
      }
      ++r.calls_checked;
    }
    r.ok = true;
  }
};

}  // namespace

std::unique_ptr<KernelEvaluator> make_reference_evaluator(EvaluatorOptions options) {
  return std::make_unique<ReferenceEvaluator>(std::move(options));
}

}  // namespace opforge::generator
