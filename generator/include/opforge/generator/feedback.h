//===- feedback.h - deterministic summaries of a failed candidate ---------===//
//
// Turns a Failure into the short, structured message the next prompt
// carries: lint findings (rule, line, message, source line and caret),
// the first compile error with its caret, runtime errors and traps at the
// kernel's file:line:col with the source line (the wrapper's launch line only
// as context), numerical mismatches (max abs/rel error, worst index, windows
// of the operands and of the expected and actual values around it, how many
// calls mismatch by dtype, the failing call's shapes and dtypes) and timeouts.
// A failure that repeats the previous turn's is not restated: the feedback
// says so and shows what changed. A new dialog carries the last candidate and
// its feedback in a headed section. The same input always gives the same
// text, never longer than max_bytes.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstddef>
#include <string>

#include "opforge/generator/evaluator.h"

namespace opforge::generator {

struct FeedbackOptions {
  size_t max_bytes = 4096;
  size_t max_findings = 5;
};

std::string summarize_failure(Stage stage, const Failure &failure,
                              const FeedbackOptions &options = {});

// True when `failure` is the previous turn's failure again: the same stage, kind
// and failing call, and the same output path (mismatch), first finding (lint),
// or message (other kinds); the figures of a mismatch may differ.
bool same_failure(Stage stage, const Failure &failure, Stage previous_stage,
                  const Failure &previous);

// The feedback for a failure that same_failure() says repeats `previous`:
// "same failure as the previous turn" and what changed (old -> new figures, the
// new actual values) or "nothing changed", without restating the rest.
std::string summarize_repeated_failure(Stage stage, const Failure &failure, const Failure &previous,
                                       const FeedbackOptions &options = {});

// The section a new dialog's first prompt ends with: a heading, the previous
// dialog's last candidate in a python block (omitted when empty) and its feedback.
std::string carried_section(const std::string &code, const std::string &feedback);

}  // namespace opforge::generator
