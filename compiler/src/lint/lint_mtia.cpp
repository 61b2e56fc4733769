//===- lint_mtia.cpp - OPF015: calls of the tl.extra.mtia built-ins ===//
//
// A call of tl.extra.mtia.async_copy / wait / barrier / atomic_add / dot /
// sfu (mtia_builtins.h) whose positional or keyword arguments do not fit the
// function's signature is reported at the call, with the same text sema
// gives. Calls with *args or **kwargs are not judged.
//
//===----------------------------------------------------------------------===//
#include "lint_context.h"
#include "opforge/compiler/mtia_builtins.h"

namespace opforge::compiler::lint_detail {

using namespace ast;

void lint_mtia_calls(Context &ctx, const FunctionDef &f) {
  const std::string module = "triton.language." + ctx.caps.ext_intrinsic_module + ".";
  for (auto &s : f.body)
    walk(
        *s,
        [&](const Expr &e) {
          auto *c = e.as<Call>();
          if (!c) return;
          std::string path = ctx.resolve(*c->func);
          if (path.rfind(module, 0) != 0) return;
          const MtiaBuiltin *b = find_mtia_builtin(path.substr(module.size()));
          if (!b) return;
          std::vector<std::string> keys;
          for (auto &a : c->args)
            if (a->is<Starred>()) return;
          for (auto &k : c->keywords) {
            if (k.name.empty()) return;
            keys.push_back(k.name);
          }
          if (std::string why = mtia_call_mismatch(*b, c->args.size(), keys); !why.empty())
            ctx.report("OPF015", c->loc, why);
        },
        [](const Stmt &) {});
}

}  // namespace opforge::compiler::lint_detail
