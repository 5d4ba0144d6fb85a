// groth16::prover_backend on the CPU: r1cs::evaluate_abc_into (SpMV), poly::compute_h (NTT
// pipeline, with one cached ntt_plan per domain size) and msm::multiexp (Pippenger with
// bellperson's 0/1 and density semantics), all through the executor given at construction.
//
//   auto exec = base::make_thread_pool_executor(0);
//   backend::cpu::cpu_backend cpu(*exec);
//   proof p = groth16::prove(groth16::parameters_view::of(params), shape, inputs, aux, r, s, cpu);
#pragma once

#include <map>
#include <memory>
#include <mutex>

#include "base/executor.hpp"
#include "groth16/prover_backend.hpp"
#include "msm/msm.hpp"
#include "poly/ntt.hpp"

namespace cuzk::backend::cpu {

class cpu_backend final : public groth16::prover_backend {
 public:
  explicit cpu_backend(base::executor& ex, const msm::options& msm_options = {}) : ex_(ex), msm_opt_(msm_options) {}

  std::string_view name() const override { return "cpu"; }

  void evaluate_abc(const r1cs::r1cs_shape& shape, std::span<const fr> inputs, std::span<const fr> aux,
                    std::span<fr> a, std::span<fr> b, std::span<fr> c) override;
  void compute_h(std::span<fr> a, std::span<fr> b, std::span<fr> c) override;
  ec::g1_jacobian msm_g1(std::span<const ec::g1_affine> bases, std::span<const fr> scalars) override;
  ec::g1_jacobian msm_g1(std::span<const ec::g1_affine> bases, const r1cs::density_bitmap& density,
                         std::span<const fr> scalars) override;
  ec::g2_jacobian msm_g2(std::span<const ec::g2_affine> bases, const r1cs::density_bitmap& density,
                         std::span<const fr> scalars) override;

  // The twiddle table for a domain of size 2^log_n, built on first use and kept.
  const poly::ntt_plan& plan(unsigned log_n);

 private:
  base::executor& ex_;
  msm::options msm_opt_;
  std::mutex plans_mutex_;
  std::map<unsigned, std::unique_ptr<poly::ntt_plan>> plans_;
};

}  // namespace cuzk::backend::cpu
