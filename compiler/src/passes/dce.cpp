//===- dce.cpp - remove operations whose results are unused ---------------===//
#include "opforge/compiler/passes.h"

namespace opforge::ttir {

namespace {

bool has_side_effects(const Operation &op) {
  switch (op.kind) {
    case OpKind::Store:
    case OpKind::AtomicRMW:
    case OpKind::AtomicCAS:
    case OpKind::Print:
    case OpKind::Assert:
    case OpKind::Barrier:
    case OpKind::Call:
      return true;
    default:
      break;
  }
  for (auto &r : op.regions)
    for (auto &inner : r->ops)
      if (has_side_effects(*inner)) return true;
  // A while loop may not terminate: keep it unless it is clearly effect-free and unused.
  return false;
}

bool removable(const Operation &op) {
  if (op_is_terminator(op.kind) || has_side_effects(op)) return false;
  return op_is_pure(op.kind) || op.kind == OpKind::Load || op.kind == OpKind::For ||
         op.kind == OpKind::If || op.kind == OpKind::While;
}

bool sweep(Block &b, const std::map<const Value *, int> &uses) {
  bool changed = false;
  std::vector<std::unique_ptr<Operation>> kept;
  for (auto &op : b.ops) {
    bool used = false;
    for (auto &r : op->results) used |= uses.count(r.get()) && uses.at(r.get()) > 0;
    if (!used && removable(*op)) {
      changed = true;
      continue;
    }
    for (auto &r : op->regions) changed |= sweep(*r, uses);
    kept.push_back(std::move(op));
  }
  b.ops = std::move(kept);
  return changed;
}

}  // namespace

bool eliminate_dead_code(Module &m) {
  bool changed = false;
  for (auto &f : m.functions) {
    for (int round = 0; round < 1000; ++round) {
      auto uses = count_uses(*f->body);
      if (!sweep(*f->body, uses)) break;
      changed = true;
    }
  }
  return changed;
}

}  // namespace opforge::ttir
