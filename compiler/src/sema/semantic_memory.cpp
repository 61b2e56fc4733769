//===- semantic_memory.cpp - Triton semantics of loads, stores, atomics ----===//
#include <algorithm>

#include "semantic.h"

namespace opforge::compiler::sema {
using ttir::OpKind;

// A load/store/atomic mask as Triton takes it: int1 elements (semantic.py "Mask must have
// boolean scalar type"; a load's non-bool mask fails its IR verifier and the interpreter's
// "mask has unsupported dtype"), and no block mask on a scalar pointer. No implicit cast.
SValue Semantic::check_mask(const SValue &ptr, SValue m) {
  if (!ptr.type.is_block() && m.type.is_block())
    fail("Mask argument cannot be block type if pointer argument is not a block");
  if (!m.type.is_bool())
    fail("Mask must have boolean scalar type, got " + m.type.str() +
         " (compare it, e.g. `mask != 0`)");
  return m;
}

SValue Semantic::load(SValue ptr, SValue mask, SValue other,
                      const std::vector<int64_t> &boundary_check, const std::string &padding) {
  if (!ptr.is_tensor() || !ptr.type.is_ptr())
    fail("Unsupported ptr type " + (ptr.is_tensor() ? ptr.type.str() : ptr.repr()) +
         " in `tl.load`");
  if (ptr.type.is_block_ptr()) {
    if (mask.kind != SValue::Kind::None || other.kind != SValue::Kind::None)
      fail("`mask` and `other` arguments cannot be specified for loading block pointers");
    for (auto d : boundary_check)
      if (d < 0 || d >= static_cast<int64_t>(ptr.type.pointee_shape.size()))
        fail("boundary_check dimension " + std::to_string(d) + " is out of range");
    if (!padding.empty() && padding != "zero" && padding != "nan")
      fail("Padding option must be 'zero' or 'nan', got '" + padding + "'");
    LType rt = LType::scalar(ptr.type.pointee).with_shape(ptr.type.pointee_shape);
    std::map<std::string, ttir::Attr> attrs;
    if (!boundary_check.empty()) {
      auto bc = boundary_check;
      std::sort(bc.begin(), bc.end());
      attrs["boundary_check"] = bc;
    }
    if (!padding.empty()) attrs["padding"] = padding;
    return T(b_.create1(OpKind::Load, {ptr.value}, rt.ir(), attrs), rt);
  }
  if (!boundary_check.empty()) fail("`boundary_check` argument is only for block pointers");
  std::vector<ttir::Value *> ops;
  if (mask.kind != SValue::Kind::None) {
    SValue m = check_mask(ptr, to_tensor(mask));
    if (other.is_tensor() && !ptr.type.is_block() && other.type.is_block())
      fail("Other argument cannot be block type if pointer argument is not a block");
    std::tie(ptr, m) = broadcast(ptr, m);
    ops = {ptr.value, m.value};
    if (other.kind != SValue::Kind::None) {
      LType elt = LType::scalar(ptr.type.pointee);
      SValue o = other.is_tensor() ? cast(other, elt) : constant(other, elt);
      o = broadcast_to(o, ptr.type.shape);
      ops.push_back(o.value);
    }
  } else {
    if (other.kind != SValue::Kind::None) fail("`other` cannot be provided without `mask`");
    ops = {ptr.value};
  }
  LType rt = LType::scalar(ptr.type.pointee).with_shape(ptr.type.shape);
  return T(b_.create1(OpKind::Load, ops, rt.ir()), rt);
}

void Semantic::store(SValue ptr, SValue value, SValue mask,
                     const std::vector<int64_t> &boundary_check) {
  if (!ptr.is_tensor() || !ptr.type.is_ptr())
    fail("Unsupported ptr type " + (ptr.is_tensor() ? ptr.type.str() : ptr.repr()) +
         " in `tl.store`");
  if (ptr.type.is_block_ptr()) {
    if (mask.kind != SValue::Kind::None)
      fail("`mask` argument cannot be specified for storing block pointers");
    LType block = LType::scalar(ptr.type.pointee).with_shape(ptr.type.pointee_shape);
    SValue v = cast(value, block.elem());
    v = broadcast_to(v, block.shape);
    std::map<std::string, ttir::Attr> attrs;
    if (!boundary_check.empty()) {
      auto bc = boundary_check;
      std::sort(bc.begin(), bc.end());
      attrs["boundary_check"] = bc;
    }
    b_.create(OpKind::Store, {ptr.value, v.value}, {}, attrs);
    return;
  }
  SValue v = to_tensor(value);
  if (!ptr.type.is_block() && v.type.is_block())
    fail("Value argument cannot be block type if pointer argument is not a block");
  SValue m;
  if (mask.kind != SValue::Kind::None) {
    m = broadcast_to(check_mask(ptr, to_tensor(mask)), ptr.type.shape);
  }
  v = broadcast_to(v, ptr.type.shape);
  v = cast(v, LType::scalar(ptr.type.pointee));
  std::vector<ttir::Value *> ops = {ptr.value, v.value};
  if (m.is_tensor()) ops.push_back(m.value);
  b_.create(OpKind::Store, ops, {});
}

SValue Semantic::atomic_rmw(const std::string &op, SValue ptr, SValue val, SValue mask) {
  if (!ptr.is_tensor() || !ptr.type.is_ptr() || ptr.type.is_block_ptr())
    fail("Pointer argument of store instruction is " +
         (ptr.is_tensor() ? ptr.type.str() : ptr.repr()));
  LType elt = LType::scalar(ptr.type.pointee);
  SValue v = val.is_tensor() ? val : constant(val, elt);
  if (!ptr.type.is_block() && v.type.is_block())
    fail("Value argument cannot be block type if pointer argument is not a block");
  std::tie(ptr, v) = broadcast(ptr, v);
  v = cast(v, elt);
  std::string kind = op;
  if (op == "add" && elt.is_float()) kind = "fadd";
  if ((op == "max" || op == "min") && elt.is_unsigned()) kind = "u" + op;
  if ((op == "and" || op == "or" || op == "xor") && !elt.is_int())
    fail("atomic_" + op + " needs an integer pointer, got " + elt.str());
  std::vector<ttir::Value *> ops = {ptr.value, v.value};
  if (mask.kind != SValue::Kind::None) {
    SValue m = broadcast_to(check_mask(ptr, to_tensor(mask)), ptr.type.shape);
    ops.push_back(m.value);
  }
  LType rt = v.type;
  return T(b_.create1(OpKind::AtomicRMW, ops, rt.ir(), {{"rmw_op", kind}}), rt);
}

SValue Semantic::atomic_cas(SValue ptr, SValue cmp, SValue val) {
  if (!ptr.is_tensor() || !ptr.type.is_ptr() || ptr.type.is_block_ptr())
    fail("Pointer argument of atomic_cas is " + (ptr.is_tensor() ? ptr.type.str() : ptr.repr()));
  LType elt = LType::scalar(ptr.type.pointee);
  if (elt.bits() != 32 && elt.bits() != 64 && elt.bits() != 16)
    fail("atomic_cas only supports elements of 16, 32 and 64 bits");
  SValue c = cast(cmp.is_tensor() ? cmp : constant(cmp, elt), elt);
  SValue v = cast(val.is_tensor() ? val : constant(val, elt), elt);
  c = broadcast_to(c, ptr.type.shape);
  v = broadcast_to(v, ptr.type.shape);
  LType rt = v.type;
  return T(b_.create1(OpKind::AtomicCAS, {ptr.value, c.value, v.value}, rt.ir()), rt);
}

SValue Semantic::make_block_ptr(SValue base, const std::vector<SValue> &shape,
                                const std::vector<SValue> &strides,
                                const std::vector<SValue> &offsets,
                                const std::vector<int64_t> &block_shape,
                                const std::vector<int64_t> &order) {
  if (!base.is_tensor() || !base.type.is_ptr() || base.type.is_block() || base.type.is_block_ptr())
    fail("Expected `base` to be a pointer type (but got " +
         (base.is_tensor() ? base.type.str() : base.repr()) + ")");
  size_t rank = block_shape.size();
  if (shape.size() != rank || strides.size() != rank || offsets.size() != rank)
    fail("Expected shape/strides/offsets/block_shape to have the same length");
  if (!order.empty() && order.size() != rank)
    fail("Expected `order` to have one entry per dimension");
  std::vector<int64_t> sorted = order;
  std::sort(sorted.begin(), sorted.end());
  for (size_t i = 0; i < sorted.size(); ++i)
    if (sorted[i] != static_cast<int64_t>(i))
      fail("Expected a permutation of (0, 1, ..., len(order)-1) in order");
  for (auto d : block_shape)
    if (d <= 0 || (d & (d - 1)) != 0)
      fail("Expected a power of 2 block shape, got " + std::to_string(d));
  std::vector<ttir::Value *> ops = {base.value};
  for (auto &s : shape) ops.push_back(cast(to_tensor(s), LType::scalar(Sc::I64)).value);
  for (auto &s : strides) ops.push_back(cast(to_tensor(s), LType::scalar(Sc::I64)).value);
  for (auto &s : offsets) ops.push_back(cast(to_tensor(s), LType::scalar(Sc::I32)).value);
  for (size_t i = 1; i < ops.size(); ++i)
    if (ops[i]->type.is_block()) fail("make_block_ptr shape, strides and offsets must be scalars");
  LType rt = LType::ptr(base.type.pointee, block_shape);
  std::map<std::string, ttir::Attr> attrs = {{"block_shape", block_shape}};
  attrs["order"] = order;
  return T(b_.create1(OpKind::MakeTensorPtr, ops, rt.ir(), attrs), rt);
}

SValue Semantic::advance(SValue ptr, const std::vector<SValue> &offsets) {
  if (!ptr.is_tensor() || !ptr.type.is_block_ptr())
    fail("tl.advance expects a block pointer made by tl.make_block_ptr");
  if (offsets.size() != ptr.type.pointee_shape.size())
    fail("Expected " + std::to_string(ptr.type.pointee_shape.size()) +
         " offsets for tl.advance, got " + std::to_string(offsets.size()));
  std::vector<ttir::Value *> ops = {ptr.value};
  for (auto &o : offsets) ops.push_back(cast(to_tensor(o), LType::scalar(Sc::I32)).value);
  return T(b_.create1(OpKind::Advance, ops, ptr.type.ir()), ptr.type);
}

}  // namespace opforge::compiler::sema
