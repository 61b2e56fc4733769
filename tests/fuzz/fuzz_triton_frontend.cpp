//===- fuzz_triton_frontend.cpp - Triton source: parse, then lower every kernel ===//
//
// Lowering runs sema (typing, constexpr evaluation, the builtins) and the ttir
// passes. Parameters get a specialisation from their spelling: names with
// "ptr" are fp32 pointers, upper-case names constexpr 16, the rest i32.
#include <cctype>
#include <memory>

#include "fuzz_common.h"
#include "opforge/compiler/diagnostics.h"
#include "opforge/compiler/parser.h"
#include "opforge/compiler/sema.h"

using namespace opforge;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fuzz::small_budgets();
  fuzz::expect_only_errors([&] {
    auto file = std::make_shared<compiler::SourceFile>("fuzz.py", fuzz::text_of(data, size));
    compiler::ast::Module m = compiler::parse_module(file);
    int lowered = 0;
    for (const auto *f : m.jit_functions()) {
      if (++lowered > 4) break;
      compiler::Specialization spec;
      for (const auto &p : f->params.params) {
        if (p.default_value) continue;
        bool upper = !p.name.empty() && std::isupper(static_cast<unsigned char>(p.name[0]));
        if (p.name.find("ptr") != std::string::npos)
          compiler::add_signature(spec, p.name + "=*fp32");
        else if (upper)
          compiler::add_constexpr(spec, p.name + "=16");
        else
          compiler::add_signature(spec, p.name + "=i32");
      }
      fuzz::expect_only_errors([&] { compiler::lower_kernel(m, f->name, spec); });
    }
  });
  return 0;
}
