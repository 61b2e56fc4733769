//===- chip_random_test.cpp - tl.rand & co., float %, fp8, nested constexpr calls: interp and chip
//===//
//
// The Philox streams (tests/compiler/kernels/philox_random.py) against a host
// Philox-4x32 written here from the algorithm (Salmon et al., SC'11, with
// Triton's key schedule and counter layout), bit for bit on the IR
// interpreter and on the chip; float % and libdevice.fmod (float_mod.py)
// against the C library's fmod, bit for bit; fp8 pointers (fp8_convert.py:
// masked loads with an fp8 `other`, selects, stores; conversions are checked
// against torch by fp8_torch_diff.py); the tutorial-06-shaped nested @jit call
// (nested_constexpr_call.py) against a host reference.
//
//===----------------------------------------------------------------------===//
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstring>

#include "diff_harness.h"

namespace opforge::compiler::testing {
namespace {

using U4 = std::array<uint32_t, 4>;

uint32_t mulhi(uint32_t a, uint32_t b) {
  return static_cast<uint32_t>((static_cast<uint64_t>(a) * b) >> 32);
}

U4 philox(U4 c, uint32_t k0, uint32_t k1, int rounds) {
  for (int r = 0; r < rounds; ++r) {
    const uint32_t c0 = c[0], c2 = c[2];
    c[0] = mulhi(0xCD9E8D57u, c2) ^ c[1] ^ k0;
    c[2] = mulhi(0xD2511F53u, c0) ^ c[3] ^ k1;
    c[1] = 0xCD9E8D57u * c2;
    c[3] = 0xD2511F53u * c0;
    k0 += 0x9E3779B9u;
    k1 += 0xBB67AE85u;
  }
  return c;
}

// Triton's randint4x for an int32 offset: counters (offset, 0, 0, 0), key = the
// seed's two 32-bit words.
U4 randint4x(int64_t seed, int32_t offset, int rounds) {
  const auto s = static_cast<uint64_t>(seed);
  return philox({static_cast<uint32_t>(offset), 0, 0, 0}, static_cast<uint32_t>(s),
                static_cast<uint32_t>(s >> 32), rounds);
}

float uniform(uint32_t x) {
  auto i = static_cast<int32_t>(x);
  if (i < 0) i = ~i;
  return static_cast<float>(i) * 4.6566127342e-10f;
}

uint32_t bits_of(float f) {
  uint32_t b;
  std::memcpy(&b, &f, 4);
  return b;
}

DiffCase streams_case(int64_t n, int64_t seed, int64_t start, int rounds) {
  DiffCase c;
  c.file = "philox_random.py";
  c.kernel = "random_streams_kernel";
  const bool wide = seed > INT32_MAX || seed < INT32_MIN;
  c.signature = std::string("out_u=*fp32,out_n=*fp32,out_i=*i32,out_4x=*i32,seed=") +
                (wide ? "i64" : "i32") + ",n=i32,start=i32";
  c.constexprs = {"N_ROUNDS=" + std::to_string(rounds), "BLOCK=64"};
  c.args = {KArg::tensor(HostTensor(DType::Float32, {n})),
            KArg::tensor(HostTensor(DType::Float32, {n})),
            KArg::tensor(HostTensor(DType::Int32, {n})),
            KArg::tensor(HostTensor(DType::Int32, {4 * n})),
            KArg::integer(seed),
            KArg::integer(n),
            KArg::integer(start)};
  c.grid.x = (n + 63) / 64;
  return c;
}

// Streams of one run: exact integer and uniform streams, normal within `ntol`.
void check_streams(const std::vector<HostTensor> &t, int64_t n, int64_t seed, int64_t start,
                   int rounds, double ntol, const std::string &where) {
  int bad = 0;
  for (int64_t i = 0; i < n && bad < 5; ++i) {
    const U4 r = randint4x(seed, static_cast<int32_t>(start + i), rounds);
    std::string at =
        where + " seed " + std::to_string(seed) + " offset " + std::to_string(start + i) + ": ";
    auto fail = [&](const std::string &what) {
      ++bad;
      ADD_FAILURE() << at << what;
    };
    if (static_cast<uint32_t>(t[2].get_int(i)) != r[0]) fail("randint");
    for (int k = 0; k < 4; ++k)
      if (static_cast<uint32_t>(t[3].get_int(4 * i + k)) != r[k])
        fail("randint4x[" + std::to_string(k) + "]");
    const float u = static_cast<float>(t[0].get_double(i));
    if (bits_of(u) != bits_of(uniform(r[0])))
      fail("rand " + std::to_string(u) + " want " + std::to_string(uniform(r[0])));
    float u1 = std::max(1.0e-7f, uniform(r[0])), u2 = uniform(r[1]);
    double z = std::sqrt(-2.0f * std::log(u1)) * std::cos(6.283185307179586f * u2);
    if (std::fabs(t[1].get_double(i) - z) > ntol * (1 + std::fabs(z)))
      fail("randn " + std::to_string(t[1].get_double(i)) + " want " + std::to_string(z));
  }
}

TEST(ChipRandom, PhiloxStreamsAreBitIdenticalToTritonsOnInterpreterAndChip) {
  struct S {
    int64_t n, seed, start;
    int rounds;
  };
  const S cases[] = {{200, 0, 0, 10},
                     {130, 123, 7, 10},
                     {64, -1, 1 << 30, 10},
                     {100, 0x1234567890LL, -50, 10},
                     {70, 42, 2147483000, 7}};
  for (const S &s : cases) {
    DiffCase c = streams_case(s.n, s.seed, s.start, s.rounds);
    check_streams(run_interp(c), s.n, s.seed, s.start, s.rounds, 2e-6, "interpreter");
    ChipRun chip = run_chip(device(), c);
    ASSERT_TRUE(chip.launch.ok()) << (chip.launch.traps.empty() ? "" : chip.launch.traps.front());
    // randn on the chip: the SFU's log/cos (its own error bound) rather than libm.
    check_streams(chip.tensors, s.n, s.seed, s.start, s.rounds, 2e-4, "chip");
  }
}

TEST(ChipRandom, PhiloxOfFourCountersMatchesTheHostGenerator) {
  const int64_t n = 80;
  for (int64_t seed : {int64_t{5}, int64_t{-123456789}}) {
    DiffCase c;
    c.file = "philox_random.py";
    c.kernel = "philox_kernel";
    c.signature = "out=*i32,seed=i32,n=i32";
    c.constexprs = {"BLOCK=32"};
    c.args = {KArg::tensor(HostTensor(DType::Int32, {4 * n})), KArg::integer(seed),
              KArg::integer(n)};
    c.grid.x = (n + 31) / 32;
    auto interp = run_interp(c);
    ChipRun chip = run_chip(device(), c);
    ASSERT_TRUE(chip.launch.ok());
    const auto s = static_cast<uint64_t>(seed);
    for (int64_t i = 0; i < n; ++i) {
      const auto c0 = static_cast<uint32_t>(i), c1 = static_cast<uint32_t>(i * 7);
      const U4 want = philox({c0, c1, c0 ^ 0x5555u, c1 + 3}, static_cast<uint32_t>(s),
                             static_cast<uint32_t>(s >> 32), 6);
      for (int k = 0; k < 4; ++k) {
        ASSERT_EQ(static_cast<uint32_t>(interp[0].get_int(4 * i + k)), want[k]) << i << "," << k;
        ASSERT_EQ(static_cast<uint32_t>(chip.tensors[0].get_int(4 * i + k)), want[k])
            << i << "," << k;
      }
    }
  }
}

// x, y pairs for fmod: signs, exact multiples, huge quotients (exponent gaps up
// to 253), subnormals, zeros, infinities and NaN.
void fmod_inputs(HostTensor &x, HostTensor &y) {
  const float specials[][2] = {{5.5f, 2},
                               {-5.5f, 2},
                               {5.5f, -2},
                               {-5.5f, -2},
                               {7, 3.5f},
                               {-0.0f, 3},
                               {0.0f, -1},
                               {3e38f, 1.1e-38f},
                               {3.4e38f, 1e-45f},
                               {1e-45f, 3e-45f},
                               {2.5e-40f, 1.1e-40f},
                               {1e30f, 7.77f},
                               {-1e30f, -3.3e-3f},
                               {INFINITY, 2},
                               {2, INFINITY},
                               {-2, -INFINITY},
                               {1, 0},
                               {NAN, 1},
                               {1, NAN},
                               {0.1f, 0.1f},
                               {16777217.0f, 3},
                               {123456.789f, 0.001f}};
  const int64_t n = x.numel();
  uint32_t s = 12345;
  auto next = [&] { return s = s * 1664525u + 1013904223u; };
  for (int64_t i = 0; i < n; ++i) {
    float a, b;
    if (i < static_cast<int64_t>(std::size(specials))) {
      a = specials[i][0], b = specials[i][1];
    } else {
      // Random finite floats across the whole exponent range.
      uint32_t ba = next() & 0xFF7FFFFFu, bb = next() & 0xFF7FFFFFu;
      if (i % 3 == 0) bb = (bb & 0x807FFFFFu) | ((ba & 0x7F800000u) - (next() % 30 << 23));
      std::memcpy(&a, &ba, 4);
      std::memcpy(&b, &bb, 4);
    }
    x.set_double(i, a);
    y.set_double(i, b);
  }
}

TEST(ChipRandom, FloatRemainderAndLibdeviceFmodAreCsFmodBitForBit) {
  const int64_t n = 300;
  for (const char *kernel : {"float_mod_kernel", "libdevice_fmod_kernel"}) {
    DiffCase c;
    c.file = "float_mod.py";
    c.kernel = kernel;
    c.signature = "x_ptr=*fp32,y_ptr=*fp32,out_ptr=*fp32,n=i32";
    if (std::string(kernel) == "float_mod_kernel")
      c.signature = "x_ptr=*fp32,y_ptr=*fp32,rem_ptr=*fp32,n=i32";
    c.constexprs = {"BLOCK=64"};
    HostTensor x(DType::Float32, {n}), y(DType::Float32, {n});
    fmod_inputs(x, y);
    c.args = {KArg::tensor(x), KArg::tensor(y), KArg::tensor(HostTensor(DType::Float32, {n})),
              KArg::integer(n)};
    c.grid.x = (n + 63) / 64;
    auto interp = run_interp(c);
    ChipRun chip = run_chip(device(), c);
    ASSERT_TRUE(chip.launch.ok()) << (chip.launch.traps.empty() ? "" : chip.launch.traps.front());
    int bad = 0;
    for (int64_t i = 0; i < n && bad < 8; ++i) {
      const float a = static_cast<float>(x.get_double(i)), b = static_cast<float>(y.get_double(i));
      const float want = std::fmod(a, b);
      for (const auto *t : {&interp[2], &chip.tensors[2]}) {
        const float got = static_cast<float>(t->get_double(i));
        bool same = std::isnan(want) ? std::isnan(got) : bits_of(got) == bits_of(want);
        if (!same) {
          ++bad;
          ADD_FAILURE() << kernel << (t == &interp[2] ? " interpreter" : " chip") << ": fmod(" << a
                        << ", " << b << ") = " << got << ", want " << want;
        }
      }
    }
  }
}

TEST(ChipRandom, IntegerRemainderTruncatesTowardZero) {
  const int64_t n = 100;
  DiffCase c;
  c.file = "float_mod.py";
  c.kernel = "int_mod_kernel";
  c.signature = "x_ptr=*i32,y_ptr=*i32,out_ptr=*i32,n=i32";
  c.constexprs = {"BLOCK=64"};
  HostTensor x(DType::Int32, {n}), y(DType::Int32, {n});
  for (int64_t i = 0; i < n; ++i) {
    x.set_int(i, (i * 37) % 101 - 50);
    y.set_int(i, (i % 2 ? 1 : -1) * (1 + i % 9));
  }
  c.args = {KArg::tensor(x), KArg::tensor(y), KArg::tensor(HostTensor(DType::Int32, {n})),
            KArg::integer(n)};
  c.grid.x = 2;
  auto interp = run_interp(c);
  ChipRun chip = run_chip(device(), c);
  for (int64_t i = 0; i < n; ++i) {
    const int64_t want = x.get_int(i) % y.get_int(i);  // C++: truncating, as Triton's srem
    EXPECT_EQ(interp[2].get_int(i), want) << i;
    EXPECT_EQ(chip.tensors[2].get_int(i), want) << i;
  }
}

// e5m2 bits -> value (the upper byte of an IEEE half).
double e5m2_value(uint8_t b) {
  const int e = (b >> 2) & 31, m = b & 3;
  const double mag = e == 0    ? std::ldexp(m, -16)
                     : e == 31 ? (m ? NAN : INFINITY)
                               : std::ldexp(4 + m, e - 17);
  return b & 0x80 ? -mag : mag;
}

TEST(ChipFp8, Fp8PointersLoadSelectAndStoreTheBitPatterns) {
  const int64_t n = 77;
  DiffCase c;
  c.file = "fp8_convert.py";
  c.kernel = "fp8_pointer_kernel";
  c.signature = "src_ptr=*fp8e5,dst_ptr=*fp8e5,out_ptr=*fp32,n=i32";
  c.constexprs = {"BLOCK=32"};
  HostTensor src(DType::UInt8, {n}), dst(DType::UInt8, {n});
  for (int64_t i = 0; i < n; ++i) {
    src.set_int(i, (i * 37 + 11) % 256);
    dst.set_int(i, 0xAA);
  }
  c.args = {KArg::tensor(src), KArg::tensor(dst), KArg::tensor(HostTensor(DType::Float32, {n})),
            KArg::integer(n)};
  c.grid.x = (n + 31) / 32;
  auto interp = run_interp(c);
  ChipRun chip = run_chip(device(), c);
  ASSERT_TRUE(chip.launch.ok()) << (chip.launch.traps.empty() ? "" : chip.launch.traps.front());
  for (const auto *t : {&interp, &chip.tensors}) {
    for (int64_t i = 0; i < n; ++i) {
      // Even lanes keep their value, odd lanes take their even neighbour (the other load).
      const int64_t want = src.get_int(i % 2 == 0 ? i : i - 1);
      EXPECT_EQ((*t)[1].get_int(i), want) << i;
      const double v = e5m2_value(static_cast<uint8_t>(src.get_int(i))) * 2.0;
      const double got = (*t)[2].get_double(i);
      EXPECT_TRUE(std::isnan(v) ? std::isnan(got) : got == v) << i << ": " << got << " vs " << v;
    }
  }
}

TEST(ChipRandom, JitCalleeParametersAnnotatedConstexprTakeTensorsAsTritonDoes) {
  const int64_t n = 40;
  DiffCase c;
  c.file = "nested_constexpr_call.py";
  c.kernel = "causal_rowsum_kernel";
  c.signature = "q_ptr=*fp32,k_ptr=*fp32,out_ptr=*fp32,N_CTX=i32";
  c.constexprs = {"BLOCK_M=16", "BLOCK_N=16"};
  HostTensor q = random_tensor(DType::Float32, {n}, 3), k = random_tensor(DType::Float32, {n}, 4);
  c.args = {KArg::tensor(q), KArg::tensor(k), KArg::tensor(HostTensor(DType::Float32, {n})),
            KArg::integer(n)};
  c.grid.x = (n + 15) / 16;
  auto interp = run_interp(c);
  ChipRun chip = run_chip(device(), c);
  ASSERT_TRUE(chip.launch.ok());
  for (int64_t i = 0; i < n; ++i) {
    double want = 0;
    for (int64_t j = 0; j <= i; ++j) want += q.get_double(i) * k.get_double(j) * 0.5;
    EXPECT_NEAR(interp[2].get_double(i), want, 1e-5 * (1 + std::fabs(want))) << i;
    EXPECT_NEAR(chip.tensors[2].get_double(i), want, 1e-5 * (1 + std::fabs(want))) << i;
  }
}

}  // namespace
}  // namespace opforge::compiler::testing
