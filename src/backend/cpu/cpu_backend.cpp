#include "backend/cpu/cpu_backend.hpp"

#include <bit>
#include <stdexcept>

#include "r1cs/shape.hpp"

namespace cuzk::backend::cpu {

void cpu_backend::evaluate_abc(const r1cs::r1cs_shape& shape, std::span<const fr> inputs, std::span<const fr> aux,
                               std::span<fr> a, std::span<fr> b, std::span<fr> c) {
  const std::size_t total = shape.num_constraints + shape.num_inputs;
  if (a.size() < total || b.size() != a.size() || c.size() != a.size())
    throw std::invalid_argument("cpu_backend::evaluate_abc: buffer sizes");
  r1cs::evaluate_abc_into(shape, inputs, aux, a.first(total), b.first(total), c.first(total), ex_,
                          r1cs::input_constraints::append);
  const std::size_t pad = a.size() - total;
  if (pad) {
    ex_.parallel_for(pad, 1 << 14, [&](std::size_t lo, std::size_t hi) {
      for (std::size_t i = total + lo; i < total + hi; ++i) a[i] = b[i] = c[i] = fr::zero();
    });
  }
}

const poly::ntt_plan& cpu_backend::plan(unsigned log_n) {
  std::lock_guard<std::mutex> lock(plans_mutex_);
  auto& p = plans_[log_n];
  if (!p) p = std::make_unique<poly::ntt_plan>(poly::radix2_domain::of_log_size(log_n), ex_);
  return *p;
}

void cpu_backend::compute_h(std::span<fr> a, std::span<fr> b, std::span<fr> c) {
  const std::size_t n = a.size();
  if (!std::has_single_bit(n) || b.size() != n || c.size() != n)
    throw std::invalid_argument("cpu_backend::compute_h: sizes must be one power of two");
  poly::compute_h(plan(static_cast<unsigned>(std::countr_zero(n))), a, b, c, ex_);
}

ec::g1_jacobian cpu_backend::msm_g1(std::span<const ec::g1_affine> bases, std::span<const fr> scalars) {
  return msm::multiexp<ec::g1_curve>(bases, scalars, ex_, msm_opt_);
}

ec::g1_jacobian cpu_backend::msm_g1(std::span<const ec::g1_affine> bases, const r1cs::density_bitmap& density,
                                    std::span<const fr> scalars) {
  return msm::multiexp<ec::g1_curve>(bases, density, scalars, ex_, msm_opt_);
}

ec::g2_jacobian cpu_backend::msm_g2(std::span<const ec::g2_affine> bases, const r1cs::density_bitmap& density,
                                    std::span<const fr> scalars) {
  return msm::multiexp<ec::g2_curve>(bases, density, scalars, ex_, msm_opt_);
}

}  // namespace cuzk::backend::cpu
