//===- fst_test_util.h - read an FST waveform (Verilator's fstapi reader) for the trace tests -===//
#pragma once

#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "gtkwave/fstapi.h"

namespace opforge::rtl::testing {

// What a test checks in a waveform: that it opens as FST, its variables
// (header), its value changes and the times at which they happen.
struct FstSummary {
  bool opened = false;
  std::vector<std::string> vars;
  uint64_t changes = 0;
  std::set<uint64_t> times;
  bool has_var(const std::string &name) const {
    for (const std::string &v : vars)
      if (v == name || v.find(name + " ") == 0 || v.find(name + "[") == 0) return true;
    return false;
  }
};

inline FstSummary read_fst(const std::string &path) {
  FstSummary s;
  void *ctx = fstReaderOpen(path.c_str());
  if (!ctx) return s;
  s.opened = true;
  while (fstHier *h = fstReaderIterateHier(ctx))
    if (h->htyp == FST_HT_VAR) s.vars.emplace_back(h->u.var.name);
  fstReaderSetFacProcessMaskAll(ctx);
  fstReaderIterBlocks(
      ctx,
      [](void *user, uint64_t time, fstHandle, const unsigned char *) {
        FstSummary &sum = *static_cast<FstSummary *>(user);
        ++sum.changes;
        sum.times.insert(time);
      },
      &s, nullptr);
  fstReaderClose(ctx);
  return s;
}

}  // namespace opforge::rtl::testing
