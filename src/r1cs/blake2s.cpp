#include "r1cs/blake2s.hpp"

#include <cstring>
#include <utility>

namespace cuzk::r1cs {

namespace {

// The initialisation vector: the first 32 bits of the fractional parts of the square roots of
// the first eight primes (the SHA-256 IV), RFC 7693 §2.6.
constexpr uint32_t iv[8] = {0x6A09E667u, 0xBB67AE85u, 0x3C6EF372u, 0xA54FF53Au,
                            0x510E527Fu, 0x9B05688Cu, 0x1F83D9ABu, 0x5BE0CD19u};

// Message word permutations, RFC 7693 §2.7 (rounds 0..9).
constexpr uint8_t sigma[10][16] = {
    {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15},
    {14, 10, 4, 8, 9, 15, 13, 6, 1, 12, 0, 2, 11, 7, 5, 3},
    {11, 8, 12, 0, 5, 2, 15, 13, 10, 14, 3, 6, 7, 1, 9, 4},
    {7, 9, 3, 1, 13, 12, 11, 14, 2, 6, 5, 10, 4, 0, 15, 8},
    {9, 0, 5, 7, 2, 4, 10, 15, 14, 1, 11, 12, 6, 8, 3, 13},
    {2, 12, 6, 10, 0, 11, 8, 3, 4, 13, 7, 5, 15, 14, 1, 9},
    {12, 5, 1, 15, 14, 13, 4, 10, 0, 7, 6, 3, 9, 2, 8, 11},
    {13, 11, 7, 14, 12, 1, 3, 9, 5, 0, 15, 4, 8, 6, 2, 10},
    {6, 15, 14, 9, 11, 3, 0, 8, 12, 2, 13, 7, 1, 4, 10, 5},
    {10, 2, 8, 4, 7, 6, 1, 5, 15, 11, 9, 14, 3, 12, 13, 0},
};

inline uint32_t rotr(uint32_t x, int n) { return (x >> n) | (x << (32 - n)); }

inline uint32_t load_le32(const uint8_t* p) {
  return static_cast<uint32_t>(p[0]) | static_cast<uint32_t>(p[1]) << 8 | static_cast<uint32_t>(p[2]) << 16 |
         static_cast<uint32_t>(p[3]) << 24;
}

// The mixing function G, RFC 7693 §3.1, with BLAKE2s's rotations (16, 12, 8, 7).
inline void mix(uint32_t* v, int a, int b, int c, int d, uint32_t x, uint32_t y) {
  v[a] = v[a] + v[b] + x;
  v[d] = rotr(v[d] ^ v[a], 16);
  v[c] = v[c] + v[d];
  v[b] = rotr(v[b] ^ v[c], 12);
  v[a] = v[a] + v[b] + y;
  v[d] = rotr(v[d] ^ v[a], 8);
  v[c] = v[c] + v[d];
  v[b] = rotr(v[b] ^ v[c], 7);
}

// One round with compile-time sigma indices; all ten rounds are expanded inline.
template <std::size_t R>
inline void round(uint32_t* v, const uint32_t* m) {
  constexpr const uint8_t* s = sigma[R];
  mix(v, 0, 4, 8, 12, m[s[0]], m[s[1]]);
  mix(v, 1, 5, 9, 13, m[s[2]], m[s[3]]);
  mix(v, 2, 6, 10, 14, m[s[4]], m[s[5]]);
  mix(v, 3, 7, 11, 15, m[s[6]], m[s[7]]);
  mix(v, 0, 5, 10, 15, m[s[8]], m[s[9]]);
  mix(v, 1, 6, 11, 12, m[s[10]], m[s[11]]);
  mix(v, 2, 7, 8, 13, m[s[12]], m[s[13]]);
  mix(v, 3, 4, 9, 14, m[s[14]], m[s[15]]);
}

template <std::size_t... R>
inline void rounds(uint32_t* v, const uint32_t* m, std::index_sequence<R...>) {
  (round<R>(v, m), ...);
}

}  // namespace

blake2s_256::blake2s_256() {
  std::memcpy(h_, iv, sizeof h_);
  h_[0] ^= 0x01010000u ^ static_cast<uint32_t>(digest_size);  // depth 1, fanout 1, no key, nn = 32
}

void blake2s_256::compress(const uint8_t* block, bool last) {
  uint32_t m[16];
  for (int i = 0; i < 16; ++i) m[i] = load_le32(block + 4 * i);
  uint32_t v[16];
  for (int i = 0; i < 8; ++i) {
    v[i] = h_[i];
    v[i + 8] = iv[i];
  }
  v[12] ^= static_cast<uint32_t>(t_);
  v[13] ^= static_cast<uint32_t>(t_ >> 32);
  if (last) v[14] = ~v[14];
  rounds(v, m, std::make_index_sequence<10>{});
  for (int i = 0; i < 8; ++i) h_[i] ^= v[i] ^ v[i + 8];
}

void blake2s_256::update(std::span<const uint8_t> data) {
  const uint8_t* p = data.data();
  std::size_t n = data.size();
  if (n == 0) return;
  // The last block must be compressed with the final flag, so a full buffer is only compressed
  // once more data arrives.
  if (buf_len_ > 0) {
    std::size_t take = block_size - buf_len_;
    if (take > n) take = n;
    std::memcpy(buf_ + buf_len_, p, take);
    buf_len_ += take;
    p += take;
    n -= take;
    if (n == 0) return;
    t_ += block_size;
    compress(buf_, false);
    buf_len_ = 0;
  }
  while (n > block_size) {
    t_ += block_size;
    compress(p, false);
    p += block_size;
    n -= block_size;
  }
  std::memcpy(buf_, p, n);
  buf_len_ = n;
}

blake2s_256::digest blake2s_256::finalize() {
  t_ += buf_len_;
  std::memset(buf_ + buf_len_, 0, block_size - buf_len_);
  compress(buf_, true);
  digest out;
  for (std::size_t i = 0; i < 8; ++i) {
    for (std::size_t j = 0; j < 4; ++j) out[4 * i + j] = static_cast<uint8_t>(h_[i] >> (8 * j));
  }
  return out;
}

std::string to_hex(std::span<const uint8_t> bytes) {
  static constexpr char digits[] = "0123456789abcdef";
  std::string s;
  s.reserve(2 * bytes.size());
  for (uint8_t b : bytes) {
    s.push_back(digits[b >> 4]);
    s.push_back(digits[b & 15]);
  }
  return s;
}

}  // namespace cuzk::r1cs
