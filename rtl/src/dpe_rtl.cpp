//===- dpe_rtl.cpp - C++ adapter owning the verilated DPE MAC array -------===//
#include "opforge/rtl/dpe_rtl.h"

#include <algorithm>
#include <cstring>

#include "dpe_variants.h"
#include "opforge/rtl/dpe_ref.h"
#include "opforge/support/error.h"
#include "verilated.h"
#include "verilated_port.h"
#include "verilated_fst_c.h"

namespace opforge::rtl {

using detail::get_lane;
using detail::put_lane;

namespace {

// Position in one of the three beat streams: tile index and beat in tile.
struct Cursor {
  uint64_t tile = 0;
  uint32_t beat = 0;
};

}  // namespace

// One verilated array size behind a common interface.
struct DpeRtl::Impl {
  virtual ~Impl() = default;
  virtual DpeRunResult run(const isa::DpeCommand &cmd, std::span<uint8_t> mem,
                           const DpeOperandOffsets &off) = 0;
  virtual void set_inject_fault(bool on) = 0;
  virtual uint64_t cycles() const = 0;
  DpeArrayShape array;
};

namespace {

template <class Model>
class DpeModelImpl final : public DpeRtl::Impl {
 public:
  explicit DpeModelImpl(const DpeRtlOptions &opts)
      : options_(opts), context_(std::make_unique<VerilatedContext>()) {
    array = opts.array;
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

  DpeRunResult run(const isa::DpeCommand &cmd, std::span<uint8_t> mem,
                   const DpeOperandOffsets &off) override;

 private:
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
  uint64_t cycle_ = 0;  // rising edges so far
};

template <class Model>
DpeRunResult DpeModelImpl<Model>::run(const isa::DpeCommand &cmd, std::span<uint8_t> mem,
                                      const DpeOperandOffsets &off) {
  Model &top = *top_;
  const uint32_t rows = array.rows, cols = array.cols;
  const bool int8 = cmd.dtype == isa::DpeDType::INT8;
  const uint64_t esz = off.elem_bytes;
  const uint64_t tiles_m = (static_cast<uint64_t>(cmd.m) + rows - 1) / rows;
  const uint64_t tiles_n = (static_cast<uint64_t>(cmd.n) + cols - 1) / cols;
  const uint64_t tiles = tiles_m * tiles_n;
  uint8_t *a_base = mem.data() + off.a;
  uint8_t *b_base = mem.data() + off.b;
  uint8_t *c_base = mem.data() + off.c;
  auto rows_in_tile = [&](uint64_t tile) {
    const uint64_t row0 = (tile / tiles_n) * rows;
    return static_cast<uint32_t>(std::min<uint64_t>(rows, cmd.m - row0));
  };
  const uint32_t k_beats =
      int8 ? static_cast<uint32_t>((uint64_t(cmd.k) + kDpeInt8PerBeat - 1) / kDpeInt8PerBeat)
           : cmd.k;
  auto elem16 = [&](const uint8_t *p) -> uint32_t {
    uint16_t v;
    std::memcpy(&v, p, 2);
    return v;
  };

  // Stream cursors; a stream is exhausted when its tile index reaches `tiles`.
  Cursor cin{cmd.accumulate ? 0 : tiles, 0}, op{cmd.k > 0 ? 0 : tiles, 0}, cout{0, 0};
  bool cin_dirty = true, op_dirty = true;
  auto advance = [&](Cursor &cur, uint32_t beats_in_tile) {
    if (++cur.beat == beats_in_tile) {
      cur.beat = 0;
      ++cur.tile;
    }
  };

  top.cmd_m = cmd.m;
  top.cmd_n = cmd.n;
  top.cmd_k = cmd.k;
  top.cmd_dtype = static_cast<uint8_t>(cmd.dtype);
  top.cmd_accumulate = cmd.accumulate;
  top.cmd_valid = 1;
  top.cout_ready = 1;

  const uint64_t watchdog_cycles = 4 * dpe_command_cycles(array, cmd) + 1000;
  uint64_t cycles = 0;
  bool accepted = false, finished = false;
  while (!finished) {
    // One burst: clock the block without returning to the caller.
    for (uint32_t i = 0; i < options_.burst_cycles && !finished; ++i) {
      if (cin_dirty) {
        cin_dirty = false;
        top.cin_valid = cin.tile < tiles;
        if (top.cin_valid) {
          const uint64_t row = (cin.tile / tiles_n) * rows + cin.beat;
          const uint64_t col0 = (cin.tile % tiles_n) * cols;
          for (uint32_t c = 0; c < cols; ++c) {
            uint32_t v = 0;
            if (col0 + c < cmd.n) std::memcpy(&v, c_base + (row * cmd.ldc + col0 + c) * 4, 4);
            put_lane(top.cin_data, c * 32, 32, v);
          }
        }
      }
      if (op_dirty) {
        op_dirty = false;
        top.op_valid = op.tile < tiles;
        if (top.op_valid) {
          const uint64_t row0 = (op.tile / tiles_n) * rows;
          const uint64_t col0 = (op.tile % tiles_n) * cols;
          if (int8) {
            // Two k steps per beat: kk in bits 7:0, kk + 1 (0 past k) in bits 15:8.
            const uint64_t kk = uint64_t(op.beat) * kDpeInt8PerBeat;
            const bool second = kk + 1 < cmd.k;
            for (uint32_t r = 0; r < rows; ++r) {
              uint32_t v = 0;
              if (row0 + r < cmd.m) {
                const uint8_t *p = a_base + (row0 + r) * cmd.lda + kk;
                v = p[0] | (second ? uint32_t(p[1]) << 8 : 0u);
              }
              put_lane(top.op_a, r * 16, 16, v);
            }
            for (uint32_t c = 0; c < cols; ++c) {
              uint32_t v = 0;
              if (col0 + c < cmd.n) {
                const uint8_t *p = b_base + kk * cmd.ldb + col0 + c;
                v = p[0] | (second ? uint32_t(p[cmd.ldb]) << 8 : 0u);
              }
              put_lane(top.op_b, c * 16, 16, v);
            }
          } else {
            const uint64_t kk = op.beat;
            for (uint32_t r = 0; r < rows; ++r) {
              const uint32_t v =
                  row0 + r < cmd.m ? elem16(a_base + ((row0 + r) * cmd.lda + kk) * esz) : 0;
              put_lane(top.op_a, r * 16, 16, v);
            }
            for (uint32_t c = 0; c < cols; ++c) {
              const uint32_t v =
                  col0 + c < cmd.n ? elem16(b_base + (kk * cmd.ldb + col0 + c) * esz) : 0;
              put_lane(top.op_b, c * 16, 16, v);
            }
          }
        }
      }
      // Handshakes are decided by the values before the rising edge.
      const bool fire_cmd = top.cmd_valid && top.cmd_ready;
      const bool fire_cin = top.cin_valid && top.cin_ready;
      const bool fire_op = top.op_valid && top.op_ready;
      const bool fire_cout = top.cout_valid && top.cout_ready;
      const bool was_done = top.done && accepted;
      if (fire_cout) {
        if (cout.tile >= tiles) {
          reset();
          throw Error("RTL DPE produced more result rows than the command has");
        }
        const uint64_t row = (cout.tile / tiles_n) * rows + cout.beat;
        const uint64_t col0 = (cout.tile % tiles_n) * cols;
        for (uint32_t c = 0; c < cols && col0 + c < cmd.n; ++c) {
          const uint32_t v = get_lane(top.cout_data, c * 32, 32);
          std::memcpy(c_base + (row * cmd.ldc + col0 + c) * 4, &v, 4);
        }
      }
      tick();
      if (fire_cmd) {
        accepted = true;
        top.cmd_valid = 0;
      }
      if (accepted) ++cycles;
      if (fire_cin) {
        advance(cin, rows_in_tile(cin.tile));
        cin_dirty = true;
      }
      if (fire_op) {
        advance(op, k_beats);
        op_dirty = true;
      }
      if (fire_cout) advance(cout, rows_in_tile(cout.tile));
      finished = was_done;
      if (cycles > watchdog_cycles) {
        reset();  // leave the block usable for the next command
        throw Error("RTL DPE did not finish a " + std::to_string(cmd.m) + "x" +
                    std::to_string(cmd.n) + "x" + std::to_string(cmd.k) + " command within " +
                    std::to_string(watchdog_cycles) + " cycles");
      }
    }
  }
  top.cin_valid = 0;
  top.op_valid = 0;
  top.cout_ready = 0;
  if (cout.tile != tiles) throw Error("RTL DPE finished before draining every result row");
  return DpeRunResult{cycles, tiles};
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
  const DpeOperandOffsets off = check_dpe_command(cmd, mem.size(), base);
  return impl_->run(cmd, mem, off);
}

}  // namespace opforge::rtl
