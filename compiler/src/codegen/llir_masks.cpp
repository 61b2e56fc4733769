//===- llir_masks.cpp - element loops versioned on range masks proved all-true ===//
//
// A range mask such as `cols < n` (an affine block compared with a uniform
// one) read inside a fused element expression costs every strip an index
// vector (i64 after vectorization: twice the registers of fp32 data), a
// vector compare and a merge for each tl.where or masked load it guards. When
// the block's corners show that every element holds (affine_compare_all, a
// few scalar compares), the loop runs a version in which those masks are the
// constant true: `tl.where(mask, x - mean, 0.)` is `x - mean`, a masked load a
// plain load, a masked store a plain store. Otherwise (a partial tile, or
// the check could not prove it) the general version runs, so results do not
// depend on the version taken. Only the version that runs is fetched.
//
//===----------------------------------------------------------------------===//
#include "llir_emitter.h"

namespace opforge::compiler::llir {

// Range masks read by the fused element expressions of `roots`, with the
// run-time check that each of them holds everywhere (emitted here).
void Emitter::collect_range_masks(const Value *v, std::set<const Value *> &seen,
                                  std::vector<std::pair<const Value *, std::string>> &out) {
  if (!v || !v->type.is_block() || !seen.insert(v).second) return;
  if (known_true_.count(v) || carried_.count(v) || dma_raw_.count(v) || bufs_.count(v)) return;
  const Operation *d = v->def;
  if (!d || !d->regions.empty()) return;
  if (d->kind == OpKind::CmpI && v->type.elem == Elem::I1) {
    std::string holds = affine_compare_all(*d);  // "" (nothing emitted) when not of that form
    if (!holds.empty()) {
      out.emplace_back(v, holds);
      return;
    }
  }
  for (auto *o : d->operands) collect_range_masks(o, seen, out);
}

void Emitter::mask_versioned(const std::vector<const Value *> &roots,
                             const std::function<void()> &body) {
  std::set<const Value *> seen;
  std::vector<std::pair<const Value *, std::string>> masks;
  for (auto *r : roots) collect_range_masks(r, seen, masks);
  if (masks.empty()) return body();
  std::string all = masks[0].second;
  for (size_t k = 1; k < masks.size(); ++k) all = emit("and i1 " + all + ", " + masks[k].second);
  branch(
      all,
      [&] {
        auto saved = known_true_;
        for (auto &m : masks) known_true_.insert(m.first);
        body();
        known_true_ = saved;
      },
      body);
}

}  // namespace opforge::compiler::llir
