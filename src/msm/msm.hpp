// Multi-scalar multiplication on the CPU: sum_i k_i * P_i over affine bases P_i of G1 or G2 and
// scalars k_i of Fr.
//
//   pippenger()  the bucket method on canonical scalars (no special cases), any window size.
//   multiexp()   bellperson's semantics (src/multiexp.rs): scalars 0 are skipped, scalars 1 are
//                summed directly (a plain sum of bases), the rest go through pippenger(); with a
//                density_bitmap the bases are those of the set positions only (params compacted by
//                density) while the scalars cover every position.
//   naive_msm()  the slow twin: sum of scalar_mul, for tests.
//
// Algorithm (pippenger_impl.hpp has the details and the cost figures):
//   * scalars k > (r-1)/2 are replaced by r - k with the base negated, so every scalar is
//     < 2^254; signed digits d in [-2^(c-1)+1, 2^(c-1)] over W = ceil(255/c) windows of c bits
//     (the top window never carries out);
//   * or, when the cost model prefers it (endomorphism.hpp), k = k1 + k2 X^2 with |k1|, |k2| <
//     2^127 over the bases P and [X^2]P (an endomorphism: 1M in G1, 4 Fp2 M in G2): 2n points,
//     W = ceil(128/c) windows, half the bucket reductions;
//   * per window, |d| selects one of 2^(c-1) buckets, the sign negates the base (free);
//   * buckets accumulate either in XYZZ coordinates (mixed add 8M+2S) or as affine points with
//     batched inversions (Montgomery's trick: 5M+1S per add plus a shared inversion), conflicts
//     deferred, hard cases (equal x) to an XYZZ overflow;
//   * a running-sum reduction gives sum_m m*B_m with 2 full adds per bucket;
//   * windows are combined by c doublings each (Horner).
// Work is split into (window, point range) tasks run through the caller's executor; the plan
// (window size c, point ranges per window) minimises a cost model of the makespan.
//
// Nothing here allocates threads, does I/O or draws randomness.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "base/executor.hpp"
#include "ec/point.hpp"
#include "ff/bls12_381.hpp"
#include "base/density_bitmap.hpp"

namespace cuzk::msm {

using base::density_bitmap;

// A scalar as its canonical integer in [0, r), little-endian 64-bit limbs.
using scalar_repr = ff::bigint<4>;

enum class accumulation : uint8_t {
  automatic,     // batch_affine when each task has enough points to amortise the inversions
  xyzz,          // bucket += affine in XYZZ coordinates, 8M + 2S per point
  batch_affine,  // affine buckets, batched affine additions, ~5M + 1S per point + inversion share
};

enum class scalar_split : uint8_t {
  automatic,    // by the cost model, for up to 2^22 points (the split holds [X^2]P per point)
  none,         // plain 255-bit digits
  endomorphism  // k = k1 + k2 X^2 over P and [X^2]P (endomorphism.hpp)
};

struct options {
  unsigned window_bits = 0;  // c; 0 = chosen by the cost model; forced values are clamped to [1, 24]
  accumulation acc = accumulation::automatic;
  unsigned point_chunks = 0;  // point ranges per window; 0 = chosen by the cost model
  unsigned batch_size = 0;    // batch_affine: additions per shared inversion; 0 = automatic
  scalar_split split = scalar_split::automatic;
  // Batch-affine flushes and bucket reductions on 8 lanes of AVX-512 IFMA (G1 over Fp, G2 over
  // Fp2) where the CPU has it and the environment does not say CUZK_MSM_SIMD=0 (=1: flush only).
  // The flush writes the same buckets as the scalar one; the lane reduction adds in another
  // order, so the result is the same point in another Jacobian representative (same affine).
  bool simd = true;
};

// What pippenger() will do for n non-trivial scalars on an executor of the given concurrency.
struct plan {
  unsigned window_bits;   // c
  unsigned windows;       // W = ceil(255 / c), or ceil(128 / c) when split
  unsigned point_chunks;  // k: tasks = W * k (split: range j of both halves per task)
  accumulation acc;       // xyzz or batch_affine (never automatic)
  unsigned batch_size;    // batch_affine only
  double cost;            // modelled makespan in field multiplications (for tests and benches)
  scalar_split split = scalar_split::none;  // none or endomorphism (never automatic)
};
plan make_plan(std::size_t n, std::size_t concurrency, const options& opt = {});

// Canonical form of each scalar (one Montgomery reduction each), in parallel.
std::vector<scalar_repr> to_canonical(std::span<const ff::fr> scalars, base::executor& ex);

// sum_i scalars[i] * bases[i] for i < scalars.size(); bases.size() >= scalars.size() (extra
// bases are ignored). Scalars must be canonical (< r). Bases at infinity contribute nothing.
template <class Curve>
ec::jacobian_point<Curve> pippenger(std::span<const ec::affine_point<Curve>> bases,
                                    std::span<const scalar_repr> scalars, base::executor& ex,
                                    const options& opt = {});

// bellperson's dense multiexp: sum_i scalars[i] * bases[i] (scalars in Montgomery form, as Fr
// values); bases.size() >= scalars.size().
template <class Curve>
ec::jacobian_point<Curve> multiexp(std::span<const ec::affine_point<Curve>> bases, std::span<const ff::fr> scalars,
                                   base::executor& ex, const options& opt = {});

// bellperson's density-filtered multiexp: sum over positions i with density.test(i) of
// scalars[i] * bases[rank(i)]. scalars.size() == density.size(); bases.size() >= density.count()
// (the first density.count() are used).
template <class Curve>
ec::jacobian_point<Curve> multiexp(std::span<const ec::affine_point<Curve>> bases, const density_bitmap& density,
                                   std::span<const ff::fr> scalars, base::executor& ex, const options& opt = {});

// The slow twin: sum of scalar_mul (4-bit fixed window), serial.
template <class Curve>
ec::jacobian_point<Curve> naive_msm(std::span<const ec::affine_point<Curve>> bases, std::span<const ff::fr> scalars);

// Explicit instantiations live in msm.cpp.
#define CUZK_MSM_DECLARE(Curve, EXTERN)                                                                        \
  EXTERN template ec::jacobian_point<Curve> pippenger<Curve>(std::span<const ec::affine_point<Curve>>,         \
                                                             std::span<const scalar_repr>, base::executor&,     \
                                                             const options&);                                   \
  EXTERN template ec::jacobian_point<Curve> multiexp<Curve>(std::span<const ec::affine_point<Curve>>,          \
                                                            std::span<const ff::fr>, base::executor&,           \
                                                            const options&);                                    \
  EXTERN template ec::jacobian_point<Curve> multiexp<Curve>(std::span<const ec::affine_point<Curve>>,          \
                                                            const density_bitmap&, std::span<const ff::fr>,     \
                                                            base::executor&, const options&);                   \
  EXTERN template ec::jacobian_point<Curve> naive_msm<Curve>(std::span<const ec::affine_point<Curve>>,         \
                                                             std::span<const ff::fr>);
CUZK_MSM_DECLARE(ec::g1_curve, extern)
CUZK_MSM_DECLARE(ec::g2_curve, extern)

}  // namespace cuzk::msm
