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
//===----------------------------------------------------------------------===//
#include <algorithm>

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
  // The previous dot may still read or write buffers used here; with the
  // operands' DMAs already complete, waiting now overlaps them with it.
  flush_dpe();
  std::string abuf = emit("ptrtoint ptr " + dpe_operand(a) + " to i64");
  std::string bbuf = emit("ptrtoint ptr " + dpe_operand(b) + " to i64");
  std::string buf;
  if (accumulates_in_place(op)) {
    buf = bufs_[r] = bufs_.at(c);
  } else {
    buf = buffer_for(r);
    fill(r, buf, c);
  }
  std::string cbuf = emit("ptrtoint ptr " + buf + " to i64");
  std::string desc = alloca_of("i64", 7);
  auto field = [&](int f, const std::string &v) {
    line("store i64 " + v + ", ptr " +
         emit("getelementptr i64, ptr " + desc + ", i64 " + std::to_string(f)));
  };
  auto offset = [&](const std::string &base, int64_t bytes) {
    return bytes ? emit("add i64 " + base + ", " + std::to_string(bytes)) : base;
  };
  const int64_t tm = std::max<int64_t>(1, plan_.dpe_tile_m);
  const int64_t tn = std::max<int64_t>(1, plan_.dpe_tile_n);
  const int64_t tk = std::max<int64_t>(1, plan_.dpe_tile_k);
  for (int64_t m0 = 0; m0 < m_len; m0 += tm)
    for (int64_t n0 = 0; n0 < n_len; n0 += tn)
      for (int64_t k0 = 0; k0 < k_len; k0 += tk) {
        uint64_t m = std::min(tm, m_len - m0), n = std::min(tn, n_len - n0),
                 k = std::min(tk, k_len - k0);
        field(0, offset(abuf, (m0 * k_len + k0) * eb));
        field(1, offset(bbuf, (k0 * n_len + n0) * eb));
        field(2, offset(cbuf, (m0 * n_len + n0) * 4));
        field(3, std::to_string(static_cast<int64_t>(m | n << 32)));
        field(4, std::to_string(static_cast<int64_t>(k | uint64_t(k_len) << 32)));
        field(5, std::to_string(static_cast<int64_t>(uint64_t(n_len) | uint64_t(n_len) << 32)));
        field(6, std::to_string(dtype | 1 << 8));  // accumulate into C
        line("call void asm sideeffect \"" + dpe_issue_asm() + "\", \"r,~{memory}\"(ptr " + desc +
             ")");
      }
  // Waited for lazily (flush_dpe), so the next iteration's DMAs overlap.
  pending_dpe_ = true;
  dpe_written_.insert(r);
  dpe_written_.insert(c);
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
