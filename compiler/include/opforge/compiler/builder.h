//===- builder.h - creates ttir operations at an insertion point ----------===//
#pragma once

#include <map>
#include <string>
#include <vector>

#include "opforge/compiler/ir.h"

namespace opforge::ttir {

class Builder {
 public:
  Block *block = nullptr;  // operations are appended here
  Location loc;            // location given to new operations

  Operation *create(OpKind kind, std::vector<Value *> operands, std::vector<Type> results,
                    std::map<std::string, Attr> attrs = {});
  Value *create1(OpKind kind, std::vector<Value *> operands, Type result,
                 std::map<std::string, Attr> attrs = {}) {
    return create(kind, std::move(operands), {std::move(result)}, std::move(attrs))->result(0);
  }
  Value *int_const(int64_t v, Type t) {
    return create1(OpKind::Constant, {}, std::move(t), {{"value", v}});
  }
  Value *float_const(double v, Type t) {
    return create1(OpKind::Constant, {}, std::move(t), {{"value", v}});
  }
};

}  // namespace opforge::ttir
