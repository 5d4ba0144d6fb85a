// Differential test: the x86-64 kernels (ff/mont_x86.hpp: Montgomery products, branch-free
// add/sub/neg, the lazy-reduction building blocks and the Fp2 products built on them) against
// their portable twins on random (printed seed) and edge inputs, including aliased operands.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "ff/bls12_381.hpp"
#include "ff/fp2.hpp"
#include "support/seed.hpp"

namespace {

using cuzk::ff::bigint;
using cuzk::ff::fp;
using cuzk::ff::fr;
using cuzk::ff::fp2;

#if defined(CUZK_X86_ADX) && !CUZK_HAVE_X86_MONT && defined(__x86_64__)
#error "CUZK_X86_ADX is on but the x86 kernels are not enabled: -mbmi2 -madx did not reach this TU"
#endif

template <class F>
class ff_x86_kernel : public ::testing::Test {};
using Fields = ::testing::Types<fp, fr>;
TYPED_TEST_SUITE(ff_x86_kernel, Fields);

// Montgomery representations (all < p) that stress carries and the final subtraction.
template <class F>
std::vector<typename F::repr> edge_reprs() {
  using R = typename F::repr;
  constexpr std::size_t N = F::N;
  std::vector<R> v;
  auto minus = [](R a, uint64_t k) {
    sub_in_place(a, cuzk::ff::from_u64<N>(k));
    return a;
  };
  v.push_back(R{});                                  // 0
  v.push_back(cuzk::ff::from_u64<N>(1));             // 1 (= R^-1 as a field element)
  v.push_back(cuzk::ff::from_u64<N>(2));
  v.push_back(minus(F::modulus, 1));                 // p - 1
  v.push_back(minus(F::modulus, 2));                 // p - 2
  v.push_back(F::r1);                                // R mod p (Montgomery one)
  v.push_back(F::r2);                                // R^2 mod p
  v.push_back(F::half_modulus);                      // (p - 1) / 2
  v.push_back(cuzk::ff::detail::plus_u64(F::half_modulus, 1));
  R ones{};                                          // low limbs all ones, top limb p_top - 1
  for (std::size_t i = 0; i + 1 < N; ++i) ones.w[i] = ~uint64_t{0};
  ones.w[N - 1] = F::modulus.w[N - 1] - 1;
  v.push_back(ones);
  R zeros{};                                         // low limbs all zero, top limb p_top
  zeros.w[N - 1] = F::modulus.w[N - 1];
  v.push_back(zeros);
  R low_ones{};                                      // all-ones low limbs, zero top limb
  for (std::size_t i = 0; i + 1 < N; ++i) low_ones.w[i] = ~uint64_t{0};
  v.push_back(low_ones);
  R single{};                                        // one all-ones limb in each position
  for (std::size_t i = 0; i + 1 < N; ++i) {
    single = R{};
    single.w[i] = ~uint64_t{0};
    v.push_back(single);
  }
  return v;
}

template <class F>
F from_repr(const typename F::repr& r) {
  return F::from_montgomery_repr(r);
}

TYPED_TEST(ff_x86_kernel, KernelPresenceMatchesBuild) {
  using F = TypeParam;
#if CUZK_HAVE_X86_MONT
  static_assert(cuzk::ff::x86::has_kernel<F::N>);
  std::printf("[ info     ] x86 mulx/adx kernel active for N = %zu\n", F::N);
#else
  static_assert(!cuzk::ff::x86::has_kernel<F::N>);
  GTEST_SKIP() << "built without BMI2/ADX: portable arithmetic only";
#endif
}


// The lazy-reduction formulas in portable arithmetic against Karatsuba / complex squaring over
// Fp: runs in every build (the x86 kernels are compared with both further down).
TEST(ff_fp2_lazy, PortableMatchesKaratsuba) {
  cuzk::test::seeded_rng rng;
  const auto edges = edge_reprs<fp>();
  for (const auto& x : edges) {
    for (const auto& y : edges) {
      const fp2 a{from_repr<fp>(x), from_repr<fp>(y)};
      const fp2 b{from_repr<fp>(y), from_repr<fp>(x)};
      ASSERT_EQ(fp2::mul_lazy_portable(a, b), fp2::mul_karatsuba(a, b));
      ASSERT_EQ(fp2::square_lazy_portable(a), fp2::square_complex(a));
    }
  }
  for (int i = 0; i < 20000; ++i) {
    const fp2 a = fp2::random(rng), b = fp2::random(rng);
    ASSERT_EQ(fp2::mul_lazy_portable(a, b), fp2::mul_karatsuba(a, b)) << "iteration " << i;
    ASSERT_EQ(fp2::square_lazy_portable(a), fp2::square_complex(a)) << "iteration " << i;
  }
}

// add/sub/neg through the dispatching entry points against the portable versions (on builds
// without the kernels both sides are portable and this checks nothing new, cheaply).
TYPED_TEST(ff_x86_kernel, AddSubNegMatchPortable) {
  using F = TypeParam;
  const auto edges = edge_reprs<F>();
  for (const auto& x : edges) {
    const F a = from_repr<F>(x);
    ASSERT_EQ(F::neg(a), F::neg_portable(a));
    ASSERT_TRUE(less_than(F::neg(a).v, F::modulus));
    for (const auto& y : edges) {
      const F b = from_repr<F>(y);
      ASSERT_EQ(F::add(a, b), F::add_portable(a, b));
      ASSERT_EQ(F::sub(a, b), F::sub_portable(a, b));
      ASSERT_TRUE(less_than(F::add(a, b).v, F::modulus));
      ASSERT_TRUE(less_than(F::sub(a, b).v, F::modulus));
    }
  }
  cuzk::test::seeded_rng rng;
  for (int i = 0; i < 200000; ++i) {
    const F a = F::random(rng), b = F::random(rng);
    ASSERT_EQ(F::add(a, b), F::add_portable(a, b)) << "iteration " << i;
    ASSERT_EQ(F::sub(a, b), F::sub_portable(a, b)) << "iteration " << i;
    ASSERT_EQ(F::neg(a), F::neg_portable(a)) << "iteration " << i;
    ASSERT_EQ(F::dbl(a), F::add_portable(a, a)) << "iteration " << i;
    // aliasing: result written over an operand
    F c = a;
    c = c + b;
    ASSERT_EQ(c, F::add_portable(a, b));
    c = a;
    c -= b;
    ASSERT_EQ(c, F::sub_portable(a, b));
    c = b;
    c = a - c;
    ASSERT_EQ(c, F::sub_portable(a, b));
  }
  // the portable versions against plain integer arithmetic on the canonical values
  for (int i = 0; i < 1000; ++i) {
    const F a = F::random(rng), b = F::random(rng);
    auto want_add = a.v;
    const uint64_t carry = add_in_place(want_add, b.v);
    ASSERT_EQ(carry, 0u);
    if (!less_than(want_add, F::modulus)) sub_in_place(want_add, F::modulus);
    ASSERT_EQ(F::add_portable(a, b).v, want_add);
    auto want_sub = a.v;
    if (sub_in_place(want_sub, b.v)) add_in_place(want_sub, F::modulus);
    ASSERT_EQ(F::sub_portable(a, b).v, want_sub);
  }
}

#if CUZK_HAVE_X86_MONT
template <class F>
F kernel_mul(const F& a, const F& b) {
  F r;
  cuzk::ff::x86::mont_mul<F::N>(r.v.w, a.v.w, b.v.w, F::modulus.w, F::n0);
  return r;
}
template <class F>
F kernel_sqr(const F& a) {
  F r;
  cuzk::ff::x86::mont_sqr<F::N>(r.v.w, a.v.w, F::modulus.w, F::n0);
  return r;
}

TYPED_TEST(ff_x86_kernel, EdgeValuesMatchPortable) {
  using F = TypeParam;
  const auto edges = edge_reprs<F>();
  for (const auto& x : edges) {
    for (const auto& y : edges) {
      const F a = from_repr<F>(x), b = from_repr<F>(y);
      const F want = F::mul_portable(a, b);
      ASSERT_EQ(kernel_mul(a, b), want);
      ASSERT_EQ(F::mul(a, b), want);
      ASSERT_TRUE(less_than(kernel_mul(a, b).v, F::modulus));
    }
    const F a = from_repr<F>(x);
    ASSERT_EQ(kernel_sqr(a), F::mul_portable(a, a));
    ASSERT_EQ(F::square(a), F::square_portable(a));
  }
}

TYPED_TEST(ff_x86_kernel, RandomMatchesPortable) {
  using F = TypeParam;
  cuzk::test::seeded_rng rng;
  for (int i = 0; i < 200000; ++i) {
    const F a = F::random(rng), b = F::random(rng);
    const F want = F::mul_portable(a, b);
    ASSERT_EQ(kernel_mul(a, b), want) << "iteration " << i;
    ASSERT_EQ(kernel_sqr(a), F::mul_portable(a, a)) << "iteration " << i;
  }
}

// Random values biased to the top of the range: limbs equal to p's limbs or all ones, so the
// accumulator carries and the final subtraction are exercised far more often than by uniform
// inputs.
TYPED_TEST(ff_x86_kernel, NearModulusMatchesPortable) {
  using F = TypeParam;
  using R = typename F::repr;
  cuzk::test::seeded_rng rng;
  auto draw = [&] {
    for (;;) {
      R r;
      for (std::size_t i = 0; i < F::N; ++i) {
        switch (rng() % 4) {
          case 0: r.w[i] = F::modulus.w[i]; break;
          case 1: r.w[i] = ~uint64_t{0}; break;
          case 2: r.w[i] = 0; break;
          default: r.w[i] = rng(); break;
        }
      }
      r.w[F::N - 1] %= F::modulus.w[F::N - 1] + 1;
      if (less_than(r, F::modulus)) return r;
    }
  };
  for (int i = 0; i < 100000; ++i) {
    const F a = from_repr<F>(draw()), b = from_repr<F>(draw());
    ASSERT_EQ(kernel_mul(a, b), F::mul_portable(a, b)) << "iteration " << i;
    ASSERT_EQ(kernel_sqr(a), F::mul_portable(a, a)) << "iteration " << i;
  }
}

TYPED_TEST(ff_x86_kernel, AliasedOperands) {
  using F = TypeParam;
  cuzk::test::seeded_rng rng;
  for (int i = 0; i < 1000; ++i) {
    const F a0 = F::random(rng), b0 = F::random(rng);
    F a = a0, b = b0;
    cuzk::ff::x86::mont_mul<F::N>(a.v.w, a.v.w, b.v.w, F::modulus.w, F::n0);  // r == a
    ASSERT_EQ(a, F::mul_portable(a0, b0));
    a = a0;
    cuzk::ff::x86::mont_mul<F::N>(b.v.w, a.v.w, b.v.w, F::modulus.w, F::n0);  // r == b
    ASSERT_EQ(b, F::mul_portable(a0, b0));
    a = a0;
    cuzk::ff::x86::mont_mul<F::N>(a.v.w, a.v.w, a.v.w, F::modulus.w, F::n0);  // r == a == b
    ASSERT_EQ(a, F::mul_portable(a0, a0));
    a = a0;
    cuzk::ff::x86::mont_sqr<F::N>(a.v.w, a.v.w, F::modulus.w, F::n0);
    ASSERT_EQ(a, F::mul_portable(a0, a0));
  }
}

// The output need not be 16-byte aligned (the kernel stores with unaligned vector stores).
TYPED_TEST(ff_x86_kernel, UnalignedOutput) {
  using F = TypeParam;
  cuzk::test::seeded_rng rng;
  alignas(16) uint64_t buf[F::N + 1];
  for (int i = 0; i < 100; ++i) {
    const F a = F::random(rng), b = F::random(rng);
    buf[0] = 0x1234;
    cuzk::ff::x86::mont_mul<F::N>(buf + 1, a.v.w, b.v.w, F::modulus.w, F::n0);
    ASSERT_EQ(buf[0], 0x1234u);
    const F want = F::mul_portable(a, b);
    for (std::size_t j = 0; j < F::N; ++j) ASSERT_EQ(buf[1 + j], want.v.w[j]);
  }
}

// Direct kernel calls with aliased output (add/sub/neg load everything before storing).
TYPED_TEST(ff_x86_kernel, AddSubNegAliased) {
  using F = TypeParam;
  namespace x86 = cuzk::ff::x86;
  cuzk::test::seeded_rng rng;
  for (int i = 0; i < 1000; ++i) {
    const F a0 = F::random(rng), b0 = F::random(rng);
    F a = a0, b = b0;
    x86::add_mod<F::N>(a.v.w, a.v.w, b.v.w, F::modulus.w);
    ASSERT_EQ(a, F::add_portable(a0, b0));
    a = a0;
    x86::sub_mod<F::N>(b.v.w, a.v.w, b.v.w, F::modulus.w);
    ASSERT_EQ(b, F::sub_portable(a0, b0));
    x86::add_mod<F::N>(a.v.w, a.v.w, a.v.w, F::modulus.w);
    ASSERT_EQ(a, F::add_portable(a0, a0));
    a = a0;
    x86::neg_mod<F::N>(a.v.w, a.v.w, F::modulus.w);
    ASSERT_EQ(a, F::neg_portable(a0));
  }
}

// A Montgomery product with one operand unreduced (< 2p, as Fp2 squaring feeds it) is still
// fully reduced and correct. Only claimed for moduli with two spare bits (4p < R: Fp, 381 of
// 384 bits); with one spare bit (Fr) the portable carry-free CIOS drops a carry on such input.
TYPED_TEST(ff_x86_kernel, UnreducedOperandBelow2p) {
  using F = TypeParam;
  if constexpr (F::bits + 2 > 64 * F::N) {
    GTEST_SKIP() << "one spare bit: unreduced operands not supported";
  } else {
  using R = typename F::repr;
  cuzk::test::seeded_rng rng;
  R two_p = F::modulus;
  add_in_place(two_p, F::modulus);
  std::vector<R> xs;
  for (uint64_t k : {1, 2, 3}) xs.push_back(cuzk::ff::detail::minus_u64(two_p, k));
  xs.push_back(F::modulus);
  xs.push_back(cuzk::ff::detail::plus_u64(F::modulus, 1));
  for (int i = 0; i < 20000; ++i) {
    R x = F::random(rng).v;
    add_in_place(x, F::random(rng).v);  // < 2p
    xs.push_back(x);
  }
  const auto edges = edge_reprs<F>();
  for (std::size_t i = 0; i < xs.size(); ++i) {
    R xr = xs[i];
    if (!less_than(xr, F::modulus)) sub_in_place(xr, F::modulus);
    for (std::size_t j = 0; j < (i < 5 ? edges.size() : 1); ++j) {
      const F y = i < 5 ? from_repr<F>(edges[j]) : F::random(rng);
      F got;
      cuzk::ff::x86::mont_mul<F::N>(got.v.w, xs[i].w, y.v.w, F::modulus.w, F::n0);
      ASSERT_EQ(got, F::mul_portable(from_repr<F>(xr), y)) << "case " << i;
      ASSERT_EQ(F::mul_portable(from_repr<F>(xs[i]), y), got) << "case " << i;
    }
  }
  }
}

// 2N-word values t < p R for redc: products of edge values, random values, the extremes.
std::vector<fp::wide> redc_inputs(cuzk::test::seeded_rng& rng) {
  std::vector<fp::wide> v;
  const auto edges = edge_reprs<fp>();
  for (const auto& x : edges)
    for (const auto& y : edges) v.push_back(fp::mul_wide_portable(x, y));
  fp::wide top{};  // p R - 1: low half all ones, high half p - 1
  for (std::size_t i = 0; i < 6; ++i) top.w[i] = ~uint64_t{0};
  for (std::size_t i = 0; i < 6; ++i) top.w[6 + i] = cuzk::ff::detail::minus_u64(fp::modulus, 1).w[i];
  v.push_back(top);
  fp::wide pr{};  // p R - p R^0... p (R - 1): high half p - 1, low half R - p
  for (std::size_t i = 0; i < 6; ++i) pr.w[6 + i] = top.w[6 + i];
  fp::repr low{};
  sub_in_place(low, fp::modulus);
  for (std::size_t i = 0; i < 6; ++i) pr.w[i] = low.w[i];
  v.push_back(pr);
  v.push_back(fp::wide{});
  v.push_back(cuzk::ff::from_u64<12>(1));
  v.push_back(fp::modulus_squared);
  for (int i = 0; i < 20000; ++i) {
    fp::wide t;
    for (auto& w : t.w) w = rng();
    t.w[11] %= fp::modulus.w[5];  // high half < p: t < p R
    v.push_back(t);
  }
  return v;
}

TEST(ff_x86_wide, MulWideMatchesPortable) {
  cuzk::test::seeded_rng rng;
  const auto edges = edge_reprs<fp>();
  auto check = [](const fp::repr& a, const fp::repr& b) {
    uint64_t r[12];
    cuzk::ff::x86::mul_wide<6>(r, a.w, b.w);
    const fp::wide want = fp::mul_wide_portable(a, b);
    for (int k = 0; k < 12; ++k) ASSERT_EQ(r[k], want.w[k]) << "word " << k;
  };
  for (const auto& x : edges)
    for (const auto& y : edges) check(x, y);
  fp::repr ones;  // 2^384 - 1: the kernel is a plain product, valid for any inputs
  for (auto& w : ones.w) w = ~uint64_t{0};
  check(ones, ones);
  for (int i = 0; i < 100000; ++i) {
    fp::repr a, b;
    for (auto& w : a.w) w = rng();
    for (auto& w : b.w) w = rng();
    check(a, b);
  }
}

TEST(ff_x86_wide, RedcMatchesPortable) {
  cuzk::test::seeded_rng rng;
  for (const auto& t : redc_inputs(rng)) {
    fp got;
    cuzk::ff::x86::redc<6>(got.v.w, t.w, fp::modulus.w, fp::n0);
    const fp want = fp::redc_portable(t);
    ASSERT_EQ(got, want);
    ASSERT_TRUE(less_than(got.v, fp::modulus));
  }
  // redc(a b) is the Montgomery product
  for (int i = 0; i < 10000; ++i) {
    const fp a = fp::random(rng), b = fp::random(rng);
    ASSERT_EQ(fp::redc_portable(fp::mul_wide_portable(a.v, b.v)), fp::mul_portable(a, b));
  }
}

TEST(ff_x86_wide, WideAddSubMatchPortable) {
  cuzk::test::seeded_rng rng;
  for (int i = 0; i < 10000; ++i) {
    fp::wide a, b;
    for (auto& w : a.w) w = rng() & (i % 3 == 0 ? ~uint64_t{0} : (rng() | 1));
    for (auto& w : b.w) w = i % 5 == 0 ? ~uint64_t{0} : rng();
    fp::wide s = a, d = a, got;
    add_in_place(s, b);
    sub_in_place(d, b);
    cuzk::ff::x86::add_wide<12>(got.w, a.w, b.w);
    ASSERT_EQ(got, s);
    cuzk::ff::x86::sub_wide<12>(got.w, a.w, b.w);
    ASSERT_EQ(got, d);
    fp::repr x, y, z;
    for (std::size_t k = 0; k < 6; ++k) x.w[k] = a.w[k], y.w[k] = b.w[k];
    x.w[5] >>= 2, y.w[5] >>= 2;
    fp::repr want = x;
    add_in_place(want, y);
    cuzk::ff::x86::add_nr<6>(z.w, x.w, y.w);
    ASSERT_EQ(z, want);
    cuzk::ff::x86::add_nr<6>(x.w, x.w, y.w);  // aliased
    ASSERT_EQ(x, want);
  }
}

TEST(ff_x86_wide, Fp2LazyMatchesPortableAndKaratsuba) {
  cuzk::test::seeded_rng rng;
  const auto edges = edge_reprs<fp>();
  auto check = [](const fp2& a, const fp2& b) {
    const fp2 want = fp2::mul_karatsuba(a, b);
    ASSERT_EQ(fp2::mul_lazy_x86(a, b), want);
    ASSERT_EQ(fp2::mul_lazy_portable(a, b), want);
    ASSERT_EQ(a * b, want);
    const fp2 sq = fp2::square_complex(a);
    ASSERT_EQ(fp2::square_lazy_x86(a), sq);
    ASSERT_EQ(a.square(), sq);
    ASSERT_TRUE(less_than((a * b).c0.v, fp::modulus) && less_than((a * b).c1.v, fp::modulus));
  };
  for (const auto& x : edges)
    for (const auto& y : edges)
      for (const auto& z : {edges[0], edges[3], edges[9]}) check({from_repr<fp>(x), from_repr<fp>(y)}, {from_repr<fp>(z), from_repr<fp>(x)});
  for (int i = 0; i < 100000; ++i) check(fp2::random(rng), fp2::random(rng));
  // aliased results (x = x * y, x = x * x)
  for (int i = 0; i < 1000; ++i) {
    const fp2 a = fp2::random(rng), b = fp2::random(rng);
    fp2 x = a;
    x = x * b;
    ASSERT_EQ(x, fp2::mul_karatsuba(a, b));
    x = a;
    x *= x;
    ASSERT_EQ(x, fp2::mul_karatsuba(a, a));
    x = a;
    x = x.square();
    ASSERT_EQ(x, fp2::square_complex(a));
  }
}
#endif  // CUZK_HAVE_X86_MONT

}  // namespace
