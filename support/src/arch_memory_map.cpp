//===- arch_memory_map.cpp - the memory map derived from ArchConfig -------===//
//
// ArchConfig::memory_layout (docs/model/memory-map.md): the local-memory alias,
// the PE windows and the scratch SRAM keep their configured bases when given
// and are otherwise placed at the first free 256 MiB-aligned address; a
// collision or an address past the guest limit is an error naming the field.
//
//===----------------------------------------------------------------------===//
#include <bit>
#include <cstdio>
#include <string>

#include "opforge/support/arch_config.h"
#include "opforge/support/error.h"

namespace opforge {

namespace {

// "4 GiB" when v is a whole number of a binary unit, else "N bytes".
std::string size_text(uint64_t v) {
  static const char *units[] = {"bytes", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  int u = 0;
  uint64_t x = v;
  while (x >= 1024 && x % 1024 == 0 && u < 6) {
    x /= 1024;
    ++u;
  }
  return std::to_string(x) + " " + units[u];
}

std::string hex_text(uint64_t v) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
  return buf;
}

// Derived windows start on this alignment, from kLowestWindow up.
constexpr uint64_t kWindowAlign = uint64_t{256} << 20;
constexpr uint64_t kLowestWindow = kWindowAlign;

struct MapWindow {
  const char *path;  // the field that places it
  uint64_t base = 0, size = 0;
  bool set = false;  // given in the config (else derived)
  std::string what;  // for messages: "the 1024 PE windows (1024 x 8 MiB stride)"
  uint64_t end() const { return base + size; }
  std::string range() const { return "[" + hex_text(base) + ", +" + size_text(size) + ")"; }
};

}  // namespace

MemoryMapConfig ArchConfig::memory_layout(const std::string &file) const {
  auto fail = [&](const char *path, const std::string &msg) {
    throw Error(msg, ErrorContext{file, path, {}, {}, {}});
  };
  auto n = [](uint64_t v) { return std::to_string(v); };
  MemoryMapConfig m = memory_map;
  const uint64_t local = pe.local_mem.size_bytes, pes = num_pes();
  if (m.local_window_stride_bytes == 0) {
    m.local_window_stride_bytes = std::bit_ceil(local + 1);
  } else if (m.local_window_stride_bytes < local) {
    fail("/memory_map/local_window_stride_bytes", "stride " + n(m.local_window_stride_bytes) +
                                                      " bytes is smaller than the local memory (" +
                                                      n(local) + " bytes)");
  }
  if (m.code_reserved_bytes >= dram.capacity_bytes)
    fail("/memory_map/code_reserved_bytes",
         "reserves all of DRAM (" + n(dram.capacity_bytes) + " bytes)");
  const bool scratch = sram.mode == SramMode::Scratch;
  // stride <= 2^41 and pes <= 2^16: the product fits.
  MapWindow w[4] = {{"/memory_map/local_alias_base", m.local_alias_base, local,
                     m.local_alias_base != 0, "the local memory alias (" + size_text(local) + ")"},
                    {"/memory_map/local_window_base", m.local_window_base,
                     m.local_window_stride_bytes * pes, m.local_window_base != 0,
                     "the " + n(pes) + " PE windows (" + n(pes) + " x " +
                         size_text(m.local_window_stride_bytes) + " stride)"},
                    {"/memory_map/sram_base", m.sram_base, scratch ? sram.size_bytes : 0,
                     m.sram_base != 0, "the scratch SRAM (" + size_text(sram.size_bytes) + ")"},
                    {"/memory_map/dram_base", m.dram_base, dram.capacity_bytes, true,
                     "DRAM (" + size_text(dram.capacity_bytes) + ")"}};
  const std::string limit = "the guest address limit " + hex_text(kGuestAddressLimit) + " (" +
                            size_text(kGuestAddressLimit) + ")";
  for (const MapWindow &x : w)
    if (x.set && x.size && (x.base >= kGuestAddressLimit || x.size > kGuestAddressLimit - x.base))
      fail(x.path, x.what + " at " + x.range() + " ends past " + limit);
  for (size_t i = 0; i < 4; ++i)
    for (size_t j = i + 1; j < 4; ++j) {
      const MapWindow &a = w[i], &b = w[j];
      if (a.set && b.set && a.size && b.size && a.base < b.end() && b.base < a.end())
        fail(b.path, std::string("window overlaps ") + a.path + ": " + b.what + " at " + b.range() +
                         ", " + a.what + " at " + a.range() +
                         "; leave a base 0 to have it placed where it fits");
    }
  // Place the derived windows in order, each at the first aligned address
  // free of the windows placed so far.
  for (size_t i = 0; i < 3; ++i) {
    MapWindow &x = w[i];
    if (x.set || !x.size) continue;
    uint64_t at = kLowestWindow;
    for (bool moved = true; moved;) {
      moved = false;
      for (size_t j = 0; j < 4; ++j) {
        const MapWindow &o = w[j];
        if (j == i || !o.size || !(o.set || j < i)) continue;
        if (at < o.end() && o.base < at + x.size) {
          at = (o.end() + kWindowAlign - 1) / kWindowAlign * kWindowAlign;
          moved = true;
        }
      }
      if (at >= kGuestAddressLimit || x.size > kGuestAddressLimit - at) {
        if (i == 1)
          fail("/pe/local_mem/size_bytes",
               x.what + " need " + size_text(x.size) + " of address space and do not fit below " +
                   limit + "; on " + n(pes) + " PEs keep the local memory below " +
                   size_text(std::bit_floor(kGuestAddressLimit / 2 / pes)) + " (or use fewer PEs)");
        fail(i == 0 ? "/pe/local_mem/size_bytes" : "/sram/size_bytes",
             x.what + " does not fit below " + limit);
      }
    }
    x.base = at;
  }
  m.local_alias_base = w[0].base;
  m.local_window_base = w[1].base;
  m.sram_base = w[2].base;
  return m;
}

}  // namespace opforge
