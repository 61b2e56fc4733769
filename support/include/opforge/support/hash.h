//===- hash.h - a stable key of a text (FNV-1a, 64 bits) ------------------===//
//
// Cache directories and runtime-library symbols are named by the key of the
// text they were made from; the key must not change between runs, builds or
// hosts (std::hash may), so it is FNV-1a over the bytes.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>

namespace opforge {

// FNV-1a, 64 bits, of `text`, as 16 lower-case hex digits.
inline std::string fnv1a64_hex(std::string_view text) {
  uint64_t h = 0xcbf29ce484222325ull;
  for (unsigned char c : text) {
    h ^= c;
    h *= 0x100000001b3ull;
  }
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h));
  return buf;
}

}  // namespace opforge
