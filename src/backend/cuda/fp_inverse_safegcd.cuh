// Fp inversion by Bernstein-Yang divsteps ("safegcd") on signed 30-bit limbs, host and device.
// A measurement for the batch-affine MSM (docs/gpu-msm-batch-affine.md): Fermat's a^(p-2)
// (fp_inverse_device.cuh) costs ~406 product-equivalents, so a thread needs hundreds of pairs
// per inversion, more than fits on chip; an inversion of tens of product-equivalents would let
// ~32 pairs pay. The CPU has its own 62-bit form (ff/safegcd.hpp, host only: __int128); here
// every product is 32 x 32 -> 64 bits, which the GPU multiplies natively.
//
// Algorithm. f = p, g = x, d = 0, e = 1, delta = 1, with the invariants d x = f and e x = g
// (mod p). One divstep: if delta > 0 and g is odd, (delta, f, g) <- (1 - delta, g, (g - f) / 2);
// else if g is odd, (1 + delta, f, (g + f) / 2); else (1 + delta, f, g / 2). f stays odd, and g
// reaches 0 with f = +-1 (gcd(p, x) = 1), so x^-1 = +-d. Thirty divsteps depend only on the low
// 32 bits of f and g (each consumes one bit), so they run on two words and produce a matrix T
// with 2^30 (f', g') = T (f, g), |u| + |v| <= 2^30 and |q| + |r| <= 2^30; T is then applied to
// the 13-limb f, g (exact division by 2^30) and to d, e mod p (a multiple of p makes the low 30
// bits vanish first). Rounds repeat until g = 0: variable time (a warp runs until its last lane
// is done); the divsteps inside a round are branch-free. The 381-bit bound is 1,102 divsteps
// (Bernstein-Yang, (49 d + 57) / 17), i.e. at most 37 rounds; inputs need ~27 on average.
// Ranges (as in libsecp256k1's modinv32, whose structure this follows): d, e stay in (-2p, p):
// for d < 0 the update adds u p (so u d becomes u (d + p), |d + p| < p), likewise for e and the
// other row, giving |u d + v e + p md| < (|u| + |v|) p <= 2^30 p before the low-bit correction
// subtracts k p, 0 <= k < 2^30; dividing by 2^30 leaves (-2p, p).
// Cost per round: 30 divsteps (~20 integer operations each) and 2 x 13 x 4 + 13 x 2 = 130
// 32 x 32 -> 64-bit multiply-adds; ~27 rounds ~ 3,500 wide multiply-adds (~12 Fp products'
// worth) and ~16,000 other integer operations, against Fermat's ~117,000 wide multiply-adds.
// Measured on the H200 (field_product_bench): 483.7 SM-cycles per inversion = 50.6 Fp products,
// Fermat 4,009.1 (419.8); 26.9 rounds on average over random inputs, at most 28 seen.
#pragma once

#include <cstdint>

#include "ff/bls12_381.hpp"

#if defined(__CUDACC__)
#define CUZK_SG_HD __host__ __device__ __forceinline__
#else
#define CUZK_SG_HD inline
#endif
#if defined(__CUDA_ARCH__)
#define CUZK_SG_UNROLL _Pragma("unroll")
#else
#define CUZK_SG_UNROLL
#endif

namespace cuzk::cuda::safegcd30 {

constexpr int limbs = 13;  // 13 x 30 = 390 bits: p < 2^381 plus the sign and the (-2p, p) range
constexpr uint32_t mask30 = (1u << 30) - 1;

// value = sum v[i] 2^(30 i); normalized: v[0..11] in [0, 2^30), v[12] signed.
struct s30 {
  int32_t v[limbs];
};
struct matrix {
  int32_t u, v, q, r;
};

// Limb i (bits 30 i .. 30 i + 29) of p, the 381-bit modulus.
constexpr uint32_t p_bits30(int i) {
  uint32_t r = 0;
  for (int b = 0; b < 30; ++b) {
    const int bit = 30 * i + b;
    if (bit < 384 && ((ff::fp_params::modulus.w[bit / 64] >> (bit % 64)) & 1)) r |= 1u << b;
  }
  return r;
}
// p^-1 mod 2^30 by Newton's iteration (each step doubles the correct low bits: 3 -> 6 -> ... -> 48).
constexpr uint32_t p_inv30() {
  const uint32_t p0 = static_cast<uint32_t>(ff::fp_params::modulus.w[0]);
  uint32_t x = p0;  // correct to 3 bits for odd p0
  for (int i = 0; i < 5; ++i) x *= 2 - p0 * x;
  return x & mask30;
}
static_assert((p_inv30() * static_cast<uint32_t>(ff::fp_params::modulus.w[0]) & mask30) == 1, "p^-1 mod 2^30");
// Device code must not read the host's ff constants at run time (a trap): the functions below
// take local constexpr copies, indexed only in unrolled loops, so they fold into immediates.
#define CUZK_SG_P30                                                                                       \
  {p_bits30(0), p_bits30(1), p_bits30(2), p_bits30(3), p_bits30(4),  p_bits30(5), p_bits30(6),            \
   p_bits30(7), p_bits30(8), p_bits30(9), p_bits30(10), p_bits30(11), p_bits30(12)}
static_assert(p_bits30(12) < (1u << 21) && p_bits30(0) == (0xffffaaabu & mask30), "p in 30-bit limbs");

// 30 divsteps on the low words of f (odd) and g; delta is updated. Branch-free: a swap and
// negation (case delta > 0, g odd) then an addition (g odd) are applied through masks.
// The f row (u, v) doubles each step while g halves, so that 2^i (f_i, g_i) = T_i (f_0, g_0).
CUZK_SG_HD matrix divsteps30(int32_t& delta, uint32_t f, uint32_t g) {
  int32_t u = 1, v = 0, q = 0, r = 1;
  for (int i = 0; i < 30; ++i) {
    // swap: (delta, f, g, u, v, q, r) <- (-delta, g, -f, q, r, -u, -v)
    const int32_t s = -static_cast<int32_t>((delta > 0) & static_cast<int32_t>(g & 1));
    const uint32_t su = static_cast<uint32_t>(s);
    const uint32_t t = (f ^ g) & su;
    f ^= t;
    g ^= t;
    g = (g ^ su) - su;
    const int32_t tu = (u ^ q) & s, tv = (v ^ r) & s;
    u ^= tu, q ^= tu, v ^= tv, r ^= tv;
    q = (q ^ s) - s;
    r = (r ^ s) - s;
    delta = (delta ^ s) - s;
    // g odd: g += f, (q, r) += (u, v); then halve g, double the f row.
    const int32_t odd = -static_cast<int32_t>(g & 1);
    g += f & static_cast<uint32_t>(odd);
    q += u & odd;
    r += v & odd;
    delta += 1;
    g >>= 1;
    u = static_cast<int32_t>(static_cast<uint32_t>(u) << 1);
    v = static_cast<int32_t>(static_cast<uint32_t>(v) << 1);
  }
  return {u, v, q, r};
}

// (a, b) <- T (a, b) / 2^30: exact for the gcd pair f, g (Mod = false); for the Bezout pair
// d, e (Mod = true) modulo p, keeping both in (-2p, p) (header comment): ma p and mb p are added
// first, ma = (u if a < 0) + (v if b < 0) - k with k = (low word + p ma) p^-1 mod 2^30, so that
// the low 30 bits vanish (likewise mb with q, r).
template <bool Mod>
CUZK_SG_HD void apply_matrix(s30& a, s30& b, const matrix& t) {
  constexpr uint32_t P[limbs] = CUZK_SG_P30;
  constexpr uint32_t pinv = p_inv30();
  int64_t ca = static_cast<int64_t>(t.u) * a.v[0] + static_cast<int64_t>(t.v) * b.v[0];
  int64_t cb = static_cast<int64_t>(t.q) * a.v[0] + static_cast<int64_t>(t.r) * b.v[0];
  int32_t ma = 0, mb = 0;
  if constexpr (Mod) {
    const int32_t sa = a.v[limbs - 1] >> 31, sb = b.v[limbs - 1] >> 31;  // -1 when negative
    ma = (t.u & sa) + (t.v & sb);
    mb = (t.q & sa) + (t.r & sb);
    ma -= static_cast<int32_t>((pinv * static_cast<uint32_t>(ca) + static_cast<uint32_t>(ma)) & mask30);
    mb -= static_cast<int32_t>((pinv * static_cast<uint32_t>(cb) + static_cast<uint32_t>(mb)) & mask30);
    ca += static_cast<int64_t>(P[0]) * ma;
    cb += static_cast<int64_t>(P[0]) * mb;
  }
  ca >>= 30;
  cb >>= 30;
  CUZK_SG_UNROLL
  for (int i = 1; i < limbs; ++i) {
    ca += static_cast<int64_t>(t.u) * a.v[i] + static_cast<int64_t>(t.v) * b.v[i];
    cb += static_cast<int64_t>(t.q) * a.v[i] + static_cast<int64_t>(t.r) * b.v[i];
    if constexpr (Mod) {
      ca += static_cast<int64_t>(P[i]) * ma;
      cb += static_cast<int64_t>(P[i]) * mb;
    }
    a.v[i - 1] = static_cast<int32_t>(static_cast<uint32_t>(ca) & mask30);
    b.v[i - 1] = static_cast<int32_t>(static_cast<uint32_t>(cb) & mask30);
    ca >>= 30;
    cb >>= 30;
  }
  a.v[limbs - 1] = static_cast<int32_t>(ca);
  b.v[limbs - 1] = static_cast<int32_t>(cb);
}

// a <- a + p if a < 0 (mask form); a normalized.
CUZK_SG_HD void add_p_if_negative(s30& a) {
  constexpr uint32_t P[limbs] = CUZK_SG_P30;
  const int32_t neg = a.v[limbs - 1] >> 31;
  int64_t c = 0;
  CUZK_SG_UNROLL
  for (int i = 0; i < limbs; ++i) {
    c += static_cast<int64_t>(a.v[i]) + (static_cast<int32_t>(P[i]) & neg);
    a.v[i] = i + 1 < limbs ? static_cast<int32_t>(static_cast<uint32_t>(c) & mask30) : static_cast<int32_t>(c);
    c >>= 30;
  }
}
// a <- -a if neg (mask form); a normalized.
CUZK_SG_HD void negate_if(s30& a, int32_t neg) {
  int64_t c = 0;
  CUZK_SG_UNROLL
  for (int i = 0; i < limbs; ++i) {
    c += static_cast<int64_t>((a.v[i] ^ neg) - neg);
    a.v[i] = i + 1 < limbs ? static_cast<int32_t>(static_cast<uint32_t>(c) & mask30) : static_cast<int32_t>(c);
    c >>= 30;
  }
}

// x^-1 mod p for a canonical x (12 little-endian 32-bit words, x < p); x = 0 gives 0. Plain
// residues: for a Montgomery-form input aR this returns (aR)^-1, and one Montgomery product by
// R^3 mod p turns that into a^-1 R. rounds (optional) receives the number of 30-step rounds.
CUZK_SG_HD void inverse(const uint32_t x[12], uint32_t out[12], int* rounds = nullptr) {
  constexpr uint32_t P[limbs] = CUZK_SG_P30;
  s30 f, g, d, e;
  CUZK_SG_UNROLL
  for (int i = 0; i < limbs; ++i) {
    const int bit = 30 * i, w = bit / 32, sh = bit % 32;
    uint32_t lo = w < 12 ? x[w] >> sh : 0;
    if (sh > 2 && w + 1 < 12) lo |= x[w + 1] << (32 - sh);
    g.v[i] = static_cast<int32_t>(lo & mask30);
    f.v[i] = static_cast<int32_t>(P[i]);
    d.v[i] = 0;
    e.v[i] = i == 0 ? 1 : 0;
  }
  int32_t delta = 1;
  int n = 0;
  for (; n < 64; ++n) {  // 37 rounds suffice (header); the cap only guards against a bug
    const uint32_t flo = static_cast<uint32_t>(f.v[0]) | (static_cast<uint32_t>(f.v[1]) << 30);
    const uint32_t glo = static_cast<uint32_t>(g.v[0]) | (static_cast<uint32_t>(g.v[1]) << 30);
    const matrix t = divsteps30(delta, flo, glo);
    apply_matrix<false>(f, g, t);
    apply_matrix<true>(d, e, t);
    int32_t any = 0;
    CUZK_SG_UNROLL
    for (int i = 0; i < limbs; ++i) any |= g.v[i];
    if (any == 0) break;
  }
  if (rounds) *rounds = n + 1;
  // d in (-2p, p), f = +-1: d + p if negative, negate if f < 0, + p if negative: [0, p).
  add_p_if_negative(d);
  negate_if(d, f.v[limbs - 1] >> 31);
  add_p_if_negative(d);
  // Word w = bits 32 w .. 32 w + 31: limb i = 32 w / 30 from bit sh = 2 w mod 30 <= 28, so limbs i
  // and i + 1 hold all 32 bits.
  CUZK_SG_UNROLL
  for (int w = 0; w < 12; ++w) {
    const int bit = 32 * w, i = bit / 30, sh = bit % 30;
    uint64_t acc = static_cast<uint64_t>(static_cast<uint32_t>(d.v[i])) >> sh;
    acc |= static_cast<uint64_t>(static_cast<uint32_t>(d.v[i + 1])) << (30 - sh);
    out[w] = static_cast<uint32_t>(acc);
  }
}

#undef CUZK_SG_P30

}  // namespace cuzk::cuda::safegcd30
