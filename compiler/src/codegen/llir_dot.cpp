//===- llir_dot.cpp - tl.dot on the DPE (Xmtia tile matmul) or as an element loop ===//
//
// A planned DPE dot (plan.dpe_dots) copies the accumulator into the result
// buffer, then issues one DPE command per tile of at most dpe_tile_m/n/k in m,
// n and k (k tiles in order, so accumulation stays in k order, as the IR
// interpreter and the vector fallback do), accumulating into that buffer,
// and waits. Operands that came in by DMA are already in the DPE's input
// format (bf16/fp16 bits, fp32, int8); others are converted into a
// temporary buffer first. Other dots are element loops of fused multiply-adds.
//
// K loops whose operand loads are prefetched (plan.prefetched_loads, see
// lower/dot_pipeline.cpp) are software-pipelined: the loop's prologue DMAs
// iteration 0's tiles into buffer 0; iteration k waits for its own tiles and
// for iteration k-1's DPE commands (the last readers of the other buffer),
// gives the DPE its first command, then DMAs iteration k+1's tiles into the
// other buffer (pointers, masks and `other` evaluated with the induction
// variable and carried values advanced) while the DPE works, and queues the
// rest of its commands. Commands go out k tile by k tile, each over all
// output tiles, so consecutive commands write different C tiles.
//
//===----------------------------------------------------------------------===//
#include <algorithm>
#include <functional>

#include "llir_emitter.h"
#include "xmtia_asm.h"

namespace opforge::compiler::llir {

std::string Emitter::dpe_operand(const Value *v) {
  if (auto it = dma_raw_.find(v); it != dma_raw_.end()) return it->second;
  Elem e = v->type.elem;
  std::string mt = memty(e);
  std::string tmp = alloca_of(mt, v->type.numel());
  loop_nest(v->type.shape, [&](const Idx &idx) {
    store_mem(e,
              emit("getelementptr " + mt + ", ptr " + tmp + ", i64 " + linear(idx, v->type.shape)),
              elem(v, idx));
  });
  return tmp;
}

// acc = tl.dot(a, b, acc) in a loop: the accumulator is a loop-carried
// block used only by this dot, and the result only goes back to it through
// the loop's yield. Then the DPE accumulates into the carried buffer itself.
bool Emitter::accumulates_in_place(const Operation &op) const {
  const Value *c = op.operands[2], *r = op.result();
  if (c->def || !c->owner || !c->owner->parent || c->owner->parent->kind != OpKind::For)
    return false;
  if (!bufs_.count(c) || uses(c) != 1 || uses(r) != 1) return false;
  const Operation *y = c->owner->terminator();
  return y && y->kind == OpKind::Yield && c->index >= 1 &&
         static_cast<size_t>(c->index - 1) < y->operands.size() && y->operands[c->index - 1] == r;
}

void Emitter::dpe_dot(const Operation &op) {
  const Value *a = op.operands[0], *b = op.operands[1], *c = op.operands[2], *r = op.result();
  const int64_t m_len = a->type.shape[0], k_len = a->type.shape[1], n_len = b->type.shape[1];
  Elem ae = a->type.elem;
  int64_t dtype = ae == Elem::BF16 ? 0 : ae == Elem::F16 ? 1 : ae == Elem::F32 ? 2 : 3;
  int64_t eb = memory_elem_bytes(ae);
  // The enclosing K loop when its operand loads are prefetched.
  const Operation *loop = op.parent ? op.parent->parent : nullptr;
  bool prefetch = loop && loop->kind == OpKind::For && !prefetched_in(*loop).empty();
  // The previous dot may still read or write buffers used here; with the
  // operands' DMAs already complete, waiting now overlaps them with it. In a
  // loop the previous iteration's commands are the last readers of the
  // operand buffers this iteration refills (the other half of a double
  // buffer, a converted operand's temporary, the buffers the prefetch below
  // fills): always wait for them.
  if (loop && loop->kind == OpKind::For) pending_dpe_ = true;
  flush_dpe();
  // The DPE reads and writes local memory only: its buffers are never spilled.
  std::string aptr = dpe_operand(a), bptr = dpe_operand(b);
  pin_local(aptr);
  pin_local(bptr);
  std::string abuf = emit("ptrtoint ptr " + aptr + " to i64");
  std::string bbuf = emit("ptrtoint ptr " + bptr + " to i64");
  std::string buf;
  if (accumulates_in_place(op)) {
    buf = bufs_[r] = bufs_.at(c);
  } else {
    buf = buffer_for(r);
    fill(r, buf, c);
  }
  pin_local(buf);
  std::string cbuf = emit("ptrtoint ptr " + buf + " to i64");
  std::string desc = alloca_of("i64", 7);
  // The DPE reads the descriptor when a command is issued: a constant field
  // that the previous command on every path here left equal is not stored
  // again (the commands of one dot share their sizes and type).
  std::map<int, int64_t> stored;
  auto field = [&](int f, const LlVal &v) {
    if (v.constant) {
      if (auto it = stored.find(f); it != stored.end() && it->second == *v.constant) return;
      stored[f] = *v.constant;
    } else {
      stored.erase(f);
    }
    line("store " + v.typed() + ", ptr " +
         emit("getelementptr i64, ptr " + desc + ", i64 " + std::to_string(f)));
  };
  auto offset = [&](const std::string &base, int64_t bytes) {
    return bytes ? emit("i64", "add i64 " + base + ", " + std::to_string(bytes))
                 : LlVal::of(base, "i64");
  };
  const int64_t tm = std::max<int64_t>(1, plan_.dpe_tile_m);
  const int64_t tn = std::max<int64_t>(1, plan_.dpe_tile_n);
  const int64_t tk = std::max<int64_t>(1, plan_.dpe_tile_k);
  // Prefetched operands: the loop's first iteration issues its own
  // transfers (issue_transfers) before its first command; later iterations
  // give the DPE their first command, then issue the next iteration's.
  std::string first;
  if (prefetch)
    first = emit("icmp eq " + llty(loop->operands[0]->type.elem) + " " +
                 scalar(loop->regions[0]->arg(0)) + ", " + scalar(loop->operands[0]));
  // A zero accumulator's first step does not accumulate (for_loop left
  // the zeros out): flags dtype there, dtype | accumulate after.
  const bool fresh = prefetch && zero_accumulators_.count(c);
  const int64_t acc_flags = dtype | 1 << 8;
  auto command = [&](int64_t k0, int64_t m0, int64_t n0, std::optional<bool> first_step = {}) {
    uint64_t m = std::min(tm, m_len - m0), n = std::min(tn, n_len - n0),
             k = std::min(tk, k_len - k0);
    field(0, offset(abuf, (m0 * k_len + k0) * eb));
    field(1, offset(bbuf, (k0 * n_len + n0) * eb));
    field(2, offset(cbuf, (m0 * n_len + n0) * 4));
    field(3, LlVal::integer(static_cast<int64_t>(m | n << 32)));
    field(4, LlVal::integer(static_cast<int64_t>(k | uint64_t(k_len) << 32)));
    field(5, LlVal::integer(static_cast<int64_t>(uint64_t(n_len) | uint64_t(n_len) << 32)));
    if (!fresh || k0)
      field(6, LlVal::integer(acc_flags));  // accumulate into C
    else if (first_step)
      field(6, LlVal::integer(*first_step ? dtype : acc_flags));
    else
      field(6, emit("i64", "select i1 " + first + ", i64 " + std::to_string(dtype) + ", i64 " +
                               std::to_string(acc_flags)));
    line("call void asm sideeffect \"" + dpe_issue_asm() + "\", \"r,~{memory}\"(ptr " + desc + ")");
  };
  for (int64_t k0 = 0; k0 < k_len; k0 += tk)
    for (int64_t m0 = 0; m0 < m_len; m0 += tm)
      for (int64_t n0 = 0; n0 < n_len; n0 += tn) {
        if (!prefetch || k0 || m0 || n0) {
          command(k0, m0, n0);
          continue;
        }
        when(emit("xor i1 " + first + ", true"), [&] {
          stored.clear();
          command(0, 0, 0, false);
        });
        issue_transfers(*loop, first);
        when(first, [&] {
          std::set<std::string> tags;
          for (auto *l : prefetched_in(*loop)) tags.insert(prefetch_.at(l).cur_tag);
          for (auto &t : tags) dma_wait_value(t);
          stored.clear();  // both paths store every field of the first command
          command(0, 0, 0, true);
        });
      }
  // Waited for lazily (flush_dpe), so the next iteration's DMAs overlap.
  pending_dpe_ = true;
  dpe_written_.insert(r);
  dpe_written_.insert(c);
}

// Carried block `arg` of K loop `loop`, initialised by `init`: +0 everywhere
// (tl.zeros) and the accumulator of the loop body's one DPE dot, which
// accumulates into it in place and whose operands are prefetched (the dot
// knows its first step). That dot's first step, k-tile 0, writes every
// element without reading it: the DPE's sum then starts from +0, as it would
// accumulating onto the zeros.
bool Emitter::overwritten_by_first_step(const Operation &loop, const Value *arg,
                                        const Value *init) {
  if (!known_zero(init) || prefetched_in(loop).empty()) return false;
  for (auto &o : loop.regions[0]->ops)
    if (o->kind == OpKind::Dot && plan_.dpe_dots.count(o.get()) && o->operands[2] == arg)
      return accumulates_in_place(*o);
  return false;
}

std::vector<const Operation *> Emitter::prefetched_in(const Operation &loop) const {
  std::vector<const Operation *> r;
  if (loop.regions.empty()) return r;
  for (auto &o : loop.regions[0]->ops)
    if (plan_.prefetched_loads.count(o.get())) r.push_back(o.get());
  return r;
}

void Emitter::emit_scalar_slice(const ttir::Block &body, const std::vector<const Value *> &roots,
                                bool fresh) {
  std::set<const Operation *> slice;
  std::set<const Value *> seen;
  std::function<void(const Value *)> visit = [&](const Value *v) {
    if (!seen.insert(v).second || !v->def || v->def->parent != &body) return;
    slice.insert(v->def);
    for (auto *o : v->def->operands) visit(o);
  };
  for (auto *r : roots) visit(r);
  for (auto &o : body.ops) {
    if (!slice.count(o.get()) || o->results.size() != 1 || o->result()->type.is_block()) continue;
    if (fresh || !scalars_.count(o->result())) emit_op(*o);
  }
}

std::vector<const Value *> Emitter::prefetch_args(const Operation &loop) {
  const ttir::Block &body = *loop.regions[0];
  std::set<const Value *> seen, args;
  std::function<void(const Value *)> visit = [&](const Value *v) {
    if (!seen.insert(v).second) return;
    if (v->owner == &body) args.insert(v);
    if (!v->def || v->def->parent != &body) return;
    for (auto *o : v->def->operands) visit(o);
  };
  for (auto *l : prefetched_in(loop))
    for (auto *o : l->operands) visit(o);
  // In argument order, not the set's (host addresses): the transfer code is
  // emitted in this order, and the same kernel must compile to the same code
  // (test CodegenDeterministic.MatmulBf16IrDoesNotDependOnTheHeap).
  std::vector<const Value *> out(args.begin(), args.end());
  std::sort(out.begin(), out.end(),
            [](const Value *a, const Value *b) { return a->index < b->index; });
  return out;
}

void Emitter::in_iteration(const Operation &loop,
                           const std::map<const Value *, std::string> &scalars,
                           const std::map<const Value *, std::string> &carried_elem0,
                           const std::function<void()> &fn) {
  auto saved_scalars = scalars_;
  auto saved_carried = carried_;
  auto saved_memo = memo_;
  for (auto &[v, x] : scalars) scalars_[v] = x;
  for (auto &[v, x] : carried_elem0) carried_[v] = {x, loop.operands[v->index + 2]};
  memo_.clear();
  std::vector<const Value *> roots;
  for (auto *l : prefetched_in(loop))
    for (auto *o : l->operands) roots.push_back(o);
  emit_scalar_slice(*loop.regions[0], roots, true);
  fn();
  scalars_ = std::move(saved_scalars);
  carried_ = std::move(saved_carried);
  memo_ = std::move(saved_memo);
}

// The two buffers of each prefetched load and their parity. No transfer
// here: the loop's first iteration issues its own (issue_transfers).
void Emitter::pipeline_prologue(const Operation &loop) {
  auto loads = prefetched_in(loop);
  if (loads.empty()) return;
  for (auto *l : loads) {
    const Value *v = l->result();
    Prefetch &p = prefetch_[l];
    for (auto &b : p.buf) {
      b = alloca_of(memty(v->type.elem), v->type.numel());
      pin_local(b);  // DPE operands
    }
    p.parity = alloca_of("i1");
    line("store i1 false, ptr " + p.parity);
  }
}

void Emitter::prefetched_load(const Operation &op) {
  Prefetch &p = prefetch_.at(&op);
  std::string odd = emit("load i1, ptr " + p.parity);
  p.cur = emit("select i1 " + odd + ", ptr " + p.buf[1] + ", ptr " + p.buf[0]);
  dma_raw_[op.result()] = p.cur;
  p.next = emit("select i1 " + odd + ", ptr " + p.buf[0] + ", ptr " + p.buf[1]);
  // Each buffer has its DMA tag: waiting for this iteration's tiles does not
  // wait for the next iteration's, issued before.
  const std::string t0 = std::to_string(kPipeTag0), t1 = std::to_string(kPipeTag0 + 1);
  p.cur_tag = emit("select i1 " + odd + ", i64 " + t1 + ", i64 " + t0);
  p.next_tag = emit("select i1 " + odd + ", i64 " + t0 + ", i64 " + t1);
  line("store i1 " + emit("xor i1 " + odd + ", true") + ", ptr " + p.parity);
  pending_tags_.push_back(p.cur_tag);  // waited for before the dot reads it
}

// After the dot's first DPE command (dpe_dot): one loop of at most two
// trips over the same transfer code, for this iteration (only the first
// one, `first`: nothing prefetched it; its first command waits until after
// this loop) and for the next (when there is one). One copy of the tiles'
// transfer code per K loop instead of a prologue copy before it (a masked
// bf16 matmul: about 15 M host instructions of LLVM less).
void Emitter::issue_transfers(const Operation &loop, const std::string &first) {
  const ttir::Block &body = *loop.regions[0];
  const Operation *y = body.terminator();
  const std::string ity = llty(loop.operands[0]->type.elem);
  const std::string iv = scalar(body.arg(0)), step = scalar(loop.operands[2]);
  // As the loop's own exit test: another iteration follows iff iv < hi - step.
  const std::string more = emit("icmp slt " + ity + " " + iv + ", " +
                                emit("sub " + ity + " " + scalar(loop.operands[1]) + ", " + step));
  // The carried values of this iteration and of the next one.
  // The maps are read in `order` (argument order), never iterated: their
  // order is that of host addresses.
  std::map<const Value *, std::string> now, next, now0, next0;
  std::vector<const Value *> order{body.arg(0)};
  now[body.arg(0)] = iv;
  next[body.arg(0)] = emit("add " + ity + " " + iv + ", " + step);
  for (const Value *arg : prefetch_args(loop)) {
    if (arg->index == 0) continue;
    order.push_back(arg);
    const Value *adv = y->operands[arg->index - 1];  // what the yield advances it to
    emit_scalar_slice(body, {adv}, false);
    if (plan_.carried_affine.count(arg)) {
      now0[arg] = carried_.at(arg).elem0;
      next0[arg] = elem(adv, Idx(arg->type.rank(), "0"));
    } else {
      now[arg] = scalar(arg);
      next[arg] = scalar(adv);
    }
  }
  const auto loads = prefetched_in(loop);
  std::string lo = emit("select i1 " + first + ", i64 0, i64 1");
  std::string hi = emit("select i1 " + more + ", i64 2, i64 1");
  std::string slot = alloca_of("i64");
  line("store i64 " + lo + ", ptr " + slot);
  std::string head = label(), bl = label(), exit = label();
  line("br label %" + head);
  start(head);
  std::string j = emit("load i64, ptr " + slot);
  line("br i1 " + emit("icmp slt i64 " + j + ", " + hi) + ", label %" + bl + ", label %" + exit);
  start(bl);
  const std::string ahead = emit("icmp ne i64 " + j + ", 0");
  auto pick = [&](const Value *v, const std::string &a, const std::string &b) {
    return a == b ? a
                  : emit("select i1 " + ahead + ", " + llty(v->type.elem) + " " + b + ", " +
                         llty(v->type.elem) + " " + a);
  };
  std::map<const Value *, std::string> scalars, elem0;
  for (const Value *v : order)
    if (now.count(v)) scalars[v] = pick(v, now.at(v), next.at(v));
  for (const Value *v : order)
    if (now0.count(v)) elem0[v] = pick(v, now0.at(v), next0.at(v));
  in_iteration(loop, scalars, elem0, [&] {
    for (auto *l : loads) {
      const Prefetch &p = prefetch_.at(l);
      dma_fill(*l, emit("select i1 " + ahead + ", ptr " + p.next + ", ptr " + p.cur),
               emit("i64", "select i1 " + ahead + ", i64 " + p.next_tag + ", i64 " + p.cur_tag));
    }
  });
  line("store i64 " + emit("add i64 " + j + ", 1") + ", ptr " + slot);
  line("br label %" + head);
  start(exit);
}

void Emitter::flush_dpe() {
  if (!pending_dpe_) return;
  line("call void asm sideeffect \"" + dpe_wait_asm() + "\", \"~{memory}\"()");
  pending_dpe_ = false;
}

bool Emitter::depends_on_dpe(const Value *v, std::set<const Value *> &seen) const {
  if (!v->type.is_block() || !seen.insert(v).second) return false;
  if (dpe_written_.count(v)) return true;
  if (!v->def || bufs_.count(v) || dma_raw_.count(v)) return false;
  for (auto *o : v->def->operands)
    if (depends_on_dpe(o, seen)) return true;
  return false;
}

bool Emitter::feeds_dpe(const Value *v) const {
  auto it = users_.find(v);
  if (it == users_.end()) return false;
  for (auto *u : it->second)
    if (plan_.dpe_dots.count(u) && (u->operands[0] == v || u->operands[1] == v)) return true;
  return false;
}

void Emitter::dot(const Operation &op) {
  if (plan_.dpe_dots.count(&op)) return dpe_dot(op);
  const Value *a = op.operands[0], *b = op.operands[1], *c = op.operands[2], *r = op.result();
  std::string buf = buffer_for(r);
  int64_t k_len = a->type.shape[1];
  Elem re = r->type.elem;
  std::string rt = llty(re);
  std::string acc = alloca_of(rt);
  loop_nest(r->type.shape, [&](const Idx &idx) {
    line("store " + rt + " " + elem(c, idx) + ", ptr " + acc);
    loop(0, k_len, [&](const std::string &k) {
      std::string x = elem(a, {idx[0], k}), y = elem(b, {k, idx[1]});
      std::string s = emit("load " + rt + ", ptr " + acc);
      std::string t;
      if (ttir::elem_is_float(re)) {
        if (a->type.elem == Elem::F64 && re != Elem::F64)
          fail(op, "fp64 operands with a narrower accumulator");
        t = emit("call " + rt + " @" + intrinsic("llvm.fma.f32", "float", "float, float, float") +
                 "(float " + x + ", float " + y + ", float " + s + ")");
      } else {
        std::string xe = emit("sext " + llty(a->type.elem) + " " + x + " to " + rt);
        std::string ye = emit("sext " + llty(b->type.elem) + " " + y + " to " + rt);
        t = emit("add " + rt + " " + s + ", " + emit("mul " + rt + " " + xe + ", " + ye));
      }
      line("store " + rt + " " + t + ", ptr " + acc);
    });
    buf_store(r, buf, idx, emit("load " + rt + ", ptr " + acc));
  });
}

}  // namespace opforge::compiler::llir
