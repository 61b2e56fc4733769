//===- llir_wrap.cpp - loads through (x0 + arange) % M offsets: the wrap guard ===//
//
// Triton's matmul tutorial builds its tile offsets as
//   offs_am = (pid_m * BLOCK_SIZE_M + tl.arange(0, BLOCK_SIZE_M)) % M
// so that a tail tile re-reads the first rows instead of masking them. The
// planner takes such pointer blocks as DMA loads (is_wrapped_affine_block,
// lower/affine.cpp). A remainder `a % m` equals `a` wherever a lies in
// [0, m); `a` is affine, so it does when its corners do and it does not wrap
// around i32 between them (each corner equals element 0 plus its index times
// the unit steps, checked in i64). The wrap guard is the conjunction of that
// check over every remainder of the pointer block: when it holds, the block
// is affine and the load takes dma_fill's DMA paths unchanged (contiguous
// rows, clamped rectangles, the runtime library); when it fails (a tail
// tile whose indices wrap, M smaller than the block) the load copies its
// elements one by one through the real pointers (cold, outlined), `other`
// where the mask is off.
//
//===----------------------------------------------------------------------===//
#include "llir_emitter.h"

namespace opforge::compiler::llir {

std::string Emitter::wrap_guard(const Value *ptr) {
  const std::vector<const Operation *> rems = wrap_remainders(ptr);
  if (rems.empty()) return "";
  std::string ok = "true";
  auto both = [&](const std::string &x, const std::string &y) {
    return x == "true" ? y : emit("and i1 " + x + ", " + y);
  };
  auto wide = [&](const std::string &x) { return emit("sext i32 " + x + " to i64"); };
  for (const Operation *r : rems) {
    const Value *a = r->operands[0], *m = r->operands[1];
    const std::vector<int64_t> shape = a->type.is_block() ? a->type.shape : std::vector<int64_t>{};
    const size_t rank = shape.size();
    for (auto n : shape)
      if (n <= 0) return "false";
    const Idx zero(rank, "0");
    const std::string x0 = wide(rank ? elem(a, zero) : scalar(a));
    const std::string mv = wide(m->type.is_block() ? elem(m, Idx(m->type.rank(), "0")) : scalar(m));
    auto in_range = [&](const std::string &x) {
      return emit("and i1 " + emit("icmp sge i64 " + x + ", 0") + ", " +
                  emit("icmp slt i64 " + x + ", " + mv));
    };
    ok = both(ok, in_range(x0));
    std::vector<std::string> step(rank, "0");
    for (size_t d = 0; d < rank; ++d) {
      if (shape[d] <= 1) continue;
      if (auto ks = const_step(a, d)) {
        step[d] = std::to_string(static_cast<int32_t>(static_cast<uint32_t>(*ks)));
        continue;
      }
      Idx unit = zero;
      unit[d] = "1";
      step[d] = emit("sub i64 " + wide(elem(a, unit)) + ", " + x0);
    }
    for (size_t corner = 1; corner < (size_t(1) << rank); ++corner) {
      Idx at = zero;
      std::string expect = x0;
      bool distinct = true;
      for (size_t d = 0; d < rank; ++d) {
        if (!(corner >> d & 1)) continue;
        if (shape[d] == 1) distinct = false;
        at[d] = std::to_string(shape[d] - 1);
        expect = emit("add i64 " + expect + ", " +
                      emit("mul i64 " + step[d] + ", " + std::to_string(shape[d] - 1)));
      }
      if (!distinct) continue;
      const std::string x = wide(elem(a, at));
      ok =
          both(ok, emit("and i1 " + emit("icmp eq i64 " + x + ", " + expect) + ", " + in_range(x)));
    }
  }
  return ok;
}

void Emitter::element_fill(const Operation &op, const std::string &raw) {
  const Value *v = op.result(), *ptr = op.operands[0];
  const Value *mask = op.operands.size() > 1 ? op.operands[1] : nullptr;
  const Value *other = op.operands.size() > 2 ? op.operands[2] : nullptr;
  const Elem e = v->type.elem;
  const std::string mt = memty(e);
  loop_nest(v->type.shape, [&](const Idx &idx) {
    std::string rp =
        emit("getelementptr " + mt + ", ptr " + raw + ", i64 " + linear(idx, v->type.shape));
    auto copy = [&] {
      line("store " + mt + " " + emit("load " + mt + ", ptr " + val(ptr, idx)) + ", ptr " + rp);
    };
    if (!mask) return copy();
    if (other)
      store_mem(e, rp, val(other, idx));
    else
      line("store " + mt + " zeroinitializer, ptr " + rp);
    when(val(mask, idx), copy);
  });
}

}  // namespace opforge::compiler::llir
