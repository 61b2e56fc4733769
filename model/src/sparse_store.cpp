//===- sparse_store.cpp - page-on-touch byte storage ----------------------===//
#include "opforge/model/sparse_store.h"

#include <algorithm>
#include <cstring>

namespace opforge::model {

void SparseStore::read(uint64_t offset, void *dst, uint64_t len) const {
  auto *out = static_cast<uint8_t *>(dst);
  while (len) {
    uint64_t pg = offset / kPageBytes, in = offset % kPageBytes;
    uint64_t n = std::min(len, kPageBytes - in);
    auto it = pages_.find(pg);
    if (it == pages_.end())
      std::memset(out, 0, n);
    else
      std::memcpy(out, it->second.get() + in, n);
    out += n;
    offset += n;
    len -= n;
  }
}

uint8_t *SparseStore::page(uint64_t offset) {
  auto &p = pages_[offset / kPageBytes];
  if (!p) {
    p = std::make_unique<uint8_t[]>(kPageBytes);
    std::memset(p.get(), 0, kPageBytes);
  }
  return p.get();
}

void SparseStore::write(uint64_t offset, const void *src, uint64_t len) {
  auto *in_ptr = static_cast<const uint8_t *>(src);
  while (len) {
    uint64_t in = offset % kPageBytes;
    uint64_t n = std::min(len, kPageBytes - in);
    std::memcpy(page(offset) + in, in_ptr, n);
    in_ptr += n;
    offset += n;
    len -= n;
  }
}

}  // namespace opforge::model
