// Device Fp2 / G2 arithmetic and the G2 MSM against the CPU (ff::fp2, ec::xyzz_point over G2,
// msm::multiexp), bit for bit, on random inputs (seed printed; replay with CUZK_TEST_SEED).
// Skipped without a GPU.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "msm_test_support.hpp"

namespace {

using namespace cuzk;
using ff::fp;
using ff::fp2;
using ff::fr;
namespace cuda = cuzk::cuda;

using cuda::test_support::context;
using cuda::test_support::cpu_msm;
using cuda::test_support::expect_same;
using cuda::test_support::gpu_msm;
using cuda::test_support::random_scalars;
auto random_bases(std::size_t n, test::seeded_rng& rng) {
  return cuda::test_support::random_bases<ec::g2_curve>(n, rng);
}

TEST(CudaG2, FieldAndPointsMatchHost) {
  REQUIRE_GPU();
  test::seeded_rng rng;
  const std::size_t n = 2051;
  std::vector<fp2> a(n), b(n);
  for (std::size_t i = 0; i < n; ++i) a[i] = fp2::random(rng), b[i] = fp2::random(rng);
  // Edge values: 0, 1, -1, u, -u, 1 + u, p - 1 in both coordinates.
  const fp2 edges[] = {fp2::zero(), fp2::one(), -fp2::one(), {fp::zero(), fp::one()}, {fp::zero(), -fp::one()},
                       {fp::one(), fp::one()}, {-fp::one(), -fp::one()}};
  std::size_t k = 0;
  for (const fp2& x : edges)
    for (const fp2& y : edges) a[k] = x, b[k] = y, ++k;
  // p[i] in XYZZ with a random Z, some identities; q[i] affine, equal to p[i] (doubling path)
  // or -p[i] (identity path) at a few indices; add(p[20], p[21]) doubles, add(p[30], p[31]) cancels.
  const std::size_t m = 131;
  std::vector<ec::g2_xyzz> p(m);
  std::vector<ec::g2_affine> q(m);
  const ec::g2_jacobian g = ec::g2_jacobian::generator();
  for (std::size_t i = 0; i < m; ++i) {
    ec::g2_jacobian j = ec::scalar_mul(g, fr::random(rng));
    const fp2 z = fp2::random(rng);
    const fp2 z2 = z * z;
    j = {j.X * z2, j.Y * z2 * z, j.Z * z};
    p[i] = ec::g2_xyzz::from_jacobian(j);
    q[i] = ec::scalar_mul(g, fr::random(rng)).to_affine();
  }
  p[3] = p[7] = p[8] = ec::g2_xyzz::identity();
  q[10] = p[10].to_affine();
  q[11] = -p[11].to_affine();
  p[21] = p[20];
  p[31] = -p[30];
  cuda::g2_selftest_result out;
  std::string error;
  ASSERT_TRUE(cuda::run_g2_selftest(a, b, p, q, out, error)) << error;
  for (std::size_t i = 0; i < n; ++i) {
    ASSERT_EQ(out.mul[i], a[i] * b[i]) << "mul at " << i;
    ASSERT_EQ(out.sqr[i], a[i] * a[i]) << "sqr at " << i;
    ASSERT_EQ(out.add[i], a[i] + b[i]) << "add at " << i;
    ASSERT_EQ(out.sub[i], a[i] - b[i]) << "sub at " << i;
    ASSERT_EQ(out.neg[i], -a[i]) << "neg at " << i;
  }
  // u^2 = -1 on the device, independent of the host's multiplication.
  ASSERT_EQ(out.mul[3 * 7 + 3], -fp2::one()) << "u * u";
  auto same = [](const ec::g2_xyzz& got, const ec::g2_xyzz& want) {
    if (want.is_identity() || got.is_identity()) return got.is_identity() == want.is_identity();
    return got.X == want.X && got.Y == want.Y && got.ZZ == want.ZZ && got.ZZZ == want.ZZZ;
  };
  for (std::size_t i = 0; i < m; ++i) {
    ASSERT_TRUE(same(out.point_add_mixed[i], ec::g2_xyzz::add_mixed(p[i], q[i]))) << "add_mixed at " << i;
    ASSERT_TRUE(same(out.point_add[i], ec::g2_xyzz::add(p[i], p[(i + 1) % m]))) << "add at " << i;
    ASSERT_TRUE(same(out.point_dbl[i], p[i].dbl())) << "dbl at " << i;
  }
  EXPECT_TRUE(out.point_add_mixed[11].is_identity());
  EXPECT_TRUE(out.point_add[30].is_identity());
  EXPECT_FALSE(out.point_add[20].is_identity());
  EXPECT_TRUE(out.point_add[20].is_on_curve());
}

// Random bases and scalars, sizes around and off powers of two; forced windows and plans.
TEST(CudaG2Msm, MatchesCpuRandom) {
  REQUIRE_GPU();
  test::seeded_rng rng;
  const auto b = random_bases(6000, rng);
  const auto s = random_scalars(6000, rng);
  for (std::size_t n : {1, 2, 3, 31, 100, 1023, 1024, 4097, 6000}) {
    std::vector<ec::g2_affine> bn(b.begin(), b.begin() + n);
    std::vector<fr> sn(s.begin(), s.begin() + n);
    expect_same(gpu_msm(bn, sn), cpu_msm(bn, sn), "n=" + std::to_string(n));
  }
  const std::size_t n = 3001;
  std::vector<ec::g2_affine> bn(b.begin(), b.begin() + n);
  std::vector<fr> sn(s.begin(), s.begin() + n);
  const ec::g2_jacobian want = cpu_msm(bn, sn);
  for (unsigned c : {3u, 8u, 13u}) {
    cuda::g1_msm_options o;
    o.window_bits = c;
    expect_same(gpu_msm(bn, sn, o), want, "c=" + std::to_string(c));
  }
  cuda::g1_msm_options o;
  o.accumulate_threads = 37;
  o.g2_accumulate_min_blocks = 2;
  o.max_pairs_per_sort = n;  // one window per sort
  expect_same(gpu_msm(bn, sn, o), want, "37 accumulation threads, 128-register cap, one window per sort");
  o.accumulate_threads = 1;
  o.g2_accumulate_min_blocks = 3;  // G2 falls back to the 128-register cap
  o.reduce_segment = 2;
  o.window_bits = 7;
  expect_same(gpu_msm(bn, sn, o), want, "one accumulation thread, segments of 2");
  std::string error;
  o = {};
  o.g2_accumulate_min_blocks = 4;
  EXPECT_FALSE(context().set_options(o, error));
}

// Batch-affine halving rounds over G2 (g2_affine_rounds) against the CPU, bit for bit in affine
// coordinates: random inputs around powers of two, small windows (buckets of hundreds of entries
// over many ranges and rounds), the smallest and the largest range, more rounds than a bucket
// needs; then the exceptional cases (doubling, cancellation, infinities, one heavy bucket).
TEST(CudaG2Msm, BatchAffineMatchesCpu) {
  REQUIRE_GPU();
  test::seeded_rng rng;
  const auto b = random_bases(4000, rng);
  const auto s = random_scalars(4000, rng);
  cuda::test_support::expect_rounds_match<ec::g2_curve>(b, s, {1, 2, 8}, {1, 2, 3, 31, 1023, 1025, 4000});
  const ec::g2_jacobian want = cpu_msm(b, s);
  for (unsigned range : {16u, 16384u})
    for (unsigned c : {3u, 6u}) {
      cuda::g1_msm_options o = cuda::test_support::with_rounds<ec::g2_curve>(3);
      o.g2_affine_range = range;
      o.window_bits = c;
      o.affine_local_prefix = true;  // G2 always runs the global-scratch kernel
      expect_same(gpu_msm(b, s, o), want, "range=" + std::to_string(range) + " c=" + std::to_string(c));
    }
  // Below affine_min_points (default 2^20) a Pippenger MSM runs without the rounds.
  cuda::g1_msm_options o;
  o.g2_affine_rounds = 2;
  o.profile = true;
  expect_same(gpu_msm(b, s, o), want, "rounds below affine_min_points");
  EXPECT_EQ(context().profile().affine_rounds_done, 0u);
  o.affine_min_points = b.size();
  expect_same(gpu_msm(b, s, o), want, "rounds at affine_min_points");
  EXPECT_GT(context().profile().affine_rounds_done, 0u);
  cuda::test_support::check_batch_affine_exceptional<ec::g2_curve>(rng, 2500);
}

// Zero, one and 0/1-heavy scalars; bases at infinity; device scalars; density filter.
TEST(CudaG2Msm, EdgesDeviceScalarsAndDensity) {
  REQUIRE_GPU();
  test::seeded_rng rng;
  const std::size_t n = 2000;
  auto b = random_bases(n, rng);
  std::vector<fr> zeros(n, fr::zero()), ones(n, fr::one());
  expect_same(gpu_msm(b, zeros), ec::g2_jacobian::identity(), "all zero");
  expect_same(gpu_msm(b, ones), cpu_msm(b, ones), "all one");
  std::vector<fr> mixed(n);
  for (auto& x : mixed) {
    const uint64_t r = rng() % 100;
    x = r < 80 ? fr::zero() : r < 97 ? fr::one() : r < 98 ? -fr::one() : fr::random(rng);
  }
  expect_same(gpu_msm(b, mixed), cpu_msm(b, mixed), "0/1-heavy");
  for (std::size_t i = 0; i < n; i += 7) b[i] = ec::g2_affine::identity();
  const auto s = random_scalars(n, rng);
  const ec::g2_jacobian want = cpu_msm(b, s);
  expect_same(gpu_msm(b, s), want, "infinity bases");

  std::string error;
  cuda::g2_device_bases db;
  ASSERT_TRUE(db.upload(b, error)) << error;
  cuda::device_fr_vector ds;
  ASSERT_TRUE(ds.upload(s, error)) << error;
  ec::g2_jacobian got;
  ASSERT_TRUE(context().msm(db, ds, n, got, error)) << error;
  expect_same(got, want, "device scalars");
  EXPECT_FALSE(context().msm(db, ds, n + 1, got, error)) << "more scalars than bases must fail";

  base::density_bitmap density(n);
  for (std::size_t i = 0; i < n; ++i)
    if (rng() % 3) density.set(i);
  std::vector<ec::g2_affine> compact(b.begin(), b.begin() + static_cast<std::ptrdiff_t>(density.count()));
  base::serial_executor ex;
  const ec::g2_jacobian want_d =
      msm::multiexp<ec::g2_curve>(std::span<const ec::g2_affine>(compact), density, std::span<const fr>(s), ex);
  ASSERT_TRUE(context().msm(db, density, s, got, error)) << error;
  expect_same(got, want_d, "density");

  cuda::g2_device_bases rep;
  const std::vector<ec::g2_affine> d(b.begin() + 1, b.begin() + 6);
  ASSERT_TRUE(rep.upload_repeated(d, 100, error)) << error;
  std::vector<ec::g2_affine> full(100);
  for (std::size_t i = 0; i < full.size(); ++i) full[i] = d[i % d.size()];
  const std::vector<fr> s100(s.begin(), s.begin() + 100);
  ASSERT_TRUE(context().msm(rep, std::span<const fr>(s100), got, error)) << error;
  expect_same(got, cpu_msm(full, s100), "repeated bases");
}

// msm_mostly_binary (the 0/1 split of the L, A and B MSMs) against the CPU.
// The 0/1 split with the default options (G2: the ones halved by batch-affine rounds), with the
// ones halved in chunks of 1,000 entries and with one round, and with the plain ones' pass.
TEST(CudaG2Msm, MostlyBinaryMatchesCpu) {
  REQUIRE_GPU();
  test::seeded_rng rng;
  std::string error;
  cuda::g1_msm_options chunked, one_round, plain;
  chunked.affine_max_pairs_per_sort = 1000;
  one_round.g2_affine_rounds = 1;
  plain.g2_affine_rounds = 0;
  for (const cuda::g1_msm_options& o : {cuda::g1_msm_options{}, chunked, one_round, plain}) {
    SCOPED_TRACE("g2_affine_rounds " + std::to_string(o.g2_affine_rounds) + ", affine_max_pairs_per_sort " +
                 std::to_string(o.affine_max_pairs_per_sort));
    ASSERT_TRUE(context().set_options(o, error)) << error;
    cuda::test_support::check_mostly_binary<ec::g2_curve>(rng);
  }
  ASSERT_TRUE(context().set_options({}, error)) << error;
}

TEST(CudaG2Msm, StreamedBasesMatchCpu) {
  REQUIRE_GPU();
  test::seeded_rng rng;
  cuda::test_support::check_streamed<ec::g2_curve>(rng);
}

}  // namespace
