// The optimal ate pairing: the published value of e(G1, G2), the exponent the final
// exponentiation raises to (derived here from p, r and x), bilinearity, non-degeneracy, the
// multi-pairing and pairing-check API, identities, and prepared == unprepared.
#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "pairing/pairing.hpp"
#include "support/seed.hpp"
#include "unit/pairing/test_util.hpp"

namespace {

using cuzk::ec::g1_affine;
using cuzk::ec::g2_affine;
using cuzk::ff::fp;
using cuzk::ff::fp12;
using cuzk::ff::fp2;
using cuzk::ff::fr;
using cuzk::test::affine_add;
using cuzk::test::affine_mul;
using cuzk::test::nat;
using cuzk::test::seeded_rng;
namespace pr = cuzk::pairing;
namespace t = cuzk::test;

const nat& p_nat() {
  static const nat p = t::to_nat(fp::modulus);
  return p;
}
const nat& r_nat() {
  static const nat r = t::to_nat(fr::modulus);
  return r;
}

// e(G1, G2) for the standard generators, coordinates c0.c0.c0, c0.c0.c1, ..., c1.c2.c1.
// Source: zkcrypto/bls12_381 src/tests/mod.rs, test_pairing_result_against_relic (a value sent
// by RELIC's author, checked there); the same twelve coordinates are printed by @noble/curves
// 2.4.0 for bls12_381.pairing(G1.BASE, G2.BASE) (re-run through tests/noble's node_modules).
constexpr const char* kGtGenerator[12] = {
    "1250ebd871fc0a92a7b2d83168d0d727272d441befa15c503dd8e90ce98db3e7b6d194f60839c508a84305aaca1789b6",
    "089a1c5b46e5110b86750ec6a532348868a84045483c92b7af5af689452eafabf1a8943e50439f1d59882a98eaa0170f",
    "1368bb445c7c2d209703f239689ce34c0378a68e72a6b3b216da0e22a5031b54ddff57309396b38c881c4c849ec23e87",
    "193502b86edb8857c273fa075a50512937e0794e1e65a7617c90d8bd66065b1fffe51d7a579973b1315021ec3c19934f",
    "01b2f522473d171391125ba84dc4007cfbf2f8da752f7c74185203fcca589ac719c34dffbbaad8431dad1c1fb597aaa5",
    "018107154f25a764bd3c79937a45b84546da634b8f6be14a8061e55cceba478b23f7dacaa35c8ca78beae9624045b4b6",
    "19f26337d205fb469cd6bd15c3d5a04dc88784fbb3d0b2dbdea54d43b2b73f2cbb12d58386a8703e0f948226e47ee89d",
    "06fba23eb7c5af0d9f80940ca771b6ffd5857baaf222eb95a7d2809d61bfe02e1bfd1b68ff02f0b8102ae1c2d5d5ab1a",
    "11b8b424cd48bf38fcef68083b0b0ec5c81a93b330ee1a677d0d15ff7b984e8978ef48881e32fac91b93b47333e2ba57",
    "03350f55a7aefcd3c31b4fcb6ce5771cc6a0e9786ab5973320c806ad360829107ba810c5a09ffdd9be2291a0c25a99a2",
    "04c581234d086a9902249b64728ffd21a189e87935a954051c7cdba7b3872629a4fafc05066245cb9108f0242d0fe3ef",
    "0f41e58663bf08cf068672cbd01a7ec73baca4d72ca93544deff686bfd6df543d48eaa24afe47e1efde449383b676631",
};

std::string hex_of(const uint8_t* b, std::size_t n) {
  static const char* d = "0123456789abcdef";
  std::string s;
  for (std::size_t i = 0; i < n; ++i) {
    s += d[b[i] >> 4];
    s += d[b[i] & 15];
  }
  return s;
}

const g1_affine G1 = g1_affine::generator();
const g2_affine G2 = g2_affine::generator();

TEST(Pairing, KnownAnswerGenerators) {
  const fp12 e = pr::pairing(G1, G2);
  uint8_t buf[fp12::bytes];
  e.to_bytes_be(buf);
  for (int i = 0; i < 12; ++i) EXPECT_EQ(hex_of(buf + 48 * i, 48), kGtGenerator[i]) << "coordinate " << i;
  // The same through the prepared form and the multi-pairing.
  const pr::g2_prepared q(G2);
  EXPECT_EQ(pr::final_exponentiation(pr::miller_loop(G1, q)), e);
  const pr::g1g2_pair terms[] = {{G1, G2}};
  EXPECT_EQ(pr::multi_pairing(terms), e);
}

// x, r and p are consistent: r = x^4 - x^2 + 1, p = (x - 1)^2 r / 3 + x (x < 0).
TEST(Pairing, CurveParameters) {
  const nat X = {pr::bls_x_abs};  // x = -X
  const nat x2 = t::nat_mul(X, X);
  EXPECT_TRUE(t::nat_eq(r_nat(), t::nat_add(t::nat_sub(t::nat_mul(x2, x2), x2), {1})));
  uint64_t rem = 1;
  const nat xm1sq = t::nat_mul(t::nat_add(X, {1}), t::nat_add(X, {1}));  // (x - 1)^2 = (X + 1)^2
  const nat q = t::nat_div_small(t::nat_mul(xm1sq, r_nat()), 3, rem);
  EXPECT_EQ(rem, 0u);
  EXPECT_TRUE(t::nat_eq(p_nat(), t::nat_sub(q, X)));
}

// The hard-part exponent and the convention: final_exponentiation(f) = f^(3 (p^12 - 1)/r).
//   3 (p^4 - p^2 + 1)/r = (x - 1)^2 (x + p)(x^2 + p^2 - 1) + 3, checked as integers, and the
// result compared with generic square-and-multiply exponentiation by that exponent.
TEST(Pairing, FinalExponentiationExponent) {
  const nat X = {pr::bls_x_abs};
  const nat& p = p_nat();
  const nat p2 = t::nat_mul(p, p);
  const nat p4 = t::nat_mul(p2, p2);
  const nat phi = t::nat_add(t::nat_sub(p4, p2), {1});  // p^4 - p^2 + 1
  // (x - 1)^2 (x + p)(x^2 + p^2 - 1) + 3 with x = -X: (X + 1)^2 (p - X)(X^2 + p^2 - 1) + 3.
  const nat chain = t::nat_add(
      t::nat_mul(t::nat_mul(t::nat_mul(t::nat_add(X, {1}), t::nat_add(X, {1})), t::nat_sub(p, X)),
                 t::nat_sub(t::nat_add(t::nat_mul(X, X), p2), {1})),
      {3});
  EXPECT_TRUE(t::nat_eq(t::nat_mul(chain, r_nat()), t::nat_mul(phi, {3})));
  uint64_t rem = 1;
  const nat d = t::nat_div_small(chain, 3, rem);  // (p^4 - p^2 + 1)/r
  ASSERT_EQ(rem, 0u);
  ASSERT_TRUE(t::nat_eq(t::nat_mul(d, r_nat()), phi));

  seeded_rng rng;
  const fp12 f = pr::miller_loop(G1, G2);
  const fp12 g = fp12::random(rng);
  for (const fp12& a : {f, g}) {
    // a^((p^6 - 1)(p^2 + 1)) by generic exponentiation, then ^d.
    const fp12 e1 = a.pow(t::to_bigint<36>(t::nat_pow(p, 6))) * a.inverse();
    const fp12 e2 = e1.pow(t::to_bigint<12>(p2)) * e1;
    const fp12 exact = e2.pow(t::to_bigint<21>(d));  // a^((p^12 - 1)/r)
    const fp12 fe = pr::final_exponentiation(a);
    EXPECT_EQ(fe, exact * exact * exact);
    EXPECT_NE(fe, exact);  // the published convention is the cube (see pairing.hpp)
    EXPECT_TRUE(fe.pow(fr::modulus).is_one());
  }
}

// G2 step formulas against affine chord-and-tangent arithmetic.
TEST(Pairing, G2Steps) {
  seeded_rng rng;
  const g2_affine q = affine_mul(G2, fr::random(rng));
  const g2_affine q2 = affine_mul(G2, fr::random(rng));
  pr::g2_projective tp{q2.x * fp2{fp::from_u64(7), fp::one()}, q2.y * fp2{fp::from_u64(7), fp::one()},
                       fp2{fp::from_u64(7), fp::one()}};  // a non-trivial Z
  auto to_affine = [](const pr::g2_projective& p) {
    const fp2 zi = p.z.inverse();
    return g2_affine{p.x * zi, p.y * zi, false};
  };
  (void)pr::detail::double_step(tp);
  EXPECT_EQ(to_affine(tp), affine_add(q2, q2));
  (void)pr::detail::add_step(tp, q);
  EXPECT_EQ(to_affine(tp), affine_add(affine_add(q2, q2), q));
}

TEST(Pairing, Bilinearity) {
  seeded_rng rng;
  const fp12 e = pr::pairing(G1, G2);
  for (int i = 0; i < 2; ++i) {
    const fr a = fr::random(rng), b = fr::random(rng);
    const g1_affine P = affine_mul(G1, fr::random(rng));
    const g2_affine Q = affine_mul(G2, fr::random(rng));
    const fp12 epq = pr::pairing(P, Q);
    const g1_affine aP = affine_mul(P, a);
    const g2_affine bQ = affine_mul(Q, b);
    const fp12 eab = pr::pairing(aP, bQ);
    EXPECT_EQ(eab, epq.pow((a * b).to_canonical()));
    EXPECT_EQ(eab, pr::pairing(affine_mul(P, a * b), Q));
    EXPECT_EQ(eab, pr::pairing(P, affine_mul(Q, a * b)));
    // e(P1 + P2, Q) = e(P1, Q) e(P2, Q)
    EXPECT_EQ(pr::pairing(affine_add(P, aP), Q), epq * pr::pairing(aP, Q));
    EXPECT_EQ(pr::pairing(-P, Q), epq.conjugate());
    (void)e;
  }
  EXPECT_EQ(pr::pairing(affine_mul(G1, fr::from_u64(2)), G2), e * e);
}

TEST(Pairing, NonDegenerateAndOrderR) {
  const fp12 e = pr::pairing(G1, G2);
  EXPECT_FALSE(e.is_one());
  EXPECT_TRUE(e.pow(fr::modulus).is_one());
  seeded_rng rng;
  const fp12 e2 = pr::pairing(affine_mul(G1, fr::random(rng)), affine_mul(G2, fr::random(rng)));
  EXPECT_TRUE(e2.pow(fr::modulus).is_one());
  EXPECT_FALSE(e2.is_one());
}

TEST(Pairing, MultiPairingAndCheck) {
  seeded_rng rng;
  std::vector<pr::g1g2_pair> terms;
  fp12 prod = fp12::one();
  for (int i = 0; i < 3; ++i) {
    terms.push_back({affine_mul(G1, fr::random(rng)), affine_mul(G2, fr::random(rng))});
    prod = prod * pr::pairing(terms.back().first, terms.back().second);
  }
  EXPECT_EQ(pr::multi_pairing(terms), prod);

  // e(aP, bQ) e(-abP, Q) = 1.
  const fr a = fr::random(rng), b = fr::random(rng);
  const g1_affine P = affine_mul(G1, fr::random(rng));
  const g2_affine Q = affine_mul(G2, fr::random(rng));
  std::vector<pr::g1g2_pair> check = {{affine_mul(P, a), affine_mul(Q, b)}, {-affine_mul(P, a * b), Q}};
  EXPECT_TRUE(pr::pairing_check(check));
  // Prepared form of the same check.
  const pr::g2_prepared bq(check[0].second), qq(Q);
  std::vector<pr::g1_prepared_pair> pcheck = {{check[0].first, &bq}, {check[1].first, &qq}};
  EXPECT_TRUE(pr::pairing_check(pcheck));
  // Tampered: (ab + 1) instead of ab, or a different Q.
  auto bad = check;
  bad[1].first = -affine_mul(P, a * b + fr::one());
  EXPECT_FALSE(pr::pairing_check(bad));
  bad = check;
  bad[1].second = affine_mul(Q, fr::from_u64(2));
  EXPECT_FALSE(pr::pairing_check(bad));
  pcheck[1].first = -affine_mul(P, a * b + fr::one());
  EXPECT_FALSE(pr::pairing_check(pcheck));
}

TEST(Pairing, Identity) {
  const g1_affine O1 = g1_affine::identity();
  const g2_affine O2 = g2_affine::identity();
  EXPECT_TRUE(pr::pairing(O1, G2).is_one());
  EXPECT_TRUE(pr::pairing(G1, O2).is_one());
  EXPECT_TRUE(pr::pairing(O1, O2).is_one());
  EXPECT_TRUE(pr::pairing_check(std::span<const pr::g1g2_pair>{}));
  EXPECT_TRUE(pr::pairing_check(std::span<const pr::g1_prepared_pair>{}));
  const fp12 e = pr::pairing(G1, G2);
  const pr::g1g2_pair with_ids[] = {{O1, G2}, {G1, G2}, {G1, O2}, {O1, O2}};
  EXPECT_EQ(pr::multi_pairing(with_ids), e);
  const pr::g2_prepared po(O2), pg(G2);
  EXPECT_TRUE(po.infinity);
  const pr::g1_prepared_pair pwith_ids[] = {{O1, &pg}, {G1, &pg}, {G1, &po}, {O1, &po}};
  EXPECT_EQ(pr::multi_pairing(pwith_ids), e);
  const pr::g1g2_pair only_ids[] = {{O1, G2}, {G1, O2}};
  EXPECT_TRUE(pr::pairing_check(only_ids));
  EXPECT_TRUE(pr::miller_loop(O1, G2).is_one());
}

TEST(Pairing, PreparedEqualsUnprepared) {
  seeded_rng rng;
  std::vector<pr::g1g2_pair> terms;
  std::vector<pr::g2_prepared> preps;
  for (int i = 0; i < 3; ++i) {
    terms.push_back({affine_mul(G1, fr::random(rng)), affine_mul(G2, fr::random(rng))});
    preps.emplace_back(terms.back().second);
  }
  std::vector<pr::g1_prepared_pair> pterms;
  for (int i = 0; i < 3; ++i) {
    pterms.push_back({terms[i].first, &preps[i]});
    EXPECT_EQ(pr::miller_loop(terms[i].first, preps[i]), pr::miller_loop(terms[i].first, terms[i].second));
  }
  EXPECT_EQ(pr::multi_miller_loop(pterms), pr::multi_miller_loop(terms));
  EXPECT_EQ(pr::multi_pairing(pterms), pr::multi_pairing(terms));
}

}  // namespace
