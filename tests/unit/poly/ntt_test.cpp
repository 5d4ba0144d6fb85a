// NTTs against the naive DFT and direct evaluation, round trips, coset transforms, serial vs
// TBB executors, and bellperson's h pipeline (h * Z == A*B - C).
#include <gtest/gtest.h>

#include <memory>
#include <vector>

#include "base/executor.hpp"
#include "poly/domain.hpp"
#include "poly/ntt.hpp"
#include "support/seed.hpp"

namespace cuzk::poly {
namespace {

using vec = std::vector<fr>;

vec random_vec(std::size_t n, test::seeded_rng& rng) {
  vec v(n);
  for (auto& x : v) x = fr::random(rng);
  return v;
}

vec bit_reversed_copy(const vec& v) {
  vec r(v.size());
  const unsigned k = radix2_domain(v.size()).log_size();
  for (std::size_t i = 0; i < v.size(); ++i) r[bit_reverse(i, k)] = v[i];
  return r;
}

struct executors {
  base::serial_executor serial;
  std::unique_ptr<base::executor> tbb2 = base::make_thread_pool_executor(2);
  std::unique_ptr<base::executor> tbb4 = base::make_thread_pool_executor(4);
  std::vector<base::executor*> all() { return {&serial, tbb2.get(), tbb4.get()}; }
};

// Reference transforms from the naive DFT.
vec naive_forward(const radix2_domain& d, const vec& x, const fr& shift = fr::one()) {
  vec out(x.size());
  naive_dft(x, out, d.omega(), shift);
  return out;
}
vec naive_inverse(const radix2_domain& d, const vec& y) {
  vec out(y.size());
  naive_dft(y, out, d.omega_inv());
  for (auto& v : out) v = v * d.size_inv();
  return out;
}

TEST(PolyBitReverse, Basics) {
  EXPECT_EQ(bit_reverse(0, 0), 0u);
  EXPECT_EQ(bit_reverse(1, 1), 1u);
  EXPECT_EQ(bit_reverse(1, 3), 4u);
  EXPECT_EQ(bit_reverse(6, 3), 3u);
  EXPECT_EQ(bit_reverse(1, 32), std::size_t{1} << 31);
  for (unsigned k = 1; k < 12; ++k)
    for (std::size_t i = 0; i < (std::size_t{1} << k); ++i) EXPECT_EQ(bit_reverse(bit_reverse(i, k), k), i);
}

TEST(PolyNtt, MatchesNaiveDftUpTo1024) {
  test::seeded_rng rng;
  executors ex;
  for (unsigned k = 0; k <= 10; ++k) {
    const radix2_domain d = radix2_domain::of_log_size(k);
    const std::size_t n = d.size();
    for (base::executor* e : ex.all()) {
      const ntt_plan plan(d, *e);
      const vec x = random_vec(n, rng);
      const vec fx = naive_forward(d, x), ix = naive_inverse(d, x);

      vec a = x;
      ntt(plan, a, ntt_direction::forward, ntt_order::natural_to_natural, *e);
      EXPECT_EQ(a, fx) << "forward nn, n=" << n;
      a = x;
      ntt(plan, a, ntt_direction::forward, ntt_order::natural_to_bit_reversed, *e);
      EXPECT_EQ(a, bit_reversed_copy(fx)) << "forward nr, n=" << n;
      a = bit_reversed_copy(x);
      ntt(plan, a, ntt_direction::forward, ntt_order::bit_reversed_to_natural, *e);
      EXPECT_EQ(a, fx) << "forward rn, n=" << n;

      a = x;
      ntt(plan, a, ntt_direction::inverse, ntt_order::natural_to_natural, *e);
      EXPECT_EQ(a, ix) << "inverse nn, n=" << n;
      a = x;
      ntt(plan, a, ntt_direction::inverse, ntt_order::natural_to_bit_reversed, *e);
      EXPECT_EQ(a, bit_reversed_copy(ix)) << "inverse nr, n=" << n;
      a = bit_reversed_copy(x);
      ntt(plan, a, ntt_direction::inverse, ntt_order::bit_reversed_to_natural, *e);
      EXPECT_EQ(a, ix) << "inverse rn, n=" << n;
    }
  }
}

// Sizes past the 2^13 cache block exercise the radix-4 / radix-2 whole-array passes (even and
// odd numbers of them); check random outputs against direct evaluation at omega^k.
TEST(PolyNtt, LargeSpotChecksAgainstEvaluation) {
  test::seeded_rng rng;
  auto tbb = base::make_thread_pool_executor(2);
  for (unsigned k : {13u, 14u, 15u, 16u, 17u}) {
    const radix2_domain d = radix2_domain::of_log_size(k);
    const ntt_plan plan(d, *tbb);
    const std::size_t n = d.size();
    const vec x = random_vec(n, rng);
    vec f = x, fi = x, fc = x;
    ntt(plan, f, ntt_direction::forward, ntt_order::natural_to_natural, *tbb);
    ntt(plan, fi, ntt_direction::inverse, ntt_order::natural_to_natural, *tbb);
    coset_ntt(plan, fc, ntt_direction::forward, ntt_order::natural_to_natural, *tbb);
    for (int t = 0; t < 6; ++t) {
      const std::size_t i = t == 0 ? 0 : t == 1 ? n - 1 : static_cast<std::size_t>(rng() % n);
      EXPECT_EQ(f[i], evaluate(x, d.element(i))) << "n=" << n << " i=" << i;
      EXPECT_EQ(fi[i], evaluate(x, d.omega_inv().pow_u64(i)) * d.size_inv()) << "n=" << n << " i=" << i;
      EXPECT_EQ(fc[i], evaluate(x, d.coset_generator() * d.element(i))) << "n=" << n << " i=" << i;
    }
  }
}

TEST(PolyNtt, RoundTripsUpTo65536) {
  test::seeded_rng rng;
  auto tbb = base::make_thread_pool_executor(2);
  for (unsigned k = 0; k <= 16; ++k) {
    const ntt_plan plan(radix2_domain::of_log_size(k), *tbb);
    const vec x = random_vec(plan.size(), rng);
    vec a = x;
    ntt(plan, a, ntt_direction::forward, ntt_order::natural_to_natural, *tbb);
    ntt(plan, a, ntt_direction::inverse, ntt_order::natural_to_natural, *tbb);
    EXPECT_EQ(a, x) << "fwd/inv nn, k=" << k;
    ntt(plan, a, ntt_direction::inverse, ntt_order::natural_to_bit_reversed, *tbb);
    ntt(plan, a, ntt_direction::forward, ntt_order::bit_reversed_to_natural, *tbb);
    EXPECT_EQ(a, x) << "inv nr / fwd rn, k=" << k;
    ntt(plan, a, ntt_direction::forward, ntt_order::natural_to_bit_reversed, *tbb);
    ntt(plan, a, ntt_direction::inverse, ntt_order::bit_reversed_to_natural, *tbb);
    EXPECT_EQ(a, x) << "fwd nr / inv rn, k=" << k;
    coset_ntt(plan, a, ntt_direction::forward, ntt_order::natural_to_natural, *tbb);
    coset_ntt(plan, a, ntt_direction::inverse, ntt_order::natural_to_natural, *tbb);
    EXPECT_EQ(a, x) << "coset fwd/inv nn, k=" << k;
    coset_ntt(plan, a, ntt_direction::inverse, ntt_order::natural_to_bit_reversed, *tbb);
    coset_ntt(plan, a, ntt_direction::forward, ntt_order::bit_reversed_to_natural, *tbb);
    EXPECT_EQ(a, x) << "coset inv nr / fwd rn, k=" << k;
  }
}

TEST(PolyCosetNtt, MatchesNaiveEvaluationOnCoset) {
  test::seeded_rng rng;
  executors ex;
  for (unsigned k = 0; k <= 10; ++k) {
    const radix2_domain d = radix2_domain::of_log_size(k);
    for (base::executor* e : ex.all()) {
      const ntt_plan plan(d, *e);
      const vec x = random_vec(d.size(), rng);
      const vec fx = naive_forward(d, x, d.coset_generator());  // x(g omega^i)
      vec a = x;
      coset_ntt(plan, a, ntt_direction::forward, ntt_order::natural_to_natural, *e);
      EXPECT_EQ(a, fx) << "k=" << k;
      a = x;
      coset_ntt(plan, a, ntt_direction::forward, ntt_order::natural_to_bit_reversed, *e);
      EXPECT_EQ(a, bit_reversed_copy(fx)) << "k=" << k;
      a = bit_reversed_copy(x);
      coset_ntt(plan, a, ntt_direction::forward, ntt_order::bit_reversed_to_natural, *e);
      EXPECT_EQ(a, fx) << "k=" << k;
      // icoset: from values on gH back to coefficients.
      a = fx;
      coset_ntt(plan, a, ntt_direction::inverse, ntt_order::natural_to_natural, *e);
      EXPECT_EQ(a, x) << "k=" << k;
      a = fx;
      coset_ntt(plan, a, ntt_direction::inverse, ntt_order::natural_to_bit_reversed, *e);
      EXPECT_EQ(a, bit_reversed_copy(x)) << "k=" << k;
      a = bit_reversed_copy(fx);
      coset_ntt(plan, a, ntt_direction::inverse, ntt_order::bit_reversed_to_natural, *e);
      EXPECT_EQ(a, x) << "k=" << k;
    }
  }
}

TEST(PolyDistributePowers, NaturalAndBitReversed) {
  test::seeded_rng rng;
  executors ex;
  const fr g = fr::random(rng), s = fr::random(rng);
  for (std::size_t n : {1u, 2u, 8u, 4096u, 65536u}) {
    const vec x = random_vec(n, rng);
    vec want(n);
    fr u = s;
    for (std::size_t i = 0; i < n; ++i) want[i] = x[i] * u, u = u * g;
    for (base::executor* e : ex.all()) {
      vec a = x;
      distribute_powers(a, g, *e, coeff_layout::natural, s);
      EXPECT_EQ(a, want) << "n=" << n;
      a = bit_reversed_copy(x);
      distribute_powers(a, g, *e, coeff_layout::bit_reversed, s);
      EXPECT_EQ(a, bit_reversed_copy(want)) << "n=" << n;
    }
    vec p(n);
    powers(p, g, *ex.tbb2, s);
    u = s;
    for (std::size_t i = 0; i < n; ++i) {
      ASSERT_EQ(p[i], u);
      u = u * g;
    }
  }
}

TEST(PolyNtt, SerialAndThreadPoolAgreeBitForBit) {
  test::seeded_rng rng;
  executors ex;
  for (unsigned k : {12u, 14u, 16u}) {
    const radix2_domain d = radix2_domain::of_log_size(k);
    const ntt_plan ps(d, ex.serial), pt(d, *ex.tbb4);
    ASSERT_TRUE(std::equal(ps.twiddles().begin(), ps.twiddles().end(), pt.twiddles().begin()));
    const vec x = random_vec(d.size(), rng), y = random_vec(d.size(), rng);
    for (auto dir : {ntt_direction::forward, ntt_direction::inverse})
      for (auto ord : {ntt_order::natural_to_natural, ntt_order::natural_to_bit_reversed,
                       ntt_order::bit_reversed_to_natural}) {
        vec a = x, b = x, c = x, e = x;
        ntt(ps, a, dir, ord, ex.serial);
        ntt(pt, b, dir, ord, *ex.tbb2);
        EXPECT_EQ(a, b);
        coset_ntt(ps, c, dir, ord, ex.serial);
        coset_ntt(pt, e, dir, ord, *ex.tbb4);
        EXPECT_EQ(c, e);
      }
    vec a1 = x, b1 = y, c1(d.size()), a2, b2, c2;
    for (std::size_t i = 0; i < d.size(); ++i) c1[i] = x[i] * y[i];
    a2 = a1, b2 = b1, c2 = c1;
    compute_h(ps, a1, b1, c1, ex.serial);
    compute_h(pt, a2, b2, c2, *ex.tbb2);
    EXPECT_EQ(a1, a2);
  }
}

// --- bellperson's h -----------------------------------------------------------------------

// Random A, B of degree < n; a, b their values on H; c = a*b pointwise, so C = A*B mod (X^n - 1)
// and A*B - C vanishes on H.
struct qap_case {
  vec A, B, C, a, b, c;
};

qap_case make_case(const ntt_plan& plan, test::seeded_rng& rng, base::executor& e) {
  qap_case q;
  const std::size_t n = plan.size();
  q.A = random_vec(n, rng), q.B = random_vec(n, rng);
  q.a = q.A, q.b = q.B;
  ntt(plan, q.a, ntt_direction::forward, ntt_order::natural_to_natural, e);
  ntt(plan, q.b, ntt_direction::forward, ntt_order::natural_to_natural, e);
  q.c.resize(n);
  for (std::size_t i = 0; i < n; ++i) q.c[i] = q.a[i] * q.b[i];
  q.C = q.c;
  ntt(plan, q.C, ntt_direction::inverse, ntt_order::natural_to_natural, e);
  return q;
}

// bellperson's sequence, step by step with the natural-order API: the twin of compute_h.
vec bellperson_h(const ntt_plan& plan, vec a, vec b, vec c, base::executor& e) {
  for (vec* v : {&a, &b, &c}) {
    ntt(plan, *v, ntt_direction::inverse, ntt_order::natural_to_natural, e);
    coset_ntt(plan, *v, ntt_direction::forward, ntt_order::natural_to_natural, e);
  }
  const fr zinv = plan.domain().z(plan.domain().coset_generator()).inverse();
  for (std::size_t i = 0; i < a.size(); ++i) a[i] = (a[i] * b[i] - c[i]) * zinv;
  coset_ntt(plan, a, ntt_direction::inverse, ntt_order::natural_to_natural, e);
  return a;
}

TEST(PolyComputeH, ExactPolynomialIdentitySmall) {
  test::seeded_rng rng;
  base::serial_executor e;
  for (unsigned k = 0; k <= 8; ++k) {
    const ntt_plan plan(radix2_domain::of_log_size(k), e);
    const std::size_t n = plan.size();
    qap_case q = make_case(plan, rng, e);
    vec h = q.a, b = q.b, c = q.c;
    compute_h(plan, h, b, c, e);
    EXPECT_TRUE(h[n - 1].is_zero()) << "k=" << k;
    EXPECT_EQ(h, bellperson_h(plan, q.a, q.b, q.c, e)) << "k=" << k;
    // Any a, b, c, unsatisfied included (then h is no quotient): compute_h skips C's coset
    // values (h = (icoset(A_g B_g) - c) / z(g)), an identity of linear maps, so it must still
    // equal bellperson's seven transforms.
    const vec ra = random_vec(n, rng), rb = random_vec(n, rng), rc = random_vec(n, rng);
    vec rh = ra, wb = rb, wc = rc;
    compute_h(plan, rh, wb, wc, e);
    EXPECT_EQ(rh, bellperson_h(plan, ra, rb, rc, e)) << "arbitrary a, b, c, k=" << k;
    // R = A*B - C (schoolbook), must equal h * (X^n - 1): R[i] = h[i - n] - h[i].
    vec R(2 * n - 1, fr::zero());
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t j = 0; j < n; ++j) R[i + j] += q.A[i] * q.B[j];
    for (std::size_t i = 0; i < n; ++i) R[i] -= q.C[i];
    for (std::size_t i = 0; i < 2 * n - 1; ++i) {
      fr want = fr::zero();
      if (i >= n) want += h[i - n];
      if (i < n) want -= h[i];
      EXPECT_EQ(R[i], want) << "k=" << k << " i=" << i;
    }
  }
}

TEST(PolyComputeH, RandomPointIdentityLarge) {
  test::seeded_rng rng;
  auto e = base::make_thread_pool_executor(2);
  for (unsigned k : {12u, 15u, 16u}) {
    const radix2_domain d = radix2_domain::of_log_size(k);
    const ntt_plan plan(d, *e);
    qap_case q = make_case(plan, rng, *e);
    vec h = q.a, b = q.b, c = q.c;
    compute_h(plan, h, b, c, *e);
    EXPECT_TRUE(h[d.size() - 1].is_zero()) << "k=" << k;
    for (int t = 0; t < 4; ++t) {
      const fr tau = fr::random(rng);
      EXPECT_EQ(evaluate(h, tau) * d.z(tau),
                evaluate(q.A, tau) * evaluate(q.B, tau) - evaluate(q.C, tau))
          << "k=" << k;
    }
    if (k == 12) {
      EXPECT_EQ(h, bellperson_h(plan, q.a, q.b, q.c, *e));
    }
  }
}

TEST(PolyComputeH, UnsatisfiedSystemHasNonzeroTop) {
  // With c not equal to a*b the "quotient" is not a polynomial of degree < n - 1; the top
  // coefficient is then nonzero with overwhelming probability (a cheap satisfiability tell).
  test::seeded_rng rng;
  base::serial_executor e;
  const ntt_plan plan(radix2_domain::of_log_size(6), e);
  qap_case q = make_case(plan, rng, e);
  q.c[5] += fr::one();
  compute_h(plan, q.a, q.b, q.c, e);
  EXPECT_FALSE(q.a.back().is_zero());
}

TEST(PolyNtt, RejectsWrongLength) {
  base::serial_executor e;
  const ntt_plan plan(radix2_domain::of_log_size(4), e);
  vec a(15);
  EXPECT_THROW(ntt(plan, a, ntt_direction::forward, ntt_order::natural_to_natural, e), std::invalid_argument);
}

}  // namespace
}  // namespace cuzk::poly
