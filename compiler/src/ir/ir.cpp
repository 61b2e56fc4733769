//===- ir.cpp - ttir core: op table, blocks, operations, cloning ----------===//
#include "opforge/compiler/ir.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "opforge/support/error.h"

namespace opforge::ttir {

namespace {
struct OpRow {
  std::string_view name;
  bool pure;
};
const OpRow kOps[] = {
#define OPFORGE_X(e, n, p) {n, p},
    OPFORGE_TTIR_OPS(OPFORGE_X)
#undef OPFORGE_X
};
}  // namespace

std::string_view op_name(OpKind k) { return kOps[static_cast<size_t>(k)].name; }
bool op_is_pure(OpKind k) { return kOps[static_cast<size_t>(k)].pure; }

std::optional<OpKind> op_kind_from_name(std::string_view name) {
  for (size_t i = 0; i < sizeof(kOps) / sizeof(kOps[0]); ++i)
    if (kOps[i].name == name) return static_cast<OpKind>(i);
  return std::nullopt;
}

bool op_is_terminator(OpKind k) {
  return k == OpKind::Yield || k == OpKind::Condition || k == OpKind::Return ||
         k == OpKind::ReduceReturn || k == OpKind::ScanReturn;
}

bool op_is_commutative(OpKind k) {
  switch (k) {
    case OpKind::AddI:
    case OpKind::AddF:
    case OpKind::MulI:
    case OpKind::MulF:
    case OpKind::AndI:
    case OpKind::OrI:
    case OpKind::XOrI:
    case OpKind::MaxSI:
    case OpKind::MinSI:
    case OpKind::MaxUI:
    case OpKind::MinUI:
    case OpKind::MaximumF:
    case OpKind::MinimumF:
    case OpKind::MaxNumF:
    case OpKind::MinNumF:
    case OpKind::MulHiUI:
      return true;
    default:
      return false;
  }
}

std::string attr_str(const Attr &a) {
  if (auto *i = std::get_if<int64_t>(&a)) return std::to_string(*i);
  if (auto *d = std::get_if<double>(&a)) {
    if (std::isnan(*d)) return std::signbit(*d) ? "-nan" : "nan";
    if (std::isinf(*d)) return *d < 0 ? "-inf" : "inf";
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.17g", *d);
    std::string s = buf;
    // Shortest text that reads back to the same double.
    for (int prec = 1; prec <= 17; ++prec) {
      std::snprintf(buf, sizeof buf, "%.*g", prec, *d);
      if (std::strtod(buf, nullptr) == *d) {
        s = buf;
        break;
      }
    }
    if (s.find_first_of(".e") == std::string::npos) s += ".0";
    return s;
  }
  if (auto *b = std::get_if<bool>(&a)) return *b ? "true" : "false";
  if (auto *s = std::get_if<std::string>(&a)) {
    std::string out = "\"";
    for (char c : *s) {
      if (c == '"' || c == '\\') out += '\\';
      if (c == '\n') {
        out += "\\n";
        continue;
      }
      out += c;
    }
    return out + "\"";
  }
  const auto &v = std::get<std::vector<int64_t>>(a);
  std::string s = "[";
  for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + std::to_string(v[i]);
  return s + "]";
}

Value *Block::add_arg(Type t, std::string name) {
  auto v = std::make_unique<Value>();
  v->type = std::move(t);
  v->owner = this;
  v->index = static_cast<int>(args.size());
  v->name = std::move(name);
  args.push_back(std::move(v));
  return args.back().get();
}

Operation *Block::terminator() const {
  if (ops.empty() || !op_is_terminator(ops.back()->kind)) return nullptr;
  return ops.back().get();
}

Value *Operation::add_result(Type t) {
  auto v = std::make_unique<Value>();
  v->type = std::move(t);
  v->def = this;
  v->index = static_cast<int>(results.size());
  results.push_back(std::move(v));
  return results.back().get();
}

Block *Operation::add_region() {
  regions.push_back(std::make_unique<Block>());
  regions.back()->parent = this;
  return regions.back().get();
}

static const Attr &need_attr(const Operation &op, const std::string &n) {
  auto it = op.attrs.find(n);
  if (it == op.attrs.end()) throw Error(op.describe() + ": missing attribute '" + n + "'");
  return it->second;
}

int64_t Operation::int_attr(const std::string &n) const {
  const Attr &a = need_attr(*this, n);
  if (auto *i = std::get_if<int64_t>(&a)) return *i;
  if (auto *b = std::get_if<bool>(&a)) return *b;
  throw Error(describe() + ": attribute '" + n + "' must be an integer");
}
double Operation::float_attr(const std::string &n) const {
  const Attr &a = need_attr(*this, n);
  if (auto *d = std::get_if<double>(&a)) return *d;
  if (auto *i = std::get_if<int64_t>(&a)) return static_cast<double>(*i);
  if (auto *b = std::get_if<bool>(&a)) return *b ? 1.0 : 0.0;
  throw Error(describe() + ": attribute '" + n + "' must be a number");
}
bool Operation::bool_attr(const std::string &n, bool dflt) const {
  auto it = attrs.find(n);
  if (it == attrs.end()) return dflt;
  if (auto *b = std::get_if<bool>(&it->second)) return *b;
  if (auto *i = std::get_if<int64_t>(&it->second)) return *i != 0;
  throw Error(describe() + ": attribute '" + n + "' must be a bool");
}
const std::string &Operation::str_attr(const std::string &n) const {
  const Attr &a = need_attr(*this, n);
  if (auto *s = std::get_if<std::string>(&a)) return *s;
  throw Error(describe() + ": attribute '" + n + "' must be a string");
}
const std::vector<int64_t> &Operation::ints_attr(const std::string &n) const {
  const Attr &a = need_attr(*this, n);
  if (auto *v = std::get_if<std::vector<int64_t>>(&a)) return *v;
  throw Error(describe() + ": attribute '" + n + "' must be an integer list");
}

std::string Operation::describe() const {
  std::string s = "'" + std::string(op_name(kind)) + "'";
  if (loc.line > 0) {
    s += " at ";
    if (!loc.file.empty()) s += loc.file + ":";
    s += std::to_string(loc.line) + ":" + std::to_string(loc.col);
  }
  return s;
}

static void number_block(Block &b, int &next) {
  for (auto &a : b.args) a->id = next++;
  for (auto &op : b.ops) {
    for (auto &r : op->regions) number_block(*r, next);
    for (auto &res : op->results) res->id = next++;
  }
}

int Function::number_values() {
  int next = 0;
  number_block(*body, next);
  return next;
}

Function *Module::find(std::string_view n) const {
  for (auto &f : functions)
    if (f->name == n) return f.get();
  return nullptr;
}
Function *Module::add_function(std::string n) {
  functions.push_back(std::make_unique<Function>());
  functions.back()->name = std::move(n);
  return functions.back().get();
}

void replace_uses(Block &b, const std::map<Value *, Value *> &map) {
  if (map.empty()) return;
  walk_block(b, [&](Operation &op) {
    for (auto &o : op.operands) {
      // Follow chains (a -> b -> c) so batched replacements compose.
      for (int guard = 0; guard < 64; ++guard) {
        auto it = map.find(o);
        if (it == map.end() || it->second == o) break;
        o = it->second;
      }
    }
  });
}

std::unique_ptr<Operation> clone_op(const Operation &op, std::map<Value *, Value *> &map) {
  auto c = std::make_unique<Operation>(op.kind);
  c->attrs = op.attrs;
  c->loc = op.loc;
  for (Value *o : op.operands) {
    auto it = map.find(o);
    c->operands.push_back(it == map.end() ? o : it->second);
  }
  for (auto &r : op.regions) {
    Block *nb = c->add_region();
    for (auto &a : r->args) map[a.get()] = nb->add_arg(a->type, a->name);
    for (auto &inner : r->ops) {
      auto ci = clone_op(*inner, map);
      ci->parent = nb;
      nb->ops.push_back(std::move(ci));
    }
  }
  for (auto &r : op.results) {
    Value *nr = c->add_result(r->type);
    map[r.get()] = nr;
  }
  return c;
}

std::map<const Value *, int> count_uses(Block &b) {
  std::map<const Value *, int> uses;
  walk_block(b, [&](Operation &op) {
    for (Value *o : op.operands) ++uses[o];
  });
  return uses;
}

}  // namespace opforge::ttir
