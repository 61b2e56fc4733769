//===- llir_masks.cpp - element loops versioned on range masks proved all-true ===//
//
// A range mask such as `cols < n` (an affine block compared with a uniform
// one) read inside a fused element expression costs every strip an index
// vector (i64 after vectorization: twice the registers of fp32 data), a
// vector compare and a merge for each tl.where or masked load it guards. When
// the block's corners show that every element holds (affine_compare_all, a
// few scalar compares), the loop runs a version in which those masks are the
// constant true: `tl.where(mask, x - mean, 0.)` is `x - mean`, a masked load a
// plain load, a masked store a plain store. Otherwise (a partial tile, or
// the check could not prove it) the general version runs, so results do not
// depend on the version taken. Only the version that runs is fetched.
//
// A 1-D loop whose masks are read at its own index (plus constant shifts,
// as a tree reduction's level 0 reads k and k + keep) is split instead: the
// leading indices at which every mask holds (counted from the affine side's
// element 0 and stride, checked for wrapping like the corners) run in the
// version with the masks true, the rest in the general version. A full tile
// runs only the first loop; a row of 768 columns in a 1024-wide block runs
// most of its elements there too.
//
//===----------------------------------------------------------------------===//
#include "llir_emitter.h"

namespace opforge::compiler::llir {

namespace {

// `cmp` compares an affine i32 block with a uniform one (the form
// affine_compare_all decides), checked without emitting anything.
bool is_range_compare(const Operation &cmp) {
  static const std::set<std::string> preds = {"slt", "sle", "sgt", "sge"};
  if (cmp.kind != OpKind::CmpI || cmp.operands.size() != 2) return false;
  if (!preds.count(cmp.str_attr("predicate"))) return false;
  const Value *a = cmp.operands[0], *b = cmp.operands[1];
  if (is_uniform_block(a) && !is_uniform_block(b)) std::swap(a, b);
  if (!is_uniform_block(b) || !is_affine_block(a) || a->type.elem != Elem::I32) return false;
  const auto &shape = a->type.shape;
  if (shape.empty() || shape.size() > 2) return false;
  for (auto n : shape)
    if (n <= 0) return false;
  return true;
}

}  // namespace

// Range masks read by the fused element expressions of `roots`, with the
// run-time check that each of them holds everywhere (emitted here).
void Emitter::collect_range_masks(const Value *v, std::set<const Value *> &seen,
                                  std::vector<std::pair<const Value *, std::string>> &out) {
  if (!v || !v->type.is_block() || !seen.insert(v).second) return;
  if (known_true_.count(v) || carried_.count(v) || dma_raw_.count(v) || bufs_.count(v)) return;
  const Operation *d = v->def;
  if (!d || !d->regions.empty()) return;
  if (d->kind == OpKind::CmpI && v->type.elem == Elem::I1) {
    std::string holds = affine_compare_all(*d);  // "" (nothing emitted) when not of that form
    if (!holds.empty()) {
      out.emplace_back(v, holds);
      return;
    }
  }
  for (auto *o : d->operands) collect_range_masks(o, seen, out);
}

void Emitter::mask_versioned(const std::vector<const Value *> &roots,
                             const std::function<void()> &body) {
  std::set<const Value *> seen;
  std::vector<std::pair<const Value *, std::string>> masks;
  for (auto *r : roots) collect_range_masks(r, seen, masks);
  if (masks.empty()) return body();
  std::string all = masks[0].second;
  for (size_t k = 1; k < masks.size(); ++k) all = emit("and i1 " + all + ", " + masks[k].second);
  branch(
      all,
      [&] {
        auto saved = known_true_;
        for (auto &m : masks) known_true_.insert(m.first);
        body();
        known_true_ = saved;
      },
      body);
}

// Whether every range mask that `v` reads is read at `v`'s own index (no
// broadcast or expand_dims on the way) and has `v`'s 1-D shape; collects them.
bool Emitter::masks_at_own_index(const Value *v, std::set<const Value *> &seen,
                                 std::vector<const Value *> &out) const {
  if (!v || !v->type.is_block() || !seen.insert(v).second) return true;
  if (known_true_.count(v) || carried_.count(v) || dma_raw_.count(v) || bufs_.count(v)) return true;
  const Operation *d = v->def;
  if (!d || !d->regions.empty()) return true;
  if (d->kind == OpKind::CmpI && v->type.elem == Elem::I1 && is_range_compare(*d)) {
    out.push_back(v);
    return v->type.shape.size() == 1;
  }
  for (auto *o : d->operands) {
    if (!o->type.is_block()) continue;
    if (o->type.shape != v->type.shape) {
      // A broadcast source: fine as long as no range mask lies below it.
      std::set<const Value *> below_seen;
      std::vector<const Value *> below;
      masks_at_own_index(o, below_seen, below);
      if (!below.empty()) return false;
      continue;
    }
    if (!masks_at_own_index(o, seen, out)) return false;
  }
  return true;
}

// How many leading elements of range mask `m` (1-D) hold, as an i64: from
// the affine side's element 0 and stride; 0 when the elements up to there do
// not lie on that line (an index wrapped), so callers take the general path.
std::pair<std::string, std::string> Emitter::leading_true(const Value *m) {
  static const std::map<std::string, std::string> swapped = {
      {"slt", "sgt"}, {"sle", "sge"}, {"sgt", "slt"}, {"sge", "sle"}};
  const Operation &cmp = *m->def;
  std::string pred = cmp.str_attr("predicate");
  const Value *a = cmp.operands[0], *b = cmp.operands[1];
  if (is_uniform_block(a) && !is_uniform_block(b)) {
    std::swap(a, b);
    pred = swapped.at(pred);
  }
  const int64_t len = a->type.shape[0];
  auto wide = [&](const std::string &x) { return emit("sext i32 " + x + " to i64"); };
  std::string a0 = wide(elem(a, {"0"})), bound = wide(elem(b, {"0"}));
  std::string step = len > 1 ? emit("sub i64 " + wide(elem(a, {"1"})) + ", " + a0) : "0";
  // Element i holds iff dir * i < gap (non-strict compares: gap + 1).
  const bool below = pred == "slt" || pred == "sle";
  std::string dir = below ? step : emit("sub i64 0, " + step);
  std::string gap =
      below ? emit("sub i64 " + bound + ", " + a0) : emit("sub i64 " + a0 + ", " + bound);
  if (pred == "sle" || pred == "sge") gap = emit("add i64 " + gap + ", 1");
  const std::string n = std::to_string(len);
  // dir > 0: ceil(gap / dir) elements, at most len; dir <= 0: all or none.
  std::string pos_dir = emit("icmp sgt i64 " + dir + ", 0");
  std::string safe_dir = emit("select i1 " + pos_dir + ", i64 " + dir + ", i64 1");
  std::string ceil =
      emit("sdiv i64 " + emit("add i64 " + gap + ", " + emit("sub i64 " + safe_dir + ", 1")) +
           ", " + safe_dir);
  std::string count = emit("select i1 " + pos_dir + ", i64 " + ceil + ", i64 " + n);
  count = emit("select i1 " + emit("icmp slt i64 " + count + ", " + n) + ", i64 " + count +
               ", i64 " + n);
  count = emit("select i1 " + emit("icmp sgt i64 " + gap + ", 0") + ", i64 " + count + ", i64 0");
  // Element count - 1 must be element 0 plus count - 1 strides (no wrap).
  std::string last = emit("select i1 " + emit("icmp sgt i64 " + count + ", 0") + ", i64 " +
                          emit("sub i64 " + count + ", 1") + ", i64 0");
  std::string expect = emit("add i64 " + a0 + ", " + emit("mul i64 " + step + ", " + last));
  std::string linear = emit("icmp eq i64 " + wide(elem(a, {last})) + ", " + expect);
  // Every element after the leading run fails too (a prefix mask) when the
  // index moves toward failing (dir > 0) or stays (dir == 0), or none is left.
  std::string prefix = emit("or i1 " + emit("icmp sge i64 " + dir + ", 0") + ", " +
                            emit("icmp eq i64 " + count + ", " + n));
  return {emit("select i1 " + linear + ", i64 " + count + ", i64 0"),
          emit("and i1 " + linear + ", " + prefix)};
}

void Emitter::masked_loop(const std::vector<const Value *> &roots,
                          const std::vector<int64_t> &read_shape, const std::vector<int64_t> &shape,
                          const std::vector<int64_t> &shifts,
                          const std::function<void(const Idx &)> &body) {
  std::set<const Value *> seen;
  std::vector<const Value *> masks;
  bool own_index = shape.size() == 1 && read_shape.size() == 1;
  for (auto *r : roots) {
    if (!own_index || !r || !r->type.is_block()) continue;
    if (r->type.shape == read_shape) {
      own_index = masks_at_own_index(r, seen, masks);
    } else {  // read at other indices (a broadcast's source): no range mask below
      std::set<const Value *> below_seen;
      std::vector<const Value *> below;
      masks_at_own_index(r, below_seen, below);
      own_index = below.empty();
    }
  }
  if (!own_index || masks.empty()) return mask_versioned(roots, [&] { loop_nest(shape, body); });
  auto one = [&](const std::string &i) { body(Idx{i}); };
  std::set<const Value *> distinct(masks.begin(), masks.end());
  if (distinct.size() == 1 && shifts.size() == 1 && shifts[0] == 0)
    return prefix_regions(masks[0], shape[0], one);
  // Split at the first index where some mask, read at i + shift, fails.
  std::string split = std::to_string(shape[0]);
  for (auto *m : masks) {
    std::string count = leading_true(m).first;
    for (int64_t sh : shifts) {
      std::string q = emit("sub i64 " + count + ", " + std::to_string(sh));
      split = emit("select i1 " + emit("icmp slt i64 " + q + ", " + split) + ", i64 " + q +
                   ", i64 " + split);
    }
  }
  split = emit("select i1 " + emit("icmp sgt i64 " + split + ", 0") + ", i64 " + split + ", i64 0");
  auto saved = known_true_;
  known_true_.insert(masks.begin(), masks.end());
  loop_span("0", split, one);
  known_true_ = saved;
  loop_span(split, std::to_string(shape[0]), one);
}

// One prefix mask read at its own index i: the loop in regions where the
// read has one value. With count c leading elements true: [0, c) true,
// [c, len) false. Masks that are not prefixes (true again after a false
// element, an index that wraps) run the general loop from c on; it does not
// count toward the LMUL (the regions are the loops that run).
// A tree level 0 reads the mask at i and i + keep: it takes masked_loop's
// split instead ([0, c - keep) with the mask true, the rest general). Three
// regions there (both reads true, the own read only, neither) ran partial
// rows' ends faster but cost two vectorized loops more to compile:
// layer_norm 241 -> 231 M host instructions in llvm_ir_to_object with the
// split (opt-16/llc-16 under callgrind).
void Emitter::prefix_regions(const Value *m, int64_t len,
                             const std::function<void(const std::string &)> &body) {
  auto [count, prefix] = leading_true(m);
  const std::string n = std::to_string(len);
  std::string lo =
      emit("select i1 " + emit("icmp sgt i64 " + count + ", 0") + ", i64 " + count + ", i64 0");
  std::string bound =
      emit("select i1 " + emit("icmp slt i64 " + lo + ", " + n) + ", i64 " + lo + ", i64 " + n);
  std::string general = emit("select i1 " + prefix + ", i64 " + n + ", i64 " + bound);
  auto saved = mask_facts_;
  for (int r = 0; r < 2; ++r) {
    std::string from = r == 0 ? "0" : bound, to = r == 0 ? bound : general;
    MaskFact f;
    f.at_own = f.elsewhere = r == 0;
    loop_span(from, to, [&](const std::string &i) {
      f.own = i;
      mask_facts_[m] = f;
      body(i);
      mask_facts_ = saved;
    });
  }
  const int counted = max_live_vectors_;
  loop_span(general, n, body);
  max_live_vectors_ = counted;
}

}  // namespace opforge::compiler::llir
