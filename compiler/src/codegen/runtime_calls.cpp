//===- runtime_calls.cpp - masked 2-D tiles handed to the runtime library ===//
//
// A 2-D masked DMA tile that is not wholly active (an edge tile: its
// rectangle, a fill of `other`; or an index that wraps around i32) is
// handled by __opforge_rt_tile_<n> (runtime_library.cpp), compiled once per
// process; the site keeps inline only the all-active check and the whole
// tile's DMA. The site passes a constant descriptor (a private global of
// the kernel) and the run-time values as call arguments, no stores: LLVM's
// cost follows instructions, live values and memory operations. The
// routine needs two forms, proved here from the ops that build the blocks:
//   - every compare's index block is linear modulo 2^32 (built from arange,
//     splat, broadcast, expand_dims, add, sub and mul by a uniform value,
//     or carried through a loop from such a block): x(i) = x0 + i*step with
//     step = x(1) - x(0), both exact in i32;
//   - the pointer block is a uniform pointer plus at most two i32 offset
//     blocks of that kind (`p + offs`, `p + a[:, None] + b[None, :]`), a
//     loop-carried pointer advancing uniformly from one.
// Otherwise the caller keeps the inline rectangle (llir_rect.cpp) and its
// per-site cold function (llir_cold.cpp).
//
//===----------------------------------------------------------------------===//
#include <algorithm>

#include "llir_emitter.h"
#include "runtime_library.h"

namespace opforge::compiler::llir {

namespace {

int pred_code(const std::string &p) {
  return p == "slt"   ? rt_tile::kSlt
         : p == "sle" ? rt_tile::kSle
         : p == "sgt" ? rt_tile::kSgt
                      : rt_tile::kSge;
}

}  // namespace

std::optional<Emitter::TileForm> Emitter::tile_form(const Value *ptr, const Value *mask,
                                                    const Value *other, Elem e) const {
  const auto &shape = ptr->type.shape;
  const size_t rank = shape.size();
  if (rank == 0 || rank > 2 || e == Elem::Ptr || mask->type.shape != shape) return std::nullopt;
  if (other && !is_uniform_block(other)) return std::nullopt;

  // Linear modulo 2^32 along every axis (values, not how they are computed).
  std::function<bool(const Value *, int)> linear = [&](const Value *v, int depth) -> bool {
    if (depth > 64) return false;
    if (!v->type.is_block() || is_uniform_block(v)) return true;
    if (v->type.elem != Elem::I32) return false;
    if (!v->def) {
      auto c = carried_.find(v);
      return c != carried_.end() && c->second.init && linear(c->second.init, depth + 1);
    }
    const Operation &d = *v->def;
    switch (d.kind) {
      case OpKind::MakeRange:
        return true;
      case OpKind::Broadcast:
      case OpKind::ExpandDims:
        return linear(d.operands[0], depth + 1);
      case OpKind::AddI:
      case OpKind::SubI:
        return linear(d.operands[0], depth + 1) && linear(d.operands[1], depth + 1);
      case OpKind::MulI:
        return (is_uniform_block(d.operands[0]) && linear(d.operands[1], depth + 1)) ||
               (is_uniform_block(d.operands[1]) && linear(d.operands[0], depth + 1));
      default:
        return false;
    }
  };

  // The pointer block: uniform + i32 offset blocks (broadcasts keep the
  // rank; an offset's size-1 axis has step 0).
  TileForm form;
  const Value *p = ptr;
  if (auto c = carried_.find(p); c != carried_.end()) p = c->second.init;
  while (p && !is_uniform_block(p)) {
    if (!p->def || p->type.shape.size() != rank) return std::nullopt;
    if (p->def->kind == OpKind::Broadcast) {
      p = p->def->operands[0];
      continue;
    }
    if (p->def->kind != OpKind::AddPtr) return std::nullopt;
    const Value *base = p->def->operands[0], *off = p->def->operands[1];
    if (!off->type.is_block() || off->type.elem != Elem::I32 || off->type.shape != p->type.shape ||
        !linear(off, 0))
      return std::nullopt;
    form.offsets.push_back(off);
    if (form.offsets.size() > static_cast<size_t>(rt_tile::kMaxOffsets)) return std::nullopt;
    p = base;
  }
  if (!p) return std::nullopt;

  std::vector<int> identity;
  for (size_t i = 0; i < rank; ++i) identity.push_back(static_cast<int>(i));
  if (!rect_terms(mask, identity, form.terms)) return std::nullopt;
  for (const RectTerm &t : form.terms)
    if (t.axis >= 0 && !linear(t.index, 0)) return std::nullopt;
  if (form.terms.size() > static_cast<size_t>(rt_tile::kMaxTerms) ||
      3 * (form.offsets.size() + form.terms.size()) > static_cast<size_t>(rt_tile::kMaxValues))
    return std::nullopt;
  return form;
}

void Emitter::runtime_tile(const TileForm &form, const Value *ptr, const Value *other, Elem e,
                           const std::string &raw, bool to_local, const Geometry &g,
                           const LlVal &tag) {
  using namespace rt_tile;
  const auto &shape = ptr->type.shape;
  const size_t rank = shape.size();
  const int64_t eb = memory_elem_bytes(e);
  const Idx zero(rank, "0");
  // Each field: a constant, or where the call passes it.
  std::vector<int64_t> value(kFirst, 0), source(kFirst, kConst);
  std::vector<std::string> args;  // i32 run-time values
  std::string wide[2] = {"0", "0"};
  auto i32_field = [&](const LlVal &x) {
    value.push_back(0);
    if (x.constant) {
      value.back() = static_cast<int32_t>(*x.constant);
      source.push_back(kConst);
      return;
    }
    auto at = std::find(args.begin(), args.end(), x.ref);
    source.push_back(static_cast<int64_t>(at - args.begin()));
    if (at == args.end()) args.push_back(x.ref);
  };
  auto i32 = [](int64_t c) { return LlVal::integer(c, "i32"); };
  auto i32_at = [&](const Value *v, const Idx &idx) {
    return v->type.is_block() ? elem_val(v, idx) : LlVal{scalar(v), "i32", known_constant(v)};
  };
  auto diff = [&](const LlVal &x, const LlVal &y) {
    if (x.constant && y.constant)
      return i32(static_cast<int32_t>(static_cast<uint32_t>(*x.constant) -
                                      static_cast<uint32_t>(*y.constant)));
    return emit("i32", "sub i32 " + x.ref + ", " + y.ref);
  };
  value[kRows] = rank == 2 ? shape[0] : 1;
  value[kCols] = shape.back();
  value[kElemBytes] = eb;
  source[kLocal] = kFromLocal;
  value[kMode] = to_local ? 1 : 0;
  if (tag.constant) {
    value[kTag] = *tag.constant;
  } else {
    wide[1] = tag.ref;
    source[kTag] = kFromWide1;
  }
  if (to_local && other) {
    LlVal b = other_bits(e, other, val(other, zero));
    if (!b.is(0)) {
      wide[0] = b.ref;
      source[kOtherBits] = kFromWide0;
    }
  }
  value[kOffsets] = static_cast<int64_t>(form.offsets.size());
  for (const Value *off : form.offsets) {
    LlVal o0 = i32_at(off, zero);
    i32_field(o0);
    for (int tile_axis = 0; tile_axis < 2; ++tile_axis) {
      // Row step (axis 0 of a 2-D tile), column step (the last axis).
      const bool present = rank == 2 || tile_axis == 1;
      const size_t axis = rank == 2 ? static_cast<size_t>(tile_axis) : 0;
      if (!present || shape[axis] < 2 || off->type.shape[axis] < 2) {
        i32_field(i32(0));
        continue;
      }
      Idx unit = zero;
      unit[axis] = "1";
      i32_field(diff(i32_at(off, unit), o0));
    }
  }
  value[kTerms] = static_cast<int64_t>(form.terms.size());
  for (const RectTerm &t : form.terms) {
    if (t.axis < 0) {
      // Uniform over the tile: as the term `c >= 1` of step 0.
      const Value *m = t.mask;
      LlVal c = m->type.is_block() ? elem_val(m, Idx(m->type.shape.size(), "0"))
                                   : LlVal{scalar(m), "i1", known_constant(m)};
      value.push_back(0);
      source.push_back(kConst);
      i32_field(c.constant ? i32(*c.constant) : emit("i32", "zext i1 " + c.ref + " to i32"));
      i32_field(i32(0));
      i32_field(i32(1));
      value.push_back(kSge);
      source.push_back(kConst);
      continue;
    }
    const auto &cshape = t.mask->type.shape;
    Idx z(cshape.size(), "0"), u = z;
    u[t.own_axis] = "1";
    value.push_back(rank == 2 && t.axis == 0 ? 0 : 1);
    source.push_back(kConst);
    LlVal x0 = elem_val(t.index, z);
    i32_field(x0);
    const std::optional<int64_t> ks = const_step(t.index, t.own_axis);
    i32_field(cshape[t.own_axis] < 2 ? i32(0)
              : ks                   ? i32(static_cast<int32_t>(*ks))
                                     : diff(elem_val(t.index, u), x0));
    i32_field(i32_at(t.bound, z));
    value.push_back(pred_code(t.pred));
    source.push_back(kConst);
  }
  // The constant part: the fields' values, then their sources.
  const std::string name = "@__opforge_tile_desc_" + std::to_string(tile_descs_++);
  std::string init;
  for (auto *part : {&value, &source})
    for (int64_t x : *part) init += (init.empty() ? "i64 " : ", i64 ") + std::to_string(x);
  decls_.insert(name + " = private unnamed_addr constant [" +
                std::to_string(value.size() + source.size()) + " x i64] [" + init + "]");
  const size_t group = static_cast<size_t>(kValueGroup);
  args.resize(std::max(group, (args.size() + group - 1) / group * group), "poison");
  const std::string fn = "__opforge_rt_tile_" + std::to_string(args.size());
  std::string types = "ptr, ptr, i64, i64, i64", call_args;
  for (const std::string &a : args) {
    types += ", i32";
    call_args += ", i32 " + a;
  }
  decls_.insert("declare dso_local void @" + fn + "(" + types + ")");
  line("call void @" + fn + "(ptr " + name + ", ptr " + raw + ", i64 " + g.base + ", i64 " +
       wide[0] + ", i64 " + wide[1] + call_args + ")");
}

void Emitter::count_only(const std::function<void()> &body) {
  IrBody code;
  std::vector<Inst> allocas;
  std::swap(code_, code);
  std::swap(allocas_, allocas);
  const auto memo = memo_;
  const size_t colds = cold_regions_.size();
  const size_t loops = loop_ids_.size();
  const bool was = cold_loops_;
  cold_loops_ = true;
  body();
  cold_loops_ = was;
  loop_ids_.resize(loops);
  cold_regions_.resize(colds);
  memo_ = memo;
  std::swap(code_, code);
  std::swap(allocas_, allocas);
}

}  // namespace opforge::compiler::llir
