//===- sfu_lane_rtl.cpp - C++ adapter owning the verilated SFU lane -------===//
#include "opforge/rtl/sfu_lane_rtl.h"

#include "Vsfu_lane.h"
#include "Vsfu_lane___024root.h"
#include "opforge/support/error.h"
#include "verilated.h"
#include "verilated_fst_c.h"
#include "verilated_port.h"

namespace opforge::rtl {

struct SfuLaneRtl::Impl {
  std::unique_ptr<VerilatedContext> context = std::make_unique<VerilatedContext>();
  std::unique_ptr<Vsfu_lane> top;
  std::unique_ptr<VerilatedFstC> wave;

  explicit Impl(const std::string &trace_path) {
    if (!trace_path.empty()) context->traceEverOn(true);
    top = std::make_unique<Vsfu_lane>(context.get(), "sfu_lane");
    if (!trace_path.empty()) {
      wave = std::make_unique<VerilatedFstC>();
      top->trace(wave.get(), 99);
      wave->open(trace_path.c_str());
      if (!wave->isOpen()) {
        top->final();
        throw Error("cannot open waveform file for writing").with_file(trace_path);
      }
    }
    top->clk = 0;
    top->rst_n = 0;
    top->in_valid = 0;
    top->out_ready = 0;
    top->inject_fault = 0;
    top->eval();
    tick();
    top->rst_n = 1;
    top->eval();
  }

  ~Impl() {
    top->final();
    if (wave) wave->close();
  }

  // One clock cycle. Nothing in the lane acts on the falling edge and its
  // outputs follow its state and inputs (already settled by the rising
  // edge's eval), so without a waveform the falling edge is not evaluated:
  // the model is told the clock is low and the next eval() sees a rising edge.
  void tick() {
    top->clk = 1;
    top->eval();
    context->timeInc(1);
    if (wave) wave->dump(context->time());
    top->clk = 0;
    if (wave || !detail::mark_clock_low(*top->rootp)) top->eval();
    context->timeInc(1);
    if (wave) wave->dump(context->time());
  }
};

SfuLaneRtl::SfuLaneRtl(std::string trace_path) : impl_(std::make_unique<Impl>(trace_path)) {}
SfuLaneRtl::~SfuLaneRtl() = default;

void SfuLaneRtl::set_inject_fault(bool on) {
  impl_->top->inject_fault = on ? 1 : 0;
  impl_->top->eval();
}

SfuLaneRunResult SfuLaneRtl::run(unsigned func, unsigned prec, std::span<const uint32_t> x_bits) {
  if (prec > 31)
    throw Error("SFU precision " + std::to_string(prec) + " is out of range 0..31")
        .with_path("sfu.prec");
  if (func > 7)
    throw Error("SFU function code " + std::to_string(func) + " is out of range 0..7")
        .with_path("sfu.func");
  Vsfu_lane &top = *impl_->top;
  SfuLaneRunResult result;
  result.y_bits.reserve(x_bits.size());
  top.in_func = static_cast<uint8_t>(func);
  top.in_prec = static_cast<uint8_t>(prec);
  top.out_ready = 1;
  size_t next = 0;
  while (result.y_bits.size() < x_bits.size()) {
    top.in_valid = next < x_bits.size();
    if (top.in_valid) top.in_x = x_bits[next];
    const bool fire_in = top.in_valid && top.in_ready;
    const bool fire_out = top.out_valid && top.out_ready;
    if (fire_out) result.y_bits.push_back(top.out_y);
    impl_->tick();
    ++result.cycles;
    if (fire_in) ++next;
    if (result.cycles > 2 * x_bits.size() + 16)
      throw Error("RTL SFU lane stopped producing results");
  }
  top.in_valid = 0;
  top.eval();
  return result;
}

}  // namespace opforge::rtl
