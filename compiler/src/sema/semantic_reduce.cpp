//===- semantic_reduce.cpp - Triton semantics of reduce, scan and dot ------===//
#include "semantic.h"

namespace opforge::compiler::sema {
using ttir::OpKind;

int64_t Semantic::norm_axis(int64_t axis, int rank) {
  if (axis < -rank || axis >= rank)
    fail("axis " + std::to_string(axis) + " is out of bounds for a tensor of rank " +
         std::to_string(rank));
  return axis < 0 ? axis + rank : axis;
}

SValue Semantic::flatten(SValue x) {
  x = to_tensor(x);
  if (!x.type.is_block()) return expand_dims(x, 0);
  if (x.type.rank() == 1) return x;
  return reshape(x, {x.type.numel()});
}

static std::vector<SValue> build_region(Semantic &s, ttir::Operation *op,
                                        const std::vector<SValue> &inputs,
                                        const Semantic::Combine &combine, OpKind term) {
  ttir::Builder &b = s.builder();
  ttir::Block *region = op->add_region();
  std::vector<SValue> args;
  for (int side = 0; side < 2; ++side)
    for (auto &in : inputs)
      args.push_back(SValue::tensor(region->add_arg(in.type.elem().ir()), in.type.elem()));
  ttir::Block *saved = b.block;
  b.block = region;
  std::vector<SValue> res = combine(args);
  if (res.size() != inputs.size())
    s.fail("the combine function returns " + std::to_string(res.size()) + " values, expected " +
           std::to_string(inputs.size()));
  std::vector<ttir::Value *> vals;
  for (size_t i = 0; i < res.size(); ++i) {
    SValue r = s.to_tensor(res[i]);
    if (r.type.is_block()) s.fail("the combine function must return scalars, got " + r.type.str());
    if (!(r.type.ir() == inputs[i].type.elem().ir()))
      s.fail("the combine function returns " + r.type.str() + " for an input of type " +
             inputs[i].type.elem().str());
    vals.push_back(r.value);
  }
  b.create(term, vals, {});
  b.block = saved;
  return res;
}

std::vector<SValue> Semantic::reduce(std::vector<SValue> inputs, int64_t axis, bool keep_dims,
                                     const Combine &combine) {
  for (auto &in : inputs) in = to_tensor(in);
  if (!inputs[0].type.is_block())
    fail("reduce needs a block, got a scalar of type " + inputs[0].type.str());
  int rank = inputs[0].type.rank();
  axis = norm_axis(axis, rank);
  for (auto &in : inputs)
    if (in.type.shape != inputs[0].type.shape)
      fail("all inputs of a reduction must have the same shape");
  std::vector<ttir::Value *> ops;
  std::vector<ttir::Type> rts;
  std::vector<LType> lts;
  for (auto &in : inputs) {
    ops.push_back(in.value);
    auto s = in.type.shape;
    s.erase(s.begin() + axis);
    lts.push_back(in.type.with_shape(s));
    rts.push_back(lts.back().ir());
  }
  ttir::Operation *op = b_.create(OpKind::Reduce, ops, rts, {{"axis", axis}});
  build_region(*this, op, inputs, combine, OpKind::ReduceReturn);
  std::vector<SValue> out;
  for (size_t i = 0; i < inputs.size(); ++i) {
    SValue r = T(op->result(i), lts[i]);
    if (keep_dims) r = expand_dims(r, axis);
    out.push_back(r);
  }
  return out;
}

std::vector<SValue> Semantic::scan(std::vector<SValue> inputs, int64_t axis, bool reverse,
                                   const Combine &combine) {
  for (auto &in : inputs) in = to_tensor(in);
  if (!inputs[0].type.is_block())
    fail("scan needs a block, got a scalar of type " + inputs[0].type.str());
  axis = norm_axis(axis, inputs[0].type.rank());
  std::vector<ttir::Value *> ops;
  std::vector<ttir::Type> rts;
  for (auto &in : inputs) {
    ops.push_back(in.value);
    rts.push_back(in.type.ir());
  }
  ttir::Operation *op = b_.create(OpKind::Scan, ops, rts, {{"axis", axis}, {"reverse", reverse}});
  build_region(*this, op, inputs, combine, OpKind::ScanReturn);
  std::vector<SValue> out;
  for (size_t i = 0; i < inputs.size(); ++i) out.push_back(T(op->result(i), inputs[i].type));
  return out;
}

SValue Semantic::sum(SValue x, std::optional<int64_t> axis, bool keep_dims, const LType *dtype) {
  x = to_tensor(x);
  if (!axis) {
    x = flatten(x);
    axis = 0;
  }
  LType et = x.type.elem();
  if (dtype)
    x = cast(x, *dtype);
  else if (et.is_bool() || (et.is_signed() && et.bits() < 32))
    x = cast(x, LType::scalar(Sc::I32));
  else if (et.is_unsigned() && et.bits() < 32)
    x = cast(x, LType::scalar(Sc::U32));
  return reduce({x}, *axis, keep_dims, [this](const std::vector<SValue> &a) {
    return std::vector<SValue>{add(a[0], a[1])};
  })[0];
}

SValue Semantic::max_min(bool is_max, SValue x, std::optional<int64_t> axis, bool keep_dims,
                         bool return_indices, bool tie_break_left, SValue *indices_out) {
  x = to_tensor(x);
  if (!axis) {
    x = flatten(x);
    axis = 0;
  }
  if (return_indices) {
    int64_t ax = norm_axis(*axis, x.type.rank());
    SValue idx = arange(0, x.type.shape[ax]);
    if (x.type.rank() > 1) {
      std::vector<int64_t> s(x.type.rank(), 1);
      s[ax] = x.type.shape[ax];
      idx = reshape(idx, s);
      idx = broadcast_to(idx, x.type.shape);
    }
    auto res = reduce(
        {x, idx}, ax, keep_dims, [this, is_max, tie_break_left](const std::vector<SValue> &a) {
          const SValue &v1 = a[0], &i1 = a[1], &v2 = a[2], &i2 = a[3];
          SValue better = compare(is_max ? CmpKind::Gt : CmpKind::Lt, v1, v2);
          if (tie_break_left) {
            SValue tie = logical(true, compare(CmpKind::Eq, v1, v2), compare(CmpKind::Lt, i1, i2));
            better = logical(false, better, tie);
          }
          if (v1.type.is_float()) {
            // A NaN wins (propagates), as torch.argmax treats NaN as the maximum.
            SValue nan1 = compare(CmpKind::Ne, v1, v1);
            SValue nan2 = compare(CmpKind::Ne, v2, v2);
            better = logical(false, logical(true, better, logical_not(nan2)), nan1);
          }
          return std::vector<SValue>{where(better, v1, v2), where(better, i1, i2)};
        });
    if (indices_out) *indices_out = res[1];
    return res[0];
  }
  LType et = x.type.elem();
  if (et.bits() < 32) {
    if (et.is_float())
      x = cast(x, LType::scalar(Sc::F32));
    else
      x = cast(x, LType::scalar(Sc::I32));
  }
  return reduce({x}, *axis, keep_dims, [this, is_max](const std::vector<SValue> &a) {
    return std::vector<SValue>{is_max ? maximum(a[0], a[1], false) : minimum(a[0], a[1], false)};
  })[0];
}

SValue Semantic::cumsum(SValue x, int64_t axis, bool reverse, bool is_prod) {
  x = to_tensor(x);
  LType et = x.type.elem();
  if (et.is_bool() || (et.is_signed() && et.bits() < 32))
    x = cast(x, LType::scalar(Sc::I32));
  else if (et.is_unsigned() && et.bits() < 32)
    x = cast(x, LType::scalar(Sc::U32));
  return scan({x}, axis, reverse, [this, is_prod](const std::vector<SValue> &a) {
    return std::vector<SValue>{is_prod ? mul(a[0], a[1]) : add(a[0], a[1])};
  })[0];
}

SValue Semantic::dot(SValue a, SValue b, SValue acc, const std::string &input_precision,
                     const LType &out_dtype) {
  a = to_tensor(a);
  b = to_tensor(b);
  if (sc_is_fp8(a.type.sc) || sc_is_fp8(b.type.sc))
    fail("tl.dot on " + (sc_is_fp8(a.type.sc) ? a : b).type.elem().str() +
         " operands needs an fp8 mode of the DPE, which the target lacks: convert them with "
         ".to(tl.float16) first");
  if (a.type.rank() != 2 || b.type.rank() != 2)
    fail("Both inputs must be 2D tensors (got " + a.type.str() + " and " + b.type.str() + ")");
  if (a.type.shape[1] != b.type.shape[0])
    fail("First input shape (" + std::to_string(a.type.shape[0]) + ", " +
         std::to_string(a.type.shape[1]) + ") and second input shape (" +
         std::to_string(b.type.shape[0]) + ", " + std::to_string(b.type.shape[1]) +
         ") are not compatible for matmul (second index of first shape (" +
         std::to_string(a.type.shape[1]) + ") must be equal to first index of second shape (" +
         std::to_string(b.type.shape[0]) + ")");
  for (auto d : {a.type.shape[0], a.type.shape[1], b.type.shape[1]})
    if (d < 16)
      fail("All non-batch values in both first input shape (" + std::to_string(a.type.shape[0]) +
           ", " + std::to_string(a.type.shape[1]) + ") and second input shape (" +
           std::to_string(b.type.shape[0]) + ", " + std::to_string(b.type.shape[1]) +
           ") must be >= 16!");
  if (!(a.type.elem() == b.type.elem()))
    fail("Both operands must be same dtype. Got " + a.type.elem().str() + " and " +
         b.type.elem().str());
  static const char *precs[] = {"tf32", "tf32x3", "ieee"};
  bool known = false;
  for (auto *p : precs) known |= input_precision == p;
  if (!known)
    fail("input_precision must be one of ('tf32', 'tf32x3', 'ieee'), got '" + input_precision +
         "'");
  LType et = a.type.elem();
  LType rt_elem;
  if (et.is_int()) {
    if (et.bits() != 8) fail("dot only supports 8-bit integer operands, got " + et.str());
    rt_elem = LType::scalar(Sc::I32);
  } else if (et.sc == Sc::F64) {
    rt_elem = LType::scalar(Sc::F64);
  } else if (et.sc == Sc::F32) {
    rt_elem = LType::scalar(Sc::F32);
  } else {
    rt_elem = out_dtype.elem();
    if (!rt_elem.is_float()) fail("out_dtype of tl.dot must be a floating-point type");
  }
  std::vector<int64_t> shape = {a.type.shape[0], b.type.shape[1]};
  SValue c;
  if (acc.kind == SValue::Kind::None) {
    c = full(shape, SValue::integer(0), rt_elem);
  } else {
    c = to_tensor(acc);
    if (c.type.shape != shape)
      fail("acc shape " + c.type.str() + " does not match the dot result shape");
    if (!(c.type.elem() == rt_elem) && !(et.is_float() && c.type.is_float()))
      fail("acc type " + c.type.elem().str() + " does not match the dot result type " +
           rt_elem.str());
    rt_elem = c.type.elem();
  }
  LType rt = rt_elem.with_shape(shape);
  return T(b_.create1(OpKind::Dot, {a.value, b.value, c.value}, rt.ir(),
                      {{"input_precision", input_precision}}),
           rt);
}

}  // namespace opforge::compiler::sema
