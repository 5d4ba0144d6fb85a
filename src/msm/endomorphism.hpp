// Scalar splitting by an efficient endomorphism, for Pippenger (GLV on G1, its G2 analogue).
//
// BLS12-381: r = X^4 - X^2 + 1 with X = |x| = 0xd201000000010000 (x = -X is the curve
// parameter), so X^4 = X^2 - 1 (mod r) and X^2 (~2^127.4) is about sqrt(r). Both groups have an
// endomorphism that multiplies by X^2 for the price of a few field multiplications:
//   G1: phi(x, y) = (beta x, y) acts as [-X^2] (ec/subgroup.hpp: lambda = -x^2 = -X^2), so
//       [X^2]P = -phi(P) = (beta x, -y)                                             1M
//   G2: psi acts as [x] = [-X], so [X^2]P = psi(psi(P))                             4 Fp2 M
// Any k < r splits as k = k1 + k2 X^2 (mod r) with |k1|, |k2| <= X^2/2 + 1 < 2^127:
//   1. k = q X^2 + m with 0 <= m < X^2 and q <= X^2 - 1 (k < r < X^4 - X^2 + 1), by Barrett
//      reduction: q' = floor(floor(k / 2^127) mu / 2^128) with mu = floor(2^255 / X^2) is q, q - 1
//      or q - 2 (X^2 > 2^127), so at most two corrections; 8 + 4 64-bit products, ~30 ns (two
//      long divisions by X took ~190 ns);
//   2. if q > X^2/2: (q, m) -> (q - X^2 + 1, m - 1), since (X^2 - 1) X^2 = X^4 - X^2 = -1 (mod r);
//   3. if m > X^2/2: (q, m) -> (q + 1, m - X^2).
// Then k P = k1 P + k2 [X^2]P: an MSM over 2n bases with 127-bit magnitudes (signed digits need
// c W >= 128, against c W >= 255 for plain scalars): half the windows, so half the bucket
// reductions, for the same number of bucket additions (2n points x 128/c windows), and the
// window size can grow by one. Signs are folded into the digits.
#pragma once

#include <cstdint>

#include "ec/subgroup.hpp"
#include "msm/msm.hpp"

namespace cuzk::msm {

// value = (negative ? -1 : 1) * magnitude, magnitude < 2^127 (limbs 2, 3 are zero).
struct split_part {
  scalar_repr magnitude{};
  bool negative = false;
};

inline constexpr uint64_t endo_x = ec::bls_x_abs;  // X
inline constexpr unsigned split_digit_bits = 128;  // c W >= 128 for magnitudes < 2^127

namespace detail {
using u128 = unsigned __int128;

// hi:lo = a b (128 x 128 -> 256 bits), 4 64-bit products.
constexpr void mul_wide(u128 a, u128 b, u128& hi, u128& lo) {
  const uint64_t a0 = static_cast<uint64_t>(a), a1 = static_cast<uint64_t>(a >> 64);
  const uint64_t b0 = static_cast<uint64_t>(b), b1 = static_cast<uint64_t>(b >> 64);
  const u128 p00 = static_cast<u128>(a0) * b0, p01 = static_cast<u128>(a0) * b1;
  const u128 p10 = static_cast<u128>(a1) * b0, p11 = static_cast<u128>(a1) * b1;
  const u128 mid = (p00 >> 64) + static_cast<uint64_t>(p01) + static_cast<uint64_t>(p10);
  lo = (mid << 64) | static_cast<uint64_t>(p00);
  hi = p11 + (p01 >> 64) + (p10 >> 64) + (mid >> 64);
}

inline constexpr u128 endo_x2 = static_cast<u128>(endo_x) * endo_x;  // X^2, in (2^127, 2^128)
static_assert((endo_x2 >> 127) == 1, "X^2 has 128 bits");

// floor(2^255 / X^2) by binary long division (compile time); in [2^127, 2^128).
inline constexpr u128 endo_mu = [] {
  u128 q = 0, rem = 0;  // rem < X^2 < 2^128 throughout; the shifted value needs 129 bits
  for (int bit = 255; bit >= 0; --bit) {
    const bool top = (rem >> 127) != 0;
    rem = (rem << 1) | (bit == 255 ? 1u : 0u);
    q <<= 1;
    if (top || rem >= endo_x2) {
      rem -= endo_x2;  // wraps correctly when top is set: the true value is rem + 2^128
      q |= 1;
    }
  }
  return q;
}();
}  // namespace detail

// k1, k2 with k = k1 + k2 X^2 (mod r), |k1|, |k2| < 2^127. k must be canonical (< r).
inline void split_scalar(const scalar_repr& k, split_part& k1, split_part& k2) {
  using detail::u128;
  // q = floor(k / X^2) by Barrett (see above), m = k - q X^2.
  const u128 top = (static_cast<u128>((k.w[2] >> 63) | (k.w[3] << 1)) << 64) | ((k.w[1] >> 63) | (k.w[2] << 1));
  u128 q_hi, q_lo;
  detail::mul_wide(top, detail::endo_mu, q_hi, q_lo);
  u128 q = q_hi;
  u128 qd_hi, qd_lo;
  detail::mul_wide(q, detail::endo_x2, qd_hi, qd_lo);
  // m = k - q X^2 < 3 X^2 < 2^130: 256-bit subtraction, then at most two corrections.
  const u128 k_lo = (static_cast<u128>(k.w[1]) << 64) | k.w[0];
  const u128 k_hi = (static_cast<u128>(k.w[3]) << 64) | k.w[2];
  u128 m_lo = k_lo - qd_lo;
  u128 m_hi = k_hi - qd_hi - (k_lo < qd_lo ? 1 : 0);
  while (m_hi != 0 || m_lo >= detail::endo_x2) {
    m_hi -= (m_lo < detail::endo_x2 ? 1 : 0);
    m_lo -= detail::endo_x2;
    ++q;
  }
  const u128 x2 = detail::endo_x2;
  const u128 half = x2 >> 1;
  u128 m1 = m_lo;
  u128 m2 = q;
  bool n1 = false, n2 = false;
  if (m2 > half) {  // k2 = q - X^2 + 1 <= 0, k1 = m - 1
    n2 = true;
    m2 = x2 - 1 - m2;
    if (m1 == 0) {
      n1 = true;
      m1 = 1;
    } else {
      m1 -= 1;
    }
  }
  if (!n1 && m1 > half) {  // k1 = m - X^2 < 0, k2 += 1
    n1 = true;
    m1 = x2 - m1;
    if (!n2) {
      m2 += 1;
    } else if (m2 == 0) {
      n2 = false;
      m2 = 1;
    } else {
      m2 -= 1;
    }
  }
  k1.magnitude = {{static_cast<uint64_t>(m1), static_cast<uint64_t>(m1 >> 64), 0, 0}};
  k1.negative = n1;
  k2.magnitude = {{static_cast<uint64_t>(m2), static_cast<uint64_t>(m2 >> 64), 0, 0}};
  k2.negative = n2;
}

// [X^2]P by the endomorphism (the second base of a split scalar).
inline ec::g1_affine times_x_squared(const ec::g1_affine& p) {
  const ec::g1_affine phi = ec::g1_endomorphism(p);
  return -phi;
}
inline ec::g2_affine times_x_squared(const ec::g2_affine& p) { return ec::g2_psi(ec::g2_psi(p)); }

}  // namespace cuzk::msm
