#include "groth16/prover.hpp"

#include <chrono>
#include <stdexcept>
#include <string>
#include <vector>

#include "poly/domain.hpp"

namespace cuzk::groth16 {

namespace {

using clock_type = std::chrono::steady_clock;

double seconds_since(clock_type::time_point t0) {
  return std::chrono::duration<double>(clock_type::now() - t0).count();
}

void expect_size(const char* what, std::size_t got, std::size_t want) {
  if (got != want)
    throw std::invalid_argument(std::string("groth16::prove: parameters ") + what + " has " + std::to_string(got) +
                                " points, the shape needs " + std::to_string(want));
}

void check_witness(const r1cs::r1cs_shape& shape, std::span<const fr> inputs, std::span<const fr> aux) {
  if (inputs.size() != shape.num_inputs || aux.size() != shape.num_aux)
    throw std::invalid_argument("groth16::prove: witness sizes do not match the shape");
}

}  // namespace

void check_parameters(const parameters_view& p, const r1cs::r1cs_shape& shape) {
  if (p.vk == nullptr) throw std::invalid_argument("groth16::prove: parameters without a verifying key");
  // bellperson: delta at infinity is SynthesisError::UnexpectedIdentity.
  if (p.vk->delta_g1.infinity || p.vk->delta_g2.infinity)
    throw std::invalid_argument("groth16::prove: delta is the identity");
  const std::size_t m = poly::radix2_domain(shape.num_constraints + shape.num_inputs).size();
  const std::size_t b_count = shape.b_input_density.count() + shape.b_aux_density.count();
  expect_size("ic", p.vk->ic.size(), shape.num_inputs);
  expect_size("h", p.h.size(), m - 1);
  expect_size("l", p.l.size(), shape.num_aux);
  expect_size("a", p.a.size(), shape.num_inputs + shape.a_aux_density.count());
  expect_size("b_g1", p.b_g1.size(), b_count);
  expect_size("b_g2", p.b_g2.size(), b_count);
  if (shape.a_aux_density.size() != shape.num_aux || shape.b_aux_density.size() != shape.num_aux ||
      shape.b_input_density.size() != shape.num_inputs)
    throw std::invalid_argument("groth16::prove: malformed shape densities");
}

proof prover_backend::prove_partition(const parameters_view& params, const r1cs::r1cs_shape& shape,
                                       std::span<const fr> inputs, std::span<const fr> aux, const fr& r, const fr& s,
                                       prove_timings* timings) {
  return prove_with_ops(*this, params, shape, inputs, aux, r, s, timings);
}

proof prove(const parameters_view& params, const r1cs::r1cs_shape& shape, std::span<const fr> inputs,
            std::span<const fr> aux, const fr& r, const fr& s, prover_backend& backend, prove_timings* timings) {
  check_parameters(params, shape);
  check_witness(shape, inputs, aux);
  return backend.prove_partition(params, shape, inputs, aux, r, s, timings);
}

proof prove_with_ops(prover_backend& backend, const parameters_view& params, const r1cs::r1cs_shape& shape,
                     std::span<const fr> inputs, std::span<const fr> aux, const fr& r, const fr& s,
                     prove_timings* timings) {
  const auto t_start = clock_type::now();
  prove_timings t;
  check_parameters(params, shape);
  check_witness(shape, inputs, aux);
  const std::size_t ni = shape.num_inputs;
  const std::size_t m = params.h.size() + 1;
  const verifying_key& vk = *params.vk;

  // 1. a, b, c on the domain.
  auto t0 = clock_type::now();
  std::vector<fr> a(m), b(m), c(m);
  backend.evaluate_abc(shape, inputs, aux, a, b, c);
  t.abc = seconds_since(t0);

  // 2. h coefficients (in a).
  t0 = clock_type::now();
  backend.compute_h(a, b, c);
  b = {};
  c = {};
  t.h = seconds_since(t0);

  // 3. MSMs.
  t0 = clock_type::now();
  const ec::g1_jacobian h_sum = backend.msm_g1(params.h, std::span<const fr>(a).first(m - 1));
  t.msm_h = seconds_since(t0);
  a = {};

  t0 = clock_type::now();
  const ec::g1_jacobian l_sum = backend.msm_g1(params.l, aux);
  t.msm_l = seconds_since(t0);

  t0 = clock_type::now();
  ec::g1_jacobian a_sum = backend.msm_g1(params.a.first(ni), inputs);
  a_sum += backend.msm_g1(params.a.subspan(ni), shape.a_aux_density, aux);
  t.msm_a = seconds_since(t0);

  const std::size_t b_inputs = shape.b_input_density.count();
  t0 = clock_type::now();
  ec::g1_jacobian b1_sum = backend.msm_g1(params.b_g1.first(b_inputs), shape.b_input_density, inputs);
  b1_sum += backend.msm_g1(params.b_g1.subspan(b_inputs), shape.b_aux_density, aux);
  t.msm_b_g1 = seconds_since(t0);

  t0 = clock_type::now();
  ec::g2_jacobian b2_sum = backend.msm_g2(params.b_g2.first(b_inputs), shape.b_input_density, inputs);
  b2_sum += backend.msm_g2(params.b_g2.subspan(b_inputs), shape.b_aux_density, aux);
  t.msm_b_g2 = seconds_since(t0);

  // 4. Assembly (6 scalar multiplications, 1 in G2).
  t0 = clock_type::now();
  const ec::g1_jacobian delta_g1 = ec::g1_jacobian::from_affine(vk.delta_g1);
  const ec::g1_jacobian g_a = (a_sum + vk.alpha_g1) + ec::scalar_mul(delta_g1, r);
  const ec::g2_jacobian g_b =
      (b2_sum + vk.beta_g2) + ec::scalar_mul(ec::g2_jacobian::from_affine(vk.delta_g2), s);
  const ec::g1_jacobian g_b1 = (b1_sum + vk.beta_g1) + ec::scalar_mul(delta_g1, s);
  const ec::g1_jacobian g_c = ec::scalar_mul(g_a, s) + ec::scalar_mul(g_b1, r) - ec::scalar_mul(delta_g1, r * s) +
                              h_sum + l_sum;
  proof out{g_a.to_affine(), g_b.to_affine(), g_c.to_affine()};
  t.assembly = seconds_since(t0);

  t.total = seconds_since(t_start);
  if (timings) *timings = t;
  return out;
}

}  // namespace cuzk::groth16
