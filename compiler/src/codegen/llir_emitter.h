//===- llir_emitter.h - the LLVM IR emitter's class, shared by the llir_*.cpp files ===//
//
// Scalars become SSA values; every block consumer that must produce memory
// effects or a buffer (stores, materialized values, reductions, dots, loop
// yields) becomes a loop nest over its shape whose body evaluates the fused
// block ops element by element. The emitter's methods are split by concern:
//   llir_emit.cpp     driver, arguments, buffers, loops, element evaluation
//   llir_apply.cpp    element-wise operations (arithmetic, conversions, SFU)
//   llir_control.cpp  scf.for / scf.if / tt.reduce
//   llir_dma.cpp      affine block loads/stores as Xmtia DMA transfers
//   llir_dot.cpp      tl.dot on the DPE, or as an element loop
//   llir_scan.cpp, llir_atomic.cpp, llir_while.cpp, llir_join.cpp  tt.scan,
//                     atomics and tt.bitcast, scf.while, tt.join/tt.split
//
//===----------------------------------------------------------------------===//
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <tuple>
#include <unordered_map>
#include <vector>

#include "opforge/compiler/codegen.h"
#include "opforge/compiler/llir_ir.h"
#include "opforge/compiler/diagnostics.h"
#include "opforge/support/error.h"

namespace opforge::compiler::llir {

using ttir::Elem;
using ttir::Operation;
using ttir::OpKind;
using ttir::Value;
using Idx = std::vector<std::string>;

// LLVM type of a value's element (fp16/bf16 are carried as float).
std::string llty(Elem e);
// Type of one element in a block buffer.
std::string bufty(Elem e);
// Type of one element in global memory (what a pointer points to).
std::string memty(Elem e);
// An LLVM hexadecimal float literal of `v` in the type of `e`.
std::string float_lit(double v, Elem e);
// The step of the i32 index block `v` along `axis` when the ops that build
// it fix it at compile time (llir_rect.cpp).
std::optional<int64_t> const_step(const Value *v, size_t axis);
// vtype's vlmul field for LMUL 1/2/4/8.
inline int vlmul_bits(int lmul) { return lmul == 8 ? 3 : lmul == 4 ? 2 : lmul == 2 ? 1 : 0; }
// The memory format of a block buffer's strips (llir_vector.cpp): fp16/bf16
// blocks are carried as fp32 in buffers, i1 as bytes.
inline Elem strip_format(Elem e) { return e == Elem::F16 || e == Elem::BF16 ? Elem::F32 : e; }
// fp16 <-> fp32 conversion helpers (LLVM IR text appended to every module).
extern const char *const kHalfHelpers;

class Emitter {
 public:
  // `line_table`: attach each instruction's source line (llir_debug.cpp).
  explicit Emitter(const LoweredKernelPlan &plan, bool line_table = true)
      : line_table_(line_table), plan_(plan) {}

  // The kernel's module: its instruction records and their text.
  LlirModule run();

 private:
  // ---- instruction records (llir_ir.h) --------------------------------------
  std::string label() { return "L" + std::to_string(label_++); }
  // An instruction defining a fresh value (returned), at the current line.
  std::string emit(const std::string &rhs);
  // The same as a typed value (llir_ir.h's LlVal: not a constant).
  LlVal emit(const std::string &type, const std::string &rhs) { return LlVal::of(emit(rhs), type); }
  // An instruction defining no value.
  void line(const std::string &s) { code_.add({"", s, dbg_}); }
  // `call <ret> @<helper>(<arg_type> <x>)` of one of the module's own helpers.
  std::string call_helper(const char *helper, const std::string &ret, const std::string &arg_type,
                          const std::string &x);
  void start(const std::string &l) { code_.start(l); }
  // An entry-block alloca of `count` x `ty`; a block-sized one listed in
  // plan.spilled_allocas is a slice of the spill scratch instead.
  std::string alloca_of(const std::string &ty, int64_t count = 1);
  // Marks the alloca `ptr` names (if it names one) as read or written by the
  // DPE: it stays in local memory.
  void pin_local(const std::string &ptr);
  std::string intrinsic(const std::string &name, const std::string &ret,
                        const std::string &args_types);
  // A compile error at the op's source location (file:line:col) when it has one.
  [[noreturn]] void fail(const Operation &op, const std::string &why) {
    std::string message = "codegen: " + op.describe() + ": " + why;
    if (op.loc.line > 0)
      throw CompileError(std::move(message), op.loc.file, SourceLoc{op.loc.line, op.loc.col});
    throw Error(message);
  }

  // ---- source lines: line-tables-only debug info (llir_debug.cpp) ----------
  // Every instruction emitted carries dbg_ (", !dbg !N"): the line of the
  // ttir op being emitted, the kernel's def line outside any op.
  void dbg_begin(const ttir::Function &f);
  // Sets dbg_ to `loc`'s line (when known) for the lifetime of an AtOp.
  struct AtOp {
    Emitter &e;
    int saved;
    AtOp(Emitter &em, const ttir::Location &loc);
    ~AtOp() { e.dbg_ = std::move(saved); }
  };
  // The location node of `line` of `file` in subprogram `sp`.
  int dbg_location(int sp, const std::string &file, int line);
  // A new subprogram `name` (linkage name `linkage`) at `line` of the kernel's file.
  int dbg_subprogram(const std::string &name, const std::string &linkage, int line);
  // The metadata nodes and module flags (after the kernel's own module flag !0).
  std::string dbg_metadata() const;
  bool line_table_ = true;
  int dbg_ = 0;  // the location node of instructions emitted now (0: none)
  int dbg_sp_ = 0, dbg_cu_ = 0, dbg_next_ = 0, def_line_ = 0;
  std::string dbg_file_;  // the kernel's file
  std::map<std::tuple<int, std::string, int>, int> dbg_loc_ids_;
  std::map<std::pair<int, std::string>, int> dbg_scopes_;  // (sp, other file) -> block file
  std::map<std::string, int> dbg_files_;
  std::vector<std::string> dbg_nodes_;  // "!N = ..." lines

  // ---- arguments, scalars --------------------------------------------------
  void load_arg(const Value &a, uint32_t offset);

  std::string scalar(const Value *v);

  std::string constant(const Operation &op);

  // ---- fp16/bf16 rounding and memory conversions ----------------------------
  std::string round(Elem e, const std::string &x);
  std::string load_mem(Elem e, const std::string &ptr);
  void store_mem(Elem e, const std::string &ptr, const std::string &x);

  // ---- buffers ---------------------------------------------------------------
  std::string linear(const Idx &idx, const std::vector<int64_t> &shape);
  std::string buffer_for(const Value *v);
  std::string buf_ptr(const Value *v, const std::string &buf, const Idx &idx);
  std::string buf_load(const Value *v, const std::string &buf, const Idx &idx);
  void buf_store(const Value *v, const std::string &buf, const Idx &idx, const std::string &x);

  // ---- loops -------------------------------------------------------------------
  void loop(int64_t lo, int64_t hi, const std::function<void(const std::string &)> &body);
  void loop(int64_t lo, const std::string &hi,
            const std::function<void(const std::string &)> &body);  // run-time bound
  void nest(const std::vector<int64_t> &shape, size_t d, Idx &idx,
            const std::function<void(const Idx &)> &body);
  void loop_nest(const std::vector<int64_t> &shape, const std::function<void(const Idx &)> &body);
  // Runs `body` only when `cond` holds; code emitted inside leaves no memo behind.
  void when(const std::string &cond, const std::function<void()> &body);

  // ---- element evaluation ---------------------------------------------------------
  std::string val(const Value *v, const Idx &idx) {
    return v->type.is_block() ? elem(v, idx) : scalar(v);
  }

  std::string elem(const Value *v, const Idx &idx);
  // elem() as a typed value, with its constant when the ops (or the masks
  // known to hold here) fix it.
  LlVal elem_val(const Value *v, const Idx &idx);
  // val() as a typed value (a scalar's constant from known_constant()).
  LlVal val_of(const Value *v, const Idx &idx) {
    return v->type.is_block() ? elem_val(v, idx)
                              : LlVal{scalar(v), llty(v->type.elem), known_constant(v)};
  }
  // The integer (i1: 0 or 1) every element of `v` has when the ops fix it:
  // a constant, through splats, broadcasts and expand_dims, or a mask known
  // to hold here (known_true_).
  std::optional<int64_t> known_constant(const Value *v) const;

  std::string elem_op(const Operation &op, const Idx &idx);

  std::string load(const Operation &op, const Idx &idx);

  // ---- element-wise operations (scalars and block elements alike) --------------------
  std::string apply(const Operation &op, const std::vector<std::string> &in);

  std::string divide(OpKind k, const std::string &it, Elem ie, const std::vector<std::string> &in);

  std::string sfu(OpKind k, const std::string &it, const std::string &x);
  // A planned block special function into its buffer (llir_sfu.cpp).
  void sfu_block(const Operation &op);
  bool sfu_block_fused(const Operation &op, const std::string &buf);
  bool sfu_block_half(const Operation &op);  // fp16/bf16 in, fp16 out in the strip
  std::string f32_buffer_of(const Value *v) const;
  // A planned ISA extension intrinsic (mtia.intrinsic) into its buffer (llir_ext.cpp).
  void ext_block(const Operation &op);
  std::string ext_operand_buffer(const Value *v);

  // tl.extra.mtia.async_copy / wait / barrier (llir_async.cpp): per call site
  // its number (DMA tags), and the load ops whose transfer code they reuse.
  void async_copy(const Operation &op);
  void async_wait(const Operation &op);
  void pe_barrier();
  std::map<const Operation *, size_t> async_sites_;
  std::vector<std::unique_ptr<Operation>> async_loads_;

  // ---- ops at their place in program order ---------------------------------------------
  void emit_block(const ttir::Block &b) {
    for (auto &opp : b.ops) emit_op(*opp);
  }

  void emit_op(const Operation &op);

  void store(const Operation &op);
  void device_assert(const Operation &op);

  // Copies block `src` (evaluated element-wise) into buffer `dst` of value `dv`.
  // (llir_vector.cpp: a strip loop where it can be one.)
  void fill(const Value *dv, const std::string &dst, const Value *src);

  void for_loop(const Operation &op);

  // Writes a yield's operands into the slots / buffers of the carried values
  // (via temporaries when the loop's own buffers feed the new values).
  void yield_into(const Operation &y, const ttir::Block &, const std::vector<std::string> &slots,
                  bool via_temp);

  bool elementwise_on(const Value *v, const Value *arg) const;
  void if_op(const Operation &op);

  // Applies a combine region to scalar values; returns the values it returns.
  std::vector<std::string> combine(const ttir::Block &region, const std::vector<std::string> &args);

  void reduce(const Operation &op);
  // A reduction in the interpreter's tree order, one vectorizable loop per level.
  void tree_reduce(const Operation &op);
  // Levels after the first as strip-mined RVV loops (llir_rvv.cpp): when
  // rvv_levels_ok, no level has a scalar remainder.
  bool rvv_levels_ok(const Operation &op) const;
  // The runtime library's routine for those levels, when it has one.
  const char *levels_routine(const Operation &op) const;
  void rvv_levels(const Operation &op, const std::vector<std::string> &tmp, int64_t keep0);
  void register_levels(const Operation &op, const std::vector<std::string> &tmp,
                       const std::string &cur, int lmul);
  void rvv_pairwise(const Operation &op, const std::vector<std::string> &src,
                    const std::vector<std::string> &dst, const std::string &half,
                    const std::string &keep, int lmul);
  bool rvv_level0(const Operation &op, const std::vector<std::string> &tmp, int64_t half0,
                  int64_t keep0);
  std::vector<std::string> rvv_combine(const ttir::Block &region,
                                       const std::vector<std::string> &args, int lmul,
                                       const std::string &vl);
  std::string rvv_type(Elem e, int lmul) const;  // <vscale x 2*lmul x T> for 32-bit T
  std::string rvv_all_true(int lmul) const;      // an all-true mask constant

  void dot(const Operation &op);
  void dpe_dot(const Operation &op);
  bool accumulates_in_place(const Operation &op) const;
  bool overwritten_by_first_step(const Operation &loop, const Value *arg, const Value *init);
  // Number of operations using `v` (whole kernel).
  size_t uses(const Value *v) const {
    auto it = users_.find(v);
    return it == users_.end() ? 0 : it->second.size();
  }
  // Waits for issued DPE commands before code that may read their results.
  void flush_dpe();
  // Do `v`'s elements read a buffer that an in-flight DPE command writes?
  bool depends_on_dpe(const Value *v, std::set<const Value *> &seen) const;
  // Is `v` an operand of a dot planned on the DPE?
  bool feeds_dpe(const Value *v) const;
  // `v`'s block in DPE input format (the DMA buffer when it is one).
  std::string dpe_operand(const Value *v);
  // Software-pipelined K loops (plan.prefetched_loads, llir_dot.cpp): two
  // buffers per load, the parity slot picking this iteration's, and the
  // other one (the next iteration's target) as an SSA value of this iteration.
  struct Prefetch {
    std::string buf[2], parity, cur, next, cur_tag, next_tag;
  };
  std::map<const Operation *, Prefetch> prefetch_;
  std::vector<const Operation *> prefetched_in(const Operation &loop) const;
  // Before the loop: the buffers and their parity.
  void pipeline_prologue(const Operation &loop);
  // In an iteration: its own transfers (the first iteration) and the next
  // iteration's (when there is one), one copy of the code.
  void issue_transfers(const Operation &loop, const std::string &first);
  // A prefetched load where it stands: picks this iteration's buffer.
  void prefetched_load(const Operation &op);
  // Runs `fn` with the loop body's arguments bound to another iteration's
  // values (`scalars`: induction variable and scalar arguments, `carried`:
  // carried affine blocks) and the prefetched loads' pure scalar ops
  // re-emitted in that binding; restores the current bindings after.
  void in_iteration(const Operation &loop, const std::map<const Value *, std::string> &scalars,
                    const std::map<const Value *, std::string> &carried_elem0,
                    const std::function<void()> &fn);
  // Emits the scalar ops of `body` that `roots` depend on (in body order):
  // all of them (`fresh`), or those not emitted yet.
  void emit_scalar_slice(const ttir::Block &body, const std::vector<const Value *> &roots,
                         bool fresh);
  // Body arguments of `loop` that the prefetched loads' operands read.
  std::vector<const Value *> prefetch_args(const Operation &loop);

  // ---- scans, atomics, while loops, join/split (llir_scan/atomic/while/join.cpp)
  void scan(const Operation &op);
  std::vector<std::string> scan_combine(const ttir::Block &region,
                                        const std::vector<std::string> &args);
  void atomic(const Operation &op);
  // One atomic on `ptr`; returns the old value (as an element value).
  std::string atomic_one(const Operation &op, Elem e, const std::string &ptr, const std::string &v,
                         const std::string &cmp);
  std::string float_bits(Elem e, const std::string &x);            // float value -> memory bits
  std::string float_of_bits(Elem e, const std::string &b);         // memory bits -> float value
  std::string bitcast(const Operation &op, const std::string &x);  // tt.bitcast of a value
  void while_loop(const Operation &op);
  void join_split(const Operation &op);  // llir_join.cpp
  std::string slot_for(const Value *v);  // an alloca (scalar) or a buffer (block)
  void bind_slot(const Value *v, const std::string &slot);
  void copy_into(const Value *v, const std::string &slot);

  // ---- DMA (llir_dma.cpp) ----------------------------------------------------
  // Base address and byte strides of an affine pointer block, as i64 values.
  struct Geometry {
    std::string base, row_stride, col_stride;
    int64_t rows = 1, cols = 1;
  };
  Geometry geometry(const Value *ptr);
  // Masks that hold on a rectangle of the block (llir_rect.cpp): per axis
  // the first active index and the count, computed at run time. `ok` is false
  // at run time when an index sequence wraps (then the element path runs).
  struct Rect {
    LlVal ok = LlVal::boolean(true), full = LlVal::boolean(true),
          nonempty = LlVal::boolean(true);  // i1
    size_t rank = 1;
    LlVal lo[2] = {LlVal::integer(0), LlVal::integer(0)},
          count[2] = {LlVal::integer(0), LlVal::integer(0)};  // i64
  };
  struct RectTerm {
    const Value *mask;  // a compare, or a mask uniform over the block
    int axis;           // the block axis it varies along (-1: uniform)
    int own_axis;       // that axis in the compare's own shape
    // A compare: `index pred bound`, the affine side first (pred swapped to match).
    const Value *index = nullptr, *bound = nullptr;
    std::string pred;
  };
  bool rect_terms(const Value *m, const std::vector<int> &axis_map,
                  std::vector<RectTerm> &out) const;
  std::optional<Rect> rect_of(const Value *mask, const std::vector<int64_t> &shape);
  // `count` elements of `buf` (memory format of `e`) set to the value `x`:
  // one strip-mined RVV loop (vsetvli, LMUL 8, no scalar remainder).
  void rvv_fill(const std::string &buf, Elem e, int64_t count, const std::string &x);
  // Issues the DMAs copying the block between global memory (`g`) and the
  // row-major local buffer `local` (`to_local`: global -> local), with `tag`;
  // with `rect`, only its sub-rectangle of the block (nothing when empty).
  // (`contiguous_only`: the caller checked that the columns are contiguous.)
  void dma_block(const Geometry &g, const std::string &local, int64_t elem_bytes, bool to_local,
                 const std::string &tag, const Rect *rect = nullptr, bool contiguous_only = false);
  // i1: the tile is all active and its columns contiguous in global memory
  // (one inline DMA moves it).
  LlVal whole_contiguous(const Geometry &g, const LlVal &all_active, int64_t elem_bytes);
  // The memory bits of `x`, the value of `other` (a load's; none: zero), as an i64.
  LlVal other_bits(Elem e, const Value *other, const std::string &x);
  // Is every element of `v` the constant +0 (integer, false or +0.0)?
  bool known_zero(const Value *v) const;
  void row_transfer(const Geometry &g, const std::string &raw, const Rect &rect, Elem e,
                    bool to_local, const Value *other, const std::string &other_x,
                    const std::string &tag, const std::function<void()> &partial);
  void runtime_row(const Geometry &g, const std::string &raw, const Rect &rect, Elem e,
                   bool to_local, const LlVal &bits, const std::string &tag);
  void dma_issue(const std::string &src, const std::string &dst, const std::string &row_bytes,
                 const std::string &rows, const std::string &src_stride,
                 const std::string &dst_stride, const std::string &tag);
  void dma_wait(int tag);
  void dma_wait_value(const std::string &tag);  // a run-time i64 tag
  // i1: every element of the mask block holds.
  // (May be false when not every element was proved to hold: callers then
  // take their masked element path.)
  std::string all_true(const Value *mask, const std::vector<int64_t> &shape);
  // all_true() as a typed value: a constant when the mask is a splat (or
  // broadcast, expand_dims) of a constant.
  LlVal all_active(const Value *mask, const std::vector<int64_t> &shape);
  // all_true of `affine cmp uniform` from the block's corners ("" if not that form).
  std::string affine_compare_all(const Operation &cmp);
  // Range masks (`affine cmp uniform`) that the fused element expression `v`
  // reads, each with its emitted all-true check (llir_masks.cpp).
  void collect_range_masks(const Value *v, std::set<const Value *> &seen,
                           std::vector<std::pair<const Value *, std::string>> &out);
  // Emits `body` (an element loop over `roots`) twice when they read range
  // masks: with the masks as constant true under their all-true check, else
  // the general version.
  void mask_versioned(const std::vector<const Value *> &roots, const std::function<void()> &body);
  std::set<const Value *> known_true_;  // masks every element of which holds here
  // An element loop over `shape` whose body reads `roots` (indexed over
  // `read_shape`) at its index plus each of `shifts`: split at the first index
  // where a range mask fails when it is 1-D and the masks are read there,
  // else mask_versioned (llir_masks.cpp).
  void masked_loop(const std::vector<const Value *> &roots, const std::vector<int64_t> &read_shape,
                   const std::vector<int64_t> &shape, const std::vector<int64_t> &shifts,
                   const std::function<void(const Idx &)> &body);
  bool masks_at_own_index(const Value *v, std::set<const Value *> &seen,
                          std::vector<const Value *> &out) const;
  // i64: how many leading elements hold; i1: none holds after them (a prefix).
  std::pair<std::string, std::string> leading_true(const Value *mask);
  // A 1-D loop over [0, len) reading one prefix mask `m` at i as loops over
  // regions where the read is a constant (llir_masks.cpp).
  void prefix_regions(const Value *m, int64_t len,
                      const std::function<void(const std::string &)> &body);
  struct MaskFact {
    std::string own;  // the loop's index: the read at it is `at_own`, any other `elsewhere`
    bool at_own = true, elsewhere = true;
  };
  std::map<const Value *, MaskFact> mask_facts_;  // range masks constant in this region
  void loop_span(const std::string &lo, const std::string &hi,
                 const std::function<void(const std::string &)> &body);  // loop() from a value
  // if (cond) then_body() else else_body(); neither leaves a memo behind.
  void branch(const std::string &cond, const std::function<void()> &then_body,
              const std::function<void()> &else_body);
  void dma_load(const Operation &op);
  // The transfer of load `op`'s block into `raw` as the iteration now in
  // scalars_ sees it: the DMA with `tag` (default: the load tag) when every
  // element is active, otherwise the masked element copy.
  void dma_fill(const Operation &op, const std::string &raw,
                const LlVal &tag = LlVal::integer(kLoadTag));
  void dma_store(const Operation &op);
  // The run-time check that no remainder of a wrapped-affine pointer block
  // wraps (then the block is affine), "" for an affine block; and the
  // element copy taken when it fails (llir_wrap.cpp).
  std::string wrap_guard(const Value *ptr);
  void element_fill(const Operation &op, const std::string &raw);
  // A tile that wraps once along one axis as two DMA pieces; `fallback` when
  // it wraps otherwise. False (nothing emitted) when the load is not of that form.
  bool wrap_split(const Operation &op, const std::string &raw, const LlVal &tag,
                  const std::function<void()> &fallback);
  bool in_wrap_guard_ = false;  // dma_fill inside its guard's affine branch
  // Waits for issued DMA loads before code that may read their buffers.
  void flush_loads();

  // ---- prefetch of the next iteration's loads in scf.for (llir_prefetch.cpp)
  struct RowPrefetch {
    const ttir::Block *body = nullptr;
    std::vector<const Operation *> loads;   // prefetched affine loads
    std::vector<const Operation *> stores;  // the body's stores (overlap check)
    std::string ity, step, ub;              // induction type, step and bound
    int64_t depth = 2;                      // ring slots per load (iterations in flight + 1)
    struct Slots {
      std::string bufs, slot, ready;  // depth buffers, this iteration's slot, ready flags
    };
    std::map<const Operation *, Slots> slots;
  };
  std::optional<RowPrefetch> plan_row_prefetch(const Operation &loop_op);
  void at_iteration(const ttir::Block &body, const std::string &iv,
                    const std::function<void()> &fn);
  std::pair<std::string, std::string> access_range(const Value *ptr, int64_t elem_bytes);
  void row_prefetch_prologue(RowPrefetch &pf, const std::string &lb, const std::string &ub,
                             const std::string &ity);
  void row_prefetched_load(const Operation &op);
  // A ring slot's transfer: whole contiguous rows issued inline, else dma_fill.
  void prefetch_fill(const Operation &op, const std::string &buf, const LlVal &tag);
  std::pair<std::string, std::string> iteration_ahead(const RowPrefetch &pf, const std::string &iv,
                                                      const std::string &k);
  std::string apart_from_stores(const RowPrefetch &pf, const Operation &op, const std::string &t,
                                const std::string &first, const std::string &last);
  std::string ring_buffer(const RowPrefetch::Slots &s, const Operation &op,
                          const std::string &slot);
  RowPrefetch *row_prefetch_ = nullptr;    // the loop whose body is being emitted, if it prefetches
  std::vector<std::string> pending_tags_;  // prefetch tags to wait for before reading buffers
  // Does emitting `op` read block buffers (so pending DMA loads must land)?
  bool reads_buffers(const Operation &op) const;

  // Register pressure of the innermost (vectorized) element loops: the most
  // block values one strip of such a loop keeps live; it picks the LMUL.
  int max_live_vectors_ = 0;
  bool inner_loop_seen_ = false;
  bool halves_live_ = false;  // counting a tree level 0 (two halves, one after the other)
  // Loops emitted while set carry llvm.loop.vectorize.enable false (cold
  // fallback paths: vectorizing them would only cost compile time).
  bool cold_loops_ = false;
  // A masked DMA tile that is not wholly active, through the runtime
  // library (__opforge_rt_tile, runtime_calls.cpp): the mask's terms (each
  // index linear modulo 2^32) and the pointer's i32 offset blocks, when
  // tile_form() proves that form (nothing is emitted while proving).
  struct TileForm {
    std::vector<const Value *> offsets;
    std::vector<RectTerm> terms;
  };
  std::optional<TileForm> tile_form(const Value *ptr, const Value *mask, const Value *other,
                                    Elem e) const;
  // Writes the tile's descriptor and calls the routine: `raw` is the local
  // buffer, `to_local` a load (with `other`, or zero), `g` the pointer's
  // geometry, `tag` the DMA tag.
  void runtime_tile(const TileForm &form, const Value *ptr, const Value *other, Elem e,
                    const std::string &raw, bool to_local, const Geometry &g, const LlVal &tag);
  int tile_descs_ = 0;  // constant descriptors of runtime_tile() calls
  // Emits `body` (the element path a runtime call replaces) nowhere: only
  // its count of live vectors stays, so the kernel's LMUL (vector_lmul)
  // is the one it had with that path inline.
  void count_only(const std::function<void()> &body);
  // Emits `body` (a rarely taken path) as a cold region that the backend
  // outlines into a function LLVM does not optimize (llir_cold.cpp); its
  // loops are not vectorized.
  void cold(const std::function<void()> &body);
  std::vector<ColdRegion> cold_regions_;
  // Runs `body` when the i1 `cond` equals `want`; a literal condition decides here.
  void when_is(const LlVal &cond, bool want, const std::function<void()> &body);
  std::vector<int> loop_ids_;  // metadata ids of those loops
  int live_vectors_since(
      const std::map<std::pair<const Value *, std::string>, std::string> &before) const;

  // ---- element loops as RVV strip loops (llir_vector.cpp) -------------------
  // Thrown in vector mode by whatever has no vector form; vector_span()
  // restores the emitter's state and the loop is emitted element by element.
  struct NotVector {};
  struct VecMode {
    std::set<std::string> index;  // index values that address a strip's first element
    std::string vl, vl32;         // this strip's length (i64, i32)
    int lmul = 8;
  };
  std::optional<VecMode> vec_;   // set while a strip loop's body is emitted
  std::set<std::string> vvals_;  // SSA values of vector type in vector mode
  bool vector_ok_ = false;       // loop_span() may emit a strip loop (see VectorOk)
  // Allows strip loops for the loops emitted while it lives: element loops
  // whose bodies only use elem(), buf_load/buf_store and store_mem.
  struct VectorOk {
    Emitter &e;
    bool saved;
    explicit VectorOk(Emitter &em) : e(em), saved(em.vector_ok_) { em.vector_ok_ = true; }
    ~VectorOk() { e.vector_ok_ = saved; }
  };
  // The loop over [lo, hi) as a strip loop; false (nothing emitted) when
  // some part of the body has no vector form.
  bool vector_span(const std::string &lo, const std::string &hi,
                   const std::function<void(const std::string &)> &body);
  bool is_vec(const std::string &x) const { return vvals_.count(x) > 0; }
  // Is the element at `idx` a strip (the last index a strip index)? Throws
  // NotVector when a strip index stands elsewhere (a strided access).
  bool vec_index(const Idx &idx) const;
  // fp16 strips (Zvfh): the half vector type, fp32 strip values rounded to
  // half (vfncvt.f.f.w), and half values widened back (vfwcvt.f.f.v).
  std::string vhalf_ty() const;
  std::string vhalf(const std::string &x);
  std::string vwiden_half(const std::string &h);
  std::string vty(Elem e) const;   // <vscale x 2*LMUL x T> of the strip
  std::string vsfx(Elem e) const;  // its intrinsic suffix (nxv16f32, ...)
  std::string vall() const;        // the all-true mask
  std::string vsplat(Elem e, const std::string &x);
  std::string vof(Elem e, const std::string &x);  // x, splat when it is a scalar
  std::string vcall(const std::string &ret, const std::string &fn, const std::string &params,
                    const std::string &args);
  std::string vload(Elem e, const std::string &ptr);  // a strip of memory format `e` at ptr
  void vstore(Elem e, const std::string &ptr, const std::string &x);
  std::string vrange(const Operation &make_range, const std::string &i);
  std::string vapply(const Operation &op, const std::vector<LlVal> &in);
  // apply(), or vapply() when an input is a vector.
  std::string apply_any(const Operation &op, const std::vector<LlVal> &in);

  const LoweredKernelPlan &plan_;
  std::vector<Inst> allocas_;  // the entry block's allocas (and their initial stores)
  IrBody code_;                // the kernel's body after the entry block
  std::set<std::string> decls_;
  int tmp_ = 0, label_ = 0, alloca_count_ = 0;
  std::vector<BlockAlloca> block_allocas_;
  std::set<int> pinned_;
  int64_t spill_bytes_ = 0;
  const Operation *at_op_ = nullptr;  // the op being emitted (for BlockAlloca::what)
  // The definition order of each value emit() defined (its number).
  std::unordered_map<std::string, long> def_order_;
  std::map<const Value *, std::string> scalars_;
  std::map<const Value *, std::string> bufs_;
  std::map<std::pair<const Value *, std::string>, std::string> memo_;
  std::map<const Value *, std::string> dma_raw_;  // DMA'd load -> buffer in memory format
  // Carried affine blocks (plan.carried_affine) in scope: element 0 as a
  // scalar and the loop's initial value, whose offsets give the other elements.
  struct Carried {
    std::string elem0;
    const Value *init = nullptr;
  };
  std::map<const Value *, Carried> carried_;
  // Element `idx` of a carried affine block.
  std::string carried_elem(const Value *v, const Carried &c, const Idx &idx);
  bool pending_loads_ = false;
  std::map<const Value *, std::vector<const Operation *>> users_;
  bool pending_dpe_ = false;
  std::set<const Value *> dpe_written_;  // values whose buffers DPE commands write
  // Zero-initialised carried accumulators whose K loop's first step
  // overwrites them (llir_dot.cpp, overwritten_by_first_step).
  std::set<const Value *> zero_accumulators_;
  static constexpr int kLoadTag = 1, kStoreTag = 2, kArgTag = 3;
  static constexpr int kPrefetchTag0 = 4;  // ring slot k uses tag kPrefetchTag0 + k
  static constexpr int kPipeTag0 = 14;     // a K loop's buffer k uses tag kPipeTag0 + k (of 0..15)
  std::string args_ = "%args";             // the argument block (a local copy)
};

}  // namespace opforge::compiler::llir
