// The CUDA prover backend against the CPU backend (the oracle), bit for bit:
//   * device SpMV (evaluate_abc) on random CSR shapes: +-1 and other coefficients in every tag
//     width (table sizes 2, 40, 1,000, 70,000), empty rows, no aux, non-power-of-two sizes, the
//     buffer exactly rows + inputs long or padded to the domain; the witness copied as is and
//     (pinned pool, m large enough) packed, chunk by chunk or with the pipelined encode;
//   * prove_partition on random shapes with random parameters (distinct points, some at
//     infinity), on the MiMC test circuit k = 10..14 and on random satisfiable circuits with
//     inputs allocated mid-synthesis (setup from random toxic waste: the proofs also verify);
//     same r, s -> the same 192 bytes as the CPU backend, and prove_with_ops over the device's
//     lower operations gives them too;
//   * residency (SRS and shape uploaded once, re-uploaded for a new shape), two workers sharing
//     one arbiter and SRS cache, impossible reservations (alone, or beside the worker's own)
//     failing at once; the SRS streamed from pinned host memory (always, or automatically when
//     the device cannot hold it beside the working set), same bytes as the CPU.
// Skipped with the driver's message on machines without a GPU (run on the H200 machine through
// scripts/stage-device.sh); there only the no-device error path runs.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <functional>
#include <random>
#include <set>
#include <thread>
#include <vector>

#include "backend/cpu/cpu_backend.hpp"
#include "backend/cuda/cuda_backend.hpp"
#include "base/executor.hpp"
#include "groth16/prover.hpp"
#include "groth16/setup.hpp"
#include "groth16/verifier.hpp"
#include "poly/domain.hpp"
#include "r1cs/r1cs.hpp"
#include "support/seed.hpp"
#include "testcircuit/mimc_chain.hpp"
#include "unit/groth16/g16_circuit.hpp"
#include "unit/cuda/backend_test_support.hpp"

namespace cuzk::cuda {
namespace {

using gpu_test::cpu_pool;
using gpu_test::have_gpu;

using ff::fr;
using groth16::parameters;
using groth16::parameters_view;

std::unique_ptr<cuda_backend> make_gpu(const cuda_backend_options& o = {}) {
  std::string error;
  auto b = cuda_backend::create(cpu_pool(), o, error);
  EXPECT_TRUE(b) << error;
  return b;
}

// --- random shapes and witnesses ------------------------------------------------------------------
struct shape_spec {
  std::size_t rows, inputs, aux;  // inputs include ONE
  std::size_t table;              // coefficient table size (>= 2: +1 and -1 first)
  unsigned empty_row_percent;
  std::size_t max_terms;
};

r1cs::r1cs_shape random_shape(std::mt19937_64& rng, const shape_spec& sp) {
  r1cs::r1cs_shape s;
  s.num_constraints = sp.rows;
  s.num_inputs = sp.inputs;
  s.num_aux = sp.aux;
  s.coeffs = {fr::one(), -fr::one()};
  while (s.coeffs.size() < sp.table) s.coeffs.push_back(fr::random(rng));
  const std::size_t cols = sp.inputs + sp.aux;
  s.a_aux_density = r1cs::density_bitmap(sp.aux);
  s.b_input_density = r1cs::density_bitmap(sp.inputs);
  s.b_aux_density = r1cs::density_bitmap(sp.aux);
  for (int which = 0; which < 3; ++which) {
    r1cs::csr_matrix& m = which == 0 ? s.a : which == 1 ? s.b : s.c;
    m.row_ptr = {0};
    for (std::size_t r = 0; r < sp.rows; ++r) {
      std::set<uint32_t> row;
      if (rng() % 100 >= sp.empty_row_percent) {
        const std::size_t k = 1 + rng() % sp.max_terms;
        while (row.size() < std::min(k, cols)) row.insert(static_cast<uint32_t>(rng() % cols));
      }
      for (uint32_t col : row) {
        const uint64_t pick = rng() % 8;  // mostly +-1, as in Filecoin circuits
        const uint32_t id = pick < 4 || sp.table == 2 ? 0 : pick < 6 ? 1 : static_cast<uint32_t>(2 + rng() % (sp.table - 2));
        m.cols.push_back(col);
        m.coeff_ids.push_back(id);
        if (col >= sp.inputs && which == 0) s.a_aux_density.set(col - sp.inputs);
        if (which == 1) {
          if (col < sp.inputs)
            s.b_input_density.set(col);
          else
            s.b_aux_density.set(col - sp.inputs);
        }
      }
      m.row_ptr.push_back(m.cols.size());
    }
  }
  return s;
}

fr random_value(std::mt19937_64& rng) {
  switch (rng() % 4) {
    case 0: return fr::zero();
    case 1: return fr::one();
    default: return fr::random(rng);
  }
}

struct witness {
  std::vector<fr> inputs, aux;
};
witness random_witness(std::mt19937_64& rng, const r1cs::r1cs_shape& s) {
  witness w;
  w.inputs.push_back(fr::one());
  while (w.inputs.size() < s.num_inputs) w.inputs.push_back(random_value(rng));
  while (w.aux.size() < s.num_aux) w.aux.push_back(random_value(rng));
  return w;
}

template <class Curve>
std::vector<ec::affine_point<Curve>> random_points(std::mt19937_64& rng, std::size_t n, std::size_t infinity_every) {
  using jac = ec::jacobian_point<Curve>;
  const jac step = ec::scalar_mul(jac::generator(), fr::random(rng));
  jac p = ec::scalar_mul(jac::generator(), fr::random(rng));
  std::vector<jac> j(n);
  for (auto& x : j) x = p = p + step;
  std::vector<ec::affine_point<Curve>> out(n);
  ec::batch_to_affine(std::span<const jac>(j), std::span<ec::affine_point<Curve>>(out));
  if (infinity_every)
    for (std::size_t i = infinity_every / 2; i < n; i += infinity_every) out[i] = ec::affine_point<Curve>::identity();
  return out;
}

// Parameters of the right sizes with random points (no trapdoor: for comparing backends only).
parameters random_parameters(std::mt19937_64& rng, const r1cs::r1cs_shape& s) {
  parameters p;
  const std::size_t m = poly::radix2_domain(s.num_constraints + s.num_inputs).size();
  auto g1 = [&] { return ec::scalar_mul(ec::g1_jacobian::generator(), fr::random(rng)).to_affine(); };
  auto g2 = [&] { return ec::scalar_mul(ec::g2_jacobian::generator(), fr::random(rng)).to_affine(); };
  p.vk.alpha_g1 = g1();
  p.vk.beta_g1 = g1();
  p.vk.beta_g2 = g2();
  p.vk.gamma_g2 = g2();
  p.vk.delta_g1 = g1();
  p.vk.delta_g2 = g2();
  p.vk.ic = random_points<ec::g1_curve>(rng, s.num_inputs, 0);
  const std::size_t b_count = s.b_input_density.count() + s.b_aux_density.count();
  p.h = random_points<ec::g1_curve>(rng, m - 1, 0);
  p.l = random_points<ec::g1_curve>(rng, s.num_aux, 97);
  p.a = random_points<ec::g1_curve>(rng, s.num_inputs + s.a_aux_density.count(), 89);
  p.b_g1 = random_points<ec::g1_curve>(rng, b_count, 0);
  p.b_g2 = random_points<ec::g2_curve>(rng, b_count, 0);
  return p;
}

std::string first_mismatch(const std::vector<fr>& x, const std::vector<fr>& y) {
  if (x.size() != y.size()) return "sizes differ";
  for (std::size_t i = 0; i < x.size(); ++i)
    if (x[i] != y[i]) return "first mismatch at " + std::to_string(i);
  return "";
}

// Without a device, create() reports why instead of returning a backend (runs on CPU machines).
TEST(CudaBackend, CreateWithoutDeviceReportsTheReason) {
  std::string why;
  if (have_gpu(why)) GTEST_SKIP() << "a CUDA device is present: the no-device path is not reachable";
  std::string error;
  EXPECT_EQ(cuda_backend::create(cpu_pool(), {}, error), nullptr);
  // The message names the CUDA call that failed (cudaSetDevice or cudaMemGetInfo, whichever the
  // driver refuses first) and the runtime's reason.
  EXPECT_TRUE(error.find("cudaSetDevice") != std::string::npos || error.find("cudaMemGetInfo") != std::string::npos)
      << error;
}

// --- SpMV ----------------------------------------------------------------------------------------
TEST(CudaBackend, SpmvMatchesCpuEvaluateAbc) {
  CUZK_REQUIRE_GPU("CUDA backend tests skipped");
  std::mt19937_64 rng(test::test_seed());
  auto gpu = make_gpu();
  cuda_backend_options staged;  // the witness through pinned 32 MiB halves, encoded as one pipeline
  staged.pinned = make_cuda_pinned_pool(std::size_t{256} << 20);
  auto gpu_pinned = make_gpu(staged);
  cuda_backend_options chunked = staged;  // the packed upload's encode one chunk at a time
  chunked.pipelined_witness_encode = false;
  auto gpu_chunked = make_gpu(chunked);
  ASSERT_TRUE(gpu && gpu_pinned && gpu_chunked);
  backend::cpu::cpu_backend cpu(cpu_pool());
  const shape_spec specs[] = {
      {1, 1, 0, 2, 0, 1},             // one row, ONE only, no aux
      {0, 3, 5, 2, 0, 2},             // no rows: input constraints and padding only
      {1000, 5, 1700, 2, 10, 6},      // only +-1 coefficients
      {3001, 17, 2500, 40, 25, 9},    // 1-byte tags, many empty rows
      {12345, 4, 9000, 1000, 5, 4},   // 2-byte tags
      {2500, 9, 3000, 70000, 5, 40},  // 4-byte tags, long rows
      {1000, 3, 1200000, 40, 5, 4},   // a 38 MB witness: two staging chunks
      // m >= 2^20 + 2^16: c can be the packed upload's device stage (34 MB); 2.2M aux values
      // (a third each zero, one, other): three packed chunks, the last one partial.
      {1100000, 3, 2200000, 40, 5, 3},
  };
  for (const shape_spec& sp : specs) {
    SCOPED_TRACE("rows " + std::to_string(sp.rows) + ", table " + std::to_string(sp.table));
    const r1cs::r1cs_shape s = random_shape(rng, sp);
    const witness w = random_witness(rng, s);
    const std::size_t total = s.num_constraints + s.num_inputs;
    for (std::size_t m : {total, poly::radix2_domain(total).size(), poly::radix2_domain(total).size() * 2}) {
      std::vector<fr> a(m), b(m), c(m);
      cpu.evaluate_abc(s, w.inputs, w.aux, a, b, c);
      for (cuda_backend* g : {gpu.get(), gpu_pinned.get(), gpu_chunked.get()}) {
        std::vector<fr> ga(m, fr::one()), gb(m, fr::one()), gc(m, fr::one());
        g->evaluate_abc(s, w.inputs, w.aux, ga, gb, gc);
        EXPECT_TRUE(a == ga) << "a, m = " << m << ": " << first_mismatch(a, ga);
        EXPECT_TRUE(b == gb) << "b, m = " << m << ": " << first_mismatch(b, gb);
        EXPECT_TRUE(c == gc) << "c, m = " << m << ": " << first_mismatch(c, gc);
      }
    }
  }
  // Each shape was uploaded once, whatever the buffer size.
  EXPECT_EQ(gpu->shape_uploads(), std::size(specs));
  EXPECT_EQ(gpu_pinned->shape_uploads(), std::size(specs));
}

TEST(CudaBackend, LowerOperationsMatchCpu) {
  CUZK_REQUIRE_GPU("CUDA backend tests skipped");
  std::mt19937_64 rng(test::test_seed());
  auto gpu = make_gpu();
  ASSERT_TRUE(gpu);
  backend::cpu::cpu_backend cpu(cpu_pool());
  const std::size_t n = 1 << 12;
  std::vector<fr> a(n), b(n), c(n);
  for (std::size_t i = 0; i < n; ++i) a[i] = fr::random(rng), b[i] = fr::random(rng), c[i] = fr::random(rng);
  std::vector<fr> ga = a, gb = b, gc = c;
  cpu.compute_h(a, b, c);
  gpu->compute_h(ga, gb, gc);
  EXPECT_TRUE(a == ga) << first_mismatch(a, ga);

  const auto bases = random_points<ec::g1_curve>(rng, 3000, 50);
  std::vector<fr> scalars(2500);
  for (auto& x : scalars) x = random_value(rng);
  EXPECT_EQ(gpu->msm_g1(bases, scalars).to_affine(), cpu.msm_g1(bases, scalars).to_affine());
  r1cs::density_bitmap d(2500);
  for (std::size_t i = 0; i < 2500; ++i)
    if (rng() % 3) d.set(i);
  EXPECT_EQ(gpu->msm_g1(bases, d, scalars).to_affine(), cpu.msm_g1(bases, d, scalars).to_affine());
}

// --- prove_partition -------------------------------------------------------------------------------
// with_ops: also prove_with_ops over the device's lower operations (they need room for their own
// buffers beside the cached SRS, which a tight arbiter does not have).
void expect_same_proofs(cuda_backend& gpu, const parameters& p, const r1cs::r1cs_shape& s, const witness& w,
                        std::mt19937_64& rng, bool verify, bool with_ops = true) {
  backend::cpu::cpu_backend cpu(cpu_pool());
  const fr r = fr::random(rng), sv = fr::random(rng);
  const parameters_view pv = parameters_view::of(p);
  const groth16::proof want = groth16::prove(pv, s, w.inputs, w.aux, r, sv, cpu);
  groth16::prove_timings t;
  const groth16::proof got = groth16::prove(pv, s, w.inputs, w.aux, r, sv, gpu, &t);
  EXPECT_EQ(groth16::encode_proof(got), groth16::encode_proof(want));
  EXPECT_GT(t.total, 0.0);
  EXPECT_GT(t.msm_b_g2, 0.0);
  if (with_ops) {
    const groth16::proof ops = groth16::prove_with_ops(gpu, pv, s, w.inputs, w.aux, r, sv);
    EXPECT_EQ(groth16::encode_proof(ops), groth16::encode_proof(want));
  }
  if (verify) {
    const std::vector<fr> pub(w.inputs.begin() + 1, w.inputs.end());
    EXPECT_EQ(groth16::verify(groth16::prepare_verifying_key(p.vk), got, pub), groth16::verify_result::valid);
  }
}

TEST(CudaBackend, ProvePartitionRandomShapesSameBytesAsCpu) {
  CUZK_REQUIRE_GPU("CUDA backend tests skipped");
  std::mt19937_64 rng(test::test_seed());
  auto gpu = make_gpu();
  ASSERT_TRUE(gpu);
  const shape_spec specs[] = {{700, 3, 900, 40, 10, 5}, {2049, 6, 3500, 300, 5, 4}, {1, 1, 0, 2, 0, 1}};
  for (const shape_spec& sp : specs) {
    SCOPED_TRACE("rows " + std::to_string(sp.rows));
    const r1cs::r1cs_shape s = random_shape(rng, sp);
    const parameters p = random_parameters(rng, s);
    for (int proof = 0; proof < 2; ++proof) expect_same_proofs(*gpu, p, s, random_witness(rng, s), rng, false);
  }
  // One SRS upload per parameters object (the cache holds one entry), one shape upload per shape.
  EXPECT_EQ(gpu->srs_cache().uploads(), std::size(specs));
  EXPECT_EQ(gpu->shape_uploads(), std::size(specs));
}

template <class Circuit>
std::pair<r1cs::r1cs_shape, witness> synthesize(const Circuit& circ) {
  r1cs::shape_recorder rec;
  EXPECT_TRUE(circ(rec));
  r1cs::witness_builder wb;
  EXPECT_TRUE(circ(wb));
  witness w{wb.take_inputs(), wb.take_aux()};
  return {std::move(rec).finish(), std::move(w)};
}

TEST(CudaBackend, ProvePartitionTestCircuitVerifies) {
  CUZK_REQUIRE_GPU("CUDA backend tests skipped");
  std::mt19937_64 rng(test::test_seed());
  auto gpu = make_gpu();
  cuda_backend_options profiled_options;  // each MSM synchronises after every phase: same proofs
  profiled_options.profile_msms = true;
  auto profiled = make_gpu(profiled_options);
  ASSERT_TRUE(gpu && profiled);
  for (unsigned k : {10u, 12u, 14u}) {
    SCOPED_TRACE("k = " + std::to_string(k));
    const testcircuit::chain_definition def(k);
    const fr start = fr::random(rng);
    auto [s, w] = synthesize([&](auto& cs) { return testcircuit::synthesize_chain(cs, def, start).ok(); });
    ASSERT_EQ(poly::radix2_domain(s.num_constraints + s.num_inputs).size(), std::size_t{1} << k);
    const parameters p = groth16::setup_random(s, rng, cpu_pool());
    expect_same_proofs(*gpu, p, s, w, rng, true);
    if (k != 14) continue;
    expect_same_proofs(*profiled, p, s, w, rng, true);
    const auto& prof = profiled->last_msm_profiles();
    EXPECT_GT(prof[0].window_bits, 0u) << "H: its Pippenger's profile";
    EXPECT_GT(prof[0].accumulate_ms, 0.0) << "H";
    EXPECT_TRUE(prof[1].binary_split || prof[1].window_bits > 0) << "L: the split's or the plain MSM's profile";
    EXPECT_EQ(gpu->last_msm_profiles()[0].window_bits, 0u) << "an unprofiled backend keeps none";
  }
}

TEST(CudaBackend, ProvePartitionInputsMidSynthesisVerifies) {
  CUZK_REQUIRE_GPU("CUDA backend tests skipped");
  const uint64_t seed = test::test_seed();
  std::mt19937_64 rng(seed);
  auto gpu = make_gpu();
  ASSERT_TRUE(gpu);
  for (std::size_t constraints : {61u, 1000u, 3000u}) {
    groth16::test::g16_circuit circ;
    circ.seed = seed + constraints;
    circ.constraints = constraints;
    circ.extra_inputs = 5;
    auto [s, w] = synthesize([&](auto& cs) { return circ.synthesize(cs).ok(); });
    const parameters p = groth16::setup_random(s, rng, cpu_pool());
    expect_same_proofs(*gpu, p, s, w, rng, true);
  }
}

TEST(CudaBackend, TwoWorkersShareArbiterAndSrs) {
  CUZK_REQUIRE_GPU("CUDA backend tests skipped");
  std::mt19937_64 rng(test::test_seed());
  cuda_backend_options o;
  o.arbiter = device_memory_arbiter::from_device(*make_cuda_memory_info(), std::size_t{2} << 30);
  o.srs = std::make_shared<device_srs_cache>(1);
  o.pinned = make_cuda_pinned_pool(std::size_t{128} << 20);
  auto w1 = make_gpu(o), w2 = make_gpu(o);
  ASSERT_TRUE(w1 && w2);
  const r1cs::r1cs_shape s = random_shape(rng, {4000, 4, 5000, 100, 5, 5});
  const parameters p = random_parameters(rng, s);
  const witness x1 = random_witness(rng, s), x2 = random_witness(rng, s);
  const fr r = fr::random(rng), sv = fr::random(rng);
  backend::cpu::cpu_backend cpu(cpu_pool());
  const auto pv = parameters_view::of(p);
  const auto want1 = groth16::prove(pv, s, x1.inputs, x1.aux, r, sv, cpu);
  const auto want2 = groth16::prove(pv, s, x2.inputs, x2.aux, r, sv, cpu);
  groth16::proof got1, got2;
  std::string error1, error2;
  auto worker = [&](cuda_backend& gpu, const witness& x, groth16::proof& out, std::string& error) {
    try {
      for (int i = 0; i < 3; ++i) out = groth16::prove(pv, s, x.inputs, x.aux, r, sv, gpu);
    } catch (const std::exception& e) {
      error = e.what();
    }
  };
  std::thread t1(worker, std::ref(*w1), std::cref(x1), std::ref(got1), std::ref(error1));
  std::thread t2(worker, std::ref(*w2), std::cref(x2), std::ref(got2), std::ref(error2));
  t1.join();
  t2.join();
  EXPECT_EQ(error1, "");
  EXPECT_EQ(error2, "");
  EXPECT_EQ(groth16::encode_proof(got1), groth16::encode_proof(want1));
  EXPECT_EQ(groth16::encode_proof(got2), groth16::encode_proof(want2));
  EXPECT_EQ(o.srs->uploads(), 1u);
}

TEST(CudaBackend, StreamedSrsSameBytesAsCpu) {
  CUZK_REQUIRE_GPU("CUDA backend tests skipped");
  std::mt19937_64 rng(test::test_seed());
  // Always streamed, in chunks of 1,000 points: every query spans several chunks, the last ragged.
  cuda_backend_options o;
  o.residency = srs_residency::streamed;
  o.stream_chunk_points = 1000;
  auto gpu = make_gpu(o);
  ASSERT_TRUE(gpu);
  const shape_spec specs[] = {{2049, 6, 3500, 300, 5, 4}, {700, 3, 900, 40, 10, 5}};
  std::size_t bound = 0;
  for (const shape_spec& sp : specs) {
    SCOPED_TRACE("rows " + std::to_string(sp.rows));
    const r1cs::r1cs_shape s = random_shape(rng, sp);
    const parameters p = random_parameters(rng, s);
    for (int proof = 0; proof < 2; ++proof) expect_same_proofs(*gpu, p, s, random_witness(rng, s), rng, false);
    // Nothing of the SRS is reserved on the device: only the working set of chunk-sized MSMs
    // (buffers and scratch are kept from the larger first shape).
    bound = std::max(bound, gpu->working_set_bytes(s, srs_placement::all_streamed()));
    EXPECT_LE(gpu->arbiter().in_use(), bound);
  }

  // Automatic: an arbiter one byte short of the SRS resident beside the working set keeps some
  // queries resident and streams the others (the resident path would fail as impossible); with
  // room for it all, nothing streams; with room for the working set alone, everything does.
  const r1cs::r1cs_shape s = random_shape(rng, specs[0]);
  const parameters p = random_parameters(rng, s);
  const std::array<std::size_t, 5> bytes = {p.h.size() * 96, p.l.size() * 96, p.a.size() * 96, p.b_g1.size() * 96,
                                            p.b_g2.size() * 192};
  const std::size_t srs_bytes = bytes[0] + bytes[1] + bytes[2] + bytes[3] + bytes[4];
  cuda_backend_options chunked;
  chunked.stream_chunk_points = 1000;
  auto probe = make_gpu(chunked);
  ASSERT_TRUE(probe);
  const std::size_t resident_need = probe->working_set_bytes(s, {}) + srs_bytes;
  for (std::size_t capacity : {resident_need - 1, resident_need,
                               probe->working_set_bytes(s, srs_placement::all_streamed())}) {
    cuda_backend_options tight = chunked;
    tight.arbiter = std::make_shared<device_memory_arbiter>(capacity);
    auto automatic = make_gpu(tight);
    ASSERT_TRUE(automatic);
    const srs_placement where = automatic->place(s, bytes);
    if (capacity == resident_need) EXPECT_FALSE(where.any());
    else if (capacity == resident_need - 1) EXPECT_TRUE(where.any() && !(where == srs_placement::all_streamed()));
    else EXPECT_TRUE(where == srs_placement::all_streamed());
    SCOPED_TRACE("capacity " + std::to_string(capacity) + ", streamed H L A B_G1 B_G2: " + std::to_string(where.h) +
                 std::to_string(where.l) + std::to_string(where.a) + std::to_string(where.b_g1) +
                 std::to_string(where.b_g2));
    expect_same_proofs(*automatic, p, s, random_witness(rng, s), rng, false, false);
    // The lower operations count the cached SRS as held: where it leaves no room they fail at
    // once instead of waiting for memory that only their own cache holds.
    if (capacity == resident_need - 1) {
      const witness w = random_witness(rng, s);
      EXPECT_THROW((void)groth16::prove_with_ops(*automatic, parameters_view::of(p), s, w.inputs, w.aux, fr::one(),
                                                 fr::one()),
                   device_memory_error);
    }
  }
}

TEST(CudaBackend, ImpossibleReservationFailsAtOnce) {
  CUZK_REQUIRE_GPU("CUDA backend tests skipped");
  std::mt19937_64 rng(test::test_seed());
  cuda_backend_options o;
  o.arbiter = std::make_shared<device_memory_arbiter>(std::size_t{1} << 16);  // 64 KiB
  // Automatic residency: not even the streamed working set fits, so nothing is reserved.
  auto gpu = make_gpu(o);
  ASSERT_TRUE(gpu);
  const r1cs::r1cs_shape s = random_shape(rng, {1000, 2, 1000, 10, 0, 3});
  const parameters p = random_parameters(rng, s);
  const witness w = random_witness(rng, s);
  try {
    (void)groth16::prove(parameters_view::of(p), s, w.inputs, w.aux, fr::one(), fr::one(), *gpu);
    FAIL() << "expected device_memory_error";
  } catch (const device_memory_error& e) {
    EXPECT_EQ(e.reason(), device_memory_error::kind::impossible) << e.what();
  }
  EXPECT_EQ(o.arbiter->in_use(), 0u);
  EXPECT_FALSE(gpu->fault().faulted()) << "a refused reservation is not a device fault";

  // Room for the SRS but not for the rest beside it: also at once, not after the timeout.
  const std::size_t srs_bytes = (p.h.size() + p.l.size() + p.a.size() + p.b_g1.size()) * 96;
  cuda_backend_options tight;
  tight.arbiter = std::make_shared<device_memory_arbiter>(srs_bytes + 4096);
  tight.residency = srs_residency::device;  // (automatic would stream, and fail on the rest)
  tight.reserve_timeout = std::chrono::minutes(5);
  auto gpu2 = make_gpu(tight);
  ASSERT_TRUE(gpu2);
  const auto t0 = std::chrono::steady_clock::now();
  try {
    (void)groth16::prove(parameters_view::of(p), s, w.inputs, w.aux, fr::one(), fr::one(), *gpu2);
    FAIL() << "expected device_memory_error";
  } catch (const device_memory_error& e) {
    EXPECT_EQ(e.reason(), device_memory_error::kind::impossible) << e.what();
  }
  EXPECT_LT(std::chrono::steady_clock::now() - t0, std::chrono::seconds(30));
}

}  // namespace
}  // namespace cuzk::cuda
