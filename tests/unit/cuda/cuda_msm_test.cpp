// Device Fp / G1 arithmetic and the G1 MSM against the CPU (ff::fp, ec::xyzz_point,
// msm::pippenger / msm::multiexp), bit for bit, on random inputs (seed printed; replay with
// CUZK_TEST_SEED). Skipped without a GPU.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "msm_test_support.hpp"

namespace {

using namespace cuzk;
using ff::fp;
using ff::fr;
namespace cuda = cuzk::cuda;

using cuda::test_support::context;
using cuda::test_support::cpu_msm;
using cuda::test_support::expect_same;
using cuda::test_support::gpu_msm;
using cuda::test_support::random_scalars;
auto random_bases(std::size_t n, test::seeded_rng& rng) {
  return cuda::test_support::random_bases<ec::g1_curve>(n, rng);
}

TEST(CudaG1, FieldMatchesHost) {
  REQUIRE_GPU();
  test::seeded_rng rng;
  const std::size_t n = 4099;
  std::vector<fp> a(n), b(n);
  for (std::size_t i = 0; i < n; ++i) a[i] = fp::random(rng), b[i] = fp::random(rng);
  const fp edges[] = {fp::zero(), fp::one(), -fp::one(), fp::from_u64(2), -fp::from_u64(2)};
  std::size_t k = 0;
  for (const fp& x : edges)
    for (const fp& y : edges) a[k] = x, b[k] = y, ++k;
  // Points for the group-law half: p[i] in XYZZ with random Z, some identities; q[i] affine,
  // equal to p[i] (doubling path) or to -p[i] (identity path) at a few indices.
  const std::size_t m = 515;
  std::vector<ec::g1_xyzz> p(m);
  std::vector<ec::g1_affine> q(m);
  for (std::size_t i = 0; i < m; ++i) {
    ec::g1_jacobian j = ec::scalar_mul(ec::g1_jacobian::generator(), fr::random(rng));
    const fp z = fp::random(rng);  // rescale: (X z^2, Y z^3, Z z) is the same point
    const fp z2 = z.square();
    j = {j.X * z2, j.Y * z2 * z, j.Z * z};
    p[i] = ec::g1_xyzz::from_jacobian(j);
    q[i] = ec::scalar_mul(ec::g1_jacobian::generator(), fr::random(rng)).to_affine();
  }
  p[3] = ec::g1_xyzz::identity();
  p[7] = ec::g1_xyzz::identity();
  p[8] = ec::g1_xyzz::identity();
  q[10] = p[10].to_affine();
  q[11] = -p[11].to_affine();
  p[21] = p[20];  // add(p[20], p[21]) doubles
  p[31] = -p[30];  // add(p[30], p[31]) is the identity
  cuda::g1_selftest_result out;
  std::string error;
  ASSERT_TRUE(cuda::run_g1_selftest(a, b, p, q, out, error)) << error;
  for (std::size_t i = 0; i < n; ++i) {
    ASSERT_EQ(out.mul_ptx[i], a[i] * b[i]) << "mul_ptx at " << i;
    ASSERT_EQ(out.mul_portable[i], a[i] * b[i]) << "mul_portable at " << i;
    ASSERT_EQ(out.add[i], a[i] + b[i]) << "add at " << i;
    ASSERT_EQ(out.sub[i], a[i] - b[i]) << "sub at " << i;
    ASSERT_EQ(out.neg[i], -a[i]) << "neg at " << i;
  }
  // Same formulas on both sides and fully reduced coordinates: equal coordinate for coordinate
  // (the identity has several encodings, so it is compared as a point).
  auto same = [](const ec::g1_xyzz& got, const ec::g1_xyzz& want) {
    if (want.is_identity() || got.is_identity()) return got.is_identity() == want.is_identity();
    return got.X == want.X && got.Y == want.Y && got.ZZ == want.ZZ && got.ZZZ == want.ZZZ;
  };
  for (std::size_t i = 0; i < m; ++i) {
    const ec::g1_xyzz madd = ec::g1_xyzz::add_mixed(p[i], q[i]);
    ASSERT_TRUE(same(out.add_mixed_ptx[i], madd)) << "add_mixed (ptx) at " << i;
    ASSERT_TRUE(same(out.add_mixed_portable[i], madd)) << "add_mixed (portable) at " << i;
    ASSERT_TRUE(same(out.add_ptx[i], ec::g1_xyzz::add(p[i], p[(i + 1) % m]))) << "add at " << i;
    ASSERT_TRUE(same(out.dbl_ptx[i], p[i].dbl())) << "dbl at " << i;
  }
  EXPECT_TRUE(out.add_mixed_ptx[11].is_identity());
  EXPECT_TRUE(out.add_ptx[30].is_identity());
}

// Random bases and scalars, sizes around and off powers of two, default plan.
TEST(CudaMsm, MatchesCpuRandom) {
  REQUIRE_GPU();
  test::seeded_rng rng;
  const auto b = random_bases(20000, rng);
  const auto s = random_scalars(20000, rng);
  for (std::size_t n : {1, 2, 3, 31, 100, 1000, 1023, 1024, 4097, 20000}) {
    std::vector<ec::g1_affine> bn(b.begin(), b.begin() + n);
    std::vector<fr> sn(s.begin(), s.begin() + n);
    expect_same(gpu_msm(bn, sn), cpu_msm(bn, sn), "n=" + std::to_string(n));
  }
}

// Forced window sizes, the portable multiplier, few accumulation threads (many merge levels,
// buckets split over many ranges), several windows per sort or one.
TEST(CudaMsm, MatchesCpuForcedPlans) {
  REQUIRE_GPU();
  test::seeded_rng rng;
  const std::size_t n = 3001;
  const auto b = random_bases(n, rng);
  const auto s = random_scalars(n, rng);
  const ec::g1_jacobian want = cpu_msm(b, s);
  for (unsigned c : {2u, 3u, 5u, 8u, 11u, 13u, 16u}) {
    cuda::g1_msm_options o;
    o.window_bits = c;
    expect_same(gpu_msm(b, s, o), want, "c=" + std::to_string(c));
  }
  cuda::g1_msm_options o;
  o.mul = cuda::fp_mul_kernel::portable64;
  expect_same(gpu_msm(b, s, o), want, "portable multiplier");
  o.mul = cuda::fp_mul_kernel::ptx32;
  expect_same(gpu_msm(b, s, o), want, "inlined PTX multiplier");
  o.mul = cuda::fp_mul_kernel::ptx32_call;
  expect_same(gpu_msm(b, s, o), want, "out-of-line PTX multiplier");
  o = {};
  o.accumulate_threads = 37;
  o.accumulate_block = 256;
  o.accumulate_min_blocks = 1;
  o.max_pairs_per_sort = n;  // one window per sort
  expect_same(gpu_msm(b, s, o), want, "37 accumulation threads, one window per sort");
  o.accumulate_threads = 1;
  o.accumulate_min_blocks = 3;
  o.reduce_segment = 2;
  o.window_bits = 7;
  expect_same(gpu_msm(b, s, o), want, "one accumulation thread, segments of 2");
}

// Zero, one, minus one and 0/1-heavy scalars; bases at infinity; the device-scalar entry point.
TEST(CudaMsm, EdgeScalarsAndBases) {
  REQUIRE_GPU();
  test::seeded_rng rng;
  const std::size_t n = 5000;
  auto b = random_bases(n, rng);
  std::vector<fr> zeros(n, fr::zero()), ones(n, fr::one()), minus_ones(n, -fr::one());
  expect_same(gpu_msm(b, zeros), ec::g1_jacobian::identity(), "all zero");
  expect_same(gpu_msm(b, ones), cpu_msm(b, ones), "all one");
  expect_same(gpu_msm(b, minus_ones), cpu_msm(b, minus_ones), "all minus one");
  std::vector<fr> mixed(n);
  for (auto& x : mixed) {
    const uint64_t r = rng() % 100;
    x = r < 80 ? fr::zero() : r < 97 ? fr::one() : r < 98 ? fr::from_u64(2) : fr::random(rng);
  }
  expect_same(gpu_msm(b, mixed), cpu_msm(b, mixed), "0/1-heavy");
  std::vector<fr> single(n, fr::zero());
  single[n / 2] = fr::one();
  expect_same(gpu_msm(b, single), ec::g1_jacobian::from_affine(b[n / 2]), "one scalar 1");
  for (std::size_t i = 0; i < n; i += 7) b[i] = ec::g1_affine::identity();
  b[0] = ec::g1_affine::identity();
  const auto s = random_scalars(n, rng);
  const ec::g1_jacobian want = cpu_msm(b, s);
  expect_same(gpu_msm(b, s), want, "infinity bases");
  // Scalars already on the device.
  std::string error;
  cuda::g1_device_bases db;
  ASSERT_TRUE(db.upload(b, error)) << error;
  cuda::device_fr_vector ds;
  ASSERT_TRUE(ds.upload(s, error)) << error;
  ec::g1_jacobian got;
  ASSERT_TRUE(context().msm(db, ds, n, got, error)) << error;
  expect_same(got, want, "device scalars");
  ASSERT_TRUE(context().msm(db, ds, 0, got, error)) << error;
  EXPECT_TRUE(got.is_identity());
  EXPECT_FALSE(context().msm(db, ds, n + 1, got, error)) << "more scalars than bases must fail";
}

// bellperson's density-filtered multiexp (bases compacted by density).
TEST(CudaMsm, DensityMatchesMultiexp) {
  REQUIRE_GPU();
  test::seeded_rng rng;
  const std::size_t n = 3000;
  base::density_bitmap density(n);
  for (std::size_t i = 0; i < n; ++i)
    if (rng() % 3) density.set(i);
  const auto b = random_bases(density.count(), rng);
  const auto s = random_scalars(n, rng);
  base::serial_executor ex;
  const ec::g1_jacobian want =
      msm::multiexp<ec::g1_curve>(std::span<const ec::g1_affine>(b), density, std::span<const fr>(s), ex);
  std::string error;
  cuda::g1_device_bases db;
  ASSERT_TRUE(db.upload(b, error)) << error;
  ec::g1_jacobian got;
  ASSERT_TRUE(context().msm(db, density, s, got, error)) << error;
  expect_same(got, want, "density");
}

// The replicated bases of the benchmark: points[i] = distinct[i mod D].
TEST(CudaMsm, RepeatedBases) {
  REQUIRE_GPU();
  test::seeded_rng rng;
  const auto d = random_bases(7, rng);
  const std::size_t n = 100;
  std::vector<ec::g1_affine> full(n);
  for (std::size_t i = 0; i < n; ++i) full[i] = d[i % d.size()];
  const auto s = random_scalars(n, rng);
  std::string error;
  cuda::g1_device_bases db;
  ASSERT_TRUE(db.upload_repeated(d, n, error)) << error;
  ASSERT_EQ(db.size(), n);
  ec::g1_jacobian got;
  ASSERT_TRUE(context().msm(db, std::span<const fr>(s), got, error)) << error;
  expect_same(got, cpu_msm(full, s), "repeated bases");
}

// Batch-affine halving rounds (g1_msm_options::affine_rounds) against the CPU, bit for bit in
// affine coordinates: random inputs at sizes around powers of two, small windows (buckets of
// thousands of entries, split over many ranges and rounds), more rounds than a bucket needs.
TEST(CudaMsm, BatchAffineMatchesCpuRandom) {
  REQUIRE_GPU();
  test::seeded_rng rng;
  const auto b = random_bases(20000, rng);
  const auto s = random_scalars(20000, rng);
  cuda::test_support::expect_rounds_match<ec::g1_curve>(b, s, {1, 2, 3, 8},
                                                         {1, 2, 3, 31, 1000, 1023, 1025, 4097, 20000});
  const ec::g1_jacobian want = cpu_msm(b, s);
  // Kernel variants: running products in local memory (ranges of 512), the smallest (16) and the
  // largest range of the global variant.
  for (unsigned variant = 0; variant < 3; ++variant) {
    cuda::g1_msm_options o = cuda::test_support::with_rounds<ec::g1_curve>(2);
    o.affine_local_prefix = variant == 0;
    o.affine_range = variant == 1 ? 16 : 16384;
    o.window_bits = 5;
    expect_same(gpu_msm(b, s, o), want, "variant " + std::to_string(variant));
  }
  for (unsigned c : {3u, 4u, 7u, 13u}) {
    cuda::g1_msm_options o = cuda::test_support::with_rounds<ec::g1_curve>(3);
    o.window_bits = c;
    expect_same(gpu_msm(b, s, o), want, "rounds=3 c=" + std::to_string(c));
    o.max_pairs_per_sort = b.size();  // one window per sort
    o.accumulate_threads = 37;
    expect_same(gpu_msm(b, s, o), want, "rounds=3, one window per sort, 37 threads, c=" + std::to_string(c));
  }
}

// The exceptional cases of the affine addition (msm_test_support.hpp lists them).
TEST(CudaMsm, BatchAffineExceptionalCases) {
  REQUIRE_GPU();
  test::seeded_rng rng;
  cuda::test_support::check_batch_affine_exceptional<ec::g1_curve>(rng, 6000);
}

TEST(CudaMsm, RejectsBadOptions) {
  REQUIRE_GPU();
  std::string error;
  cuda::g1_msm_options o;
  o.window_bits = 1;
  EXPECT_FALSE(context().set_options(o, error));
  o.window_bits = 25;
  EXPECT_FALSE(context().set_options(o, error));
  o = {};
  o.reduce_segment = 3;
  EXPECT_FALSE(context().set_options(o, error));
  o = {};
  o.accumulate_block = 48;
  EXPECT_FALSE(context().set_options(o, error));
  o = {};
  o.accumulate_min_blocks = 4;
  EXPECT_FALSE(context().set_options(o, error));
  o = {};
  o.affine_rounds = 9;
  EXPECT_FALSE(context().set_options(o, error));
  o = {};
  o.g2_affine_rounds = 9;
  EXPECT_FALSE(context().set_options(o, error));
  o = {};
  o.g1_ones_rounds = 9;
  EXPECT_FALSE(context().set_options(o, error));
  o = {};
  o.affine_range = 1000;
  EXPECT_FALSE(context().set_options(o, error));
  o.affine_range = 8;
  EXPECT_FALSE(context().set_options(o, error));
  o.affine_range = 16;  // the smallest allowed
  EXPECT_TRUE(context().set_options(o, error)) << error;
  o = {};
  o.g2_affine_range = 48;
  EXPECT_FALSE(context().set_options(o, error));
  o = {};
  o.affine_max_pairs_per_sort = 0;
  EXPECT_FALSE(context().set_options(o, error));
  EXPECT_TRUE(context().set_options({}, error)) << error;
}

// msm_mostly_binary (the 0/1 split of the L, A and B MSMs) against the CPU, with the ones listed
// (the default), with the pass over positions, and with the listed ones halved by batch-affine
// rounds (g1_ones_rounds: 3 rounds in one chunk, 1 round in chunks of 1,000 entries, 8 rounds at
// the smallest range).
TEST(CudaMsm, MostlyBinaryMatchesCpu) {
  REQUIRE_GPU();
  test::seeded_rng rng;
  std::string error;
  struct variant {
    bool listed;
    cuda::fp_mul_kernel mul;
    unsigned rounds, range;
    std::size_t chunk;
  };
  const std::size_t whole = cuda::g1_msm_options{}.affine_max_pairs_per_sort;
  for (const variant& v : {variant{true, cuda::fp_mul_kernel::ptx32_call, 0, 32, whole},
                           variant{false, cuda::fp_mul_kernel::ptx32_call, 0, 32, whole},
                           variant{true, cuda::fp_mul_kernel::ptx32, 0, 32, whole},
                           variant{true, cuda::fp_mul_kernel::ptx32_call, 3, 32, whole},
                           variant{false, cuda::fp_mul_kernel::ptx32_call, 1, 64, 1000},
                           variant{true, cuda::fp_mul_kernel::ptx32_call, 8, 16, whole}}) {
    SCOPED_TRACE(std::string(v.listed ? "ones listed" : "ones by positions") + ", multiplier " +
                 std::to_string(static_cast<int>(v.mul)) + ", rounds " + std::to_string(v.rounds) + ", range " +
                 std::to_string(v.range) + ", chunk " + std::to_string(v.chunk));
    cuda::g1_msm_options o;
    o.g1_ones_listed = v.listed;
    o.mul = v.mul;
    o.g1_ones_rounds = v.rounds;
    o.affine_range = v.range;
    o.affine_max_pairs_per_sort = v.chunk;
    ASSERT_TRUE(context().set_options(o, error)) << error;
    cuda::test_support::check_mostly_binary<ec::g1_curve>(rng);
  }
  ASSERT_TRUE(context().set_options({}, error)) << error;
}

TEST(CudaMsm, StreamedBasesMatchCpu) {
  REQUIRE_GPU();
  test::seeded_rng rng;
  cuda::test_support::check_streamed<ec::g1_curve>(rng);
}

}  // namespace
