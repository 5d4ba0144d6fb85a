// Endomorphism constants re-derived with ff arithmetic, and the fast subgroup tests against
// their slow twin [r]P == O on points in and out of the subgroups.
#include <gtest/gtest.h>

#include "ec/subgroup.hpp"
#include "ec_test_util.hpp"
#include "support/seed.hpp"

namespace cuzk::ec::test {
namespace {

TEST(ec_constants, BlsParameterDefinesR) {
  // r = x^4 - x^2 + 1, i.e. x^4 - x^2 + 1 == 0 in Fr.
  fr x = -fr::from_u64(bls_x_abs);
  fr x2 = x.square();
  EXPECT_TRUE((x2.square() - x2 + fr::one()).is_zero());
  // p = (x - 1)^2 (x^4 - x^2 + 1) / 3 + x, so p == x (mod r): the eigenvalue of psi.
  fr p_mod_r = fr::zero();
  {
    // Reduce p (6 limbs) mod r by Horner over its 64-bit limbs.
    fr two64 = fr::from_u64(uint64_t{1} << 32).square();
    for (std::size_t i = fp::N; i-- > 0;) p_mod_r = p_mod_r * two64 + fr::from_u64(fp::modulus.w[i]);
  }
  EXPECT_EQ(p_mod_r, x);
}

TEST(ec_constants, G1BetaIsDerivedCubeRootOfUnity) {
  // p = 1 (mod 3); 2^((p-1)/3) != 1 means 2 is not a cube and the result is a primitive cube
  // root of unity.
  ff::bigint<6> e = fp::p_minus_1;
  // divide by 3 (schoolbook, most significant limb first)
  {
    ff::u128 rem = 0;
    for (std::size_t i = 6; i-- > 0;) {
      ff::u128 cur = (rem << 64) | e.w[i];
      e.w[i] = static_cast<uint64_t>(cur / 3);
      rem = cur % 3;
    }
    ASSERT_EQ(rem, 0u) << "p - 1 must be divisible by 3";
  }
  fp beta = fp::from_u64(2).pow(e);
  EXPECT_FALSE(beta.is_one());
  EXPECT_TRUE((beta.square() * beta).is_one());
  EXPECT_EQ(g1_beta, beta);
  // The other root beta^2 has eigenvalue x^2 - 1 instead; ours must give -x^2 on G1.
  g1_jacobian g = g1_jacobian::generator();
  EXPECT_EQ(g1_endomorphism(g), -mul_by_x(mul_by_x(g)));
  g1_jacobian other{g.X * beta.square(), g.Y, g.Z};
  EXPECT_NE(other, -mul_by_x(mul_by_x(g)));
  EXPECT_EQ(g1_endomorphism(g1_affine::generator()), g1_endomorphism(g).to_affine());
}

TEST(ec_constants, G2PsiCoefficientsAreDerived) {
  const fp2 xi = {fp::one(), fp::one()};  // u + 1
  ff::bigint<6> third = fp::p_minus_1;
  {
    ff::u128 rem = 0;
    for (std::size_t i = 6; i-- > 0;) {
      ff::u128 cur = (rem << 64) | third.w[i];
      third.w[i] = static_cast<uint64_t>(cur / 3);
      rem = cur % 3;
    }
    ASSERT_EQ(rem, 0u);
  }
  fp2 cx = xi.pow(third).inverse();
  fp2 cy = xi.pow(fp::p_minus_1_half).inverse();
  EXPECT_EQ(g2_psi_coeff_x, cx);
  EXPECT_EQ(g2_psi_coeff_y, cy);
  // psi maps the curve to itself and acts as [x] on G2.
  g2_jacobian g = g2_jacobian::generator();
  EXPECT_TRUE(g2_psi(g).is_on_curve());
  EXPECT_EQ(g2_psi(g), mul_by_x(g));
  EXPECT_EQ(g2_psi(g2_affine::generator()), g2_psi(g).to_affine());
}

template <class Curve>
class ec_subgroup : public ::testing::Test {};
using curves = ::testing::Types<g1_curve, g2_curve>;
TYPED_TEST_SUITE(ec_subgroup, curves);

TYPED_TEST(ec_subgroup, FastAgreesWithSlowInSubgroup) {
  using jac = jacobian_point<TypeParam>;
  cuzk::test::seeded_rng rng;
  EXPECT_TRUE(is_in_subgroup(jac::identity()));
  EXPECT_TRUE(is_in_subgroup_slow(jac::identity()));
  EXPECT_TRUE(is_in_subgroup(affine_point<TypeParam>::identity()));
  EXPECT_TRUE(is_in_subgroup(jac::generator()));
  EXPECT_TRUE(is_in_subgroup_slow(jac::generator()));
  for (int it = 0; it < 8; ++it) {
    jac p = random_subgroup_point<TypeParam>(rng);
    EXPECT_TRUE(is_in_subgroup(p));
    EXPECT_TRUE(is_in_subgroup(p.to_affine()));
    EXPECT_TRUE(is_in_subgroup_slow(p));
  }
}

TYPED_TEST(ec_subgroup, FastAgreesWithSlowOutsideSubgroup) {
  using jac = jacobian_point<TypeParam>;
  cuzk::test::seeded_rng rng;
  for (int it = 0; it < 8; ++it) {
    auto a = random_curve_point<TypeParam>(rng);
    ASSERT_TRUE(a.is_on_curve());
    jac p = jac::from_affine(a);
    const bool slow = is_in_subgroup_slow(p);
    EXPECT_FALSE(slow);
    EXPECT_EQ(is_in_subgroup(p), slow);
    EXPECT_EQ(is_in_subgroup(a), slow);
    // [r]P: a pure cofactor-torsion point (order divides h), not the identity.
    jac t = scalar_mul(p, fr::modulus);
    ASSERT_FALSE(t.is_identity());
    EXPECT_FALSE(is_in_subgroup(t));
    EXPECT_FALSE(is_in_subgroup_slow(t));
    // Subgroup point plus a torsion point.
    jac q = random_subgroup_point<TypeParam>(rng) + t;
    EXPECT_FALSE(is_in_subgroup(q));
    EXPECT_FALSE(is_in_subgroup_slow(q));
  }
}

TYPED_TEST(ec_subgroup, ClearingTheCofactorLandsInSubgroup) {
  using jac = jacobian_point<TypeParam>;
  cuzk::test::seeded_rng rng;
  for (int it = 0; it < 4; ++it) {
    jac p = jac::from_affine(random_curve_point<TypeParam>(rng));
    jac c;
    if constexpr (std::is_same_v<TypeParam, g1_curve>) {
      c = scalar_mul(p, g1_cofactor);
    } else {
      c = scalar_mul(p, g2_cofactor);
    }
    EXPECT_FALSE(c.is_identity());
    EXPECT_TRUE(is_in_subgroup_slow(c));
    EXPECT_TRUE(is_in_subgroup(c));
  }
}

TEST(ec_g1_subgroup, OrderThreeComponentIsRejected) {
  // [r h1/3]P has order dividing 3; for the points found here it has order exactly 3.
  cuzk::test::seeded_rng rng;
  int seen = 0;
  for (int it = 0; it < 16 && seen < 2; ++it) {
    g1_jacobian p = g1_jacobian::from_affine(random_curve_point<g1_curve>(rng));
    g1_jacobian t = scalar_mul(scalar_mul(p, fr::modulus), g1_cofactor_third);
    if (t.is_identity()) continue;
    ++seen;
    EXPECT_TRUE((t + t + t).is_identity());
    EXPECT_FALSE(is_in_subgroup(t));
    EXPECT_FALSE(is_in_subgroup_slow(t));
    EXPECT_FALSE(is_in_subgroup(g1_jacobian::generator() + t));
  }
  EXPECT_GT(seen, 0);
}

}  // namespace
}  // namespace cuzk::ec::test
