// The two BLS12-381 groups as short Weierstrass curves y^2 = x^3 + b:
//   G1 over Fp  with b = 4,
//   G2 over Fp2 with b = 4(u + 1) (the M-type sextic twist),
// and the affine storage form shared by every layer above (encodings, pairing, MSM bases).
#pragma once

#include "ff/fp2.hpp"

namespace cuzk::ec {

using ff::fp;
using ff::fp2;
using ff::fr;

// The BLS parameter x = -0xd201000000010000, the curve's defining seed: p and r in
// ff/bls12_381.hpp are polynomials in x (tests re-derive r = x^4 - x^2 + 1 from it). |x| has
// Hamming weight 6; the Miller loop, the final exponentiation and the subgroup checks run over it.
inline constexpr uint64_t bls_x_abs = 0xd201000000010000ULL;
inline constexpr bool bls_x_is_negative = true;

struct g1_curve {
  using field = fp;
  static constexpr field b = field::from_hex("4");
  static constexpr field gen_x = field::from_hex(
      "17f1d3a73197d7942695638c4fa9ac0fc3688c4f9774b905a14e3a3f171bac586c55e83ff97a1aeffb3af00adb22c6bb");
  static constexpr field gen_y = field::from_hex(
      "08b3f481e3aaa0f1a09e30ed741d8ae4fcf5e095d5d00af600db18cb2c04b3edd03cc744a2888ae40caa232946c5e7e1");
};

struct g2_curve {
  using field = fp2;
  static constexpr field b = {fp::from_hex("4"), fp::from_hex("4")};
  static constexpr field gen_x = {
      fp::from_hex("024aa2b2f08f0a91260805272dc51051c6e47ad4fa403b02b4510b647ae3d1770bac0326a805bbefd48056c8c121bdb8"),
      fp::from_hex("13e02b6052719f607dacd3a088274f65596bd0d09920b61ab5da61bbdc7f5049334cf11213945d57e5ac7d055d042b7e")};
  static constexpr field gen_y = {
      fp::from_hex("0ce5d527727d6e118cc9cdc6da2e351aadfd9baa8cbdd3a76d429a695160d12c923ac9cc3baca289e193548608b82801"),
      fp::from_hex("0606c4a02ea734cc32acd2b02bc28b99cb3e287e85a763af267492ab572e99ab3f370d275cec1da1aaa9075ff05f79be")};
};

// Affine point as stored (bases in memory, encodings, pairing inputs). The point at infinity
// is flagged explicitly; its coordinates are zero.
template <class Curve>
struct affine_point {
  using curve = Curve;
  using field = typename Curve::field;
  field x, y;
  bool infinity;

  CUZK_HD_CONSTEXPR static affine_point identity() { return {field::zero(), field::zero(), true}; }
  CUZK_HD_CONSTEXPR static affine_point generator() { return {Curve::gen_x, Curve::gen_y, false}; }
  CUZK_HD_CONSTEXPR bool operator==(const affine_point& o) const {
    if (infinity || o.infinity) return infinity == o.infinity;
    return x == o.x && y == o.y;
  }
  CUZK_HD_CONSTEXPR affine_point operator-() const { return infinity ? *this : affine_point{x, -y, false}; }
  // y^2 == x^3 + b (the point at infinity counts as on the curve).
  CUZK_HD_CONSTEXPR bool is_on_curve() const {
    if (infinity) return true;
    return y * y == x * x * x + Curve::b;
  }
};

using g1_affine = affine_point<g1_curve>;
using g2_affine = affine_point<g2_curve>;

}  // namespace cuzk::ec
