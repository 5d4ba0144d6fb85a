// Shared by the device MSM tests (cuda_msm_test for G1, cuda_msm_g2_test for G2): the GPU guard,
// one MSM context per process, pseudo-random bases and scalars, and the CPU / GPU MSM pair that
// every differential test compares. Templated on the curve so both groups draw their inputs and
// run their oracles the same way.
#pragma once

#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <initializer_list>
#include <memory>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include "backend/cuda/field_selftest.hpp"
#include "backend/cuda/msm_cuda.hpp"
#include "backend/cuda/ntt_cuda.hpp"
#include "base/executor.hpp"
#include "msm/msm.hpp"
#include "support/seed.hpp"

#define REQUIRE_GPU()                                                                                            \
  do {                                                                                                           \
    std::string why_;                                                                                            \
    if (cuzk::cuda::device_count(why_) == 0)                                                                    \
      GTEST_SKIP() << "no GPU available (" << why_ << "): device test skipped";                                  \
  } while (0)

namespace cuzk::cuda::test_support {

// One context for the whole test binary (its scratch grows on demand and is kept).
inline g1_msm_context& context() {
  static std::unique_ptr<g1_msm_context> ctx = [] {
    std::string error;
    auto c = g1_msm_context::create(error);
    if (!c) ADD_FAILURE() << "g1_msm_context::create: " << error;
    return c;
  }();
  return *ctx;
}

template <class Curve>
struct device_bases_for;
template <>
struct device_bases_for<ec::g1_curve> {
  using type = g1_device_bases;
  using pinned = g1_pinned_bases;
};
template <>
struct device_bases_for<ec::g2_curve> {
  using type = g2_device_bases;
  using pinned = g2_pinned_bases;
};

// n pseudo-random bases: a random start plus one of 8 random steps per point (msm_test's recipe:
// distinct points at the cost of one addition each).
template <class Curve>
std::vector<ec::affine_point<Curve>> random_bases(std::size_t n, test::seeded_rng& rng) {
  using jac = ec::jacobian_point<Curve>;
  std::vector<jac> steps;
  for (int i = 0; i < 8; ++i) steps.push_back(ec::scalar_mul(jac::generator(), ff::fr::random(rng)));
  std::vector<jac> pts(n);
  jac p = ec::scalar_mul(jac::generator(), ff::fr::random(rng));
  for (std::size_t i = 0; i < n; ++i) {
    p = p + steps[rng() % steps.size()];
    pts[i] = p;
  }
  std::vector<ec::affine_point<Curve>> out(n);
  ec::batch_to_affine(std::span<const jac>(pts), std::span<ec::affine_point<Curve>>(out));
  return out;
}

inline std::vector<ff::fr> random_scalars(std::size_t n, test::seeded_rng& rng) {
  std::vector<ff::fr> s(n);
  for (auto& x : s) x = ff::fr::random(rng);
  return s;
}

// The oracle: the CPU multiexp on one thread.
template <class Curve>
ec::jacobian_point<Curve> cpu_msm(const std::vector<ec::affine_point<Curve>>& b, const std::vector<ff::fr>& s) {
  base::serial_executor ex;
  return msm::multiexp<Curve>(std::span<const ec::affine_point<Curve>>(b), std::span<const ff::fr>(s), ex);
}

// CUZK_TEST_AFFINE_ROUNDS=R runs every test MSM that leaves its curve's halving rounds at 0
// (affine_rounds for G1, g2_affine_rounds for G2) with R batch-affine halving rounds instead, so
// the whole suite can be repeated over that path.
inline unsigned affine_rounds_override() {
  static const unsigned r = [] {
    const char* env = std::getenv("CUZK_TEST_AFFINE_ROUNDS");
    return env ? static_cast<unsigned>(std::strtoul(env, nullptr, 10)) : 0u;
  }();
  return r;
}

// The device MSM with options `o` (restored to the defaults afterwards).
template <class Curve>
ec::jacobian_point<Curve> gpu_msm(const std::vector<ec::affine_point<Curve>>& b, const std::vector<ff::fr>& s,
                                  g1_msm_options o = {}) {
  std::string error;
  typename device_bases_for<Curve>::type db;
  EXPECT_TRUE(db.upload(b, error)) << error;
  unsigned& rounds = std::is_same_v<Curve, ec::g2_curve> ? o.g2_affine_rounds : o.affine_rounds;
  if (affine_rounds_override() != 0 && rounds == 0) {
    rounds = affine_rounds_override();
    o.affine_min_points = 0;
  }
  EXPECT_TRUE(context().set_options(o, error)) << error;
  ec::jacobian_point<Curve> out;
  EXPECT_TRUE(context().msm(db, std::span<const ff::fr>(s), out, error)) << error;
  EXPECT_TRUE(context().set_options({}, error)) << error;
  return out;
}

// Affine coordinates equal (the identity only to the identity).
template <class Curve>
void expect_same(const ec::jacobian_point<Curve>& got, const ec::jacobian_point<Curve>& want, const std::string& what) {
  EXPECT_EQ(got.to_affine(), want.to_affine()) << what;
}

// The exceptional cases of the batch-affine halving rounds on one curve (n points): zero and
// one scalars (one bucket holds every point), bases at infinity, P + P (the same base twice with
// the same scalar: doubling) and P + (-P) (a base and its negation, or the same base with s and
// -s: infinity), repeated bases as in the benchmarks; each with several round counts and windows.
// Options with `rounds` batch-affine halving rounds for Curve, at any MSM size.
template <class Curve>
g1_msm_options with_rounds(unsigned rounds, g1_msm_options o = {}) {
  (std::is_same_v<Curve, ec::g2_curve> ? o.g2_affine_rounds : o.affine_rounds) = rounds;
  o.affine_min_points = 0;
  return o;
}

// The first n of b and s with each round count against the CPU, for each n.
template <class Curve>
void expect_rounds_match(const std::vector<ec::affine_point<Curve>>& b, const std::vector<ff::fr>& s,
                         std::initializer_list<unsigned> rounds, std::initializer_list<std::size_t> sizes) {
  for (unsigned r : rounds)
    for (std::size_t n : sizes) {
      const std::vector<ec::affine_point<Curve>> bn(b.begin(), b.begin() + n);
      const std::vector<ff::fr> sn(s.begin(), s.begin() + n);
      expect_same(gpu_msm(bn, sn, with_rounds<Curve>(r)), cpu_msm(bn, sn),
                  "rounds=" + std::to_string(r) + " n=" + std::to_string(n));
    }
}

template <class Curve>
void check_batch_affine_exceptional(test::seeded_rng& rng, std::size_t n) {
  using fr = ff::fr;
  using affine = ec::affine_point<Curve>;
  const auto d = random_bases<Curve>(97, rng);
  auto run_all = [&](const std::vector<affine>& b, const std::vector<fr>& s, const std::string& what) {
    const ec::jacobian_point<Curve> want = cpu_msm(b, s);
    for (unsigned rounds : {1u, 3u, 6u})
      for (unsigned c : {0u, 4u, 9u}) {
        g1_msm_options o = with_rounds<Curve>(rounds);
        o.window_bits = c;
        expect_same(gpu_msm(b, s, o), want, what + " rounds=" + std::to_string(rounds) + " c=" + std::to_string(c));
      }
  };
  auto random_b = random_bases<Curve>(n, rng);
  std::vector<fr> zeros(n, fr::zero()), ones(n, fr::one()), minus_ones(n, -fr::one());
  run_all(random_b, zeros, "all zero");
  run_all(random_b, ones, "all one");
  run_all(random_b, minus_ones, "all minus one");
  std::vector<fr> mixed(n);
  for (auto& x : mixed) {
    const uint64_t r = rng() % 100;
    x = r < 80 ? fr::zero() : r < 97 ? fr::one() : r < 98 ? fr::from_u64(2) : fr::random(rng);
  }
  run_all(random_b, mixed, "0/1-heavy");
  std::vector<fr> single(n, fr::zero());
  single[n / 3] = fr::one();
  run_all(random_b, single, "one scalar 1");
  auto s = random_scalars(n, rng);
  auto inf_b = random_b;
  for (std::size_t i = 0; i < n; i += 7) inf_b[i] = affine::identity();
  for (std::size_t i = 100; i < 200; ++i) inf_b[i] = affine::identity();  // a run of infinities
  run_all(inf_b, s, "infinity bases");
  run_all(inf_b, ones, "infinity bases, all one");
  // Pairs (2j, 2j + 1) with equal scalars: the same base (doubling) or base and negation.
  std::vector<affine> twice(n), negated(n);
  std::vector<fr> paired(n);
  for (std::size_t i = 0; i < n; ++i) {
    twice[i] = d[(i / 2) % d.size()];
    negated[i] = i % 2 ? -d[(i / 2) % d.size()] : d[(i / 2) % d.size()];
    paired[i] = i % 2 ? paired[i - 1] : fr::random(rng);
  }
  run_all(twice, paired, "P + P");
  run_all(twice, ones, "P + P, all one");
  run_all(negated, paired, "P + (-P)");
  run_all(negated, ones, "P + (-P), all one");
  std::vector<fr> plus_minus(n);  // the same base with s and -s
  for (std::size_t i = 0; i < n; ++i) plus_minus[i] = i % 2 ? -paired[i - 1] : paired[i];
  run_all(twice, plus_minus, "s P + (-s) P");
  // Repeated bases (the benchmarks' layout) with random and one scalars.
  std::vector<affine> repeated(n);
  for (std::size_t i = 0; i < n; ++i) repeated[i] = d[i % 7];
  run_all(repeated, s, "7 repeated bases");
  run_all(repeated, ones, "7 repeated bases, all one");
}

// g1_msm_context::msm_mostly_binary against the CPU on one curve: scalars drawn as `zeros`%
// zero, `ones`% one, the rest -1 or random; `split` says whether the 0/1 split must have run.
template <class Curve>
// want: the expected sum, or nullptr for the CPU MSM of b and s.
void expect_mostly_binary(const std::vector<ec::affine_point<Curve>>& b, const std::vector<ff::fr>& s, bool split,
                          const std::string& what, const ec::jacobian_point<Curve>* want = nullptr) {
  std::string error;
  typename device_bases_for<Curve>::type db;
  ASSERT_TRUE(db.upload(b, error)) << error;
  device_fr_vector ds;
  ASSERT_TRUE(ds.upload(s, error)) << error;
  ec::jacobian_point<Curve> got;
  ASSERT_TRUE(context().msm_mostly_binary(db, ds, s.size(), got, error)) << error;
  EXPECT_EQ(context().profile().binary_split, split) << what;
  expect_same(got, want ? *want : cpu_msm(b, s), what);
}

template <class Curve>
void check_mostly_binary(test::seeded_rng& rng) {
  using fr = ff::fr;
  auto draw = [&](std::size_t n, unsigned zeros, unsigned ones) {
    std::vector<fr> s(n);
    for (auto& x : s) {
      const unsigned r = static_cast<unsigned>(rng() % 100);
      x = r < zeros ? fr::zero() : r < zeros + ones ? fr::one() : r % 2 ? -fr::one() : fr::random(rng);
    }
    return s;
  };
  const std::size_t n = 5000;
  auto b = random_bases<Curve>(n, rng);
  expect_mostly_binary(b, draw(n, 45, 45), true, "45% zero, 45% one");
  expect_mostly_binary(b, std::vector<fr>(n, fr::one()), true, "all one");
  expect_mostly_binary(b, std::vector<fr>(n, fr::zero()), true, "all zero");
  expect_mostly_binary(b, random_scalars(n, rng), false, "dense: the plain MSM");
  expect_mostly_binary(std::vector<ec::affine_point<Curve>>(b.begin(), b.begin() + 500), draw(500, 45, 45), false,
                       "below the split's minimum size");
  // The rest's capacity is n / 8: exactly at it the split runs, one more and it does not.
  std::vector<fr> edge(4096, fr::one());
  for (std::size_t i = 0; i < 512; ++i) edge[i * 8] = fr::random(rng);
  std::vector<ec::affine_point<Curve>> b4096(b.begin(), b.begin() + 4096);
  expect_mostly_binary(b4096, edge, true, "rest at capacity");
  edge[4095] = -fr::one();
  expect_mostly_binary(b4096, edge, false, "rest one over capacity");
  // Infinity bases and repeated bases (ones of the same point: doublings in the ones' sums).
  for (std::size_t i = 0; i < n; i += 7) b[i] = ec::affine_point<Curve>::identity();
  for (std::size_t i = 1; i < n; i += 3) b[i] = b[1];
  expect_mostly_binary(b, draw(n, 30, 60), true, "infinity and repeated bases");
  // More positions than the ones' pass has threads (SMs x 1024), so that each thread scans
  // several 16-code words, with n not a multiple of 16. 1000 distinct bases repeated; the CPU
  // reference aggregates the scalars per distinct base.
  const std::size_t big = 3'000'001, distinct = 1000;
  std::vector<ec::affine_point<Curve>> rb(big);
  for (std::size_t i = 0; i < big; ++i) rb[i] = b[i % distinct];
  const std::vector<fr> bs = draw(big, 50, 45);
  std::vector<fr> agg(distinct, fr::zero());
  for (std::size_t i = 0; i < big; ++i) agg[i % distinct] += bs[i];
  const ec::jacobian_point<Curve> want = cpu_msm(std::vector<ec::affine_point<Curve>>(b.begin(), b.begin() + distinct), agg);
  expect_mostly_binary(rb, bs, true, "3,000,001 positions, several code words per thread", &want);
}

// MSMs over pinned host bases (streamed in chunks) against the CPU: one chunk, several with a
// ragged last one, chunks below the 0/1 split's minimum size, the split per chunk, fewer scalars
// than bases, bases converted from the host and copied from the device (the same bytes), some
// bases at infinity, n = 0 and a size error.
template <class Curve>
void check_streamed(test::seeded_rng& rng) {
  using fr = ff::fr;
  using point = ec::jacobian_point<Curve>;
  std::string error;
  const std::size_t n = 20000, part = 12345;
  auto b = random_bases<Curve>(n, rng);
  for (std::size_t i = 5; i < n; i += 97) b[i] = ec::affine_point<Curve>::identity();
  typename device_bases_for<Curve>::pinned from_host, from_device;
  typename device_bases_for<Curve>::type resident;
  ASSERT_TRUE(from_host.upload(b, error)) << error;
  ASSERT_TRUE(resident.upload(b, error) && from_device.copy_from(resident, error)) << error;
  ASSERT_EQ(from_host.size(), n);
  EXPECT_EQ(std::memcmp(from_host.host_data(), from_device.host_data(), n * 2 * sizeof(b[0].x)), 0);

  const std::vector<fr> dense = random_scalars(n, rng);
  std::vector<fr> binary(n);
  for (auto& x : binary) {
    const unsigned r = static_cast<unsigned>(rng() % 100);
    x = r < 50 ? fr::zero() : r < 95 ? fr::one() : fr::random(rng);
  }
  device_fr_vector d_dense, d_binary;
  ASSERT_TRUE(d_dense.upload(dense, error) && d_binary.upload(binary, error)) << error;
  const point want_dense = cpu_msm(b, dense), want_binary = cpu_msm(b, binary);
  const point want_part = cpu_msm(std::vector<ec::affine_point<Curve>>(b.begin(), b.begin() + part),
                                  std::vector<fr>(dense.begin(), dense.begin() + part));

  for (std::size_t chunk : {std::size_t{0}, std::size_t{4096}, std::size_t{1000}}) {
    SCOPED_TRACE("chunk " + std::to_string(chunk));
    g1_msm_options o;
    o.stream_chunk_points = chunk;
    ASSERT_TRUE(context().set_options(o, error)) << error;
    const std::size_t chunks = chunk ? (n + chunk - 1) / chunk : 1;
    point got;
    ASSERT_TRUE(context().msm(from_host, d_dense, n, got, error)) << error;
    EXPECT_EQ(context().profile().stream_chunks, chunks);
    expect_same(got, want_dense, "dense scalars");
    ASSERT_TRUE(context().msm_mostly_binary(from_device, d_binary, n, got, error)) << error;
    EXPECT_EQ(context().profile().stream_chunks, chunks);
    expect_same(got, want_binary, "mostly binary scalars");
    ASSERT_TRUE(context().msm(from_device, d_dense, part, got, error)) << error;
    expect_same(got, want_part, "fewer scalars than bases");
  }
  point got = point::generator();
  ASSERT_TRUE(context().msm(from_host, d_dense, 0, got, error)) << error;
  EXPECT_TRUE(got.is_identity());
  EXPECT_FALSE(context().msm(from_host, d_dense, n + 1, got, error));
  EXPECT_NE(error.find("more scalars than bases"), std::string::npos) << error;
  ASSERT_TRUE(context().set_options({}, error)) << error;
}

}  // namespace cuzk::cuda::test_support
