// x86-64 Montgomery multiplication kernels for 4- and 6-limb moduli with one spare top bit
// (BLS12-381's Fr and Fp), in GCC extended inline assembly so they inline into the field code.
//
// Algorithm: the same carry-free CIOS as mont_field::mul_portable, fully unrolled, with BMI2
// mulx (flag-less 64x64->128 multiply) and the two independent ADX carry chains: in every row
// the low halves of the partial products ride the CF chain (adcx) into limb j while the high
// halves ride the OF chain (adox) into limb j+1, so the two chains interleave without
// serialising on one flag. Per row i (N multiplies for a*b[i], N for m*p):
//   t += a * b[i]
//   m  = t[0] * n0 mod 2^64;  t = (t + m*p) / 2^64
// Rows are fused as blst's __mulx_mont_384 does: m for row i-1 is computed first (imul), then
// a * b[i] is added one word up, and only then m * p, so the imul and the reduction's multiply
// latency overlap the next row's products (the kernel is then bound by mulx throughput: 72
// mulx on the one 64x64 multiplier port for N = 6). Bound: t < 2p between rows (inputs < p,
// p < 2^(64N-1)), so N+2 words hold every intermediate and one conditional subtraction at the
// end gives the fully reduced result. The window of accumulator registers rotates by one word
// per row (the word the reduction zeroes becomes the next row's top word): no register moves.
// Cost: 2N^2 mulx, ~4N^2 adcx/adox.
//
// Registers (N = 6): 8 accumulators, lo, hi, rdx (mulx's implicit source), a, b, p pointers =
// 14; the output pointer is register-or-memory (compiler's choice), n0 and one scratch word
// (t0, whose reduction carry is taken with adcx from memory) are memory. That fits the 14
// allocatable registers of a frame-pointer (-O0) build. The a and b pointer registers are
// declared read-write because the final conditional subtraction reuses them as scratch once
// the last row has read its operands. All stores happen after all loads, so r may alias a or b.
// Measured on the Sapphire Rapids host, raw kernel in a dependent chain: Fp 36-37 ns, Fr ~20 ns,
// the same as blst's mulx_mont_384 / mulx_mont_sparse_256 measured in the same process.
//
// Squaring uses the same kernel with b = a. A dedicated symmetric squaring (N(N-1)/2 + N
// products for the 2N-word square, then a separate N^2-product Montgomery reduction) saves 15
// of 72 mulx for N = 6 but needs the 12-word square in memory and loses the row fusion above
// (the reduction can no longer overlap the products); blst's sqrx_mont_384 makes the same
// choice (it calls __mulx_mont_384 with b = a). Not measured here; worth a try only if a
// profile shows squarings dominating.
//
// AVX-512 IFMA (vpmadd52luq/huq, 52-bit limbs) wins only when 8 independent products run side
// by side in the vector lanes; one 381-bit product would need 8 limbs of 52 bits, 128 multiplies
// of 4-cycle latency and cross-lane carry handling, slower than 72 mulx at 1/cycle. Batched IFMA
// is a separate (vector) API, not this scalar kernel.
#pragma once

#include <cstddef>
#include <cstdint>

#if defined(__x86_64__) && defined(__BMI2__) && defined(__ADX__) && !defined(__CUDACC__)
#define CUZK_HAVE_X86_MONT 1
#include <emmintrin.h>  // __m128i for the store staging registers
#else
#define CUZK_HAVE_X86_MONT 0
#endif

namespace cuzk::ff::x86 {

template <std::size_t N>
inline constexpr bool has_kernel = CUZK_HAVE_X86_MONT && (N == 4 || N == 6);

template <std::size_t N>
void mont_mul(uint64_t* r, const uint64_t* a, const uint64_t* b, const uint64_t* p, uint64_t n0);
template <std::size_t N>
void mont_sqr(uint64_t* r, const uint64_t* a, const uint64_t* p, uint64_t n0);
// r = a + b, a - b, -a (mod p) for reduced inputs (< p), branch-free; see below.
template <std::size_t N>
void add_mod(uint64_t* r, const uint64_t* a, const uint64_t* b, const uint64_t* p);
template <std::size_t N>
void sub_mod(uint64_t* r, const uint64_t* a, const uint64_t* b, const uint64_t* p);
template <std::size_t N>
void neg_mod(uint64_t* r, const uint64_t* a, const uint64_t* p);

// Building blocks of lazy reduction (Fp2 products, fp2.hpp), N = 6 only:
//   mul_wide: r[0..2N) = a * b (the plain 2N-word product, no reduction);
//   redc:     r = t R^-1 mod p for t < p R (Montgomery reduction of a 2N-word value, fully
//             reduced result);
//   add_nr:   r = a + b without reduction (N words, the caller keeps it below 2^(64N));
//   add_wide / sub_wide: r = a +- b mod 2^(64 * 2N).
template <std::size_t N>
inline constexpr bool has_wide_kernel = CUZK_HAVE_X86_MONT && N == 6;
template <std::size_t N>
void mul_wide(uint64_t* r, const uint64_t* a, const uint64_t* b);
template <std::size_t N>
void redc(uint64_t* r, const uint64_t* t, const uint64_t* p, uint64_t n0);
template <std::size_t N>
void add_nr(uint64_t* r, const uint64_t* a, const uint64_t* b);
template <std::size_t W>
void add_wide(uint64_t* r, const uint64_t* a, const uint64_t* b);
template <std::size_t W>
void sub_wide(uint64_t* r, const uint64_t* a, const uint64_t* b);

#if CUZK_HAVE_X86_MONT

// Operand names are the macro arguments, so one macro serves every rotation of the window.
#define CUZK_R(x) "%[" #x "]"

// GCC sizes inline asm by its line count and would otherwise keep these ~250-instruction
// kernels out of line (a call plus six callee-saved pushes and pops per product: ~15% of an Fp
// mul). Under AddressSanitizer, locals live in an instrumented frame addressed through an extra
// base register that the 6-limb kernel cannot spare; the kernels touch memory only through
// their asm, so there they opt out of instrumentation and stay out of line (an uninstrumented
// function cannot be inlined into an instrumented one).
#if defined(__SANITIZE_ADDRESS__)
#define CUZK_X86_KERNEL __attribute__((no_sanitize_address, noinline)) inline
#else
#define CUZK_X86_KERNEL __attribute__((always_inline)) inline
#endif
#define CUZK_R32(x) "%k[" #x "]"

// Row 0: t = a * b[0]. One CF chain (mulx leaves the flags alone).
#define CUZK_MUL_FIRST4(t0, t1, t2, t3, t4)                      \
  "movq (%[b]), %%rdx\n\t"                                       \
  "mulxq (%[a]), " CUZK_R(t0) ", " CUZK_R(t1) "\n\t"             \
  "mulxq 8(%[a]), %[lo], " CUZK_R(t2) "\n\t"                     \
  "addq %[lo], " CUZK_R(t1) "\n\t"                               \
  "mulxq 16(%[a]), %[lo], " CUZK_R(t3) "\n\t"                    \
  "adcq %[lo], " CUZK_R(t2) "\n\t"                               \
  "mulxq 24(%[a]), %[lo], " CUZK_R(t4) "\n\t"                    \
  "adcq %[lo], " CUZK_R(t3) "\n\t"                               \
  "adcq $0, " CUZK_R(t4) "\n\t"

#define CUZK_MUL_FIRST6(t0, t1, t2, t3, t4, t5, t6)              \
  "movq (%[b]), %%rdx\n\t"                                       \
  "mulxq (%[a]), " CUZK_R(t0) ", " CUZK_R(t1) "\n\t"             \
  "mulxq 8(%[a]), %[lo], " CUZK_R(t2) "\n\t"                     \
  "addq %[lo], " CUZK_R(t1) "\n\t"                               \
  "mulxq 16(%[a]), %[lo], " CUZK_R(t3) "\n\t"                    \
  "adcq %[lo], " CUZK_R(t2) "\n\t"                               \
  "mulxq 24(%[a]), %[lo], " CUZK_R(t4) "\n\t"                    \
  "adcq %[lo], " CUZK_R(t3) "\n\t"                               \
  "mulxq 32(%[a]), %[lo], " CUZK_R(t5) "\n\t"                    \
  "adcq %[lo], " CUZK_R(t4) "\n\t"                               \
  "mulxq 40(%[a]), %[lo], " CUZK_R(t6) "\n\t"                    \
  "adcq %[lo], " CUZK_R(t5) "\n\t"                               \
  "adcq $0, " CUZK_R(t6) "\n\t"

// One multiply-accumulate step of a row: lo(src*rdx) -> tj on CF, hi -> tj1 on OF.
#define CUZK_MACX(src, tj, tj1)                                  \
  "mulxq " src ", %[lo], %[hi]\n\t"                              \
  "adcxq %[lo], " CUZK_R(tj) "\n\t"                              \
  "adoxq %[hi], " CUZK_R(tj1) "\n\t"

// Row i > 0, fused with the reduction of row i-1 (the ordering blst uses): m = t0 * n0 is
// started first, the product a * b[i] is added one word up (into t1..t7, t7 fresh), and only
// then is m * p added, so the imul and mulx latencies of the reduction hide behind the row's
// multiplies. t0 itself goes to the scratch word: the reduction only needs the carry of
// t0 + lo(m * p0) (which is 0 mod 2^64), taken with adcx from memory; t0's register holds m and
// then, zeroed, serves as a zero source for the two carries left at the top.
// Window: t0..t(N) hold the running value, t(N+1) is free on entry; on exit t1..t(N+1) hold it
// and t0 is free (and zero).
#define CUZK_ITER4(off, t0, t1, t2, t3, t4, t5)                  \
  "movq " CUZK_R(t0) ", %[sc]\n\t"                               \
  "imulq %[n0], " CUZK_R(t0) "\n\t"                              \
  "movq " #off "(%[b]), %%rdx\n\t"                               \
  "xorl " CUZK_R32(t5) ", " CUZK_R32(t5) "\n\t"                  \
  CUZK_MACX("(%[a])", t1, t2)                                    \
  CUZK_MACX("8(%[a])", t2, t3)                                   \
  CUZK_MACX("16(%[a])", t3, t4)                                  \
  CUZK_MACX("24(%[a])", t4, t5)                                  \
  "adcq $0, " CUZK_R(t5) "\n\t"                                  \
  "movq " CUZK_R(t0) ", %%rdx\n\t"                               \
  "xorl " CUZK_R32(t0) ", " CUZK_R32(t0) "\n\t"                  \
  "mulxq (%[p]), %[lo], %[hi]\n\t"                               \
  "adcxq %[sc], %[lo]\n\t"                                       \
  "adoxq %[hi], " CUZK_R(t1) "\n\t"                              \
  CUZK_MACX("8(%[p])", t1, t2)                                   \
  CUZK_MACX("16(%[p])", t2, t3)                                  \
  CUZK_MACX("24(%[p])", t3, t4)                                  \
  "adcxq " CUZK_R(t0) ", " CUZK_R(t4) "\n\t"                     \
  "adoxq " CUZK_R(t0) ", " CUZK_R(t5) "\n\t"                     \
  "adcxq " CUZK_R(t0) ", " CUZK_R(t5) "\n\t"

#define CUZK_ITER6(off, t0, t1, t2, t3, t4, t5, t6, t7)          \
  "movq " CUZK_R(t0) ", %[sc]\n\t"                               \
  "imulq %[n0], " CUZK_R(t0) "\n\t"                              \
  "movq " #off "(%[b]), %%rdx\n\t"                               \
  "xorl " CUZK_R32(t7) ", " CUZK_R32(t7) "\n\t"                  \
  CUZK_MACX("(%[a])", t1, t2)                                    \
  CUZK_MACX("8(%[a])", t2, t3)                                   \
  CUZK_MACX("16(%[a])", t3, t4)                                  \
  CUZK_MACX("24(%[a])", t4, t5)                                  \
  CUZK_MACX("32(%[a])", t5, t6)                                  \
  CUZK_MACX("40(%[a])", t6, t7)                                  \
  "adcq $0, " CUZK_R(t7) "\n\t"                                  \
  "movq " CUZK_R(t0) ", %%rdx\n\t"                               \
  "xorl " CUZK_R32(t0) ", " CUZK_R32(t0) "\n\t"                  \
  "mulxq (%[p]), %[lo], %[hi]\n\t"                               \
  "adcxq %[sc], %[lo]\n\t"                                       \
  "adoxq %[hi], " CUZK_R(t1) "\n\t"                              \
  CUZK_MACX("8(%[p])", t1, t2)                                   \
  CUZK_MACX("16(%[p])", t2, t3)                                  \
  CUZK_MACX("24(%[p])", t3, t4)                                  \
  CUZK_MACX("32(%[p])", t4, t5)                                  \
  CUZK_MACX("40(%[p])", t5, t6)                                  \
  "adcxq " CUZK_R(t0) ", " CUZK_R(t6) "\n\t"                     \
  "adoxq " CUZK_R(t0) ", " CUZK_R(t7) "\n\t"                     \
  "adcxq " CUZK_R(t0) ", " CUZK_R(t7) "\n\t"

// Last reduction (row N-1): m = t0 * n0; t += m * p. Afterwards t0 == 0 and t1..tN hold the
// result (< 2p). The OF chain ends in the top word without carry-out (t + m*p < 2^(64(N+1)));
// the CF chain's last carry goes in with adc.
#define CUZK_REDUCE4(t0, t1, t2, t3, t4)                         \
  "movq " CUZK_R(t0) ", %%rdx\n\t"                               \
  "imulq %[n0], %%rdx\n\t"                                       \
  "xorl %k[lo], %k[lo]\n\t"                                      \
  CUZK_MACX("(%[p])", t0, t1)                                    \
  CUZK_MACX("8(%[p])", t1, t2)                                   \
  CUZK_MACX("16(%[p])", t2, t3)                                  \
  CUZK_MACX("24(%[p])", t3, t4)                                  \
  "adcq $0, " CUZK_R(t4) "\n\t"

#define CUZK_REDUCE6(t0, t1, t2, t3, t4, t5, t6)                 \
  "movq " CUZK_R(t0) ", %%rdx\n\t"                               \
  "imulq %[n0], %%rdx\n\t"                                       \
  "xorl %k[lo], %k[lo]\n\t"                                      \
  CUZK_MACX("(%[p])", t0, t1)                                    \
  CUZK_MACX("8(%[p])", t1, t2)                                   \
  CUZK_MACX("16(%[p])", t2, t3)                                  \
  CUZK_MACX("24(%[p])", t3, t4)                                  \
  CUZK_MACX("32(%[p])", t4, t5)                                  \
  CUZK_MACX("40(%[p])", t5, t6)                                  \
  "adcq $0, " CUZK_R(t6) "\n\t"

// Stores two limbs with one 16-byte store. Results are usually copied next (x = x * y) and
// compilers copy 48- and 32-byte structs with 16-byte loads; a 16-byte load of two 8-byte
// stores cannot be store-forwarded and waits for them to reach L1 (~+6 ns on an Fp product in
// a dependent chain, measured), while 8-byte loads of a 16-byte store forward normally.
#if defined(__AVX__)
#define CUZK_STORE2(x, y, dst)                                   \
  "vmovq " CUZK_R(x) ", %[v]\n\t"                                \
  "vpinsrq $1, " CUZK_R(y) ", %[v], %[v]\n\t"                      \
  "vmovdqu %[v], " dst "\n\t"
#else
#define CUZK_STORE2(x, y, dst)                                   \
  "movq " CUZK_R(x) ", %[v]\n\t"                                 \
  "movq " CUZK_R(y) ", %[w]\n\t"                                 \
  "punpcklqdq %[w], %[v]\n\t"                                    \
  "movdqu %[v], " dst "\n\t"
#endif

// Final conditional subtraction: d = t - p into the six scratch registers (lo, hi, rdx, the
// free accumulator, and the now-dead a and b pointers); if no borrow (t >= p) take d. Then
// store through the output pointer.
#define CUZK_FINAL4(s0, s1, s2, s3, f)                           \
  "movq " CUZK_R(s0) ", %[lo]\n\t"                               \
  "subq (%[p]), %[lo]\n\t"                                       \
  "movq " CUZK_R(s1) ", %[hi]\n\t"                               \
  "sbbq 8(%[p]), %[hi]\n\t"                                      \
  "movq " CUZK_R(s2) ", %%rdx\n\t"                               \
  "sbbq 16(%[p]), %%rdx\n\t"                                     \
  "movq " CUZK_R(s3) ", " CUZK_R(f) "\n\t"                       \
  "sbbq 24(%[p]), " CUZK_R(f) "\n\t"                             \
  "cmovncq %[lo], " CUZK_R(s0) "\n\t"                            \
  "cmovncq %[hi], " CUZK_R(s1) "\n\t"                            \
  "cmovncq %%rdx, " CUZK_R(s2) "\n\t"                            \
  "cmovncq " CUZK_R(f) ", " CUZK_R(s3) "\n\t"                    \
  "movq %[rp], %[lo]\n\t"                                        \
  CUZK_STORE2(s0, s1, "(%[lo])")                                 \
  CUZK_STORE2(s2, s3, "16(%[lo])")

#define CUZK_FINAL6(s0, s1, s2, s3, s4, s5, f)                   \
  "movq " CUZK_R(s0) ", %[lo]\n\t"                               \
  "subq (%[p]), %[lo]\n\t"                                       \
  "movq " CUZK_R(s1) ", %[hi]\n\t"                               \
  "sbbq 8(%[p]), %[hi]\n\t"                                      \
  "movq " CUZK_R(s2) ", %%rdx\n\t"                               \
  "sbbq 16(%[p]), %%rdx\n\t"                                     \
  "movq " CUZK_R(s3) ", " CUZK_R(f) "\n\t"                       \
  "sbbq 24(%[p]), " CUZK_R(f) "\n\t"                             \
  "movq " CUZK_R(s4) ", %[a]\n\t"                                \
  "sbbq 32(%[p]), %[a]\n\t"                                      \
  "movq " CUZK_R(s5) ", %[b]\n\t"                                \
  "sbbq 40(%[p]), %[b]\n\t"                                      \
  "cmovncq %[lo], " CUZK_R(s0) "\n\t"                            \
  "cmovncq %[hi], " CUZK_R(s1) "\n\t"                            \
  "cmovncq %%rdx, " CUZK_R(s2) "\n\t"                            \
  "cmovncq " CUZK_R(f) ", " CUZK_R(s3) "\n\t"                    \
  "cmovncq %[a], " CUZK_R(s4) "\n\t"                             \
  "cmovncq %[b], " CUZK_R(s5) "\n\t"                             \
  "movq %[rp], %[lo]\n\t"                                        \
  CUZK_STORE2(s0, s1, "(%[lo])")                                 \
  CUZK_STORE2(s2, s3, "16(%[lo])")                               \
  CUZK_STORE2(s4, s5, "32(%[lo])")

template <>
CUZK_X86_KERNEL void mont_mul<4>(uint64_t* r, const uint64_t* a, const uint64_t* b,
                                 const uint64_t* p, uint64_t n0) {
  uint64_t t0, t1, t2, t3, t4, t5, lo, hi, rdx, sc;
  __m128i v, w;  // store staging
  const uint64_t n0m = n0;  // memory operand for imul (saves a register)
  __asm__ volatile(
      CUZK_MUL_FIRST4(t0, t1, t2, t3, t4)
      CUZK_ITER4(8, t0, t1, t2, t3, t4, t5)
      CUZK_ITER4(16, t1, t2, t3, t4, t5, t0)
      CUZK_ITER4(24, t2, t3, t4, t5, t0, t1)
      CUZK_REDUCE4(t3, t4, t5, t0, t1)
      CUZK_FINAL4(t4, t5, t0, t1, t3)
      : [t0] "=&r"(t0), [t1] "=&r"(t1), [t2] "=&r"(t2), [t3] "=&r"(t3), [t4] "=&r"(t4),
        [t5] "=&r"(t5), [lo] "=&r"(lo), [hi] "=&r"(hi), "=&d"(rdx), [sc] "=m"(sc),
        [a] "+&r"(a), [b] "+&r"(b), [v] "=&x"(v), [w] "=&x"(w)
      : [p] "r"(p), [n0] "m"(n0m), [rp] "rm"(r)
      : "cc", "memory");
}

// 14 registers: t0..t7, lo, hi, rdx, a, b, p; the output pointer may live in memory.
template <>
CUZK_X86_KERNEL void mont_mul<6>(uint64_t* r, const uint64_t* a, const uint64_t* b,
                                 const uint64_t* p, uint64_t n0) {
  uint64_t t0, t1, t2, t3, t4, t5, t6, t7, lo, hi, rdx, sc;
  __m128i v, w;  // store staging
  const uint64_t n0m = n0;  // memory operand for imul (saves a register)
  __asm__ volatile(
      CUZK_MUL_FIRST6(t0, t1, t2, t3, t4, t5, t6)
      CUZK_ITER6(8, t0, t1, t2, t3, t4, t5, t6, t7)
      CUZK_ITER6(16, t1, t2, t3, t4, t5, t6, t7, t0)
      CUZK_ITER6(24, t2, t3, t4, t5, t6, t7, t0, t1)
      CUZK_ITER6(32, t3, t4, t5, t6, t7, t0, t1, t2)
      CUZK_ITER6(40, t4, t5, t6, t7, t0, t1, t2, t3)
      CUZK_REDUCE6(t5, t6, t7, t0, t1, t2, t3)
      CUZK_FINAL6(t6, t7, t0, t1, t2, t3, t5)
      : [t0] "=&r"(t0), [t1] "=&r"(t1), [t2] "=&r"(t2), [t3] "=&r"(t3), [t4] "=&r"(t4),
        [t5] "=&r"(t5), [t6] "=&r"(t6), [t7] "=&r"(t7), [lo] "=&r"(lo), [hi] "=&r"(hi),
        "=&d"(rdx), [sc] "=m"(sc), [a] "+&r"(a), [b] "+&r"(b), [v] "=&x"(v), [w] "=&x"(w)
      : [p] "r"(p), [n0] "m"(n0m), [rp] "rm"(r)
      : "cc", "memory");
}

template <>
CUZK_X86_KERNEL void mont_sqr<4>(uint64_t* r, const uint64_t* a, const uint64_t* p, uint64_t n0) {
  mont_mul<4>(r, a, a, p, n0);
}

template <>
CUZK_X86_KERNEL void mont_sqr<6>(uint64_t* r, const uint64_t* a, const uint64_t* p, uint64_t n0) {
  mont_mul<6>(r, a, a, p, n0);
}

// --- addition, subtraction, negation ----------------------------------------------------------
// The portable add/sub of mont_field reduce with a data-dependent branch, which random data
// mispredicts about half the time (~15 cycles: the 8-10 ns they took). Here the reduction is a
// select (cmov) and the result leaves through the same 16-byte stores as the products (it is
// copied next just as often). All loads precede all stores, so r may alias a or b. Registers
// (N = 6): 6 sums, 6 candidates (two of them the then-dead a and b pointers), p; the output
// pointer is register-or-memory, as in mont_mul: 13 plus 2 xmm.
//   add: s = a + b (< 2p < 2^(64N): no carry out); t = s - p; keep s if that borrowed.
//   sub: s = a - b (mod 2^(64N)); t = s + p; t carries out exactly when a < b (then
//        t = a - b + p, in [0, p)); otherwise keep s.
//   neg: s = p - a; zero if a == 0 (the or of a's limbs selects: it is zero exactly then).
// Cost (N = 6): 6 loads, 12 add/sub with carry, 6 moves, 6 cmov, 3 paired stores; latency
// ~14 cycles against ~40 for a mispredicted branch.
template <>
CUZK_X86_KERNEL void add_mod<6>(uint64_t* r, const uint64_t* a, const uint64_t* b, const uint64_t* p) {
  uint64_t s0, s1, s2, s3, s4, s5, t0, t1, t2, t3;
  __m128i v, w;
  __asm__ volatile(
      "movq 0(%[a]), %[s0]\n\t"
      "movq 8(%[a]), %[s1]\n\t"
      "movq 16(%[a]), %[s2]\n\t"
      "movq 24(%[a]), %[s3]\n\t"
      "movq 32(%[a]), %[s4]\n\t"
      "movq 40(%[a]), %[s5]\n\t"
      "addq 0(%[b]), %[s0]\n\t"
      "adcq 8(%[b]), %[s1]\n\t"
      "adcq 16(%[b]), %[s2]\n\t"
      "adcq 24(%[b]), %[s3]\n\t"
      "adcq 32(%[b]), %[s4]\n\t"
      "adcq 40(%[b]), %[s5]\n\t"
      "movq %[s0], %[t0]\n\t"
      "subq 0(%[p]), %[t0]\n\t"
      "movq %[s1], %[t1]\n\t"
      "sbbq 8(%[p]), %[t1]\n\t"
      "movq %[s2], %[t2]\n\t"
      "sbbq 16(%[p]), %[t2]\n\t"
      "movq %[s3], %[t3]\n\t"
      "sbbq 24(%[p]), %[t3]\n\t"
      "movq %[s4], %[a]\n\t"
      "sbbq 32(%[p]), %[a]\n\t"
      "movq %[s5], %[b]\n\t"
      "sbbq 40(%[p]), %[b]\n\t"
      "cmovcq %[s0], %[t0]\n\t"
      "cmovcq %[s1], %[t1]\n\t"
      "cmovcq %[s2], %[t2]\n\t"
      "cmovcq %[s3], %[t3]\n\t"
      "cmovcq %[s4], %[a]\n\t"
      "cmovcq %[s5], %[b]\n\t"
      "movq %[rp], %[s0]\n\t"
      CUZK_STORE2(t0, t1, "(%[s0])")
      CUZK_STORE2(t2, t3, "16(%[s0])")
      CUZK_STORE2(a, b, "32(%[s0])")
      : [s0] "=&r"(s0), [s1] "=&r"(s1), [s2] "=&r"(s2), [s3] "=&r"(s3), [s4] "=&r"(s4), [s5] "=&r"(s5), [t0] "=&r"(t0), [t1] "=&r"(t1), [t2] "=&r"(t2), [t3] "=&r"(t3),
        [a] "+&r"(a), [b] "+&r"(b), [v] "=&x"(v), [w] "=&x"(w)
      : [p] "r"(p), [rp] "rm"(r)
      : "cc", "memory");
}

template <>
CUZK_X86_KERNEL void sub_mod<6>(uint64_t* r, const uint64_t* a, const uint64_t* b, const uint64_t* p) {
  uint64_t s0, s1, s2, s3, s4, s5, t0, t1, t2, t3;
  __m128i v, w;
  __asm__ volatile(
      "movq 0(%[a]), %[s0]\n\t"
      "movq 8(%[a]), %[s1]\n\t"
      "movq 16(%[a]), %[s2]\n\t"
      "movq 24(%[a]), %[s3]\n\t"
      "movq 32(%[a]), %[s4]\n\t"
      "movq 40(%[a]), %[s5]\n\t"
      "subq 0(%[b]), %[s0]\n\t"
      "sbbq 8(%[b]), %[s1]\n\t"
      "sbbq 16(%[b]), %[s2]\n\t"
      "sbbq 24(%[b]), %[s3]\n\t"
      "sbbq 32(%[b]), %[s4]\n\t"
      "sbbq 40(%[b]), %[s5]\n\t"
      "movq %[s0], %[t0]\n\t"
      "addq 0(%[p]), %[t0]\n\t"
      "movq %[s1], %[t1]\n\t"
      "adcq 8(%[p]), %[t1]\n\t"
      "movq %[s2], %[t2]\n\t"
      "adcq 16(%[p]), %[t2]\n\t"
      "movq %[s3], %[t3]\n\t"
      "adcq 24(%[p]), %[t3]\n\t"
      "movq %[s4], %[a]\n\t"
      "adcq 32(%[p]), %[a]\n\t"
      "movq %[s5], %[b]\n\t"
      "adcq 40(%[p]), %[b]\n\t"
      "cmovncq %[s0], %[t0]\n\t"
      "cmovncq %[s1], %[t1]\n\t"
      "cmovncq %[s2], %[t2]\n\t"
      "cmovncq %[s3], %[t3]\n\t"
      "cmovncq %[s4], %[a]\n\t"
      "cmovncq %[s5], %[b]\n\t"
      "movq %[rp], %[s0]\n\t"
      CUZK_STORE2(t0, t1, "(%[s0])")
      CUZK_STORE2(t2, t3, "16(%[s0])")
      CUZK_STORE2(a, b, "32(%[s0])")
      : [s0] "=&r"(s0), [s1] "=&r"(s1), [s2] "=&r"(s2), [s3] "=&r"(s3), [s4] "=&r"(s4), [s5] "=&r"(s5), [t0] "=&r"(t0), [t1] "=&r"(t1), [t2] "=&r"(t2), [t3] "=&r"(t3),
        [a] "+&r"(a), [b] "+&r"(b), [v] "=&x"(v), [w] "=&x"(w)
      : [p] "r"(p), [rp] "rm"(r)
      : "cc", "memory");
}

template <>
CUZK_X86_KERNEL void neg_mod<6>(uint64_t* r, const uint64_t* a, const uint64_t* p) {
  uint64_t s0, s1, s2, s3, s4, s5, z;
  __m128i v, w;
  __asm__ volatile(
      "movq 0(%[p]), %[s0]\n\t"
      "subq 0(%[a]), %[s0]\n\t"
      "movq 8(%[p]), %[s1]\n\t"
      "sbbq 8(%[a]), %[s1]\n\t"
      "movq 16(%[p]), %[s2]\n\t"
      "sbbq 16(%[a]), %[s2]\n\t"
      "movq 24(%[p]), %[s3]\n\t"
      "sbbq 24(%[a]), %[s3]\n\t"
      "movq 32(%[p]), %[s4]\n\t"
      "sbbq 32(%[a]), %[s4]\n\t"
      "movq 40(%[p]), %[s5]\n\t"
      "sbbq 40(%[a]), %[s5]\n\t"
      "movq (%[a]), %[z]\n\t"
      "orq 8(%[a]), %[z]\n\t"
      "orq 16(%[a]), %[z]\n\t"
      "orq 24(%[a]), %[z]\n\t"
      "orq 32(%[a]), %[z]\n\t"
      "orq 40(%[a]), %[z]\n\t"
      "cmovzq %[z], %[s0]\n\t"
      "cmovzq %[z], %[s1]\n\t"
      "cmovzq %[z], %[s2]\n\t"
      "cmovzq %[z], %[s3]\n\t"
      "cmovzq %[z], %[s4]\n\t"
      "cmovzq %[z], %[s5]\n\t"
      "movq %[rp], %[a]\n\t"
      CUZK_STORE2(s0, s1, "(%[a])")
      CUZK_STORE2(s2, s3, "16(%[a])")
      CUZK_STORE2(s4, s5, "32(%[a])")
      : [s0] "=&r"(s0), [s1] "=&r"(s1), [s2] "=&r"(s2), [s3] "=&r"(s3), [s4] "=&r"(s4), [s5] "=&r"(s5), [z] "=&r"(z), [a] "+&r"(a), [v] "=&x"(v), [w] "=&x"(w)
      : [p] "r"(p), [rp] "rm"(r)
      : "cc", "memory");
}

// N = 4 (Fr, the NTT's field): the same selects with the result returned in registers and
// no memory clobber (the operands the asm reads are declared as memory inputs), so the
// compiler keeps butterfly values in registers between operations; measured on the NTT this
// beats the store-through-memory form above (which the 6-limb versions keep: there, 12 value
// registers leave none to spare, and the 16-byte stores avoid store-forwarding stalls).
template <>
CUZK_X86_KERNEL void add_mod<4>(uint64_t* r, const uint64_t* a, const uint64_t* b, const uint64_t* p) {
  uint64_t s0 = a[0], s1 = a[1], s2 = a[2], s3 = a[3], t0, t1, t2, t3;
  __asm__(
      "addq 0(%[b]), %[s0]\n\t"
      "adcq 8(%[b]), %[s1]\n\t"
      "adcq 16(%[b]), %[s2]\n\t"
      "adcq 24(%[b]), %[s3]\n\t"
      "movq %[s0], %[t0]\n\t"
      "subq 0(%[p]), %[t0]\n\t"
      "movq %[s1], %[t1]\n\t"
      "sbbq 8(%[p]), %[t1]\n\t"
      "movq %[s2], %[t2]\n\t"
      "sbbq 16(%[p]), %[t2]\n\t"
      "movq %[s3], %[t3]\n\t"
      "sbbq 24(%[p]), %[t3]\n\t"
      "cmovcq %[s0], %[t0]\n\t"
      "cmovcq %[s1], %[t1]\n\t"
      "cmovcq %[s2], %[t2]\n\t"
      "cmovcq %[s3], %[t3]\n\t"
      : [s0] "+&r"(s0), [s1] "+&r"(s1), [s2] "+&r"(s2), [s3] "+&r"(s3), [t0] "=&r"(t0), [t1] "=&r"(t1),
        [t2] "=&r"(t2), [t3] "=&r"(t3)
      : [b] "r"(b), [p] "r"(p), "m"(*reinterpret_cast<const uint64_t(*)[4]>(b)),
        "m"(*reinterpret_cast<const uint64_t(*)[4]>(p))
      : "cc");
  r[0] = t0, r[1] = t1, r[2] = t2, r[3] = t3;
}

template <>
CUZK_X86_KERNEL void sub_mod<4>(uint64_t* r, const uint64_t* a, const uint64_t* b, const uint64_t* p) {
  uint64_t s0 = a[0], s1 = a[1], s2 = a[2], s3 = a[3], t0, t1, t2, t3;
  __asm__(
      "subq 0(%[b]), %[s0]\n\t"
      "sbbq 8(%[b]), %[s1]\n\t"
      "sbbq 16(%[b]), %[s2]\n\t"
      "sbbq 24(%[b]), %[s3]\n\t"
      "movq %[s0], %[t0]\n\t"
      "addq 0(%[p]), %[t0]\n\t"
      "movq %[s1], %[t1]\n\t"
      "adcq 8(%[p]), %[t1]\n\t"
      "movq %[s2], %[t2]\n\t"
      "adcq 16(%[p]), %[t2]\n\t"
      "movq %[s3], %[t3]\n\t"
      "adcq 24(%[p]), %[t3]\n\t"
      "cmovncq %[s0], %[t0]\n\t"
      "cmovncq %[s1], %[t1]\n\t"
      "cmovncq %[s2], %[t2]\n\t"
      "cmovncq %[s3], %[t3]\n\t"
      : [s0] "+&r"(s0), [s1] "+&r"(s1), [s2] "+&r"(s2), [s3] "+&r"(s3), [t0] "=&r"(t0), [t1] "=&r"(t1),
        [t2] "=&r"(t2), [t3] "=&r"(t3)
      : [b] "r"(b), [p] "r"(p), "m"(*reinterpret_cast<const uint64_t(*)[4]>(b)),
        "m"(*reinterpret_cast<const uint64_t(*)[4]>(p))
      : "cc");
  r[0] = t0, r[1] = t1, r[2] = t2, r[3] = t3;
}

template <>
CUZK_X86_KERNEL void neg_mod<4>(uint64_t* r, const uint64_t* a, const uint64_t* p) {
  uint64_t s0 = p[0], s1 = p[1], s2 = p[2], s3 = p[3], z;
  __asm__(
      "subq (%[a]), %[s0]\n\t"
      "sbbq 8(%[a]), %[s1]\n\t"
      "sbbq 16(%[a]), %[s2]\n\t"
      "sbbq 24(%[a]), %[s3]\n\t"
      "movq (%[a]), %[z]\n\t"
      "orq 8(%[a]), %[z]\n\t"
      "orq 16(%[a]), %[z]\n\t"
      "orq 24(%[a]), %[z]\n\t"
      "cmovzq %[z], %[s0]\n\t"
      "cmovzq %[z], %[s1]\n\t"
      "cmovzq %[z], %[s2]\n\t"
      "cmovzq %[z], %[s3]\n\t"
      : [s0] "+&r"(s0), [s1] "+&r"(s1), [s2] "+&r"(s2), [s3] "+&r"(s3), [z] "=&r"(z)
      : [a] "r"(a), "m"(*reinterpret_cast<const uint64_t(*)[4]>(a))
      : "cc");
  r[0] = s0, r[1] = s1, r[2] = s2, r[3] = s3;
}

// --- lazy-reduction building blocks (see the declarations) ---------------------------------------
// Schoolbook 6x6 -> 12-word product: row 0 with one carry chain, rows 1..5 with the two ADX
// chains (lo(a_j b_i) -> word i+j on CF, hi -> word i+j+1 on OF) on a rotating 7-register
// window; the lowest word of each row is final and is stored at once. 36 mulx.
template <>
CUZK_X86_KERNEL void mul_wide<6>(uint64_t* r, const uint64_t* a, const uint64_t* b) {
  uint64_t t0, t1, t2, t3, t4, t5, t6, lo, hi, rdx;
  __asm__ volatile(
      "movq (%[b]), %%rdx\n\t"
      "mulxq (%[a]), %[t0], %[t1]\n\t"
      "mulxq 8(%[a]), %[lo], %[t2]\n\t"
      "addq %[lo], %[t1]\n\t"
      "mulxq 16(%[a]), %[lo], %[t3]\n\t"
      "adcq %[lo], %[t2]\n\t"
      "mulxq 24(%[a]), %[lo], %[t4]\n\t"
      "adcq %[lo], %[t3]\n\t"
      "mulxq 32(%[a]), %[lo], %[t5]\n\t"
      "adcq %[lo], %[t4]\n\t"
      "mulxq 40(%[a]), %[lo], %[t6]\n\t"
      "adcq %[lo], %[t5]\n\t"
      "adcq $0, %[t6]\n\t"
      "movq %[t0], (%[r])\n\t"
      "movq 8(%[b]), %%rdx\n\t"
      "xorl %k[t0], %k[t0]\n\t"
      "mulxq 0(%[a]), %[lo], %[hi]\n\t"
      "adcxq %[lo], %[t1]\n\t"
      "adoxq %[hi], %[t2]\n\t"
      "mulxq 8(%[a]), %[lo], %[hi]\n\t"
      "adcxq %[lo], %[t2]\n\t"
      "adoxq %[hi], %[t3]\n\t"
      "mulxq 16(%[a]), %[lo], %[hi]\n\t"
      "adcxq %[lo], %[t3]\n\t"
      "adoxq %[hi], %[t4]\n\t"
      "mulxq 24(%[a]), %[lo], %[hi]\n\t"
      "adcxq %[lo], %[t4]\n\t"
      "adoxq %[hi], %[t5]\n\t"
      "mulxq 32(%[a]), %[lo], %[hi]\n\t"
      "adcxq %[lo], %[t5]\n\t"
      "adoxq %[hi], %[t6]\n\t"
      "mulxq 40(%[a]), %[lo], %[hi]\n\t"
      "adcxq %[lo], %[t6]\n\t"
      "adoxq %[hi], %[t0]\n\t"
      "adcq $0, %[t0]\n\t"
      "movq %[t1], 8(%[r])\n\t"
      "movq 16(%[b]), %%rdx\n\t"
      "xorl %k[t1], %k[t1]\n\t"
      "mulxq 0(%[a]), %[lo], %[hi]\n\t"
      "adcxq %[lo], %[t2]\n\t"
      "adoxq %[hi], %[t3]\n\t"
      "mulxq 8(%[a]), %[lo], %[hi]\n\t"
      "adcxq %[lo], %[t3]\n\t"
      "adoxq %[hi], %[t4]\n\t"
      "mulxq 16(%[a]), %[lo], %[hi]\n\t"
      "adcxq %[lo], %[t4]\n\t"
      "adoxq %[hi], %[t5]\n\t"
      "mulxq 24(%[a]), %[lo], %[hi]\n\t"
      "adcxq %[lo], %[t5]\n\t"
      "adoxq %[hi], %[t6]\n\t"
      "mulxq 32(%[a]), %[lo], %[hi]\n\t"
      "adcxq %[lo], %[t6]\n\t"
      "adoxq %[hi], %[t0]\n\t"
      "mulxq 40(%[a]), %[lo], %[hi]\n\t"
      "adcxq %[lo], %[t0]\n\t"
      "adoxq %[hi], %[t1]\n\t"
      "adcq $0, %[t1]\n\t"
      "movq %[t2], 16(%[r])\n\t"
      "movq 24(%[b]), %%rdx\n\t"
      "xorl %k[t2], %k[t2]\n\t"
      "mulxq 0(%[a]), %[lo], %[hi]\n\t"
      "adcxq %[lo], %[t3]\n\t"
      "adoxq %[hi], %[t4]\n\t"
      "mulxq 8(%[a]), %[lo], %[hi]\n\t"
      "adcxq %[lo], %[t4]\n\t"
      "adoxq %[hi], %[t5]\n\t"
      "mulxq 16(%[a]), %[lo], %[hi]\n\t"
      "adcxq %[lo], %[t5]\n\t"
      "adoxq %[hi], %[t6]\n\t"
      "mulxq 24(%[a]), %[lo], %[hi]\n\t"
      "adcxq %[lo], %[t6]\n\t"
      "adoxq %[hi], %[t0]\n\t"
      "mulxq 32(%[a]), %[lo], %[hi]\n\t"
      "adcxq %[lo], %[t0]\n\t"
      "adoxq %[hi], %[t1]\n\t"
      "mulxq 40(%[a]), %[lo], %[hi]\n\t"
      "adcxq %[lo], %[t1]\n\t"
      "adoxq %[hi], %[t2]\n\t"
      "adcq $0, %[t2]\n\t"
      "movq %[t3], 24(%[r])\n\t"
      "movq 32(%[b]), %%rdx\n\t"
      "xorl %k[t3], %k[t3]\n\t"
      "mulxq 0(%[a]), %[lo], %[hi]\n\t"
      "adcxq %[lo], %[t4]\n\t"
      "adoxq %[hi], %[t5]\n\t"
      "mulxq 8(%[a]), %[lo], %[hi]\n\t"
      "adcxq %[lo], %[t5]\n\t"
      "adoxq %[hi], %[t6]\n\t"
      "mulxq 16(%[a]), %[lo], %[hi]\n\t"
      "adcxq %[lo], %[t6]\n\t"
      "adoxq %[hi], %[t0]\n\t"
      "mulxq 24(%[a]), %[lo], %[hi]\n\t"
      "adcxq %[lo], %[t0]\n\t"
      "adoxq %[hi], %[t1]\n\t"
      "mulxq 32(%[a]), %[lo], %[hi]\n\t"
      "adcxq %[lo], %[t1]\n\t"
      "adoxq %[hi], %[t2]\n\t"
      "mulxq 40(%[a]), %[lo], %[hi]\n\t"
      "adcxq %[lo], %[t2]\n\t"
      "adoxq %[hi], %[t3]\n\t"
      "adcq $0, %[t3]\n\t"
      "movq %[t4], 32(%[r])\n\t"
      "movq 40(%[b]), %%rdx\n\t"
      "xorl %k[t4], %k[t4]\n\t"
      "mulxq 0(%[a]), %[lo], %[hi]\n\t"
      "adcxq %[lo], %[t5]\n\t"
      "adoxq %[hi], %[t6]\n\t"
      "mulxq 8(%[a]), %[lo], %[hi]\n\t"
      "adcxq %[lo], %[t6]\n\t"
      "adoxq %[hi], %[t0]\n\t"
      "mulxq 16(%[a]), %[lo], %[hi]\n\t"
      "adcxq %[lo], %[t0]\n\t"
      "adoxq %[hi], %[t1]\n\t"
      "mulxq 24(%[a]), %[lo], %[hi]\n\t"
      "adcxq %[lo], %[t1]\n\t"
      "adoxq %[hi], %[t2]\n\t"
      "mulxq 32(%[a]), %[lo], %[hi]\n\t"
      "adcxq %[lo], %[t2]\n\t"
      "adoxq %[hi], %[t3]\n\t"
      "mulxq 40(%[a]), %[lo], %[hi]\n\t"
      "adcxq %[lo], %[t3]\n\t"
      "adoxq %[hi], %[t4]\n\t"
      "adcq $0, %[t4]\n\t"
      "movq %[t5], 40(%[r])\n\t"
      "movq %[t6], 48(%[r])\n\t"
      "movq %[t0], 56(%[r])\n\t"
      "movq %[t1], 64(%[r])\n\t"
      "movq %[t2], 72(%[r])\n\t"
      "movq %[t3], 80(%[r])\n\t"
      "movq %[t4], 88(%[r])\n\t"
      : [t0] "=&r"(t0), [t1] "=&r"(t1), [t2] "=&r"(t2), [t3] "=&r"(t3), [t4] "=&r"(t4), [t5] "=&r"(t5),
        [t6] "=&r"(t6), [lo] "=&r"(lo), [hi] "=&r"(hi), "=&d"(rdx)
      : [a] "r"(a), [b] "r"(b), [r] "r"(r)
      : "cc", "memory");
}

// Montgomery reduction of t < p R (2N words): six rows of m = w0 n0, w = (w + m p) / 2^64 on a
// rotating six-register window (each row's top word is hi(m p5) plus the two chains' carries;
// (w + m p) / 2^64 < 2^320 + p fits six words), then + t's upper half (< 2p in all), then
// one conditional subtraction. 36 mulx.
template <>
CUZK_X86_KERNEL void redc<6>(uint64_t* r, const uint64_t* t, const uint64_t* p, uint64_t n0) {
  uint64_t w0, w1, w2, w3, w4, w5, lo, hi, rdx, s0, s1;
  __m128i v, w;
  const uint64_t n0m = n0;
  __asm__ volatile(
      "movq 0(%[t]), %[w0]\n\t"
      "movq 8(%[t]), %[w1]\n\t"
      "movq 16(%[t]), %[w2]\n\t"
      "movq 24(%[t]), %[w3]\n\t"
      "movq 32(%[t]), %[w4]\n\t"
      "movq 40(%[t]), %[w5]\n\t"
      "movq %[w0], %%rdx\n\t"
      "imulq %[n0], %%rdx\n\t"
      "xorl %k[lo], %k[lo]\n\t"
      "mulxq 0(%[p]), %[lo], %[hi]\n\t"
      "adcxq %[lo], %[w0]\n\t"
      "adoxq %[hi], %[w1]\n\t"
      "mulxq 8(%[p]), %[lo], %[hi]\n\t"
      "adcxq %[lo], %[w1]\n\t"
      "adoxq %[hi], %[w2]\n\t"
      "mulxq 16(%[p]), %[lo], %[hi]\n\t"
      "adcxq %[lo], %[w2]\n\t"
      "adoxq %[hi], %[w3]\n\t"
      "mulxq 24(%[p]), %[lo], %[hi]\n\t"
      "adcxq %[lo], %[w3]\n\t"
      "adoxq %[hi], %[w4]\n\t"
      "mulxq 32(%[p]), %[lo], %[hi]\n\t"
      "adcxq %[lo], %[w4]\n\t"
      "adoxq %[hi], %[w5]\n\t"
      "mulxq 40(%[p]), %[lo], %[hi]\n\t"
      "adcxq %[lo], %[w5]\n\t"
      "adoxq %[w0], %[hi]\n\t"
      "adcxq %[w0], %[hi]\n\t"
      "movq %[hi], %[w0]\n\t"
      "movq %[w1], %%rdx\n\t"
      "imulq %[n0], %%rdx\n\t"
      "xorl %k[lo], %k[lo]\n\t"
      "mulxq 0(%[p]), %[lo], %[hi]\n\t"
      "adcxq %[lo], %[w1]\n\t"
      "adoxq %[hi], %[w2]\n\t"
      "mulxq 8(%[p]), %[lo], %[hi]\n\t"
      "adcxq %[lo], %[w2]\n\t"
      "adoxq %[hi], %[w3]\n\t"
      "mulxq 16(%[p]), %[lo], %[hi]\n\t"
      "adcxq %[lo], %[w3]\n\t"
      "adoxq %[hi], %[w4]\n\t"
      "mulxq 24(%[p]), %[lo], %[hi]\n\t"
      "adcxq %[lo], %[w4]\n\t"
      "adoxq %[hi], %[w5]\n\t"
      "mulxq 32(%[p]), %[lo], %[hi]\n\t"
      "adcxq %[lo], %[w5]\n\t"
      "adoxq %[hi], %[w0]\n\t"
      "mulxq 40(%[p]), %[lo], %[hi]\n\t"
      "adcxq %[lo], %[w0]\n\t"
      "adoxq %[w1], %[hi]\n\t"
      "adcxq %[w1], %[hi]\n\t"
      "movq %[hi], %[w1]\n\t"
      "movq %[w2], %%rdx\n\t"
      "imulq %[n0], %%rdx\n\t"
      "xorl %k[lo], %k[lo]\n\t"
      "mulxq 0(%[p]), %[lo], %[hi]\n\t"
      "adcxq %[lo], %[w2]\n\t"
      "adoxq %[hi], %[w3]\n\t"
      "mulxq 8(%[p]), %[lo], %[hi]\n\t"
      "adcxq %[lo], %[w3]\n\t"
      "adoxq %[hi], %[w4]\n\t"
      "mulxq 16(%[p]), %[lo], %[hi]\n\t"
      "adcxq %[lo], %[w4]\n\t"
      "adoxq %[hi], %[w5]\n\t"
      "mulxq 24(%[p]), %[lo], %[hi]\n\t"
      "adcxq %[lo], %[w5]\n\t"
      "adoxq %[hi], %[w0]\n\t"
      "mulxq 32(%[p]), %[lo], %[hi]\n\t"
      "adcxq %[lo], %[w0]\n\t"
      "adoxq %[hi], %[w1]\n\t"
      "mulxq 40(%[p]), %[lo], %[hi]\n\t"
      "adcxq %[lo], %[w1]\n\t"
      "adoxq %[w2], %[hi]\n\t"
      "adcxq %[w2], %[hi]\n\t"
      "movq %[hi], %[w2]\n\t"
      "movq %[w3], %%rdx\n\t"
      "imulq %[n0], %%rdx\n\t"
      "xorl %k[lo], %k[lo]\n\t"
      "mulxq 0(%[p]), %[lo], %[hi]\n\t"
      "adcxq %[lo], %[w3]\n\t"
      "adoxq %[hi], %[w4]\n\t"
      "mulxq 8(%[p]), %[lo], %[hi]\n\t"
      "adcxq %[lo], %[w4]\n\t"
      "adoxq %[hi], %[w5]\n\t"
      "mulxq 16(%[p]), %[lo], %[hi]\n\t"
      "adcxq %[lo], %[w5]\n\t"
      "adoxq %[hi], %[w0]\n\t"
      "mulxq 24(%[p]), %[lo], %[hi]\n\t"
      "adcxq %[lo], %[w0]\n\t"
      "adoxq %[hi], %[w1]\n\t"
      "mulxq 32(%[p]), %[lo], %[hi]\n\t"
      "adcxq %[lo], %[w1]\n\t"
      "adoxq %[hi], %[w2]\n\t"
      "mulxq 40(%[p]), %[lo], %[hi]\n\t"
      "adcxq %[lo], %[w2]\n\t"
      "adoxq %[w3], %[hi]\n\t"
      "adcxq %[w3], %[hi]\n\t"
      "movq %[hi], %[w3]\n\t"
      "movq %[w4], %%rdx\n\t"
      "imulq %[n0], %%rdx\n\t"
      "xorl %k[lo], %k[lo]\n\t"
      "mulxq 0(%[p]), %[lo], %[hi]\n\t"
      "adcxq %[lo], %[w4]\n\t"
      "adoxq %[hi], %[w5]\n\t"
      "mulxq 8(%[p]), %[lo], %[hi]\n\t"
      "adcxq %[lo], %[w5]\n\t"
      "adoxq %[hi], %[w0]\n\t"
      "mulxq 16(%[p]), %[lo], %[hi]\n\t"
      "adcxq %[lo], %[w0]\n\t"
      "adoxq %[hi], %[w1]\n\t"
      "mulxq 24(%[p]), %[lo], %[hi]\n\t"
      "adcxq %[lo], %[w1]\n\t"
      "adoxq %[hi], %[w2]\n\t"
      "mulxq 32(%[p]), %[lo], %[hi]\n\t"
      "adcxq %[lo], %[w2]\n\t"
      "adoxq %[hi], %[w3]\n\t"
      "mulxq 40(%[p]), %[lo], %[hi]\n\t"
      "adcxq %[lo], %[w3]\n\t"
      "adoxq %[w4], %[hi]\n\t"
      "adcxq %[w4], %[hi]\n\t"
      "movq %[hi], %[w4]\n\t"
      "movq %[w5], %%rdx\n\t"
      "imulq %[n0], %%rdx\n\t"
      "xorl %k[lo], %k[lo]\n\t"
      "mulxq 0(%[p]), %[lo], %[hi]\n\t"
      "adcxq %[lo], %[w5]\n\t"
      "adoxq %[hi], %[w0]\n\t"
      "mulxq 8(%[p]), %[lo], %[hi]\n\t"
      "adcxq %[lo], %[w0]\n\t"
      "adoxq %[hi], %[w1]\n\t"
      "mulxq 16(%[p]), %[lo], %[hi]\n\t"
      "adcxq %[lo], %[w1]\n\t"
      "adoxq %[hi], %[w2]\n\t"
      "mulxq 24(%[p]), %[lo], %[hi]\n\t"
      "adcxq %[lo], %[w2]\n\t"
      "adoxq %[hi], %[w3]\n\t"
      "mulxq 32(%[p]), %[lo], %[hi]\n\t"
      "adcxq %[lo], %[w3]\n\t"
      "adoxq %[hi], %[w4]\n\t"
      "mulxq 40(%[p]), %[lo], %[hi]\n\t"
      "adcxq %[lo], %[w4]\n\t"
      "adoxq %[w5], %[hi]\n\t"
      "adcxq %[w5], %[hi]\n\t"
      "movq %[hi], %[w5]\n\t"
      "addq 48(%[t]), %[w0]\n\t"
      "adcq 56(%[t]), %[w1]\n\t"
      "adcq 64(%[t]), %[w2]\n\t"
      "adcq 72(%[t]), %[w3]\n\t"
      "adcq 80(%[t]), %[w4]\n\t"
      "adcq 88(%[t]), %[w5]\n\t"
      "movq %[w0], %[lo]\n\t"
      "subq 0(%[p]), %[lo]\n\t"
      "movq %[w1], %[hi]\n\t"
      "sbbq 8(%[p]), %[hi]\n\t"
      "movq %[w2], %%rdx\n\t"
      "sbbq 16(%[p]), %%rdx\n\t"
      "movq %[w3], %[t]\n\t"
      "sbbq 24(%[p]), %[t]\n\t"
      "movq %[w4], %[s0]\n\t"
      "sbbq 32(%[p]), %[s0]\n\t"
      "movq %[w5], %[s1]\n\t"
      "sbbq 40(%[p]), %[s1]\n\t"
      "cmovncq %[lo], %[w0]\n\t"
      "cmovncq %[hi], %[w1]\n\t"
      "cmovncq %%rdx, %[w2]\n\t"
      "cmovncq %[t], %[w3]\n\t"
      "cmovncq %[s0], %[w4]\n\t"
      "cmovncq %[s1], %[w5]\n\t"
      "movq %[rp], %[lo]\n\t"
      CUZK_STORE2(w0, w1, "(%[lo])")
      CUZK_STORE2(w2, w3, "16(%[lo])")
      CUZK_STORE2(w4, w5, "32(%[lo])")
      : [w0] "=&r"(w0), [w1] "=&r"(w1), [w2] "=&r"(w2), [w3] "=&r"(w3), [w4] "=&r"(w4), [w5] "=&r"(w5),
        [lo] "=&r"(lo), [hi] "=&r"(hi), "=&d"(rdx), [s0] "=&r"(s0), [s1] "=&r"(s1), [t] "+&r"(t),
        [v] "=&x"(v), [w] "=&x"(w)
      : [p] "r"(p), [n0] "m"(n0m), [rp] "rm"(r)
      : "cc", "memory");
}

// Carry chains through memory, one limb at a time (inputs and outputs stay in memory; r may
// alias a or b: every limb is loaded before it is stored).
template <>
CUZK_X86_KERNEL void add_nr<6>(uint64_t* r, const uint64_t* a, const uint64_t* b) {
  uint64_t x;
  __asm__ volatile(
      "movq 0(%[a]), %[x]\n\t"
      "addq 0(%[b]), %[x]\n\t"
      "movq %[x], 0(%[r])\n\t"
      "movq 8(%[a]), %[x]\n\t"
      "adcq 8(%[b]), %[x]\n\t"
      "movq %[x], 8(%[r])\n\t"
      "movq 16(%[a]), %[x]\n\t"
      "adcq 16(%[b]), %[x]\n\t"
      "movq %[x], 16(%[r])\n\t"
      "movq 24(%[a]), %[x]\n\t"
      "adcq 24(%[b]), %[x]\n\t"
      "movq %[x], 24(%[r])\n\t"
      "movq 32(%[a]), %[x]\n\t"
      "adcq 32(%[b]), %[x]\n\t"
      "movq %[x], 32(%[r])\n\t"
      "movq 40(%[a]), %[x]\n\t"
      "adcq 40(%[b]), %[x]\n\t"
      "movq %[x], 40(%[r])\n\t"
      : [x] "=&r"(x)
      : [a] "r"(a), [b] "r"(b), [r] "r"(r)
      : "cc", "memory");
}

template <>
CUZK_X86_KERNEL void add_wide<12>(uint64_t* r, const uint64_t* a, const uint64_t* b) {
  uint64_t x;
  __asm__ volatile(
      "movq 0(%[a]), %[x]\n\t"
      "addq 0(%[b]), %[x]\n\t"
      "movq %[x], 0(%[r])\n\t"
      "movq 8(%[a]), %[x]\n\t"
      "adcq 8(%[b]), %[x]\n\t"
      "movq %[x], 8(%[r])\n\t"
      "movq 16(%[a]), %[x]\n\t"
      "adcq 16(%[b]), %[x]\n\t"
      "movq %[x], 16(%[r])\n\t"
      "movq 24(%[a]), %[x]\n\t"
      "adcq 24(%[b]), %[x]\n\t"
      "movq %[x], 24(%[r])\n\t"
      "movq 32(%[a]), %[x]\n\t"
      "adcq 32(%[b]), %[x]\n\t"
      "movq %[x], 32(%[r])\n\t"
      "movq 40(%[a]), %[x]\n\t"
      "adcq 40(%[b]), %[x]\n\t"
      "movq %[x], 40(%[r])\n\t"
      "movq 48(%[a]), %[x]\n\t"
      "adcq 48(%[b]), %[x]\n\t"
      "movq %[x], 48(%[r])\n\t"
      "movq 56(%[a]), %[x]\n\t"
      "adcq 56(%[b]), %[x]\n\t"
      "movq %[x], 56(%[r])\n\t"
      "movq 64(%[a]), %[x]\n\t"
      "adcq 64(%[b]), %[x]\n\t"
      "movq %[x], 64(%[r])\n\t"
      "movq 72(%[a]), %[x]\n\t"
      "adcq 72(%[b]), %[x]\n\t"
      "movq %[x], 72(%[r])\n\t"
      "movq 80(%[a]), %[x]\n\t"
      "adcq 80(%[b]), %[x]\n\t"
      "movq %[x], 80(%[r])\n\t"
      "movq 88(%[a]), %[x]\n\t"
      "adcq 88(%[b]), %[x]\n\t"
      "movq %[x], 88(%[r])\n\t"
      : [x] "=&r"(x)
      : [a] "r"(a), [b] "r"(b), [r] "r"(r)
      : "cc", "memory");
}

template <>
CUZK_X86_KERNEL void sub_wide<12>(uint64_t* r, const uint64_t* a, const uint64_t* b) {
  uint64_t x;
  __asm__ volatile(
      "movq 0(%[a]), %[x]\n\t"
      "subq 0(%[b]), %[x]\n\t"
      "movq %[x], 0(%[r])\n\t"
      "movq 8(%[a]), %[x]\n\t"
      "sbbq 8(%[b]), %[x]\n\t"
      "movq %[x], 8(%[r])\n\t"
      "movq 16(%[a]), %[x]\n\t"
      "sbbq 16(%[b]), %[x]\n\t"
      "movq %[x], 16(%[r])\n\t"
      "movq 24(%[a]), %[x]\n\t"
      "sbbq 24(%[b]), %[x]\n\t"
      "movq %[x], 24(%[r])\n\t"
      "movq 32(%[a]), %[x]\n\t"
      "sbbq 32(%[b]), %[x]\n\t"
      "movq %[x], 32(%[r])\n\t"
      "movq 40(%[a]), %[x]\n\t"
      "sbbq 40(%[b]), %[x]\n\t"
      "movq %[x], 40(%[r])\n\t"
      "movq 48(%[a]), %[x]\n\t"
      "sbbq 48(%[b]), %[x]\n\t"
      "movq %[x], 48(%[r])\n\t"
      "movq 56(%[a]), %[x]\n\t"
      "sbbq 56(%[b]), %[x]\n\t"
      "movq %[x], 56(%[r])\n\t"
      "movq 64(%[a]), %[x]\n\t"
      "sbbq 64(%[b]), %[x]\n\t"
      "movq %[x], 64(%[r])\n\t"
      "movq 72(%[a]), %[x]\n\t"
      "sbbq 72(%[b]), %[x]\n\t"
      "movq %[x], 72(%[r])\n\t"
      "movq 80(%[a]), %[x]\n\t"
      "sbbq 80(%[b]), %[x]\n\t"
      "movq %[x], 80(%[r])\n\t"
      "movq 88(%[a]), %[x]\n\t"
      "sbbq 88(%[b]), %[x]\n\t"
      "movq %[x], 88(%[r])\n\t"
      : [x] "=&r"(x)
      : [a] "r"(a), [b] "r"(b), [r] "r"(r)
      : "cc", "memory");
}

#undef CUZK_R
#undef CUZK_X86_KERNEL
#undef CUZK_R32
#undef CUZK_MUL_FIRST4
#undef CUZK_MUL_FIRST6
#undef CUZK_MACX
#undef CUZK_ITER4
#undef CUZK_ITER6
#undef CUZK_REDUCE4
#undef CUZK_REDUCE6
#undef CUZK_FINAL4
#undef CUZK_FINAL6
#undef CUZK_STORE2

#endif  // CUZK_HAVE_X86_MONT

}  // namespace cuzk::ff::x86
