//===- launch.h - kernel launches, program instances and their records ----===//
//
// Plain data shared by the command processor, the PEs and model::Device
// (SystemC-free: device.h includes it).
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace opforge::model {

struct Grid3 {
  uint32_t x = 1, y = 1, z = 1;
  uint64_t count() const { return uint64_t(x) * y * z; }
};

struct LaunchSpec {
  uint64_t entry = 0;
  uint64_t args_addr = 0;  // a0 of every instance
  Grid3 grid;
  std::optional<uint64_t> tohost;  // HTIF stop address, if the program has one
};

enum class InstanceStatus { Done, Tohost, Trap, Watchdog, Aborted };
const char *instance_status_name(InstanceStatus s);

struct InstanceRecord {
  uint32_t pid[3] = {0, 0, 0};
  uint32_t pe = 0;
  uint64_t start_cycle = 0;  // absolute chip cycles
  uint64_t end_cycle = 0;
  uint64_t instructions = 0;
  InstanceStatus status = InstanceStatus::Done;
  uint64_t tohost_value = 0;
  // Trap / watchdog details.
  uint64_t pc = 0;
  uint64_t cause = 0;
  uint64_t addr = 0;    // faulting address (tval)
  std::string message;  // "pe[0][1] pc=0x80000010: load access fault at 0x... (...)"
};

}  // namespace opforge::model
