// The batch-affine flush of the G1 Pippenger (pippenger_impl.hpp) on 8 lanes of AVX-512 IFMA
// (ff/fp_ifma.hpp): the m independent affine additions of one flush are laid out 8 at a time
// across the lanes; lane l carries its own Montgomery-trick chain (items l, l + 8, l + 16, ...),
// the 8 chain products are inverted together by the scalar field (one inversion and 21
// multiplications per flush), and the back substitution runs in the lanes again.
//
// Per addition, as in the scalar flush: 1M prefix product, 2M back substitution, 1M lambda, 1S,
// 1M for y3; plus two canonicalisations (x3 and y3 go back to memory fully reduced, so the
// buckets are bit for bit what the scalar flush writes), 24 gathered and 12 scattered words.
// The results equal the scalar flush's exactly (both compute the same field elements and store
// them canonical).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "ec/point.hpp"

namespace cuzk::msm::detail {

// One queued addition: bucket index, sign of the base, base.
template <class Affine>
struct batch_item {
  uint32_t bucket;
  uint32_t negate;
  const Affine* p;
};

// True when simd_batch_add_g1/g2 may run: the CPU has AVX-512 IFMA and the environment variable
// CUZK_MSM_SIMD is not "0" (read once; for measurements against the scalar flush).
bool simd_flush_available();
// True when simd_bucket_sum may run as well: IFMA, and CUZK_MSM_SIMD neither "0" nor "1".
bool simd_reduce_available();

// Working memory of the lanes, reused across flushes of one window task.
struct simd_flush_scratch {
  std::vector<uint64_t> lanes;  // spilled lane values, 2 KiB per group of 8 (+64 B for alignment)
  std::vector<uint64_t> addr;   // per group: 8 bucket and 8 base addresses
  std::vector<uint8_t> neg;     // per group: lane mask of negated bases
};

// buckets[it.bucket] += (it.negate ? -*it.p : *it.p) for the m items: affine additions with
// x(bucket) != x(p), neither at infinity, distinct buckets (the caller's batch invariants).
// Call only when simd_flush_available().
void simd_batch_add_g1(ec::g1_affine* buckets, const batch_item<ec::g1_affine>* items, std::size_t m,
                       simd_flush_scratch& scratch);
// The same over Fp2 for G2 (three lane products per Fp2 product).
void simd_batch_add_g2(ec::g2_affine* buckets, const batch_item<ec::g2_affine>* items, std::size_t m,
                       simd_flush_scratch& scratch);

// sum_b (b + 1) buckets[b] over nb affine buckets (infinity allowed), nb a multiple of 8: eight
// segment running sums side by side in XYZZ (batch_add_simd.cpp). Returns false, with out
// untouched, when some lane met a doubling or a cancellation (the XYZZ addition formulas exclude
// them; the scalar reducer handles them), or nb is not a multiple of 8. The point equals the
// scalar reduction's; its XYZZ coordinates differ (another order of additions).
bool simd_bucket_sum(const ec::g1_affine* buckets, std::size_t nb, ec::xyzz_point<ec::g1_curve>& out);
bool simd_bucket_sum(const ec::g2_affine* buckets, std::size_t nb, ec::xyzz_point<ec::g2_curve>& out);

// Overloads for the Pippenger template.
inline void simd_batch_add(ec::g1_affine* b, const batch_item<ec::g1_affine>* it, std::size_t m,
                           simd_flush_scratch& s) {
  simd_batch_add_g1(b, it, m, s);
}
inline void simd_batch_add(ec::g2_affine* b, const batch_item<ec::g2_affine>* it, std::size_t m,
                           simd_flush_scratch& s) {
  simd_batch_add_g2(b, it, m, s);
}

}  // namespace cuzk::msm::detail
