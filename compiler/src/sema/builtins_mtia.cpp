//===- builtins_mtia.cpp - tl.extra.mtia.{async_copy,wait,barrier,atomic_add,dot,sfu} ===//
//
// The built-in tl.extra.mtia functions (mtia_builtins.h,
// docs/compiler/mtia-extensions.md). A token of async_copy is an i64 scalar
// in the IR (mtia.async_copy's result); sema remembers what it carries in
// its LType: sc I64, pointee/pointee_shape the copied block's element type
// and shape (a token is never a pointer: sc is not Ptr), so wait() can type
// its result and reject anything that is not a token, also after the token
// went through a loop-carried variable or an if.
//
//===----------------------------------------------------------------------===//
#include <algorithm>

#include "lower_ast.h"
#include "opforge/compiler/mtia_builtins.h"

namespace opforge::compiler::sema {
using ttir::OpKind;

namespace {

// An async_copy result, or a loop-carried variable / if result holding one
// (arithmetic on a token keeps its LType but is not a token).
bool is_token(const SValue &v) {
  if (!v.is_tensor() || v.type.sc != Sc::I64 || v.type.is_block() || v.type.pointee_shape.empty())
    return false;
  const ttir::Operation *d = v.value->def;
  return !d || d->kind == OpKind::AsyncCopy || d->kind == OpKind::For || d->kind == OpKind::If ||
         d->kind == OpKind::While;
}

std::string what_is(const SValue &v) { return v.is_tensor() ? v.type.str() : v.repr(); }

SValue async_copy(Semantic &S, const std::string &fn, SValue ptr, SValue mask, SValue other) {
  if (!ptr.is_tensor() || !ptr.type.is_ptr() || ptr.type.is_block_ptr() || !ptr.type.is_block())
    throw UserError(fn + "() copies a block of pointers into local memory; got " + what_is(ptr) +
                    " (the destination is the call's own local-memory buffer)");
  const Sc e = ptr.type.pointee;
  if (e == Sc::F16 || e == Sc::BF16 || e == Sc::I1 || e == Sc::Ptr || e == Sc::F64)
    throw UserError(fn + "() copies 8/16/32/64-bit integer or float32 elements; got " + sc_name(e) +
                    " (use tl.load for it)");
  if (ptr.type.rank() > 2)
    throw UserError(fn + "() copies 1-D or 2-D blocks; got " + ptr.type.str());
  SValue loaded = S.load(ptr, mask, other, {}, "");
  ttir::Operation *op = loaded.value->def;
  op->kind = OpKind::AsyncCopy;
  op->results[0]->type = ttir::Type(ttir::Elem::I64);
  LType tok = LType::scalar(Sc::I64);
  tok.pointee = e;
  tok.pointee_shape = loaded.type.shape;
  return SValue::tensor(loaded.value, tok);
}

SValue wait(Semantic &S, const std::string &fn, const SValue &tok) {
  if (!is_token(tok))
    throw UserError(fn + "() expects a token returned by tl.extra.mtia.async_copy, got " +
                    what_is(tok));
  LType rt = LType::scalar(tok.type.pointee).with_shape(tok.type.pointee_shape);
  return SValue::tensor(S.builder().create1(OpKind::AsyncWait, {tok.value}, rt.ir()), rt);
}

SValue dot(Semantic &S, const std::string &fn, SValue a, SValue b, SValue acc) {
  a = S.to_tensor(a);
  b = S.to_tensor(b);
  const Sc e = a.type.sc;
  const bool ok_elem = e == Sc::BF16 || e == Sc::F16 || e == Sc::F32 || e == Sc::I8;
  if (!ok_elem || !(a.type.elem() == b.type.elem()))
    throw UserError(fn +
                    "() runs on the DPE, which takes bf16, fp16, fp32 or int8 operands of "
                    "one type; got " +
                    a.type.str() + " and " + b.type.str());
  const Sc out = e == Sc::I8 ? Sc::I32 : Sc::F32;
  if (acc.kind != SValue::Kind::None) {
    acc = S.to_tensor(acc);
    if (acc.type.sc != out)
      throw UserError(fn + "(): the DPE accumulates in " + sc_name(out) + "; acc is " +
                      acc.type.str());
  }
  return S.dot(a, b, acc, "ieee", LType::scalar(out));
}

SValue sfu(Semantic &S, const std::string &fn, const SValue &op, SValue x) {
  const auto &fns = mtia_sfu_functions();
  std::string list;
  for (auto &f : fns) list += (list.empty() ? "" : ", ") + f;
  if (op.kind != SValue::Kind::Str || std::find(fns.begin(), fns.end(), op.s) == fns.end())
    throw UserError(fn + "(): op must be a constant string, one of " + list + "; got " +
                    what_is(op));
  x = S.to_tensor(x);
  if (!x.type.is_block() || x.type.sc != Sc::F32)
    throw UserError(fn + "() takes a float32 block (the SFU works on fp32 vectors); got " +
                    x.type.str());
  static const std::pair<const char *, OpKind> kinds[] = {
      {"exp", OpKind::Exp}, {"log", OpKind::Log}, {"tanh", OpKind::Tanh},  {"erf", OpKind::Erf},
      {"sin", OpKind::Sin}, {"cos", OpKind::Cos}, {"rsqrt", OpKind::Rsqrt}};
  for (auto &[name, k] : kinds)
    if (op.s == name) {
      SValue r = S.math(k, name, x, false);
      r.value->def->attrs["sfu"] = true;  // the interpreter computes what the SFU does
      return r;
    }
  throw UserError(fn + "(): unknown SFU function '" + op.s + "'");
}

}  // namespace

std::optional<SValue> mtia_builtin_call(Semantic &S, const std::string &name,
                                        const std::vector<SValue> &args, const Kwargs &kw) {
  const MtiaBuiltin *b = find_mtia_builtin(name);
  if (!b) return std::nullopt;
  std::vector<std::string> keys;
  for (auto &[k, v] : kw) keys.push_back(k);
  if (std::string why = mtia_call_mismatch(*b, args.size(), keys); !why.empty())
    throw UserError(why);
  std::vector<SValue> a(b->params.size());
  for (size_t i = 0; i < args.size(); ++i) a[i] = args[i];
  for (auto &[k, v] : kw)
    a[std::find(b->params.begin(), b->params.end(), k) - b->params.begin()] = v;
  const std::string fn = "tl.extra.mtia." + name;
  if (name == "async_copy") return async_copy(S, fn, a[0], a[1], a[2]);
  if (name == "wait") return wait(S, fn, a[0]);
  if (name == "barrier") {
    S.builder().create(OpKind::Barrier, {}, {}, {{"scope", std::string("pe")}});
    return SValue::none();
  }
  if (name == "atomic_add") {
    const SValue &sem = a[3];
    if (sem.kind != SValue::Kind::None &&
        (sem.kind != SValue::Kind::Str ||
         (sem.s != "relaxed" && sem.s != "acquire" && sem.s != "release" && sem.s != "acq_rel")))
      throw UserError(fn + "(): sem must be 'relaxed', 'acquire', 'release' or 'acq_rel'; got " +
                      what_is(sem));
    S.atomic_rmw("add", a[0], a[1], a[2]);
    return SValue::none();
  }
  if (name == "dot") return dot(S, fn, a[0], a[1], a[2]);
  if (name == "sfu") return sfu(S, fn, a[0], a[1]);
  return std::nullopt;
}

}  // namespace opforge::compiler::sema
