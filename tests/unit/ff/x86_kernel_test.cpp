// Differential test: the mulx/adcx/adox kernels (ff/mont_x86.hpp) against the portable CIOS
// multiplication on random and edge inputs, including aliased operands.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "ff/bls12_381.hpp"
#include "support/seed.hpp"

namespace {

using cuzk::ff::bigint;
using cuzk::ff::fp;
using cuzk::ff::fr;

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
#endif  // CUZK_HAVE_X86_MONT

}  // namespace
