//===- blockptr.cpp - block pointers as pointer blocks with boundary masks ===//
//
// Before planning, a kernel using tl.make_block_ptr / tl.advance is copied
// with every block pointer replaced by its parts - base, shape, strides (run-
// time scalars) and offsets (i32 scalars) - and every load/store through one
// by an ordinary access to the pointer block
//   base + sum_d (offset_d + arange(0, B_d)) * stride_d
// masked by 0 <= offset_d + i_d < shape_d on the boundary-checked dimensions,
// with `other` 0 (or NaN for padding_option="nan"). tl.advance adds to the
// offsets; a block pointer carried by scf.for carries its offsets (its base,
// shape and strides must stay the same). The pointer blocks are affine, so
// the DMA lowering applies to them (full tiles by DMA, edge tiles masked).
//
//===----------------------------------------------------------------------===//
#include <algorithm>
#include <cmath>

#include "opforge/compiler/builder.h"
#include "opforge/compiler/lowered.h"
#include "opforge/support/error.h"

namespace opforge::compiler {
namespace {

using ttir::Block;
using ttir::Elem;
using ttir::Operation;
using ttir::OpKind;
using ttir::Type;
using ttir::Value;

struct Desc {
  Value *base = nullptr;
  std::vector<Value *> shape, strides, offsets;  // i64, i64, i32 scalars
  std::vector<int64_t> block;
  Elem pointee = Elem::None;
  bool same_frame(const Desc &o) const {
    return base == o.base && shape == o.shape && strides == o.strides;
  }
};

class Rewriter {
 public:
  std::unique_ptr<ttir::Function> run(const ttir::Function &f) {
    auto nf = std::make_unique<ttir::Function>();
    nf->name = f.name;
    nf->result_types = f.result_types;
    nf->loc = f.loc;
    for (auto &a : f.body->args) map_[a.get()] = nf->body->add_arg(a->type, a->name);
    block(*f.body, *nf->body);
    return nf;
  }

 private:
  [[noreturn]] static void fail(const Operation &op, const std::string &why) {
    throw Error("codegen: " + op.describe() + ": " + why);
  }
  Value *m(Value *v) {
    auto it = map_.find(v);
    return it == map_.end() ? v : it->second;
  }
  const Desc &desc(const Operation &op, Value *v) {
    auto it = desc_.find(v);
    if (it == desc_.end())
      fail(op,
           "block pointer of unknown origin (only tl.make_block_ptr, "
           "tl.advance and scf.for carry them here)");
    return it->second;
  }

  void block(const Block &src, Block &dst) {
    for (auto &op : src.ops) one(*op, dst);
  }

  Value *make(OpKind k, std::vector<Value *> ops, Type t,
              std::map<std::string, ttir::Attr> a = {}) {
    return b_.create1(k, std::move(ops), std::move(t), std::move(a));
  }

  // `v` (a block of shape {B_d}) placed along dimension d of `block`.
  Value *spread(Value *v, size_t d, const std::vector<int64_t> &block) {
    std::vector<int64_t> shape = {block[d]};
    for (size_t k = 0; k < block.size(); ++k) {
      if (k == d) continue;
      size_t at = k < d ? k : shape.size();
      shape.insert(shape.begin() + static_cast<long>(at), 1);
      v = make(OpKind::ExpandDims, {v}, v->type.with_shape(shape), {{"axis", int64_t(at)}});
    }
    if (shape != block) v = make(OpKind::Broadcast, {v}, v->type.with_shape(block));
    return v;
  }

  // Pointer block and boundary mask (nullptr: none) of an access through `d`.
  std::pair<Value *, Value *> expand(const Operation &op, const Desc &d) {
    std::vector<int64_t> check;
    if (op.has_attr("boundary_check")) check = op.ints_attr("boundary_check");
    Value *sum = nullptr, *mask = nullptr;
    for (size_t k = 0; k < d.block.size(); ++k) {
      std::vector<int64_t> s = {d.block[k]};
      Value *r = make(OpKind::MakeRange, {}, Type(Elem::I32, s),
                      {{"start", int64_t(0)}, {"end", d.block[k]}});
      Value *idx = make(OpKind::AddI, {r, make(OpKind::Splat, {d.offsets[k]}, Type(Elem::I32, s))},
                        Type(Elem::I32, s));
      Value *idx64 = make(OpKind::ExtSI, {idx}, Type(Elem::I64, s));
      Value *term =
          make(OpKind::MulI, {idx64, make(OpKind::Splat, {d.strides[k]}, Type(Elem::I64, s))},
               Type(Elem::I64, s));
      term = spread(term, k, d.block);
      sum = sum ? make(OpKind::AddI, {sum, term}, Type(Elem::I64, d.block)) : term;
      if (std::find(check.begin(), check.end(), int64_t(k)) == check.end()) continue;
      Value *lo =
          make(OpKind::CmpI,
               {idx, make(OpKind::Splat, {b_.int_const(0, Type(Elem::I32))}, Type(Elem::I32, s))},
               Type(Elem::I1, s), {{"predicate", std::string("sge")}});
      Value *hi = make(OpKind::CmpI, {idx64, make(OpKind::Splat, {d.shape[k]}, Type(Elem::I64, s))},
                       Type(Elem::I1, s), {{"predicate", std::string("slt")}});
      Value *in = spread(make(OpKind::AndI, {lo, hi}, Type(Elem::I1, s)), k, d.block);
      mask = mask ? make(OpKind::AndI, {mask, in}, Type(Elem::I1, d.block)) : in;
    }
    Type pt = Type::ptr(d.pointee, {});
    pt.shape = d.block;
    Value *ptrs = make(OpKind::AddPtr, {make(OpKind::Splat, {d.base}, pt), sum}, pt);
    return {ptrs, mask};
  }

  void one(const Operation &op, Block &dst) {
    b_.block = &dst;
    b_.loc = op.loc;
    switch (op.kind) {
      case OpKind::MakeTensorPtr: {
        size_t rank = op.ints_attr("block_shape").size();
        Desc d;
        d.base = m(op.operands[0]);
        for (size_t k = 0; k < rank; ++k) {
          d.shape.push_back(m(op.operands[1 + k]));
          d.strides.push_back(m(op.operands[1 + rank + k]));
          d.offsets.push_back(m(op.operands[1 + 2 * rank + k]));
        }
        d.block = op.ints_attr("block_shape");
        d.pointee = op.result()->type.pointee;
        desc_[op.result()] = d;
        return;
      }
      case OpKind::Advance: {
        Desc d = desc(op, op.operands[0]);
        for (size_t k = 0; k < d.offsets.size(); ++k)
          d.offsets[k] = make(OpKind::AddI, {d.offsets[k], m(op.operands[1 + k])}, Type(Elem::I32));
        desc_[op.result()] = d;
        return;
      }
      case OpKind::Load:
        if (op.operands[0]->type.is_block_ptr()) {
          const Desc &d = desc(op, op.operands[0]);
          auto [ptrs, mask] = expand(op, d);
          std::vector<Value *> ops = {ptrs};
          Type rt = op.result()->type;
          if (mask) {
            ops.push_back(mask);
            bool nan = op.has_attr("padding") && op.str_attr("padding") == "nan" &&
                       ttir::elem_is_float(rt.elem);
            Value *other = ttir::elem_is_float(rt.elem)
                               ? b_.float_const(nan ? std::nan("") : 0.0, rt.scalar())
                               : b_.int_const(0, rt.scalar());
            ops.push_back(make(OpKind::Splat, {other}, rt));
          }
          std::map<std::string, ttir::Attr> attrs = op.attrs;
          attrs.erase("boundary_check");
          attrs.erase("padding");
          map_[op.result()] = make(OpKind::Load, ops, rt, attrs);
          return;
        }
        break;
      case OpKind::Store:
        if (op.operands[0]->type.is_block_ptr()) {
          const Desc &d = desc(op, op.operands[0]);
          auto [ptrs, mask] = expand(op, d);
          std::vector<Value *> ops = {ptrs, m(op.operands[1])};
          if (mask) ops.push_back(mask);
          std::map<std::string, ttir::Attr> attrs = op.attrs;
          attrs.erase("boundary_check");
          b_.create(OpKind::Store, ops, {}, attrs);
          return;
        }
        break;
      case OpKind::For:
        return for_op(op, dst);
      default:
        break;
    }
    for (auto *v : op.operands)
      if (v->type.is_block_ptr())
        fail(op, "block pointers as operands of this op are not supported");
    for (auto &r : op.results)
      if (r->type.is_block_ptr())
        fail(op, "block pointers as results of this op are not supported");
    std::vector<Value *> ops;
    for (auto *v : op.operands) ops.push_back(m(v));
    std::vector<Type> rts;
    for (auto &r : op.results) rts.push_back(r->type);
    Operation *c = b_.create(op.kind, ops, rts, op.attrs);
    for (size_t i = 0; i < op.results.size(); ++i) map_[op.result(i)] = c->result(i);
    for (auto &r : op.regions) {
      Block *nb = c->add_region();
      for (auto &a : r->args) map_[a.get()] = nb->add_arg(a->type, a->name);
      block(*r, *nb);
    }
    b_.block = &dst;
  }

  void for_op(const Operation &op, Block &dst) {
    const Block &body = *op.regions[0];
    std::vector<Value *> ops = {m(op.operands[0]), m(op.operands[1]), m(op.operands[2])};
    std::vector<Type> rts;
    std::vector<const Desc *> carried(op.operands.size() - 3, nullptr);
    for (size_t j = 3; j < op.operands.size(); ++j) {
      Value *init = op.operands[j];
      if (init->type.is_block_ptr()) {
        carried[j - 3] = &desc(op, init);
        for (auto *o : carried[j - 3]->offsets) {
          ops.push_back(o);
          rts.push_back(Type(Elem::I32));
        }
      } else {
        ops.push_back(m(init));
        rts.push_back(init->type);
      }
    }
    Operation *c = b_.create(OpKind::For, ops, rts, op.attrs);
    Block *nb = c->add_region();
    map_[body.arg(0)] = nb->add_arg(body.arg(0)->type, body.arg(0)->name);
    for (size_t j = 0; j < carried.size(); ++j) {
      const Value *a = body.arg(j + 1);
      if (carried[j]) {
        Desc d = *carried[j];
        for (auto &o : d.offsets) o = nb->add_arg(Type(Elem::I32), a->name);
        desc_[body.arg(j + 1)] = d;
      } else {
        map_[body.arg(j + 1)] = nb->add_arg(a->type, a->name);
      }
    }
    for (auto &inner : body.ops) {
      if (inner->kind != OpKind::Yield) {
        one(*inner, *nb);
        continue;
      }
      b_.block = nb;
      b_.loc = inner->loc;
      std::vector<Value *> ys;
      for (size_t j = 0; j < inner->operands.size(); ++j) {
        Value *y = inner->operands[j];
        if (!carried[j]) {
          ys.push_back(m(y));
          continue;
        }
        const Desc &d = desc(*inner, y);
        if (!d.same_frame(*carried[j]))
          fail(op, "a block pointer carried by the loop must keep its base, shape and strides");
        for (auto *o : d.offsets) ys.push_back(o);
      }
      b_.create(OpKind::Yield, ys, {});
    }
    b_.block = &dst;
    size_t r = 0;
    for (size_t j = 0; j < carried.size(); ++j) {
      if (carried[j]) {
        Desc d = *carried[j];
        for (auto &o : d.offsets) o = c->result(r++);
        desc_[op.result(j)] = d;
      } else {
        map_[op.result(j)] = c->result(r++);
      }
    }
  }

  ttir::Builder b_;
  std::map<Value *, Value *> map_;
  std::map<const Value *, Desc> desc_;
};

}  // namespace

bool uses_block_pointers(const ttir::Function &f) {
  bool any = false;
  ttir::walk_block(*f.body, [&](const Operation &op) {
    if (op.kind == OpKind::MakeTensorPtr) any = true;
  });
  return any;
}

std::unique_ptr<ttir::Function> expand_block_pointers(const ttir::Function &f) {
  auto nf = Rewriter().run(f);
  nf->number_values();
  ttir::verify(*nf);
  return nf;
}

}  // namespace opforge::compiler
