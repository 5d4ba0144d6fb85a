// Algebraic properties of Fp, Fr and Fp2 on random inputs (printed seed), byte-encoding
// round trips and rejections, and compile-time evaluation.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <vector>

#include "ff/bls12_381.hpp"
#include "ff/fp2.hpp"
#include "support/seed.hpp"

namespace {

using cuzk::ff::bigint;
using cuzk::ff::fp;
using cuzk::ff::fp2;
using cuzk::ff::fr;

// ---- constant expressions ------------------------------------------------------------------
static_assert(fp::from_u64(3) * fp::from_u64(5) == fp::from_u64(15));
static_assert(fr::from_u64(6).square() == fr::from_u64(36));
static_assert((fp::from_u64(7).inverse() * fp::from_u64(7)).is_one());
static_assert((fr::from_u64(12345).inverse() * fr::from_u64(12345)).is_one());
static_assert(fp::from_u64(2) - fp::from_u64(3) == -fp::one());
static_assert(fp::from_hex("0x2a").to_canonical() == cuzk::ff::from_u64<6>(42));

template <class F>
class ff_field : public ::testing::Test {};
using Fields = ::testing::Types<fp, fr>;
TYPED_TEST_SUITE(ff_field, Fields);

TYPED_TEST(ff_field, Axioms) {
  using F = TypeParam;
  cuzk::test::seeded_rng rng;
  for (int i = 0; i < 2000; ++i) {
    const F a = F::random(rng), b = F::random(rng), c = F::random(rng);
    ASSERT_EQ(a + b, b + a);
    ASSERT_EQ(a * b, b * a);
    ASSERT_EQ((a + b) + c, a + (b + c));
    ASSERT_EQ((a * b) * c, a * (b * c));
    ASSERT_EQ(a * (b + c), a * b + a * c);
    ASSERT_EQ(a + F::zero(), a);
    ASSERT_EQ(a * F::one(), a);
    ASSERT_TRUE((a * F::zero()).is_zero());
    ASSERT_TRUE((a + (-a)).is_zero());
    ASSERT_EQ(a - b, a + (-b));
    ASSERT_EQ(a.square(), a * a);
    ASSERT_EQ(a.dbl(), a + a);
    ASSERT_EQ((a - b) + b, a);
  }
  ASSERT_TRUE((-F::zero()).is_zero());
}

TYPED_TEST(ff_field, Inverse) {
  using F = TypeParam;
  cuzk::test::seeded_rng rng;
  for (int i = 0; i < 200; ++i) {
    const F a = F::random(rng);
    if (a.is_zero()) continue;
    ASSERT_TRUE((a * a.inverse()).is_one());
    ASSERT_EQ(a.inverse().inverse(), a);
  }
  ASSERT_TRUE(F::zero().inverse().is_zero());
  ASSERT_TRUE(F::one().inverse().is_one());
  ASSERT_EQ((-F::one()).inverse(), -F::one());
}

TYPED_TEST(ff_field, BatchInverse) {
  using F = TypeParam;
  cuzk::test::seeded_rng rng;
  for (std::size_t n : {0u, 1u, 2u, 7u, 64u}) {
    std::vector<F> v(n), scratch(n);
    for (std::size_t i = 0; i < n; ++i) v[i] = (rng() % 4 == 0) ? F::zero() : F::random(rng);
    if (n > 0) v[0] = F::zero();  // a zero first and (n > 1) last
    if (n > 1) v[n - 1] = F::zero();
    std::vector<F> want(n);
    for (std::size_t i = 0; i < n; ++i) want[i] = v[i].inverse();
    cuzk::ff::batch_inverse(v.data(), n, scratch.data());
    for (std::size_t i = 0; i < n; ++i) ASSERT_EQ(v[i], want[i]) << "n=" << n << " i=" << i;
  }
}

TYPED_TEST(ff_field, SqrtAndLegendre) {
  using F = TypeParam;
  cuzk::test::seeded_rng rng;
  int nonsquares = 0;
  for (int i = 0; i < 100; ++i) {
    const F a = F::random(rng);
    const F sq = a.square();
    F root;
    ASSERT_TRUE(sq.sqrt(root));
    ASSERT_EQ(root.square(), sq);
    ASSERT_TRUE(root == a || root == -a);
    ASSERT_EQ(sq.legendre(), sq.is_zero() ? 0 : 1);
    // a random element is a non-square half the time
    const F b = F::random(rng);
    F r2 = F::from_u64(12345);
    const F keep = r2;
    const int l = b.legendre();
    if (l == -1) {
      ++nonsquares;
      ASSERT_FALSE(b.sqrt(r2));
      ASSERT_EQ(r2, keep);  // untouched on failure
      ASSERT_EQ((b * sq).legendre(), sq.is_zero() ? 0 : -1);
    } else {
      ASSERT_TRUE(b.sqrt(r2));
      ASSERT_EQ(r2.square(), b);
    }
  }
  ASSERT_GT(nonsquares, 10);
  F z;
  ASSERT_TRUE(F::zero().sqrt(z));
  ASSERT_TRUE(z.is_zero());
  ASSERT_EQ(F::zero().legendre(), 0);
  ASSERT_EQ(F::one().legendre(), 1);
  // -1 is a non-square in Fp (p = 3 mod 4) and a square in Fr (r = 1 mod 4).
  ASSERT_EQ((-F::one()).legendre(), (F::modulus.w[0] & 3) == 3 ? -1 : 1);
}

TEST(ff_fr_tonelli_shanks, RootOfUnityAndNonresidue) {
  using D = cuzk::ff::tonelli_shanks_data<fr>;
  const fr z = fr::from_u64(D::nonresidue);
  EXPECT_EQ(z.legendre(), -1);
  const fr w = fr::from_montgomery_repr(D::root_of_unity);
  fr t = w;
  for (int i = 0; i < 31; ++i) t = t.square();
  EXPECT_EQ(t, -fr::one());  // primitive 2^32-th root: w^(2^31) = -1
  EXPECT_TRUE(t.square().is_one());
  // Elements whose square roots exercise deep Tonelli-Shanks loops: powers of w.
  fr x = w;
  for (int i = 0; i < 32; ++i) {
    fr r;
    ASSERT_TRUE(x.square().sqrt(r)) << i;
    ASSERT_EQ(r.square(), x.square()) << i;
    x = x.square();
  }
}

// ---- bytes --------------------------------------------------------------------------------
TYPED_TEST(ff_field, BytesRoundTrip) {
  using F = TypeParam;
  cuzk::test::seeded_rng rng;
  for (int i = 0; i < 500; ++i) {
    const F a = F::random(rng);
    uint8_t be[F::bytes], le[F::bytes];
    a.to_bytes_be(be);
    a.to_bytes_le(le);
    for (std::size_t j = 0; j < F::bytes; ++j) ASSERT_EQ(be[j], le[F::bytes - 1 - j]);
    F x, y;
    ASSERT_TRUE(F::from_bytes_be(be, x));
    ASSERT_TRUE(F::from_bytes_le(le, y));
    ASSERT_EQ(x, a);
    ASSERT_EQ(y, a);
  }
  // p - 1 is the largest accepted value.
  uint8_t be[F::bytes];
  (-F::one()).to_bytes_be(be);
  F x;
  ASSERT_TRUE(F::from_bytes_be(be, x));
  ASSERT_EQ(x, -F::one());
}

template <class F>
void expect_rejected(const typename F::repr& v, const char* what) {
  uint8_t be[F::bytes], le[F::bytes];
  for (std::size_t i = 0; i < F::bytes; ++i) {
    le[i] = static_cast<uint8_t>(v.w[i / 8] >> (8 * (i % 8)));
    be[F::bytes - 1 - i] = le[i];
  }
  const F sentinel = F::from_u64(77);
  F out = sentinel;
  EXPECT_FALSE(F::from_bytes_be(be, out)) << what;
  EXPECT_EQ(out, sentinel) << what;
  EXPECT_FALSE(F::from_bytes_le(le, out)) << what;
  EXPECT_EQ(out, sentinel) << what;
  EXPECT_FALSE(F::from_canonical_checked(v, out)) << what;
}

TEST(ff_bytes, RejectsNonCanonical) {
  using R6 = bigint<6>;
  using R4 = bigint<4>;
  R6 all6;
  for (auto& w : all6.w) w = ~uint64_t{0};
  expect_rejected<fp>(fp::modulus, "p");
  expect_rejected<fp>(cuzk::ff::detail::plus_u64(fp::modulus, 1), "p + 1");
  expect_rejected<fp>(all6, "2^384 - 1");
  R6 top = fp::modulus;  // first value >= p that differs from p only in the top limb
  top.w[5] += 1;
  expect_rejected<fp>(top, "p + 2^320");
  R4 all4;
  for (auto& w : all4.w) w = ~uint64_t{0};
  expect_rejected<fr>(fr::modulus, "r");
  expect_rejected<fr>(cuzk::ff::detail::plus_u64(fr::modulus, 1), "r + 1");
  expect_rejected<fr>(all4, "2^256 - 1");
}

// ---- Fp2 ------------------------------------------------------------------------------------
TEST(ff_fp2, Axioms) {
  cuzk::test::seeded_rng rng;
  for (int i = 0; i < 500; ++i) {
    const fp2 a = fp2::random(rng), b = fp2::random(rng), c = fp2::random(rng);
    ASSERT_EQ(a * b, b * a);
    ASSERT_EQ((a * b) * c, a * (b * c));
    ASSERT_EQ(a * (b + c), a * b + a * c);
    ASSERT_EQ(a + b, b + a);
    ASSERT_EQ((a + b) + c, a + (b + c));
    ASSERT_EQ(a.square(), a * a);
    ASSERT_EQ(a * fp2::one(), a);
    ASSERT_TRUE((a - a).is_zero());
    ASSERT_EQ(a.dbl(), a + a);
    ASSERT_EQ(a.mul_by_fp(b.c0), (a * fp2{b.c0, fp::zero()}));
    // schoolbook check of the Karatsuba product: (a0 + a1 u)(b0 + b1 u), u^2 = -1
    ASSERT_EQ(a * b, (fp2{a.c0 * b.c0 - a.c1 * b.c1, a.c0 * b.c1 + a.c1 * b.c0}));
    // xi = u + 1
    ASSERT_EQ(a.mul_by_nonresidue(), (a * fp2{fp::one(), fp::one()}));
  }
  const fp2 u{fp::zero(), fp::one()};
  ASSERT_EQ(u * u, -fp2::one());
}

TEST(ff_fp2, Inverse) {
  cuzk::test::seeded_rng rng;
  for (int i = 0; i < 100; ++i) {
    const fp2 a = fp2::random(rng);
    ASSERT_TRUE((a * a.inverse()).is_one());
  }
  const fp2 pure{fp::zero(), fp::from_u64(5)};
  ASSERT_TRUE((pure * pure.inverse()).is_one());
  ASSERT_TRUE(fp2::zero().inverse().is_zero());
}

TEST(ff_fp2, FrobeniusIsPowP) {
  cuzk::test::seeded_rng rng;
  for (int i = 0; i < 10; ++i) {
    const fp2 a = fp2::random(rng);
    ASSERT_EQ(a.frobenius(1), a.pow(fp::modulus));
    ASSERT_EQ(a.frobenius(2), a);
    ASSERT_EQ(a.frobenius(1).frobenius(1), a);
    ASSERT_EQ(a.frobenius(3), a.frobenius(1));
  }
}

TEST(ff_fp2, Sqrt) {
  cuzk::test::seeded_rng rng;
  int nonsquares = 0;
  for (int i = 0; i < 60; ++i) {
    const fp2 a = fp2::random(rng);
    const fp2 sq = a.square();
    fp2 r;
    ASSERT_TRUE(sq.sqrt(r));
    ASSERT_EQ(r.square(), sq);
    ASSERT_TRUE(r == a || r == -a);
    // An Fp2 element is a square iff its norm is a square in Fp.
    const fp2 b = fp2::random(rng);
    fp2 rb;
    const bool is_sq = b.norm().legendre() >= 0;
    ASSERT_EQ(b.sqrt(rb), is_sq);
    if (is_sq) ASSERT_EQ(rb.square(), b);
    else ++nonsquares;
  }
  ASSERT_GT(nonsquares, 5);
  // Elements with one zero coordinate: Fp elements (all squares in Fp2) and pure imaginaries.
  for (uint64_t k : {1u, 2u, 3u, 5u}) {
    for (const fp2& x : {fp2{fp::from_u64(k), fp::zero()}, fp2{-fp::from_u64(k), fp::zero()},
                        fp2{fp::zero(), fp::from_u64(k)}}) {
      fp2 r;
      ASSERT_TRUE(x.sqrt(r)) << k;
      ASSERT_EQ(r.square(), x) << k;
    }
  }
  // A fixed non-square: u + 2 has norm 5, a non-square mod p iff legendre(5) = -1.
  const fp2 ns{fp::from_u64(2), fp::one()};
  fp2 r;
  ASSERT_EQ(ns.sqrt(r), fp::from_u64(5).legendre() == 1);
  fp2 zr;
  ASSERT_TRUE(fp2::zero().sqrt(zr));
  ASSERT_TRUE(zr.is_zero());
}

}  // namespace

namespace {

// The run-time inverse (safegcd, variable time) against Fermat's a^(p-2).
template <class F>
class ff_inverse_safegcd : public ::testing::Test {};
TYPED_TEST_SUITE(ff_inverse_safegcd, Fields);

TYPED_TEST(ff_inverse_safegcd, MatchesFermat) {
  using F = TypeParam;
  cuzk::test::seeded_rng rng;
  std::vector<F> xs = {F::zero(), F::one(), -F::one(), F::from_u64(2), F::from_montgomery_repr(F::r2),
                       F::from_montgomery_repr(cuzk::ff::from_u64<F::N>(1)),
                       F::from_montgomery_repr(cuzk::ff::detail::minus_u64(F::modulus, 1)),
                       F::from_montgomery_repr(F::half_modulus)};
  typename F::repr ones{};
  for (std::size_t i = 0; i + 1 < F::N; ++i) ones.w[i] = ~uint64_t{0};
  xs.push_back(F::from_montgomery_repr(ones));
  for (int i = 0; i < 2000; ++i) xs.push_back(F::random(rng));
  for (uint64_t k = 1; k < 200; ++k) xs.push_back(F::from_u64(k));
  for (const F& a : xs) {
    const F inv = a.inverse_safegcd();
    ASSERT_EQ(inv, a.inverse_fermat());
    ASSERT_TRUE(less_than(inv.v, F::modulus));
  }
}

}  // namespace
