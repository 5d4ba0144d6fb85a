// groth16::prover_backend on one CUDA device, with the SRS resident in device memory (or streamed
// from pinned host memory when the device cannot hold it).
//
// prove_partition (the unit of work; docs/gpu.md "Prover backend" has the data flow and the
// memory per partition):
//   witness (host) --PCIe--> w = aux || inputs (device)
//   SpMV (device_shape, uploaded once per shape) -> a, b, c on the domain (device)
//   ntt_context::compute_h -> h coefficients in a (device, no host round trip)
//   G1 MSMs over the resident bases: H (h from a), L (aux = w's first elements in place),
//     A and B_G1 (scalars compacted by density on the device into b and c's buffers)
//   B_G2 MSM on the device after B_G1, with the same compacted scalars (b_g2 is laid out as
//     b_g1: input part, then aux part, both compacted by B's density)
//   assembly on the host (prover.hpp step 4, the same formulas), r and s from the caller.
// The proof equals the CPU backend's byte for byte for the same r, s (tests/unit/cuda).
//
// Residency: the H, L, A, B_G1 and B_G2 bases are uploaded once per parameters object and kept
// in a device_srs_cache (shareable by the workers of one device), keyed by the parameters'
// identity (span addresses and sizes, plus the first and last point of each G1 span as a guard
// against a new parameters object at a freed one's addresses). A device that cannot hold them
// beside a partition's working set keeps some or all in pinned host memory instead, and every MSM
// over those streams its query in chunks (srs_residency; docs/gpu.md "Streamed SRS"). The shape's
// matrices are kept per backend, keyed the same way (address, counts, hash, sampled entries).
//
// Workers: several backends may share one device (options: arbiter, srs cache, kernel lock); the
// kernel lock is held only around the kernel regions, so one worker prepares while another's
// kernels run. Every call first selects options.device on the calling thread.
//
// Memory: every device allocation is reserved on the device_memory_arbiter first (shared by the
// workers of a device; one is made from cudaMemGetInfo when none is given): the SRS and the
// shape for as long as they are resident, the NTT twiddles, an estimate of the MSM scratch and
// the per-proof buffers w, a, b, c for the backend's life (kept across proofs: no cudaFree, a
// device-wide synchronisation, between proofs; resized when a larger proof comes).
//
// The lower operations are implemented too (so prove_with_ops runs on this backend):
// evaluate_abc and compute_h on the device with host copies in and out, msm_g1 on the device
// with the bases uploaded per call, msm_g2 delegated to the CPU backend.
// Errors (CUDA, memory reservations) throw std::runtime_error naming the step; after a sticky
// device fault, device_fault_error (device_fault.hpp), now and for every later call.
#pragma once

#include <array>
#include <chrono>
#include <cstddef>
#include <list>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include "backend/cpu/cpu_backend.hpp"
#include "backend/cuda/device_fault.hpp"
#include "backend/cuda/device_memory.hpp"
#include "backend/cuda/msm_cuda.hpp"
#include "backend/cuda/ntt_cuda.hpp"
#include "backend/cuda/spmv_cuda.hpp"
#include "base/executor.hpp"
#include "groth16/prover_backend.hpp"

namespace cuzk::cuda {

// The same five queries in pinned host memory (device layout), for a device that cannot hold them:
// each MSM streams its query to the device in double-buffered chunks (msm_cuda.hpp).
struct pinned_srs {
  g1_pinned_bases h, l, a, b_g1;
  g2_pinned_bases b_g2;
};

// Which queries of an SRS are streamed from pinned host memory; the others are resident.
struct srs_placement {
  bool h = false, l = false, a = false, b_g1 = false, b_g2 = false;
  static constexpr srs_placement all_streamed() { return {true, true, true, true, true}; }
  bool any() const { return h || l || a || b_g1 || b_g2; }
  bool operator==(const srs_placement&) const = default;
};

// H, L, A, B_G1 and B_G2 bases of one parameters object: each query either resident in device
// memory (covered by `memory`, declared first: released last, after the bases are freed) or, when
// streamed (srs_placement), in `pinned` with its device bases empty.
struct resident_srs {
  std::shared_ptr<device_memory_arbiter> arbiter;
  device_memory_arbiter::reservation memory;
  g1_device_bases h, l, a, b_g1;
  g2_device_bases b_g2;
  pinned_srs pinned;  // the streamed queries (empty for resident ones)

  struct counts {
    std::size_t h = 0, l = 0, a = 0, b_g1 = 0, b_g2 = 0;
  };
  counts sizes() const {
    return {std::max(h.size(), pinned.h.size()), std::max(l.size(), pinned.l.size()),
            std::max(a.size(), pinned.a.size()), std::max(b_g1.size(), pinned.b_g1.size()),
            std::max(b_g2.size(), pinned.b_g2.size())};
  }
  srs_placement placement() const {
    return {pinned.h.size() > 0, pinned.l.size() > 0, pinned.a.size() > 0, pinned.b_g1.size() > 0,
            pinned.b_g2.size() > 0};
  }
};

// Parameters whose bases were generated on the device (setup_cuda.hpp): the verifying key on the
// host, the bases resident (never copied to the host). Share one object between the workers of a
// device (they share its arbiter); the bases are freed with the last copy of `srs`.
struct device_parameters {
  groth16::verifying_key vk;
  std::shared_ptr<const resident_srs> srs;
};

// The same parameters with their bases copied into pinned host memory, to be streamed by each MSM
// (a device that could not hold them; benchmarks of that path). `params` keeps its device copy.
device_parameters pinned_copy(const device_parameters& params);

// Resident SRS per parameters identity, least recently used first out; thread-safe. An evicted
// entry's device memory is freed when its last user lets go of it.
class device_srs_cache {
 public:
  explicit device_srs_cache(std::size_t max_entries = 1) : max_entries_(max_entries) {}
  // The resident bases of `params`, uploaded on a miss (reserving their bytes on `arbiter`
  // first; share a cache only between backends that share an arbiter).
  // The queries `streamed` names are converted into pinned host memory instead (not reserved); a
  // hit returns the entry as it was made.
  std::shared_ptr<const resident_srs> get(const groth16::parameters_view& params,
                                          const std::shared_ptr<device_memory_arbiter>& arbiter,
                                          std::chrono::milliseconds timeout, srs_placement streamed = {});
  std::size_t uploads() const;         // misses so far (tests check reuse)
  std::size_t reserved_bytes() const;  // device bytes the entries hold (their resident queries)

  struct key {
    const void* data[4] = {};
    std::size_t size[4] = {};
    ec::g1_affine first[4] = {}, last[4] = {};  // zeroed: an empty span's pair must compare equal
    const void* b_g2_data = nullptr;
    std::size_t b_g2_size = 0;
    bool operator==(const key&) const = default;
  };

 private:
  std::size_t max_entries_;
  mutable std::mutex mutex_;
  std::list<std::pair<key, std::shared_ptr<const resident_srs>>> entries_;  // most recent first
  std::size_t uploads_ = 0;
};

// Where the SRS bases live while a backend proves with them.
enum class srs_residency : uint8_t {
  device,     // resident in device memory (a device that cannot hold them fails the proof)
  streamed,   // pinned host memory, streamed to the device by each MSM
  automatic,  // as many queries resident as fit beside one partition's working set (H, L, A, B_G2,
              // B_G1 in that order), the rest streamed
};

struct cuda_backend_options {
  // The device (CUDA ordinal). Every call selects it on the calling thread first, so one process
  // may run backends of several devices on any threads.
  int device = 0;
  // Shared by the workers of one device: held only around the device kernel regions of
  // prove_partition (SpMV through the B_G2 MSM; the witness upload, first-use SRS and shape
  // uploads and the assembly run outside it), so two workers interleave. Null:
  // a private one (no serialization with other backends).
  std::shared_ptr<kernel_region_lock> kernel_lock;
  // Shared by every worker of the device. Null: one is made from the device's free memory at
  // creation minus arbiter_margin_bytes.
  std::shared_ptr<device_memory_arbiter> arbiter;
  std::size_t arbiter_margin_bytes = std::size_t{2} << 30;
  // Stages the witness upload (double-buffered chunks). Null: pageable copies.
  std::shared_ptr<pinned_host_pool> pinned;
  // The packed upload's encode as one pipeline over the CPU executor's threads instead of one
  // parallel_for per 2^20-value chunk (spmv_context::create). Measured at 2^27 on the H200: the
  // upload 113.5 -> 56.6 ms, a proof 1,184 -> 1,162 ms (docs/gpu-prove-2-27.md).
  bool pipelined_witness_encode = true;
  // Diagnostics: every MSM of a proof profiles its phases (g1_msm_options::profile: a stream
  // synchronisation after each phase, so slightly slower), kept in last_msm_profiles().
  bool profile_msms = false;
  // Shared by the workers of one device: the first sticky fault (device_fault.hpp) any of them
  // meets makes the device refuse further work with that reason. Null: a private one.
  std::shared_ptr<device_fault_state> fault;
  // Null: a private cache of one entry. Give one only together with `arbiter`.
  std::shared_ptr<device_srs_cache> srs;
  srs_residency residency = srs_residency::automatic;
  // Streamed SRS: points per chunk (0: default_stream_chunk_g1 / _g2 of msm_cuda.hpp).
  std::size_t stream_chunk_points = 0;
  // How long a reservation may wait for other workers' memory.
  std::chrono::milliseconds reserve_timeout{std::chrono::minutes(10)};
};

class cuda_backend final : public groth16::prover_backend {
 public:
  using clock_type_point = std::chrono::steady_clock::time_point;
  // `cpu_executor` runs the CPU parts (the msm_g2 lower operation); it must outlive the backend.
  // Returns nullptr with `error` set when there is no device or a context cannot be made.
  static std::unique_ptr<cuda_backend> create(base::executor& cpu_executor, const cuda_backend_options& options,
                                              std::string& error);
  ~cuda_backend() override;

  std::string_view name() const override { return "cuda"; }

  groth16::proof prove_partition(const groth16::parameters_view& params, const r1cs::r1cs_shape& shape,
                                 std::span<const fr> inputs, std::span<const fr> aux, const fr& r, const fr& s,
                                 groth16::prove_timings* timings) override;

  // The same with bases generated on the device (setup_on_device); params.srs must have been
  // reserved on this backend's arbiter.
  groth16::proof prove_partition(const device_parameters& params, const r1cs::r1cs_shape& shape,
                                 std::span<const fr> inputs, std::span<const fr> aux, const fr& r, const fr& s,
                                 groth16::prove_timings* timings);

  void evaluate_abc(const r1cs::r1cs_shape& shape, std::span<const fr> inputs, std::span<const fr> aux,
                    std::span<fr> a, std::span<fr> b, std::span<fr> c) override;
  void compute_h(std::span<fr> a, std::span<fr> b, std::span<fr> c) override;
  ec::g1_jacobian msm_g1(std::span<const ec::g1_affine> bases, std::span<const fr> scalars) override;
  ec::g1_jacobian msm_g1(std::span<const ec::g1_affine> bases, const r1cs::density_bitmap& density,
                         std::span<const fr> scalars) override;
  ec::g2_jacobian msm_g2(std::span<const ec::g2_affine> bases, const r1cs::density_bitmap& density,
                         std::span<const fr> scalars) override;

  // Device bytes one partition of `shape` reserves beside the SRS (shape, twiddles, MSM scratch,
  // per-proof buffers) when the queries of `streamed` are streamed (their MSMs then need scratch
  // for one chunk, plus the two chunk buffers).
  std::size_t working_set_bytes(const r1cs::r1cs_shape& shape, srs_placement streamed) const;
  // Where this backend's residency puts an SRS of `srs_bytes` (device bytes of each query:
  // H, L, A, B_G1, B_G2) for `shape`.
  srs_placement place(const r1cs::r1cs_shape& shape, const std::array<std::size_t, 5>& srs_bytes) const;

  device_memory_arbiter& arbiter() { return *arbiter_; }
  kernel_region_lock& kernel_lock() { return *kernel_lock_; }
  int device() const { return opt_.device; }
  const device_srs_cache& srs_cache() const { return *srs_; }
  std::size_t shape_uploads() const { return shape_uploads_; }
  // With cuda_backend_options::profile_msms: the last proof's MSM profiles in query order
  // H, L, A, B_G1, B_G2 (else all zero).
  const std::array<g1_msm_profile, 5>& last_msm_profiles() const { return msm_profiles_; }
  const device_fault_state& fault() const { return *fault_; }

 private:
  cuda_backend(base::executor& ex, const cuda_backend_options& o);
  // prove_partition after the parameter checks, with the resident bases.
  groth16::proof prove_resident(const resident_srs& srs, const groth16::verifying_key& vk, const r1cs::r1cs_shape& shape,
                                std::span<const fr> inputs, std::span<const fr> aux, const fr& r, const fr& s,
                                clock_type_point t_start, groth16::prove_timings* timings);
  // The per-proof buffers w, a, b, c: kept across proofs (a cudaFree is a device-wide
  // synchronisation, which would stall the other worker's kernels), grown on demand.
  void ensure_buffers(std::size_t bytes, std::size_t also_held);
  const device_shape& resident_shape(const r1cs::r1cs_shape& shape, std::optional<std::size_t> also_held = {});
  void ensure_ntt(unsigned log_n, std::optional<std::size_t> also_held = {});
  // Scratch for G1 MSMs of up to n scalars and G2 MSMs of up to n_g2 (one context serves both),
  // plus the streamed MSMs' chunk buffers (bytes).
  void ensure_msm_scratch(std::size_t n, std::optional<std::size_t> also_held = {}, std::size_t n_g2 = 0,
                          std::size_t chunk_buffers = 0);
  std::size_t msm_scratch_bytes(std::size_t n, std::size_t n_g2, std::size_t chunk_buffers) const;
  // The largest G1 and G2 MSMs of a partition when the `streamed` queries run in chunks, and the
  // bytes of the two chunk buffers.
  struct msm_needs {
    std::size_t n_g1 = 0, n_g2 = 0, chunk_buffers = 0;
  };
  msm_needs msm_sizes(const r1cs::r1cs_shape& shape, srs_placement streamed) const;
  // Reserves on the arbiter, telling it what this backend already holds (its resident shape,
  // twiddles and MSM scratch plus `also_held`: the SRS it proves with; left out, the bytes the SRS
  // cache holds, which the lower operations' waiting cannot free either), so that a request that
  // could never fit beside them fails at once instead of waiting for the timeout.
  device_memory_arbiter::reservation reserve(std::size_t bytes, const char* what,
                                             std::optional<std::size_t> also_held = {});

  // Each reservation is declared before what it covers, so it is released after the memory is
  // freed (members are destroyed in reverse order), and after the arbiter.
  backend::cpu::cpu_backend cpu_;
  cuda_backend_options opt_;
  std::shared_ptr<device_memory_arbiter> arbiter_;
  std::shared_ptr<device_srs_cache> srs_;
  std::shared_ptr<kernel_region_lock> kernel_lock_;
  void select_device() const;  // throws std::runtime_error naming the device
  // Runs one public operation: throws device_fault_error at once when the device has had a sticky
  // fault; after a failure, probes for one (records it, and says so in the error).
  template <class Op>
  auto guarded(Op&& op);
  std::shared_ptr<device_fault_state> fault_;
  device_memory_arbiter::reservation ntt_memory_, msm_memory_;
  std::unique_ptr<spmv_context> spmv_;
  std::unique_ptr<g1_msm_context> msm_;
  std::unique_ptr<ntt_context> ntt_;
  std::array<g1_msm_profile, 5> msm_profiles_{};

  struct shape_key {
    const void* address = nullptr;
    std::size_t counts[6] = {};
    std::array<uint8_t, 32> hash{};
    std::size_t samples = 0;  // a digest of up to 64 sampled (column, coefficient id) entries
    bool operator==(const shape_key&) const = default;
  };
  shape_key shape_key_;
  device_memory_arbiter::reservation shape_memory_;
  std::unique_ptr<device_shape> shape_;
  std::size_t shape_uploads_ = 0;
  device_memory_arbiter::reservation buffer_memory_;
  device_fr_vector w_, a_, b_, c_;
};

// Entries per chunk of the B_G2 split's ones halved by the G2 batch-affine rounds in the prover:
// their arrays take ~196 B per entry, 0.8 GB for 2^22 (msm_scratch_bytes), which two workers at
// 2^27 still fit beside everything else on the H200.
inline constexpr std::size_t prover_affine_pairs = std::size_t{1} << 22;

// Upper estimate of the device scratch a g1_msm_context keeps after an MSM of n scalars (sort
// pairs, digits, buckets, partial sums), from its allocation sizes in msm_cuda.cu.
std::size_t g1_msm_scratch_estimate(std::size_t n);
// The same for a G2 MSM (384-byte buckets and partial sums).
std::size_t g2_msm_scratch_estimate(std::size_t n);

}  // namespace cuzk::cuda
