//===- compile_executor.h - run a wrapper to compile its kernels, not to run them ===//
//
// The generation loop's Compile stage compiles a candidate's kernels for the
// signatures its recorded calls give them, so that type and code generation
// errors are compile errors (with the kernel's file:line:col) and Run only
// runs. Which kernels a wrapper launches, and with which specialisation
// (dtypes, constexprs, divisibility of sizes), is known only by running the
// wrapper; CompileOnlyExecutor runs it against host memory and, at each
// launch, has the target executor compile the kernel (Executor::compile)
// instead of running it. Tensors the kernels would have written keep whatever
// the wrapper put there, so a wrapper whose control flow depends on a kernel's
// results may take another path than the real run; that run still compiles
// what it launches.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <optional>
#include <string>

#include "opforge/compiler/executor.h"
#include "opforge/compiler/interp_executor.h"

namespace opforge::compiler {

class CompileOnlyExecutor : public Executor {
 public:
  // Compiles on `target` (the executor Run will use, or one of its kind).
  explicit CompileOnlyExecutor(Executor &target) : target_(target) {}

  BufferId allocate(int64_t bytes) override { return memory_.allocate(bytes); }
  void free(BufferId buffer) override { memory_.free(buffer); }
  void copy_in(const TensorHandle &dst, const HostTensor &src) override {
    memory_.copy_in(dst, src);
  }
  HostTensor copy_out(const TensorHandle &src) override { return memory_.copy_out(src); }
  void copy(const TensorHandle &dst, const TensorHandle &src) override { memory_.copy(dst, src); }
  // Compiles the kernel on the target; runs nothing. A compile failure is kept
  // (compile_failed()) and rethrown.
  LaunchResult launch(const LaunchRequest &request) override;

  // True when a launch's compilation threw (the error then left the wrapper).
  bool compile_failed() const { return compile_failed_; }

 private:
  Executor &target_;
  InterpExecutor memory_;
  bool compile_failed_ = false;
};

}  // namespace opforge::compiler
