// Variables, linear combinations (bellpepper's merge and order semantics), result<T>, BLAKE2s.
#include <gtest/gtest.h>

#include <vector>

#include "r1cs/blake2s.hpp"
#include "r1cs/r1cs.hpp"
#include "support/seed.hpp"

namespace cuzk::r1cs {
namespace {

fr f(uint64_t x) { return fr::from_u64(x); }

TEST(r1cs_variable, KindsIndicesAndOrder) {
  const variable i3 = variable::input(3), a0 = variable::aux(0), a7 = variable::aux(7);
  EXPECT_TRUE(i3.is_input());
  EXPECT_EQ(i3.kind(), var_kind::input);
  EXPECT_EQ(i3.index(), 3u);
  EXPECT_TRUE(a7.is_aux());
  EXPECT_EQ(a7.kind(), var_kind::aux);
  EXPECT_EQ(a7.index(), 7u);
  EXPECT_EQ(variable::one(), variable::input(0));
  EXPECT_EQ(variable{}, variable::one());
  // bellpepper's OrderedVariable order: every input before every aux.
  EXPECT_LT(variable::input(1000000), a0);
  EXPECT_LT(a0, a7);
  EXPECT_NE(variable::input(2), variable::aux(2));
}

std::vector<term> terms_of(const linear_combination& lc) { return {lc.terms().begin(), lc.terms().end()}; }

TEST(r1cs_linear_combination, MergesAndKeepsBellpepperOrder) {
  linear_combination lc;
  lc += variable::aux(5);
  lc += f(3) * variable::input(2);
  lc += variable::aux(1);
  lc += f(4) * variable::aux(5);  // merges into aux 5
  lc -= variable::input(0);
  lc = lc + variable::aux(3) + variable::aux(4) + variable::aux(6);  // the consecutive fast path
  const std::vector<term> expected = {
      {variable::input(0), -fr::one()}, {variable::input(2), f(3)}, {variable::aux(1), fr::one()},
      {variable::aux(3), fr::one()},    {variable::aux(4), fr::one()}, {variable::aux(5), f(5)},
      {variable::aux(6), fr::one()},
  };
  EXPECT_EQ(terms_of(lc), expected);
  EXPECT_EQ(lc.size(), 7u);
}

TEST(r1cs_linear_combination, CancelledTermsStayWithZeroCoefficient) {
  // bellpepper keeps a term whose coefficients sum to zero (Indexer never removes).
  linear_combination lc = linear_combination(variable::aux(2)) - variable::aux(2);
  ASSERT_EQ(lc.size(), 1u);
  EXPECT_TRUE(lc.terms()[0].coeff.is_zero());
  // And adding a zero-coefficient term inserts it.
  lc.add_term(variable::input(1), fr::zero());
  EXPECT_EQ(lc.size(), 2u);
  EXPECT_EQ(lc.terms()[0].var, variable::input(1));
}

TEST(r1cs_linear_combination, AddSubScaleMatchDefinition) {
  test::seeded_rng rng;
  for (int iter = 0; iter < 200; ++iter) {
    std::vector<fr> in(5), aux(9);
    for (auto& x : in) x = fr::random(rng);
    for (auto& x : aux) x = fr::random(rng);
    auto rand_var = [&] {
      return rng() % 3 == 0 ? variable::input(rng() % in.size()) : variable::aux(rng() % aux.size());
    };
    auto rand_lc = [&] {
      linear_combination lc;
      const std::size_t n = rng() % 8;
      for (std::size_t i = 0; i < n; ++i) lc.add_term(rand_var(), fr::random(rng));
      return lc;
    };
    const linear_combination x = rand_lc(), y = rand_lc();
    const fr s = fr::random(rng);
    const fr vx = x.evaluate(in, aux), vy = y.evaluate(in, aux);
    EXPECT_EQ((x + y).evaluate(in, aux), vx + vy);
    EXPECT_EQ((x - y).evaluate(in, aux), vx - vy);
    EXPECT_EQ((s * x).evaluate(in, aux), s * vx);
    EXPECT_EQ((x * s).evaluate(in, aux), s * vx);
    linear_combination z = x;
    z.add_scaled(s, y);
    EXPECT_EQ(z.evaluate(in, aux), vx + s * vy);
    z = x;
    z.sub_scaled(s, y);
    EXPECT_EQ(z.evaluate(in, aux), vx - s * vy);
    // Canonical form: strictly increasing variables.
    const linear_combination sum = x + y;
    for (std::size_t i = 1; i < sum.size(); ++i) EXPECT_LT(sum.terms()[i - 1].var, sum.terms()[i].var);
    // Order of additions does not matter for the resulting term list.
    EXPECT_EQ(terms_of(x + y), terms_of(y + x));
    const variable v = rand_var();
    EXPECT_EQ((x + v).evaluate(in, aux), vx + (v.is_input() ? in[v.index()] : aux[v.index()]));
    EXPECT_EQ((x - s * v).evaluate(in, aux), vx - s * (v.is_input() ? in[v.index()] : aux[v.index()]));
  }
}

result<fr> halve(const fr& x, bool fail) {
  if (fail) return synthesis_error::division_by_zero;
  return x * fr::from_u64(2).inverse();
}

result<fr> quarter(const fr& x, bool fail) {
  CUZK_R1CS_TRY(fr h, halve(x, fail));
  CUZK_R1CS_TRY(fr q, halve(h, false));
  return q;
}

TEST(r1cs_result, ValueErrorAndPropagation) {
  result<fr> ok_r = quarter(f(8), false);
  ASSERT_TRUE(ok_r.ok());
  EXPECT_EQ(*ok_r, f(2));
  result<fr> bad = quarter(f(8), true);
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error(), synthesis_error::division_by_zero);
  EXPECT_STREQ(to_string(synthesis_error::assignment_missing), "an assignment for a variable could not be computed");
  auto check = [](bool fail) -> result<void> {
    CUZK_R1CS_CHECK(halve(f(1), fail));
    return ok();
  };
  EXPECT_TRUE(check(false).ok());
  EXPECT_EQ(check(true).error(), synthesis_error::division_by_zero);
}

std::string b2s(const std::vector<uint8_t>& m) { return to_hex(blake2s_256::hash(m)); }

TEST(r1cs_blake2s, KnownAnswers) {
  // RFC 7693 Appendix B ("abc") and the empty message; the longer ones are from Python's
  // hashlib.blake2s (an independent implementation).
  EXPECT_EQ(b2s({}), "69217a3079908094e11121d042354a7c1f55b6482ca1a51e1b250dfd1ed0eef9");
  EXPECT_EQ(b2s({'a', 'b', 'c'}), "508c5e8c327c14e2e1a72ba34eeb452f37458b209ed63a294d999b4c86675982");
  std::vector<uint8_t> m64(64), m768(768);
  for (std::size_t i = 0; i < m64.size(); ++i) m64[i] = static_cast<uint8_t>(i);
  for (std::size_t i = 0; i < m768.size(); ++i) m768[i] = static_cast<uint8_t>(i);
  EXPECT_EQ(b2s(m64), "56f34e8b96557e90c1f24b52d0c89d51086acf1b00f634cf1dde9233b8eaaa3e");
  EXPECT_EQ(b2s(m768), "b928a17862e211e99759ba8819280803a914cd3dee7c5d711a3b5185aa96a7b3");
}

TEST(r1cs_blake2s, IncrementalEqualsOneShot) {
  test::seeded_rng rng;
  std::vector<uint8_t> m(1000);
  for (auto& b : m) b = static_cast<uint8_t>(rng());
  const auto want = blake2s_256::hash(m);
  for (int iter = 0; iter < 50; ++iter) {
    blake2s_256 h;
    std::size_t pos = 0;
    while (pos < m.size()) {
      std::size_t n = std::min<std::size_t>(m.size() - pos, rng() % 130);
      h.update(m.data() + pos, n);
      pos += n;
    }
    EXPECT_EQ(h.finalize(), want);
  }
}

}  // namespace
}  // namespace cuzk::r1cs
