// The heavy operations of the Groth16 prover, behind one small interface so that the prover's
// sequence (prover.hpp) is backend-agnostic (DESIGN.md §2 "backend/"): the CPU implementation
// lives in src/backend/cpu/ (cuzk_backend_cpu), a CUDA one can implement the same calls.
//
// Two levels (DESIGN.md §3 "Backend interface"):
//   * prove_partition(params, shape, witness, r, s) -> proof: the unit of work. The default runs
//     prove_with_ops (prover.hpp), the generic sequence over the lower operations; a backend that
//     keeps the SRS resident or fuses stages overrides it (and may still call prove_with_ops).
//   * the lower operations (spmv, ntt pipeline, G1/G2 MSMs), each separately testable.
// Every operation is synchronous and returns exact results: backends must agree bit for bit
// (the CPU backend is the oracle of the differential tests). Calls on one backend object are
// made from one thread at a time.
#pragma once

#include <span>
#include <string_view>

#include "ec/point.hpp"
#include "ff/bls12_381.hpp"
#include "groth16/params.hpp"
#include "groth16/proof.hpp"
#include "r1cs/shape.hpp"

namespace cuzk::groth16 {

// The parameters as the prover reads them (spans: owned elsewhere, e.g. a parameters object or
// a future device-resident SRS mirror).
struct parameters_view {
  const verifying_key* vk = nullptr;
  std::span<const g1_affine> h, l, a, b_g1;
  std::span<const g2_affine> b_g2;

  static parameters_view of(const parameters& p) { return {&p.vk, p.h, p.l, p.a, p.b_g1, p.b_g2}; }
};

// Wall-clock seconds per stage of one proof.
struct prove_timings {
  double abc = 0;       // spmv (evaluate_abc incl. buffers)
  double h = 0;         // NTT pipeline
  double msm_h = 0;
  double msm_l = 0;
  double msm_a = 0;     // inputs + aux
  double msm_b_g1 = 0;
  double msm_b_g2 = 0;
  double assembly = 0;  // r, s terms and affine conversion
  double total = 0;
};

class prover_backend {
 public:
  using fr = ff::fr;
  virtual ~prover_backend() = default;

  virtual std::string_view name() const = 0;

  // One proof (inputs include ONE). Default: prove_with_ops(*this, ...) (prover.hpp).
  virtual proof prove_partition(const parameters_view& params, const r1cs::r1cs_shape& shape,
                                std::span<const fr> inputs, std::span<const fr> aux, const fr& r, const fr& s,
                                prove_timings* timings);

  // SpMV: a = A w, b = B w, c = C w (w = inputs || aux) for the shape's rows, then bellperson's
  // input constraints (a = input_i, b = c = 0), then zeros up to the buffers' common size
  // (>= num_constraints + num_inputs; the prover passes the domain size).
  virtual void evaluate_abc(const r1cs::r1cs_shape& shape, std::span<const fr> inputs, std::span<const fr> aux,
                            std::span<fr> a, std::span<fr> b, std::span<fr> c) = 0;

  // NTT pipeline: given the evaluations a, b, c on the domain of size n = a.size() (a power of
  // two), leaves the n coefficients of h = (A B - C) / (X^n - 1) in a; b and c are clobbered.
  virtual void compute_h(std::span<fr> a, std::span<fr> b, std::span<fr> c) = 0;

  // MSMs with bellperson's multiexp semantics: sum_i scalars[i] * bases[i] (dense; bases.size()
  // >= scalars.size()), or over the set positions of density with the bases compacted
  // (bases.size() >= density.count(), scalars.size() == density.size()).
  virtual ec::g1_jacobian msm_g1(std::span<const ec::g1_affine> bases, std::span<const fr> scalars) = 0;
  virtual ec::g1_jacobian msm_g1(std::span<const ec::g1_affine> bases, const r1cs::density_bitmap& density,
                                 std::span<const fr> scalars) = 0;
  virtual ec::g2_jacobian msm_g2(std::span<const ec::g2_affine> bases, const r1cs::density_bitmap& density,
                                 std::span<const fr> scalars) = 0;
};

}  // namespace cuzk::groth16
