//===- local_mem.cpp - PE local memory banks and data ---------------------===//
#include "opforge/model/local_mem.h"

#include <sys/mman.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "opforge/support/error.h"

namespace opforge::model {

ZeroPages::ZeroPages(uint64_t size) : size_(size) {
  void *p = ::mmap(nullptr, size, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (p == MAP_FAILED)
    throw Error("local memory: cannot map " + std::to_string(size) +
                " bytes of host memory: " + std::strerror(errno));
  data_ = static_cast<uint8_t *>(p);
}

ZeroPages::~ZeroPages() { ::munmap(data_, size_); }

void ZeroPages::clear() { ::madvise(data_, size_, MADV_DONTNEED); }

LocalMemTarget::LocalMemTarget(sc_core::sc_module_name name, const ChipParams &p, uint32_t pe,
                               CounterRegistry &counters)
    : sc_module(name),
      socket("socket"),
      p_(p),
      clk_(p),
      base_(p.map.local_window_base + uint64_t(pe) * p.map.local_window_stride),
      data_(p.local_mem.size_bytes),
      banks_(p.local_mem.banks, SharedResource(double(p.sim.quantum_cycles))) {
  std::string pre = pe_prefix(pe / p.grid.cols, pe % p.grid.cols) + ".lmem.";
  conflict_ = FracCounter(counters.add(pre + "conflict_cycles"));
  bytes_read_ = &counters.add(pre + "bytes_read");
  bytes_written_ = &counters.add(pre + "bytes_written");
  socket.register_b_transport(this, &LocalMemTarget::b_transport);
  socket.register_transport_dbg(this, &LocalMemTarget::transport_dbg);
  socket.register_get_direct_mem_ptr(this, &LocalMemTarget::get_direct_mem_ptr);
}

double LocalMemTarget::access(uint64_t off, uint64_t len, bool is_write, double t) {
  *(is_write ? bytes_written_ : bytes_read_) += len;
  const uint64_t g = p_.local_mem.interleave_bytes;
  double done = t;
  while (len) {
    uint64_t n = std::min(len, g - off % g);
    uint32_t b = uint32_t((off / g) % p_.local_mem.banks);
    double busy = double(n) / p_.local_mem.bank_bytes_per_cycle;
    double start = banks_[b].occupy(t, busy);
    conflict_.add(start - t);
    done = std::max(done, start + busy + p_.local_mem.latency_cycles);
    off += n;
    len -= n;
  }
  return done;
}

void LocalMemTarget::b_transport(tlm::tlm_generic_payload &tr, sc_core::sc_time &delay) {
  uint64_t a = tr.get_address(), len = tr.get_data_length();
  if (!contains(a, len)) {
    tr.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
    return;
  }
  uint64_t off = a - base_;
  bool is_write = tr.get_command() == tlm::TLM_WRITE_COMMAND;
  if (tr.get_command() == tlm::TLM_READ_COMMAND)
    std::memcpy(tr.get_data_ptr(), &data_[off], len);
  else if (is_write)
    std::memcpy(&data_[off], tr.get_data_ptr(), len);
  if (p_.sim.timing == TimingMode::Lt)
    delay = clk_.delay_until(access(off, len, is_write, clk_.now_cycles(delay)));
  else
    *(is_write ? bytes_written_ : bytes_read_) += len;
  tr.set_dmi_allowed(true);
  tr.set_response_status(tlm::TLM_OK_RESPONSE);
}

unsigned LocalMemTarget::transport_dbg(tlm::tlm_generic_payload &tr) {
  uint64_t a = tr.get_address(), len = tr.get_data_length();
  if (!contains(a, len)) return 0;
  if (tr.get_command() == tlm::TLM_READ_COMMAND)
    std::memcpy(tr.get_data_ptr(), &data_[a - base_], len);
  else if (tr.get_command() == tlm::TLM_WRITE_COMMAND)
    std::memcpy(&data_[a - base_], tr.get_data_ptr(), len);
  tr.set_response_status(tlm::TLM_OK_RESPONSE);
  return unsigned(len);
}

bool LocalMemTarget::get_direct_mem_ptr(tlm::tlm_generic_payload &tr, tlm::tlm_dmi &dmi) {
  if (!contains(tr.get_address(), 1)) return false;
  dmi.set_dmi_ptr(data_.data());
  dmi.set_start_address(base_);
  dmi.set_end_address(base_ + data_.size() - 1);
  dmi.allow_read_write();
  dmi.set_read_latency(clk_.time(p_.local_mem.latency_cycles));
  dmi.set_write_latency(clk_.time(p_.local_mem.latency_cycles));
  return true;
}

}  // namespace opforge::model
