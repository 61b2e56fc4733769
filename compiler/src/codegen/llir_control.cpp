//===- llir_control.cpp - scf.for, scf.if and tt.reduce as loops and branches ===//
#include <functional>

#include "llir_emitter.h"
#include "runtime_library.h"

namespace opforge::compiler::llir {

void Emitter::for_loop(const Operation &op) {
  const ttir::Block &body = *op.regions[0];
  Elem ive = op.operands[0]->type.elem;
  std::string ity = llty(ive);
  // Step 0's prefetched K-loop operands (llir_dot.cpp), moving while the
  // carried values are initialised.
  pipeline_prologue(op);
  std::vector<std::string> slots;  // scalar carried slots, or the block buffer
  for (size_t j = 3; j < op.operands.size(); ++j) {
    const Value *init = op.operands[j], *arg = body.arg(j - 2);
    if (plan_.carried_affine.count(arg)) {
      // Element 0 only; the initial value's offsets give the rest.
      std::string s = alloca_of(llty(arg->type.elem));
      line("store " + llty(arg->type.elem) + " " + elem(init, Idx(arg->type.rank(), "0")) +
           ", ptr " + s);
      slots.push_back(s);
    } else if (arg->type.is_block()) {
      std::string buf = buffer_for(arg);
      if (overwritten_by_first_step(op, arg, init)) {
        // The first step's commands write it without accumulating (dpe_dot):
        // the zeros matter only when the loop has no step.
        zero_accumulators_.insert(arg);
        when(emit("icmp sge " + ity + " " + scalar(op.operands[0]) + ", " + scalar(op.operands[1])),
             [&] { fill(arg, buf, init); });
      } else {
        fill(arg, buf, init);
      }
      slots.push_back(buf);
    } else {
      std::string s = alloca_of(llty(arg->type.elem));
      line("store " + llty(arg->type.elem) + " " + scalar(init) + ", ptr " + s);
      slots.push_back(s);
    }
  }
  // Affine loads of the next iteration are prefetched (llir_prefetch.cpp).
  std::optional<RowPrefetch> pf = plan_row_prefetch(op);
  if (pf) {
    pf->ity = ity;
    pf->step = scalar(op.operands[2]);
    pf->ub = scalar(op.operands[1]);
    row_prefetch_prologue(*pf, scalar(op.operands[0]), pf->ub, ity);
  }
  RowPrefetch *outer_prefetch = row_prefetch_;
  row_prefetch_ = pf ? &*pf : nullptr;
  std::string ivs = alloca_of(ity);
  line("store " + ity + " " + scalar(op.operands[0]) + ", ptr " + ivs);
  std::string head = label(), bl = label(), exit = label();
  line("br label %" + head);
  start(head);
  std::string iv = emit("load " + ity + ", ptr " + ivs);
  line("br i1 " + emit("icmp slt " + ity + " " + iv + ", " + scalar(op.operands[1])) + ", label %" +
       bl + ", label %" + exit);
  start(bl);
  auto saved = memo_;
  scalars_[body.arg(0)] = iv;
  for (size_t j = 1; j < body.args.size(); ++j) {
    const Value *arg = body.arg(j);
    if (plan_.carried_affine.count(arg))
      carried_[arg] = {emit("load " + llty(arg->type.elem) + ", ptr " + slots[j - 1]),
                       op.operands[j + 2]};
    else if (!arg->type.is_block())
      scalars_[arg] = emit("load " + llty(arg->type.elem) + ", ptr " + slots[j - 1]);
  }
  for (auto &o : body.ops) {
    if (o->kind == OpKind::Yield)
      yield_into(*o, body, slots, true);
    else
      emit_op(*o);
  }
  memo_ = saved;
  row_prefetch_ = outer_prefetch;
  // Stop before the induction variable would wrap past the bound.
  std::string next = emit("add " + ity + " " + iv + ", " + scalar(op.operands[2]));
  std::string last =
      emit("icmp sgt " + ity + " " + iv + ", " +
           emit("sub " + ity + " " + scalar(op.operands[1]) + ", " + scalar(op.operands[2])));
  line("store " + ity + " " + next + ", ptr " + ivs);
  line("br i1 " + last + ", label %" + exit + ", label %" + head);
  start(exit);
  for (size_t j = 0; j < op.results.size(); ++j) {
    const Value *r = op.result(j);
    if (plan_.carried_affine.count(r)) {
      carried_[r] = {emit("load " + llty(r->type.elem) + ", ptr " + slots[j]), op.operands[j + 3]};
    } else if (r->type.is_block()) {
      bufs_[r] = slots[j];
      if (dpe_written_.count(body.arg(j + 1))) dpe_written_.insert(r);
    } else
      scalars_[r] = emit("load " + llty(r->type.elem) + ", ptr " + slots[j]);
  }
}

// Does `v` read block arguments only through `arg` itself, element for
// element (so `arg`'s buffer can be overwritten in place while computing v)?
bool Emitter::elementwise_on(const Value *v, const Value *arg) const {
  if (v == arg || !v->type.is_block() || carried_.count(v)) return true;
  if (!v->def) return false;  // another block argument
  if (bufs_.count(v) || dma_raw_.count(v)) return true;
  const Operation &op = *v->def;
  if (op.kind == OpKind::Splat || op.kind == OpKind::Constant || op.kind == OpKind::MakeRange)
    return true;
  if (!op.regions.empty()) return false;
  for (auto *o : op.operands) {
    if (!o->type.is_block()) continue;
    if (o->type.shape != v->type.shape) return false;  // broadcasts remap indices
    if (!elementwise_on(o, arg)) return false;
  }
  return true;
}

void Emitter::yield_into(const Operation &y, const ttir::Block &body,
                         const std::vector<std::string> &slots, bool via_temp) {
  flush_loads();
  // In-place DPE accumulators are not copied; anything else read from a DPE
  // result must wait for it.
  for (size_t j = 0; j < y.operands.size(); ++j) {
    const Value *v = y.operands[j];
    auto b = bufs_.find(v);
    bool in_place = via_temp && b != bufs_.end() && b->second == slots[j];
    std::set<const Value *> seen;
    if (!in_place && depends_on_dpe(v, seen)) flush_dpe();
  }
  // Sources: a materialized result's own buffer (it cannot alias a slot),
  // otherwise a temporary filled before any slot is written.
  // An update like `ptrs += step` that reads only its own carried buffer,
  // element for element, is computed in place after the temporaries.
  // Carried affine blocks: element 0 of the new value, computed before any
  // slot changes (the body read the old one as an SSA value).
  std::vector<bool> carried(y.operands.size(), false);
  std::vector<std::string> elem0(y.operands.size());
  for (size_t j = 0; j < y.operands.size(); ++j) {
    const Value *v = y.operands[j];
    carried[j] = j + 1 < body.args.size() && plan_.carried_affine.count(body.arg(j + 1));
    if (carried[j]) elem0[j] = elem(v, Idx(v->type.rank(), "0"));
  }
  for (size_t j = 0; j < y.operands.size(); ++j)
    if (carried[j])
      line("store " + llty(y.operands[j]->type.elem) + " " + elem0[j] + ", ptr " + slots[j]);
  std::vector<std::string> temps(y.operands.size());
  std::vector<bool> in_place(y.operands.size(), false);
  for (size_t j = 0; j < y.operands.size(); ++j) {
    const Value *v = y.operands[j];
    if (!v->type.is_block() || !via_temp || carried[j]) continue;
    auto b = bufs_.find(v);
    if (v->def && b != bufs_.end()) {
      temps[j] = b->second;
    } else if (v->def && !dma_raw_.count(v) && j + 1 < body.args.size() &&
               elementwise_on(v, body.arg(j + 1))) {
      in_place[j] = true;
      temps[j] = slots[j];
    } else {
      temps[j] = alloca_of(bufty(v->type.elem), v->type.numel());
      fill(v, temps[j], v);
    }
  }
  for (size_t j = 0; j < y.operands.size(); ++j)
    if (in_place[j]) fill(y.operands[j], slots[j], y.operands[j]);
  for (size_t j = 0; j < y.operands.size(); ++j) {
    const Value *v = y.operands[j];
    if (carried[j]) continue;
    if (v->type.is_block()) {
      if (via_temp) {
        if (temps[j] == slots[j]) continue;  // computed in place
        // An element loop, not llvm.memcpy: there is no C library to call.
        std::string ty = bufty(v->type.elem);
        loop(0, v->type.numel(), [&](const std::string &i) {
          std::string x = emit("load " + ty + ", ptr " +
                               emit("getelementptr " + ty + ", ptr " + temps[j] + ", i64 " + i));
          line("store " + ty + " " + x + ", ptr " +
               emit("getelementptr " + ty + ", ptr " + slots[j] + ", i64 " + i));
        });
      } else {
        fill(v, slots[j], v);
      }
    } else {
      line("store " + llty(v->type.elem) + " " + scalar(v) + ", ptr " + slots[j]);
    }
  }
}

void Emitter::if_op(const Operation &op) {
  std::vector<std::string> slots;
  for (auto &r : op.results) {
    if (r->type.is_block())
      slots.push_back(buffer_for(r.get()));
    else
      slots.push_back(alloca_of(llty(r->type.elem)));
  }
  std::string thenl = label(), elsel = label(), join = label();
  line("br i1 " + scalar(op.operands[0]) + ", label %" + thenl + ", label %" + elsel);
  for (size_t k = 0; k < 2; ++k) {
    start(k == 0 ? thenl : elsel);
    if (k < op.regions.size()) {
      auto saved = memo_;
      for (auto &o : op.regions[k]->ops) {
        if (o->kind == OpKind::Yield)
          yield_into(*o, *op.regions[k], slots, false);
        else
          emit_op(*o);
      }
      memo_ = saved;
    }
    line("br label %" + join);
  }
  start(join);
  for (size_t j = 0; j < op.results.size(); ++j) {
    const Value *r = op.result(j);
    if (!r->type.is_block()) scalars_[r] = emit("load " + llty(r->type.elem) + ", ptr " + slots[j]);
  }
}

std::vector<std::string> Emitter::combine(const ttir::Block &region,
                                          const std::vector<std::string> &args) {
  for (size_t k = 0; k < args.size(); ++k) scalars_[region.arg(k)] = args[k];
  for (auto &o : region.ops) {
    if (o->kind == OpKind::ReduceReturn) {
      std::vector<std::string> out;
      for (auto *v : o->operands) out.push_back(scalar(v));
      return out;
    }
    emit_op(*o);
  }
  throw Error("codegen: combine region without tt.reduce.return");
}

// The runtime routine for the levels of reduction `op` (runtime_library.h,
// kReduceLevels): one operand, a region of one combine of its two arguments.
const char *Emitter::levels_routine(const Operation &op) const {
  if (op.operands.size() != 1) return nullptr;
  const ttir::Block &region = *op.regions[0];
  if (region.ops.size() != 2 || region.ops[1]->kind != OpKind::ReduceReturn) return nullptr;
  const Operation &c = *region.ops[0];
  const Value *a = region.arg(0), *b = region.arg(1);
  if (c.operands.size() != 2 || c.results.size() != 1 ||
      region.ops[1]->operands != std::vector<Value *>{c.result()} ||
      !((c.operands[0] == a && c.operands[1] == b) || (c.operands[0] == b && c.operands[1] == a)))
    return nullptr;
  Elem e = op.operands[0]->type.elem;
  const char *name = c.kind == OpKind::AddF && e == Elem::F32      ? "sum_f32"
                     : c.kind == OpKind::MaxNumF && e == Elem::F32 ? "max_f32"
                     : c.kind == OpKind::MinNumF && e == Elem::F32 ? "min_f32"
                     : c.kind == OpKind::AddI && e == Elem::I32    ? "sum_i32"
                                                                   : nullptr;
  return name;
}

void Emitter::reduce(const Operation &op) {
  size_t n = op.operands.size();
  int64_t axis = op.int_attr("axis");
  const auto &in_shape = op.operands[0]->type.shape;
  const ttir::Block &region = *op.regions[0];
  if (in_shape[axis] >= 2) return tree_reduce(op);
  std::vector<std::string> accs(n), bufs(n);
  for (size_t j = 0; j < n; ++j) {
    accs[j] = alloca_of(llty(op.operands[j]->type.elem));
    if (op.result(j)->type.is_block()) bufs[j] = buffer_for(op.result(j));
  }
  const auto &out_shape = op.result(0)->type.shape;
  auto one = [&](const Idx &oidx) {
    auto at = [&](const std::string &k) {
      Idx s = oidx;
      s.insert(s.begin() + axis, k);
      return s;
    };
    for (size_t j = 0; j < n; ++j)
      line("store " + llty(op.operands[j]->type.elem) + " " + elem(op.operands[j], at("0")) +
           ", ptr " + accs[j]);
    loop(1, in_shape[axis], [&](const std::string &k) {
      std::vector<std::string> args;
      for (size_t j = 0; j < n; ++j)
        args.push_back(emit("load " + llty(op.operands[j]->type.elem) + ", ptr " + accs[j]));
      for (size_t j = 0; j < n; ++j) args.push_back(elem(op.operands[j], at(k)));
      auto r = combine(region, args);
      for (size_t j = 0; j < n; ++j)
        line("store " + llty(op.operands[j]->type.elem) + " " + r[j] + ", ptr " + accs[j]);
    });
    for (size_t j = 0; j < n; ++j) {
      std::string a = emit("load " + llty(op.operands[j]->type.elem) + ", ptr " + accs[j]);
      if (op.result(j)->type.is_block())
        buf_store(op.result(j), bufs[j], oidx, a);
      else
        scalars_[op.result(j)] = a;
    }
  };
  if (out_shape.empty())
    one({});
  else
    loop_nest(out_shape, one);
}

// The interpreter's order: each level combines element k with element
// k + keep (keep = len - len/2) for k < len/2 and keeps the rest, until one
// is left. Every level is an element loop over independent elements, so it
// vectorizes (whole-vector max/sum steps instead of a serial chain), and the
// result is bit-identical to the interpreter's.
void Emitter::tree_reduce(const Operation &op) {
  size_t n = op.operands.size();
  const size_t axis = static_cast<size_t>(op.int_attr("axis"));
  const auto &in_shape = op.operands[0]->type.shape;
  const ttir::Block &region = *op.regions[0];
  const int64_t len = in_shape[axis];
  const int64_t keep0 = len - len / 2;
  std::vector<int64_t> tshape = in_shape;  // the temporaries: axis shortened to keep0
  tshape[axis] = keep0;
  int64_t tnum = 1;
  for (auto d : tshape) tnum *= d;
  std::vector<std::string> tmp(n), ty(n);
  for (size_t j = 0; j < n; ++j) {
    ty[j] = bufty(op.operands[j]->type.elem);
    tmp[j] = alloca_of(ty[j], tnum);
  }
  auto tptr = [&](size_t j, const Idx &idx) {
    return emit("getelementptr " + ty[j] + ", ptr " + tmp[j] + ", i64 " + linear(idx, tshape));
  };
  auto to_buf = [&](size_t j, const std::string &x) {
    return op.operands[j]->type.elem == Elem::I1 ? emit("zext i1 " + x + " to i8") : x;
  };
  auto from_buf = [&](size_t j, const std::string &p) {
    std::string x = emit("load " + ty[j] + ", ptr " + p);
    return op.operands[j]->type.elem == Elem::I1 ? emit("icmp ne i8 " + x + ", 0") : x;
  };
  auto shifted = [&](const Idx &idx, int64_t by) {
    Idx s = idx;
    s[axis] = emit("add i64 " + idx[axis] + ", " + std::to_string(by));
    return s;
  };
  // Level 0 reads the operands (fused or buffered) into the temporaries.
  const int64_t half0 = len / 2;
  std::vector<int64_t> lshape = tshape;
  lshape[axis] = half0;
  // Operands in buffers: level 0 as an RVV strip loop (llir_rvv.cpp).
  const bool level0_done = tshape.size() == 1 && rvv_level0(op, tmp, half0, keep0);
  // Single-operand combines: the two halves' values are not live together
  // (measured: argmax's two-operand level 0 spills at the larger LMUL).
  // (A strip loop where it can be one: llir_vector.cpp; the second half's
  // index is a strip index too.)
  if (!level0_done) {
    VectorOk strips(*this);
    masked_loop({op.operands.begin(), op.operands.end()}, in_shape, lshape, {0, keep0},
                [&](const Idx &idx) {
                  halves_live_ = n == 1;
                  std::vector<std::string> args;
                  for (size_t j = 0; j < n; ++j) args.push_back(elem(op.operands[j], idx));
                  Idx hi = shifted(idx, keep0);
                  if (vec_ && vec_->index.count(idx[axis])) vec_->index.insert(hi[axis]);
                  for (size_t j = 0; j < n; ++j) args.push_back(elem(op.operands[j], hi));
                  auto r = combine(region, args);
                  for (size_t j = 0; j < n; ++j) {
                    if (vec_index(idx)) {  // (a uniform result is splat over the strip)
                      vstore(strip_format(op.operands[j]->type.elem), tptr(j, idx), r[j]);
                    } else {
                      line("store " + ty[j] + " " + to_buf(j, r[j]) + ", ptr " + tptr(j, idx));
                    }
                  }
                });
  }
  halves_live_ = false;
  if (keep0 > half0) {  // odd length: the middle element is kept
    std::vector<int64_t> mshape = tshape;
    mshape[axis] = 1;
    loop_nest(mshape, [&](const Idx &idx) {
      Idx at = shifted(idx, half0);
      for (size_t j = 0; j < n; ++j)
        line("store " + ty[j] + " " + to_buf(j, elem(op.operands[j], at)) + ", ptr " + tptr(j, at));
    });
  }
  if (keep0 > 1 && rvv_levels_ok(op)) {
    // A one-operation combine: the levels are a runtime library routine
    // (about 13 M host instructions of LLVM per reduction when inline),
    // called once per reduction from inline assembly that names the
    // registers it uses, so nothing else is saved around it.
    if (const char *name = levels_routine(op)) {
      line("call void asm sideeffect \"call __opforge_rt_levels_" + std::string(name) +
           "\", \"{x10},{x11}," + kLevelsClobbers + "\"(ptr " + tmp[0] + ", i64 " +
           std::to_string(keep0) + ")");
    } else {
      rvv_levels(op, tmp, keep0);
    }
  } else if (keep0 > 1) {
    // The other levels: one run-time loop over the level lengths (one copy
    // of the vectorized level loop instead of log2(len) of them).
    std::string cur_slot = alloca_of("i64");
    line("store i64 " + std::to_string(keep0) + ", ptr " + cur_slot);
    std::string head = label(), body = label(), exit = label();
    line("br label %" + head);
    start(head);
    std::string cur = emit("load i64, ptr " + cur_slot);
    line("br i1 " + emit("icmp sgt i64 " + cur + ", 1") + ", label %" + body + ", label %" + exit);
    start(body);
    std::string half = emit("lshr i64 " + cur + ", 1");
    std::string keep = emit("sub i64 " + cur + ", " + half);
    std::vector<std::string> bounds;
    for (size_t d = 0; d < tshape.size(); ++d)
      bounds.push_back(d == axis ? half : std::to_string(tshape[d]));
    Idx idx;
    std::function<void(size_t)> level = [&](size_t d) {
      if (d == bounds.size()) {
        std::vector<std::string> args;
        for (size_t j = 0; j < n; ++j) args.push_back(from_buf(j, tptr(j, idx)));
        Idx hi = idx;
        hi[axis] = emit("add i64 " + idx[axis] + ", " + keep);
        for (size_t j = 0; j < n; ++j) args.push_back(from_buf(j, tptr(j, hi)));
        auto r = combine(region, args);
        for (size_t j = 0; j < n; ++j)
          line("store " + ty[j] + " " + to_buf(j, r[j]) + ", ptr " + tptr(j, idx));
        return;
      }
      loop(0, bounds[d], [&](const std::string &i) {
        idx.push_back(i);
        level(d + 1);
        idx.pop_back();
      });
    };
    level(0);
    line("store i64 " + keep + ", ptr " + cur_slot);
    line("br label %" + head);
    start(exit);
  }
  // Element 0 along the axis is the result.
  std::vector<int64_t> out_shape = tshape;
  out_shape.erase(out_shape.begin() + static_cast<std::ptrdiff_t>(axis));
  auto result = [&](const Idx &oidx) {
    Idx at = oidx;
    at.insert(at.begin() + static_cast<std::ptrdiff_t>(axis), "0");
    for (size_t j = 0; j < n; ++j) {
      const Value *r = op.result(j);
      std::string x = from_buf(j, tptr(j, at));
      if (r->type.is_block())
        buf_store(r, buffer_for(r), oidx, x);
      else
        scalars_[r] = x;
    }
  };
  if (out_shape.empty())
    result({});
  else
    loop_nest(out_shape, result);
}

}  // namespace opforge::compiler::llir
