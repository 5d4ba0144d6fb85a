// Subgroup membership for G1 and G2 (the order-r subgroups of E(Fp) and E'(Fp2)), by the
// endomorphism tests of Scott, "A note on group membership tests for G1, G2 and GT on BLS
// pairing-friendly curves" (ePrint 2021/1130; correctness for BLS12-381 proven in ePrint
// 2022/352), each with a slow twin [r]P == O that the tests compare against.
//
// G1: phi(x, y) = (beta x, y), beta a primitive cube root of unity in Fp, is an endomorphism
//     of E(Fp) acting on G1 as multiplication by a cube root of unity mod r. Because
//     r = x^4 - x^2 + 1, lambda = -x^2 satisfies lambda^2 + lambda + 1 = r = 0 (mod r); beta is
//     the root whose eigenvalue is that lambda. P is in G1 iff phi(P) == [-x^2] P.
//     Cost: two 64-bit sparse scalar multiplications (~126 dbl + 10 add) and 1M, vs ~255 dbl +
//     ~64 add for [r]P.
// G2: psi = (untwist o Frobenius o twist): psi(x, y) = (conj(x) cx, conj(y) cy) with
//     cx = 1 / (u + 1)^((p-1)/3), cy = 1 / (u + 1)^((p-1)/2). psi acts on G2 as
//     multiplication by p = x (mod r), and P is in G2 iff psi(P) == [x] P.
//     Cost: one 64-bit sparse scalar multiplication and 2 Fp2 M.
#pragma once

#include "ec/point.hpp"

namespace cuzk::ec {

// beta = 2^((p-1)/3) (2 is not a cube in Fp, so this is a primitive cube root of unity); of
// beta and beta^2 it is the one with phi(P) = [-x^2]P on G1. Canonical value; the test
// recomputes it from p.
inline constexpr fp g1_beta = fp::from_hex(
    "5f19672fdf76ce51ba69c6076a0f77eaddb3a93be6f89688de17d813620a00022e01fffffffefffe");

static_assert(!g1_beta.is_one() && (g1_beta.square() * g1_beta).is_one(), "beta: primitive cube root of 1");

// psi coefficients (canonical c0, c1); the test recomputes them as inverses of powers of u+1.
inline constexpr fp2 g2_psi_coeff_x = {
    fp::from_hex("0"),
    fp::from_hex("1a0111ea397fe699ec02408663d4de85aa0d857d89759ad4897d29650fb85f9b409427eb4f49fffd8bfd00000000aaad")};
inline constexpr fp2 g2_psi_coeff_y = {
    fp::from_hex("135203e60180a68ee2e9c448d77a2cd91c3dedd930b1cf60ef396489f61eb45e304466cf3e67fa0af1ee7b04121bdea2"),
    fp::from_hex("06af0e0437ff400b6831e36d6bd17ffe48395dabc2d3435e77f76e17009241c5ee67992f72ec05f4c81084fbede3cc09")};

// Cheap compile-time consistency: cx^3 = cy^2 = 1/(u+1)^(p-1), and (u+1)^(p-1) = conj(u+1)/(u+1)
// = (1 - u)/(1 + u) (Frobenius is conjugation), so cx^3 (1 - u) = cy^2 (1 - u) = 1 + u.
static_assert(g2_psi_coeff_x.square() * g2_psi_coeff_x * fp2{fp::one(), -fp::one()} == fp2{fp::one(), fp::one()});
static_assert(g2_psi_coeff_y.square() * fp2{fp::one(), -fp::one()} == fp2{fp::one(), fp::one()});

// phi on Jacobian coordinates: x = X/Z^2 scales by beta exactly when X does. 1M.
CUZK_HD_CONSTEXPR g1_jacobian g1_endomorphism(const g1_jacobian& p) { return {p.X * g1_beta, p.Y, p.Z}; }
CUZK_HD_CONSTEXPR g1_affine g1_endomorphism(const g1_affine& p) {
  return p.infinity ? p : g1_affine{p.x * g1_beta, p.y, false};
}

// psi on Jacobian coordinates: conjugation (the p-power Frobenius) is a field automorphism, so
// conj(X)/conj(Z)^2 = conj(x); Z is conjugated and only X, Y take the coefficients. 2 Fp2 M.
CUZK_HD_CONSTEXPR g2_jacobian g2_psi(const g2_jacobian& p) {
  return {p.X.conjugate() * g2_psi_coeff_x, p.Y.conjugate() * g2_psi_coeff_y, p.Z.conjugate()};
}
CUZK_HD_CONSTEXPR g2_affine g2_psi(const g2_affine& p) {
  return p.infinity ? p : g2_affine{p.x.conjugate() * g2_psi_coeff_x, p.y.conjugate() * g2_psi_coeff_y, false};
}

// Fast tests. The point must be on the curve (callers check is_on_curve first); the identity
// is in the subgroup.
CUZK_HD_CONSTEXPR bool is_in_subgroup(const g1_jacobian& p) {
  if (p.is_identity()) return true;
  g1_jacobian minus_x2_p = -mul_by_x(mul_by_x(p));
  return g1_endomorphism(p) == minus_x2_p;
}
CUZK_HD_CONSTEXPR bool is_in_subgroup(const g1_affine& p) { return is_in_subgroup(g1_jacobian::from_affine(p)); }

CUZK_HD_CONSTEXPR bool is_in_subgroup(const g2_jacobian& p) {
  if (p.is_identity()) return true;
  return g2_psi(p) == mul_by_x(p);
}
CUZK_HD_CONSTEXPR bool is_in_subgroup(const g2_affine& p) { return is_in_subgroup(g2_jacobian::from_affine(p)); }

// Slow twins: [r]P == O.
template <class Curve>
CUZK_HD_CONSTEXPR bool is_in_subgroup_slow(const jacobian_point<Curve>& p) {
  return scalar_mul(p, fr::modulus).is_identity();
}
template <class Curve>
CUZK_HD_CONSTEXPR bool is_in_subgroup_slow(const affine_point<Curve>& p) {
  return is_in_subgroup_slow(jacobian_point<Curve>::from_affine(p));
}

}  // namespace cuzk::ec
