//===- functional_accel.h - untimed AcceleratorIf for the ISA's own tests --===//
//
// DMA commands copy at once through a MemoryIf; DPE commands compute at once
// with the contract's numerics (docs/isa/xmtia-contract.md): fp32
// accumulation in k order with one fmaf per step (round to nearest even),
// bf16/fp16 inputs widened exactly; int8 x int8 accumulated into wrapping
// int32. Waits complete immediately. Counts the work for tests.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstdint>

#include "opforge/isa/accel_if.h"
#include "opforge/isa/memory_if.h"

namespace opforge::isa {

class FunctionalAccelerator : public AcceleratorIf {
 public:
  explicit FunctionalAccelerator(MemoryIf &mem) : mem_(mem) {}

  AccelStatus dma_issue(const DmaCommand &cmd) override;
  AccelStatus dma_wait(uint32_t tag) override;
  AccelStatus dpe_issue(const DpeCommand &cmd) override;
  AccelStatus dpe_wait() override;
  void sfu_executed(SfuFunc fn, uint64_t elements) override;
  // Counts an `sfu` unit extension instruction's elements with the SFU's;
  // the hart charges its time (returns false).
  bool ext_executed(const ExtInsn &insn, uint64_t elements) override;

  uint64_t dma_commands() const { return dma_commands_; }
  uint64_t dma_bytes() const { return dma_bytes_; }
  uint64_t dpe_commands() const { return dpe_commands_; }
  uint64_t dpe_macs() const { return dpe_macs_; }
  uint64_t sfu_elements() const { return sfu_elements_; }

 private:
  MemoryIf &mem_;
  uint64_t dma_commands_ = 0, dma_bytes_ = 0, dpe_commands_ = 0, dpe_macs_ = 0, sfu_elements_ = 0;
};

}  // namespace opforge::isa
