//===- module_text.cpp - the module-level layout of a TorchInductor module -===//
#include "module_text.h"

#include <regex>
#include <set>

namespace opforge::compiler::inductor_detail {

namespace {

std::string trim(const std::string &s) {
  size_t b = s.find_first_not_of(" \t\r");
  if (b == std::string::npos) return {};
  size_t e = s.find_last_not_of(" \t\r");
  return s.substr(b, e - b + 1);
}

int indent_of(const std::string &s) {
  int n = 0;
  while (n < static_cast<int>(s.size()) && s[static_cast<size_t>(n)] == ' ') ++n;
  return n;
}

bool starts_with(const std::string &s, const std::string &p) { return s.rfind(p, 0) == 0; }

// Modules an Inductor output module imports at its top level.
bool known_module(const std::string &m) {
  static const std::set<std::string> exact = {"torch",           "math",
                                              "random",          "os",
                                              "tempfile",        "ctypes",
                                              "cmath",           "triton",
                                              "triton.language", "opforge.inductor",
                                              "torch._C"};
  return exact.count(m) || starts_with(m, "torch._inductor") || starts_with(m, "torch._dynamo") ||
         starts_with(m, "torch._C.");
}

// What a module-level name imported from `mod` is bound to.
std::string import_binding(const std::string &mod, const std::string &name) {
  if (name == "get_raw_stream" || name == "_cuda_getCurrentRawStream")
    return "builtin:ext.get_raw_stream";
  if (mod == "torch" && name == "empty_strided") return "builtin:ext.empty_strided";
  if (mod == "torch" && name == "device") return "builtin:ext.device";
  if (name == "extern_kernels") return "module:ext.extern_kernels";
  if (name == "assert_tensor_metadata") return "builtin:ext.assert_tensor_metadata";
  if (name == "rand_strided") return "builtin:ext.rand_strided";
  if (mod == "math" && (name == "inf" || name == "nan")) return "float:" + name;
  return "unavailable:" + mod + "." + name;
}

// The binding of `NAME = RHS` at the top level ("" when RHS is not an alias we know).
std::string alias_binding(const std::string &rhs) {
  static const std::string guards = "torch._C._dynamo.guards.";
  if (starts_with(rhs, guards)) {
    std::string n = rhs.substr(guards.size());
    if (n == "assert_size_stride" || n == "assert_size_stride_grouped" || n == "assert_alignment")
      return "builtin:ext." + n;
    if (n == "_reinterpret_tensor") return "builtin:ext.reinterpret_tensor";
    if (starts_with(n, "_empty_strided_")) return "builtin:ext.empty_strided";
    return "unavailable:" + rhs;
  }
  if (rhs == "torch.ops.inductor._alloc_from_pool") return "builtin:ext.alloc_from_pool";
  if (std::regex_match(rhs, std::regex(R"(torch\.ops\.[A-Za-z_][A-Za-z_0-9]*)")))
    return "module:" + rhs;
  if (starts_with(rhs, "torch._C.")) return "unavailable:" + rhs;
  return {};
}

struct Scanner {
  std::shared_ptr<const SourceFile> src;
  std::vector<std::string> lines;  // 0-based copies of the module's lines
  std::vector<std::string> out;    // the text the parser reads
  ScannedModule result;

  [[noreturn]] void fail(int line, const std::string &msg, int col = 1) const {
    SourceLoc loc;
    loc.line = line;
    loc.col = col;
    loc.end_line = line;
    loc.end_col = static_cast<int>(lines[static_cast<size_t>(line - 1)].size()) + 1;
    throw CompileError::at(*src, loc, msg);
  }

  // Index (0-based) one past the block that starts after line i (lines indented more than
  // `indent`, blank and comment lines inside).
  size_t block_end(size_t i, int indent) const {
    size_t j = i + 1, last = i;
    for (; j < lines.size(); ++j) {
      std::string t = trim(lines[j]);
      if (t.empty() || t[0] == '#') continue;
      if (indent_of(lines[j]) <= indent) break;
      last = j;
    }
    return last + 1;
  }

  void bind(const std::string &name, const std::string &what) {
    result.bindings.push_back({name, what});
  }

  void import_line(size_t i, const std::string &t) {
    int line = static_cast<int>(i + 1);
    std::smatch m;
    if (std::regex_match(t, m, std::regex(R"(import ([A-Za-z_][\w.]*)(?: as (\w+))?)"))) {
      std::string mod = m[1], as = m[2];
      if (!known_module(mod))
        fail(line, "Inductor module: import of module '" + mod +
                       "' is not supported (the interpreter knows torch, triton, math and the "
                       "torch._inductor names; docs/compiler/inductor.md)");
      if (!as.empty())
        bind(as, "module:" + mod);
      else
        bind(mod.substr(0, mod.find('.')), "module:" + mod.substr(0, mod.find('.')));
      return;
    }
    if (std::regex_match(t, m, std::regex(R"(from ([A-Za-z_][\w.]*) import (.+))"))) {
      std::string mod = m[1];
      if (!known_module(mod))
        fail(line, "Inductor module: import from module '" + mod + "' is not supported");
      std::string names = m[2];
      std::regex item(R"(\s*(\w+)(?:\s+as\s+(\w+))?\s*)");
      size_t pos = 0;
      while (pos <= names.size()) {
        size_t comma = names.find(',', pos);
        std::string part =
            names.substr(pos, comma == std::string::npos ? std::string::npos : comma - pos);
        std::smatch pm;
        if (!std::regex_match(part, pm, item))
          fail(line, "Inductor module: cannot read the import list '" + names + "'");
        std::string name = pm[1], as = pm[2];
        bind(as.empty() ? name : as, import_binding(mod, name));
        if (comma == std::string::npos) break;
        pos = comma + 1;
      }
      return;
    }
    fail(line, "Inductor module: unsupported import statement");
  }

  // `NAME = async_compile.triton('NAME', '''` ... `''', device_str='...')`: the source lines
  // stay where they are. Returns the index after the closing line.
  size_t kernel_def(size_t i, const std::string &var, const std::string &rest) {
    int line = static_cast<int>(i + 1);
    std::smatch m;
    if (!std::regex_match(rest, m, std::regex(R"(async_compile\.triton\(\s*'(\w+)'\s*,\s*'''\s*)")))
      fail(line,
           "Inductor module: a kernel definition must read NAME = async_compile.triton('NAME', "
           "''' (the source on the following lines)");
    ScannedKernel k{var, m[1], line};
    size_t j = i + 1;
    for (; j < lines.size(); ++j)
      if (starts_with(trim(lines[j]), "'''")) break;
    if (j == lines.size())
      fail(line, "Inductor module: kernel '" + k.name + "' source has no end (''')");
    std::string close = trim(lines[j]);
    if (!std::regex_match(close, std::regex(R"(''',?\s*(device_str\s*=\s*'\w+'\s*)?\))")))
      fail(static_cast<int>(j + 1),
           "Inductor module: kernel '" + k.name + "': unexpected text after the source: " + close);
    for (size_t l = i + 1; l < j; ++l) {
      std::string t = trim(lines[l]);
      if (t == "triton_helpers.set_driver_to_gpu()") continue;
      out[l] = lines[l];
    }
    k.end_line = static_cast<int>(j + 1);
    if (var != k.name) bind(var, "kernel:" + k.name);
    result.kernels.push_back(k);
    return j + 1;
  }

  // The `call(self, args)` method of class Runner, as `def call(args):` at the top level; its
  // body keeps its indentation (and so the module's columns in errors).
  void call_method(size_t i, size_t end) {
    int body_indent = -1;
    std::vector<std::string> pending;
    for (size_t l = i + 1; l < end; ++l) {
      const std::string &s = lines[l];
      std::string t = trim(s);
      int line = static_cast<int>(l + 1);
      if (t.empty()) continue;
      if (t[0] == '#') {
        size_t p = t.find("Original ATen: [");
        if (p != std::string::npos) {
          size_t q = t.find(']', p);
          std::string list =
              t.substr(p + 16, q == std::string::npos ? std::string::npos : q - p - 16);
          pending.clear();
          size_t pos = 0;
          while (pos < list.size()) {
            size_t c = list.find(',', pos);
            std::string n =
                trim(list.substr(pos, c == std::string::npos ? std::string::npos : c - pos));
            if (!n.empty()) pending.push_back(n);
            if (c == std::string::npos) break;
            pos = c + 1;
          }
        }
        continue;
      }
      int ind = indent_of(s);
      if (body_indent < 0) body_indent = ind;
      std::string lead(static_cast<size_t>(ind), ' ');  // columns stay the module's
      if (starts_with(t, "del ")) {
        // del a, b -> _opforge_del_('a', 'b'): unbinds the names, frees what they held last.
        std::string names = trim(t.substr(4)), call;
        size_t pos = 0;
        while (pos <= names.size()) {
          size_t c = names.find(',', pos);
          std::string n =
              trim(names.substr(pos, c == std::string::npos ? std::string::npos : c - pos));
          if (!std::regex_match(n, std::regex(R"([A-Za-z_]\w*)")))
            fail(line, "Inductor module: unsupported 'del' target '" + n + "' in call()", ind + 1);
          call += (call.empty() ? "'" : ", '") + n + "'";
          if (c == std::string::npos) break;
          pos = c + 1;
        }
        out[l] = lead + "_opforge_del_(" + call + ")";
        continue;
      }
      if (starts_with(t, "with ")) {
        if (!std::regex_match(
                t, std::regex(R"(with torch\.(opforge|cuda|mtia|xpu)\._DeviceGuard\(\d+\):)")))
          fail(line,
               "Inductor module: unsupported construct 'with' in call() (only "
               "torch.<device>._DeviceGuard(i) is known)",
               ind + 1);
        out[l] = lead + "if True:";
        continue;
      }
      std::string stmt = s;
      size_t d = stmt.find("; del ");
      if (d != std::string::npos) {
        // X = E; del Y  # reuse -> X = _opforge_del_after_(E, 'Y'): E first, then the del.
        std::smatch m;
        std::string first = stmt.substr(0, d), names = stmt.substr(d + 6);
        names = trim(names.substr(0, names.find('#')));
        if (!std::regex_match(first, m, std::regex(R"((\s*[A-Za-z_]\w*\s*=\s*)(.+))")) ||
            !std::regex_match(names, std::regex(R"([A-Za-z_]\w*(\s*,\s*[A-Za-z_]\w*)*)")))
          fail(line, "Inductor module: unsupported statement with '; del' in call()", ind + 1);
        std::string quoted =
            "'" + std::regex_replace(names, std::regex(R"(\s*,\s*)"), "', '") + "'";
        stmt = std::string(m[1]) + "_opforge_del_after_(" + std::string(m[2]) + ", " + quoted + ")";
      }
      out[l] = stmt;
      if (t.find(".run(") != std::string::npos || t.find("extern_kernels.") != std::string::npos ||
          t.find("aten.") != std::string::npos || t.find("torch.ops.") != std::string::npos) {
        result.aten_nodes[line] = pending;
        pending.clear();
      }
    }
  }

  void runner_class(size_t i, size_t end) {
    for (size_t l = i + 1; l < end; ++l) {
      std::string t = trim(lines[l]);
      if (!starts_with(t, "def ")) continue;
      int ind = indent_of(lines[l]);
      size_t e = block_end(l, ind);
      if (std::regex_match(t, std::regex(R"(def call\(self,\s*args\):)"))) {
        out[l] = "def call(args):";
        call_method(l, e);
        result.has_call = true;
      }
      l = e - 1;
    }
  }

  void get_args(size_t i, size_t end) {
    out[i] = lines[i];
    for (size_t l = i + 1; l < end; ++l) {
      std::string t = trim(lines[l]);
      if (starts_with(t, "from ") || starts_with(t, "import ")) {
        import_line(l, t);
        out[l] = std::string(static_cast<size_t>(indent_of(lines[l])), ' ') + "pass";
      } else {
        out[l] = lines[l];
      }
    }
    result.has_get_args = true;
  }

  void run() {
    const std::string &text = src->text();
    size_t pos = 0;
    while (pos <= text.size()) {
      size_t nl = text.find('\n', pos);
      if (nl == std::string::npos) {
        if (pos < text.size()) lines.push_back(text.substr(pos));
        break;
      }
      lines.push_back(text.substr(pos, nl - pos));
      pos = nl + 1;
    }
    out.assign(lines.size(), std::string());
    static const std::regex assign(R"(([A-Za-z_]\w*)\s*=\s*(.+))");
    for (size_t i = 0; i < lines.size();) {
      const std::string &s = lines[i];
      std::string t = trim(s);
      int line = static_cast<int>(i + 1);
      if (t.empty() || t[0] == '#') {
        ++i;
        continue;
      }
      if (indent_of(s) != 0) fail(line, "Inductor module: unexpected indentation at the top level");
      std::smatch m;
      if (starts_with(t, "import ") || starts_with(t, "from ")) {
        import_line(i, t);
        ++i;
        continue;
      }
      if (starts_with(t, "class ")) {
        size_t e = block_end(i, 0);
        if (!std::regex_match(t, std::regex(R"(class Runner\s*:)")))
          fail(line,
               "Inductor module: unsupported construct 'class' (only Inductor's Runner "
               "class is known)");
        runner_class(i, e);
        i = e;
        continue;
      }
      if (starts_with(t, "def ")) {
        size_t e = block_end(i, 0);
        if (starts_with(t, "def get_args(")) {
          get_args(i, e);
        } else if (!starts_with(t, "def benchmark_compiled_module(")) {
          for (size_t l = i; l < e; ++l) out[l] = lines[l];  // a helper call() may use
        }
        i = e;
        continue;
      }
      if (starts_with(t, "if __name__")) {
        i = block_end(i, 0);
        continue;
      }
      if (t == "async_compile.wait(globals())" || t == "del async_compile") {
        ++i;
        continue;
      }
      if (std::regex_match(t, m, assign)) {
        std::string var = m[1], rhs = trim(m[2]);
        if (starts_with(rhs, "async_compile.triton(")) {
          i = kernel_def(i, var, rhs);
          continue;
        }
        if (starts_with(rhs, "async_compile."))
          fail(line, "Inductor module: unsupported kernel kind '" + rhs.substr(0, rhs.find('(')) +
                         "' (only async_compile.triton kernels run on the chip)");
        if (rhs == "AsyncCompile()" || starts_with(rhs, "Runner(") ||
            rhs == "runner.recursively_apply_fns") {
          ++i;
          continue;
        }
        if (rhs == "runner.call") {
          if (var != "call") bind(var, "function:call");
          ++i;
          continue;
        }
        std::string b = alias_binding(rhs);
        if (!b.empty()) {
          bind(var, b);
          ++i;
          continue;
        }
        if (std::regex_match(rhs, std::regex(R"(-?[0-9][0-9.eE+-]*|None|True|False|'[^']*')"))) {
          out[i] = lines[i];
          ++i;
          continue;
        }
      }
      fail(line, "Inductor module: unsupported module-level statement '" + t.substr(0, 60) + "'");
    }
    for (auto &l : out) {
      result.text += l;
      result.text += '\n';
    }
  }
};

}  // namespace

ScannedModule scan_module(const std::shared_ptr<const SourceFile> &source) {
  Scanner s;
  s.src = source;
  s.run();
  return std::move(s.result);
}

}  // namespace opforge::compiler::inductor_detail
