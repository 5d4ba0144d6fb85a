// Fp2 = Fp[u] / (u^2 + 1), the field G2 lives over. Element c0 + c1*u.
// Cost notes use M, S, A for base-field multiply, square, add.
#pragma once

#include "ff/bls12_381.hpp"

namespace cuzk::ff {

template <class Fp>
struct quadratic_ext {
  Fp c0, c1;

  CUZK_HD_CONSTEXPR static quadratic_ext zero() { return {Fp::zero(), Fp::zero()}; }
  CUZK_HD_CONSTEXPR static quadratic_ext one() { return {Fp::one(), Fp::zero()}; }

  CUZK_HD_CONSTEXPR bool is_zero() const { return c0.is_zero() && c1.is_zero(); }
  CUZK_HD_CONSTEXPR bool is_one() const { return c0.is_one() && c1.is_zero(); }
  CUZK_HD_CONSTEXPR bool operator==(const quadratic_ext& o) const { return c0 == o.c0 && c1 == o.c1; }
  CUZK_HD_CONSTEXPR bool operator!=(const quadratic_ext& o) const { return !(*this == o); }

  CUZK_HD_CONSTEXPR quadratic_ext operator+(const quadratic_ext& o) const { return {c0 + o.c0, c1 + o.c1}; }
  CUZK_HD_CONSTEXPR quadratic_ext operator-(const quadratic_ext& o) const { return {c0 - o.c0, c1 - o.c1}; }
  CUZK_HD_CONSTEXPR quadratic_ext operator-() const { return {-c0, -c1}; }
  CUZK_HD_CONSTEXPR quadratic_ext& operator+=(const quadratic_ext& o) { return *this = *this + o; }
  CUZK_HD_CONSTEXPR quadratic_ext& operator-=(const quadratic_ext& o) { return *this = *this - o; }
  CUZK_HD_CONSTEXPR quadratic_ext& operator*=(const quadratic_ext& o) { return *this = *this * o; }
  CUZK_HD_CONSTEXPR quadratic_ext dbl() const { return {c0 + c0, c1 + c1}; }

  // Karatsuba: 3M + 5A.
  CUZK_HD_CONSTEXPR quadratic_ext operator*(const quadratic_ext& o) const {
    Fp v0 = c0 * o.c0;
    Fp v1 = c1 * o.c1;
    Fp s = (c0 + c1) * (o.c0 + o.c1);
    return {v0 - v1, s - v0 - v1};
  }
  CUZK_HD_CONSTEXPR quadratic_ext mul_by_fp(const Fp& k) const { return {c0 * k, c1 * k}; }

  // Complex squaring: (c0 + c1)(c0 - c1) + 2 c0 c1 u. 2M + 3A.
  CUZK_HD_CONSTEXPR quadratic_ext square() const {
    Fp t = c0 * c1;
    return {(c0 + c1) * (c0 - c1), t + t};
  }

  // Multiply by the sextic non-residue xi = u + 1 used to build Fp6: (c0 - c1) + (c0 + c1) u.
  CUZK_HD_CONSTEXPR quadratic_ext mul_by_nonresidue() const { return {c0 - c1, c0 + c1}; }

  CUZK_HD_CONSTEXPR quadratic_ext conjugate() const { return {c0, -c1}; }
  // x^(p^k): conjugation for odd k (u^p = -u because p = 3 mod 4), identity for even k.
  CUZK_HD_CONSTEXPR quadratic_ext frobenius(unsigned k) const { return (k & 1) ? conjugate() : *this; }

  CUZK_HD_CONSTEXPR Fp norm() const { return c0.square() + c1.square(); }

  // 1 / (c0 + c1 u) = (c0 - c1 u) / (c0^2 + c1^2). inverse(0) = 0. 1 Fp inversion + 2S + 2M.
  CUZK_HD_CONSTEXPR quadratic_ext inverse() const {
    Fp t = norm().inverse();
    return {c0 * t, -(c1 * t)};
  }

  template <std::size_t M>
  CUZK_HD_CONSTEXPR quadratic_ext pow(const bigint<M>& e) const {
    quadratic_ext acc = one();
    for (std::size_t i = bit_length(e); i-- > 0;) {
      acc = acc.square();
      if (test_bit(e, i)) acc = acc * *this;
    }
    return acc;
  }

  // Square root for p = 3 mod 4 (Adj and Rodriguez-Henriquez, "Square root computation over
  // even extension fields", Algorithm 9). Returns false when a is not a square.
  CUZK_HD_CONSTEXPR bool sqrt(quadratic_ext& out) const {
    if (is_zero()) {
      out = zero();
      return true;
    }
    constexpr auto e1 = p_minus_3_quarter;
    constexpr auto e2 = Fp::p_minus_1_half;
    quadratic_ext a1 = pow(e1);
    quadratic_ext alpha = a1.square() * *this;
    quadratic_ext a0 = alpha.frobenius(1) * alpha;  // = alpha^(p+1), the norm of alpha
    const quadratic_ext minus_one = {-Fp::one(), Fp::zero()};
    if (a0 == minus_one) return false;
    quadratic_ext x0 = a1 * *this;
    quadratic_ext x;
    if (alpha == minus_one) {
      x = {-x0.c1, x0.c0};  // u * x0
    } else {
      quadratic_ext b = (alpha + one()).pow(e2);
      x = b * x0;
    }
    if (x.square() != *this) return false;
    out = x;
    return true;
  }

  // Zcash's sign rule for Fp2 (used by compressed G2): compare c1 first, c0 if c1 is zero.
  CUZK_HD_CONSTEXPR bool is_lexicographically_largest() const {
    if (!c1.is_zero()) return c1.is_lexicographically_largest();
    return c0.is_lexicographically_largest();
  }

  template <class Rng>
  static quadratic_ext random(Rng& rng) {
    Fp a = Fp::random(rng);
    return {a, Fp::random(rng)};
  }

  static constexpr auto p_minus_3_quarter = [] {
    auto e = Fp::p_plus_1_quarter;  // (p+1)/4 - 1 = (p-3)/4
    sub_in_place(e, from_u64<Fp::N>(1));
    return e;
  }();
};

using fp2 = quadratic_ext<fp>;

}  // namespace cuzk::ff
