//===- dpe_rtl.cpp - C++ adapter owning the verilated DPE MAC array -------===//
#include "opforge/rtl/dpe_rtl.h"

#include <algorithm>
#include <cstring>

#include "Vdpe.h"
#include "opforge/rtl/dpe_ref.h"
#include "opforge/support/error.h"
#include "verilated.h"
#include "verilated_vcd_c.h"
#include "verilated_port.h"

namespace opforge::rtl {

using detail::get_lane;
using detail::put_lane;

namespace {
constexpr uint32_t kRows = OPFORGE_RTL_DPE_ROWS;
constexpr uint32_t kCols = OPFORGE_RTL_DPE_COLS;

// Position in one of the three beat streams: tile index and beat in tile.
struct Cursor {
  uint64_t tile = 0;
  uint32_t beat = 0;
};
}  // namespace

struct DpeRtl::Impl {
  DpeRtlOptions options;
  std::unique_ptr<VerilatedContext> context;
  std::unique_ptr<Vdpe> top;
  std::unique_ptr<VerilatedVcdC> vcd;
  uint64_t cycle = 0;  // rising edges so far

  explicit Impl(DpeRtlOptions opts) : options(std::move(opts)), context(std::make_unique<VerilatedContext>()) {
    if (options.burst_cycles == 0) throw Error("burst_cycles must be > 0").with_path("rtl.burst_cycles");
    if (!options.trace_vcd_path.empty()) context->traceEverOn(true);
    top = std::make_unique<Vdpe>(context.get(), "dpe");
    if (!options.trace_vcd_path.empty()) {
      vcd = std::make_unique<VerilatedVcdC>();
      top->trace(vcd.get(), 99);
      vcd->open(options.trace_vcd_path.c_str());
      if (!vcd->isOpen()) {
        top->final();
        throw Error("cannot open waveform file for writing").with_file(options.trace_vcd_path);
      }
    }
    top->clk = 0;
    top->rst_n = 0;
    top->cmd_valid = 0;
    top->op_valid = 0;
    top->cin_valid = 0;
    top->cout_ready = 0;
    top->inject_fault = 0;
    top->eval();
    tick();
    tick();
    top->rst_n = 1;
    top->eval();
  }

  ~Impl() {
    top->final();
    if (vcd) vcd->close();
  }

  void dump() {
    if (!vcd) return;
    const uint64_t start = options.trace_start_cycle;
    if (cycle >= start && (options.trace_cycles == 0 || cycle < start + options.trace_cycles))
      vcd->dump(context->time());
  }

  // One clock cycle: rising edge, then falling edge.
  void tick() {
    top->clk = 1;
    top->eval();
    context->timeInc(1);
    dump();
    ++cycle;
    top->clk = 0;
    top->eval();
    context->timeInc(1);
    dump();
  }
};

DpeRtl::DpeRtl(DpeRtlOptions options) : impl_(std::make_unique<Impl>(std::move(options))) {}
DpeRtl::~DpeRtl() = default;

DpeArrayShape DpeRtl::array_shape() { return DpeArrayShape{kRows, kCols}; }

void DpeRtl::set_inject_fault(bool on) {
  impl_->top->inject_fault = on ? 1 : 0;
  impl_->top->eval();
}

uint64_t DpeRtl::total_cycles() const { return impl_->cycle; }

DpeRunResult DpeRtl::run(const isa::DpeCommand &cmd, std::span<uint8_t> mem, uint64_t base) {
  const DpeOperandOffsets off = check_dpe_command(cmd, mem.size(), base);
  Vdpe &top = *impl_->top;
  const bool int8 = cmd.dtype == isa::DpeDType::INT8;
  const uint64_t esz = off.elem_bytes;
  const uint64_t tiles_m = (static_cast<uint64_t>(cmd.m) + kRows - 1) / kRows;
  const uint64_t tiles_n = (static_cast<uint64_t>(cmd.n) + kCols - 1) / kCols;
  const uint64_t tiles = tiles_m * tiles_n;
  uint8_t *a_base = mem.data() + off.a;
  uint8_t *b_base = mem.data() + off.b;
  uint8_t *c_base = mem.data() + off.c;
  auto rows_in_tile = [&](uint64_t tile) {
    const uint64_t row0 = (tile / tiles_n) * kRows;
    return static_cast<uint32_t>(std::min<uint64_t>(kRows, cmd.m - row0));
  };
  auto elem16 = [&](const uint8_t *p) -> uint32_t {
    if (int8) return *p;
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
  top.cmd_int8 = int8;
  top.cmd_accumulate = cmd.accumulate;
  top.cmd_valid = 1;
  top.cout_ready = 1;

  const uint64_t watchdog_cycles =
      4 * dpe_command_cycles(array_shape(), cmd.m, cmd.n, cmd.k, cmd.accumulate) + 1000;
  uint64_t cycles = 0;
  bool accepted = false, finished = false;
  while (!finished) {
    // One burst: clock the block without returning to the caller.
    for (uint32_t i = 0; i < impl_->options.burst_cycles && !finished; ++i) {
      if (cin_dirty) {
        cin_dirty = false;
        top.cin_valid = cin.tile < tiles;
        if (top.cin_valid) {
          const uint64_t row = (cin.tile / tiles_n) * kRows + cin.beat;
          const uint64_t col0 = (cin.tile % tiles_n) * kCols;
          for (uint32_t c = 0; c < kCols; ++c) {
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
          const uint64_t row0 = (op.tile / tiles_n) * kRows;
          const uint64_t col0 = (op.tile % tiles_n) * kCols;
          const uint64_t kk = op.beat;
          for (uint32_t r = 0; r < kRows; ++r) {
            const uint32_t v = row0 + r < cmd.m ? elem16(a_base + ((row0 + r) * cmd.lda + kk) * esz) : 0;
            put_lane(top.op_a, r * 16, 16, v);
          }
          for (uint32_t c = 0; c < kCols; ++c) {
            const uint32_t v = col0 + c < cmd.n ? elem16(b_base + (kk * cmd.ldb + col0 + c) * esz) : 0;
            put_lane(top.op_b, c * 16, 16, v);
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
        if (cout.tile >= tiles) throw Error("RTL DPE produced more result rows than the command has");
        const uint64_t row = (cout.tile / tiles_n) * kRows + cout.beat;
        const uint64_t col0 = (cout.tile % tiles_n) * kCols;
        for (uint32_t c = 0; c < kCols && col0 + c < cmd.n; ++c) {
          const uint32_t v = get_lane(top.cout_data, c * 32, 32);
          std::memcpy(c_base + (row * cmd.ldc + col0 + c) * 4, &v, 4);
        }
      }
      impl_->tick();
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
        advance(op, cmd.k);
        op_dirty = true;
      }
      if (fire_cout) advance(cout, rows_in_tile(cout.tile));
      finished = was_done;
      if (cycles > watchdog_cycles) {
        throw Error("RTL DPE did not finish a " + std::to_string(cmd.m) + "x" + std::to_string(cmd.n) + "x" +
                    std::to_string(cmd.k) + " command within " + std::to_string(watchdog_cycles) + " cycles");
      }
    }
  }
  top.cin_valid = 0;
  top.op_valid = 0;
  top.cout_ready = 0;
  if (cout.tile != tiles) throw Error("RTL DPE finished before draining every result row");
  return DpeRunResult{cycles, tiles};
}

}  // namespace opforge::rtl
