// Device-only Fr (BLS12-381 scalar field) arithmetic on 8 x 32-bit limbs, for the NTT and
// h kernels. Same Montgomery representation and bytes as ff::fr (R = 2^256, fully reduced), so
// a device vector of ff::fr is read and written directly.
//
// Multipliers with one interface (a policy parameter of the kernels):
//   fr_mul_ptx      mul_ptx: Montgomery with even/odd accumulators in PTX carry chains
//                   (mont_evenodd.cuh). ptxas fuses each mad.lo.cc / madc.hi.cc pair on the
//                   same operands into one IMAD.WIDE.U32(.X): 4.91 SM-cycles per product on the
//                   H200 (docs/gpu-field-products.md); the NTT's default.
//   fr_mul_cios     mul_cios: the first version, row-by-row CIOS (7.08 SM-cycles).
//   fr_mul_wide     CIOS in plain C with 64-bit multiply-adds (6.09 SM-cycles).
//   fr_mul_portable ff::fr::mul_portable, the 64-bit mont_field template as nvcc compiles it
//                   (6.86 SM-cycles).
// All four are bit-identical (canonical outputs); tests compare them on device, element by
// element, and against the CPU (CudaFr.*).
//
// CIOS cost per product, 32-bit limbs, n = 8: per row i, t += a*b_i (8 mad.lo + 8 mad.hi),
// m = t0 * n0 (1 mul.lo), t += m*p (8 mad.lo + 8 mad.hi), shift one limb; 8 rows =
// 136 lo + 128 hi multiply-adds, plus 16 carry adds and a final conditional subtraction.
// Bounds: rows keep t < 2p < 2^256 (r < 2^255: one spare bit); t + a b_i + m p < 2^288 fits the
// 9-limb accumulator, so the high chains never carry out.
// Only included by .cu files (DESIGN.md §2 rule 2).
#pragma once

#include <cstdint>

#include "backend/cuda/mont_evenodd.cuh"
#include "ff/bls12_381.hpp"

namespace cuzk::cuda::dev {

struct fr32 {
  uint32_t v[8];
};

// The modulus r as 32-bit limbs and -r^-1 mod 2^32, derived from ff::fr (local constexpr
// copies: nvcc folds them into immediates; it cannot reference the host static constexpr).
struct fr_consts {
  static constexpr uint32_t limb(unsigned i) {
    return static_cast<uint32_t>(ff::fr_params::modulus.w[i / 2] >> (32 * (i % 2)));
  }
  static constexpr uint32_t n0 = static_cast<uint32_t>(ff::fr::n0);  // -r^-1 mod 2^32 (low half)
};
static_assert(fr_consts::limb(0) == 0x00000001u && fr_consts::limb(7) == 0x73eda753u, "r limbs");
static_assert(fr_consts::n0 == 0xffffffffu, "-r^-1 mod 2^32");

__device__ __forceinline__ fr32 load(const ff::fr* p) {
  const uint4* q = reinterpret_cast<const uint4*>(p);
  const uint4 a = q[0], b = q[1];
  return {{a.x, a.y, a.z, a.w, b.x, b.y, b.z, b.w}};
}
// Read-only data (twiddles, power tables) through the non-coherent cache.
__device__ __forceinline__ fr32 load_ro(const ff::fr* p) {
  const uint4* q = reinterpret_cast<const uint4*>(p);
  const uint4 a = __ldg(q), b = __ldg(q + 1);
  return {{a.x, a.y, a.z, a.w, b.x, b.y, b.z, b.w}};
}
__device__ __forceinline__ void store(ff::fr* p, const fr32& x) {
  uint4* q = reinterpret_cast<uint4*>(p);
  q[0] = make_uint4(x.v[0], x.v[1], x.v[2], x.v[3]);
  q[1] = make_uint4(x.v[4], x.v[5], x.v[6], x.v[7]);
}

__device__ __forceinline__ ff::fr to_fr(const fr32& x) {
  ff::fr r;
#pragma unroll
  for (int i = 0; i < 4; ++i) r.v.w[i] = x.v[2 * i] | (static_cast<uint64_t>(x.v[2 * i + 1]) << 32);
  return r;
}
__device__ __forceinline__ fr32 from_fr(const ff::fr& x) {
  fr32 r;
#pragma unroll
  for (int i = 0; i < 4; ++i) {
    r.v[2 * i] = static_cast<uint32_t>(x.v.w[i]);
    r.v[2 * i + 1] = static_cast<uint32_t>(x.v.w[i] >> 32);
  }
  return r;
}

__device__ __forceinline__ fr32 one() {
  constexpr auto r1 = ff::fr::r1;
  return {{static_cast<uint32_t>(r1.w[0]), static_cast<uint32_t>(r1.w[0] >> 32), static_cast<uint32_t>(r1.w[1]),
           static_cast<uint32_t>(r1.w[1] >> 32), static_cast<uint32_t>(r1.w[2]),
           static_cast<uint32_t>(r1.w[2] >> 32), static_cast<uint32_t>(r1.w[3]),
           static_cast<uint32_t>(r1.w[3] >> 32)}};
}

// r as eight immediates, for the carry chains below.
#define CUZK_FR_P_IMM                                                                                   \
  "n"(fr_consts::limb(0)), "n"(fr_consts::limb(1)), "n"(fr_consts::limb(2)), "n"(fr_consts::limb(3)), \
      "n"(fr_consts::limb(4)), "n"(fr_consts::limb(5)), "n"(fr_consts::limb(6)), "n"(fr_consts::limb(7))

// s - r if s >= r, else s (s < 2r). 9 sub + 8 select.
__device__ __forceinline__ fr32 reduce_once(const uint32_t s[8]) {
  fr32 d;
  uint32_t borrow;
  asm(
      "sub.cc.u32 %0, %9, %17;\n\t"
      "subc.cc.u32 %1, %10, %18;\n\t"
      "subc.cc.u32 %2, %11, %19;\n\t"
      "subc.cc.u32 %3, %12, %20;\n\t"
      "subc.cc.u32 %4, %13, %21;\n\t"
      "subc.cc.u32 %5, %14, %22;\n\t"
      "subc.cc.u32 %6, %15, %23;\n\t"
      "subc.cc.u32 %7, %16, %24;\n\t"
      "subc.u32 %8, 0, 0;"
      : "=&r"(d.v[0]), "=&r"(d.v[1]), "=&r"(d.v[2]), "=&r"(d.v[3]), "=&r"(d.v[4]), "=&r"(d.v[5]),
        "=&r"(d.v[6]), "=&r"(d.v[7]), "=&r"(borrow)
      : "r"(s[0]), "r"(s[1]), "r"(s[2]), "r"(s[3]), "r"(s[4]), "r"(s[5]), "r"(s[6]), "r"(s[7]),
        CUZK_FR_P_IMM);
  if (borrow) {  // s < r: keep s (compiled to selects)
#pragma unroll
    for (int i = 0; i < 8; ++i) d.v[i] = s[i];
  }
  return d;
}

// a + b mod r (a, b < r, so a + b < 2r < 2^256: no carry out). 8 add + reduce_once.
__device__ __forceinline__ fr32 add(const fr32& a, const fr32& b) {
  uint32_t s[8];
  asm(
      "add.cc.u32 %0, %8, %16;\n\t"
      "addc.cc.u32 %1, %9, %17;\n\t"
      "addc.cc.u32 %2, %10, %18;\n\t"
      "addc.cc.u32 %3, %11, %19;\n\t"
      "addc.cc.u32 %4, %12, %20;\n\t"
      "addc.cc.u32 %5, %13, %21;\n\t"
      "addc.cc.u32 %6, %14, %22;\n\t"
      "addc.u32 %7, %15, %23;"
      : "=&r"(s[0]), "=&r"(s[1]), "=&r"(s[2]), "=&r"(s[3]), "=&r"(s[4]), "=&r"(s[5]), "=&r"(s[6]),
        "=&r"(s[7])
      : "r"(a.v[0]), "r"(a.v[1]), "r"(a.v[2]), "r"(a.v[3]), "r"(a.v[4]), "r"(a.v[5]), "r"(a.v[6]),
        "r"(a.v[7]), "r"(b.v[0]), "r"(b.v[1]), "r"(b.v[2]), "r"(b.v[3]), "r"(b.v[4]), "r"(b.v[5]),
        "r"(b.v[6]), "r"(b.v[7]));
  return reduce_once(s);
}

// a - b mod r: 9 sub, then r added back under the borrow mask (8 and + 8 add).
__device__ __forceinline__ fr32 sub(const fr32& a, const fr32& b) {
  constexpr uint32_t P0 = fr_consts::limb(0), P1 = fr_consts::limb(1), P2 = fr_consts::limb(2),
                     P3 = fr_consts::limb(3), P4 = fr_consts::limb(4), P5 = fr_consts::limb(5),
                     P6 = fr_consts::limb(6), P7 = fr_consts::limb(7);
  fr32 d;
  uint32_t mask;
  asm(
      "sub.cc.u32 %0, %9, %17;\n\t"
      "subc.cc.u32 %1, %10, %18;\n\t"
      "subc.cc.u32 %2, %11, %19;\n\t"
      "subc.cc.u32 %3, %12, %20;\n\t"
      "subc.cc.u32 %4, %13, %21;\n\t"
      "subc.cc.u32 %5, %14, %22;\n\t"
      "subc.cc.u32 %6, %15, %23;\n\t"
      "subc.cc.u32 %7, %16, %24;\n\t"
      "subc.u32 %8, 0, 0;"
      : "=&r"(d.v[0]), "=&r"(d.v[1]), "=&r"(d.v[2]), "=&r"(d.v[3]), "=&r"(d.v[4]), "=&r"(d.v[5]),
        "=&r"(d.v[6]), "=&r"(d.v[7]), "=&r"(mask)
      : "r"(a.v[0]), "r"(a.v[1]), "r"(a.v[2]), "r"(a.v[3]), "r"(a.v[4]), "r"(a.v[5]), "r"(a.v[6]),
        "r"(a.v[7]), "r"(b.v[0]), "r"(b.v[1]), "r"(b.v[2]), "r"(b.v[3]), "r"(b.v[4]), "r"(b.v[5]),
        "r"(b.v[6]), "r"(b.v[7]));
  asm(
      "add.cc.u32 %0, %0, %8;\n\t"
      "addc.cc.u32 %1, %1, %9;\n\t"
      "addc.cc.u32 %2, %2, %10;\n\t"
      "addc.cc.u32 %3, %3, %11;\n\t"
      "addc.cc.u32 %4, %4, %12;\n\t"
      "addc.cc.u32 %5, %5, %13;\n\t"
      "addc.cc.u32 %6, %6, %14;\n\t"
      "addc.u32 %7, %7, %15;"
      : "+r"(d.v[0]), "+r"(d.v[1]), "+r"(d.v[2]), "+r"(d.v[3]), "+r"(d.v[4]), "+r"(d.v[5]), "+r"(d.v[6]),
        "+r"(d.v[7])
      : "r"(P0 & mask), "r"(P1 & mask), "r"(P2 & mask), "r"(P3 & mask), "r"(P4 & mask), "r"(P5 & mask),
        "r"(P6 & mask), "r"(P7 & mask));
  return d;
}

// a * b * 2^-256 mod r: CIOS on 32-bit limbs (cost in the header comment).
__device__ __forceinline__ fr32 mul_cios(const fr32& a, const fr32& b) {
  uint32_t t[9] = {0, 0, 0, 0, 0, 0, 0, 0, 0};
#pragma unroll
  for (int i = 0; i < 8; ++i) {
    // t += a * b_i: low halves at limb j, high halves at limb j + 1.
    asm(
      "mad.lo.cc.u32 %0, %9, %17, %0;\n\t"
      "madc.lo.cc.u32 %1, %10, %17, %1;\n\t"
      "madc.lo.cc.u32 %2, %11, %17, %2;\n\t"
      "madc.lo.cc.u32 %3, %12, %17, %3;\n\t"
      "madc.lo.cc.u32 %4, %13, %17, %4;\n\t"
      "madc.lo.cc.u32 %5, %14, %17, %5;\n\t"
      "madc.lo.cc.u32 %6, %15, %17, %6;\n\t"
      "madc.lo.cc.u32 %7, %16, %17, %7;\n\t"
      "addc.u32 %8, %8, 0;\n\t"
      "mad.hi.cc.u32 %1, %9, %17, %1;\n\t"
      "madc.hi.cc.u32 %2, %10, %17, %2;\n\t"
      "madc.hi.cc.u32 %3, %11, %17, %3;\n\t"
      "madc.hi.cc.u32 %4, %12, %17, %4;\n\t"
      "madc.hi.cc.u32 %5, %13, %17, %5;\n\t"
      "madc.hi.cc.u32 %6, %14, %17, %6;\n\t"
      "madc.hi.cc.u32 %7, %15, %17, %7;\n\t"
      "madc.hi.u32 %8, %16, %17, %8;"
        : "+r"(t[0]), "+r"(t[1]), "+r"(t[2]), "+r"(t[3]), "+r"(t[4]), "+r"(t[5]), "+r"(t[6]), "+r"(t[7]),
          "+r"(t[8])
        : "r"(a.v[0]), "r"(a.v[1]), "r"(a.v[2]), "r"(a.v[3]), "r"(a.v[4]), "r"(a.v[5]), "r"(a.v[6]),
          "r"(a.v[7]), "r"(b.v[i]));
    // t += m * r with m = t_0 * n0, so that t_0 becomes 0; then t >>= 32.
    constexpr uint32_t n0 = fr_consts::n0;
    const uint32_t m = t[0] * n0;
    asm(
      "mad.lo.cc.u32 %0, %9, %10, %0;\n\t"
      "madc.lo.cc.u32 %1, %9, %11, %1;\n\t"
      "madc.lo.cc.u32 %2, %9, %12, %2;\n\t"
      "madc.lo.cc.u32 %3, %9, %13, %3;\n\t"
      "madc.lo.cc.u32 %4, %9, %14, %4;\n\t"
      "madc.lo.cc.u32 %5, %9, %15, %5;\n\t"
      "madc.lo.cc.u32 %6, %9, %16, %6;\n\t"
      "madc.lo.cc.u32 %7, %9, %17, %7;\n\t"
      "addc.u32 %8, %8, 0;\n\t"
      "mad.hi.cc.u32 %1, %9, %10, %1;\n\t"
      "madc.hi.cc.u32 %2, %9, %11, %2;\n\t"
      "madc.hi.cc.u32 %3, %9, %12, %3;\n\t"
      "madc.hi.cc.u32 %4, %9, %13, %4;\n\t"
      "madc.hi.cc.u32 %5, %9, %14, %5;\n\t"
      "madc.hi.cc.u32 %6, %9, %15, %6;\n\t"
      "madc.hi.cc.u32 %7, %9, %16, %7;\n\t"
      "madc.hi.u32 %8, %9, %17, %8;"
        : "+r"(t[0]), "+r"(t[1]), "+r"(t[2]), "+r"(t[3]), "+r"(t[4]), "+r"(t[5]), "+r"(t[6]), "+r"(t[7]),
          "+r"(t[8])
        : "r"(m), CUZK_FR_P_IMM);
#pragma unroll
    for (int j = 0; j < 8; ++j) t[j] = t[j + 1];
    t[8] = 0;
  }
  return reduce_once(t);
}

#undef CUZK_FR_P_IMM

// a * b * 2^-256 mod r with even/odd accumulators (mont_evenodd.cuh; a < r, b < r): the same
// 128 lo + 128 hi products as mul_cios, fused by ptxas into 128 IMAD.WIDE.U32(.X), then one
// conditional subtraction.
__device__ __forceinline__ fr32 mul_ptx(const fr32& a, const fr32& b) {
  uint32_t r[8];
  eo_mont_mul<8, fr_consts>(r, a.v, b.v);
  return reduce_once(r);
}

// The multiplier policies the kernels are templated on.
struct fr_mul_ptx {
  static __device__ __forceinline__ fr32 mul(const fr32& a, const fr32& b) { return mul_ptx(a, b); }
};
struct fr_mul_cios {
  static __device__ __forceinline__ fr32 mul(const fr32& a, const fr32& b) { return mul_cios(a, b); }
};
// CIOS with 64-bit multiply-adds in plain C (IMAD.WIDE.U32, carries on the ALU).
struct fr_mul_wide {
  static __device__ __forceinline__ fr32 mul(const fr32& a, const fr32& b) {
    uint32_t r[8];
    wide_mont_mul<8, fr_consts>(r, a.v, b.v);
    return reduce_once(r);
  }
};
struct fr_mul_portable {
  static __device__ __forceinline__ fr32 mul(const fr32& a, const fr32& b) {
    return from_fr(ff::fr::mul_portable(to_fr(a), to_fr(b)));
  }
};

}  // namespace cuzk::cuda::dev
