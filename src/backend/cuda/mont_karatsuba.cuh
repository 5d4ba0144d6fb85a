// Montgomery product with one level of Karatsuba for the multiplication, on n x 32-bit limbs
// (n a multiple of 4: Fp 12, Fr 8), host and device like mont_evenodd.cuh (whose carry-chain
// primitives it uses), so the limb bookkeeping is tested bit for bit without a GPU.
//
// Why: the even/odd product (mont_evenodd.cuh) is bound by the wide multiplies: Fp 144 partial
// products for a b plus 144 for the Montgomery term m p, fused pairwise into ~277 IMAD.WIDE at
// ~30 per SM-cycle (9.5 SM-cycles per product), while the integer ALU pipe idles (20% busy in
// the MSM's accumulation). Karatsuba trades a quarter of the a b partial products for additions:
// a b = z0 + (z0 + z2 + (a0 - a1)(b1 - b0)) X + z2 X^2 with X = 2^(32 n/2), z0 = a0 b0,
// z2 = a1 b1: three half products of (n/2)^2 partial products (Fp 108 instead of 144), then a
// separated (SOS) Montgomery reduction of the 2n-limb product (n^2 = 144). Fp: 252 partial
// products instead of 288 (-12.5%), plus carry-chain additions on the ALU pipe.
// Measured on the H200 (docs/gpu-field-products.md): 236 IMAD.WIDE and 136 IADD3.X per Fp
// product in the SASS, 9.06 SM-cycles inline and 9.53 out of line against 9.49 / 9.88 for the
// even/odd product; Fr 4.84 against 4.91. Inside the MSM kernels it is slower (G1 2^26 348.3 ->
// 353.5 ms: its larger live set costs the register-capped callers more saves around each call
// than the multiplies save), so fp_device.cuh keeps it behind CUZK_FP_PRODUCT_KARATSUBA /
// CUZK_FP_DOT_KARATSUBA (default 0).
//
// Both pieces run in eo_mont_mul's sliding even/odd frame (mont_evenodd.cuh), which keeps each
// lo/hi pair in an aligned register pair: a first version that added row i at limb offset i
// (pairs starting at odd registers in every other row) measured 13.1 SM-cycles per product
// against 9.5, with ~390 register moves per product in the SASS.
//   ka_plain_mul: eo_mont_mul's rows without the Montgomery term.
//   sos_reduce: REDC of the 2n-limb product, (t_lo + M p) / 2^(32n) + t_hi, in eo rows that add
//     only m p. For t < 2 p^2 (a product, or the sum of two) the result is < 2p: the caller's
//     conditional subtraction makes it canonical, as after the even/odd product.
#pragma once

#include <cstdint>

#include "backend/cuda/mont_evenodd.cuh"

#if defined(__CUDACC__)
#define CUZK_KA_HD __host__ __device__ __forceinline__
#else
#define CUZK_KA_HD inline
#endif
#if defined(__CUDA_ARCH__)
#define CUZK_KA_UNROLL _Pragma("unroll")
#else
#define CUZK_KA_UNROLL
#endif

namespace cuzk::cuda::dev {

// z = a b exactly (H limbs each, 2H out): the rows of eo_mont_mul without the Montgomery term
// (eo_row<..., false>), each row's finished low limb taken before the next row's division, the
// rest merged at the end. The frame keeps every lo/hi pair in an aligned register pair (what
// ptxas fuses into IMAD.WIDE without moves); the O chain cannot carry out (its top limb takes a
// high half, at most 2^32 - 2, plus a carry) and the E chain's last carry cannot overflow O's top
// limb, as the row's total a b_i + T / 2^32 < 2^(32(H+1)). H^2 fused partial products.
template <int H>
CUZK_KA_HD void ka_plain_mul(uint32_t (&z)[2 * H], const uint32_t (&a)[H], const uint32_t (&b)[H]) {
  static_assert(H % 2 == 0 && H >= 4, "eo_row's limb counts");
  cc_chain c;
  uint32_t E[H], O[H], hi[H];
  auto limb = [&](int j) { return a[j]; };
  auto none = [](uint32_t (&)[H], uint32_t (&)[H]) {};
CUZK_KA_UNROLL
  for (int i = 0; i < H; i += 2) {
    eo_row<H, void, false>(c, E, O, limb, b[i], 0, i == 0, 0, none);
    z[i] = E[0];
    eo_row<H, void, false>(c, O, E, limb, b[i + 1], 0, false, 0, none);
    z[i + 1] = O[0];
  }
  eo_merge<H>(c, hi, E, O);
CUZK_KA_UNROLL
  for (int k = 0; k < H; ++k) z[H + k] = hi[k];
}

// |x - y| (H limbs) and the mask ~0 when x < y (else 0).
template <int H>
CUZK_KA_HD uint32_t ka_abs_diff(uint32_t (&d)[H], const uint32_t* x, const uint32_t* y) {
  cc_chain c;
  d[0] = c.sub_cc(x[0], y[0]);
CUZK_KA_UNROLL
  for (int k = 1; k < H; ++k) d[k] = c.subc_cc(x[k], y[k]);
  const uint32_t neg = c.subc(0, 0);
  // Two's complement when negative: (d ^ neg) + 1, the +1 as the chain's first carry-in.
  c.add_cc(neg, neg);  // carry = 1 exactly when neg = ~0
CUZK_KA_UNROLL
  for (int k = 0; k < H - 1; ++k) d[k] = c.addc_cc(d[k] ^ neg, 0);
  d[H - 1] = c.addc(d[H - 1] ^ neg, 0);
  return neg;
}

// t = a b exactly (N limbs each, 2N out) by one Karatsuba level over halves of H = N/2 limbs:
// middle = a0 b1 + a1 b0 = z0 + z2 + (a0 - a1)(b1 - b0), the last term from |a0 - a1| |b1 - b0|
// and the two signs.
template <int N>
CUZK_KA_HD void ka_product(uint32_t (&t)[2 * N], const uint32_t (&a)[N], const uint32_t (&b)[N]) {
  constexpr int H = N / 2;
  cc_chain c;
  uint32_t a0[H], a1[H], b0[H], b1[H], da[H], db[H];
CUZK_KA_UNROLL
  for (int k = 0; k < H; ++k) {
    a0[k] = a[k];
    a1[k] = a[H + k];
    b0[k] = b[k];
    b1[k] = b[H + k];
  }
  const uint32_t neg = ka_abs_diff<H>(da, a0, a1) ^ ka_abs_diff<H>(db, b1, b0);  // ~0: (a0 - a1)(b1 - b0) < 0
  uint32_t z0[2 * H], z2[2 * H], zm[2 * H], m[2 * H + 1];
  ka_plain_mul<H>(z0, a0, b0);
  ka_plain_mul<H>(z2, a1, b1);
  ka_plain_mul<H>(zm, da, db);
  // m = z0 + z2 (2H + 1 limbs), then m += zm or m -= zm (zm ^ neg plus the carry-in, neg as the
  // sign-extension limb). The middle is a0 b1 + a1 b0 >= 0, < 2^(64 H + 1).
  m[0] = c.add_cc(z0[0], z2[0]);
CUZK_KA_UNROLL
  for (int k = 1; k < 2 * H; ++k) m[k] = c.addc_cc(z0[k], z2[k]);
  m[2 * H] = c.addc(0, 0);
  c.add_cc(neg, neg);
CUZK_KA_UNROLL
  for (int k = 0; k < 2 * H; ++k) m[k] = c.addc_cc(m[k], zm[k] ^ neg);
  m[2 * H] = c.addc(m[2 * H], neg);
  // t = z0 + m X + z2 X^2: z0 and z2 side by side, m added at limb H, the carry up to the top
  // (a b < 2^(64 N), so nothing leaves limb 2N - 1).
CUZK_KA_UNROLL
  for (int k = 0; k < H; ++k) t[k] = z0[k];
  t[H] = c.add_cc(z0[H], m[0]);
CUZK_KA_UNROLL
  for (int k = 1; k < H; ++k) t[H + k] = c.addc_cc(z0[H + k], m[k]);
CUZK_KA_UNROLL
  for (int k = H; k <= 2 * H; ++k) t[H + k] = c.addc_cc(z2[k - H], m[k]);
CUZK_KA_UNROLL
  for (int k = 3 * H + 1; k < 2 * N - 1; ++k) t[k] = c.addc_cc(z2[k - 2 * H], 0);
  t[2 * N - 1] = c.addc(z2[2 * H - 1], 0);
}

// r = t 2^(-32N) mod p in [0, 2p) for t < 2 p^2: Montgomery's REDC on the low half only,
// (t_lo + M p) / 2^(32N) + t_hi, as M depends on t_lo alone. The rows are eo_mont_mul's with no
// a b_i term: each divides by 2^32 (old E[1] into the new E[0], O shifted down a limb) while it
// adds m p; the O chain stays below 2^(32N) as in eo_row (it holds
// old E / 2^64 < 2^(32(N-2)) plus m P_odd). (t_lo + M p) / 2^(32N) <= p and t_hi < 2 p^2 / 2^(32N)
// < p, so the sum is < 2p (Fp and Fr).
template <int N, class P>
CUZK_KA_HD void sos_reduce(uint32_t (&r)[N], const uint32_t (&t)[2 * N]) {
  constexpr mod_limbs<N> p = mod_limbs<N>::template of<P>();
  cc_chain c;
  uint32_t E[N], O[N];
CUZK_KA_UNROLL
  for (int k = 0; k < N; ++k) {
    E[k] = t[k];
    O[k] = 0;
  }
  eo_add<N>(c, E, O, p.v, E[0] * P::n0);
  // Row i with this row's names (e, o) = (previous o, previous e): eo_row's division fused with
  // the odd half of m p (o[j] = o[j + 2] + p_(j+1) m), m taken from the folded limb 0 (a plain
  // multiply between the chained instructions leaves the carry flag alone), then the even half.
  auto limb = [&](int j) { return p.v[j]; };
  auto row = [&](uint32_t (&e)[N], uint32_t (&o)[N]) {
    e[0] = c.add_cc(e[0], o[1]);
    const uint32_t m = e[0] * P::n0;
CUZK_KA_UNROLL
    for (int j = 0; j < N - 2; j += 2) {
      o[j] = c.madc_lo_cc(p.v[j + 1], m, o[j + 2]);
      o[j + 1] = c.madc_hi_cc(p.v[j + 1], m, o[j + 3]);
    }
    o[N - 2] = c.madc_lo_cc(p.v[N - 1], m, 0);
    o[N - 1] = c.madc_hi(p.v[N - 1], m, 0);
    eo_add_even<N>(c, e, o, limb, m);
  };
CUZK_KA_UNROLL
  for (int i = 1; i < N; i += 2) {
    row(O, E);
    if (i + 1 < N) row(E, O);
  }
  // N even: the last row ran as row(O, E); the result is its E + O / 2^32 (eo_mont_mul's merge).
  eo_merge<N>(c, r, E, O);
  r[0] = c.add_cc(r[0], t[N]);
CUZK_KA_UNROLL
  for (int k = 1; k < N - 1; ++k) r[k] = c.addc_cc(r[k], t[N + k]);
  r[N - 1] = c.addc(r[N - 1], t[2 * N - 1]);
}

// a b 2^(-32N) mod p in [0, 2p) for a, b < p.
template <int N, class P>
CUZK_KA_HD void ka_mont_mul(uint32_t (&r)[N], const uint32_t (&a)[N], const uint32_t (&b)[N]) {
  uint32_t t[2 * N];
  ka_product<N>(t, a, b);
  sos_reduce<N, P>(r, t);
}

// (a b + c d) 2^(-32N) mod p in [0, 2p) for a, b, c, d < p: two Karatsuba products, one
// reduction (Fp: 216 + 144 wide multiplies, against 432 for eo_mont_dot).
template <int N, class P>
CUZK_KA_HD void ka_mont_dot(uint32_t (&r)[N], const uint32_t (&a)[N], const uint32_t (&b)[N], const uint32_t (&cc)[N],
                            const uint32_t (&dd)[N]) {
  cc_chain c;
  uint32_t t[2 * N], u[2 * N];
  ka_product<N>(t, a, b);
  ka_product<N>(u, cc, dd);
  t[0] = c.add_cc(t[0], u[0]);  // < 2 p^2 < 2^(64N): no carry out
CUZK_KA_UNROLL
  for (int k = 1; k < 2 * N - 1; ++k) t[k] = c.addc_cc(t[k], u[k]);
  t[2 * N - 1] = c.addc(t[2 * N - 1], u[2 * N - 1]);
  sos_reduce<N, P>(r, t);
}

}  // namespace cuzk::cuda::dev

#undef CUZK_KA_HD
#undef CUZK_KA_UNROLL
