//===- llir_dma.cpp - affine block loads/stores as Xmtia DMA transfers -----===//
//
// A load of an affine pointer block (plan.dma_loads) becomes: evaluate the
// pointer block at index 0 and at the unit index of each dimension (base and
// byte strides), then either one 2-D DMA (rows of contiguous elements, any
// row stride, including 0 and negative) or one DMA per row with
// element-sized rows (a non-unit column stride) into a local-memory buffer
// that holds the block in memory format. Consumers read that buffer with
// plain (vectorizable) loads; the DMA is issued where the load stands and
// waited for (tag 1) just before the first code that reads buffers, so
// several loads are in flight together.
//
// Masks: a mask that selects a rectangle of the block (an `&` of one-axis
// index compares against bounds, llir_rect.cpp) moves only that rectangle:
// one clamped DMA, after an RVV fill of `other` when the tile is partial.
// A 2-D tile of the form the runtime library takes keeps inline only the
// all-active check and the whole DMA, and calls the library for the rest
// (runtime_calls.cpp).
// Other masks: when every element holds the DMA runs; otherwise an element
// loop copies the active elements and writes `other` into the rest. Either
// way masked-off addresses are never touched. A store (plan.dma_stores)
// converts the block into a buffer, then DMAs it out (tag 2): the whole
// block, its rectangle, or under another partial mask the active elements
// one by one. Transfers with element-sized rows (a strided column
// dimension) call one routine of the runtime library
// (@__opforge_rt_dma_tile, runtime_library.cpp). Before a store's buffer is refilled
// inside a loop the previous transfer is waited for; the PE drains
// outstanding DMAs before it takes the next program.
//
//===----------------------------------------------------------------------===//
#include <bit>

#include "llir_emitter.h"
#include "xmtia_asm.h"

namespace opforge::compiler::llir {

namespace {

std::string zero_of(Elem e) {
  if (ttir::elem_is_float(e)) return float_lit(0, e);
  if (e == Elem::I1) return "false";
  if (e == Elem::Ptr) return "null";
  return "0";
}

}  // namespace

Emitter::Geometry Emitter::geometry(const Value *ptr) {
  Geometry g;
  const auto &shape = ptr->type.shape;
  bool two_d = shape.size() == 2;
  g.rows = two_d ? shape[0] : 1;
  g.cols = shape.back();
  auto at = [&](const char *i, const char *j) { return two_d ? Idx{i, j} : Idx{j}; };
  auto addr = [&](const Idx &idx) { return emit("ptrtoint ptr " + val(ptr, idx) + " to i64"); };
  g.base = addr(at("0", "0"));
  g.col_stride = g.cols > 1 ? emit("sub i64 " + addr(at("0", "1")) + ", " + g.base) : "0";
  g.row_stride = g.rows > 1 ? emit("sub i64 " + addr(at("1", "0")) + ", " + g.base) : "0";
  return g;
}

void Emitter::dma_issue(const std::string &src, const std::string &dst,
                        const std::string &row_bytes, const std::string &rows,
                        const std::string &src_stride, const std::string &dst_stride,
                        const std::string &tag) {
  std::string desc = alloca_of("i64", 6);
  const std::string fields[6] = {src, dst, row_bytes, rows, src_stride, dst_stride};
  for (int f = 0; f < 6; ++f)
    line("store i64 " + fields[f] + ", ptr " +
         emit("getelementptr i64, ptr " + desc + ", i64 " + std::to_string(f)));
  line("call void asm sideeffect \"" + dma_issue_asm() + "\", \"r,r,~{memory}\"(ptr " + desc +
       ", i64 " + tag + ")");
}

void Emitter::dma_wait(int tag) {
  line("call void asm sideeffect \"" + dma_wait_asm() + "\", \"r,~{memory}\"(i64 " +
       std::to_string(tag) + ")");
}

void Emitter::dma_block(const Geometry &g, const std::string &local, int64_t elem_bytes,
                        bool to_local, const std::string &tag, const Rect *rect,
                        bool contiguous_only) {
  std::string lbase = emit("ptrtoint ptr " + local + " to i64");
  std::string gbase = g.base;
  std::string eb = std::to_string(elem_bytes);
  std::string pitch = std::to_string(g.cols * elem_bytes);  // a local row
  std::string rows = std::to_string(g.rows), cols = std::to_string(g.cols);
  if (rect) {
    // A 1-D block is one row: its axis 0 is the column axis.
    const bool two_d = rect->rank == 2;
    std::string row0 = two_d ? rect->lo[0].ref : "0",
                col0 = two_d ? rect->lo[1].ref : rect->lo[0].ref;
    rows = two_d ? rect->count[0].ref : "1";
    cols = two_d ? rect->count[1].ref : rect->count[0].ref;
    gbase = emit("add i64 " + gbase + ", " +
                 emit("add i64 " + emit("mul i64 " + row0 + ", " + g.row_stride) + ", " +
                      emit("mul i64 " + col0 + ", " + g.col_stride)));
    lbase = emit("add i64 " + lbase + ", " +
                 emit("mul i64 " +
                      emit("add i64 " + emit("mul i64 " + row0 + ", " + std::to_string(g.cols)) +
                           ", " + col0) +
                      ", " + eb));
  }
  // Rows of contiguous elements (the common case) are one transfer issued
  // here; element-sized rows along a strided dimension call the runtime
  // library's DMA routine (runtime_library.cpp), compiled once per process.
  auto contiguous = [&] {
    std::string row_bytes =
        rect ? emit("mul i64 " + cols + ", " + eb) : std::to_string(g.cols * elem_bytes);
    if (to_local)
      dma_issue(gbase, lbase, row_bytes, rows, g.row_stride, pitch, tag);
    else
      dma_issue(lbase, gbase, row_bytes, rows, pitch, g.row_stride, tag);
  };
  auto per_row = [&] {
    decls_.insert(
        "declare dso_local void @__opforge_rt_dma_tile(i64, i64, i64, i64, i64, i64, i64, i64, "
        "i1, i64)");
    line("call void @__opforge_rt_dma_tile(i64 " + gbase + ", i64 " + g.row_stride + ", i64 " +
         g.col_stride + ", i64 " + lbase + ", i64 " + rows + ", i64 " + cols + ", i64 " + pitch +
         ", i64 " + eb + ", i1 " + (to_local ? "true" : "false") + ", i64 " + tag + ")");
  };
  if (g.cols == 1 || contiguous_only) return contiguous();
  branch(emit("icmp eq i64 " + g.col_stride + ", " + eb), contiguous, per_row);
}

bool Emitter::known_zero(const Value *v) const {
  if (bufs_.count(v) || dma_raw_.count(v) || carried_.count(v) || !v->def) return false;
  const Operation &d = *v->def;
  if (d.kind == OpKind::Splat || d.kind == OpKind::Broadcast || d.kind == OpKind::ExpandDims)
    return known_zero(d.operands[0]);
  if (d.kind != OpKind::Constant) return false;
  const ttir::Attr &a = d.attrs.at("value");
  if (auto *x = std::get_if<double>(&a))
    return ttir::elem_is_float(v->type.elem) ? std::bit_cast<uint64_t>(*x) == 0 : *x == 0;
  if (auto *x = std::get_if<int64_t>(&a)) return v->type.elem == Elem::I1 ? !(*x & 1) : *x == 0;
  return !std::get<bool>(a);
}

// The memory bits of the value `x` of element type `e`, as an i64.
LlVal Emitter::other_bits(Elem e, const Value *other, const std::string &x) {
  if (!other || known_zero(other)) return LlVal::integer(0);
  std::string b = x;
  if (ttir::elem_is_float(e))
    b = float_bits(e, x);
  else if (e == Elem::I1)
    b = emit("zext i1 " + x + " to i8");
  const int64_t bits = memory_elem_bytes(e) * 8;
  return bits == 64 ? LlVal::of(b, "i64")
                    : emit("i64", "zext i" + std::to_string(bits) + " " + b + " to i64");
}

// A masked 1-D block whose mask is the rectangle `rect`: the whole row's
// DMA inline when every element is active and the columns contiguous,
// otherwise one call of __opforge_rt_row (runtime_ir.cpp: a load fills the
// buffer with `other` and moves the active elements in, a store moves them
// out; strided columns as element-sized rows); `partial` (the element copy)
// when an index wraps.
void Emitter::row_transfer(const Geometry &g, const std::string &raw, const Rect &rect, Elem e,
                           bool to_local, const Value *other, const std::string &other_x,
                           const std::string &tag, const std::function<void()> &partial) {
  const int64_t eb = memory_elem_bytes(e);
  auto clamped = [&] {
    branch(
        whole_contiguous(g, rect.full, eb).ref,
        [&] { dma_block(g, raw, eb, to_local, tag, nullptr, true); },
        [&] { runtime_row(g, raw, rect, e, to_local, other_bits(e, other, other_x), tag); });
  };
  if (rect.ok.is(1)) return clamped();
  branch(rect.ok.ref, clamped, [&] { cold(partial); });
}

void Emitter::runtime_row(const Geometry &g, const std::string &raw, const Rect &rect, Elem e,
                          bool to_local, const LlVal &bits, const std::string &tag) {
  const std::string &lo = rect.lo[0].ref, &count = rect.count[0].ref;
  std::string ga = emit("add i64 " + g.base + ", " + emit("mul i64 " + lo + ", " + g.col_stride));
  decls_.insert(
      "declare dso_local void @__opforge_rt_row(i64, i64, i64, i64, i64, i64, i64, i64, i1, "
      "i64)");
  line("call void @__opforge_rt_row(i64 " + emit("ptrtoint ptr " + raw + " to i64") + ", i64 " +
       lo + ", i64 " + count + ", i64 " + std::to_string(g.cols) + ", i64 " + ga + ", i64 " +
       g.col_stride + ", i64 " + std::to_string(memory_elem_bytes(e)) + ", " + bits.typed() +
       ", i1 " + (to_local ? "true" : "false") + ", i64 " + tag + ")");
}

LlVal Emitter::whole_contiguous(const Geometry &g, const LlVal &all_active, int64_t elem_bytes) {
  if (g.cols == 1) return all_active;
  LlVal unit = emit("i1", "icmp eq i64 " + g.col_stride + ", " + std::to_string(elem_bytes));
  return all_active.is(1) ? unit : emit("i1", "and i1 " + all_active.ref + ", " + unit.ref);
}

std::string Emitter::all_true(const Value *mask, const std::vector<int64_t> &shape) {
  if (!mask->type.is_block()) return scalar(mask);
  // all(x & y) = all(x) && all(y); a broadcast or expand_dims of a (non-empty)
  // block holds everywhere iff its source does: a 64x64 tile mask built from
  // a row and a column condition costs 64 + 64 checks, not 4096.
  if (const Operation *d = mask->def; d && !bufs_.count(mask) && !dma_raw_.count(mask)) {
    if (d->kind == OpKind::AndI)
      return emit("and i1 " + all_true(d->operands[0], d->operands[0]->type.shape) + ", " +
                  all_true(d->operands[1], d->operands[1]->type.shape));
    if (d->kind == OpKind::Broadcast || d->kind == OpKind::ExpandDims || d->kind == OpKind::Splat)
      return all_true(d->operands[0], d->operands[0]->type.shape);
    if (d->kind == OpKind::CmpI) {
      std::string r = affine_compare_all(*d);
      if (!r.empty()) return r;
    }
  }
  std::string slot = alloca_of("i1");
  line("store i1 true, ptr " + slot);
  loop_nest(shape, [&](const Idx &idx) {
    std::string cur = emit("load i1, ptr " + slot);
    line("store i1 " + emit("and i1 " + cur + ", " + elem(mask, idx)) + ", ptr " + slot);
  });
  return emit("load i1, ptr " + slot);
}

LlVal Emitter::all_active(const Value *mask, const std::vector<int64_t> &shape) {
  const Value *m = mask;
  while (m->type.is_block() && m->def && !bufs_.count(m) && !dma_raw_.count(m) &&
         (m->def->kind == OpKind::Broadcast || m->def->kind == OpKind::ExpandDims ||
          m->def->kind == OpKind::Splat))
    m = m->def->operands[0];
  std::optional<int64_t> c;
  if (!m->type.is_block() && m->def && m->def->kind == OpKind::Constant) c = known_constant(m);
  return {all_true(mask, shape), "i1", c};
}

// `affine < uniform` (or <=, >, >=, signed; either side affine) holds
// everywhere when it holds at the corners of the block and no element
// wraps: an affine block is linear in its indices, so its extremes are
// corners. Wrapping is ruled out by checking, in a wider type, that each
// corner equals element 0 plus its index times the unit-step strides. When
// the check fails the answer is false and callers take their element path.
// Returns "" when the compare is not of that form.
std::string Emitter::affine_compare_all(const Operation &cmp) {
  static const std::map<std::string, std::string> swapped = {
      {"slt", "sgt"}, {"sle", "sge"}, {"sgt", "slt"}, {"sge", "sle"}};
  std::string pred = cmp.str_attr("predicate");
  if (!swapped.count(pred)) return "";
  const Value *a = cmp.operands[0], *b = cmp.operands[1];
  if (is_uniform_block(a) && !is_uniform_block(b)) {
    std::swap(a, b);
    pred = swapped.at(pred);
  }
  const auto &shape = a->type.shape;
  if (!is_uniform_block(b) || !is_affine_block(a) || shape.empty() || shape.size() > 2) return "";
  for (auto n : shape)
    if (n <= 0) return "";
  Elem e = a->type.elem;
  if (e != Elem::I32) return "";  // checked in i64 (an i128 multiply would need a libcall)
  const std::string ty = llty(e), wide = "i64";
  const size_t rank = shape.size();
  auto widen = [&](const std::string &x) { return emit("sext " + ty + " " + x + " to " + wide); };
  Idx zero(rank, "0");
  std::string e0 = elem(a, zero), w0 = widen(e0);
  // A step the ops fix at compile time (as a signed i32) is a literal: no
  // element 1 to evaluate, and the expected corners fold here.
  std::vector<std::string> stride(rank, "0");
  std::vector<std::optional<int64_t>> fixed(rank);
  for (size_t d = 0; d < rank; ++d)
    if (shape[d] > 1) {
      if (auto ks = const_step(a, d)) {
        fixed[d] = static_cast<int32_t>(static_cast<uint32_t>(*ks));
        continue;
      }
      Idx unit = zero;
      unit[d] = "1";
      stride[d] = emit("sub " + wide + " " + widen(elem(a, unit)) + ", " + w0);
    }
  std::string bound = elem(b, zero);
  std::string ok = emit("icmp " + pred + " " + ty + " " + e0 + ", " + bound);
  for (size_t corner = 1; corner < (size_t(1) << rank); ++corner) {
    Idx at = zero;
    std::string expect = w0;
    int64_t offset = 0;  // the fixed steps' part of the corner
    bool distinct = true;
    for (size_t d = 0; d < rank; ++d) {
      if (!(corner >> d & 1)) continue;
      if (shape[d] == 1) distinct = false;
      at[d] = std::to_string(shape[d] - 1);
      if (fixed[d])
        offset += *fixed[d] * (shape[d] - 1);
      else
        expect = emit("add " + wide + " " + expect + ", " +
                      emit("mul " + wide + " " + stride[d] + ", " + std::to_string(shape[d] - 1)));
    }
    if (!distinct) continue;
    if (offset != 0) expect = emit("add " + wide + " " + expect + ", " + std::to_string(offset));
    std::string x = elem(a, at);
    std::string linear_ok = emit("icmp eq " + wide + " " + widen(x) + ", " + expect);
    std::string holds = emit("icmp " + pred + " " + ty + " " + x + ", " + bound);
    ok = emit("and i1 " + ok + ", " + emit("and i1 " + linear_ok + ", " + holds));
  }
  return ok;
}

void Emitter::branch(const std::string &cond, const std::function<void()> &then_body,
                     const std::function<void()> &else_body) {
  if (is_vec(cond)) throw NotVector{};
  std::string yes = label(), no = label(), join = label();
  line("br i1 " + cond + ", label %" + yes + ", label %" + no);
  for (int k = 0; k < 2; ++k) {
    start(k == 0 ? yes : no);
    auto saved = memo_;
    (k == 0 ? then_body : else_body)();
    memo_ = saved;
    line("br label %" + join);
  }
  start(join);
}

void Emitter::dma_load(const Operation &op) {
  if (row_prefetch_ && row_prefetch_->slots.count(&op)) return row_prefetched_load(op);
  if (plan_.prefetched_loads.count(&op)) return prefetched_load(op);  // llir_dot.cpp
  const Value *v = op.result();
  std::string mt = memty(v->type.elem);
  std::string raw = alloca_of(mt, v->type.numel());
  const Operation *owner = op.parent ? op.parent->parent : nullptr;
  if (owner && owner->kind == OpKind::For && feeds_dpe(v)) {
    // Double buffer: this iteration's DMA fills one buffer while the
    // previous iteration's DPE command may still read the other.
    std::string other_buf = alloca_of(mt, v->type.numel());
    pin_local(raw);  // DPE operands
    pin_local(other_buf);
    std::string parity = alloca_of("i1");
    allocas_.push_back({"", "store i1 false, ptr " + parity});
    std::string odd = emit("load i1, ptr " + parity);
    line("store i1 " + emit("xor i1 " + odd + ", true") + ", ptr " + parity);
    raw = emit("select i1 " + odd + ", ptr " + other_buf + ", ptr " + raw);
  }
  dma_fill(op, raw);
  dma_raw_[v] = raw;
  pending_loads_ = true;
}

void Emitter::dma_fill(const Operation &op, const std::string &raw, const LlVal &tag) {
  const Value *v = op.result(), *ptr = op.operands[0];
  const Value *mask = op.operands.size() > 1 ? op.operands[1] : nullptr;
  const Value *other = op.operands.size() > 2 ? op.operands[2] : nullptr;
  // (x0 + arange) % M offsets (llir_wrap.cpp): the transfers below when no
  // index wraps, else the element copy.
  if (!in_wrap_guard_) {
    std::string no_wrap = wrap_guard(ptr);
    if (!no_wrap.empty()) {
      in_wrap_guard_ = true;
      // A wrapped tile (a tail tile): two DMA pieces, or the element copy (cold).
      // (Outlining the pieces too made matmul_wrap_2k/_1k slower: 214,541 and
      // 67,028 cycles against 211,976 and 58,905.)
      auto copy = [&] { cold([&] { element_fill(op, raw); }); };
      branch(
          no_wrap, [&] { dma_fill(op, raw, tag); },
          [&] {
            if (!wrap_split(op, raw, tag, copy)) copy();
          });
      in_wrap_guard_ = false;
      return;
    }
  }
  Elem e = v->type.elem;
  std::string mt = memty(e);
  Geometry g = geometry(ptr);
  auto fast = [&] { dma_block(g, raw, memory_elem_bytes(e), true, tag.ref); };
  auto partial = [&] {
    loop_nest(v->type.shape, [&](const Idx &idx) {
      std::string rp =
          emit("getelementptr " + mt + ", ptr " + raw + ", i64 " + linear(idx, v->type.shape));
      store_mem(e, rp, other ? val(other, idx) : zero_of(e));
      when(val(mask, idx), [&] {
        line("store " + mt + " " + emit("load " + mt + ", ptr " + val(ptr, idx)) + ", ptr " + rp);
      });
    });
  };
  if (!mask) return fast();
  // A 2-D tile whose partial forms the runtime library handles: inline only
  // the all-active check and the whole tile's DMA.
  // (A tile whose columns are not contiguous in global memory goes there
  // too: the routine moves element-sized rows.)
  if (v->type.shape.size() == 2)
    if (auto form = tile_form(ptr, mask, other, e)) {
      const int64_t eb = memory_elem_bytes(e);
      return branch(
          whole_contiguous(g, all_active(mask, v->type.shape), eb).ref,
          [&] { dma_block(g, raw, eb, true, tag.ref, nullptr, true); },
          [&] {
            runtime_tile(*form, ptr, other, e, raw, true, g, tag);
            count_only(partial);
          });
    }
  // A rectangular mask: `other` into the block when it is not whole, then the
  // active rectangle by DMA; the element copy only when an index wraps.
  if (auto rect = rect_of(mask, v->type.shape)) {
    // A 1-D block with a uniform `other`: inline only the whole row's DMA;
    // a partial row is one call of the runtime library (fill, clamped DMA).
    if (v->type.shape.size() == 1 && (!other || is_uniform_block(other)))
      return row_transfer(g, raw, *rect, e, true, other, other ? val(other, Idx{"0"}) : zero_of(e),
                          tag.ref, partial);
    auto clamped = [&] {
      when_is(rect->full, false, [&] {
        if (!other || is_uniform_block(other)) {
          std::string x = other ? val(other, Idx(v->type.shape.size(), "0")) : zero_of(e);
          rvv_fill(raw, e, v->type.numel(), x);
        } else {
          loop_nest(v->type.shape, [&](const Idx &idx) {
            store_mem(e,
                      emit("getelementptr " + mt + ", ptr " + raw + ", i64 " +
                           linear(idx, v->type.shape)),
                      val(other, idx));
          });
        }
      });
      when_is(rect->nonempty, true,
              [&] { dma_block(g, raw, memory_elem_bytes(e), true, tag.ref, &*rect); });
    };
    if (rect->ok.is(1)) return clamped();
    return branch(rect->ok.ref, clamped, [&] { cold(partial); });
  }
  branch(all_true(mask, v->type.shape), fast, partial);
}

void Emitter::when_is(const LlVal &cond, bool want, const std::function<void()> &body) {
  if (cond.is(want ? 1 : 0)) return body();
  if (cond.is(want ? 0 : 1)) return;
  when(want ? cond.ref : emit("xor i1 " + cond.ref + ", true"), body);
}

void Emitter::dma_store(const Operation &op) {
  const Value *ptr = op.operands[0], *value = op.operands[1];
  const Value *mask = op.operands.size() > 2 ? op.operands[2] : nullptr;
  Elem e = value->type.elem;
  std::string mt = memty(e);
  const auto &shape = ptr->type.shape;
  const bool in_loop = op.parent && op.parent->parent;
  std::string raw;
  // Outside loops a block that already sits in a buffer in memory format
  // (fp32/integers; fp16/bf16 buffers hold fp32) is sent from there: nothing
  // writes a top-level value's buffer again while the DMA may read it.
  if (!in_loop && value->type.shape == shape) {
    if (auto d = dma_raw_.find(value); d != dma_raw_.end())
      raw = d->second;
    else if (auto b = bufs_.find(value); b != bufs_.end() && bufty(e) == mt)
      raw = b->second;
  }
  if (raw.empty()) {
    raw = alloca_of(mt, ptr->type.numel());
    if (in_loop) dma_wait(kStoreTag);  // buffer reuse
    VectorOk strips(*this);
    loop_nest(shape, [&](const Idx &idx) {
      std::string p = emit("getelementptr " + mt + ", ptr " + raw + ", i64 " + linear(idx, shape));
      // In a strip loop a uniform value is a scalar: splat it over the strip.
      if (vec_index(idx))
        vstore(e, p, val(value, idx));
      else
        store_mem(e, p, val(value, idx));
    });
  }
  Geometry g = geometry(ptr);
  auto fast = [&] { dma_block(g, raw, memory_elem_bytes(e), false, std::to_string(kStoreTag)); };
  auto partial = [&] {
    loop_nest(shape, [&](const Idx &idx) {
      when(val(mask, idx), [&] {
        std::string rp =
            emit("getelementptr " + mt + ", ptr " + raw + ", i64 " + linear(idx, shape));
        line("store " + mt + " " + emit("load " + mt + ", ptr " + rp) + ", ptr " + val(ptr, idx));
      });
    });
  };
  if (!mask) return fast();
  if (shape.size() == 2)
    if (auto form = tile_form(ptr, mask, nullptr, e)) {
      const int64_t eb = memory_elem_bytes(e);
      return branch(
          whole_contiguous(g, all_active(mask, shape), eb).ref,
          [&] { dma_block(g, raw, eb, false, std::to_string(kStoreTag), nullptr, true); },
          [&] {
            runtime_tile(*form, ptr, nullptr, e, raw, false, g, LlVal::integer(kStoreTag));
            count_only(partial);
          });
    }
  if (auto rect = rect_of(mask, shape)) {
    if (shape.size() == 1)  // as dma_fill: the whole row inline, a partial one by a call
      return row_transfer(g, raw, *rect, e, false, nullptr, "0", std::to_string(kStoreTag),
                          partial);
    auto clamped = [&] {
      when_is(rect->nonempty, true, [&] {
        dma_block(g, raw, memory_elem_bytes(e), false, std::to_string(kStoreTag), &*rect);
      });
    };
    if (rect->ok.is(1)) return clamped();
    return branch(rect->ok.ref, clamped, [&] { cold(partial); });
  }
  branch(all_true(mask, shape), fast, partial);
}

void Emitter::flush_loads() {
  for (auto &t : pending_tags_) dma_wait_value(t);
  pending_tags_.clear();
  if (!pending_loads_) return;
  dma_wait(kLoadTag);
  pending_loads_ = false;
}

bool Emitter::reads_buffers(const Operation &op) const {
  switch (op.kind) {
    case OpKind::Store:
    case OpKind::For:
    case OpKind::If:
    case OpKind::Reduce:
    case OpKind::Dot:
    case OpKind::Yield:
      return true;
    default:
      break;
  }
  if (op.results.empty()) return false;
  const Value *r = op.result();
  if (!r->type.is_block()) return op.kind == OpKind::Load;
  return plan_.buffers.count(r) != 0;
}

}  // namespace opforge::compiler::llir
