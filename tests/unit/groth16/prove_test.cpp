// Setup (bellperson's generator) and the prover (bellperson's native prover) end to end:
//   * fixed-base tables against scalar_mul;
//   * a hand-checked toy circuit (DummyEngine idea): every query element and every proof element
//     against discrete logs written out from the circuit and small toxic waste;
//   * random circuits (inputs mid-synthesis, density gaps, non-power-of-two sizes): setup ->
//     prove -> verify, the query elements and the proof against a slow twin (Lagrange
//     coefficients from the closed form, u/v/w from the LCs, h(tau) from A(tau)B(tau) - C(tau));
//   * tampering, file round trip, determinism (same r, s -> same bytes, any executor), errors.
#include <gtest/gtest.h>

#include <memory>
#include <random>

#include "backend/cpu/cpu_backend.hpp"
#include "groth16/fixed_base.hpp"
#include "groth16/params_reader.hpp"
#include "groth16/params_writer.hpp"
#include "groth16/prover.hpp"
#include "groth16/setup.hpp"
#include "groth16/verifier.hpp"
#include "poly/domain.hpp"
#include "r1cs/r1cs.hpp"
#include "support/seed.hpp"
#include "unit/groth16/g16_circuit.hpp"
#include "unit/groth16/test_util.hpp"

namespace cuzk::groth16 {
namespace {

using r1cs::variable;

struct instance {
  r1cs::r1cs_shape shape;
  std::vector<fr> inputs, aux;
};

template <class Circuit>
instance make_instance(const Circuit& c) {
  instance in;
  r1cs::shape_recorder rec;
  EXPECT_TRUE(c.synthesize(rec).ok());
  in.shape = std::move(rec).finish();
  r1cs::witness_builder wb;
  EXPECT_TRUE(c.synthesize(wb).ok());
  in.inputs = wb.take_inputs();
  in.aux = wb.take_aux();
  return in;
}

g1_affine g1_log(const g1_affine& base, const fr& k) {
  return ec::scalar_mul(ec::g1_jacobian::from_affine(base), k).to_affine();
}
g2_affine g2_log(const g2_affine& base, const fr& k) {
  return ec::scalar_mul(ec::g2_jacobian::from_affine(base), k).to_affine();
}

// --- the slow twin ------------------------------------------------------------------------------
// Discrete logs (base tw.g1 / tw.g2) of everything setup and prove produce.
struct expected_logs {
  std::vector<fr> u, v, w;  // per column, from the closed-form Lagrange coefficients
  fr z;                     // z(tau)
};

expected_logs slow_qap(const r1cs::r1cs_shape& shape, const fr& tau) {
  const std::size_t n = shape.num_constraints, ni = shape.num_inputs;
  const poly::radix2_domain d(n + ni);
  const std::size_t m = d.size();
  expected_logs e;
  e.z = d.z(tau);
  // L_k(tau) = omega^k z(tau) / (m (tau - omega^k))
  std::vector<fr> lag(m);
  fr wk = fr::one();
  const fr m_fr = fr::from_u64(m);
  for (std::size_t k = 0; k < m; ++k) {
    lag[k] = wk * e.z * (m_fr * (tau - wk)).inverse();
    wk *= d.omega();
  }
  const std::size_t cols = shape.num_columns();
  e.u.assign(cols, fr::zero());
  e.v.assign(cols, fr::zero());
  e.w.assign(cols, fr::zero());
  auto col = [&](variable var) { return var.is_input() ? var.index() : ni + var.index(); };
  for (std::size_t r = 0; r < n; ++r) {
    for (const auto& t : shape.row_terms(shape.a, r)) e.u[col(t.var)] += t.coeff * lag[r];
    for (const auto& t : shape.row_terms(shape.b, r)) e.v[col(t.var)] += t.coeff * lag[r];
    for (const auto& t : shape.row_terms(shape.c, r)) e.w[col(t.var)] += t.coeff * lag[r];
  }
  for (std::size_t i = 0; i < ni; ++i) e.u[i] += lag[n + i];
  return e;
}

// Checks every element of p against the toxic waste (all of them: keep circuits small).
void expect_parameters_match(const parameters& p, const r1cs::r1cs_shape& shape, const toxic_waste& tw) {
  const expected_logs e = slow_qap(shape, tw.tau);
  const std::size_t ni = shape.num_inputs, cols = shape.num_columns();
  const std::size_t m = poly::radix2_domain(shape.num_constraints + ni).size();
  const fr gi = tw.gamma.inverse(), di = tw.delta.inverse();
  EXPECT_EQ(p.vk.alpha_g1, g1_log(tw.g1, tw.alpha));
  EXPECT_EQ(p.vk.beta_g1, g1_log(tw.g1, tw.beta));
  EXPECT_EQ(p.vk.beta_g2, g2_log(tw.g2, tw.beta));
  EXPECT_EQ(p.vk.gamma_g2, g2_log(tw.g2, tw.gamma));
  EXPECT_EQ(p.vk.delta_g1, g1_log(tw.g1, tw.delta));
  EXPECT_EQ(p.vk.delta_g2, g2_log(tw.g2, tw.delta));
  ASSERT_EQ(p.h.size(), m - 1);
  fr ti = e.z * di;
  for (std::size_t i = 0; i + 1 < m; ++i, ti *= tw.tau) ASSERT_EQ(p.h[i], g1_log(tw.g1, ti)) << "h " << i;
  ASSERT_EQ(p.vk.ic.size(), ni);
  ASSERT_EQ(p.l.size(), shape.num_aux);
  std::size_t ia = 0, ib = 0;
  for (std::size_t c = 0; c < cols; ++c) {
    const fr ext = tw.beta * e.u[c] + tw.alpha * e.v[c] + e.w[c];
    if (c < ni) {
      ASSERT_EQ(p.vk.ic[c], g1_log(tw.g1, ext * gi)) << "ic " << c;
    } else {
      ASSERT_EQ(p.l[c - ni], g1_log(tw.g1, ext * di)) << "l " << c - ni;
    }
    if (!e.u[c].is_zero()) {
      ASSERT_LT(ia, p.a.size());
      ASSERT_EQ(p.a[ia++], g1_log(tw.g1, e.u[c])) << "a, column " << c;
    }
    if (!e.v[c].is_zero()) {
      ASSERT_LT(ib, p.b_g1.size());
      ASSERT_EQ(p.b_g1[ib], g1_log(tw.g1, e.v[c])) << "b_g1, column " << c;
      ASSERT_EQ(p.b_g2[ib++], g2_log(tw.g2, e.v[c])) << "b_g2, column " << c;
    }
  }
  EXPECT_EQ(ia, p.a.size());
  EXPECT_EQ(ib, p.b_g1.size());
  EXPECT_EQ(ib, p.b_g2.size());
}

// The proof's discrete logs from the toxic waste and the witness.
proof expected_proof(const instance& in, const toxic_waste& tw, const fr& r, const fr& s) {
  const expected_logs e = slow_qap(in.shape, tw.tau);
  const std::size_t ni = in.shape.num_inputs;
  fr at = fr::zero(), bt = fr::zero(), ct = fr::zero(), lsum = fr::zero();
  for (std::size_t c = 0; c < in.shape.num_columns(); ++c) {
    const fr& x = c < ni ? in.inputs[c] : in.aux[c - ni];
    at += x * e.u[c];
    bt += x * e.v[c];
    ct += x * e.w[c];
    if (c >= ni) lsum += x * (tw.beta * e.u[c] + tw.alpha * e.v[c] + e.w[c]);
  }
  // h(tau) z(tau) = A(tau) B(tau) - C(tau) for a satisfied system.
  const fr a_log = tw.alpha + at + r * tw.delta;
  const fr b_log = tw.beta + bt + s * tw.delta;
  const fr c_log = (lsum + at * bt - ct) * tw.delta.inverse() + s * a_log + r * b_log - r * s * tw.delta;
  return {g1_log(tw.g1, a_log), g2_log(tw.g2, b_log), g1_log(tw.g1, c_log)};
}

std::unique_ptr<base::executor> pool(std::size_t threads = 2) { return base::make_thread_pool_executor(threads); }

std::vector<fr> public_inputs(const instance& in) { return {in.inputs.begin() + 1, in.inputs.end()}; }

// --- fixed base -------------------------------------------------------------------------------
template <class Curve>
void check_fixed_base(std::mt19937_64& rng, unsigned c, base::executor& ex) {
  using jac = ec::jacobian_point<Curve>;
  const ec::affine_point<Curve> base = ec::scalar_mul(jac::generator(), fr::random(rng)).to_affine();
  fixed_base_table<Curve> t(base, c, ex);
  std::vector<fr> ks{fr::zero(), fr::one(), -fr::one(), fr::from_u64(2), fr::from_hex(
      "39f6d3a994cebea4199cec0404d0ec02a9ded2017fff2dff7fffffff80000000") /* (r-1)/2 */,
                     fr::from_hex("39f6d3a994cebea4199cec0404d0ec02a9ded2017fff2dff7fffffff80000001")};
  for (int i = 0; i < 40; ++i) ks.push_back(fr::random(rng));
  for (int i = 0; i < 5; ++i) ks.push_back(fr::from_u64(rng() >> (rng() % 64)));
  std::vector<ec::affine_point<Curve>> out(ks.size());
  t.batch_mul(ks, out, ex);
  for (std::size_t i = 0; i < ks.size(); ++i) {
    const jac want = ec::scalar_mul(jac::from_affine(base), ks[i]);
    ASSERT_EQ(out[i], want.to_affine()) << "c = " << c << ", scalar " << i;
    ASSERT_TRUE(ec::same_point(want, t.mul(ks[i]))) << "c = " << c << ", scalar " << i;
  }
  // More scalars than one batch (and a partial last batch), against the single-scalar path.
  std::vector<fr> many(700);
  for (auto& k : many) k = fr::random(rng);
  std::vector<ec::affine_point<Curve>> got(many.size());
  t.batch_mul(many, got, ex);
  for (std::size_t i = 0; i < many.size(); i += 7) ASSERT_TRUE(ec::same_point(got[i], t.mul(many[i]))) << i;
}

TEST(Groth16FixedBase, MatchesScalarMul) {
  std::mt19937_64 rng(cuzk::test::test_seed());
  auto ex = pool();
  for (unsigned c : {2u, 3u, 5u, 8u, 11u, 13u}) check_fixed_base<ec::g1_curve>(rng, c, *ex);
  for (unsigned c : {2u, 7u, 10u}) check_fixed_base<ec::g2_curve>(rng, c, *ex);
  EXPECT_EQ(fixed_base_table<ec::g1_curve>::best_window(1u << 22), 16u);
  EXPECT_LT(fixed_base_table<ec::g1_curve>::best_window(100), 10u);
}

// --- the CPU backend's pieces ---------------------------------------------------------------------
TEST(Groth16CpuBackend, DensityAbcAndMsm) {
  const uint64_t seed = cuzk::test::test_seed();
  std::mt19937_64 rng(seed);

  test::g16_circuit circ;
  circ.seed = seed;
  circ.constraints = 90;
  const instance in = make_instance(circ);
  auto ex = pool();
  backend::cpu::cpu_backend cpu(*ex);
  EXPECT_EQ(cpu.name(), "cpu");
  const std::size_t total = in.shape.num_constraints + in.shape.num_inputs, m = 128;
  ASSERT_LE(total, m);
  std::vector<fr> a(m, fr::one()), b(m, fr::one()), c(m, fr::one());  // garbage to be overwritten
  cpu.evaluate_abc(in.shape, in.inputs, in.aux, a, b, c);
  const auto ref = r1cs::evaluate_abc(in.shape, in.inputs, in.aux, *ex, r1cs::input_constraints::append);
  for (std::size_t i = 0; i < m; ++i) {
    ASSERT_EQ(a[i], i < total ? ref.a[i] : fr::zero()) << i;
    ASSERT_EQ(b[i], i < total ? ref.b[i] : fr::zero()) << i;
    ASSERT_EQ(c[i], i < total ? ref.c[i] : fr::zero()) << i;
    ASSERT_EQ(a[i] * b[i], c[i]) << i;
  }
  cpu.compute_h(a, b, c);
  EXPECT_TRUE(a[m - 1].is_zero());  // deg h <= m - 2 for a satisfied system

  // Density MSMs against the naive sum over the set positions.
  const auto bases = test::random_subgroup_points<ec::g1_curve>(rng, in.shape.num_aux);
  const auto bases2 = test::random_subgroup_points<ec::g2_curve>(rng, in.shape.num_aux);
  ec::g1_jacobian want1 = ec::g1_jacobian::identity();
  ec::g2_jacobian want2 = ec::g2_jacobian::identity();
  std::size_t j = 0;
  for (std::size_t i = 0; i < in.shape.num_aux; ++i) {
    if (!in.shape.b_aux_density.test(i)) continue;
    want1 += ec::scalar_mul(ec::g1_jacobian::from_affine(bases[j]), in.aux[i]);
    want2 += ec::scalar_mul(ec::g2_jacobian::from_affine(bases2[j]), in.aux[i]);
    ++j;
  }
  EXPECT_EQ(cpu.msm_g1(bases, in.shape.b_aux_density, in.aux), want1);
  EXPECT_EQ(cpu.msm_g2(bases2, in.shape.b_aux_density, in.aux), want2);
}

// A slow-twin backend: O(n^2) DFTs for h, naive MSMs (sums of scalar multiplications) with the
// density compaction done by hand, and the serial SpMV. The generic prover sequence must give
// the same proof bytes over it as over the CPU backend.
class naive_backend final : public prover_backend {
 public:
  std::string_view name() const override { return "naive"; }
  void evaluate_abc(const r1cs::r1cs_shape& shape, std::span<const fr> inputs, std::span<const fr> aux,
                    std::span<fr> a, std::span<fr> b, std::span<fr> c) override {
    base::serial_executor serial;
    const auto v = r1cs::evaluate_abc(shape, inputs, aux, serial, r1cs::input_constraints::append);
    for (std::size_t i = 0; i < a.size(); ++i) {
      a[i] = i < v.a.size() ? v.a[i] : fr::zero();
      b[i] = i < v.b.size() ? v.b[i] : fr::zero();
      c[i] = i < v.c.size() ? v.c[i] : fr::zero();
    }
  }
  void compute_h(std::span<fr> a, std::span<fr> b, std::span<fr> c) override {
    const std::size_t n = a.size();
    const poly::radix2_domain d(n);
    const fr g = d.coset_generator(), ninv = d.size_inv();
    std::vector<fr> coef(n), va(n), vb(n), vc(n);
    auto to_coset = [&](std::span<const fr> evals, std::vector<fr>& out) {
      poly::naive_dft(evals, coef, d.omega_inv());
      for (auto& x : coef) x *= ninv;
      poly::naive_dft(coef, out, d.omega(), g);
    };
    to_coset(a, va);
    to_coset(b, vb);
    to_coset(c, vc);
    for (std::size_t k = 0; k < n; ++k) va[k] = (va[k] * vb[k] - vc[k]) * d.z_on_coset_inv();
    poly::naive_dft(va, coef, d.omega_inv());
    fr gi = ninv;
    for (std::size_t j = 0; j < n; ++j, gi *= d.coset_generator_inv()) a[j] = coef[j] * gi;
  }
  ec::g1_jacobian msm_g1(std::span<const ec::g1_affine> bases, std::span<const fr> scalars) override {
    return msm::naive_msm<ec::g1_curve>(bases, scalars);
  }
  ec::g1_jacobian msm_g1(std::span<const ec::g1_affine> bases, const r1cs::density_bitmap& density,
                         std::span<const fr> scalars) override {
    return msm::naive_msm<ec::g1_curve>(bases, compact(density, scalars));
  }
  ec::g2_jacobian msm_g2(std::span<const ec::g2_affine> bases, const r1cs::density_bitmap& density,
                         std::span<const fr> scalars) override {
    return msm::naive_msm<ec::g2_curve>(bases, compact(density, scalars));
  }

 private:
  static std::vector<fr> compact(const r1cs::density_bitmap& d, std::span<const fr> scalars) {
    std::vector<fr> out;
    for (std::size_t i = 0; i < scalars.size(); ++i)
      if (d.test(i)) out.push_back(scalars[i]);
    return out;
  }
};

TEST(Groth16Prove, SameProofOverNaiveBackend) {
  const uint64_t seed = cuzk::test::test_seed();
  std::mt19937_64 rng(seed);
  for (std::size_t constraints : {5u, 40u, 130u}) {
    test::g16_circuit circ;
    circ.seed = seed + constraints;
    circ.constraints = constraints;
    const instance in = make_instance(circ);
    auto ex = pool();
    const parameters p = setup_random(in.shape, rng, *ex);
    const fr r = fr::random(rng), s = fr::random(rng);
    backend::cpu::cpu_backend cpu(*ex);
    naive_backend naive;
    EXPECT_EQ(naive.name(), "naive");
    const auto want = encode_proof(prove(parameters_view::of(p), in.shape, in.inputs, in.aux, r, s, cpu));
    EXPECT_EQ(encode_proof(prove(parameters_view::of(p), in.shape, in.inputs, in.aux, r, s, naive)), want)
        << constraints << " constraints";
  }
}

// --- the toy circuit ------------------------------------------------------------------------------
// inputs ONE, out; aux x, y.   c0: x * x = y      c1: y * (x + ONE) = out
// Prover rows: c0, c1, ONE * 0 = 0 (row 2), out * 0 = 0 (row 3): m = 4, omega = i (i^2 = -1).
// Columns: 0 ONE, 1 out, 2 x, 3 y.
//   u: ONE = L2, out = L3, x = L0, y = L1          (A)
//   v: ONE = L1, x = L0 + L1, out = y = 0          (B: y and out drop out of b_g1/b_g2)
//   w: y = L0, out = L1                            (C)
// with L_k(tau) = i^k (tau^4 - 1) / (4 (tau - i^k)). Toxic waste: tau = 2 (z = 15), alpha = 3,
// beta = 5, gamma = 7, delta = 11, generators. Witness x = 3: y = 9, out = 36.
struct toy_circuit {
  template <r1cs::constraint_system CS>
  r1cs::result<void> synthesize(CS& cs) const {
    auto x = cs.alloc("x", [] { return fr::from_u64(3); });
    auto y = cs.alloc("y", [] { return fr::from_u64(9); });
    cs.enforce("c0", *x, *x, *y);
    auto out = cs.alloc_input("out", [] { return fr::from_u64(36); });
    cs.enforce("c1", *y, [&](r1cs::linear_combination lc) { return lc + *x + variable::one(); }, *out);
    return r1cs::ok();
  }
};

TEST(Groth16Toy, QueriesAndProofByHand) {
  const instance in = make_instance(toy_circuit{});
  ASSERT_EQ(in.shape.num_constraints, 2u);
  ASSERT_EQ(in.shape.num_inputs, 2u);
  ASSERT_EQ(in.shape.num_aux, 2u);
  toxic_waste tw;
  tw.tau = fr::from_u64(2);
  tw.alpha = fr::from_u64(3);
  tw.beta = fr::from_u64(5);
  tw.gamma = fr::from_u64(7);
  tw.delta = fr::from_u64(11);
  auto ex = pool();
  const parameters p = setup(in.shape, tw, *ex);

  const fr i = poly::radix2_domain(4).omega();
  ASSERT_EQ(i * i, -fr::one());
  const fr z = fr::from_u64(15), tau = tw.tau;
  fr L[4];
  fr ik = fr::one();
  for (int k = 0; k < 4; ++k, ik *= i) L[k] = ik * z * (fr::from_u64(4) * (tau - ik)).inverse();
  ASSERT_EQ(L[0] + L[1] + L[2] + L[3], fr::one());  // partition of unity

  auto G1 = [](const fr& k) { return test::g1_mul(k); };
  auto G2 = [](const fr& k) { return test::g2_mul(k); };
  const fr a3 = fr::from_u64(3), b5 = fr::from_u64(5), g7i = fr::from_u64(7).inverse(), d11i = fr::from_u64(11).inverse();

  EXPECT_EQ(p.vk.alpha_g1, G1(a3));
  EXPECT_EQ(p.vk.beta_g2, G2(b5));
  EXPECT_EQ(p.vk.gamma_g2, G2(fr::from_u64(7)));
  EXPECT_EQ(p.vk.delta_g1, G1(fr::from_u64(11)));
  // h_i = tau^i z / delta, i < 3: 15/11, 30/11, 60/11
  ASSERT_EQ(p.h.size(), 3u);
  EXPECT_EQ(p.h[0], G1(fr::from_u64(15) * d11i));
  EXPECT_EQ(p.h[1], G1(fr::from_u64(30) * d11i));
  EXPECT_EQ(p.h[2], G1(fr::from_u64(60) * d11i));
  // a: ONE, out, x, y (all nonzero)
  ASSERT_EQ(p.a.size(), 4u);
  EXPECT_EQ(p.a[0], G1(L[2]));
  EXPECT_EQ(p.a[1], G1(L[3]));
  EXPECT_EQ(p.a[2], G1(L[0]));
  EXPECT_EQ(p.a[3], G1(L[1]));
  // b: ONE, x only
  ASSERT_EQ(p.b_g1.size(), 2u);
  ASSERT_EQ(p.b_g2.size(), 2u);
  EXPECT_EQ(p.b_g1[0], G1(L[1]));
  EXPECT_EQ(p.b_g1[1], G1(L[0] + L[1]));
  EXPECT_EQ(p.b_g2[0], G2(L[1]));
  EXPECT_EQ(p.b_g2[1], G2(L[0] + L[1]));
  // ic = (beta u + alpha v + w) / gamma: ONE = (5 L2 + 3 L1)/7, out = (5 L3 + L1)/7
  ASSERT_EQ(p.vk.ic.size(), 2u);
  EXPECT_EQ(p.vk.ic[0], G1((b5 * L[2] + a3 * L[1]) * g7i));
  EXPECT_EQ(p.vk.ic[1], G1((b5 * L[3] + L[1]) * g7i));
  // l: x = (5 L0 + 3 (L0 + L1))/11, y = (5 L1 + L0)/11
  ASSERT_EQ(p.l.size(), 2u);
  EXPECT_EQ(p.l[0], G1((b5 * L[0] + a3 * (L[0] + L[1])) * d11i));
  EXPECT_EQ(p.l[1], G1((b5 * L[1] + L[0]) * d11i));

  // The proof with r = 13, s = 17. A(tau) = 1 L2 + 36 L3 + 3 L0 + 9 L1; B(tau) = 1 L1 + 3 (L0 + L1);
  // C(tau) = 9 L0 + 36 L1; the aux part of C: 3 l_x + 9 l_y (times delta).
  const fr r = fr::from_u64(13), s = fr::from_u64(17);
  const fr At = L[2] + fr::from_u64(36) * L[3] + a3 * L[0] + fr::from_u64(9) * L[1];
  const fr Bt = L[1] + a3 * (L[0] + L[1]);
  const fr Ct = fr::from_u64(9) * L[0] + fr::from_u64(36) * L[1];
  const fr lx = b5 * L[0] + a3 * (L[0] + L[1]), ly = b5 * L[1] + L[0];
  const fr A = a3 + At + r * fr::from_u64(11);
  const fr B = b5 + Bt + s * fr::from_u64(11);
  // h(tau) = (A B - C)(tau) / z: an element of the field, so the division is exact.
  const fr C = (a3 * lx + fr::from_u64(9) * ly + (At * Bt - Ct)) * d11i + s * A + r * B - r * s * fr::from_u64(11);

  auto ex1 = pool(1);
  backend::cpu::cpu_backend cpu(*ex1);
  prove_timings t;
  const proof pf = prove(parameters_view::of(p), in.shape, in.inputs, in.aux, r, s, cpu, &t);
  EXPECT_EQ(pf.a, G1(A));
  EXPECT_EQ(pf.b, G2(B));
  EXPECT_EQ(pf.c, G1(C));
  const std::vector<fr> pub{fr::from_u64(36)};
  EXPECT_EQ(verify(prepare_verifying_key(p.vk), pf, pub), verify_result::valid);
  const std::vector<fr> wrong{fr::from_u64(37)};
  EXPECT_EQ(verify(prepare_verifying_key(p.vk), pf, wrong), verify_result::invalid);
  EXPECT_GT(t.total, 0.0);
}

// --- random circuits ------------------------------------------------------------------------------
struct sized {
  std::size_t constraints, extra_inputs;
};

class Groth16EndToEnd : public ::testing::TestWithParam<sized> {};

TEST_P(Groth16EndToEnd, SetupProveVerifyAgainstSlowTwin) {
  const uint64_t seed = cuzk::test::test_seed();
  std::mt19937_64 rng(seed);
  test::g16_circuit circ;
  circ.seed = seed;
  circ.constraints = GetParam().constraints;
  circ.extra_inputs = GetParam().extra_inputs;
  const instance in = make_instance(circ);
  {
    r1cs::test_system ts;
    ASSERT_TRUE(circ.synthesize(ts).ok());
    ASSERT_TRUE(ts.is_satisfied()) << *ts.which_is_unsatisfied();
  }
  const auto& sh = in.shape;
  auto ex = pool();
  const toxic_waste tw = toxic_waste::random(rng);
  setup_timings st;
  const parameters p = setup(sh, tw, *ex, &st);
  // Density gaps reach the parameters.
  EXPECT_EQ(p.a.size(), sh.num_inputs + sh.a_aux_density.count());
  EXPECT_EQ(p.b_g1.size(), sh.b_input_density.count() + sh.b_aux_density.count());
  if (sh.num_aux > 40) {
    EXPECT_LT(sh.a_aux_density.count(), sh.num_aux);
    EXPECT_LT(sh.b_aux_density.count(), sh.num_aux);
  }
  if (sh.num_columns() <= 400) expect_parameters_match(p, sh, tw);

  const fr r = fr::random(rng), s = fr::random(rng);
  backend::cpu::cpu_backend cpu(*ex);
  const proof pf = prove(parameters_view::of(p), sh, in.inputs, in.aux, r, s, cpu);
  EXPECT_EQ(pf, expected_proof(in, tw, r, s));
  const prepared_verifying_key pvk = prepare_verifying_key(p.vk);
  const std::vector<fr> pub = public_inputs(in);
  EXPECT_EQ(verify(pvk, pf, pub), verify_result::valid);

  // Serial executor, same r, s: the same bytes.
  base::serial_executor serial;
  backend::cpu::cpu_backend cpu1(serial);
  EXPECT_EQ(encode_proof(prove(parameters_view::of(p), sh, in.inputs, in.aux, r, s, cpu1)), encode_proof(pf));

  // A changed public input is rejected.
  if (!pub.empty()) {
    std::vector<fr> bad = pub;
    bad[rng() % bad.size()] += fr::one();
    EXPECT_EQ(verify(pvk, pf, bad), verify_result::invalid);
  }
  // A random proof from the RNG convenience also verifies.
  EXPECT_EQ(verify(pvk, prove_random(parameters_view::of(p), sh, in.inputs, in.aux, rng, cpu), pub), verify_result::valid);
}

INSTANTIATE_TEST_SUITE_P(Sizes, Groth16EndToEnd,
                         ::testing::Values(sized{2, 0}, sized{3, 1}, sized{13, 2}, sized{61, 3}, sized{62, 3},
                                           sized{100, 5}, sized{250, 0}, sized{1000, 7}, sized{3000, 24}));

// A wrong witness (one aux changed) gives a proof that does not verify.
TEST(Groth16Prove, UnsatisfiedWitnessDoesNotVerify) {
  const uint64_t seed = cuzk::test::test_seed();
  std::mt19937_64 rng(seed);
  test::g16_circuit circ;
  circ.seed = seed;
  circ.constraints = 200;
  instance in = make_instance(circ);
  auto ex = pool();
  const parameters p = setup_random(in.shape, rng, *ex);
  in.aux[rng() % in.aux.size()] += fr::one();
  backend::cpu::cpu_backend cpu(*ex);
  const proof pf = prove_random(parameters_view::of(p), in.shape, in.inputs, in.aux, rng, cpu);
  EXPECT_EQ(verify(prepare_verifying_key(p.vk), pf, public_inputs(in)), verify_result::invalid);
}

TEST(Groth16Prove, TamperedProofBytes) {
  const uint64_t seed = cuzk::test::test_seed();
  std::mt19937_64 rng(seed);
  test::g16_circuit circ;
  circ.seed = seed;
  circ.constraints = 120;
  const instance in = make_instance(circ);
  auto ex = pool();
  const parameters p = setup_random(in.shape, rng, *ex);
  backend::cpu::cpu_backend cpu(*ex);
  const proof pf = prove_random(parameters_view::of(p), in.shape, in.inputs, in.aux, rng, cpu);
  const auto bytes = encode_proof(pf);
  const prepared_verifying_key pvk = prepare_verifying_key(p.vk);
  const auto pub = public_inputs(in);
  {
    proof back;
    ASSERT_TRUE(decode_proof(bytes, back).ok());
    EXPECT_EQ(verify(pvk, back, pub), verify_result::valid);
  }
  int decode_errors = 0, invalid = 0;
  for (int trial = 0; trial < 24; ++trial) {
    auto t = bytes;
    // Every byte of each element at least once across the flag byte, first and random positions.
    const std::size_t pos = trial < 3 ? std::size_t{trial == 0 ? 0u : trial == 1 ? 48u : 144u} : rng() % t.size();
    t[pos] ^= static_cast<uint8_t>(1u << (rng() % 8));
    proof back;
    const read_error e = decode_proof(t, back);
    if (!e.ok()) {
      ++decode_errors;
      continue;
    }
    EXPECT_EQ(verify(pvk, back, pub), verify_result::invalid) << "flipped a bit of byte " << pos;
    ++invalid;
  }
  EXPECT_EQ(decode_errors + invalid, 24);
}

TEST(Groth16Prove, ParametersFileRoundTripGivesSameProof) {
  const uint64_t seed = cuzk::test::test_seed();
  std::mt19937_64 rng(seed);
  test::g16_circuit circ;
  circ.seed = seed;
  circ.constraints = 300;
  circ.extra_inputs = 4;
  const instance in = make_instance(circ);
  auto ex = pool();
  const parameters p = setup_random(in.shape, rng, *ex);
  test::temp_path params_file("prove_roundtrip.params"), vk_file("prove_roundtrip.vk");
  ASSERT_TRUE(write_parameters_file(params_file.path, p).ok());
  ASSERT_TRUE(write_verifying_key_file(vk_file.path, p.vk).ok());
  parameters back;
  ASSERT_TRUE(read_parameters_file(params_file.path, back).ok());
  EXPECT_EQ(back, p);
  verifying_key vk;
  ASSERT_TRUE(read_verifying_key_file(vk_file.path, vk).ok());
  EXPECT_EQ(vk, p.vk);
  EXPECT_EQ(encode_parameters(p).size(), parameters_size(p));

  const fr r = fr::random(rng), s = fr::random(rng);
  backend::cpu::cpu_backend cpu(*ex);
  const auto a = encode_proof(prove(parameters_view::of(p), in.shape, in.inputs, in.aux, r, s, cpu));
  const auto b = encode_proof(prove(parameters_view::of(back), in.shape, in.inputs, in.aux, r, s, cpu));
  EXPECT_EQ(a, b);
  proof pf;
  ASSERT_TRUE(decode_proof(b, pf).ok());
  EXPECT_EQ(verify(prepare_verifying_key(vk), pf, public_inputs(in)), verify_result::valid);
  // A different r gives a different (still valid) proof.
  const auto c = encode_proof(prove(parameters_view::of(p), in.shape, in.inputs, in.aux, r + fr::one(), s, cpu));
  EXPECT_NE(a, c);
}

// Setup is a function of the toxic waste only: thread count does not matter.
TEST(Groth16Setup, DeterministicAcrossExecutors) {
  const uint64_t seed = cuzk::test::test_seed();
  std::mt19937_64 rng(seed);
  test::g16_circuit circ;
  circ.seed = seed;
  circ.constraints = 150;
  const instance in = make_instance(circ);
  const toxic_waste tw = toxic_waste::random(rng);
  base::serial_executor serial;
  auto ex = pool();
  EXPECT_EQ(setup(in.shape, tw, serial), setup(in.shape, tw, *ex));
}

// --- errors ---------------------------------------------------------------------------------------
struct unconstrained_circuit {
  template <r1cs::constraint_system CS>
  r1cs::result<void> synthesize(CS& cs) const {
    auto x = cs.alloc("x", [] { return fr::from_u64(2); });
    auto unused = cs.alloc("unused", [] { return fr::from_u64(5); });
    (void)unused;
    cs.enforce("c", *x, *x, [&](r1cs::linear_combination lc) { return lc + fr::from_u64(4) * variable::one(); });
    return r1cs::ok();
  }
};

TEST(Groth16Setup, Errors) {
  std::mt19937_64 rng(cuzk::test::test_seed());
  auto ex = pool();
  const instance in = make_instance(unconstrained_circuit{});
  try {
    (void)setup_random(in.shape, rng, *ex);
    FAIL() << "no error";
  } catch (const setup_error& e) {
    EXPECT_EQ(e.code(), setup_errc::unconstrained_variable);
  }
  const instance toy = make_instance(toy_circuit{});
  toxic_waste tw = toxic_waste::random(rng);
  tw.delta = fr::zero();
  try {
    (void)setup(toy.shape, tw, *ex);
    FAIL() << "no error";
  } catch (const setup_error& e) {
    EXPECT_EQ(e.code(), setup_errc::unexpected_identity);
  }
  tw = toxic_waste::random(rng);
  tw.tau = poly::radix2_domain(4).omega();  // in the domain
  try {
    (void)setup(toy.shape, tw, *ex);
    FAIL() << "no error";
  } catch (const setup_error& e) {
    EXPECT_EQ(e.code(), setup_errc::tau_in_domain);
  }
}

TEST(Groth16Prove, RejectsMismatchedParametersAndWitness) {
  const uint64_t seed = cuzk::test::test_seed();
  std::mt19937_64 rng(seed);
  test::g16_circuit circ;
  circ.seed = seed;
  circ.constraints = 50;
  const instance in = make_instance(circ);
  auto ex = pool();
  const parameters p = setup_random(in.shape, rng, *ex);
  backend::cpu::cpu_backend cpu(*ex);
  const fr r = fr::random(rng), s = fr::random(rng);
  parameters q = p;
  q.l.pop_back();
  EXPECT_THROW((void)prove(parameters_view::of(q), in.shape, in.inputs, in.aux, r, s, cpu), std::invalid_argument);
  q = p;
  q.a.push_back(q.a.back());
  EXPECT_THROW((void)prove(parameters_view::of(q), in.shape, in.inputs, in.aux, r, s, cpu), std::invalid_argument);
  std::vector<fr> short_aux(in.aux.begin(), in.aux.end() - 1);
  EXPECT_THROW((void)prove(parameters_view::of(p), in.shape, in.inputs, short_aux, r, s, cpu), std::invalid_argument);
}

}  // namespace
}  // namespace cuzk::groth16
