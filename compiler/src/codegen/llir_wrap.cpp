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
// rows, clamped rectangles, the runtime library). When it fails, a tail tile
// whose index x0 + i (i < n, one remainder varying along one axis of the
// tile) wraps at most once, x0 < M <= x0 + n - 1 < 2M, is two affine pieces
// along that axis: [0, c) from the pointer at 0 and [c, n) from the pointer
// at c, c = M - x0, with the unwrapped strides; each moves by DMA, clipped to
// the mask's rectangle (wrap_split). Anything else (M smaller than the
// block, another mask) copies the elements one by one through the real
// pointers (cold, outlined), `other` where the mask is off.
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

bool Emitter::wrap_split(const Operation &op, const std::string &raw, const LlVal &tag,
                         const std::function<void()> &fallback) {
  const Value *v = op.result(), *ptr = op.operands[0];
  const Value *mask = op.operands.size() > 1 ? op.operands[1] : nullptr;
  const Value *other = op.operands.size() > 2 ? op.operands[2] : nullptr;
  const auto &shape = v->type.shape;
  const size_t rank = shape.size();
  const std::vector<const Operation *> rems = wrap_remainders(ptr);
  if (rems.size() != 1 || rank < 1 || rank > 2) return false;
  if (other && !is_uniform_block(other)) return false;
  const Value *a = rems[0]->operands[0], *m = rems[0]->operands[1], *r = rems[0]->result();
  if (!a->type.is_block() || a->type.shape.size() != 1) return false;
  auto ks = const_step(a, 0);
  if (!ks || *ks != 1) return false;
  // The tile axis the remainder varies along: r itself (1-D tiles) or r[:, None] / r[None, :].
  int w = -1;
  auto u = users_.find(r);
  if (u == users_.end()) return false;
  for (const Operation *user : u->second) {
    int axis = -1;
    if (rank == 1)
      axis = 0;
    else if (user->kind == OpKind::ExpandDims && user->int_attr("axis") >= 0 &&
             user->int_attr("axis") <= 1)
      axis = 1 - static_cast<int>(user->int_attr("axis"));
    if (axis < 0 || (w >= 0 && axis != w)) return false;
    w = axis;
  }
  if (w < 0) return false;
  const int64_t n = shape[w];
  if (a->type.shape[0] != n || n < 2) return false;
  std::optional<Rect> rect;
  if (mask) {
    rect = rect_of(mask, shape);
    if (!rect) return false;
  }
  auto wide = [&](const std::string &x) { return emit("sext i32 " + x + " to i64"); };
  const std::string x0 = wide(elem(a, {"0"})), xl = wide(elem(a, {std::to_string(n - 1)}));
  const std::string mv = wide(elem(m, Idx(m->type.rank(), "0")));
  // One wrap at most, no i32 wrap-around: x0 in [0, M), x0 + n - 1 in [M, 2M).
  std::string ok =
      emit("icmp eq i64 " + xl + ", " + emit("add i64 " + x0 + ", " + std::to_string(n - 1)));
  ok = emit("and i1 " + ok + ", " + emit("icmp sge i64 " + x0 + ", 0"));
  ok = emit("and i1 " + ok + ", " + emit("icmp slt i64 " + x0 + ", " + mv));
  ok = emit("and i1 " + ok + ", " +
            emit("icmp slt i64 " + xl + ", " + emit("shl i64 " + mv + ", 1")));
  if (rect && !rect->ok.is(1)) ok = emit("and i1 " + ok + ", " + rect->ok.ref);
  branch(
      ok,
      [&] {
        const Elem e = v->type.elem;
        const int64_t eb = memory_elem_bytes(e);
        const std::string c = emit("sub i64 " + mv + ", " + x0);  // in [1, n - 1]
        auto addr = [&](const std::string &i) {
          Idx at(rank, "0");
          at[w] = i;
          return emit("ptrtoint ptr " + val(ptr, at) + " to i64");
        };
        Geometry g = geometry(ptr);
        // The stride along w from two elements on one side of the wrap.
        const std::string first2 = emit("icmp sge i64 " + c + ", 2");
        const std::string sw = emit(
            "select i1 " + first2 + ", i64 " + emit("sub i64 " + addr("1") + ", " + addr("0")) +
            ", i64 " +
            emit("sub i64 " + addr(std::to_string(n - 1)) + ", " + addr(std::to_string(n - 2))));
        const bool on_rows = rank == 2 && w == 0;
        (on_rows ? g.row_stride : g.col_stride) = sw;
        Geometry g2 = g;  // the wrapped piece: base such that base + c * sw is its first element
        g2.base = emit("sub i64 " + addr(c) + ", " + emit("mul i64 " + c + ", " + sw));
        Rect whole;
        whole.rank = rank;
        for (size_t d = 0; d < rank; ++d) whole.count[d] = LlVal::integer(shape[d]);
        const Rect &base_rect = rect ? *rect : whole;
        if (rect)
          when_is(rect->full, false, [&] {
            rvv_fill(raw, e, v->type.numel(),
                     other ? val(other, Idx(rank, "0"))
                           : (ttir::elem_is_float(e) ? float_lit(0, e) : "0"));
          });
        const size_t ax = rank == 2 ? static_cast<size_t>(w) : 0;  // the Rect axis of w
        for (int piece = 0; piece < 2; ++piece) {
          // [lo, hi) of the mask rectangle along w, clipped to [0, c) or [c, n).
          const std::string lo = base_rect.lo[ax].ref,
                            hi = emit("add i64 " + lo + ", " + base_rect.count[ax].ref);
          auto smax = [&](const std::string &x, const std::string &y) {
            return emit("select i1 " + emit("icmp sgt i64 " + x + ", " + y) + ", i64 " + x +
                        ", i64 " + y);
          };
          auto smin = [&](const std::string &x, const std::string &y) {
            return emit("select i1 " + emit("icmp slt i64 " + x + ", " + y) + ", i64 " + x +
                        ", i64 " + y);
          };
          const std::string plo = piece == 0 ? lo : smax(lo, c);
          const std::string phi = piece == 0 ? smin(hi, c) : hi;
          const std::string cnt = smax(emit("sub i64 " + phi + ", " + plo), "0");
          Rect pr = base_rect;
          pr.lo[ax] = LlVal::of(plo, "i64");
          pr.count[ax] = LlVal::of(cnt, "i64");
          std::string some = emit("icmp sgt i64 " + cnt + ", 0");
          for (size_t d = 0; d < rank; ++d)
            if (d != ax)
              some = emit("and i1 " + some + ", " +
                          emit("icmp sgt i64 " + base_rect.count[d].ref + ", 0"));
          when(some, [&] { dma_block(piece == 0 ? g : g2, raw, eb, true, tag.ref, &pr); });
        }
      },
      fallback);
  return true;
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
