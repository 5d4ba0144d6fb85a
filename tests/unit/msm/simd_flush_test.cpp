// The 8-lane IFMA batch-affine flush and bucket reduction (msm/batch_add_simd.hpp) against the
// scalar code. The flush alone must write the same bucket words as the scalar formulas; whole
// Pippenger runs with options::simd on and off must give the same point (the lane reduction adds
// in another order, so the Jacobian representatives differ; affine results are identical), on
// random inputs, batches whose size is not a multiple of 8, and adversarial ones (repeated bases
// and digits: conflicts, doublings and cancellations go to the XYZZ overflow, or make the lane
// reduction fall back). The lane reduction alone against running sums, with empty buckets and
// with doublings (must decline). Also checked against the naive sum once per curve.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "ff/fp_ifma.hpp"
#include "msm/batch_add_simd.hpp"
#include "msm/msm.hpp"
#include "support/seed.hpp"

namespace {

using namespace cuzk;
using cuzk::ff::fr;

template <class Curve>
using affine = ec::affine_point<Curve>;
template <class Curve>
using jac = ec::jacobian_point<Curve>;

template <class Curve>
std::vector<affine<Curve>> bases(std::size_t n, test::seeded_rng& rng) {
  std::vector<jac<Curve>> steps;
  for (int i = 0; i < 8; ++i) steps.push_back(ec::scalar_mul(jac<Curve>::generator(), fr::random(rng)));
  std::vector<jac<Curve>> pts(n);
  jac<Curve> p = ec::scalar_mul(jac<Curve>::generator(), fr::random(rng));
  for (auto& q : pts) q = p = p + steps[rng() % steps.size()];
  std::vector<affine<Curve>> out(n);
  ec::batch_to_affine(std::span<const jac<Curve>>(pts), std::span<affine<Curve>>(out));
  return out;
}


template <class Curve>
void compare(const std::vector<affine<Curve>>& b, const std::vector<msm::scalar_repr>& s, unsigned c, unsigned batch,
             msm::scalar_split split) {
  base::serial_executor ex;
  msm::options o;
  o.window_bits = c;
  o.acc = msm::accumulation::batch_affine;
  o.batch_size = batch;
  o.split = split;
  o.simd = false;
  const auto ref = msm::pippenger<Curve>(std::span<const affine<Curve>>(b), std::span<const msm::scalar_repr>(s), ex, o);
  o.simd = true;
  const auto got = msm::pippenger<Curve>(std::span<const affine<Curve>>(b), std::span<const msm::scalar_repr>(s), ex, o);
  EXPECT_TRUE(ref == got) << "n " << s.size() << " c " << c << " batch " << batch;
  EXPECT_TRUE(ref.to_affine() == got.to_affine());
}

template <class Curve>
void simd_matches_scalar(std::size_t n) {
  if (!msm::detail::simd_flush_available()) GTEST_SKIP() << "no AVX-512 IFMA (or CUZK_MSM_SIMD=0)";
  test::seeded_rng rng;
  auto b = bases<Curve>(n, rng);
  std::vector<msm::scalar_repr> s(n);
  for (auto& x : s) x = fr::random(rng).to_canonical();
  // Batch sizes around the lane width and the simd threshold; plain and split digits.
  for (unsigned c : {8u, 13u})
    for (unsigned batch : {16u, 23u, 250u, 1024u})
      for (auto split : {msm::scalar_split::none, msm::scalar_split::endomorphism}) compare<Curve>(b, s, c, batch, split);

  // Adversarial: few distinct bases (equal x within a window: doublings), +-P pairs
  // (cancellations), few distinct scalars (every point into the same buckets: conflicts).
  std::vector<affine<Curve>> rb(n);
  std::vector<msm::scalar_repr> rs(n);
  const auto few = bases<Curve>(5, rng);
  const msm::scalar_repr k[3] = {fr::random(rng).to_canonical(), fr::random(rng).to_canonical(),
                                 fr::from_u64(12345).to_canonical()};
  for (std::size_t i = 0; i < n; ++i) {
    rb[i] = (i % 7 == 3) ? -few[i % 5] : few[i % 5];
    rs[i] = (i % 4 == 0) ? fr::random(rng).to_canonical() : k[i % 3];
  }
  for (unsigned c : {9u, 13u})
    for (unsigned batch : {16u, 100u})
      for (auto split : {msm::scalar_split::none, msm::scalar_split::endomorphism}) compare<Curve>(rb, rs, c, batch, split);

  // Against the naive sum, once.
  base::serial_executor ex;
  std::vector<fr> sf(n);
  for (std::size_t i = 0; i < n; ++i) sf[i] = fr::from_canonical(s[i]);
  msm::options o;
  o.acc = msm::accumulation::batch_affine;
  o.window_bits = 10;
  o.batch_size = 64;
  EXPECT_TRUE(msm::multiexp<Curve>(std::span<const affine<Curve>>(b), std::span<const fr>(sf), ex, o) ==
              msm::naive_msm<Curve>(std::span<const affine<Curve>>(b), std::span<const fr>(sf)));
}

TEST(MsmSimdFlush, G1MatchesScalarFlush) { simd_matches_scalar<ec::g1_curve>(2001); }
TEST(MsmSimdFlush, G2MatchesScalarFlush) { simd_matches_scalar<ec::g2_curve>(601); }

// The flush alone on a hand-made batch: every lane count 1..40 (tails of every length).
TEST(MsmSimdFlush, G1EveryBatchLength) {
  if (!msm::detail::simd_flush_available()) GTEST_SKIP() << "no AVX-512 IFMA (or CUZK_MSM_SIMD=0)";
  test::seeded_rng rng;
  const auto pts = bases<ec::g1_curve>(200, rng);
  for (std::size_t m = 1; m <= 40; ++m) {
    std::vector<ec::g1_affine> bk(pts.begin(), pts.begin() + static_cast<std::ptrdiff_t>(m));
    std::vector<msm::detail::batch_item<ec::g1_affine>> items;
    std::vector<ec::g1_affine> expect(m);
    for (std::size_t i = 0; i < m; ++i) {
      const bool negate = rng() & 1;
      const ec::g1_affine& p = pts[100 + i];
      items.push_back({static_cast<uint32_t>(i), negate ? 1u : 0u, &p});
      expect[i] = (jac<ec::g1_curve>::from_affine(bk[i]) + jac<ec::g1_curve>::from_affine(negate ? -p : p)).to_affine();
    }
    msm::detail::simd_flush_scratch scratch;
    msm::detail::simd_batch_add_g1(bk.data(), items.data(), m, scratch);
    for (std::size_t i = 0; i < m; ++i) ASSERT_TRUE(bk[i] == expect[i]) << "m " << m << " item " << i;
  }
}

// sum_b (b + 1) B_b by running sums in Jacobian coordinates (the reference).
template <class Curve>
jac<Curve> weighted_sum(const std::vector<affine<Curve>>& bk) {
  jac<Curve> run = jac<Curve>::identity(), tot = jac<Curve>::identity();
  for (std::size_t b = bk.size(); b-- > 0;) {
    run = run + bk[b];
    tot = tot + run;
  }
  return tot;
}

template <class Curve>
void bucket_sum_matches() {
  if (!msm::detail::simd_flush_available()) GTEST_SKIP() << "no AVX-512 IFMA (or CUZK_MSM_SIMD=0)";
  test::seeded_rng rng;
  for (std::size_t nb : {8u, 64u, 256u}) {
    auto bk = bases<Curve>(nb, rng);
    for (auto& p : bk)
      if (rng() % 5 == 0) p = affine<Curve>::identity();
    if (nb == 64) {  // whole segments empty, and an all-empty segment at the top
      for (std::size_t b = 0; b < 8; ++b) bk[b] = affine<Curve>::identity();
      for (std::size_t b = 56; b < 64; ++b) bk[b] = affine<Curve>::identity();
    }
    ec::xyzz_point<Curve> got;
    ASSERT_TRUE(msm::detail::simd_bucket_sum(bk.data(), nb, got)) << "nb " << nb;
    EXPECT_TRUE(weighted_sum<Curve>(bk) == got.to_jacobian()) << "nb " << nb;
  }
  // Every bucket the same point: the first running-sum step doubles; must decline.
  std::vector<affine<Curve>> same(64, bases<Curve>(1, rng)[0]);
  ec::xyzz_point<Curve> out;
  EXPECT_FALSE(msm::detail::simd_bucket_sum(same.data(), same.size(), out));
  // Not a multiple of 8: declines.
  EXPECT_FALSE(msm::detail::simd_bucket_sum(same.data(), 60, out));
}

TEST(MsmSimdReduce, G1MatchesRunningSums) { bucket_sum_matches<ec::g1_curve>(); }
TEST(MsmSimdReduce, G2MatchesRunningSums) { bucket_sum_matches<ec::g2_curve>(); }

}  // namespace
