//===- sparse_store.h - byte storage allocated page by page on first write -===//
//
// DRAM backing: a 128 GiB device must not allocate 128 GiB. Pages are
// created on the first write; reads of untouched pages return zeros.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstdint>
#include <memory>
#include <unordered_map>

namespace opforge::model {

class SparseStore {
 public:
  static constexpr uint64_t kPageBytes = 64 * 1024;

  explicit SparseStore(uint64_t size_bytes) : size_bytes_(size_bytes) {}
  uint64_t size_bytes() const { return size_bytes_; }
  // Offsets are relative to the store; the caller checks the range.
  void read(uint64_t offset, void *dst, uint64_t len) const;
  void write(uint64_t offset, const void *src, uint64_t len);
  // The page holding offset, created if absent (for direct access).
  uint8_t *page(uint64_t offset);
  uint64_t pages_allocated() const { return pages_.size(); }
  void clear() { pages_.clear(); }

 private:
  uint64_t size_bytes_;
  std::unordered_map<uint64_t, std::unique_ptr<uint8_t[]>> pages_;
};

}  // namespace opforge::model
