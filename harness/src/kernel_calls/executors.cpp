//===- executors.cpp - the executors validation runs on: IR interpreter or the chip ===//
#include <memory>
#include <mutex>

#include "opforge/compiler/interp_executor.h"
#include "opforge/harness/validate.h"
#include "opforge/support/error.h"

#ifdef OPFORGE_HAVE_CHIP
#include "opforge/compiler/chip_executor.h"
#include "opforge/model/device.h"
#include "opforge/model/params.h"
#endif

namespace opforge::harness {

bool chip_executor_available() {
#ifdef OPFORGE_HAVE_CHIP
  return true;
#else
  return false;
#endif
}

namespace {

std::string describe(const ChipOptions &o) {
  std::string s = "arch " + o.arch;
  for (const auto &set : o.sets) s += " --set " + set;
  if (!o.timing.empty()) s += " timing " + o.timing;
  return s;
}

}  // namespace

model::Device &chip_device(const ChipOptions &options) {
#ifdef OPFORGE_HAVE_CHIP
  static std::mutex mutex;
  static std::unique_ptr<model::Device> device;
  static std::string made_for;
  std::lock_guard<std::mutex> lock(mutex);
  const std::string wanted = describe(options);
  if (device) {
    if (made_for != wanted)
      throw Error("this process's chip was made for " + made_for + "; " + wanted +
                  " needs another process (one model::Device per process)");
    return *device;
  }
  if (!options.timing.empty() && options.timing != "functional" && options.timing != "lt")
    throw Error("unknown timing mode '" + options.timing + "' (expected functional or lt)");
  // Preset or file, then the overrides, then the timing mode.
  std::vector<std::string> overrides = options.sets;
  if (!options.timing.empty()) overrides.push_back("simulation.timing_mode=" + options.timing);
  device = std::make_unique<model::Device>(model::load_params(options.arch, overrides));
  made_for = wanted;
  return *device;
#else
  throw Error("this build of opforge has no chip executor (" + describe(options) +
              "): it needs the code generator (LLVM 16) and the chip model (SystemC)");
#endif
}

std::unique_ptr<compiler::Executor> make_executor(ExecutorKind kind, const ChipOptions &chip,
                                                  bool keep_launches) {
  if (kind == ExecutorKind::Interp) return std::make_unique<compiler::InterpExecutor>();
#ifdef OPFORGE_HAVE_CHIP
  auto ex = std::make_unique<compiler::ChipExecutor>(chip_device(chip));
  ex->keep_launches(keep_launches);
  return ex;
#else
  return (void)chip_device(chip), (void)keep_launches, nullptr;
#endif
}

}  // namespace opforge::harness
