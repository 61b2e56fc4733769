//===- llir_prefetch.cpp - double-buffered DMA prefetch of the next iteration's loads in scf.for ===//
//
// In a loop such as a persistent kernel's `for row in tl.range(pid, n, nprog)`
// the affine block loads whose pointer, mask and `other` depend only on the
// induction variable and on values from outside the loop are prefetched: while
// iteration i computes on one local buffer, the DMA of iteration i + step fills
// the other. Per such load the loop keeps two buffers, two DMA tags
// (kPrefetchTag0/1), a parity bit and a `prefetched` bit:
//   before the loop   load iteration lb into buffer 0 (when the loop runs);
//   at the load       use buffer[parity] (issuing its DMA now if the previous
//                     iteration could not prefetch it); then, when there is a
//                     next iteration and its block does not overlap what this
//                     iteration stores, issue next's DMA into buffer[!parity];
//                     flip the parity. Code that reads the block first waits for
//                     buffer[parity]'s tag only, so next's DMA stays in flight.
// The overlap test is made at run time against the address range of every
// store of the body at the current iteration (a prefetched block must not be
// data this iteration writes, e.g. an in-place kernel whose rows overlap).
// Loops whose body has other side effects (atomics, nested loops or ifs,
// stores through non-affine pointer blocks) are not prefetched. A partial
// block (mask not all true) is copied element by element as usual, into the
// buffer the next iteration reads.
//
//===----------------------------------------------------------------------===//
#include "llir_emitter.h"
#include "xmtia_asm.h"

namespace opforge::compiler::llir {

std::optional<Emitter::RowPrefetch> Emitter::plan_row_prefetch(const Operation &loop_op) {
  const ttir::Block &body = *loop_op.regions[0];
  RowPrefetch pf;
  pf.body = &body;
  for (auto &o : body.ops) {
    if (plan_.row_prefetched_loads.count(o.get())) pf.loads.push_back(o.get());
    if (o->kind == OpKind::Store) pf.stores.push_back(o.get());
  }
  if (pf.loads.empty()) return std::nullopt;
  return pf;
}

// Runs `fn` with the body's scalars recomputed for induction value `iv`.
void Emitter::at_iteration(const ttir::Block &body, const std::string &iv,
                           const std::function<void()> &fn) {
  auto saved_scalars = scalars_;
  auto saved_memo = memo_;
  memo_.clear();
  scalars_[body.arg(0)] = iv;
  for (auto &o : body.ops) {
    if (o->results.size() != 1 || o->result()->type.is_block()) continue;
    const Value *r = o->result();
    if (!iteration_computable(r, body, plan_)) {
      scalars_.erase(r);
      continue;
    }
    if (o->kind == OpKind::Constant) {
      scalars_[r] = constant(*o);
      continue;
    }
    std::vector<std::string> in;
    for (auto *v : o->operands) in.push_back(scalar(v));
    scalars_[r] = apply(*o, in);
  }
  fn();
  scalars_ = saved_scalars;
  memo_ = saved_memo;
}

// [lo, hi) byte addresses an access through `ptr` (elements of `elem_bytes`) may touch.
std::pair<std::string, std::string> Emitter::access_range(const Value *ptr, int64_t elem_bytes) {
  if (!ptr->type.is_block()) {
    std::string p = emit("ptrtoint ptr " + scalar(ptr) + " to i64");
    return {p, emit("add i64 " + p + ", " + std::to_string(elem_bytes))};
  }
  Geometry g = geometry(ptr);
  std::string lo = g.base, hi = emit("add i64 " + g.base + ", " + std::to_string(elem_bytes));
  auto extend = [&](const std::string &stride, int64_t n) {
    if (n <= 1) return;
    std::string span = emit("mul i64 " + stride + ", " + std::to_string(n - 1));
    std::string neg = emit("icmp slt i64 " + span + ", 0");
    lo = emit("add i64 " + lo + ", " + emit("select i1 " + neg + ", i64 " + span + ", i64 0"));
    hi = emit("add i64 " + hi + ", " + emit("select i1 " + neg + ", i64 0, i64 " + span));
  };
  extend(g.row_stride, g.rows);
  extend(g.col_stride, g.cols);
  return {lo, hi};
}

// Fills `buf` with `op`'s block as the iteration now in scalars_ sees it:
// the DMA with `tag` when every element is active, otherwise the element copy.
void Emitter::load_block_into(const Operation &op, const std::string &buf, const std::string &tag) {
  const Value *v = op.result(), *ptr = op.operands[0];
  const Value *mask = op.operands.size() > 1 ? op.operands[1] : nullptr;
  const Value *other = op.operands.size() > 2 ? op.operands[2] : nullptr;
  Elem e = v->type.elem;
  std::string mt = memty(e);
  Geometry g = geometry(ptr);
  auto fast = [&] { dma_block(g, buf, memory_elem_bytes(e), true, tag); };
  auto partial = [&] {
    loop_nest(v->type.shape, [&](const Idx &idx) {
      std::string rp =
          emit("getelementptr " + mt + ", ptr " + buf + ", i64 " + linear(idx, v->type.shape));
      std::string zero = ttir::elem_is_float(e) ? float_lit(0, e)
                         : e == Elem::I1           ? "false"
                         : e == Elem::Ptr          ? "null"
                                                   : "0";
      store_mem(e, rp, other ? val(other, idx) : zero);
      when(val(mask, idx), [&] {
        line("store " + mt + " " + emit("load " + mt + ", ptr " + val(ptr, idx)) + ", ptr " + rp);
      });
    });
  };
  if (mask)
    branch(all_true(mask, v->type.shape), fast, partial);
  else
    fast();
}

void Emitter::row_prefetch_prologue(RowPrefetch &pf, const std::string &lb, const std::string &ub,
                                const std::string &ity) {
  for (auto *op : pf.loads) {
    const Value *v = op->result();
    std::string mt = memty(v->type.elem);
    RowPrefetch::Slots s;
    s.buf[0] = alloca_of(mt, v->type.numel());
    s.buf[1] = alloca_of(mt, v->type.numel());
    s.parity = alloca_of("i8");
    s.ready = alloca_of("i8");
    line("store i8 0, ptr " + s.parity);
    line("store i8 0, ptr " + s.ready);
    pf.slots[op] = s;
  }
  std::string runs = emit("icmp slt " + ity + " " + lb + ", " + ub);
  when(runs, [&] {
    at_iteration(*pf.body, lb, [&] {
      for (auto *op : pf.loads) {
        load_block_into(*op, pf.slots[op].buf[0], std::to_string(kPrefetchTag0));
        line("store i8 1, ptr " + pf.slots[op].ready);
      }
    });
  });
}

void Emitter::row_prefetched_load(const Operation &op) {
  RowPrefetch &pf = *row_prefetch_;
  RowPrefetch::Slots &s = pf.slots.at(&op);
  const Value *v = op.result();
  std::string par = emit("trunc i8 " + emit("load i8, ptr " + s.parity) + " to i1");
  std::string cur = emit("select i1 " + par + ", ptr " + s.buf[1] + ", ptr " + s.buf[0]);
  std::string nxt = emit("select i1 " + par + ", ptr " + s.buf[0] + ", ptr " + s.buf[1]);
  std::string cur_tag = emit("select i1 " + par + ", i64 " + std::to_string(kPrefetchTag1) +
                             ", i64 " + std::to_string(kPrefetchTag0));
  std::string nxt_tag = emit("select i1 " + par + ", i64 " + std::to_string(kPrefetchTag0) +
                             ", i64 " + std::to_string(kPrefetchTag1));
  std::string ready = emit("trunc i8 " + emit("load i8, ptr " + s.ready) + " to i1");
  // Not prefetched (the previous iteration's check failed): load it now.
  when(emit("xor i1 " + ready + ", true"), [&] { load_block_into(op, cur, cur_tag); });
  // Next iteration's block, unless there is none or this iteration stores over it.
  const std::string &iv = scalar(pf.body->arg(0));
  std::string next = emit("add " + pf.ity + " " + iv + ", " + pf.step);
  std::string last =
      emit("icmp sgt " + pf.ity + " " + iv + ", " + emit("sub " + pf.ity + " " + pf.ub + ", " + pf.step));
  std::string go = emit("and i1 " + emit("xor i1 " + last + ", true") + ", " +
                        emit("icmp slt " + pf.ity + " " + next + ", " + pf.ub));
  std::string disjoint = "true";
  if (!pf.stores.empty()) {
    std::pair<std::string, std::string> nr;
    at_iteration(*pf.body, next, [&] {
      nr = access_range(op.operands[0], memory_elem_bytes(v->type.elem));
    });
    at_iteration(*pf.body, iv, [&] {
      for (auto *st : pf.stores) {
        const Value *ptr = st->operands[0];
        auto r = access_range(ptr, memory_elem_bytes(ptr->type.pointee));
        std::string apart = emit("or i1 " + emit("icmp ule i64 " + r.second + ", " + nr.first) +
                                 ", " + emit("icmp ule i64 " + nr.second + ", " + r.first));
        disjoint = emit("and i1 " + disjoint + ", " + apart);
      }
    });
  }
  go = emit("and i1 " + go + ", " + disjoint);
  line("store i8 " + emit("zext i1 " + go + " to i8") + ", ptr " + s.ready);
  when(go, [&] { at_iteration(*pf.body, next, [&] { load_block_into(op, nxt, nxt_tag); }); });
  line("store i8 " + emit("zext i1 " + emit("xor i1 " + par + ", true") + " to i8") + ", ptr " +
       s.parity);
  dma_raw_[v] = cur;
  pending_tags_.push_back(cur_tag);
}

void Emitter::dma_wait_value(const std::string &tag) {
  line("call void asm sideeffect \"" + dma_wait_asm() + "\", \"r,~{memory}\"(i64 " + tag + ")");
}

}  // namespace opforge::compiler::llir
