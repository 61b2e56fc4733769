//===- launch_bounds.cpp - the ranges a bounds-checked launch may access --===//
#include <algorithm>
#include <sstream>

#include "opforge/model/launch.h"

namespace opforge::model {

LaunchBounds::LaunchBounds(std::vector<LaunchBuffer> regions)
    : regions_(std::move(regions)), active_(true) {
  std::erase_if(regions_, [](const LaunchBuffer &r) { return r.bytes == 0; });
  std::sort(regions_.begin(), regions_.end(),
            [](const LaunchBuffer &a, const LaunchBuffer &b) { return a.addr < b.addr; });
}

const LaunchBuffer *LaunchBounds::find(uint64_t addr, uint64_t len) const {
  // Few regions (a kernel's tensor arguments, segments, arguments): a linear
  // scan; regions may overlap (views of one storage).
  for (const LaunchBuffer &r : regions_)
    if (addr >= r.addr && addr - r.addr < r.bytes && len <= r.bytes - (addr - r.addr)) return &r;
  return nullptr;
}

bool LaunchBounds::allows(uint64_t addr, uint64_t len, bool is_write) const {
  const LaunchBuffer *r = find(addr, len);
  if (!r && len && len <= 8 && addr % len == 0)
    for (const LaunchBuffer &g : regions_)
      if (addr < g.addr + g.bytes && addr + len > g.addr) {
        r = &g;
        break;
      }
  return r && (r->writable || !is_write);
}

std::string LaunchBounds::describe_miss(uint64_t addr, uint64_t len, bool is_write) const {
  std::ostringstream m;
  m << "out-of-bounds " << (is_write ? "store" : "load") << " of " << len << " byte"
    << (len == 1 ? "" : "s") << " at 0x" << std::hex << addr << std::dec;
  // The nearest region: the one the access overlaps or is closest to.
  const LaunchBuffer *near = nullptr;
  uint64_t best = UINT64_MAX;
  for (const LaunchBuffer &r : regions_) {
    uint64_t end = r.addr + r.bytes;
    uint64_t d = addr >= end ? addr - end + 1 : addr + len <= r.addr ? r.addr - (addr + len) + 1 : 0;
    if (d < best) best = d, near = &r;
  }
  if (!near) return m.str() + ": the launch has no buffers";
  auto range = [&](const LaunchBuffer &r) {
    std::ostringstream s;
    s << r.name << " [0x" << std::hex << r.addr << ", +" << std::dec << r.bytes << ")";
    return s.str();
  };
  uint64_t end = near->addr + near->bytes;
  if (addr >= end)
    m << ": " << (addr - end) << " bytes past the end of " << range(*near);
  else if (addr + len <= near->addr)
    m << ": " << (near->addr - addr) << " bytes before the start of " << range(*near);
  else if (is_write && !near->writable && addr >= near->addr && addr + len <= end)
    m << ": " << range(*near) << " is read-only";
  else if (addr < near->addr)
    m << ": starts " << (near->addr - addr) << " bytes before the start of " << range(*near);
  else
    m << ": its last " << (addr + len - end) << " bytes are past the end of " << range(*near);
  return m.str();
}

}  // namespace opforge::model
