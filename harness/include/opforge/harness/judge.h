//===- judge.h - the generator's CallJudge over recorded corpus calls -----===//
//
// The generator's loop (opforge/generator/evaluator.h) hands Run and Verify
// to a CallJudge. This one runs recorded OpInfo calls through a candidate's
// wrapper with the compiler's wrapper interpreter on an executor (a fresh
// one per call: the IR interpreter or the chip), reads mutated inputs back
// by schema argument name, and checks outputs with the verifier
// (assert_close semantics, the corpus's per-OpInfo tolerances).
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <functional>

#include "opforge/generator/evaluator.h"
#include "opforge/generator/inductor.h"
#include "opforge/generator/loop.h"
#include "opforge/generator/report.h"
#include "opforge/harness/corpus.h"
#include "opforge/harness/validate.h"

namespace opforge::harness {

struct JudgeOptions {
  std::vector<Call> calls;  // calls with expected outputs
  // The overload's schema; names the arguments so mutated inputs are read back.
  std::string schema;
  const Corpus *corpus = nullptr;       // tolerance overrides (optional)
  generator::ExecutorFactory executor;  // default: the IR interpreter
  // Wall clock for all calls of a run (and, apart, of the compile stage). The
  // first call always runs; calls past the limit are cut, not failed: Verify
  // then reports them (StageResult::cut) and a passing candidate is partial.
  double run_timeout_s = 60;
  int64_t max_wrapper_steps = 0;  // 0: the process's --max-wrapper-steps budget
  // The overload's recorded calls (0: calls.size()); when `calls` holds fewer,
  // Verify reports the rest as cut by `cut` ("--max-calls 8").
  int64_t recorded_calls = 0;
  std::string cut;
};

std::unique_ptr<generator::CallJudge> make_corpus_judge(JudgeOptions options);

// A JudgeFactory for the loop: each attempt gets its own judge over `options`.
generator::JudgeFactory corpus_judge_factory(JudgeOptions options);

// A generation run over corpus overloads (`opforge generate`, bench/generate):
// per overload, skip it when its library file exists (unless force) or the
// lowering table excludes it, else run the loop with a corpus judge, write a
// passing kernel to the library with a header comment (provider, model,
// attempt, date) and append an `overload_result` record to the run log.
// An overload passes only when a candidate passed every recorded call of
// every dtype. When max_calls or the wall-clock limit cut calls, a candidate
// that passed all it ran is `partial` ("checked K of N calls"): it is not
// written to the library (its source stays in the run log).
struct GenerateOptions {
  std::vector<std::string> overloads;
  std::string library_dir;  // created when missing
  bool force = false;       // regenerate overloads already in the library
  int jobs = 1;             // overloads in parallel (1 with the chip executor)
  // Recorded calls verified per overload, spread over its dtypes (SIZE_MAX: every
  // call; fewer than the overload has makes a passing candidate partial).
  size_t max_calls = SIZE_MAX;
  ExecutorKind executor = ExecutorKind::Interp;
  double run_timeout_s = 120;  // wall clock for the calls of one Run
  generator::LoopOptions loop;
  // Excluded overloads (excluded.json) are reported, not tried; may be null.
  std::shared_ptr<const generator::LoweringTable> table;
  // Called after each overload (done, total, passing), from worker threads.
  std::function<void(size_t, size_t, size_t)> progress;
};

std::vector<generator::OverloadOutcome> run_generation(const Corpus &corpus,
                                                       generator::Provider &provider,
                                                       const generator::PromptTemplates &templates,
                                                       generator::RunLog &log,
                                                       const GenerateOptions &options);

}  // namespace opforge::harness
