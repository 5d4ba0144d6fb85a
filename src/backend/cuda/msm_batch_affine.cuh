// Pairwise batch-affine halving of a key-sorted bucket list (G1), run before the XYZZ
// accumulation of msm_cuda.cu when g1_msm_options::affine_rounds > 0. Only included by .cu files.
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
// Exceptional cases (exact, decided per pair from the loaded points; signs already applied):
//   P or Q at infinity ((0, 0)): the sum is the other one (infinity when both are); d := 1;
//   x_P == x_Q, y_P == y_Q (P == Q, e.g. a repeated base with the same sign): doubling,
//     lambda = 3 x^2 / (2 y), batched like the rest (d = 2y != 0: G1 has no point of order 2);
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

__device__ __forceinline__ g1_affine_dev load_signed(const uint32_t* __restrict__ vals,
                                                     const g1_affine_dev* __restrict__ pts, std::size_t i) {
  const uint32_t v = vals[i];
  g1_affine_dev p = load_affine(pts + (v >> 1));
  if (v & 1) negate_y(p);  // the infinity (0, 0) stays (0, 0)
  return p;
}

// The terms of one pair: lambda = num / den when kind == 0; else the sum is P (1), Q (2) or the
// infinity (3), and den = 1.
struct pair_terms {
  fp32 num, den;
  int kind;
};
template <class Mul>
__device__ __forceinline__ pair_terms pair_setup(const g1_affine_dev& p, const g1_affine_dev& q) {
  if (is_infinity(p)) return {fp_zero(), fp_one(), 2};
  if (is_infinity(q)) return {fp_zero(), fp_one(), 1};
  if (fp_eq(p.x, q.x)) {
    if (!fp_eq(p.y, q.y)) return {fp_zero(), fp_one(), 3};
    const fp32 x2 = Mul::sqr(p.x);  // doubling: lambda = 3 x^2 / 2 y
    return {fp_add(fp_dbl(x2), x2), fp_dbl(p.y), 0};
  }
  return {fp_sub(q.y, p.y), fp_sub(q.x, p.x), 0};
}
// The forward pass needs only den, which is x_Q - x_P unless a case test needs the y's (x = 0
// may be the infinity (0, 0); equal x's are a doubling or a cancellation): it gathers the two
// 48-byte x's (signs only change y) and the whole points only in those rare cases.
template <class Mul>
__device__ __forceinline__ fp32 pair_den(const uint32_t* __restrict__ vals, const g1_affine_dev* __restrict__ pts,
                                         std::size_t i) {
  const fp32 xp = load_fp_ro(&pts[vals[i] >> 1].x), xq = load_fp_ro(&pts[vals[i + 1] >> 1].x);
  if (fp_is_zero(xp) || fp_is_zero(xq) || fp_eq(xp, xq))
    return pair_setup<Mul>(load_signed(vals, pts, i), load_signed(vals, pts, i + 1)).den;
  return fp_sub(xq, xp);
}
template <class Mul>
__device__ __forceinline__ g1_affine_dev pair_finish(const g1_affine_dev& p, const g1_affine_dev& q,
                                                     const pair_terms& t, const fp32& den_inv) {
  if (t.kind == 1) return p;
  if (t.kind == 2) return q;
  if (t.kind == 3) return affine_infinity();
  const fp32 lambda = Mul::mul(t.num, den_inv);
  g1_affine_dev r;
  r.x = fp_sub(fp_sub(Mul::sqr(lambda), p.x), q.x);
  r.y = fp_sub(Mul::mul(lambda, fp_sub(p.x, r.x)), p.y);
  return r;
}

// Where a thread keeps its running products a_j and pair positions between the forward and the
// backward pass. local_prefix: arrays in the thread's local memory (at most 256 pairs). The
// local frame (13 KB per thread, 7 MB per SM at 512 threads) cannot stay in L1, so the
// prefix traffic also evicts the frame's hot lines (call spills, the inversion table).
// global_prefix: device scratch laid out [pair j][thread t] (lanes of a warp at the same j are
// adjacent), written and read with streaming hints (evict first), any number of pairs.
struct local_prefix {
  fp32 pre[halving_local_pairs];
  uint32_t wh[halving_local_pairs];
  __device__ __forceinline__ void put(unsigned j, const fp32& a, uint32_t w) {
    pre[j] = a;
    wh[j] = w;
  }
  __device__ __forceinline__ fp32 prefix(unsigned j) const { return pre[j]; }
  __device__ __forceinline__ uint32_t where(unsigned j) const { return wh[j]; }
};
struct global_prefix {
  fp32* pre;
  uint32_t* wh;
  std::size_t t, stride;  // stride = threads of the launch
  __device__ __forceinline__ void put(unsigned j, const fp32& a, uint32_t w) {
    uint4* q = reinterpret_cast<uint4*>(pre + j * stride + t);
    __stcs(q, make_uint4(a.v[0], a.v[1], a.v[2], a.v[3]));
    __stcs(q + 1, make_uint4(a.v[4], a.v[5], a.v[6], a.v[7]));
    __stcs(q + 2, make_uint4(a.v[8], a.v[9], a.v[10], a.v[11]));
    __stcs(wh + j * stride + t, w);
  }
  __device__ __forceinline__ fp32 prefix(unsigned j) const {
    const uint4* q = reinterpret_cast<const uint4*>(pre + j * stride + t);
    const uint4 a = __ldcs(q), b = __ldcs(q + 1), c = __ldcs(q + 2);
    return {{a.x, a.y, a.z, a.w, b.x, b.y, b.z, b.w, c.x, c.y, c.z, c.w}};
  }
  __device__ __forceinline__ uint32_t where(unsigned j) const { return __ldcs(wh + j * stride + t); }
};

// One halving round (header comment) over the range [s, e) of thread t; offsets[t] = its first
// output slot.
template <class Mul, class Prefix>
__device__ __forceinline__ void halving_range_body(const uint32_t* __restrict__ keys, const uint32_t* __restrict__ vals,
                                                   const g1_affine_dev* __restrict__ pts, std::size_t s, std::size_t e,
                                                   uint32_t digit_mask, uint32_t base, uint32_t* __restrict__ keys_out,
                                                   uint32_t* __restrict__ vals_out,
                                                   g1_affine_dev* __restrict__ pts_out, Prefix& store) {
  fp32 run = fp_one();
  unsigned pairs = 0;
  uint32_t slot = 0;
  halving_walk(keys, s, e, digit_mask, [&](std::size_t i, bool paired) {
    const uint32_t o = base + slot;
    keys_out[o] = keys[i];
    vals_out[o] = o << 1;
    if (paired) {
      run = Mul::mul(run, pair_den<Mul>(vals, pts, i));
      store.put(pairs, run, static_cast<uint32_t>(i - s) | (slot << 16));
      ++pairs;
    } else {
      store_affine(pts_out + o, load_signed(vals, pts, i));
    }
    ++slot;
  });
  if (pairs == 0) return;
  fp32 inv = fp_inverse_safegcd<Mul>(run);  // (d_0 ... d_(k-1))^-1
  for (unsigned j = pairs; j-- > 0;) {
    const uint32_t w = store.where(j);
    const std::size_t i = s + (w & 0xffffu);
    const uint32_t o = base + (w >> 16);
    const g1_affine_dev p = load_signed(vals, pts, i), q = load_signed(vals, pts, i + 1);
    const pair_terms pt = pair_setup<Mul>(p, q);
    fp32 den_inv = inv;
    if (j > 0) {
      den_inv = Mul::mul(inv, store.prefix(j - 1));  // d_j^-1 = (d_0 ... d_j)^-1 (d_0 ... d_(j-1))
      inv = Mul::mul(inv, pt.den);                    // (d_0 ... d_(j-1))^-1
    }
    store_affine(pts_out + o, pair_finish<Mul>(p, q, pt, den_inv));
  }
}

// Local-memory variant: ranges of halving_local_range entries.
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
template <class Mul>
__global__ void __launch_bounds__(halving_block, 2)
    halving_global_kernel(const uint32_t* __restrict__ keys, const uint32_t* __restrict__ vals,
                          const g1_affine_dev* __restrict__ pts, std::size_t count, unsigned range,
                          std::size_t threads, uint32_t digit_mask, const uint32_t* __restrict__ offsets,
                          uint32_t* __restrict__ keys_out, uint32_t* __restrict__ vals_out,
                          g1_affine_dev* __restrict__ pts_out, fp32* __restrict__ prefix,
                          uint32_t* __restrict__ where) {
  const std::size_t t = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (t >= threads) return;
  const std::size_t s = t * range, e = s + range < count ? s + range : count;
  global_prefix store{prefix, where, t, threads};
  halving_range_body<Mul>(keys, vals, pts, s, e, digit_mask, offsets[t], keys_out, vals_out, pts_out, store);
}

}  // namespace cuzk::cuda::dev
