// Montgomery product over Fp on the FP64 pipe: eight signed 48-bit limbs held in doubles, every
// limb product split exactly into a high and a low part with two fused multiply-adds. The same
// code runs on the host (std::fma), so it is tested bit for bit against ff::fp without a GPU
// (CudaField.Float64ProductOnHost).
//
// Why: the H200's SM issues 64 DFMA per clock (58.9 measured) on a pipe of its own, while the
// 32-bit products (mont_evenodd.cuh) are bound by the wide integer multiply pipe (~30 IMAD.WIDE
// per clock, 9.55 SM-cycles per product). A product that runs on the FP64 pipe could run beside
// them: the MSM's point additions have independent products (U2 and S2, PPP and Q, ZZ3 and
// ZZZ3) that could go one to each pipe. This header is that second product; whether the two pipes
// really overlap is measured by field_product_bench (docs/gpu-field-products.md).
//
// Representation: a = sum a_i 2^(48 i), i < 8, with |a_i| <= 2^47 (limbs 0..6) and a_7 small
// (the value's top bits); a is any representative with |a| < 2p. R = 2^384, the same Montgomery
// radix as the 12 x 32-bit form, so the values mean the same thing in both forms.
//
// Exact limb products: for |x y| < 2^99 and a column accumulator H in [2^100, 2^101) (there a
// double's unit in the last place is 2^48, so H is a multiple of 2^48):
//   H' = fma(x, y, H) = H + RN48(x y)     (RN48: nearest multiple of 2^48; H' stays in range)
//   d  = H - H'        = -RN48(x y)        exact (a multiple of 2^48 below 2^97)
//   l  = fma(x, y, d)  = x y - RN48(x y)   exact, |l| <= 2^47
// H starts at C = 1.5 * 2^100 and collects the high parts of a column (its excess over C, over
// 2^48, belongs to the next column); L collects the low parts. A column receives at most 16
// terms (8 of a b, 8 of q p), each |x y| <= 2^94 (both limbs balanced; a_7 b_7 alone may reach
// 2^92), so |H - C| < 2^98 keeps H in its binade, and |L| <= 2^51.
// Reduction (product scanning, one column at a time): the column value
//   t_k = L_k + (H_(k-1) - C) / 2^48 + carry, |t_k| < 2^52, exact;
// for k < 8, q_k = t_k mu mod 2^48 (mu = -p^-1 mod 2^48, balanced: |mu| < 2^34) by the same
// split (|t mu| < 2^86), balanced |q_k| <= 2^47; adding q_k p_0's low part makes t_k a multiple
// of 2^48 and t_k / 2^48 is the next carry. p's limbs are balanced too (|p_j| <= 2^47).
// Result: columns 8..15 = (a b + q p) / R, q = sum q_k 2^(48 k), |q| < 2^383, so
// |result| < (2p)^2 / 2^384 + 2^383 p / 2^384 < p. Limbs 0..6 are split balanced (RN48 by adding
// and subtracting C), column 15 is the top limb as is (|result| < 2^381: |top| <= 2^45 + 1).
// Cost: 128 limb products x 4 FP64 operations (fma, add, fma, add) + ~100 per column work
// = ~620 FP64 operations, ~9.7 SM-cycles at 64 per clock, against 277 IMAD.WIDE for the 32-bit
// product.
// The compiler must not reassociate: neither nvcc nor the host compilers do without fast-math,
// and contracting a multiply by 2^-48 into an fma changes nothing (the product is exact).
#pragma once

#include <cmath>
#include <cstdint>

#include "ff/bls12_381.hpp"

#if defined(__CUDACC__)
#define CUZK_F64_HD __host__ __device__ __forceinline__
#else
#define CUZK_F64_HD inline
#endif
#if defined(__CUDA_ARCH__)
#define CUZK_F64_UNROLL _Pragma("unroll")
#else
#define CUZK_F64_UNROLL
#endif

namespace cuzk::cuda::dev {

struct fp_f64 {
  double l[8];
};

namespace f64_detail {

constexpr double column_base = 0x1.8p100;  // C = 1.5 * 2^100
constexpr double inv_2_48 = 0x1p-48;
constexpr int64_t two_47 = int64_t{1} << 47, two_48 = int64_t{1} << 48;
constexpr uint64_t mask_48 = (uint64_t{1} << 48) - 1;

// Bits [48 i, 48 i + 48) of a 384-bit number in 64-bit words.
constexpr uint64_t bits48(const uint64_t* w, unsigned i) {
  const unsigned bit = 48 * i, word = bit / 64, off = bit % 64;
  uint64_t v = w[word] >> off;
  if (off > 16 && word + 1 < 6) v |= w[word + 1] << (64 - off);
  return v & mask_48;
}
// Balanced limb i of p (|limb| <= 2^47, carries pushed up).
constexpr int64_t p_limb(unsigned i) {
  int64_t carry = 0, limb = 0;
  for (unsigned k = 0; k <= i; ++k) {
    limb = static_cast<int64_t>(bits48(ff::fp_params::modulus.w, k)) + carry;
    carry = 0;
    if (limb > two_47) {
      limb -= two_48;
      carry = 1;
    }
  }
  return limb;
}
// mu = -p^-1 mod 2^48 (the low 48 bits of ff::fp::n0 = -p^-1 mod 2^64), balanced.
constexpr int64_t mu_balanced() {
  const int64_t m = static_cast<int64_t>(ff::fp::n0 & mask_48);
  return m > two_47 ? m - two_48 : m;
}
// p's balanced limbs as a table (device code must not read host constants at run time: local
// constexpr copies of this are indexed only in unrolled loops).
#define CUZK_F64_P_LIMBS {p_limb(0), p_limb(1), p_limb(2), p_limb(3), p_limb(4), p_limb(5), p_limb(6), p_limb(7)}
static_assert(p_limb(0) == -21845 && p_limb(7) == 28591897852288, "balanced 48-bit limbs of p");
static_assert(mu_balanced() == -12885098499, "-p^-1 mod 2^48");

CUZK_F64_HD double fma_rn(double a, double b, double c) {
#ifdef __CUDA_ARCH__
  return __fma_rn(a, b, c);
#else
  return std::fma(a, b, c);
#endif
}

// Adds x y to a column: RN48(x y) into H, the exact rest into L (first: L is set, not added).
template <bool First>
CUZK_F64_HD void term(double x, double y, double& H, double& L) {
  const double h = fma_rn(x, y, H);
  const double rest = fma_rn(x, y, H - h);
  L = First ? rest : L + rest;
  H = h;
}

}  // namespace f64_detail

// a b R^-1 mod p as a representative in (-p, p) (header comment); a, b in (-2p, 2p).
// Chains = 2 spreads a column's terms over two (H, L) pairs, summed at the column's end (2 more
// operations per column), to halve the dependent chain of fused multiply-adds per column.
template <int Chains = 1>
CUZK_F64_HD fp_f64 f64_mont_mul(const fp_f64& a, const fp_f64& b) {
  using namespace f64_detail;
  static_assert(Chains == 1 || Chains == 2, "one or two accumulator pairs per column");
  constexpr int64_t pl[8] = CUZK_F64_P_LIMBS;
  constexpr double p[8] = {double(pl[0]), double(pl[1]), double(pl[2]), double(pl[3]),
                           double(pl[4]), double(pl[5]), double(pl[6]), double(pl[7])};
  constexpr double mu = double(mu_balanced());
  fp_f64 r;
  double q[8];
  double h_prev = column_base, carry = 0;
  CUZK_F64_UNROLL
  for (int k = 0; k < 15; ++k) {
    double H[Chains] = {}, L[Chains] = {};  // set by each pair's first term
    int terms = 0;
    const auto add = [&](double x, double y) {
      const int c = terms % Chains;
      if (terms < Chains) {
        H[c] = column_base;
        term<true>(x, y, H[c], L[c]);
      } else {
        term<false>(x, y, H[c], L[c]);
      }
      ++terms;
    };
    CUZK_F64_UNROLL
    for (int i = 0; i < 8; ++i)
      if (k - i >= 0 && k - i <= 7) add(a.l[i], b.l[k - i]);
    CUZK_F64_UNROLL
    for (int i = 0; i < 8; ++i)  // q_i p_(k-i) for the q_i known (i < k)
      if (i < k && k - i >= 1 && k - i <= 7) add(q[i], p[k - i]);
    if (Chains == 2 && terms >= 2) {  // fold the second pair into the first (exact)
      H[0] += H[1] - column_base;
      L[0] += L[1];
    }
    double t = L[0] + fma_rn(h_prev - column_base, inv_2_48, carry);
    if (k < 8) {
      const double hm = fma_rn(t, mu, column_base);
      q[k] = fma_rn(t, mu, column_base - hm);  // t mu mod 2^48, balanced
      term<false>(q[k], p[0], H[0], t);        // t becomes a multiple of 2^48
      carry = t * inv_2_48;
    } else {
      const double s = (t + column_base) - column_base;  // RN48(t)
      r.l[k - 8] = t - s;
      carry = s * inv_2_48;
    }
    h_prev = H[0];
  }
  r.l[7] = fma_rn(h_prev - column_base, inv_2_48, carry);  // column 15: the top limb
  return r;
}

// From 12 x 32-bit limbs (any value below 2^382, e.g. a Montgomery-form element in [0, 2p)):
// 48-bit limbs balanced from the bottom; the top limb takes the last carry.
CUZK_F64_HD fp_f64 f64_from_words(const uint32_t w[12]) {
  using namespace f64_detail;
  fp_f64 r;
  int64_t carry = 0;
  CUZK_F64_UNROLL
  for (int i = 0; i < 8; ++i) {
    const int lo = (3 * i) / 2;  // 48 i / 32
    uint64_t u = (i & 1) ? (w[lo] >> 16) | (static_cast<uint64_t>(w[lo + 1]) << 16)
                         : w[lo] | (static_cast<uint64_t>(w[lo + 1] & 0xffffu) << 32);
    int64_t s = static_cast<int64_t>(u) + carry;
    carry = 0;
    if (i < 7 && s > two_47) {
      s -= two_48;
      carry = 1;
    }
    r.l[i] = static_cast<double>(s);
  }
  return r;
}

// To 12 x 32-bit limbs, canonical (in [0, p)), from a representative in (-2p, 2p) whose limbs
// are integers below 2^53 in magnitude.
CUZK_F64_HD void f64_to_words(const fp_f64& a, uint32_t w[12]) {
  using namespace f64_detail;
  constexpr int64_t pl[8] = CUZK_F64_P_LIMBS;
  // Non-negative 48-bit digits of sum limb(i) 2^(48 i) into out, returning the arithmetic carry
  // out of the top (the sign part): value = sum out_i 2^(48 i) + carry 2^384.
  const auto digits = [](const auto& limb, uint64_t(&out)[8]) {
    int64_t c = 0;
    CUZK_F64_UNROLL
    for (int i = 0; i < 8; ++i) {
      const int64_t s = limb(i) + c;
      out[i] = static_cast<uint64_t>(s) & mask_48;
      c = (s - static_cast<int64_t>(out[i])) / two_48;  // exact: s - out_i is a multiple of 2^48
    }
    return c;
  };
  uint64_t d[8];
  int64_t carry = digits([&](int i) { return static_cast<int64_t>(a.l[i]); }, d);
  // carry is -1 or 0 for |value| < 2p: add p while negative, then subtract p while the difference
  // is not negative; at most two steps each way.
  for (int step = 0; step < 2 && carry < 0; ++step)
    carry += digits([&](int i) { return static_cast<int64_t>(d[i]) + pl[i]; }, d);
  for (int step = 0; step < 2; ++step) {
    uint64_t t[8];
    const int64_t c = carry + digits([&](int i) { return static_cast<int64_t>(d[i]) - pl[i]; }, t);
    if (c < 0) break;
    for (int i = 0; i < 8; ++i) d[i] = t[i];
    carry = c;
  }
  CUZK_F64_UNROLL
  for (int i = 0; i < 12; ++i) {
    const int bit = 32 * i, k = bit / 48, off = bit % 48;
    uint64_t v = d[k] >> off;
    if (off > 16 && k + 1 < 8) v |= d[k + 1] << (48 - off);
    w[i] = static_cast<uint32_t>(v);
  }
}

}  // namespace cuzk::cuda::dev
