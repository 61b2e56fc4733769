//===- step_meter.h - the IR interpreter's per-launch work budget ---------===//
//
// Counts the work of each op before it runs (its result elements, a dot's
// multiply-adds, plus a dispatch overhead) against --max-interp-steps, and each
// result block against --max-interp-block-bytes (support/budgets.h).
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>

#include "opforge/compiler/ir.h"
#include "opforge/support/budgets.h"

namespace opforge::ttir::interp {

class StepMeter {
 public:
  // The error to raise at `op` when its work does not fit the budgets; nullopt when it does.
  std::optional<std::string> charge(const Operation &op) {
    const Budgets &b = budgets();
    int64_t cost = kOpOverhead;
    for (const auto &r : op.results) {
      const int64_t n = std::max<int64_t>(1, r->type.numel());
      if (n > b.interp_block_bytes / static_cast<int64_t>(sizeof(int64_t)))
        return "a block of " + std::to_string(n) + " elements (" +
               std::to_string(n * static_cast<int64_t>(sizeof(int64_t))) + " bytes): " +
               budget_exceeded("IR interpreter", "block size budget", &Budgets::interp_block_bytes,
                               "bytes");
      cost += n;
    }
    if (op.kind == OpKind::Dot && op.operands.size() >= 2 && op.operands[0]->type.rank() == 2)
      cost += std::max<int64_t>(1, op.results[0]->type.numel()) * op.operands[0]->type.shape[1];
    steps_ += cost;
    if (steps_ > b.interp_steps)
      return budget_exceeded("IR interpreter", "step budget", &Budgets::interp_steps,
                             "block elements") +
             "; a runaway loop or too large a launch";
    return std::nullopt;
  }

 private:
  // What one op costs beyond its elements: dispatch takes about as long as 16 elements.
  static constexpr int64_t kOpOverhead = 16;
  int64_t steps_ = 0;  // block elements processed this launch
};

}  // namespace opforge::ttir::interp
