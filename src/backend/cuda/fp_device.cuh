// Device-only Fp (BLS12-381 base field, 381 bits) arithmetic on 12 x 32-bit limbs, for the G1
// MSM kernels. Same Montgomery representation and bytes as ff::fp (R = 2^384, fully reduced), so
// device arrays of ff::fp (and of points made of them) are read and written directly.
//
// Two multipliers with one interface (a policy parameter of the kernels), as for Fr:
//   fp_mul_ptx      32-bit limbs in PTX carry chains: fp_mul_ptx_impl, the even/odd product
//                   (mont_evenodd.cuh; CUZK_FP_PRODUCT_EVENODD=0 selects the CIOS below).
//   fp_mul_portable ff::fp::mul_portable, the 64-bit mont_field template as nvcc compiles it.
// Tests compare both with the host mont_field bit for bit (CudaG1.FieldMatchesHost). Measured
// on the H200 (dependent chains, 270K threads): even/odd 9.5 (9.9 out of line), CIOS 15.1,
// portable64 15.2 SM-cycles per product (docs/gpu-field-products.md). Inside the MSM kernels
// the portable one is 1.1-1.8x slower (it spills under the register cap), and the PTX one is
// fastest called out of line (fp_mul_ptx_call, below): an XYZZ addition inlines 10 copies, more
// code than the instruction cache holds (docs/gpu.md). G1 MSM 2^26: 616 ms with the CIOS,
// 403 ms with the even/odd product.
//
// CIOS cost per product, n = 12 limbs: per row i, t += a*b_i (12 mad.lo + 12 mad.hi),
// m = t_0 * n0 (1 mul.lo), t += m*p (12 mad.lo + 12 mad.hi), shift one limb; 12 rows =
// 300 lo + 288 hi multiply-adds, plus 24 carry adds and a final conditional subtraction.
// At 64 lo + 32 hi per SM-clock that is 13.7 SM-cycles per product (notes/gpu-groth16.md §4.2).
// Bounds: rows keep t < 2p; t + a b_i + m p < 2p + 2 p 2^32 <= p 2^33 < 2^414 fits the 13-limb
// accumulator, so the high chains never carry out. p < 2^381 leaves 3 spare bits, so a + b < 2p
// never carries out of 12 limbs either.
// Only included by .cu files (DESIGN.md §2 rule 2).
#pragma once

#include <cstdint>

#include "backend/cuda/mont_evenodd.cuh"
#include "backend/cuda/mont_karatsuba.cuh"
#include "ff/bls12_381.hpp"

namespace cuzk::cuda::dev {

struct fp32 {
  uint32_t v[12];
};

// The modulus p as 32-bit limbs and -p^-1 mod 2^32, derived from ff::fp (constexpr copies that
// nvcc folds into immediates).
struct fp_consts {
  static constexpr uint32_t limb(unsigned i) {
    return static_cast<uint32_t>(ff::fp_params::modulus.w[i / 2] >> (32 * (i % 2)));
  }
  static constexpr uint32_t n0 = static_cast<uint32_t>(ff::fp::n0);  // -p^-1 mod 2^32 (low half)
  static constexpr uint32_t one_limb(unsigned i) {  // R mod p (Montgomery 1)
    return static_cast<uint32_t>(ff::fp::r1.w[i / 2] >> (32 * (i % 2)));
  }
};
static_assert(fp_consts::limb(0) == 0xffffaaabu && fp_consts::limb(11) == 0x1a0111eau, "p limbs");
static_assert(fp_consts::n0 == 0xfffcfffdu, "-p^-1 mod 2^32");

// p as twelve immediates, for the carry chains below.
#define CUZK_FP_P_IMM                                                                                   \
  "n"(fp_consts::limb(0)), "n"(fp_consts::limb(1)), "n"(fp_consts::limb(2)), "n"(fp_consts::limb(3)),   \
      "n"(fp_consts::limb(4)), "n"(fp_consts::limb(5)), "n"(fp_consts::limb(6)), "n"(fp_consts::limb(7)), \
      "n"(fp_consts::limb(8)), "n"(fp_consts::limb(9)), "n"(fp_consts::limb(10)), "n"(fp_consts::limb(11))

__device__ __forceinline__ fp32 fp_zero() { return {}; }
// Host constants reach device code only through constant expressions (a run-time read of a host
// variable would be a trap): hence local constexpr copies, indexed only in unrolled loops.
#define CUZK_FP_LIMBS(f) {f(0), f(1), f(2), f(3), f(4), f(5), f(6), f(7), f(8), f(9), f(10), f(11)}
__device__ __forceinline__ fp32 fp_one() {
  constexpr uint32_t one[12] = CUZK_FP_LIMBS(fp_consts::one_limb);
  fp32 r;
#pragma unroll
  for (int i = 0; i < 12; ++i) r.v[i] = one[i];
  return r;
}

__device__ __forceinline__ bool fp_is_zero(const fp32& a) {
  uint32_t acc = 0;
#pragma unroll
  for (int i = 0; i < 12; ++i) acc |= a.v[i];
  return acc == 0;
}
__device__ __forceinline__ bool fp_eq(const fp32& a, const fp32& b) {
  uint32_t acc = 0;
#pragma unroll
  for (int i = 0; i < 12; ++i) acc |= a.v[i] ^ b.v[i];
  return acc == 0;
}

__device__ __forceinline__ fp32 fp_from(const ff::fp& x) {
  fp32 r;
#pragma unroll
  for (int i = 0; i < 6; ++i) {
    r.v[2 * i] = static_cast<uint32_t>(x.v.w[i]);
    r.v[2 * i + 1] = static_cast<uint32_t>(x.v.w[i] >> 32);
  }
  return r;
}
__device__ __forceinline__ ff::fp fp_to(const fp32& x) {
  ff::fp r;
#pragma unroll
  for (int i = 0; i < 6; ++i) r.v.w[i] = x.v[2 * i] | (static_cast<uint64_t>(x.v[2 * i + 1]) << 32);
  return r;
}

// s - p if s >= p, else s (s < 2p). 13 sub + 12 select.
__device__ __forceinline__ fp32 fp_reduce_once(const uint32_t s[12]) {
  fp32 d;
  uint32_t borrow;
  asm(
      "sub.cc.u32 %0, %13, %25;\n\t"
      "subc.cc.u32 %1, %14, %26;\n\t"
      "subc.cc.u32 %2, %15, %27;\n\t"
      "subc.cc.u32 %3, %16, %28;\n\t"
      "subc.cc.u32 %4, %17, %29;\n\t"
      "subc.cc.u32 %5, %18, %30;\n\t"
      "subc.cc.u32 %6, %19, %31;\n\t"
      "subc.cc.u32 %7, %20, %32;\n\t"
      "subc.cc.u32 %8, %21, %33;\n\t"
      "subc.cc.u32 %9, %22, %34;\n\t"
      "subc.cc.u32 %10, %23, %35;\n\t"
      "subc.cc.u32 %11, %24, %36;\n\t"
      "subc.u32 %12, 0, 0;"
      : "=&r"(d.v[0]), "=&r"(d.v[1]), "=&r"(d.v[2]), "=&r"(d.v[3]), "=&r"(d.v[4]), "=&r"(d.v[5]),
        "=&r"(d.v[6]), "=&r"(d.v[7]), "=&r"(d.v[8]), "=&r"(d.v[9]), "=&r"(d.v[10]), "=&r"(d.v[11]),
        "=&r"(borrow)
      : "r"(s[0]), "r"(s[1]), "r"(s[2]), "r"(s[3]), "r"(s[4]), "r"(s[5]), "r"(s[6]), "r"(s[7]), "r"(s[8]), "r"(s[9]), "r"(s[10]), "r"(s[11]),
        CUZK_FP_P_IMM);
  if (borrow) {  // s < p: keep s (compiled to selects)
#pragma unroll
    for (int i = 0; i < 12; ++i) d.v[i] = s[i];
  }
  return d;
}

// a + b mod p (a, b < p: a + b < 2p < 2^384, no carry out). 12 add + reduce_once.
__device__ __forceinline__ fp32 fp_add(const fp32& a, const fp32& b) {
  uint32_t s[12];
  asm(
      "add.cc.u32 %0, %12, %24;\n\t"
      "addc.cc.u32 %1, %13, %25;\n\t"
      "addc.cc.u32 %2, %14, %26;\n\t"
      "addc.cc.u32 %3, %15, %27;\n\t"
      "addc.cc.u32 %4, %16, %28;\n\t"
      "addc.cc.u32 %5, %17, %29;\n\t"
      "addc.cc.u32 %6, %18, %30;\n\t"
      "addc.cc.u32 %7, %19, %31;\n\t"
      "addc.cc.u32 %8, %20, %32;\n\t"
      "addc.cc.u32 %9, %21, %33;\n\t"
      "addc.cc.u32 %10, %22, %34;\n\t"
      "addc.u32 %11, %23, %35;"
      : "=&r"(s[0]), "=&r"(s[1]), "=&r"(s[2]), "=&r"(s[3]), "=&r"(s[4]), "=&r"(s[5]), "=&r"(s[6]),
        "=&r"(s[7]), "=&r"(s[8]), "=&r"(s[9]), "=&r"(s[10]), "=&r"(s[11])
      : "r"(a.v[0]), "r"(a.v[1]), "r"(a.v[2]), "r"(a.v[3]), "r"(a.v[4]), "r"(a.v[5]), "r"(a.v[6]), "r"(a.v[7]), "r"(a.v[8]), "r"(a.v[9]), "r"(a.v[10]), "r"(a.v[11]),
        "r"(b.v[0]), "r"(b.v[1]), "r"(b.v[2]), "r"(b.v[3]), "r"(b.v[4]), "r"(b.v[5]), "r"(b.v[6]), "r"(b.v[7]), "r"(b.v[8]), "r"(b.v[9]), "r"(b.v[10]), "r"(b.v[11]));
  return fp_reduce_once(s);
}
__device__ __forceinline__ fp32 fp_dbl(const fp32& a) { return fp_add(a, a); }

// a - b mod p: 13 sub, then p added back under the borrow mask (12 and + 12 add).
__device__ __forceinline__ fp32 fp_sub(const fp32& a, const fp32& b) {
  fp32 d;
  uint32_t mask;
  asm(
      "sub.cc.u32 %0, %13, %25;\n\t"
      "subc.cc.u32 %1, %14, %26;\n\t"
      "subc.cc.u32 %2, %15, %27;\n\t"
      "subc.cc.u32 %3, %16, %28;\n\t"
      "subc.cc.u32 %4, %17, %29;\n\t"
      "subc.cc.u32 %5, %18, %30;\n\t"
      "subc.cc.u32 %6, %19, %31;\n\t"
      "subc.cc.u32 %7, %20, %32;\n\t"
      "subc.cc.u32 %8, %21, %33;\n\t"
      "subc.cc.u32 %9, %22, %34;\n\t"
      "subc.cc.u32 %10, %23, %35;\n\t"
      "subc.cc.u32 %11, %24, %36;\n\t"
      "subc.u32 %12, 0, 0;"
      : "=&r"(d.v[0]), "=&r"(d.v[1]), "=&r"(d.v[2]), "=&r"(d.v[3]), "=&r"(d.v[4]), "=&r"(d.v[5]),
        "=&r"(d.v[6]), "=&r"(d.v[7]), "=&r"(d.v[8]), "=&r"(d.v[9]), "=&r"(d.v[10]), "=&r"(d.v[11]),
        "=&r"(mask)
      : "r"(a.v[0]), "r"(a.v[1]), "r"(a.v[2]), "r"(a.v[3]), "r"(a.v[4]), "r"(a.v[5]), "r"(a.v[6]), "r"(a.v[7]), "r"(a.v[8]), "r"(a.v[9]), "r"(a.v[10]), "r"(a.v[11]),
        "r"(b.v[0]), "r"(b.v[1]), "r"(b.v[2]), "r"(b.v[3]), "r"(b.v[4]), "r"(b.v[5]), "r"(b.v[6]), "r"(b.v[7]), "r"(b.v[8]), "r"(b.v[9]), "r"(b.v[10]), "r"(b.v[11]));
  constexpr uint32_t p[12] = CUZK_FP_LIMBS(fp_consts::limb);
  uint32_t pm[12];
#pragma unroll
  for (int i = 0; i < 12; ++i) pm[i] = p[i] & mask;
  asm(
      "add.cc.u32 %0, %0, %12;\n\t"
      "addc.cc.u32 %1, %1, %13;\n\t"
      "addc.cc.u32 %2, %2, %14;\n\t"
      "addc.cc.u32 %3, %3, %15;\n\t"
      "addc.cc.u32 %4, %4, %16;\n\t"
      "addc.cc.u32 %5, %5, %17;\n\t"
      "addc.cc.u32 %6, %6, %18;\n\t"
      "addc.cc.u32 %7, %7, %19;\n\t"
      "addc.cc.u32 %8, %8, %20;\n\t"
      "addc.cc.u32 %9, %9, %21;\n\t"
      "addc.cc.u32 %10, %10, %22;\n\t"
      "addc.u32 %11, %11, %23;"
      : "+r"(d.v[0]), "+r"(d.v[1]), "+r"(d.v[2]), "+r"(d.v[3]), "+r"(d.v[4]), "+r"(d.v[5]), "+r"(d.v[6]),
        "+r"(d.v[7]), "+r"(d.v[8]), "+r"(d.v[9]), "+r"(d.v[10]), "+r"(d.v[11])
      : "r"(pm[0]), "r"(pm[1]), "r"(pm[2]), "r"(pm[3]), "r"(pm[4]), "r"(pm[5]), "r"(pm[6]), "r"(pm[7]), "r"(pm[8]), "r"(pm[9]), "r"(pm[10]), "r"(pm[11]));
  return d;
}

// -a mod p (0 stays 0).
__device__ __forceinline__ fp32 fp_neg(const fp32& a) { return fp_sub(fp_zero(), a); }

// a * b * 2^-384 mod p: CIOS on 32-bit limbs (cost in the header comment).
__device__ __forceinline__ fp32 fp_mul_cios_impl(const fp32& a, const fp32& b) {
  uint32_t t[13] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
#pragma unroll
  for (int i = 0; i < 12; ++i) {
    // t += a * b_i: low halves at limb j, high halves at limb j + 1.
    asm(
      "mad.lo.cc.u32 %0, %13, %25, %0;\n\t"
      "madc.lo.cc.u32 %1, %14, %25, %1;\n\t"
      "madc.lo.cc.u32 %2, %15, %25, %2;\n\t"
      "madc.lo.cc.u32 %3, %16, %25, %3;\n\t"
      "madc.lo.cc.u32 %4, %17, %25, %4;\n\t"
      "madc.lo.cc.u32 %5, %18, %25, %5;\n\t"
      "madc.lo.cc.u32 %6, %19, %25, %6;\n\t"
      "madc.lo.cc.u32 %7, %20, %25, %7;\n\t"
      "madc.lo.cc.u32 %8, %21, %25, %8;\n\t"
      "madc.lo.cc.u32 %9, %22, %25, %9;\n\t"
      "madc.lo.cc.u32 %10, %23, %25, %10;\n\t"
      "madc.lo.cc.u32 %11, %24, %25, %11;\n\t"
      "addc.u32 %12, %12, 0;\n\t"
      "mad.hi.cc.u32 %1, %13, %25, %1;\n\t"
      "madc.hi.cc.u32 %2, %14, %25, %2;\n\t"
      "madc.hi.cc.u32 %3, %15, %25, %3;\n\t"
      "madc.hi.cc.u32 %4, %16, %25, %4;\n\t"
      "madc.hi.cc.u32 %5, %17, %25, %5;\n\t"
      "madc.hi.cc.u32 %6, %18, %25, %6;\n\t"
      "madc.hi.cc.u32 %7, %19, %25, %7;\n\t"
      "madc.hi.cc.u32 %8, %20, %25, %8;\n\t"
      "madc.hi.cc.u32 %9, %21, %25, %9;\n\t"
      "madc.hi.cc.u32 %10, %22, %25, %10;\n\t"
      "madc.hi.cc.u32 %11, %23, %25, %11;\n\t"
      "madc.hi.u32 %12, %24, %25, %12;"
        : "+r"(t[0]), "+r"(t[1]), "+r"(t[2]), "+r"(t[3]), "+r"(t[4]), "+r"(t[5]), "+r"(t[6]), "+r"(t[7]),
          "+r"(t[8]), "+r"(t[9]), "+r"(t[10]), "+r"(t[11]), "+r"(t[12])
        : "r"(a.v[0]), "r"(a.v[1]), "r"(a.v[2]), "r"(a.v[3]), "r"(a.v[4]), "r"(a.v[5]), "r"(a.v[6]), "r"(a.v[7]), "r"(a.v[8]), "r"(a.v[9]), "r"(a.v[10]), "r"(a.v[11]), "r"(b.v[i]));
    // t += m * p with m = t_0 * n0, so that t_0 becomes 0; then t >>= 32.
    constexpr uint32_t n0 = fp_consts::n0;
    const uint32_t m = t[0] * n0;
    asm(
      "mad.lo.cc.u32 %0, %13, %14, %0;\n\t"
      "madc.lo.cc.u32 %1, %13, %15, %1;\n\t"
      "madc.lo.cc.u32 %2, %13, %16, %2;\n\t"
      "madc.lo.cc.u32 %3, %13, %17, %3;\n\t"
      "madc.lo.cc.u32 %4, %13, %18, %4;\n\t"
      "madc.lo.cc.u32 %5, %13, %19, %5;\n\t"
      "madc.lo.cc.u32 %6, %13, %20, %6;\n\t"
      "madc.lo.cc.u32 %7, %13, %21, %7;\n\t"
      "madc.lo.cc.u32 %8, %13, %22, %8;\n\t"
      "madc.lo.cc.u32 %9, %13, %23, %9;\n\t"
      "madc.lo.cc.u32 %10, %13, %24, %10;\n\t"
      "madc.lo.cc.u32 %11, %13, %25, %11;\n\t"
      "addc.u32 %12, %12, 0;\n\t"
      "mad.hi.cc.u32 %1, %13, %14, %1;\n\t"
      "madc.hi.cc.u32 %2, %13, %15, %2;\n\t"
      "madc.hi.cc.u32 %3, %13, %16, %3;\n\t"
      "madc.hi.cc.u32 %4, %13, %17, %4;\n\t"
      "madc.hi.cc.u32 %5, %13, %18, %5;\n\t"
      "madc.hi.cc.u32 %6, %13, %19, %6;\n\t"
      "madc.hi.cc.u32 %7, %13, %20, %7;\n\t"
      "madc.hi.cc.u32 %8, %13, %21, %8;\n\t"
      "madc.hi.cc.u32 %9, %13, %22, %9;\n\t"
      "madc.hi.cc.u32 %10, %13, %23, %10;\n\t"
      "madc.hi.cc.u32 %11, %13, %24, %11;\n\t"
      "madc.hi.u32 %12, %13, %25, %12;"
        : "+r"(t[0]), "+r"(t[1]), "+r"(t[2]), "+r"(t[3]), "+r"(t[4]), "+r"(t[5]), "+r"(t[6]), "+r"(t[7]),
          "+r"(t[8]), "+r"(t[9]), "+r"(t[10]), "+r"(t[11]), "+r"(t[12])
        : "r"(m), CUZK_FP_P_IMM);
#pragma unroll
    for (int j = 0; j < 12; ++j) t[j] = t[j + 1];
    t[12] = 0;
  }
  return fp_reduce_once(t);
}

#undef CUZK_FP_P_IMM
#undef CUZK_FP_LIMBS

// The same product with even/odd accumulators (mont_evenodd.cuh): 288 lo + 288 hi multiplies as
// before, in chains half as long, which ptxas fuses pairwise into 277 IMAD.WIDE.U32(.X) (+ 12
// IMAD.HI), then the same conditional subtraction (canonical output). H200: 9.51 SM-cycles
// inline, 9.90 out of line, against 15.06 / 15.00 for the CIOS (docs/gpu-field-products.md).
__device__ __forceinline__ fp32 fp_mul_evenodd_impl(const fp32& a, const fp32& b) {
  uint32_t r[12];
  eo_mont_mul<12, fp_consts>(r, a.v, b.v);
  return fp_reduce_once(r);
}

// The even/odd square (78 + 144 multiply pairs instead of 288) and dot product a b + c d with one
// reduction (432 instead of 576), mont_evenodd.cuh; both canonical like the product.
__device__ __forceinline__ fp32 fp_sqr_evenodd_impl(const fp32& a) {
  uint32_t r[12];
  eo_mont_sqr<12, fp_consts>(r, a.v);
  return fp_reduce_once(r);
}
__device__ __forceinline__ fp32 fp_dot_evenodd_impl(const fp32& a, const fp32& b, const fp32& c, const fp32& d) {
  uint32_t r[12];
  eo_mont_dot<12, fp_consts>(r, a.v, b.v, c.v, d.v);
  return fp_reduce_once(r);
}

// Karatsuba for the multiplication, then a separated Montgomery reduction (mont_karatsuba.cuh):
// 252 partial products instead of 288 for the product (236 IMAD.WIDE in the SASS against 277),
// 360 instead of 432 for the dot product.
__device__ __forceinline__ fp32 fp_mul_karatsuba_impl(const fp32& a, const fp32& b) {
  uint32_t r[12];
  ka_mont_mul<12, fp_consts>(r, a.v, b.v);
  return fp_reduce_once(r);
}
__device__ __forceinline__ fp32 fp_dot_karatsuba_impl(const fp32& a, const fp32& b, const fp32& c, const fp32& d) {
  uint32_t r[12];
  ka_mont_dot<12, fp_consts>(r, a.v, b.v, c.v, d.v);
  return fp_reduce_once(r);
}

// The product behind the PTX policies below (and so the MSM's): CUZK_FP_PRODUCT_EVENODD selects
// the even/odd formulations (1) or the row-by-row CIOS (0); with the even/odd ones,
// CUZK_FP_PRODUCT_KARATSUBA = 1 takes the Karatsuba product and CUZK_FP_DOT_KARATSUBA = 1 the
// Karatsuba dot product. All bit-identical. Both default to 0: faster alone (9.06 / 9.53
// SM-cycles inline / out of line against 9.49 / 9.88), they made the MSM slower on the H200
// (G1 2^26 348.3 -> 353.5 ms with the product, 372.9 with both; docs/gpu-field-products.md).
#ifndef CUZK_FP_PRODUCT_EVENODD
#define CUZK_FP_PRODUCT_EVENODD 1
#endif
#ifndef CUZK_FP_PRODUCT_KARATSUBA
#define CUZK_FP_PRODUCT_KARATSUBA 0
#endif
#ifndef CUZK_FP_DOT_KARATSUBA
#define CUZK_FP_DOT_KARATSUBA 0
#endif
__device__ __forceinline__ fp32 fp_mul_ptx_impl(const fp32& a, const fp32& b) {
#if CUZK_FP_PRODUCT_EVENODD && CUZK_FP_PRODUCT_KARATSUBA
  return fp_mul_karatsuba_impl(a, b);
#elif CUZK_FP_PRODUCT_EVENODD
  return fp_mul_evenodd_impl(a, b);
#else
  return fp_mul_cios_impl(a, b);
#endif
}

// The multiplier policies the kernels are templated on: mul, sqr and dot(a, b, c, d) = a b + c d
// (a, c canonical). The PTX policies use the dedicated square and dot product when the even/odd
// product is selected.
struct fp_mul_ptx {
  static __device__ __forceinline__ fp32 mul(const fp32& a, const fp32& b) { return fp_mul_ptx_impl(a, b); }
#if CUZK_FP_PRODUCT_EVENODD
  static __device__ __forceinline__ fp32 sqr(const fp32& a) { return fp_sqr_evenodd_impl(a); }
  static __device__ __forceinline__ fp32 dot(const fp32& a, const fp32& b, const fp32& c, const fp32& d) {
#if CUZK_FP_DOT_KARATSUBA
    return fp_dot_karatsuba_impl(a, b, c, d);
#else
    return fp_dot_evenodd_impl(a, b, c, d);
#endif
  }
#else
  static __device__ __forceinline__ fp32 sqr(const fp32& a) { return fp_mul_ptx_impl(a, a); }
  static __device__ __forceinline__ fp32 dot(const fp32& a, const fp32& b, const fp32& c, const fp32& d) {
    return fp_add(fp_mul_ptx_impl(a, b), fp_mul_ptx_impl(c, d));
  }
#endif
};
// The same operations as out-of-line calls: one copy of each (~420 instructions for the product)
// instead of one per call site (an XYZZ mixed addition has 10), against instruction-cache misses;
// the cost is the call and its argument moves.
static __device__ __noinline__ fp32 fp_mul_ptx_outlined(fp32 a, fp32 b) { return fp_mul_ptx::mul(a, b); }
static __device__ __noinline__ fp32 fp_sqr_ptx_outlined(fp32 a) { return fp_mul_ptx::sqr(a); }
static __device__ __noinline__ fp32 fp_dot_ptx_outlined(fp32 a, fp32 b, fp32 c, fp32 d) {
  return fp_mul_ptx::dot(a, b, c, d);
}
struct fp_mul_ptx_call {
  static __device__ __forceinline__ fp32 mul(const fp32& a, const fp32& b) { return fp_mul_ptx_outlined(a, b); }
  static __device__ __forceinline__ fp32 sqr(const fp32& a) { return fp_sqr_ptx_outlined(a); }
  static __device__ __forceinline__ fp32 dot(const fp32& a, const fp32& b, const fp32& c, const fp32& d) {
    return fp_dot_ptx_outlined(a, b, c, d);
  }
};
struct fp_mul_portable {
  static __device__ __forceinline__ fp32 mul(const fp32& a, const fp32& b) {
    return fp_from(ff::fp::mul_portable(fp_to(a), fp_to(b)));
  }
  static __device__ __forceinline__ fp32 sqr(const fp32& a) { return mul(a, a); }
  static __device__ __forceinline__ fp32 dot(const fp32& a, const fp32& b, const fp32& c, const fp32& d) {
    return fp_add(mul(a, b), mul(c, d));
  }
};

}  // namespace cuzk::cuda::dev
