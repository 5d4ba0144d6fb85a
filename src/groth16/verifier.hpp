// Groth16 verification as bellperson's verify_proof does it (filecoin.md §1.5 item 6):
//   e(A, B) * e(IC, -gamma) * e(C, -delta) == e(alpha, beta),  IC = ic[0] + sum_i x_i ic[i+1],
// one multi-Miller loop and one final exponentiation, with e(alpha, beta) precomputed and
// -gamma, -delta prepared (their Miller-loop lines computed once per key).
//
// Inputs are trusted to be valid group elements: proofs and keys come from the decoders in
// proof.hpp / verifying_key.hpp, which check on-curve and subgroup membership and reject the
// identity. A proof built in memory by the prover is self-verified the same way.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "ec/point.hpp"
#include "ff/fp12.hpp"
#include "groth16/proof.hpp"
#include "groth16/verifying_key.hpp"
#include "pairing/pairing.hpp"

namespace cuzk::groth16 {

using ff::fr;

struct prepared_verifying_key {
  ff::fp12 alpha_g1_beta_g2;          // e(alpha_g1, beta_g2)
  pairing::g2_prepared neg_gamma_g2;  // -gamma_g2
  pairing::g2_prepared neg_delta_g2;  // -delta_g2
  std::vector<g1_affine> ic;          // one per public input, ONE first
};

// One pairing and two G2 preparations.
prepared_verifying_key prepare_verifying_key(const verifying_key& vk);

enum class verify_result : uint8_t {
  valid,              // the equation holds
  invalid,            // it does not
  wrong_input_count,  // public_inputs.size() + 1 != ic.size(): nothing was checked
  bad_argument,       // batch only: null pointer, coefficient count or a zero coefficient
};
const char* to_string(verify_result r);

// public_inputs exclude the constant ONE (ic[0]). Cost: one G1 scalar multiplication per input
// (naive for now; large keys such as 32 GiB WindowPoSt's 25,840 inputs want the msm layer),
// one unprepared and two prepared Miller loops, one final exponentiation.
verify_result verify(const prepared_verifying_key& pvk, const proof& p, std::span<const fr> public_inputs);

namespace detail {
// sum_i scalars[i] bases[i] (sizes must match), naive: one windowed scalar multiplication each.
ec::g1_jacobian linear_combination(std::span<const g1_affine> bases, std::span<const fr> scalars);
}  // namespace detail

}  // namespace cuzk::groth16
