//===- interp_executor.h - Executor backed by the ttir interpreter ---------===//
//
// Buffers are host byte vectors mapped into an InterpMemory; launches lower
// the kernel (cached per specialisation), run the pass pipeline and execute
// the optimised ttir for the whole grid with the interpreter. This is what
// runs wrappers end to end on the host.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <map>
#include <memory>

#include "opforge/compiler/executor.h"
#include "opforge/compiler/interp.h"
#include "opforge/compiler/knobs.h"
#include "opforge/compiler/sema.h"

namespace opforge::compiler {

class InterpExecutor : public Executor {
 public:
  explicit InterpExecutor(Knobs knobs = Knobs::from_env()) : knobs_(std::move(knobs)) {}

  BufferId allocate(int64_t bytes) override;
  void free(BufferId buffer) override;
  void copy_in(const TensorHandle &dst, const HostTensor &src) override;
  HostTensor copy_out(const TensorHandle &src) override;
  void copy(const TensorHandle &dst, const TensorHandle &src) override;
  LaunchResult launch(const LaunchRequest &request) override;
  // Lowers and optimises the kernel into this executor's cache, and into the
  // process's (keyed by the kernel's source text) unless IR is dumped or replaced.
  void compile(const LaunchRequest &request) override { lowered(request); }

  // A host view sharing the buffer's bytes (writes go to the device buffer).
  HostTensor view(const TensorHandle &t);
  // Runs unoptimised ttir instead of the pass pipeline's output (differential tests).
  void set_optimize(bool on) { optimize_ = on; }
  // SFU precision (mantissa bits, 0 = exact) of ISA extension intrinsics.
  void set_sfu_prec_bits(unsigned bits) { sfu_prec_bits_ = bits; }
  size_t kernels_compiled() const { return compiled_.size(); }

 private:
  struct Buffer {
    std::shared_ptr<std::vector<uint8_t>> storage;
    uint64_t base = 0;
  };
  Knobs knobs_;
  bool optimize_ = true;
  unsigned sfu_prec_bits_ = 0;
  ttir::InterpMemory memory_;
  std::map<BufferId, Buffer> buffers_;
  BufferId next_id_ = 1;
  std::map<std::string, std::shared_ptr<ttir::Module>> compiled_;  // by source|kernel|spec|opt
  const Buffer &buffer(BufferId id) const;
  const ttir::Module &lowered(const LaunchRequest &request);
};

}  // namespace opforge::compiler
