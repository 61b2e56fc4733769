//===- constant_fold.cpp - evaluate ops whose operands are all constants ---===//
#include "../interp/runtime.h"
#include "opforge/compiler/passes.h"

namespace opforge::ttir {

namespace {

bool is_elementwise(OpKind k) {
  switch (k) {
    case OpKind::Constant:
    case OpKind::MakeRange:
    case OpKind::Splat:
    case OpKind::Broadcast:
    case OpKind::ExpandDims:
    case OpKind::Reshape:
    case OpKind::Trans:
    case OpKind::Join:
    case OpKind::Split:
    case OpKind::Load:
    case OpKind::Store:
    case OpKind::AddPtr:
    case OpKind::ProgramId:
    case OpKind::NumPrograms:
    case OpKind::Reduce:
    case OpKind::ReduceReturn:
    case OpKind::Scan:
    case OpKind::ScanReturn:
    case OpKind::Dot:
    case OpKind::AtomicRMW:
    case OpKind::AtomicCAS:
    case OpKind::MakeTensorPtr:
    case OpKind::Advance:
    case OpKind::For:
    case OpKind::If:
    case OpKind::While:
    case OpKind::Condition:
    case OpKind::Yield:
    case OpKind::Call:
    case OpKind::Return:
    case OpKind::Print:
    case OpKind::Assert:
    case OpKind::Barrier:
    case OpKind::IntToPtr:
    case OpKind::PtrToInt:
      return false;
    default:
      return true;
  }
}

interp::RV value_of(const Operation &c) {
  interp::RV r;
  const Type &t = c.results[0]->type;
  if (t.is_float()) {
    r.is_float = true;
    r.f = {interp::round_to(t.elem, c.float_attr("value"))};
  } else {
    const Attr &a = c.attrs.at("value");
    int64_t v = std::holds_alternative<double>(a) ? static_cast<int64_t>(std::get<double>(a))
                                                  : c.int_attr("value");
    r.i = {interp::wrap_to(t.elem, v)};
  }
  return r;
}

Attr attr_of(const interp::RV &r) {
  if (r.is_float) return r.f.at(0);
  return r.i.at(0);
}

bool fold_block(Block &b) {
  bool changed = false;
  for (auto &opp : b.ops) {
    Operation &op = *opp;
    for (auto &r : op.regions) changed |= fold_block(*r);
    if (op.results.size() != 1 || op.operands.empty()) continue;
    bool all_const = true;
    for (Value *v : op.operands)
      all_const = all_const && v->def && v->def->kind == OpKind::Constant;
    if (!all_const) continue;
    const Type &rt = op.results[0]->type;
    if (op.kind == OpKind::Splat || op.kind == OpKind::Broadcast || op.kind == OpKind::ExpandDims ||
        op.kind == OpKind::Reshape || op.kind == OpKind::Trans) {
      Attr v = op.operands[0]->def->attrs.at("value");
      op.kind = OpKind::Constant;
      op.operands.clear();
      op.attrs = {{"value", v}};
      changed = true;
      continue;
    }
    if (!is_elementwise(op.kind) || rt.is_ptr()) continue;
    std::vector<interp::RV> vals;
    for (Value *v : op.operands) vals.push_back(value_of(*v->def));
    std::vector<const interp::RV *> in;
    for (auto &v : vals) in.push_back(&v);
    interp::RV r;
    try {
      r = interp::eval_elementwise(op, in);
    } catch (...) {
      continue;
    }
    op.kind = OpKind::Constant;
    op.operands.clear();
    op.attrs = {{"value", attr_of(r)}};
    changed = true;
  }
  return changed;
}

}  // namespace

bool fold_constants(Module &m) {
  bool changed = false;
  for (auto &f : m.functions)
    while (fold_block(*f->body)) changed = true;
  return changed;
}

}  // namespace opforge::ttir
