// The device setup generator (setup_cuda.hpp) against groth16::setup (the CPU generator,
// bellperson's generate_parameters), and proving with its device-resident bases:
//   * the PoRep-like synthetic circuit (porep_like_circuit.hpp) is satisfied and its densities
//     are right (CPU only: runs everywhere);
//   * setup_on_device == groth16::setup byte for byte for the same toxic waste, on PoRep-like
//     shapes (B density ~25%: empty B columns) and on random circuits with inputs allocated
//     mid-synthesis and aux variables missing from A or B (empty columns), non-power-of-two
//     constraint and input counts;
//   * prove_partition with the device parameters gives the CPU prover's bytes (same r, s), the
//     proofs verify, and the per-proof buffers are kept across proofs (the arbiter's reserved
//     bytes do not move between proofs); the same with the bases copied to pinned host memory
//     and streamed in chunks.
// GPU tests skip with the driver's message where there is no device.
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "backend/cpu/cpu_backend.hpp"
#include "backend/cuda/cuda_backend.hpp"
#include "backend/cuda/porep_like_circuit.hpp"
#include "backend/cuda/setup_cuda.hpp"
#include "base/executor.hpp"
#include "groth16/prover.hpp"
#include "groth16/setup.hpp"
#include "groth16/verifier.hpp"
#include "poly/domain.hpp"
#include "r1cs/r1cs.hpp"
#include "support/seed.hpp"
#include "unit/groth16/g16_circuit.hpp"
#include "unit/cuda/backend_test_support.hpp"

namespace cuzk::cuda {
namespace {

using gpu_test::cpu_pool;

using ff::fr;

fr dot(const r1cs::r1cs_shape& s, const r1cs::csr_matrix& m, std::size_t row, const std::vector<fr>& inputs,
       const std::vector<fr>& aux) {
  fr acc = fr::zero();
  for (uint64_t k = m.row_ptr[row]; k < m.row_ptr[row + 1]; ++k) {
    const uint32_t col = m.cols[k];
    acc += s.coeffs[m.coeff_ids[k]] * (col < s.num_inputs ? inputs[col] : aux[col - s.num_inputs]);
  }
  return acc;
}

TEST(PorepLikeCircuit, SatisfiedWithPorepDensities) {
  for (const witness_mix mix : {witness_mix::porep_measured(), witness_mix::pessimistic()})
  for (std::size_t n : {std::size_t{1}, std::size_t{5}, std::size_t{1000}, porep_like_constraints(16)}) {
    SCOPED_TRACE("constraints " + std::to_string(n) + ", b_other " + std::to_string(mix.b_other));
    const porep_like_circuit c = make_porep_like_circuit(n, n > 100 ? 328 : 3, cpu_pool(), 11, mix);
    const r1cs::r1cs_shape& s = c.shape;
    ASSERT_EQ(s.num_aux, n);
    ASSERT_EQ(c.aux.size(), n);
    for (std::size_t r = 0; r < s.num_constraints; ++r)
      ASSERT_EQ(dot(s, s.a, r, c.inputs, c.aux) * dot(s, s.b, r, c.inputs, c.aux), dot(s, s.c, r, c.inputs, c.aux))
          << "row " << r;
    EXPECT_EQ(s.a_aux_density.count(), n);  // aux r is in A's row r
    if (n > 10000) {
      const double rows = static_cast<double>(n);
      EXPECT_NEAR(static_cast<double>(s.a.nnz()) / rows, 2.4, 0.05);
      EXPECT_EQ(s.b.nnz(), n);
      EXPECT_NEAR(static_cast<double>(s.c.nnz()) / rows, 2.3, 0.1);
      EXPECT_NEAR(static_cast<double>(s.b_aux_density.count()) / rows, 0.25, 0.05);
      // Non-binary aux values: overall and among the B-dense aux (measured PoRep: 1.31% and 3.7%).
      std::size_t other = 0, b_other = 0;
      for (std::size_t j = 0; j < n; ++j) {
        const bool random = !c.aux[j].is_zero() && c.aux[j] != fr::one();
        other += random;
        b_other += random && s.b_aux_density.test(j);
      }
      const double want = (10000.0 - mix.zero - mix.one) / 10000.0;
      EXPECT_NEAR(static_cast<double>(other) / rows, want, 0.2 * want);
      const double b_frac = static_cast<double>(b_other) / static_cast<double>(s.b_aux_density.count());
      EXPECT_NEAR(b_frac, mix.b_other == 420 ? 0.037 : want, mix.b_other == 420 ? 0.008 : 0.2 * want);
    }
  }
  // Deterministic in the seed.
  const auto x = make_porep_like_circuit(500, 4, cpu_pool(), 3), y = make_porep_like_circuit(500, 4, cpu_pool(), 3);
  EXPECT_EQ(x.shape.a, y.shape.a);
  EXPECT_EQ(x.shape.c, y.shape.c);
  EXPECT_EQ(x.aux, y.aux);
}

template <class Circuit>
std::pair<r1cs::r1cs_shape, porep_like_circuit> synthesize(const Circuit& circ) {
  r1cs::shape_recorder rec;
  EXPECT_TRUE(circ(rec));
  r1cs::witness_builder wb;
  EXPECT_TRUE(circ(wb));
  porep_like_circuit w;
  w.inputs = wb.take_inputs();
  w.aux = wb.take_aux();
  return {std::move(rec).finish(), std::move(w)};
}

template <class Affine>
std::string first_point_mismatch(const char* what, const std::vector<Affine>& x, const std::vector<Affine>& y) {
  if (x.size() != y.size()) return std::string(what) + ": sizes " + std::to_string(x.size()) + " / " + std::to_string(y.size());
  for (std::size_t i = 0; i < x.size(); ++i)
    if (!(x[i] == y[i])) return std::string(what) + ": first mismatch at " + std::to_string(i);
  return "";
}

void expect_same_parameters(const groth16::parameters& got, const groth16::parameters& want) {
  EXPECT_EQ(first_point_mismatch("h", got.h, want.h), "");
  EXPECT_EQ(first_point_mismatch("l", got.l, want.l), "");
  EXPECT_EQ(first_point_mismatch("a", got.a, want.a), "");
  EXPECT_EQ(first_point_mismatch("b_g1", got.b_g1, want.b_g1), "");
  EXPECT_EQ(first_point_mismatch("b_g2", got.b_g2, want.b_g2), "");
  EXPECT_EQ(first_point_mismatch("ic", got.vk.ic, want.vk.ic), "");
  EXPECT_TRUE(got.vk == want.vk);
  EXPECT_TRUE(got == want);
}

std::shared_ptr<device_memory_arbiter> make_arbiter() {
  return device_memory_arbiter::from_device(*make_cuda_memory_info(0), std::size_t{1} << 30);
}

TEST(DeviceSetup, EqualsCpuSetupByteForByte) {
  CUZK_REQUIRE_GPU("device setup tests skipped");
  const uint64_t seed = test::test_seed();
  std::mt19937_64 rng(seed);
  auto arbiter = make_arbiter();
  std::vector<std::pair<r1cs::r1cs_shape, std::string>> shapes;
  for (auto [n, ni] : {std::pair<std::size_t, std::size_t>{1, 1}, {700, 3}, {3001, 9}, {porep_like_constraints(13), 328}})
    shapes.emplace_back(make_porep_like_circuit(n, ni, cpu_pool(), seed + n).shape, "porep-like " + std::to_string(n));
  for (std::size_t constraints : {61u, 1000u, 2900u}) {
    groth16::test::g16_circuit circ;
    circ.seed = seed + constraints;
    circ.constraints = constraints;
    circ.extra_inputs = 5;
    shapes.emplace_back(synthesize([&](auto& cs) { return circ.synthesize(cs).ok(); }).first,
                        "g16 circuit " + std::to_string(constraints));
  }
  for (const auto& [s, name] : shapes) {
    SCOPED_TRACE(name);
    const groth16::toxic_waste tw = groth16::toxic_waste::random(rng);
    const groth16::parameters want = groth16::setup(s, tw, cpu_pool());
    device_setup_timings t;
    const device_parameters dp = setup_on_device(s, tw, cpu_pool(), arbiter, std::chrono::seconds(10), &t);
    EXPECT_GT(t.total, 0.0);
    EXPECT_GT(arbiter->in_use(), 0u);
    expect_same_parameters(download_parameters(dp), want);
  }
  EXPECT_EQ(arbiter->in_use(), 0u);  // every generated SRS released with its parameters
}

TEST(DeviceSetup, ProveWithDeviceParametersEqualsCpuAndVerifies) {
  CUZK_REQUIRE_GPU("device setup tests skipped");
  const uint64_t seed = test::test_seed();
  std::mt19937_64 rng(seed);
  auto arbiter = make_arbiter();
  cuda_backend_options o;
  o.arbiter = arbiter;
  std::string error;
  auto gpu = cuda_backend::create(cpu_pool(), o, error);
  ASSERT_TRUE(gpu) << error;
  // The same parameters copied to pinned host memory and streamed in chunks of 1,500 points.
  o.stream_chunk_points = 1500;
  auto streaming = cuda_backend::create(cpu_pool(), o, error);
  ASSERT_TRUE(streaming) << error;
  backend::cpu::cpu_backend cpu(cpu_pool());
  for (unsigned log_m : {10u, 13u}) {
    SCOPED_TRACE("2^" + std::to_string(log_m));
    const porep_like_circuit c = make_porep_like_circuit(porep_like_constraints(log_m), 328, cpu_pool(), seed + log_m);
    const groth16::toxic_waste tw = groth16::toxic_waste::random(rng);
    const groth16::parameters p = groth16::setup(c.shape, tw, cpu_pool());
    const device_parameters dp = setup_on_device(c.shape, tw, cpu_pool(), arbiter, std::chrono::seconds(10));
    const auto pvk = groth16::prepare_verifying_key(dp.vk);
    const std::vector<fr> pub(c.inputs.begin() + 1, c.inputs.end());
    std::size_t reserved_after_first = 0;
    for (int proof = 0; proof < 3; ++proof) {
      const fr r = fr::random(rng), sv = fr::random(rng);
      const groth16::proof want = groth16::prove(groth16::parameters_view::of(p), c.shape, c.inputs, c.aux, r, sv, cpu);
      groth16::prove_timings t;
      const groth16::proof got = gpu->prove_partition(dp, c.shape, c.inputs, c.aux, r, sv, &t);
      EXPECT_EQ(groth16::encode_proof(got), groth16::encode_proof(want));
      EXPECT_EQ(groth16::verify(pvk, got, pub), groth16::verify_result::valid);
      if (proof == 0) reserved_after_first = arbiter->in_use();
      else EXPECT_EQ(arbiter->in_use(), reserved_after_first);  // buffers kept, nothing re-reserved
    }
    const device_parameters streamed = pinned_copy(dp);
    const fr r = fr::random(rng), sv = fr::random(rng);
    const groth16::proof want = groth16::prove(groth16::parameters_view::of(p), c.shape, c.inputs, c.aux, r, sv, cpu);
    const groth16::proof got = streaming->prove_partition(streamed, c.shape, c.inputs, c.aux, r, sv, nullptr);
    EXPECT_EQ(groth16::encode_proof(got), groth16::encode_proof(want)) << "streamed SRS";
    EXPECT_EQ(groth16::verify(pvk, got, pub), groth16::verify_result::valid);
  }
}

TEST(DeviceSetup, DeviceParametersOfAnotherShapeAreRejected) {
  CUZK_REQUIRE_GPU("device setup tests skipped");
  auto arbiter = make_arbiter();
  cuda_backend_options o;
  o.arbiter = arbiter;
  std::string error;
  auto gpu = cuda_backend::create(cpu_pool(), o, error);
  ASSERT_TRUE(gpu) << error;
  std::mt19937_64 rng(test::test_seed());
  const porep_like_circuit c = make_porep_like_circuit(900, 3, cpu_pool(), 5);
  const porep_like_circuit other = make_porep_like_circuit(901, 3, cpu_pool(), 5);
  const device_parameters dp =
      setup_on_device(other.shape, groth16::toxic_waste::random(rng), cpu_pool(), arbiter, std::chrono::seconds(10));
  EXPECT_THROW(gpu->prove_partition(dp, c.shape, c.inputs, c.aux, fr::one(), fr::one(), nullptr), std::invalid_argument);
  // Reserved on another arbiter.
  const device_parameters elsewhere = setup_on_device(c.shape, groth16::toxic_waste::random(rng), cpu_pool(),
                                                      make_arbiter(), std::chrono::seconds(10));
  EXPECT_THROW(gpu->prove_partition(elsewhere, c.shape, c.inputs, c.aux, fr::one(), fr::one(), nullptr),
               std::invalid_argument);
}

}  // namespace
}  // namespace cuzk::cuda
