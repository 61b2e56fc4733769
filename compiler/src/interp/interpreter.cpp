//===- interpreter.cpp - ttir interpreter: grid, control flow, memory, blocks ===//
#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>
#include <sstream>
#include <unordered_map>

#include "opforge/compiler/interp.h"
#include "opforge/support/error.h"
#include "runtime.h"
#include "step_meter.h"

namespace opforge::ttir {
using interp::RV;

namespace {

std::vector<int64_t> strides_of(const std::vector<int64_t> &shape) {
  std::vector<int64_t> s(shape.size(), 1);
  for (int d = static_cast<int>(shape.size()) - 2; d >= 0; --d) s[d] = s[d + 1] * shape[d + 1];
  return s;
}

// Gather elements of v (shape `shape`) at flat indices idx.
RV gather(const RV &v, const std::vector<int64_t> &idx) {
  RV r;
  r.is_float = v.is_float;
  if (v.is_float) {
    r.f.resize(idx.size());
    for (size_t k = 0; k < idx.size(); ++k) r.f[k] = v.f[idx[k]];
  } else {
    r.i.resize(idx.size());
    for (size_t k = 0; k < idx.size(); ++k) r.i[k] = v.i[idx[k]];
  }
  return r;
}

// Flat source index for every element of `out` when `in` is permuted by order.
std::vector<int64_t> permute_index(const std::vector<int64_t> &in_shape,
                                   const std::vector<int64_t> &order) {
  std::vector<int64_t> out_shape;
  for (auto o : order) out_shape.push_back(in_shape[o]);
  auto in_str = strides_of(in_shape);
  int64_t n = 1;
  for (auto d : out_shape) n *= d;
  std::vector<int64_t> idx(n);
  std::vector<int64_t> pos(out_shape.size(), 0);
  for (int64_t k = 0; k < n; ++k) {
    int64_t src = 0;
    for (size_t d = 0; d < pos.size(); ++d) src += pos[d] * in_str[order[d]];
    idx[k] = src;
    for (int d = static_cast<int>(pos.size()) - 1; d >= 0; --d) {
      if (++pos[d] < out_shape[d]) break;
      pos[d] = 0;
    }
  }
  return idx;
}

class Exec {
 public:
  Exec(InterpMemory &mem, const Module &m, InterpResult &res) : mem_(mem), m_(m), res_(res) {}
  std::array<int64_t, 3> pid{}, nprog{};
  unsigned sfu_prec_bits = 0;  // SFU precision of extension intrinsics (0 = exact)

  std::vector<RV> call(const Function &f, std::vector<RV> args) {
    if (++depth_ > 64) throw Error("interpreter: call depth above 64 in @" + f.name);
    Frame &fr = frame_for(f);
    std::vector<RV> env(fr.count);
    for (size_t i = 0; i < args.size(); ++i)
      env[fr.ids.at(f.body->args[i].get())] = std::move(args[i]);
    auto out = run_block(*f.body, env, fr);
    --depth_;
    return out;
  }

 private:
  struct Frame {
    std::unordered_map<const Value *, int> ids;
    int count = 0;
  };
  InterpMemory &mem_;
  const Module &m_;
  InterpResult &res_;
  std::unordered_map<const Function *, Frame> frames_;
  int depth_ = 0;
  interp::StepMeter meter_;    // --max-interp-steps, --max-interp-block-bytes
  interp::AsyncCopies async_;  // tl.extra.mtia.async_copy's copies (async_copy.cpp)

  Frame &frame_for(const Function &f) {
    auto it = frames_.find(&f);
    if (it != frames_.end()) return it->second;
    Frame fr;
    std::function<void(const Block &)> number = [&](const Block &b) {
      for (auto &a : b.args) fr.ids[a.get()] = fr.count++;
      for (auto &op : b.ops) {
        for (auto &r : op->regions) number(*r);
        for (auto &r : op->results) fr.ids[r.get()] = fr.count++;
      }
    };
    number(*f.body);
    return frames_.emplace(&f, std::move(fr)).first->second;
  }

  [[noreturn]] void fault(const Operation &op, const std::string &msg) {
    ErrorContext ctx;
    ctx.file = op.loc.file;
    if (op.loc.line > 0) ctx.line = op.loc.line;
    if (op.loc.col > 0) ctx.col = op.loc.col;
    std::ostringstream os;
    os << "interpreter: " << op_name(op.kind) << " in program (" << pid[0] << ", " << pid[1] << ", "
       << pid[2] << "): " << msg;
    throw Error(os.str(), ctx);
  }

  // Runs a block; returns the operands of its terminator.
  std::vector<RV> run_block(const Block &b, std::vector<RV> &env, Frame &fr) {
    for (auto &opp : b.ops) {
      const Operation &op = *opp;
      if (op_is_terminator(op.kind)) {
        std::vector<RV> out;
        for (Value *v : op.operands) out.push_back(env[fr.ids.at(v)]);
        return out;
      }
      if (auto over = meter_.charge(op)) fault(op, *over);
      exec(op, env, fr);
    }
    return {};
  }

  const RV &val(std::vector<RV> &env, Frame &fr, const Value *v) { return env[fr.ids.at(v)]; }
  void set(std::vector<RV> &env, Frame &fr, const Value *v, RV r) {
    env[fr.ids.at(v)] = std::move(r);
  }

  template <typename T>
  static T read_elem(const uint8_t *p) {
    T v;
    std::memcpy(&v, p, sizeof v);
    return v;
  }

  void load_one(const Operation &op, Elem e, uint64_t addr, size_t k, RV &r, size_t idx) {
    int bytes = e == Elem::I1 ? 1 : elem_bits(e) / 8;
    if (addr % static_cast<uint64_t>(bytes) != 0)
      fault(op, "misaligned " + std::string(elem_name(e)) + " access at element " +
                    std::to_string(idx) + ", address " + mem_.describe(addr));
    const uint8_t *p = mem_.find(addr, bytes);
    if (!p)
      fault(op, "out-of-bounds load at element " + std::to_string(idx) + ", address " +
                    mem_.describe(addr));
    switch (e) {
      case Elem::I1:
        r.i[k] = p[0] != 0;
        break;
      case Elem::I8:
        r.i[k] = read_elem<int8_t>(p);
        break;
      case Elem::I16:
        r.i[k] = read_elem<int16_t>(p);
        break;
      case Elem::I32:
        r.i[k] = read_elem<int32_t>(p);
        break;
      case Elem::I64:
      case Elem::Ptr:
        r.i[k] = read_elem<int64_t>(p);
        break;
      case Elem::F16:
        r.f[k] = fp16_to_fp32(read_elem<uint16_t>(p));
        break;
      case Elem::BF16:
        r.f[k] = bf16_to_fp32(read_elem<uint16_t>(p));
        break;
      case Elem::F32:
        r.f[k] = read_elem<float>(p);
        break;
      case Elem::F64:
        r.f[k] = read_elem<double>(p);
        break;
      case Elem::None:
        fault(op, "load of a value without type");
    }
  }

  void store_one(const Operation &op, Elem e, uint64_t addr, const RV &v, size_t k, size_t idx) {
    int bytes = e == Elem::I1 ? 1 : elem_bits(e) / 8;
    if (addr % static_cast<uint64_t>(bytes) != 0)
      fault(op, "misaligned " + std::string(elem_name(e)) + " access at element " +
                    std::to_string(idx) + ", address " + mem_.describe(addr));
    uint8_t *p = mem_.find(addr, bytes);
    if (!p)
      fault(op, "out-of-bounds store at element " + std::to_string(idx) + ", address " +
                    mem_.describe(addr));
    auto put = [&](auto x) { std::memcpy(p, &x, sizeof x); };
    switch (e) {
      case Elem::I1:
        p[0] = v.i[k] != 0;
        break;
      case Elem::I8:
        put(static_cast<int8_t>(v.i[k]));
        break;
      case Elem::I16:
        put(static_cast<int16_t>(v.i[k]));
        break;
      case Elem::I32:
        put(static_cast<int32_t>(v.i[k]));
        break;
      case Elem::I64:
      case Elem::Ptr:
        put(v.i[k]);
        break;
      case Elem::F16:
        put(fp32_to_fp16(static_cast<float>(v.f[k])));
        break;
      case Elem::BF16:
        put(fp32_to_bf16(static_cast<float>(v.f[k])));
        break;
      case Elem::F32:
        put(static_cast<float>(v.f[k]));
        break;
      case Elem::F64:
        put(v.f[k]);
        break;
      case Elem::None:
        fault(op, "store of a value without type");
    }
  }

  // Addresses (or -1 = masked/padded) of every element of a block-pointer access.
  std::vector<int64_t> block_ptr_addresses(const Operation &op, const RV &desc, const Type &pt,
                                           bool &any_pad) {
    const auto &bs = pt.pointee_shape;
    size_t rank = bs.size();
    std::vector<int64_t> check;
    if (op.has_attr("boundary_check")) check = op.ints_attr("boundary_check");
    int bytes = elem_bits(pt.pointee) / 8;
    int64_t n = 1;
    for (auto d : bs) n *= d;
    std::vector<int64_t> addr(n);
    std::vector<int64_t> pos(rank, 0);
    any_pad = false;
    for (int64_t k = 0; k < n; ++k) {
      int64_t a = desc.i[0];
      bool pad = false;
      for (size_t d = 0; d < rank; ++d) {
        int64_t ix = desc.i[1 + 2 * rank + d] + pos[d];
        if (std::find(check.begin(), check.end(), static_cast<int64_t>(d)) != check.end() &&
            (ix < 0 || ix >= desc.i[1 + d]))
          pad = true;
        a += ix * desc.i[1 + rank + d] * bytes;
      }
      addr[k] = pad ? -1 : a;
      any_pad |= pad;
      for (int d = static_cast<int>(rank) - 1; d >= 0; --d) {
        if (++pos[d] < bs[d]) break;
        pos[d] = 0;
      }
    }
    return addr;
  }

  RV do_load(const Operation &op, std::vector<RV> &env, Frame &fr) {
    const Type &pt = op.operands[0]->type;
    const Type &rt = op.results[0]->type;
    const RV &ptr = val(env, fr, op.operands[0]);
    RV r;
    r.is_float = rt.is_float();
    size_t n = static_cast<size_t>(rt.numel());
    if (r.is_float)
      r.f.assign(n, 0.0);
    else
      r.i.assign(n, 0);
    if (pt.is_block_ptr()) {
      bool any_pad = false;
      auto addr = block_ptr_addresses(op, ptr, pt, any_pad);
      double pad_value = 0.0;
      if (op.has_attr("padding") && op.str_attr("padding") == "nan") pad_value = std::nan("");
      for (size_t k = 0; k < n; ++k) {
        if (addr[k] < 0) {
          if (r.is_float) r.f[k] = pad_value;
          continue;
        }
        load_one(op, pt.pointee, static_cast<uint64_t>(addr[k]), k, r, k);
      }
      return r;
    }
    const RV *mask = op.operands.size() >= 2 ? &val(env, fr, op.operands[1]) : nullptr;
    const RV *other = op.operands.size() >= 3 ? &val(env, fr, op.operands[2]) : nullptr;
    for (size_t k = 0; k < n; ++k) {
      if (mask && !mask->i[mask->i.size() == 1 ? 0 : k]) {
        if (other) {
          size_t o = other->size() == 1 ? 0 : k;
          if (r.is_float)
            r.f[k] = other->f[o];
          else
            r.i[k] = other->i[o];
        }
        continue;
      }
      load_one(op, pt.pointee, static_cast<uint64_t>(ptr.i[ptr.i.size() == 1 ? 0 : k]), k, r, k);
    }
    return r;
  }

  void do_store(const Operation &op, std::vector<RV> &env, Frame &fr) {
    const Type &pt = op.operands[0]->type;
    const RV &ptr = val(env, fr, op.operands[0]);
    const RV &v = val(env, fr, op.operands[1]);
    if (pt.is_block_ptr()) {
      bool any_pad = false;
      auto addr = block_ptr_addresses(op, ptr, pt, any_pad);
      for (size_t k = 0; k < addr.size(); ++k)
        if (addr[k] >= 0) store_one(op, pt.pointee, static_cast<uint64_t>(addr[k]), v, k, k);
      return;
    }
    const RV *mask = op.operands.size() >= 3 ? &val(env, fr, op.operands[2]) : nullptr;
    size_t n = std::max<size_t>(1, static_cast<size_t>(pt.numel()));
    for (size_t k = 0; k < n; ++k) {
      if (mask && !mask->i[mask->i.size() == 1 ? 0 : k]) continue;
      store_one(op, pt.pointee, static_cast<uint64_t>(ptr.i[ptr.i.size() == 1 ? 0 : k]), v,
                v.size() == 1 ? 0 : k, k);
    }
  }

  RV do_atomic(const Operation &op, std::vector<RV> &env, Frame &fr) {
    const Type &pt = op.operands[0]->type;
    const RV &ptr = val(env, fr, op.operands[0]);
    Elem e = pt.pointee;
    bool is_cas = op.kind == OpKind::AtomicCAS;
    const RV &v = val(env, fr, op.operands[is_cas ? 2 : 1]);
    const RV *cmp = is_cas ? &val(env, fr, op.operands[1]) : nullptr;
    const RV *mask = !is_cas && op.operands.size() == 3 ? &val(env, fr, op.operands[2]) : nullptr;
    std::string kind = is_cas ? "cas" : op.str_attr("rmw_op");
    size_t n = std::max<size_t>(1, static_cast<size_t>(pt.numel()));
    RV old;
    old.is_float = v.is_float;
    if (old.is_float)
      old.f.assign(n, 0);
    else
      old.i.assign(n, 0);
    for (size_t k = 0; k < n; ++k) {
      if (mask && !mask->i[mask->i.size() == 1 ? 0 : k]) continue;
      uint64_t addr = static_cast<uint64_t>(ptr.i[ptr.i.size() == 1 ? 0 : k]);
      load_one(op, e, addr, k, old, k);
      size_t vk = v.size() == 1 ? 0 : k;
      RV nv;
      nv.is_float = v.is_float;
      if (v.is_float) {
        double a = old.f[k], b = v.f[vk], out = b;
        if (kind == "fadd" || kind == "add")
          out = interp::round_to(e, a + b);
        else if (kind == "max")
          out = std::isnan(a) || std::isnan(b) ? std::nan("") : std::max(a, b);
        else if (kind == "min")
          out = std::isnan(a) || std::isnan(b) ? std::nan("") : std::min(a, b);
        else if (kind == "cas")
          out = a == cmp->f[cmp->size() == 1 ? 0 : k] ? b : a;
        else if (kind != "xchg")
          fault(op, "atomic '" + kind + "' is not defined on floats");
        nv.f = {out};
      } else {
        int64_t a = old.i[k], b = v.i[vk], out = b;
        if (kind == "add")
          out = interp::wrap_to(
              e, static_cast<int64_t>(static_cast<uint64_t>(a) + static_cast<uint64_t>(b)));
        else if (kind == "max")
          out = std::max(a, b);
        else if (kind == "min")
          out = std::min(a, b);
        else if (kind == "umax")
          out = interp::as_unsigned(e, a) >= interp::as_unsigned(e, b) ? a : b;
        else if (kind == "umin")
          out = interp::as_unsigned(e, a) <= interp::as_unsigned(e, b) ? a : b;
        else if (kind == "and")
          out = a & b;
        else if (kind == "or")
          out = a | b;
        else if (kind == "xor")
          out = a ^ b;
        else if (kind == "cas")
          out = a == cmp->i[cmp->size() == 1 ? 0 : k] ? b : a;
        nv.i = {out};
      }
      store_one(op, e, addr, nv, 0, k);
    }
    return old;
  }

  // Runs a combine region on whole vectors (length-1 constants broadcast).
  std::vector<RV> combine(const Block &region, std::vector<RV> args, Frame &fr,
                          std::vector<RV> &env) {
    for (size_t i = 0; i < args.size(); ++i) set(env, fr, region.args[i].get(), std::move(args[i]));
    return run_block(region, env, fr);
  }

  std::vector<RV> do_reduce(const Operation &op, std::vector<RV> &env, Frame &fr) {
    size_t nin = op.operands.size();
    const Type &t0 = op.operands[0]->type;
    int64_t axis = op.int_attr("axis");
    // Move axis last: order = [others..., axis].
    std::vector<int64_t> order;
    for (int d = 0; d < t0.rank(); ++d)
      if (d != axis) order.push_back(d);
    order.push_back(axis);
    auto idx = permute_index(t0.shape, order);
    int64_t len = t0.shape[axis];
    int64_t outer = t0.numel() / std::max<int64_t>(len, 1);
    std::vector<RV> cur;
    for (size_t i = 0; i < nin; ++i) cur.push_back(gather(val(env, fr, op.operands[i]), idx));
    bool is_scan = op.kind == OpKind::Scan;
    if (is_scan) {
      bool reverse = op.bool_attr("reverse");
      // Transposed layout [outer, len]; sequential along len, vectorised over outer.
      std::vector<RV> out = cur;
      std::vector<int64_t> col(outer);
      for (int64_t s = 1; s < len; ++s) {
        int64_t pos = reverse ? len - 1 - s : s, prev = reverse ? pos + 1 : pos - 1;
        std::vector<RV> args;
        for (size_t i = 0; i < nin; ++i) {
          for (int64_t o = 0; o < outer; ++o) col[o] = o * len + prev;
          args.push_back(gather(out[i], col));
        }
        for (size_t i = 0; i < nin; ++i) {
          for (int64_t o = 0; o < outer; ++o) col[o] = o * len + pos;
          args.push_back(gather(cur[i], col));
        }
        auto r = combine(*op.regions[0], std::move(args), fr, env);
        for (size_t i = 0; i < nin; ++i) {
          RV full = r[i].size() == 1 ? interp::splat_to(r[i], static_cast<size_t>(outer)) : r[i];
          for (int64_t o = 0; o < outer; ++o) {
            if (out[i].is_float)
              out[i].f[o * len + pos] = full.f[o];
            else
              out[i].i[o * len + pos] = full.i[o];
          }
        }
      }
      // Back to the original layout.
      std::vector<int64_t> inv(idx.size());
      for (size_t k = 0; k < idx.size(); ++k) inv[idx[k]] = static_cast<int64_t>(k);
      std::vector<RV> res;
      for (size_t i = 0; i < nin; ++i) res.push_back(gather(out[i], inv));
      return res;
    }
    // Tree reduction: combine the first half with the second half.
    int64_t cur_len = len;
    while (cur_len > 1) {
      int64_t half = cur_len / 2, keep = cur_len - half;  // keep >= half
      std::vector<int64_t> ia, ib;
      for (int64_t o = 0; o < outer; ++o)
        for (int64_t k = 0; k < half; ++k) {
          ia.push_back(o * cur_len + k);
          ib.push_back(o * cur_len + keep + k);
        }
      std::vector<RV> args;
      for (size_t i = 0; i < nin; ++i) args.push_back(gather(cur[i], ia));
      for (size_t i = 0; i < nin; ++i) args.push_back(gather(cur[i], ib));
      auto r = combine(*op.regions[0], std::move(args), fr, env);
      std::vector<RV> next;
      for (size_t i = 0; i < nin; ++i) {
        RV comb = r[i].size() == 1 ? interp::splat_to(r[i], ia.size()) : r[i];
        RV nx;
        nx.is_float = cur[i].is_float;
        for (int64_t o = 0; o < outer; ++o) {
          for (int64_t k = 0; k < keep; ++k) {
            bool combined = k < half;
            size_t src = static_cast<size_t>(o * half + k);
            size_t orig = static_cast<size_t>(o * cur_len + k);
            if (nx.is_float)
              nx.f.push_back(combined ? comb.f[src] : cur[i].f[orig]);
            else
              nx.i.push_back(combined ? comb.i[src] : cur[i].i[orig]);
          }
        }
        next.push_back(std::move(nx));
      }
      cur = std::move(next);
      cur_len = keep;
    }
    return cur;
  }

  RV do_dot(const Operation &op, std::vector<RV> &env, Frame &fr) {
    const Type &at = op.operands[0]->type, &bt = op.operands[1]->type;
    const RV &a = val(env, fr, op.operands[0]), &b = val(env, fr, op.operands[1]);
    RV c = val(env, fr, op.operands[2]);
    int64_t M = at.shape[0], K = at.shape[1], N = bt.shape[1];
    Elem ce = op.results[0]->type.elem;
    std::string prec = op.has_attr("input_precision") ? op.str_attr("input_precision") : "ieee";
    auto tf32 = [](double x) {
      float f = static_cast<float>(x);
      uint32_t u;
      std::memcpy(&u, &f, 4);
      if ((u & 0x7f800000u) != 0x7f800000u) u = (u + 0xFFFu + ((u >> 13) & 1u)) & ~0x1FFFu;
      std::memcpy(&f, &u, 4);
      return static_cast<double>(f);
    };
    bool use_tf32 = at.elem == Elem::F32 && (prec == "tf32" || prec == "tf32x3");
    if (c.is_float) {
      for (int64_t i = 0; i < M; ++i)
        for (int64_t j = 0; j < N; ++j) {
          double acc = c.f[i * N + j];
          for (int64_t k = 0; k < K; ++k) {
            double x = a.f[i * K + k], y = b.f[k * N + j];
            if (use_tf32) x = tf32(x), y = tf32(y);
            acc = interp::round_to(ce, acc + x * y);
          }
          c.f[i * N + j] = acc;
        }
    } else {
      for (int64_t i = 0; i < M; ++i)
        for (int64_t j = 0; j < N; ++j) {
          int64_t acc = c.i[i * N + j];
          for (int64_t k = 0; k < K; ++k)
            acc = interp::wrap_to(ce, acc + a.i[i * K + k] * b.i[k * N + j]);
          c.i[i * N + j] = acc;
        }
    }
    return c;
  }

  void exec(const Operation &op, std::vector<RV> &env, Frame &fr) {
    using K = OpKind;
    auto in = [&](size_t i) -> const RV & { return val(env, fr, op.operands[i]); };
    auto out = [&](RV r, size_t i = 0) { set(env, fr, op.result(i), std::move(r)); };
    switch (op.kind) {
      case K::Constant: {
        const Type &t = op.results[0]->type;
        RV r;
        size_t n = static_cast<size_t>(std::max<int64_t>(1, t.numel()));
        if (t.is_float()) {
          r.is_float = true;
          r.f.assign(n, interp::round_to(t.elem, op.float_attr("value")));
        } else {
          const Attr &a = op.attrs.at("value");
          int64_t v = std::holds_alternative<double>(a) ? static_cast<int64_t>(std::get<double>(a))
                                                        : op.int_attr("value");
          r.i.assign(n, interp::wrap_to(t.elem, v));
        }
        return out(std::move(r));
      }
      case K::MakeRange: {
        RV r;
        for (int64_t v = op.int_attr("start"); v < op.int_attr("end"); ++v) r.i.push_back(v);
        return out(std::move(r));
      }
      case K::Splat:
        return out(interp::splat_to(in(0), static_cast<size_t>(op.results[0]->type.numel())));
      case K::Broadcast: {
        const Type &a = op.operands[0]->type, &t = op.results[0]->type;
        auto as = strides_of(a.shape);
        std::vector<int64_t> idx(t.numel());
        std::vector<int64_t> pos(t.rank(), 0);
        for (size_t k = 0; k < idx.size(); ++k) {
          int64_t src = 0;
          for (int d = 0; d < t.rank(); ++d) src += (a.shape[d] == 1 ? 0 : pos[d]) * as[d];
          idx[k] = src;
          for (int d = t.rank() - 1; d >= 0; --d) {
            if (++pos[d] < t.shape[d]) break;
            pos[d] = 0;
          }
        }
        return out(gather(in(0), idx));
      }
      case K::ExpandDims:
      case K::Reshape:
        return out(in(0));
      case K::Trans:
        return out(gather(in(0), permute_index(op.operands[0]->type.shape, op.ints_attr("order"))));
      case K::Join: {
        const RV &a = in(0), &b = in(1);
        RV r;
        r.is_float = a.is_float;
        for (size_t k = 0; k < a.size(); ++k) {
          if (r.is_float)
            r.f.insert(r.f.end(), {a.f[k], b.f[k]});
          else
            r.i.insert(r.i.end(), {a.i[k], b.i[k]});
        }
        return out(std::move(r));
      }
      case K::Split: {
        const RV &a = in(0);
        std::vector<int64_t> even, odd;
        for (size_t k = 0; k < a.size(); k += 2) even.push_back(k), odd.push_back(k + 1);
        out(gather(a, even), 0);
        return out(gather(a, odd), 1);
      }
      case K::Load:
        return out(do_load(op, env, fr));
      case K::Store:
        return do_store(op, env, fr);
      case K::AddPtr: {
        const RV &p = in(0), &o = in(1);
        int64_t bytes = elem_bits(op.operands[0]->type.pointee) / 8;
        if (bytes == 0) bytes = 1;
        size_t n = std::max(p.size(), o.size());
        RV r;
        r.i.resize(n);
        for (size_t k = 0; k < n; ++k)
          r.i[k] = p.i[p.size() == 1 ? 0 : k] + o.i[o.size() == 1 ? 0 : k] * bytes;
        return out(std::move(r));
      }
      case K::ProgramId:
      case K::NumPrograms: {
        RV r;
        int64_t ax = op.int_attr("axis");
        r.i = {op.kind == K::ProgramId ? pid[ax] : nprog[ax]};
        return out(std::move(r));
      }
      case K::Reduce:
      case K::Scan: {
        auto rs = do_reduce(op, env, fr);
        for (size_t i = 0; i < rs.size(); ++i) out(std::move(rs[i]), i);
        return;
      }
      case K::Dot:
        return out(do_dot(op, env, fr));
      case K::AtomicRMW:
      case K::AtomicCAS:
        return out(do_atomic(op, env, fr));
      case K::MakeTensorPtr: {
        RV r;
        for (size_t i = 0; i < op.operands.size(); ++i) r.i.push_back(in(i).i[0]);
        return out(std::move(r));
      }
      case K::Advance: {
        RV r = in(0);
        size_t rank = op.operands.size() - 1;
        for (size_t d = 0; d < rank; ++d) r.i[1 + 2 * rank + d] += in(d + 1).i[0];
        return out(std::move(r));
      }
      case K::For: {
        int64_t lb = in(0).i[0], ub = in(1).i[0], step = in(2).i[0];
        if (step <= 0) fault(op, "loop step must be positive, got " + std::to_string(step));
        std::vector<RV> carried;
        for (size_t i = 3; i < op.operands.size(); ++i) carried.push_back(in(i));
        const Block &body = *op.regions[0];
        Elem ive = op.operands[0]->type.elem;
        for (int64_t iv = lb; iv < ub; iv = interp::wrap_to(ive, iv + step)) {
          RV ivr;
          ivr.i = {iv};
          set(env, fr, body.args[0].get(), std::move(ivr));
          for (size_t i = 0; i < carried.size(); ++i)
            set(env, fr, body.args[i + 1].get(), std::move(carried[i]));
          carried = run_block(body, env, fr);
          if (iv > ub - step) break;  // no wrap-around past the bound
        }
        for (size_t i = 0; i < carried.size(); ++i) out(std::move(carried[i]), i);
        return;
      }
      case K::If: {
        const Block &r = *op.regions[in(0).i[0] ? 0 : 1];
        auto vals = run_block(r, env, fr);
        for (size_t i = 0; i < vals.size(); ++i) out(std::move(vals[i]), i);
        return;
      }
      case K::While: {
        std::vector<RV> cur;
        for (size_t i = 0; i < op.operands.size(); ++i) cur.push_back(in(i));
        const Block &before = *op.regions[0], &after = *op.regions[1];
        for (int64_t iter = 0;; ++iter) {
          if (iter > (int64_t(1) << 32))
            fault(op, "while loop did not finish after 2^32 iterations");
          for (size_t i = 0; i < cur.size(); ++i)
            set(env, fr, before.args[i].get(), std::move(cur[i]));
          auto cv = run_block(before, env, fr);
          bool go = cv[0].i[0] != 0;
          std::vector<RV> pass(cv.begin() + 1, cv.end());
          if (!go) {
            for (size_t i = 0; i < pass.size(); ++i) out(std::move(pass[i]), i);
            return;
          }
          for (size_t i = 0; i < pass.size(); ++i)
            set(env, fr, after.args[i].get(), std::move(pass[i]));
          cur = run_block(after, env, fr);
        }
      }
      case K::Call: {
        const Function *callee = m_.find(op.str_attr("callee"));
        if (!callee) fault(op, "unknown callee @" + op.str_attr("callee"));
        std::vector<RV> args;
        for (size_t i = 0; i < op.operands.size(); ++i) args.push_back(in(i));
        auto rs = call(*callee, std::move(args));
        for (size_t i = 0; i < rs.size(); ++i) out(std::move(rs[i]), i);
        return;
      }
      case K::Print: {
        std::vector<const RV *> ins;
        for (size_t i = 0; i < op.operands.size(); ++i) ins.push_back(&in(i));
        for (auto &l : interp::print_lines(op, pid, ins)) res_.prints.push_back(std::move(l));
        return;
      }
      case K::AsyncCopy: {  // tl.extra.mtia.async_copy: copied now (async_copy.cpp)
        Operation load(K::Load);
        load.operands = op.operands;
        load.loc = op.loc;
        const Type &p = op.operands[0]->type;
        load.add_result(Type(p.pointee, p.shape));
        RV tok;
        tok.i = {async_.issue(op, do_load(load, env, fr))};
        return out(std::move(tok));
      }
      case K::AsyncWait:
        try {
          return out(async_.wait(in(0).i[0]));
        } catch (const Error &e) {
          fault(op, e.message());
        }
      case K::Assert: {
        const RV &c = in(0);
        for (size_t k = 0; k < c.i.size(); ++k)
          if (!c.i[k])
            fault(op,
                  "device assertion failed at element " + std::to_string(k) + ": " +
                      (op.has_attr("message") ? op.str_attr("message") : std::string("assert")));
        return;
      }
      case K::Barrier:
        return;
      case K::Return:
      case K::Yield:
      case K::Condition:
      case K::ReduceReturn:
      case K::ScanReturn:
        return;
      default: {
        std::vector<const RV *> ins;
        for (size_t i = 0; i < op.operands.size(); ++i) ins.push_back(&in(i));
        try {
          return out(interp::eval_elementwise(op, ins, sfu_prec_bits));
        } catch (const Error &e) {
          fault(op, e.message());
        }
      }
    }
  }
};

}  // namespace

InterpResult Interpreter::run(const Module &m, const std::string &kernel,
                              const std::vector<KernelArg> &args, Grid grid) {
  const Function *f = m.find(kernel);
  if (!f) throw Error("interpreter: no function @" + kernel + " in the module");
  if (args.size() != f->body->args.size())
    throw Error("interpreter: @" + kernel + " takes " + std::to_string(f->body->args.size()) +
                " arguments, got " + std::to_string(args.size()));
  if (grid.x < 0 || grid.y < 0 || grid.z < 0) throw Error("interpreter: negative grid size");
  std::vector<RV> argv;
  for (size_t i = 0; i < args.size(); ++i) {
    const Type &t = f->body->args[i]->type;
    RV r;
    if (t.is_float()) {
      if (args[i].kind != KernelArg::Kind::Float && args[i].kind != KernelArg::Kind::Int)
        throw Error("interpreter: argument " + std::to_string(i) + " of @" + kernel +
                    " must be a number");
      r.is_float = true;
      r.f = {interp::round_to(t.elem, args[i].kind == KernelArg::Kind::Float
                                          ? args[i].f
                                          : static_cast<double>(args[i].i))};
    } else if (t.is_ptr()) {
      if (args[i].kind != KernelArg::Kind::Ptr)
        throw Error("interpreter: argument " + std::to_string(i) + " of @" + kernel +
                    " must be a pointer");
      r.i = {args[i].i};
    } else {
      if (args[i].kind != KernelArg::Kind::Int)
        throw Error("interpreter: argument " + std::to_string(i) + " of @" + kernel +
                    " must be an integer");
      r.i = {interp::wrap_to(t.elem, args[i].i)};
    }
    argv.push_back(std::move(r));
  }
  InterpResult res;
  Exec ex(mem_, m, res);
  ex.nprog = {grid.x, grid.y, grid.z};
  ex.sfu_prec_bits = sfu_prec_bits_;
  for (int64_t z = 0; z < grid.z; ++z)
    for (int64_t y = 0; y < grid.y; ++y)
      for (int64_t x = 0; x < grid.x; ++x) {
        ex.pid = {x, y, z};
        ex.call(*f, argv);
        ++res.programs_run;
      }
  return res;
}

}  // namespace opforge::ttir
