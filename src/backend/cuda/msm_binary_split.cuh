// Kernels of the 0/1 split for MSMs whose scalars are mostly 0 and 1 (the L, A and B MSMs of a
// PoRep witness: ~90% of the aux values are bits). Only included by msm_cuda.cu, which runs them
// in g1_msm_context::msm_mostly_binary:
//   1. classify_gather_kernel: one pass over the scalars writes a code per position (0: zero,
//      1: one, 2: anything else) and appends every "rest" position's base and scalar to two
//      compact arrays (warp-aggregated atomic slots, so their order varies from run to run: the
//      MSM is a sum, and the affine result is unique, so the proof bytes do not);
//   2. sum_ones_kernel: thread t adds, with mixed XYZZ additions, the bases of the ones in its
//      range of positions; each lane skips ahead to its next one before adding (16 codes per
//      load), so a warp's lanes add together instead of idling on the other lanes' zeros;
//      or the ones listed first (count_ones_kernel, a scan, list_ones_kernel) and added in equal
//      shares by add_listed_kernel (G1 with g1_ones_listed, the default), for G2 with
//      g2_affine_rounds after the batch-affine rounds of msm_batch_affine.cuh halved them in chunks;
//   3. the partial sums go through msm_cuda.cu's sum_groups_kernel to <= 64, then the host;
//   4. the rest (at most rest_capacity, else the caller runs the plain MSM) goes through the
//      Pippenger pipeline over the compact arrays.
// Why: the plain pipeline turns every position into W = ceil(255/c) digit entries, sorts them
// and reduces 2^(c-1) buckets per window for the n of the whole vector; a PoRep L MSM at 2^27
// (45% zero, 45% one, 10% other) took 270 ms of which the ones (one addition each) and the rest
// (13M scalars) need ~25 ms and ~90 ms.
// Cost of the split itself: one read of 32 B per scalar and one of 1 B per position for the
// ones, ~5 GB at 2^27 (~1.5 ms of HBM), plus the rest's gathers (128 B each).
#pragma once

#include <cstddef>
#include <cstdint>

#include "ff/bls12_381.hpp"

namespace cuzk::cuda::binary_split {

enum : uint8_t { code_zero = 0, code_one = 1, code_rest = 2 };

// The Montgomery form of 1 in Fr (R mod r), passed by value to the kernel.
struct fr_words {
  uint64_t w[4];
};

template <class Affine>
__global__ void classify_gather_kernel(const ff::fr* __restrict__ scalars, const Affine* __restrict__ bases,
                                       std::size_t n, fr_words one, uint8_t* __restrict__ codes,
                                       unsigned long long* __restrict__ rest_count, std::size_t rest_capacity,
                                       Affine* __restrict__ rest_bases, ff::fr* __restrict__ rest_scalars) {
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  // Every lane of the warp takes part in the ballot (the grid is whole warps): no early return.
  bool rest = false;
  if (i < n) {
    const uint64_t* s = reinterpret_cast<const uint64_t*>(scalars + i);
    const uint64_t s0 = s[0], s1 = s[1], s2 = s[2], s3 = s[3];
    uint8_t code = code_rest;
    if ((s0 | s1 | s2 | s3) == 0)
      code = code_zero;
    else if (s0 == one.w[0] && s1 == one.w[1] && s2 == one.w[2] && s3 == one.w[3])
      code = code_one;
    codes[i] = code;
    rest = code == code_rest;
  }
  const unsigned lane = threadIdx.x & 31u;
  const unsigned ballot = __ballot_sync(0xffffffffu, rest);
  unsigned long long first = 0;
  if (lane == 0 && ballot != 0) first = atomicAdd(rest_count, static_cast<unsigned long long>(__popc(ballot)));
  first = __shfl_sync(0xffffffffu, first, 0);
  if (rest) {
    const std::size_t slot = first + static_cast<unsigned>(__popc(ballot & ((1u << lane) - 1u)));
    if (slot < rest_capacity) {
      rest_bases[slot] = bases[i];
      rest_scalars[slot] = scalars[i];
    }
  }
}

// Bit j of the result: whether byte j of the 16 codes at `codes` is code_one (codes are 0, 1, 2,
// so bit 0 of a byte is set exactly for a one). Per 32-bit word, the product by 2^24 + 2^17 +
// 2^10 + 2^3 moves bits 0, 8, 16, 24 to 24..27 and every cross term below bit 24 or past bit 31.
__device__ __forceinline__ uint32_t ones_mask16(const uint8_t* codes) {
  const uint4 c = *reinterpret_cast<const uint4*>(codes);
  auto four = [](uint32_t x) { return ((x & 0x01010101u) * 0x01020408u) >> 24; };
  return four(c.x) | four(c.y) << 4 | four(c.z) << 8 | four(c.w) << 12;
}

// out[t] = sum of bases[i] over the ones among positions [t range, (t + 1) range). range is a
// multiple of 16 and `codes` readable up to n rounded up to 16 (the host sizes both so).
// The codes are read 16 at a time as a mask (one load per 16 positions instead of a byte loop
// whose lanes diverge on the zeros), and the next one's base is loaded before the current
// addition, so its gather overlaps the products.
template <class C, class Mul, unsigned Threads, unsigned MinBlocks>
__global__ void __launch_bounds__(Threads, MinBlocks) sum_ones_kernel(const uint8_t* __restrict__ codes,
                                                                      const typename C::affine* __restrict__ bases,
                                std::size_t n, std::size_t range, std::size_t threads,
                                typename C::xyzz* __restrict__ out) {
  using ops = typename C::template ops<Mul>;
  const std::size_t t = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (t >= threads) return;
  const std::size_t end = (t + 1) * range < n ? (t + 1) * range : n;
  std::size_t block = t * range;  // the next 16 positions to scan
  uint32_t mask = 0;              // ones not yet taken among the 16 positions before `block`
  // The next one's position, or end.
  auto next_one = [&]() -> std::size_t {
    while (mask == 0) {
      if (block >= end) return end;
      mask = ones_mask16(codes + block);
      if (end - block < 16) mask &= (1u << (end - block)) - 1u;
      block += 16;
    }
    const unsigned bit = __ffs(mask) - 1;
    mask &= mask - 1;
    return block - 16 + bit;
  };
  typename C::xyzz acc = ops::identity();
  std::size_t i = next_one();
  typename C::affine p;
  if (i < end) p = dev::load_affine(bases + i);
  while (i < end) {
    const typename C::affine cur = p;
    i = next_one();
    if (i < end) p = dev::load_affine(bases + i);
    if (!dev::is_infinity(cur)) acc = ops::add_mixed(acc, cur);
  }
  dev::store_xyzz(out + t, acc);
}

// The ones as a list, for the G2 split's batch-affine halving and G1's balanced pass (msm_cuda.cu,
// sum_ones_listed):
// counts[j] = ones among the 16 positions of word j (words = ceil(n / 16); counts[words] = 0, so
// that an exclusive scan leaves the total there), then each word's ones in position order at its
// offset: vals = position << 1 (sign +), keys = 1 (one bucket of digit 1; the halving pairs
// consecutive entries of equal keys, so every entry of a range pairs).
// The ones of word j (positions 16 j .. 16 j + 15, those below n).
__device__ __forceinline__ uint32_t word_ones(const uint8_t* codes, std::size_t n, std::size_t j) {
  uint32_t mask = ones_mask16(codes + 16 * j);
  if (n - 16 * j < 16) mask &= (1u << (n - 16 * j)) - 1u;
  return mask;
}
__global__ void count_ones_kernel(const uint8_t* __restrict__ codes, std::size_t n, std::size_t words,
                                  uint32_t* __restrict__ counts) {
  const std::size_t j = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (j > words) return;
  counts[j] = j < words ? static_cast<uint32_t>(__popc(word_ones(codes, n, j))) : 0u;
}
__global__ void list_ones_kernel(const uint8_t* __restrict__ codes, std::size_t n, std::size_t words,
                                 const uint32_t* __restrict__ offsets, uint32_t* __restrict__ keys,
                                 uint32_t* __restrict__ vals) {
  const std::size_t j = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (j >= words) return;
  uint32_t mask = word_ones(codes, n, j);
  for (uint32_t o = offsets[j]; mask != 0; ++o, mask &= mask - 1) {
    keys[o] = 1;
    vals[o] = static_cast<uint32_t>(16 * j + (__ffs(mask) - 1)) << 1;
  }
}

// out[t] += the sum of the signed points (vals[i] = index << 1 | sign over pts) of entries
// [t range, (t + 1) range), infinities skipped; out starts as the identity (zero bytes), so the
// chunks of a list add into the same partial sums.
template <class C, class Mul, unsigned Threads, unsigned MinBlocks>
__global__ void __launch_bounds__(Threads, MinBlocks) add_listed_kernel(const uint32_t* __restrict__ vals,
                                                                        const typename C::affine* __restrict__ pts,
                                                                        std::size_t count, std::size_t range,
                                                                        std::size_t threads,
                                                                        typename C::xyzz* __restrict__ out) {
  using ops = typename C::template ops<Mul>;
  const std::size_t t = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (t >= threads || t * range >= count) return;
  const std::size_t end = (t + 1) * range < count ? (t + 1) * range : count;
  typename C::xyzz acc = dev::load_xyzz(out + t);
  // The next entry's point is loaded before the current addition, so its gather overlaps the
  // products (as in sum_ones_kernel).
  std::size_t i = t * range;
  uint32_t v = vals[i];
  typename C::affine next = dev::load_affine(pts + (v >> 1));
  for (; i < end; ++i) {
    typename C::affine p = next;
    const uint32_t sign = v & 1;
    if (i + 1 < end) {
      v = vals[i + 1];
      next = dev::load_affine(pts + (v >> 1));
    }
    if (dev::is_infinity(p)) continue;
    if (sign) dev::negate_y(p);
    acc = ops::add_mixed(acc, p);
  }
  dev::store_xyzz(out + t, acc);
}

}  // namespace cuzk::cuda::binary_split
