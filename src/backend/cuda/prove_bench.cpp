// prove_partition and SpMV benchmark on the GPU (cuda_prove_bench; run by scripts/device-bench
// prove). Timing only: correctness is tests/unit/cuda/cuda_backend_test.cpp (byte for byte
// against the CPU backend at small sizes).
//
// Circuits: PoRep-like synthetic shapes of 2^k domain rows: num_constraints = 0.9707 * 2^k and
// num_aux = num_constraints (the 32 GiB PoRep partition: 130.28M constraints, 130.17M aux, 328
// inputs in 2^27), 328 inputs. Rows have 2-3 / 1 / 2-3 entries in A / B / C (means 2.4 / 1.0 /
// 2.2), columns mostly among the ~64 most recent aux variables (synthesis allocates as it goes),
// 5% anywhere, some ONE; B only uses every fourth aux variable (PoRep's B density is 25.4%).
// 90% of the coefficients are +-1, the rest from a table of 200 (1-byte tags on the device).
// Witness: aux 45% zero, 45% one, 10% random (PoRep witnesses are mostly bits).
// Parameters: 1,024 distinct random points per query, repeated (bases are gathered from HBM as
// with a real SRS; the point values do not change the timing).
//
// Prints, per size: shape/SRS generation and first (cold) proof, then per-stage timings of the
// best of `reps` warm proofs; SpMV alone (CUDA events, best of reps) with its floor:
//   bytes = matrices (5 B per entry + 4 B per row per matrix) + witness read once + a, b, c
//   written (96 B per row); floor = bytes / 4.8 TB/s. The "gather" figure counts one 32-byte
//   sector per entry instead of the witness once (no L2 reuse at all).
// Usage: cuda_prove_bench [spmv] [reps (3)] [log2 sizes... (20 24)]   (spmv: SpMV only, no proofs)
// cuda_prove_bench pack [reps (3)] [log2 n (27)]: the host witness encode alone, chunk by chunk and
// pipelined (no GPU needed).
//
// Real parameters (cuda_prove_bench real [reps] [log2 sizes...] [workers=N] [mix=pessimistic]
// [srs=streamed] [device_gib=N] [variants] [profile]): a satisfiable
// PoRep-like circuit of the same sizes and densities (porep_like_circuit.hpp), parameters from
// the device setup generator (setup_cuda.hpp; its stage times and the prediction from operation
// counts are printed), a cold and `reps` warm proofs with per-stage timings, every proof checked
// by the verifier. workers=N: then two workers (two backends sharing the device, arbiter, kernel
// lock and the generated SRS, each on its own host thread) prove N partitions of the last size
// between them; per-partition and total times, reserved device memory against the arbiter's
// capacity and the driver's used bytes, allocation failures (any exception), host peak RSS.
// mix=pessimistic: aux 45% zero / 45% one / 10% other instead of the measured PoRep mix.
// srs=streamed: the generated bases are moved to pinned host memory and every MSM streams them in
// chunks (the path of a device that cannot hold the SRS beside a partition's working set).
// device_gib=N: the parameters are copied back to the host and the backends see an N GiB device
// (arbiter capacity N - 2 GiB) with automatic residency: the queries that do not fit stream.
// variants: then a backend with the witness encode chunk by chunk (off its default) and the
// same SRS, best of `reps` warm proofs. profile: then a backend whose MSMs profile their phases
// (cuda_backend_options::profile_msms); each query's phases of its second proof.
#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <fstream>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "backend/cuda/cuda_backend.hpp"
#include "backend/cuda/porep_like_circuit.hpp"
#include "backend/cuda/setup_cuda.hpp"
#include "backend/cuda/spmv_cuda.hpp"
#include "backend/cuda/witness_packing.hpp"
#include "base/executor.hpp"
#include "groth16/params.hpp"
#include "groth16/setup.hpp"
#include "groth16/verifier.hpp"

namespace {

namespace cuda = cuzk::cuda;
namespace groth16 = cuzk::groth16;
namespace r1cs = cuzk::r1cs;
namespace ec = cuzk::ec;
using cuzk::ff::fr;
using clock_type = std::chrono::steady_clock;

constexpr double hbm_bytes_per_s = 4.8e12;
constexpr std::size_t porep_inputs = 328;
constexpr std::size_t coeff_table = 200;
constexpr std::size_t distinct_points = 1024;

[[noreturn]] void die(const std::string& what) {
  std::fprintf(stderr, "cuda_prove_bench: %s\n", what.c_str());
  std::exit(1);
}
double seconds_since(clock_type::time_point t0) { return std::chrono::duration<double>(clock_type::now() - t0).count(); }

// SplitMix64 on a counter: a stateless hash, so rows and values can be made in parallel.
uint64_t mix(uint64_t x) {
  x += 0x9E3779B97F4A7C15ULL;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
  return x ^ (x >> 31);
}

// Entries of row r in matrix which (0, 1, 2 = A, B, C).
unsigned row_length(unsigned which, std::size_t r) {
  const uint64_t h = mix(r * 3 + which) % 10;
  if (which == 0) return h < 4 ? 3 : 2;  // 2.4
  if (which == 1) return 1;
  return h < 2 ? 3 : 2;  // 2.2
}

r1cs::r1cs_shape porep_like_shape(unsigned log_m, cuzk::base::executor& ex) {
  r1cs::r1cs_shape s;
  const std::size_t m = std::size_t{1} << log_m;
  s.num_inputs = porep_inputs;
  s.num_constraints = static_cast<std::size_t>(static_cast<double>(m) * 0.9707);
  s.num_aux = s.num_constraints;
  std::mt19937_64 rng(42);
  s.coeffs = {fr::one(), -fr::one()};
  while (s.coeffs.size() < coeff_table) s.coeffs.push_back(fr::random(rng));
  const std::size_t ni = s.num_inputs, na = s.num_aux, rows = s.num_constraints;
  for (unsigned which = 0; which < 3; ++which) {
    r1cs::csr_matrix& mat = which == 0 ? s.a : which == 1 ? s.b : s.c;
    mat.row_ptr.resize(rows + 1);
    mat.row_ptr[0] = 0;
    for (std::size_t r = 0; r < rows; ++r) mat.row_ptr[r + 1] = mat.row_ptr[r] + row_length(which, r);
    mat.cols.resize(mat.row_ptr[rows]);
    mat.coeff_ids.resize(mat.row_ptr[rows]);
    ex.parallel_for(rows, 1 << 16, [&](std::size_t lo, std::size_t hi) {
      for (std::size_t r = lo; r < hi; ++r) {
        const std::size_t e0 = mat.row_ptr[r], len = mat.row_ptr[r + 1] - e0;
        uint32_t cols[3];
        std::size_t k = 0;
        for (std::size_t j = 0; k < len && j < 16; ++j) {
          const uint64_t h = mix((r << 8) ^ (which << 5) ^ j ^ 0x5bd1e995ULL);
          std::size_t col;
          if (h % 100 < 3) {
            col = 0;  // ONE
          } else {
            const std::size_t aux = h % 100 < 8 ? (h >> 8) % na : (r > 64 ? r - (h >> 8) % 64 : (h >> 8) % (r + 1)) % na;
            col = ni + (which == 1 ? aux & ~std::size_t{3} : aux);
          }
          if (std::find(cols, cols + k, static_cast<uint32_t>(col)) == cols + k) cols[k++] = static_cast<uint32_t>(col);
        }
        for (std::size_t j = 0; k < len; ++j) {  // (16 draws not distinct: practically never)
          const auto col = static_cast<uint32_t>(ni + (r + j) % na);
          if (std::find(cols, cols + k, col) == cols + k) cols[k++] = col;
        }
        for (std::size_t i = 1; i < len; ++i)  // ascending columns (at most 3)
          for (std::size_t j = i; j > 0 && cols[j - 1] > cols[j]; --j) std::swap(cols[j - 1], cols[j]);
        for (std::size_t j = 0; j < len; ++j) {
          const uint64_t h = mix(e0 + j + (uint64_t{which} << 60));
          mat.cols[e0 + j] = cols[j];
          mat.coeff_ids[e0 + j] = h % 10 < 6 ? 0 : h % 10 < 9 ? 1 : static_cast<uint32_t>(2 + (h >> 8) % (coeff_table - 2));
        }
      }
    });
  }
  cuda::set_densities(s);
  return s;
}

void porep_like_witness(const r1cs::r1cs_shape& s, std::vector<fr>& inputs, std::vector<fr>& aux,
                        cuzk::base::executor& ex) {
  inputs.assign(s.num_inputs, fr::one());
  aux.resize(s.num_aux);
  ex.parallel_for(aux.size(), 1 << 16, [&](std::size_t lo, std::size_t hi) {
    std::mt19937_64 rng(mix(lo));
    for (std::size_t i = lo; i < hi; ++i) {
      const uint64_t h = rng() % 100;
      aux[i] = h < 45 ? fr::zero() : h < 90 ? fr::one() : fr::random(rng);
    }
  });
  for (std::size_t i = 1; i < inputs.size(); ++i) inputs[i] = fr::from_u64(mix(i));
}

template <class Affine>
std::vector<Affine> repeated(const std::vector<Affine>& distinct, std::size_t n, cuzk::base::executor& ex) {
  std::vector<Affine> out(n);
  ex.parallel_for(n, 1 << 16, [&](std::size_t lo, std::size_t hi) {
    for (std::size_t i = lo; i < hi; ++i) out[i] = distinct[i % distinct.size()];
  });
  return out;
}

groth16::parameters porep_like_parameters(const r1cs::r1cs_shape& s, std::size_t m, cuzk::base::executor& ex) {
  std::mt19937_64 rng(7);
  std::vector<ec::g1_affine> g1(distinct_points);
  std::vector<ec::g2_affine> g2(distinct_points);
  ec::g1_jacobian p1 = ec::g1_jacobian::generator();
  ec::g2_jacobian p2 = ec::g2_jacobian::generator();
  const ec::g1_jacobian step1 = ec::scalar_mul(p1, fr::random(rng));
  const ec::g2_jacobian step2 = ec::scalar_mul(p2, fr::random(rng));
  for (std::size_t i = 0; i < distinct_points; ++i) {
    g1[i] = (p1 += step1).to_affine();
    g2[i] = (p2 += step2).to_affine();
  }
  groth16::parameters p;
  p.vk.alpha_g1 = g1[1];
  p.vk.beta_g1 = g1[2];
  p.vk.beta_g2 = g2[3];
  p.vk.gamma_g2 = g2[4];
  p.vk.delta_g1 = g1[5];
  p.vk.delta_g2 = g2[6];
  p.vk.ic = repeated(g1, s.num_inputs, ex);
  const std::size_t b_count = s.b_input_density.count() + s.b_aux_density.count();
  p.h = repeated(g1, m - 1, ex);
  p.l = repeated(g1, s.num_aux, ex);
  p.a = repeated(g1, s.num_inputs + s.a_aux_density.count(), ex);
  p.b_g1 = repeated(g1, b_count, ex);
  p.b_g2 = repeated(g2, b_count, ex);
  return p;
}

void print_timings(const char* label, const groth16::prove_timings& t) {
  std::printf("  %-6s total %8.1f ms | abc %7.1f  h %7.1f  msm_h %7.1f  msm_l %7.1f  msm_a %7.1f  msm_b_g1 %7.1f"
              "  msm_b_g2 %7.1f  assembly %5.1f\n",
              label, t.total * 1e3, t.abc * 1e3, t.h * 1e3, t.msm_h * 1e3, t.msm_l * 1e3, t.msm_a * 1e3,
              t.msm_b_g1 * 1e3, t.msm_b_g2 * 1e3, t.assembly * 1e3);
}

void bench_spmv(const r1cs::r1cs_shape& s, std::size_t m, const std::vector<fr>& inputs, const std::vector<fr>& aux,
                unsigned reps, cuzk::base::executor& ex) {
  std::string error;
  auto shape = cuda::device_shape::upload(s, error);
  auto ctx = shape ? cuda::spmv_context::create(nullptr, error) : nullptr;
  if (!ctx) die(error);
  cuda::device_fr_vector w, a, b, c;
  auto t0 = clock_type::now();
  if (!ctx->upload_witness(*shape, inputs, aux, w, nullptr, error)) die(error);
  const double upload_s = seconds_since(t0);
  // The same upload through pinned double-buffered chunks (second run: the pool's buffer exists).
  const auto pool = cuda::make_cuda_pinned_pool(std::size_t{256} << 20);
  auto staged = cuda::spmv_context::create(pool.get(), error);
  if (!staged) die(error);
  // And with each chunk's host copy split over the CPU threads (as cuda_backend does).
  auto parallel = cuda::spmv_context::create(pool.get(), error, &ex);
  if (!parallel) die(error);
  double pinned_s = 1e300, parallel_s = 1e300, packed_s = 1e300;
  for (int i = 0; i < 2; ++i) {
    t0 = clock_type::now();
    if (!staged->upload_witness(*shape, inputs, aux, w, nullptr, error)) die(error);
    pinned_s = std::min(pinned_s, seconds_since(t0));
    t0 = clock_type::now();
    if (!parallel->upload_witness(*shape, inputs, aux, w, nullptr, error)) die(error);
    parallel_s = std::min(parallel_s, seconds_since(t0));
  }
  // Packed (c as the device stage, as the prover does), chunk by chunk and with the pipelined
  // encode (one pipeline over the threads for the whole witness): best of two, then checked
  // against the plain copy, w overwritten first so that the check sees what the upload wrote.
  std::vector<fr> plain(w.size()), packed(w.size());
  if (!w.download(plain, error) || !c.resize(m, error)) die(error);
  auto pipelined = cuda::spmv_context::create(pool.get(), error, &ex, true);
  if (!pipelined) die(error);
  auto time_packed = [&](cuda::spmv_context& up, const char* what) {
    if (!w.upload(std::vector<fr>(w.size(), fr::one()), error)) die(error);
    double best_s = 1e300;
    for (int i = 0; i < 2; ++i) {
      t0 = clock_type::now();
      if (!up.upload_witness(*shape, inputs, aux, w, &c, error)) die(error);
      best_s = std::min(best_s, seconds_since(t0));
    }
    if (!w.download(packed, error)) die(error);
    if (plain != packed) die(std::string("the ") + what + " witness upload differs from the plain copy");
    return best_s;
  };
  packed_s = time_packed(*parallel, "packed");
  const double pipelined_s = time_packed(*pipelined, "pipelined packed");
  double best = 1e300;
  for (unsigned i = 0; i < reps + 1; ++i) {  // the first run allocates a, b, c
    if (!ctx->mark_start(error) || !ctx->evaluate_abc(*shape, w, m, a, b, c, error)) die(error);
    const double ms = ctx->elapsed_ms(error);
    if (ms < 0) die(error);
    if (i > 0) best = std::min(best, ms);
  }
  const double nnz = static_cast<double>(s.a.nnz() + s.b.nnz() + s.c.nnz());
  const double rows = static_cast<double>(s.num_constraints), dm = static_cast<double>(m);
  const double ideal = static_cast<double>(shape->matrix_bytes()) + static_cast<double>(w.size()) * 32 + 96.0 * dm;
  const double gather = static_cast<double>(shape->matrix_bytes()) + nnz * 32 + 96.0 * dm;
  const double wbytes = static_cast<double>(w.size()) * 32;
  std::printf("  SpMV: %.0f entries (%.2f / %.2f / %.2f per row), tags %u B\n", nnz,
              static_cast<double>(s.a.nnz()) / rows, static_cast<double>(s.b.nnz()) / rows,
              static_cast<double>(s.c.nnz()) / rows, shape->tag_bytes());
  std::printf("  witness upload %.2f GB: pageable %.1f ms, pinned chunks %.1f ms, pinned chunks with a %zu-thread copy"
              " %.1f ms (PCIe floor %.1f ms at 55 GB/s), packed on %zu threads %.1f ms, pipelined %.1f ms (same w)\n",
              wbytes / 1e9, upload_s * 1e3, pinned_s * 1e3, ex.concurrency(), parallel_s * 1e3, wbytes / 55e9 * 1e3,
              ex.concurrency(), packed_s * 1e3, pipelined_s * 1e3);
  std::printf("  SpMV: best %.2f ms; floor %.2f ms (%.2f GB at 4.8 TB/s), ratio %.2f; gather-bound floor %.2f ms\n", best,
              ideal / hbm_bytes_per_s * 1e3, ideal / 1e9, best / (ideal / hbm_bytes_per_s * 1e3),
              gather / hbm_bytes_per_s * 1e3);
}

// Prints the device and the host thread count; the executor runs every host-side generation.
std::unique_ptr<cuzk::base::executor> print_machine_and_make_executor() {
  std::string error;
  cuda::device_info info;
  if (!cuda::get_device_info(info, error)) die(error);
  std::printf("device: %s, %d SMs, %.0f MHz, %.1f GiB\n", info.name.c_str(), info.sm_count, info.clock_khz / 1e3,
              static_cast<double>(info.total_memory) / 1073741824.0);
  auto ex = cuzk::base::make_thread_pool_executor(0);
  std::printf("CPU threads: %zu\n", ex->concurrency());
  return ex;
}

// Host peak resident set (VmHWM), GB.
double host_peak_gb() {
  std::ifstream f("/proc/self/status");
  std::string line;
  while (std::getline(f, line))
    if (line.rfind("VmHWM:", 0) == 0) return std::strtod(line.c_str() + 6, nullptr) * 1024 / 1e9;
  return -1;
}

std::string device_used() {
  std::size_t free_b = 0, total_b = 0;
  std::string error;
  if (!cuda::make_cuda_memory_info()->query(free_b, total_b, error)) return error;
  return cuda::format_bytes(total_b - free_b) + " of " + cuda::format_bytes(total_b);
}

// One MSM's profile (g1_msm_options::profile) on a line: with the 0/1 split its three phases
// (host clock) and then the rest's Pippenger phases, else the Pippenger phases (CUDA events).
void print_msm_profile(const char* query, const cuda::g1_msm_profile& p) {
  if (p.binary_split)
    std::printf("    %-5s 0/1 split %7.2f ms: classify %.2f, ones %.2f, rest %.2f (%zu scalars; its", query,
                p.binary_classify_ms + p.binary_ones_ms + p.binary_rest_ms, p.binary_classify_ms, p.binary_ones_ms,
                p.binary_rest_ms, p.binary_rest);
  else
    std::printf("    %-5s Pippenger %7.2f ms (its", query, p.total_ms);
  std::printf(" c=%u: scalars %.2f, digits %.2f, sort %.2f, affine %.2f, accumulate %.2f, reduce %.2f, host %.2f)\n",
              p.window_bits, p.scalars_ms, p.digits_ms, p.sort_ms, p.affine_ms, p.accumulate_ms, p.reduce_ms,
              p.host_ms);
}

// Real parameters: device setup, proofs checked by the verifier; then optionally two workers.
void bench_real(unsigned log_m, unsigned reps, unsigned partitions, const cuda::witness_mix& mix, bool streamed,
                unsigned device_gib, bool variants, bool profile, cuzk::base::executor& ex) {
  const std::size_t m = std::size_t{1} << log_m;
  std::printf("\n== 2^%u domain (PoRep-like, satisfiable, real parameters; aux %.2f%% zero, %.2f%% one, %.2f%% "
              "other) ==\n",
              log_m, mix.zero / 100.0, mix.one / 100.0, (10000 - mix.zero - mix.one) / 100.0);
  auto t0 = clock_type::now();
  const cuda::porep_like_circuit circ =
      cuda::make_porep_like_circuit(cuda::porep_like_constraints(log_m), porep_inputs, ex, 1, mix);
  const r1cs::r1cs_shape& s = circ.shape;
  const double rows = static_cast<double>(s.num_constraints);
  std::printf("  circuit generated in %.1f s: %zu constraints, %zu aux, entries per row %.2f / %.2f / %.2f, "
              "A / B aux density %.3f / %.3f; host peak %.1f GB\n",
              seconds_since(t0), s.num_constraints, s.num_aux, static_cast<double>(s.a.nnz()) / rows,
              static_cast<double>(s.b.nnz()) / rows, static_cast<double>(s.c.nnz()) / rows,
              static_cast<double>(s.a_aux_density.count()) / static_cast<double>(s.num_aux),
              static_cast<double>(s.b_aux_density.count()) / static_cast<double>(s.num_aux), host_peak_gb());

  std::string error;
  auto info = cuda::make_cuda_memory_info(0);
  auto arbiter = cuda::device_memory_arbiter::from_device(*info, std::size_t{2} << 30);
  std::printf("  arbiter capacity %s (device used now %s)\n", cuda::format_bytes(arbiter->capacity()).c_str(),
              device_used().c_str());
  std::mt19937_64 rng(42);
  const groth16::toxic_waste tw = groth16::toxic_waste::random(rng);
  cuda::device_setup_timings st;
  t0 = clock_type::now();
  cuda::device_parameters dp = cuda::setup_on_device(s, tw, ex, arbiter, std::chrono::minutes(1), &st);
  const double setup_s = seconds_since(t0);
  const std::size_t n_a = dp.srs->a.size(), n_b = dp.srs->b_g1.size(), na = s.num_aux;
  if (streamed) {  // the bases to pinned host memory; the device copy is freed with the old object
    t0 = clock_type::now();
    dp = cuda::pinned_copy(dp);
    std::printf("  SRS copied to pinned host memory in %.1f s (streamed by every MSM); device used now %s\n",
                seconds_since(t0), device_used().c_str());
  }
  // Prediction (setup_cuda.hpp): G1 points x (W mixed additions x 10 + ~575) Fp products, G2
  // points x (W x 28 + ~510), W = 16 windows, at 1.77e10 products/s; host ~ measured.
  const double g1_points = static_cast<double>((m - 1) + na + n_a + n_b);
  const double products = g1_points * (16 * 10 + 575) + static_cast<double>(n_b) * (16 * 28 + 510);
  std::printf("  device setup %.1f s: host scalars %.1f (Lagrange %.1f, scatter %.1f), tables %.2f, H %.1f, L %.1f, "
              "A %.1f, B_G1 %.1f, B_G2 %.1f, vk %.2f s\n",
              setup_s, st.host_scalars, st.host_lagrange, st.host_scatter, st.tables, st.h, st.l, st.a, st.b_g1,
              st.b_g2, st.vk);
  std::printf("  setup points: %.3g G1 + %zu G2; predicted device part %.1f s (%.3g Fp products at 1.77e10/s), "
              "measured %.1f s; SRS %s resident; host peak %.1f GB\n",
              g1_points, n_b, products / 1.77e10, products, st.h + st.l + st.a + st.b_g1 + st.b_g2,
              cuda::format_bytes(dp.srs->memory.bytes()).c_str(), host_peak_gb());

  // device_gib: the parameters go back to the host (as if read from files) and the backends get an
  // arbiter of that many GiB less the 2 GiB margin, with automatic residency: the SRS queries
  // that do not fit beside the working set are streamed (a smaller card's path on this device).
  groth16::parameters host_params;
  if (device_gib) {
    t0 = clock_type::now();
    host_params = cuda::download_parameters(dp);
    dp = {};
    arbiter = std::make_shared<cuda::device_memory_arbiter>((std::size_t{device_gib} - 2) << 30);
    std::printf("  parameters on the host in %.1f s; arbiter capacity now %s (a %u GiB device)\n", seconds_since(t0),
                cuda::format_bytes(arbiter->capacity()).c_str(), device_gib);
  }
  cuda::cuda_backend_options o;
  o.arbiter = arbiter;
  o.kernel_lock = std::make_shared<cuda::kernel_region_lock>();
  o.pinned = cuda::make_cuda_pinned_pool(std::size_t{256} << 20);
  o.reserve_timeout = std::chrono::seconds(60);  // report a memory shortfall instead of waiting 10 min
  o.residency = streamed     ? cuda::srs_residency::streamed
                : device_gib ? cuda::srs_residency::automatic
                             : cuda::srs_residency::device;
  auto gpu = cuda::cuda_backend::create(ex, o, error);
  if (!gpu) die(error);
  const groth16::verifying_key& vk = device_gib ? host_params.vk : dp.vk;
  const auto pvk = groth16::prepare_verifying_key(vk);
  const std::vector<fr> pub(circ.inputs.begin() + 1, circ.inputs.end());
  unsigned valid = 0, proofs = 0;
  auto prove_one = [&](cuda::cuda_backend& b, uint64_t i, groth16::prove_timings& t) {
    const fr r = fr::from_u64(1000 + i), sv = fr::from_u64(7000 + i);
    const groth16::proof pr =
        device_gib ? b.prove_partition(groth16::parameters_view::of(host_params), s, circ.inputs, circ.aux, r, sv, &t)
                   : b.prove_partition(dp, s, circ.inputs, circ.aux, r, sv, &t);
    return groth16::verify(pvk, pr, pub) == groth16::verify_result::valid;
  };
  groth16::prove_timings t, best;
  best.total = 1e300;
  t0 = clock_type::now();
  valid += prove_one(*gpu, proofs++, t);
  std::printf("  first proof (uploads the shape, allocates buffers): %.2f s\n", seconds_since(t0));
  print_timings("cold", t);
  for (unsigned i = 0; i < reps; ++i) {
    valid += prove_one(*gpu, proofs++, t);
    print_timings("warm", t);
    if (t.total < best.total) best = t;
  }
  print_timings("best", best);
  std::printf("  verified %u / %u proofs; reserved %s of %s; device used %s\n", valid, proofs,
              cuda::format_bytes(arbiter->in_use()).c_str(), cuda::format_bytes(arbiter->capacity()).c_str(),
              device_used().c_str());
  // Another backend beside the first one (same arbiter, kernel lock and SRS; its own pinned
  // pool), with `change` applied to the first one's options.
  auto another_backend = [&](auto change) {
    cuda::cuda_backend_options other = o;
    other.pinned = cuda::make_cuda_pinned_pool(std::size_t{256} << 20);
    change(other);
    auto b = cuda::cuda_backend::create(ex, other, error);
    if (!b) die(error);
    return b;
  };
  if (variants) {
    // The witness encode chunk by chunk (the switch away from its default): the first proof
    // uploads the shape, the best of the rest.
    auto gv = another_backend([](cuda::cuda_backend_options& v) { v.pipelined_witness_encode = false; });
    groth16::prove_timings vbest;
    vbest.total = 1e300;
    unsigned vvalid = prove_one(*gv, proofs++, t);
    for (unsigned i = 0; i < reps; ++i) {
      vvalid += prove_one(*gv, proofs++, t);
      if (t.total < vbest.total) vbest = t;
    }
    std::printf("  variant witness encode chunk by chunk: verified %u / %u\n", vvalid, reps + 1);
    print_timings("best", vbest);
  }
  if (profile) {
    // Every MSM's phases in the prover (real, distinct bases; each phase ends in a sync).
    auto gp = another_backend([](cuda::cuda_backend_options& v) { v.profile_msms = true; });
    unsigned pvalid = prove_one(*gp, proofs++, t);
    pvalid += prove_one(*gp, proofs++, t);
    std::printf("  profiled MSMs (second proof; verified %u / 2):\n", pvalid);
    print_timings("profiled", t);
    const char* names[5] = {"H", "L", "A", "B_G1", "B_G2"};
    for (std::size_t q = 0; q < 5; ++q) print_msm_profile(names[q], gp->last_msm_profiles()[q]);
  }
  if (partitions == 0) return;

  // Two workers sharing the device, arbiter, kernel lock and SRS; partitions from one counter.
  auto gpu2 = another_backend([](cuda::cuda_backend_options&) {});
  std::printf("  two workers, %u partitions:\n", partitions);
  std::atomic<unsigned> next{0}, ok_count{0}, failures{0};
  std::mutex print_mutex;
  const auto t_all = clock_type::now();
  auto worker = [&](cuda::cuda_backend& b, int id) {
    for (unsigned i; (i = next++) < partitions;) {
      groth16::prove_timings pt;
      const auto tp = clock_type::now();
      try {
        const bool fine = prove_one(b, 100 + i, pt);
        ok_count += fine;
        std::lock_guard<std::mutex> lock(print_mutex);
        std::printf("    partition %2u worker %d: %.3f s wall (device stages %.3f s, total in prover %.3f s) at %.2f s, "
                    "%s, reserved %s\n",
                    i, id, seconds_since(tp),
                    pt.abc + pt.h + pt.msm_h + pt.msm_l + pt.msm_a + pt.msm_b_g1 + pt.msm_b_g2, pt.total,
                    seconds_since(t_all), fine ? "valid" : "INVALID", cuda::format_bytes(arbiter->in_use()).c_str());
      } catch (const std::exception& e) {
        ++failures;
        std::lock_guard<std::mutex> lock(print_mutex);
        std::printf("    partition %2u worker %d: FAILED: %s\n", i, id, e.what());
      }
    }
  };
  std::thread w1(worker, std::ref(*gpu), 1), w2(worker, std::ref(*gpu2), 2);
  w1.join();
  w2.join();
  const double all = seconds_since(t_all);
  std::printf("  %u partitions in %.2f s (%.3f s per partition); %u valid, %u failures (allocation or other)\n",
              partitions, all, all / partitions, ok_count.load(), failures.load());
  std::printf("  reserved %s of %s (SRS %s); device used %s; host peak %.1f GB\n",
              cuda::format_bytes(arbiter->in_use()).c_str(), cuda::format_bytes(arbiter->capacity()).c_str(),
              cuda::format_bytes(dp.srs ? dp.srs->memory.bytes() : 0).c_str(), device_used().c_str(), host_peak_gb());
}

// Host witness encode alone (no GPU): a PoRep-mix witness of 2^log_n values packed in 2^20-value
// chunks with each encoder, chunk by chunk (one fork-join of the executor per chunk) and
// pipelined as the upload does (pack_witness_pipelined through two halves; the hooks do no
// copy); beside them the executor's plain read of the same bytes, in one parallel_for and chunk
// by chunk, which bound what an encoder can reach. Best of reps, GB/s of witness read. The
// digests (packed bytes and a sample value per chunk) of every encoder and way must agree.
void bench_pack(unsigned log_n, unsigned reps, cuzk::base::executor& ex) {
  const std::size_t n = std::size_t{1} << log_n, chunk = std::size_t{1} << 20;
  std::vector<fr> w(n);
  ex.parallel_for(n, chunk, [&](std::size_t b, std::size_t e) {
    std::mt19937_64 rng(0x5eed ^ b);
    for (std::size_t i = b; i < e; ++i) {
      const uint64_t t = rng() % 10000;
      w[i] = t < 5141 ? fr::zero() : t < 5141 + 4728 ? fr::one() : fr::random(rng);
    }
  });
  const std::size_t half = cuda::packed_chunk_layout::of(chunk).max_bytes() / sizeof(fr) + 1;
  std::vector<fr> out(2 * half);  // the pipelined encode's two halves; the first one chunk by chunk
  auto* dst = reinterpret_cast<std::byte*>(out.data());
  const std::array<std::byte*, 2> halves = {dst, reinterpret_cast<std::byte*>(out.data() + half)};
  const double gb = static_cast<double>(n * sizeof(fr)) / 1e9;
  auto best_of = [&](auto&& run) {
    double best = 1e300;
    for (unsigned r = 0; r < reps; ++r) {
      const auto t0 = clock_type::now();
      run();
      best = std::min(best, seconds_since(t0));
    }
    return best;
  };
  std::atomic<uint64_t> sink{0};
  auto read = [&](std::size_t b, std::size_t e) {
    uint64_t x = 0;
    for (std::size_t i = b; i < e; ++i) x ^= w[i].v.w[0] ^ w[i].v.w[1] ^ w[i].v.w[2] ^ w[i].v.w[3];
    sink ^= x;
  };
  const double read_all = best_of([&] { ex.parallel_for(n, std::size_t{1} << 16, read); });
  const double read_chunks = best_of([&] {
    for (std::size_t off = 0; off < n; off += chunk)
      ex.parallel_for(chunk, std::size_t{1} << 16, [&](std::size_t b, std::size_t e) { read(off + b, off + e); });
  });
  std::printf("\n== witness encode, 2^%u values (%.2f GB), %zu threads ==\n", log_n, gb, ex.concurrency());
  std::printf("  plain read: one parallel_for %.1f ms (%.1f GB/s), per 2^20 chunk %.1f ms (%.1f GB/s)\n",
              read_all * 1e3, gb / read_all, read_chunks * 1e3, gb / read_chunks);
  uint64_t digests[2] = {0, 0};
  const std::pair<cuda::pack_encoder, const char*> encoders[] = {{cuda::pack_encoder::scalar, "scalar"},
                                                                 {cuda::pack_encoder::avx2, "avx2"}};
  // The chunk's bytes and one value from its middle, chained in chunk order.
  const auto add_chunk = [](uint64_t& digest, const std::byte* packed, std::size_t b) {
    uint64_t sample = 0;
    std::memcpy(&sample, packed + b / sizeof(fr) / 2 * sizeof(fr), sizeof(sample));
    digest = digest * 1000003u + b + sample;
  };
  for (int k = 0; k < 2; ++k) {
    if (encoders[k].first == cuda::pack_encoder::avx2 && !cuda::pack_encoder_avx2_supported()) {
      std::printf("  %s encoder: this CPU has no AVX2\n", encoders[k].second);
      continue;
    }
    uint64_t digest = 0;
    const double t = best_of([&] {
      digest = 0;
      for (std::size_t off = 0; off < n; off += chunk) {
        const std::size_t b = cuda::pack_witness_chunk(std::span<const fr>(w).subspan(off, chunk), dst, ex,
                                                       encoders[k].first);
        add_chunk(digest, dst, b);
      }
    });
    uint64_t piped = 0;
    cuda::pack_pipeline_hooks hooks;
    hooks.wait_half_free = [](std::size_t, std::string&) { return true; };
    hooks.chunk_ready = [&](std::size_t c, std::size_t b, std::string&) {
      add_chunk(piped, halves[c % 2], b);
      return true;
    };
    const double tp = best_of([&] {
      piped = 0;
      std::string error;
      if (!cuda::pack_witness_pipelined(w, chunk, halves, half * sizeof(fr), ex, hooks, error, encoders[k].first))
        die(error);
    });
    std::printf("  %-6s encoder: chunk by chunk %.1f ms (%.1f GB/s), pipelined %.1f ms (%.1f GB/s), digest %016llx\n",
                encoders[k].second, t * 1e3, gb / t, tp * 1e3, gb / tp, static_cast<unsigned long long>(digest));
    if (piped != digest) die("the pipelined encode's chunks differ from the chunk by chunk ones");
    digests[k] = digest;
  }
  if (digests[1] != 0 && digests[0] != digests[1]) die("the encoders' packed chunks differ");
}

}  // namespace

int main(int argc, char** argv) {
  int arg = 1;
  if (argc > 1 && std::string(argv[1]) == "real") {
    unsigned reps = 3, partitions = 0;
    cuda::witness_mix mix = cuda::witness_mix::porep_measured();
    bool streamed = false, variants = false, profile = false;
    unsigned device_gib = 0;
    std::vector<unsigned> logs;
    for (int i = 2; i < argc; ++i) {
      const std::string a = argv[i];
      if (a.rfind("workers=", 0) == 0) partitions = static_cast<unsigned>(std::atoi(a.c_str() + 8));
      else if (a == "mix=pessimistic") mix = cuda::witness_mix::pessimistic();
      else if (a == "srs=streamed") streamed = true;
      else if (a == "variants") variants = true;
      else if (a == "profile") profile = true;
      else if (a.rfind("device_gib=", 0) == 0) device_gib = static_cast<unsigned>(std::atoi(a.c_str() + 11));
      else if (i == 2) reps = static_cast<unsigned>(std::max(1, std::atoi(a.c_str())));
      else logs.push_back(static_cast<unsigned>(std::atoi(a.c_str())));
    }
    if (logs.empty()) logs = {20, 24};
    auto ex = print_machine_and_make_executor();
    for (std::size_t i = 0; i < logs.size(); ++i) {
      try {
        bench_real(logs[i], reps, i + 1 == logs.size() ? partitions : 0, mix, streamed, device_gib, variants,
                   profile, *ex);
      } catch (const std::exception& e) {
        std::printf("  FAILED at 2^%u: %s\n", logs[i], e.what());
        std::fflush(stdout);
        return 1;
      }
      std::fflush(stdout);
    }
    return 0;
  }
  if (argc > 1 && std::string(argv[1]) == "pack") {
    const unsigned reps = argc > 2 ? static_cast<unsigned>(std::max(1, std::atoi(argv[2]))) : 3;
    const unsigned log_n = argc > 3 ? static_cast<unsigned>(std::atoi(argv[3])) : 27;
    auto ex = cuzk::base::make_thread_pool_executor(0);
    bench_pack(std::max(20u, log_n), reps, *ex);
    return 0;
  }
  const bool spmv_only = argc > arg && std::string(argv[arg]) == "spmv";
  if (spmv_only) ++arg;
  const unsigned reps = argc > arg ? static_cast<unsigned>(std::max(1, std::atoi(argv[arg]))) : 3;
  std::vector<unsigned> logs;
  for (int i = arg + 1; i < argc; ++i) logs.push_back(static_cast<unsigned>(std::atoi(argv[i])));
  if (logs.empty()) logs = {20, 24};
  auto ex = print_machine_and_make_executor();

  for (unsigned log_m : logs) {
    const std::size_t m = std::size_t{1} << log_m;
    std::printf("\n== 2^%u domain (PoRep-like) ==\n", log_m);
    auto t0 = clock_type::now();
    const r1cs::r1cs_shape s = porep_like_shape(log_m, *ex);
    std::vector<fr> inputs, aux;
    porep_like_witness(s, inputs, aux, *ex);
    std::printf("  shape and witness generated in %.1f s: %zu constraints, %zu inputs, %zu aux\n", seconds_since(t0),
                s.num_constraints, s.num_inputs, s.num_aux);

    bench_spmv(s, m, inputs, aux, reps, *ex);
    if (spmv_only) continue;

    t0 = clock_type::now();
    const groth16::parameters p = porep_like_parameters(s, m, *ex);
    std::printf("  parameters generated in %.1f s: A / B_G1 bases %zu / %zu\n", seconds_since(t0), p.a.size(),
                p.b_g1.size());

    {
      std::string error;
      auto gpu = cuda::cuda_backend::create(*ex, {}, error);
      if (!gpu) die(error);
      std::printf("  arbiter capacity %s\n", cuda::format_bytes(gpu->arbiter().capacity()).c_str());
      const auto pv = groth16::parameters_view::of(p);
      const fr r = fr::from_u64(12345), sv = fr::from_u64(67890);
      groth16::prove_timings t, best;
      best.total = 1e300;
      t0 = clock_type::now();
      (void)gpu->prove_partition(pv, s, inputs, aux, r, sv, &t);
      std::printf("  first proof (uploads SRS %s and the shape): %.2f s\n",
                  cuda::format_bytes((p.h.size() + p.l.size() + p.a.size() + p.b_g1.size()) * 96).c_str(),
                  seconds_since(t0));
      print_timings("cold", t);
      for (unsigned i = 0; i < reps; ++i) {
        (void)gpu->prove_partition(pv, s, inputs, aux, r, sv, &t);
        if (t.total < best.total) best = t;
      }
      print_timings("best", best);
      const double device = best.abc + best.h + best.msm_h + best.msm_l + best.msm_a + best.msm_b_g1 + best.msm_b_g2;
      std::printf("  device stages (abc .. msm_b_g2) %.1f ms; reserved between proofs (resident) %s\n", device * 1e3,
                  cuda::format_bytes(gpu->arbiter().in_use()).c_str());
    }
  }
  return 0;
}
