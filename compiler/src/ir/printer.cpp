//===- printer.cpp - print ttir in its textual form -----------------------===//
#include <cctype>
#include <set>
#include <sstream>

#include "opforge/compiler/ir_printer.h"

namespace opforge::ttir {
namespace {

struct Printer {
  std::ostringstream os;
  std::map<const Value *, std::string> names;
  int next = 0;

  std::string name(const Value *v) {
    auto it = names.find(v);
    if (it != names.end()) return it->second;
    return "%<undefined>";
  }
  std::string fresh(const Value *v) {
    std::string n = "%" + std::to_string(next++);
    names[v] = n;
    return n;
  }
  void indent(int depth) {
    for (int i = 0; i < depth; ++i) os << "  ";
  }
  void block(const Block &b, int depth) {
    if (!b.args.empty()) {
      indent(depth - 1);
      os << "^bb(";
      for (size_t i = 0; i < b.args.size(); ++i) {
        if (i) os << ", ";
        os << fresh(b.args[i].get()) << ": " << b.args[i]->type.str();
      }
      os << "):\n";
    }
    for (auto &op : b.ops) operation(*op, depth);
  }
  void operation(const Operation &op, int depth) {
    indent(depth);
    // Results are named after the regions so numbering follows textual order
    // of definitions; reserve the names now to print them first.
    std::vector<std::string> res;
    for (auto &r : op.results) res.push_back(fresh(r.get()));
    for (size_t i = 0; i < res.size(); ++i) os << (i ? ", " : "") << res[i];
    if (!res.empty()) os << " = ";
    os << op_name(op.kind);
    for (size_t i = 0; i < op.operands.size(); ++i) os << (i ? ", " : " ") << name(op.operands[i]);
    if (!op.attrs.empty()) {
      os << " {";
      bool first = true;
      for (auto &[k, v] : op.attrs) {
        os << (first ? "" : ", ") << k << " = " << attr_str(v);
        first = false;
      }
      os << "}";
    }
    if (!op.results.empty()) {
      os << " :";
      for (size_t i = 0; i < op.results.size(); ++i)
        os << (i ? ", " : " ") << op.results[i]->type.str();
    }
    if (!op.regions.empty()) {
      os << " {\n";
      for (size_t i = 0; i < op.regions.size(); ++i) {
        if (i) {
          indent(depth);
          os << "} {\n";
        }
        block(*op.regions[i], depth + 1);
      }
      indent(depth);
      os << "}";
    }
    os << "\n";
  }
  void function(const Function &f) {
    next = 0;
    std::set<std::string> used;
    os << "tt.func @" << f.name << "(";
    for (size_t i = 0; i < f.body->args.size(); ++i) {
      const Value *a = f.body->args[i].get();
      std::string n = a->name;
      bool ok = !n.empty() && !std::isdigit(static_cast<unsigned char>(n[0]));
      for (char c : n) ok = ok && (std::isalnum(static_cast<unsigned char>(c)) || c == '_');
      if (!ok || used.count(n)) n = "arg" + std::to_string(i);
      used.insert(n);
      names[a] = "%" + n;
      os << (i ? ", " : "") << "%" << n << ": " << a->type.str();
    }
    os << ")";
    if (!f.result_types.empty()) {
      os << " -> (";
      for (size_t i = 0; i < f.result_types.size(); ++i)
        os << (i ? ", " : "") << f.result_types[i].str();
      os << ")";
    }
    os << " {\n";
    for (auto &op : f.body->ops) operation(*op, 1);
    os << "}\n";
  }
};

}  // namespace

std::string print(const Function &f) {
  Printer p;
  p.function(f);
  return p.os.str();
}

std::string print(const Module &m) {
  std::string s;
  for (size_t i = 0; i < m.functions.size(); ++i) {
    if (i) s += "\n";
    s += print(*m.functions[i]);
  }
  return s;
}

}  // namespace opforge::ttir
