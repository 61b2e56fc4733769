//===- llir_while.cpp - scf.while as a loop with a test at its head --------===//
//
// The carried values live in slots (allocas for scalars, local buffers for
// blocks): the `before` region's arguments read the slots of the loop state,
// scf.condition copies its values into the `after` region's slots (which are
// also the op's results), and the `after` region's scf.yield writes the next
// loop state. Nothing is copied in place, so a region may read any carried
// value while the next one is written.
//
//===----------------------------------------------------------------------===//
#include "llir_emitter.h"

namespace opforge::compiler::llir {

std::string Emitter::slot_for(const Value *v) {
  if (v->type.is_block()) return buffer_for(v);
  return alloca_of(llty(v->type.elem));
}

void Emitter::bind_slot(const Value *v, const std::string &slot) {
  if (v->type.is_block())
    bufs_[v] = slot;
  else
    scalars_[v] = emit("load " + llty(v->type.elem) + ", ptr " + slot);
}

void Emitter::copy_into(const Value *v, const std::string &slot) {
  if (v->type.is_block())
    fill(v, slot, v);
  else
    line("store " + llty(v->type.elem) + " " + scalar(v) + ", ptr " + slot);
}

void Emitter::while_loop(const Operation &op) {
  const ttir::Block &before = *op.regions[0], &after = *op.regions[1];
  flush_loads();
  flush_dpe();
  std::vector<std::string> state, passed;
  for (size_t i = 0; i < op.operands.size(); ++i) {
    state.push_back(slot_for(before.arg(i)));
    copy_into(op.operands[i], state.back());
  }
  for (size_t i = 0; i < after.args.size(); ++i) passed.push_back(slot_for(after.arg(i)));
  std::string head = label(), bodyl = label(), exit = label();
  line("br label %" + head);
  start(head);
  auto saved = memo_;
  for (size_t i = 0; i < state.size(); ++i) bind_slot(before.arg(i), state[i]);
  for (auto &o : before.ops) {
    if (o->kind != OpKind::Condition) {
      emit_op(*o);
      continue;
    }
    flush_loads();
    flush_dpe();
    for (size_t i = 1; i < o->operands.size(); ++i) copy_into(o->operands[i], passed[i - 1]);
    line("br i1 " + scalar(o->operands[0]) + ", label %" + bodyl + ", label %" + exit);
  }
  memo_ = saved;
  start(bodyl);
  for (size_t i = 0; i < passed.size(); ++i) bind_slot(after.arg(i), passed[i]);
  for (auto &o : after.ops) {
    if (o->kind == OpKind::Yield)
      yield_into(*o, after, state, false);
    else
      emit_op(*o);
  }
  flush_dpe();
  memo_ = saved;
  line("br label %" + head);
  start(exit);
  for (size_t i = 0; i < op.results.size(); ++i) {
    if (op.result(i)->type.is_block()) {
      bufs_[op.result(i)] = passed[i];
    } else {
      scalars_[op.result(i)] = emit("load " + llty(op.result(i)->type.elem) + ", ptr " + passed[i]);
    }
  }
}

}  // namespace opforge::compiler::llir
