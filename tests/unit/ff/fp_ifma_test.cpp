// The 8-lane IFMA Fp products (ff/fp_ifma.hpp) against the scalar ff::fp, on random values, the
// edge values 0, 1, p - 1, and unreduced inputs up to 2^384 - 1 (the lanes accept any 6-word
// value; the scalar reference reduces them mod p first).
#include <gtest/gtest.h>

#include <vector>

#include "ff/fp_ifma.hpp"
#include "support/seed.hpp"

namespace {

using namespace cuzk;
using ff::bigint;
using ff::fp;

// x mod p for any x < 2^384 (at most 10 subtractions: p > 2^380).
bigint<6> reduce(bigint<6> x) {
  while (!ff::less_than(x, fp::modulus)) ff::sub_in_place(x, fp::modulus);
  return x;
}

// The scalar Montgomery product of the reduced inputs.
bigint<6> ref_mul(const bigint<6>& a, const bigint<6>& b) {
  return (fp::from_montgomery_repr(reduce(a)) * fp::from_montgomery_repr(reduce(b))).v;
}

std::vector<bigint<6>> edge_values() {
  std::vector<bigint<6>> v;
  bigint<6> pm1 = fp::modulus;
  ff::sub_in_place(pm1, ff::from_u64<6>(1));
  bigint<6> all_ones;
  for (auto& w : all_ones.w) w = ~uint64_t{0};
  bigint<6> two381m1{}, two381{}, two382{};
  for (int i = 0; i < 5; ++i) two381m1.w[i] = ~uint64_t{0};
  two381m1.w[5] = (uint64_t{1} << 61) - 1;
  two381.w[5] = uint64_t{1} << 61;
  two382.w[5] = uint64_t{1} << 62;
  bigint<6> p = fp::modulus, twop = fp::modulus;
  ff::add_in_place(twop, fp::modulus);
  v = {bigint<6>{}, ff::from_u64<6>(1), fp::r1, pm1, p, twop, two381m1, two381, two382, all_ones};
  return v;
}

bigint<6> random_raw(test::seeded_rng& rng) {
  bigint<6> x;
  for (auto& w : x.w) w = rng();
  return x;
}

TEST(FpIfma, MulAndSquareMatchScalar) {
  if (!ff::ifma::available()) GTEST_SKIP() << "no AVX-512 IFMA on this CPU";
  test::seeded_rng rng;
  const auto edges = edge_values();
  std::vector<bigint<6>> pool = edges;
  for (int i = 0; i < 54; ++i) pool.push_back(i % 2 ? random_raw(rng) : fp::random(rng).v);
  // Every (edge, edge) pair plus random pairs, 8 per call.
  std::vector<std::pair<bigint<6>, bigint<6>>> pairs;
  for (const auto& a : edges)
    for (const auto& b : edges) pairs.push_back({a, b});
  for (int i = 0; i < 4000; ++i) pairs.push_back({pool[rng() % pool.size()], i % 3 ? fp::random(rng).v : random_raw(rng)});
  while (pairs.size() % 8) pairs.push_back({bigint<6>{}, bigint<6>{}});
  for (std::size_t s = 0; s < pairs.size(); s += 8) {
    bigint<6> a[8], b[8], r[8], q[8];
    for (int l = 0; l < 8; ++l) {
      a[l] = pairs[s + l].first;
      b[l] = pairs[s + l].second;
    }
    ASSERT_TRUE(ff::ifma::mul8(r, a, b));
    ASSERT_TRUE(ff::ifma::square8(q, a));
    for (int l = 0; l < 8; ++l) {
      ASSERT_EQ(r[l], ref_mul(a[l], b[l])) << "mul, pair " << s + l;
      ASSERT_EQ(q[l], ref_mul(a[l], a[l])) << "square, pair " << s + l;
    }
  }
}

// Long dependent chains stay canonical at the end (outputs below 2.3p feed the next product).
TEST(FpIfma, ChainMatchesScalar) {
  if (!ff::ifma::available()) GTEST_SKIP() << "no AVX-512 IFMA on this CPU";
  test::seeded_rng rng;
  bigint<6> x[8], y[8], ref[8];
  for (int l = 0; l < 8; ++l) {
    x[l] = l == 0 ? bigint<6>{} : fp::random(rng).v;
    y[l] = l == 1 ? ff::fp::r1 : fp::random(rng).v;
    ref[l] = x[l];
  }
  for (int i = 0; i < 1000; ++i)
    for (int l = 0; l < 8; ++l) ref[l] = ref_mul(ref[l], y[l]);
  ASSERT_TRUE(ff::ifma::mul8_chain(x, y, 1000));
  for (int l = 0; l < 8; ++l) EXPECT_EQ(x[l], ref[l]) << "lane " << l;
}

}  // namespace
