//===- llir_prefetch.cpp - double-buffered DMA prefetch of the next iteration's loads ===//
//
// In a loop such as a persistent kernel's `for row in tl.range(pid, n, nprog)`
// the affine block loads whose pointer, mask and `other` depend only on the
// induction variable and on values from outside the loop are prefetched: while
// iteration i computes on one local buffer, the DMA of iteration i + step fills
// the other. Per such load the loop keeps two buffers, two DMA tags
// (kPrefetchTag0/1), a parity bit and a `prefetched` bit:
//   before the loop   mark buffer 0 not ready (the first iteration loads it
//                     through the path below: one copy of the transfer code
//                     less to compile, the same order of DMAs);
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
  pf.depth = plan_.row_prefetch_depth;
  for (auto &o : body.ops) {
    if (plan_.row_prefetched_loads.count(o.get())) pf.loads.push_back(o.get());
    if (o->kind == OpKind::Store) pf.stores.push_back(o.get());
  }
  if (pf.loads.empty()) return std::nullopt;
  // Ring slot k waits on DMA tag kPrefetchTag0 + k; the K-loop pipeline's
  // buffers use kPipeTag0 and the next one (llir_dot.cpp).
  if (pf.depth < 1 || kPrefetchTag0 + pf.depth > kPipeTag0)
    throw Error("codegen: a row prefetch ring of " + std::to_string(pf.depth) +
                " slots needs DMA tags " + std::to_string(kPrefetchTag0) + ".." +
                std::to_string(kPrefetchTag0 + pf.depth - 1) + "; at most " +
                std::to_string(kPipeTag0 - kPrefetchTag0) +
                " slots fit below the K-loop pipeline's tags " + std::to_string(kPipeTag0) + ", " +
                std::to_string(kPipeTag0 + 1));
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

// Iteration `iv` + k * step (`k` an i64 value) in the induction type, and
// whether the loop runs it (computed in i64 for an i32 induction variable, so
// it does not wrap).
std::pair<std::string, std::string> Emitter::iteration_ahead(const RowPrefetch &pf,
                                                             const std::string &iv,
                                                             const std::string &k) {
  auto wide = [&](const std::string &x) {
    return pf.ity == "i64" ? x : emit("sext " + pf.ity + " " + x + " to i64");
  };
  std::string t64 =
      emit("add i64 " + wide(iv) + ", " + emit("mul i64 " + k + ", " + wide(pf.step)));
  std::string runs = emit("icmp slt i64 " + t64 + ", " + wide(pf.ub));
  std::string t = pf.ity == "i64" ? t64 : emit("trunc i64 " + t64 + " to " + pf.ity);
  return {t, runs};
}

// Whether the block `op` loads at iteration `t` lies apart from everything the
// body stores in iterations `first` .. `last` (ranges affine in the iteration:
// their hull is spanned by the two ends).
std::string Emitter::apart_from_stores(const RowPrefetch &pf, const Operation &op,
                                       const std::string &t, const std::string &first,
                                       const std::string &last) {
  if (pf.stores.empty()) return "true";
  std::pair<std::string, std::string> nr;
  at_iteration(*pf.body, t, [&] {
    nr = access_range(op.operands[0], memory_elem_bytes(op.result()->type.elem));
  });
  std::vector<std::pair<std::string, std::string>> ends[2];
  for (int e = 0; e < 2; ++e)
    at_iteration(*pf.body, e == 0 ? first : last, [&] {
      for (auto *st : pf.stores)
        ends[e].push_back(
            access_range(st->operands[0], memory_elem_bytes(st->operands[0]->type.pointee)));
    });
  std::string apart = "true";
  for (size_t j = 0; j < pf.stores.size(); ++j) {
    auto umin = [&](const std::string &x, const std::string &y) {
      return emit("select i1 " + emit("icmp ult i64 " + x + ", " + y) + ", i64 " + x + ", i64 " +
                  y);
    };
    auto umax = [&](const std::string &x, const std::string &y) {
      return emit("select i1 " + emit("icmp ugt i64 " + x + ", " + y) + ", i64 " + x + ", i64 " +
                  y);
    };
    std::string lo = umin(ends[0][j].first, ends[1][j].first);
    std::string hi = umax(ends[0][j].second, ends[1][j].second);
    std::string ok = emit("or i1 " + emit("icmp ule i64 " + hi + ", " + nr.first) + ", " +
                          emit("icmp ule i64 " + nr.second + ", " + lo));
    apart = emit("and i1 " + apart + ", " + ok);
  }
  return apart;
}

std::string Emitter::ring_buffer(const RowPrefetch::Slots &s, const Operation &op,
                                 const std::string &slot) {
  const Value *v = op.result();
  return emit("getelementptr " + memty(v->type.elem) + ", ptr " + s.bufs + ", i64 " +
              emit("mul i64 " + slot + ", " + std::to_string(v->type.numel())));
}

void Emitter::row_prefetch_prologue(RowPrefetch &pf, const std::string &lb, const std::string &ub,
                                    const std::string &ity) {
  (void)ub;
  (void)ity;
  const int64_t n = pf.depth;
  for (auto *op : pf.loads) {
    const Value *v = op->result();
    RowPrefetch::Slots s;
    s.bufs = alloca_of(memty(v->type.elem), n * v->type.numel());
    if (feeds_dpe(v)) pin_local(s.bufs);
    s.slot = alloca_of("i64");
    s.ready = alloca_of("i8", n);
    line("store i64 0, ptr " + s.slot);
    // Slot 0 (iteration lb) is not ready: the first iteration's own transfer
    // (row_prefetched_load) fills it, in the same order of DMAs as a fill
    // here would, with one copy of the transfer code less.
    line("store i8 0, ptr " + s.ready);
    pf.slots[op] = s;
  }
  // Iterations lb + step .. lb + (depth - 2) * step into slots 1 .. depth - 2
  // (none for a ring of two); the one in slot k must not be data iterations
  // lb .. lb + (k - 1) * step store.
  if (n <= 2) return;
  loop(1, n - 1, [&](const std::string &k) {
    auto [t, runs] = iteration_ahead(pf, lb, k);
    std::string before = emit("sub i64 " + k + ", 1");
    std::string last = iteration_ahead(pf, lb, before).first;
    for (auto *op : pf.loads) {
      RowPrefetch::Slots &s = pf.slots[op];
      std::string go = emit("and i1 " + runs + ", " + apart_from_stores(pf, *op, t, lb, last));
      line("store i8 " + emit("zext i1 " + go + " to i8") + ", ptr " +
           emit("getelementptr i8, ptr " + s.ready + ", i64 " + k));
      std::string buf = ring_buffer(s, *op, k);
      LlVal tag = emit("i64", "add i64 " + k + ", " + std::to_string(kPrefetchTag0));
      when(go, [&] { at_iteration(*pf.body, t, [&] { prefetch_fill(*op, buf, tag); }); });
    }
  });
}

void Emitter::row_prefetched_load(const Operation &op) {
  RowPrefetch &pf = *row_prefetch_;
  RowPrefetch::Slots &s = pf.slots.at(&op);
  const Value *v = op.result();
  const int64_t n = pf.depth;
  std::string c = emit("load i64, ptr " + s.slot);
  std::string cur = ring_buffer(s, op, c);
  std::string cur_tag = emit("add i64 " + c + ", " + std::to_string(kPrefetchTag0));
  std::string ready_ptr = emit("getelementptr i8, ptr " + s.ready + ", i64 " + c);
  std::string ready = emit("icmp ne i8 " + emit("load i8, ptr " + ready_ptr) + ", 0");
  // Not prefetched (out of range then, or overlapping a store): load it now.
  when(emit("xor i1 " + ready + ", true"),
       [&] { prefetch_fill(op, cur, LlVal::of(cur_tag, "i64")); });
  // Iteration iv + (depth - 1) * step into the slot iteration iv - step used,
  // unless the loop ends first or iterations iv .. iv + (depth - 2) * step
  // store over it.
  const std::string iv = scalar(pf.body->arg(0));
  auto [t, runs] = iteration_ahead(pf, iv, std::to_string(n - 1));
  std::string last = iteration_ahead(pf, iv, std::to_string(n - 2)).first;
  std::string go = emit("and i1 " + runs + ", " + apart_from_stores(pf, op, t, iv, last));
  std::string p = emit("urem i64 " + emit("add i64 " + c + ", " + std::to_string(n - 1)) + ", " +
                       std::to_string(n));
  line("store i8 " + emit("zext i1 " + go + " to i8") + ", ptr " +
       emit("getelementptr i8, ptr " + s.ready + ", i64 " + p));
  std::string nxt = ring_buffer(s, op, p);
  std::string nxt_tag = emit("add i64 " + p + ", " + std::to_string(kPrefetchTag0));
  when(go, [&] {
    at_iteration(*pf.body, t, [&] { prefetch_fill(op, nxt, LlVal::of(nxt_tag, "i64")); });
  });
  line("store i64 " + emit("urem i64 " + emit("add i64 " + c + ", 1") + ", " + std::to_string(n)) +
       ", ptr " + s.slot);
  dma_raw_[v] = cur;
  pending_tags_.push_back(cur_tag);
}

// A ring slot's transfer. Whole rows with contiguous elements (the common
// case: every column active) are one xmtia.dma issued here, in the row
// loop; anything else (a partial mask, a strided column) takes dma_fill, which
// calls the module's DMA routine. A call in the row loop costs about 60
// instructions a row (argument moves, saved registers, the routine's
// branches): layer_norm rows on mtia-2i 34,924 -> 34,160 cycles.
void Emitter::prefetch_fill(const Operation &op, const std::string &buf, const LlVal &tag) {
  const Value *v = op.result(), *ptr = op.operands[0];
  const Value *mask = op.operands.size() > 1 ? op.operands[1] : nullptr;
  const int64_t eb = memory_elem_bytes(v->type.elem);
  Geometry g = geometry(ptr);
  std::string whole =
      g.cols == 1 ? "true" : emit("icmp eq i64 " + g.col_stride + ", " + std::to_string(eb));
  if (mask) whole = emit("and i1 " + whole + ", " + all_true(mask, v->type.shape));
  branch(
      whole,
      [&] {
        std::string row_bytes = std::to_string(g.cols * eb);
        dma_issue(g.base, emit("ptrtoint ptr " + buf + " to i64"), row_bytes,
                  std::to_string(g.rows), g.row_stride, row_bytes, tag.ref);
      },
      [&] { dma_fill(op, buf, tag); });
}

void Emitter::dma_wait_value(const std::string &tag) {
  line("call void asm sideeffect \"" + dma_wait_asm() + "\", \"r,~{memory}\"(i64 " + tag + ")");
}

}  // namespace opforge::compiler::llir
