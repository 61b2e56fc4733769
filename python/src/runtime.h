//===- runtime.h - the opforge PyTorch device's chip, library and statistics ===//
//
// The torch-free half of the Python package's extension (docs/pytorch-device.md).
// One Runtime per process, made by opforge.init(): the process's model::Device
// (harness::chip_device: a second init with another configuration is an error
// saying why), a ChipExecutor on it that holds every opforge tensor's storage in
// the chip's DRAM, and the kernel library the dispatcher looks overloads up in.
// Calls run through the harness's one call path (aten_call.h,
// run_wrapper_call_on_device) with the tensors' device buffers used in place.
// It counts, per overload and dtype, the calls that ran on the chip and the ones
// that fell back to the CPU, and while a profile is open records every call
// (kernel cycles, launches, chip counters) for the results-format HDF5 file.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "opforge/compiler/inductor_module.h"
#include "opforge/compiler/wrapper.h"
#include "opforge/harness/aten_call.h"

namespace opforge::pydev {

struct Config {
  std::string arch = "mtia-2i";
  std::string timing = "lt";
  std::vector<std::string> sets;  // "dram.channels=8"
  std::string library;            // "": the shipped library and the extension dirs
  // Inductor kernel manifests (scenarios/traces/kernels.json): their kernels,
  // rendered from the lowering table (inductor_kernels.h), are searched after the
  // library for the overloads it lacks.
  std::vector<std::string> kernel_sets;
  // "arch mtia-2i, timing lt, set [...], library DIR" (for errors).
  std::string describe() const;
};

// What the dispatcher runs an overload with.
struct KernelRef {
  harness::CallKernel kernel;  // module null: the view runtime (aten_runtime.h)
  std::string name;            // "add.Tensor.py:add_Tensor" or "view runtime"
};

class Runtime {
 public:
  // The first call makes the runtime; a later call with the same configuration
  // returns it; with another one it throws opforge::Error saying why.
  static Runtime &init(const Config &config);
  // Throws opforge::Error ("call opforge.init() first") before init.
  static Runtime &get();
  static bool initialized();

  const Config &config() const { return config_; }
  compiler::Executor &executor();

  // A device buffer of `bytes` bytes in the chip's DRAM. Out of memory throws
  // naming the bytes requested and the bytes free.
  uint64_t allocate(int64_t bytes);
  void free(uint64_t buffer) noexcept;

  // The kernel for `overload`, or null with `why` set (no kernel in the library,
  // or its file failed to load).
  const KernelRef *kernel_for(const std::string &overload, std::string *why);

  // The overloads the library has a kernel file for ("aten::add.Tensor").
  std::vector<std::string> library_overloads() const;

  // Runs `overload` on the chip; `call` ("aten::add.Tensor(f32[4], f32[4])") and
  // `dtype` label it in statistics and errors. An opforge::Error (a trap, a wrapper
  // error) is rethrown naming the op and the kernel.
  compiler::WrapperValue run_on_chip(
      const std::string &overload, const KernelRef &kernel, const std::string &dtype,
      const std::string &call, const std::vector<compiler::WrapperValue> &args,
      const std::vector<std::pair<std::string, compiler::WrapperValue>> &kwargs);
  // Counts a fallback; true the first time for this overload and dtype (warn then).
  bool note_fallback(const std::string &overload, const std::string &dtype, const std::string &call,
                     const std::string &reason);

  // {"calls": n, "chip_calls": n, "fallbacks": n, "device_bytes_allocated": n,
  // "ops": [{"op", "dtype", "calls", "chip_calls", "fallbacks", "fallback_reason"}...]}
  // since init (bytes: the chip's DRAM held by tensors now).
  std::string stats_json() const;

  // Profiles: every call between start and stop, with the chip's launches.
  void profile_start();
  // The profile as JSON: {"ops": [...per op and dtype...], "calls": [...per call...],
  // "cycles", "launches", "chip_calls", "fallbacks", "counters": {...}}.
  std::string profile_stop();
  // Writes the last stopped profile as a results file (docs/results.md): one point,
  // workload "pytorch", one op row per call. Replaces `path`.
  void profile_save(const std::string &path) const;

  // ---- TorchInductor output modules (python/src/inductor.cpp) ----
  // What Inductor kernels' configs are proposed for: this chip's vector length, local
  // memory and PE count.
  compiler::InductorTarget inductor_target() const;
  // Keeps `module` for the process; returns its handle.
  int64_t add_inductor_module(std::unique_ptr<compiler::InductorModule> module);
  // Throws opforge::Error for an unknown handle.
  compiler::InductorModule &inductor_module(int64_t handle);
  // The chip's kept launch records so far (ChipExecutor::launches().size()); an
  // Inductor call keeps them while it runs (keep_launches) and drops what the open
  // profile does not need afterwards (truncate_launches).
  size_t launch_count() const;
  bool keep_launches(bool keep);  // returns the previous setting
  void truncate_launches(size_t n);
  // Cycles of the kept launches [from, to).
  uint64_t launch_cycles(size_t from, size_t to) const;
  // Calls since init that ran on the chip and that fell back to the CPU.
  std::pair<uint64_t, uint64_t> chip_and_fallback_calls() const;
  bool profiling() const;
  // Records, in the open profile, a Triton kernel of an Inductor module as one call of op
  // "triton::NAME" with its own cycles (statistics count it as an on-chip call).
  void profile_triton_kernel(const std::string &name, const std::string &dtype,
                             const std::string &site, uint64_t cycles);
  // Adds the counters, instructions and program spans of the chip launches [from, to)
  // to the open profile (not their cycles: the kernels' records hold those).
  void profile_launch_counters(size_t from, size_t to, const std::string &label);

  struct Impl;

 private:
  explicit Runtime(const Config &config);
  Config config_;
  std::unique_ptr<Impl> impl_;
};

}  // namespace opforge::pydev
