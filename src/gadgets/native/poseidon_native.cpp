// Native Poseidon: the reference permutation (neptune "Correct") and the optimized one
// (neptune "OptimizedStatic"), see poseidon_native.hpp.
#include "gadgets/native/poseidon_native.hpp"

#include <algorithm>
#include <stdexcept>

namespace cuzk::gadgets::native {

namespace {

// x^5: 2S + 1M.
inline fr quintic(const fr& x) {
  const fr x2 = x.square();
  return x2.square() * x;
}

// ---- delayed reduction -------------------------------------------------------------------------
// A dot product sum_i a_i b_i (n terms) of Montgomery residues costs one Montgomery reduction
// instead of n: product scanning ("Comba") over all terms at once into a three-word column
// accumulator, with the REDC quotient words m_k interleaved in columns 0..3 (the FIPS
// method), then one quotient estimate and at most two subtractions of r.
// Cost: 16n + 20 64x64 multiplies, ~3 add/adc each; everything stays in registers.
using u128 = unsigned __int128;

struct col_acc {
  uint64_t c0 = 0, c1 = 0, c2 = 0;
  // (c2:c1:c0) += a * b
  inline void mac(uint64_t a, uint64_t b) {
#if defined(__x86_64__) && defined(__BMI2__)
    // mulx + add/adc/adc: the compiler's u128 version spills heavily (~30 instructions).
    uint64_t lo, hi;
    __asm__("mulx %[b], %[lo], %[hi]\n\t"
            "add %[lo], %[c0]\n\t"
            "adc %[hi], %[c1]\n\t"
            "adc $0, %[c2]"
            : [c0] "+r"(c0), [c1] "+r"(c1), [c2] "+r"(c2), [lo] "=&r"(lo), [hi] "=&r"(hi)
            : [a] "d"(a), [b] "rm"(b)
            : "cc");
#else
    const u128 t = static_cast<u128>(a) * b;
    uint64_t carry = 0;
    c0 = ff::adc(c0, static_cast<uint64_t>(t), carry);
    c1 = ff::adc(c1, static_cast<uint64_t>(t >> 64), carry);
    c2 += carry;
#endif
  }
  inline uint64_t shift() {
    const uint64_t out = c0;
    c0 = c1;
    c1 = c2;
    c2 = 0;
    return out;
  }
};

// 2^121 / ((r >> 197) + 1): the quotient-estimate multiplier of dot_reduce (see there).
constexpr uint64_t reduce_mu = [] {
  constexpr uint64_t d = (fr::modulus.w[3] >> 5) + 1;  // (r >> 197) + 1: bits 197.. lie in limb 3
  return static_cast<uint64_t>((static_cast<u128>(1) << 121) / d);
}();
static_assert((fr::modulus.w[3] >> 63) == 0 && (fr::modulus.w[3] >> 62) == 1, "r is a 255-bit number");

// sum_{i<n} a[i] * b[i * b_stride] * 2^-256 mod r, canonical. N: the term count at compile
// time (0: run-time n). Valid for n <= 128 (bounds below).
template <std::size_t N>
inline fr dot_reduce(const fr* a, const fr* b, std::size_t n_rt, std::size_t b_stride) {
  const std::size_t n = N ? N : n_rt;
  constexpr const uint64_t* p = fr::modulus.w;
  col_acc acc;
  uint64_t m[4];
  uint64_t x[5];
#pragma GCC unroll 7
  for (int k = 0; k < 7; ++k) {
    const int j_lo = k > 3 ? k - 3 : 0, j_hi = k < 3 ? k : 3;
#pragma GCC unroll 37
    for (std::size_t i = 0; i < n; ++i) {
      const uint64_t* ai = a[i].v.w;
      const uint64_t* bi = b[i * b_stride].v.w;
#pragma GCC unroll 4
      for (int j = j_lo; j <= j_hi; ++j) acc.mac(ai[j], bi[k - j]);
    }
#pragma GCC unroll 4
    for (int j = j_lo; j < 4 && j < k; ++j) acc.mac(m[j], p[k - j]);
    if (k < 4) {
      m[k] = acc.c0 * fr::n0;  // makes column k vanish
      acc.mac(m[k], p[0]);
      (void)acc.shift();
    } else {
      x[k - 4] = acc.shift();
    }
  }
  x[3] = acc.c0;
  x[4] = acc.c1;
  // X = (T + m r) / 2^256 with T < n r^2: X < r (n r / 2^256 + 1) < r (0.4536 n + 1), so for
  // n <= 128, X < 2^261. Quotient estimate from Z = X >> 197 (< 2^64) and D = (r >> 197) + 1:
  // q = floor(Z mu / 2^121) <= Z / D, so q r <= X; and X / r - q < 2 + 2^-50, so X - q r < 3r.
  const uint64_t z = (x[3] >> 5) | (x[4] << 59);
  const uint64_t q = static_cast<uint64_t>((static_cast<u128>(z) * reduce_mu) >> 121);
  {
    uint64_t c = 0, borrow = 0;
#pragma GCC unroll 4
    for (int j = 0; j < 4; ++j) {
      const u128 qp = static_cast<u128>(q) * p[j] + c;
      c = static_cast<uint64_t>(qp >> 64);
      x[j] = ff::sbb(x[j], static_cast<uint64_t>(qp), borrow);
    }
    x[4] = ff::sbb(x[4], c, borrow);
  }
  // Two conditional subtractions of r (x < 3r).
#pragma GCC unroll 2
  for (int k = 0; k < 2; ++k) {
    uint64_t y[5], borrow = 0;
#pragma GCC unroll 4
    for (int j = 0; j < 4; ++j) y[j] = ff::sbb(x[j], p[j], borrow);
    y[4] = ff::sbb(x[4], 0, borrow);
    const uint64_t keep = 0 - borrow;  // all ones if x < r
#pragma GCC unroll 5
    for (int j = 0; j < 5; ++j) x[j] = (x[j] & keep) | (y[j] & ~keep);
  }
  return fr::from_montgomery_repr(ff::bigint<4>{{x[0], x[1], x[2], x[3]}});
}

// ---- optimized permutation, width fixed at compile time (W = 0: run-time width) --------------

template <std::size_t W>
void permute_optimized(const poseidon_params& p, fr* s) {
  const std::size_t t = W ? W : p.width;
  const fr* rc = p.compressed_round_constants.data();
  const std::size_t half = p.half_full_rounds;
  fr tmp[W ? W : 64];
  // state (row) x M: new[j] = sum_i s[i] M[i][j] (M is symmetric, so also M s): t^2 products
  // with t delayed reductions.
  auto mul_dense = [&](const poseidon_matrix& m) {
    for (std::size_t j = 0; j < t; ++j) tmp[j] = dot_reduce<W>(s, m.a.data() + j, t, t);  // column j
    for (std::size_t j = 0; j < t; ++j) s[j] = tmp[j];
  };
  auto full_round = [&](bool add_keys) {
    for (std::size_t i = 0; i < t; ++i) {
      s[i] = quintic(s[i]);
      if (add_keys) s[i] += rc[i];
    }
    if (add_keys) rc += t;
  };

  for (std::size_t i = 0; i < t; ++i) s[i] += rc[i];
  rc += t;
  for (std::size_t r = 0; r < half; ++r) {
    full_round(true);
    mul_dense(r + 1 == half ? p.pre_sparse_matrix : p.mds);
  }
  const fr* sp = p.sparse_flat.data();
  for (std::size_t r = 0; r < p.partial_rounds; ++r, sp += 2 * t - 1) {
    const fr s0 = quintic(s[0]) + *rc++;
    // new0 = sum_i s[i] w_hat[i] (one delayed reduction); new_i = s[i] + s0 v_rest[i-1]
    // (t - 1 M).
    s[0] = s0;
    const fr new0 = dot_reduce<W>(s, sp, t, 1);
    for (std::size_t i = 1; i < t; ++i) s[i] += s0 * sp[t + i - 1];
    s[0] = new0;
  }
  for (std::size_t r = 1; r < half; ++r) {
    full_round(true);
    mul_dense(p.mds);
  }
  full_round(false);
  mul_dense(p.mds);
}

void permute_dispatch(const poseidon_params& p, fr* s) {
  switch (p.width) {
    case 3: return permute_optimized<3>(p, s);
    case 5: return permute_optimized<5>(p, s);
    case 9: return permute_optimized<9>(p, s);
    case 12: return permute_optimized<12>(p, s);
    case 17: return permute_optimized<17>(p, s);
    case 25: return permute_optimized<25>(p, s);
    case 37: return permute_optimized<37>(p, s);
    default:
      if (p.width > 64) throw std::invalid_argument("poseidon_permute: width above 64");
      return permute_optimized<0>(p, s);
  }
}

fr hash_with(void (*perm)(const poseidon_params&, fr*), const poseidon_params& p, const fr& tag,
             std::span<const fr> preimage) {
  if (preimage.size() > p.arity) throw std::invalid_argument("poseidon_hash: preimage longer than the arity");
  fr s[64];
  if (p.width > 64) throw std::invalid_argument("poseidon_hash: width above 64");
  s[0] = tag;
  for (std::size_t i = 0; i < p.arity; ++i) s[i + 1] = i < preimage.size() ? preimage[i] : fr::zero();
  perm(p, s);
  return s[1];
}

template <std::size_t A>
fr hash_fixed(const fr* in) {
  static const poseidon_params& p = poseidon_constants(A);
  fr s[A + 1];
  s[0] = p.merkle_domain_tag;
  for (std::size_t i = 0; i < A; ++i) s[i + 1] = in[i];
  permute_optimized<A + 1>(p, s);
  return s[1];
}

}  // namespace

void poseidon_permute(const poseidon_params& p, fr* state) { permute_dispatch(p, state); }

// neptune poseidon_alt.rs hash_correct: every round adds its t round constants, applies x^5
// to all elements (full rounds) or element 0 (partial rounds), then multiplies by M.
void poseidon_permute_reference(const poseidon_params& p, fr* s) {
  const std::size_t t = p.width;
  std::vector<fr> tmp(t);
  const std::size_t rounds = p.full_rounds + p.partial_rounds;
  for (std::size_t r = 0; r < rounds; ++r) {
    const fr* rc = p.round_constants.data() + r * t;
    const bool full = r < p.half_full_rounds || r >= p.half_full_rounds + p.partial_rounds;
    for (std::size_t i = 0; i < t; ++i) s[i] += rc[i];
    if (full) {
      for (std::size_t i = 0; i < t; ++i) s[i] = quintic(s[i]);
    } else {
      s[0] = quintic(s[0]);
    }
    for (std::size_t i = 0; i < t; ++i) {
      fr acc = fr::zero();
      for (std::size_t j = 0; j < t; ++j) acc += p.mds.at(i, j) * s[j];  // M s (column vector)
      tmp[i] = acc;
    }
    for (std::size_t i = 0; i < t; ++i) s[i] = tmp[i];
  }
}

fr poseidon_hash(const poseidon_params& p, const fr& domain_tag, std::span<const fr> preimage) {
  return hash_with(&permute_dispatch, p, domain_tag, preimage);
}

fr poseidon_hash_reference(const poseidon_params& p, const fr& domain_tag, std::span<const fr> preimage) {
  return hash_with(&poseidon_permute_reference, p, domain_tag, preimage);
}

fr poseidon_hash(const poseidon_params& p, std::span<const fr> preimage) {
  if (preimage.size() != p.arity) throw std::invalid_argument("poseidon_hash: MerkleTree preimage must have arity elements");
  return hash_with(&permute_dispatch, p, p.merkle_domain_tag, preimage);
}

fr poseidon_hash(std::span<const fr> preimage) { return poseidon_hash(poseidon_constants(preimage.size()), preimage); }

fr poseidon_hash2(const fr& a, const fr& b) {
  const fr in[2] = {a, b};
  return hash_fixed<2>(in);
}
fr poseidon_hash4(const fr in[4]) { return hash_fixed<4>(in); }
fr poseidon_hash8(const fr in[8]) { return hash_fixed<8>(in); }
fr poseidon_hash11(const fr in[11]) { return hash_fixed<11>(in); }

fr fr_dot_product(const fr* a, const fr* b, std::size_t n, std::size_t b_stride) {
  if (n > 128) throw std::invalid_argument("fr_dot_product: more than 128 terms");
  if (n == 0) return fr::zero();
  return dot_reduce<0>(a, b, n, b_stride);
}

fr poseidon_hash_md(std::span<const fr> input) {
  if (input.size() < 2) throw std::invalid_argument("poseidon_hash_md: needs at least two elements");
  const poseidon_params& p = poseidon_constants(36);
  fr acc = input[0];
  fr s[37];
  for (std::size_t off = 1; off < input.size(); off += 35) {
    const std::size_t n = std::min<std::size_t>(35, input.size() - off);
    s[0] = p.merkle_domain_tag;
    s[1] = acc;
    for (std::size_t i = 0; i < 35; ++i) s[2 + i] = i < n ? input[off + i] : fr::zero();
    permute_optimized<37>(p, s);
    acc = s[1];
  }
  return acc;
}

}  // namespace cuzk::gadgets::native
