//===- chip_executor.h - the wrapper interpreter's Executor on model::Device ===//
//
// Tensors live in the chip's DRAM (Device::alloc); kernel launches compile
// the jit function through the code generator (binaries cached by a hash of
// the kernel source, specialisation and target options) and run the grid on
// the chip. A trap becomes an opforge::Error naming the kernel, the program
// id, the disassembled instruction and the model's message, with the PC and
// the kernel's source file and `def` line as its context (binaries carry no
// line table, so the faulting statement's own line is not known).
// Launches are bounds-checked (model::KernelLaunch::buffers): a load, store
// or DMA row outside the storage of the kernel's tensor arguments (and its
// image and argument block) is such a trap, reported as "out-of-bounds store
// of N bytes at 0x...: D bytes past the end of PARAM [0x..., +BYTES)" with
// the instruction and PC. Checking charges no cycles.
// copy() (contiguous(), .to(), reshape copies) is a host-side runtime
// operation: the source view is read from device memory, converted on the
// host and written back to the destination view; it takes host-link time,
// no kernel time.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <algorithm>

#include <cstdint>
#include <map>
#include <memory>
#include <string>

#include "opforge/compiler/codegen.h"
#include "opforge/compiler/executor.h"
#include "opforge/model/device.h"

namespace opforge::compiler {

class ChipExecutor : public Executor {
 public:
  explicit ChipExecutor(model::Device &device, TargetOptions target = {})
      : dev_(device), target_(std::move(target)) {
    // DPE commands the device accepts (pe.dpe.tile_max_*).
    // Programs are linked at the start of the device's DRAM (memory_map.dram_base).
    target_.text_base = device.params().map.dram_base;
    const model::DpeParams &dpe = device.params().dpe;
    if (dpe.tile_max_m) target_.dpe_tile_m = std::min(target_.dpe_tile_m, dpe.tile_max_m);
    if (dpe.tile_max_n) target_.dpe_tile_n = std::min(target_.dpe_tile_n, dpe.tile_max_n);
    if (dpe.tile_max_k) target_.dpe_tile_k = std::min(target_.dpe_tile_k, dpe.tile_max_k);
    // The stack and block buffers live in the PE's local memory (checked, spilled).
    target_.local_mem_bytes = device.params().local_mem.size_bytes;
  }
  ~ChipExecutor() override;

  BufferId allocate(int64_t bytes) override;
  void free(BufferId buffer) override;
  void copy_in(const TensorHandle &dst, const HostTensor &src) override;
  HostTensor copy_out(const TensorHandle &src) override;
  void copy(const TensorHandle &dst, const TensorHandle &src) override;
  LaunchResult launch(const LaunchRequest &request) override;
  // Compiles the binary into this executor's and the process's cache.
  void compile(const LaunchRequest &request) override { binary(request); }
  // The resolved arch configuration, timing mode and target options, hashed.
  std::string tuning_target() const override;

  // Launches run so far, with their chip results (cycles, counters, one record per
  // instance: about 20 KB each on mtia-2i). Kept unless keep_launches(false): a
  // validation run of thousands of calls on one executor keeps only the count.
  const std::vector<model::LaunchResult> &launches() const { return launches_; }
  void keep_launches(bool keep) { keep_launches_ = keep; }
  bool keeps_launches() const { return keep_launches_; }
  // Drops the kept launch records from index `n` on (the launch count stays).
  void truncate_launches(size_t n) {
    if (n < launches_.size()) launches_.resize(n);
  }
  uint64_t launch_count() const { return launch_count_; }
  size_t binaries_compiled() const { return cache_.size(); }
  size_t cache_hits() const { return cache_hits_; }

 private:
  struct Buffer {
    uint64_t addr = 0;
    int64_t bytes = 0;
  };
  uint64_t address(const TensorHandle &t) const;
  HostTensor read_storage(const TensorHandle &t);
  std::shared_ptr<const KernelBinary> binary(const LaunchRequest &request);

  // The spill scratch of kernels whose block buffers did not fit in local
  // memory (KernelBinary::spill_bytes per PE), grown as needed.
  uint64_t spill_scratch(const KernelBinary &bin);
  uint64_t spill_addr_ = 0, spill_size_ = 0;

  model::Device &dev_;
  TargetOptions target_;
  std::map<BufferId, Buffer> buffers_;
  BufferId next_id_ = 1;
  std::map<std::string, std::shared_ptr<const KernelBinary>> cache_;
  size_t cache_hits_ = 0;
  std::vector<model::LaunchResult> launches_;
  bool keep_launches_ = true;
  uint64_t launch_count_ = 0;
};

}  // namespace opforge::compiler
