//===- kernel_image.h - a program to load on the chip: ELF or raw code ----===//
//
// A KernelImage is what Device::launch loads into device memory: loadable
// segments (address, bytes, zero-filled size), an entry point and, for
// bare-metal programs using the HTIF convention, the `tohost` address.
// read_elf() accepts little-endian RISC-V ELF64 executables and rejects
// anything else with an error naming the file and the bad field.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace opforge::model {

struct KernelSegment {
  uint64_t addr = 0;
  std::vector<uint8_t> bytes;  // file contents
  uint64_t mem_bytes = 0;      // >= bytes.size(); the rest is zero
};

struct KernelImage {
  std::vector<KernelSegment> segments;
  uint64_t entry = 0;
  std::optional<uint64_t> tohost;
  std::string origin;  // file name, for messages

  // Raw code placed at `addr`, entry at addr.
  static KernelImage from_code(std::vector<uint8_t> code, uint64_t addr);
};

KernelImage read_elf(const std::vector<uint8_t> &bytes, const std::string &origin);
KernelImage read_elf_file(const std::string &path);

}  // namespace opforge::model
