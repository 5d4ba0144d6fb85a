// Device vs host: the field templates compiled by nvcc must give the CPU's results bit for bit.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <vector>

#include "backend/cuda/field_selftest.hpp"
#include "backend/cuda/fp_inverse_safegcd.cuh"
#include "backend/cuda/mont_evenodd.cuh"
#include "backend/cuda/mont_karatsuba.cuh"
#include "backend/cuda/mont_f64.cuh"
#include "support/seed.hpp"

namespace {

using cuzk::ff::fp;
using cuzk::ff::fr;

TEST(CudaField, DeviceMatchesHost) {
  std::string why;
  if (cuzk::cuda::device_count(why) == 0) GTEST_SKIP() << "no GPU available (" << why << "): device test skipped";
  cuzk::test::seeded_rng rng;
  const std::size_t n = 4099;  // not a multiple of the block size
  std::vector<fp> a(n), b(n);
  std::vector<fr> c(n), d(n);
  for (std::size_t i = 0; i < n; ++i) {
    a[i] = fp::random(rng);
    b[i] = fp::random(rng);
    c[i] = fr::random(rng);
    d[i] = fr::random(rng);
  }
  // Edge values: zero, one, p-1.
  a[0] = fp::zero();
  b[1] = fp::one();
  a[2] = -fp::one();
  c[0] = fr::zero();
  d[1] = -fr::one();
  cuzk::cuda::field_selftest_result out;
  std::string error;
  ASSERT_TRUE(cuzk::cuda::run_field_selftest(a, b, c, d, out, error)) << error;
  for (std::size_t i = 0; i < n; ++i) {
    ASSERT_EQ(out.fp_out[i], cuzk::cuda::selftest_fp_formula(a[i], b[i])) << "fp at " << i;
    ASSERT_EQ(out.fr_out[i], cuzk::cuda::selftest_fr_formula(c[i], d[i])) << "fr at " << i;
    ASSERT_EQ(out.fp2_out[i], cuzk::cuda::selftest_fp2_formula(a[i], b[i])) << "fp2 at " << i;
  }
}

// Both device inversions (Fermat, safegcd) against the CPU's Fermat inverse: random values, 0
// (maps to 0), 1, p - 1, 2 and a power of two.
TEST(CudaField, DeviceInversesMatchHost) {
  std::string why;
  if (cuzk::cuda::device_count(why) == 0) GTEST_SKIP() << "no GPU available (" << why << "): device test skipped";
  cuzk::test::seeded_rng rng;
  std::vector<fp> a(20011);
  for (fp& x : a) x = fp::random(rng);
  a[0] = fp::zero();
  a[1] = fp::one();
  a[2] = -fp::one();
  a[3] = fp::from_u64(2);
  a[4] = fp::from_u64(uint64_t{1} << 63);
  std::vector<fp> fermat, safegcd;
  std::string error;
  ASSERT_TRUE(cuzk::cuda::run_fp_inverse_selftest(a, fermat, safegcd, error)) << error;
  for (std::size_t i = 0; i < a.size(); ++i) {
    const fp want = a[i].inverse_fermat();
    ASSERT_EQ(fermat[i], want) << "Fermat at " << i;
    ASSERT_EQ(safegcd[i], want) << "safegcd at " << i;
  }
}

// The device products' limb bookkeeping, run on the host (carry flag emulated; no GPU needed):
// even/odd and wide CIOS, the wide square, the Karatsuba product, square and dot product (for Fp
// also the even/odd square and dot product a b + c d) against ff::fp / ff::fr, canonical after
// one conditional subtraction.
template <class F>
struct limbs32 {
  static constexpr int n = 2 * static_cast<int>(sizeof(F::modulus.w) / 8);
  static constexpr uint32_t limb(unsigned i) { return static_cast<uint32_t>(F::modulus.w[i / 2] >> (32 * (i % 2))); }
  static constexpr uint32_t n0 = static_cast<uint32_t>(F::n0);
  static void split(const F& x, uint32_t (&r)[n]) {
    for (int i = 0; i < n; ++i) r[i] = static_cast<uint32_t>(x.v.w[i / 2] >> (32 * (i % 2)));
  }
  // r in [0, 2p) -> canonical F.
  static F join(const uint32_t (&r)[n]) {
    uint32_t d[n];
    uint64_t borrow = 0;
    for (int i = 0; i < n; ++i) {
      const uint64_t s = static_cast<uint64_t>(r[i]) - limb(i) - borrow;
      d[i] = static_cast<uint32_t>(s);
      borrow = (s >> 32) & 1;
    }
    const uint32_t* src = borrow ? r : d;
    F x;
    for (int i = 0; i < n / 2; ++i) x.v.w[i] = src[2 * i] | (static_cast<uint64_t>(src[2 * i + 1]) << 32);
    return x;
  }
};

template <class F>
void check_host_products(cuzk::test::seeded_rng& rng) {
  using L = limbs32<F>;
  constexpr int n = L::n;
  // A value whose high half (in 32-bit limbs) equals its low half, below p (the top word of each
  // half cleared to 24 bits).
  const auto equal_halves = [](F x) {
    constexpr int w = n / 2;  // 64-bit words
    x.v.w[w / 2 - 1] &= 0xffffffu;
    for (int i = 0; i < w / 2; ++i) x.v.w[w / 2 + i] = x.v.w[i];
    return x;
  };
  for (int it = 0; it < 20000; ++it) {
    F a = F::random(rng), b = F::random(rng);
    if (it == 0) a = b = -F::one();  // p - 1 twice: the largest operands
    if (it == 1) a = -F::one();
    if (it == 2) b = F::zero();
    if (it % 7 == 3) a = equal_halves(a);  // Karatsuba's a0 - a1 = 0
    if (it % 5 == 4) b = equal_halves(b);
    uint32_t x[n], y[n], r[n];
    L::split(a, x);
    L::split(b, y);
    const F want = a * b;
    cuzk::cuda::dev::eo_mont_mul<n, L>(r, x, y);
    ASSERT_EQ(L::join(r), want) << "even/odd, iteration " << it;
    cuzk::cuda::dev::wide_mont_mul<n, L>(r, x, y);
    ASSERT_EQ(L::join(r), want) << "wide, iteration " << it;
    cuzk::cuda::dev::wide_mont_sqr<n, L>(r, x);
    ASSERT_EQ(L::join(r), a * a) << "wide square, iteration " << it;
    cuzk::cuda::dev::ka_mont_mul<n, L>(r, x, y);
    ASSERT_EQ(L::join(r), want) << "Karatsuba, iteration " << it;
    cuzk::cuda::dev::ka_mont_mul<n, L>(r, x, x);
    ASSERT_EQ(L::join(r), a * a) << "Karatsuba square, iteration " << it;
    {
      F c = F::random(rng), d = F::random(rng);
      if (it == 0) c = d = -F::one();  // the largest sum, 2 (p - 1)^2
      uint32_t z[n], w[n];
      L::split(c, z);
      L::split(d, w);
      cuzk::cuda::dev::ka_mont_dot<n, L>(r, x, y, z, w);
      ASSERT_EQ(L::join(r), a * b + c * d) << "Karatsuba dot product, iteration " << it;
    }
    if constexpr (cuzk::cuda::dev::eo_three_spare_bits<n, L>()) {  // Fp only
      cuzk::cuda::dev::eo_mont_sqr<n, L>(r, x);
      ASSERT_EQ(L::join(r), a * a) << "even/odd square, iteration " << it;
      F c = F::random(rng), d = F::random(rng);
      if (it == 0) c = d = -F::one();
      uint32_t z[n], w[n];
      L::split(c, z);
      L::split(d, w);
      cuzk::cuda::dev::eo_mont_dot<n, L>(r, x, y, z, w);
      ASSERT_EQ(L::join(r), a * b + c * d) << "even/odd dot product, iteration " << it;
    }
  }
}

TEST(CudaField, EvenOddAndWideProductsOnHost) {
  cuzk::test::seeded_rng rng;
  check_host_products<fp>(rng);
  check_host_products<fr>(rng);
}

// The FP64-pipe product (mont_f64.cuh) on the host, where std::fma rounds as the device's DFMA:
// single products from 32-bit limbs (canonical operands, p - 1, and operands in [p, 2p) as the
// lazy 32-bit products leave them), chains that stay in the double-limb form, and the limb
// bounds the header's exactness argument needs.
TEST(CudaField, Float64ProductOnHost) {
  namespace dev = cuzk::cuda::dev;
  using L = limbs32<fp>;
  cuzk::test::seeded_rng rng;
  const auto to_f64 = [](const uint32_t (&w)[12]) { return dev::f64_from_words(w); };
  const auto to_fp = [](const dev::fp_f64& x) {
    uint32_t w[12];
    dev::f64_to_words(x, w);
    fp r;
    for (int i = 0; i < 6; ++i) r.v.w[i] = w[2 * i] | (static_cast<uint64_t>(w[2 * i + 1]) << 32);
    return r;
  };
  const auto check_bounds = [](const dev::fp_f64& x, int it) {
    for (int i = 0; i < 7; ++i) ASSERT_LE(std::fabs(x.l[i]), 0x1p47) << "limb " << i << ", iteration " << it;
    ASSERT_LE(std::fabs(x.l[7]), 0x1p45 + 1) << "top limb, iteration " << it;
  };
  // x + p as 32-bit limbs (x canonical, so x + p < 2p < 2^382).
  const auto plus_p = [](const uint32_t (&x)[12], uint32_t (&r)[12]) {
    uint64_t c = 0;
    for (int i = 0; i < 12; ++i) {
      c += static_cast<uint64_t>(x[i]) + L::limb(i);
      r[i] = static_cast<uint32_t>(c);
      c >>= 32;
    }
  };
  for (int it = 0; it < 20000; ++it) {
    fp a = fp::random(rng), b = fp::random(rng);
    if (it == 0) a = b = -fp::one();
    if (it == 1) b = fp::zero();
    if (it == 2) a = fp::one();
    uint32_t x[12], y[12];
    L::split(a, x);
    L::split(b, y);
    if (it % 4 == 3) {  // operands in [p, 2p): the same residues
      uint32_t t[12];
      plus_p(x, t);
      std::copy(t, t + 12, x);
      if (it % 8 == 7) {
        plus_p(y, t);
        std::copy(t, t + 12, y);
      }
    }
    if (it % 4 == 3) {
      ASSERT_EQ(to_fp(to_f64(x)), a) << "conversion of a value in [p, 2p), iteration " << it;
    }
    const dev::fp_f64 r = dev::f64_mont_mul(to_f64(x), to_f64(y));
    check_bounds(r, it);
    ASSERT_EQ(to_fp(r), a * b) << "f64 product, iteration " << it;
    const dev::fp_f64 r2 = dev::f64_mont_mul<2>(to_f64(x), to_f64(y));
    for (int i = 0; i < 8; ++i) ASSERT_EQ(r2.l[i], r.l[i]) << "f64 product with two chains, iteration " << it;
  }
  // Chains: outputs fed back as inputs, in the double form throughout.
  for (int chain = 0; chain < 20; ++chain) {
    fp a = fp::random(rng), b = fp::random(rng);
    if (chain == 0) a = b = -fp::one();
    uint32_t x[12], y[12];
    L::split(a, x);
    L::split(b, y);
    dev::fp_f64 u = to_f64(x), v = to_f64(y);
    for (int k = 0; k < 500; ++k) {
      u = dev::f64_mont_mul(u, v);
      v = dev::f64_mont_mul(v, u);
      a = a * b;
      b = b * a;
      check_bounds(u, k);
      check_bounds(v, k);
    }
    ASSERT_EQ(to_fp(u), a) << "f64 chain " << chain;
    ASSERT_EQ(to_fp(v), b) << "f64 chain " << chain;
  }
}


// The 30-bit safegcd inversion (fp_inverse_safegcd.cuh) on the host: x y = 1 for the integer x
// (the Montgomery words of a random a, as the device would pass them) against Fermat's inverse
// on the CPU, edge values, and the round count within the 381-bit bound (37 rounds of 30).
TEST(CudaField, SafegcdInverseOnHost) {
  namespace sg = cuzk::cuda::safegcd30;
  using L = limbs32<fp>;
  cuzk::test::seeded_rng rng;
  const auto to_repr = [](const uint32_t (&w)[12]) {
    fp::repr r{};
    for (int i = 0; i < 6; ++i) r.w[i] = w[2 * i] | (static_cast<uint64_t>(w[2 * i + 1]) << 32);
    return r;
  };
  const auto as_integer = [&](const uint32_t (&w)[12]) { return fp::from_canonical(to_repr(w)); };  // w as an Fp value
  std::vector<std::array<uint32_t, 12>> inputs;
  const auto push_integer = [&](const fp& v) {  // v's canonical integer as the input
    const fp::repr c = v.to_canonical();
    std::array<uint32_t, 12> w{};
    for (int i = 0; i < 12; ++i) w[i] = static_cast<uint32_t>(c.w[i / 2] >> (32 * (i % 2)));
    inputs.push_back(w);
  };
  for (const fp& v : {fp::one(), -fp::one(), fp::from_u64(2), fp::from_u64(3), -fp::from_u64(2),
                      fp::from_u64(2).inverse_fermat(), fp::from_u64(uint64_t{1} << 63)})
    push_integer(v);
  for (int it = 0; it < 20000; ++it) {
    std::array<uint32_t, 12> w;
    uint32_t x[12];
    L::split(fp::random(rng), x);
    std::copy(x, x + 12, w.begin());
    inputs.push_back(w);
  }
  int max_rounds = 0;
  double sum_rounds = 0;
  for (std::size_t k = 0; k < inputs.size(); ++k) {
    uint32_t x[12], y[12];
    std::copy(inputs[k].begin(), inputs[k].end(), x);
    int rounds = 0;
    sg::inverse(x, y, &rounds);
    const fp xv = as_integer(x), yv = as_integer(y);
    ASSERT_EQ(yv, xv.inverse_fermat()) << "input " << k;
    ASSERT_EQ(xv * yv, fp::one()) << "input " << k;
    // canonical output: y < p (as_integer would not notice y + p)
    ASSERT_EQ(yv.to_canonical(), to_repr(y)) << "input " << k;
    max_rounds = std::max(max_rounds, rounds);
    sum_rounds += rounds;
  }
  EXPECT_LE(max_rounds, 37);
  std::printf("safegcd30: %zu inversions, %.2f rounds of 30 divsteps on average, at most %d\n", inputs.size(),
              sum_rounds / static_cast<double>(inputs.size()), max_rounds);
  uint32_t zero[12] = {}, out[12];
  sg::inverse(zero, out);
  for (uint32_t w : out) ASSERT_EQ(w, 0u) << "0 maps to 0, as Fermat's";
}

}  // namespace
