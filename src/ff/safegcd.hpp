// Variable-time modular inversion by Bernstein-Yang "safegcd" divsteps, in the batched form of
// libsecp256k1's modinv64_var (Wuille, "The safegcd implementation in libsecp256k1
// explained"): numbers are signed 62-bit limbs; 62 divsteps at a time run on the low words only
// and produce a 2x2 transition matrix that is then applied to the full-size f, g (the gcd pair)
// and d, e (the Bezout coefficient pair, kept mod M). Variable time: it branches on the data,
// so its timing depends on the input. Code that inverts secrets (anything derived from the
// Groth16 randomisers r, s when timing could be observed) should call inverse_fermat().
//
// Cost for a 381-bit modulus: ~ (2.9 * 381 / 62) ~ 10 outer rounds on average of one 62-step
// inner loop (word operations, several bits per iteration) and two 7-limb matrix
// applications; about 10x fewer cycles than Fermat's ~570 Montgomery products.
#pragma once

#include <cstddef>
#include <cstdint>

#include "ff/bigint.hpp"

namespace cuzk::ff::safegcd {

using i128 = __int128;

// Number of signed 62-bit limbs for a modulus of `bits` bits: room for values in (-2M, M).
constexpr std::size_t limbs_for_bits(std::size_t bits) { return (bits + 63) / 62; }

template <std::size_t L>
struct signed62 {
  int64_t v[L];
};

struct trans2x2 {
  int64_t u, v, q, r;
};

// Modulus in signed-62 form plus M^-1 mod 2^62.
template <std::size_t N, std::size_t L>
struct modinfo {
  signed62<L> modulus;
  uint64_t modulus_inv62;
};

inline constexpr uint64_t M62 = ~uint64_t{0} >> 2;

// bigint<N> (64-bit limbs, non-negative) -> signed 62-bit limbs.
template <std::size_t L, std::size_t N>
constexpr signed62<L> to_s62(const bigint<N>& a) {
  signed62<L> r{};
  for (std::size_t i = 0; i < L; ++i) {
    const std::size_t bit = 62 * i;
    uint64_t w = 0;
    if (bit / 64 < N) w = a.w[bit / 64] >> (bit % 64);
    if (bit % 64 > 2 && bit / 64 + 1 < N) w |= a.w[bit / 64 + 1] << (64 - bit % 64);
    r.v[i] = static_cast<int64_t>(w & M62);
  }
  return r;
}

// signed 62-bit limbs in [0, 2^(64N)) with all limbs in [0, 2^62) -> bigint<N>.
template <std::size_t N, std::size_t L>
constexpr bigint<N> from_s62(const signed62<L>& a) {
  bigint<N> r{};
  for (std::size_t i = 0; i < L; ++i) {
    const std::size_t bit = 62 * i;
    const uint64_t w = static_cast<uint64_t>(a.v[i]);
    if (bit / 64 < N) r.w[bit / 64] |= w << (bit % 64);
    if (bit % 64 > 2 && bit / 64 + 1 < N) r.w[bit / 64 + 1] |= w >> (64 - bit % 64);
  }
  return r;
}

template <std::size_t N, std::size_t L>
constexpr modinfo<N, L> make_modinfo(const bigint<N>& m) {
  modinfo<N, L> mi{};
  mi.modulus = to_s62<L>(m);
  uint64_t x = m.w[0];  // Newton: x = m^-1 mod 2^64
  for (int i = 0; i < 5; ++i) x *= 2 - m.w[0] * x;
  mi.modulus_inv62 = x & M62;
  return mi;
}

inline int ctz64(uint64_t x) { return __builtin_ctzll(x); }

// 62 divsteps on the low words of f and g (variable time); returns the new eta and the
// transition matrix scaled by 2^62.
inline int64_t divsteps_62_var(int64_t eta, uint64_t f0, uint64_t g0, trans2x2& t) {
  uint64_t u = 1, v = 0, q = 0, r = 1;
  uint64_t f = f0, g = g0, m;
  uint32_t w;
  int i = 62, limit, zeros;
  for (;;) {
    // Count zeros only up to i (sentinel bit).
    zeros = ctz64(g | (~uint64_t{0} << i));
    g >>= zeros;
    u <<= zeros;
    v <<= zeros;
    eta -= zeros;
    i -= zeros;
    if (i == 0) break;
    if (eta < 0) {
      uint64_t tmp;
      eta = -eta;
      tmp = f; f = g; g = ~tmp + 1;
      tmp = u; u = q; q = ~tmp + 1;
      tmp = v; v = r; r = ~tmp + 1;
      // Cancel up to 6 bits of g (no more than i, and no more than eta + 1).
      limit = (static_cast<int>(eta) + 1) > i ? i : (static_cast<int>(eta) + 1);
      m = (~uint64_t{0} >> (64 - limit)) & 63u;
      w = static_cast<uint32_t>((f * g * (f * f - 2)) & m);
    } else {
      limit = (static_cast<int>(eta) + 1) > i ? i : (static_cast<int>(eta) + 1);
      m = (~uint64_t{0} >> (64 - limit)) & 15u;
      uint64_t w64 = f + (((f + 1) & 4) << 1);
      w = static_cast<uint32_t>((~w64 + 1) * g & m);
    }
    g += f * w;
    q += u * w;
    r += v * w;
  }
  t.u = static_cast<int64_t>(u);
  t.v = static_cast<int64_t>(v);
  t.q = static_cast<int64_t>(q);
  t.r = static_cast<int64_t>(r);
  return eta;
}

// [d, e] <- t [d, e] / 2^62 mod M, keeping d, e in (-2M, M).
template <std::size_t N, std::size_t L>
inline void update_de_62(signed62<L>& d, signed62<L>& e, const trans2x2& t,
                         const modinfo<N, L>& mi) {
  const int64_t u = t.u, v = t.v, q = t.q, r = t.r;
  const int64_t sd = d.v[L - 1] >> 63, se = e.v[L - 1] >> 63;
  int64_t md = (u & sd) + (v & se);
  int64_t me = (q & sd) + (r & se);
  i128 cd = static_cast<i128>(u) * d.v[0] + static_cast<i128>(v) * e.v[0];
  i128 ce = static_cast<i128>(q) * d.v[0] + static_cast<i128>(r) * e.v[0];
  // Choose md, me so that t [d, e] + M [md, me] has 62 zero low bits.
  const uint64_t inv = mi.modulus_inv62;
  md -= static_cast<int64_t>((inv * static_cast<uint64_t>(cd) + static_cast<uint64_t>(md)) & M62);
  me -= static_cast<int64_t>((inv * static_cast<uint64_t>(ce) + static_cast<uint64_t>(me)) & M62);
  cd += static_cast<i128>(mi.modulus.v[0]) * md;
  ce += static_cast<i128>(mi.modulus.v[0]) * me;
  cd >>= 62;
  ce >>= 62;
  for (std::size_t i = 1; i < L; ++i) {
    cd += static_cast<i128>(u) * d.v[i] + static_cast<i128>(v) * e.v[i];
    ce += static_cast<i128>(q) * d.v[i] + static_cast<i128>(r) * e.v[i];
    cd += static_cast<i128>(mi.modulus.v[i]) * md;
    ce += static_cast<i128>(mi.modulus.v[i]) * me;
    d.v[i - 1] = static_cast<int64_t>(static_cast<uint64_t>(cd) & M62);
    cd >>= 62;
    e.v[i - 1] = static_cast<int64_t>(static_cast<uint64_t>(ce) & M62);
    ce >>= 62;
  }
  d.v[L - 1] = static_cast<int64_t>(cd);
  e.v[L - 1] = static_cast<int64_t>(ce);
}

// [f, g] <- t [f, g] / 2^62 on the first len limbs (exact division).
template <std::size_t L>
inline void update_fg_62_var(std::size_t len, signed62<L>& f, signed62<L>& g, const trans2x2& t) {
  const int64_t u = t.u, v = t.v, q = t.q, r = t.r;
  i128 cf = static_cast<i128>(u) * f.v[0] + static_cast<i128>(v) * g.v[0];
  i128 cg = static_cast<i128>(q) * f.v[0] + static_cast<i128>(r) * g.v[0];
  cf >>= 62;
  cg >>= 62;
  for (std::size_t i = 1; i < len; ++i) {
    cf += static_cast<i128>(u) * f.v[i] + static_cast<i128>(v) * g.v[i];
    cg += static_cast<i128>(q) * f.v[i] + static_cast<i128>(r) * g.v[i];
    f.v[i - 1] = static_cast<int64_t>(static_cast<uint64_t>(cf) & M62);
    cf >>= 62;
    g.v[i - 1] = static_cast<int64_t>(static_cast<uint64_t>(cg) & M62);
    cg >>= 62;
  }
  f.v[len - 1] = static_cast<int64_t>(cf);
  g.v[len - 1] = static_cast<int64_t>(cg);
}

// r in (-2M, M) -> (sign < 0 ? -r : r) mod M in [0, M), limbs in [0, 2^62).
template <std::size_t N, std::size_t L>
inline void normalize_62(signed62<L>& r, int64_t sign, const modinfo<N, L>& mi) {
  int64_t cond_add = r.v[L - 1] >> 63;
  for (std::size_t i = 0; i < L; ++i) r.v[i] += mi.modulus.v[i] & cond_add;
  const int64_t cond_negate = sign >> 63;
  for (std::size_t i = 0; i < L; ++i) r.v[i] = (r.v[i] ^ cond_negate) - cond_negate;
  for (std::size_t i = 0; i + 1 < L; ++i) {
    r.v[i + 1] += r.v[i] >> 62;
    r.v[i] &= static_cast<int64_t>(M62);
  }
  cond_add = r.v[L - 1] >> 63;
  for (std::size_t i = 0; i < L; ++i) r.v[i] += mi.modulus.v[i] & cond_add;
  for (std::size_t i = 0; i + 1 < L; ++i) {
    r.v[i + 1] += r.v[i] >> 62;
    r.v[i] &= static_cast<int64_t>(M62);
  }
}

// x^-1 mod M for 0 <= x < M (plain integers, not Montgomery form); 0 maps to 0. M odd.
template <std::size_t N, std::size_t L>
inline bigint<N> inverse_var(const bigint<N>& x, const modinfo<N, L>& mi) {
  signed62<L> d{}, e{};
  e.v[0] = 1;
  signed62<L> f = mi.modulus;
  signed62<L> g = to_s62<L>(x);
  std::size_t len = L;
  int64_t eta = -1;  // eta = -delta, delta = 1 initially
  {
    int64_t any = 0;
    for (std::size_t j = 0; j < L; ++j) any |= g.v[j];
    if (any == 0) return bigint<N>{};
  }
  for (;;) {
    trans2x2 t;
    eta = divsteps_62_var(eta, static_cast<uint64_t>(f.v[0]), static_cast<uint64_t>(g.v[0]), t);
    update_de_62(d, e, t, mi);
    update_fg_62_var(len, f, g, t);
    if (g.v[0] == 0) {
      int64_t cond = 0;
      for (std::size_t j = 1; j < len; ++j) cond |= g.v[j];
      if (cond == 0) break;
    }
    const int64_t fn = f.v[len - 1], gn = g.v[len - 1];
    int64_t cond = (static_cast<int64_t>(len) - 2) >> 63;
    cond |= fn ^ (fn >> 63);
    cond |= gn ^ (gn >> 63);
    if (cond == 0) {  // both top limbs are 0 or -1: fold them into the limb below
      const uint64_t fs = static_cast<uint64_t>(fn) << 62, gs = static_cast<uint64_t>(gn) << 62;
      f.v[len - 2] = static_cast<int64_t>(static_cast<uint64_t>(f.v[len - 2]) | fs);
      g.v[len - 2] = static_cast<int64_t>(static_cast<uint64_t>(g.v[len - 2]) | gs);
      --len;
    }
  }
  // g = 0 and f = +-gcd = +-1: the inverse is +-d.
  normalize_62(d, f.v[len - 1], mi);
  return from_s62<N>(d);
}

}  // namespace cuzk::ff::safegcd
