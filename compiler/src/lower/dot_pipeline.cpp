//===- dot_pipeline.cpp - which K-loop operand loads are prefetched one iteration ahead ===//
//
// In a K loop (`for k: a = load(a_ptrs, mask); b = load(...); acc =
// tl.dot(a, b, acc); a_ptrs += ...`) the DMA of iteration k+1's operands can
// run while the DPE multiplies iteration k's, if the code generator can
// compute k+1's pointers, masks and `other` values ahead of time. A DMA load
// qualifies when
//  - it sits directly in the body of an scf.for whose body has exactly one
//    DPE dot and writes no memory (no store, atomic or call), and its result
//    is only an operand (a or b) of that dot;
//  - everything its pointer, mask and `other` depend on inside the loop is
//    a pure op without regions that is not materialized into a buffer (so it
//    can be re-evaluated for another iteration), the induction variable, a
//    loop-carried scalar or a carried affine block (plan.carried_affine),
//    and the values those carried arguments are advanced to (their yield
//    operands) satisfy the same rule.
// The emitter (codegen/llir_dot.cpp) then issues iteration 0's transfer
// before the loop and, in iteration k, the transfer of k+1 into the other of
// two buffers right after the DPE has been given k's first command.
//
//===----------------------------------------------------------------------===//
#include "opforge/compiler/lowered.h"

namespace opforge::compiler {
namespace {

using ttir::Block;
using ttir::Operation;
using ttir::OpKind;
using ttir::Value;

// Whether `b` is `body` or nested inside one of its ops.
bool within(const Block *b, const Block &body) {
  while (b) {
    if (b == &body) return true;
    b = b->parent ? b->parent->parent : nullptr;
  }
  return false;
}

// Pure single-result ops the emitter can evaluate again for another iteration.
bool recomputable(const Operation &op, const LoweredKernelPlan &plan) {
  if (!op.regions.empty() || op.results.size() != 1) return false;
  switch (op.kind) {
    case OpKind::Load:
    case OpKind::Store:
    case OpKind::Dot:
    case OpKind::Reduce:
    case OpKind::Scan:
    case OpKind::AtomicRMW:
    case OpKind::AtomicCAS:
    case OpKind::Call:
    case OpKind::Print:
    case OpKind::Barrier:
    case OpKind::Return:
    case OpKind::Yield:
    case OpKind::Trans:
    case OpKind::Reshape:
    case OpKind::Join:
    case OpKind::Split:
    case OpKind::For:
    case OpKind::If:
    case OpKind::While:
      return false;
    default:
      break;
  }
  return !plan.buffers.count(op.result()) && !is_sfu_block_op(op);
}

// Whether an op in `b` (at any depth) may write memory.
bool writes_memory(const Block &b) {
  for (auto &op : b.ops) {
    if (op->kind == OpKind::Store || op->kind == OpKind::AtomicRMW ||
        op->kind == OpKind::AtomicCAS || op->kind == OpKind::Call)
      return true;
    for (auto &r : op->regions)
      if (writes_memory(*r)) return true;
  }
  return false;
}

class SliceCheck {
 public:
  SliceCheck(const LoweredKernelPlan &plan, const Block &body) : plan_(plan), body_(body) {}

  // Can `v` be evaluated for the next iteration of the loop?
  bool ok(const Value *v) {
    if (!seen_.insert(v).second) return true;
    if (v->owner == &body_) {
      if (v->index == 0) return true;  // the induction variable
      const Operation *y = body_.terminator();
      size_t j = static_cast<size_t>(v->index - 1);
      if (!y || y->kind != OpKind::Yield || j >= y->operands.size()) return false;
      if (v->type.is_block() && !plan_.carried_affine.count(v)) return false;
      return ok(y->operands[j]);  // the value it is advanced to
    }
    if (!v->def) return !within(v->owner, body_);     // an enclosing block's argument
    if (!within(v->def->parent, body_)) return true;  // computed before the loop
    if (v->def->parent != &body_ || !recomputable(*v->def, plan_)) return false;
    for (auto *o : v->def->operands)
      if (!ok(o)) return false;
    return true;
  }

 private:
  const LoweredKernelPlan &plan_;
  const Block &body_;
  std::set<const Value *> seen_;
};

void plan_loop(LoweredKernelPlan &plan, const Operation &loop,
               const std::map<const Value *, int> &uses) {
  const Block &body = *loop.regions[0];
  const Operation *dot = nullptr;
  for (auto &op : body.ops) {
    if (op->kind != OpKind::Dot || !plan.dpe_dots.count(op.get())) continue;
    if (dot) return;  // several dots: keep the plain order
    dot = op.get();
  }
  if (!dot) return;
  // A store in the loop could write what a prefetched tile reads one step
  // early: such loops keep their loads in place.
  if (writes_memory(body)) return;
  for (int i = 0; i < 2; ++i) {
    const Value *v = dot->operands[i];
    const Operation *load = v->def;
    if (!load || load->kind != OpKind::Load || load->parent != &body || !plan.dma_loads.count(load))
      continue;
    auto u = uses.find(v);
    if (u == uses.end() || u->second != 1) continue;
    SliceCheck check(plan, body);
    bool ok = true;
    for (auto *o : load->operands) ok = ok && check.ok(o);
    if (!ok) continue;
    plan.prefetched_loads.insert(load);
    // The second buffer.
    plan.local_mem_bytes += v->type.numel() * memory_elem_bytes(v->type.elem);
  }
}

}  // namespace

void plan_dot_pipelines(LoweredKernelPlan &plan) {
  Block &top = *plan.function->body;
  std::map<const Value *, int> uses;
  ttir::walk_block(top, [&](Operation &op) {
    for (auto *v : op.operands) ++uses[v];
  });
  ttir::walk_block(top, [&](Operation &op) {
    if (op.kind == OpKind::For && !op.regions.empty()) plan_loop(plan, op, uses);
  });
}

}  // namespace opforge::compiler
