//===- inline.cpp - inline every tt.call and drop the callees -------------===//
#include <set>

#include "opforge/compiler/passes.h"
#include "opforge/support/error.h"

namespace opforge::ttir {

namespace {

// Inlines calls in block b (recursively in regions); returns true if any.
bool inline_in_block(Module &m, Block &b) {
  bool changed = false;
  for (size_t i = 0; i < b.ops.size(); ++i) {
    Operation &op = *b.ops[i];
    for (auto &r : op.regions) changed |= inline_in_block(m, *r);
    if (op.kind != OpKind::Call) continue;
    Function *callee = m.find(op.str_attr("callee"));
    if (!callee) throw Error("inline: call to unknown function @" + op.str_attr("callee"));
    std::map<Value *, Value *> map;
    for (size_t a = 0; a < callee->body->args.size(); ++a)
      map[callee->body->args[a].get()] = op.operands[a];
    std::vector<std::unique_ptr<Operation>> body;
    std::map<Value *, Value *> results;
    for (auto &cop : callee->body->ops) {
      if (cop->kind == OpKind::Return) {
        for (size_t r = 0; r < cop->operands.size(); ++r) {
          auto it = map.find(cop->operands[r]);
          results[op.result(r)] = it == map.end() ? cop->operands[r] : it->second;
        }
        continue;
      }
      auto c = clone_op(*cop, map);
      c->parent = &b;
      body.push_back(std::move(c));
    }
    // Replace the call in place by the callee's body.
    std::unique_ptr<Operation> call = std::move(b.ops[i]);
    b.ops.erase(b.ops.begin() + static_cast<long>(i));
    size_t n = body.size();
    b.ops.insert(b.ops.begin() + static_cast<long>(i), std::make_move_iterator(body.begin()),
                 std::make_move_iterator(body.end()));
    // Uses of the call's results are in this block after position i, or in
    // enclosing blocks: replace from the function root.
    Block *root = &b;
    while (root->parent && root->parent->parent) root = root->parent->parent;
    replace_uses(*root, results);
    i += n;
    --i;  // continue after the inlined body; nested calls go in the next round
    changed = true;
  }
  return changed;
}

}  // namespace

bool inline_calls(Module &m) {
  if (m.functions.empty()) return false;
  bool changed = false;
  for (int round = 0; round < 64; ++round) {
    bool any = false;
    for (auto &f : m.functions) any |= inline_in_block(m, *f->body);
    changed |= any;
    if (!any) break;
    if (round == 63) throw Error("inline: calls still present after 64 rounds (recursion?)");
  }
  // Keep the first function (the kernel) and any still called.
  std::set<std::string> called;
  for (auto &f : m.functions)
    walk_block(*f->body, [&](Operation &op) {
      if (op.kind == OpKind::Call) called.insert(op.str_attr("callee"));
    });
  std::vector<std::unique_ptr<Function>> keep;
  for (size_t i = 0; i < m.functions.size(); ++i) {
    if (i == 0 || called.count(m.functions[i]->name))
      keep.push_back(std::move(m.functions[i]));
    else
      changed = true;
  }
  m.functions = std::move(keep);
  return changed;
}

}  // namespace opforge::ttir
