//===- affine.cpp - which block values are affine in their indices --------===//
//
// The DMA lowering needs pointer blocks of the form
//   base + sum_d index_d * stride_d
// where base and strides are run-time scalars: the emitter then evaluates the
// block at index 0 and at the unit index of each dimension to get them. This
// file proves the form from the ops that build the block; anything it does
// not recognise (loaded offsets, divisions, comparisons) is not affine and
// keeps the per-element (gather/scatter) path.
//
// Wrapped-affine blocks: Triton's matmul tutorial builds its row and column
// offsets as (pid * BLOCK + tl.arange(0, BLOCK)) % M. A remainder of an
// affine i32 block by a uniform one equals its operand wherever the operand
// lies in [0, M), so such a pointer block is affine under a run-time check
// (the code generator's wrap guard, llir_wrap.cpp); a tile whose indices do
// wrap takes the element path.
//
//===----------------------------------------------------------------------===//
#include <set>

#include "opforge/compiler/lowered.h"

namespace opforge::compiler {
namespace {

using ttir::OpKind;
using ttir::Value;

// The scf.for owning block argument `v` (nullptr if `v` is not one).
const ttir::Operation *owning_for(const Value *v) {
  if (v->def || !v->owner || !v->owner->parent) return nullptr;
  const ttir::Operation *op = v->owner->parent;
  return op->kind == OpKind::For ? op : nullptr;
}

class Affinity {
 public:
  explicit Affinity(bool wraps = false) : wraps_(wraps) {}

  bool uniform(const Value *v) {
    if (!v->type.is_block()) return true;
    if (!v->def) {
      // A loop-carried block is uniform when its initial value and every
      // update are.
      const ttir::Operation *f = owning_for(v);
      if (!f || v->index == 0 || !enter(v)) return false;
      bool ok = uniform(f->operands[v->index + 2]) && uniform(yielded(*f, v->index));
      leave(v);
      return ok;
    }
    const ttir::Operation &op = *v->def;
    switch (op.kind) {
      case OpKind::Splat:
      case OpKind::Constant:
        return true;
      case OpKind::Broadcast:
      case OpKind::ExpandDims:
      case OpKind::ExtSI:
      case OpKind::ExtUI:
      case OpKind::TruncI:
        return uniform(op.operands[0]);
      case OpKind::AddI:
      case OpKind::SubI:
      case OpKind::MulI:
      case OpKind::AddPtr:
        return uniform(op.operands[0]) && uniform(op.operands[1]);
      default:
        return false;
    }
  }

  bool affine(const Value *v) {
    if (!v->type.is_block() || uniform(v)) return true;
    if (!v->def) {
      // Loop-carried: affine initial value, advanced by a uniform amount.
      const ttir::Operation *f = owning_for(v);
      if (!f || v->index == 0 || !enter(v)) return false;
      bool ok = affine(f->operands[v->index + 2]) && advances_uniformly(*f, v);
      leave(v);
      return ok;
    }
    const ttir::Operation &op = *v->def;
    switch (op.kind) {
      case OpKind::MakeRange:
        return true;
      case OpKind::Broadcast:
      case OpKind::ExpandDims:
      case OpKind::ExtSI:
      case OpKind::ExtUI:
      case OpKind::TruncI:
        return affine(op.operands[0]);
      case OpKind::AddI:
      case OpKind::SubI:
      case OpKind::AddPtr:
        return affine(op.operands[0]) && affine(op.operands[1]);
      case OpKind::MulI:
        return (uniform(op.operands[0]) && affine(op.operands[1])) ||
               (uniform(op.operands[1]) && affine(op.operands[0]));
      case OpKind::RemSI: {
        // (affine % uniform), i32, its operand strictly affine (no remainder in it).
        if (!wraps_ || op.operands[0]->type.elem != ttir::Elem::I32) return false;
        wraps_ = false;
        bool ok = affine(op.operands[0]) && uniform(op.operands[1]);
        wraps_ = true;
        return ok;
      }
      default:
        return false;
    }
  }

 private:
  static const Value *yielded(const ttir::Operation &f, int arg_index) {
    const ttir::Operation *y = f.regions[0]->terminator();
    return y ? y->operands[arg_index - 1] : nullptr;
  }

  // The yielded value is the argument itself, or the argument plus a uniform
  // offset (a_ptrs += BLOCK_K * stride).
  bool advances_uniformly(const ttir::Operation &f, const Value *arg) {
    const Value *y = yielded(f, arg->index);
    if (!y) return false;
    if (y == arg) return true;
    if (!y->def) return false;
    const ttir::Operation &op = *y->def;
    if (op.kind != OpKind::AddPtr && op.kind != OpKind::AddI) return false;
    return (op.operands[0] == arg && uniform(op.operands[1])) ||
           (op.kind == OpKind::AddI && op.operands[1] == arg && uniform(op.operands[0]));
  }

  bool enter(const Value *v) { return active_.insert(v).second; }
  void leave(const Value *v) { active_.erase(v); }

  bool wraps_;                      // accept (affine % uniform) terms
  std::set<const Value *> active_;  // loop-carried values being proved (cycles)
};

void collect_remainders(const Value *v, std::set<const Value *> &seen,
                        std::vector<const ttir::Operation *> &out) {
  if (!v->type.is_block() || !seen.insert(v).second) return;
  if (!v->def) {
    // A loop-carried block: its initial value and what each iteration yields.
    const ttir::Operation *f = owning_for(v);
    if (!f || v->index == 0) return;
    collect_remainders(f->operands[v->index + 2], seen, out);
    if (const ttir::Operation *y = f->regions[0]->terminator())
      collect_remainders(y->operands[v->index - 1], seen, out);
    return;
  }
  if (v->def->kind == OpKind::RemSI) {
    out.push_back(v->def);
    return;
  }
  for (auto *o : v->def->operands) collect_remainders(o, seen, out);
}

}  // namespace

bool is_affine_block(const Value *v) { return Affinity().affine(v); }
bool is_uniform_block(const Value *v) { return Affinity().uniform(v); }
bool is_wrapped_affine_block(const Value *v) { return Affinity(true).affine(v); }

std::vector<const ttir::Operation *> wrap_remainders(const Value *v) {
  std::vector<const ttir::Operation *> out;
  if (is_affine_block(v)) return out;
  std::set<const Value *> seen;
  collect_remainders(v, seen, out);
  return out;
}

}  // namespace opforge::compiler
