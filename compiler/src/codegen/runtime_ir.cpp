//===- runtime_ir.cpp - the runtime library's LLVM IR text ===//
//
// The routines of runtime_library.h as LLVM IR text, generated here so that
// Xmtia instructions come from the ISA tables (xmtia_asm.h) and descriptor
// field numbers from rt_tile: __opforge_rt_dma_tile (strided transfers),
// __opforge_rt_tile_<n> (masked 2-D tiles: rectangle by closed-form
// intervals, RVV fill of `other`, clamped DMA; element by element when an
// index wraps), __opforge_rt_row (partial 1-D rows) and their internal
// helpers; the reduction-level routines come from runtime_levels.cpp.
//
//===----------------------------------------------------------------------===//
#include <algorithm>
#include <set>
#include <string>

#include "opforge/compiler/codegen.h"
#include "runtime_library.h"
#include "xmtia_asm.h"

namespace opforge::compiler {

namespace {

// rows x cols elements of `eb` bytes between global memory (base %g, byte
// strides %rs between rows, %cs between columns) and a local buffer (base
// %l, %pitch bytes per row): one DMA per row with element-sized rows along
// the strided dimension, tag %tag.
std::string dma_tile_ir() {
  return R"(define void @__opforge_rt_dma_tile(i64 %g, i64 %rs, i64 %cs, i64 %l, i64 %rows, i64 %cols, i64 %pitch, i64 %eb, i1 %to_local, i64 %tag) nounwind "no-builtins" {
entry:
  %desc = alloca i64, i64 6, align 16
  %d1 = getelementptr i64, ptr %desc, i64 1
  %d2 = getelementptr i64, ptr %desc, i64 2
  %d3 = getelementptr i64, ptr %desc, i64 3
  %d4 = getelementptr i64, ptr %desc, i64 4
  %d5 = getelementptr i64, ptr %desc, i64 5
  %src_stride = select i1 %to_local, i64 %cs, i64 %eb
  %dst_stride = select i1 %to_local, i64 %eb, i64 %cs
  br label %head
head:
  %i = phi i64 [ 0, %entry ], [ %next, %body ]
  %more = icmp slt i64 %i, %rows
  br i1 %more, label %body, label %done
body:
  %goff = mul i64 %i, %rs
  %ga = add i64 %g, %goff
  %loff = mul i64 %i, %pitch
  %la = add i64 %l, %loff
  %src = select i1 %to_local, i64 %ga, i64 %la
  %dst = select i1 %to_local, i64 %la, i64 %ga
  store i64 %src, ptr %desc
  store i64 %dst, ptr %d1
  store i64 %eb, ptr %d2
  store i64 %cols, ptr %d3
  store i64 %src_stride, ptr %d4
  store i64 %dst_stride, ptr %d5
  call void asm sideeffect ")" +
         dma_issue_asm() + R"(", "r,r,~{memory}"(ptr %desc, i64 %tag)
  %next = add i64 %i, 1
  br label %head, !llvm.loop !0
done:
  ret void
}
)";
}

// An element of `eb` (1, 2, 4 or 8) bytes at address %a, zero-extended,
// and its store.
const char *kElemAccess =
    R"(define internal i64 @__opforge_rt_load_bits(i64 %a, i64 %eb) nounwind "no-builtins" {
entry:
  %p = inttoptr i64 %a to ptr
  %is1 = icmp eq i64 %eb, 1
  br i1 %is1, label %b1, label %n1
b1:
  %v1 = load i8, ptr %p
  %z1 = zext i8 %v1 to i64
  ret i64 %z1
n1:
  %is2 = icmp eq i64 %eb, 2
  br i1 %is2, label %b2, label %n2
b2:
  %v2 = load i16, ptr %p
  %z2 = zext i16 %v2 to i64
  ret i64 %z2
n2:
  %is4 = icmp eq i64 %eb, 4
  br i1 %is4, label %b4, label %b8
b4:
  %v4 = load i32, ptr %p
  %z4 = zext i32 %v4 to i64
  ret i64 %z4
b8:
  %v8 = load i64, ptr %p
  ret i64 %v8
}

define internal void @__opforge_rt_store_bits(i64 %a, i64 %x, i64 %eb) nounwind "no-builtins" {
entry:
  %p = inttoptr i64 %a to ptr
  %is1 = icmp eq i64 %eb, 1
  br i1 %is1, label %b1, label %n1
b1:
  %t1 = trunc i64 %x to i8
  store i8 %t1, ptr %p
  ret void
n1:
  %is2 = icmp eq i64 %eb, 2
  br i1 %is2, label %b2, label %n2
b2:
  %t2 = trunc i64 %x to i16
  store i16 %t2, ptr %p
  ret void
n2:
  %is4 = icmp eq i64 %eb, 4
  br i1 %is4, label %b4, label %b8
b4:
  %t4 = trunc i64 %x to i32
  store i32 %t4, ptr %p
  ret void
b8:
  store i64 %x, ptr %p
  ret void
}
)";

// The call sites' entry points: the descriptor assembled from the constant
// part and the arguments (runtime_library.h), the derived address fields,
// then __opforge_rt_tile.
std::string entry_ir() {
  using namespace rt_tile;
  auto n = [](int v) { return std::to_string(v); };
  std::string s =
      R"(define internal void @__opforge_rt_tile_core(ptr %cd, ptr %raw, i64 %p00, i64 %w0, i64 %w1, ptr %vals) nounwind "no-builtins" {
entry:
  %d = alloca i64, i64 )" +
      n(kMaxFields) + R"(, align 16
  %noffsp = getelementptr i64, ptr %cd, i64 )" +
      n(kOffsets) + R"(
  %noffs = load i64, ptr %noffsp
  %ntermsp = getelementptr i64, ptr %cd, i64 )" +
      n(kTerms) + R"(
  %nterms = load i64, ptr %ntermsp
  %no3 = mul i64 %noffs, )" +
      n(kOffsetFields) + R"(
  %nt5 = mul i64 %nterms, )" +
      n(kTermFields) + R"(
  %f0 = add i64 %no3, %nt5
  %nfields = add i64 %f0, )" +
      n(kFirst) + R"(
  %local = ptrtoint ptr %raw to i64
  br label %head
head:
  %f = phi i64 [ 0, %entry ], [ %f1, %store ]
  %more = icmp slt i64 %f, %nfields
  br i1 %more, label %body, label %derive
body:
  %cp = getelementptr i64, ptr %cd, i64 %f
  %c = load i64, ptr %cp
  %sf = add i64 %f, %nfields
  %sp = getelementptr i64, ptr %cd, i64 %sf
  %src = load i64, ptr %sp
  %is_arg = icmp sge i64 %src, 0
  br i1 %is_arg, label %arg, label %special
arg:
  %vp = getelementptr i32, ptr %vals, i64 %src
  %v32 = load i32, ptr %vp
  %v = sext i32 %v32 to i64
  br label %store
special:
  %is_local = icmp eq i64 %src, )" +
      n(kFromLocal) + R"(
  %is_w0 = icmp eq i64 %src, )" +
      n(kFromWide0) + R"(
  %is_w1 = icmp eq i64 %src, )" +
      n(kFromWide1) + R"(
  %s1 = select i1 %is_w1, i64 %w1, i64 %c
  %s2 = select i1 %is_w0, i64 %w0, i64 %s1
  %s3 = select i1 %is_local, i64 %local, i64 %s2
  br label %store
store:
  %x = phi i64 [ %v, %arg ], [ %s3, %special ]
  %dp = getelementptr i64, ptr %d, i64 %f
  store i64 %x, ptr %dp
  %f1 = add i64 %f, 1
  br label %head, !llvm.loop !0
derive:
  %ebp = getelementptr i64, ptr %d, i64 )" +
      n(kElemBytes) + R"(
  %eb = load i64, ptr %ebp
  br label %ohead
ohead:
  %j = phi i64 [ 0, %derive ], [ %j1, %obody ]
  %u = phi i64 [ %p00, %derive ], [ %u1, %obody ]
  %rs = phi i64 [ 0, %derive ], [ %rs1, %obody ]
  %cs = phi i64 [ 0, %derive ], [ %cs1, %obody ]
  %omore = icmp slt i64 %j, %noffs
  br i1 %omore, label %obody, label %done
obody:
  %j3 = mul i64 %j, )" +
      n(kOffsetFields) + R"(
  %of = add i64 %j3, )" +
      n(kFirst) + R"(
  %op = getelementptr i64, ptr %d, i64 %of
  %o0 = load i64, ptr %op
  %orp = getelementptr i64, ptr %op, i64 1
  %or = load i64, ptr %orp
  %ocp = getelementptr i64, ptr %op, i64 2
  %oc = load i64, ptr %ocp
  %o0t = trunc i64 %o0 to i32
  %s0 = sext i32 %o0t to i64
  %s0b = mul i64 %s0, %eb
  %u1 = sub i64 %u, %s0b
  %xr = add i64 %o0, %or
  %xrt = trunc i64 %xr to i32
  %sr = sext i32 %xrt to i64
  %dr = sub i64 %sr, %s0
  %drb = mul i64 %dr, %eb
  %rs1 = add i64 %rs, %drb
  %xc = add i64 %o0, %oc
  %xct = trunc i64 %xc to i32
  %sc = sext i32 %xct to i64
  %dc = sub i64 %sc, %s0
  %dcb = mul i64 %dc, %eb
  %cs1 = add i64 %cs, %dcb
  %j1 = add i64 %j, 1
  br label %ohead, !llvm.loop !0
done:
  %bp = getelementptr i64, ptr %d, i64 )" +
      n(kBase) + R"(
  store i64 %u, ptr %bp
  %gp = getelementptr i64, ptr %d, i64 )" +
      n(kGlobalBase) + R"(
  store i64 %p00, ptr %gp
  %rsp = getelementptr i64, ptr %d, i64 )" +
      n(kRowStride) + R"(
  store i64 %rs, ptr %rsp
  %csp = getelementptr i64, ptr %d, i64 )" +
      n(kColStride) + R"(
  store i64 %cs, ptr %csp
  call void @__opforge_rt_tile(ptr %d)
  ret void
}
)";
  for (int k = kValueGroup; k <= kMaxValues; k += kValueGroup) {
    std::string params, stores;
    for (int i = 0; i < k; ++i) {
      params += ", i32 %v" + n(i);
      stores += "  %p" + n(i) + " = getelementptr i32, ptr %vals, i64 " + n(i) +
                "\n  store i32 %v" + n(i) + ", ptr %p" + n(i) + "\n";
    }
    s += "\ndefine void @__opforge_rt_tile_" + n(k) +
         "(ptr %cd, ptr %raw, i64 %p00, i64 %w0, i64 %w1" + params +
         ") nounwind \"no-builtins\" {\nentry:\n  %vals = alloca i32, i64 " + n(std::max(k, 1)) +
         ", align 16\n" + stores +
         "  call void @__opforge_rt_tile_core(ptr %cd, ptr %raw, i64 %p00, i64 %w0, i64 %w1, "
         "ptr %vals)\n  ret void\n}\n";
  }
  return s;
}

// The loop over the terms of descriptor %d, in the block `entry` of the
// routine it starts: %k counts the terms, %tp points at term %k's fields and
// %ta is its axis; a block `next` must set %k1 = %k + 1 and branch back to
// %head; after the last term the loop leaves to `exit`.
std::string term_loop(const std::string &exit) {
  using namespace rt_tile;
  auto n = [](int v) { return std::to_string(v); };
  return "  %noffsp = getelementptr i64, ptr %d, i64 " + n(kOffsets) +
         "\n  %noffs = load i64, ptr %noffsp\n  %ntermsp = getelementptr i64, ptr %d, i64 " +
         n(kTerms) + "\n  %nterms = load i64, ptr %ntermsp\n  %noffs3 = mul i64 %noffs, " +
         n(kOffsetFields) + "\n  %terms_at = add i64 %noffs3, " + n(kFirst) +
         "\n  br label %head\nhead:\n  %k = phi i64 [ 0, %entry ], [ %k1, %next ]\n"
         "  %more = icmp slt i64 %k, %nterms\n  br i1 %more, label %body, label %" +
         exit + "\nbody:\n  %k5 = mul i64 %k, " + n(kTermFields) +
         "\n  %tf = add i64 %terms_at, %k5\n  %tp = getelementptr i64, ptr %d, i64 %tf\n"
         "  %ta = load i64, ptr %tp\n";
}

// The routines reading the tile descriptor of runtime_library.h (rt_tile).
// Indices and offsets are evaluated as the interpreter does: in i32 with
// wrap-around (computed in i64, truncated).
std::string tile_ir() {
  using namespace rt_tile;
  auto n = [](int v) { return std::to_string(v); };
  std::string s;
  // `count` elements of `eb` bytes at %a set to %bits: strip-mined RVV
  // stores (vsetvli, LMUL 8), as the kernels' fills (llir_rect.cpp).
  s += "define internal void @__opforge_rt_fill(i64 %a, i64 %bits, i64 %count, i64 %eb) nounwind "
       "\"no-builtins\" {\nentry:\n  %p = inttoptr i64 %a to ptr\n";
  const int widths[4] = {8, 16, 32, 64};
  for (int w = 0; w < 4; ++w) {
    const std::string bits = n(widths[w]), next = w < 3 ? "n" + n(w) : "";
    if (w < 3)
      s += "  %is" + bits + " = icmp eq i64 %eb, " + n(widths[w] / 8) + "\n  br i1 %is" + bits +
           ", label %f" + bits + ", label %" + next + "\n" + next + ":\n";
    else
      s += "  br label %f64\n";
  }
  for (int w = 0; w < 4; ++w) {
    const std::string bits = n(widths[w]), it = "i" + bits, cnt = n(512 / widths[w]);
    const std::string vt = "<vscale x " + cnt + " x " + it + ">",
                      mt = "<vscale x " + cnt + " x i1>",
                      zeros = "<vscale x " + cnt + " x i32> zeroinitializer";
    const std::string sew = n(w);
    const std::string x = "%x" + bits, sp = "%splat" + bits, k = "%k" + bits;
    s += "f" + bits + ":\n";
    s += "  " + x + " = " + (widths[w] == 64 ? "add i64 %bits, 0" : "trunc i64 %bits to " + it) +
         "\n";
    s += "  %ins" + bits + " = insertelement " + vt + " poison, " + it + " " + x + ", i64 0\n";
    s += "  " + sp + " = shufflevector " + vt + " %ins" + bits + ", " + vt + " poison, " + zeros +
         "\n  br label %h" + bits + "\nh" + bits + ":\n";
    s += "  " + k + " = phi i64 [ 0, %f" + bits + " ], [ %k1_" + bits + ", %b" + bits + " ]\n";
    s += "  %more" + bits + " = icmp slt i64 " + k + ", %count\n  br i1 %more" + bits +
         ", label %b" + bits + ", label %done\nb" + bits + ":\n";
    s += "  %rem" + bits + " = sub i64 %count, " + k + "\n";
    s += "  %vl" + bits + " = call i64 @llvm.riscv.vsetvli.i64(i64 %rem" + bits + ", i64 " + sew +
         ", i64 3)\n";
    s += "  %q" + bits + " = getelementptr " + it + ", ptr %p, i64 " + k + "\n";
    s += "  %vl32_" + bits + " = trunc i64 %vl" + bits + " to i32\n";
    s += "  call void @llvm.vp.store.nxv" + cnt + it + ".p0(" + vt + " " + sp + ", ptr %q" + bits +
         ", " + mt + " shufflevector (" + mt + " insertelement (" + mt +
         " poison, i1 true, i64 0), " + mt + " poison, " + zeros + "), i32 %vl32_" + bits + ")\n";
    s += "  %k1_" + bits + " = add i64 " + k + ", %vl" + bits + "\n  br label %h" + bits + "\n";
  }
  s += "done:\n  ret void\n}\n";
  std::string decls = "declare i64 @llvm.riscv.vsetvli.i64(i64, i64, i64)\n";
  for (int w = 0; w < 4; ++w) {
    const std::string bits = n(widths[w]), it = "i" + bits, cnt = n(512 / widths[w]);
    decls += "declare void @llvm.vp.store.nxv" + cnt + it + ".p0(<vscale x " + cnt + " x " + it +
             ">, ptr, <vscale x " + cnt + " x i1>, i32)\n";
  }
  s += decls + "\n";
  // A partial row (llir_dma.cpp, runtime_row): local buffer %base of %total
  // elements of %eb bytes, active elements [%lo, %lo + %count) at global
  // address %g (the first one) with byte stride %cs. A load (%to_local)
  // fills the buffer with %bits first, then moves the active elements in; a
  // store moves them out. Strided columns move as element-sized rows.
  s +=
      R"(define void @__opforge_rt_row(i64 %base, i64 %lo, i64 %count, i64 %total, i64 %g, i64 %cs, i64 %eb, i64 %bits, i1 %to_local, i64 %tag) nounwind "no-builtins" {
entry:
  br i1 %to_local, label %fill, label %move
fill:
  call void @__opforge_rt_fill(i64 %base, i64 %bits, i64 %total, i64 %eb)
  br label %move
move:
  %some = icmp sgt i64 %count, 0
  br i1 %some, label %go, label %done
go:
  %loff = mul i64 %lo, %eb
  %la = add i64 %base, %loff
  %bytes = mul i64 %count, %eb
  %unit = icmp eq i64 %cs, %eb
  br i1 %unit, label %contiguous, label %strided
contiguous:
  %src = select i1 %to_local, i64 %g, i64 %la
  %dst = select i1 %to_local, i64 %la, i64 %g
  call void @__opforge_rt_issue(i64 %src, i64 %dst, i64 %bytes, i64 1, i64 0, i64 0, i64 %tag)
  br label %done
strided:
  call void @__opforge_rt_dma_tile(i64 %g, i64 0, i64 %cs, i64 %la, i64 1, i64 %count, i64 %bytes, i64 %eb, i1 %to_local, i64 %tag)
  br label %done
done:
  ret void
}
)";
  // Term %t (kTermFields slots) at index %i.
  s += R"(define internal i1 @__opforge_rt_holds(ptr %t, i64 %i) nounwind "no-builtins" {
entry:
  %x0p = getelementptr i64, ptr %t, i64 1
  %x0 = load i64, ptr %x0p
  %stepp = getelementptr i64, ptr %t, i64 2
  %step = load i64, ptr %stepp
  %boundp = getelementptr i64, ptr %t, i64 3
  %bound = load i64, ptr %boundp
  %predp = getelementptr i64, ptr %t, i64 4
  %pred = load i64, ptr %predp
  %is = mul i64 %i, %step
  %xw = add i64 %x0, %is
  %x = trunc i64 %xw to i32
  %b = trunc i64 %bound to i32
  %lt = icmp slt i32 %x, %b
  %le = icmp sle i32 %x, %b
  %gt = icmp sgt i32 %x, %b
  %ge = icmp sge i32 %x, %b
  %p0 = icmp eq i64 %pred, )" +
       n(kSlt) + R"(
  %p1 = icmp eq i64 %pred, )" +
       n(kSle) + R"(
  %p2 = icmp eq i64 %pred, )" +
       n(kSgt) + R"(
  %h23 = select i1 %p2, i1 %gt, i1 %ge
  %h123 = select i1 %p1, i1 %le, i1 %h23
  %holds = select i1 %p0, i1 %lt, i1 %h123
  ret i1 %holds
}

; Do the terms along `axis` (every term when axis is -1, with %r, %c) hold at index %i?
define internal i1 @__opforge_rt_active(ptr %d, i64 %axis, i64 %r, i64 %c) nounwind "no-builtins" {
entry:
)" + term_loop("yes") +
       R"(  %any = icmp slt i64 %axis, 0
  %same = icmp eq i64 %ta, %axis
  %mine = or i1 %any, %same
  br i1 %mine, label %test, label %next
test:
  %on_rows = icmp eq i64 %ta, 0
  %i = select i1 %on_rows, i64 %r, i64 %c
  %h = call i1 @__opforge_rt_holds(ptr %tp, i64 %i)
  br i1 %h, label %next, label %no
next:
  %k1 = add i64 %k, 1
  br label %head, !llvm.loop !0
yes:
  ret i1 true
no:
  ret i1 false
}

; The tile element by element (an index wraps): the offsets give the addresses.
define internal void @__opforge_rt_elements(ptr %d) nounwind "no-builtins" {
entry:
)";
  auto field = [&](const std::string &name, int f) {
    return "  %" + name + "_p = getelementptr i64, ptr %d, i64 " + n(f) + "\n  %" + name +
           " = load i64, ptr %" + name + "_p\n";
  };
  s += field("base", kBase) + field("rows", kRows) + field("cols", kCols) +
       field("eb", kElemBytes) + field("local", kLocal) + field("mode", kMode) +
       field("other", kOtherBits) + field("noffs", kOffsets);
  s += R"(  %is_load = icmp ne i64 %mode, 0
  br label %rhead
rhead:
  %r = phi i64 [ 0, %entry ], [ %r1, %rnext ]
  %rmore = icmp slt i64 %r, %rows
  br i1 %rmore, label %chead, label %done
chead:
  %c = phi i64 [ 0, %rhead ], [ %c1, %cnext ]
  %cmore = icmp slt i64 %c, %cols
  br i1 %cmore, label %cbody, label %rnext
cbody:
  %lin = mul i64 %r, %cols
  %linc = add i64 %lin, %c
  %loff = mul i64 %linc, %eb
  %la = add i64 %local, %loff
  %act = call i1 @__opforge_rt_active(ptr %d, i64 -1, i64 %r, i64 %c)
  br i1 %act, label %ohead, label %inactive
ohead:
  %j = phi i64 [ 0, %cbody ], [ %j1, %obody ]
  %ga = phi i64 [ %base, %cbody ], [ %ga1, %obody ]
  %omore = icmp slt i64 %j, %noffs
  br i1 %omore, label %obody, label %copy
obody:
  %j3 = mul i64 %j, )" +
       n(kOffsetFields) + R"(
  %of = add i64 %j3, )" +
       n(kFirst) + R"(
  %op = getelementptr i64, ptr %d, i64 %of
  %o0 = load i64, ptr %op
  %orp = getelementptr i64, ptr %op, i64 1
  %or = load i64, ptr %orp
  %ocp = getelementptr i64, ptr %op, i64 2
  %oc = load i64, ptr %ocp
  %rr = mul i64 %r, %or
  %cc = mul i64 %c, %oc
  %o1 = add i64 %o0, %rr
  %o2 = add i64 %o1, %cc
  %o32 = trunc i64 %o2 to i32
  %o64 = sext i32 %o32 to i64
  %ob = mul i64 %o64, %eb
  %ga1 = add i64 %ga, %ob
  %j1 = add i64 %j, 1
  br label %ohead, !llvm.loop !0
copy:
  %src = select i1 %is_load, i64 %ga, i64 %la
  %dst = select i1 %is_load, i64 %la, i64 %ga
  %bits = call i64 @__opforge_rt_load_bits(i64 %src, i64 %eb)
  call void @__opforge_rt_store_bits(i64 %dst, i64 %bits, i64 %eb)
  br label %cnext
inactive:
  br i1 %is_load, label %fill, label %cnext
fill:
  call void @__opforge_rt_store_bits(i64 %la, i64 %other, i64 %eb)
  br label %cnext
cnext:
  %c1 = add i64 %c, 1
  br label %chead, !llvm.loop !0
rnext:
  %r1 = add i64 %r, 1
  br label %rhead, !llvm.loop !0
done:
  ret void
}

; Is every term's index sequence linear (x(n-1) = x0 + (n-1)*step without
; wrapping around i32)? Then the active elements form a rectangle.
define internal i1 @__opforge_rt_linear(ptr %d) nounwind "no-builtins" {
entry:
)";
  s += field("rows", kRows) + field("cols", kCols) + term_loop("yes");
  s += R"(  %x0p = getelementptr i64, ptr %tp, i64 1
  %x0 = load i64, ptr %x0p
  %stepp = getelementptr i64, ptr %tp, i64 2
  %step = load i64, ptr %stepp
  %on_rows = icmp eq i64 %ta, 0
  %len = select i1 %on_rows, i64 %rows, i64 %cols
  %last = sub i64 %len, 1
  %x0t = trunc i64 %x0 to i32
  %x0s = sext i32 %x0t to i64
  %stept = trunc i64 %step to i32
  %steps = sext i32 %stept to i64
  %span = mul i64 %last, %steps
  %expect = add i64 %x0s, %span
  %wspan = mul i64 %last, %step
  %xlw = add i64 %x0, %wspan
  %xlt = trunc i64 %xlw to i32
  %xl = sext i32 %xlt to i64
  %ok = icmp eq i64 %xl, %expect
  br i1 %ok, label %next, label %no
next:
  %k1 = add i64 %k, 1
  br label %head, !llvm.loop !0
yes:
  ret i1 true
no:
  ret i1 false
}

; The interval [lo, hi) of indices i < len where term %t holds (its index
; linear: x(i) = x0 + i*s in i64): x <= U gives, for s > 0, i <= q and for
; s < 0, i >= -q with q = floor((U - x0) / |s|); x >= L gives, for s > 0,
; i >= -q and for s < 0, i <= q with q = floor((x0 - L) / |s|). Intersected
; into %lo_p, %hi_p.
define internal void @__opforge_rt_bounds(ptr %t, i64 %len, ptr %lo_p, ptr %hi_p) nounwind "no-builtins" {
entry:
  %x0p = getelementptr i64, ptr %t, i64 1
  %x0w = load i64, ptr %x0p
  %stepp = getelementptr i64, ptr %t, i64 2
  %stepw = load i64, ptr %stepp
  %boundp = getelementptr i64, ptr %t, i64 3
  %boundw = load i64, ptr %boundp
  %predp = getelementptr i64, ptr %t, i64 4
  %pred = load i64, ptr %predp
  %x0t = trunc i64 %x0w to i32
  %x0 = sext i32 %x0t to i64
  %st = trunc i64 %stepw to i32
  %s = sext i32 %st to i64
  %bt = trunc i64 %boundw to i32
  %b = sext i32 %bt to i64
  %upper = icmp sle i64 %pred, )" +
       n(kSle) + R"(
  %is_slt = icmp eq i64 %pred, )" +
       n(kSlt) + R"(
  %is_sgt = icmp eq i64 %pred, )" +
       n(kSgt) + R"(
  %bm1 = sub i64 %b, 1
  %bp1 = add i64 %b, 1
  %lim0 = select i1 %is_sgt, i64 %bp1, i64 %b
  %lim = select i1 %is_slt, i64 %bm1, i64 %lim0
  %flat = icmp eq i64 %s, 0
  br i1 %flat, label %flat_case, label %slope
flat_case:
  %h = call i1 @__opforge_rt_holds(ptr %t, i64 0)
  %fhi = select i1 %h, i64 %len, i64 0
  br label %merge
slope:
  %up_num = sub i64 %lim, %x0
  %lo_num = sub i64 %x0, %lim
  %num = select i1 %upper, i64 %up_num, i64 %lo_num
  %pos = icmp sgt i64 %s, 0
  %neg_s = sub i64 0, %s
  %mag = select i1 %pos, i64 %s, i64 %neg_s
  %qd = sdiv i64 %num, %mag
  %qr = srem i64 %num, %mag
  %rem_nz = icmp ne i64 %qr, 0
  %num_neg = icmp slt i64 %num, 0
  %adj = and i1 %rem_nz, %num_neg
  %adj64 = zext i1 %adj to i64
  %q = sub i64 %qd, %adj64
  %q1 = add i64 %q, 1
  %mq = sub i64 0, %q
  %same = icmp eq i1 %upper, %pos
  %slo = select i1 %same, i64 0, i64 %mq
  %shi = select i1 %same, i64 %q1, i64 %len
  br label %merge
merge:
  %tlo = phi i64 [ 0, %flat_case ], [ %slo, %slope ]
  %thi = phi i64 [ %fhi, %flat_case ], [ %shi, %slope ]
  %lo = load i64, ptr %lo_p
  %hi = load i64, ptr %hi_p
  %lo_lt = icmp slt i64 %lo, %tlo
  %lo1 = select i1 %lo_lt, i64 %tlo, i64 %lo
  %hi_gt = icmp sgt i64 %hi, %thi
  %hi1 = select i1 %hi_gt, i64 %thi, i64 %hi
  store i64 %lo1, ptr %lo_p
  store i64 %hi1, ptr %hi_p
  ret void
}

; The indices along `axis` (0 rows, 1 columns) where its terms hold: first
; into %out[0], count into %out[1] (linear indices).
define internal void @__opforge_rt_interval(ptr %d, i64 %axis, i64 %len, ptr %out) nounwind "no-builtins" {
entry:
  %lo_p = getelementptr i64, ptr %out, i64 0
  %hi_p = getelementptr i64, ptr %out, i64 1
  store i64 0, ptr %lo_p
  store i64 %len, ptr %hi_p
)" + term_loop("done") +
       R"(  %mine = icmp eq i64 %ta, %axis
  br i1 %mine, label %apply, label %next
apply:
  call void @__opforge_rt_bounds(ptr %tp, i64 %len, ptr %lo_p, ptr %hi_p)
  br label %next
next:
  %k1 = add i64 %k, 1
  br label %head, !llvm.loop !0
done:
  %lo = load i64, ptr %lo_p
  %hi = load i64, ptr %hi_p
  %lo_neg = icmp slt i64 %lo, 0
  %lo0 = select i1 %lo_neg, i64 0, i64 %lo
  %lo_big = icmp sgt i64 %lo0, %len
  %lo1 = select i1 %lo_big, i64 %len, i64 %lo0
  %hi_small = icmp slt i64 %hi, %lo1
  %hi0 = select i1 %hi_small, i64 %lo1, i64 %hi
  %hi_big = icmp sgt i64 %hi0, %len
  %hi1 = select i1 %hi_big, i64 %len, i64 %hi0
  %count = sub i64 %hi1, %lo1
  store i64 %lo1, ptr %lo_p
  store i64 %count, ptr %hi_p
  ret void
}

; One DMA transfer (the descriptor of xmtia.dma) with tag %tag.
define internal void @__opforge_rt_issue(i64 %src, i64 %dst, i64 %row_bytes, i64 %rows, i64 %ss, i64 %ds, i64 %tag) nounwind "no-builtins" {
entry:
  %desc = alloca i64, i64 6, align 16
  store i64 %src, ptr %desc
  %d1 = getelementptr i64, ptr %desc, i64 1
  store i64 %dst, ptr %d1
  %d2 = getelementptr i64, ptr %desc, i64 2
  store i64 %row_bytes, ptr %d2
  %d3 = getelementptr i64, ptr %desc, i64 3
  store i64 %rows, ptr %d3
  %d4 = getelementptr i64, ptr %desc, i64 4
  store i64 %ss, ptr %d4
  %d5 = getelementptr i64, ptr %desc, i64 5
  store i64 %ds, ptr %d5
  call void asm sideeffect ")" +
       dma_issue_asm() + R"(", "r,r,~{memory}"(ptr %desc, i64 %tag)
  ret void
}

; A masked tile that is not wholly active: its rectangle by DMA after a fill
; of `other` (loads), or element by element when an index wraps.
define internal void @__opforge_rt_tile(ptr %d) nounwind "no-builtins" {
entry:
  %lin_ok = call i1 @__opforge_rt_linear(ptr %d)
  br i1 %lin_ok, label %rect, label %elements
elements:
  call void @__opforge_rt_elements(ptr %d)
  ret void
rect:
)";
  s += field("rows", kRows) + field("cols", kCols) + field("eb", kElemBytes) +
       field("local", kLocal) + field("mode", kMode) + field("other", kOtherBits) +
       field("gbase", kGlobalBase) + field("rs", kRowStride) + field("cs", kColStride) +
       field("tag", kTag);
  s += R"(  %is_load = icmp ne i64 %mode, 0
  %rint = alloca i64, i64 2, align 16
  %cint = alloca i64, i64 2, align 16
  call void @__opforge_rt_interval(ptr %d, i64 0, i64 %rows, ptr %rint)
  call void @__opforge_rt_interval(ptr %d, i64 1, i64 %cols, ptr %cint)
  %r0 = load i64, ptr %rint
  %nrp = getelementptr i64, ptr %rint, i64 1
  %nr = load i64, ptr %nrp
  %c0 = load i64, ptr %cint
  %ncp = getelementptr i64, ptr %cint, i64 1
  %nc = load i64, ptr %ncp
  %rpos = icmp sgt i64 %nr, 0
  %cpos = icmp sgt i64 %nc, 0
  %rfull = icmp eq i64 %nr, %rows
  %cfull = icmp eq i64 %nc, %cols
  %full = and i1 %rfull, %cfull
  %fill = xor i1 %full, true
  %do_fill = and i1 %fill, %is_load
  br i1 %do_fill, label %fill_other, label %move
fill_other:
  %total = mul i64 %rows, %cols
  call void @__opforge_rt_fill(i64 %local, i64 %other, i64 %total, i64 %eb)
  br label %move
move:
  %some = and i1 %rpos, %cpos
  br i1 %some, label %dma, label %done
dma:
  %goff_r = mul i64 %r0, %rs
  %goff_c = mul i64 %c0, %cs
  %goff = add i64 %goff_r, %goff_c
  %g = add i64 %gbase, %goff
  %lrow = mul i64 %r0, %cols
  %lel = add i64 %lrow, %c0
  %loff = mul i64 %lel, %eb
  %l = add i64 %local, %loff
  %pitch = mul i64 %cols, %eb
  %one_col = icmp eq i64 %cols, 1
  %dense = icmp eq i64 %cs, %eb
  %contiguous = or i1 %one_col, %dense
  br i1 %contiguous, label %whole, label %per_row
whole:
  %row_bytes = mul i64 %nc, %eb
  %src = select i1 %is_load, i64 %g, i64 %l
  %dst = select i1 %is_load, i64 %l, i64 %g
  %ss = select i1 %is_load, i64 %rs, i64 %pitch
  %ds = select i1 %is_load, i64 %pitch, i64 %rs
  call void @__opforge_rt_issue(i64 %src, i64 %dst, i64 %row_bytes, i64 %nr, i64 %ss, i64 %ds, i64 %tag)
  br label %done
per_row:
  call void @__opforge_rt_dma_tile(i64 %g, i64 %rs, i64 %cs, i64 %l, i64 %nr, i64 %nc, i64 %pitch, i64 %eb, i1 %is_load, i64 %tag)
  br label %done
done:
  ret void
}
)";
  s += entry_ir();
  return s;
}

}  // namespace

std::string build_runtime_library_ir() {
  // The routines' intrinsic declarations are written once, by tile_ir()
  // (the only routines that call intrinsics).
  std::string body =
      dma_tile_ir() + "\n" + kElemAccess + "\n" + tile_ir() + "\n" + reduce_levels_asm();
  if (!body.empty() && body.back() != '\n') body += '\n';
  return "; opforge kernel runtime library (compiler/src/codegen/runtime_library.cpp)\n" + body +
         "\n!0 = distinct !{!0, !1}\n!1 = !{!\"llvm.loop.vectorize.enable\", i1 false}\n"
         "!llvm.module.flags = !{!2}\n!2 = !{i32 1, !\"" +
         std::string(kLmulFlag) + "\", i32 1}\n";
}

}  // namespace opforge::compiler
