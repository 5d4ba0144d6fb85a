// SHA-256 compression: a portable kernel written from FIPS 180-4 §6.2.2 and an x86 SHA-NI
// kernel (Intel SHA extensions: sha256rnds2 does two rounds on the ABEF/CDGH register split,
// sha256msg1/msg2 extend the message schedule four words at a time).
#include "gadgets/native/sha256_native.hpp"

#include <algorithm>
#include <cstring>

#if defined(__x86_64__) || defined(_M_X64)
#include <cpuid.h>
#include <immintrin.h>
#define CUZK_SHA_X86 1
#else
#define CUZK_SHA_X86 0
#endif

namespace cuzk::gadgets::native {

const uint32_t sha256_k[64] = {
    0x428a2f98u, 0x71374491u, 0xb5c0fbcfu, 0xe9b5dba5u, 0x3956c25bu, 0x59f111f1u, 0x923f82a4u, 0xab1c5ed5u,
    0xd807aa98u, 0x12835b01u, 0x243185beu, 0x550c7dc3u, 0x72be5d74u, 0x80deb1feu, 0x9bdc06a7u, 0xc19bf174u,
    0xe49b69c1u, 0xefbe4786u, 0x0fc19dc6u, 0x240ca1ccu, 0x2de92c6fu, 0x4a7484aau, 0x5cb0a9dcu, 0x76f988dau,
    0x983e5152u, 0xa831c66du, 0xb00327c8u, 0xbf597fc7u, 0xc6e00bf3u, 0xd5a79147u, 0x06ca6351u, 0x14292967u,
    0x27b70a85u, 0x2e1b2138u, 0x4d2c6dfcu, 0x53380d13u, 0x650a7354u, 0x766a0abbu, 0x81c2c92eu, 0x92722c85u,
    0xa2bfe8a1u, 0xa81a664bu, 0xc24b8b70u, 0xc76c51a3u, 0xd192e819u, 0xd6990624u, 0xf40e3585u, 0x106aa070u,
    0x19a4c116u, 0x1e376c08u, 0x2748774cu, 0x34b0bcb5u, 0x391c0cb3u, 0x4ed8aa4au, 0x5b9cca4fu, 0x682e6ff3u,
    0x748f82eeu, 0x78a5636fu, 0x84c87814u, 0x8cc70208u, 0x90befffau, 0xa4506cebu, 0xbef9a3f7u, 0xc67178f2u,
};

namespace {

constexpr uint32_t rotr(uint32_t x, int n) { return (x >> n) | (x << (32 - n)); }
constexpr uint32_t load_be32(const uint8_t* p) {
  return (uint32_t{p[0]} << 24) | (uint32_t{p[1]} << 16) | (uint32_t{p[2]} << 8) | uint32_t{p[3]};
}

bool detect_sha_ni() {
#if CUZK_SHA_X86
  unsigned a = 0, b = 0, c = 0, d = 0;
  if (!__get_cpuid(1, &a, &b, &c, &d)) return false;
  const bool sse41 = (c >> 19) & 1, ssse3 = (c >> 9) & 1;
  if (!__get_cpuid_count(7, 0, &a, &b, &c, &d)) return false;
  const bool sha = (b >> 29) & 1;
  return sse41 && ssse3 && sha;
#else
  return false;
#endif
}

}  // namespace

bool has_sha_ni() {
  static const bool has = detect_sha_ni();
  return has;
}

// FIPS 180-4 §6.2.2, with a 16-word rolling schedule. Per round: 2 Σ + Ch + Maj + ~7 adds.
void sha256_compress_portable(uint32_t state[8], const uint8_t* blocks, std::size_t nblocks) {
  for (; nblocks > 0; --nblocks, blocks += 64) {
    uint32_t w[16];
    for (int i = 0; i < 16; ++i) w[i] = load_be32(blocks + 4 * i);
    uint32_t a = state[0], b = state[1], c = state[2], d = state[3];
    uint32_t e = state[4], f = state[5], g = state[6], h = state[7];
#pragma GCC unroll 64
    for (int t = 0; t < 64; ++t) {
      uint32_t wt;
      if (t < 16) {
        wt = w[t];
      } else {
        const uint32_t w15 = w[(t - 15) & 15], w2 = w[(t - 2) & 15];
        const uint32_t s0 = rotr(w15, 7) ^ rotr(w15, 18) ^ (w15 >> 3);
        const uint32_t s1 = rotr(w2, 17) ^ rotr(w2, 19) ^ (w2 >> 10);
        wt = w[t & 15] = w[t & 15] + s0 + w[(t - 7) & 15] + s1;
      }
      const uint32_t big_s1 = rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25);
      const uint32_t ch = (e & f) ^ (~e & g);
      const uint32_t t1 = h + big_s1 + ch + sha256_k[t] + wt;
      const uint32_t big_s0 = rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22);
      const uint32_t maj = (a & b) ^ (a & c) ^ (b & c);
      const uint32_t t2 = big_s0 + maj;
      h = g;
      g = f;
      f = e;
      e = d + t1;
      d = c;
      c = b;
      b = a;
      a = t1 + t2;
    }
    state[0] += a;
    state[1] += b;
    state[2] += c;
    state[3] += d;
    state[4] += e;
    state[5] += f;
    state[6] += g;
    state[7] += h;
  }
}

#if CUZK_SHA_X86
// The SHA-NI kernel. sha256rnds2(cdgh, abef, wk) performs two rounds using the low two words
// of wk (W+K); the state lives as ABEF and CDGH. Message words W[4g..4g+3] live in x[g & 3]:
// W[t..t+3] = msg2(msg1(W[t-16..], W[t-12..]) + W[t-7..t-4], W[t-4..t-1]).
__attribute__((target("sha,sse4.1"))) static void compress_shani_impl(uint32_t state[8], const uint8_t* blocks,
                                                                       std::size_t nblocks) {
  const __m128i bswap = _mm_set_epi64x(0x0c0d0e0f08090a0bLL, 0x0405060700010203LL);
  __m128i tmp = _mm_loadu_si128(reinterpret_cast<const __m128i*>(&state[0]));     // D C B A
  __m128i state1 = _mm_loadu_si128(reinterpret_cast<const __m128i*>(&state[4]));  // H G F E
  tmp = _mm_shuffle_epi32(tmp, 0xB1);                                               // C D A B
  state1 = _mm_shuffle_epi32(state1, 0x1B);                                         // E F G H
  __m128i state0 = _mm_alignr_epi8(tmp, state1, 8);                                 // A B E F
  state1 = _mm_blend_epi16(state1, tmp, 0xF0);                                      // C D G H

  for (; nblocks > 0; --nblocks, blocks += 64) {
    const __m128i abef_save = state0, cdgh_save = state1;
    __m128i x[4];
#pragma GCC unroll 16
    for (int g = 0; g < 16; ++g) {
      if (g < 4) {
        x[g] = _mm_shuffle_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i*>(blocks + 16 * g)), bswap);
      } else {
        __m128i m = _mm_sha256msg1_epu32(x[g & 3], x[(g + 1) & 3]);      // W[t-16..] + s0(W[t-15..])
        m = _mm_add_epi32(m, _mm_alignr_epi8(x[(g + 3) & 3], x[(g + 2) & 3], 4));  // + W[t-7..t-4]
        x[g & 3] = _mm_sha256msg2_epu32(m, x[(g + 3) & 3]);               // + s1(W[t-2..])
      }
      __m128i wk = _mm_add_epi32(x[g & 3], _mm_loadu_si128(reinterpret_cast<const __m128i*>(&sha256_k[4 * g])));
      state1 = _mm_sha256rnds2_epu32(state1, state0, wk);
      wk = _mm_shuffle_epi32(wk, 0x0E);
      state0 = _mm_sha256rnds2_epu32(state0, state1, wk);
    }
    state0 = _mm_add_epi32(state0, abef_save);
    state1 = _mm_add_epi32(state1, cdgh_save);
  }

  tmp = _mm_shuffle_epi32(state0, 0x1B);        // F E B A
  state1 = _mm_shuffle_epi32(state1, 0xB1);     // D C H G
  state0 = _mm_blend_epi16(tmp, state1, 0xF0);  // D C B A
  state1 = _mm_alignr_epi8(state1, tmp, 8);     // H G F E
  _mm_storeu_si128(reinterpret_cast<__m128i*>(&state[0]), state0);
  _mm_storeu_si128(reinterpret_cast<__m128i*>(&state[4]), state1);
}
#endif

void sha256_compress_shani(uint32_t state[8], const uint8_t* blocks, std::size_t nblocks) {
#if CUZK_SHA_X86
  compress_shani_impl(state, blocks, nblocks);
#else
  sha256_compress_portable(state, blocks, nblocks);
#endif
}

void sha256_compress(uint32_t state[8], const uint8_t* blocks, std::size_t nblocks) {
  if (has_sha_ni()) {
    sha256_compress_shani(state, blocks, nblocks);
  } else {
    sha256_compress_portable(state, blocks, nblocks);
  }
}

// ---- incremental hasher ----------------------------------------------------------------------

sha256_hasher::sha256_hasher(sha256_kernel kernel) : state_(sha256_iv), kernel_(kernel) {
  if (kernel_ == sha256_kernel::automatic) kernel_ = has_sha_ni() ? sha256_kernel::sha_ni : sha256_kernel::portable;
}

void sha256_hasher::reset() {
  state_ = sha256_iv;
  buffered_ = 0;
  total_bytes_ = 0;
}

void sha256_hasher::compress(const uint8_t* blocks, std::size_t nblocks) {
  if (kernel_ == sha256_kernel::sha_ni) {
    sha256_compress_shani(state_.data(), blocks, nblocks);
  } else {
    sha256_compress_portable(state_.data(), blocks, nblocks);
  }
}

void sha256_hasher::update(std::span<const uint8_t> data) {
  const uint8_t* p = data.data();
  std::size_t n = data.size();
  total_bytes_ += n;
  if (buffered_ > 0) {
    const std::size_t take = std::min(n, 64 - buffered_);
    std::memcpy(buffer_.data() + buffered_, p, take);
    buffered_ += take;
    p += take;
    n -= take;
    if (buffered_ < 64) return;
    compress(buffer_.data(), 1);
    buffered_ = 0;
  }
  if (n >= 64) {
    compress(p, n / 64);
    p += n / 64 * 64;
    n %= 64;
  }
  if (n > 0) {
    std::memcpy(buffer_.data(), p, n);
    buffered_ = n;
  }
}

sha256_digest sha256_hasher::finalize() {
  // FIPS 180-4 §5.1.1: append 0x80, zeros to 56 mod 64, then the bit length (64-bit BE).
  const uint64_t bit_len = total_bytes_ * 8;
  uint8_t tail[128] = {};
  std::memcpy(tail, buffer_.data(), buffered_);
  tail[buffered_] = 0x80;
  const std::size_t tail_len = buffered_ + 1 + 8 <= 64 ? 64 : 128;
  for (int i = 0; i < 8; ++i) tail[tail_len - 1 - i] = static_cast<uint8_t>(bit_len >> (8 * i));
  compress(tail, tail_len / 64);
  buffered_ = 0;
  return sha256_state_to_bytes(state_);
}

sha256_digest sha256_state_to_bytes(const sha256_state& s) {
  sha256_digest out;
  for (int i = 0; i < 8; ++i) {
    out[4 * i + 0] = static_cast<uint8_t>(s[i] >> 24);
    out[4 * i + 1] = static_cast<uint8_t>(s[i] >> 16);
    out[4 * i + 2] = static_cast<uint8_t>(s[i] >> 8);
    out[4 * i + 3] = static_cast<uint8_t>(s[i]);
  }
  return out;
}

sha256_digest sha256(std::span<const uint8_t> data) {
  sha256_hasher h;
  h.update(data);
  return h.finalize();
}

sha256_digest sha256_trunc254(std::span<const uint8_t> data) {
  sha256_digest d = sha256(data);
  d[31] &= 0x3f;
  return d;
}

sha256_digest sha256_trunc254_node(const uint8_t left[32], const uint8_t right[32]) {
  // A 64-byte message: the data block, then the constant block 0x80 || 0^55 || BE64(512).
  alignas(16) static constexpr uint8_t pad_block[64] = {0x80, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
                                                        0,    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
                                                        0,    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
                                                        0,    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x02, 0x00};
  alignas(16) uint8_t block[64];
  std::memcpy(block, left, 32);
  std::memcpy(block + 32, right, 32);
  sha256_state s = sha256_iv;
  sha256_compress(s.data(), block, 1);
  sha256_compress(s.data(), pad_block, 1);
  sha256_digest d = sha256_state_to_bytes(s);
  d[31] &= 0x3f;
  return d;
}

}  // namespace cuzk::gadgets::native
