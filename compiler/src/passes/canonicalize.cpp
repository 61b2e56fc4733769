//===- canonicalize.cpp - simplify ops to canonical forms -----------------===//
#include <cmath>

#include "opforge/compiler/passes.h"

namespace opforge::ttir {

namespace {

std::optional<double> const_value(const Value *v) {
  if (!v->def || v->def->kind != OpKind::Constant) return std::nullopt;
  return v->def->float_attr("value");
}
bool is_const(const Value *v, double x) {
  auto c = const_value(v);
  return c && *c == x && !(x == 0 && std::signbit(*c));
}
bool is_all_ones(const Value *v) {
  auto c = const_value(v);
  if (!c) return false;
  if (v->type.is_bool()) return *c != 0;
  return *c == -1;
}

struct Canon {
  std::map<Value *, Value *> repl;
  bool changed = false;

  void replace(Operation &op, Value *with) {
    repl[op.result(0)] = with;
    changed = true;
  }

  // Returns true if the op was replaced by values (and should be dropped).
  bool simplify(Operation &op) {
    using K = OpKind;
    auto a = [&](size_t i) { return op.operands[i]; };
    if (op_is_commutative(op.kind) && op.operands.size() == 2 && const_value(a(0)) &&
        !const_value(a(1))) {
      std::swap(op.operands[0], op.operands[1]);
      changed = true;
    }
    switch (op.kind) {
      case K::AddI:
      case K::SubI:
      case K::OrI:
      case K::XOrI:
      case K::ShLI:
      case K::ShRSI:
      case K::ShRUI:
        if (is_const(a(1), 0)) return replace(op, a(0)), true;
        break;
      case K::AddF:
        // x + (-0.0) == x for every x; x + 0.0 is not (-0.0 + 0.0 = +0.0).
        if (auto c = const_value(a(1)); c && *c == 0 && std::signbit(*c))
          return replace(op, a(0)), true;
        break;
      case K::SubF:
        if (is_const(a(1), 0)) return replace(op, a(0)), true;
        break;
      case K::MulI:
      case K::DivSI:
      case K::DivUI:
        if (is_const(a(1), 1)) return replace(op, a(0)), true;
        break;
      case K::MulF:
      case K::DivF:
        if (is_const(a(1), 1)) return replace(op, a(0)), true;
        break;
      case K::AndI:
        if (is_all_ones(a(1))) return replace(op, a(0)), true;
        if (a(0) == a(1)) return replace(op, a(0)), true;
        break;
      case K::AddPtr:
        if (is_const(a(1), 0)) return replace(op, a(0)), true;
        break;
      case K::Broadcast:
      case K::Reshape:
        if (a(0)->type == op.results[0]->type) return replace(op, a(0)), true;
        break;
      case K::Trans: {
        const auto &o = op.ints_attr("order");
        bool identity = true;
        for (size_t i = 0; i < o.size(); ++i)
          identity = identity && o[i] == static_cast<int64_t>(i);
        if (identity) return replace(op, a(0)), true;
        break;
      }
      case K::Splat:
        if (a(0)->def && a(0)->def->kind == K::Splat) {
          op.operands[0] = a(0)->def->operands[0];
          changed = true;
        }
        break;
      case K::Select:
        if (a(1) == a(2)) return replace(op, a(1)), true;
        if (auto c = const_value(a(0)); c && !a(0)->type.is_block())
          return replace(op, *c != 0 ? a(1) : a(2)), true;
        if (auto c = const_value(a(0)); c) return replace(op, *c != 0 ? a(1) : a(2)), true;
        break;
      case K::ExtF:
      case K::TruncF:
      case K::ExtSI:
      case K::ExtUI:
      case K::TruncI:
        // ext then trunc back to the original type cancels.
        if ((op.kind == K::TruncF || op.kind == K::TruncI) && a(0)->def &&
            (a(0)->def->kind == K::ExtF || a(0)->def->kind == K::ExtSI ||
             a(0)->def->kind == K::ExtUI) &&
            a(0)->def->operands[0]->type == op.results[0]->type)
          return replace(op, a(0)->def->operands[0]), true;
        break;
      default:
        break;
    }
    return false;
  }

  void block(Block &b) {
    std::vector<std::unique_ptr<Operation>> kept;
    for (size_t i = 0; i < b.ops.size(); ++i) {
      auto &opp = b.ops[i];
      for (auto &o : opp->operands)
        for (int g = 0; g < 64 && repl.count(o); ++g) o = repl[o];
      // scf.if on a constant condition: splice the taken region.
      if (opp->kind == OpKind::If && const_value(opp->operands[0])) {
        Block &taken = *opp->regions[*const_value(opp->operands[0]) != 0 ? 0 : 1];
        Operation *y = taken.terminator();
        for (size_t r = 0; r < opp->results.size(); ++r) repl[opp->result(r)] = y->operands[r];
        for (auto &inner : taken.ops) {
          if (inner.get() == y) continue;
          for (auto &o : inner->operands)
            for (int g = 0; g < 64 && repl.count(o); ++g) o = repl[o];
          for (auto &r : inner->regions) block(*r);
          inner->parent = &b;
          kept.push_back(std::move(inner));
        }
        changed = true;
        continue;
      }
      // scf.for with a constant empty range: results are the inits.
      if (opp->kind == OpKind::For) {
        auto lb = const_value(opp->operands[0]), ub = const_value(opp->operands[1]);
        if (lb && ub && *lb >= *ub) {
          for (size_t r = 0; r < opp->results.size(); ++r)
            repl[opp->result(r)] = opp->operands[3 + r];
          changed = true;
          continue;
        }
      }
      for (auto &r : opp->regions) block(*r);
      if (opp->results.size() == 1 && simplify(*opp)) continue;
      kept.push_back(std::move(opp));
    }
    b.ops = std::move(kept);
  }
};

}  // namespace

bool canonicalize(Module &m) {
  bool changed = false;
  for (auto &f : m.functions) {
    for (int round = 0; round < 16; ++round) {
      Canon c;
      c.block(*f->body);
      replace_uses(*f->body, c.repl);
      if (!c.changed) break;
      changed = true;
    }
  }
  return changed;
}

}  // namespace opforge::ttir
