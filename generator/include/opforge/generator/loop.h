//===- loop.h - the per-(overload, attempt) generation state machine -------===//
//
//   Generate -> Lint -> Compile -> Run -> Verify -> Done
//       ^                                     |
//       +------------- Feedback <-------------+  (any failure)
//
// Deterministic: the next state depends only on the current state and the
// stage's result. Verify checks every call the judge holds (all recorded
// calls unless a bound cut them): a candidate is Done only when all of them
// passed, and a mismatch anywhere comes back as feedback. Budgets: at most `max_dialogs` dialogs
// per attempt and `max_calls_per_dialog` model calls per dialog (a new dialog starts from the first
// prompt again, carrying the last feedback), a wall-clock limit per attempt. A provider failure
// (HTTP error after retries, timeout, malformed response) ends the attempt in Failed. The k
// attempts of an overload advance in lockstep so that every attempt in Generate goes to the
// provider in one batch (concurrent requests).
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "opforge/generator/evaluator.h"
#include "opforge/generator/feedback.h"
#include "opforge/generator/prompt.h"
#include "opforge/generator/provider.h"
#include "opforge/generator/runlog.h"

namespace opforge::generator {

enum class State { Generate, Lint, Compile, Run, Verify, Feedback, Done, Failed };
std::string state_name(State s);

struct LoopBudget {
  int max_dialogs = 3;
  int max_calls_per_dialog = 15;
  double max_wall_s = 3600;  // per attempt
};

struct AttemptResult {
  int attempt = 0;
  State final_state = State::Failed;
  std::string reason;  // why it failed ("" when Done)
  int model_calls = 0;
  int dialogs = 0;
  std::string source;  // the passing source (Done)
  std::string last_feedback;
  // The last stage failure on one line ("mismatch: out: 3 of 8 elements differ ...
  // [call aten::add.Tensor(f32[8], f32[8]) -> f32[8]]"); "" when none.
  std::string last_failure;
  // The class of the last stage failure (taxonomy.h: "alignment", ..., "other"); "" when none.
  std::string last_failure_class;
  // The last candidate's Verify figures (StageResult): calls checked, failed and
  // recorded, and what cut the check short ("" when nothing did). 0 when the
  // last candidate never reached Verify.
  int64_t calls_checked = 0;
  int64_t calls_failed = 0;
  int64_t calls_recorded = 0;
  std::string cut;
  // Done, but a bound cut calls: the candidate passed every call it ran, not
  // every recorded call. Not a pass (docs/generator/README.md).
  bool partial() const { return final_state == State::Done && calls_checked < calls_recorded; }
  bool passed() const { return final_state == State::Done && !partial(); }
};

struct OverloadJob {
  std::string overload;
  PromptContext context;  // overload, wrapper, schema, ... (feedback filled by the loop)
  // A fresh evaluator for one attempt.
  std::function<std::unique_ptr<KernelEvaluator>()> make_evaluator;
};

struct LoopOptions {
  LoopBudget budget;
  int k = 1;          // independent attempts
  uint64_t seed = 0;  // attempt i uses seed + i
  FeedbackOptions feedback;
};

// Runs the k attempts of one overload to Done or Failed, logging everything.
std::vector<AttemptResult> run_overload(const OverloadJob &job, const PromptTemplates &templates,
                                        Provider &provider, RunLog &log,
                                        const LoopOptions &options);

// Unbiased pass@k estimator (Chen et al. 2021): 1 - C(n-c, k) / C(n, k).
double pass_at_k(int n, int c, int k);

}  // namespace opforge::generator
