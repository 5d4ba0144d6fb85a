// Shared helpers for the ec tests: random subgroup points, random points outside the subgroup
// (cofactor not cleared), and the cofactors.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>

#include "ec/point.hpp"
#include "ec/subgroup.hpp"

namespace cuzk::ec::test {

// h1 = (x - 1)^2 / 3, the G1 cofactor.
inline constexpr ff::bigint<2> g1_cofactor = ff::hex<2>("396c8c005555e1568c00aaab0000aaab");
// h1 / 3 (3 divides h1, so [r * h1/3]P has order 1 or 3).
inline constexpr ff::bigint<2> g1_cofactor_third = ff::hex<2>("13242eaac71ca0722eaae38e55558e39");
// h2, the G2 cofactor: #E'(Fp2) = h2 * r (checked numerically in subgroup_test).
inline constexpr ff::bigint<8> g2_cofactor = ff::hex<8>(
    "5d543a95414e7f1091d50792876a202cd91de4547085abaa68a205b2e5a7ddfa"
    "628f1cb4d9e82ef21537e293a6691ae1616ec6e786f0c70cf1c38e31c7238e5");

template <class Curve>
struct curve_traits;
template <>
struct curve_traits<g1_curve> {
  static constexpr const char* name = "G1";
};
template <>
struct curve_traits<g2_curve> {
  static constexpr const char* name = "G2";
};

template <class Curve, class Rng>
jacobian_point<Curve> random_subgroup_point(Rng& rng) {
  return scalar_mul(jacobian_point<Curve>::generator(), fr::random(rng));
}

// A point of E (not E's subgroup): random x until x^3 + b is a square, random root sign.
// Lies in the order-r subgroup with probability 1/h (~2^-126 for G1), i.e. never.
template <class Curve, class Rng>
affine_point<Curve> random_curve_point(Rng& rng) {
  using field = typename Curve::field;
  for (;;) {
    field x = field::random(rng);
    field y;
    if ((x.square() * x + Curve::b).sqrt(y)) {
      if (rng() & 1) y = -y;
      return {x, y, false};
    }
  }
}

}  // namespace cuzk::ec::test
