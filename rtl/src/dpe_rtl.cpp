//===- dpe_rtl.cpp - C++ adapter owning the verilated DPE MAC array -------===//
#include "opforge/rtl/dpe_rtl.h"

#include <algorithm>
#include <cstring>
#include <deque>
#include <iterator>
#include <utility>

#include "dpe_variants.h"
#include "opforge/rtl/dpe_ref.h"
#include "opforge/support/error.h"
#include "verilated.h"
#include "verilated_port.h"
#include "verilated_fst_c.h"

namespace opforge::rtl {

using detail::get_lane;
using detail::put_lane;
using detail::put_lanes16;

namespace {

// A command whose tiles are in the block's stream (until its last row is out).
struct Flight {
  isa::DpeCommand cmd;
  uint8_t *a = nullptr, *b = nullptr, *c = nullptr;
  const uint8_t *a_end = nullptr, *c_end = nullptr;  // past the last byte of A and C read/written
  uint64_t esz = 2, tiles = 0, tiles_n = 0;
  uint32_t k_beats = 0;
  bool int8 = false;
  uint64_t id = 0;
};

// A 16-bit little-endian element of guest memory.
inline uint16_t load16(const uint8_t *p) {
  if constexpr (detail::kLittleEndianHost) {
    uint16_t v;
    std::memcpy(&v, p, 2);
    return v;
  } else {
    return static_cast<uint16_t>(p[0] | (p[1] << 8));
  }
}

// Position in one of the three beat streams: command (sequence number), tile
// and beat in tile.
struct Cursor {
  uint64_t seq = 0;
  uint64_t tile = 0;
  uint32_t beat = 0;
};

}  // namespace

// One verilated array size behind a common interface.
struct DpeRtl::Impl {
  virtual ~Impl() = default;
  virtual DpeIssueResult issue(const isa::DpeCommand &cmd, std::span<uint8_t> mem,
                               const DpeOperandOffsets &off, bool chain, uint64_t id) = 0;
  virtual uint64_t finish() = 0;
  virtual bool pending() const = 0;
  virtual void set_inject_fault(bool on) = 0;
  virtual uint64_t cycles() const = 0;
  DpeArrayShape array;
  std::function<void(uint64_t)> on_retire;
};

namespace {

template <class Model>
class DpeModelImpl final : public DpeRtl::Impl {
 public:
  explicit DpeModelImpl(const DpeRtlOptions &opts)
      : options_(opts), context_(std::make_unique<VerilatedContext>()) {
    array = opts.array;
    if (array.rows > kRowLanes || array.cols > kColLanes)
      throw Error("verilated DPE ports narrower than the array").with_path("rtl.dpe.array");
    if (!options_.trace_path.empty()) context_->traceEverOn(true);
    top_ = std::make_unique<Model>(context_.get(), "dpe");
    if (!options_.trace_path.empty()) {
      wave_ = std::make_unique<VerilatedFstC>();
      top_->trace(wave_.get(), 99);
      wave_->open(options_.trace_path.c_str());
      if (!wave_->isOpen()) {
        top_->final();
        throw Error("cannot open waveform file for writing").with_file(options_.trace_path);
      }
    }
    top_->clk = 0;
    top_->inject_fault = 0;
    reset();
  }

  ~DpeModelImpl() override {
    top_->final();
    if (wave_) wave_->close();
  }

  void set_inject_fault(bool on) override {
    top_->inject_fault = on ? 1 : 0;
    top_->eval();
  }

  uint64_t cycles() const override { return cycle_; }

  DpeIssueResult issue(const isa::DpeCommand &cmd, std::span<uint8_t> mem,
                       const DpeOperandOffsets &off, bool chain, uint64_t id) override;
  uint64_t finish() override;
  bool pending() const override { return pending_; }

 private:
  // Clock the block until it pauses (stop_at_pause: the command is taken and
  // cmd_ready is high again) or leaves DONE; returns the cycles. Throws
  // opforge::Error (after a reset) past watchdog_cycles.
  uint64_t clock(bool stop_at_pause, uint64_t watchdog_cycles, bool &ended);
  // Drop the stream after an error: reset the block, forget every command.
  [[noreturn]] void fail(const std::string &what);
  Flight &flight(uint64_t seq) { return flights_[seq - first_seq_]; }
  uint64_t end_seq() const { return first_seq_ + flights_.size(); }
  // Move a cursor past commands (or their ends) the stream has no beats for.
  void settle(Cursor &cur, int stream);
  uint32_t rows_in_tile(const Flight &f, uint64_t tile) const {
    const uint64_t row0 = (tile / f.tiles_n) * array.rows;
    return static_cast<uint32_t>(std::min<uint64_t>(array.rows, f.cmd.m - row0));
  }
  void put_cin();
  void put_op();
  // Point op_tile_ at the op cursor's tile (after the cursor moved to
  // another tile or command).
  void load_op_tile();

  // Lanes of the op ports (an upper bound of the array's rows and columns).
  static constexpr unsigned kRowLanes = sizeof(decltype(std::declval<Model &>().op_a)) * 8 / 16;
  static constexpr unsigned kColLanes = sizeof(decltype(std::declval<Model &>().op_b)) * 8 / 16;

  // The op stream's current tile, so that a beat reads its operands without
  // deque lookups or per-lane bounds checks: a pointer to each A row of the
  // tile and to B's first column of it; lanes past m or n stay 0 in a16_ /
  // b16_ (cleared when the tile is loaded).
  struct OpTile {
    const Flight *f = nullptr;  // nullptr: no op beats left in the stream
    const uint8_t *a_row[kRowLanes] = {};
    const uint8_t *b_col0 = nullptr;
    uint64_t ldb_bytes = 0;
    uint32_t rows_on = 0, cols_on = 0;  // lanes inside m and n
    uint32_t k = 0, k_beats = 0;
    bool int8 = false;
    bool full = false;  // every lane inside m and n, and the ports exactly the array's lanes
    const uint16_t *a_pack = nullptr;  // full tile: op_a's lanes beat by beat (a_pack_)
  };
  // put_op for a full tile: lane counts known at compile time.
  void put_op_full();

  // Two cycles with rst_n low: back to IDLE, streams idle.
  void reset() {
    top_->rst_n = 0;
    top_->cmd_valid = 0;
    top_->op_valid = 0;
    top_->cin_valid = 0;
    top_->cout_ready = 0;
    top_->eval();
    tick();
    tick();
    top_->rst_n = 1;
    top_->eval();
  }

  // Dump the current values if `cycle` is inside the window.
  void dump(uint64_t cycle) {
    if (!wave_) return;
    const uint64_t start = options_.trace_start_cycle;
    if (cycle >= start && (options_.trace_cycles == 0 || cycle < start + options_.trace_cycles))
      wave_->dump(context_->time());
  }

  // One clock cycle: rising edge, then falling edge (both dumped as `cycle`).
  // Nothing in the block acts on the falling edge and its outputs depend on
  // state (and the constant cout_ready) only, so without a waveform the
  // falling edge is not evaluated: the model is told the clock is low, and
  // the next eval() sees a rising edge. That halves the evaluations per cycle.
  void tick() {
    if (!wave_) {
      ++cycle_;
      top_->clk = 1;
      top_->eval();
      top_->clk = 0;
      if (!detail::mark_clock_low(*top_->rootp)) top_->eval();
      context_->timeInc(2);
      return;
    }
    const uint64_t cycle = cycle_++;
    top_->clk = 1;
    top_->eval();
    context_->timeInc(1);
    dump(cycle);
    top_->clk = 0;
    if (wave_ || !detail::mark_clock_low(*top_->rootp)) top_->eval();
    context_->timeInc(1);
    dump(cycle);
  }

  DpeRtlOptions options_;
  std::unique_ptr<VerilatedContext> context_;
  std::unique_ptr<Model> top_;
  std::unique_ptr<VerilatedFstC> wave_;  // the FST waveform, when asked
  uint64_t cycle_ = 0;                   // rising edges so far
  std::deque<Flight> flights_;           // commands with rows still to drain
  uint64_t first_seq_ = 0;               // sequence number of flights_.front()
  Cursor cin_, op_, cout_;
  OpTile op_tile_;
  // op_a's lanes of every beat of the full tiles of one row of tiles
  // (command pack_seq_, row of tiles pack_row_tile_), gathered once for the
  // row's tiles and refreshed on every clock() call (memory may change in
  // between). Not used while a command's C overlaps a command's A in the
  // stream (pack_ok_): C rows written during the burst could change A.
  std::vector<uint16_t> a_pack_;
  uint64_t pack_seq_ = ~uint64_t{0}, pack_row_tile_ = 0;
  bool pack_ok_ = true;
  uint16_t a16_[kRowLanes] = {}, b16_[kColLanes] = {};  // the op beat's lanes
  bool pending_ = false;                                // paused at a pause point
  uint64_t budget_cycles_ = 0;  // sum of the in-flight commands' alone cycles (watchdog)
};

enum Stream { kCin = 0, kOp = 1, kCout = 2 };

template <class Model>
void DpeModelImpl<Model>::settle(Cursor &cur, int stream) {
  while (cur.seq < end_seq()) {
    const Flight &f = flight(cur.seq);
    const bool has = stream == kCin ? f.cmd.accumulate : stream == kOp ? f.cmd.k > 0 : true;
    if (has && cur.tile < f.tiles) return;
    ++cur.seq;
    cur.tile = 0;
    cur.beat = 0;
  }
}

template <class Model>
void DpeModelImpl<Model>::fail(const std::string &what) {
  reset();  // leave the block usable for the next command
  flights_.clear();
  first_seq_ = 0;
  cin_ = op_ = cout_ = Cursor{};
  op_tile_ = OpTile{};
  pack_seq_ = ~uint64_t{0};
  pack_ok_ = true;
  pending_ = false;
  budget_cycles_ = 0;
  top_->cmd_valid = 0;
  top_->cin_valid = 0;
  top_->op_valid = 0;
  top_->cout_ready = 0;
  throw Error(what);
}

template <class Model>
void DpeModelImpl<Model>::put_cin() {
  Model &top = *top_;
  top.cin_valid = cin_.seq < end_seq();
  if (!top.cin_valid) return;
  const Flight &f = flight(cin_.seq);
  const uint32_t cols = array.cols;
  const uint64_t row = (cin_.tile / f.tiles_n) * array.rows + cin_.beat;
  const uint64_t col0 = (cin_.tile % f.tiles_n) * cols;
  for (uint32_t c = 0; c < cols; ++c) {
    uint32_t v = 0;
    if (col0 + c < f.cmd.n) std::memcpy(&v, f.c + (row * f.cmd.ldc + col0 + c) * 4, 4);
    put_lane(top.cin_data, c * 32, 32, v);
  }
}

template <class Model>
void DpeModelImpl<Model>::load_op_tile() {
  op_tile_ = OpTile{};
  std::fill(std::begin(a16_), std::end(a16_), uint16_t{0});
  std::fill(std::begin(b16_), std::end(b16_), uint16_t{0});
  if (op_.seq >= end_seq()) return;
  const Flight &f = flight(op_.seq);
  const isa::DpeCommand &cmd = f.cmd;
  const uint64_t row0 = (op_.tile / f.tiles_n) * array.rows;
  const uint64_t col0 = (op_.tile % f.tiles_n) * array.cols;
  OpTile &t = op_tile_;
  t.f = &f;
  t.rows_on = static_cast<uint32_t>(std::min<uint64_t>(array.rows, cmd.m - row0));
  t.cols_on = static_cast<uint32_t>(std::min<uint64_t>(array.cols, cmd.n - col0));
  for (uint32_t r = 0; r < t.rows_on; ++r) t.a_row[r] = f.a + (row0 + r) * cmd.lda * f.esz;
  t.b_col0 = f.b + col0 * f.esz;
  t.ldb_bytes = cmd.ldb * f.esz;
  t.k = cmd.k;
  t.k_beats = f.k_beats;
  t.int8 = f.int8;
  t.full = t.rows_on == kRowLanes && t.cols_on == kColLanes;
  if (!t.full || !pack_ok_) return;
  const uint64_t row_tile = op_.tile / f.tiles_n;
  if (pack_seq_ != op_.seq || pack_row_tile_ != row_tile) {
    a_pack_.resize(uint64_t{f.k_beats} * kRowLanes);
    for (unsigned r = 0; r < kRowLanes; ++r) {
      const uint8_t *p = t.a_row[r];
      uint16_t *out = a_pack_.data() + r;
      if (f.int8) {
        for (uint64_t b = 0, kk = 0; b < f.k_beats; ++b, kk += kDpeInt8PerBeat)
          out[b * kRowLanes] = kk + 1 < cmd.k ? load16(p + kk) : p[kk];
      } else {
        for (uint64_t b = 0; b < f.k_beats; ++b) out[b * kRowLanes] = load16(p + b * 2);
      }
    }
    pack_seq_ = op_.seq;
    pack_row_tile_ = row_tile;
  }
  t.a_pack = a_pack_.data();
}

template <class Model>
void DpeModelImpl<Model>::put_op_full() {
  Model &top = *top_;
  const OpTile &t = op_tile_;
  top.op_valid = 1;
  uint16_t a[kRowLanes], b[kColLanes];
  if (t.a_pack) {
    put_lanes16(top.op_a, t.a_pack + uint64_t{op_.beat} * kRowLanes, kRowLanes);
    const uint64_t kk = uint64_t(op_.beat) * (t.int8 ? kDpeInt8PerBeat : 1);
    const uint8_t *b0 = t.b_col0 + kk * t.ldb_bytes;
    if (!t.int8) {
      for (unsigned c = 0; c < kColLanes; ++c) b[c] = load16(b0 + c * 2);
    } else if (kk + 1 < t.k) {
      const uint8_t *b1 = b0 + t.ldb_bytes;
      for (unsigned c = 0; c < kColLanes; ++c) b[c] = static_cast<uint16_t>(b0[c] | (b1[c] << 8));
    } else {
      for (unsigned c = 0; c < kColLanes; ++c) b[c] = b0[c];
    }
    put_lanes16(top.op_b, b, kColLanes);
    return;
  }
  if (t.int8) {
    const uint64_t kk = uint64_t(op_.beat) * kDpeInt8PerBeat;
    const uint8_t *b0 = t.b_col0 + kk * t.ldb_bytes;
    if (kk + 1 < t.k) {
      const uint8_t *b1 = b0 + t.ldb_bytes;
      for (unsigned r = 0; r < kRowLanes; ++r) a[r] = load16(t.a_row[r] + kk);
      for (unsigned c = 0; c < kColLanes; ++c) b[c] = static_cast<uint16_t>(b0[c] | (b1[c] << 8));
    } else {
      for (unsigned r = 0; r < kRowLanes; ++r) a[r] = t.a_row[r][kk];
      for (unsigned c = 0; c < kColLanes; ++c) b[c] = b0[c];
    }
  } else {
    const uint64_t kk = op_.beat;
    const uint8_t *b0 = t.b_col0 + kk * t.ldb_bytes;
    for (unsigned r = 0; r < kRowLanes; ++r) a[r] = load16(t.a_row[r] + kk * 2);
    for (unsigned c = 0; c < kColLanes; ++c) b[c] = load16(b0 + c * 2);
  }
  put_lanes16(top.op_a, a, kRowLanes);
  put_lanes16(top.op_b, b, kColLanes);
}

template <class Model>
void DpeModelImpl<Model>::put_op() {
  Model &top = *top_;
  const OpTile &t = op_tile_;
  if (t.full) return put_op_full();
  top.op_valid = t.f != nullptr;
  if (!t.f) return;
  if (t.int8) {
    // Two k steps per beat: kk in bits 7:0, kk + 1 (0 past k) in bits 15:8.
    const uint64_t kk = uint64_t(op_.beat) * kDpeInt8PerBeat;
    const uint8_t *b0 = t.b_col0 + kk * t.ldb_bytes;
    if (kk + 1 < t.k) {
      const uint8_t *b1 = b0 + t.ldb_bytes;
      for (uint32_t r = 0; r < t.rows_on; ++r) a16_[r] = load16(t.a_row[r] + kk);
      for (uint32_t c = 0; c < t.cols_on; ++c)
        b16_[c] = static_cast<uint16_t>(b0[c] | (b1[c] << 8));
    } else {
      for (uint32_t r = 0; r < t.rows_on; ++r) a16_[r] = t.a_row[r][kk];
      for (uint32_t c = 0; c < t.cols_on; ++c) b16_[c] = b0[c];
    }
  } else {
    const uint64_t kk = op_.beat;
    const uint8_t *b = t.b_col0 + kk * t.ldb_bytes;
    for (uint32_t r = 0; r < t.rows_on; ++r) a16_[r] = load16(t.a_row[r] + kk * 2);
    for (uint32_t c = 0; c < t.cols_on; ++c) b16_[c] = load16(b + c * 2);
  }
  put_lanes16(top.op_a, a16_, array.rows);
  put_lanes16(top.op_b, b16_, array.cols);
}

template <class Model>
uint64_t DpeModelImpl<Model>::clock(bool stop_at_pause, uint64_t watchdog_cycles, bool &ended) {
  Model &top = *top_;
  const uint32_t cols = array.cols;
  // Memory may have changed since the last call: present fresh operands.
  bool cin_dirty = true, op_dirty = true;
  pack_seq_ = ~uint64_t{0};
  load_op_tile();
  top.cout_ready = 1;
  uint64_t cycles = 0;
  ended = false;
  for (;;) {
    // One burst: clock the block without returning to the caller.
    for (uint32_t i = 0; i < options_.burst_cycles; ++i) {
      // The drained row is written first, so a row loaded in the same cycle
      // (or later) reads it: loaded C rows are read after drained rows land.
      const bool fire_cout = top.cout_valid && top.cout_ready;
      bool retired = false;
      if (fire_cout) {
        if (cout_.seq >= end_seq())
          fail("RTL DPE produced more result rows than its commands have");
        const Flight &f = flight(cout_.seq);
        const uint64_t row = (cout_.tile / f.tiles_n) * array.rows + cout_.beat;
        const uint64_t col0 = (cout_.tile % f.tiles_n) * cols;
        for (uint32_t c = 0; c < cols && col0 + c < f.cmd.n; ++c) {
          const uint32_t v = get_lane(top.cout_data, c * 32, 32);
          std::memcpy(f.c + (row * f.cmd.ldc + col0 + c) * 4, &v, 4);
        }
        if (++cout_.beat == rows_in_tile(f, cout_.tile)) {
          cout_.beat = 0;
          retired = ++cout_.tile == f.tiles;
        }
        if (top.cin_valid) cin_dirty = true;
      }
      if (cin_dirty) {
        cin_dirty = false;
        put_cin();
      }
      if (op_dirty) {
        op_dirty = false;
        put_op();
      }
      // Handshakes are decided by the values before the rising edge.
      const bool fire_cmd = top.cmd_valid && top.cmd_ready;
      const bool fire_cin = top.cin_valid && top.cin_ready;
      const bool fire_op = top.op_valid && top.op_ready;
      const bool was_done = top.done;
      tick();
      ++cycles;
      if (fire_cmd) top.cmd_valid = 0;
      if (fire_cin) {
        Flight &f = flight(cin_.seq);
        if (++cin_.beat == rows_in_tile(f, cin_.tile)) {
          cin_.beat = 0;
          ++cin_.tile;
          settle(cin_, kCin);
        }
        cin_dirty = true;
      }
      if (fire_op) {
        if (++op_.beat == op_tile_.k_beats) {
          op_.beat = 0;
          ++op_.tile;
          settle(op_, kOp);
          load_op_tile();
        }
        op_dirty = true;
      }
      if (retired) {
        // Commands retire in order: this is the front one.
        const uint64_t id = flights_.front().id;
        cout_ = Cursor{cout_.seq + 1, 0, 0};
        flights_.pop_front();
        ++first_seq_;
        settle(cout_, kCout);
        if (on_retire) on_retire(id);
      }
      if (was_done) {
        ended = true;
        return cycles;
      }
      if (stop_at_pause && !top.cmd_valid && top.cmd_ready) return cycles;
      if (cycles > watchdog_cycles)
        fail("RTL DPE did not reach its " + std::string(stop_at_pause ? "pause point" : "DONE") +
             " within " + std::to_string(watchdog_cycles) + " cycles");
    }
  }
}

template <class Model>
DpeIssueResult DpeModelImpl<Model>::issue(const isa::DpeCommand &cmd, std::span<uint8_t> mem,
                                          const DpeOperandOffsets &off, bool chain, uint64_t id) {
  Model &top = *top_;
  if (chain && !pending_) throw Error("RTL DPE: a chained command without a paused stream");
  if (!chain && pending_)
    throw Error("RTL DPE: a command while a stream is paused (finish() it first)");
  if (chain && (cmd.m == 0 || cmd.n == 0))
    throw Error("RTL DPE: a command with m or n of 0 cannot be chained");
  const uint32_t rows = array.rows, cols = array.cols;
  Flight f;
  f.cmd = cmd;
  f.a = mem.data() + off.a;
  f.b = mem.data() + off.b;
  f.c = mem.data() + off.c;
  f.esz = off.elem_bytes;
  f.int8 = cmd.dtype == isa::DpeDType::INT8;
  f.tiles_n = (static_cast<uint64_t>(cmd.n) + cols - 1) / cols;
  f.tiles =
      cmd.m == 0 || cmd.n == 0 ? 0 : ((static_cast<uint64_t>(cmd.m) + rows - 1) / rows) * f.tiles_n;
  f.k_beats = f.int8
                  ? static_cast<uint32_t>((uint64_t(cmd.k) + kDpeInt8PerBeat - 1) / kDpeInt8PerBeat)
                  : cmd.k;
  f.id = id;
  if (f.tiles > 0) {
    if (cmd.k > 0) f.a_end = f.a + ((uint64_t{cmd.m} - 1) * cmd.lda + cmd.k) * f.esz;
    f.c_end = f.c + ((uint64_t{cmd.m} - 1) * cmd.ldc + cmd.n) * 4;
  }
  if (!chain) {
    flights_.clear();
    first_seq_ = 0;
    cin_ = op_ = cout_ = Cursor{};
    budget_cycles_ = 0;
    pack_seq_ = ~uint64_t{0};
    pack_ok_ = true;
  }
  flights_.push_back(f);
  // A result row written during a burst must not change operands gathered
  // before it (the A pack): any C over any A in the stream turns it off.
  for (const Flight &x : flights_) {
    if ((x.a < f.c_end && f.c < x.a_end) || (f.a < x.c_end && x.c < f.a_end)) pack_ok_ = false;
  }
  settle(cin_, kCin);
  settle(op_, kOp);
  settle(cout_, kCout);
  load_op_tile();
  budget_cycles_ += dpe_command_cycles(array, cmd);

  top.cmd_m = cmd.m;
  top.cmd_n = cmd.n;
  top.cmd_k = cmd.k;
  top.cmd_dtype = static_cast<uint8_t>(cmd.dtype);
  top.cmd_accumulate = cmd.accumulate;
  top.cmd_valid = 1;
  bool ended = false;
  const uint64_t cycles = clock(/*stop_at_pause=*/true, 4 * budget_cycles_ + 1000, ended);
  pending_ = !ended;
  if (ended) {
    if (!flights_.empty() && flights_.front().tiles == 0) flights_.pop_front(), ++first_seq_;
    if (!flights_.empty()) fail("RTL DPE finished before draining every result row");
    if (on_retire) on_retire(id);
    budget_cycles_ = 0;
  }
  return DpeIssueResult{cycles, pending_, f.tiles};
}

template <class Model>
uint64_t DpeModelImpl<Model>::finish() {
  if (!pending_) return 0;
  bool ended = false;
  const uint64_t cycles = clock(/*stop_at_pause=*/false, 4 * budget_cycles_ + 1000, ended);
  pending_ = false;
  budget_cycles_ = 0;
  if (!flights_.empty()) fail("RTL DPE finished before draining every result row");
  top_->cout_ready = 0;
  top_->cin_valid = 0;
  top_->op_valid = 0;
  return cycles;
}

std::unique_ptr<DpeRtl::Impl> make_impl(const DpeRtlOptions &opts) {
  if (opts.burst_cycles == 0) throw Error("burst_cycles must be > 0").with_path("rtl.burst_cycles");
#define OPFORGE_DPE_MAKE(R, C, MODEL)                   \
  if (opts.array.rows == (R) && opts.array.cols == (C)) \
    return std::make_unique<DpeModelImpl<MODEL>>(opts);
  OPFORGE_RTL_DPE_VARIANTS(OPFORGE_DPE_MAKE)
#undef OPFORGE_DPE_MAKE
  std::string have;
  for (const DpeArrayShape &s : DpeRtl::available_arrays())
    have += (have.empty() ? "" : ", ") + std::to_string(s.rows) + "x" + std::to_string(s.cols);
  throw Error("no verilated DPE of " + std::to_string(opts.array.rows) + "x" +
              std::to_string(opts.array.cols) + " in this build (have " + have +
              "; CMake OPFORGE_RTL_DPE_ARRAYS)")
      .with_path("rtl.dpe.array");
}

}  // namespace

DpeRtl::DpeRtl(DpeRtlOptions options) : impl_(make_impl(options)) {}
DpeRtl::~DpeRtl() = default;

std::vector<DpeArrayShape> DpeRtl::available_arrays() {
  std::vector<DpeArrayShape> shapes;
#define OPFORGE_DPE_LIST(R, C, MODEL) shapes.push_back(DpeArrayShape{R, C});
  OPFORGE_RTL_DPE_VARIANTS(OPFORGE_DPE_LIST)
#undef OPFORGE_DPE_LIST
  return shapes;
}

DpeArrayShape DpeRtl::array_shape() const { return impl_->array; }

void DpeRtl::set_inject_fault(bool on) { impl_->set_inject_fault(on); }

uint64_t DpeRtl::total_cycles() const { return impl_->cycles(); }

DpeRunResult DpeRtl::run(const isa::DpeCommand &cmd, std::span<uint8_t> mem, uint64_t base) {
  const DpeIssueResult head = issue(cmd, mem, base, /*chain=*/false);
  return DpeRunResult{head.cycles + finish(), head.tiles};
}

DpeIssueResult DpeRtl::issue(const isa::DpeCommand &cmd, std::span<uint8_t> mem, uint64_t base,
                             bool chain, uint64_t id) {
  const DpeOperandOffsets off = check_dpe_command(cmd, mem.size(), base);
  return impl_->issue(cmd, mem, off, chain, id);
}

uint64_t DpeRtl::finish() { return impl_->finish(); }

bool DpeRtl::pending() const { return impl_->pending(); }

void DpeRtl::set_retire_callback(std::function<void(uint64_t id)> callback) {
  impl_->on_retire = std::move(callback);
}

}  // namespace opforge::rtl
