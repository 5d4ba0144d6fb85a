#include "groth16/setup.hpp"

#include <chrono>
#include <stdexcept>
#include <string>

#include "groth16/fixed_base.hpp"
#include "poly/domain.hpp"
#include "poly/ntt.hpp"

namespace cuzk::groth16 {

namespace {

using clock_type = std::chrono::steady_clock;

double seconds_since(clock_type::time_point t0) {
  return std::chrono::duration<double>(clock_type::now() - t0).count();
}

// out[col] += coeff(k) * lag[row] over every entry of m (serial: one matrix per task).
void scatter(const r1cs::r1cs_shape& shape, const r1cs::csr_matrix& m, const std::vector<fr>& lag, std::vector<fr>& out) {
  const fr* coeffs = shape.coeffs.data();
  for (std::size_t r = 0; r < m.rows(); ++r) {
    const fr& l = lag[r];
    for (uint64_t k = m.row_ptr[r]; k < m.row_ptr[r + 1]; ++k) {
      const uint32_t id = m.coeff_ids[k];
      fr& o = out[m.cols[k]];
      if (id == r1cs::coeff_id_one) {
        o += l;
      } else if (id == r1cs::coeff_id_minus_one) {
        o -= l;
      } else {
        o += l * coeffs[id];
      }
    }
  }
}

}  // namespace

setup_inverses checked_inverses(const toxic_waste& tw) {
  if (tw.gamma.is_zero() || tw.delta.is_zero())
    throw setup_error(setup_errc::unexpected_identity, "groth16::setup: gamma or delta is zero");
  return {tw.gamma.inverse(), tw.delta.inverse()};
}

std::vector<fr> lagrange_at_tau(const r1cs::r1cs_shape& shape, const fr& tau, base::executor& ex) {
  const std::size_t n = shape.num_constraints;
  if (shape.a.rows() != n || shape.b.rows() != n || shape.c.rows() != n)
    throw std::invalid_argument("groth16::setup: malformed shape (matrix rows differ from num_constraints)");
  const poly::radix2_domain domain(n + shape.num_inputs);
  std::vector<fr> lagrange(domain.size());
  poly::powers(lagrange, tau, ex);
  const poly::ntt_plan plan(domain, ex);
  poly::ntt(plan, lagrange, poly::ntt_direction::inverse, poly::ntt_order::natural_to_natural, ex);
  return lagrange;
}

std::vector<fr> h_query_scalars(const r1cs::r1cs_shape& shape, const toxic_waste& tw, const fr& delta_inv,
                                base::executor& ex) {
  const poly::radix2_domain domain(shape.num_constraints + shape.num_inputs);
  const fr z = domain.z(tw.tau);
  if (z.is_zero()) throw setup_error(setup_errc::tau_in_domain, "groth16::setup: tau is in the evaluation domain");
  std::vector<fr> scalars(domain.size() - 1);
  poly::powers(scalars, tw.tau, ex, z * delta_inv);
  return scalars;
}

query_columns check_query_columns(const r1cs::r1cs_shape& shape, const qap_at_tau& q, std::vector<uint32_t>* a_cols,
                                  std::vector<uint32_t>* b_cols) {
  // bellperson keeps the columns with a nonzero evaluation; the prover uses the densities, so
  // they must agree.
  const std::size_t ni = shape.num_inputs, cols = shape.num_columns();
  query_columns count;
  for (std::size_t i = 0; i < cols; ++i) {
    const bool a_nz = !q.u[i].is_zero(), b_nz = !q.v[i].is_zero();
    const bool a_exp = i < ni ? true : shape.a_aux_density.test(i - ni);
    const bool b_exp = i < ni ? shape.b_input_density.test(i) : shape.b_aux_density.test(i - ni);
    if (a_nz != a_exp || b_nz != b_exp)
      throw setup_error(setup_errc::density_mismatch,
                        "groth16::setup: the QAP evaluation of column " + std::to_string(i) +
                            " vanishes against the shape's densities (degenerate tau)");
    count.a += a_nz;
    count.b += b_nz;
    if (a_nz && a_cols) a_cols->push_back(static_cast<uint32_t>(i));
    if (b_nz && b_cols) b_cols->push_back(static_cast<uint32_t>(i));
  }
  return count;
}

std::vector<fr> ic_l_scalars(const toxic_waste& tw, const qap_at_tau& q, std::size_t num_inputs,
                             const setup_inverses& inv, base::executor& ex) {
  const std::size_t cols = q.u.size();
  std::vector<fr> out(cols);
  ex.parallel_for(cols, 4096, [&](std::size_t lo, std::size_t hi) {
    for (std::size_t i = lo; i < hi; ++i)
      out[i] = (tw.beta * q.u[i] + tw.alpha * q.v[i] + q.w[i]) * (i < num_inputs ? inv.gamma : inv.delta);
  });
  return out;
}

void set_vk_points(const toxic_waste& tw, verifying_key& vk) {
  const ec::g1_jacobian g1 = ec::g1_jacobian::from_affine(tw.g1);
  const ec::g2_jacobian g2 = ec::g2_jacobian::from_affine(tw.g2);
  vk.alpha_g1 = ec::scalar_mul(g1, tw.alpha).to_affine();
  vk.beta_g1 = ec::scalar_mul(g1, tw.beta).to_affine();
  vk.beta_g2 = ec::scalar_mul(g2, tw.beta).to_affine();
  vk.gamma_g2 = ec::scalar_mul(g2, tw.gamma).to_affine();
  vk.delta_g1 = ec::scalar_mul(g1, tw.delta).to_affine();
  vk.delta_g2 = ec::scalar_mul(g2, tw.delta).to_affine();
}

qap_at_tau evaluate_qap(const r1cs::r1cs_shape& shape, const fr& tau, base::executor& ex) {
  qap_at_tau q;
  q.lagrange = lagrange_at_tau(shape, tau, ex);
  q.domain_size = q.lagrange.size();
  const std::size_t cols = shape.num_columns();
  q.u.assign(cols, fr::zero());
  q.v.assign(cols, fr::zero());
  q.w.assign(cols, fr::zero());
  ex.parallel_for(3, 1, [&](std::size_t lo, std::size_t hi) {
    for (std::size_t t = lo; t < hi; ++t) {
      if (t == 0) scatter(shape, shape.a, q.lagrange, q.u);
      if (t == 1) scatter(shape, shape.b, q.lagrange, q.v);
      if (t == 2) scatter(shape, shape.c, q.lagrange, q.w);
    }
  });
  const std::size_t n = shape.num_constraints;
  for (std::size_t i = 0; i < shape.num_inputs; ++i) q.u[i] += q.lagrange[n + i];  // input_i * 0 = 0
  return q;
}

parameters setup(const r1cs::r1cs_shape& shape, const toxic_waste& tw, base::executor& ex, setup_timings* timings) {
  const auto t_start = clock_type::now();
  setup_timings t;
  const std::size_t ni = shape.num_inputs;
  const std::size_t cols = shape.num_columns();
  const setup_inverses inv = checked_inverses(tw);

  // H scalars tau^i z(tau) / delta, i < m - 1 (before the Lagrange IFFT, which needs its own powers).
  auto t0 = clock_type::now();
  std::vector<fr> scalars = h_query_scalars(shape, tw, inv.delta, ex);
  const std::size_t m = scalars.size() + 1;
  t.lagrange = seconds_since(t0);

  t0 = clock_type::now();
  qap_at_tau q = evaluate_qap(shape, tw.tau, ex);
  t.evaluate = seconds_since(t0);

  // Which columns keep an A / B point (bellperson: the nonzero evaluations).
  const query_columns kept = check_query_columns(shape, q);
  const std::size_t a_count = kept.a, b_count = kept.b;

  t0 = clock_type::now();
  const std::size_t g1_scalars = (m - 1) + cols + a_count + b_count;
  const fixed_base_table<ec::g1_curve> g1_table(tw.g1, fixed_base_table<ec::g1_curve>::best_window(g1_scalars), ex);
  const fixed_base_table<ec::g2_curve> g2_table(tw.g2, fixed_base_table<ec::g2_curve>::best_window(b_count), ex);
  t.tables = seconds_since(t0);

  parameters p;
  t0 = clock_type::now();
  p.h.resize(m - 1);
  g1_table.batch_mul(scalars, p.h, ex);
  t.h = seconds_since(t0);

  // A: nonzero u, in column order.
  t0 = clock_type::now();
  scalars.clear();
  scalars.reserve(std::max(a_count, b_count));
  for (std::size_t i = 0; i < cols; ++i)
    if (!q.u[i].is_zero()) scalars.push_back(q.u[i]);
  p.a.resize(a_count);
  g1_table.batch_mul(scalars, p.a, ex);
  t.a = seconds_since(t0);

  // B in G1 and G2: nonzero v.
  scalars.clear();
  for (std::size_t i = 0; i < cols; ++i)
    if (!q.v[i].is_zero()) scalars.push_back(q.v[i]);
  t0 = clock_type::now();
  p.b_g1.resize(b_count);
  g1_table.batch_mul(scalars, p.b_g1, ex);
  t.b_g1 = seconds_since(t0);
  t0 = clock_type::now();
  p.b_g2.resize(b_count);
  g2_table.batch_mul(scalars, p.b_g2, ex);
  t.b_g2 = seconds_since(t0);

  // IC (inputs, / gamma) and L (aux, / delta): (beta u + alpha v + w) / (gamma | delta).
  t0 = clock_type::now();
  scalars = ic_l_scalars(tw, q, ni, inv, ex);
  std::vector<g1_affine> ext(cols);
  g1_table.batch_mul(scalars, ext, ex);
  for (std::size_t j = ni; j < cols; ++j)
    if (ext[j].infinity)
      throw setup_error(setup_errc::unconstrained_variable,
                        "groth16::setup: aux variable " + std::to_string(j - ni) + " is unconstrained (L query identity)");
  p.vk.ic.assign(ext.begin(), ext.begin() + static_cast<std::ptrdiff_t>(ni));
  p.l.assign(ext.begin() + static_cast<std::ptrdiff_t>(ni), ext.end());
  t.ic_l = seconds_since(t0);

  set_vk_points(tw, p.vk);

  t.total = seconds_since(t_start);
  if (timings) *timings = t;
  return p;
}

}  // namespace cuzk::groth16
