// Montgomery product on n x 32-bit limbs with even/odd accumulators (n even, modulus with at
// least one spare bit: Fp 381 of 384 bits, Fr 255 of 256), shared by fp_device.cuh and
// fr_device.cuh. The same code runs on the host (the carry flag emulated), so the limb
// bookkeeping is tested bit for bit against ff::fp / ff::fr without a GPU (CudaField.EvenOdd*).
//
// Why: the plain CIOS row (fp_device.cuh's first version) adds a*b_i as one 12-long mad.lo
// chain and one 12-long mad.hi chain into the same accumulator, so every madc.hi depends on the
// madc.lo before it through both the register and the carry flag; ptxas lowers each
// carry-in multiply-add to IMAD + IADD3.X and the chains serialise. Here the low halves of the
// products a_j b_i with even j land in E (limb j, j+1 pairs) and those with odd j in O (one limb
// up), so each chain alternates lo/hi of ONE product and is half as long; the two arrays are
// summed once at the end. Each row also shifts O down by one limb while adding (the Montgomery
// division by 2^32) and swaps the roles of E and O, so no register moves are needed.
//
// Frames: in a row, the accumulator is T = E + O * 2^32, E[k] of weight 2^(32k), O[k] of weight
// 2^(32(k+1)). A row adds a * b_i, then m p with m = E[0] n0 mod 2^32, which clears E[0]; the
// next row (roles swapped) reads T / 2^32 = O + E / 2^32: its E is the old O, its O is the old
// E shifted down one limb, and the old E[1] (weight 2^0 after the division) is added into the
// new E[0] first. Bounds (a < p needed, b_i any 32-bit limb): T < 2p after each row as in CIOS.
// Before the reduction, O holds (old E) / 2^64 < 2^(32(n-2)), plus A_odd b_i with
// A_odd = sum a_(2k+1) 2^(64k) < 2^(32(n-2)) a_(n-1) <= 2^(32(n-2)) (p >> 32(n-1)), plus carries
// < 2^(32(n-1)); the reduction adds m * P_odd < 2^32 (p >> 32). For Fp (p < 2^381, a_11 < 2^29)
// the sum is < 2^382 + 2^381 < 2^384; for Fr (r < 2^255, a_7 < 2^31) each of the two products
// is below 2^255 - 2^223 and the rest below 2^225, so the sum is < 2^256. Hence the O chain
// of the reduction never carries out, and its carry is dropped.
// Cost per row: 2n multiply instructions for a b_i (n lo + n hi) and 2n for m p, n+2 adds;
// n rows: 2n^2 lo + 2n^2 hi (Fp: 288 + 288, Fr: 128 + 128), plus n merges and one reduction.
// ptxas fuses each mad.lo.cc / madc.hi.cc pair on the same operands (adjacent destinations, the
// carry flowing from lo to hi) into one IMAD.WIDE.U32(.X), and the CIOS's ~570 carry IADD3.X
// vanish: Fp 277 IMAD.WIDE + 12 IMAD.HI per product, 9.5 SM-cycles on the H200 (CIOS: 15.1);
// Fr 4.9 (CIOS 7.1). Measurements: docs/gpu-field-products.md.
#pragma once

#include <cstdint>

#if defined(__CUDACC__)
#define CUZK_EO_HD __host__ __device__ __forceinline__
#else
#define CUZK_EO_HD inline
#endif
// Full unrolling on the device (limb indices must fold to registers); the host compilers
// unroll at -O2 on their own and reject the pragma under -Werror.
#if defined(__CUDA_ARCH__)
#define CUZK_EO_UNROLL _Pragma("unroll")
#else
#define CUZK_EO_UNROLL
#endif

namespace cuzk::cuda::dev {

// One carry-chain instruction as a member of cc_chain: on the device the PTX instruction `ptx`
// on operands a, b (and c), on the host the expression `host`, which emulates it.
#ifdef __CUDA_ARCH__
#define CUZK_CC_OP2(name, ptx, host)                                            \
  CUZK_EO_HD uint32_t name(uint32_t a, uint32_t b) {                            \
    uint32_t d;                                                                 \
    asm volatile(ptx " %0, %1, %2;" : "=r"(d) : "r"(a), "r"(b));                \
    return d;                                                                   \
  }
#define CUZK_CC_OP3(name, ptx, host)                                            \
  CUZK_EO_HD uint32_t name(uint32_t a, uint32_t b, uint32_t c) {                \
    uint32_t d;                                                                 \
    asm volatile(ptx " %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c));    \
    return d;                                                                   \
  }
#else
#define CUZK_CC_OP2(name, ptx, host) \
  CUZK_EO_HD uint32_t name(uint32_t a, uint32_t b) { return host; }
#define CUZK_CC_OP3(name, ptx, host) \
  CUZK_EO_HD uint32_t name(uint32_t a, uint32_t b, uint32_t c) { return host; }
#endif

// PTX carry-chain instructions; on the host the carry flag is a member. On the device the flag is
// the hardware CC register, carried between consecutive asm statements (volatile: kept in order).
struct cc_chain {
#ifndef __CUDA_ARCH__
  uint32_t cf = 0;
  static constexpr uint32_t lo(uint32_t a, uint32_t b) { return a * b; }
  static constexpr uint32_t hi(uint32_t a, uint32_t b) {
    return static_cast<uint32_t>((static_cast<uint64_t>(a) * b) >> 32);
  }
  uint32_t sum(uint32_t x, uint32_t c, uint32_t cin, bool set) {
    const uint64_t s = static_cast<uint64_t>(x) + c + cin;
    if (set) cf = static_cast<uint32_t>(s >> 32);
    return static_cast<uint32_t>(s);
  }
  uint32_t diff(uint32_t x, uint32_t y, uint32_t bin, bool set) {
    const uint64_t d = static_cast<uint64_t>(x) - y - bin;
    if (set) cf = static_cast<uint32_t>(d >> 63);
    return static_cast<uint32_t>(d);
  }
#endif
  CUZK_CC_OP2(mul_lo, "mul.lo.u32", lo(a, b))
  CUZK_CC_OP2(mul_hi, "mul.hi.u32", hi(a, b))
  CUZK_CC_OP3(mad_lo_cc, "mad.lo.cc.u32", sum(lo(a, b), c, 0, true))     // lo(a b) + c, carry out
  CUZK_CC_OP3(madc_lo_cc, "madc.lo.cc.u32", sum(lo(a, b), c, cf, true))  // lo(a b) + c + carry, carry out
  CUZK_CC_OP3(madc_hi_cc, "madc.hi.cc.u32", sum(hi(a, b), c, cf, true))  // hi(a b) + c + carry, carry out
  // hi(a b) + c + carry, no carry out (the caller's bound says there is none).
  CUZK_CC_OP3(madc_hi, "madc.hi.u32", sum(hi(a, b), c, cf, false))
  // Subtractions: the flag is the borrow (d = a - b - borrow), as PTX's sub.cc / subc define it.
  CUZK_CC_OP2(sub_cc, "sub.cc.u32", diff(a, b, 0, true))
  CUZK_CC_OP2(subc_cc, "subc.cc.u32", diff(a, b, cf, true))
  CUZK_CC_OP2(subc, "subc.u32", diff(a, b, cf, false))
  CUZK_CC_OP2(add_cc, "add.cc.u32", sum(a, b, 0, true))
  CUZK_CC_OP2(addc_cc, "addc.cc.u32", sum(a, b, cf, true))
  CUZK_CC_OP2(addc, "addc.u32", sum(a, b, cf, false))
};

// The modulus limbs as a local constant: device code may not call P::limb (a host function) or
// read a host array at run time, but a constexpr local indexed in unrolled loops folds to
// immediates.
template <int N>
struct mod_limbs {
  uint32_t v[N];
  template <class P>
  static constexpr mod_limbs of() {
    mod_limbs r{};
    for (int i = 0; i < N; ++i) r.v[i] = P::limb(static_cast<unsigned>(i));
    return r;
  }
};

// E += (even limbs j >= j0 of x) y as one chain from a fresh carry, its last carry into O[N - 1].
// x(j) gives limb j (an array read, or the square's doubled operand).
template <int N, class X>
CUZK_EO_HD void eo_add_even(cc_chain& c, uint32_t (&E)[N], uint32_t (&O)[N], X&& x, uint32_t y, int j0 = 0) {
  E[j0] = c.mad_lo_cc(x(j0), y, E[j0]);
  E[j0 + 1] = c.madc_hi_cc(x(j0), y, E[j0 + 1]);
CUZK_EO_UNROLL
  for (int j = 2; j < N; j += 2) {
    if (j <= j0) continue;
    E[j] = c.madc_lo_cc(x(j), y, E[j]);
    E[j + 1] = c.madc_hi_cc(x(j), y, E[j + 1]);
  }
  O[N - 1] = c.addc(O[N - 1], 0);
}

// T += x y (no division): odd limbs of x into O (no carry out: the bounds in the header, and
// those of eo_mont_sqr / eo_mont_dot), even limbs into E, E's last carry into O[N - 1].
// Used for the row's Montgomery term m p and for the second product of eo_mont_dot.
template <int N>
CUZK_EO_HD void eo_add(cc_chain& c, uint32_t (&E)[N], uint32_t (&O)[N], const uint32_t (&x)[N], uint32_t y) {
  O[0] = c.mad_lo_cc(x[1], y, O[0]);
  O[1] = c.madc_hi_cc(x[1], y, O[1]);
CUZK_EO_UNROLL
  for (int j = 2; j < N; j += 2) {
    O[j] = c.madc_lo_cc(x[j + 1], y, O[j]);
    O[j + 1] = c.madc_hi_cc(x[j + 1], y, O[j + 1]);
  }
  eo_add_even<N>(c, E, O, [&](int j) { return x[j]; }, y);
}

// One row: T = (T / 2^32 unless first) + u b_i, then `extra` (eo_mont_dot's c d_i), then
// T += m p (m = E[0] n0). u(j) gives operand limb j; the products u_j b_i with j < skip are not
// formed (eo_mont_sqr's rows: those limbs only pass the carry, an add on the integer ALU; the
// first row has skip 0). P gives static constexpr limb(i) and n0 (low 32 bits of -p^-1).
// Reduce = false leaves out m p: a plain product row (mont_karatsuba.cuh's half products; the
// caller takes the finished low limb E[0] before the next row's division drops it).
template <int N, class P, bool Reduce = true, class U, class Extra>
CUZK_EO_HD void eo_row(cc_chain& c, uint32_t (&E)[N], uint32_t (&O)[N], U&& u, uint32_t bi, int skip, bool first,
                       uint32_t n0, Extra&& extra) {
  static_assert(N % 2 == 0 && N >= 4, "even limb count");
  if (first) {
CUZK_EO_UNROLL
    for (int j = 0; j < N; j += 2) {
      O[j] = c.mul_lo(u(j + 1), bi);
      O[j + 1] = c.mul_hi(u(j + 1), bi);
    }
CUZK_EO_UNROLL
    for (int j = 0; j < N; j += 2) {
      E[j] = c.mul_lo(u(j), bi);
      E[j + 1] = c.mul_hi(u(j), bi);
    }
  } else {
    // Divide by 2^32: E (old O) gets the old E[1] at limb 0, O becomes the old E shifted down one
    // limb, while the odd products u_(j+1) b_i are added in the same chain.
    E[0] = c.add_cc(E[0], O[1]);
CUZK_EO_UNROLL
    for (int j = 0; j < N - 2; j += 2) {
      if (j + 1 < skip) {
        O[j] = c.addc_cc(O[j + 2], 0);
        O[j + 1] = c.addc_cc(O[j + 3], 0);
      } else {
        O[j] = c.madc_lo_cc(u(j + 1), bi, O[j + 2]);
        O[j + 1] = c.madc_hi_cc(u(j + 1), bi, O[j + 3]);
      }
    }
    O[N - 2] = c.madc_lo_cc(u(N - 1), bi, 0);
    O[N - 1] = c.madc_hi(u(N - 1), bi, 0);
    // Even products from the first j >= skip; with skip = N - 1 there is none, and no stale
    // carry may enter O[N - 1].
    if (skip <= N - 2) eo_add_even<N>(c, E, O, u, bi, skip + (skip & 1));
  }
  extra(E, O);
  if constexpr (Reduce) {
    constexpr mod_limbs<N> p = mod_limbs<N>::template of<P>();
    // m * p: the carry out of the O chain is zero (see the header).
    eo_add<N>(c, E, O, p.v, E[0] * n0);
  }
}

// The last row's E role is O: result = E + O / 2^32 (O[0] is 0).
template <int N>
CUZK_EO_HD void eo_merge(cc_chain& c, uint32_t (&r)[N], const uint32_t (&E)[N], const uint32_t (&O)[N]) {
  r[0] = c.add_cc(E[0], O[1]);
CUZK_EO_UNROLL
  for (int k = 1; k < N - 1; ++k) r[k] = c.addc_cc(E[k], O[k + 1]);
  r[N - 1] = c.addc(E[N - 1], 0);
}

// a b 2^(-32N) mod p, in [0, 2p): the caller applies its final conditional subtraction.
// OpaqueN0 hides n0 from the compiler in a register (sppark reports worse code for
// n0 = 0xffffffff, Fr's, when the compiler sees the constant; the benchmark compares both).
template <int N, class P, bool OpaqueN0 = false>
CUZK_EO_HD void eo_mont_mul(uint32_t (&r)[N], const uint32_t (&a)[N], const uint32_t (&b)[N]) {
  cc_chain c;
  uint32_t E[N], O[N];
  uint32_t n0 = P::n0;
#ifdef __CUDA_ARCH__
  if constexpr (OpaqueN0) asm volatile("mov.b32 %0, %1;" : "=r"(n0) : "n"(P::n0));
#endif
  auto limb = [&](int j) { return a[j]; };
  auto none = [](uint32_t (&)[N], uint32_t (&)[N]) {};
CUZK_EO_UNROLL
  for (int i = 0; i < N; i += 2) {
    eo_row<N, P>(c, E, O, limb, b[i], 0, i == 0, n0, none);
    eo_row<N, P>(c, O, E, limb, b[i + 1], 0, false, n0, none);
  }
  eo_merge<N>(c, r, E, O);
}

// Moduli with 3 spare bits (p < 2^(32N - 3), Fp's 381 of 384): the square and the dot product
// below keep up to 3p in the accumulator between rows (a row adds up to 2 p 2^32 before m p).
template <int N, class P>
constexpr bool eo_three_spare_bits() {
  return P::limb(static_cast<unsigned>(N - 1)) < (1u << 29);
}

// a^2 2^(-32N) mod p in [0, 2p) for a < p, with the row structure of eo_mont_mul: row i adds
// a_i (a_i 2^(32i) + 2 sum_(j>i) a_j 2^(32j)) (in the row's frame), so the products a_i a_j with
// j < i (done in row j) are skipped: N(N+1)/2 products for the square instead of N^2 (Fp: 78 +
// 144 for the reduction = 222 multiply pairs instead of 288, -23%). The doubled tail is read
// from d = 2a (limb j = a_j << 1 | a_(j-1) >> 31), except at limb i+1 where a_i's own top bit
// must not enter: s_(i+1) = a_(i+1) << 1. a_(N-1) < 2^29, so 2a has no limb N.
// Bounds: a row adds < 2a 2^32 < 2 p 2^32, so T < 3p < 2^(32N - 1) between rows; the O chain
// gets at most the header's terms with A_odd < 2^(32(N-2)) 2 a_(N-1) < 2^(32(N-2) + 30), and
// stays below 2^(32N) (Fp: < 2^382 + 2^381 + 2^352); the final T = (a^2 + M p) / R < 2p.
// Row i is eo_row with multiplier a_i, operand limbs a_i at i, s_(i+1) at i + 1, d_j above, skip i.
template <int N, class P>
CUZK_EO_HD void eo_mont_sqr(uint32_t (&r)[N], const uint32_t (&a)[N]) {
  static_assert(eo_three_spare_bits<N, P>(), "eo_mont_sqr needs p < 2^(32N - 3)");
  cc_chain c;
  uint32_t E[N], O[N], s[N], d[N];
CUZK_EO_UNROLL
  for (int j = 0; j < N; ++j) {
    s[j] = a[j] << 1;
    d[j] = j == 0 ? s[0] : s[j] | (a[j - 1] >> 31);
  }
  auto row = [&](uint32_t (&e)[N], uint32_t (&o)[N], int i) {
    auto u = [&](int j) { return j == i ? a[j] : j == i + 1 ? s[j] : d[j]; };
    eo_row<N, P>(c, e, o, u, a[i], i, i == 0, P::n0, [](uint32_t (&)[N], uint32_t (&)[N]) {});
  };
CUZK_EO_UNROLL
  for (int i = 0; i < N; i += 2) {
    row(E, O, i);
    row(O, E, i + 1);
  }
  eo_merge<N>(c, r, E, O);
}

// (a b + c d) 2^(-32N) mod p in [0, 2p) for a, c < p (b, d any N-limb values below p): one
// Montgomery reduction for two products (sppark's dot_product; XYZZ's Y3 = R (Q - X3) - Y1 PPP
// as R (Q - X3) + (p - Y1) PPP). Per row a b_i with the division, then c d_i (eo_add), then m p:
// 3 x 2N multiplies per row instead of 4 x 2N for two products (Fp: 432 pairs instead of 576).
// Bounds: a row adds < 2 p 2^32 before m p, so T < 3p between rows and the O chain stays below
// 2^(32N) as in eo_mont_sqr; the final T = (a b + c d + M p) / R < 2 p^2 / R + p < 2p.
template <int N, class P>
CUZK_EO_HD void eo_mont_dot(uint32_t (&r)[N], const uint32_t (&a)[N], const uint32_t (&b)[N], const uint32_t (&cc)[N],
                            const uint32_t (&dd)[N]) {
  static_assert(eo_three_spare_bits<N, P>(), "eo_mont_dot needs p < 2^(32N - 3)");
  cc_chain c;
  uint32_t E[N], O[N];
  auto limb = [&](int j) { return a[j]; };
CUZK_EO_UNROLL
  for (int i = 0; i < N; i += 2) {
    eo_row<N, P>(c, E, O, limb, b[i], 0, i == 0, P::n0,
                 [&](uint32_t (&e)[N], uint32_t (&o)[N]) { eo_add<N>(c, e, o, cc, dd[i]); });
    eo_row<N, P>(c, O, E, limb, b[i + 1], 0, false, P::n0,
                 [&](uint32_t (&e)[N], uint32_t (&o)[N]) { eo_add<N>(c, e, o, cc, dd[i + 1]); });
  }
  eo_merge<N>(c, r, E, O);
}

// CIOS with 64-bit multiply-adds (IMAD.WIDE.U32: a 32x32 product plus a 64-bit addend in one
// instruction) written in plain C; the carries are IADD3 on the integer ALU instead of the
// multiplier's carry-in. Result in [0, 2p). Per row: n wide products for a b_i, n for m p.
template <int N, class P>
CUZK_EO_HD void wide_mont_mul(uint32_t (&r)[N], const uint32_t (&a)[N], const uint32_t (&b)[N]) {
  constexpr mod_limbs<N> p = mod_limbs<N>::template of<P>();
  uint32_t t[N + 1];
CUZK_EO_UNROLL
  for (int j = 0; j <= N; ++j) t[j] = 0;
CUZK_EO_UNROLL
  for (int i = 0; i < N; ++i) {
    uint64_t s = 0;
CUZK_EO_UNROLL
    for (int j = 0; j < N; ++j) {
      s = static_cast<uint64_t>(a[j]) * b[i] + t[j] + (s >> 32);
      t[j] = static_cast<uint32_t>(s);
    }
    t[N] += static_cast<uint32_t>(s >> 32);  // t < 2p + p 2^32 < 2^(32(N+1)): no carry out
    const uint32_t m = t[0] * P::n0;
    s = static_cast<uint64_t>(m) * p.v[0] + t[0];
CUZK_EO_UNROLL
    for (int j = 1; j < N; ++j) {
      s = static_cast<uint64_t>(m) * p.v[j] + t[j] + (s >> 32);
      t[j - 1] = static_cast<uint32_t>(s);
    }
    s = static_cast<uint64_t>(t[N]) + (s >> 32);
    t[N - 1] = static_cast<uint32_t>(s);
    t[N] = static_cast<uint32_t>(s >> 32);
  }
CUZK_EO_UNROLL
  for (int j = 0; j < N; ++j) r[j] = t[j];
}

// a^2 2^(-32N) mod p in [0, 2p), same 64-bit multiply-add style: the N(N-1)/2 cross products
// once (Fp: 66), doubled by a one-bit shift, plus the N squares on the diagonal, then N rows of
// Montgomery reduction on the 2N-limb square (N^2 products). Fp: 66 + 12 + 144 = 222 wide
// products instead of 288 (-23%).
template <int N, class P>
CUZK_EO_HD void wide_mont_sqr(uint32_t (&r)[N], const uint32_t (&a)[N]) {
  constexpr mod_limbs<N> p = mod_limbs<N>::template of<P>();
  uint32_t t[2 * N];
CUZK_EO_UNROLL
  for (int j = 0; j < 2 * N; ++j) t[j] = 0;
  // Cross products a_i a_j, i < j, at limb i + j.
CUZK_EO_UNROLL
  for (int i = 0; i < N - 1; ++i) {
    uint64_t s = 0;
CUZK_EO_UNROLL
    for (int j = i + 1; j < N; ++j) {
      s = static_cast<uint64_t>(a[i]) * a[j] + t[i + j] + (s >> 32);
      t[i + j] = static_cast<uint32_t>(s);
    }
    t[i + N] = static_cast<uint32_t>(s >> 32);
  }
  // Double (the cross sum is < 2^(64N - 1), so no bit leaves the top limb), add the diagonal.
  t[2 * N - 1] = t[2 * N - 2] >> 31;
CUZK_EO_UNROLL
  for (int j = 2 * N - 2; j > 0; --j) t[j] = (t[j] << 1) | (t[j - 1] >> 31);
  t[0] <<= 1;
  uint64_t s = 0;
CUZK_EO_UNROLL
  for (int i = 0; i < N; ++i) {
    s = static_cast<uint64_t>(a[i]) * a[i] + t[2 * i] + (s >> 32);
    t[2 * i] = static_cast<uint32_t>(s);
    s = static_cast<uint64_t>(t[2 * i + 1]) + (s >> 32);
    t[2 * i + 1] = static_cast<uint32_t>(s);
  }
  // Montgomery reduction, one limb per row; `top` carries into limb i + N + 1.
  uint32_t top = 0;
CUZK_EO_UNROLL
  for (int i = 0; i < N; ++i) {
    const uint32_t m = t[i] * P::n0;
    s = static_cast<uint64_t>(m) * p.v[0] + t[i];
CUZK_EO_UNROLL
    for (int j = 1; j < N; ++j) {
      s = static_cast<uint64_t>(m) * p.v[j] + t[i + j] + (s >> 32);
      t[i + j] = static_cast<uint32_t>(s);
    }
    s = static_cast<uint64_t>(t[i + N]) + top + (s >> 32);
    t[i + N] = static_cast<uint32_t>(s);
    top = static_cast<uint32_t>(s >> 32);
  }
  // (a^2 + M p) / 2^(32N) < (p^2 + 2^(32N) p) / 2^(32N) < 2p < 2^(32N): top is 0 here.
CUZK_EO_UNROLL
  for (int j = 0; j < N; ++j) r[j] = t[N + j];
}

}  // namespace cuzk::cuda::dev

#undef CUZK_EO_HD
#undef CUZK_CC_OP2
#undef CUZK_CC_OP3
#undef CUZK_EO_UNROLL
