#include "groth16/snarkjs_prover.hpp"

#include <chrono>
#include <stdexcept>

#include "ec/point.hpp"
#include "ff/bls12_381.hpp"
#include "msm/msm.hpp"
#include "poly/domain.hpp"
#include "poly/ntt.hpp"

namespace cuzk::groth16::snarkjs {

namespace {

static_assert(ff::tonelli_shanks_data<fr>::nonresidue == 5, "ffjavascript's Fr root of unity is built from 5");

// 5^((r-1)/2^32): ffjavascript's Fr.w[32] (wasm_field1.js).
const fr& ffjs_root_2_32() {
  static const fr w = fr::from_montgomery_repr(ff::tonelli_shanks_data<fr>::root_of_unity);
  return w;
}

// K with B^K = S for the two primitive 2^32-th roots B (bellperson's, 7^t) and S (5^t), by
// Pohlig-Hellman in the 2-group: bit i of K is read off (S B^-K_<i)^(2^(31-i)) = +-1.
// Cost: 32 * (32 squarings + one exponentiation): microseconds, done once.
uint64_t ffjs_exponent_2_32() {
  static const uint64_t k = [] {
    const fr b = poly::fr_root_of_unity_2_32;
    const fr b_inv = b.inverse();
    const fr s = ffjs_root_2_32();
    uint64_t acc = 0;
    for (unsigned i = 0; i < 32; ++i) {
      fr t = s * b_inv.pow_u64(acc);
      for (unsigned j = 0; j + i < 31; ++j) t = t.square();
      if (!t.is_one()) acc |= uint64_t{1} << i;
    }
    if (b.pow_u64(acc) != s) throw std::logic_error("ffjs_exponent: discrete logarithm failed");
    return acc;
  }();
  return k;
}

double ms_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

fr ffjs_root_of_unity(unsigned log_n) {
  if (log_n > 32) throw std::invalid_argument("ffjs_root_of_unity: log_n > 32");
  fr w = ffjs_root_2_32();
  for (unsigned i = log_n; i < 32; ++i) w = w.square();
  return w;
}

uint64_t ffjs_omega_exponent(unsigned log_n) {
  if (log_n > 32) throw std::invalid_argument("ffjs_omega_exponent: log_n > 32");
  const uint64_t k = ffjs_exponent_2_32();
  return k & ((uint64_t{1} << log_n) - 1);
}

std::vector<fr> compute_h_scalars(const zkey& z, std::span<const fr> w, base::executor& ex) {
  if (w.size() != z.n_vars) throw std::invalid_argument("snarkjs prover: witness length != nVars");
  const unsigned logn = z.log_domain_size();
  const std::size_t n = z.domain_size;
  const std::size_t mask = n - 1;
  const uint64_t k = ffjs_omega_exponent(logn);

  // a, b at NTT slot k*j mod n for constraint j (omega_b^(kj) = omega_s^j).
  std::vector<fr> a(n, fr::zero()), b(n, fr::zero()), c(n);
  for (const zkey_coefficient& co : z.coeffs) {
    const std::size_t slot = static_cast<std::size_t>((k * co.constraint) & mask);
    std::vector<fr>& dst = co.matrix == 0 ? a : b;
    dst[slot] += co.value * w[co.signal];
  }
  ex.parallel_for(n, 4096, [&](std::size_t lo, std::size_t hi) {
    for (std::size_t i = lo; i < hi; ++i) c[i] = a[i] * b[i];
  });

  // Values on H -> coefficients -> values on the coset omega_{2n} H (= odd powers of omega_2n).
  const poly::ntt_plan plan(poly::radix2_domain::of_log_size(logn), ex);
  const fr shift = ffjs_root_of_unity(logn + 1);
  for (std::vector<fr>* v : {&a, &b, &c}) {
    poly::ntt(plan, *v, poly::ntt_direction::inverse, poly::ntt_order::natural_to_bit_reversed, ex);
    poly::distribute_powers(*v, shift, ex, poly::coeff_layout::bit_reversed);
    poly::ntt(plan, *v, poly::ntt_direction::forward, poly::ntt_order::bit_reversed_to_natural, ex);
  }
  // Slot m holds the value at shift * omega_b^m; H point i sits at shift * omega_s^i = slot k*i.
  std::vector<fr> d(n);
  ex.parallel_for(n, 4096, [&](std::size_t lo, std::size_t hi) {
    for (std::size_t i = lo; i < hi; ++i) {
      const std::size_t m = static_cast<std::size_t>((k * i) & mask);
      d[i] = a[m] * b[m] - c[m];
    }
  });
  return d;
}

proof prove(const zkey& z, std::span<const fr> w, const fr& r, const fr& s, base::executor& ex,
            prove_timings* timings) {
  using clock = std::chrono::steady_clock;
  const auto t0 = clock::now();
  if (w.size() != z.n_vars) throw std::invalid_argument("snarkjs prover: witness length != nVars");

  const auto t_abc = clock::now();
  const std::vector<fr> d = compute_h_scalars(z, w, ex);
  const double h_ms = ms_since(t_abc);

  const auto t_msm = clock::now();
  const std::size_t np1 = std::size_t{z.n_public} + 1;
  using g1j = ec::g1_jacobian;
  using g2j = ec::g2_jacobian;
  const g1j pi_a = msm::multiexp<ec::g1_curve>(z.a, w, ex);
  const g1j pi_b1 = msm::multiexp<ec::g1_curve>(z.b_g1, w, ex);
  const g2j pi_b = msm::multiexp<ec::g2_curve>(z.b_g2, w, ex);
  const g1j pi_c = msm::multiexp<ec::g1_curve>(z.c, w.subspan(np1), ex);
  const g1j pi_h = msm::multiexp<ec::g1_curve>(z.h, d, ex);
  const double msm_ms = ms_since(t_msm);

  const g1j delta1 = g1j::from_affine(z.delta_g1);
  const g1j a = pi_a + z.alpha_g1 + ec::scalar_mul(delta1, r);
  const g2j b = pi_b + z.beta_g2 + ec::scalar_mul(g2j::from_affine(z.delta_g2), s);
  const g1j b1 = pi_b1 + z.beta_g1 + ec::scalar_mul(delta1, s);
  const g1j c = pi_c + pi_h + ec::scalar_mul(a, s) + ec::scalar_mul(b1, r) - ec::scalar_mul(delta1, r * s);

  proof out{a.to_affine(), b.to_affine(), c.to_affine()};
  if (timings) {
    timings->h_ms = h_ms;
    timings->msm_ms = msm_ms;
    timings->total_ms = ms_since(t0);
  }
  return out;
}

verifying_key verifying_key_of(const zkey& z) {
  verifying_key vk;
  vk.alpha_g1 = z.alpha_g1;
  vk.beta_g1 = z.beta_g1;
  vk.beta_g2 = z.beta_g2;
  vk.gamma_g2 = z.gamma_g2;
  vk.delta_g1 = z.delta_g1;
  vk.delta_g2 = z.delta_g2;
  vk.ic = z.ic;
  return vk;
}

std::vector<fr> public_signals(const zkey& z, std::span<const fr> w) {
  if (w.size() < std::size_t{z.n_public} + 1) throw std::invalid_argument("public_signals: witness too short");
  return std::vector<fr>(w.begin() + 1, w.begin() + 1 + z.n_public);
}

}  // namespace cuzk::groth16::snarkjs
