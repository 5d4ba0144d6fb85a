// Fp6 = Fp2[v] / (v^3 - xi), xi = u + 1: the middle floor of BLS12-381's pairing tower
// Fp -> Fp2 -> Fp6 -> Fp12. Element c0 + c1 v + c2 v^2.
//
// Cost notes count Fp2 operations: m (multiply, 3M+5A in Fp), s (square, 2M), a (add); the
// multiplication by xi (fp2::mul_by_nonresidue) is 2 Fp additions and counted as an add.
//
// The Frobenius table below also serves Fp12 (fp12.hpp): with w^6 = xi, every Frobenius
// coefficient of the tower is a power xi^(j (p^k - 1) / 6).
#pragma once

#include <cstddef>

#include "ff/fp2.hpp"

namespace cuzk::ff {

namespace detail {

// frobenius_gamma[k - 1][j - 1] = xi^(j (p^k - 1) / 6) for k, j in 1..5, so that
//   w^(j p^k) = w^j * frobenius_gamma[k - 1][j - 1]    (w^6 = xi; j = 0 or k = 0 give 1)
// and, since v = w^2, v^(p^k) = v * gamma[k][2], v^(2 p^k) = v^2 * gamma[k][4].
// Values are canonical (c0, c1) pairs; they were computed with Python big integers as
// pow(1 + u, j * (p^k - 1) // 6) in Fp2 and are recomputed with this library's own arithmetic
// by tests/unit/pairing (FrobeniusCoefficients). p = 1 mod 6, so the exponents are integers.
// Row k = 6..11 is not needed: x^(p^(k+6)) = conj(x^(p^k)) in Fp12 and Fp6 has period 6.
// Even k give elements of Fp (their conjugates equal themselves), which multiply in 2M
// instead of 3M; see mul_gamma.
inline constexpr fp2 frobenius_gamma[5][5] = {
    // k = 1
    {{fp::from_hex("1904d3bf02bb0667c231beb4202c0d1f0fd603fd3cbd5f4f7b2443d784bab9c4f67ea53d63e7813d8d0775ed92235fb8"),
      fp::from_hex("00fc3e2b36c4e03288e9e902231f9fb854a14787b6c7b36fec0c8ec971f63c5f282d5ac14d6c7ec22cf78a126ddc4af3")},
     {fp::from_hex("0"),
      fp::from_hex("1a0111ea397fe699ec02408663d4de85aa0d857d89759ad4897d29650fb85f9b409427eb4f49fffd8bfd00000000aaac")},
     {fp::from_hex("06af0e0437ff400b6831e36d6bd17ffe48395dabc2d3435e77f76e17009241c5ee67992f72ec05f4c81084fbede3cc09"),
      fp::from_hex("06af0e0437ff400b6831e36d6bd17ffe48395dabc2d3435e77f76e17009241c5ee67992f72ec05f4c81084fbede3cc09")},
     {fp::from_hex("1a0111ea397fe699ec02408663d4de85aa0d857d89759ad4897d29650fb85f9b409427eb4f49fffd8bfd00000000aaad"),
      fp::from_hex("0")},
     {fp::from_hex("05b2cfd9013a5fd8df47fa6b48b1e045f39816240c0b8fee8beadf4d8e9c0566c63a3e6e257f87329b18fae980078116"),
      fp::from_hex("144e4211384586c16bd3ad4afa99cc9170df3560e77982d0db45f3536814f0bd5871c1908bd478cd1ee605167ff82995")}},
    // k = 2
    {{fp::from_hex("00000000000000005f19672fdf76ce51ba69c6076a0f77eaddb3a93be6f89688de17d813620a00022e01fffffffeffff"),
      fp::from_hex("0")},
     {fp::from_hex("00000000000000005f19672fdf76ce51ba69c6076a0f77eaddb3a93be6f89688de17d813620a00022e01fffffffefffe"),
      fp::from_hex("0")},
     {fp::from_hex("1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153ffffb9feffffffffaaaa"),
      fp::from_hex("0")},
     {fp::from_hex("1a0111ea397fe699ec02408663d4de85aa0d857d89759ad4897d29650fb85f9b409427eb4f49fffd8bfd00000000aaac"),
      fp::from_hex("0")},
     {fp::from_hex("1a0111ea397fe699ec02408663d4de85aa0d857d89759ad4897d29650fb85f9b409427eb4f49fffd8bfd00000000aaad"),
      fp::from_hex("0")}},
    // k = 3
    {{fp::from_hex("135203e60180a68ee2e9c448d77a2cd91c3dedd930b1cf60ef396489f61eb45e304466cf3e67fa0af1ee7b04121bdea2"),
      fp::from_hex("06af0e0437ff400b6831e36d6bd17ffe48395dabc2d3435e77f76e17009241c5ee67992f72ec05f4c81084fbede3cc09")},
     {fp::from_hex("0"), fp::from_hex("1")},
     {fp::from_hex("135203e60180a68ee2e9c448d77a2cd91c3dedd930b1cf60ef396489f61eb45e304466cf3e67fa0af1ee7b04121bdea2"),
      fp::from_hex("135203e60180a68ee2e9c448d77a2cd91c3dedd930b1cf60ef396489f61eb45e304466cf3e67fa0af1ee7b04121bdea2")},
     {fp::from_hex("1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153ffffb9feffffffffaaaa"),
      fp::from_hex("0")},
     {fp::from_hex("06af0e0437ff400b6831e36d6bd17ffe48395dabc2d3435e77f76e17009241c5ee67992f72ec05f4c81084fbede3cc09"),
      fp::from_hex("135203e60180a68ee2e9c448d77a2cd91c3dedd930b1cf60ef396489f61eb45e304466cf3e67fa0af1ee7b04121bdea2")}},
    // k = 4
    {{fp::from_hex("00000000000000005f19672fdf76ce51ba69c6076a0f77eaddb3a93be6f89688de17d813620a00022e01fffffffefffe"),
      fp::from_hex("0")},
     {fp::from_hex("1a0111ea397fe699ec02408663d4de85aa0d857d89759ad4897d29650fb85f9b409427eb4f49fffd8bfd00000000aaac"),
      fp::from_hex("0")},
     {fp::from_hex("1"), fp::from_hex("0")},
     {fp::from_hex("00000000000000005f19672fdf76ce51ba69c6076a0f77eaddb3a93be6f89688de17d813620a00022e01fffffffefffe"),
      fp::from_hex("0")},
     {fp::from_hex("1a0111ea397fe699ec02408663d4de85aa0d857d89759ad4897d29650fb85f9b409427eb4f49fffd8bfd00000000aaac"),
      fp::from_hex("0")}},
    // k = 5
    {{fp::from_hex("144e4211384586c16bd3ad4afa99cc9170df3560e77982d0db45f3536814f0bd5871c1908bd478cd1ee605167ff82995"),
      fp::from_hex("05b2cfd9013a5fd8df47fa6b48b1e045f39816240c0b8fee8beadf4d8e9c0566c63a3e6e257f87329b18fae980078116")},
     {fp::from_hex("0"),
      fp::from_hex("00000000000000005f19672fdf76ce51ba69c6076a0f77eaddb3a93be6f89688de17d813620a00022e01fffffffefffe")},
     {fp::from_hex("06af0e0437ff400b6831e36d6bd17ffe48395dabc2d3435e77f76e17009241c5ee67992f72ec05f4c81084fbede3cc09"),
      fp::from_hex("06af0e0437ff400b6831e36d6bd17ffe48395dabc2d3435e77f76e17009241c5ee67992f72ec05f4c81084fbede3cc09")},
     {fp::from_hex("00000000000000005f19672fdf76ce51ba69c6076a0f77eaddb3a93be6f89688de17d813620a00022e01fffffffeffff"),
      fp::from_hex("0")},
     {fp::from_hex("00fc3e2b36c4e03288e9e902231f9fb854a14787b6c7b36fec0c8ec971f63c5f282d5ac14d6c7ec22cf78a126ddc4af3"),
      fp::from_hex("1904d3bf02bb0667c231beb4202c0d1f0fd603fd3cbd5f4f7b2443d784bab9c4f67ea53d63e7813d8d0775ed92235fb8")}},
};

// a * xi^(j (p^k - 1) / 6) for k in 1..5, j in 1..5. For even k the coefficient lies in Fp:
// 2M instead of 3M+5A.
CUZK_HD_CONSTEXPR fp2 mul_gamma(const fp2& a, unsigned k, unsigned j) {
  const fp2& g = frobenius_gamma[k - 1][j - 1];
  if ((k & 1) == 0) return a.mul_by_fp(g.c0);
  return a * g;
}

}  // namespace detail

struct fp6 {
  fp2 c0, c1, c2;

  CUZK_HD_CONSTEXPR static fp6 zero() { return {fp2::zero(), fp2::zero(), fp2::zero()}; }
  CUZK_HD_CONSTEXPR static fp6 one() { return {fp2::one(), fp2::zero(), fp2::zero()}; }

  CUZK_HD_CONSTEXPR bool is_zero() const { return c0.is_zero() && c1.is_zero() && c2.is_zero(); }
  CUZK_HD_CONSTEXPR bool is_one() const { return c0.is_one() && c1.is_zero() && c2.is_zero(); }
  CUZK_HD_CONSTEXPR bool operator==(const fp6& o) const { return c0 == o.c0 && c1 == o.c1 && c2 == o.c2; }
  CUZK_HD_CONSTEXPR bool operator!=(const fp6& o) const { return !(*this == o); }

  CUZK_HD_CONSTEXPR fp6 operator+(const fp6& o) const { return {c0 + o.c0, c1 + o.c1, c2 + o.c2}; }
  CUZK_HD_CONSTEXPR fp6 operator-(const fp6& o) const { return {c0 - o.c0, c1 - o.c1, c2 - o.c2}; }
  CUZK_HD_CONSTEXPR fp6 operator-() const { return {-c0, -c1, -c2}; }
  CUZK_HD_CONSTEXPR fp6& operator+=(const fp6& o) { return *this = *this + o; }
  CUZK_HD_CONSTEXPR fp6& operator-=(const fp6& o) { return *this = *this - o; }
  CUZK_HD_CONSTEXPR fp6& operator*=(const fp6& o) { return *this = *this * o; }
  CUZK_HD_CONSTEXPR fp6 dbl() const { return {c0.dbl(), c1.dbl(), c2.dbl()}; }

  // Multiply by v (the non-residue that builds Fp12 = Fp6[w]/(w^2 - v)):
  // (c0 + c1 v + c2 v^2) v = xi c2 + c0 v + c1 v^2. 1a.
  CUZK_HD_CONSTEXPR fp6 mul_by_nonresidue() const { return {c2.mul_by_nonresidue(), c0, c1}; }

  // Karatsuba over the three coefficients: 6m + 15a (instead of 9m schoolbook).
  //   c0 = a0b0 + xi ((a1 + a2)(b1 + b2) - a1b1 - a2b2)
  //   c1 = (a0 + a1)(b0 + b1) - a0b0 - a1b1 + xi a2b2
  //   c2 = (a0 + a2)(b0 + b2) - a0b0 - a2b2 + a1b1
  CUZK_HD_CONSTEXPR fp6 operator*(const fp6& o) const {
    const fp2 t0 = c0 * o.c0;
    const fp2 t1 = c1 * o.c1;
    const fp2 t2 = c2 * o.c2;
    const fp2 r0 = ((c1 + c2) * (o.c1 + o.c2) - t1 - t2).mul_by_nonresidue() + t0;
    const fp2 r1 = (c0 + c1) * (o.c0 + o.c1) - t0 - t1 + t2.mul_by_nonresidue();
    const fp2 r2 = (c0 + c2) * (o.c0 + o.c2) - t0 - t2 + t1;
    return {r0, r1, r2};
  }

  // Chung-Hasan SQR2 ("Asymmetric squaring formulae", 2007): 2m + 3s + ~10a.
  //   s0 = a0^2, s1 = 2 a0 a1, s2 = (a0 - a1 + a2)^2, s3 = 2 a1 a2, s4 = a2^2
  //   c0 = s0 + xi s3, c1 = s1 + xi s4, c2 = s1 + s2 + s3 - s0 - s4 (= a1^2 + 2 a0 a2)
  CUZK_HD_CONSTEXPR fp6 square() const {
    const fp2 s0 = c0.square();
    const fp2 s1 = (c0 * c1).dbl();
    const fp2 s2 = (c0 - c1 + c2).square();
    const fp2 s3 = (c1 * c2).dbl();
    const fp2 s4 = c2.square();
    return {s3.mul_by_nonresidue() + s0, s4.mul_by_nonresidue() + s1, s1 + s2 + s3 - s0 - s4};
  }

  // Multiply by an element of Fp2: 3m.
  CUZK_HD_CONSTEXPR fp6 mul_by_fp2(const fp2& k) const { return {c0 * k, c1 * k, c2 * k}; }

  // Multiply by b0 + b1 v (sparse; b2 = 0): 5m. Karatsuba with the b2 terms dropped:
  //   c0 = a0b0 + xi a2b1, c1 = (a0 + a1)(b0 + b1) - a0b0 - a1b1, c2 = a1b1 + a2b0.
  CUZK_HD_CONSTEXPR fp6 mul_by_01(const fp2& b0, const fp2& b1) const {
    const fp2 t0 = c0 * b0;
    const fp2 t1 = c1 * b1;
    return {(c2 * b1).mul_by_nonresidue() + t0, (c0 + c1) * (b0 + b1) - t0 - t1, c2 * b0 + t1};
  }

  // Multiply by b1 v (sparse; b0 = b2 = 0): 3m.  (a0 + a1 v + a2 v^2) b1 v = xi a2b1 + a0b1 v + a1b1 v^2.
  CUZK_HD_CONSTEXPR fp6 mul_by_1(const fp2& b1) const {
    return {(c2 * b1).mul_by_nonresidue(), c0 * b1, c1 * b1};
  }

  // Inverse through the adjugate: with
  //   A = a0^2 - xi a1a2, B = xi a2^2 - a0a1, C = a1^2 - a0a2,
  // (a0 + a1 v + a2 v^2)(A + B v + C v^2) = a0 A + xi (a2 B + a1 C) =: F in Fp2, so
  // the inverse is (A, B, C) / F. 9m + 3s + one Fp2 inversion. inverse(0) = 0.
  CUZK_HD_CONSTEXPR fp6 inverse() const {
    const fp2 A = c0.square() - (c1 * c2).mul_by_nonresidue();
    const fp2 B = c2.square().mul_by_nonresidue() - c0 * c1;
    const fp2 C = c1.square() - c0 * c2;
    const fp2 F = c0 * A + (c2 * B + c1 * C).mul_by_nonresidue();
    const fp2 t = F.inverse();
    return {A * t, B * t, C * t};
  }

  // x^(p^k). Each Fp2 coefficient goes to its conjugate for odd k, and
  // v^(p^k) = xi^((p^k - 1)/3) v, v^(2p^k) = xi^(2(p^k - 1)/3) v^2. Period 6.
  // Cost: 4m (odd k) or 4M (even k).
  CUZK_HD_CONSTEXPR fp6 frobenius(unsigned k) const {
    k %= 6;
    if (k == 0) return *this;
    return {c0.frobenius(k), detail::mul_gamma(c1.frobenius(k), k, 2), detail::mul_gamma(c2.frobenius(k), k, 4)};
  }

  template <class Rng>
  static fp6 random(Rng& rng) {
    fp2 a = fp2::random(rng);
    fp2 b = fp2::random(rng);
    return {a, b, fp2::random(rng)};
  }
};

}  // namespace cuzk::ff
