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
#include <vector>

namespace opforge::model {

struct Grid3 {
  uint32_t x = 1, y = 1, z = 1;
  uint64_t count() const { return uint64_t(x) * y * z; }
};

// A buffer a bounds-checked launch may access: a kernel argument's storage.
struct LaunchBuffer {
  std::string name;  // for messages: the kernel parameter(s) it was passed as
  uint64_t addr = 0;
  uint64_t bytes = 0;
  bool writable = true;
};

// The DRAM/SRAM ranges a launch may touch (its buffers, its image's segments,
// its argument block); inactive for launches that did not ask for checking.
// Functional: checking charges no time.
class LaunchBounds {
 public:
  LaunchBounds() = default;
  explicit LaunchBounds(std::vector<LaunchBuffer> regions);
  bool active() const { return active_; }
  // The region holding all of [addr, addr + len), or nullptr.
  const LaunchBuffer *find(uint64_t addr, uint64_t len) const;
  // The region holding `addr` (any length), or nullptr.
  const LaunchBuffer *at(uint64_t addr) const { return find(addr, 1); }
  // Inside a region, or a naturally aligned access of up to 8 bytes holding
  // a byte of one (the word a half-word atomic works on at a buffer's end;
  // allocations are 64-byte aligned, so that word belongs to no other buffer).
  bool allows(uint64_t addr, uint64_t len, bool is_write) const;
  // "out-of-bounds store of 16 bytes at 0x80100040: 48 bytes past the end of
  // out_ptr [0x80100000, +16)": the access against the nearest region.
  std::string describe_miss(uint64_t addr, uint64_t len, bool is_write) const;

 private:
  std::vector<LaunchBuffer> regions_;  // sorted by address
  bool active_ = false;
};

struct LaunchSpec {
  uint64_t entry = 0;
  uint64_t args_addr = 0;  // a0 of every instance
  Grid3 grid;
  std::optional<uint64_t> tohost;  // HTIF stop address, if the program has one
  LaunchBounds bounds;             // active: DRAM/SRAM accesses outside it fault
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
  uint64_t ra = 0;  // x1 at the trap: a called routine's return address
  uint64_t cause = 0;
  uint64_t addr = 0;    // faulting address (tval)
  std::string message;  // "pe[0][1] pc=0x80000010: load access fault at 0x... (...)"
  // A bounds-checked launch's access outside its buffers (LaunchBounds::describe_miss);
  // empty for any other trap.
  std::string out_of_bounds;
};

}  // namespace opforge::model
