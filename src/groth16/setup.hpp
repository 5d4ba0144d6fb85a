// Groth16 parameter generation for a recorded circuit shape, as bellperson's generator does it
// (bp:src/groth16/generator.rs generate_parameters), for tests, benchmarks and development keys.
// Same toxic waste -> the same points, in the same order, with the same filtering:
//
//   constraints: the shape's rows, then one `input_i * 0 = 0` per input (i = 0..num_inputs-1);
//   domain: m = smallest power of two >= num_constraints + num_inputs; omega as in poly/domain.hpp;
//   Lagrange coefficients L_k(tau) = IFFT of (1, tau, .., tau^(m-1)) (constraint k at omega^k);
//   per column i (inputs, then aux): u_i = sum_k A[k][i] L_k(tau), v_i (B), w_i (C);
//   h[i]  = tau^i z(tau) / delta * g1            i = 0 .. m-2            (z(tau) = tau^m - 1)
//   a     = u_i * g1 for every column, identity points removed (inputs always survive: u_i
//           contains L_{n+i}(tau) from the input constraint)
//   b_g1  = v_i * g1, b_g2 = v_i * g2, identity points removed
//   ic[i] = (beta u_i + alpha v_i + w_i) / gamma * g1   (inputs)
//   l[j]  = (beta u_j + alpha v_j + w_j) / delta * g1   (aux; an identity is an error)
//   vk    = alpha g1, beta g1, beta g2, gamma g2, delta g1, delta g2, ic
// g1 and g2 are part of the toxic waste (bellperson draws random group elements; the
// generators by default here).
//
// Deviations, both only for degenerate toxic waste (probability ~2^-250 for random values):
// z(tau) = 0 (tau in the domain) and a column whose u_i or v_i vanishes although the shape marks
// it dense (or the reverse) throw setup_error instead of producing parameters that no prover
// can use.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "base/executor.hpp"
#include "ec/point.hpp"
#include "groth16/params.hpp"
#include "r1cs/shape.hpp"

namespace cuzk::groth16 {

using ff::fr;

struct toxic_waste {
  g1_affine g1 = g1_affine::generator();
  g2_affine g2 = g2_affine::generator();
  fr alpha, beta, gamma, delta, tau;

  // Drawn in bellperson's order (generate_random_parameters): g1, g2, alpha, beta, gamma,
  // delta, tau; the group elements as random multiples of the generators.
  template <class Rng>
  static toxic_waste random(Rng& rng) {
    toxic_waste t;
    t.g1 = ec::scalar_mul(ec::g1_jacobian::generator(), fr::random(rng)).to_affine();
    t.g2 = ec::scalar_mul(ec::g2_jacobian::generator(), fr::random(rng)).to_affine();
    t.alpha = fr::random(rng);
    t.beta = fr::random(rng);
    t.gamma = fr::random(rng);
    t.delta = fr::random(rng);
    t.tau = fr::random(rng);
    return t;
  }
};

enum class setup_errc : uint8_t {
  unexpected_identity,     // gamma or delta is zero (bellperson: UnexpectedIdentity)
  unconstrained_variable,  // an aux variable with l = identity (bellperson: UnconstrainedVariable)
  tau_in_domain,           // z(tau) = 0 (ours)
  density_mismatch,        // u_i / v_i zero-ness disagrees with the shape's densities (ours)
};

class setup_error : public std::runtime_error {
 public:
  setup_error(setup_errc code, const std::string& what) : std::runtime_error(what), code_(code) {}
  setup_errc code() const { return code_; }

 private:
  setup_errc code_;
};

// Wall-clock seconds per stage.
struct setup_timings {
  double lagrange = 0;   // powers of tau, IFFT
  double evaluate = 0;   // u, v, w per column (scatter through the CSR matrices)
  double tables = 0;     // fixed-base tables for g1 and g2
  double h = 0;          // H query
  double a = 0;          // A query
  double b_g1 = 0;       // B query in G1
  double b_g2 = 0;       // B query in G2
  double ic_l = 0;       // IC and L
  double total = 0;
};

// The column evaluations at tau (inputs then aux), exposed for tests.
struct qap_at_tau {
  std::size_t domain_size = 0;
  std::vector<fr> lagrange;  // L_k(tau), k < m
  std::vector<fr> u, v, w;   // per column
};
qap_at_tau evaluate_qap(const r1cs::r1cs_shape& shape, const fr& tau, base::executor& ex);

// The steps of setup() that the device generator (backend/cuda/setup_cuda.cpp) shares, so that
// both derive the same scalars under the same checks.
struct setup_inverses {
  fr gamma, delta;  // gamma^-1, delta^-1
};
// Throws setup_error(unexpected_identity) when gamma or delta is zero.
setup_inverses checked_inverses(const toxic_waste& tw);
// L_k(tau), k < m (m: the shape's domain, constraints + inputs): powers of tau, then an IFFT.
// Throws std::invalid_argument for a shape whose matrices do not have num_constraints rows.
std::vector<fr> lagrange_at_tau(const r1cs::r1cs_shape& shape, const fr& tau, base::executor& ex);
// The H query's scalars tau^i z(tau) / delta, i < m - 1. Throws setup_error(tau_in_domain).
std::vector<fr> h_query_scalars(const r1cs::r1cs_shape& shape, const toxic_waste& tw, const fr& delta_inv,
                                base::executor& ex);
// Checks each column's u and v zero-ness against the shape's densities (setup_error
// density_mismatch) and counts the columns that keep an A and a B point; a_cols / b_cols, when
// given, receive those columns in order.
struct query_columns {
  std::size_t a = 0, b = 0;
};
query_columns check_query_columns(const r1cs::r1cs_shape& shape, const qap_at_tau& q,
                                  std::vector<uint32_t>* a_cols = nullptr, std::vector<uint32_t>* b_cols = nullptr);
// (beta u_i + alpha v_i + w_i) / gamma for the inputs (IC), / delta for the aux columns (L).
std::vector<fr> ic_l_scalars(const toxic_waste& tw, const qap_at_tau& q, std::size_t num_inputs,
                             const setup_inverses& inv, base::executor& ex);
// The verifying key's alpha g1, beta g1, beta g2, gamma g2, delta g1, delta g2 (not ic).
void set_vk_points(const toxic_waste& tw, verifying_key& vk);

// Throws setup_error (see above) and std::length_error for a domain over 2^32.
// Cost (n columns, m domain): ~m log m (IFFT) + 3 nnz Fr multiplications, then m - 1 + n + |a| +
// |b_g1| fixed-base G1 multiplications and |b_g2| G2 ones (~W XYZZ additions each, W = 16 for
// large inputs).
parameters setup(const r1cs::r1cs_shape& shape, const toxic_waste& tw, base::executor& ex,
                 setup_timings* timings = nullptr);

template <class Rng>
parameters setup_random(const r1cs::r1cs_shape& shape, Rng& rng, base::executor& ex,
                        setup_timings* timings = nullptr) {
  return setup(shape, toxic_waste::random(rng), ex, timings);
}

}  // namespace cuzk::groth16
