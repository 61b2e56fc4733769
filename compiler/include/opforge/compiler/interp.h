//===- interp.h - the ttir interpreter: the compiler's own oracle ----------===//
//
// Executes a ttir kernel for a whole launch grid on host memory. Device
// pointers are addresses into an InterpMemory, which maps host byte buffers
// (HostTensor storages) at distinct, widely spaced base addresses.
// Semantics follow Triton on the device:
//  * masked loads yield `other` (0 when absent), masked stores write nothing;
//  * an unmasked access outside every mapped buffer is an error naming the op,
//    the program id, the element index and the address;
//  * integers wrap at their width; division by zero and shift amounts follow
//    RISC-V (x/0 = -1, x%0 = x, shifts use the low log2(bits) bits);
//  * floats round to their type after every op; fp16/bf16 math is computed
//    in fp32 and rounded (RNE) to the element type;
//  * float -> int conversion truncates and saturates, NaN -> INT_MAX (RISC-V).
// Every op works on whole blocks at once (no per-element tree walking).
//
//===----------------------------------------------------------------------===//
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "opforge/compiler/ir.h"
#include "opforge/support/host_tensor.h"

namespace opforge::ttir {

class InterpMemory {
 public:
  // Maps a storage (once; mapping it again returns the same base address).
  uint64_t map(const std::shared_ptr<std::vector<uint8_t>> &storage);
  // Address of a tensor's first element (maps its storage if needed).
  uint64_t address_of(const HostTensor &t);
  void unmap(uint64_t base);
  // The bytes at [addr, addr + bytes) if they lie inside one mapped buffer.
  uint8_t *find(uint64_t addr, uint64_t bytes);
  // Base address and storage of the buffer holding addr (for messages).
  std::string describe(uint64_t addr) const;

 private:
  struct Buffer {
    std::shared_ptr<std::vector<uint8_t>> storage;
  };
  std::map<uint64_t, Buffer> buffers_;  // by base address
  uint64_t next_base_ = 0x100000000ull;
};

struct KernelArg {
  enum class Kind { Int, Float, Ptr } kind = Kind::Int;
  int64_t i = 0;  // Int value or Ptr address
  double f = 0;
  static KernelArg integer(int64_t v) { return {Kind::Int, v, 0}; }
  static KernelArg floating(double v) { return {Kind::Float, 0, v}; }
  static KernelArg pointer(uint64_t a) { return {Kind::Ptr, static_cast<int64_t>(a), 0}; }
};

struct Grid {
  int64_t x = 1, y = 1, z = 1;
};

struct InterpResult {
  std::vector<std::string> prints;  // tt.print output, one line per element
  int64_t programs_run = 0;
};

class Interpreter {
 public:
  explicit Interpreter(InterpMemory &mem) : mem_(mem) {}
  // Runs `kernel` from `m` once per program id of the grid. Throws
  // opforge::Error on a fault (out-of-bounds access, failed tt.assert, ...).
  InterpResult run(const Module &m, const std::string &kernel, const std::vector<KernelArg> &args,
                   Grid grid);
  // The SFU precision (mantissa bits, 0 = exact; the chip's
  // pe.sfu.precision_bits) that ISA extension intrinsics are evaluated at.
  void set_sfu_prec_bits(unsigned bits) { sfu_prec_bits_ = bits; }

 private:
  InterpMemory &mem_;
  unsigned sfu_prec_bits_ = 0;
};

}  // namespace opforge::ttir
