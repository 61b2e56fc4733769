//===- llir_async.cpp - tl.extra.mtia.async_copy / wait / barrier on Xmtia DMA ===//
//
// mtia.async_copy (docs/compiler/mtia-extensions.md): each call site owns a
// ring of kAsyncRing local-memory buffers in memory format and a parity
// slot; copy k of the site goes to buffer k % 2 with its own DMA tag (tags
// kAsyncTag0.. kAsyncTag0 + kAsyncTags - 1, two per site, shared round-robin
// when a kernel has more than three sites). Issuing first waits for that
// buffer's previous copy (it has long landed in a double-buffered loop), then
// moves the block with the same transfer code a DMA load uses (dma_fill:
// whole tiles by one DMA, rectangular masks clamped, other masks element by
// element) and does not wait. The token is an i64: buffer address | tag (the
// buffers are 16-byte aligned allocas), a scalar, so loops and ifs carry it like any integer.
// mtia.wait: xmtia.dmawait on the token's tag; the result block is read from
// the token's buffer in place (no copy), like a DMA load's block.
// gpu.barrier {scope = "pe"} (tl.extra.mtia.barrier): waits for every DMA
// tag the kernel uses and for the DPE.
//
//===----------------------------------------------------------------------===//
#include "llir_emitter.h"
#include "opforge/compiler/lowered.h"
#include "xmtia_asm.h"

namespace opforge::compiler::llir {

namespace {
constexpr int kAsyncRing = 2;  // buffers per call site (the interpreter checks the same)
constexpr int kAsyncTag0 = 8, kAsyncTags = 6;
}  // namespace

void Emitter::async_copy(const Operation &op) {
  const Value *ptr = op.operands[0];
  if (!is_affine_block(ptr))
    fail(op,
         "tl.extra.mtia.async_copy needs a block of pointers affine in its indices (base + "
         "i*stride0 + j*stride1, as tl.arange offsets give) so one DMA can move it; got a "
         "gather");
  const int site = static_cast<int>(async_sites_.emplace(&op, async_sites_.size()).first->second);
  const Elem e = ptr->type.pointee;
  const std::string mt = memty(e);
  const int64_t n = ptr->type.numel();
  std::string buf[kAsyncRing];
  for (auto &b : buf) b = alloca_of(mt, n);
  std::string parity = alloca_of("i1");
  allocas_.push_back({"", "store i1 false, ptr " + parity});
  std::string odd = emit("load i1, ptr " + parity);
  line("store i1 " + emit("xor i1 " + odd + ", true") + ", ptr " + parity);
  const int t0 = kAsyncTag0 + (2 * site) % kAsyncTags,
            t1 = kAsyncTag0 + (2 * site + 1) % kAsyncTags;
  std::string dst = emit("select i1 " + odd + ", ptr " + buf[1] + ", ptr " + buf[0]);
  std::string tag =
      emit("select i1 " + odd + ", i64 " + std::to_string(t1) + ", i64 " + std::to_string(t0));
  dma_wait_value(tag);  // this buffer's previous copy has landed
  // The transfer of a load of the same pointer block, mask and `other`.
  auto load = std::make_unique<Operation>(OpKind::Load);
  load->operands = op.operands;
  load->loc = op.loc;
  load->add_result(ttir::Type(e, ptr->type.shape));
  dma_fill(*load, dst, LlVal::of(tag, "i64"));
  async_loads_.push_back(std::move(load));
  std::string addr = emit("ptrtoint ptr " + dst + " to i64");
  scalars_[op.result()] = emit("or i64 " + addr + ", " + tag);  // buffers are 16-byte aligned
}

void Emitter::async_wait(const Operation &op) {
  std::string tok = scalar(op.operands[0]);
  dma_wait_value(emit("and i64 " + tok + ", 15"));
  dma_raw_[op.result()] = emit("inttoptr i64 " + emit("and i64 " + tok + ", -16") + " to ptr");
}

void Emitter::pe_barrier() {
  flush_loads();
  line("call void asm sideeffect \"" + dpe_wait_asm() + "\", \"~{memory}\"()");
  pending_dpe_ = false;
  for (int tag = 1; tag < 16; ++tag) dma_wait(tag);
}

}  // namespace opforge::compiler::llir
