// Fp2 = Fp[u] / (u^2 + 1), the field G2 lives over. Element c0 + c1*u.
// Cost notes use M, S, A for base-field multiply, square, add.
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>

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

  // Products dispatch like mont_field::mul: on x86-64 hosts with the kernels, lazy reduction
  // (mul_lazy_x86 / square_lazy_x86); in constant expressions and device code, the Karatsuba
  // and complex-squaring formulas over Fp. The *_lazy_portable twins compute the lazy formulas
  // with portable arithmetic; the tests hold all three to each other.
  CUZK_HD_CONSTEXPR quadratic_ext operator*(const quadratic_ext& o) const { return mul(*this, o); }
  CUZK_HD_CONSTEXPR quadratic_ext square() const { return square(*this); }
  CUZK_HD_CONSTEXPR static quadratic_ext mul(const quadratic_ext& a, const quadratic_ext& b) {
#if CUZK_HAVE_X86_MONT && !CUZK_DEVICE_CODE
    if (!std::is_constant_evaluated()) {
      if constexpr (x86::has_wide_kernel<Fp::N>) return mul_lazy_x86(a, b);
    }
#endif
    return mul_karatsuba(a, b);
  }
  CUZK_HD_CONSTEXPR static quadratic_ext square(const quadratic_ext& a) {
#if CUZK_HAVE_X86_MONT && !CUZK_DEVICE_CODE
    if (!std::is_constant_evaluated()) {
      if constexpr (x86::has_wide_kernel<Fp::N>) return square_lazy_x86(a);
    }
#endif
    return square_complex(a);
  }

  // Karatsuba: 3M + 5A.
  CUZK_HD_CONSTEXPR static quadratic_ext mul_karatsuba(const quadratic_ext& a, const quadratic_ext& b) {
    Fp v0 = a.c0 * b.c0;
    Fp v1 = a.c1 * b.c1;
    Fp s = (a.c0 + a.c1) * (b.c0 + b.c1);
    return {v0 - v1, s - v0 - v1};
  }
  // Complex squaring: (c0 + c1)(c0 - c1) + 2 c0 c1 u. 2M + 3A.
  CUZK_HD_CONSTEXPR static quadratic_ext square_complex(const quadratic_ext& a) {
    Fp t = a.c0 * a.c1;
    return {(a.c0 + a.c1) * (a.c0 - a.c1), t + t};
  }

  // Karatsuba with lazy reduction (blst's mul_mont_384x): with plain 2N-word products
  // t0 = a0 b0, t1 = a1 b1, t2 = (a0 + a1)(b0 + b1) (unreduced sums, < 2p < 2^(64N))
  //   c0 = redc(t0 - t1 + p^2)   (in (0, 2p^2): non-negative and < p R)
  //   c1 = redc(t2 - t0 - t1)    (= a0 b1 + a1 b0 < 2p^2)
  // 3 plain products + 2 reductions: 5 N^2 word multiplies instead of 6 N^2, and no modular
  // additions. Complex squaring keeps its two Montgomery products but feeds them unreduced
  // sums (a Montgomery product of x < 2p and y < p is still fully reduced: x y / R + p < 2p
  // before its final subtraction, as 2p < R):
  //   c0 = (a0 + a1)(a0 - a1),  c1 = (a0 + a0) a1.
  CUZK_HD_CONSTEXPR static quadratic_ext mul_lazy_portable(const quadratic_ext& a, const quadratic_ext& b) {
    using wide = typename Fp::wide;
    const wide t0 = Fp::mul_wide_portable(a.c0.v, b.c0.v);
    const wide t1 = Fp::mul_wide_portable(a.c1.v, b.c1.v);
    auto sa = a.c0.v, sb = b.c0.v;
    add_in_place(sa, a.c1.v);
    add_in_place(sb, b.c1.v);
    wide t2 = Fp::mul_wide_portable(sa, sb);
    wide d = t0;
    sub_in_place(d, t1);
    add_in_place(d, Fp::modulus_squared);  // mod 2^(128N): the sum is the true, positive value
    sub_in_place(t2, t0);
    sub_in_place(t2, t1);
    return {Fp::redc_portable(d), Fp::redc_portable(t2)};
  }
  CUZK_HD_CONSTEXPR static quadratic_ext square_lazy_portable(const quadratic_ext& a) {
    auto s = a.c0.v, d2 = a.c0.v;
    add_in_place(s, a.c1.v);
    add_in_place(d2, a.c0.v);
    return {Fp::mul_portable(Fp::from_montgomery_repr(s), a.c0 - a.c1),
            Fp::mul_portable(Fp::from_montgomery_repr(d2), a.c1)};
  }
#if CUZK_HAVE_X86_MONT && !CUZK_DEVICE_CODE
  // The same with the x86 kernels (mont_x86.hpp). One named result: see mont_field::mul_x86.
  static quadratic_ext mul_lazy_x86(const quadratic_ext& a, const quadratic_ext& b) {
    constexpr std::size_t N = Fp::N;
    uint64_t t0[2 * N], t1[2 * N], t2[2 * N], sa[N], sb[N];
    x86::mul_wide<N>(t0, a.c0.v.w, b.c0.v.w);
    x86::mul_wide<N>(t1, a.c1.v.w, b.c1.v.w);
    x86::add_nr<N>(sa, a.c0.v.w, a.c1.v.w);
    x86::add_nr<N>(sb, b.c0.v.w, b.c1.v.w);
    x86::mul_wide<N>(t2, sa, sb);
    x86::sub_wide<2 * N>(t2, t2, t0);
    x86::sub_wide<2 * N>(t2, t2, t1);
    x86::sub_wide<2 * N>(t0, t0, t1);
    x86::add_wide<2 * N>(t0, t0, Fp::modulus_squared.w);
    quadratic_ext r;
    x86::redc<N>(r.c0.v.w, t0, Fp::modulus.w, Fp::n0);
    x86::redc<N>(r.c1.v.w, t2, Fp::modulus.w, Fp::n0);
    return r;
  }
  static quadratic_ext square_lazy_x86(const quadratic_ext& a) {
    constexpr std::size_t N = Fp::N;
    uint64_t s[N], d2[N];
    const Fp d = a.c0 - a.c1;
    x86::add_nr<N>(s, a.c0.v.w, a.c1.v.w);
    x86::add_nr<N>(d2, a.c0.v.w, a.c0.v.w);
    quadratic_ext r;
    x86::mont_mul<N>(r.c0.v.w, s, d.v.w, Fp::modulus.w, Fp::n0);
    x86::mont_mul<N>(r.c1.v.w, d2, a.c1.v.w, Fp::modulus.w, Fp::n0);
    return r;
  }
#endif
  CUZK_HD_CONSTEXPR quadratic_ext mul_by_fp(const Fp& k) const { return {c0 * k, c1 * k}; }

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
