// Number-theoretic transforms over Fr on a radix2_domain, in place, parallel through a
// caller-owned executor, plus bellperson's quotient ("h") pipeline.
//
// Conventions (all as bellperson's EvaluationDomain):
//   forward:  a_k <- sum_j a_j omega^(jk)                       (coefficients -> values on H)
//   inverse:  a_j <- (1/n) sum_k a_k omega^(-jk)                 (values on H -> coefficients)
//   coset forward:  a_k <- sum_j a_j (g omega^k)^j               (coefficients -> values on gH)
//                   = distribute_powers(g) then forward           (bellperson's coset_fft)
//   coset inverse:  inverse then distribute_powers(g^-1)          (bellperson's icoset_fft)
//
// Algorithm: radix-2 Gentleman-Sande (DIF: natural in, bit-reversed out) and Cooley-Tukey
// (DIT: bit-reversed in, natural out). Stages whose butterflies span more than a cache block
// (2^13 elements = 256 KiB) run as radix-4 passes (two stages per sweep of the array) split
// over the executor; the remaining stages run block by block inside L2. Twiddles come from an
// ntt_plan: one table of n - 1 elements (32 B * n), stage m (butterfly span m) at
// [m, 2m) holding omega_{2m}^j; inverse twiddles are read from the same table
// (omega_{2m}^-j = -omega_{2m}^(m-j)), the sign folded into the butterfly.
// Cost: (n/2) log2 n butterflies, each 1 Fr multiplication + 2 additions (butterflies with
// twiddle 1 skip the multiplication), plus a bit-reversal pass for natural -> natural.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "base/executor.hpp"
#include "poly/domain.hpp"

namespace cuzk::poly {

enum class ntt_direction : uint8_t { forward, inverse };

// Order of the input and of the output. natural_to_bit_reversed and bit_reversed_to_natural
// skip the bit-reversal pass (a DIF or a DIT alone): use them in pairs (e.g. inverse
// natural_to_bit_reversed, pointwise work on coefficients that does not care, forward
// bit_reversed_to_natural).
enum class ntt_order : uint8_t { natural_to_natural, natural_to_bit_reversed, bit_reversed_to_natural };

// How a coefficient vector is stored: coefficient i at position i, or at bit_reverse(i, k).
enum class coeff_layout : uint8_t { natural, bit_reversed };

// The twiddle table for one domain, built once (in parallel) and reused by every transform on
// that domain. Read-only after construction: share it across threads freely.
class ntt_plan {
 public:
  ntt_plan(const radix2_domain& domain, base::executor& ex);
  explicit ntt_plan(std::size_t min_size, base::executor& ex) : ntt_plan(radix2_domain(min_size), ex) {}

  const radix2_domain& domain() const { return domain_; }
  std::size_t size() const { return domain_.size(); }
  // twiddles()[m + j] = omega_{2m}^j for m = 1, 2, 4, ..., n/2 and 0 <= j < m ([0] unused).
  std::span<const fr> twiddles() const { return twiddles_; }

 private:
  radix2_domain domain_;
  std::vector<fr> twiddles_;
};

// Reverses the low log2(n) bits of i.
constexpr std::size_t bit_reverse(std::size_t i, unsigned log_n) {
  if (log_n == 0) return 0;
  uint64_t x = i;
  x = ((x >> 1) & 0x5555555555555555ULL) | ((x & 0x5555555555555555ULL) << 1);
  x = ((x >> 2) & 0x3333333333333333ULL) | ((x & 0x3333333333333333ULL) << 2);
  x = ((x >> 4) & 0x0f0f0f0f0f0f0f0fULL) | ((x & 0x0f0f0f0f0f0f0f0fULL) << 4);
  x = ((x >> 8) & 0x00ff00ff00ff00ffULL) | ((x & 0x00ff00ff00ff00ffULL) << 8);
  x = ((x >> 16) & 0x0000ffff0000ffffULL) | ((x & 0x0000ffff0000ffffULL) << 16);
  x = (x >> 32) | (x << 32);
  return static_cast<std::size_t>(x >> (64 - log_n));
}

// a[i] <-> a[bit_reverse(i)]; a.size() must be a power of two.
void bit_reverse_permute(std::span<fr> a, base::executor& ex);

// out[i] = first * base^i for i < out.size(). Cost: n + (chunks * log) multiplications.
void powers(std::span<fr> out, const fr& base, base::executor& ex, const fr& first = fr::one());

// bellperson's distribute_powers, with an optional folded scale: coefficient i *= scale * g^i.
// layout says where coefficient i is stored. Cost: 2 multiplications per element.
void distribute_powers(std::span<fr> a, const fr& g, base::executor& ex,
                       coeff_layout layout = coeff_layout::natural, const fr& scale = fr::one());

// a.size() must equal plan.size(). The inverse includes the 1/n scaling (as bellperson's ifft).
void ntt(const ntt_plan& plan, std::span<fr> a, ntt_direction dir, ntt_order order, base::executor& ex);

// Evaluate on / interpolate from the coset g*H, g = plan.domain().coset_generator(). The
// coefficient side (input of forward, output of inverse) may be bit-reversed per `order`.
void coset_ntt(const ntt_plan& plan, std::span<fr> a, ntt_direction dir, ntt_order order,
               base::executor& ex);

// The slow twin: out[k] = sum_j in[j] * (shift * omega^k)^j for k < out.size(), O(n^2),
// serial. shift = 1 gives the plain DFT; omega_inv and a 1/n scale by the caller give the
// inverse.
void naive_dft(std::span<const fr> in, std::span<fr> out, const fr& omega, const fr& shift = fr::one());

// Horner evaluation of sum_i coeffs[i] x^i.
fr evaluate(std::span<const fr> coeffs, const fr& x);

// bellperson's h (groth16 prover): a, b, c are the constraint evaluations a_i = <A_i, w> etc.
// over H in natural order (constraint i at omega^i), zero-padded to n = plan.size(). On return
// a holds the n coefficients of h = (A*B - C) / (X^n - 1), where A, B, C interpolate a, b, c on
// H; b and c are clobbered. For a satisfied system (a_i b_i = c_i) a[n-1] == 0 and the
// prover's H MSM takes a[0..n-1). Same result as bellperson's ifft, coset_fft, mul/sub,
// divide_by_z_on_coset, icoset_fft (the unique quotient), with one transform fewer: Z is the
// constant z(g) = g^n - 1 on the coset gH and c has degree < n, so interpolating C's coset
// values gives c back and h = (icoset(A_g B_g) - c) / z(g). Steps: a and b each a DIF inverse
// (to bit-reversed coefficients), g^i scaling with 1/n (and 1/z(g) for a) folded in, a DIT
// forward (to natural coset values); c a DIF inverse scaled by 1/(n z(g)); a <- a*b; a DIF
// inverse; one pass that bit-reverses, scales coefficient i by g^-i/n and subtracts c's.
// Cost: 6 NTTs (bellperson: 7) + 7n multiplications.
void compute_h(const ntt_plan& plan, std::span<fr> a, std::span<fr> b, std::span<fr> c, base::executor& ex);

}  // namespace cuzk::poly
