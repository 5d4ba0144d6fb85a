// Device Fr arithmetic, NTTs and the h pipeline against the CPU (poly::ntt, poly::compute_h),
// bit for bit, on random inputs (seed printed; replay with CUZK_TEST_SEED). Skipped without a GPU.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "backend/cuda/field_selftest.hpp"
#include "backend/cuda/ntt_cuda.hpp"
#include "base/executor.hpp"
#include "poly/ntt.hpp"
#include "support/seed.hpp"

namespace {

using cuzk::ff::fr;
using cuzk::poly::ntt_direction;
using cuzk::poly::ntt_order;
namespace cuda = cuzk::cuda;
namespace poly = cuzk::poly;

#define REQUIRE_GPU()                                                                        \
  do {                                                                                       \
    std::string why_;                                                                        \
    if (cuda::device_count(why_) == 0) GTEST_SKIP() << "no GPU available (" << why_ << "): device test skipped"; \
  } while (0)

constexpr unsigned ctx_max_log = 24;

cuda::ntt_context& context() {
  static std::unique_ptr<cuda::ntt_context> ctx = [] {
    std::string error;
    auto c = cuda::ntt_context::create(ctx_max_log, error);
    if (!c) ADD_FAILURE() << "ntt_context::create: " << error;
    return c;
  }();
  return *ctx;
}

void set_options(const cuda::ntt_options& o) {
  std::string error;
  ASSERT_TRUE(context().set_options(o, error)) << error;
}

std::vector<fr> random_vector(std::size_t n, cuzk::test::seeded_rng& rng) {
  std::vector<fr> v(n);
  for (auto& x : v) x = fr::random(rng);
  return v;
}

const char* order_name(ntt_order o) {
  switch (o) {
    case ntt_order::natural_to_natural: return "NN";
    case ntt_order::natural_to_bit_reversed: return "NR";
    case ntt_order::bit_reversed_to_natural: return "RN";
  }
  return "?";
}

std::string describe(const cuda::ntt_options& o) {
  if (o.algorithm == cuda::ntt_algorithm::radix2_reference) return "reference";
  return std::string(cuda::fr_mul_name(o.mul)) +
         " K<=" + std::to_string(o.max_stages_per_pass) + " L=" + std::to_string(o.lanes) +
         " blocks/SM " + std::to_string(o.min_blocks) + " elements/thread " + std::to_string(o.elements_per_thread);
}

// Index of the first difference, or -1.
long first_mismatch(const std::vector<fr>& a, const std::vector<fr>& b) {
  if (a.size() != b.size()) return 0;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (a[i] != b[i]) return static_cast<long>(i);
  return -1;
}

// Device transform of `in`; false (with a failure recorded) on a CUDA error.
bool device_transform(const std::vector<fr>& in, std::vector<fr>& out, ntt_direction dir, ntt_order order,
                      bool coset) {
  std::string error;
  cuda::device_fr_vector d;
  bool ok = d.upload(in, error);
  if (ok) ok = coset ? context().coset_ntt(d, dir, order, error) : context().ntt(d, dir, order, error);
  out.assign(in.size(), fr::zero());
  if (ok) ok = d.download(out, error);
  EXPECT_TRUE(ok) << error;
  return ok;
}

TEST(CudaFr, MulAddSubMatchHost) {
  REQUIRE_GPU();
  cuzk::test::seeded_rng rng;
  const std::size_t n = 1 << 16;
  std::vector<fr> a = random_vector(n, rng), b = random_vector(n, rng);
  // Edges: 0, 1, -1 (r - 1), the Montgomery-form extremes.
  const fr edges[] = {fr::zero(), fr::one(), -fr::one(), fr::from_u64(2), -fr::from_u64(2),
                      fr::from_montgomery_repr(cuzk::ff::from_u64<4>(1)),
                      fr::from_montgomery_repr(fr::p_minus_1)};
  std::size_t k = 0;
  for (const fr& x : edges)
    for (const fr& y : edges) a[k] = x, b[k] = y, ++k;
  cuda::fr_mul_selftest_result out;
  std::string error;
  ASSERT_TRUE(cuda::run_fr_mul_selftest(a, b, out, error)) << error;
  for (std::size_t i = 0; i < n; ++i) {
    const fr prod = fr::mul_portable(a[i], b[i]);
    ASSERT_EQ(out.mul_ptx[i], prod) << "PTX (even/odd) product at " << i;
    ASSERT_EQ(out.mul_portable[i], prod) << "portable device product at " << i;
    ASSERT_EQ(out.mul_cios[i], prod) << "row-by-row CIOS product at " << i;
    ASSERT_EQ(out.mul_wide[i], prod) << "wide product at " << i;
    ASSERT_EQ(out.add[i], a[i] + b[i]) << "sum at " << i;
    ASSERT_EQ(out.sub[i], a[i] - b[i]) << "difference at " << i;
  }
}

// Every size 2^1..2^20, both directions, all three orders, plain and coset: default options.
TEST(CudaNtt, MatchesCpuAllSizesOrdersCosets) {
  REQUIRE_GPU();
  set_options({});
  cuzk::test::seeded_rng rng;
  cuzk::base::serial_executor ex;
  for (unsigned k = 1; k <= 20; ++k) {
    const poly::ntt_plan plan(poly::radix2_domain::of_log_size(k), ex);
    for (bool coset : {false, true})
      for (ntt_direction dir : {ntt_direction::forward, ntt_direction::inverse})
        for (ntt_order order :
             {ntt_order::natural_to_natural, ntt_order::natural_to_bit_reversed, ntt_order::bit_reversed_to_natural}) {
          const std::vector<fr> in = random_vector(std::size_t{1} << k, rng);
          std::vector<fr> want = in, got;
          if (coset)
            poly::coset_ntt(plan, want, dir, order, ex);
          else
            poly::ntt(plan, want, dir, order, ex);
          ASSERT_TRUE(device_transform(in, got, dir, order, coset));
          const long bad = first_mismatch(got, want);
          ASSERT_EQ(bad, -1) << "2^" << k << (coset ? " coset" : "") << (dir == ntt_direction::inverse ? " inverse " : " forward ")
                             << order_name(order) << ": first difference at " << bad;
        }
  }
}

// The tuning options, the portable multiplier and the reference algorithm all give the CPU's
// results (pass splits 3..10 stages, 1..8 columns, single- and multi-pass).
TEST(CudaNtt, OptionVariantsAndTwinsMatchCpu) {
  REQUIRE_GPU();
  using cuda::ntt_options, cuda::ntt_algorithm, cuda::fr_mul_kernel;
  const std::vector<ntt_options> variants = {
      {ntt_algorithm::shared_memory_passes, fr_mul_kernel::ptx32, 3, 1},
      {ntt_algorithm::shared_memory_passes, fr_mul_kernel::ptx32, 4, 8},
      {ntt_algorithm::shared_memory_passes, fr_mul_kernel::ptx32, 5, 2},
      {ntt_algorithm::shared_memory_passes, fr_mul_kernel::ptx32, 7, 8},
      {ntt_algorithm::shared_memory_passes, fr_mul_kernel::ptx32, 8, 4},
      {ntt_algorithm::shared_memory_passes, fr_mul_kernel::ptx32, 9, 2},
      {ntt_algorithm::shared_memory_passes, fr_mul_kernel::ptx32, 10, 1},
      {ntt_algorithm::shared_memory_passes, fr_mul_kernel::ptx32, 10, 4},
      {ntt_algorithm::shared_memory_passes, fr_mul_kernel::ptx32, 3, 1, 2, 8},
      {ntt_algorithm::shared_memory_passes, fr_mul_kernel::ptx32, 9, 4, 2, 8},
      {ntt_algorithm::shared_memory_passes, fr_mul_kernel::ptx32, 10, 2, 2, 8},
      {ntt_algorithm::shared_memory_passes, fr_mul_kernel::ptx32, 9, 4, 3, 8},
      {ntt_algorithm::shared_memory_passes, fr_mul_kernel::ptx32, 9, 2, 3, 8},
      {ntt_algorithm::shared_memory_passes, fr_mul_kernel::ptx32, 9, 2, 3, 4},
      {ntt_algorithm::shared_memory_passes, fr_mul_kernel::ptx32, 10, 4, 4, 4},
      {ntt_algorithm::shared_memory_passes, fr_mul_kernel::ptx32, 3, 1, 3, 4},
      {ntt_algorithm::shared_memory_passes, fr_mul_kernel::ptx32, 5, 2, 4, 4},
      {ntt_algorithm::shared_memory_passes, fr_mul_kernel::portable64, 10, 4},
      {ntt_algorithm::shared_memory_passes, fr_mul_kernel::portable64, 6, 2},
      {ntt_algorithm::shared_memory_passes, fr_mul_kernel::cios32, 10, 4},
      {ntt_algorithm::shared_memory_passes, fr_mul_kernel::cios32, 5, 8},
      {ntt_algorithm::shared_memory_passes, fr_mul_kernel::wide32, 10, 4},
      {ntt_algorithm::shared_memory_passes, fr_mul_kernel::wide32, 7, 2},
      {ntt_algorithm::radix2_reference, fr_mul_kernel::ptx32, 10, 4},
  };
  cuzk::test::seeded_rng rng;
  cuzk::base::serial_executor ex;
  for (unsigned k : {3u, 4u, 6u, 9u, 11u, 14u, 17u}) {
    const poly::ntt_plan plan(poly::radix2_domain::of_log_size(k), ex);
    for (bool coset : {false, true})
      for (ntt_direction dir : {ntt_direction::forward, ntt_direction::inverse})
        for (ntt_order order :
             {ntt_order::natural_to_natural, ntt_order::natural_to_bit_reversed, ntt_order::bit_reversed_to_natural}) {
          const std::vector<fr> in = random_vector(std::size_t{1} << k, rng);
          std::vector<fr> want = in, got;
          if (coset)
            poly::coset_ntt(plan, want, dir, order, ex);
          else
            poly::ntt(plan, want, dir, order, ex);
          for (const ntt_options& o : variants) {
            set_options(o);
            ASSERT_TRUE(device_transform(in, got, dir, order, coset));
            const long bad = first_mismatch(got, want);
            ASSERT_EQ(bad, -1) << describe(o) << " 2^" << k << (coset ? " coset" : "")
                               << (dir == ntt_direction::inverse ? " inverse " : " forward ") << order_name(order)
                               << ": first difference at " << bad;
          }
        }
  }
  set_options({});
}

bool device_h(const std::vector<fr>& a, const std::vector<fr>& b, const std::vector<fr>& c, std::vector<fr>& h) {
  std::string error;
  cuda::device_fr_vector da, db, dc;
  bool ok = da.upload(a, error) && db.upload(b, error) && dc.upload(c, error) &&
            context().compute_h(da, db, dc, error);
  h.assign(a.size(), fr::zero());
  if (ok) ok = da.download(h, error);
  EXPECT_TRUE(ok) << error;
  return ok;
}

TEST(CudaH, MatchesCpuComputeH) {
  REQUIRE_GPU();
  using cuda::ntt_options, cuda::ntt_algorithm, cuda::fr_mul_kernel;
  const std::vector<ntt_options> variants = {
      {},
      {ntt_algorithm::shared_memory_passes, fr_mul_kernel::ptx32, 3, 8},
      {ntt_algorithm::shared_memory_passes, fr_mul_kernel::portable64, 9, 2},
      {ntt_algorithm::shared_memory_passes, fr_mul_kernel::ptx32, 10, 4},
      {ntt_algorithm::shared_memory_passes, fr_mul_kernel::cios32, 9, 4},
      {ntt_algorithm::shared_memory_passes, fr_mul_kernel::wide32, 9, 4},
      {ntt_algorithm::shared_memory_passes, fr_mul_kernel::portable64, 10, 8},
      {ntt_algorithm::shared_memory_passes, fr_mul_kernel::ptx32, 9, 4, 3, 8},
      {ntt_algorithm::shared_memory_passes, fr_mul_kernel::ptx32, 10, 4, 2, 8},
      {ntt_algorithm::shared_memory_passes, fr_mul_kernel::ptx32, 9, 2, 3, 4},
      {ntt_algorithm::shared_memory_passes, fr_mul_kernel::ptx32, 4, 2, 4, 4},
      {ntt_algorithm::radix2_reference, fr_mul_kernel::ptx32, 10, 4},
  };
  cuzk::test::seeded_rng rng;
  cuzk::base::serial_executor ex;
  for (unsigned k : {1u, 2u, 3u, 4u, 5u, 8u, 11u, 14u, 17u, 20u}) {
    const std::size_t n = std::size_t{1} << k;
    const poly::ntt_plan plan(poly::radix2_domain::of_log_size(k), ex);
    for (bool satisfied : {false, true}) {
      const std::vector<fr> a = random_vector(n, rng), b = random_vector(n, rng);
      std::vector<fr> c = random_vector(n, rng);
      if (satisfied)
        for (std::size_t i = 0; i < n; ++i) c[i] = a[i] * b[i];
      std::vector<fr> wa = a, wb = b, wc = c;
      poly::compute_h(plan, wa, wb, wc, ex);
      if (satisfied) {
        ASSERT_TRUE(wa[n - 1].is_zero()) << "CPU: h has degree < n - 1 for a satisfied system";
      }
      for (const ntt_options& o : variants) {
        if (k > 17 && o.algorithm == ntt_algorithm::radix2_reference) continue;
        set_options(o);
        std::vector<fr> h;
        ASSERT_TRUE(device_h(a, b, c, h));
        const long bad = first_mismatch(h, wa);
        ASSERT_EQ(bad, -1) << describe(o) << " 2^" << k << (satisfied ? " satisfied" : " random")
                           << ": first difference at " << bad;
      }
    }
  }
  set_options({});
}

// Sizes past the CPU comparisons, device only: round trips, and the fast path against the
// reference algorithm (multi-pass plans with 3 passes).
TEST(CudaNtt, LargeSizesRoundTripAndMatchReference) {
  REQUIRE_GPU();
  cuzk::test::seeded_rng rng;
  std::string error;
  for (unsigned k : {22u, 24u}) {
    const std::size_t n = std::size_t{1} << k;
    const std::vector<fr> in = random_vector(n, rng);
    std::vector<fr> out(n);
    cuda::device_fr_vector d;
    set_options({});
    // forward NR then inverse RN; coset forward NN then coset inverse NN.
    ASSERT_TRUE(d.upload(in, error)) << error;
    ASSERT_TRUE(context().ntt(d, ntt_direction::forward, ntt_order::natural_to_bit_reversed, error)) << error;
    ASSERT_TRUE(context().ntt(d, ntt_direction::inverse, ntt_order::bit_reversed_to_natural, error)) << error;
    ASSERT_TRUE(context().coset_ntt(d, ntt_direction::forward, ntt_order::natural_to_natural, error)) << error;
    ASSERT_TRUE(context().coset_ntt(d, ntt_direction::inverse, ntt_order::natural_to_natural, error)) << error;
    ASSERT_TRUE(d.download(out, error)) << error;
    ASSERT_EQ(first_mismatch(out, in), -1) << "round trip 2^" << k;
    if (k > 22) continue;
    // fast coset forward NN vs reference; fast h vs reference h.
    std::vector<fr> fast(n), ref(n);
    ASSERT_TRUE(d.upload(in, error)) << error;
    ASSERT_TRUE(context().coset_ntt(d, ntt_direction::forward, ntt_order::natural_to_natural, error)) << error;
    ASSERT_TRUE(d.download(fast, error)) << error;
    set_options({cuda::ntt_algorithm::radix2_reference});
    ASSERT_TRUE(d.upload(in, error)) << error;
    ASSERT_TRUE(context().coset_ntt(d, ntt_direction::forward, ntt_order::natural_to_natural, error)) << error;
    ASSERT_TRUE(d.download(ref, error)) << error;
    ASSERT_EQ(first_mismatch(fast, ref), -1) << "coset forward 2^" << k << " fast vs reference";
    for (auto mul : {cuda::fr_mul_kernel::ptx32, cuda::fr_mul_kernel::portable64, cuda::fr_mul_kernel::cios32,
                     cuda::fr_mul_kernel::wide32}) {
      cuda::ntt_options other;
      other.mul = mul;
      set_options(other);
      ASSERT_TRUE(d.upload(in, error)) << error;
      ASSERT_TRUE(context().coset_ntt(d, ntt_direction::forward, ntt_order::natural_to_natural, error)) << error;
      ASSERT_TRUE(d.download(ref, error)) << error;
      ASSERT_EQ(first_mismatch(fast, ref), -1) << "coset forward 2^" << k << " default vs " << cuda::fr_mul_name(mul);
    }
    const std::vector<fr> b = random_vector(n, rng), c = random_vector(n, rng);
    set_options({});
    ASSERT_TRUE(device_h(in, b, c, fast));
    set_options({cuda::ntt_algorithm::radix2_reference});
    ASSERT_TRUE(device_h(in, b, c, ref));
    ASSERT_EQ(first_mismatch(fast, ref), -1) << "h 2^" << k << " fast vs reference";
  }
  set_options({});
}

TEST(CudaNtt, RejectsBadArguments) {
  REQUIRE_GPU();
  std::string error;
  cuda::device_fr_vector d;
  ASSERT_TRUE(d.resize(12, error)) << error;
  EXPECT_FALSE(context().ntt(d, ntt_direction::forward, ntt_order::natural_to_natural, error));
  EXPECT_NE(error.find("power of two"), std::string::npos) << error;
  ASSERT_TRUE(d.resize(std::size_t{1} << (ctx_max_log + 1), error)) << error;
  EXPECT_FALSE(context().ntt(d, ntt_direction::forward, ntt_order::natural_to_natural, error));
  cuda::ntt_options bad;
  bad.lanes = 3;
  EXPECT_FALSE(context().set_options(bad, error));
  bad = {};
  bad.max_stages_per_pass = 11;
  EXPECT_FALSE(context().set_options(bad, error));
  bad = {};
  bad.min_blocks = 1;
  EXPECT_FALSE(context().set_options(bad, error));
  bad = {};
  bad.elements_per_thread = 2;
  EXPECT_FALSE(context().set_options(bad, error));
}

}  // namespace
