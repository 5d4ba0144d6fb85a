// Compute forms of the BLS12-381 points, templated on the curve (g1_curve over Fp, g2_curve
// over Fp2; both short Weierstrass y^2 = x^3 + b with a = 0):
//
//   jacobian_point<Curve>  (X, Y, Z):        x = X / Z^2,  y = Y / Z^3;  identity: Z = 0.
//   xyzz_point<Curve>      (X, Y, ZZ, ZZZ):  x = X / ZZ,   y = Y / ZZZ;  identity: ZZ = ZZZ = 0,
//                          with the invariant ZZ^3 = ZZZ^2 (ZZ = z^2, ZZZ = z^3 for some z).
//
// Jacobian is the general-purpose form (cheapest doubling, 2M + 5S). XYZZ caches Z^2 and Z^3,
// which makes the full addition 12M + 2S with no squarings of Z (Jacobian: 11M + 5S) and the
// mixed addition 8M + 2S (Jacobian: 7M + 4S) with fewer temporaries; GPU MSM buckets, which do
// almost only additions, use it for that reason.
//
// Formulas follow the Explicit-Formulas Database (EFD, hyperelliptic.org/EFD/g1p), re-derived
// for a = 0. Cost notes count multiplications (M) and squarings (S) in the curve's field: Fp for
// G1, Fp2 for G2 (one Fp2 M = 3 Fp M, one Fp2 S = 2 Fp M). Additions are not counted.
//
// Every addition is complete: identity operands, P + P (falls back to doubling) and P + (-P)
// (gives the identity) are handled with explicit branches. That is not constant time; nothing
// here handles secrets (proving randomness r, s enters only through MSM scalars on the GPU
// side, and this code is the CPU oracle). Points of order 2 do not exist in either group
// (y = 0 would need x^3 = -b; doubling one would still correctly give Z = 0).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

#include "ec/curves.hpp"

namespace cuzk::ec {

template <class Curve>
struct xyzz_point;

// ---------------------------------------------------------------------------------------------
// Jacobian coordinates.
// ---------------------------------------------------------------------------------------------
template <class Curve>
struct jacobian_point {
  using curve = Curve;
  using field = typename Curve::field;
  using affine = affine_point<Curve>;

  field X, Y, Z;

  CUZK_HD_CONSTEXPR static jacobian_point identity() { return {field::one(), field::one(), field::zero()}; }
  CUZK_HD_CONSTEXPR static jacobian_point generator() { return from_affine(affine::generator()); }
  CUZK_HD_CONSTEXPR static jacobian_point from_affine(const affine& a) {
    if (a.infinity) return identity();
    return {a.x, a.y, field::one()};
  }

  CUZK_HD_CONSTEXPR bool is_identity() const { return Z.is_zero(); }

  // Y^2 = X^3 + b Z^6 (the identity counts as on the curve). 2M + 4S.
  CUZK_HD_CONSTEXPR bool is_on_curve() const {
    if (is_identity()) return true;
    field z2 = Z.square();
    field z6 = (z2 * z2) * z2;
    return Y.square() == X.square() * X + Curve::b * z6;
  }

  // One inversion + 3M + 1S.
  CUZK_HD_CONSTEXPR affine to_affine() const {
    if (is_identity()) return affine::identity();
    return to_affine_with_inverse(Z.inverse());
  }
  // Given zinv = 1/Z (as batch inversion provides it): 3M + 1S.
  CUZK_HD_CONSTEXPR affine to_affine_with_inverse(const field& zinv) const {
    field zinv2 = zinv.square();
    return {X * zinv2, Y * (zinv2 * zinv), false};
  }
  // The denominator batch_to_affine inverts.
  CUZK_HD_CONSTEXPR const field& batch_denominator() const { return Z; }

  CUZK_HD_CONSTEXPR jacobian_point operator-() const { return {X, -Y, Z}; }

  // dbl-2009-l for a = 0: 2M + 5S.
  //   A = X^2, B = Y^2, C = B^2, D = 2((X + B)^2 - A - C) = 4XB, E = 3A, F = E^2,
  //   X3 = F - 2D, Y3 = E(D - X3) - 8C, Z3 = 2YZ.
  // The identity (Z = 0) maps to Z3 = 0 without a branch.
  CUZK_HD_CONSTEXPR jacobian_point dbl() const {
    field a = X.square();
    field b = Y.square();
    field c = b.square();
    field d = ((X + b).square() - a - c).dbl();
    field e = a.dbl() + a;
    field f = e.square();
    jacobian_point r;
    r.X = f - d.dbl();
    field c8 = c.dbl().dbl().dbl();
    r.Y = e * (d - r.X) - c8;
    r.Z = (Y * Z).dbl();
    return r;
  }

  // add-2007-bl: 11M + 5S.
  //   Z1Z1 = Z1^2, Z2Z2 = Z2^2, U1 = X1 Z2Z2, U2 = X2 Z1Z1, S1 = Y1 Z2 Z2Z2, S2 = Y2 Z1 Z1Z1,
  //   H = U2 - U1, I = (2H)^2, J = H I, r = 2(S2 - S1), V = U1 I,
  //   X3 = r^2 - J - 2V, Y3 = r(V - X3) - 2 S1 J, Z3 = ((Z1 + Z2)^2 - Z1Z1 - Z2Z2) H.
  // H = 0 means equal x: the same point (r = 0, double) or opposite points (identity).
  CUZK_HD_CONSTEXPR static jacobian_point add(const jacobian_point& p, const jacobian_point& q) {
    if (p.is_identity()) return q;
    if (q.is_identity()) return p;
    field z1z1 = p.Z.square();
    field z2z2 = q.Z.square();
    field u1 = p.X * z2z2;
    field u2 = q.X * z1z1;
    field s1 = p.Y * q.Z * z2z2;
    field s2 = q.Y * p.Z * z1z1;
    field h = u2 - u1;
    field rr = (s2 - s1).dbl();
    if (h.is_zero()) return rr.is_zero() ? p.dbl() : identity();
    field i = h.dbl().square();
    field j = h * i;
    field v = u1 * i;
    jacobian_point out;
    out.X = rr.square() - j - v.dbl();
    out.Y = rr * (v - out.X) - (s1 * j).dbl();
    out.Z = ((p.Z + q.Z).square() - z1z1 - z2z2) * h;
    return out;
  }

  // madd-2007-bl (Z2 = 1): 7M + 4S.
  //   Z1Z1 = Z1^2, U2 = X2 Z1Z1, S2 = Y2 Z1 Z1Z1, H = U2 - X1, HH = H^2, I = 4HH, J = H I,
  //   r = 2(S2 - Y1), V = X1 I, X3 = r^2 - J - 2V, Y3 = r(V - X3) - 2 Y1 J,
  //   Z3 = (Z1 + H)^2 - Z1Z1 - HH.
  CUZK_HD_CONSTEXPR static jacobian_point add_mixed(const jacobian_point& p, const affine& q) {
    if (q.infinity) return p;
    if (p.is_identity()) return from_affine(q);
    field z1z1 = p.Z.square();
    field u2 = q.x * z1z1;
    field s2 = q.y * p.Z * z1z1;
    field h = u2 - p.X;
    field rr = (s2 - p.Y).dbl();
    if (h.is_zero()) return rr.is_zero() ? p.dbl() : identity();
    field hh = h.square();
    field i = hh.dbl().dbl();
    field j = h * i;
    field v = p.X * i;
    jacobian_point out;
    out.X = rr.square() - j - v.dbl();
    out.Y = rr * (v - out.X) - (p.Y * j).dbl();
    out.Z = (p.Z + h).square() - z1z1 - hh;
    return out;
  }

  CUZK_HD_CONSTEXPR jacobian_point operator+(const jacobian_point& q) const { return add(*this, q); }
  CUZK_HD_CONSTEXPR jacobian_point operator-(const jacobian_point& q) const { return add(*this, -q); }
  CUZK_HD_CONSTEXPR jacobian_point operator+(const affine& q) const { return add_mixed(*this, q); }
  CUZK_HD_CONSTEXPR jacobian_point operator-(const affine& q) const { return add_mixed(*this, -q); }
  CUZK_HD_CONSTEXPR jacobian_point& operator+=(const jacobian_point& q) { return *this = add(*this, q); }
  CUZK_HD_CONSTEXPR jacobian_point& operator+=(const affine& q) { return *this = add_mixed(*this, q); }
  CUZK_HD_CONSTEXPR jacobian_point& operator-=(const jacobian_point& q) { return *this = add(*this, -q); }

  // Rational view for cross-representation equality: x = x_num / x_den, y = y_num / y_den.
  // 1M + 1S.
  struct ratio {
    field x_num, x_den, y_num, y_den;
  };
  CUZK_HD_CONSTEXPR ratio as_ratio() const {
    field z2 = Z.square();
    return {X, z2, Y, z2 * Z};
  }
};

// ---------------------------------------------------------------------------------------------
// Extended Jacobian "XYZZ" coordinates (Chudnovsky-style cached Z^2, Z^3).
// ---------------------------------------------------------------------------------------------
template <class Curve>
struct xyzz_point {
  using curve = Curve;
  using field = typename Curve::field;
  using affine = affine_point<Curve>;

  field X, Y, ZZ, ZZZ;

  CUZK_HD_CONSTEXPR static xyzz_point identity() { return {field::one(), field::one(), field::zero(), field::zero()}; }
  CUZK_HD_CONSTEXPR static xyzz_point generator() { return from_affine(affine::generator()); }
  CUZK_HD_CONSTEXPR static xyzz_point from_affine(const affine& a) {
    if (a.infinity) return identity();
    return {a.x, a.y, field::one(), field::one()};
  }
  // ZZ = Z^2, ZZZ = Z^3: 1M + 1S.
  CUZK_HD_CONSTEXPR static xyzz_point from_jacobian(const jacobian_point<Curve>& p) {
    if (p.is_identity()) return identity();
    field z2 = p.Z.square();
    return {p.X, p.Y, z2, z2 * p.Z};
  }
  // With z = ZZZ / ZZ, a Jacobian Z' = ZZ * ZZZ = z^5 avoids the division:
  //   X' = X * ZZ * ZZZ^2  (= x z^10),  Y' = Y * ZZ^3 * ZZZ^2 = Y * ZZZ^4 (= y z^15).  5M + 2S.
  CUZK_HD_CONSTEXPR jacobian_point<Curve> to_jacobian() const {
    if (is_identity()) return jacobian_point<Curve>::identity();
    field zzz2 = ZZZ.square();
    return {X * ZZ * zzz2, Y * zzz2.square(), ZZ * ZZZ};
  }

  CUZK_HD_CONSTEXPR bool is_identity() const { return ZZ.is_zero(); }

  // Y^2 = X^3 + b ZZZ^2 and the invariant ZZ^3 = ZZZ^2. 3M + 3S.
  CUZK_HD_CONSTEXPR bool is_on_curve() const {
    if (is_identity()) return ZZZ.is_zero();
    field zzz2 = ZZZ.square();
    if (ZZ.square() * ZZ != zzz2) return false;
    return Y.square() == X.square() * X + Curve::b * zzz2;
  }

  // Inverting ZZZ suffices: 1/ZZ = ZZ^2 / ZZZ^2 = (ZZ / ZZZ)^2. One inversion + 3M + 1S.
  CUZK_HD_CONSTEXPR affine to_affine() const {
    if (is_identity()) return affine::identity();
    return to_affine_with_inverse(ZZZ.inverse());
  }
  // Given zzz_inv = 1/ZZZ: 3M + 1S.
  CUZK_HD_CONSTEXPR affine to_affine_with_inverse(const field& zzz_inv) const {
    field zz_inv = (ZZ * zzz_inv).square();
    return {X * zz_inv, Y * zzz_inv, false};
  }
  CUZK_HD_CONSTEXPR const field& batch_denominator() const { return ZZZ; }

  CUZK_HD_CONSTEXPR xyzz_point operator-() const { return {X, -Y, ZZ, ZZZ}; }

  // dbl-2008-s-1 with a = 0: 6M + 3S.
  //   U = 2Y, V = U^2, W = U V, S = X V, M = 3X^2,
  //   X3 = M^2 - 2S, Y3 = M(S - X3) - W Y, ZZ3 = V ZZ, ZZZ3 = W ZZZ.
  // The identity stays the identity (ZZ3 = V * 0).
  CUZK_HD_CONSTEXPR xyzz_point dbl() const {
    field u = Y.dbl();
    field v = u.square();
    field w = u * v;
    field s = X * v;
    field x2 = X.square();
    field m = x2.dbl() + x2;
    xyzz_point r;
    r.X = m.square() - s.dbl();
    r.Y = m * (s - r.X) - w * Y;
    r.ZZ = v * ZZ;
    r.ZZZ = w * ZZZ;
    return r;
  }

  // add-2008-s: 12M + 2S.
  //   U1 = X1 ZZ2, U2 = X2 ZZ1, S1 = Y1 ZZZ2, S2 = Y2 ZZZ1, P = U2 - U1, R = S2 - S1,
  //   PP = P^2, PPP = P PP, Q = U1 PP, X3 = R^2 - PPP - 2Q, Y3 = R(Q - X3) - S1 PPP,
  //   ZZ3 = ZZ1 ZZ2 PP, ZZZ3 = ZZZ1 ZZZ2 PPP.
  CUZK_HD_CONSTEXPR static xyzz_point add(const xyzz_point& p, const xyzz_point& q) {
    if (p.is_identity()) return q;
    if (q.is_identity()) return p;
    field u1 = p.X * q.ZZ;
    field u2 = q.X * p.ZZ;
    field s1 = p.Y * q.ZZZ;
    field s2 = q.Y * p.ZZZ;
    field pd = u2 - u1;
    field rd = s2 - s1;
    if (pd.is_zero()) return rd.is_zero() ? p.dbl() : identity();
    field pp = pd.square();
    field ppp = pd * pp;
    field qq = u1 * pp;
    xyzz_point out;
    out.X = rd.square() - ppp - qq.dbl();
    out.Y = rd * (qq - out.X) - s1 * ppp;
    out.ZZ = p.ZZ * q.ZZ * pp;
    out.ZZZ = p.ZZZ * q.ZZZ * ppp;
    return out;
  }

  // madd-2008-s (ZZ2 = ZZZ2 = 1): 8M + 2S.
  //   U2 = X2 ZZ1, S2 = Y2 ZZZ1, P = U2 - X1, R = S2 - Y1, PP = P^2, PPP = P PP, Q = X1 PP,
  //   X3 = R^2 - PPP - 2Q, Y3 = R(Q - X3) - Y1 PPP, ZZ3 = ZZ1 PP, ZZZ3 = ZZZ1 PPP.
  CUZK_HD_CONSTEXPR static xyzz_point add_mixed(const xyzz_point& p, const affine& q) {
    if (q.infinity) return p;
    if (p.is_identity()) return from_affine(q);
    field u2 = q.x * p.ZZ;
    field s2 = q.y * p.ZZZ;
    field pd = u2 - p.X;
    field rd = s2 - p.Y;
    if (pd.is_zero()) return rd.is_zero() ? p.dbl() : identity();
    field pp = pd.square();
    field ppp = pd * pp;
    field qq = p.X * pp;
    xyzz_point out;
    out.X = rd.square() - ppp - qq.dbl();
    out.Y = rd * (qq - out.X) - p.Y * ppp;
    out.ZZ = p.ZZ * pp;
    out.ZZZ = p.ZZZ * ppp;
    return out;
  }

  CUZK_HD_CONSTEXPR xyzz_point operator+(const xyzz_point& q) const { return add(*this, q); }
  CUZK_HD_CONSTEXPR xyzz_point operator-(const xyzz_point& q) const { return add(*this, -q); }
  CUZK_HD_CONSTEXPR xyzz_point operator+(const affine& q) const { return add_mixed(*this, q); }
  CUZK_HD_CONSTEXPR xyzz_point operator-(const affine& q) const { return add_mixed(*this, -q); }
  CUZK_HD_CONSTEXPR xyzz_point& operator+=(const xyzz_point& q) { return *this = add(*this, q); }
  CUZK_HD_CONSTEXPR xyzz_point& operator+=(const affine& q) { return *this = add_mixed(*this, q); }
  CUZK_HD_CONSTEXPR xyzz_point& operator-=(const xyzz_point& q) { return *this = add(*this, -q); }

  struct ratio {
    field x_num, x_den, y_num, y_den;
  };
  CUZK_HD_CONSTEXPR ratio as_ratio() const { return {X, ZZ, Y, ZZZ}; }
};

using g1_jacobian = jacobian_point<g1_curve>;
using g2_jacobian = jacobian_point<g2_curve>;
using g1_xyzz = xyzz_point<g1_curve>;
using g2_xyzz = xyzz_point<g2_curve>;

// ---------------------------------------------------------------------------------------------
// Equality across representations: compare x1 * den2 == x2 * den1 (same for y), so no
// inversion is needed. Jacobian vs Jacobian: 6M + 2S.
// ---------------------------------------------------------------------------------------------
namespace detail {

template <class Curve>
CUZK_HD_CONSTEXPR bool point_is_identity(const affine_point<Curve>& p) { return p.infinity; }
template <class Curve>
CUZK_HD_CONSTEXPR bool point_is_identity(const jacobian_point<Curve>& p) { return p.is_identity(); }
template <class Curve>
CUZK_HD_CONSTEXPR bool point_is_identity(const xyzz_point<Curve>& p) { return p.is_identity(); }

template <class Curve>
struct affine_ratio {
  typename Curve::field x_num, x_den, y_num, y_den;
};
template <class Curve>
CUZK_HD_CONSTEXPR affine_ratio<Curve> point_ratio(const affine_point<Curve>& p) {
  return {p.x, Curve::field::one(), p.y, Curve::field::one()};
}
template <class Curve>
CUZK_HD_CONSTEXPR auto point_ratio(const jacobian_point<Curve>& p) { return p.as_ratio(); }
template <class Curve>
CUZK_HD_CONSTEXPR auto point_ratio(const xyzz_point<Curve>& p) { return p.as_ratio(); }

}  // namespace detail

template <template <class> class P, template <class> class Q, class Curve>
CUZK_HD_CONSTEXPR bool same_point(const P<Curve>& a, const Q<Curve>& b) {
  const bool ia = detail::point_is_identity(a);
  const bool ib = detail::point_is_identity(b);
  if (ia || ib) return ia == ib;
  auto ra = detail::point_ratio(a);
  auto rb = detail::point_ratio(b);
  return ra.x_num * rb.x_den == rb.x_num * ra.x_den && ra.y_num * rb.y_den == rb.y_num * ra.y_den;
}

template <class Curve>
CUZK_HD_CONSTEXPR bool operator==(const jacobian_point<Curve>& a, const jacobian_point<Curve>& b) { return same_point(a, b); }
template <class Curve>
CUZK_HD_CONSTEXPR bool operator==(const xyzz_point<Curve>& a, const xyzz_point<Curve>& b) { return same_point(a, b); }
template <class Curve>
CUZK_HD_CONSTEXPR bool operator==(const jacobian_point<Curve>& a, const xyzz_point<Curve>& b) { return same_point(a, b); }
template <class Curve>
CUZK_HD_CONSTEXPR bool operator==(const jacobian_point<Curve>& a, const affine_point<Curve>& b) { return same_point(a, b); }
template <class Curve>
CUZK_HD_CONSTEXPR bool operator==(const xyzz_point<Curve>& a, const affine_point<Curve>& b) { return same_point(a, b); }
// (C++20 synthesises the reversed and != forms.)

// ---------------------------------------------------------------------------------------------
// Scalar multiplication.
// ---------------------------------------------------------------------------------------------

// Left-to-right fixed 4-bit window over the scalar's bits: 14 additions for the table
// [0..15]P, then per 4-bit digit 4 doublings and (for a nonzero digit) one full addition.
// A 255-bit scalar costs ~252 dbl + ~60 add + 14 add. Works for any k (k >= group order too;
// k = 0 gives the identity). Not constant time (see the file comment).
template <class Point, std::size_t M>
CUZK_HD_CONSTEXPR Point scalar_mul(const Point& p, const ff::bigint<M>& k) {
  constexpr unsigned window = 4;
  Point table[1u << window];
  table[0] = Point::identity();
  table[1] = p;
  table[2] = p.dbl();
  for (unsigned i = 3; i < (1u << window); ++i) table[i] = table[i - 1] + p;
  const std::size_t bits = ff::bit_length(k);
  const std::size_t digits = (bits + window - 1) / window;
  Point acc = Point::identity();
  for (std::size_t d = digits; d-- > 0;) {
    for (unsigned j = 0; j < window; ++j) acc = acc.dbl();
    unsigned digit = 0;
    for (unsigned j = window; j-- > 0;) {
      const std::size_t bit = d * window + j;
      digit = (digit << 1) | ((bit < 64 * M && ff::test_bit(k, bit)) ? 1u : 0u);
    }
    if (digit != 0) acc = acc + table[digit];
  }
  return acc;
}

// Binary double-and-add for 64-bit scalars: best for sparse ones like |x| (63 dbl + 5 add).
template <class Point>
CUZK_HD_CONSTEXPR Point scalar_mul_u64(const Point& p, uint64_t k) {
  Point acc = Point::identity();
  for (int i = 63; i >= 0; --i) {
    acc = acc.dbl();
    if ((k >> i) & 1) acc = acc + p;
  }
  return acc;
}

// [k]P for a field element k of Fr (its canonical integer, one Montgomery reduction).
template <class Point>
CUZK_HD_CONSTEXPR Point scalar_mul(const Point& p, const fr& k) {
  return scalar_mul(p, k.to_canonical());
}

// [x]P for the (negative) BLS parameter x: -[|x|]P.
template <class Point>
CUZK_HD_CONSTEXPR Point mul_by_x(const Point& p) {
  Point r = scalar_mul_u64(p, bls_x_abs);
  return bls_x_is_negative ? -r : r;
}

template <class Curve>
CUZK_HD_CONSTEXPR jacobian_point<Curve> operator*(const jacobian_point<Curve>& p, const fr& k) { return scalar_mul(p, k); }
template <class Curve>
CUZK_HD_CONSTEXPR jacobian_point<Curve> operator*(const fr& k, const jacobian_point<Curve>& p) { return scalar_mul(p, k); }
template <class Curve>
CUZK_HD_CONSTEXPR xyzz_point<Curve> operator*(const xyzz_point<Curve>& p, const fr& k) { return scalar_mul(p, k); }
template <class Curve>
CUZK_HD_CONSTEXPR xyzz_point<Curve> operator*(const fr& k, const xyzz_point<Curve>& p) { return scalar_mul(p, k); }

// ---------------------------------------------------------------------------------------------
// Batch normalisation (Montgomery's trick): n points cost one inversion + 3(n-1)M for the
// shared inversion, plus 3M + 1S per point. Identity inputs give identity outputs and do not
// disturb the others. out must have in.size() elements; out[i].x doubles as the prefix-product
// scratch, so nothing is allocated (host only: std::span).
// ---------------------------------------------------------------------------------------------
template <class Point>
void batch_to_affine(std::span<const Point> in, std::span<affine_point<typename Point::curve>> out) {
  using field = typename Point::field;
  const std::size_t n = in.size() < out.size() ? in.size() : out.size();
  field acc = field::one();
  for (std::size_t i = 0; i < n; ++i) {
    out[i].x = acc;  // product of the denominators before i
    if (!in[i].is_identity()) acc = acc * in[i].batch_denominator();
  }
  field inv = acc.inverse();  // 1 / (product of all nonzero denominators)
  for (std::size_t i = n; i-- > 0;) {
    if (in[i].is_identity()) {
      out[i] = affine_point<typename Point::curve>::identity();
      continue;
    }
    field den_inv = inv * out[i].x;  // = 1 / den_i
    inv = inv * in[i].batch_denominator();
    out[i] = in[i].to_affine_with_inverse(den_inv);
  }
}

template <class Point>
void batch_to_affine(std::span<Point> in, std::span<affine_point<typename Point::curve>> out) {
  batch_to_affine(std::span<const Point>(in.data(), in.size()), out);
}

}  // namespace cuzk::ec
