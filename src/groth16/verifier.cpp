#include "groth16/verifier.hpp"

#include <array>
#include <stdexcept>

namespace cuzk::groth16 {

prepared_verifying_key prepare_verifying_key(const verifying_key& vk) {
  prepared_verifying_key pvk;
  pvk.alpha_g1_beta_g2 = pairing::pairing(vk.alpha_g1, vk.beta_g2);
  pvk.neg_gamma_g2 = pairing::g2_prepared(-vk.gamma_g2);
  pvk.neg_delta_g2 = pairing::g2_prepared(-vk.delta_g2);
  pvk.ic = vk.ic;
  return pvk;
}

const char* to_string(verify_result r) {
  switch (r) {
    case verify_result::valid: return "valid";
    case verify_result::invalid: return "invalid";
    case verify_result::wrong_input_count: return "wrong number of public inputs for the verifying key";
    case verify_result::bad_argument: return "bad argument";
  }
  return "unknown verify_result";
}

namespace detail {

ec::g1_jacobian linear_combination(std::span<const g1_affine> bases, std::span<const fr> scalars) {
  if (bases.size() != scalars.size()) throw std::invalid_argument("linear_combination: size mismatch");
  ec::g1_jacobian acc = ec::g1_jacobian::identity();
  for (std::size_t i = 0; i < bases.size(); ++i) {
    if (scalars[i].is_zero()) continue;
    acc += ec::scalar_mul(ec::g1_jacobian::from_affine(bases[i]), scalars[i]);
  }
  return acc;
}

}  // namespace detail

verify_result verify(const prepared_verifying_key& pvk, const proof& p, std::span<const fr> public_inputs) {
  if (pvk.ic.empty() || public_inputs.size() != pvk.ic.size() - 1) return verify_result::wrong_input_count;
  ec::g1_jacobian acc = detail::linear_combination(std::span(pvk.ic).subspan(1), public_inputs);
  acc += pvk.ic[0];
  const std::array<pairing::g1g2_pair, 1> ab = {{{p.a, p.b}}};
  const std::array<pairing::g1_prepared_pair, 2> rest = {{{acc.to_affine(), &pvk.neg_gamma_g2},
                                                         {p.c, &pvk.neg_delta_g2}}};
  const ff::fp12 f = pairing::multi_miller_loop(std::span<const pairing::g1g2_pair>(ab)) *
                     pairing::multi_miller_loop(std::span<const pairing::g1_prepared_pair>(rest));
  return pairing::final_exponentiation(f) == pvk.alpha_g1_beta_g2 ? verify_result::valid : verify_result::invalid;
}

}  // namespace cuzk::groth16
