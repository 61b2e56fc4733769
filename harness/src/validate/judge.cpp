// judge.cpp - the generator's CallJudge: recorded corpus calls through a wrapper, then the
// verifier.
#include "opforge/harness/judge.h"

#include <algorithm>
#include <chrono>
#include <set>

#include "opforge/compiler/diagnostics.h"
#include "opforge/compiler/interp_executor.h"
#include "opforge/compiler/wrapper.h"
#include "opforge/harness/validate.h"
#include "opforge/harness/verifier.h"
#include "opforge/support/error.h"
#include "call_tolerance.h"
#include "tied_indices.h"

namespace opforge::harness {

namespace {

using compiler::TensorHandle;
using compiler::WrapperValue;
using generator::Failure;
using generator::StageResult;
using Clock = std::chrono::steady_clock;

WrapperValue to_wrapper(const Value &v, compiler::Executor &ex, const std::string &where) {
  using K = Value::Kind;
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
      // Non-contiguous recorded inputs travel as dense copies.
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
  ErrorContext ctx;
  ctx.path = where;
  throw Error("argument of kind '" + std::string(value_kind_name(v.kind)) +
                  "' cannot be passed to a wrapper",
              ctx);
}

Value from_wrapper(const WrapperValue &v, compiler::Executor &ex) {
  using K = WrapperValue::Kind;
  switch (v.kind) {
    case K::None:
      return Value::none();
    case K::Bool:
      return Value::of_bool(v.bool_value);
    case K::Int:
      return Value::of_int(v.int_value);
    case K::Float:
      return Value::of_double(v.float_value);
    case K::DType:
      return Value::of_dtype(v.dtype_value);
    case K::Tensor:
      return Value::of_tensor(ex.copy_out(v.tensor));
    case K::List:
    case K::Tuple: {
      std::vector<Value> items;
      for (const auto &i : v.items) items.push_back(from_wrapper(i, ex));
      return Value::of_list(std::move(items));
    }
    case K::Str: {
      Value s;
      s.kind = Value::Kind::String;
      s.text = v.str_value;
      return s;
    }
  }
  return Value::none();
}

// Device buffers a wrapper value refers to (tensors, nested in lists and tuples).
void collect_buffers(const WrapperValue &v, std::set<compiler::BufferId> &out) {
  if (v.kind == WrapperValue::Kind::Tensor) out.insert(v.tensor.buffer);
  if (v.kind == WrapperValue::Kind::List || v.kind == WrapperValue::Kind::Tuple)
    for (const auto &i : v.items) collect_buffers(i, out);
}

// Frees the inputs and results of one call once they are read back, so a run
// over thousands of calls does not fill the device's memory (best effort: a
// buffer the wrapper freed itself is skipped).
struct CallBuffers {
  compiler::Executor &ex;
  std::set<compiler::BufferId> ids;
  ~CallBuffers() {
    for (auto b : ids) try {
        ex.free(b);
      } catch (...) {
      }
  }
};

generator::MismatchFacts facts(const Mismatch &m) {
  generator::MismatchFacts f;
  f.path = m.path;
  f.message = m.message;
  f.mismatched = m.mismatched;
  f.total = m.total;
  f.max_abs_error = m.max_abs_error;
  f.max_rel_error = m.max_rel_error;
  f.worst_index = m.worst_index;
  f.worst_actual = m.worst_actual;
  f.worst_expected = m.worst_expected;
  f.tolerance.atol = m.tolerance.atol;
  f.tolerance.rtol = m.tolerance.rtol;
  return f;
}

class CorpusJudge : public generator::CallJudge {
 public:
  explicit CorpusJudge(std::shared_ptr<const JudgeOptions> o)
      : shared_(std::move(o)), opts_(*shared_), names_(schema_argument_names(opts_.schema)) {
    executor_ = opts_.executor ? opts_.executor : generator::interp_executor_factory();
  }

  size_t call_count() const override { return opts_.calls.size(); }

  StageResult run(const compiler::ast::Module &module, const std::string &wrapper) override {
    StageResult r;
    r.stage = generator::Stage::Run;
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
        return r;
      }
      try {
        auto ex = executor_();
        CallBuffers held{*ex, {}};
        compiler::WrapperOptions wo;
        wo.max_steps = opts_.max_wrapper_steps;
        compiler::WrapperInterpreter wi(module, *ex, wo);
        std::vector<WrapperValue> args;
        for (size_t a = 0; a < call.args.size(); ++a)
          args.push_back(to_wrapper(call.args[a], *ex, "args[" + std::to_string(a) + "]"));
        std::vector<std::pair<std::string, WrapperValue>> kwargs;
        for (const auto &[k, v] : call.kwargs) kwargs.emplace_back(k, to_wrapper(v, *ex, k));
        for (const auto &a : args) collect_buffers(a, held.ids);
        for (const auto &kv : kwargs) collect_buffers(kv.second, held.ids);
        auto res = wi.run(wrapper, args, kwargs);
        collect_buffers(res.value, held.ids);
        outputs_.push_back(from_wrapper(res.value, *ex));
        // Mutated inputs, read back by schema argument name.
        std::vector<std::pair<std::string, Value>> mutated;
        for (const auto &[name, expected] : call.mutated) {
          (void)expected;
          const WrapperValue *passed = nullptr;
          for (size_t a = 0; a < names_.size() && a < args.size(); ++a)
            if (names_[a] == name) passed = &args[a];
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
        return r;
      }
    }
    r.ok = true;
    return r;
  }

  StageResult verify() override {
    StageResult r;
    r.stage = generator::Stage::Verify;
    if (outputs_.size() != opts_.calls.size())
      throw Error("judge: verify() before a successful run()");
    for (size_t i = 0; i < opts_.calls.size(); ++i) {
      const auto &call = opts_.calls[i];
      accept_tied_indices(call, outputs_[i]);
      auto verdict = verify_call(call, outputs_[i], mutated_[i], opts_.corpus,
                                 call_compare_options(call, opts_.corpus));
      if (!verdict.ok()) {
        r.failure.kind = Failure::Kind::Mismatch;
        r.failure.message = verdict.first_reason();
        r.failure.call_index = static_cast<int64_t>(i);
        r.failure.call_summary = call.summary();
        r.failure.mismatch = facts(verdict.mismatches.front());
        r.failure.mismatches_total = static_cast<int64_t>(verdict.mismatches.size());
        return r;
      }
      ++r.calls_checked;
    }
    r.ok = true;
    return r;
  }

 private:
  std::shared_ptr<const JudgeOptions> shared_;
  const JudgeOptions &opts_;
  generator::ExecutorFactory executor_;
  std::vector<std::string> names_;
  std::vector<Value> outputs_;
  std::vector<std::vector<std::pair<std::string, Value>>> mutated_;
};

}  // namespace

std::unique_ptr<generator::CallJudge> make_corpus_judge(JudgeOptions options) {
  return std::make_unique<CorpusJudge>(std::make_shared<const JudgeOptions>(std::move(options)));
}

generator::JudgeFactory corpus_judge_factory(JudgeOptions options) {
  auto shared = std::make_shared<const JudgeOptions>(std::move(options));
  return [shared] { return std::make_unique<CorpusJudge>(shared); };
}

}  // namespace opforge::harness
