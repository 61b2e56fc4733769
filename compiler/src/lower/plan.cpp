//===- plan.cpp - the `lowered` stage: which block values get buffers -----===//
//
// A block value is fused (recomputed element by element inside the loop of
// the op that consumes it) unless it must live in local memory:
//  - results of reductions, scans, dots, shape permutations, atomics and of
//    scf ops, and loop/region block arguments;
//  - loads, unless every use reaches exactly one consumer in the same block
//    with no side-effecting op in between (then the load runs inside that
//    consumer's loop, which is what fuses `load; add; store` into one loop).
// Loads and stores of rank-1/2 affine pointer blocks are DMA transfers
// through a local-memory buffer instead (lower/affine.cpp proves the form;
// loads also through wrapped-affine blocks, `(x0 + arange) % M` offsets);
// tl.dot with bf16/fp16/fp32 (ieee)/int8 operands runs on the DPE.
//
//===----------------------------------------------------------------------===//
#include <algorithm>
#include <functional>
#include <sstream>

#include "opforge/compiler/lowered.h"
#include "opforge/support/budgets.h"
#include "opforge/support/error.h"

namespace opforge::compiler {
namespace {

using ttir::Elem;
using ttir::Operation;
using ttir::OpKind;
using ttir::Value;

bool always_buffer(OpKind k) {
  switch (k) {
    case OpKind::Reduce:
    case OpKind::Scan:
    case OpKind::Dot:
    case OpKind::Trans:
    case OpKind::Reshape:
    case OpKind::Join:
    case OpKind::Split:
    case OpKind::AtomicRMW:
    case OpKind::AtomicCAS:
    case OpKind::For:
    case OpKind::If:
    case OpKind::While:
      return true;
    default:
      return false;
  }
}

bool has_side_effects(OpKind k) {
  switch (k) {
    case OpKind::Store:
    case OpKind::AtomicRMW:
    case OpKind::AtomicCAS:
    case OpKind::For:
    case OpKind::If:
    case OpKind::While:
    case OpKind::Call:
    case OpKind::Barrier:
      return true;
    default:
      return false;
  }
}

bool unsupported(OpKind k) {
  switch (k) {
    case OpKind::MakeTensorPtr:
    case OpKind::Advance:
    case OpKind::Call:
    case OpKind::Print:
    case OpKind::IntToPtr:
    case OpKind::PtrToInt:
      return true;
    default:
      return false;
  }
}

class Planner {
 public:
  explicit Planner(const ttir::Function &f) { plan_.function = &f; }

  LoweredKernelPlan run() {
    auto &f = *plan_.function;
    collect_uses(*f.body);
    uint32_t offset = 0;
    for (auto &a : f.body->args) {
      plan_.args.push_back(ArgSlot{a->name, a->type.str(), offset, 8});
      offset += 8;
    }
    plan_block(*f.body);
    for (auto *v : plan_.buffers)
      plan_.local_mem_bytes += v->type.numel() * buffer_elem_bytes(v->type.elem);
    for (auto *op : plan_.dma_loads)
      plan_.local_mem_bytes +=
          op->result()->type.numel() * memory_elem_bytes(op->result()->type.elem);
    for (auto *op : plan_.dma_stores)
      plan_.local_mem_bytes +=
          op->operands[0]->type.numel() * memory_elem_bytes(op->operands[0]->type.pointee);
    plan_row_prefetches(plan_);
    return std::move(plan_);
  }

 private:
  void collect_uses(ttir::Block &b) {
    ttir::walk_block(b, [&](Operation &op) {
      for (auto *v : op.operands) users_[v].push_back(&op);
    });
  }

  void plan_block(ttir::Block &b) {
    for (auto &a : b.args)
      if (a->type.is_block() && b.parent && b.parent->kind != OpKind::Reduce &&
          !plan_.carried_affine.count(a.get()))
        plan_.buffers.insert(a.get());
    for (size_t i = 0; i < b.ops.size(); ++i) {
      Operation &op = *b.ops[i];
      if (unsupported(op.kind))
        throw Error("codegen: " + op.describe() + " is not supported by the code generator yet");
      for (auto &r : op.results) {
        if (!r->type.is_block()) continue;
        if (always_buffer(op.kind) || is_sfu_block_op(op))
          plan_.buffers.insert(r.get());
        else if (op.kind == OpKind::Load) {
          if (dma_ok(op.operands[0], r->type, true))
            plan_.dma_loads.insert(&op);
          else if (load_fusable(b, i))
            plan_.fused_loads.insert(&op);
          else
            plan_.buffers.insert(r.get());
        }
      }
      if (op.kind == OpKind::Store && dma_ok(op.operands[0], op.operands[0]->type))
        plan_.dma_stores.insert(&op);
      if (op.kind == OpKind::Dot && dpe_ok(op)) plan_.dpe_dots.insert(&op);
      if (op.kind == OpKind::For) plan_carried_affine(op);
      if (op.kind != OpKind::Reduce && op.kind != OpKind::Scan)
        for (auto &r : op.regions) plan_block(*r);
    }
  }

  // Loop-carried pointer/integer blocks that stay affine with the same
  // strides on every iteration (initial value affine, advanced by a uniform
  // amount) are carried as their element 0 instead of a buffer.
  void plan_carried_affine(const Operation &f) {
    const ttir::Block &body = *f.regions[0];
    for (size_t j = 1; j < body.args.size() && j - 1 < f.results.size(); ++j) {
      const Value *a = body.arg(j);
      Elem e = a->type.elem;
      bool integer = e == Elem::I8 || e == Elem::I16 || e == Elem::I32 || e == Elem::I64;
      if (!a->type.is_block() || a->type.numel() <= 0 || !(e == Elem::Ptr || integer)) continue;
      if (!is_wrapped_affine_block(a)) continue;
      plan_.carried_affine.insert(a);
      plan_.carried_affine.insert(f.result(j - 1));
      plan_.buffers.erase(f.result(j - 1));
    }
  }

  // Roots: the ops consuming `v` that are not themselves fused block ops.
  void roots(const Value *v, const ttir::Block &home, std::set<const Operation *> &out,
             bool &escapes) {
    for (auto *u : users_[v]) {
      if (u->parent != &home) {
        escapes = true;
        continue;
      }
      bool fused_block = !u->results.empty() && u->results[0]->type.is_block() &&
                         !always_buffer(u->kind) && !is_sfu_block_op(*u) && u->kind != OpKind::Load;
      if (fused_block) {
        for (auto &r : u->results) roots(r.get(), home, out, escapes);
      } else {
        out.insert(u);
      }
    }
  }

  // A rank-1/2 block access through an affine pointer block; for loads also
  // a wrapped-affine one ((x0 + arange) % M offsets: the code generator
  // checks at run time that no index wraps and otherwise copies elements).
  static bool dma_ok(const Value *ptr, const ttir::Type &t, bool wrapped = false) {
    if (!ptr->type.is_block() || !t.is_block()) return false;
    if (t.shape.empty() || t.shape.size() > 2 || t.numel() <= 0) return false;
    return wrapped ? is_wrapped_affine_block(ptr) : is_affine_block(ptr);
  }

  // Operand and accumulator types the DPE takes (fp32 only with ieee precision).
  static bool dpe_ok(const Operation &op) {
    Elem a = op.operands[0]->type.elem, b = op.operands[1]->type.elem;
    Elem c = op.result()->type.elem;
    if (a != b || op.operands[0]->type.shape.size() != 2) return false;
    if (a == Elem::I8) return c == Elem::I32;
    if (c != Elem::F32) return false;
    if (a == Elem::F32)
      return !op.has_attr("input_precision") || op.str_attr("input_precision") == "ieee";
    return a == Elem::BF16 || a == Elem::F16;
  }

  bool load_fusable(ttir::Block &b, size_t index) {
    Operation &load = *b.ops[index];
    std::set<const Operation *> rs;
    bool escapes = false;
    roots(load.result(), b, rs, escapes);
    if (escapes || rs.size() != 1) return false;
    const Operation *root = *rs.begin();
    if (root->kind == OpKind::Yield) return false;
    for (size_t j = index + 1; j < b.ops.size(); ++j) {
      if (b.ops[j].get() == root) return true;
      if (has_side_effects(b.ops[j]->kind)) return false;
    }
    return false;
  }

  LoweredKernelPlan plan_;
  std::map<const Value *, std::vector<Operation *>> users_;
};

}  // namespace

bool is_sfu_block_op(const Operation &op) {
  if (op.results.size() != 1 || !op.result()->type.is_block()) return false;
  Elem e = op.result()->type.elem;
  if (e != Elem::F32 && e != Elem::F16 && e != Elem::BF16) return false;
  if (op.operands.empty() || op.operands[0]->type.elem != e) return false;
  switch (op.kind) {
    case OpKind::Exp:
    case OpKind::Exp2:
    case OpKind::Log:
    case OpKind::Log2:
    case OpKind::Tanh:
    case OpKind::Erf:
    case OpKind::Sin:
    case OpKind::Cos:
    case OpKind::Rsqrt:
    case OpKind::ExtIntrinsic:  // ISA extension instructions (llir_ext.cpp)
      return true;
    default:
      return false;
  }
}

int64_t memory_elem_bytes(Elem e) {
  switch (e) {
    case Elem::I1:
    case Elem::I8:
      return 1;
    case Elem::I16:
    case Elem::F16:
    case Elem::BF16:
      return 2;
    case Elem::I32:
    case Elem::F32:
      return 4;
    default:
      return 8;
  }
}

int64_t buffer_elem_bytes(Elem e) {
  switch (e) {
    case Elem::I1:
    case Elem::I8:
      return 1;
    case Elem::I16:
      return 2;
    case Elem::I32:
    case Elem::F16:
    case Elem::BF16:
    case Elem::F32:
      return 4;
    default:
      return 8;
  }
}

namespace {
// The target's largest DPE command.
void set_dpe_tiles(LoweredKernelPlan &plan, const TargetOptions &target) {
  plan.dpe_tile_m = std::max<uint32_t>(1, target.dpe_tile_m);
  plan.dpe_tile_n = std::max<uint32_t>(1, target.dpe_tile_n);
  plan.dpe_tile_k = std::max<uint32_t>(1, target.dpe_tile_k);
  plan.local_mem_limit = static_cast<int64_t>(target.local_mem_bytes);
}
// Every block of the kernel within the block budget (--max-block-elements), checked before
// any code is generated: LLVM aborts the process on a frame of 2^31 bytes or more.
void check_block_budget(const ttir::Function &f) {
  const int64_t cap = budgets().block_elements;
  std::function<void(const ttir::Block &)> visit = [&](const ttir::Block &b) {
    for (const auto &op : b.ops) {
      for (const auto &r : op->results) {
        const int64_t n = r->type.numel();
        if (n <= cap) continue;
        ErrorContext ctx;
        ctx.file = op->loc.file;
        if (op->loc.line > 0) ctx.line = op->loc.line;
        if (op->loc.col > 0) ctx.col = op->loc.col;
        throw Error(
            "kernel " + f.name + ": " + std::string(ttir::op_name(op->kind)) +
                " makes a block of " + std::to_string(n) + " elements: " +
                budget_exceeded("compiler", "block budget", &Budgets::block_elements, "elements"),
            ctx);
      }
      for (const auto &region : op->regions) visit(*region);
    }
  };
  visit(*f.body);
}
}  // namespace

LoweredKernelPlan plan_kernel(const ttir::Function &f, const TargetOptions &target) {
  check_block_budget(f);
  if (!uses_block_pointers(f)) {
    LoweredKernelPlan plan = Planner(f).run();
    set_dpe_tiles(plan, target);
    plan_dot_pipelines(plan);
    return plan;
  }
  std::shared_ptr<const ttir::Function> expanded = expand_block_pointers(f);
  LoweredKernelPlan plan = Planner(*expanded).run();
  plan.expanded = std::move(expanded);
  set_dpe_tiles(plan, target);
  plan_dot_pipelines(plan);
  return plan;
}

std::string LoweredKernelPlan::dump() const {
  std::ostringstream os;
  os << "lowered @" << function->name << "\n";
  os << "  args (" << args.size() * 8 << " bytes):";
  for (auto &a : args) os << " " << a.name << ":" << a.type << "@" << a.offset_bytes;
  os << "\n  local memory: " << local_mem_bytes << " bytes in " << buffers.size() << " buffers\n";
  if (stack_bytes > 0)
    os << "  stack: " << stack_bytes << " bytes measured in the object, of " << local_mem_limit
       << " (pe.local_mem.size_bytes)\n";
  if (spill_bytes > 0) {
    os << "  spilled: " << spill_bytes << " bytes per PE in DRAM scratch\n";
    for (const auto &l : spill_report) os << "    " << l << "\n";
  }
  int n = 0;
  ttir::walk_block(*function->body, [&](const Operation &op) {
    ++n;
    if (dma_stores.count(&op))
      os << "  op " << n << " " << op.describe() << ": dma store from a "
         << op.operands[0]->type.numel() * memory_elem_bytes(op.operands[0]->type.pointee)
         << "-byte buffer\n";
    for (auto &r : op.results) {
      if (!r->type.is_block()) continue;
      os << "  op " << n << " " << op.describe() << " -> " << r->type.str() << ": ";
      if (carried_affine.count(r.get()))
        os << "affine, carried as its element 0";
      else if (buffers.count(r.get()))
        os << "buffer " << r->type.numel() * buffer_elem_bytes(r->type.elem) << " bytes"
           << (dpe_dots.count(&op) ? " (dpe)" : "");
      else if (fused_loads.count(&op))
        os << "load fused into its consumer's loop";
      else if (dma_loads.count(&op))
        os << "dma load into a " << r->type.numel() * memory_elem_bytes(r->type.elem)
           << "-byte buffer"
           << (prefetched_loads.count(&op) ? " x2, prefetched one iteration ahead" : "");
      else
        os << "fused";
      os << "\n";
    }
  });
  return os.str();
}

}  // namespace opforge::compiler
