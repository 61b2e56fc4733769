//===- builder.cpp - creates ttir operations at an insertion point --------===//
#include "opforge/compiler/builder.h"

#include "opforge/support/error.h"

namespace opforge::ttir {

Operation *Builder::create(OpKind kind, std::vector<Value *> operands, std::vector<Type> results,
                           std::map<std::string, Attr> attrs) {
  if (!block) throw Error("ttir builder: no insertion block");
  auto op = std::make_unique<Operation>(kind);
  op->operands = std::move(operands);
  op->attrs = std::move(attrs);
  op->loc = loc;
  op->parent = block;
  for (auto &t : results) op->add_result(t);
  block->ops.push_back(std::move(op));
  return block->ops.back().get();
}

}  // namespace opforge::ttir
