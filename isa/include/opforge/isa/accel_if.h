//===- accel_if.h - Xmtia accelerator commands the ISS hands off -----------===//
//
// The Xmtia DMA and DPE instructions do not compute in the core: the ISS
// reads their descriptors from memory, hands a decoded command to
// AcceleratorIf and goes on (DMA and DPE are asynchronous; waits block).
// isa ships a functional implementation (FunctionalAccelerator) used by its
// own tests; the chip model supplies the timed one. SFU instructions compute
// in the ISS (their numerics belong to the ISA) and only report their work
// here so the model can charge SFU time and count it.
//
// Descriptor layouts in guest memory (little endian) are documented in
// docs/isa/xmtia.md and decoded by the ISS into these structs.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstdint>
#include <span>

namespace opforge::isa {

// 1-D and 2-D strided copy: rows x row_bytes, each row at src + r*src_stride
// copied to dst + r*dst_stride. A 1-D copy has rows == 1.
struct DmaCommand {
  uint64_t src = 0;
  uint64_t dst = 0;
  uint64_t row_bytes = 0;
  uint64_t rows = 1;
  int64_t src_stride = 0;  // bytes
  int64_t dst_stride = 0;  // bytes
  uint32_t tag = 0;        // 0..15
};

enum class DpeDType : uint8_t { BF16 = 0, FP16 = 1, FP32 = 2, INT8 = 3 };

// C[m][n] (+)= sum_k A[m][k] * B[k][n]; A, B, C in local memory, row-major
// with leading dimensions in elements. C is fp32 (int32 for INT8).
struct DpeCommand {
  uint64_t a = 0, b = 0, c = 0;
  uint32_t m = 0, n = 0, k = 0;
  uint32_t lda = 0, ldb = 0, ldc = 0;
  DpeDType dtype = DpeDType::BF16;
  bool accumulate = false;
};

enum class SfuFunc : uint8_t { Exp, Log, Tanh, Erf, Sin, Cos, Rsqrt, Recip };

// Result of a command: ok, or a fault the ISS turns into a trap.
struct AccelStatus {
  bool ok = true;
  uint64_t fault_addr = 0;  // first bad address when !ok
  // A wait that has not completed yet (timed models): the ISS stops with
  // StopReason::AccelBlocked and re-executes the wait on the next run.
  bool pending = false;
};

struct ExtInsn;  // extension.h

class AcceleratorIf {
 public:
  virtual ~AcceleratorIf() = default;
  virtual AccelStatus dma_issue(const DmaCommand &cmd) = 0;
  // Block until every DMA with this tag has completed.
  virtual AccelStatus dma_wait(uint32_t tag) = 0;
  virtual AccelStatus dpe_issue(const DpeCommand &cmd) = 0;
  // Block until every issued DPE command has completed.
  virtual AccelStatus dpe_wait() = 0;
  // The ISS executed an SFU instruction over `elements` lanes.
  virtual void sfu_executed(SfuFunc /*fn*/, uint64_t /*elements*/) {}
  // An accelerator that returns true sees every SFU instruction's results
  // (sfu_results) before they are written to vd, and may replace them (an
  // RTL SFU) or refuse them (a lockstep divergence: the ISS then raises a
  // load access fault at fault_addr, and the accelerator says why).
  virtual bool sfu_observes_results() const { return false; }
  struct SfuLane {
    uint64_t index = 0;  // element index in the vector
    uint32_t x = 0;      // input fp32 bits
    uint32_t y = 0;      // result fp32 bits (the ISS's; may be replaced)
  };
  virtual AccelStatus sfu_results(SfuFunc /*fn*/, unsigned /*prec_bits*/, uint64_t /*pc*/,
                                  std::span<SfuLane> /*lanes*/) {
    return {};
  }
  // The ISS executed an ISA extension instruction (extension.h) over
  // `elements` elements. Return true when the accelerator accounts for its
  // time (the chip model holds the core for an `sfu` unit); false and the
  // hart charges latency + ceil(elements / throughput) * occupancy cycles.
  virtual bool ext_executed(const ExtInsn & /*insn*/, uint64_t /*elements*/) { return false; }
};

}  // namespace opforge::isa
