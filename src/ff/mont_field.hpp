// mont_field<Params>: a prime field in Montgomery form, for any odd modulus of N 64-bit limbs
// whose top limb leaves one bit spare (true for BLS12-381's Fp and Fr). Every Montgomery
// constant is computed constexpr from Params::modulus; bls12_381.hpp static_asserts them against
// published literals. The same code runs on the host and in CUDA device code (CUZK_HD); on
// x86-64 builds with BMI2+ADX, mul and square dispatch to the mulx/adcx/adox kernels of
// mont_x86.hpp, and mul_portable / square_portable stay callable so tests can compare them.
//
// Values are always fully reduced (0 <= v < p). Inverse of zero is defined as zero (callers
// that must reject zero check is_zero first); this makes batch inversion and projective
// normalisation total functions.
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "base/hd.hpp"
#include "ff/bigint.hpp"
#include "ff/mont_x86.hpp"
#include "ff/safegcd.hpp"

// Full unrolling of the fixed-trip limb loops. g++ 12 -O3 unrolls only the inner CIOS loop on its
// own; unrolling both makes mul_portable ~20% faster (Fp: 59 -> 48 ns, mulx code generation).
// nvcc's device pass takes `unroll`; its host pass accepts neither pragma without a warning
// (and host code in .cu files is not hot), so it gets none.
#if defined(__CUDA_ARCH__)
#define CUZK_FF_UNROLL _Pragma("unroll")
#elif defined(__CUDACC__)
#define CUZK_FF_UNROLL
#elif defined(__GNUC__) && !defined(__clang__)
#define CUZK_FF_UNROLL _Pragma("GCC unroll 16")
#else
#define CUZK_FF_UNROLL
#endif

namespace cuzk::ff {

namespace detail {

// -p^{-1} mod 2^64 by Newton iteration: x <- x(2 - p x) doubles the number of correct low
// bits; x = p is correct to 3 bits for odd p, so 5 steps give 96 >= 64 bits.
constexpr uint64_t mont_n0(uint64_t p0) {
  uint64_t x = p0;
  for (int i = 0; i < 5; ++i) x *= 2 - p0 * x;
  return ~x + 1;
}

// 2^k mod p by k modular doublings (k <= a few thousand: compile-time only).
template <std::size_t N>
constexpr bigint<N> pow2_mod(const bigint<N>& p, std::size_t k) {
  bigint<N> r = from_u64<N>(1);
  for (std::size_t i = 0; i < k; ++i) {
    uint64_t carry = add_in_place(r, r);
    if (carry || !less_than(r, p)) sub_in_place(r, p);
  }
  return r;
}

template <std::size_t N>
constexpr bigint<N> minus_u64(bigint<N> a, uint64_t v) {
  sub_in_place(a, from_u64<N>(v));
  return a;
}

template <std::size_t N>
constexpr bigint<N> plus_u64(bigint<N> a, uint64_t v) {
  add_in_place(a, from_u64<N>(v));
  return a;
}

}  // namespace detail

template <class F>
struct tonelli_shanks_data;

template <class Params>
class mont_field {
 public:
  static constexpr std::size_t N = decltype(Params::modulus)::limbs;
  using repr = bigint<N>;

  static constexpr repr modulus = Params::modulus;
  static constexpr std::size_t bits = bit_length(modulus);
  static constexpr std::size_t bytes = N * 8;  // canonical encoding length (48 for Fp, 32 for Fr)
  static constexpr uint64_t n0 = detail::mont_n0(modulus.w[0]);
  static constexpr repr r1 = detail::pow2_mod(modulus, 64 * N);       // R mod p = Montgomery 1
  static constexpr repr r2 = detail::pow2_mod(modulus, 2 * 64 * N);   // R^2 mod p
  static constexpr repr r3 = detail::pow2_mod(modulus, 3 * 64 * N);   // R^3 mod p (inversion)

  static_assert(modulus.w[0] & 1, "Montgomery form needs an odd modulus");
  // The carry-free CIOS multiplication and the carry-free addition need the top limb below
  // 2^63 - 1 (one spare bit): then a + b < 2p < 2^(64N) and the CIOS accumulator fits N limbs.
  static_assert(modulus.w[N - 1] < (~uint64_t{0} >> 1) - 1, "needs one spare top bit");

  repr v;  // a * R mod p

  // --- construction -----------------------------------------------------------------------
  CUZK_HD_CONSTEXPR static mont_field zero() { return mont_field{}; }
  CUZK_HD_CONSTEXPR static mont_field one() {
    constexpr repr m = r1;
    return from_montgomery_repr(m);
  }
  CUZK_HD_CONSTEXPR static mont_field from_montgomery_repr(const repr& m) {
    mont_field f;
    f.v = m;
    return f;
  }
  // x must be < p (canonical); use from_canonical_checked for untrusted input.
  CUZK_HD_CONSTEXPR static mont_field from_canonical(const repr& x) {
    constexpr repr m = r2;
    return mul(from_montgomery_repr(x), from_montgomery_repr(m));
  }
  CUZK_HD_CONSTEXPR static bool from_canonical_checked(const repr& x, mont_field& out) {
    constexpr repr p = modulus;
    if (!less_than(x, p)) return false;
    out = from_canonical(x);
    return true;
  }
  CUZK_HD_CONSTEXPR static mont_field from_u64(uint64_t x) { return from_canonical(ff::from_u64<N>(x)); }
  constexpr static mont_field from_hex(std::string_view s) {
    repr x = hex<N>(s);
    if (!less_than(x, modulus)) throw "mont_field::from_hex: value >= modulus";
    return from_canonical(x);
  }

  // The integer in [0, p) this element stands for (one Montgomery reduction: a multiply by 1).
  CUZK_HD_CONSTEXPR repr to_canonical() const { return mul(*this, from_montgomery_repr(ff::from_u64<N>(1))).v; }

  // --- predicates -------------------------------------------------------------------------
  CUZK_HD_CONSTEXPR bool is_zero() const { return ff::is_zero(v); }
  CUZK_HD_CONSTEXPR bool is_one() const {
    constexpr repr m = r1;
    return v == m;
  }
  CUZK_HD_CONSTEXPR bool operator==(const mont_field& o) const { return v == o.v; }
  CUZK_HD_CONSTEXPR bool operator!=(const mont_field& o) const { return !(v == o.v); }
  // Zcash's "lexicographically largest": canonical value > (p-1)/2.
  CUZK_HD_CONSTEXPR bool is_lexicographically_largest() const {
    constexpr repr h = half_modulus;
    return less_than(h, to_canonical());
  }

  // --- ring operations ----------------------------------------------------------------------
  // add/sub/neg dispatch like mul: the x86 kernels (branch-free, cmov) at run time on the
  // host, the portable versions (mask selects, no data-dependent branch either) in constant
  // expressions and device code; *_portable stay callable so tests can compare the two.
  CUZK_HD_CONSTEXPR static mont_field add(const mont_field& a, const mont_field& b) {
#if CUZK_HAVE_X86_MONT && !CUZK_DEVICE_CODE
    if (!std::is_constant_evaluated()) {
      if constexpr (x86::has_kernel<N>) {
        mont_field r;
        x86::add_mod<N>(r.v.w, a.v.w, b.v.w, modulus.w);
        return r;
      }
    }
#endif
    return add_portable(a, b);
  }
  CUZK_HD_CONSTEXPR static mont_field sub(const mont_field& a, const mont_field& b) {
#if CUZK_HAVE_X86_MONT && !CUZK_DEVICE_CODE
    if (!std::is_constant_evaluated()) {
      if constexpr (x86::has_kernel<N>) {
        mont_field r;
        x86::sub_mod<N>(r.v.w, a.v.w, b.v.w, modulus.w);
        return r;
      }
    }
#endif
    return sub_portable(a, b);
  }
  CUZK_HD_CONSTEXPR static mont_field neg(const mont_field& a) {
#if CUZK_HAVE_X86_MONT && !CUZK_DEVICE_CODE
    if (!std::is_constant_evaluated()) {
      if constexpr (x86::has_kernel<N>) {
        mont_field r;
        x86::neg_mod<N>(r.v.w, a.v.w, modulus.w);
        return r;
      }
    }
#endif
    return neg_portable(a);
  }
  CUZK_HD_CONSTEXPR static mont_field dbl(const mont_field& a) { return add(a, a); }
  CUZK_HD_CONSTEXPR mont_field dbl() const { return add(*this, *this); }
  CUZK_HD_CONSTEXPR mont_field square() const { return square(*this); }

  // a + b: s = a + b (< 2p: no carry out, one spare bit), t = s - p, keep s if t borrowed.
  CUZK_HD_CONSTEXPR static mont_field add_portable(const mont_field& a, const mont_field& b) {
    constexpr repr p = modulus;
    mont_field s = a;
    add_in_place(s.v, b.v);
    repr t = s.v;
    const uint64_t keep = 0 - sub_in_place(t, p);  // all ones if s < p
    for (std::size_t i = 0; i < N; ++i) s.v.w[i] = (s.v.w[i] & keep) | (t.w[i] & ~keep);
    return s;
  }
  // a - b: d = a - b, plus p where that borrowed.
  CUZK_HD_CONSTEXPR static mont_field sub_portable(const mont_field& a, const mont_field& b) {
    constexpr repr p = modulus;
    mont_field d = a;
    const uint64_t mask = 0 - sub_in_place(d.v, b.v);
    uint64_t carry = 0;
    for (std::size_t i = 0; i < N; ++i) d.v.w[i] = adc(d.v.w[i], p.w[i] & mask, carry);
    return d;
  }
  // -a: p - a, or 0 for a = 0.
  CUZK_HD_CONSTEXPR static mont_field neg_portable(const mont_field& a) {
    constexpr repr p = modulus;
    mont_field r = from_montgomery_repr(p);
    sub_in_place(r.v, a.v);
    const uint64_t mask = a.is_zero() ? 0 : ~uint64_t{0};
    for (std::size_t i = 0; i < N; ++i) r.v.w[i] &= mask;
    return r;
  }

  CUZK_HD_CONSTEXPR static mont_field mul(const mont_field& a, const mont_field& b) {
#if CUZK_HAVE_X86_MONT && !CUZK_DEVICE_CODE
    if (!std::is_constant_evaluated()) {
      if constexpr (x86::has_kernel<N>) return mul_x86(a, b);
    }
#endif
    return mul_portable(a, b);
  }
  CUZK_HD_CONSTEXPR static mont_field square(const mont_field& a) {
#if CUZK_HAVE_X86_MONT && !CUZK_DEVICE_CODE
    if (!std::is_constant_evaluated()) {
      if constexpr (x86::has_kernel<N>) return square_x86(a);
    }
#endif
    return mul_portable(a, a);
  }
#if CUZK_HAVE_X86_MONT && !CUZK_DEVICE_CODE
  // The mulx/adcx/adox kernels (mont_x86.hpp). One named return object, so it is constructed
  // in the caller's slot (NRVO): a local copied out afterwards costs a store-forwarding stall
  // (16-byte reloads of 8-byte stores) of ~10% of a product.
  static mont_field mul_x86(const mont_field& a, const mont_field& b) {
    mont_field r;
    x86::mont_mul<N>(r.v.w, a.v.w, b.v.w, modulus.w, n0);
    return r;
  }
  static mont_field square_x86(const mont_field& a) {
    mont_field r;
    x86::mont_sqr<N>(r.v.w, a.v.w, modulus.w, n0);
    return r;
  }
#endif

  // Carry-free CIOS Montgomery multiplication (valid when the top limb has a spare bit; see
  // "Faster Montgomery multiplication", gnark-crypto). Cost: 2N^2 + N 64x64->128 multiplies.
  CUZK_HD_CONSTEXPR static mont_field mul_portable(const mont_field& a, const mont_field& b) {
    constexpr repr p = modulus;
    uint64_t t[N] = {};
    CUZK_FF_UNROLL
    for (std::size_t i = 0; i < N; ++i) {
      uint64_t carry_a = 0;
      t[0] = mac(t[0], a.v.w[0], b.v.w[i], carry_a);
      const uint64_t m = t[0] * n0;
      uint64_t carry_m = 0;
      (void)mac(t[0], m, p.w[0], carry_m);
      CUZK_FF_UNROLL
      for (std::size_t j = 1; j < N; ++j) {
        t[j] = mac(t[j], a.v.w[j], b.v.w[i], carry_a);
        t[j - 1] = mac(t[j], m, p.w[j], carry_m);
      }
      t[N - 1] = carry_a + carry_m;
    }
    mont_field r;
    for (std::size_t i = 0; i < N; ++i) r.v.w[i] = t[i];
    reduce_once(r.v);
    return r;
  }
  CUZK_HD_CONSTEXPR static mont_field square_portable(const mont_field& a) { return mul_portable(a, a); }

  // --- lazy reduction (Fp2 products, fp2.hpp) ---------------------------------------------------
  // A product kept as its plain 2N-word integer, reduced later by one Montgomery reduction:
  // sums of products then cost one reduction instead of one each. redc needs t < p R and
  // returns t R^-1 mod p fully reduced; x86::mul_wide / x86::redc are the kernels, these the
  // portable twins (and the reference the tests hold the kernels to).
  using wide = bigint<2 * N>;
  CUZK_HD_CONSTEXPR static wide mul_wide_portable(const repr& a, const repr& b) {
    wide r{};
    CUZK_FF_UNROLL
    for (std::size_t i = 0; i < N; ++i) {
      uint64_t carry = 0;
      CUZK_FF_UNROLL
      for (std::size_t j = 0; j < N; ++j) r.w[i + j] = mac(r.w[i + j], a.w[j], b.w[i], carry);
      r.w[i + N] = carry;
    }
    return r;
  }
  CUZK_HD_CONSTEXPR static mont_field redc_portable(const wide& t) {
    constexpr repr p = modulus;
    wide w = t;
    uint64_t top = 0;  // carry out of word i + N, added at word i + N + 1 by the next row
    CUZK_FF_UNROLL
    for (std::size_t i = 0; i < N; ++i) {
      const uint64_t m = w.w[i] * n0;
      uint64_t carry = 0;
      CUZK_FF_UNROLL
      for (std::size_t j = 0; j < N; ++j) w.w[i + j] = mac(w.w[i + j], m, p.w[j], carry);
      uint64_t c = top;
      w.w[i + N] = adc(w.w[i + N], carry, c);
      top = c;
    }
    mont_field r;  // (t + M p) / R < 2p < 2^(64N): top is 0 here
    for (std::size_t i = 0; i < N; ++i) r.v.w[i] = w.w[N + i];
    reduce_once(r.v);
    return r;
  }
  // p^2, added to a difference of products to keep it non-negative (2p^2 < p R).
  static constexpr wide modulus_squared = mul_wide_portable(modulus, modulus);

  // --- exponentiation, inversion, square roots ------------------------------------------------
  template <std::size_t M>
  CUZK_HD_CONSTEXPR mont_field pow(const bigint<M>& e) const {
    mont_field acc = one();
    for (std::size_t i = bit_length(e); i-- > 0;) {
      acc = square(acc);
      if (test_bit(e, i)) acc = mul(acc, *this);
    }
    return acc;
  }
  CUZK_HD_CONSTEXPR mont_field pow_u64(uint64_t e) const { return pow(ff::from_u64<1>(e)); }

  // inverse(0) = 0. On the host at run time: variable-time safegcd (ff/safegcd.hpp, ~12x
  // faster than Fermat; timing depends on the value); in constant expressions and device code,
  // and via inverse_fermat() for secret inputs: Fermat (constant time).
  CUZK_HD_CONSTEXPR mont_field inverse() const {
#if !CUZK_DEVICE_CODE
    if (!std::is_constant_evaluated()) return inverse_safegcd();
#endif
    return inverse_fermat();
  }
  // a^(p-2) (Fermat). Cost: ~bits squarings + ~bits/2 multiplications. Constant time.
  CUZK_HD_CONSTEXPR mont_field inverse_fermat() const {
    constexpr repr e = p_minus_2;
    return pow(e);
  }
#if !CUZK_DEVICE_CODE
  // Bernstein-Yang divsteps on the Montgomery representation v = aR: v^-1 = a^-1 R^-1, and one
  // Montgomery product with R^3 gives a^-1 R. Variable time (branches on the value).
  mont_field inverse_safegcd() const {
    return mul(from_montgomery_repr(safegcd::inverse_var(v, safegcd_info)), from_montgomery_repr(r3));
  }
#endif

  // Legendre symbol: 1 for non-zero squares, -1 for non-squares, 0 for zero.
  CUZK_HD_CONSTEXPR int legendre() const {
    if (is_zero()) return 0;
    constexpr repr e = p_minus_1_half;
    return pow(e).is_one() ? 1 : -1;
  }

  // A square root (either one) if it exists. For p = 3 mod 4 it is a^((p+1)/4); otherwise
  // Tonelli-Shanks with p - 1 = 2^s t and the smallest quadratic non-residue z.
  CUZK_HD_CONSTEXPR bool sqrt(mont_field& out) const {
    if (is_zero()) {
      out = zero();
      return true;
    }
    if constexpr ((modulus.w[0] & 3) == 3) {
      constexpr repr e = p_plus_1_quarter;
      mont_field c = pow(e);
      if (square(c) != *this) return false;
      out = c;
      return true;
    } else {
      if (legendre() != 1) return false;
      std::size_t m = two_adicity;
      constexpr repr z = tonelli_shanks_data<mont_field>::root_of_unity;
      constexpr repr t_exp = odd_part;
      constexpr repr r_exp = odd_part_plus_1_half;
      mont_field c = from_montgomery_repr(z);
      mont_field t = pow(t_exp);
      mont_field r = pow(r_exp);
      while (!t.is_one()) {
        std::size_t i = 0;
        mont_field t2 = t;
        while (!t2.is_one()) {
          t2 = square(t2);
          ++i;
        }
        mont_field b = c;
        for (std::size_t j = 0; j + i + 1 < m; ++j) b = square(b);
        m = i;
        c = square(b);
        t = mul(t, c);
        r = mul(r, b);
      }
      out = r;
      return true;
    }
  }

  // --- canonical byte encodings (reject values >= p) --------------------------------------------
  CUZK_HD_CONSTEXPR void to_bytes_be(uint8_t* out) const {
    repr c = to_canonical();
    for (std::size_t i = 0; i < bytes; ++i) out[bytes - 1 - i] = static_cast<uint8_t>(c.w[i / 8] >> (8 * (i % 8)));
  }
  CUZK_HD_CONSTEXPR void to_bytes_le(uint8_t* out) const {
    repr c = to_canonical();
    for (std::size_t i = 0; i < bytes; ++i) out[i] = static_cast<uint8_t>(c.w[i / 8] >> (8 * (i % 8)));
  }
  // Returns false (and leaves out untouched) if the integer is >= p.
  CUZK_HD_CONSTEXPR static bool from_bytes_be(const uint8_t* in, mont_field& out) {
    repr c{};
    for (std::size_t i = 0; i < bytes; ++i) c.w[i / 8] |= static_cast<uint64_t>(in[bytes - 1 - i]) << (8 * (i % 8));
    return from_canonical_checked(c, out);
  }
  CUZK_HD_CONSTEXPR static bool from_bytes_le(const uint8_t* in, mont_field& out) {
    repr c{};
    for (std::size_t i = 0; i < bytes; ++i) c.w[i / 8] |= static_cast<uint64_t>(in[i]) << (8 * (i % 8));
    return from_canonical_checked(c, out);
  }

  // Uniform element from 64-bit words drawn from rng (rejection sampling on the top limb mask).
  template <class Rng>
  static mont_field random(Rng& rng) {
    constexpr uint64_t top_mask = bits % 64 == 0 ? ~uint64_t{0} : (uint64_t{1} << (bits % 64)) - 1;
    for (;;) {
      repr c;
      for (std::size_t i = 0; i < N; ++i) c.w[i] = static_cast<uint64_t>(rng());
      c.w[N - 1] &= top_mask;
      if (less_than(c, modulus)) return from_canonical(c);
    }
  }

  // --- operators ----------------------------------------------------------------------------
  CUZK_HD_CONSTEXPR mont_field operator+(const mont_field& o) const { return add(*this, o); }
  CUZK_HD_CONSTEXPR mont_field operator-(const mont_field& o) const { return sub(*this, o); }
  CUZK_HD_CONSTEXPR mont_field operator*(const mont_field& o) const { return mul(*this, o); }
  CUZK_HD_CONSTEXPR mont_field operator-() const { return neg(*this); }
  CUZK_HD_CONSTEXPR mont_field& operator+=(const mont_field& o) { return *this = add(*this, o); }
  CUZK_HD_CONSTEXPR mont_field& operator-=(const mont_field& o) { return *this = sub(*this, o); }
  CUZK_HD_CONSTEXPR mont_field& operator*=(const mont_field& o) { return *this = mul(*this, o); }

  // --- derived exponents and Tonelli-Shanks data ----------------------------------------------
  static constexpr repr p_minus_1 = detail::minus_u64(modulus, 1);
  static constexpr repr p_minus_2 = detail::minus_u64(modulus, 2);
  static constexpr repr half_modulus = [] { repr h = p_minus_1; shr1(h); return h; }();
  static constexpr repr p_minus_1_half = half_modulus;
  static constexpr repr p_plus_1_quarter = [] {
    repr h = detail::plus_u64(modulus, 1);  // no overflow: spare top bit
    shr1(h);
    shr1(h);
    return h;
  }();
  // p - 1 = 2^two_adicity * odd_part
  static constexpr std::size_t two_adicity = [] {
    std::size_t s = 0;
    while (!test_bit(p_minus_1, s)) ++s;
    return s;
  }();
  static constexpr repr odd_part = [] {
    repr t = p_minus_1;
    for (std::size_t i = 0; i < two_adicity; ++i) shr1(t);
    return t;
  }();
#if !CUZK_DEVICE_CODE
  static constexpr std::size_t safegcd_limbs = safegcd::limbs_for_bits(bits);
  static constexpr safegcd::modinfo<N, safegcd_limbs> safegcd_info =
      safegcd::make_modinfo<N, safegcd_limbs>(modulus);
#endif
  static constexpr repr odd_part_plus_1_half = [] {
    repr t = detail::plus_u64(odd_part, 1);
    shr1(t);
    return t;
  }();
 private:
  CUZK_HD_CONSTEXPR static void reduce_once(repr& x) {
    constexpr repr p = modulus;
    repr t = x;
    if (!sub_in_place(t, p)) x = t;
  }
};

// Tonelli-Shanks data, outside the class because it is computed with the class's own
// (then complete) arithmetic at compile time.
template <class F>
struct tonelli_shanks_data {
  // Smallest quadratic non-residue z (2, 3, 5, ...), found by Euler's criterion.
  static constexpr uint64_t nonresidue = [] {
    uint64_t z = 2;
    while (F::from_u64(z).legendre() != -1) ++z;
    return z;
  }();
  // z^odd_part in Montgomery form: a primitive 2^two_adicity-th root of unity.
  static constexpr typename F::repr root_of_unity = F::from_u64(nonresidue).pow(F::odd_part).v;
};

// Batch inversion (Montgomery's trick): 3(n-1) multiplications and one inversion. Zero inputs
// stay zero and do not poison the others. scratch must hold n elements.
template <class F>
void batch_inverse(F* values, std::size_t n, F* scratch) {
  F acc = F::one();
  for (std::size_t i = 0; i < n; ++i) {
    scratch[i] = acc;
    if (!values[i].is_zero()) acc = acc * values[i];
  }
  F inv = acc.inverse();
  for (std::size_t i = n; i-- > 0;) {
    if (values[i].is_zero()) continue;
    F vi = values[i];
    values[i] = inv * scratch[i];
    inv = inv * vi;
  }
}

}  // namespace cuzk::ff
