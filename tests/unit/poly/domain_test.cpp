// radix2_domain: sizes, roots of unity and coset constants as bellperson's EvaluationDomain.
#include <gtest/gtest.h>

#include <stdexcept>

#include "poly/domain.hpp"

namespace cuzk::poly {
namespace {

TEST(Radix2Domain, SizesRoundUpToPowersOfTwo) {
  EXPECT_EQ(radix2_domain(0).size(), 1u);
  EXPECT_EQ(radix2_domain(1).size(), 1u);
  EXPECT_EQ(radix2_domain(2).size(), 2u);
  EXPECT_EQ(radix2_domain(3).size(), 4u);
  EXPECT_EQ(radix2_domain(1024).size(), 1024u);
  EXPECT_EQ(radix2_domain(1025).size(), 2048u);
  EXPECT_EQ(radix2_domain(1025).log_size(), 11u);
  EXPECT_EQ(radix2_domain(std::size_t{1} << 32).log_size(), 32u);
  EXPECT_THROW(radix2_domain((std::size_t{1} << 32) + 1), std::length_error);
  EXPECT_THROW(radix2_domain::of_log_size(33), std::length_error);
  EXPECT_EQ(radix2_domain::of_log_size(20).size(), std::size_t{1} << 20);
}

TEST(Radix2Domain, RootOfUnityIsBellpersons) {
  // 7^t, primitive of order 2^32.
  fr w = fr_root_of_unity_2_32;
  for (int i = 0; i < 31; ++i) w = w.square();
  EXPECT_EQ(w, -fr::one());
  EXPECT_TRUE(w.square().is_one());
  // Not the Tonelli-Shanks root (smallest non-residue 5): that would shuffle the domain.
  EXPECT_EQ(ff::tonelli_shanks_data<fr>::nonresidue, 5u);
  EXPECT_NE(fr_root_of_unity_2_32, fr::from_montgomery_repr(ff::tonelli_shanks_data<fr>::root_of_unity));
}

TEST(Radix2Domain, ConstantsForEverySize) {
  const fr g = fr::from_u64(7);
  for (unsigned k = 0; k <= 32; ++k) {
    const radix2_domain d = radix2_domain::of_log_size(k);
    const uint64_t n = uint64_t{1} << k;
    // omega^n == 1 and (k >= 1) omega^(n/2) == -1: n-th root, primitive.
    fr w = d.omega();
    for (unsigned i = 0; i + 1 < k; ++i) w = w.square();
    if (k >= 1) {
      EXPECT_EQ(w, -fr::one()) << "k=" << k;
    }
    EXPECT_TRUE((k >= 1 ? w.square() : w).is_one()) << "k=" << k;
    EXPECT_EQ(d.omega().pow_u64(n), fr::one()) << "k=" << k;
    EXPECT_TRUE((d.omega() * d.omega_inv()).is_one());
    EXPECT_TRUE((d.size_inv() * fr::from_u64(n)).is_one());
    EXPECT_EQ(d.coset_generator(), g);
    EXPECT_TRUE((d.coset_generator() * d.coset_generator_inv()).is_one());
    EXPECT_EQ(d.z_on_coset(), g.pow_u64(n) - fr::one());
    EXPECT_FALSE(d.z_on_coset().is_zero());
    EXPECT_TRUE((d.z_on_coset() * d.z_on_coset_inv()).is_one());
    if (k < 32) {
      EXPECT_EQ(d.element(3), d.omega() * d.omega() * d.omega());
    }
    // omega for k is the square of omega for k + 1 (bellperson squares down from 2^32).
    if (k < 32) {
      EXPECT_EQ(radix2_domain::of_log_size(k + 1).omega().square(), d.omega());
    }
  }
  EXPECT_EQ(radix2_domain::of_log_size(32).omega(), fr_root_of_unity_2_32);
}

}  // namespace
}  // namespace cuzk::poly
