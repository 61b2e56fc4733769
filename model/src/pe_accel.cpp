//===- pe_accel.cpp - DMA engines, DPE and SFU accounting -----------------===//
#include "opforge/model/pe_accel.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <deque>
#include <map>
#include <mutex>

#include "opforge/isa/extension.h"
#include "opforge/model/dpe_compute.h"
#include "opforge/model/dpe_limits.h"
#include "opforge/model/local_mem.h"
#include "opforge/model/sfu_timing.h"
#include "opforge/support/error.h"

namespace opforge::model {

DpeArrayDims dpe_array_dims(const DpeParams &p) {
  const uint32_t macs = std::max<uint32_t>(1, p.macs_per_cycle_bf16);
  uint32_t rows = 1;
  while (uint64_t(rows) * 2 * rows * 2 <= macs) rows *= 2;
  return {rows, std::max<uint32_t>(1, macs / rows)};
}

uint64_t dpe_tlm_cycles(const DpeParams &p, const isa::DpeCommand &cmd) {
  if (cmd.dtype == isa::DpeDType::FP32) {
    const uint64_t macs = uint64_t(cmd.m) * cmd.n * cmd.k;
    const uint64_t rate = std::max<uint32_t>(1, p.macs_per_cycle_fp32);
    return (macs + rate - 1) / rate;
  }
  // Double-buffered accumulators (docs/rtl/dpe.md): tile t computes while
  // tile t-1 drains and tile t+1 loads, one row per cycle each.
  DpeStream s(p);
  const uint64_t head = s.start(cmd);
  return head + s.finish();
}

DpeStream::DpeStream(const DpeParams &p) : array_(dpe_array_dims(p)) {
  int8_per_cell_ =
      std::max<uint64_t>(1, p.macs_per_cycle_int8 / (uint64_t(array_.rows) * array_.cols));
}

void DpeStream::append(const isa::DpeCommand &cmd) {
  uint64_t k_beats = cmd.k;
  if (cmd.dtype == isa::DpeDType::INT8) k_beats = (k_beats + int8_per_cell_ - 1) / int8_per_cell_;
  const uint64_t ldc_bytes = uint64_t(cmd.ldc) * 4;
  for (uint64_t row0 = 0; row0 < cmd.m; row0 += array_.rows)
    for (uint64_t col0 = 0; col0 < cmd.n; col0 += array_.cols) {
      Tile t;
      t.on = true;
      t.load = cmd.accumulate;
      t.rows = uint32_t(std::min<uint64_t>(array_.rows, cmd.m - row0));
      t.cols = uint32_t(std::min<uint64_t>(array_.cols, cmd.n - col0));
      t.k_beats = k_beats;
      t.c_addr = cmd.c + row0 * ldc_bytes + col0 * 4;
      t.ldc_bytes = ldc_bytes;
      gen_.push_back(t);
    }
}

DpeStream::Tile DpeStream::pop() {
  if (gen_.empty()) return Tile{};
  const Tile t = gen_.front();
  gen_.pop_front();
  return t;
}

uint64_t DpeStream::step() {
  uint64_t len = 1;
  if (c_.on) len = std::max(len, c_.k_beats);
  len = std::max<uint64_t>(len, d_rows_);
  if (f_.on && f_.load) len = std::max<uint64_t>(len, f_.rows);
  d_rows_ = c_.on ? c_.rows : 0;
  c_ = f_;
  f_ = pop();
  return len;
}

uint64_t DpeStream::start(const isa::DpeCommand &cmd) {
  if (pending_) throw Error("DPE stream: a command started while another is pending");
  c_ = f_ = Tile{};
  d_rows_ = 0;
  if (cmd.m == 0 || cmd.n == 0) return 2;
  append(cmd);
  if (!cmd.accumulate) c_ = pop();
  f_ = pop();
  pending_ = true;
  uint64_t cycles = 1;  // the accepting edge
  while (!gen_.empty()) cycles += step();
  return cycles;
}

uint64_t DpeStream::chain(const isa::DpeCommand &cmd) {
  if (!pending_) throw Error("DPE stream: a chained command without a pending stream");
  if (cmd.m == 0 || cmd.n == 0) throw Error("DPE stream: an empty command cannot be chained");
  append(cmd);
  uint64_t cycles = 0;
  while (!gen_.empty()) cycles += step();
  return cycles;
}

uint64_t DpeStream::finish() {
  if (!pending_) return 0;
  uint64_t cycles = 1;  // the DONE cycle
  for (;;) {
    const bool last = !c_.on && !f_.on;
    cycles += step();
    if (last) break;
  }
  pending_ = false;
  return cycles;
}

namespace {

struct ByteSpan {
  uint64_t lo = 0, hi = 0;  // [lo, hi)
  bool overlaps(const ByteSpan &o) const { return lo < o.hi && o.lo < hi; }
};

ByteSpan tile_span(const DpeStream::Tile &t) {
  return {t.c_addr, t.c_addr + uint64_t(t.rows - 1) * t.ldc_bytes + uint64_t(t.cols) * 4};
}

bool same_tile(const DpeStream::Tile &a, const DpeStream::Tile &b) {
  return a.c_addr == b.c_addr && a.ldc_bytes == b.ldc_bytes && a.rows == b.rows && a.cols == b.cols;
}

}  // namespace

bool dpe_chain_safe(const DpeStream &s, const DpeParams &p, const isa::DpeCommand &next) {
  if (!s.pending() || next.m == 0 || next.n == 0 || next.dtype == isa::DpeDType::FP32) return false;
  const DpeStream::Tile &load = s.load_tile(), &comp = s.comp_tile();
  const uint64_t eb = dpe_input_bytes(next.dtype);
  const ByteSpan a{next.a, next.a + (uint64_t(next.m - 1) * next.lda + next.k) * eb};
  const ByteSpan b{next.b, next.b + (uint64_t(next.k ? next.k - 1 : 0) * next.ldb + next.n) * eb};
  for (const DpeStream::Tile *t : {&load, &comp}) {
    if (!t->on) continue;
    const ByteSpan c = tile_span(*t);
    if ((next.k > 0 && a.overlaps(c)) || (next.k > 0 && b.overlaps(c))) return false;
  }
  if (!next.accumulate) return true;
  const DpeArrayDims dims = dpe_array_dims(p);
  auto tile_of = [&](uint64_t row0, uint64_t col0) {
    DpeStream::Tile t;
    t.on = true;
    t.rows = uint32_t(std::min<uint64_t>(dims.rows, next.m - row0));
    t.cols = uint32_t(std::min<uint64_t>(dims.cols, next.n - col0));
    t.ldc_bytes = uint64_t(next.ldc) * 4;
    t.c_addr = next.c + row0 * t.ldc_bytes + col0 * 4;
    return t;
  };
  const DpeStream::Tile t0 = tile_of(0, 0);
  if (load.on && tile_span(t0).overlaps(tile_span(load))) return false;
  if (comp.on && tile_span(t0).overlaps(tile_span(comp)) && !same_tile(t0, comp)) return false;
  const bool has_t1 = next.n > dims.cols || next.m > dims.rows;
  if (has_t1 && load.on) {
    const DpeStream::Tile t1 = next.n > dims.cols ? tile_of(0, dims.cols) : tile_of(dims.rows, 0);
    if (tile_span(t1).overlaps(tile_span(load)) && !same_tile(t1, load)) return false;
  }
  return true;
}

DpeOutcome TlmDpeBackend::execute(const DpeJob &job) {
  const isa::DpeCommand &cmd = job.cmd;
  uint8_t *mem = job.local_mem.data();
  dpe_matmul(cmd, mem + (cmd.a - job.local_base), mem + (cmd.b - job.local_base),
             mem + (cmd.c - job.local_base));
  if (cmd.dtype == isa::DpeDType::FP32) return DpeOutcome{dpe_tlm_cycles(p_, cmd), true, {}};
  const uint64_t cycles = job.chain ? stream_.chain(cmd) : stream_.start(cmd);
  return DpeOutcome{cycles, true, {}, stream_.pending()};
}

DpeOutcome TlmDpeBackend::finish() { return DpeOutcome{stream_.finish(), true, {}}; }

namespace {

struct BackendTable {
  std::mutex mu;
  std::map<std::string, DpeBackendFactory> factories;
  DpeBackendOptions options;
  BackendTable() {
    factories["tlm"] = [](const ChipParams &p, uint32_t, uint32_t, const DpeBackendOptions &) {
      return std::make_unique<TlmDpeBackend>(p.dpe);
    };
  }
};

BackendTable &backend_table() {
  static BackendTable t;
  return t;
}

}  // namespace

DpeBackendOptions parse_rtl_trace_request(const std::string &spec, uint64_t window_cycles) {
  DpeBackendOptions o;
  o.trace = true;
  o.trace_window_cycles = window_cycles;
  auto bad = [&] {
    return Error("'" + spec + "' is not pe=ROW,COL[,file=OUT.fst]").with_path("--trace-rtl");
  };
  if (spec.rfind("pe=", 0) != 0) throw bad();
  std::string rest = spec.substr(3);
  const size_t file_at = rest.find(",file=");
  if (file_at != std::string::npos) {
    o.trace_path = rest.substr(file_at + 6);
    rest = rest.substr(0, file_at);
    if (o.trace_path.empty()) throw bad();
  }
  const size_t comma = rest.find(',');
  if (comma == std::string::npos || comma == 0 || comma + 1 == rest.size()) throw bad();
  const std::string row = rest.substr(0, comma), col = rest.substr(comma + 1);
  auto digits = [](const std::string &t) {
    return !t.empty() && t.size() < 9 && t.find_first_not_of("0123456789") == std::string::npos;
  };
  if (!digits(row) || !digits(col)) throw bad();
  o.trace_pe_row = uint32_t(std::stoul(row));
  o.trace_pe_col = uint32_t(std::stoul(col));
  return o;
}

void set_dpe_backend_options(DpeBackendOptions options) {
  BackendTable &t = backend_table();
  std::lock_guard lock(t.mu);
  t.options = std::move(options);
}

const DpeBackendOptions &dpe_backend_options() { return backend_table().options; }

void register_dpe_backend(const std::string &impl, DpeBackendFactory factory) {
  BackendTable &t = backend_table();
  std::lock_guard lock(t.mu);
  t.factories[impl] = std::move(factory);
}

std::vector<std::string> dpe_backend_names() {
  BackendTable &t = backend_table();
  std::lock_guard lock(t.mu);
  std::vector<std::string> names;
  for (const auto &[name, f] : t.factories) names.push_back(name);
  return names;
}

std::unique_ptr<DpeBackend> make_dpe_backend(const std::string &impl, const ChipParams &p,
                                             uint32_t pe_row, uint32_t pe_col) {
  BackendTable &t = backend_table();
  DpeBackendFactory f;
  {
    std::lock_guard lock(t.mu);
    auto it = t.factories.find(impl);
    if (it == t.factories.end()) {
      std::string have;
      for (const auto &[name, g] : t.factories) have += (have.empty() ? "" : ", ") + name;
      const bool rtl_kind = impl == "rtl" || impl == "lockstep";
      throw Error("DPE implementation '" + impl + "' is not available (have " + have + ")" +
                  (rtl_kind ? "; it needs opforge_rtl (Verilator) linked and registered" : ""))
          .with_path("pe.dpe.impl");
    }
    f = it->second;
  }
  return f(p, pe_row, pe_col, t.options);
}

namespace {

struct SfuBackendTable {
  std::mutex mu;
  std::map<std::string, SfuBackendFactory> factories;
};

SfuBackendTable &sfu_backend_table() {
  static SfuBackendTable t;
  return t;
}

}  // namespace

void register_sfu_backend(const std::string &impl, SfuBackendFactory factory) {
  SfuBackendTable &t = sfu_backend_table();
  std::lock_guard lock(t.mu);
  t.factories[impl] = std::move(factory);
}

std::unique_ptr<SfuBackend> make_sfu_backend(const std::string &impl, const ChipParams &p,
                                             uint32_t pe_row, uint32_t pe_col) {
  if (impl == "tlm") return nullptr;
  SfuBackendTable &t = sfu_backend_table();
  SfuBackendFactory f;
  std::string known = "tlm";
  {
    std::lock_guard lock(t.mu);
    auto it = t.factories.find(impl);
    if (it != t.factories.end()) f = it->second;
    for (const auto &[name, g] : t.factories) known += ", " + name;
  }
  if (!f)
    throw Error("SFU implementation '" + impl + "' is not available (have " + known +
                "; rtl and lockstep come with opforge_rtl)")
        .with_path("pe.sfu.impl");
  return f(p, pe_row, pe_col);
}

PeAccelerator::PeAccelerator(const ChipParams &p, uint32_t pe, PeServices &svc, CounterRegistry &c)
    : p_(p),
      timed_(p.sim.timing == TimingMode::Lt),
      svc_(svc),
      buf_(p.dma.burst_bytes),
      dma_(p.dma.engines),
      pe_row_(pe / p.grid.cols),
      pe_col_(pe % p.grid.cols) {
  const std::string &impl = dpe_backend_options().impl;
  dpe_backend_ = make_dpe_backend(impl.empty() ? std::string(to_string(p.arch.pe.dpe.impl)) : impl,
                                  p, pe_row_, pe_col_);
  sfu_backend_ = make_sfu_backend(std::string(to_string(p.arch.pe.sfu.impl)), p, pe_row_, pe_col_);
  std::string pre = pe_prefix(pe / p.grid.cols, pe % p.grid.cols) + ".";
  dma_cmds_ = &c.add(pre + "dma.commands");
  dma_bytes_read_ = &c.add(pre + "dma.bytes_read");
  dma_bytes_written_ = &c.add(pre + "dma.bytes_written");
  dma_bad_ = &c.add(pre + "dma.bad_descriptors");
  dma_busy_ = FracCounter(c.add(pre + "dma.busy_cycles"));
  dpe_cmds_ = &c.add(pre + "dpe.commands");
  dpe_macs_ = &c.add(pre + "dpe.macs");
  for (auto [t, name] :
       {std::pair{isa::DpeDType::BF16, "bf16"}, std::pair{isa::DpeDType::FP16, "fp16"},
        std::pair{isa::DpeDType::FP32, "fp32"}, std::pair{isa::DpeDType::INT8, "int8"}})
    dpe_macs_by_dtype_[size_t(t)] = &c.add(pre + "dpe.macs_" + name);
  dpe_bad_ = &c.add(pre + "dpe.bad_descriptors");
  dpe_chained_ = &c.add(pre + "dpe.chained_cmds");
  dpe_slots_ = std::make_unique<DpeStream>(p.dpe);
  dpe_busy_ = FracCounter(c.add(pre + "dpe.busy_cycles"));
  sfu_ops_ = &c.add(pre + "sfu.ops");
  sfu_elements_ = &c.add(pre + "sfu.elements");
  sfu_busy_ = FracCounter(c.add(pre + "sfu.busy_cycles"));
  stall_dma_wait_ = &c.add(pre + "stall.dma_wait_cycles");
  stall_dpe_wait_ = &c.add(pre + "stall.dpe_wait_cycles");
  stall_dma_queue_ = &c.add(pre + "stall.dma_queue_cycles");
  stall_dpe_queue_ = &c.add(pre + "stall.dpe_queue_cycles");
  stall_mem_ = &c.add(pre + "stall.mem_cycles");
}

void PeAccelerator::reset_queues() {
  close_dpe_stream();
  last_fault_.clear();  // a fault of an earlier instance is not this one's
  for (auto &e : dma_) e.inflight.clear();
  dpe_inflight_.clear();
}

bool PeAccelerator::close_dpe_stream() {
  if (!dpe_open_) return true;
  dpe_open_ = false;
  dpe_slots_->finish();
  const DpeOutcome out = dpe_backend_->finish();
  if (!out.ok) {
    last_fault_ = out.fault;
    return false;
  }
  if (timed_) {
    dpe_busy_.add(double(out.busy_cycles));
    dpe_free_ = dpe_tail_start_ + double(out.busy_cycles);
    dpe_done_ = std::max(dpe_done_, dpe_free_);
  }
  return true;
}

double PeAccelerator::drain_time() {
  close_dpe_stream();
  double t = dpe_done_;
  for (double d : tag_done_) t = std::max(t, d);
  return t;
}

bool PeAccelerator::move(uint64_t addr, void *data, uint64_t len, bool is_write, double t,
                         double &done) {
  LocalMemTarget &lm = svc_.local_mem();
  uint64_t a = svc_.translate(addr);
  if (lm.contains(a, len)) {
    uint8_t *p = lm.data() + (a - lm.base());
    if (is_write)
      std::copy_n(static_cast<const uint8_t *>(data), len, p);
    else
      std::copy_n(p, len, static_cast<uint8_t *>(data));
    done = timed_ ? lm.access(a - lm.base(), len, is_write, t) : t;
    return true;
  }
  return svc_.global_access(a, data, len, is_write, t, done);
}

isa::AccelStatus PeAccelerator::dma_issue(const isa::DmaCommand &cmd) {
  auto bad = [&](uint64_t addr, std::string why) {
    ++*dma_bad_;
    last_fault_ = "DMA descriptor: " + why;
    return isa::AccelStatus{false, addr};
  };
  if (cmd.tag > 15) return bad(0, "tag out of range");
  if (cmd.rows == 0 || cmd.row_bytes == 0)
    return bad(cmd.src, "empty transfer (rows or row_bytes is 0)");
  // Its work against the launch's watchdog before a row is looked at (2^62 rows is a
  // number, not a loop): a cycle a row at least, and its bytes at the engine's rate.
  const long double dma_cycles =
      static_cast<long double>(cmd.rows) *
      (1.0L + static_cast<long double>(cmd.row_bytes) / p_.dma.bytes_per_cycle);
  if (dma_cycles > static_cast<long double>(p_.sim.watchdog_cycles))
    return bad(cmd.src,
               "watchdog: " + std::to_string(cmd.rows) + " rows of " +
                   std::to_string(cmd.row_bytes) + " bytes take more than the cycle budget of " +
                   std::to_string(p_.sim.watchdog_cycles) + " cycles (simulation.watchdog_cycles)");
  // Validate every row of both sides before moving anything.
  for (uint64_t r = 0; r < cmd.rows; ++r) {
    uint64_t s = cmd.src + uint64_t(int64_t(r) * cmd.src_stride);
    uint64_t d = cmd.dst + uint64_t(int64_t(r) * cmd.dst_stride);
    if (!svc_.mapped(svc_.translate(s), cmd.row_bytes))
      return bad(s, "source row " + std::to_string(r) + " unmapped");
    if (!svc_.mapped(svc_.translate(d), cmd.row_bytes))
      return bad(d, "destination row " + std::to_string(r) + " unmapped");
    std::string why;
    if (!svc_.in_bounds(svc_.translate(s), cmd.row_bytes, false, why))
      return bad(s, "source row " + std::to_string(r) + ": " + why);
    if (!svc_.in_bounds(svc_.translate(d), cmd.row_bytes, true, why))
      return bad(d, "destination row " + std::to_string(r) + ": " + why);
  }
  ++*dma_cmds_;
  double now = svc_.now_cycles();
  // Engine: the one free first (lowest index on ties: deterministic).
  size_t ei = 0;
  for (size_t i = 1; i < dma_.size(); ++i)
    if (dma_[i].issue.free_at < dma_[ei].issue.free_at) ei = i;
  Engine &e = dma_[ei];
  while (!e.inflight.empty() && e.inflight.front() <= now) e.inflight.pop_front();
  if (timed_ && e.inflight.size() >= p_.dma.queue_depth) {
    svc_.stall_until(e.inflight.front(), *stall_dma_queue_);
    now = svc_.now_cycles();
    e.inflight.pop_front();
  }
  uint64_t total = cmd.rows * cmd.row_bytes;
  double issue_busy = double(total) / p_.dma.bytes_per_cycle;
  double t0 = e.issue.occupy(now, p_.dma.setup_cycles + issue_busy) + p_.dma.setup_cycles;
  double done = t0;
  uint64_t sent = 0;
  for (uint64_t r = 0; r < cmd.rows; ++r) {
    uint64_t s = cmd.src + uint64_t(int64_t(r) * cmd.src_stride);
    uint64_t d = cmd.dst + uint64_t(int64_t(r) * cmd.dst_stride);
    for (uint64_t o = 0; o < cmd.row_bytes; o += p_.dma.burst_bytes) {
      uint64_t n = std::min<uint64_t>(p_.dma.burst_bytes, cmd.row_bytes - o);
      double ti = t0 + double(sent) / p_.dma.bytes_per_cycle;
      double rd = ti, wr = ti;
      if (!move(s + o, buf_.data(), n, false, ti, rd)) return bad(s + o, "source unmapped");
      if (!move(d + o, buf_.data(), n, true, rd, wr)) return bad(d + o, "destination unmapped");
      done = std::max(done, wr);
      sent += n;
    }
  }
  *dma_bytes_read_ += total;
  *dma_bytes_written_ += total;
  if (timed_) {
    // Busy: the time the engine has at least one command in flight. Up to
    // queue_depth commands overlap; summing each one's span counted the
    // overlap again (149% of one engine on memory_stress's stream_add).
    const double from = std::max(t0 - p_.dma.setup_cycles, e.busy_until);
    if (done > from) dma_busy_.add(done - from);
    e.busy_until = std::max(e.busy_until, done);
    e.inflight.push_back(done);
    tag_done_[cmd.tag] = std::max(tag_done_[cmd.tag], done);
  }
  return {};
}

isa::AccelStatus PeAccelerator::dma_wait(uint32_t tag) {
  if (timed_) svc_.stall_until(tag_done_[tag & 15], *stall_dma_wait_);
  return {};
}

isa::AccelStatus PeAccelerator::dpe_issue(const isa::DpeCommand &cmd) {
  LocalMemTarget &lm = svc_.local_mem();
  uint32_t eb = dpe_input_bytes(cmd.dtype);
  auto bad = [&](uint64_t addr, const std::string &why) {
    ++*dpe_bad_;
    last_fault_ = "DPE descriptor: " + why;
    return isa::AccelStatus{false, addr};
  };
  if (eb == 0) return bad(cmd.a, "unknown dtype");
  if (cmd.m == 0 || cmd.n == 0 || cmd.k == 0) return bad(cmd.a, "empty tile (m, n or k is 0)");
  if (cmd.lda < cmd.k || cmd.ldb < cmd.n || cmd.ldc < cmd.n)
    return bad(cmd.a, "leading dimension smaller than the tile");
  if (auto over = dpe_tile_limit_violation(p_.dpe, cmd)) return bad(cmd.a, *over);
  struct Operand {
    uint64_t addr, bytes;
  };
  Operand ops[3] = {{cmd.a, (uint64_t(cmd.m - 1) * cmd.lda + cmd.k) * eb},
                    {cmd.b, (uint64_t(cmd.k - 1) * cmd.ldb + cmd.n) * eb},
                    {cmd.c, (uint64_t(cmd.m - 1) * cmd.ldc + cmd.n) * 4}};
  uint64_t local[3];
  for (int i = 0; i < 3; ++i) {
    uint64_t a = svc_.translate(ops[i].addr);
    if (!lm.contains(a, ops[i].bytes))
      return bad(ops[i].addr, "operand outside the PE's local memory");
    local[i] = a;
  }
  DpeJob job{cmd,       std::span<uint8_t>(lm.data(), lm.size_bytes()),
             lm.base(), pe_row_,
             pe_col_,   dpe_command_index_++,
             0.0};
  job.cmd.a = local[0];
  job.cmd.b = local[1];
  job.cmd.c = local[2];
  double now = timed_ ? svc_.now_cycles() : 0.0;
  if (timed_) {
    // The queue holds commands the block has not taken yet: a command is
    // taken at its predecessor's pause point (or start, alone).
    while (!dpe_inflight_.empty() && dpe_inflight_.front() <= now) dpe_inflight_.pop_front();
    if (dpe_inflight_.size() >= p_.dpe.queue_depth) {
      svc_.stall_until(dpe_inflight_.front(), *stall_dpe_queue_);
      now = svc_.now_cycles();
      dpe_inflight_.pop_front();
    }
  }
  job.issue_cycle = now;
  const double ready = now + p_.dpe.setup_cycles;
  // Chain when the command was waiting when the block could take it (its
  // pause point) and its operands do not collide with rows still to come.
  const bool chain = timed_ && dpe_open_ && dpe_backend_->chains() && ready <= dpe_tail_start_ &&
                     dpe_chain_safe(*dpe_slots_, p_.dpe, job.cmd);
  if (!chain && !close_dpe_stream()) return isa::AccelStatus{false, cmd.a};
  job.chain = chain;
  DpeOutcome out = dpe_backend_->execute(job);
  if (!out.ok) {  // the backend stops the run (a lockstep divergence, an RTL error)
    // Leave the block idle for later launches: run what stays open to DONE.
    dpe_open_ = out.pending;
    close_dpe_stream();
    dpe_slots_->finish();
    last_fault_ = out.fault;
    return isa::AccelStatus{false, cmd.a};
  }
  uint64_t macs = uint64_t(cmd.m) * cmd.n * cmd.k;
  ++*dpe_cmds_;
  *dpe_macs_ += macs;
  if (size_t(cmd.dtype) < 4) *dpe_macs_by_dtype_[size_t(cmd.dtype)] += macs;
  if (out.pending) {
    if (chain)
      dpe_slots_->chain(job.cmd);
    else
      dpe_slots_->start(job.cmd);
  }
  dpe_open_ = out.pending;
  if (!timed_) {
    // No time: every command completes before the next.
    if (!close_dpe_stream()) return isa::AccelStatus{false, cmd.a};
    return {};
  }
  const double busy = double(out.busy_cycles);
  const double start = chain ? dpe_tail_start_ : std::max(ready, dpe_free_);
  if (chain) ++*dpe_chained_;
  dpe_busy_.add(busy);
  if (out.pending) {
    dpe_tail_start_ = start + busy;
  } else {
    dpe_free_ = start + busy;
    dpe_done_ = std::max(dpe_done_, dpe_free_);
  }
  dpe_inflight_.push_back(start + busy);
  return {};
}

isa::AccelStatus PeAccelerator::dpe_wait() {
  // The PE reads C only after its rows are written: the open stream ends here.
  if (!close_dpe_stream()) return isa::AccelStatus{false, 0};
  if (timed_) svc_.stall_until(dpe_done_, *stall_dpe_wait_);
  return {};
}

isa::AccelStatus PeAccelerator::sfu_results(isa::SfuFunc fn, unsigned prec_bits, uint64_t pc,
                                            std::span<SfuLane> lanes) {
  SfuJob job{fn, prec_bits, pc, pe_row_, pe_col_, sfu_instruction_index_++, lanes};
  SfuOutcome out = sfu_backend_->execute(job);
  if (!out.ok) {  // a lockstep divergence or an RTL error stops the run
    last_fault_ = out.fault;
    return isa::AccelStatus{false, pc};
  }
  sfu_busy_from_backend_ = true;
  sfu_backend_busy_ = out.busy_cycles;
  return {};
}

bool PeAccelerator::ext_executed(const isa::ExtInsn &insn, uint64_t elements) {
  if (insn.unit != isa::ExtUnit::Sfu) return !timed_;
  const uint64_t groups = (elements + insn.elements_per_cycle - 1) / insn.elements_per_cycle;
  const double busy = double(groups) * double(insn.occupancy_cycles);
  ++*sfu_ops_;
  *sfu_elements_ += elements;
  sfu_busy_.add(busy);
  if (timed_) svc_.hold_core(double(insn.latency_cycles) + busy);
  return true;
}

void PeAccelerator::sfu_executed(isa::SfuFunc, uint64_t elements) {
  ++*sfu_ops_;
  *sfu_elements_ += elements;
  const double busy =
      sfu_busy_from_backend_ ? sfu_backend_busy_ : sfu_busy_cycles(p_.sfu, elements);
  sfu_busy_from_backend_ = false;
  sfu_busy_.add(busy);
  if (timed_) svc_.hold_core(busy);
}

}  // namespace opforge::model
