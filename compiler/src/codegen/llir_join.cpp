//===- llir_join.cpp - tt.join / tt.split (tl.join, tl.split, tl.interleave) ===//
//
// Both are planned as buffers: join writes its two operands into the even and
// odd positions of a new trailing dimension of size 2; split reads them back
// out into one buffer per half.
//
//===----------------------------------------------------------------------===//
#include "llir_emitter.h"

namespace opforge::compiler::llir {

void Emitter::join_split(const Operation &op) {
  if (op.kind == OpKind::Join) {
    const Value *v = op.result();
    std::string buf = buffer_for(v);
    loop_nest(op.operands[0]->type.shape, [&](const Idx &idx) {
      for (int half = 0; half < 2; ++half) {
        Idx out = idx;
        out.push_back(std::to_string(half));
        buf_store(v, buf, out, val(op.operands[half], idx));
      }
    });
    return;
  }
  const Value *x = op.operands[0];
  for (int half = 0; half < 2; ++half) {
    const Value *r = op.result(half);
    if (!r->type.is_block()) {
      Idx in = {std::to_string(half)};
      scalars_[r] = elem(x, in);
      continue;
    }
    std::string buf = buffer_for(r);
    loop_nest(r->type.shape, [&](const Idx &idx) {
      Idx in = idx;
      in.push_back(std::to_string(half));
      buf_store(r, buf, idx, elem(x, in));
    });
  }
}

}  // namespace opforge::compiler::llir
