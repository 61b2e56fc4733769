//===- fuzz_common.h - shared pieces of the fuzz targets --------------------===//
//
// Each fuzz_<name>.cpp defines LLVMFuzzerTestOneInput. Built two ways:
// with clang's libFuzzer (`make fuzz`, the `fuzz` preset) and with any
// compiler against replay_main.cpp (fuzz_<name>_replay, run by ctest over the
// seed and regression inputs under tests/fuzz/). An opforge::Error (every
// diagnostic the project gives for bad input) is the expected outcome of a bad
// input and is swallowed; anything else - a signal, a sanitizer report, another
// exception escaping - is a finding.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>

#include "opforge/support/budgets.h"
#include "opforge/support/error.h"
#include "opforge/support/h5check.h"

namespace opforge::fuzz {

// Small budgets, so one input runs in milliseconds (the defaults allow minutes).
inline void small_budgets() {
  static const bool once = [] {
    Budgets b;
    b.wrapper_steps = 20'000;
    b.wrapper_bytes = 1 << 20;
    b.launches = 4;
    b.grid_programs = 64;
    b.interp_steps = 200'000;
    b.interp_block_bytes = 1 << 20;
    b.block_elements = 1 << 14;
    b.elf_segment_bytes = 1 << 20;
    set_budgets(b);
    // An HDF5 input that sends libhdf5 into a loop costs 0.5 s, not 5.
    h5::set_check_base_time_s(0.5);
    return true;
  }();
  (void)once;
}

inline std::string text_of(const uint8_t *data, size_t size) {
  return std::string(reinterpret_cast<const char *>(data), size);
}

// The input written to this process's scratch file NAME-PID.h5 in the temporary
// directory (the HDF5 readers take a path); returns the path.
inline std::string scratch_file(const std::string &name, const uint8_t *data, size_t size) {
  const std::string path =
      (std::filesystem::temp_directory_path() / (name + "-" + std::to_string(::getpid()) + ".h5"))
          .string();
  std::ofstream(path, std::ios::binary | std::ios::trunc)
      .write(reinterpret_cast<const char *>(data), static_cast<std::streamsize>(size));
  return path;
}

// Runs f, swallowing the project's diagnostics.
template <class F>
void expect_only_errors(F &&f) {
  try {
    f();
  } catch (const Error &) {
  }
}

}  // namespace opforge::fuzz
