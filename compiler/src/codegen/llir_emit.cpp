//===- llir_emit.cpp - the `llir` stage: a planned ttir kernel as LLVM IR text ===//
//
// Scalars become SSA values; block consumers become loop nests whose bodies
// evaluate the fused block ops element by element (loads inside them are
// predicated by the mask, `other` otherwise); affine loads and stores become
// DMA transfers into/out of local-memory buffers (llir_dma.cpp). LLVM's loop
// vectorizer turns the innermost loops into vector-length-agnostic RVV loops
// (vsetvli). Loop counters and loop-carried scalars live in allocas that SROA
// promotes. fp16/bf16 values are carried as fp32 and rounded after every
// operation, as the IR interpreter does. Program ids come from the Xmtia CSRs;
// the kernel ends with xmtia.done. Every Xmtia encoding is taken from the ISA
// tables.
//
//===----------------------------------------------------------------------===//
#include <algorithm>
#include <bit>
#include <cctype>
#include <cstdio>
#include <limits>
#include <utility>

#include "llir_emitter.h"
#include "opforge/support/dtype.h"
#include "xmtia_asm.h"

namespace opforge::compiler {
namespace llir {

std::string llty(Elem e) {
  switch (e) {
    case Elem::I1:
      return "i1";
    case Elem::I8:
      return "i8";
    case Elem::I16:
      return "i16";
    case Elem::I32:
      return "i32";
    case Elem::I64:
      return "i64";
    case Elem::F16:
    case Elem::BF16:
    case Elem::F32:
      return "float";
    case Elem::F64:
      return "double";
    case Elem::Ptr:
      return "ptr";
    default:
      throw Error("codegen: value without an element type");
  }
}
// Type of one element in a block buffer.
std::string bufty(Elem e) { return e == Elem::I1 ? "i8" : llty(e); }
// Type of one element in global memory (what a pointer points to).
std::string memty(Elem e) {
  switch (e) {
    case Elem::I1:
      return "i8";
    case Elem::F16:
    case Elem::BF16:
      return "i16";
    default:
      return llty(e);
  }
}

std::string float_lit(double v, Elem e) {
  char buf[32];
  double d = e == Elem::F64 ? v : static_cast<double>(static_cast<float>(v));
  std::snprintf(buf, sizeof buf, "0x%016llX",
                static_cast<unsigned long long>(std::bit_cast<uint64_t>(d)));
  return buf;
}

// fp16 <-> fp32 in integer code (the target has no Zfh). Values handed to

LlirModule Emitter::run() {
  const ttir::Function &f = *plan_.function;
  ttir::walk_block(*f.body, [&](const Operation &op) {
    for (auto *v : op.operands) users_[v].push_back(&op);
  });
  dbg_begin(f);
  // One DMA brings the argument block into local memory: one wait on global
  // memory instead of one blocking scalar load per argument.
  if (!f.body->args.empty()) {
    uint32_t bytes = plan_.args.back().offset_bytes + plan_.args.back().size_bytes;
    args_ = alloca_of("i64", (bytes + 7) / 8);
    dma_issue(emit("ptrtoint ptr %args to i64"), emit("ptrtoint ptr " + args_ + " to i64"),
              std::to_string(bytes), "1", "0", "0", std::to_string(kArgTag));
    dma_wait(kArgTag);
  }
  for (size_t i = 0; i < f.body->args.size(); ++i)
    load_arg(*f.body->args[i], plan_.args[i].offset_bytes);
  emit_block(*f.body);
  line("unreachable");  // the block after tt.return's xmtia.done
  LlirModule m;
  std::string &os = m.text;
  os = "; kernel " + f.name + "\n";
  // The line table's metadata before the code: instructions then refer back
  // to defined nodes (forward references cost LLVM's parser a temporary
  // node and a replacement of each use).
  if (line_table_) os += dbg_metadata() + "\n";
  os += "define void @_start(ptr %args) nounwind \"no-builtins\"";
  if (line_table_) os += " !dbg !" + std::to_string(dbg_sp_);
  os += " {\nentry:\n";
  for (BlockAlloca &b : block_allocas_) {
    b.pinned = pinned_.count(b.index) > 0;
    if (b.pinned && b.spilled)
      throw Error("codegen: kernel " + f.name + ": the DPE buffer of " + b.what +
                  " was spilled out of local memory");
  }
  if (spill_bytes_ > 0) {
    // This PE's slice of the spill scratch: the base the launcher put in the
    // argument block's hidden slot, plus mhartid (the PE index) slices.
    os += "  %spill.slot = getelementptr i8, ptr %args, i64 " +
          std::to_string(plan_.args.size() * 8) + "\n";
    os += "  %spill.addr = load i64, ptr %spill.slot, align 8\n";
    os += "  %spill.pe = call i64 asm sideeffect \"csrr $0, mhartid\", \"=r\"()\n";
    os += "  %spill.off = mul i64 %spill.pe, " + std::to_string(spill_bytes_) + "\n";
    os += "  %spill.sum = add i64 %spill.addr, %spill.off\n";
    os += "  %spill.base = inttoptr i64 %spill.sum to ptr\n";
  }
  for (const Inst &a : allocas_) a.print(os);
  os += "  br label %body\n";
  code_.print(os);
  os += "}\n\n";
  for (auto &d : decls_) os += d + "\n";
  // The fp16 helpers only where the kernel calls one: LLVM parses and
  // optimizes unused ones before dropping them (about 1 M host instructions).
  for (const char *h : {"__opforge_f16_to_f32", "__opforge_round_f16", "__opforge_f32_to_f16"})
    if (code_.calls(h)) m.helpers.push_back(h);
  if (!m.helpers.empty()) os += kHalfHelpers;
  // Module flags: the LMUL, and with the line table the debug info's versions.
  const std::string dwarf = std::to_string(dbg_next_), version = std::to_string(dbg_next_ + 1);
  os += "\n!llvm.module.flags = !{!0" + (line_table_ ? ", !" + dwarf + ", !" + version : "") +
        "}\n!0 = !{i32 1, !\"" + kLmulFlag + "\", i32 " +
        std::to_string(vector_lmul(max_live_vectors_)) + "}\n";
  if (line_table_)
    os += "!" + dwarf + " = !{i32 7, !\"Dwarf Version\", i32 4}\n!" + version +
          " = !{i32 2, !\"Debug Info Version\", i32 3}\n";
  if (!loop_ids_.empty()) os += "!1 = !{!\"llvm.loop.vectorize.enable\", i1 false}\n";
  for (int id : loop_ids_)
    os += "!" + std::to_string(id) + " = distinct !{!" + std::to_string(id) + ", !1}\n";
  m.block_allocas = std::move(block_allocas_);
  m.spill_bytes = spill_bytes_;
  m.allocas = std::move(allocas_);
  m.body = std::move(code_);
  m.cold_regions = std::move(cold_regions_);
  return m;
}

std::string Emitter::emit(const std::string &rhs) {
  std::string t = "%t" + std::to_string(tmp_);
  def_order_.emplace(t, tmp_++);
  code_.add({t, rhs, dbg_});
  return t;
}

std::string Emitter::call_helper(const char *helper, const std::string &ret,
                                 const std::string &arg_type, const std::string &x) {
  std::string t = emit("call " + ret + " @" + helper + "(" + arg_type + " " + x + ")");
  code_.back().callee = helper;
  return t;
}

namespace {
// Bytes of one `ty` in memory (the emitter's alloca types); 0 when unknown.
int64_t llty_bytes(const std::string &ty) {
  if (ty == "i1" || ty == "i8") return 1;
  if (ty == "i16" || ty == "half" || ty == "bfloat") return 2;
  if (ty == "i32" || ty == "float") return 4;
  if (ty == "i64" || ty == "double" || ty == "ptr") return 8;
  return 0;
}
constexpr int64_t kBlockAllocaBytes = 1024;  // smaller allocas always stay on the stack
constexpr int64_t kSpillAlign = 64;
}  // namespace

std::string Emitter::alloca_of(const std::string &ty, int64_t count) {
  const int index = alloca_count_++;
  std::string a = "%a" + std::to_string(index);
  const int64_t n = std::max<int64_t>(count, 1), bytes = n * llty_bytes(ty);
  if (bytes >= kBlockAllocaBytes) {
    BlockAlloca b;
    b.index = index;
    b.bytes = bytes;
    b.spilled = plan_.spilled_allocas.count(index) > 0;
    if (at_op_) b.what = at_op_->describe();
    block_allocas_.push_back(std::move(b));
    if (block_allocas_.back().spilled) {
      allocas_.push_back(
          {a, "getelementptr inbounds i8, ptr %spill.base, i64 " + std::to_string(spill_bytes_)});
      spill_bytes_ += (bytes + kSpillAlign - 1) / kSpillAlign * kSpillAlign;
      return a;
    }
  }
  allocas_.push_back({a, "alloca " + ty + ", i64 " + std::to_string(n) + ", align 16"});
  return a;
}

void Emitter::pin_local(const std::string &ptr) {
  if (ptr.size() < 3 || ptr.compare(0, 2, "%a") != 0) return;
  for (size_t i = 2; i < ptr.size(); ++i)
    if (!std::isdigit(static_cast<unsigned char>(ptr[i]))) return;
  pinned_.insert(std::stoi(ptr.substr(2)));
}

std::string Emitter::intrinsic(const std::string &name, const std::string &ret,
                               const std::string &args_types) {
  decls_.insert("declare " + ret + " @" + name + "(" + args_types + ")");
  return name;
}

void Emitter::load_arg(const Value &a, uint32_t offset) {
  std::string p = emit("getelementptr i8, ptr " + args_ + ", i64 " + std::to_string(offset));
  Elem e = a.type.elem;
  if (a.type.is_block()) throw Error("codegen: block-typed kernel argument " + a.name);
  if (e == Elem::Ptr)
    scalars_[&a] = emit("load ptr, ptr " + p);
  else if (e == Elem::F32 || e == Elem::F64)
    scalars_[&a] = emit("load " + llty(e) + ", ptr " + p);
  else if (e == Elem::F16 || e == Elem::BF16)
    scalars_[&a] = round(e, emit("load float, ptr " + p));
  else if (e == Elem::I64)
    scalars_[&a] = emit("load i64, ptr " + p);
  else
    scalars_[&a] = emit("trunc i64 " + emit("load i64, ptr " + p) + " to " + llty(e));
}

std::string Emitter::scalar(const Value *v) {
  auto it = scalars_.find(v);
  if (it == scalars_.end())
    throw Error("codegen: internal: scalar value %" + std::to_string(v->id) +
                " used before it was emitted");
  return it->second;
}

std::string Emitter::constant(const Operation &op) {
  Elem e = op.result()->type.elem;
  const ttir::Attr &a = op.attrs.at("value");
  if (ttir::elem_is_float(e)) {
    double v = std::holds_alternative<double>(a)    ? std::get<double>(a)
               : std::holds_alternative<int64_t>(a) ? static_cast<double>(std::get<int64_t>(a))
               : std::get<bool>(a)                  ? 1.0
                                                    : 0.0;
    if (e == Elem::F16) v = fp16_to_fp32(fp32_to_fp16(static_cast<float>(v)));
    if (e == Elem::BF16) v = bf16_to_fp32(fp32_to_bf16(static_cast<float>(v)));
    return float_lit(v, e);
  }
  int64_t v = std::holds_alternative<int64_t>(a) ? std::get<int64_t>(a)
              : std::holds_alternative<bool>(a)  ? (std::get<bool>(a) ? 1 : 0)
                                                 : static_cast<int64_t>(std::get<double>(a));
  if (e == Elem::I1) return (v & 1) ? "true" : "false";
  return std::to_string(v);
}

std::string Emitter::round(Elem e, const std::string &x) {
  if (e == Elem::BF16) {
    std::string b = emit("bitcast float " + x + " to i32");
    std::string lsb = emit("and i32 " + emit("lshr i32 " + b + ", 16") + ", 1");
    std::string r = emit(
        "and i32 " + emit("add i32 " + emit("add i32 " + b + ", 32767") + ", " + lsb) + ", -65536");
    std::string nan = emit("fcmp uno float " + x + ", " + x);
    std::string q = emit("and i32 " + emit("or i32 " + b + ", 4194304") + ", -65536");
    return emit("bitcast i32 " + emit("select i1 " + nan + ", i32 " + q + ", i32 " + r) +
                " to float");
  }
  if (e == Elem::F16) return call_helper("__opforge_round_f16", "float", "float", x);
  return x;
}

std::string Emitter::load_mem(Elem e, const std::string &ptr) {
  if (e == Elem::BF16) {
    std::string w = emit("zext i16 " + emit("load i16, ptr " + ptr) + " to i32");
    return emit("bitcast i32 " + emit("shl i32 " + w + ", 16") + " to float");
  }
  if (e == Elem::F16)
    return call_helper("__opforge_f16_to_f32", "float", "i16", emit("load i16, ptr " + ptr));
  if (e == Elem::I1) return emit("icmp ne i8 " + emit("load i8, ptr " + ptr) + ", 0");
  return emit("load " + llty(e) + ", ptr " + ptr);
}

void Emitter::store_mem(Elem e, const std::string &ptr, const std::string &x) {
  if (is_vec(ptr)) throw NotVector{};  // a scatter
  if (is_vec(x)) return vstore(e, ptr, x);
  if (e == Elem::BF16) {
    std::string b = emit("lshr i32 " + emit("bitcast float " + x + " to i32") + ", 16");
    line("store i16 " + emit("trunc i32 " + b + " to i16") + ", ptr " + ptr);
    return;
  }
  if (e == Elem::F16) {
    line("store i16 " + call_helper("__opforge_f32_to_f16", "i16", "float", x) + ", ptr " + ptr);
    return;
  }
  if (e == Elem::I1) {
    line("store i8 " + emit("zext i1 " + x + " to i8") + ", ptr " + ptr);
    return;
  }
  line("store " + llty(e) + " " + x + ", ptr " + ptr);
}

std::string Emitter::linear(const Idx &idx, const std::vector<int64_t> &shape) {
  if (idx.empty()) return "0";
  std::string lin = idx[0];
  for (size_t d = 1; d < idx.size(); ++d)
    lin =
        emit("add i64 " + emit("mul i64 " + lin + ", " + std::to_string(shape[d])) + ", " + idx[d]);
  return lin;
}

std::string Emitter::buffer_for(const Value *v) {
  auto it = bufs_.find(v);
  if (it != bufs_.end()) return it->second;
  return bufs_[v] = alloca_of(bufty(v->type.elem), v->type.numel());
}

std::string Emitter::buf_ptr(const Value *v, const std::string &buf, const Idx &idx) {
  return emit("getelementptr " + bufty(v->type.elem) + ", ptr " + buf + ", i64 " +
              linear(idx, v->type.shape));
}

std::string Emitter::buf_load(const Value *v, const std::string &buf, const Idx &idx) {
  if (vec_index(idx))  // a strip (llir_vector.cpp)
    return vload(strip_format(v->type.elem), buf_ptr(v, buf, idx));
  std::string p = buf_ptr(v, buf, idx);
  if (v->type.elem == Elem::I1) return emit("icmp ne i8 " + emit("load i8, ptr " + p) + ", 0");
  return emit("load " + llty(v->type.elem) + ", ptr " + p);
}

void Emitter::buf_store(const Value *v, const std::string &buf, const Idx &idx,
                        const std::string &x) {
  if (vec_index(idx)) return vstore(strip_format(v->type.elem), buf_ptr(v, buf, idx), x);
  std::string p = buf_ptr(v, buf, idx);
  if (v->type.elem == Elem::I1)
    line("store i8 " + emit("zext i1 " + x + " to i8") + ", ptr " + p);
  else
    line("store " + llty(v->type.elem) + " " + x + ", ptr " + p);
}

void Emitter::loop(int64_t lo, int64_t hi, const std::function<void(const std::string &)> &body) {
  loop(lo, std::to_string(hi), body);
}

void Emitter::loop(int64_t lo, const std::string &hi,
                   const std::function<void(const std::string &)> &body) {
  loop_span(std::to_string(lo), hi, body);
}

void Emitter::loop_span(const std::string &lo, const std::string &hi,
                        const std::function<void(const std::string &)> &body) {
  if (vec_) throw NotVector{};  // a loop inside a strip loop's body
  if (vector_ok_ && !cold_loops_ && vector_span(lo, hi, body)) return;
  std::string slot = alloca_of("i64");
  line("store i64 " + lo + ", ptr " + slot);
  std::string head = label(), bodyl = label(), exit = label();
  line("br label %" + head);
  start(head);
  std::string i = emit("load i64, ptr " + slot);
  line("br i1 " + emit("icmp slt i64 " + i + ", " + hi) + ", label %" + bodyl + ", label %" + exit);
  start(bodyl);
  auto saved = memo_;
  inner_loop_seen_ = false;
  body(i);
  if (!inner_loop_seen_) {
    int live = live_vectors_since(saved);
    // A tree level's two halves are evaluated one after the other: their
    // values are not live at the same time.
    if (halves_live_) live = live / 2 + 1;
    max_live_vectors_ = std::max(max_live_vectors_, live);
  }
  inner_loop_seen_ = true;
  memo_ = saved;
  line("store i64 " + emit("add nsw i64 " + i + ", 1") + ", ptr " + slot);
  if (cold_loops_) {
    loop_ids_.push_back(2 + static_cast<int>(loop_ids_.size()));
    line("br label %" + head + ", !llvm.loop !" + std::to_string(loop_ids_.back()));
  } else {
    line("br label %" + head);
  }
  start(exit);
}

void Emitter::nest(const std::vector<int64_t> &shape, size_t d, Idx &idx,
                   const std::function<void(const Idx &)> &body) {
  if (d == shape.size()) {
    body(idx);
    return;
  }
  loop(0, shape[d], [&](const std::string &i) {
    idx.resize(d);  // a body abandoned by vector_span() left its index behind
    idx.push_back(i);
    nest(shape, d + 1, idx, body);
    idx.resize(d);
  });
}

void Emitter::loop_nest(const std::vector<int64_t> &shape,
                        const std::function<void(const Idx &)> &body) {
  Idx idx;
  nest(shape, 0, idx, body);
}

void Emitter::when(const std::string &cond, const std::function<void()> &body) {
  if (is_vec(cond)) throw NotVector{};
  std::string yes = label(), join = label();
  line("br i1 " + cond + ", label %" + yes + ", label %" + join);
  start(yes);
  auto saved = memo_;
  body();
  memo_ = saved;
  line("br label %" + join);
  start(join);
}

std::string Emitter::elem(const Value *v, const Idx &idx) {
  if (!known_true_.empty() && known_true_.count(v)) return "true";  // llir_masks.cpp
  if (auto f = mask_facts_.find(v); f != mask_facts_.end())
    return (idx.size() == 1 && idx[0] == f->second.own ? f->second.at_own : f->second.elsewhere)
               ? "true"
               : "false";
  std::string key;
  for (auto &i : idx) key += i + ",";
  auto mk = std::make_pair(v, key);
  if (auto it = memo_.find(mk); it != memo_.end()) return it->second;
  std::string r;
  if (auto c = carried_.find(v); c != carried_.end()) {
    if (vec_index(idx)) throw NotVector{};
    r = carried_elem(v, c->second, idx);
  } else if (auto d = dma_raw_.find(v); d != dma_raw_.end() && vec_index(idx))
    r = vload(v->type.elem, emit("getelementptr " + memty(v->type.elem) + ", ptr " + d->second +
                                 ", i64 " + linear(idx, v->type.shape)));
  else if (d != dma_raw_.end())
    r = load_mem(v->type.elem, emit("getelementptr " + memty(v->type.elem) + ", ptr " + d->second +
                                    ", i64 " + linear(idx, v->type.shape)));
  else if (auto b = bufs_.find(v); b != bufs_.end())
    r = buf_load(v, b->second, idx);
  else if (!v->def)
    throw Error("codegen: internal: block argument without a buffer");
  else
    r = elem_op(*v->def, idx);
  memo_[mk] = r;
  return r;
}

LlVal Emitter::elem_val(const Value *v, const Idx &idx) {
  std::optional<int64_t> c = known_constant(v);
  if (auto f = mask_facts_.find(v); f != mask_facts_.end())
    c = idx.size() == 1 && idx[0] == f->second.own ? f->second.at_own : f->second.elsewhere;
  return {elem(v, idx), llty(v->type.elem), c};
}

std::optional<int64_t> Emitter::known_constant(const Value *v) const {
  if (known_true_.count(v)) return 1;  // llir_masks.cpp
  if (ttir::elem_is_float(v->type.elem) || v->type.elem == Elem::Ptr) return std::nullopt;
  // Values the emitter holds in a buffer, a DMA'd block or a carried block
  // are read from memory, whatever op defined them.
  if (bufs_.count(v) || dma_raw_.count(v) || carried_.count(v)) return std::nullopt;
  const Operation *d = v->def;
  if (!d) return std::nullopt;
  switch (d->kind) {
    case OpKind::Constant: {
      const ttir::Attr &a = d->attrs.at("value");
      int64_t x = std::holds_alternative<int64_t>(a) ? std::get<int64_t>(a)
                  : std::holds_alternative<bool>(a)  ? (std::get<bool>(a) ? 1 : 0)
                                                     : static_cast<int64_t>(std::get<double>(a));
      return v->type.elem == Elem::I1 ? (x & 1) : x;
    }
    case OpKind::Splat:
    case OpKind::Broadcast:
    case OpKind::ExpandDims:
      return known_constant(d->operands[0]);
    default:
      return std::nullopt;
  }
}

std::string Emitter::carried_elem(const Value *v, const Carried &c, const Idx &idx) {
  bool at_zero = true;
  for (auto &i : idx) at_zero &= i == "0";
  if (at_zero) return c.elem0;
  Idx zero(idx.size(), "0");
  std::string x = elem(c.init, idx), x0 = elem(c.init, zero);
  if (v->type.elem != Elem::Ptr) {
    std::string ty = llty(v->type.elem);
    return emit("add " + ty + " " + c.elem0 + ", " + emit("sub " + ty + " " + x + ", " + x0));
  }
  std::string d = emit("sub i64 " + emit("ptrtoint ptr " + x + " to i64") + ", " +
                       emit("ptrtoint ptr " + x0 + " to i64"));
  return emit("getelementptr i8, ptr " + c.elem0 + ", i64 " + d);
}

// Values of one strip live together: each from its definition (the order
// of its SSA number) to its last use by another value of the strip, or to
// the end of the strip when nothing in it reads it (it is stored, or read
// by a combine region). A chain like ((x - m) * r) * w + b keeps two at a
// time, not five.
int Emitter::live_vectors_since(
    const std::map<std::pair<const Value *, std::string>, std::string> &before) const {
  struct Entry {
    const Value *v;
    const std::string *idx;  // the element read (values of two halves are apart)
    long first, last;
  };
  std::vector<Entry> es;
  for (auto &[key, x] : memo_) {
    if (before.count(key)) continue;
    const Value *v = key.first;
    if (v->type.elem == Elem::Ptr) continue;  // consecutive addresses: no vector register
    if (v->def && (v->def->kind == OpKind::Splat || v->def->kind == OpKind::Constant ||
                   v->def->kind == OpKind::Broadcast || v->def->kind == OpKind::ExpandDims))
      continue;                     // scalar operands (.vx/.vf) or forwarded
    auto def = def_order_.find(x);  // not emit()'s (a literal, an alloca): live throughout
    long at = def == def_order_.end() ? -1 : def->second;
    es.push_back({v, &key.second, at, at});
  }
  const long end = std::numeric_limits<long>::max();
  for (auto &e : es) {
    bool used = false;
    for (auto &u : es)
      if (*u.idx == *e.idx && u.v->def &&
          std::find(u.v->def->operands.begin(), u.v->def->operands.end(), e.v) !=
              u.v->def->operands.end()) {
        used = true;
        e.last = std::max(e.last, u.first < 0 ? end : u.first);
      }
    if (!used || e.first < 0) e.last = end;
  }
  int most = 0;
  for (auto &at : es) {
    int live = 0;
    for (auto &e : es)
      if (e.first <= at.first && at.first <= e.last) ++live;
    most = std::max(most, live);
  }
  return most;
}

}  // namespace llir

// The 32 vector registers hold 32 / LMUL groups, one of them the mask (v0).
int vector_lmul(int live_vectors) {
  if (live_vectors <= 3) return 8;
  if (live_vectors <= 7) return 4;
  if (live_vectors <= 15) return 2;
  return 1;
}

namespace llir {

std::string Emitter::elem_op(const Operation &op, const Idx &idx) {
  // A fused load's code carries its own line (the one fused op that can
  // fault); other fused ops keep their consumer's (fewer line changes).
  AtOp at(*this, op.kind == OpKind::Load ? op.loc : ttir::Location{});
  const Value *v = op.result();
  switch (op.kind) {
    case OpKind::Constant:
      return constant(op);
    case OpKind::MakeRange:
      if (vec_index(idx)) return vrange(op, idx[0]);
      return emit("trunc i64 " +
                  emit("add i64 " + idx[0] + ", " + std::to_string(op.int_attr("start"))) +
                  " to i32");
    case OpKind::Splat:
      return scalar(op.operands[0]);
    case OpKind::Broadcast: {
      const Value *src = op.operands[0];
      if (!src->type.is_block()) return scalar(src);
      Idx s = idx;
      for (size_t d = 0; d < s.size(); ++d)
        if (src->type.shape[d] == 1 && v->type.shape[d] != 1) s[d] = "0";
      return elem(src, s);
    }
    case OpKind::ExpandDims: {
      Idx s = idx;
      s.erase(s.begin() + op.int_attr("axis"));
      return val(op.operands[0], s);
    }
    case OpKind::Load:
      return load(op, idx);
    default:
      break;
  }
  if (op.results.size() != 1 || !op.regions.empty())
    fail(op, "cannot be fused into an element loop");
  std::vector<LlVal> in;
  for (auto *o : op.operands) in.push_back(val_of(o, idx));
  return apply_any(op, in);
}

std::string Emitter::load(const Operation &op, const Idx &idx) {
  if (vec_index(idx)) throw NotVector{};  // a gather through a pointer block
  Elem e = op.result()->type.elem;
  std::string ptr = val(op.operands[0], idx);
  if (op.operands.size() < 2) return load_mem(e, ptr);
  std::string mask = val(op.operands[1], idx);
  std::string slot = alloca_of(llty(e));
  std::string other = op.operands.size() > 2   ? val(op.operands[2], idx)
                      : ttir::elem_is_float(e) ? float_lit(0, e)
                      : e == Elem::I1          ? "false"
                      : e == Elem::Ptr         ? "null"
                                               : "0";
  line("store " + llty(e) + " " + other + ", ptr " + slot);
  when(mask, [&] { line("store " + llty(e) + " " + load_mem(e, ptr) + ", ptr " + slot); });
  return emit("load " + llty(e) + ", ptr " + slot);
}

void Emitter::emit_op(const Operation &op) {
  AtOp at(*this, op.loc);
  struct OpScope {
    const Operation *&slot;
    const Operation *saved;
    ~OpScope() { slot = saved; }
  } scope{at_op_, std::exchange(at_op_, &op)};
  if (op.kind == OpKind::Load && plan_.dma_loads.count(&op)) return dma_load(op);
  if (reads_buffers(op)) {
    flush_loads();
    // A DPE dot waits for earlier ones itself, after its operands' DMAs.
    if (!(op.kind == OpKind::Dot && plan_.dpe_dots.count(&op))) flush_dpe();
  }
  if (op.kind == OpKind::Store && plan_.dma_stores.count(&op)) return dma_store(op);
  switch (op.kind) {
    case OpKind::ProgramId:
    case OpKind::NumPrograms: {
      std::string csr = std::string(op.kind == OpKind::ProgramId ? "mtia.pid_" : "mtia.nprog_") +
                        "xyz"[op.int_attr("axis")];
      std::string r = emit("call i64 asm \"" + csr_read_asm(csr) + "\", \"=r\"()");
      scalars_[op.result()] = emit("trunc i64 " + r + " to i32");
      return;
    }
    case OpKind::Store:
      return store(op);
    case OpKind::Assert:
      return device_assert(op);
    case OpKind::Return: {
      line("call void asm sideeffect \"" + done_asm() + "\", \"~{memory}\"()");
      line("unreachable");
      start(label());
      return;
    }
    case OpKind::Barrier:  // tl.extra.mtia.barrier() waits (llir_async.cpp)
      if (op.has_attr("scope")) pe_barrier();
      return;
    case OpKind::AsyncCopy:
      return async_copy(op);
    case OpKind::AsyncWait:
      return async_wait(op);
    case OpKind::For:
      return for_loop(op);
    case OpKind::If:
      return if_op(op);
    case OpKind::Reduce:
      return reduce(op);
    case OpKind::Dot:
      return dot(op);
    case OpKind::Scan:
      return scan(op);
    case OpKind::AtomicRMW:
    case OpKind::AtomicCAS:
      return atomic(op);
    case OpKind::While:
      return while_loop(op);
    case OpKind::Join:
    case OpKind::Split:
      return join_split(op);
    default:
      break;
  }
  const Value *v = op.results.empty() ? nullptr : op.result();
  if (!v) fail(op, "not supported by the code generator yet");
  if (!v->type.is_block()) {
    if (op.kind == OpKind::Constant)
      scalars_[v] = constant(op);
    else if (op.kind == OpKind::Load)
      scalars_[v] = load(op, {});
    else {
      std::vector<LlVal> in;
      for (auto *o : op.operands) in.push_back({scalar(o), llty(o->type.elem), known_constant(o)});
      scalars_[v] = apply_any(op, in);  // vectors in a combine region of a strip loop
    }
    return;
  }
  if (!plan_.buffers.count(v)) return;  // fused: evaluated where consumed
  if (is_sfu_block_op(op)) return op.kind == OpKind::ExtIntrinsic ? ext_block(op) : sfu_block(op);
  std::string buf = alloca_of(bufty(v->type.elem), v->type.numel());
  if (op.kind == OpKind::Trans) {
    const auto &order = op.ints_attr("order");
    loop_nest(v->type.shape, [&](const Idx &idx) {
      Idx s(idx.size());
      for (size_t d = 0; d < idx.size(); ++d) s[order[d]] = idx[d];
      buf_store(v, buf, idx, elem(op.operands[0], s));
    });
  } else if (op.kind == OpKind::Reshape) {
    const auto &in_shape = op.operands[0]->type.shape;
    loop_nest(v->type.shape, [&](const Idx &idx) {
      std::string lin = linear(idx, v->type.shape);
      Idx s(in_shape.size());
      for (size_t d = in_shape.size(); d-- > 0;) {
        s[d] = emit("urem i64 " + lin + ", " + std::to_string(in_shape[d]));
        lin = emit("udiv i64 " + lin + ", " + std::to_string(in_shape[d]));
      }
      buf_store(v, buf, idx, elem(op.operands[0], s));
    });
  } else {
    VectorOk strips(*this);
    masked_loop({op.operands.begin(), op.operands.end()}, v->type.shape, v->type.shape, {0},
                [&](const Idx &idx) { buf_store(v, buf, idx, elem_op(op, idx)); });
  }
  bufs_[v] = buf;
}

void Emitter::store(const Operation &op) {
  const Value *ptrv = op.operands[0], *valv = op.operands[1];
  const Value *maskv = op.operands.size() > 2 ? op.operands[2] : nullptr;
  Elem e = valv->type.elem;
  auto body = [&](const Idx &idx) {
    auto put = [&] { store_mem(e, val(ptrv, idx), val(valv, idx)); };
    if (maskv)
      when(val(maskv, idx), put);
    else
      put();
  };
  if (ptrv->type.is_block())
    masked_loop({op.operands.begin(), op.operands.end()}, ptrv->type.shape, ptrv->type.shape, {0},
                body);
  else
    body({});
}

// tl.device_assert: an element whose condition is false stops the program with a
// breakpoint trap at the assert's source line (the chip reports it as a fault there).
void Emitter::device_assert(const Operation &op) {
  const Value *condv = op.operands[0];
  auto body = [&](const Idx &idx) {
    std::string failed = emit("xor i1 " + val(condv, idx) + ", true");
    when(failed, [&] { line("call void asm sideeffect \"ebreak\", \"~{memory}\"()"); });
  };
  if (condv->type.is_block())
    masked_loop({condv}, condv->type.shape, condv->type.shape, {0}, body);
  else
    body({});
}

}  // namespace llir

LlirModule emit_llvm_module(const LoweredKernelPlan &plan, bool line_table) {
  return llir::Emitter(plan, line_table).run();
}

std::string emit_llvm_ir(const LoweredKernelPlan &plan, bool line_table) {
  return emit_llvm_module(plan, line_table).text;
}

}  // namespace opforge::compiler
