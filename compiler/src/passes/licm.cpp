//===- licm.cpp - hoist loop-invariant pure operations out of scf.for ------===//
#include <set>

#include "opforge/compiler/passes.h"

namespace opforge::ttir {

namespace {

void defined_in(const Block &b, std::set<const Value *> &out) {
  for (auto &a : b.args) out.insert(a.get());
  for (auto &op : b.ops) {
    for (auto &r : op->results) out.insert(r.get());
    for (auto &r : op->regions) defined_in(*r, out);
  }
}

bool hoist_in_block(Block &b) {
  bool changed = false;
  for (size_t i = 0; i < b.ops.size(); ++i) {
    Operation &op = *b.ops[i];
    for (auto &r : op.regions) changed |= hoist_in_block(*r);
    if (op.kind != OpKind::For) continue;
    Block &body = *op.regions[0];
    std::set<const Value *> inside;
    defined_in(body, inside);
    std::vector<std::unique_ptr<Operation>> hoisted, kept;
    for (auto &inner : body.ops) {
      bool invariant =
          op_is_pure(inner->kind) && inner->regions.empty() && !op_is_terminator(inner->kind);
      for (Value *o : inner->operands) invariant = invariant && !inside.count(o);
      if (invariant) {
        for (auto &r : inner->results) inside.erase(r.get());
        inner->parent = &b;
        hoisted.push_back(std::move(inner));
      } else {
        kept.push_back(std::move(inner));
      }
    }
    body.ops = std::move(kept);
    if (hoisted.empty()) continue;
    size_t n = hoisted.size();
    b.ops.insert(b.ops.begin() + static_cast<long>(i), std::make_move_iterator(hoisted.begin()),
                 std::make_move_iterator(hoisted.end()));
    i += n;
    changed = true;
  }
  return changed;
}

}  // namespace

bool hoist_loop_invariants(Module &m) {
  bool changed = false;
  for (auto &f : m.functions) changed |= hoist_in_block(*f->body);
  return changed;
}

}  // namespace opforge::ttir
