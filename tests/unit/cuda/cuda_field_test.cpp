// Device vs host: the field templates compiled by nvcc must give the CPU's results bit for bit.
#include <gtest/gtest.h>

#include "backend/cuda/field_selftest.hpp"
#include "support/seed.hpp"

namespace {

using cuzk::ff::fp;
using cuzk::ff::fr;

TEST(CudaField, DeviceMatchesHost) {
  std::string why;
  if (cuzk::cuda::device_count(why) == 0) GTEST_SKIP() << "no GPU available (" << why << "): device test skipped";
  cuzk::test::seeded_rng rng;
  const std::size_t n = 4099;  // not a multiple of the block size
  std::vector<fp> a(n), b(n);
  std::vector<fr> c(n), d(n);
  for (std::size_t i = 0; i < n; ++i) {
    a[i] = fp::random(rng);
    b[i] = fp::random(rng);
    c[i] = fr::random(rng);
    d[i] = fr::random(rng);
  }
  // Edge values: zero, one, p-1.
  a[0] = fp::zero();
  b[1] = fp::one();
  a[2] = -fp::one();
  c[0] = fr::zero();
  d[1] = -fr::one();
  cuzk::cuda::field_selftest_result out;
  std::string error;
  ASSERT_TRUE(cuzk::cuda::run_field_selftest(a, b, c, d, out, error)) << error;
  for (std::size_t i = 0; i < n; ++i) {
    ASSERT_EQ(out.fp_out[i], cuzk::cuda::selftest_fp_formula(a[i], b[i])) << "fp at " << i;
    ASSERT_EQ(out.fr_out[i], cuzk::cuda::selftest_fr_formula(c[i], d[i])) << "fr at " << i;
    ASSERT_EQ(out.fp2_out[i], cuzk::cuda::selftest_fp2_formula(a[i], b[i])) << "fp2 at " << i;
  }
}

}  // namespace
