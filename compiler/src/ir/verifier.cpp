//===- verifier.cpp - ttir verifier: structure, types, shapes, dominance ---===//
#include <set>

#include "opforge/compiler/ext_intrinsic.h"
#include "opforge/compiler/ir.h"
#include "opforge/support/error.h"

namespace opforge::ttir {
namespace {

class Verifier {
 public:
  explicit Verifier(const Function &f) : f_(f) {}

  void run() {
    std::vector<std::set<const Value *>> scopes(1);
    for (auto &a : f_.body->args) scopes.back().insert(a.get());
    block(*f_.body, scopes, nullptr);
  }

 private:
  const Function &f_;

  [[noreturn]] void fail(const Operation &op, const std::string &msg) {
    ErrorContext ctx;
    ctx.file = op.loc.file;
    if (op.loc.line > 0) ctx.line = op.loc.line;
    if (op.loc.col > 0) ctx.col = op.loc.col;
    throw Error(
        "ttir verifier: in @" + f_.name + ": '" + std::string(op_name(op.kind)) + "': " + msg, ctx);
  }

  bool visible(const std::vector<std::set<const Value *>> &scopes, const Value *v) {
    for (auto &s : scopes)
      if (s.count(v)) return true;
    return false;
  }

  void block(const Block &b, std::vector<std::set<const Value *>> &scopes, const Operation *owner) {
    for (size_t i = 0; i < b.ops.size(); ++i) {
      const Operation &op = *b.ops[i];
      if (op.parent != &b) fail(op, "operation's parent pointer is stale");
      for (size_t k = 0; k < op.operands.size(); ++k) {
        if (!op.operands[k]) fail(op, "operand " + std::to_string(k) + " is null");
        if (!visible(scopes, op.operands[k]))
          fail(op, "operand " + std::to_string(k) + " does not dominate its use");
      }
      if (op_is_terminator(op.kind) && i + 1 != b.ops.size())
        fail(op, "terminator must end its block");
      for (auto &r : op.regions) {
        if (r->parent != &op) fail(op, "region's parent pointer is stale");
        scopes.emplace_back();
        for (auto &a : r->args) scopes.back().insert(a.get());
        block(*r, scopes, &op);
        scopes.pop_back();
      }
      check(op, owner);
      for (auto &res : op.results) scopes.back().insert(res.get());
    }
  }

  void count(const Operation &op, size_t operands, size_t results) {
    if (op.operands.size() != operands)
      fail(op, "expected " + std::to_string(operands) + " operands, got " +
                   std::to_string(op.operands.size()));
    if (op.results.size() != results)
      fail(op, "expected " + std::to_string(results) + " results, got " +
                   std::to_string(op.results.size()));
  }
  const Type &ot(const Operation &op, size_t i) { return op.operands[i]->type; }
  const Type &rt(const Operation &op, size_t i = 0) { return op.results[i]->type; }
  void same(const Operation &op, const Type &a, const Type &b, const char *what) {
    if (!(a == b)) fail(op, std::string(what) + ": " + a.str() + " vs " + b.str());
  }
  void need_float(const Operation &op, const Type &t) {
    if (!t.is_float()) fail(op, "expects a floating-point type, got " + t.str());
  }
  void need_int(const Operation &op, const Type &t) {
    if (!t.is_int()) fail(op, "expects an integer type, got " + t.str());
  }
  void same_shape(const Operation &op, const Type &a, const Type &b) {
    if (a.shape != b.shape) fail(op, "shape mismatch: " + a.str() + " vs " + b.str());
  }
  void yields(const Operation &op, const Block &r, const std::vector<const Type *> &want,
              OpKind term) {
    const Operation *t = r.terminator();
    if (!t || t->kind != term)
      fail(op, "region must end with '" + std::string(op_name(term)) + "'");
    size_t skip = term == OpKind::Condition ? 1 : 0;
    if (t->operands.size() != want.size() + skip)
      fail(op, "region yields " + std::to_string(t->operands.size() - skip) + " values, expected " +
                   std::to_string(want.size()));
    for (size_t i = 0; i < want.size(); ++i)
      same(op, t->operands[i + skip]->type, *want[i], "yielded type");
  }

  void check(const Operation &op, const Operation *owner) {
    using K = OpKind;
    switch (op.kind) {
      case K::Constant:
        count(op, 0, 1);
        if (!op.has_attr("value")) fail(op, "missing 'value'");
        if (rt(op).is_ptr()) fail(op, "constants cannot be pointers");
        break;
      case K::MakeRange: {
        count(op, 0, 1);
        int64_t s = op.int_attr("start"), e = op.int_attr("end");
        if (rt(op).shape != std::vector<int64_t>{e - s} || rt(op).elem != Elem::I32)
          fail(op, "result must be tensor<" + std::to_string(e - s) + "xi32>");
        break;
      }
      case K::Splat:
        count(op, 1, 1);
        if (ot(op, 0).is_block() || !rt(op).is_block()) fail(op, "splats a scalar into a block");
        same(op, ot(op, 0), rt(op).scalar(), "element type");
        break;
      case K::Broadcast: {
        count(op, 1, 1);
        const Type &a = ot(op, 0), &r = rt(op);
        same(op, a.scalar(), r.scalar(), "element type");
        if (a.rank() != r.rank()) fail(op, "rank mismatch " + a.str() + " -> " + r.str());
        for (int i = 0; i < a.rank(); ++i)
          if (a.shape[i] != r.shape[i] && a.shape[i] != 1)
            fail(op, "cannot broadcast " + a.str() + " to " + r.str());
        break;
      }
      case K::ExpandDims: {
        count(op, 1, 1);
        auto s = ot(op, 0).shape;
        int64_t ax = op.int_attr("axis");
        if (ax < 0 || ax > static_cast<int64_t>(s.size())) fail(op, "axis out of range");
        s.insert(s.begin() + ax, 1);
        same(op, ot(op, 0).with_shape(s), rt(op), "result type");
        break;
      }
      case K::Reshape:
        count(op, 1, 1);
        same(op, ot(op, 0).scalar(), rt(op).scalar(), "element type");
        if (ot(op, 0).numel() != rt(op).numel()) fail(op, "reshape changes the number of elements");
        break;
      case K::Trans: {
        count(op, 1, 1);
        auto order = op.ints_attr("order");
        const Type &a = ot(op, 0);
        if (static_cast<int>(order.size()) != a.rank()) fail(op, "order must name every dimension");
        std::vector<int64_t> s;
        std::set<int64_t> seen;
        for (auto o : order) {
          if (o < 0 || o >= a.rank() || !seen.insert(o).second)
            fail(op, "order is not a permutation");
          s.push_back(a.shape[o]);
        }
        same(op, a.with_shape(s), rt(op), "result type");
        break;
      }
      case K::Join: {
        count(op, 2, 1);
        same(op, ot(op, 0), ot(op, 1), "operand types");
        auto s = ot(op, 0).shape;
        s.push_back(2);
        same(op, ot(op, 0).with_shape(s), rt(op), "result type");
        break;
      }
      case K::Split: {
        count(op, 1, 2);
        auto s = ot(op, 0).shape;
        if (s.empty() || s.back() != 2) fail(op, "last dimension must be 2");
        s.pop_back();
        same(op, ot(op, 0).with_shape(s), rt(op, 0), "result type");
        same(op, rt(op, 0), rt(op, 1), "result types");
        break;
      }
      case K::Load: {
        if (op.operands.empty() || op.operands.size() > 3 || op.results.size() != 1)
          fail(op, "expects ptr[, mask[, other]] and one result");
        const Type &p = ot(op, 0);
        if (!p.is_ptr()) fail(op, "first operand must be a pointer, got " + p.str());
        if (p.is_block_ptr()) {
          if (op.operands.size() != 1) fail(op, "block-pointer loads take no mask");
          same(op, p.pointee_type(), rt(op), "result type");
        } else {
          same(op, Type(p.pointee, p.shape), rt(op), "result type");
          if (op.operands.size() >= 2) {
            if (!ot(op, 1).is_bool()) fail(op, "mask must be i1");
            same_shape(op, ot(op, 1), p);
          }
          if (op.operands.size() == 3) same(op, ot(op, 2), rt(op), "other type");
        }
        break;
      }
      case K::Store: {
        if (op.operands.size() < 2 || op.operands.size() > 3 || !op.results.empty())
          fail(op, "expects ptr, value[, mask] and no result");
        const Type &p = ot(op, 0);
        if (!p.is_ptr()) fail(op, "first operand must be a pointer");
        if (p.is_block_ptr()) {
          same(op, p.pointee_type(), ot(op, 1), "stored type");
        } else {
          same(op, Type(p.pointee, p.shape), ot(op, 1), "stored type");
          if (op.operands.size() == 3) {
            if (!ot(op, 2).is_bool()) fail(op, "mask must be i1");
            same_shape(op, ot(op, 2), p);
          }
        }
        break;
      }
      case K::AddPtr:
        count(op, 2, 1);
        if (!ot(op, 0).is_ptr() || ot(op, 0).is_block_ptr())
          fail(op, "first operand must be a pointer");
        need_int(op, ot(op, 1));
        same_shape(op, ot(op, 0), ot(op, 1));
        same(op, ot(op, 0), rt(op), "result type");
        break;
      case K::ProgramId:
      case K::NumPrograms: {
        count(op, 0, 1);
        int64_t ax = op.int_attr("axis");
        if (ax < 0 || ax > 2) fail(op, "axis must be 0, 1 or 2");
        same(op, rt(op), Type(Elem::I32), "result type");
        break;
      }
      case K::AddI:
      case K::SubI:
      case K::MulI:
      case K::DivSI:
      case K::DivUI:
      case K::RemSI:
      case K::RemUI:
      case K::AndI:
      case K::OrI:
      case K::XOrI:
      case K::ShLI:
      case K::ShRSI:
      case K::ShRUI:
      case K::MaxSI:
      case K::MinSI:
      case K::MaxUI:
      case K::MinUI:
      case K::MulHiUI:
        count(op, 2, 1);
        need_int(op, ot(op, 0));
        same(op, ot(op, 0), ot(op, 1), "operand types");
        same(op, ot(op, 0), rt(op), "result type");
        break;
      case K::AddF:
      case K::SubF:
      case K::MulF:
      case K::DivF:
      case K::RemF:
      case K::MaximumF:
      case K::MinimumF:
      case K::MaxNumF:
      case K::MinNumF:
        count(op, 2, 1);
        need_float(op, ot(op, 0));
        same(op, ot(op, 0), ot(op, 1), "operand types");
        same(op, ot(op, 0), rt(op), "result type");
        break;
      case K::NegF:
      case K::Exp:
      case K::Exp2:
      case K::Log:
      case K::Log2:
      case K::Sqrt:
      case K::Rsqrt:
      case K::Sin:
      case K::Cos:
      case K::Erf:
      case K::Tanh:
      case K::Floor:
      case K::Ceil:
      case K::AbsF:
        count(op, 1, 1);
        need_float(op, ot(op, 0));
        same(op, ot(op, 0), rt(op), "result type");
        break;
      case K::ExtIntrinsic: {
        const std::string &name = op.str_attr("intrinsic");
        const isa::ExtInsn *insn = compiler::find_ext_intrinsic(name);
        if (!insn) fail(op, compiler::ext_intrinsic_missing(name));
        const int n = compiler::ext_intrinsic_arity(*insn);
        count(op, n, 1);
        if (!ot(op, 0).is_block() || ot(op, 0).elem != Elem::F32)
          fail(op, "expects an fp32 block operand, got " + ot(op, 0).str());
        if (insn->operands == isa::ExtOperands::VV) same(op, ot(op, 0), ot(op, 1), "operand types");
        if (insn->operands == isa::ExtOperands::VF &&
            (ot(op, 1).is_block() || ot(op, 1).elem != Elem::F32))
          fail(op, "expects an fp32 scalar second operand, got " + ot(op, 1).str());
        same(op, ot(op, 0), rt(op), "result type");
        break;
      }
      case K::AbsI:
        count(op, 1, 1);
        need_int(op, ot(op, 0));
        same(op, ot(op, 0), rt(op), "result type");
        break;
      case K::Fma:
        count(op, 3, 1);
        need_float(op, ot(op, 0));
        same(op, ot(op, 0), ot(op, 1), "operand types");
        same(op, ot(op, 0), ot(op, 2), "operand types");
        same(op, ot(op, 0), rt(op), "result type");
        break;
      case K::CmpI:
      case K::CmpF: {
        count(op, 2, 1);
        static const std::set<std::string> ipred = {"eq",  "ne",  "slt", "sle", "sgt",
                                                    "sge", "ult", "ule", "ugt", "uge"};
        static const std::set<std::string> fpred = {"oeq", "one", "olt", "ole", "ogt",
                                                    "oge", "ueq", "une", "ult", "ule",
                                                    "ugt", "uge", "ord", "uno"};
        const std::string &p = op.str_attr("predicate");
        if (op.kind == K::CmpI) {
          if (!ot(op, 0).is_int() && !ot(op, 0).is_ptr()) fail(op, "expects integers or pointers");
          if (!ipred.count(p)) fail(op, "unknown predicate '" + p + "'");
        } else {
          need_float(op, ot(op, 0));
          if (!fpred.count(p)) fail(op, "unknown predicate '" + p + "'");
        }
        same(op, ot(op, 0), ot(op, 1), "operand types");
        same_shape(op, ot(op, 0), rt(op));
        if (rt(op).elem != Elem::I1) fail(op, "result must be i1");
        break;
      }
      case K::Select:
        count(op, 3, 1);
        if (!ot(op, 0).is_bool()) fail(op, "condition must be i1");
        if (ot(op, 0).is_block()) same_shape(op, ot(op, 0), ot(op, 1));
        same(op, ot(op, 1), ot(op, 2), "operand types");
        same(op, ot(op, 1), rt(op), "result type");
        break;
      case K::ExtSI:
      case K::ExtUI:
      case K::TruncI:
        count(op, 1, 1);
        need_int(op, ot(op, 0));
        need_int(op, rt(op));
        same_shape(op, ot(op, 0), rt(op));
        if (op.kind == K::TruncI ? rt(op).bitwidth() >= ot(op, 0).bitwidth()
                                 : rt(op).bitwidth() <= ot(op, 0).bitwidth())
          fail(op, "bit widths do not fit the cast: " + ot(op, 0).str() + " -> " + rt(op).str());
        break;
      case K::SIToFP:
      case K::UIToFP:
        count(op, 1, 1);
        need_int(op, ot(op, 0));
        need_float(op, rt(op));
        same_shape(op, ot(op, 0), rt(op));
        break;
      case K::FPToSI:
      case K::FPToUI:
        count(op, 1, 1);
        need_float(op, ot(op, 0));
        need_int(op, rt(op));
        same_shape(op, ot(op, 0), rt(op));
        break;
      case K::ExtF:
      case K::TruncF:
        count(op, 1, 1);
        need_float(op, ot(op, 0));
        need_float(op, rt(op));
        same_shape(op, ot(op, 0), rt(op));
        break;
      case K::Bitcast:
        count(op, 1, 1);
        same_shape(op, ot(op, 0), rt(op));
        if (ot(op, 0).bitwidth() != rt(op).bitwidth())
          fail(op, "bitcast between different bit widths");
        break;
      case K::IntToPtr:
        count(op, 1, 1);
        if (ot(op, 0).elem != Elem::I64 || !rt(op).is_ptr()) fail(op, "converts i64 to a pointer");
        same_shape(op, ot(op, 0), rt(op));
        break;
      case K::PtrToInt:
        count(op, 1, 1);
        if (!ot(op, 0).is_ptr() || rt(op).elem != Elem::I64) fail(op, "converts a pointer to i64");
        same_shape(op, ot(op, 0), rt(op));
        break;
      case K::Reduce:
      case K::Scan: {
        if (op.operands.empty() || op.operands.size() != op.results.size())
          fail(op, "needs N operands and N results");
        if (op.regions.size() != 1) fail(op, "needs one combine region");
        int64_t ax = op.int_attr("axis");
        const Type &first = ot(op, 0);
        if (ax < 0 || ax >= first.rank()) fail(op, "axis out of range for " + first.str());
        const Block &r = *op.regions[0];
        size_t n = op.operands.size();
        if (r.args.size() != 2 * n)
          fail(op, "combine region needs " + std::to_string(2 * n) + " arguments");
        std::vector<const Type *> want;
        for (size_t i = 0; i < n; ++i) {
          same_shape(op, ot(op, i), first);
          same(op, r.args[i]->type, ot(op, i).scalar(), "combine argument type");
          same(op, r.args[i + n]->type, ot(op, i).scalar(), "combine argument type");
          want.push_back(&r.args[i]->type);
          auto s = ot(op, i).shape;
          if (op.kind == K::Reduce) s.erase(s.begin() + ax);
          same(op, rt(op, i), ot(op, i).with_shape(s), "result type");
        }
        yields(op, r, want, op.kind == K::Reduce ? K::ReduceReturn : K::ScanReturn);
        break;
      }
      case K::ReduceReturn:
      case K::ScanReturn:
      case K::Yield:
      case K::Condition: {
        if (!owner) fail(op, "terminator outside a region");
        break;
      }
      case K::Dot: {
        count(op, 3, 1);
        const Type &a = ot(op, 0), &b = ot(op, 1), &c = ot(op, 2);
        if (a.rank() != 2 || b.rank() != 2 || c.rank() != 2)
          fail(op, "operands must be 2-D blocks");
        if (a.shape[1] != b.shape[0])
          fail(op, "inner dimensions differ: " + a.str() + " x " + b.str());
        if (c.shape != std::vector<int64_t>{a.shape[0], b.shape[1]})
          fail(op, "accumulator shape mismatch");
        if (a.elem != b.elem) fail(op, "operand element types differ");
        same(op, c, rt(op), "result type");
        break;
      }
      case K::AtomicRMW: {
        if (op.operands.size() < 2 || op.operands.size() > 3 || op.results.size() != 1)
          fail(op, "expects ptr, value[, mask] and one result");
        static const std::set<std::string> kinds = {"add",  "fadd", "max", "min", "umax",
                                                    "umin", "xchg", "and", "or",  "xor"};
        if (!kinds.count(op.str_attr("rmw_op")))
          fail(op, "unknown rmw_op '" + op.str_attr("rmw_op") + "'");
        if (!ot(op, 0).is_ptr()) fail(op, "first operand must be a pointer");
        same(op, Type(ot(op, 0).pointee, ot(op, 0).shape), ot(op, 1), "value type");
        same(op, ot(op, 1), rt(op), "result type");
        break;
      }
      case K::AtomicCAS:
        count(op, 3, 1);
        if (!ot(op, 0).is_ptr()) fail(op, "first operand must be a pointer");
        same(op, Type(ot(op, 0).pointee, ot(op, 0).shape), ot(op, 1), "compare type");
        same(op, ot(op, 1), ot(op, 2), "value type");
        same(op, ot(op, 1), rt(op), "result type");
        break;
      case K::MakeTensorPtr: {
        const auto &bs = op.ints_attr("block_shape");
        size_t rank = bs.size();
        if (op.operands.size() != 1 + 3 * rank || op.results.size() != 1)
          fail(op, "expects base, " + std::to_string(rank) + " shapes, strides and offsets");
        if (!ot(op, 0).is_ptr() || ot(op, 0).is_block() || ot(op, 0).is_block_ptr())
          fail(op, "base must be a scalar pointer");
        same(op, rt(op), Type::ptr(ot(op, 0).pointee, bs), "result type");
        for (size_t i = 1; i < op.operands.size(); ++i) {
          if (ot(op, i).is_block()) fail(op, "shape/stride/offset operands must be scalars");
          need_int(op, ot(op, i));
        }
        break;
      }
      case K::Advance:
        if (op.operands.empty() || !ot(op, 0).is_block_ptr() || op.results.size() != 1)
          fail(op, "expects a block pointer");
        if (op.operands.size() != 1 + ot(op, 0).pointee_shape.size())
          fail(op, "one offset per dimension");
        same(op, ot(op, 0), rt(op), "result type");
        break;
      case K::For: {
        if (op.operands.size() < 3 || op.regions.size() != 1)
          fail(op, "expects lb, ub, step, inits and a body");
        size_t n = op.operands.size() - 3;
        if (op.results.size() != n) fail(op, "one result per iter arg");
        need_int(op, ot(op, 0));
        same(op, ot(op, 0), ot(op, 1), "bound types");
        same(op, ot(op, 0), ot(op, 2), "step type");
        const Block &r = *op.regions[0];
        if (r.args.size() != n + 1)
          fail(op, "body needs the induction variable and one arg per iter arg");
        same(op, r.args[0]->type, ot(op, 0), "induction variable type");
        std::vector<const Type *> want;
        for (size_t i = 0; i < n; ++i) {
          same(op, r.args[i + 1]->type, ot(op, i + 3), "iter arg type");
          same(op, rt(op, i), ot(op, i + 3), "result type");
          want.push_back(&rt(op, i));
        }
        yields(op, r, want, K::Yield);
        break;
      }
      case K::If: {
        if (op.operands.size() != 1 || !ot(op, 0).is_bool() || ot(op, 0).is_block())
          fail(op, "condition must be a scalar i1");
        if (op.regions.size() != 2) fail(op, "needs then and else regions");
        std::vector<const Type *> want;
        for (auto &r : op.results) want.push_back(&r->type);
        for (auto &r : op.regions) {
          if (!r->args.empty()) fail(op, "regions take no arguments");
          yields(op, *r, want, K::Yield);
        }
        break;
      }
      case K::While: {
        if (op.regions.size() != 2) fail(op, "needs before and after regions");
        const Block &before = *op.regions[0], &after = *op.regions[1];
        if (before.args.size() != op.operands.size()) fail(op, "before region takes the inits");
        for (size_t i = 0; i < op.operands.size(); ++i)
          same(op, before.args[i]->type, ot(op, i), "init type");
        std::vector<const Type *> want;
        for (auto &r : op.results) want.push_back(&r->type);
        yields(op, before, want, K::Condition);
        const Operation *cond = before.terminator();
        if (!cond->operands[0]->type.is_bool() || cond->operands[0]->type.is_block())
          fail(op, "condition must be a scalar i1");
        if (after.args.size() != op.results.size())
          fail(op, "after region takes the condition's values");
        std::vector<const Type *> inits;
        for (size_t i = 0; i < op.operands.size(); ++i) inits.push_back(&ot(op, i));
        yields(op, after, inits, K::Yield);
        break;
      }
      case K::Call:
        if (op.str_attr("callee").empty()) fail(op, "needs a callee");
        break;
      case K::Return:
        if (owner) fail(op, "tt.return only ends a function body");
        if (op.operands.size() != f_.result_types.size())
          fail(op, "returns the wrong number of values");
        for (size_t i = 0; i < op.operands.size(); ++i)
          same(op, ot(op, i), f_.result_types[i], "return type");
        break;
      case K::Print:
        if (!op.results.empty()) fail(op, "has no results");
        break;
      case K::Assert:
        if (op.operands.size() != 1 || !ot(op, 0).is_bool()) fail(op, "expects one i1 condition");
        break;
      case K::Barrier:
        count(op, 0, 0);
        break;
      case K::AsyncCopy: {  // tl.extra.mtia.async_copy (docs/compiler/mtia-extensions.md)
        if (op.operands.empty() || op.operands.size() > 3 || op.results.size() != 1)
          fail(op, "expects ptr[, mask[, other]] and one result");
        const Type &p = ot(op, 0);
        if (!p.is_ptr() || p.is_block_ptr() || !p.is_block())
          fail(op, "first operand must be a block of pointers, got " + p.str());
        if (op.operands.size() >= 2) {
          if (!ot(op, 1).is_bool()) fail(op, "mask must be i1");
          same_shape(op, ot(op, 1), p);
        }
        if (op.operands.size() == 3) same(op, ot(op, 2), Type(p.pointee, p.shape), "other type");
        same(op, Type(Elem::I64), rt(op), "result type (the token)");
        break;
      }
      case K::AsyncWait:
        count(op, 1, 1);
        same(op, Type(Elem::I64), ot(op, 0), "operand type (a token)");
        if (!rt(op).is_block()) fail(op, "result must be a block, got " + rt(op).str());
        break;
    }
  }
};

}  // namespace

void verify(const Function &f) {
  Verifier v(f);
  v.run();
  const Operation *t = f.body->terminator();
  if (!t || t->kind != OpKind::Return)
    throw Error("ttir verifier: @" + f.name + " must end with 'tt.return'");
}

void verify(const Module &m) {
  for (auto &f : m.functions) verify(*f);
  for (auto &f : m.functions)
    walk_block(*f->body, [&](Operation &op) {
      if (op.kind != OpKind::Call) return;
      Function *callee = m.find(op.str_attr("callee"));
      if (!callee) throw Error("ttir verifier: call to unknown function @" + op.str_attr("callee"));
      if (callee->body->args.size() != op.operands.size())
        throw Error("ttir verifier: call to @" + callee->name +
                    " passes the wrong number of arguments");
      for (size_t i = 0; i < op.operands.size(); ++i)
        if (!(callee->body->args[i]->type == op.operands[i]->type))
          throw Error("ttir verifier: call to @" + callee->name + ": argument " +
                      std::to_string(i) + " type mismatch");
      if (callee->result_types.size() != op.results.size())
        throw Error("ttir verifier: call to @" + callee->name + " has the wrong number of results");
    });
}

}  // namespace opforge::ttir
