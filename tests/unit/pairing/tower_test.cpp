// Fp6 and Fp12: ring axioms, inverses, the fast squarings, the sparse line products and the
// Frobenius maps, each against a slower formulation (schoolbook multiplication, or
// exponentiation by p^k with p^k computed from the modulus).
#include <gtest/gtest.h>

#include <cstdint>

#include "ff/fp12.hpp"
#include "support/seed.hpp"
#include "unit/pairing/test_util.hpp"

namespace {

using cuzk::ff::fp;
using cuzk::ff::fp12;
using cuzk::ff::fp2;
using cuzk::ff::fp6;
using cuzk::test::nat;
using cuzk::test::seeded_rng;

constexpr int kIters = 16;

const nat& p_nat() {
  static const nat p = cuzk::test::to_nat(fp::modulus);
  return p;
}

// p^k as a fixed-width exponent.
template <std::size_t N>
cuzk::ff::bigint<N> p_pow(unsigned k) {
  return cuzk::test::to_bigint<N>(cuzk::test::nat_pow(p_nat(), k));
}

const fp2 xi = {fp::one(), fp::one()};

// ------------------------------------------------------------------------------------------
// Fp6
// ------------------------------------------------------------------------------------------

TEST(Fp6, RingAxioms) {
  seeded_rng rng;
  for (int i = 0; i < kIters; ++i) {
    const fp6 a = fp6::random(rng), b = fp6::random(rng), c = fp6::random(rng);
    EXPECT_EQ(a * b, b * a);
    EXPECT_EQ((a * b) * c, a * (b * c));
    EXPECT_EQ(a * (b + c), a * b + a * c);
    EXPECT_EQ(a * fp6::one(), a);
    EXPECT_TRUE((a * fp6::zero()).is_zero());
    EXPECT_EQ(a - a, fp6::zero());
    EXPECT_EQ(a + (-a), fp6::zero());
    EXPECT_EQ(a.dbl(), a + a);
  }
}

// Schoolbook product in Fp2[v]/(v^3 - xi): the slow twin of the Karatsuba product.
fp6 schoolbook(const fp6& a, const fp6& b) {
  const fp2 A[3] = {a.c0, a.c1, a.c2}, B[3] = {b.c0, b.c1, b.c2};
  fp2 r[5] = {fp2::zero(), fp2::zero(), fp2::zero(), fp2::zero(), fp2::zero()};
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) r[i + j] += A[i] * B[j];
  return {r[0] + r[3] * xi, r[1] + r[4] * xi, r[2]};
}

TEST(Fp6, MulSquareInverseSparse) {
  seeded_rng rng;
  const fp6 v = {fp2::zero(), fp2::one(), fp2::zero()};
  EXPECT_EQ(v * v * v, (fp6{xi, fp2::zero(), fp2::zero()}));  // v^3 = xi
  for (int i = 0; i < kIters; ++i) {
    const fp6 a = fp6::random(rng), b = fp6::random(rng);
    EXPECT_EQ(a * b, schoolbook(a, b));
    EXPECT_EQ(a.square(), a * a);
    EXPECT_EQ(a * a.inverse(), fp6::one());
    EXPECT_EQ(a.mul_by_nonresidue(), a * v);
    EXPECT_EQ(a.mul_by_01(b.c0, b.c1), a * (fp6{b.c0, b.c1, fp2::zero()}));
    EXPECT_EQ(a.mul_by_1(b.c1), a * (fp6{fp2::zero(), b.c1, fp2::zero()}));
    EXPECT_EQ(a.mul_by_fp2(b.c2), a * (fp6{b.c2, fp2::zero(), fp2::zero()}));
  }
  EXPECT_TRUE(fp6::zero().inverse().is_zero());
  EXPECT_EQ(fp6::one().inverse(), fp6::one());
}

// x^(p^k) via the generic exponentiation by p^k, for one element per k.
fp6 pow_fp6(const fp6& a, const cuzk::ff::bigint<36>& e) {
  fp6 acc = fp6::one();
  for (std::size_t i = cuzk::ff::bit_length(e); i-- > 0;) {
    acc = acc.square();
    if (cuzk::ff::test_bit(e, i)) acc = acc * a;
  }
  return acc;
}

TEST(Fp6, FrobeniusIsPowerOfP) {
  seeded_rng rng;
  const fp6 a = fp6::random(rng), b = fp6::random(rng);
  for (unsigned k = 0; k <= 6; ++k) {
    EXPECT_EQ(a.frobenius(k), pow_fp6(a, p_pow<36>(k))) << "k = " << k;
    EXPECT_EQ((a * b).frobenius(k), a.frobenius(k) * b.frobenius(k)) << "k = " << k;
  }
  EXPECT_EQ(a.frobenius(6), a);
  fp6 c = a;
  for (unsigned k = 0; k < 6; ++k) {
    EXPECT_EQ(c, a.frobenius(k)) << "k = " << k;
    c = c.frobenius(1);
  }
}

// ------------------------------------------------------------------------------------------
// Fp12
// ------------------------------------------------------------------------------------------

// Schoolbook product in Fp6[w]/(w^2 - v).
fp12 schoolbook(const fp12& a, const fp12& b) {
  return {a.c0 * b.c0 + (a.c1 * b.c1).mul_by_nonresidue(), a.c0 * b.c1 + a.c1 * b.c0};
}

TEST(Fp12, RingAxioms) {
  seeded_rng rng;
  for (int i = 0; i < kIters; ++i) {
    const fp12 a = fp12::random(rng), b = fp12::random(rng), c = fp12::random(rng);
    EXPECT_EQ(a * b, b * a);
    EXPECT_EQ((a * b) * c, a * (b * c));
    EXPECT_EQ(a * (b + c), a * b + a * c);
    EXPECT_EQ(a * b, schoolbook(a, b));
    EXPECT_EQ(a * fp12::one(), a);
    EXPECT_EQ(a - a, fp12::zero());
    EXPECT_EQ(-(-a), a);
  }
}

TEST(Fp12, SquareInverseSparse) {
  seeded_rng rng;
  const fp12 w = {fp6::zero(), fp6::one()};
  EXPECT_EQ(w * w, (fp12{{fp2::zero(), fp2::one(), fp2::zero()}, fp6::zero()}));  // w^2 = v
  fp12 w6 = fp12::one();
  for (int i = 0; i < 6; ++i) w6 = w6 * w;
  EXPECT_EQ(w6, (fp12{{xi, fp2::zero(), fp2::zero()}, fp6::zero()}));  // w^6 = xi
  for (int i = 0; i < kIters; ++i) {
    const fp12 a = fp12::random(rng);
    EXPECT_EQ(a.square(), a * a);
    EXPECT_EQ(a * a.inverse(), fp12::one());
    const fp2 l0 = fp2::random(rng), l1 = fp2::random(rng), l4 = fp2::random(rng);
    const fp12 line = {{l0, l1, fp2::zero()}, {fp2::zero(), l4, fp2::zero()}};
    EXPECT_EQ(a.mul_by_014(l0, l1, l4), a * line);
  }
  EXPECT_TRUE(fp12::zero().inverse().is_zero());
}

TEST(Fp12, FrobeniusIsPowerOfP) {
  seeded_rng rng;
  const fp12 a = fp12::random(rng), b = fp12::random(rng);
  const fp12 ap = a.pow(p_pow<6>(1));
  EXPECT_EQ(a.frobenius(1), ap);
  EXPECT_EQ(a.frobenius(2), ap.pow(p_pow<6>(1)));
  EXPECT_EQ(a.frobenius(3), a.pow(p_pow<18>(3)));
  EXPECT_EQ(a.frobenius(6), a.pow(p_pow<36>(6)));
  EXPECT_EQ(a.frobenius(6), a.conjugate());  // conjugation is the p^6 Frobenius
  // Composition: frobenius(k) = frobenius(1)^k for k = 0..12, period 12, multiplicative.
  fp12 c = a;
  for (unsigned k = 0; k <= 12; ++k) {
    EXPECT_EQ(c, a.frobenius(k)) << "k = " << k;
    EXPECT_EQ((a * b).frobenius(k), a.frobenius(k) * b.frobenius(k)) << "k = " << k;
    EXPECT_EQ(a.frobenius(k).frobenius(12 - k % 12), a) << "k = " << k;
    c = c.frobenius(1);
  }
  EXPECT_EQ(c, a.frobenius(1));  // a^(p^13) = a^p
}

// Every tabulated Frobenius coefficient recomputed as xi^(j (p^k - 1)/6) with the library's
// own Fp2 arithmetic.
TEST(Fp12, FrobeniusCoefficients) {
  for (unsigned k = 1; k <= 5; ++k) {
    uint64_t rem = 0;
    const nat e = cuzk::test::nat_div_small(cuzk::test::nat_sub(cuzk::test::nat_pow(p_nat(), k), {1}), 6, rem);
    ASSERT_EQ(rem, 0u);
    const fp2 gamma1 = xi.pow(cuzk::test::to_bigint<30>(e));
    fp2 g = fp2::one();
    for (unsigned j = 1; j <= 5; ++j) {
      g = g * gamma1;
      EXPECT_EQ(cuzk::ff::detail::frobenius_gamma[k - 1][j - 1], g) << "k = " << k << ", j = " << j;
    }
  }
}

// An element of the cyclotomic subgroup: a^((p^6 - 1)(p^2 + 1)) by generic exponentiation.
fp12 cyclotomic_element(const fp12& a) {
  const fp12 t = a.pow(p_pow<36>(6)) * a.inverse();
  return t.pow(p_pow<12>(2)) * t;
}

TEST(Fp12, CyclotomicSquare) {
  seeded_rng rng;
  // Phi12(p) = p^4 - p^2 + 1.
  const nat phi = cuzk::test::nat_add(cuzk::test::nat_sub(cuzk::test::nat_pow(p_nat(), 4), cuzk::test::nat_pow(p_nat(), 2)), {1});
  for (int i = 0; i < 4; ++i) {
    const fp12 g = cyclotomic_element(fp12::random(rng));
    ASSERT_TRUE(g.pow(cuzk::test::to_bigint<25>(phi)).is_one());
    EXPECT_EQ(g.cyclotomic_square(), g.square());
    EXPECT_EQ(g.cyclotomic_square().cyclotomic_square(), g.square().square());
    EXPECT_EQ(g.conjugate(), g.inverse());  // the inverse on the cyclotomic subgroup
  }
}

TEST(Fp12, BytesRoundTripAndOrder) {
  seeded_rng rng;
  const fp12 a = fp12::random(rng);
  uint8_t buf[fp12::bytes];
  a.to_bytes_be(buf);
  fp12 b;
  ASSERT_TRUE(fp12::from_bytes_be(buf, b));
  EXPECT_EQ(a, b);
  // Order: c0.c0.c0 first, c1.c2.c1 last, each big-endian.
  fp12 one_last = fp12::zero();
  one_last.c1.c2.c1 = fp::one();
  one_last.c0.c1.c0 = fp::from_u64(2);
  one_last.to_bytes_be(buf);
  for (std::size_t i = 0; i < fp12::bytes; ++i) {
    const uint8_t want = i == fp12::bytes - 1 ? 1 : i == 2 * 48 + 47 ? 2 : 0;
    ASSERT_EQ(buf[i], want) << "byte " << i;
  }
  // A coordinate >= p is rejected.
  for (std::size_t i = 0; i < 48; ++i) buf[48 + i] = 0xff;
  EXPECT_FALSE(fp12::from_bytes_be(buf, b));
}

}  // namespace
