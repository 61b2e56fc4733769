//===- feedback.h - deterministic summaries of a failed candidate ---------===//
//
// Turns a Failure into the short, structured message the next prompt
// carries: lint findings (rule, line, message, source line and caret),
// the first compile error with its caret, runtime errors and traps (PC,
// instruction, source line when known), numerical mismatches (max abs/rel
// error, worst index, the failing call's shapes and dtypes) and timeouts.
// The same input always gives the same text, never longer than max_bytes.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstddef>
#include <string>

#include "opforge/generator/evaluator.h"

namespace opforge::generator {

struct FeedbackOptions {
  size_t max_bytes = 2048;
  size_t max_findings = 5;
};

std::string summarize_failure(Stage stage, const Failure &failure,
                              const FeedbackOptions &options = {});

}  // namespace opforge::generator
