//===- builtins_random.cpp - tl.rand & co.: Triton's Philox 4x32 generator ===//
//
// tl.philox, tl.philox_impl, tl.randint, tl.randint4x, tl.rand, tl.rand4x,
// tl.randn, tl.randn4x, tl.uint_to_uniform_float and tl.pair_uniform_to_normal
// as Triton's language/random.py defines them, written with existing ttir
// operations (tt.mulhiui, arith.muli/xori/addi on uint32, casts, selects,
// math.log/sqrt/sin/cos) so that the IR interpreter and the code generator
// run them unchanged and the integer streams are bit-identical to Triton's:
// the same Philox-4x32 round and key constants, the same counter layout
// (offset low/high words, two zero words), the same key from the seed
// (low and high words of seed.to(uint64)), the same uint32 -> float
// conversion (x < 0 ? ~x : x as int32, times 4.6566127342e-10 in fp32) and
// the same Box-Muller transform. docs/compiler/semantics.md, "Random numbers".
//
//===----------------------------------------------------------------------===//
#include <array>

#include "lower_ast.h"

namespace opforge::compiler::sema {
using ttir::OpKind;
using K = SValue::Kind;

namespace {

constexpr int64_t kDefaultRounds = 10;  // Triton's N_ROUNDS_DEFAULT
constexpr uint64_t kKeyA = 0x9E3779B9, kKeyB = 0xBB67AE85;
constexpr uint64_t kRoundA = 0xD2511F53, kRoundB = 0xCD9E8D57;

using Four = std::array<SValue, 4>;

// Binds positional and keyword arguments to `names`; the first `required`
// must be given. Missing optional ones are None.
std::vector<SValue> bind_args(const std::string &fn, const std::vector<std::string> &names,
                              size_t required, const std::vector<SValue> &args, const Kwargs &kw) {
  if (args.size() > names.size())
    throw UserError(fn + "() takes " + std::to_string(names.size()) + " positional arguments but " +
                    std::to_string(args.size()) + " were given");
  std::vector<SValue> v(names.size());
  std::vector<bool> given(names.size(), false);
  for (size_t i = 0; i < args.size(); ++i) v[i] = args[i], given[i] = true;
  for (auto &[k, x] : kw) {
    size_t i = 0;
    while (i < names.size() && names[i] != k) ++i;
    if (i == names.size())
      throw UserError(fn + "() got an unexpected keyword argument '" + k + "'");
    if (given[i]) throw UserError(fn + "() got multiple values for argument '" + k + "'");
    v[i] = x, given[i] = true;
  }
  for (size_t i = 0; i < required; ++i)
    if (!given[i])
      throw UserError(fn + "() missing 1 required positional argument: '" + names[i] + "'");
  return v;
}

int64_t rounds_of(const std::string &fn, const SValue &v) {
  if (v.kind == K::None) return kDefaultRounds;
  if (v.kind == K::Int && v.i >= 0 && v.i <= 1000) return v.i;
  if (v.kind == K::Bool) return v.b;
  throw UserError(fn + "(): n_rounds must be a constexpr integer in [0, 1000], got " + v.repr());
}

class Philox {
 public:
  explicit Philox(Semantic &s) : S(s) {}

  SValue u32(uint64_t v) { return S.constant(SValue::integer(static_cast<int64_t>(v)), kU32); }

  SValue counter(const std::string &fn, const SValue &c) {
    SValue t = S.to_tensor(c);
    if (!t.type.is_int() || t.type.bits() != 32)
      throw UserError(fn +
                      "(): counters must be 32-bit integers (the target's Philox is the "
                      "4x32 variant), got " +
                      t.type.elem().str());
    return S.cast(t, kU32, true);
  }

  Four impl(Four c, SValue k0, SValue k1, int64_t rounds) {
    SValue A = u32(kRoundA), B = u32(kRoundB);
    for (int64_t r = 0; r < rounds; ++r) {
      SValue c0 = c[0], c2 = c[2];
      c[0] = S.bitwise(OpKind::XOrI, S.bitwise(OpKind::XOrI, S.umulhi(B, c2), c[1]), k0);
      c[2] = S.bitwise(OpKind::XOrI, S.bitwise(OpKind::XOrI, S.umulhi(A, c0), c[3]), k1);
      c[1] = S.mul(B, c2);
      c[3] = S.mul(A, c0);
      k0 = S.add(k0, u32(kKeyA));
      k1 = S.add(k1, u32(kKeyB));
    }
    return c;
  }

  // Triton's philox(): the key is the seed as uint64, split in 32-bit words.
  Four philox(const std::string &fn, const SValue &seed_v, const Four &cs, int64_t rounds) {
    SValue seed = S.to_tensor(seed_v);
    if (!seed.type.is_int() || seed.type.is_bool())
      throw UserError(fn + "(): the seed must be an integer, got " + seed.type.elem().str());
    seed = S.cast(seed, LType::scalar(Sc::U64));
    SValue mask = S.constant(SValue::integer(0xffffffffLL), LType::scalar(Sc::U64));
    SValue hi = S.cast(
        S.bitwise(OpKind::AndI,
                  S.shr(seed, S.constant(SValue::integer(32), LType::scalar(Sc::U64))), mask),
        kU32);
    SValue lo = S.cast(S.bitwise(OpKind::AndI, seed, mask), kU32);
    Four c;
    for (size_t i = 0; i < 4; ++i) c[i] = counter(fn, cs[i]);
    return impl(c, lo, hi, rounds);
  }

  Four randint4x(const std::string &fn, const SValue &seed, const SValue &offset_v,
                 int64_t rounds) {
    SValue offset = S.to_tensor(offset_v);
    if (!offset.type.is_int() || offset.type.is_bool())
      throw UserError(fn + "(): offsets must be integers, got " + offset.type.elem().str());
    SValue lo = S.cast(offset, kU32);
    SValue zero = S.mul(lo, u32(0));
    SValue hi = zero;
    if (offset.type.bits() > 32)
      hi = S.cast(S.shr(offset, S.constant(SValue::integer(32), offset.type.elem())), kU32);
    return philox(fn, seed, {lo, hi, zero, zero}, rounds);
  }

  SValue uniform(const std::string &fn, SValue x) {
    x = S.to_tensor(x);
    if (!x.type.is_int() || (x.type.bits() != 32 && x.type.bits() != 64))
      throw UserError(fn + "(): expects a 32- or 64-bit integer, got " + x.type.elem().str());
    bool wide = x.type.bits() == 64;
    x = S.cast(x, LType::scalar(wide ? Sc::I64 : Sc::I32), true);
    x = S.where(S.compare(CmpKind::Lt, x, SValue::integer(0)), S.invert(x), x);
    return S.mul(x, SValue::floating(wide ? 1.0842020432385337e-19 : 4.6566127342e-10));
  }

  std::pair<SValue, SValue> normal(SValue u1, SValue u2) {
    u1 = S.maximum(SValue::floating(1.0e-7), u1, false);
    SValue th = S.mul(SValue::floating(6.283185307179586), u2);
    SValue r = S.math(OpKind::Sqrt, "sqrt",
                      S.mul(SValue::floating(-2.0), S.math(OpKind::Log, "log", u1, true)), true);
    return {S.mul(r, S.math(OpKind::Cos, "cos", th, true)),
            S.mul(r, S.math(OpKind::Sin, "sin", th, true))};
  }

  Semantic &S;
  const LType kU32 = LType::scalar(Sc::U32);
};

SValue tuple4(const Four &f) { return SValue::tuple({f[0], f[1], f[2], f[3]}); }

}  // namespace

std::optional<SValue> random_builtin(Semantic &S, const std::string &name,
                                     const std::vector<SValue> &args, const Kwargs &kw) {
  std::string n = name.rfind("random.", 0) == 0 ? name.substr(7) : name;
  Philox p(S);
  const std::string fn = "tl." + n;
  if (n == "rand" || n == "randn" || n == "randint" || n == "randint4x" || n == "rand4x" ||
      n == "randn4x") {
    auto a = bind_args(fn, {"seed", "offset", "n_rounds"}, 2, args, kw);
    Four r = p.randint4x(fn, a[0], a[1], rounds_of(fn, a[2]));
    if (n == "randint") return r[0];
    if (n == "randint4x") return tuple4(r);
    if (n == "rand") return p.uniform(fn, r[0]);
    Four u;
    for (size_t i = 0; i < 4; ++i) u[i] = i < 2 || n != "randn" ? p.uniform(fn, r[i]) : r[i];
    if (n == "rand4x") return tuple4(u);
    auto [n1, n2] = p.normal(u[0], u[1]);
    if (n == "randn") return n1;
    auto [n3, n4] = p.normal(u[2], u[3]);
    return SValue::tuple({n1, n2, n3, n4});
  }
  if (n == "philox") {
    auto a = bind_args(fn, {"seed", "c0", "c1", "c2", "c3", "n_rounds"}, 5, args, kw);
    return tuple4(p.philox(fn, a[0], {a[1], a[2], a[3], a[4]}, rounds_of(fn, a[5])));
  }
  if (n == "philox_impl") {
    auto a = bind_args(fn, {"c0", "c1", "c2", "c3", "k0", "k1", "n_rounds"}, 6, args, kw);
    Four c;
    for (size_t i = 0; i < 4; ++i) c[i] = p.counter(fn, a[i]);
    return tuple4(p.impl(c, p.counter(fn, a[4]), p.counter(fn, a[5]), rounds_of(fn, a[6])));
  }
  if (n == "uint_to_uniform_float") {
    auto a = bind_args(fn, {"x"}, 1, args, kw);
    return p.uniform(fn, a[0]);
  }
  if (n == "pair_uniform_to_normal") {
    auto a = bind_args(fn, {"u1", "u2"}, 2, args, kw);
    auto [x, y] = p.normal(S.to_tensor(a[0]), S.to_tensor(a[1]));
    return SValue::tuple({x, y});
  }
  return std::nullopt;
}

}  // namespace opforge::compiler::sema
