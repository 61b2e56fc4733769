//===- fuzz_wrapper.cpp - host wrappers on the wrapper interpreter ----------===//
//
// Every wrapper (non-jit function) of the module runs with a float32 [4, 8]
// tensor for each parameter without a default, on the IR interpreter executor
// (kernels it launches are lowered and interpreted), under small budgets. The
// interpreter has no file, network or process access: nothing here may reach
// the host.
#include <memory>

#include "fuzz_common.h"
#include "opforge/compiler/diagnostics.h"
#include "opforge/compiler/interp_executor.h"
#include "opforge/compiler/parser.h"
#include "opforge/compiler/wrapper.h"

using namespace opforge;
using namespace opforge::compiler;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fuzz::small_budgets();
  fuzz::expect_only_errors([&] {
    auto file = std::make_shared<SourceFile>("fuzz.py", fuzz::text_of(data, size));
    ast::Module m = parse_module(file);
    InterpExecutor ex{Knobs{}};
    WrapperInterpreter interp(m, ex);
    int runs = 0;
    for (const auto *f : m.wrapper_functions()) {
      if (++runs > 3) break;
      std::vector<WrapperValue> args;
      for (const auto &p : f->params.params) {
        if (p.default_value || p.kind != ast::ParamKind::Positional) continue;
        TensorHandle t;
        t.dtype = DType::Float32;
        t.sizes = {4, 8};
        t.strides = HostTensor::contiguous_strides(t.sizes);
        t.buffer = ex.allocate(32 * 4);
        ex.copy_in(t, HostTensor(DType::Float32, {4, 8}));
        args.push_back(WrapperValue::of(t));
      }
      fuzz::expect_only_errors([&] { interp.run(f->name, args); });
    }
  });
  return 0;
}
