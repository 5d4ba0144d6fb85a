// The optimal ate pairing on BLS12-381: e(P, Q) = f_{x,Q}(P)^(3 (p^12 - 1) / r) with
// P in G1 (over Fp), Q in G2 (over Fp2, M-type sextic twist), x = -0xd201000000010000.
//
// Value convention. blst, zkcrypto's bls12_381, RELIC, gnark and @noble/curves all publish the
// same GT value for e(G1, G2), and that value is the CUBE of f^((p^12 - 1) / r): their hard
// part uses 3 (p^4 - p^2 + 1) / r = (x - 1)^2 (x + p)(x^2 + p^2 - 1) + 3, an x-chain that
// avoids the division by 3 (checked in tests/unit/pairing: final_exponentiation(f) ==
// (f^((p^12-1)/r))^3, and noble's finalExponentiate(g) == g^(3 (p^12-1)/r) for arbitrary g).
// Since 3 does not divide r, cubing is an automorphism of GT: the pairing is just as bilinear
// and non-degenerate, and we follow the published value byte for byte.
//
// Miller loop. Q's multiples T are kept in homogeneous projective coordinates (X : Y : Z) on the
// twist E': y^2 = x^3 + 4 xi, so the loop does no inversion. With the untwisting map
// (x', y') -> (x' / w^2, y' / w^3) (w^6 = xi), the line through T with twisted slope s',
// evaluated at P = (xP, yP) and multiplied by w^3, is
//     (s' x_T - y_T) + (-s' xP) v + (yP) v w,
// a sparse Fp12 element with slots c0.c0, c0.c1, c1.c1 (fp12::mul_by_014). Scaling a line by
// anything in Fp2 (or Fp6, or by w^3) changes nothing after the final exponentiation, so each
// line is stored as (l0, l1, l4) with l0 in Fp2 and l1 xP, l4 yP the other two slots.
//
// Inputs are trusted: P and Q must be on their curves and in the prime-order subgroups (the
// encoding layer checks this when it decodes). A point at infinity contributes 1.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <utility>

#include "ec/curves.hpp"
#include "ff/fp12.hpp"

namespace cuzk::pairing {

using ec::g1_affine;
using ec::g2_affine;
using ff::fp;
using ff::fp12;
using ff::fp2;
using ff::fp6;

using ec::bls_x_abs;  // the BLS parameter x (ec/curves.hpp)
using ec::bls_x_is_negative;
// |x| has 64 bits, 6 of them set: the loop runs over the 63 bits below the top one, doubling at
// each and adding Q at the 5 set ones.
inline constexpr unsigned bls_x_bits = 64;
inline constexpr unsigned miller_doublings = bls_x_bits - 1;
inline constexpr unsigned miller_additions = 5;
static_assert(__builtin_popcountll(bls_x_abs) == miller_additions + 1);
static_assert(bls_x_abs >> (bls_x_bits - 1) == 1);

// Line coefficients: the line evaluated at P is l0 + (l1 xP) v + (l4 yP) v w.
struct line_coeffs {
  fp2 l0, l1, l4;
};

// Q = (X : Y : Z) on the twist, x' = X / Z, y' = Y / Z.
struct g2_projective {
  fp2 x, y, z;
};

namespace detail {

// Doubling step: returns the tangent line at T and sets T = 2T. After Costello-Lange-Naehrig
// ("Faster pairing computations on curves with high-degree twists", PKC 2010, eq. for
// y^2 = x^3 + b'), with every output coordinate scaled by 4 to drop their two halvings:
//   B = Y^2, C = Z^2, E = 3b' C, F = 3E, H = (Y + Z)^2 - B - C (= 2YZ)
//   X3 = 2XY (B - F), Y3 = (B + F)^2 - 12 E^2, Z3 = 4 B H
//   line (the one above scaled by -2YZ): l0 = E - B = 3b'Z^2 - Y^2, l1 = 3X^2, l4 = -H.
// With b' = 4 xi, 3b' C = 12 xi C (a nonresidue multiply and additions).
// Cost: 3m + 6s + ~20a (about 21M).
CUZK_HD_CONSTEXPR line_coeffs double_step(g2_projective& t) {
  const fp2 xy = t.x * t.y;
  const fp2 B = t.y.square();
  const fp2 C = t.z.square();
  const fp2 xi_c = C.mul_by_nonresidue();
  const fp2 c4 = xi_c.dbl().dbl();
  const fp2 E = c4.dbl() + c4;          // 12 xi C = 3 b' C
  const fp2 F = E.dbl() + E;            // 3E
  const fp2 H = (t.y + t.z).square() - B - C;
  const fp2 x2 = t.x.square();
  line_coeffs l{E - B, x2.dbl() + x2, -H};
  const fp2 e2 = E.square();
  const fp2 e2x4 = e2.dbl().dbl();
  t.x = (xy * (B - F)).dbl();
  t.y = (B + F).square() - (e2x4.dbl() + e2x4);  // (B + F)^2 - 12 E^2
  t.z = (B * H).dbl().dbl();
  return l;
}

// Mixed addition step: returns the line through T and Q (affine, not at infinity) and sets
// T = T + Q. With theta = Y - y2 Z, lambda = X - x2 Z (slope theta / lambda):
//   C = theta^2, D = lambda^2, E = lambda D, F = Z C, G = X D, H = E + F - 2G
//   X3 = lambda H, Y3 = theta (G - H) - Y E, Z3 = Z E
//   line (the one above, through Q, scaled by lambda): l0 = theta x2 - lambda y2, l1 = -theta, l4 = lambda.
// Cost: 11m + 2s + ~8a (about 37M). T = +-Q cannot occur for Q of order r: T runs through
// [k]Q with 1 < k < |x| < r.
CUZK_HD_CONSTEXPR line_coeffs add_step(g2_projective& t, const g2_affine& q) {
  const fp2 theta = t.y - q.y * t.z;
  const fp2 lambda = t.x - q.x * t.z;
  const fp2 C = theta.square();
  const fp2 D = lambda.square();
  const fp2 E = lambda * D;
  const fp2 F = t.z * C;
  const fp2 G = t.x * D;
  const fp2 H = E + F - G.dbl();
  line_coeffs l{theta * q.x - lambda * q.y, -theta, lambda};
  t.x = lambda * H;
  t.y = theta * (G - H) - t.y * E;
  t.z = t.z * E;
  return l;
}

// f * line(P): 4M for the evaluation + 13m for the sparse product.
CUZK_HD_CONSTEXPR fp12 mul_by_line(const fp12& f, const line_coeffs& l, const g1_affine& p) {
  return f.mul_by_014(l.l0, l.l1.mul_by_fp(p.x), l.l4.mul_by_fp(p.y));
}

// a^x for a in the cyclotomic subgroup (x < 0: a^|x| then conjugate, the inverse there).
// 63 cyclotomic squares + 5 multiplications (~1400M).
CUZK_HD_CONSTEXPR fp12 cyclotomic_exp_by_x(const fp12& a) {
  fp12 r = a;
  for (unsigned i = bls_x_bits - 1; i-- > 0;) {
    r = r.cyclotomic_square();
    if ((bls_x_abs >> i) & 1) r = r * a;
  }
  return bls_x_is_negative ? r.conjugate() : r;
}

}  // namespace detail

// Precomputed Miller-loop lines of a fixed G2 point (the verifier's [gamma]_2, [delta]_2, B...):
// 68 lines of 3 Fp2 = 19.6 KB, built once with no inversion; each later Miller loop with it
// saves the G2 arithmetic (~40% of an unprepared loop).
struct g2_prepared {
  static constexpr std::size_t n_lines = miller_doublings + miller_additions;
  std::array<line_coeffs, n_lines> lines;
  bool infinity = true;

  g2_prepared() = default;
  explicit g2_prepared(const g2_affine& q);
};

using g1g2_pair = std::pair<g1_affine, g2_affine>;
using g1_prepared_pair = std::pair<g1_affine, const g2_prepared*>;

// Miller loop value f_{x,Q}(P) (up to factors the final exponentiation removes), already
// conjugated for negative x. Pairs with a point at infinity are skipped (contribute 1).
fp12 miller_loop(const g1_affine& p, const g2_affine& q);
fp12 miller_loop(const g1_affine& p, const g2_prepared& q);
// Product of the Miller loops, sharing the 63 squarings of the accumulator.
fp12 multi_miller_loop(std::span<const g1g2_pair> terms);
fp12 multi_miller_loop(std::span<const g1_prepared_pair> terms);

// f^(3 (p^12 - 1) / r), see the header comment. Easy part with one Fp12 inversion and a
// Frobenius; hard part by the x-chain (5 exponentiations by x in cyclotomic squares).
// f must be non-zero (Miller loop values are); final_exponentiation(0) = 0.
fp12 final_exponentiation(const fp12& f);

fp12 pairing(const g1_affine& p, const g2_affine& q);
// prod_i e(P_i, Q_i), one Miller loop and one final exponentiation.
fp12 multi_pairing(std::span<const g1g2_pair> terms);
fp12 multi_pairing(std::span<const g1_prepared_pair> terms);
// prod_i e(P_i, Q_i) == 1 (true for an empty product).
bool pairing_check(std::span<const g1g2_pair> terms);
bool pairing_check(std::span<const g1_prepared_pair> terms);

}  // namespace cuzk::pairing
