//===- passes.h - ttir optimisation passes and their ordered pipeline -----===//
//
// One pass per file under compiler/src/passes/, each with a one-line summary
// and a description. pass_registry() lists them in pipeline order;
// run_pass_pipeline() runs the enabled ones (Knobs::disabled_passes skips
// some), verifying the module after each when Knobs::verify_each_pass is set.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "opforge/compiler/ir.h"
#include "opforge/compiler/knobs.h"

namespace opforge::ttir {

struct Pass {
  std::string name;         // "cse"
  std::string summary;      // one line
  std::string description;  // a paragraph: what it does and does not do
  // Runs on the whole module; returns true when it changed something.
  std::function<bool(Module &)> run;
};

// Every pass, in pipeline order.
const std::vector<Pass> &pass_registry();
const Pass *find_pass(const std::string &name);
// Runs the pipeline; the pass names run are appended to `ran` when given.
void run_pass_pipeline(Module &m, const compiler::Knobs &knobs,
                       std::vector<std::string> *ran = nullptr);

// The passes themselves (each defined in its own file).
bool inline_calls(Module &m);
bool canonicalize(Module &m);
bool fold_constants(Module &m);
bool eliminate_common_subexpressions(Module &m);
bool hoist_loop_invariants(Module &m);
bool eliminate_dead_code(Module &m);

}  // namespace opforge::ttir
