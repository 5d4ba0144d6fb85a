// The packed witness format (witness_packing.hpp) on the host: pack with one thread and with a
// thread pool, unpack with the host decoder (the device kernel's twin), compare. No GPU needed.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <random>
#include <vector>

#include "backend/cuda/witness_packing.hpp"
#include "support/seed.hpp"

namespace {

using cuzk::ff::fr;
namespace cuda = cuzk::cuda;

// The encoders this CPU runs: scalar always, AVX2 where the CPU has it (said once otherwise).
std::vector<cuda::pack_encoder> encoders() {
  if (cuda::pack_encoder_avx2_supported()) return {cuda::pack_encoder::scalar, cuda::pack_encoder::avx2};
  static bool said = false;
  if (!said) std::printf("this CPU has no AVX2: only the scalar encoder is tested\n");
  said = true;
  return {cuda::pack_encoder::scalar};
}

// n values: zero with probability z, one with probability o, else random.
std::vector<fr> mixed(std::mt19937_64& rng, std::size_t n, double z, double o) {
  std::uniform_real_distribution<double> u(0, 1);
  std::vector<fr> v(n);
  for (auto& x : v) {
    const double t = u(rng);
    x = t < z ? fr::zero() : t < z + o ? fr::one() : fr::random(rng);
  }
  return v;
}

TEST(WitnessPacking, RoundTripsEveryMixAndLength) {
  std::mt19937_64 rng(cuzk::test::test_seed());
  cuzk::base::serial_executor serial;
  const auto pool = cuzk::base::make_thread_pool_executor(4);
  struct mix {
    double zero, one;
  };
  // PoRep's measured mix, all zero, all one, no 0 or 1 (the worst case), half and half.
  const mix mixes[] = {{0.514, 0.473}, {1, 0}, {0, 1}, {0, 0}, {0.5, 0}};
  // Lengths around the word (16) and block (256) sizes, and several thousand blocks.
  const std::size_t lengths[] = {0, 1, 15, 16, 17, 255, 256, 257, 4095, 4097, 1u << 20};
  for (const mix& m : mixes)
    for (std::size_t n : lengths) {
      SCOPED_TRACE("n = " + std::to_string(n) + ", zero " + std::to_string(m.zero) + ", one " + std::to_string(m.one));
      std::vector<fr> src = mixed(rng, n, m.zero, m.one);
      if (n > 3) src[n - 1] = -fr::one(), src[n / 2] = fr::one();  // edge values
      if (n > 6) {
        // "Other" values one word away from zero or one: each 64-bit word must count.
        for (int k = 0; k < 4; ++k) src[k] = fr::zero(), src[k].v.w[k] = uint64_t{1} << (17 * k);
        src[4] = fr::one(), src[4].v.w[3] ^= uint64_t{1} << 40;
        src[5] = fr::one(), src[5].v.w[0] ^= 1;
      }
      const auto layout = cuda::packed_chunk_layout::of(n);
      // 32-byte aligned, and poisoned so that an unwritten byte shows.
      std::vector<fr> buf(layout.max_bytes() / sizeof(fr) + 1);
      std::memset(buf.data(), 0xa5, buf.size() * sizeof(fr));
      auto* dst = reinterpret_cast<std::byte*>(buf.data());
      std::size_t others = 0;
      for (const fr& x : src) others += !x.is_zero() && !(x == fr::one());
      std::vector<std::byte> first;  // the first encoder's bytes: every encoder writes the same
      for (cuda::pack_encoder encoder : encoders())
        for (cuzk::base::executor* ex : {static_cast<cuzk::base::executor*>(&serial), pool.get()}) {
          SCOPED_TRACE("encoder " + std::to_string(static_cast<int>(encoder)));
          std::memset(buf.data(), 0xa5, buf.size() * sizeof(fr));
          const std::size_t bytes = cuda::pack_witness_chunk(src, dst, *ex, encoder);
          ASSERT_EQ(bytes, layout.bytes(others));
          ASSERT_LE(bytes, layout.max_bytes());
          if (first.empty()) first.assign(dst, dst + bytes);
          ASSERT_TRUE(std::equal(first.begin(), first.end(), dst));
          std::vector<fr> back(n, fr::one() + fr::one());
          cuda::unpack_witness_chunk(dst, back);
          ASSERT_TRUE(back == src);
        }
    }
}

TEST(WitnessPacking, PorepMixIsSmall) {
  // The measured PoRep mix packs to about 2 bits per value plus 32 B per other value.
  std::mt19937_64 rng(cuzk::test::test_seed());
  const std::size_t n = 1u << 20;
  const std::vector<fr> src = mixed(rng, n, 0.514, 0.473);
  std::vector<fr> buf(cuda::packed_chunk_layout::of(n).max_bytes() / sizeof(fr) + 1);
  cuzk::base::serial_executor serial;
  const std::size_t bytes = cuda::pack_witness_chunk(src, reinterpret_cast<std::byte*>(buf.data()), serial);
  EXPECT_LT(static_cast<double>(bytes), 0.025 * static_cast<double>(n * sizeof(fr)));
}

}  // namespace
