// Group-law and representation properties of jacobian_point / xyzz_point, for G1 and G2.
#include <gtest/gtest.h>

#include <vector>

#include "ec/point.hpp"
#include "ec_test_util.hpp"
#include "support/seed.hpp"

namespace cuzk::ec::test {
namespace {

template <class Curve>
class ec_point : public ::testing::Test {};
using curves = ::testing::Types<g1_curve, g2_curve>;
TYPED_TEST_SUITE(ec_point, curves);

constexpr int kIters = 16;

TYPED_TEST(ec_point, GeneratorIsOnCurve) {
  using jac = jacobian_point<TypeParam>;
  using xyzz = xyzz_point<TypeParam>;
  EXPECT_TRUE(affine_point<TypeParam>::generator().is_on_curve());
  EXPECT_TRUE(jac::generator().is_on_curve());
  EXPECT_TRUE(xyzz::generator().is_on_curve());
  EXPECT_TRUE(jac::identity().is_on_curve());
  EXPECT_TRUE(xyzz::identity().is_on_curve());
  EXPECT_FALSE(jac::generator().is_identity());
  EXPECT_TRUE(jac::identity().is_identity());
  // Off the curve: nudge y.
  auto g = affine_point<TypeParam>::generator();
  g.y = g.y + TypeParam::field::one();
  EXPECT_FALSE(g.is_on_curve());
  EXPECT_FALSE(jac::from_affine(g).is_on_curve());
  EXPECT_FALSE(xyzz::from_affine(g).is_on_curve());
}

TYPED_TEST(ec_point, GroupLaw) {
  using jac = jacobian_point<TypeParam>;
  cuzk::test::seeded_rng rng;
  const jac o = jac::identity();
  for (int it = 0; it < kIters; ++it) {
    jac a = random_subgroup_point<TypeParam>(rng);
    jac b = random_subgroup_point<TypeParam>(rng);
    jac c = random_subgroup_point<TypeParam>(rng);
    EXPECT_EQ((a + b) + c, a + (b + c)) << "associativity";
    EXPECT_EQ(a + b, b + a) << "commutativity";
    EXPECT_EQ(a + o, a);
    EXPECT_EQ(o + a, a);
    EXPECT_TRUE((a + (-a)).is_identity());
    EXPECT_TRUE((a - a).is_identity());
    EXPECT_EQ((a - b) + b, a);
    EXPECT_TRUE((a + b).is_on_curve());
    EXPECT_TRUE(a.dbl().is_on_curve());
    EXPECT_NE(a, b);
    // Works off the subgroup too (the formulas only need the curve).
    jac p = jac::from_affine(random_curve_point<TypeParam>(rng));
    jac q = jac::from_affine(random_curve_point<TypeParam>(rng));
    EXPECT_EQ((p + q) + a, p + (q + a));
  }
  EXPECT_TRUE((o + o).is_identity());
  EXPECT_TRUE(o.dbl().is_identity());
  EXPECT_TRUE((-o).is_identity());
}

TYPED_TEST(ec_point, DoubleEqualsAddSelf) {
  using jac = jacobian_point<TypeParam>;
  using xyzz = xyzz_point<TypeParam>;
  cuzk::test::seeded_rng rng;
  for (int it = 0; it < kIters; ++it) {
    jac a = random_subgroup_point<TypeParam>(rng);
    auto aa = a.to_affine();
    EXPECT_EQ(a.dbl(), jac::add(a, a));
    EXPECT_EQ(a.dbl(), jac::add_mixed(a, aa));
    xyzz x = xyzz::from_jacobian(a);
    EXPECT_EQ(x.dbl(), xyzz::add(x, x));
    EXPECT_EQ(x.dbl(), xyzz::add_mixed(x, aa));
    EXPECT_EQ(x.dbl(), a.dbl());
    // Doubling via the sum with a different representation of the same point.
    jac a2 = a + jac::identity();
    EXPECT_EQ(jac::add(a, a2.dbl() - a), a.dbl());
  }
}

TYPED_TEST(ec_point, MixedAddEqualsFullAdd) {
  using jac = jacobian_point<TypeParam>;
  using xyzz = xyzz_point<TypeParam>;
  using aff = affine_point<TypeParam>;
  cuzk::test::seeded_rng rng;
  for (int it = 0; it < kIters; ++it) {
    jac a = random_subgroup_point<TypeParam>(rng);
    jac b = random_subgroup_point<TypeParam>(rng);
    aff ba = b.to_affine();
    EXPECT_EQ(a + ba, a + b);
    EXPECT_EQ(xyzz::from_jacobian(a) + ba, a + b);
    EXPECT_TRUE((a - a.to_affine()).is_identity()) << "P + (-P) mixed";
    EXPECT_TRUE((xyzz::from_jacobian(a) - a.to_affine()).is_identity());
    EXPECT_EQ(jac::identity() + ba, b);
    EXPECT_EQ(xyzz::identity() + ba, b);
    EXPECT_EQ(a + aff::identity(), a);
    EXPECT_EQ(xyzz::from_jacobian(a) + aff::identity(), a);
  }
}

TYPED_TEST(ec_point, JacobianAndXyzzAgree) {
  using jac = jacobian_point<TypeParam>;
  using xyzz = xyzz_point<TypeParam>;
  cuzk::test::seeded_rng rng;
  jac j = jac::identity();
  xyzz x = xyzz::identity();
  for (int it = 0; it < 4 * kIters; ++it) {
    jac p = random_subgroup_point<TypeParam>(rng);
    switch (rng() % 4) {
      case 0: j = j + p; x = x + xyzz::from_jacobian(p); break;
      case 1: j = j + p.to_affine(); x = x + p.to_affine(); break;
      case 2: j = j.dbl(); x = x.dbl(); break;
      default: j = j - p; x = x - xyzz::from_jacobian(p); break;
    }
    ASSERT_EQ(j, x);
    ASSERT_TRUE(x.is_on_curve());
    ASSERT_EQ(x.to_jacobian(), j);
    ASSERT_EQ(xyzz::from_jacobian(j), x);
    ASSERT_EQ(x.to_affine(), j.to_affine());
  }
  // Exceptional cases of the full xyzz addition.
  jac p = random_subgroup_point<TypeParam>(rng);
  xyzz px = xyzz::from_jacobian(p);
  EXPECT_TRUE((px + (-px)).is_identity());
  EXPECT_EQ(px + px.to_jacobian().dbl().to_affine(), p.dbl() + p);
  EXPECT_EQ(xyzz::identity().to_jacobian(), jac::identity());
  EXPECT_EQ(xyzz::from_jacobian(jac::identity()), xyzz::identity());
}

TYPED_TEST(ec_point, EqualityAcrossScaledRepresentations) {
  using jac = jacobian_point<TypeParam>;
  using xyzz = xyzz_point<TypeParam>;
  using field = typename TypeParam::field;
  cuzk::test::seeded_rng rng;
  for (int it = 0; it < kIters; ++it) {
    jac a = random_subgroup_point<TypeParam>(rng);
    field l = field::random(rng);
    field l2 = l.square();
    jac scaled{a.X * l2, a.Y * l2 * l, a.Z * l};
    EXPECT_EQ(a, scaled);
    EXPECT_EQ(scaled, a.to_affine());
    EXPECT_TRUE(a.to_affine() == scaled);
    EXPECT_TRUE(xyzz::from_jacobian(a) == a.to_affine() && a.to_affine() == xyzz::from_jacobian(a));
    EXPECT_EQ(a.to_affine(), scaled.to_affine());
    xyzz xs{a.X * l2, a.Y * l2 * l, a.Z.square() * l2, a.Z.square() * a.Z * l2 * l};
    EXPECT_EQ(xs, a);
    EXPECT_EQ(a, xs);
    EXPECT_NE(a, -a);
    EXPECT_NE(a, jac::identity());
    EXPECT_NE(jac::identity(), a);
    EXPECT_EQ(jac::identity(), affine_point<TypeParam>::identity());
  }
}

TYPED_TEST(ec_point, ScalarMultiplication) {
  using jac = jacobian_point<TypeParam>;
  using xyzz = xyzz_point<TypeParam>;
  cuzk::test::seeded_rng rng;
  const jac g = jac::generator();
  // Small multiples against repeated addition.
  jac acc = jac::identity();
  for (uint64_t k = 0; k < 40; ++k) {
    ASSERT_EQ(scalar_mul(g, ff::from_u64<1>(k)), acc) << k;
    ASSERT_EQ(scalar_mul_u64(g, k), acc) << k;
    ASSERT_EQ(g * fr::from_u64(k), acc) << k;
    acc = acc + g;
  }
  for (int it = 0; it < kIters / 2; ++it) {
    fr a = fr::random(rng);
    fr b = fr::random(rng);
    jac p = random_subgroup_point<TypeParam>(rng);
    EXPECT_EQ(scalar_mul(scalar_mul(p, b), a), scalar_mul(p, a * b)) << "[a]([b]P) == [ab]P";
    EXPECT_EQ(p * a + p * b, p * (a + b));
    EXPECT_EQ(-(p * a), p * (-a));
    EXPECT_EQ(xyzz::from_jacobian(p) * a, p * a);
  }
  // [x]P agrees with the generic multiplication by x mod r (x is negative).
  jac p = random_subgroup_point<TypeParam>(rng);
  EXPECT_EQ(mul_by_x(p), p * (-fr::from_u64(bls_x_abs)));
}

TYPED_TEST(ec_point, OrderAnnihilates) {
  using jac = jacobian_point<TypeParam>;
  cuzk::test::seeded_rng rng;
  const jac g = jac::generator();
  EXPECT_TRUE(scalar_mul(g, fr::modulus).is_identity());
  EXPECT_EQ(scalar_mul(g, fr::p_minus_1), -g);
  for (int it = 0; it < 4; ++it) {
    jac p = random_subgroup_point<TypeParam>(rng);
    EXPECT_TRUE(scalar_mul(p, fr::modulus).is_identity());
    EXPECT_TRUE(scalar_mul(xyzz_point<TypeParam>::from_jacobian(p), fr::modulus).is_identity());
  }
}

TYPED_TEST(ec_point, BatchToAffine) {
  using jac = jacobian_point<TypeParam>;
  using xyzz = xyzz_point<TypeParam>;
  using aff = affine_point<TypeParam>;
  cuzk::test::seeded_rng rng;
  std::vector<jac> pts;
  for (int i = 0; i < 20; ++i) {
    pts.push_back((i % 7 == 3) ? jac::identity() : random_subgroup_point<TypeParam>(rng));
  }
  std::vector<aff> out(pts.size());
  batch_to_affine(std::span<const jac>(pts), std::span<aff>(out));
  std::vector<xyzz> xs;
  for (const auto& p : pts) xs.push_back(xyzz::from_jacobian(p));
  std::vector<aff> out2(pts.size());
  batch_to_affine(std::span<const xyzz>(xs), std::span<aff>(out2));
  for (std::size_t i = 0; i < pts.size(); ++i) {
    EXPECT_EQ(out[i], pts[i].to_affine()) << i;
    EXPECT_EQ(out2[i], pts[i].to_affine()) << i;
    EXPECT_EQ(out[i].infinity, pts[i].is_identity());
    EXPECT_TRUE(out[i].is_on_curve());
    if (!out[i].infinity) {
      EXPECT_EQ(out[i].x, pts[i].to_affine().x);
      EXPECT_EQ(out[i].y, pts[i].to_affine().y);
    }
  }
  // Empty and all-identity inputs.
  batch_to_affine(std::span<const jac>(), std::span<aff>());
  std::vector<jac> ids(3, jac::identity());
  std::vector<aff> out3(3);
  batch_to_affine(std::span<const jac>(ids), std::span<aff>(out3));
  for (const auto& a : out3) EXPECT_TRUE(a.infinity);
}

}  // namespace
}  // namespace cuzk::ec::test
