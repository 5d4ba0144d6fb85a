// Pairwise batch-affine halving of a key-sorted bucket list, run before the XYZZ accumulation of
// msm_cuda.cu when g1_msm_options::affine_rounds (G1) or g2_affine_rounds (G2) is > 0. Written once
// for both curves over affine_field (below). Only included by .cu files.
//
// Input: the sorted (key, value) list of one window group (key = local window << c | |d|,
// value = point index << 1 | sign) over a point array. One round walks the list in ranges of
// `range` entries (g1_msm_options::affine_range, smaller in later rounds; 512 for the
// local-memory variant), one thread per range, and pairs consecutive entries of the same key
// greedily inside the range: (i, i + 1) with key[i] == key[i + 1] becomes one entry holding the
// affine sum P + Q; an entry whose neighbour has another key (or lies in the next range) passes
// through unchanged; digit-0 entries (no bucket) are dropped. The output list keeps the key
// order (threads write their outputs in walk order at offsets from a prefix sum of per-range
// output counts), its values are (output slot << 1) over a new affine array with the signs
// already applied, so the next round and the XYZZ accumulation read it exactly as they read the
// bases. A bucket of m entries inside one range leaves ceil(m / 2); each range boundary inside a
// bucket can leave one more unpaired entry. After R rounds a bucket of m entries has about
// m / 2^R entries (plus boundary leftovers), so the XYZZ accumulation does ~1/2^R of the
// additions (n W / 2^R), and the rounds do the rest as affine additions.
//
// Affine addition with a shared inversion (Montgomery's trick), per thread over its k pairs:
//   forward:  d_j = x_Q - x_P (only the two x's gathered), running products a_j = d_0 ... d_j
//             (stored, 48 B each), 1 M;
//   invert:   I = a_(k-1)^-1 (safegcd divsteps, fp_inverse_device.cuh: ~51 products alone,
//             ~26 inside this kernel, where it half overlaps the products of other warps);
//   backward: d_j^-1 = I a_(j-1), then I <- I d_j (2 M); lambda = (y_Q - y_P) d_j^-1 (1 M),
//             x3 = lambda^2 - x_P - x_Q (1 S), y3 = lambda (x_P - x3) - y_P (1 M).
// Per addition: 6 products + the inversion's share. Memory per addition: the x's (96 B), both
// points again in the backward pass (192 B), the running product written and read (96 B), the
// result (96 B), keys/values 16 B, against 96 B per XYZZ mixed addition.
// Measured on the H200 at 2^26 (docs/gpu-msm-batch-affine.md, version 3): 112.6 SM-cycles per
// affine addition with ranges of 32 entries (up to 16 pairs per inversion; 148 with 1024)
// against 98 per XYZZ entry: ~39 cycles per addition beyond the products and the inversion are
// gathers, scratch traffic and bookkeeping, so the rounds do not pay and
// g1_msm_options::affine_rounds defaults to 0.
//
// G2 (the same algorithm over Fp2, 3 Fp products per Fp2 product, 2 per square): an affine addition
// is 17 Fp products plus its share of one Fp2 inversion (the norm a0^2 + a1^2 as a dot product,
// one Fp inversion, 2 products), against 28 for the XYZZ mixed addition, whose kernels also run
// at ~1.8x their products (255 registers, operand moves around the product calls). So the
// trade is better than G1's: the inversion and the gathers weigh less beside 3x the products.
//
// Exceptional cases (exact, decided per pair from the loaded points; signs already applied):
//   P or Q at infinity ((0, 0)): the sum is the other one (infinity when both are); d := 1;
//   x_P == x_Q, y_P == y_Q (P == Q, e.g. a repeated base with the same sign): doubling,
//     lambda = 3 x^2 / (2 y), batched like the rest (d = 2y != 0: the prime-order groups have no
//     point of order 2);
//   x_P == x_Q, y_P != y_Q (P == -Q): the sum is the infinity (0, 0); d := 1.
// Infinity results are entries like any other: the next round treats them as above and the
// XYZZ accumulation skips them (add_entry). d := 1 keeps the running product invertible.
#pragma once

#include <cstddef>
#include <cstdint>

#include "backend/cuda/fp_inverse_device.cuh"
#include "backend/cuda/g2_device.cuh"

namespace cuzk::cuda::dev {

constexpr unsigned halving_local_range = 512;                // entries per thread, local-memory variant
constexpr unsigned halving_local_pairs = halving_local_range / 2;  // its pairs per thread at most
constexpr unsigned halving_block = 256;

// The greedy pairing of one range, shared by the count and the work kernel so that both see
// the same outputs: f(i, paired) for each output in key order.
template <class F>
__device__ __forceinline__ void halving_walk(const uint32_t* __restrict__ keys, std::size_t s, std::size_t e,
                                             uint32_t digit_mask, F&& f) {
  for (std::size_t i = s; i < e;) {
    const uint32_t k = keys[i];
    if ((k & digit_mask) == 0) {  // digit 0: no bucket, dropped
      ++i;
      continue;
    }
    if (i + 1 < e && keys[i + 1] == k) {
      f(i, true);
      i += 2;
    } else {
      f(i, false);
      ++i;
    }
  }
}

// counts[t] = outputs of range t (threads + 1 entries: the last is 0, so that an exclusive scan
// leaves the total there).
__global__ void __launch_bounds__(halving_block) halving_count_kernel(const uint32_t* __restrict__ keys,
                                                                      std::size_t count, unsigned range,
                                                                      std::size_t threads, uint32_t digit_mask,
                                                                      uint32_t* __restrict__ counts) {
  const std::size_t t = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (t > threads) return;
  uint32_t n = 0;
  if (t < threads) {
    const std::size_t s = t * range, e = s + range < count ? s + range : count;
    halving_walk(keys, s, e, digit_mask, [&](std::size_t, bool) { ++n; });
  }
  counts[t] = n;
}

// The coordinate field of a curve's affine points, as the halving kernels need it.
template <class Affine>
struct affine_field;
template <>
struct affine_field<g1_affine_dev> {
  using F = fp32;
  static __device__ __forceinline__ F zero() { return fp_zero(); }
  static __device__ __forceinline__ F one() { return fp_one(); }
  static __device__ __forceinline__ bool is_zero(const F& a) { return fp_is_zero(a); }
  static __device__ __forceinline__ bool eq(const F& a, const F& b) { return fp_eq(a, b); }
  static __device__ __forceinline__ F add(const F& a, const F& b) { return fp_add(a, b); }
  static __device__ __forceinline__ F sub(const F& a, const F& b) { return fp_sub(a, b); }
  static __device__ __forceinline__ F dbl(const F& a) { return fp_dbl(a); }
  template <class Mul>
  static __device__ __forceinline__ F mul(const F& a, const F& b) { return Mul::mul(a, b); }
  template <class Mul>
  static __device__ __forceinline__ F sqr(const F& a) { return Mul::sqr(a); }
  template <class Mul>
  static __device__ __forceinline__ F inverse(const F& a) { return fp_inverse_safegcd<Mul>(a); }
  static __device__ __forceinline__ F load_x(const g1_affine_dev* p) { return load_fp_ro(&p->x); }
  static __device__ __forceinline__ g1_affine_dev infinity() { return affine_infinity(); }
  static __device__ __forceinline__ void store(g1_affine_dev* p, const g1_affine_dev& a) { store_affine(p, a); }
};
template <>
struct affine_field<g2_affine_dev> {
  using F = fp2_dev;
  static __device__ __forceinline__ F zero() { return fp2_zero(); }
  static __device__ __forceinline__ F one() { return fp2_one(); }
  static __device__ __forceinline__ bool is_zero(const F& a) { return fp2_is_zero(a); }
  static __device__ __forceinline__ bool eq(const F& a, const F& b) { return fp_eq(a.c0, b.c0) && fp_eq(a.c1, b.c1); }
  static __device__ __forceinline__ F add(const F& a, const F& b) { return fp2_add(a, b); }
  static __device__ __forceinline__ F sub(const F& a, const F& b) { return fp2_sub(a, b); }
  static __device__ __forceinline__ F dbl(const F& a) { return fp2_dbl(a); }
  template <class Mul>
  static __device__ __forceinline__ F mul(const F& a, const F& b) { return fp2_mul_policy<Mul>::mul(a, b); }
  template <class Mul>
  static __device__ __forceinline__ F sqr(const F& a) { return fp2_mul_policy<Mul>::sqr(a); }
  // (a0 + a1 u)^-1 = (a0 - a1 u) / (a0^2 + a1^2). The norm is 0 only for a = 0: -1 is not a square
  // mod p (p = 3 mod 4). Cost: the dot product (~1.5 products), one Fp inversion, 2 products.
  template <class Mul>
  static __device__ __forceinline__ F inverse(const F& a) {
    const fp32 t = fp_inverse_safegcd<Mul>(Mul::dot(a.c0, a.c0, a.c1, a.c1));
    return {Mul::mul(a.c0, t), fp_neg(Mul::mul(a.c1, t))};
  }
  static __device__ __forceinline__ F load_x(const g2_affine_dev* p) { return load_fp2_ro(&p->x); }
  static __device__ __forceinline__ g2_affine_dev infinity() { return {fp2_zero(), fp2_zero()}; }
  static __device__ __forceinline__ void store(g2_affine_dev* p, const g2_affine_dev& a) {
    store_fp2(&p->x, a.x);
    store_fp2(&p->y, a.y);
  }
};

template <class Affine>
__device__ __forceinline__ Affine load_signed(const uint32_t* __restrict__ vals, const Affine* __restrict__ pts,
                                              std::size_t i) {
  const uint32_t v = vals[i];
  Affine p = load_affine(pts + (v >> 1));
  if (v & 1) negate_y(p);  // the infinity (0, 0) stays (0, 0)
  return p;
}

// The terms of one pair: lambda = num / den when kind == 0; else the sum is P (1), Q (2) or the
// infinity (3), and den = 1.
template <class F>
struct pair_terms {
  F num, den;
  int kind;
};
template <class Mul, class Affine>
__device__ __forceinline__ pair_terms<typename affine_field<Affine>::F> pair_setup(const Affine& p, const Affine& q) {
  using T = affine_field<Affine>;
  if (is_infinity(p)) return {T::zero(), T::one(), 2};
  if (is_infinity(q)) return {T::zero(), T::one(), 1};
  if (T::eq(p.x, q.x)) {
    if (!T::eq(p.y, q.y)) return {T::zero(), T::one(), 3};
    const auto x2 = T::template sqr<Mul>(p.x);  // doubling: lambda = 3 x^2 / 2 y
    return {T::add(T::dbl(x2), x2), T::dbl(p.y), 0};
  }
  return {T::sub(q.y, p.y), T::sub(q.x, p.x), 0};
}
// The forward pass needs only den, which is x_Q - x_P unless a case test needs the y's (x = 0
// may be the infinity (0, 0); equal x's are a doubling or a cancellation): it gathers the two
// x's (signs only change y) and the whole points only in those rare cases.
template <class Mul, class Affine>
__device__ __forceinline__ typename affine_field<Affine>::F pair_den(const uint32_t* __restrict__ vals,
                                                                     const Affine* __restrict__ pts, std::size_t i) {
  using T = affine_field<Affine>;
  const auto xp = T::load_x(&pts[vals[i] >> 1]), xq = T::load_x(&pts[vals[i + 1] >> 1]);
  if (T::is_zero(xp) || T::is_zero(xq) || T::eq(xp, xq))
    return pair_setup<Mul>(load_signed(vals, pts, i), load_signed(vals, pts, i + 1)).den;
  return T::sub(xq, xp);
}
template <class Mul, class Affine, class F>
__device__ __forceinline__ Affine pair_finish(const Affine& p, const Affine& q, const pair_terms<F>& t,
                                              const F& den_inv) {
  using T = affine_field<Affine>;
  if (t.kind == 1) return p;
  if (t.kind == 2) return q;
  if (t.kind == 3) return T::infinity();
  const F lambda = T::template mul<Mul>(t.num, den_inv);
  Affine r;
  r.x = T::sub(T::sub(T::template sqr<Mul>(lambda), p.x), q.x);
  r.y = T::sub(T::template mul<Mul>(lambda, T::sub(p.x, r.x)), p.y);
  return r;
}

// Where a thread keeps its running products a_j and pair positions between the forward and the
// backward pass. local_prefix: arrays in the thread's local memory (at most 256 pairs). The
// local frame (13 KB per thread, 7 MB per SM at 512 threads) cannot stay in L1, so the
// prefix traffic also evicts the frame's hot lines (call spills, the inversion table).
// global_prefix: device scratch laid out [pair j][thread t] (lanes of a warp at the same j are
// adjacent), written and read with streaming hints (evict first), any number of pairs.
struct local_prefix {  // G1 only
  fp32 pre[halving_local_pairs];
  uint32_t wh[halving_local_pairs];
  __device__ __forceinline__ void put(unsigned j, const fp32& a, uint32_t w) {
    pre[j] = a;
    wh[j] = w;
  }
  __device__ __forceinline__ fp32 prefix(unsigned j) const { return pre[j]; }
  __device__ __forceinline__ uint32_t where(unsigned j) const { return wh[j]; }
};
template <class F>
struct global_prefix {
  static constexpr unsigned quads = sizeof(F) / 16;  // 16-byte words per element (Fp 3, Fp2 6)
  static_assert(sizeof(F) % 16 == 0, "field elements are whole 16-byte words");
  F* pre;
  uint32_t* wh;
  std::size_t t, stride;  // stride = threads of the launch
  __device__ __forceinline__ void put(unsigned j, const F& a, uint32_t w) {
    uint4* q = reinterpret_cast<uint4*>(pre + j * stride + t);
    const uint32_t* v = reinterpret_cast<const uint32_t*>(&a);
#pragma unroll
    for (unsigned k = 0; k < quads; ++k) __stcs(q + k, make_uint4(v[4 * k], v[4 * k + 1], v[4 * k + 2], v[4 * k + 3]));
    __stcs(wh + j * stride + t, w);
  }
  __device__ __forceinline__ F prefix(unsigned j) const {
    const uint4* q = reinterpret_cast<const uint4*>(pre + j * stride + t);
    F r;
    uint32_t* v = reinterpret_cast<uint32_t*>(&r);
#pragma unroll
    for (unsigned k = 0; k < quads; ++k) {
      const uint4 a = __ldcs(q + k);
      v[4 * k] = a.x, v[4 * k + 1] = a.y, v[4 * k + 2] = a.z, v[4 * k + 3] = a.w;
    }
    return r;
  }
  __device__ __forceinline__ uint32_t where(unsigned j) const { return __ldcs(wh + j * stride + t); }
};

// One halving round (header comment) over the range [s, e) of thread t; offsets[t] = its first
// output slot.
template <class Mul, class Affine, class Prefix>
__device__ __forceinline__ void halving_range_body(const uint32_t* __restrict__ keys, const uint32_t* __restrict__ vals,
                                                   const Affine* __restrict__ pts, std::size_t s, std::size_t e,
                                                   uint32_t digit_mask, uint32_t base, uint32_t* __restrict__ keys_out,
                                                   uint32_t* __restrict__ vals_out, Affine* __restrict__ pts_out,
                                                   Prefix& store) {
  using T = affine_field<Affine>;
  using F = typename T::F;
  F run = T::one();
  unsigned pairs = 0;
  uint32_t slot = 0;
  halving_walk(keys, s, e, digit_mask, [&](std::size_t i, bool paired) {
    const uint32_t o = base + slot;
    keys_out[o] = keys[i];
    vals_out[o] = o << 1;
    if (paired) {
      run = T::template mul<Mul>(run, pair_den<Mul>(vals, pts, i));
      store.put(pairs, run, static_cast<uint32_t>(i - s) | (slot << 16));
      ++pairs;
    } else {
      T::store(pts_out + o, load_signed(vals, pts, i));
    }
    ++slot;
  });
  if (pairs == 0) return;
  F inv = T::template inverse<Mul>(run);  // (d_0 ... d_(k-1))^-1
  for (unsigned j = pairs; j-- > 0;) {
    const uint32_t w = store.where(j);
    const std::size_t i = s + (w & 0xffffu);
    const uint32_t o = base + (w >> 16);
    const Affine p = load_signed(vals, pts, i), q = load_signed(vals, pts, i + 1);
    const pair_terms<F> pt = pair_setup<Mul>(p, q);
    F den_inv = inv;
    if (j > 0) {
      den_inv = T::template mul<Mul>(inv, store.prefix(j - 1));  // d_j^-1 = (d_0 ... d_j)^-1 (d_0 ... d_(j-1))
      inv = T::template mul<Mul>(inv, pt.den);                    // (d_0 ... d_(j-1))^-1
    }
    T::store(pts_out + o, pair_finish<Mul>(p, q, pt, den_inv));
  }
}

// Local-memory variant (G1 only): ranges of halving_local_range entries.
template <class Mul>
__global__ void __launch_bounds__(halving_block, 2)
    halving_local_kernel(const uint32_t* __restrict__ keys, const uint32_t* __restrict__ vals,
                         const g1_affine_dev* __restrict__ pts, std::size_t count, std::size_t threads,
                         uint32_t digit_mask, const uint32_t* __restrict__ offsets, uint32_t* __restrict__ keys_out,
                         uint32_t* __restrict__ vals_out, g1_affine_dev* __restrict__ pts_out) {
  const std::size_t t = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (t >= threads) return;
  const std::size_t s = t * halving_local_range;
  const std::size_t e = s + halving_local_range < count ? s + halving_local_range : count;
  local_prefix store;
  halving_range_body<Mul>(keys, vals, pts, s, e, digit_mask, offsets[t], keys_out, vals_out, pts_out, store);
}

// Global-scratch variant: ranges of `range` entries (range / 2 x threads prefix slots).
// MinBlocks: 2 for G1 (128 registers), 1 for G2 (its Fp2 values need more than 128).
template <class Mul, class Affine, int MinBlocks>
__global__ void __launch_bounds__(halving_block, MinBlocks)
    halving_global_kernel(const uint32_t* __restrict__ keys, const uint32_t* __restrict__ vals,
                          const Affine* __restrict__ pts, std::size_t count, unsigned range, std::size_t threads,
                          uint32_t digit_mask, const uint32_t* __restrict__ offsets, uint32_t* __restrict__ keys_out,
                          uint32_t* __restrict__ vals_out, Affine* __restrict__ pts_out,
                          typename affine_field<Affine>::F* __restrict__ prefix, uint32_t* __restrict__ where) {
  const std::size_t t = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (t >= threads) return;
  const std::size_t s = t * range, e = s + range < count ? s + range : count;
  global_prefix<typename affine_field<Affine>::F> store{prefix, where, t, threads};
  halving_range_body<Mul>(keys, vals, pts, s, e, digit_mask, offsets[t], keys_out, vals_out, pts_out, store);
}

}  // namespace cuzk::cuda::dev
