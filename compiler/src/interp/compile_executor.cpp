// compile_executor.cpp - a wrapper run that compiles its kernels on a target and runs none.
#include "opforge/compiler/compile_executor.h"

namespace opforge::compiler {

LaunchResult CompileOnlyExecutor::launch(const LaunchRequest &request) {
  try {
    target_.compile(request);
  } catch (...) {
    compile_failed_ = true;
    throw;
  }
  return LaunchResult{};
}

}  // namespace opforge::compiler
