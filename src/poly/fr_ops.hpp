// Branch-free Fr addition and subtraction for the NTT inner loops (internal to poly).
// mont_field's add/sub reduce with a data-dependent branch, which random butterfly data
// mispredicts half the time (~15 cycles each, two per butterfly); here the reduction is
// selected with masks instead. Same results (fully reduced, 0 <= v < r). Cost: 8 add/sub with
// carry + 4 selects each.
#pragma once

#include <cstdint>

#include "ff/bls12_381.hpp"

#if defined(__x86_64__)
#include <x86intrin.h>  // _addcarry_u64 / _subborrow_u64: GCC keeps these in adc/sbb chains,
                        // where unsigned __int128 chains spill to the stack (GCC 12)
#endif

namespace cuzk::poly::detail {

using ff::fr;
using u128 = unsigned __int128;

// (sum, carry out) = a + b + carry_in, carry in {0, 1}.
inline uint64_t addc(uint64_t a, uint64_t b, unsigned char& carry) {
#if defined(__x86_64__)
  unsigned long long r;
  carry = _addcarry_u64(carry, a, b, &r);
  return r;
#else
  const u128 x = static_cast<u128>(a) + b + carry;
  carry = static_cast<unsigned char>(x >> 64);
  return static_cast<uint64_t>(x);
#endif
}

// (difference, borrow out) = a - b - borrow_in, borrow in {0, 1}.
inline uint64_t subb(uint64_t a, uint64_t b, unsigned char& borrow) {
#if defined(__x86_64__)
  unsigned long long r;
  borrow = _subborrow_u64(borrow, a, b, &r);
  return r;
#else
  const u128 x = static_cast<u128>(a) - b - borrow;
  borrow = static_cast<unsigned char>(x >> 127);
  return static_cast<uint64_t>(x);
#endif
}

inline fr add_nb(const fr& a, const fr& b) {
  static constexpr auto p = fr::modulus;
#if defined(__x86_64__)
  // GCC turns the portable select below into a branch (or SSE masks); force cmov.
  uint64_t s0 = a.v.w[0], s1 = a.v.w[1], s2 = a.v.w[2], s3 = a.v.w[3];
  uint64_t t0, t1, t2, t3;
  __asm__(
      "addq %[b0], %[s0]\n\t adcq %[b1], %[s1]\n\t adcq %[b2], %[s2]\n\t adcq %[b3], %[s3]\n\t"
      "movq %[s0], %[t0]\n\t movq %[s1], %[t1]\n\t movq %[s2], %[t2]\n\t movq %[s3], %[t3]\n\t"
      "subq %[p0], %[t0]\n\t sbbq %[p1], %[t1]\n\t sbbq %[p2], %[t2]\n\t sbbq %[p3], %[t3]\n\t"
      "cmovcq %[s0], %[t0]\n\t cmovcq %[s1], %[t1]\n\t cmovcq %[s2], %[t2]\n\t cmovcq %[s3], %[t3]"
      : [s0] "+&r"(s0), [s1] "+&r"(s1), [s2] "+&r"(s2), [s3] "+&r"(s3), [t0] "=&r"(t0), [t1] "=&r"(t1),
        [t2] "=&r"(t2), [t3] "=&r"(t3)
      : [b0] "m"(b.v.w[0]), [b1] "m"(b.v.w[1]), [b2] "m"(b.v.w[2]), [b3] "m"(b.v.w[3]), [p0] "m"(p.w[0]),
        [p1] "m"(p.w[1]), [p2] "m"(p.w[2]), [p3] "m"(p.w[3])
      : "cc");
  fr r;
  r.v.w[0] = t0, r.v.w[1] = t1, r.v.w[2] = t2, r.v.w[3] = t3;
  return r;
#else
  uint64_t s[4], t[4];
  unsigned char carry = 0, borrow = 0;
  for (int i = 0; i < 4; ++i) s[i] = addc(a.v.w[i], b.v.w[i], carry);  // < 2r < 2^256: no carry
  for (int i = 0; i < 4; ++i) t[i] = subb(s[i], p.w[i], borrow);        // s - r
  fr r;
  for (int i = 0; i < 4; ++i) r.v.w[i] = borrow ? s[i] : t[i];  // s < r: keep s
  return r;
#endif
}

inline fr sub_nb(const fr& a, const fr& b) {
  constexpr auto p = fr::modulus;
  uint64_t d[4];
  unsigned char borrow = 0, carry = 0;
  for (int i = 0; i < 4; ++i) d[i] = subb(a.v.w[i], b.v.w[i], borrow);
  const uint64_t mask = 0 - static_cast<uint64_t>(borrow);  // a < b: add r back
  fr r;
  for (int i = 0; i < 4; ++i) r.v.w[i] = addc(d[i], p.w[i] & mask, carry);
  return r;
}

}  // namespace cuzk::poly::detail
