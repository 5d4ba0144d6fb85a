// Fp12 = Fp6[w] / (w^2 - v): the top of BLS12-381's tower and the home of the pairing group
// GT (the r-th roots of unity). Element c0 + c1 w, c0 and c1 in Fp6. Since v = w^2 and
// v^3 = xi, w^6 = xi: the twelve Fp coordinates of an element are the Fp2 coefficients of
// 1, w, w^2, ..., w^5, stored as c0 = (w^0, w^2, w^4) and c1 = (w^1, w^3, w^5).
//
// Cost notes count Fp2 operations (m = 3M+5A in Fp, s = 2M) as in fp6.hpp.
#pragma once

#include <cstddef>
#include <cstdint>

#include "ff/fp6.hpp"

namespace cuzk::ff {

struct fp12 {
  fp6 c0, c1;

  static constexpr std::size_t bytes = 12 * fp::bytes;  // 576

  CUZK_HD_CONSTEXPR static fp12 zero() { return {fp6::zero(), fp6::zero()}; }
  CUZK_HD_CONSTEXPR static fp12 one() { return {fp6::one(), fp6::zero()}; }

  CUZK_HD_CONSTEXPR bool is_zero() const { return c0.is_zero() && c1.is_zero(); }
  CUZK_HD_CONSTEXPR bool is_one() const { return c0.is_one() && c1.is_zero(); }
  CUZK_HD_CONSTEXPR bool operator==(const fp12& o) const { return c0 == o.c0 && c1 == o.c1; }
  CUZK_HD_CONSTEXPR bool operator!=(const fp12& o) const { return !(*this == o); }

  CUZK_HD_CONSTEXPR fp12 operator+(const fp12& o) const { return {c0 + o.c0, c1 + o.c1}; }
  CUZK_HD_CONSTEXPR fp12 operator-(const fp12& o) const { return {c0 - o.c0, c1 - o.c1}; }
  CUZK_HD_CONSTEXPR fp12 operator-() const { return {-c0, -c1}; }
  CUZK_HD_CONSTEXPR fp12& operator+=(const fp12& o) { return *this = *this + o; }
  CUZK_HD_CONSTEXPR fp12& operator-=(const fp12& o) { return *this = *this - o; }
  CUZK_HD_CONSTEXPR fp12& operator*=(const fp12& o) { return *this = *this * o; }

  // Karatsuba: (a0 + a1 w)(b0 + b1 w) = a0b0 + v a1b1 + ((a0 + a1)(b0 + b1) - a0b0 - a1b1) w.
  // 3 Fp6 multiplications = 18m (54M).
  CUZK_HD_CONSTEXPR fp12 operator*(const fp12& o) const {
    const fp6 t0 = c0 * o.c0;
    const fp6 t1 = c1 * o.c1;
    return {t1.mul_by_nonresidue() + t0, (c0 + c1) * (o.c0 + o.c1) - t0 - t1};
  }

  // Complex squaring: with t = a0 a1,
  //   (a0 + a1 w)^2 = (a0 + a1)(a0 + v a1) - t - v t + 2t w.
  // 2 Fp6 multiplications = 12m (36M). Use cyclotomic_square for elements of the cyclotomic
  // subgroup (after the easy part of the final exponentiation).
  CUZK_HD_CONSTEXPR fp12 square() const {
    const fp6 t = c0 * c1;
    const fp6 r0 = (c0 + c1) * (c0 + c1.mul_by_nonresidue()) - t - t.mul_by_nonresidue();
    return {r0, t.dbl()};
  }

  // Multiply by the sparse element l = l0 + l1 v + l4 v w, i.e. slots c0.c0, c0.c1, c1.c1 --
  // the shape of a Miller-loop line on the M-type twist evaluated at a G1 point (see
  // pairing/pairing.hpp). With L0 = l0 + l1 v and L1 = l4 v:
  //   f L = f0 L0 + v f1 L1 + ((f0 + f1)(L0 + L1) - f0 L0 - f1 L1) w.
  // 5m + 3m + 5m = 13m (39M), against 18m for a full product.
  CUZK_HD_CONSTEXPR fp12 mul_by_014(const fp2& l0, const fp2& l1, const fp2& l4) const {
    const fp6 t0 = c0.mul_by_01(l0, l1);
    const fp6 t1 = c1.mul_by_1(l4);
    const fp6 s = (c0 + c1).mul_by_01(l0, l1 + l4);
    return {t1.mul_by_nonresidue() + t0, s - t0 - t1};
  }

  // x^(p^6): w^(p^6) = -w, Fp6 fixed. For elements of the cyclotomic subgroup (norm 1 over
  // Fp6, e.g. anything raised to p^6 - 1) this is the inverse.
  CUZK_HD_CONSTEXPR fp12 conjugate() const { return {c0, -c1}; }

  // 1 / (a0 + a1 w) = (a0 - a1 w) / (a0^2 - v a1^2). One Fp6 inversion + 2 Fp6 squares + 2 Fp6
  // multiplications. inverse(0) = 0.
  CUZK_HD_CONSTEXPR fp12 inverse() const {
    const fp6 t = (c0.square() - c1.square().mul_by_nonresidue()).inverse();
    return {c0 * t, -(c1 * t)};
  }

  // x^(p^k) for any k (taken mod 12). Each Fp2 coefficient of w^j goes to its conjugate for odd
  // k and is multiplied by xi^(j (p^k - 1)/6) (w^(j p^k) = w^j xi^(j (p^k - 1)/6));
  // x^(p^(k+6)) = conj(x^(p^k)). Cost: 5m (odd k) or 10M (even k).
  CUZK_HD_CONSTEXPR fp12 frobenius(unsigned k) const {
    k %= 12;
    if (k >= 6) return frobenius(k - 6).conjugate();
    if (k == 0) return *this;
    using detail::mul_gamma;
    // Slots: c0 = (w^0, w^2, w^4), c1 = (w^1, w^3, w^5).
    return {{c0.c0.frobenius(k), mul_gamma(c0.c1.frobenius(k), k, 2), mul_gamma(c0.c2.frobenius(k), k, 4)},
            {mul_gamma(c1.c0.frobenius(k), k, 1), mul_gamma(c1.c1.frobenius(k), k, 3),
             mul_gamma(c1.c2.frobenius(k), k, 5)}};
  }

  // Granger-Scott squaring ("Faster squaring in the cyclotomic subgroup of sixth degree
  // extensions", PKC 2010). Valid only for x in the cyclotomic subgroup
  // G_Phi12(p) = {x : x^(p^4 - p^2 + 1) = 1} (= G_Phi6(p^2), the group the paper treats), which
  // holds for every f^((p^6 - 1)(p^2 + 1)), i.e. after the easy part of the final exponentiation.
  // View Fp12 as Fp4[w]/(w^3 - s) with Fp4 = Fp2[s]/(s^2 - xi), s = w^3:
  //   x = A + B w + C w^2,  A = a0 + b1 s,  B = b0 + a2 s,  C = a1 + b2 s
  // (a = c0, b = c1 coefficients). Then
  //   x^2 = (3A^2 - 2 conj(A)) + (3 s C^2 + 2 conj(B)) w + (3B^2 - 2 conj(C)) w^2,
  // with conj(y0 + y1 s) = y0 - y1 s. Three Fp4 squarings of 3s each: 9s (18M) + ~24a.
  CUZK_HD_CONSTEXPR fp12 cyclotomic_square() const {
    // (y0 + y1 s)^2 = (y0^2 + xi y1^2) + 2 y0 y1 s, the cross term as (y0 + y1)^2 - y0^2 - y1^2.
    struct fp4 {
      fp2 r0, r1;
    };
    auto fp4_square = [](const fp2& y0, const fp2& y1) -> fp4 {
      const fp2 t0 = y0.square();
      const fp2 t1 = y1.square();
      return {t1.mul_by_nonresidue() + t0, (y0 + y1).square() - t0 - t1};
    };
    const fp4 A2 = fp4_square(c0.c0, c1.c1);
    const fp4 B2 = fp4_square(c1.c0, c0.c2);
    const fp4 C2 = fp4_square(c0.c1, c1.c2);
    // 3t - 2y = 2(t - y) + t and 3t + 2y = 2(t + y) + t: 3a each.
    auto minus = [](const fp2& t, const fp2& y) { return (t - y).dbl() + t; };
    auto plus = [](const fp2& t, const fp2& y) { return (t + y).dbl() + t; };
    fp12 r;
    r.c0.c0 = minus(A2.r0, c0.c0);                       // 3 A^2 - 2 conj(A), constant part
    r.c1.c1 = plus(A2.r1, c1.c1);                        //                    s part
    r.c1.c0 = plus(C2.r1.mul_by_nonresidue(), c1.c0);    // 3 s C^2 + 2 conj(B), constant part
    r.c0.c2 = minus(C2.r0, c0.c2);                       //                      s part
    r.c0.c1 = minus(B2.r0, c0.c1);                       // 3 B^2 - 2 conj(C), constant part
    r.c1.c2 = plus(B2.r1, c1.c2);                        //                    s part
    return r;
  }

  template <std::size_t M>
  CUZK_HD_CONSTEXPR fp12 pow(const bigint<M>& e) const {
    fp12 acc = one();
    for (std::size_t i = bit_length(e); i-- > 0;) {
      acc = acc.square();
      if (test_bit(e, i)) acc = acc * *this;
    }
    return acc;
  }

  // The 12 Fp coordinates, 48 bytes big-endian each, in the order
  //   c0.c0.c0, c0.c0.c1, c0.c1.c0, c0.c1.c1, c0.c2.c0, c0.c2.c1, c1.c0.c0, ..., c1.c2.c1
  // (the order @noble/curves and zkcrypto print them in).
  CUZK_HD_CONSTEXPR void to_bytes_be(uint8_t* out) const {
    const fp6* halves[2] = {&c0, &c1};
    std::size_t off = 0;
    for (const fp6* h : halves) {
      for (const fp2* c : {&h->c0, &h->c1, &h->c2}) {
        c->c0.to_bytes_be(out + off);
        c->c1.to_bytes_be(out + off + fp::bytes);
        off += 2 * fp::bytes;
      }
    }
  }
  // Inverse of to_bytes_be; false if any coordinate is >= p (out is then unspecified).
  CUZK_HD_CONSTEXPR static bool from_bytes_be(const uint8_t* in, fp12& out) {
    fp6* halves[2] = {&out.c0, &out.c1};
    std::size_t off = 0;
    for (fp6* h : halves) {
      for (fp2* c : {&h->c0, &h->c1, &h->c2}) {
        if (!fp::from_bytes_be(in + off, c->c0) || !fp::from_bytes_be(in + off + fp::bytes, c->c1)) return false;
        off += 2 * fp::bytes;
      }
    }
    return true;
  }

  template <class Rng>
  static fp12 random(Rng& rng) {
    fp6 a = fp6::random(rng);
    return {a, fp6::random(rng)};
  }
};

}  // namespace cuzk::ff
