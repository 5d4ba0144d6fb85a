// 8-lane AVX-512 IFMA arithmetic in BLS12-381's Fp: eight independent 381-bit Montgomery
// products side by side, one per 64-bit lane, on vpmadd52luq / vpmadd52huq (52 x 52 -> 104-bit
// multiply-add, low or high half).
//
// Representation: 8 limbs of 48 bits (radix 2^48, 8 x 48 = 384), so R = 2^384 and a value is in
// exactly the Montgomery form of ff::fp (x R mod p): converting between the scalar form (6 words
// of 64 bits) and the lanes is bit repacking (3 words = 4 limbs), not a multiplication. The
// 52-bit multiplier leaves 4 spare bits per limb, which the lazy subtraction below uses. The
// radix does not match the multiplier's 52-bit split, so a product a_i b_j = lo + hi 2^52 lands
// in column i+j (lo) and column i+j+1 (16 hi): the hi halves of a column are summed apart and
// added shifted left by 4 to the next column (one shift per column, not per product).
//
// Product (mul): product scanning with the Montgomery reduction interleaved (column k gets the
// a_i b_j with i+j = k and the m_i p_j with i+j = k; m_k = t_k n0 mod 2^48 zeroes column k's
// low 48 bits, its carry moves up). Columns 8..15 are the result. Cost per 8 products: 64 + 64
// multiply-adds for a b, 64 + 64 for m p, 8 for the m's = 264, plus ~5 shift/add/and per column.
// Squaring (sq): the 28 off-diagonal products once, against 2a (one more spare bit): 36 + 36
// for a^2, 208 in all.
//
// Bounds (what the callers rely on; v < 2^384 everywhere):
//   * inputs of mul/sq: limbs below 2^52 (the multiplier's width); sq: below 2^51 (2a).
//   * mul(a, b) with a < alpha p, b < beta p: (ab + m p) / R < (alpha beta p/R + 1) p, and
//     p / 2^384 < 0.1016: alpha beta <= 12.8 gives < 2.3p. Output limbs normalized (< 2^48).
//     Column sums stay below 2^64: 16 lo terms (< 2^52 each) + the shifted hi sum (16 terms
//     < 2^52, times 16: < 2^60) + carry < 2^61.
//   * sub(a, b) = a + 4p - b, limb by limb with 4p written with borrows (limb j of 4p plus
//     2^48, minus one at limb j+1) so every limb of the result is non-negative when b is
//     normalized and below 4p; value < a + 4p, limbs < a_j + 2^49 (no carry propagation).
//   * canon(v) for v < 16p and limbs below 2^52: the canonical value (< p), limbs normalized:
//     normalize, q = floor(v_7 / (p_7 + 1)) estimated with one multiply-high (q <= floor(v/p)
//     <= q + 1), v - q p, one conditional subtraction of p.
//
// Everything here is compiled for "avx512f,avx512ifma" per function (target attribute), so a
// translation unit that includes it still runs on CPUs without IFMA as long as it calls these
// functions only after ifma::available() said yes.
#pragma once

#include <cstddef>
#include <cstdint>

#include "ff/bls12_381.hpp"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__)) && !defined(__CUDACC__)
#define CUZK_HAVE_FP_IFMA 1
#include <immintrin.h>
#else
#define CUZK_HAVE_FP_IFMA 0
#endif

namespace cuzk::ff::ifma {

// True when the CPU and OS support AVX-512 F and IFMA (checked once).
bool available();

// Test and benchmark entries: out[i] = a[i] b[i] (Montgomery product, R = 2^384) for i < 8,
// canonical. a and b are raw 6-word values below 2^384 (fp representations, not necessarily
// reduced). Return false and do nothing when the CPU lacks IFMA.
bool mul8(bigint<6>* out, const bigint<6>* a, const bigint<6>* b);
bool square8(bigint<6>* out, const bigint<6>* a);
// `reps` dependent rounds of 8 lane products (x = x * y), for a throughput benchmark.
bool mul8_chain(bigint<6>* x, const bigint<6>* y, std::size_t reps);

inline constexpr uint64_t mask48 = (uint64_t{1} << 48) - 1;

// 6 x 64-bit words <-> 8 x 48-bit limbs (values below 2^384).
constexpr void to_limbs48(const bigint<6>& w, uint64_t* l) {
  for (int h = 0; h < 2; ++h) {
    const uint64_t* s = w.w + 3 * h;
    uint64_t* d = l + 4 * h;
    d[0] = s[0] & mask48;
    d[1] = ((s[0] >> 48) | (s[1] << 16)) & mask48;
    d[2] = ((s[1] >> 32) | (s[2] << 32)) & mask48;
    d[3] = s[2] >> 16;
  }
}

struct constants48 {
  uint64_t p[8];    // p
  uint64_t k4[8];   // 4p with borrows: limb j + 2^48 (j < 7) minus the borrow 1 (j > 0)
  uint64_t one[8];  // R mod p (Montgomery one)
  uint64_t n0;      // -p^-1 mod 2^48
  uint64_t qc;      // floor(2^52 / (p_7 + 1)): canon's quotient estimate
};

inline constexpr constants48 c48 = [] {
  constants48 c{};
  to_limbs48(fp::modulus, c.p);
  bigint<6> four = fp::modulus;
  add_in_place(four, fp::modulus);
  add_in_place(four, four);
  uint64_t k[8]{};
  to_limbs48(four, k);
  for (int j = 0; j < 8; ++j) c.k4[j] = k[j] + (j < 7 ? (uint64_t{1} << 48) : 0) - (j > 0 ? 1 : 0);
  to_limbs48(fp::r1, c.one);
  c.n0 = fp::n0 & mask48;
  c.qc = (uint64_t{1} << 52) / (c.p[7] + 1);
  return c;
}();
static_assert(((c48.n0 * c48.p[0]) & mask48) == mask48, "n0 p = -1 mod 2^48");
static_assert(c48.p[7] >> 44 == 1, "p_7 in [2^44, 2^45): 4p < 2^384, q < 2^8");

#if CUZK_HAVE_FP_IFMA

#define CUZK_FP_IFMA_FN __attribute__((target("avx512f,avx512ifma"), always_inline)) inline

struct vfp {
  __m512i l[8];
};

CUZK_FP_IFMA_FN __m512i bc(uint64_t x) { return _mm512_set1_epi64(static_cast<long long>(x)); }
CUZK_FP_IFMA_FN __m512i mlo(__m512i acc, __m512i a, __m512i b) { return _mm512_madd52lo_epu64(acc, a, b); }
CUZK_FP_IFMA_FN __m512i mhi(__m512i acc, __m512i a, __m512i b) { return _mm512_madd52hi_epu64(acc, a, b); }
// Shifts as their all-lanes masked forms (GCC 12's unmasked ones trip -Wuninitialized).
CUZK_FP_IFMA_FN __m512i shr48(__m512i x) { return _mm512_maskz_srli_epi64(0xff, x, 48); }
CUZK_FP_IFMA_FN __m512i sar48(__m512i x) { return _mm512_maskz_srai_epi64(0xff, x, 48); }
CUZK_FP_IFMA_FN __m512i shl4(__m512i x) { return _mm512_maskz_slli_epi64(0xff, x, 4); }

CUZK_FP_IFMA_FN vfp broadcast(const uint64_t* limbs) {
  vfp r;
  for (int j = 0; j < 8; ++j) r.l[j] = bc(limbs[j]);
  return r;
}

// Column k's reduction step, shared by mul and sq. In: the column's a b (or a^2) sums (lo terms
// tab, hi terms hab for column k + 1), the running carry and hi sum hc from column k - 1. The
// m p terms go to their own accumulators (tmp, hmp), the one with the newest m last, so that
// only the last m's two multiply-adds, the sums and the next m sit on the critical path; the
// a b sums do not depend on m and run ahead (one accumulator chain for all terms would make
// every column a chain of up to 16 dependent 4-cycle multiply-adds).
CUZK_FP_IFMA_FN void reduce_column(int k, __m512i tab, __m512i hab, __m512i* m, __m512i& carry, __m512i& hc,
                                   vfp& r) {
  const __m512i zero = _mm512_setzero_si512(), m48 = bc(mask48);
  __m512i tmp = zero, hmp = zero;
  const int lo_i = k > 7 ? k - 7 : 0, hi_i = k < 7 ? k - 1 : 7;
#pragma GCC unroll 8
  for (int i = lo_i; i <= hi_i; ++i) {
    tmp = mlo(tmp, m[i], bc(c48.p[k - i]));
    hmp = mhi(hmp, m[i], bc(c48.p[k - i]));
  }
  __m512i t = _mm512_add_epi64(_mm512_add_epi64(tab, tmp), _mm512_add_epi64(carry, shl4(hc)));
  if (k < 8) {
    m[k] = _mm512_and_si512(mlo(zero, t, bc(c48.n0)), m48);
    t = mlo(t, m[k], bc(c48.p[0]));
    hmp = mhi(hmp, m[k], bc(c48.p[0]));
  } else {
    r.l[k - 8] = k < 15 ? _mm512_and_si512(t, m48) : t;
  }
  carry = shr48(t);
  hc = _mm512_add_epi64(hab, hmp);
}

// a b / 2^384 mod p (see the header comment for bounds).
CUZK_FP_IFMA_FN vfp mul(const vfp& a, const vfp& b) {
  const __m512i zero = _mm512_setzero_si512();
  __m512i m[8];
  for (auto& x : m) x = zero;  // all written before use; silences -Wmaybe-uninitialized
  vfp r;
  __m512i carry = zero, hc = zero;
#pragma GCC unroll 16
  for (int k = 0; k < 16; ++k) {
    __m512i tab = zero, hab = zero;
    const int lo_i = k > 7 ? k - 7 : 0, hi_i = k < 7 ? k : 7;
#pragma GCC unroll 8
    for (int i = lo_i; i <= hi_i; ++i) {
      tab = mlo(tab, a.l[i], b.l[k - i]);
      hab = mhi(hab, a.l[i], b.l[k - i]);
    }
    reduce_column(k, tab, hab, m, carry, hc, r);
  }
  return r;
}

// a^2 / 2^384 mod p; limbs of a below 2^51.
CUZK_FP_IFMA_FN vfp sq(const vfp& a) {
  const __m512i zero = _mm512_setzero_si512();
  __m512i a2[8], m[8];
  for (int j = 0; j < 8; ++j) a2[j] = _mm512_add_epi64(a.l[j], a.l[j]);
  for (auto& x : m) x = zero;
  vfp r;
  __m512i carry = zero, hc = zero;
#pragma GCC unroll 16
  for (int k = 0; k < 16; ++k) {
    __m512i tab = zero, hab = zero;
    const int lo_i = k > 7 ? k - 7 : 0;
#pragma GCC unroll 8
    for (int i = lo_i; 2 * i < k; ++i) {
      tab = mlo(tab, a.l[i], a2[k - i]);
      hab = mhi(hab, a.l[i], a2[k - i]);
    }
    if (k % 2 == 0 && k / 2 <= 7) {
      tab = mlo(tab, a.l[k / 2], a.l[k / 2]);
      hab = mhi(hab, a.l[k / 2], a.l[k / 2]);
    }
    reduce_column(k, tab, hab, m, carry, hc, r);
  }
  return r;
}

// a - b + 4p, limb-wise (b normalized, b < 4p): no carries.
CUZK_FP_IFMA_FN vfp sub(const vfp& a, const vfp& b) {
  vfp r;
  for (int j = 0; j < 8; ++j) r.l[j] = _mm512_sub_epi64(_mm512_add_epi64(a.l[j], bc(c48.k4[j])), b.l[j]);
  return r;
}
// 4p - b (b normalized, b < 4p).
CUZK_FP_IFMA_FN vfp neg(const vfp& b) {
  vfp r;
  for (int j = 0; j < 8; ++j) r.l[j] = _mm512_sub_epi64(bc(c48.k4[j]), b.l[j]);
  return r;
}
CUZK_FP_IFMA_FN vfp blend(__mmask8 take_b, const vfp& a, const vfp& b) {
  vfp r;
  for (int j = 0; j < 8; ++j) r.l[j] = _mm512_mask_blend_epi64(take_b, a.l[j], b.l[j]);
  return r;
}

// Carries every limb's bits above 48 into the next one; signed (limbs may be negative after a
// subtraction), the top limb keeps the sign.
CUZK_FP_IFMA_FN void normalize(vfp& v) {
  const __m512i m48 = bc(mask48);
  for (int j = 0; j < 7; ++j) {
    v.l[j + 1] = _mm512_add_epi64(v.l[j + 1], sar48(v.l[j]));
    v.l[j] = _mm512_and_si512(v.l[j], m48);
  }
}

// The canonical value of v < 16p (limbs below 2^52, non-negative), normalized.
CUZK_FP_IFMA_FN vfp canon(vfp v) {
  const __m512i zero = _mm512_setzero_si512();
  normalize(v);
  // q = floor(v_7 qc / 2^52) <= floor(v_7 / (p_7 + 1)) <= floor(v / p); the estimate is short
  // by at most one (qc's truncation costs < v_7 / 2^52 < 1/8).
  const __m512i q = mhi(zero, v.l[7], bc(c48.qc));
  for (int j = 0; j < 8; ++j) v.l[j] = _mm512_sub_epi64(v.l[j], mlo(zero, q, bc(c48.p[j])));
  normalize(v);  // now 0 <= v < 2p
  vfp d;
  for (int j = 0; j < 8; ++j) d.l[j] = _mm512_sub_epi64(v.l[j], bc(c48.p[j]));
  normalize(d);
  const __mmask8 ge = _mm512_cmpge_epi64_mask(d.l[7], zero);
  return blend(ge, v, d);
}

// Lane loads and stores of 6-word values (fp representations): words <-> limbs. Gathers are the
// all-lanes masked forms, for the same GCC 12 warning.
CUZK_FP_IFMA_FN vfp from_words(const __m512i* w) {
  const __m512i m48 = bc(mask48);
  vfp r;
  for (int h = 0; h < 2; ++h) {
    const __m512i* s = w + 3 * h;
    __m512i* d = r.l + 4 * h;
    d[0] = _mm512_and_si512(s[0], m48);
    d[1] = _mm512_and_si512(_mm512_or_si512(_mm512_maskz_srli_epi64(0xff, s[0], 48), _mm512_maskz_slli_epi64(0xff, s[1], 16)), m48);
    d[2] = _mm512_and_si512(_mm512_or_si512(_mm512_maskz_srli_epi64(0xff, s[1], 32), _mm512_maskz_slli_epi64(0xff, s[2], 32)), m48);
    d[3] = _mm512_maskz_srli_epi64(0xff, s[2], 16);
  }
  return r;
}
// v normalized and below 2^384.
CUZK_FP_IFMA_FN void to_words(const vfp& v, __m512i* w) {
  for (int h = 0; h < 2; ++h) {
    const __m512i* s = v.l + 4 * h;
    __m512i* d = w + 3 * h;
    d[0] = _mm512_or_si512(s[0], _mm512_maskz_slli_epi64(0xff, s[1], 48));
    d[1] = _mm512_or_si512(_mm512_maskz_srli_epi64(0xff, s[1], 16), _mm512_maskz_slli_epi64(0xff, s[2], 32));
    d[2] = _mm512_or_si512(_mm512_maskz_srli_epi64(0xff, s[2], 32), _mm512_maskz_slli_epi64(0xff, s[3], 16));
  }
}
// Lane i reads the 6 words at addr[i] (absolute addresses).
CUZK_FP_IFMA_FN vfp gather(__m512i addr) {
  __m512i w[6];
  for (int j = 0; j < 6; ++j)
    w[j] = _mm512_mask_i64gather_epi64(_mm512_setzero_si512(), 0xff, _mm512_add_epi64(addr, bc(8 * static_cast<uint64_t>(j))), nullptr, 1);
  return from_words(w);
}
CUZK_FP_IFMA_FN void scatter(__m512i addr, const vfp& v) {
  __m512i w[6];
  to_words(v, w);
  for (int j = 0; j < 6; ++j)
    _mm512_i64scatter_epi64(nullptr, _mm512_add_epi64(addr, bc(8 * static_cast<uint64_t>(j))), w[j], 1);
}
// Lane i reads / writes the 6 words at base + 6 i (8 consecutive values).
CUZK_FP_IFMA_FN vfp load_array(const bigint<6>* base) {
  const __m512i idx = _mm512_setr_epi64(0, 6, 12, 18, 24, 30, 36, 42);
  __m512i w[6];
  for (int j = 0; j < 6; ++j) w[j] = _mm512_mask_i64gather_epi64(_mm512_setzero_si512(), 0xff, idx, base->w + j, 8);
  return from_words(w);
}
CUZK_FP_IFMA_FN void store_array(bigint<6>* base, const vfp& v) {
  const __m512i idx = _mm512_setr_epi64(0, 6, 12, 18, 24, 30, 36, 42);
  __m512i w[6];
  to_words(v, w);
  for (int j = 0; j < 6; ++j) _mm512_i64scatter_epi64(base->w + j, idx, w[j], 8);
}

// Spills of whole lane values (SoA scratch, 64-byte aligned).
CUZK_FP_IFMA_FN void spill(__m512i* dst, const vfp& v) {
  for (int j = 0; j < 8; ++j) _mm512_store_si512(dst + j, v.l[j]);
}
CUZK_FP_IFMA_FN vfp reload(const __m512i* src) {
  vfp v;
  for (int j = 0; j < 8; ++j) v.l[j] = _mm512_load_si512(src + j);
  return v;
}

#endif  // CUZK_HAVE_FP_IFMA

}  // namespace cuzk::ff::ifma
