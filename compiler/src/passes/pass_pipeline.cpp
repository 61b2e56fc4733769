//===- pass_pipeline.cpp - the ordered ttir pass pipeline -----------------===//
//
// pass_registry() lists every pass in pipeline order; run_pass_pipeline()
// runs the enabled ones (the opt stage, compiler/src/pipeline.cpp).
//
//===----------------------------------------------------------------------===//
#include "opforge/compiler/passes.h"
#include "opforge/support/error.h"

namespace opforge::ttir {

const std::vector<Pass> &pass_registry() {
  static const std::vector<Pass> passes = {
      {"inline", "inline every tt.call and drop the callees",
       "Replaces each tt.call by a copy of the callee's body (arguments mapped to the call's "
       "operands, "
       "tt.return operands to the call's results), repeatedly until no call is left, then removes "
       "functions "
       "no longer called. Recursion is reported as an error.",
       inline_calls},
      {"canonicalize", "simplify ops to canonical forms",
       "Algebraic identities (x+0, x*1, x-0, x|0, x&-1, x^0, addptr(p, 0)), no-op shape ops "
       "(broadcast/reshape to "
       "the same type, trans by the identity order, splat of a splat), select on a constant "
       "condition or with "
       "equal branches, casts of casts that cancel, constants moved to the right of commutative "
       "ops, scf.if on a "
       "constant condition inlined and scf.for with a constant zero trip count replaced by its "
       "inits.",
       canonicalize},
      {"constant-fold", "evaluate ops whose operands are all constants",
       "Element-wise arith/math/cast/compare/select ops over splat constants are evaluated with "
       "the "
       "interpreter's own element semantics (wrapping, rounding), and "
       "splat/broadcast/expand_dims/reshape of a "
       "constant become a constant of the new shape.",
       fold_constants},
      {"cse", "merge identical pure operations",
       "Two pure operations without regions with the same kind, operands, attributes and result "
       "types are "
       "merged when the first dominates the second (same block or an enclosing one).",
       eliminate_common_subexpressions},
      {"licm", "hoist loop-invariant pure operations out of scf.for",
       "Pure operations without regions in an scf.for body whose operands are all defined outside "
       "the loop are "
       "moved before the loop (iterating to move chains). Loads, stores and atomics never move.",
       hoist_loop_invariants},
      {"dce", "remove operations whose results are unused",
       "Removes pure operations and loads whose results have no use, and region ops "
       "(scf.for/if/while, "
       "tt.reduce/scan) with unused results whose regions have no side effects, until nothing "
       "changes.",
       eliminate_dead_code},
  };
  return passes;
}

const Pass *find_pass(const std::string &name) {
  for (auto &p : pass_registry())
    if (p.name == name) return &p;
  return nullptr;
}

void run_pass_pipeline(Module &m, const compiler::Knobs &knobs, std::vector<std::string> *ran) {
  for (auto &n : knobs.disabled_passes)
    if (!find_pass(n)) throw Error("OPFORGE_DISABLE_PASSES names unknown pass '" + n + "'");
  // Two rounds: folding exposes more CSE/DCE and vice versa.
  for (int round = 0; round < 2; ++round) {
    for (auto &p : pass_registry()) {
      if (knobs.disabled_passes.count(p.name)) continue;
      if (round == 1 && p.name == "inline") continue;
      p.run(m);
      if (ran) ran->push_back(p.name);
      if (knobs.verify_each_pass) {
        try {
          verify(m);
        } catch (const Error &e) {
          throw Error("after pass '" + p.name + "': " + e.message(), e.context());
        }
      }
    }
  }
}

}  // namespace opforge::ttir
