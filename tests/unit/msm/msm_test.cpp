// Pippenger and bellperson-style multiexp against the naive twin (sum of scalar_mul).
#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <vector>

#include "msm/endomorphism.hpp"
#include "msm/msm.hpp"
#include "support/seed.hpp"

namespace {

using namespace cuzk;
using cuzk::ff::fr;
using msm::accumulation;

template <class Curve>
using affine = ec::affine_point<Curve>;
template <class Curve>
using jac = ec::jacobian_point<Curve>;

// n pseudo-random bases: a random start plus one of 8 random steps per point (one addition per
// base instead of a scalar multiplication; the MSM does not care how the points relate).
template <class Curve>
std::vector<affine<Curve>> random_bases(std::size_t n, test::seeded_rng& rng) {
  std::vector<jac<Curve>> steps;
  for (int i = 0; i < 8; ++i) steps.push_back(ec::scalar_mul(jac<Curve>::generator(), fr::random(rng)));
  std::vector<jac<Curve>> pts(n);
  jac<Curve> p = ec::scalar_mul(jac<Curve>::generator(), fr::random(rng));
  for (std::size_t i = 0; i < n; ++i) {
    p = p + steps[rng() % steps.size()];
    pts[i] = p;
  }
  std::vector<affine<Curve>> out(n);
  ec::batch_to_affine(std::span<const jac<Curve>>(pts), std::span<affine<Curve>>(out));
  return out;
}

std::vector<fr> random_scalars(std::size_t n, test::seeded_rng& rng) {
  std::vector<fr> s(n);
  for (auto& x : s) x = fr::random(rng);
  return s;
}

std::vector<msm::scalar_repr> canon(const std::vector<fr>& s) {
  std::vector<msm::scalar_repr> out;
  for (const auto& x : s) out.push_back(x.to_canonical());
  return out;
}

template <class Curve>
jac<Curve> pip(const std::vector<affine<Curve>>& b, const std::vector<msm::scalar_repr>& s, base::executor& ex,
               msm::options o = {}) {
  return msm::pippenger<Curve>(std::span<const affine<Curve>>(b), std::span<const msm::scalar_repr>(s), ex, o);
}
template <class Curve>
jac<Curve> mexp(const std::vector<affine<Curve>>& b, const std::vector<fr>& s, base::executor& ex,
                msm::options o = {}) {
  return msm::multiexp<Curve>(std::span<const affine<Curve>>(b), std::span<const fr>(s), ex, o);
}
template <class Curve>
jac<Curve> naive(const std::vector<affine<Curve>>& b, const std::vector<fr>& s) {
  return msm::naive_msm<Curve>(std::span<const affine<Curve>>(b), std::span<const fr>(s));
}

// Forced window sizes (each with both accumulations unless xyzz_only) against one naive result.
template <class Curve>
void check_windows(const std::vector<affine<Curve>>& b, const std::vector<fr>& s, std::vector<unsigned> cs,
                   bool xyzz_only = false) {
  base::serial_executor ex;
  const jac<Curve> want = naive(b, s);
  const auto sc = canon(s);
  for (unsigned c : cs) {
    for (accumulation acc : {accumulation::xyzz, accumulation::batch_affine}) {
      if (xyzz_only && acc == accumulation::batch_affine) continue;
      msm::options o;
      o.window_bits = c;
      o.acc = acc;
      EXPECT_EQ(pip(b, sc, ex, o), want) << "n=" << s.size() << " c=" << c << " acc=" << int(acc);
    }
  }
  EXPECT_EQ(pip(b, sc, ex), want) << "automatic plan, n=" << s.size();
  EXPECT_EQ(mexp(b, s, ex), want) << "multiexp, n=" << s.size();
}
std::vector<unsigned> windows_upto(unsigned cmax) {
  std::vector<unsigned> v;
  for (unsigned c = 1; c <= cmax; ++c) v.push_back(c);
  return v;
}
template <class Curve>
void check_all_windows(const std::vector<affine<Curve>>& b, const std::vector<fr>& s, unsigned cmax = 16) {
  check_windows<Curve>(b, s, windows_upto(cmax));
}

template <class Curve>
void pippenger_matches_naive(std::initializer_list<std::size_t> sizes, std::vector<unsigned> cs, bool xyzz_only = false) {
  test::seeded_rng rng;
  for (std::size_t n : sizes) {
    auto b = random_bases<Curve>(n, rng);
    auto s = random_scalars(n, rng);
    check_windows<Curve>(b, s, cs, xyzz_only);
  }
}

// Every window size 1..16, both accumulations, n up to 1000 (G1) / 100 (G2); larger n with
// fewer window sizes to stay within the CI time budget.
TEST(MsmPippenger, G1MatchesNaiveSmall) { pippenger_matches_naive<ec::g1_curve>({0, 1, 2, 3, 17, 100, 1000}, windows_upto(16)); }
TEST(MsmPippenger, G2MatchesNaiveSmall) { pippenger_matches_naive<ec::g2_curve>({0, 1, 2, 3, 17, 100}, windows_upto(16)); }
TEST(MsmPippenger, G2MatchesNaive1000) { pippenger_matches_naive<ec::g2_curve>({1000}, {1, 4, 8, 12, 16}); }
TEST(MsmPippenger, G1MatchesNaive4097) {
  pippenger_matches_naive<ec::g1_curve>({4097}, windows_upto(16), true);
  pippenger_matches_naive<ec::g1_curve>({4097}, {6, 10, 13, 16});
}
TEST(MsmPippenger, G2MatchesNaive4097) { pippenger_matches_naive<ec::g2_curve>({4097}, {3, 14}); }

// Bases i*G, scalars i: the sum is (sum i^2) * G.
template <class Curve>
void closed_form(std::size_t n) {
  std::vector<jac<Curve>> pts(n);
  jac<Curve> p = jac<Curve>::identity();
  fr sum_sq = fr::zero();
  std::vector<fr> s(n);
  for (std::size_t i = 0; i < n; ++i) {
    p = p + jac<Curve>::generator();
    pts[i] = p;
    s[i] = fr::from_u64(i + 1);
    sum_sq += s[i] * s[i];
  }
  std::vector<affine<Curve>> b(n);
  ec::batch_to_affine(std::span<const jac<Curve>>(pts), std::span<affine<Curve>>(b));
  const jac<Curve> want = ec::scalar_mul(jac<Curve>::generator(), sum_sq);
  base::serial_executor ex;
  for (unsigned c : {1u, 3u, 8u, 12u, 16u}) {
    for (accumulation acc : {accumulation::xyzz, accumulation::batch_affine}) {
      EXPECT_EQ(pip(b, canon(s), ex, {.window_bits = c, .acc = acc}), want) << "c=" << c;
    }
  }
  EXPECT_EQ(mexp(b, s, ex), want);
}
TEST(MsmPippenger, ClosedFormG1) { closed_form<ec::g1_curve>(2000); }
TEST(MsmPippenger, ClosedFormG2) { closed_form<ec::g2_curve>(300); }

template <class Curve>
void infinity_bases(std::vector<unsigned> cs) {
  test::seeded_rng rng;
  auto b = random_bases<Curve>(300, rng);
  auto s = random_scalars(300, rng);
  for (std::size_t i = 0; i < b.size(); i += 7) b[i] = affine<Curve>::identity();
  s[14] = fr::one();  // a one-scalar on an infinity base
  s[21] = fr::zero();
  check_windows<Curve>(b, s, cs);
  std::vector<affine<Curve>> all_inf(50, affine<Curve>::identity());
  check_all_windows<Curve>(all_inf, random_scalars(50, rng), 4);
}
TEST(MsmPippenger, InfinityBasesG1) { infinity_bases<ec::g1_curve>(windows_upto(16)); }
TEST(MsmPippenger, InfinityBasesG2) { infinity_bases<ec::g2_curve>({1, 5, 9, 13, 16}); }

// Scalars that stress the recoding: r-1 (negates to 1), (r-1)/2 and (r-1)/2 + 1 (the negation
// boundary), 2^254 - 1 and 2^253 (all-ones / top windows, long carry chains), 2^k - 1, 2^k.
TEST(MsmPippenger, EdgeScalars) {
  test::seeded_rng rng;
  std::vector<fr> s;
  const fr r_minus_1 = -fr::one();
  s.push_back(r_minus_1);
  s.push_back(r_minus_1 - fr::one());
  const fr half = fr::from_canonical(fr::half_modulus);
  s.push_back(half);
  s.push_back(half + fr::one());
  s.push_back(half - fr::one());
  fr two_k = fr::one();
  for (unsigned k = 0; k < 255; ++k) {
    if (k % 3 == 0 || k > 240) {
      s.push_back(two_k);
      s.push_back(two_k - fr::one());
      s.push_back(-two_k);
    }
    two_k = two_k.dbl();
  }
  s.push_back(fr::zero());
  s.push_back(fr::one());
  auto b = random_bases<ec::g1_curve>(s.size(), rng);
  check_all_windows<ec::g1_curve>(b, s, 16);
  // Larger forced windows, up to the clamp.
  base::serial_executor ex;
  const auto want = naive(b, s);
  for (unsigned c : {17u, 18u}) EXPECT_EQ(pip(b, canon(s), ex, {.window_bits = c}), want) << c;
  EXPECT_EQ(msm::make_plan(10, 1, {.window_bits = 30}).window_bits, 24u);
  // The same scalar everywhere and the same base everywhere: every digit hits one bucket, the
  // batch-affine path doubles (x equal) and overflows.
  std::vector<fr> same(500, fr::random(rng));
  std::vector<affine<ec::g1_curve>> one_base(500, b[0]);
  check_all_windows<ec::g1_curve>(one_base, same, 16);
  for (std::size_t i = 0; i < one_base.size(); i += 2) one_base[i] = -b[0];  // P and -P cancel
  check_all_windows<ec::g1_curve>(one_base, same, 16);
}

// bellperson: scalars 0 are skipped and 1 summed directly.
template <class Curve>
void zero_one_scalars() {
  test::seeded_rng rng;
  const std::size_t n = 1500;
  auto b = random_bases<Curve>(n, rng);
  auto s = random_scalars(n, rng);
  for (std::size_t i = 0; i < n; ++i) {
    const uint64_t u = rng() % 10;
    if (u < 5) s[i] = fr::zero();
    else if (u < 9) s[i] = fr::one();
  }
  base::serial_executor ex;
  const auto want = naive(b, s);
  EXPECT_EQ(mexp(b, s, ex), want);
  EXPECT_EQ(mexp(b, s, ex, {.acc = accumulation::xyzz}), want);
  EXPECT_EQ(mexp(b, s, ex, {.window_bits = 5, .acc = accumulation::batch_affine}), want);
  std::vector<fr> zeros(n, fr::zero()), ones(n, fr::one());
  EXPECT_TRUE(mexp(b, zeros, ex).is_identity());
  EXPECT_EQ(mexp(b, ones, ex), naive(b, ones));
}
TEST(MsmMultiexp, ZeroOneScalarsG1) { zero_one_scalars<ec::g1_curve>(); }
TEST(MsmMultiexp, ZeroOneScalarsG2) { zero_one_scalars<ec::g2_curve>(); }

// Density-filtered == dense with the clear positions' scalars zeroed.
template <class Curve>
void density_filtered(std::size_t n) {
  test::seeded_rng rng;
  auto full = random_bases<Curve>(n, rng);
  auto s = random_scalars(n, rng);
  for (std::size_t i = 0; i < n; i += 5) s[i] = fr::one();
  base::density_bitmap d;
  std::vector<affine<Curve>> compact;
  std::vector<fr> zeroed = s;
  for (std::size_t i = 0; i < n; ++i) {
    const bool bit = rng() % 3 != 0;
    d.push_back(bit);
    if (bit) compact.push_back(full[i]);
    else zeroed[i] = fr::zero();
  }
  ASSERT_EQ(d.count(), compact.size());
  ASSERT_EQ(d.size(), n);
  auto ex2 = base::make_thread_pool_executor(2);
  base::serial_executor ex;
  const auto want = naive(full, zeroed);
  EXPECT_EQ(mexp(full, zeroed, ex), want);
  for (base::executor* e : {static_cast<base::executor*>(&ex), ex2.get()}) {
    EXPECT_EQ(msm::multiexp<Curve>(std::span<const affine<Curve>>(compact), d, std::span<const fr>(s), *e), want);
  }
  // All clear and all set.
  base::density_bitmap none(n);
  EXPECT_TRUE(msm::multiexp<Curve>(std::span<const affine<Curve>>(), none, std::span<const fr>(s), ex).is_identity());
  base::density_bitmap all(n);
  for (std::size_t i = 0; i < n; ++i) all.set(i);
  EXPECT_EQ(msm::multiexp<Curve>(std::span<const affine<Curve>>(full), all, std::span<const fr>(s), *ex2),
            naive(full, s));
}
TEST(MsmMultiexp, DensityFilteredG1) {
  density_filtered<ec::g1_curve>(1);
  density_filtered<ec::g1_curve>(63);
  density_filtered<ec::g1_curve>(3001);
}
TEST(MsmMultiexp, DensityFilteredG2) { density_filtered<ec::g2_curve>(700); }

TEST(MsmMultiexp, SerialEqualsThreadPool) {
  test::seeded_rng rng;
  auto b = random_bases<ec::g1_curve>(20000, rng);
  auto s = random_scalars(20000, rng);
  for (std::size_t i = 0; i < s.size(); i += 3) s[i] = fr::one();
  base::serial_executor ex1;
  auto ex2 = base::make_thread_pool_executor(2);
  auto ex4 = base::make_thread_pool_executor(4);
  const auto want = mexp(b, s, ex1);
  EXPECT_EQ(mexp(b, s, *ex2), want);
  EXPECT_EQ(mexp(b, s, *ex4), want);
  EXPECT_EQ(mexp(b, s, *ex2, {.window_bits = 9, .point_chunks = 5}), want);
  EXPECT_EQ(mexp(b, s, *ex4, {.window_bits = 13, .acc = accumulation::batch_affine, .point_chunks = 3}), want);
  const auto cs = msm::to_canonical(std::span<const fr>(s), *ex2);
  EXPECT_EQ(cs, canon(s));
  auto b2 = random_bases<ec::g2_curve>(3000, rng);
  auto s2 = random_scalars(3000, rng);
  EXPECT_EQ(mexp(b2, s2, *ex2), mexp(b2, s2, ex1));
}

TEST(MsmPlan, CostModel) {
  for (std::size_t n : {1ul, 100ul, 1ul << 16, 1ul << 20}) {
    for (std::size_t t : {1ul, 2ul, 16ul}) {
      const auto p = msm::make_plan(n, t);
      EXPECT_GE(p.window_bits, 1u);
      EXPECT_LE(p.window_bits, 20u);
      const unsigned bits = p.split == msm::scalar_split::endomorphism ? 128 : 255;
      EXPECT_EQ(p.windows, (bits + p.window_bits - 1) / p.window_bits);
      EXPECT_NE(p.split, msm::scalar_split::automatic);
      EXPECT_GE(p.point_chunks, 1u);
      EXPECT_NE(p.acc, accumulation::automatic);
    }
  }
  const auto p = msm::make_plan(1000, 1, {.window_bits = 7, .acc = accumulation::xyzz, .point_chunks = 3});
  EXPECT_EQ(p.window_bits, 7u);
  EXPECT_EQ(p.point_chunks, 3u);
  EXPECT_EQ(p.acc, accumulation::xyzz);
}

// --- scalar splitting by the endomorphism (endomorphism.hpp) -----------------------------------

// The eigenvalue: [X^2]P by the endomorphism equals the scalar multiplication, on G1 and G2, and
// -phi(P) = [X^2]P means phi(P) = [lambda]P with lambda = -X^2, lambda^2 + lambda + 1 = 0 mod r.
TEST(MsmSplit, EndomorphismIsTimesXSquared) {
  test::seeded_rng rng;
  const fr x = fr::from_u64(msm::endo_x);
  const fr x2 = x * x;
  const fr lambda = -x2;
  EXPECT_TRUE((lambda * lambda + lambda + fr::one()).is_zero());
  for (int i = 0; i < 4; ++i) {
    const auto p1 = ec::scalar_mul(ec::g1_jacobian::generator(), fr::random(rng)).to_affine();
    EXPECT_EQ(jac<ec::g1_curve>::from_affine(msm::times_x_squared(p1)), ec::scalar_mul(jac<ec::g1_curve>::from_affine(p1), x2));
    EXPECT_EQ(jac<ec::g1_curve>::from_affine(ec::g1_endomorphism(p1)),
              ec::scalar_mul(jac<ec::g1_curve>::from_affine(p1), lambda));
    const auto p2 = ec::scalar_mul(ec::g2_jacobian::generator(), fr::random(rng)).to_affine();
    EXPECT_EQ(jac<ec::g2_curve>::from_affine(msm::times_x_squared(p2)), ec::scalar_mul(jac<ec::g2_curve>::from_affine(p2), x2));
  }
  EXPECT_TRUE(msm::times_x_squared(affine<ec::g1_curve>::identity()).infinity);
  EXPECT_TRUE(msm::times_x_squared(affine<ec::g2_curve>::identity()).infinity);
}

// k == k1 + k2 X^2 (mod r) and |k1|, |k2| < 2^127 for random scalars and the edges: 0, 1, r-1,
// lambda and -lambda, X^2 - 1, X^2, X^2 + 1, (X^2 +- 1)/2 around the centring boundaries, and
// multiples q X^2 + m with q, m at 0, X^2/2, X^2/2 + 1, X^2 - 1 (near 2^127 and 2^128).
TEST(MsmSplit, DecompositionRecombines) {
  test::seeded_rng rng;
  const fr x = fr::from_u64(msm::endo_x);
  const fr x2 = x * x;
  std::vector<fr> ks = {fr::zero(), fr::one(), -fr::one(), -x2, x2, x2 - fr::one(), x2 + fr::one(), -x2 - fr::one()};
  // X^2 / 2 as a field element (X^2 is even): the centring boundaries.
  const fr h = x2 * fr::from_u64(2).inverse();
  for (const fr& q : {fr::zero(), fr::one(), h - fr::one(), h, h + fr::one(), h + fr::from_u64(2), x2 - fr::one()})
    for (const fr& m : {fr::zero(), fr::one(), h - fr::one(), h, h + fr::one(), x2 - fr::from_u64(2), x2 - fr::one()})
      ks.push_back(q * x2 + m);
  for (unsigned b : {126u, 127u, 128u, 129u, 253u, 254u}) {
    fr p = fr::one();
    for (unsigned i = 0; i < b; ++i) p = p.dbl();
    ks.push_back(p);
    ks.push_back(p - fr::one());
    ks.push_back(-p);
  }
  for (int i = 0; i < 2000; ++i) ks.push_back(fr::random(rng));
  const ff::bigint<4> limit{{0, uint64_t{1} << 63, 0, 0}};  // 2^127
  for (const fr& k : ks) {
    msm::split_part k1, k2;
    msm::split_scalar(k.to_canonical(), k1, k2);
    ASSERT_TRUE(ff::less_than(k1.magnitude, limit)) << "scalar #" << (&k - ks.data());
    ASSERT_TRUE(ff::less_than(k2.magnitude, limit)) << "scalar #" << (&k - ks.data());
    const fr v1 = k1.negative ? -fr::from_canonical(k1.magnitude) : fr::from_canonical(k1.magnitude);
    const fr v2 = k2.negative ? -fr::from_canonical(k2.magnitude) : fr::from_canonical(k2.magnitude);
    ASSERT_EQ(v1 + v2 * x2, k) << "scalar #" << (&k - ks.data());
  }
}

// Pippenger with split scalars against the naive twin: every window size, both accumulations,
// forced point ranges, G1 and G2, edge scalars included.
template <class Curve>
void split_matches_naive(std::size_t n, std::vector<unsigned> cs) {
  test::seeded_rng rng;
  auto b = random_bases<Curve>(n, rng);
  auto s = random_scalars(n, rng);
  const fr x2 = fr::from_u64(msm::endo_x) * fr::from_u64(msm::endo_x);
  const fr edges[] = {fr::zero(), fr::one(), -fr::one(), -x2, x2, x2 - fr::one(), x2 * x2, -x2 - fr::one()};
  for (std::size_t i = 0; i < std::size(edges) && i < n; ++i) s[i] = edges[i];
  if (n > 10) b[9] = affine<Curve>::identity();
  base::serial_executor ex;
  auto pool = base::make_thread_pool_executor(2);
  const auto want = naive(b, s);
  const auto sc = canon(s);
  for (unsigned c : cs) {
    for (accumulation acc : {accumulation::xyzz, accumulation::batch_affine}) {
      msm::options o{.window_bits = c, .acc = acc, .split = msm::scalar_split::endomorphism};
      EXPECT_EQ(pip(b, sc, ex, o), want) << "n=" << n << " c=" << c << " acc=" << int(acc);
    }
  }
  EXPECT_EQ(pip(b, sc, *pool, {.point_chunks = 6, .split = msm::scalar_split::endomorphism}), want);
  EXPECT_EQ(pip(b, sc, *pool, {.point_chunks = 3, .split = msm::scalar_split::none}), want);
  EXPECT_EQ(mexp(b, s, *pool, {.split = msm::scalar_split::endomorphism}), want);
}
TEST(MsmSplit, G1MatchesNaive) { split_matches_naive<ec::g1_curve>(300, windows_upto(16)); }
TEST(MsmSplit, G2MatchesNaive) { split_matches_naive<ec::g2_curve>(100, {1, 4, 7, 10, 13, 16}); }

// The planner takes the split where it models cheaper: large G1/G2 MSMs.
TEST(MsmSplit, PlannerChoosesSplitForLargeN) {
  EXPECT_EQ(msm::make_plan(1 << 16, 2).split, msm::scalar_split::endomorphism);
  EXPECT_EQ(msm::make_plan(1 << 16, 2, {.split = msm::scalar_split::none}).split, msm::scalar_split::none);
  // Not automatically beyond 2^22 points (memory for [X^2]P), but when asked for.
  EXPECT_EQ(msm::make_plan(std::size_t{1} << 23, 16).split, msm::scalar_split::none);
  EXPECT_EQ(msm::make_plan(std::size_t{1} << 23, 16, {.split = msm::scalar_split::endomorphism}).split,
            msm::scalar_split::endomorphism);
  const auto p = msm::make_plan(1000, 2, {.point_chunks = 3, .split = msm::scalar_split::endomorphism});
  EXPECT_EQ(p.point_chunks, 3u);
  EXPECT_EQ(p.windows, (128 + p.window_bits - 1) / p.window_bits);
}

}  // namespace
