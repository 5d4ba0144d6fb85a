// The Groth16 prover with bellperson's semantics (bp:src/groth16/prover/native.rs; filecoin.md
// §1.5), as a backend-agnostic sequence of heavy operations (prover_backend.hpp):
//
//   1. a, b, c = A w, B w, C w with one `input_i * 0 = 0` row per input, zero-padded to the
//      domain size m (smallest power of two >= num_constraints + num_inputs)   [spmv]
//   2. h = (A B - C) / (X^m - 1), coefficients; the H MSM takes h[0 .. m-1)   [ntt]
//   3. MSMs (bellperson's order of submission; results are exact, so the order does not matter):
//        H    = sum h_i h[i]                     dense, m - 1 points
//        L    = sum aux_j l[j]                   dense over aux
//        A    = sum inputs_i a[i] + sum_{a_aux density} aux_j a[ni + rank(j)]
//        B_G1 = same shape over b_g1 with the b_input / b_aux densities; B_G2 likewise in G2
//   4. A = alpha_g1 + A + r delta_g1,  B = beta_g2 + B_G2 + s delta_g2,
//      B1 = beta_g1 + B_G1 + s delta_g1,  C = s A + r B1 - r s delta_g1 + H + L.
// The proof depends only on (parameters, shape, witness, r, s): same r, s -> same bytes, on any
// backend and any thread count.
#pragma once

#include <span>

#include "groth16/params.hpp"
#include "groth16/proof.hpp"
#include "groth16/prover_backend.hpp"
#include "r1cs/shape.hpp"

namespace cuzk::groth16 {

using ff::fr;

// Throws std::invalid_argument naming the first mismatch between the parameters' sizes and what
// the shape needs: ic = num_inputs, h = m - 1, l = num_aux, a = num_inputs + a_aux count,
// b_g1 = b_g2 = b_input count + b_aux count.
void check_parameters(const parameters_view& params, const r1cs::r1cs_shape& shape);

// inputs include ONE at index 0 (inputs.size() == num_inputs), aux.size() == num_aux. Throws
// std::invalid_argument on size mismatches (check_parameters and the witness). Runs
// backend.prove_partition, whose default is prove_with_ops below.
proof prove(const parameters_view& params, const r1cs::r1cs_shape& shape, std::span<const fr> inputs,
            std::span<const fr> aux, const fr& r, const fr& s, prover_backend& backend,
            prove_timings* timings = nullptr);

// The generic sequence 1-4 above over the backend's lower operations.
proof prove_with_ops(prover_backend& backend, const parameters_view& params, const r1cs::r1cs_shape& shape,
                     std::span<const fr> inputs, std::span<const fr> aux, const fr& r, const fr& s,
                     prove_timings* timings = nullptr);

// r then s drawn from rng (bellperson draws them in that order per proof).
template <class Rng>
proof prove_random(const parameters_view& params, const r1cs::r1cs_shape& shape, std::span<const fr> inputs,
                   std::span<const fr> aux, Rng& rng, prover_backend& backend, prove_timings* timings = nullptr) {
  const fr r = fr::random(rng);
  const fr s = fr::random(rng);
  return prove(params, shape, inputs, aux, r, s, backend, timings);
}

}  // namespace cuzk::groth16
