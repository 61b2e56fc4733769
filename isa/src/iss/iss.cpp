//===- iss.cpp - load, run and judge a program (tohost / done / trap) ------===//
#include "opforge/isa/iss.h"

#include <cstdio>

#include "opforge/isa/disasm.h"
#include "opforge/isa/flat_memory.h"
#include "opforge/isa/functional_accel.h"
#include "opforge/isa/spec.h"
#include "opforge/support/budgets.h"
#include "opforge/support/error.h"

namespace opforge::isa {

const char *verdict_name(Verdict v) {
  switch (v) {
    case Verdict::Pass:
      return "PASS";
    case Verdict::Fail:
      return "FAIL";
    case Verdict::Done:
      return "DONE";
    case Verdict::Trap:
      return "TRAP";
    case Verdict::InsnLimit:
      return "LIMIT";
    case Verdict::Unsupported:
      return "UNSUPPORTED";
    case Verdict::Wfi:
      return "WFI";
  }
  return "?";
}

void check_isa_string(const std::string &isa) {
  std::string s;
  for (char c : isa) s += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (s.rfind("rv64", 0) != 0) throw Error("ISA string '" + isa + "' must start with rv64");
  size_t p = 4;
  // Single-letter extensions up to the first '_'.
  while (p < s.size() && s[p] != '_') {
    const char c = s[p++];
    if (std::string_view("imafdcvg").find(c) == std::string_view::npos)
      throw Error("ISA string '" + isa + "': extension '" + std::string(1, c) +
                  "' is not implemented (supported: i m a f d c v g)");
  }
  while (p < s.size()) {
    ++p;  // '_'
    size_t q = s.find('_', p);
    const std::string ext = s.substr(p, q == std::string::npos ? std::string::npos : q - p);
    p = q == std::string::npos ? s.size() : q;
    static const char *kMulti[] = {"zicsr",  "zifencei", "zvfbfmin", "xmtia",  "zve32f", "zve64d",
                                   "zve64x", "zve32x",   "zfh",      "zfhmin", "zvfh",   "zvfhmin"};
    bool known = ext.empty();
    for (const char *k : kMulti) known |= ext == k;
    if (!known) throw Error("ISA string '" + isa + "': extension '" + ext + "' is not implemented");
  }
}

SimResult run_program(const ElfImage &image, MemoryIf &mem, AcceleratorIf &accel,
                      const SimOptions &opt) {
  if (!opt.isa_string.empty()) check_isa_string(opt.isa_string);
  load_elf(image, mem);
  HartConfig cfg;
  cfg.vlen_bits = opt.vlen_bits;
  cfg.reset_pc = image.entry;
  cfg.cost = opt.cost;
  cfg.tohost_addr = image.tohost;
  cfg.fromhost_addr = image.fromhost;
  cfg.xmtia = opt.xmtia;
  // C (compressed instructions) is on unless an ISA string leaves it out.
  if (!opt.isa_string.empty()) {
    const std::string letters = opt.isa_string.substr(4, opt.isa_string.find('_') - 4);
    cfg.compressed = letters.find_first_of("cC") != std::string::npos;
  }
  Hart hart(cfg, mem, accel);
  if (opt.stack_top) hart.set_xreg(2, opt.stack_top);
  if (opt.trace) {
    std::ostream &os = *opt.trace;
    hart.set_trace_hook([&os](uint64_t pc, uint32_t word) {
      char buf[64];
      std::snprintf(buf, sizeof buf, "%016llx %08x ", static_cast<unsigned long long>(pc), word);
      std::string text = "<illegal>";
      if (decode(word)) {
        try {
          text = disassemble(word, pc);
        } catch (const std::exception &) {
          text = decode(word)->name;
        }
      }
      os << buf << text << "\n";
    });
  }
  if (opt.prepare) opt.prepare(hart);

  RunResult r = hart.run(opt.max_instructions);
  SimResult res;
  res.instructions = r.instructions;
  res.cycles = r.cycles;
  res.final_pc = hart.pc();
  char buf[160];
  switch (r.reason) {
    case StopReason::Tohost:
      res.tohost_value = r.tohost_value;
      if (r.tohost_value == 1) {
        res.verdict = Verdict::Pass;
        res.message = "pass (tohost = 1)";
      } else if (r.tohost_value & 1) {
        res.verdict = Verdict::Fail;
        res.fail_code = r.tohost_value >> 1;
        res.message = "fail: test " + std::to_string(res.fail_code) +
                      " failed (tohost = " + std::to_string(r.tohost_value) + ")";
      } else {
        res.verdict = Verdict::Unsupported;
        std::snprintf(
            buf, sizeof buf,
            "unsupported HTIF request: tohost = 0x%llx (syscall proxying is not provided)",
            static_cast<unsigned long long>(r.tohost_value));
        res.message = buf;
      }
      break;
    case StopReason::Done:
      res.verdict = Verdict::Done;
      res.message = "done (xmtia.done)";
      break;
    case StopReason::Trap:
      res.verdict = Verdict::Trap;
      res.trap = r.trap;
      res.message = "trap: " + r.trap.describe();
      break;
    case StopReason::Wfi:
      res.verdict = Verdict::Wfi;
      res.message = "stopped at wfi (no interrupt sources)";
      break;
    case StopReason::AccelBlocked:
      res.verdict = Verdict::Unsupported;
      res.message = "accelerator wait did not complete";
      break;
    default:
      res.verdict = Verdict::InsnLimit;
      if (hart.accel_work_refused())
        res.message = "instruction budget of " + std::to_string(opt.max_instructions) +
                      " exceeded (--max-insns) by the work of an accelerator command (DMA rows "
                      "and words, DPE multiply-adds count as instructions)";
      else
        res.message = "instruction limit reached (" + std::to_string(opt.max_instructions) +
                      " instructions) without an exit; raise --max-insns or check for a runaway "
                      "loop";
      break;
  }
  return res;
}

SimResult run_elf_functional(const ElfImage &image, const SimOptions &opt, uint64_t extra_bytes) {
  const uint64_t base = image.low_addr() & ~0xfffull;
  const uint64_t top = ((image.high_addr() + 0xfff) & ~0xfffull) + extra_bytes;
  if (top - base > static_cast<uint64_t>(budgets().elf_segment_bytes) + extra_bytes)
    throw Error(
        "the program's segments span " + std::to_string(top - base - extra_bytes) + " bytes: " +
        budget_exceeded("ELF loader", "segment budget", &Budgets::elf_segment_bytes, "bytes"))
        .with_file(image.path);
  FlatMemory mem(base, top - base);
  FunctionalAccelerator accel(mem);
  SimOptions o = opt;
  if (!o.stack_top) o.stack_top = top - 64;
  return run_program(image, mem, accel, o);
}

}  // namespace opforge::isa
