//===- llir_rect.cpp - masks that select a rectangle: partial tiles as clamped DMA ===//
//
// Most masked block accesses of Triton kernels are edge tiles: the mask is
// an `&` of compares, each of an index block that varies along one axis
// against a bound (`offs < n`, `offs_m[:, None] < M`, `offs_k[None, :] <
// K - k * BLOCK_K`). Such a mask holds on a rectangle: along each axis the
// indices where an affine sequence x0 + i * s satisfies `x pred B` are one
// interval of i. rect_of() recognises that form from the ops that build the
// mask and computes the intervals at run time, so a partial tile is one
// clamped DMA (plus a fill of `other` for loads) instead of an element loop
// that tests every element, which LLVM would vectorize into masked loads
// with alias checks and scalar remainders (most of the IR of a masked
// kernel, and of its compile time).
//
// Exactness: the compares are evaluated by the interpreter in the index
// type with wrap-around. The intervals are computed in i64 from the block's
// first, second and last element; they are exact when the last element
// equals x0 + (n - 1) * s, which rules out wrapping (the sequence is then
// linear between two in-range endpoints). When that run-time check fails the
// caller runs the element loop (kept, but not vectorized: it is cold).
//
//===----------------------------------------------------------------------===//
#include <algorithm>

#include "llir_emitter.h"

namespace opforge::compiler::llir {

namespace {

bool signed_order(const std::string &p) {
  return p == "slt" || p == "sle" || p == "sgt" || p == "sge";
}

std::string swapped_order(const std::string &p) {
  return p == "slt" ? "sgt" : p == "sle" ? "sge" : p == "sgt" ? "slt" : "sle";
}

// The integer constant `v` holds everywhere (a constant, or a splat of one).
std::optional<int64_t> const_int(const Value *v) {
  const Operation *d = v->def;
  if (d && d->kind == OpKind::Splat) d = d->operands[0]->def;
  if (!d || d->kind != OpKind::Constant) return std::nullopt;
  const ttir::Attr &a = d->attrs.at("value");
  if (std::holds_alternative<int64_t>(a)) return std::get<int64_t>(a);
  return std::nullopt;
}

}  // namespace

// The step of the i32 index block `v` along `axis` when the ops that build it
// fix it at compile time: x(i) = x(0) + i * step (mod 2^32) for every i.
// (Extensions and truncations are not followed: they are not linear mod 2^32.)
std::optional<int64_t> const_step(const Value *v, size_t axis) {
  if (!v->type.is_block()) return 0;
  if (axis >= v->type.shape.size()) return std::nullopt;
  const Operation *d = v->def;
  if (!d) return std::nullopt;
  auto step = [&](size_t i, size_t ax) { return const_step(d->operands[i], ax); };
  switch (d->kind) {
    case OpKind::MakeRange:
      return 1;
    case OpKind::Splat:
    case OpKind::Constant:
      return 0;
    case OpKind::Broadcast: {
      const Value *src = d->operands[0];
      if (!src->type.is_block() || src->type.shape[axis] == 1) return 0;
      return step(0, axis);
    }
    case OpKind::ExpandDims: {
      const size_t k = static_cast<size_t>(d->int_attr("axis"));
      if (axis == k) return 0;
      return step(0, axis < k ? axis : axis - 1);
    }
    case OpKind::AddI:
    case OpKind::SubI: {
      auto a = step(0, axis), b = step(1, axis);
      if (!a || !b) return std::nullopt;
      return d->kind == OpKind::AddI ? *a + *b : *a - *b;
    }
    case OpKind::MulI:
      for (int i = 0; i < 2; ++i)
        if (auto c = const_int(d->operands[i])) {
          auto o = step(1 - i, axis);
          if (!o) return std::nullopt;
          return *c * *o;
        }
      return std::nullopt;
    default:
      return std::nullopt;
  }
}

bool Emitter::rect_terms(const Value *m, const std::vector<int> &axis_map,
                         std::vector<RectTerm> &out) const {
  if (!m->type.is_block() || is_uniform_block(m)) {
    out.push_back({m, -1, -1, nullptr, nullptr, ""});
    return true;
  }
  if (bufs_.count(m) || dma_raw_.count(m) || carried_.count(m) || !m->def) return false;
  const Operation &d = *m->def;
  const size_t rank = m->type.shape.size();
  if (axis_map.size() != rank) return false;
  switch (d.kind) {
    case OpKind::AndI:
      return rect_terms(d.operands[0], axis_map, out) && rect_terms(d.operands[1], axis_map, out);
    case OpKind::Broadcast: {
      const Value *src = d.operands[0];
      if (src->type.is_block() && src->type.shape.size() != rank) return false;
      return rect_terms(src, axis_map, out);
    }
    case OpKind::ExpandDims: {
      const int64_t k = d.int_attr("axis");
      if (k < 0 || static_cast<size_t>(k) >= rank) return false;
      std::vector<int> inner;
      for (size_t i = 0; i < rank; ++i)
        if (static_cast<int64_t>(i) != k) inner.push_back(axis_map[i]);
      return rect_terms(d.operands[0], inner, out);
    }
    case OpKind::CmpI: {
      std::string pred = d.str_attr("predicate");
      if (!signed_order(pred)) return false;
      const Value *a = d.operands[0], *b = d.operands[1];
      if (is_uniform_block(a) && !is_uniform_block(b)) {
        std::swap(a, b);
        pred = swapped_order(pred);
      }
      if (!is_uniform_block(b) || !is_affine_block(a) || a->type.elem != Elem::I32) return false;
      int varying = -1;
      for (size_t i = 0; i < rank; ++i)
        if (m->type.shape[i] > 1) {
          if (varying >= 0) return false;  // depends on two axes: not a rectangle
          varying = static_cast<int>(i);
        }
      if (varying < 0) {
        out.push_back({m, -1, -1, nullptr, nullptr, ""});
        return true;
      }
      out.push_back({m, axis_map[varying], varying, a, b, pred});
      return true;
    }
    default:
      return false;
  }
}

std::optional<Emitter::Rect> Emitter::rect_of(const Value *mask,
                                              const std::vector<int64_t> &shape) {
  const size_t rank = shape.size();
  if (rank == 0 || rank > 2 || !mask->type.is_block() || mask->type.shape != shape)
    return std::nullopt;
  for (auto n : shape)
    if (n <= 0) return std::nullopt;
  std::vector<RectTerm> terms;
  std::vector<int> identity;
  for (size_t i = 0; i < rank; ++i) identity.push_back(static_cast<int>(i));
  if (!rect_terms(mask, identity, terms)) return std::nullopt;

  // Constants fold here (LlVal::constant): most bounds are constants, less IR for LLVM.
  using V = LlVal;
  auto num = [](int64_t c) { return V::integer(c); };
  auto i64 = [&](const std::string &op, const V &x, const V &y) {
    if (x.constant && y.constant && op == "add") return num(*x.constant + *y.constant);
    if (x.constant && y.constant && op == "sub") return num(*x.constant - *y.constant);
    if (y.is(0) && (op == "add" || op == "sub")) return x;
    return emit("i64", op + " i64 " + x.ref + ", " + y.ref);
  };
  auto sel = [&](const std::string &c, const V &x, const V &y) {
    return emit("i64", "select i1 " + c + ", i64 " + x.ref + ", i64 " + y.ref);
  };
  auto smax = [&](const V &x, const V &y) {
    if (x.constant && y.constant) return num(std::max(*x.constant, *y.constant));
    return sel(emit("icmp sgt i64 " + x.ref + ", " + y.ref), x, y);
  };
  auto smin = [&](const V &x, const V &y) {
    if (x.constant && y.constant) return num(std::min(*x.constant, *y.constant));
    return sel(emit("icmp slt i64 " + x.ref + ", " + y.ref), x, y);
  };
  // x && y, folded when x is known to hold.
  auto both = [&](const V &x, const V &y) {
    return x.is(1) ? y : emit("i1", "and i1 " + x.ref + ", " + y.ref);
  };
  auto sext = [&](const std::string &x) { return emit("i64", "sext i32 " + x + " to i64"); };
  // floor(x / t) for t > 0.
  auto floor_div = [&](const V &x, const V &t) {
    V q = i64("sdiv", x, t), r = i64("srem", x, t);
    std::string adj = emit("and i1 " + emit("icmp ne i64 " + r.ref + ", 0") + ", " +
                           emit("icmp slt i64 " + x.ref + ", 0"));
    return i64("sub", q, emit("i64", "zext i1 " + adj + " to i64"));
  };

  Rect rect;
  V lo[2] = {num(0), num(0)}, hi[2];
  for (size_t i = 0; i < rank; ++i) hi[i] = num(shape[i]);
  V ok = V::boolean(true), any = V::boolean(true);
  for (const RectTerm &t : terms) {
    const Value *m = t.mask;
    if (t.axis < 0) {
      // Uniform over the block: all elements or none.
      V c = m->type.is_block() ? elem_val(m, Idx(m->type.shape.size(), "0"))
                               : V{scalar(m), "i1", known_constant(m)};
      any = both(any, c);
      continue;
    }
    const Value *a = t.index, *b = t.bound;
    const std::string &pred = t.pred;
    const auto &cshape = m->type.shape;
    const int64_t n = cshape[t.own_axis];
    const V n_v = num(n);
    Idx zero(cshape.size(), "0"), unit = zero, last = zero;
    unit[t.own_axis] = "1";
    last[t.own_axis] = std::to_string(n - 1);
    const std::optional<int64_t> ks = const_step(a, t.own_axis);
    V x0 = sext(elem(a, zero)), xl = sext(elem(a, last));
    V bound = sext(elem(b, zero));
    V s = ks ? num(*ks) : i64("sub", sext(elem(a, unit)), x0);
    V expect_last =
        ks && *ks == 0 ? x0 : i64("add", x0, ks ? num(*ks * (n - 1)) : i64("mul", s, num(n - 1)));
    V linear = emit("i1", "icmp eq i64 " + xl.ref + ", " + expect_last.ref);
    ok = both(ok, linear);
    // x(i) = x0 + i s. `x <= U` (slt, sle) or `x >= L` (sgt, sge).
    bool upper = pred == "slt" || pred == "sle";
    V limit = pred == "slt"   ? i64("sub", bound, num(1))
              : pred == "sgt" ? i64("add", bound, num(1))
                              : bound;
    // s == 0: the compare at element 0 decides for the whole axis.
    auto flat_hi = [&] {
      return sel(emit("icmp " + pred + " i64 " + x0.ref + ", " + bound.ref), n_v, num(0));
    };
    // x0 + i s <= U: s > 0 gives i <= q, s < 0 gives i >= -q, q = floor((U - x0) / |s|).
    // x0 + i s >= L: s > 0 gives i >= -q, s < 0 gives i <= q, q = floor((x0 - L) / |s|).
    auto quotient = [&](const V &mag) {
      V d = upper ? i64("sub", limit, x0) : i64("sub", x0, limit);
      return mag.is(1) ? d : floor_div(d, mag);
    };
    V t_lo, t_hi;
    if (ks && *ks == 0) {
      t_lo = num(0);
      t_hi = flat_hi();
    } else if (ks) {
      V q = quotient(num(*ks > 0 ? *ks : -*ks));
      bool pos = *ks > 0;
      if (upper == pos) {
        t_lo = num(0);
        t_hi = i64("add", q, num(1));
      } else {
        t_lo = i64("sub", num(0), q);
        t_hi = n_v;
      }
    } else {
      std::string pos = emit("icmp sgt i64 " + s.ref + ", 0"),
                  neg = emit("icmp slt i64 " + s.ref + ", 0");
      V q = quotient(sel(pos, s, sel(neg, i64("sub", num(0), s), num(1))));
      V q1 = i64("add", q, num(1)), mq = i64("sub", num(0), q);
      t_lo = upper ? sel(pos, num(0), mq) : sel(pos, mq, num(0));
      t_hi = upper ? sel(pos, q1, n_v) : sel(pos, n_v, q1);
      std::string flat = emit("icmp eq i64 " + s.ref + ", 0");
      t_lo = sel(flat, num(0), t_lo);
      t_hi = sel(flat, flat_hi(), t_hi);
    }
    lo[t.axis] = lo[t.axis].is(0) ? t_lo : smax(lo[t.axis], t_lo);
    hi[t.axis] = smin(hi[t.axis], t_hi);
  }
  rect.ok = ok;
  rect.rank = rank;
  V full = any, nonempty = any;
  for (size_t i = 0; i < rank; ++i) {
    V l = smin(smax(lo[i], num(0)), num(shape[i]));
    V h = smin(smax(hi[i], l), num(shape[i]));
    rect.lo[i] = l;
    rect.count[i] = i64("sub", h, l);
    // A uniform term that fails (`offs < n & flag` with flag false) empties
    // the rectangle: callers that move `count` elements (a 1-D row's runtime
    // call) must move none, not the range terms' interval.
    if (!any.is(1)) rect.count[i] = any.is(0) ? num(0) : sel(any.ref, rect.count[i], num(0));
    const std::optional<int64_t> c = rect.count[i].constant;
    V whole = c ? V::boolean(*c == shape[i])
                : emit("i1", "icmp eq i64 " + rect.count[i].ref + ", " + std::to_string(shape[i]));
    full = both(full, whole);
    V some = c ? V::boolean(*c > 0) : emit("i1", "icmp sgt i64 " + rect.count[i].ref + ", 0");
    nonempty = both(nonempty, some);
  }
  rect.full = full;
  rect.nonempty = nonempty;
  return rect;
}

void Emitter::rvv_fill(const std::string &buf, Elem e, int64_t count, const std::string &x) {
  const int64_t bits = memory_elem_bytes(e) * 8;
  const std::string it = "i" + std::to_string(bits);
  std::string b = x;
  if (ttir::elem_is_float(e))
    b = float_bits(e, x);
  else if (e == Elem::I1)
    b = emit("zext i1 " + x + " to i8");
  // LMUL 8: <vscale x 512/SEW x iSEW> (vscale = VLEN / 64).
  const std::string n = std::to_string(512 / bits);
  const std::string vt = "<vscale x " + n + " x " + it + ">";
  const std::string mt = "<vscale x " + n + " x i1>";
  const std::string zeros = "<vscale x " + n + " x i32> zeroinitializer";
  std::string splat = emit("shufflevector " + vt + " " +
                           emit("insertelement " + vt + " poison, " + it + " " + b + ", i64 0") +
                           ", " + vt + " poison, " + zeros);
  const std::string all = mt + " shufflevector (" + mt + " insertelement (" + mt +
                          " poison, i1 true, i64 0), " + mt + " poison, " + zeros + ")";
  const std::string sew = bits == 8 ? "0" : bits == 16 ? "1" : bits == 32 ? "2" : "3";
  const std::string store = "llvm.vp.store.nxv" + n + it + ".p0";
  decls_.insert("declare void @" + store + "(" + vt + ", ptr, " + mt + ", i32)");
  decls_.insert("declare i64 @llvm.riscv.vsetvli.i64(i64, i64, i64)");
  std::string k_slot = alloca_of("i64");
  std::string head = label(), body = label(), exit = label();
  line("store i64 0, ptr " + k_slot);
  line("br label %" + head);
  start(head);
  std::string k = emit("load i64, ptr " + k_slot);
  const std::string total = std::to_string(count);
  line("br i1 " + emit("icmp slt i64 " + k + ", " + total) + ", label %" + body + ", label %" +
       exit);
  start(body);
  std::string vl = emit("call i64 @llvm.riscv.vsetvli.i64(i64 " +
                        emit("sub i64 " + total + ", " + k) + ", i64 " + sew + ", i64 3)");
  line("call void @" + store + "(" + vt + " " + splat + ", ptr " +
       emit("getelementptr " + it + ", ptr " + buf + ", i64 " + k) + ", " + all + ", i32 " +
       emit("trunc i64 " + vl + " to i32") + ")");
  line("store i64 " + emit("add i64 " + k + ", " + vl) + ", ptr " + k_slot);
  line("br label %" + head);
  start(exit);
}

}  // namespace opforge::compiler::llir
