// Miller loops (single, multi, prepared) and the final exponentiation; see pairing.hpp.
//
// Cost of one pairing in base-field multiplications (M), Fp2 m = 3M, s = 2M:
//   Miller loop: 62 Fp12 squares (36M) + 68 sparse products (39M + 4M evaluation)
//                + 63 doubling steps (21M) + 5 addition steps (37M)   ~ 6600M
//   final exp:   easy part ~ 1 Fp inversion (~570M) + ~250M;
//                hard part 5 x-exponentiations (63 cyclotomic squares of 18M + 5 products
//                of 54M each) + ~10 products + 3 Frobenius                ~ 7700M
// i.e. ~15000M per pairing; a multi-pairing of n terms costs about n * 3000M (loop) +
// 3500M (shared squarings) + 8500M (one final exponentiation).
#include "pairing/pairing.hpp"

#include <vector>

namespace cuzk::pairing {

namespace {

constexpr bool bit_of_x(unsigned i) { return ((bls_x_abs >> i) & 1) != 0; }

}  // namespace

g2_prepared::g2_prepared(const g2_affine& q) : lines{}, infinity(q.infinity) {
  if (q.infinity) return;
  g2_projective t{q.x, q.y, fp2::one()};
  std::size_t n = 0;
  for (unsigned i = bls_x_bits - 1; i-- > 0;) {
    lines[n++] = detail::double_step(t);
    if (bit_of_x(i)) lines[n++] = detail::add_step(t, q);
  }
}

fp12 miller_loop(const g1_affine& p, const g2_affine& q) {
  const g1g2_pair term{p, q};
  return multi_miller_loop(std::span<const g1g2_pair>(&term, 1));
}

fp12 miller_loop(const g1_affine& p, const g2_prepared& q) {
  const g1_prepared_pair term{p, &q};
  return multi_miller_loop(std::span<const g1_prepared_pair>(&term, 1));
}

fp12 multi_miller_loop(std::span<const g1g2_pair> terms) {
  // Active terms only: a point at infinity contributes 1.
  std::vector<const g1g2_pair*> act;
  std::vector<g2_projective> t;
  act.reserve(terms.size());
  t.reserve(terms.size());
  for (const auto& term : terms) {
    if (term.first.infinity || term.second.infinity) continue;
    act.push_back(&term);
    t.push_back({term.second.x, term.second.y, fp2::one()});
  }
  fp12 f = fp12::one();
  if (act.empty()) return f;
  for (unsigned i = bls_x_bits - 1; i-- > 0;) {
    if (i != bls_x_bits - 2) f = f.square();  // f = 1 on the first step
    for (std::size_t k = 0; k < act.size(); ++k)
      f = detail::mul_by_line(f, detail::double_step(t[k]), act[k]->first);
    if (bit_of_x(i)) {
      for (std::size_t k = 0; k < act.size(); ++k)
        f = detail::mul_by_line(f, detail::add_step(t[k], act[k]->second), act[k]->first);
    }
  }
  return bls_x_is_negative ? f.conjugate() : f;
}

fp12 multi_miller_loop(std::span<const g1_prepared_pair> terms) {
  fp12 f = fp12::one();
  bool any = false;
  for (const auto& term : terms) any |= !(term.first.infinity || term.second->infinity);
  if (!any) return f;
  std::size_t n = 0;
  for (unsigned i = bls_x_bits - 1; i-- > 0;) {
    if (i != bls_x_bits - 2) f = f.square();
    const unsigned steps = bit_of_x(i) ? 2 : 1;
    for (unsigned s = 0; s < steps; ++s, ++n) {
      for (const auto& term : terms) {
        if (term.first.infinity || term.second->infinity) continue;
        f = detail::mul_by_line(f, term.second->lines[n], term.first);
      }
    }
  }
  return bls_x_is_negative ? f.conjugate() : f;
}

fp12 final_exponentiation(const fp12& f) {
  // Easy part: m = f^((p^6 - 1)(p^2 + 1)). After it m is in the cyclotomic subgroup, where the
  // inverse is the conjugate and cyclotomic squaring applies.
  fp12 m = f.conjugate() * f.inverse();  // f^(p^6 - 1)
  m = m.frobenius(2) * m;                // ^(p^2 + 1)

  // Hard part: m^(3 (p^4 - p^2 + 1) / r) = m^(l0 + l1 p + l2 p^2 + l3 p^3) with
  //   l3 = (x - 1)^2, l2 = l3 x, l1 = l2 x - l3, l0 = l1 x + 3
  // (Hayashida-Hayasaka-Teruya, "Efficient final exponentiation via cyclotomic structure for
  // pairings over families of elliptic curves", 2020: 3 (p^4 - p^2 + 1)/r =
  // (x - 1)^2 (x + p)(x^2 + p^2 - 1) + 3; the expansion is checked in the tests).
  using detail::cyclotomic_exp_by_x;
  const fp12 t0 = cyclotomic_exp_by_x(m) * m.conjugate();    // m^(x - 1)
  const fp12 t1 = cyclotomic_exp_by_x(t0) * t0.conjugate();  // m^l3
  const fp12 t2 = cyclotomic_exp_by_x(t1);                   // m^l2
  const fp12 t3 = cyclotomic_exp_by_x(t2) * t1.conjugate();  // m^l1
  const fp12 t4 = cyclotomic_exp_by_x(t3) * m.cyclotomic_square() * m;  // m^l0
  return t4 * t3.frobenius(1) * t2.frobenius(2) * t1.frobenius(3);
}

fp12 pairing(const g1_affine& p, const g2_affine& q) {
  if (p.infinity || q.infinity) return fp12::one();
  return final_exponentiation(miller_loop(p, q));
}

fp12 multi_pairing(std::span<const g1g2_pair> terms) { return final_exponentiation(multi_miller_loop(terms)); }

fp12 multi_pairing(std::span<const g1_prepared_pair> terms) {
  return final_exponentiation(multi_miller_loop(terms));
}

bool pairing_check(std::span<const g1g2_pair> terms) { return multi_pairing(terms).is_one(); }

bool pairing_check(std::span<const g1_prepared_pair> terms) { return multi_pairing(terms).is_one(); }

}  // namespace cuzk::pairing
