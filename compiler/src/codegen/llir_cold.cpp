//===- llir_cold.cpp - cold fallback paths outlined into functions LLVM does not optimize ===//
//
// A fallback that almost never runs (the element copy of a rectangle-masked
// tile whose index sequence wraps, llir_rect.cpp) still costs LLVM the full
// -O2 middle end and code generator: in a masked matmul those paths were
// about 30% of the compile time. cold() emits such a path into its own
// function, marked `noinline optnone`: the middle end skips it and the code
// generator selects instructions for it at -O0. The path's free SSA values
// (defined before it in the kernel) become the function's parameters, under
// the same names, with the types read from their definitions; when a type
// cannot be read the path stays inline (its loops still marked not to
// vectorize).
//
//===----------------------------------------------------------------------===//
#include <algorithm>
#include <regex>
#include <set>

#include "llir_emitter.h"

namespace opforge::compiler::llir {

namespace {

// The type token of `s` at `at` (a `<...>` vector type or one word).
std::string type_at(const std::string &s, size_t at) {
  if (at >= s.size()) return "";
  if (s[at] == '<') {
    size_t end = s.find('>', at);
    return end == std::string::npos ? "" : s.substr(at, end - at + 1);
  }
  size_t end = s.find_first_of(" ,", at);
  return s.substr(at, end == std::string::npos ? std::string::npos : end - at);
}

// Skips instruction flags (nsw, fast, ...) after the opcode.
size_t skip_flags(const std::string &s, size_t at) {
  static const std::set<std::string> flags = {"nsw",     "nuw",  "exact",   "fast",     "nnan",
                                              "ninf",    "nsz",  "arcp",    "contract", "afn",
                                              "reassoc", "tail", "disjoint"};
  while (at < s.size()) {
    size_t end = s.find(' ', at);
    if (end == std::string::npos || !flags.count(s.substr(at, end - at))) break;
    at = end + 1;
  }
  return at;
}

// The type of the value an instruction's right-hand side defines ("" when
// it is not one of the forms read here).
std::string result_type(const std::string &rhs) {
  size_t sp = rhs.find(' ');
  if (sp == std::string::npos) return "";
  const std::string op = rhs.substr(0, sp);
  static const std::set<std::string> casts = {
      "sext",   "zext",   "trunc",   "fpext",    "fptrunc",  "sitofp",       "uitofp",
      "fptosi", "fptoui", "bitcast", "ptrtoint", "inttoptr", "addrspacecast"};
  static const std::set<std::string> typed = {
      "add", "sub", "mul",  "sdiv", "udiv", "srem", "urem", "shl",  "lshr",   "ashr", "and",
      "or",  "xor", "fadd", "fsub", "fmul", "fdiv", "frem", "fneg", "freeze", "phi",  "load"};
  if (op == "icmp" || op == "fcmp") {
    size_t pred_end = rhs.find(' ', skip_flags(rhs, sp + 1));
    std::string t = pred_end == std::string::npos ? "" : type_at(rhs, pred_end + 1);
    return t.empty() || t[0] == '<' ? "" : "i1";
  }
  if (op == "getelementptr" || op == "alloca") return "ptr";
  if (casts.count(op)) {
    size_t to = rhs.rfind(" to ");
    return to == std::string::npos ? "" : type_at(rhs, to + 4);
  }
  if (typed.count(op)) return type_at(rhs, skip_flags(rhs, sp + 1));
  if (op == "select") {
    size_t comma = rhs.find(", ");
    return comma == std::string::npos ? "" : type_at(rhs, comma + 2);
  }
  if (op == "call") {
    std::string t = type_at(rhs, skip_flags(rhs, sp + 1));
    return t == "void" ? "" : t;
  }
  return "";
}

}  // namespace

void Emitter::cold(const std::function<void()> &body) {
  const bool was = cold_loops_;
  cold_loops_ = true;
  std::ostringstream region, region_allocas;
  std::swap(code_, region);
  std::swap(allocas_, region_allocas);
  body();
  std::swap(code_, region);
  std::swap(allocas_, region_allocas);
  cold_loops_ = was;
  const std::string text = region.str(), allocas = region_allocas.str();
  auto inline_it = [&] {
    code_ << text;
    allocas_ << allocas;
  };

  // Names the path defines (values, its allocas, its labels) and uses.
  static const std::regex def_re(R"(^  (%[A-Za-z0-9_.]+) = )");
  static const std::regex label_re(R"(^([A-Za-z0-9_.]+):$)");
  static const std::regex use_re(R"(%[A-Za-z_][A-Za-z0-9_.]*)");
  std::set<std::string> defined, used;
  for (const std::string *part : {&allocas, &text}) {
    std::istringstream lines(*part);
    for (std::string l; std::getline(lines, l);) {
      l = l.substr(0, l.find(", !dbg !"));  // the line table's suffix names no value
      std::smatch m;
      if (std::regex_search(l, m, def_re)) defined.insert(m[1].str());
      if (std::regex_match(l, m, label_re)) defined.insert("%" + m[1].str());
      for (auto it = std::sregex_iterator(l.begin(), l.end(), use_re); it != std::sregex_iterator();
           ++it)
        used.insert(it->str());
    }
  }
  // The free values' types, from their definitions in the kernel so far.
  const std::string kernel = code_.str(), kernel_allocas = allocas_.str();
  std::vector<std::pair<std::string, std::string>> params;  // type, name
  for (const std::string &name : used) {
    if (defined.count(name)) continue;
    std::string type;
    if (name == "%args" || kernel_allocas.find("  " + name + " = alloca ") != std::string::npos) {
      type = "ptr";
    } else {
      size_t at = kernel.find("  " + name + " = ");
      if (at != std::string::npos) {
        size_t start = at + name.size() + 5, end = kernel.find('\n', start);
        end = std::min(end, kernel.find(", !dbg ", start));
        type = result_type(kernel.substr(start, end - start));
      }
    }
    if (type.empty()) return inline_it();
    params.push_back({type, name});
  }
  const std::string fn = "__opforge_cold_" + std::to_string(cold_functions_.size());
  std::string args;
  for (auto &[type, name] : params) args += (args.empty() ? "" : ", ") + type + " " + name;
  // With the line table: a subprogram of its own, its instructions' lines moved there.
  std::string sp, fn_text = text;
  if (line_table_) {
    int id = dbg_subprogram(fn, fn, def_line_);
    sp = " !dbg !" + std::to_string(id);
    fn_text = dbg_rescope(text, id);
  }
  cold_functions_.push_back("define internal void @" + fn + "(" + args +
                            ") noinline optnone nounwind \"no-builtins\"" + sp + " {\nentry:\n" +
                            allocas + "  br label %cold\ncold:\n" + fn_text + "  ret void\n}\n");
  line("call void @" + fn + "(" + args + ")");
}

}  // namespace opforge::compiler::llir
