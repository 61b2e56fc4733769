//===- cse.cpp - merge identical pure operations --------------------------===//
#include <tuple>

#include "opforge/compiler/passes.h"

namespace opforge::ttir {

namespace {

using Key = std::tuple<int, std::vector<const Value *>, std::string, std::string>;

Key key_of(const Operation &op) {
  std::vector<const Value *> ops(op.operands.begin(), op.operands.end());
  std::string attrs, types;
  for (auto &[k, v] : op.attrs) attrs += k + "=" + attr_str(v) + ";";
  for (auto &r : op.results) types += r->type.str() + ";";
  return {static_cast<int>(op.kind), ops, attrs, types};
}

bool cse_block(Block &b, std::map<Key, Operation *> scope, std::map<Value *, Value *> &repl) {
  bool changed = false;
  std::vector<std::unique_ptr<Operation>> kept;
  for (auto &op : b.ops) {
    for (auto &o : op->operands) {
      auto it = repl.find(o);
      if (it != repl.end()) o = it->second;
    }
    for (auto &r : op->regions) changed |= cse_block(*r, scope, repl);
    if (op_is_pure(op->kind) && op->regions.empty() && !op->results.empty()) {
      Key k = key_of(*op);
      auto it = scope.find(k);
      if (it != scope.end()) {
        for (size_t i = 0; i < op->results.size(); ++i) repl[op->result(i)] = it->second->result(i);
        changed = true;
        continue;
      }
      scope[k] = op.get();
    }
    kept.push_back(std::move(op));
  }
  b.ops = std::move(kept);
  return changed;
}

}  // namespace

bool eliminate_common_subexpressions(Module &m) {
  bool changed = false;
  for (auto &f : m.functions) {
    std::map<Value *, Value *> repl;
    changed |= cse_block(*f->body, {}, repl);
  }
  return changed;
}

}  // namespace opforge::ttir
