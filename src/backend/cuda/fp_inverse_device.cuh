// Device Fp inversion for the batch-affine MSM additions (msm_batch_affine.cuh): a^-1 = a^(p-2)
// (Fermat), a != 0. Only included by .cu files.
//
// Cost: a fixed 4-bit window over the 384-bit exponent (12 words x 8 nibbles): 14 products for
// the table a^2..a^15, then 96 x (4 squarings + 1 product) = 494 Fp products in all (squarings
// are products here), ~7,400 SM-cycles of throughput at 15 cycles per product. Plain
// square-and-multiply would cost 380 + popcount(p - 2) ~ 570. The cost is amortised over the
// pairs that share the inversion (Montgomery's trick), so it is ~1.9 products per addition at
// 256 pairs per inversion. Not constant time in the table index (a local-memory read per
// nibble): the exponent is public, so the access pattern leaks nothing.
// fp_inverse_safegcd: Bernstein-Yang divsteps (fp_inverse_safegcd.cuh), branch-free inside its
// rounds (lanes differ only in the round count), plus one product by R^3 for the Montgomery form;
// measured beside Fermat by field_product_bench.
#pragma once

#include "backend/cuda/fp_device.cuh"
#include "backend/cuda/fp_inverse_safegcd.cuh"

namespace cuzk::cuda::dev {

struct fp_inverse_consts {
  // p - 2 as 32-bit limbs (p's low limb is 0xffffaaab, so no borrow leaves limb 0).
  static constexpr uint32_t exp_limb(unsigned i) { return fp_consts::limb(i) - (i == 0 ? 2u : 0u); }
  // R^3 mod p (R = 2^384), the safegcd result's Montgomery factor.
  static constexpr uint32_t r3_limb(unsigned i) { return static_cast<uint32_t>(ff::fp::r3.w[i / 2] >> (32 * (i % 2))); }
};
static_assert(fp_inverse_consts::exp_limb(0) == 0xffffaaa9u, "p - 2");

// a^(p-2) mod p with the multiplier policy Mul; a = 0 gives 0 (callers never pass 0).
template <class Mul>
__device__ __noinline__ fp32 fp_inverse(fp32 a) {
  // Local constexpr copy, read only in the unrolled outer loop (a run-time read of a host
  // constant in device code would be a trap; docs/gpu.md).
  constexpr uint32_t e[12] = {fp_inverse_consts::exp_limb(0),  fp_inverse_consts::exp_limb(1),
                              fp_inverse_consts::exp_limb(2),  fp_inverse_consts::exp_limb(3),
                              fp_inverse_consts::exp_limb(4),  fp_inverse_consts::exp_limb(5),
                              fp_inverse_consts::exp_limb(6),  fp_inverse_consts::exp_limb(7),
                              fp_inverse_consts::exp_limb(8),  fp_inverse_consts::exp_limb(9),
                              fp_inverse_consts::exp_limb(10), fp_inverse_consts::exp_limb(11)};
  fp32 table[16];  // a^0 .. a^15 (local memory: indexed by a run-time nibble)
  table[0] = fp_one();
  table[1] = a;
#pragma unroll 1
  for (int i = 2; i < 16; ++i) table[i] = Mul::mul(table[i - 1], a);
  fp32 r = fp_one();
#pragma unroll
  for (int w = 11; w >= 0; --w) {
    const uint32_t word = e[w];
#pragma unroll 1
    for (int sh = 28; sh >= 0; sh -= 4) {
      r = Mul::sqr(r);
      r = Mul::sqr(r);
      r = Mul::sqr(r);
      r = Mul::sqr(r);
      r = Mul::mul(r, table[(word >> sh) & 15u]);
    }
  }
  return r;
}

// a^-1 in Montgomery form by safegcd: the divsteps invert the integer aR, giving (aR)^-1, and
// the Montgomery product by R^3 mod p gives a^-1 R. a = 0 gives 0.
template <class Mul>
__device__ __noinline__ fp32 fp_inverse_safegcd(fp32 a) {
  using k = fp_inverse_consts;
  constexpr fp32 r3 = {{k::r3_limb(0), k::r3_limb(1), k::r3_limb(2), k::r3_limb(3), k::r3_limb(4), k::r3_limb(5),
                        k::r3_limb(6), k::r3_limb(7), k::r3_limb(8), k::r3_limb(9), k::r3_limb(10), k::r3_limb(11)}};
  fp32 y;
  safegcd30::inverse(a.v, y.v);
  return Mul::mul(y, r3);
}

}  // namespace cuzk::cuda::dev
