//===- sem_zicsr.cpp - Zicsr semantics (csrrw/csrrs/csrrc and immediates) --===//
#include "semantics.h"

namespace opforge::isa {
uint64_t csr_read_impl(Hart &h, uint16_t num, bool &ok);
bool csr_write_impl(Hart &h, uint16_t num, uint64_t v);
}  // namespace opforge::isa

using namespace opforge::isa;
using namespace opforge::isa::sem;

OPF_SEM_UNIT(zicsr)

namespace {
enum class CsrOp { Write, Set, Clear };
// Reads unless a csrrw has rd = x0; writes unless a set/clear has a zero source field.
uint64_t csr_op(Hart &h, Insn i, uint64_t pc, CsrOp op, uint64_t src) {
  const uint16_t num = static_cast<uint16_t>(i.csr());
  const bool do_read = op != CsrOp::Write || i.rd() != 0;
  const bool do_write = op == CsrOp::Write || i.rs1() != 0;
  uint64_t old = 0;
  bool ok = true;
  if (do_read || op != CsrOp::Write)
    old = csr_read_impl(h, num, ok);
  else
    csr_read_impl(h, num, ok);  // existence check
  if (!ok) ILLEGAL();
  if (do_write) {
    uint64_t nv = op == CsrOp::Write ? src : op == CsrOp::Set ? (old | src) : (old & ~src);
    if (!csr_write_impl(h, num, nv)) ILLEGAL();
  }
  if (do_read) WRITE_RD(old);
  return NEXT;
}
}  // namespace

INSN(csrrw, Csr) { return csr_op(h, i, pc, CsrOp::Write, RS1); }
INSN(csrrs, Csr) { return csr_op(h, i, pc, CsrOp::Set, RS1); }
INSN(csrrc, Csr) { return csr_op(h, i, pc, CsrOp::Clear, RS1); }
INSN(csrrwi, Csr) { return csr_op(h, i, pc, CsrOp::Write, i.uimm5()); }
INSN(csrrsi, Csr) { return csr_op(h, i, pc, CsrOp::Set, i.uimm5()); }
INSN(csrrci, Csr) { return csr_op(h, i, pc, CsrOp::Clear, i.uimm5()); }
