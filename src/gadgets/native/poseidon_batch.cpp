// Batched Poseidon: an 8-lane AVX-512 IFMA permutation and the scalar fallback (see
// poseidon_batch.hpp for the arithmetic and its bounds). The IFMA functions are compiled for
// "avx512f,avx512ifma" only inside themselves, so the library still runs on CPUs without them;
// the dispatcher checks has_avx512_ifma() first.
#include "gadgets/native/poseidon_batch.hpp"

#include <array>
#include <memory>
#include <mutex>
#include <stdexcept>

#include "gadgets/native/poseidon_native.hpp"
#include "gadgets/native/poseidon_witness.hpp"

#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace cuzk::gadgets::native {

namespace {

constexpr uint64_t mask52 = (uint64_t{1} << 52) - 1;

// 4 x 64-bit limbs <-> 5 x 52-bit limbs (values below 2^260).
constexpr void to_limbs52(const ff::bigint<4>& w, uint64_t* l) {
  l[0] = w.w[0] & mask52;
  l[1] = ((w.w[0] >> 52) | (w.w[1] << 12)) & mask52;
  l[2] = ((w.w[1] >> 40) | (w.w[2] << 24)) & mask52;
  l[3] = ((w.w[2] >> 28) | (w.w[3] << 36)) & mask52;
  l[4] = w.w[3] >> 16;
}
ff::bigint<4> from_limbs52(const uint64_t* l) {
  return ff::bigint<4>{{l[0] | (l[1] << 52), (l[1] >> 12) | (l[2] << 40), (l[2] >> 24) | (l[3] << 28),
                        (l[3] >> 36) | (l[4] << 16)}};
}

// x * 2^260 mod p, canonical, as 5 limbs: the Montgomery representation of 16 x in the scalar
// form (x * 2^256) is exactly that integer.
void ifma_form(const fr& x, uint64_t* l) { to_limbs52((x * fr::from_u64(16)).v, l); }

// p and 2p as 52-bit limbs; n0 = -p^-1 mod 2^52.
struct modulus52 {
  uint64_t p[5], p2[5], n0;
};
constexpr modulus52 mod52 = [] {
  modulus52 m{};
  to_limbs52(fr::modulus, m.p);
  ff::bigint<4> two = fr::modulus;
  uint64_t carry = 0;
  for (uint64_t& w : two.w) {
    const uint64_t top = w >> 63;
    w = (w << 1) | carry;
    carry = top;
  }
  to_limbs52(two, m.p2);
  // Newton iteration for p^-1 mod 2^64, then negate and truncate.
  uint64_t inv = 1;
  for (int i = 0; i < 6; ++i) inv *= 2 - fr::modulus.w[0] * inv;
  m.n0 = (0 - inv) & mask52;
  return m;
}();

static_assert(((mod52.n0 * mod52.p[0]) & mask52) == mask52, "n0 * p = -1 mod 2^52");
static_assert(mod52.p[4] < (uint64_t{1} << 48) && mod52.p2[4] < (uint64_t{1} << 49), "p < 2^256, 2p < 2^257");

bool ifma_width_supported(std::size_t t) { return t == 3 || t == 5 || t == 9 || t == 12 || t == 17; }

// Where the circuit witnesses go: row k at rows[k] if given, else at base + k * size; nowhere
// if neither is set.
struct witness_rows {
  fr* base = nullptr;
  std::size_t size = 0;
  fr* const* rows = nullptr;
  bool set() const { return base || rows; }
  fr* row(std::size_t k) const { return rows ? rows[k] : base + k * size; }
};

// Scalar fallback: one optimized permutation (or the witness twin) per hash.
void run_scalar(const poseidon_params& p, const fr* in, std::size_t count, fr* out, const fr& tag,
                const witness_rows& aux) {
  const std::size_t w = poseidon_witness_size(p);
  for (std::size_t k = 0; k < count; ++k) {
    if (aux.set()) {
      out[k] = poseidon_witness(p, tag, std::span<const fr>(in + k * p.arity, p.arity), std::span<fr>(aux.row(k), w));
    } else {
      fr s[64];
      s[0] = tag;
      for (std::size_t i = 0; i < p.arity; ++i) s[i + 1] = in[k * p.arity + i];
      poseidon_permute(p, s);
      out[k] = s[1];
    }
  }
}

#if defined(__x86_64__)

#define CUZK_IFMA_TARGET __attribute__((target("avx512f,avx512ifma")))
#define CUZK_IFMA_INLINE __attribute__((target("avx512f,avx512ifma"), always_inline)) inline

struct v5 {
  __m512i l[5];
};

CUZK_IFMA_INLINE __m512i bc(uint64_t x) { return _mm512_set1_epi64(static_cast<long long>(x)); }
CUZK_IFMA_INLINE __m512i lo(__m512i acc, __m512i a, __m512i b) { return _mm512_madd52lo_epu64(acc, a, b); }
CUZK_IFMA_INLINE __m512i hi(__m512i acc, __m512i a, __m512i b) { return _mm512_madd52hi_epu64(acc, a, b); }
// Shifts by 52 (the all-lanes masked forms: GCC 12's unmasked ones trip -Wuninitialized).
CUZK_IFMA_INLINE __m512i shr52(__m512i x) { return _mm512_maskz_srli_epi64(0xff, x, 52); }
CUZK_IFMA_INLINE __m512i sar52(__m512i x) { return _mm512_maskz_srai_epi64(0xff, x, 52); }

// Carries each limb's bits above 52 into the next (4 dependent shift-add-and steps).
CUZK_IFMA_INLINE v5 normalized(const __m512i* t) {
  const __m512i m = bc(mask52);
  v5 r;
  __m512i c = t[0];
  for (int j = 0; j < 4; ++j) {
    r.l[j] = _mm512_and_si512(c, m);
    c = _mm512_add_epi64(t[j + 1], shr52(c));
  }
  r.l[4] = c;
  return r;
}

// x - q if x >= q, else x (x normalized, q a constant below 2^257).
CUZK_IFMA_INLINE v5 sub_if_ge(const v5& x, const uint64_t* q) {
  const __m512i m = bc(mask52);
  v5 d;
  __m512i c = _mm512_setzero_si512();
  for (int j = 0; j < 5; ++j) {
    const __m512i dj = _mm512_add_epi64(_mm512_sub_epi64(x.l[j], bc(q[j])), c);
    c = sar52(dj);
    d.l[j] = j < 4 ? _mm512_and_si512(dj, m) : dj;
  }
  const __mmask8 keep_x = _mm512_cmplt_epi64_mask(d.l[4], _mm512_setzero_si512());
  for (int j = 0; j < 5; ++j) d.l[j] = _mm512_mask_blend_epi64(keep_x, d.l[j], x.l[j]);
  return d;
}

// (a + b) mod 2p for a, b < 2p: the result stays < 2p.
CUZK_IFMA_INLINE v5 add_reduce(const v5& a, const v5& b) {
  __m512i s[5];
  for (int j = 0; j < 5; ++j) s[j] = _mm512_add_epi64(a.l[j], b.l[j]);
  return sub_if_ge(normalized(s), mod52.p2);
}
CUZK_IFMA_INLINE v5 add_const_reduce(const v5& a, const uint64_t* c) {
  __m512i s[5];
  for (int j = 0; j < 5; ++j) s[j] = _mm512_add_epi64(a.l[j], bc(c[j]));
  return sub_if_ge(normalized(s), mod52.p2);
}

// Montgomery reduction of 10 unreduced columns: (T + m p) / 2^260, normalized.
CUZK_IFMA_INLINE v5 reduce10(__m512i* acc) {
  const __m512i n0 = bc(mod52.n0), zero = _mm512_setzero_si512();
#pragma GCC unroll 5
  for (int i = 0; i < 5; ++i) {
    const __m512i m = lo(zero, acc[i], n0);
#pragma GCC unroll 5
    for (int j = 0; j < 5; ++j) {
      acc[i + j] = lo(acc[i + j], m, bc(mod52.p[j]));
      acc[i + j + 1] = hi(acc[i + j + 1], m, bc(mod52.p[j]));
    }
    acc[i + 1] = _mm512_add_epi64(acc[i + 1], shr52(acc[i]));
  }
  return normalized(acc + 5);
}

// a * b / 2^260 mod p (< 2p for inputs < 4p): 50 + 55 multiply-adds for 8 products.
CUZK_IFMA_INLINE v5 mul(const v5& a, const v5& b) {
  __m512i acc[11];
  for (auto& x : acc) x = _mm512_setzero_si512();
#pragma GCC unroll 5
  for (int i = 0; i < 5; ++i)
#pragma GCC unroll 5
    for (int j = 0; j < 5; ++j) {
      acc[i + j] = lo(acc[i + j], a.l[j], b.l[i]);
      acc[i + j + 1] = hi(acc[i + j + 1], a.l[j], b.l[i]);
    }
  return reduce10(acc);
}
CUZK_IFMA_INLINE v5 mul_const(const v5& a, const uint64_t* c) {
  v5 b;
  for (int j = 0; j < 5; ++j) b.l[j] = bc(c[j]);
  return mul(a, b);
}

// sum_k s[k] * c[k] with one reduction (c: t constants of 5 limbs, consecutive).
template <std::size_t T>
CUZK_IFMA_INLINE v5 dot(const v5* s, const uint64_t* c) {
  __m512i acc[11];
  for (auto& x : acc) x = _mm512_setzero_si512();
  for (std::size_t k = 0; k < T; ++k, c += 5) {
#pragma GCC unroll 5
    for (int i = 0; i < 5; ++i) {
      const __m512i b = bc(c[i]);
#pragma GCC unroll 5
      for (int j = 0; j < 5; ++j) {
        acc[i + j] = lo(acc[i + j], s[k].l[j], b);
        acc[i + j + 1] = hi(acc[i + j + 1], s[k].l[j], b);
      }
    }
  }
  return reduce10(acc);
}

struct ifma_tables {
  const uint64_t *crc, *mds_t, *pre_sparse_t, *sparse;
  std::size_t half, partial;
};

// s = s x M with mt = M transposed (row j of mt = column j of M): T dot products.
template <std::size_t T>
CUZK_IFMA_INLINE void dense(v5* s, const uint64_t* mt) {
  v5 tmp[T];
  for (std::size_t j = 0; j < T; ++j) tmp[j] = dot<T>(s, mt + j * T * 5);
  for (std::size_t j = 0; j < T; ++j) s[j] = tmp[j];
}

// Records nothing (plain hashing).
struct no_recorder {
  static constexpr bool on = false;
  CUZK_IFMA_INLINE void operator()(const v5&) {}
};

// Records intermediate values for the circuit's witness: each value is converted to the scalar
// Montgomery form (one lane product by 2^256 mod p: x 2^260 * 2^256 / 2^260, then a final
// subtraction) and written to lane k's output row at the running index.
struct lane_recorder {
  static constexpr bool on = true;
  fr* out[8];
  std::size_t lanes;
  std::size_t index = 0;
  uint64_t r256[5];  // 2^256 mod p as 52-bit limbs

  CUZK_IFMA_INLINE void operator()(const v5& v) {
    const v5 c = sub_if_ge(mul_const(v, r256), mod52.p);
    alignas(64) uint64_t tmp[5][8];
    for (int j = 0; j < 5; ++j) _mm512_store_si512(tmp[j], c.l[j]);
    for (std::size_t lane = 0; lane < lanes; ++lane) {
      const uint64_t l[5] = {tmp[0][lane], tmp[1][lane], tmp[2][lane], tmp[3][lane], tmp[4][lane]};
      out[lane][index] = fr::from_montgomery_repr(from_limbs52(l));
    }
    ++index;
  }
};

// x^5 (+ post): the circuit's S-box; records (input,) x^2, x^4, x^5 (+ post) when asked.
template <class Rec>
CUZK_IFMA_INLINE v5 sbox(const v5& x, const uint64_t* post, Rec& rec, bool record, bool record_input) {
  if (Rec::on && record && record_input) rec(x);
  const v5 x2 = mul(x, x);
  const v5 x4 = mul(x2, x2);
  v5 x5 = mul(x4, x);
  if (post) x5 = add_const_reduce(x5, post);
  if (Rec::on && record) {
    rec(x2);
    rec(x4);
    rec(x5);
  }
  return x5;
}

// Eight permutations of width T, state in IFMA form; neptune's optimized schedule (the same as
// permute_optimized in poseidon_native.cpp). With a recorder, the values the Poseidon circuit
// allocates are recorded in its order (poseidon_witness.hpp): the first round's S-boxes on the
// preimage without their inputs (those are allocated already), every later S-box with its input,
// then the hash.
template <std::size_t T, class Rec>
CUZK_IFMA_INLINE void permute8(const ifma_tables& k, v5* s, Rec& rec) {
  const uint64_t* rc = k.crc;
  for (std::size_t i = 0; i < T; ++i) s[i] = add_const_reduce(s[i], rc + 5 * i);
  rc += 5 * T;
  for (std::size_t r = 0; r < k.half; ++r) {
    for (std::size_t i = 0; i < T; ++i) s[i] = sbox(s[i], rc + 5 * i, rec, r > 0 || i > 0, r > 0);
    rc += 5 * T;
    dense<T>(s, r + 1 == k.half ? k.pre_sparse_t : k.mds_t);
  }
  const uint64_t* sp = k.sparse;
  for (std::size_t r = 0; r < k.partial; ++r, rc += 5, sp += 5 * (2 * T - 1)) {
    const v5 s0 = sbox(s[0], rc, rec, true, true);
    s[0] = s0;
    const v5 new0 = dot<T>(s, sp);
    for (std::size_t i = 1; i < T; ++i) s[i] = add_reduce(s[i], mul_const(s0, sp + 5 * (T + i - 1)));
    s[0] = new0;
  }
  for (std::size_t r = 1; r < k.half; ++r) {
    for (std::size_t i = 0; i < T; ++i) s[i] = sbox(s[i], rc + 5 * i, rec, true, true);
    rc += 5 * T;
    dense<T>(s, k.mds_t);
  }
  for (std::size_t i = 0; i < T; ++i) s[i] = sbox(s[i], nullptr, rec, true, true);
  dense<T>(s, k.mds_t);
  if (Rec::on) rec(s[1]);
}

// Hashes count preimages (arity = T - 1 elements each) eight at a time; a last partial batch
// is padded with zero preimages whose outputs are dropped. When aux is set, hash k's circuit
// witness goes to aux.row(k).
template <std::size_t T>
CUZK_IFMA_TARGET void hash_ifma(const ifma_tables& k, const fr* in, std::size_t count, fr* out, const fr& tag,
                                const witness_rows& aux) {
  constexpr std::size_t arity = T - 1;
  alignas(64) uint64_t lanes[5][8];
  const fr inv16 = fr::from_u64(16).inverse();
  uint64_t tag52[5];
  ifma_form(tag, tag52);
  lane_recorder rec{};
  to_limbs52(fr::r1, rec.r256);
  for (std::size_t base = 0; base < count; base += 8) {
    const std::size_t n = count - base < 8 ? count - base : 8;
    v5 s[T];
    for (int j = 0; j < 5; ++j) s[0].l[j] = bc(tag52[j]);
    for (std::size_t i = 0; i < arity; ++i) {
      for (std::size_t lane = 0; lane < 8; ++lane) {
        uint64_t l[5] = {0, 0, 0, 0, 0};
        if (lane < n) ifma_form(in[(base + lane) * arity + i], l);
        for (int j = 0; j < 5; ++j) lanes[j][lane] = l[j];
      }
      for (int j = 0; j < 5; ++j) s[i + 1].l[j] = _mm512_load_si512(lanes[j]);
    }
    if (aux.set()) {
      rec.lanes = n;
      rec.index = 0;
      for (std::size_t lane = 0; lane < n; ++lane) rec.out[lane] = aux.row(base + lane);
      permute8<T>(k, s, rec);
    } else {
      no_recorder none;
      permute8<T>(k, s, none);
    }
    const v5 h = sub_if_ge(s[1], mod52.p);
    for (int j = 0; j < 5; ++j) _mm512_store_si512(lanes[j], h.l[j]);
    for (std::size_t lane = 0; lane < n; ++lane) {
      const uint64_t l[5] = {lanes[0][lane], lanes[1][lane], lanes[2][lane], lanes[3][lane], lanes[4][lane]};
      out[base + lane] = fr::from_montgomery_repr(from_limbs52(l)) * inv16;
    }
  }
}

bool detect_ifma() {
  __builtin_cpu_init();
  return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512ifma");
}

#else
bool detect_ifma() { return false; }
#endif

}  // namespace

bool has_avx512_ifma() {
  static const bool has = detect_ifma();
  return has;
}

poseidon_batch_hasher::poseidon_batch_hasher(const poseidon_params& p, poseidon_kernel kernel) : p_(&p) {
  const bool ifma_ok = has_avx512_ifma() && ifma_width_supported(p.width);
  kernel_ = (kernel != poseidon_kernel::scalar && ifma_ok) ? poseidon_kernel::ifma : poseidon_kernel::scalar;
  if (kernel_ != poseidon_kernel::ifma) return;
  const std::size_t t = p.width;
  auto put = [](std::vector<uint64_t>& v, const fr& x) {
    const std::size_t at = v.size();
    v.resize(at + 5);
    ifma_form(x, v.data() + at);
  };
  for (const fr& c : p.compressed_round_constants) put(crc_, c);
  for (std::size_t j = 0; j < t; ++j)
    for (std::size_t i = 0; i < t; ++i) {
      put(mds_, p.mds.at(i, j));
      put(pre_sparse_, p.pre_sparse_matrix.at(i, j));
    }
  for (const fr& c : p.sparse_flat) put(sparse_, c);
}

void poseidon_batch_hasher::run(const fr* in, std::size_t count, fr* out, const fr& domain_tag, fr* aux,
                                fr* const* aux_rows) const {
  witness_rows rows{aux, poseidon_witness_size(*p_), aux_rows};
#if defined(__x86_64__)
  if (kernel_ == poseidon_kernel::ifma) {
    // A last group of one or two hashes is cheaper on the scalar path than in a padded batch
    // (a batch costs about a quarter of eight scalar hashes).
    const std::size_t tail = count % 8 < 3 ? count % 8 : 0, n = count - tail;
    const ifma_tables k{crc_.data(), mds_.data(), pre_sparse_.data(), sparse_.data(), p_->half_full_rounds,
                        p_->partial_rounds};
    switch (p_->width) {
      case 3: hash_ifma<3>(k, in, n, out, domain_tag, rows); break;
      case 5: hash_ifma<5>(k, in, n, out, domain_tag, rows); break;
      case 9: hash_ifma<9>(k, in, n, out, domain_tag, rows); break;
      case 12: hash_ifma<12>(k, in, n, out, domain_tag, rows); break;
      case 17: hash_ifma<17>(k, in, n, out, domain_tag, rows); break;
      default: throw std::logic_error("poseidon_batch_hasher: IFMA kernel for an unsupported width");
    }
    if (tail == 0) return;
    const witness_rows tail_rows{aux ? aux + n * rows.size : nullptr, rows.size, aux_rows ? aux_rows + n : nullptr};
    return run_scalar(*p_, in + n * p_->arity, tail, out + n, domain_tag, tail_rows);
  }
#endif
  run_scalar(*p_, in, count, out, domain_tag, rows);
}

const poseidon_batch_hasher& poseidon_batch_for_arity(std::size_t arity) {
  static constexpr std::size_t arities[] = {2, 4, 8, 11, 16, 24, 36};
  static std::array<std::unique_ptr<poseidon_batch_hasher>, 7> cache;
  static std::array<std::once_flag, 7> once;
  for (std::size_t k = 0; k < 7; ++k) {
    if (arities[k] != arity) continue;
    std::call_once(once[k], [&] { cache[k] = std::make_unique<poseidon_batch_hasher>(poseidon_constants(arity)); });
    return *cache[k];
  }
  throw std::invalid_argument("poseidon_batch_for_arity: arity must be 2, 4, 8, 11, 16, 24 or 36");
}

}  // namespace cuzk::gadgets::native
