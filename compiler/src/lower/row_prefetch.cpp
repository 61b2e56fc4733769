//===- row_prefetch.cpp - which loop loads are DMA-prefetched iterations ahead (persistent loops)
//===//
//
// In `for row in tl.range(pid, n_rows, num_programs)` the next row's block can
// move into local memory while the current one is computed. A DMA load
// qualifies when
//  - it sits directly in the body of an scf.for that carries no values (a
//    persistent loop over independent rows; K loops with accumulators are
//    dot_pipeline.cpp's business), and it does not feed a DPE dot;
//  - its pointer, mask and `other` depend only on the induction variable and
//    on values from outside the loop, through pure fused ops (so the code
//    generator can evaluate them for the next iteration);
//  - the body's other side effects are stores whose addresses the same rule
//    gives (block stores by DMA): the code generator checks at run time that
//    the prefetched block does not overlap what the current iteration stores;
//    atomics, nested loops and ifs rule the loop out;
//  - the ring fits: the extra local memory of all prefetched loads stays
//    within kPrefetchBudgetBytes. Up to kMaxDepth - 1 iterations are loaded
//    ahead (the code generator keeps a ring of plan.row_prefetch_depth
//    buffers per load).
// The extra buffers are added to plan.local_mem_bytes.
//
//===----------------------------------------------------------------------===//
#include "opforge/compiler/lowered.h"

namespace opforge::compiler {
namespace {

using ttir::Block;
using ttir::Operation;
using ttir::OpKind;
using ttir::Value;

// The extra local memory (ring buffers) prefetching may take, and the most
// buffers per load (iterations in flight + the current one; DMA tags 4..7).
// Measured on mtia-2i (bench_kernels): a deeper ring (4) made softmax and
// layer norm slower (55.7% vs 61.8%, 44.1% vs 49.0% of the roofline) and
// argmax no faster: the extra early DMA traffic slows the PEs' first
// instruction fetches from SRAM more than the rows in flight gain.
constexpr int64_t kPrefetchBudgetBytes = 64 * 1024;
constexpr int64_t kMaxDepth = 2;

bool pure_kind(OpKind k) {
  switch (k) {
    case OpKind::Load:
    case OpKind::Store:
    case OpKind::AtomicRMW:
    case OpKind::AtomicCAS:
    case OpKind::For:
    case OpKind::If:
    case OpKind::While:
    case OpKind::Reduce:
    case OpKind::Scan:
    case OpKind::Dot:
    case OpKind::Trans:
    case OpKind::Reshape:
    case OpKind::Join:
    case OpKind::Split:
    case OpKind::Call:
    case OpKind::Print:
    case OpKind::ProgramId:
    case OpKind::NumPrograms:
    case OpKind::Barrier:
    case OpKind::Yield:
    case OpKind::Return:
      return false;
    default:
      return true;
  }
}

class RowPrefetchPlanner {
 public:
  explicit RowPrefetchPlanner(LoweredKernelPlan &plan) : plan_(plan) {}

  void run() { visit(*plan_.function->body); }

 private:
  void visit(const Block &b) {
    for (auto &o : b.ops) {
      if (o->kind == OpKind::For) consider(*o);
      for (auto &r : o->regions) visit(*r);
    }
  }

  bool feeds_dot(const Value *v) const {
    bool feeds = false;
    ttir::walk_block(*plan_.function->body, [&](const Operation &op) {
      if (op.kind == OpKind::Dot)
        for (auto *x : op.operands) feeds |= x == v;
    });
    return feeds;
  }

  void consider(const Operation &loop) {
    const Block &body = *loop.regions[0];
    if (body.args.size() != 1 || !loop.results.empty()) return;  // carried values
    std::vector<const Operation *> loads;
    for (auto &o : body.ops) {
      const Operation &op = *o;
      switch (op.kind) {
        case OpKind::Load:
          // (Wrapped-affine loads keep dma_fill's run-time wrap guard.)
          if (plan_.dma_loads.count(&op) && !feeds_dot(op.result()) &&
              is_affine_block(op.operands[0])) {
            bool ok = true;
            for (auto *v : op.operands) ok &= iteration_computable(v, body, plan_);
            if (ok) loads.push_back(&op);
          }
          break;
        case OpKind::Store: {
          const Value *ptr = op.operands[0];
          if (!iteration_computable(ptr, body, plan_)) return;
          if (ptr->type.is_block() && !plan_.dma_stores.count(&op)) return;
          break;
        }
        case OpKind::AtomicRMW:
        case OpKind::AtomicCAS:
        case OpKind::For:
        case OpKind::If:
        case OpKind::While:
        case OpKind::Call:
        case OpKind::Print:
        case OpKind::Return:
          return;
        default:
          break;
      }
    }
    if (loads.empty()) return;
    int64_t bytes = 0;
    for (auto *op : loads)
      bytes += op->result()->type.numel() * memory_elem_bytes(op->result()->type.elem);
    // The deepest ring (kMaxDepth buffers, kMaxDepth - 1 blocks in flight)
    // whose extra buffers fit; one depth for the whole kernel.
    int64_t depth = plan_.row_prefetched_loads.empty() ? kMaxDepth : plan_.row_prefetch_depth;
    while (depth >= 2 && extra_bytes_ + (depth - 1) * bytes > kPrefetchBudgetBytes) {
      if (!plan_.row_prefetched_loads.empty()) return;  // the depth is fixed already
      --depth;
    }
    if (depth < 2) return;
    plan_.row_prefetch_depth = depth;
    extra_bytes_ += (depth - 1) * bytes;
    plan_.local_mem_bytes += (depth - 1) * bytes;
    for (auto *op : loads) plan_.row_prefetched_loads.insert(op);
  }

  LoweredKernelPlan &plan_;
  int64_t extra_bytes_ = 0;
};

}  // namespace

bool iteration_computable(const Value *v, const Block &body, const LoweredKernelPlan &plan) {
  if (v == body.arg(0)) return true;
  for (auto &a : body.args)
    if (a.get() == v) return false;  // a loop-carried value
  if (!v->def) return !v->type.is_block();
  if (v->def->parent != &body) return !v->type.is_block() || !plan.buffers.count(v);
  const Operation &op = *v->def;
  if (!pure_kind(op.kind) || !op.regions.empty() || is_sfu_block_op(op)) return false;
  if (plan.buffers.count(v)) return false;
  for (auto *o : op.operands)
    if (!iteration_computable(o, body, plan)) return false;
  return true;
}

void plan_row_prefetches(LoweredKernelPlan &plan) { RowPrefetchPlanner(plan).run(); }

}  // namespace opforge::compiler
