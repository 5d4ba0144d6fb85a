// The MSMs' last host step (msm_host_finish.hpp) against scalar multiplication: the window sums
// combined by Horner equal sum_w sum_j [2^(offset of w)] S_wj, on both curves, with several sums
// per window, identities, equal points (doublings inside the sums) and the MSM plans' window
// widths. Host only: runs without a GPU.
#include "backend/cuda/msm_host_finish.hpp"

#include <gtest/gtest.h>

#include <numeric>
#include <vector>

#include "support/seed.hpp"

namespace {

using namespace cuzk;
using ff::fr;

template <class Curve>
void check_combine(test::seeded_rng& rng, std::vector<unsigned> bits, unsigned per_window) {
  using xyzz = ec::xyzz_point<Curve>;
  using jac = ec::jacobian_point<Curve>;
  std::vector<xyzz> sums(bits.size() * per_window);
  for (std::size_t i = 0; i < sums.size(); ++i) {
    // Random points with a random Z (XYZZ from a rescaled Jacobian), some identities, some equal.
    jac p = ec::scalar_mul(jac::generator(), fr::random(rng));
    const auto z = Curve::field::random(rng);
    p = {p.X * z.square(), p.Y * z.square() * z, p.Z * z};
    sums[i] = i % 7 == 3 ? xyzz::identity() : i % 5 == 4 ? sums[i - 1] : xyzz::from_jacobian(p);
  }
  jac want = jac::identity();
  fr weight = fr::one();  // 2^(bits of the windows below w)
  for (std::size_t w = 0; w < bits.size(); ++w) {
    for (unsigned j = 0; j < per_window; ++j)
      want = want + ec::scalar_mul(sums[w * per_window + j].to_jacobian(), weight);
    for (unsigned i = 0; i < bits[w]; ++i) weight = weight + weight;
  }
  const jac got = cuda::combine_window_sums<Curve>(sums, per_window, bits);
  EXPECT_TRUE(got == want) << bits.size() << " windows, " << per_window << " sums each";
  jac all = jac::identity();
  for (const xyzz& s : sums) all = all + s.to_jacobian();
  EXPECT_TRUE(cuda::sum_points<Curve>(sums).to_jacobian() == all);
}

template <class Curve>
void check_curve() {
  test::seeded_rng rng;
  // The G1 MSM plans at 2^26 (12 windows: 3 of 22 bits, 9 of 21) and a 0/1 split's rest (24 of
  // 11 bits at 2^24, 16 of 16 at 2^27), one window, and the all-identity case.
  std::vector<unsigned> w12(12, 21);
  w12[0] = w12[1] = w12[2] = 22;
  check_combine<Curve>(rng, w12, 4);
  check_combine<Curve>(rng, std::vector<unsigned>(24, 11), 1);
  check_combine<Curve>(rng, std::vector<unsigned>(16, 16), 3);
  check_combine<Curve>(rng, {255}, 2);
  const std::vector<ec::xyzz_point<Curve>> none(8, ec::xyzz_point<Curve>::identity());
  EXPECT_TRUE(cuda::combine_window_sums<Curve>(none, 2, std::vector<unsigned>{100, 155}).is_identity());
  EXPECT_TRUE(cuda::sum_points<Curve>(none).is_identity());
}

TEST(MsmHostFinish, G1MatchesScalarMultiplication) { check_curve<ec::g1_curve>(); }
TEST(MsmHostFinish, G2MatchesScalarMultiplication) { check_curve<ec::g2_curve>(); }

}  // namespace
