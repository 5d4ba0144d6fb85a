// x86-64 Montgomery multiplication kernels for 4- and 6-limb moduli with one spare top bit
// (BLS12-381's Fr and Fp), in GCC extended inline assembly so they inline into the field code.
//
// Algorithm: the same carry-free CIOS as mont_field::mul_portable, fully unrolled, with BMI2
// mulx (flag-less 64x64->128 multiply) and the two independent ADX carry chains: in every row
// the low halves of the partial products ride the CF chain (adcx) into limb j while the high
// halves ride the OF chain (adox) into limb j+1, so the two chains interleave without
// serialising on one flag. Per row i (N multiplies for a*b[i], then N for m*p):
//   t += a * b[i]                 (t is N+1 words; the top word is small)
//   m  = t[0] * n0 mod 2^64;  t = (t + m*p) / 2^64
// Invariant t < 2p (inputs < p, p < 2^(64N-1)), so N+1 registers hold t and one conditional
// subtraction at the end gives the fully reduced result. Cost: 2N^2 mulx, 4N^2 + O(N) adds.
// The window of N+1 accumulator registers rotates by one each row (the word that the reduction
// zeroes becomes the next row's top word), so there are no register-to-register shifts.
//
// Registers (N = 6): 7 accumulators, lo, hi, rdx (mulx's implicit source), a, b, p pointers =
// 13, plus the output pointer (register or memory, compiler's choice) and n0 (memory): fits the
// 14 allocatable registers of a frame-pointer (-O0, sanitizer) build. The a and b pointer
// registers are declared read-write because the final conditional subtraction reuses them as
// scratch once the last row has read its operands. All stores happen after all loads, so r may
// alias a or b.
//
// Squaring uses the same kernel with b = a. A dedicated symmetric squaring (N(N-1)/2 + N
// products for the 2N-word square, then a separate N^2-product Montgomery reduction) saves 15
// of 72 mulx for N = 6 but needs the 12-word square in memory and serialises on the separate
// reduction; blst's sqrx_mont_384 makes the same choice (it calls its multiplication) and our
// measurement agrees (see bench/ff_bench.cpp and the report in the commit message).
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

#if CUZK_HAVE_X86_MONT

// Operand names are the macro arguments, so one macro serves every rotation of the window.
#define CUZK_R(x) "%[" #x "]"
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

// Row i > 0: t += a * b[i]. The top word (tN) is zero on entry: it is the word the previous
// reduction cleared. xor zeroes it again and clears CF and OF.
#define CUZK_MUL_ROW4(off, t0, t1, t2, t3, t4)                   \
  "movq " #off "(%[b]), %%rdx\n\t"                               \
  "xorl " CUZK_R32(t4) ", " CUZK_R32(t4) "\n\t"                  \
  CUZK_MACX("(%[a])", t0, t1)                                    \
  CUZK_MACX("8(%[a])", t1, t2)                                   \
  CUZK_MACX("16(%[a])", t2, t3)                                  \
  CUZK_MACX("24(%[a])", t3, t4)                                  \
  "adcq $0, " CUZK_R(t4) "\n\t"

#define CUZK_MUL_ROW6(off, t0, t1, t2, t3, t4, t5, t6)           \
  "movq " #off "(%[b]), %%rdx\n\t"                               \
  "xorl " CUZK_R32(t6) ", " CUZK_R32(t6) "\n\t"                  \
  CUZK_MACX("(%[a])", t0, t1)                                    \
  CUZK_MACX("8(%[a])", t1, t2)                                   \
  CUZK_MACX("16(%[a])", t2, t3)                                  \
  CUZK_MACX("24(%[a])", t3, t4)                                  \
  CUZK_MACX("32(%[a])", t4, t5)                                  \
  CUZK_MACX("40(%[a])", t5, t6)                                  \
  "adcq $0, " CUZK_R(t6) "\n\t"

// Reduction step: m = t0 * n0; t += m * p. Afterwards t0 == 0 and the window moves up by one.
// The OF chain ends in the top word without carry-out (t + m*p < 2^(64(N+1))); the CF chain's
// last carry goes in with adc.
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
  "movq " CUZK_R(s0) ", (%[lo])\n\t"                             \
  "movq " CUZK_R(s1) ", 8(%[lo])\n\t"                            \
  "movq " CUZK_R(s2) ", 16(%[lo])\n\t"                           \
  "movq " CUZK_R(s3) ", 24(%[lo])\n\t"

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
  "movq " CUZK_R(s0) ", (%[lo])\n\t"                             \
  "movq " CUZK_R(s1) ", 8(%[lo])\n\t"                            \
  "movq " CUZK_R(s2) ", 16(%[lo])\n\t"                           \
  "movq " CUZK_R(s3) ", 24(%[lo])\n\t"                           \
  "movq " CUZK_R(s4) ", 32(%[lo])\n\t"                           \
  "movq " CUZK_R(s5) ", 40(%[lo])\n\t"

template <>
inline void mont_mul<4>(uint64_t* r, const uint64_t* a, const uint64_t* b, const uint64_t* p,
                        uint64_t n0) {
  uint64_t t0, t1, t2, t3, t4, lo, hi, rdx;
  const uint64_t n0m = n0;  // memory operand for imul (saves a register)
  __asm__ volatile(
      CUZK_MUL_FIRST4(t0, t1, t2, t3, t4)
      CUZK_REDUCE4(t0, t1, t2, t3, t4)
      CUZK_MUL_ROW4(8, t1, t2, t3, t4, t0)
      CUZK_REDUCE4(t1, t2, t3, t4, t0)
      CUZK_MUL_ROW4(16, t2, t3, t4, t0, t1)
      CUZK_REDUCE4(t2, t3, t4, t0, t1)
      CUZK_MUL_ROW4(24, t3, t4, t0, t1, t2)
      CUZK_REDUCE4(t3, t4, t0, t1, t2)
      CUZK_FINAL4(t4, t0, t1, t2, t3)
      : [t0] "=&r"(t0), [t1] "=&r"(t1), [t2] "=&r"(t2), [t3] "=&r"(t3), [t4] "=&r"(t4),
        [lo] "=&r"(lo), [hi] "=&r"(hi), "=&d"(rdx), [a] "+&r"(a), [b] "+&r"(b)
      : [p] "r"(p), [n0] "m"(n0m), [rp] "rm"(r)
      : "cc", "memory");
}

template <>
inline void mont_mul<6>(uint64_t* r, const uint64_t* a, const uint64_t* b, const uint64_t* p,
                        uint64_t n0) {
  uint64_t t0, t1, t2, t3, t4, t5, t6, lo, hi, rdx;
  const uint64_t n0m = n0;  // memory operand for imul (saves a register)
  __asm__ volatile(
      CUZK_MUL_FIRST6(t0, t1, t2, t3, t4, t5, t6)
      CUZK_REDUCE6(t0, t1, t2, t3, t4, t5, t6)
      CUZK_MUL_ROW6(8, t1, t2, t3, t4, t5, t6, t0)
      CUZK_REDUCE6(t1, t2, t3, t4, t5, t6, t0)
      CUZK_MUL_ROW6(16, t2, t3, t4, t5, t6, t0, t1)
      CUZK_REDUCE6(t2, t3, t4, t5, t6, t0, t1)
      CUZK_MUL_ROW6(24, t3, t4, t5, t6, t0, t1, t2)
      CUZK_REDUCE6(t3, t4, t5, t6, t0, t1, t2)
      CUZK_MUL_ROW6(32, t4, t5, t6, t0, t1, t2, t3)
      CUZK_REDUCE6(t4, t5, t6, t0, t1, t2, t3)
      CUZK_MUL_ROW6(40, t5, t6, t0, t1, t2, t3, t4)
      CUZK_REDUCE6(t5, t6, t0, t1, t2, t3, t4)
      CUZK_FINAL6(t6, t0, t1, t2, t3, t4, t5)
      : [t0] "=&r"(t0), [t1] "=&r"(t1), [t2] "=&r"(t2), [t3] "=&r"(t3), [t4] "=&r"(t4),
        [t5] "=&r"(t5), [t6] "=&r"(t6), [lo] "=&r"(lo), [hi] "=&r"(hi), "=&d"(rdx),
        [a] "+&r"(a), [b] "+&r"(b)
      : [p] "r"(p), [n0] "m"(n0m), [rp] "rm"(r)
      : "cc", "memory");
}

template <>
inline void mont_sqr<4>(uint64_t* r, const uint64_t* a, const uint64_t* p, uint64_t n0) {
  mont_mul<4>(r, a, a, p, n0);
}

template <>
inline void mont_sqr<6>(uint64_t* r, const uint64_t* a, const uint64_t* p, uint64_t n0) {
  mont_mul<6>(r, a, a, p, n0);
}

#undef CUZK_R
#undef CUZK_R32
#undef CUZK_MUL_FIRST4
#undef CUZK_MUL_FIRST6
#undef CUZK_MACX
#undef CUZK_MUL_ROW4
#undef CUZK_MUL_ROW6
#undef CUZK_REDUCE4
#undef CUZK_REDUCE6
#undef CUZK_FINAL4
#undef CUZK_FINAL6

#endif  // CUZK_HAVE_X86_MONT

}  // namespace cuzk::ff::x86
