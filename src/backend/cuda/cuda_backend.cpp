#include "backend/cuda/cuda_backend.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <chrono>
#include <limits>
#include <stdexcept>
#include <utility>
#include <vector>

#include "groth16/prover.hpp"
#include "poly/domain.hpp"

namespace cuzk::cuda {

namespace {

using clock_type = std::chrono::steady_clock;
using groth16::fr;

double seconds_since(clock_type::time_point t0) { return std::chrono::duration<double>(clock_type::now() - t0).count(); }

[[noreturn]] void fail(const std::string& step, const std::string& error) {
  throw std::runtime_error("cuda_backend: " + step + ": " + error);
}
void check(bool fine, const char* step, const std::string& error) {
  if (!fine) fail(step, error);
}

constexpr std::size_t fr_bytes = sizeof(ff::fr);
constexpr std::size_t g1_bytes = 96;  // a device affine G1 point
constexpr std::size_t g2_bytes = 192;  // a device affine G2 point

device_srs_cache::key srs_key_of(const groth16::parameters_view& p) {
  device_srs_cache::key k;
  const std::span<const ec::g1_affine> spans[4] = {p.h, p.l, p.a, p.b_g1};
  for (int i = 0; i < 4; ++i) {
    k.data[i] = spans[i].data();
    k.size[i] = spans[i].size();
    if (!spans[i].empty()) {
      k.first[i] = spans[i].front();
      k.last[i] = spans[i].back();
    }
  }
  k.b_g2_data = p.b_g2.data();
  k.b_g2_size = p.b_g2.size();
  return k;
}

// Device bytes of each query: H, L, A, B_G1, B_G2.
std::array<std::size_t, 5> srs_query_bytes(const groth16::parameters_view& p) {
  return {p.h.size() * g1_bytes, p.l.size() * g1_bytes, p.a.size() * g1_bytes, p.b_g1.size() * g1_bytes,
          p.b_g2.size() * g2_bytes};
}
// The resident queries' bytes.
std::size_t resident_bytes(const std::array<std::size_t, 5>& bytes, srs_placement s) {
  const bool streamed[5] = {s.h, s.l, s.a, s.b_g1, s.b_g2};
  std::size_t total = 0;
  for (int q = 0; q < 5; ++q)
    if (!streamed[q]) total += bytes[q];
  return total;
}

// NTT twiddles w_N^x, x < N/2 (32 B each) plus the coset power tables (4 x 2^15 elements).
std::size_t ntt_bytes(unsigned log_n) {
  return (std::size_t{1} << (std::max(log_n, 1u) - 1)) * fr_bytes + (std::size_t{4} << 15) * fr_bytes;
}

// The query sizes of one partition: domain m, A and B scalar counts, and the length of b and c
// (they later hold the A and B scalars, so each is sized for the largest of the three uses).
struct partition_sizes {
  std::size_t m, n_a, n_b, bc_len;
  explicit partition_sizes(const r1cs::r1cs_shape& s)
      : m(poly::radix2_domain(s.num_constraints + s.num_inputs).size()),
        n_a(s.num_inputs + s.a_aux_density.count()),
        n_b(s.b_input_density.count() + s.b_aux_density.count()),
        bc_len(std::max({m, n_a, n_b})) {}
  // w, a, b, c.
  std::size_t buffer_bytes(const r1cs::r1cs_shape& s) const {
    return (s.num_aux + s.num_inputs + m + 2 * bc_len) * fr_bytes;
  }
};

// Calls the streamed or the resident form of an MSM over one query (pinned: null when resident).
template <class Device, class Pinned, class Point>
bool query_msm(g1_msm_context& msm, const Device& resident, const Pinned* pinned, bool mostly_binary,
               const device_fr_vector& scalars, std::size_t n, Point& out, std::string& error) {
  if (pinned)
    return mostly_binary ? msm.msm_mostly_binary(*pinned, scalars, n, out, error)
                         : msm.msm(*pinned, scalars, n, out, error);
  return mostly_binary ? msm.msm_mostly_binary(resident, scalars, n, out, error)
                       : msm.msm(resident, scalars, n, out, error);
}

}  // namespace

device_parameters pinned_copy(const device_parameters& params) {
  if (!params.srs) throw std::invalid_argument("pinned_copy: device parameters without bases");
  const resident_srs& from = *params.srs;
  if (from.placement().any()) throw std::invalid_argument("pinned_copy: the parameters are already in host memory");
  auto srs = std::make_shared<resident_srs>();
  srs->arbiter = from.arbiter;
  pinned_srs& p = srs->pinned;
  std::string error;
  check(p.h.copy_from(from.h, error) && p.l.copy_from(from.l, error) && p.a.copy_from(from.a, error) &&
            p.b_g1.copy_from(from.b_g1, error) && p.b_g2.copy_from(from.b_g2, error),
        "copy SRS to pinned memory", error);
  return {params.vk, std::move(srs)};
}

std::size_t g1_msm_scratch_estimate(std::size_t n) {
  if (n == 0) return 0;
  const unsigned c = default_window_bits(n);
  const std::size_t windows = (255 + c - 1) / c;
  const std::size_t group = std::max<std::size_t>(1, std::min<std::size_t>(windows, (std::size_t{1} << 28) / n));
  const std::size_t pairs = n * group;
  return n * fr_bytes * 2                            // canonical scalars + the host-scalar staging vector
         + pairs * 4 * 4                             // keys and values, double-buffered
         + pairs * 8                                 // radix-sort temporary (upper estimate)
         + (windows << (c - 1)) * 192                // XYZZ buckets, all windows
         + (std::size_t{256} << 20);                 // partial sums and reduction segments
}

std::size_t g2_msm_scratch_estimate(std::size_t n) {
  if (n == 0) return 0;
  const unsigned c = default_window_bits(n);
  const std::size_t windows = (255 + c - 1) / c;
  return g1_msm_scratch_estimate(n) + (windows << (c - 1)) * 192  // buckets of 384 B instead of 192
         + (std::size_t{256} << 20);                             // partial sums twice as large
}

// ---------------------------------------------------------------------------------------------
// device_srs_cache
// ---------------------------------------------------------------------------------------------
std::shared_ptr<const resident_srs> device_srs_cache::get(const groth16::parameters_view& params,
                                                          const std::shared_ptr<device_memory_arbiter>& arbiter,
                                                          std::chrono::milliseconds timeout, srs_placement streamed) {
  const key k = srs_key_of(params);
  std::lock_guard<std::mutex> lock(mutex_);
  for (auto it = entries_.begin(); it != entries_.end(); ++it) {
    if (it->first == k) {
      entries_.splice(entries_.begin(), entries_, it);
      return entries_.front().second;
    }
  }
  // Make room first: the evicted bases are freed now unless another worker still proves with them.
  while (!entries_.empty() && entries_.size() >= max_entries_) entries_.pop_back();
  auto srs = std::make_shared<resident_srs>();
  srs->arbiter = arbiter;
  std::string error;
  srs->memory = arbiter->reserve(resident_bytes(srs_query_bytes(params), streamed),
                                 "resident SRS (H, L, A, B_G1, B_G2 bases)", timeout);
  // Each query to the device, or to pinned host memory when streamed.
  auto put = [&](auto& device, auto& pinned, const auto& points, bool to_host) {
    return to_host ? pinned.upload(points, error) : device.upload(points, error);
  };
  pinned_srs& p = srs->pinned;
  check(put(srs->h, p.h, params.h, streamed.h) && put(srs->l, p.l, params.l, streamed.l) &&
            put(srs->a, p.a, params.a, streamed.a) && put(srs->b_g1, p.b_g1, params.b_g1, streamed.b_g1) &&
            put(srs->b_g2, p.b_g2, params.b_g2, streamed.b_g2),
        "SRS upload", error);
  ++uploads_;
  entries_.emplace_front(k, srs);
  return srs;
}

std::size_t device_srs_cache::uploads() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return uploads_;
}

std::size_t device_srs_cache::reserved_bytes() const {
  std::lock_guard<std::mutex> lock(mutex_);
  std::size_t total = 0;
  for (const auto& e : entries_) total += e.second->memory.bytes();
  return total;
}

// ---------------------------------------------------------------------------------------------
// cuda_backend
// ---------------------------------------------------------------------------------------------
cuda_backend::cuda_backend(base::executor& ex, const cuda_backend_options& o) : cpu_(ex), opt_(o) {}
cuda_backend::~cuda_backend() = default;

std::unique_ptr<cuda_backend> cuda_backend::create(base::executor& cpu_executor, const cuda_backend_options& options,
                                                   std::string& error) {
  std::unique_ptr<cuda_backend> b(new cuda_backend(cpu_executor, options));
  if (!select_cuda_device(options.device, error)) return nullptr;
  b->kernel_lock_ = options.kernel_lock ? options.kernel_lock : std::make_shared<kernel_region_lock>();
  try {
    b->arbiter_ = options.arbiter;
    if (!b->arbiter_) {
      auto info = make_cuda_memory_info(options.device);
      b->arbiter_ = device_memory_arbiter::from_device(*info, options.arbiter_margin_bytes);
    }
  } catch (const std::exception& e) {
    error = e.what();
    return nullptr;
  }
  b->srs_ = options.srs ? options.srs : std::make_shared<device_srs_cache>(1);
  b->fault_ = options.fault ? options.fault : std::make_shared<device_fault_state>();
  b->spmv_ = spmv_context::create(options.pinned.get(), error, &cpu_executor, options.pipelined_witness_encode);
  if (!b->spmv_) return nullptr;
  b->msm_ = g1_msm_context::create(error);
  if (!b->msm_) return nullptr;
  g1_msm_options mo = b->msm_->options();
  mo.stream_chunk_points = options.stream_chunk_points;
  mo.profile = options.profile_msms;
  // G2 halving rounds for the B_G2 split's ones only, in chunks of prover_affine_pairs entries,
  // so that their arrays stay within msm_scratch_bytes's bound; no Pippenger MSM runs them (the
  // split's rest is too small to gain, and a plain B_G2 MSM's groups would need ~434 B per entry).
  mo.affine_max_pairs_per_sort = prover_affine_pairs;
  mo.affine_min_points = std::numeric_limits<std::size_t>::max();
  if (!b->msm_->set_options(mo, error)) return nullptr;
  return b;
}

void cuda_backend::select_device() const {
  std::string error;
  if (!select_cuda_device(opt_.device, error)) fail("device " + std::to_string(opt_.device), error);
}

template <class Op>
auto cuda_backend::guarded(Op&& op) {
  auto unusable = [&] {
    return "cuda_backend: GPU " + std::to_string(opt_.device) + " is unusable after a device fault (" +
           fault_->reason() + "); restart the process to reset it";
  };
  if (fault_->faulted()) throw device_fault_error(unusable());
  try {
    return op();
  } catch (const device_fault_error&) {
    throw;
  } catch (const device_memory_error&) {
    throw;  // a refused reservation: nothing ran on the device
  } catch (const std::runtime_error& e) {
    // A CUDA step failed. A sticky error fails every later call too: record it for every worker
    // of the device (the first reason stays), so later jobs fail at once with it.
    std::string reason;
    if (!probe_sticky_fault(opt_.device, reason)) throw;
    fault_->record(reason);
    throw device_fault_error(std::string(e.what()) + "; " + unusable());
  }
}

device_memory_arbiter::reservation cuda_backend::reserve(std::size_t bytes, const char* what,
                                                         std::optional<std::size_t> also_held) {
  const std::size_t held = ntt_memory_.bytes() + msm_memory_.bytes() + shape_memory_.bytes() + buffer_memory_.bytes() +
                           (also_held ? *also_held : srs_->reserved_bytes());
  return arbiter_->reserve(bytes, what, opt_.reserve_timeout, held);
}

void cuda_backend::ensure_ntt(unsigned log_n, std::optional<std::size_t> also_held) {
  if (log_n == 0) log_n = 1;
  if (ntt_ && ntt_->max_log_size() >= log_n) return;
  ntt_.reset();
  ntt_memory_.release();
  ntt_memory_ = reserve(ntt_bytes(log_n), "NTT twiddles", also_held);
  std::string error;
  ntt_ = ntt_context::create(log_n, error);
  if (!ntt_) fail("ntt_context::create", error);
}

std::size_t cuda_backend::msm_scratch_bytes(std::size_t n, std::size_t n_g2, std::size_t chunk_buffers) const {
  // Plus the 0/1 split of msm_mostly_binary (its own buffers): a code per position, the rest's
  // compact bases and scalars (at most n / 8: 96 + 32 B for G1, 192 + 32 B for G2) and the
  // ones' partial sums; and the streamed MSMs' two chunk buffers.
  // Plus, when the G2 split halves its ones, their arrays for one chunk.
  const std::size_t split = n + n / 8 * (96 + 32) + n_g2 / 8 * (192 + 32) + (std::size_t{64} << 20);
  const bool halving = n_g2 > 0 && msm_->options().g2_affine_rounds > 0;
  const std::size_t affine = halving ? g2_ones_halving_bytes(std::min(n_g2, prover_affine_pairs), n_g2) : 0;
  return std::max(g1_msm_scratch_estimate(n), g2_msm_scratch_estimate(n_g2)) + split + affine + chunk_buffers;
}

cuda_backend::msm_needs cuda_backend::msm_sizes(const r1cs::r1cs_shape& shape, srs_placement streamed) const {
  const partition_sizes z(shape);
  const std::size_t chunk = msm_->options().stream_chunk_points;
  const std::size_t c1 = chunk ? chunk : default_stream_chunk_g1, c2 = chunk ? chunk : default_stream_chunk_g2;
  // A streamed query's MSMs are at most one chunk long; the two chunk buffers hold the largest.
  msm_needs r;
  auto g1 = [&](std::size_t n, bool s) {
    if (s) r.chunk_buffers = std::max(r.chunk_buffers, 2 * std::min(n, c1) * g1_bytes);
    r.n_g1 = std::max(r.n_g1, s ? std::min(n, c1) : n);
  };
  g1(z.m, streamed.h), g1(shape.num_aux, streamed.l), g1(z.n_a, streamed.a), g1(z.n_b, streamed.b_g1);
  r.n_g2 = streamed.b_g2 ? std::min(z.n_b, c2) : z.n_b;
  if (streamed.b_g2) r.chunk_buffers = std::max(r.chunk_buffers, 2 * r.n_g2 * g2_bytes);
  return r;
}

std::size_t cuda_backend::working_set_bytes(const r1cs::r1cs_shape& shape, srs_placement streamed) const {
  const partition_sizes z(shape);
  const msm_needs k = msm_sizes(shape, streamed);
  return device_shape::device_bytes_for(shape) + ntt_bytes(static_cast<unsigned>(std::countr_zero(z.m))) +
         msm_scratch_bytes(k.n_g1, k.n_g2, k.chunk_buffers) + z.buffer_bytes(shape);
}

srs_placement cuda_backend::place(const r1cs::r1cs_shape& shape, const std::array<std::size_t, 5>& srs_bytes) const {
  if (opt_.residency == srs_residency::device) return {};
  srs_placement p = srs_placement::all_streamed();
  if (opt_.residency == srs_residency::streamed) return p;
  // Automatic: make queries resident, largest first (H, L and A cost about the same per streamed
  // byte), while the resident ones and the working set for that placement fit the capacity.
  bool srs_placement::*order[] = {&srs_placement::h, &srs_placement::l, &srs_placement::a, &srs_placement::b_g2,
                                  &srs_placement::b_g1};
  for (bool srs_placement::*q : order) {
    srs_placement tried = p;
    tried.*q = false;
    if (resident_bytes(srs_bytes, tried) + working_set_bytes(shape, tried) <= arbiter_->capacity()) p = tried;
  }
  return p;
}

void cuda_backend::ensure_msm_scratch(std::size_t n, std::optional<std::size_t> also_held, std::size_t n_g2,
                                      std::size_t chunk_buffers) {
  const std::size_t bytes = msm_scratch_bytes(n, n_g2, chunk_buffers);
  if (bytes <= msm_memory_.bytes()) return;
  msm_memory_.release();
  msm_memory_ = reserve(bytes, "MSM scratch", also_held);
}

const device_shape& cuda_backend::resident_shape(const r1cs::r1cs_shape& shape, std::optional<std::size_t> also_held) {
  shape_key k;
  k.address = &shape;
  const std::size_t counts[6] = {shape.num_constraints, shape.num_inputs, shape.num_aux,
                                 shape.a.nnz(),          shape.b.nnz(),      shape.c.nnz()};
  std::copy(std::begin(counts), std::end(counts), k.counts);
  k.hash = shape.hash;
  // Sampled entries: a cheap guard against a different shape built at a freed one's address.
  std::size_t digest = shape.coeffs.size();
  for (const r1cs::csr_matrix* m : {&shape.a, &shape.b, &shape.c}) {
    const std::size_t nnz = m->nnz();
    for (std::size_t i = 0; nnz && i < 21; ++i) {
      const std::size_t e = i * (nnz - 1) / 20;
      digest = digest * 1000003u ^ (std::size_t{m->cols[e]} << 20 ^ m->coeff_ids[e]);
    }
  }
  k.samples = digest;
  if (shape_ && k == shape_key_) return *shape_;
  shape_.reset();
  shape_memory_.release();
  shape_memory_ = reserve(device_shape::device_bytes_for(shape), "shape matrices", also_held);
  std::string error;
  shape_ = device_shape::upload(shape, error);
  if (!shape_) fail("shape upload", error);
  shape_key_ = k;
  ++shape_uploads_;
  return *shape_;
}

groth16::proof cuda_backend::prove_partition(const groth16::parameters_view& params, const r1cs::r1cs_shape& shape,
                                             std::span<const fr> inputs, std::span<const fr> aux, const fr& r,
                                             const fr& s, groth16::prove_timings* timings) {
  return guarded([&] {
    const auto t_start = clock_type::now();
    groth16::check_parameters(params, shape);
    select_device();
    const srs_placement streamed = place(shape, srs_query_bytes(params));
    // A partition that cannot fit even with the whole SRS streamed fails here, before anything is
    // reserved or copied (the resident case fails the same way in the SRS reservation).
    if (streamed == srs_placement::all_streamed() && working_set_bytes(shape, streamed) > arbiter_->capacity())
      throw device_memory_error(device_memory_error::kind::impossible,
                                "cuda_backend: a partition of this shape needs " +
                                    format_bytes(working_set_bytes(shape, streamed)) +
                                    " of device memory with the SRS streamed; the device has " +
                                    format_bytes(arbiter_->capacity()));
    const std::shared_ptr<const resident_srs> srs = srs_->get(params, arbiter_, opt_.reserve_timeout, streamed);
    return prove_resident(*srs, *params.vk, shape, inputs, aux, r, s, t_start, timings);
  });
}

groth16::proof cuda_backend::prove_partition(const device_parameters& params, const r1cs::r1cs_shape& shape,
                                             std::span<const fr> inputs, std::span<const fr> aux, const fr& r,
                                             const fr& s, groth16::prove_timings* timings) {
  return guarded([&] {
    const auto t_start = clock_type::now();
    if (!params.srs) throw std::invalid_argument("cuda_backend::prove_partition: device parameters without bases");
    // groth16::check_parameters over the resident sizes.
    const resident_srs& srs = *params.srs;
    if (srs.arbiter != arbiter_)
      throw std::invalid_argument("cuda_backend::prove_partition: device parameters reserved on another arbiter");
    if (params.vk.delta_g1.infinity || params.vk.delta_g2.infinity)
      throw std::invalid_argument("groth16::prove: delta is the identity");
    const partition_sizes z(shape);
    const resident_srs::counts got = srs.sizes();
    if (params.vk.ic.size() != shape.num_inputs || got.h != z.m - 1 || got.l != shape.num_aux || got.a != z.n_a ||
        got.b_g1 != z.n_b || got.b_g2 != z.n_b || shape.a_aux_density.size() != shape.num_aux ||
        shape.b_aux_density.size() != shape.num_aux || shape.b_input_density.size() != shape.num_inputs)
      throw std::invalid_argument("cuda_backend::prove_partition: device parameters do not match the shape");
    select_device();
    return prove_resident(srs, params.vk, shape, inputs, aux, r, s, t_start, timings);
  });
}

void cuda_backend::ensure_buffers(std::size_t bytes, std::size_t also_held) {
  if (bytes <= buffer_memory_.bytes()) return;
  std::string error;
  check(w_.resize(0, error) && a_.resize(0, error) && b_.resize(0, error) && c_.resize(0, error), "free buffers", error);
  buffer_memory_.release();
  buffer_memory_ = reserve(bytes, "partition buffers (w, a, b, c)", also_held);
}

groth16::proof cuda_backend::prove_resident(const resident_srs& srs_ref, const groth16::verifying_key& vk,
                                            const r1cs::r1cs_shape& shape, std::span<const fr> inputs,
                                            std::span<const fr> aux, const fr& r, const fr& s,
                                            clock_type_point t_start, groth16::prove_timings* timings) {
  groth16::prove_timings t;
  if (inputs.size() != shape.num_inputs || aux.size() != shape.num_aux)
    throw std::invalid_argument("cuda_backend::prove_partition: witness sizes do not match the shape");
  const std::size_t na = shape.num_aux;
  const resident_srs* srs = &srs_ref;
  const srs_placement streamed = srs->placement();
  const partition_sizes z(shape);
  const std::size_t m = z.m;  // = the H query's size + 1 (both callers check it)

  std::string error;
  const device_shape& dshape = resident_shape(shape, srs->memory.bytes());
  ensure_ntt(static_cast<unsigned>(std::countr_zero(m)), srs->memory.bytes());
  const msm_needs k = msm_sizes(shape, streamed);
  ensure_msm_scratch(k.n_g1, srs->memory.bytes(), k.n_g2, k.chunk_buffers);

  // Per-proof buffers, kept by the backend: w; a, b, c (b and c later hold the A and B scalars,
  // so each is sized for the largest of the three uses; when that exceeds m, SpMV's resize to m
  // and the resize back reallocate b and c per proof: never for PoRep shapes, where n_a, n_b < m).
  const std::size_t bc_len = z.bc_len;
  ensure_buffers(z.buffer_bytes(shape), srs->memory.bytes());
  device_fr_vector &w = w_, &a = a_, &b = b_, &c = c_;

  // 1. a, b, c on the domain. The witness crosses PCIe before the kernel lock is taken (the copy
  // overlaps another worker's kernels); steps 1-3 hold it.
  // t.abc = upload + SpMV, without the wait for the lock (that is only in t.total).
  auto t0 = clock_type::now();
  // c is the packed upload's device stage (SpMV overwrites it next; sized as SpMV sizes it).
  check(c.resize(m, error) && spmv_->upload_witness(dshape, inputs, aux, w, &c, error) && spmv_->synchronize(error),
        "witness upload", error);
  const double upload_seconds = seconds_since(t0);
  std::unique_lock<kernel_region_lock> kernels(*kernel_lock_);
  t0 = clock_type::now();
  check(spmv_->evaluate_abc(dshape, w, m, a, b, c, error) && spmv_->synchronize(error), "SpMV", error);
  t.abc = upload_seconds + seconds_since(t0);

  // 2. h coefficients (in a).
  t0 = clock_type::now();
  check(ntt_->compute_h(a, b, c, error) && ntt_->synchronize(error), "compute_h", error);
  t.h = seconds_since(t0);

  // 3. MSMs over the resident bases (or the pinned ones, streamed).
  ec::g1_jacobian h_sum, l_sum, a_sum, b1_sum;
  ec::g2_jacobian b2_sum;
  // A query's pinned bases when it is streamed, else null.
  auto pin = [&](auto pinned_srs::*query) { return (srs->pinned.*query).size() ? &(srs->pinned.*query) : nullptr; };
  auto keep_profile = [&](std::size_t query) {
    if (opt_.profile_msms) msm_profiles_[query] = msm_->profile();
  };
  t0 = clock_type::now();
  check(query_msm(*msm_, srs->h, pin(&pinned_srs::h), false, a, m - 1, h_sum, error), "H MSM", error);
  t.msm_h = seconds_since(t0);
  keep_profile(0);

  t0 = clock_type::now();
  check(query_msm(*msm_, srs->l, pin(&pinned_srs::l), true, w, na, l_sum, error), "L MSM", error);
  t.msm_l = seconds_since(t0);
  keep_profile(1);

  std::size_t n = 0;
  t0 = clock_type::now();
  check(b.resize(bc_len, error) && spmv_->compact_msm_scalars(dshape, w, spmv_context::query::a, b, n, error) &&
            spmv_->synchronize(error) && query_msm(*msm_, srs->a, pin(&pinned_srs::a), true, b, n, a_sum, error),
        "A MSM", error);
  t.msm_a = seconds_since(t0);
  keep_profile(2);

  t0 = clock_type::now();
  check(c.resize(bc_len, error) && spmv_->compact_msm_scalars(dshape, w, spmv_context::query::b, c, n, error) &&
            spmv_->synchronize(error) && query_msm(*msm_, srs->b_g1, pin(&pinned_srs::b_g1), true, c, n, b1_sum, error),
        "B_G1 MSM", error);
  t.msm_b_g1 = seconds_since(t0);
  keep_profile(3);

  // B_G2 with B_G1's compacted scalars (still in c): b_g2 and b_g1 share the layout.
  t0 = clock_type::now();
  check(query_msm(*msm_, srs->b_g2, pin(&pinned_srs::b_g2), true, c, n, b2_sum, error), "B_G2 MSM", error);
  t.msm_b_g2 = seconds_since(t0);
  keep_profile(4);
  kernels.unlock();

  // 4. Assembly: prover.hpp step 4, the same formulas as prove_with_ops.
  t0 = clock_type::now();
  const ec::g1_jacobian delta_g1 = ec::g1_jacobian::from_affine(vk.delta_g1);
  const ec::g1_jacobian g_a = (a_sum + vk.alpha_g1) + ec::scalar_mul(delta_g1, r);
  const ec::g2_jacobian g_b = (b2_sum + vk.beta_g2) + ec::scalar_mul(ec::g2_jacobian::from_affine(vk.delta_g2), s);
  const ec::g1_jacobian g_b1 = (b1_sum + vk.beta_g1) + ec::scalar_mul(delta_g1, s);
  const ec::g1_jacobian g_c = ec::scalar_mul(g_a, s) + ec::scalar_mul(g_b1, r) - ec::scalar_mul(delta_g1, r * s) +
                              h_sum + l_sum;
  groth16::proof out{g_a.to_affine(), g_b.to_affine(), g_c.to_affine()};
  t.assembly = seconds_since(t0);

  t.total = seconds_since(t_start);
  if (timings) *timings = t;
  return out;
}

// ---------------------------------------------------------------------------------------------
// Lower operations
// ---------------------------------------------------------------------------------------------
void cuda_backend::evaluate_abc(const r1cs::r1cs_shape& shape, std::span<const fr> inputs, std::span<const fr> aux,
                                std::span<fr> a, std::span<fr> b, std::span<fr> c) {
  return guarded([&] {
    select_device();
    const std::size_t m = a.size();
    if (m < shape.num_constraints + shape.num_inputs || b.size() != m || c.size() != m)
      throw std::invalid_argument("cuda_backend::evaluate_abc: buffer sizes");
    if (inputs.size() != shape.num_inputs || aux.size() != shape.num_aux)
      throw std::invalid_argument("cuda_backend::evaluate_abc: witness sizes do not match the shape");
    const device_shape& dshape = resident_shape(shape);
    const auto buffers = reserve((inputs.size() + aux.size() + 3 * m) * fr_bytes, "evaluate_abc buffers");
    device_fr_vector w, da, db, dc;
    std::string error;
    check(dc.resize(m, error) && spmv_->upload_witness(dshape, inputs, aux, w, &dc, error) &&
              spmv_->evaluate_abc(dshape, w, m, da, db, dc, error) &&
              spmv_->synchronize(error) && da.download(a, error) && db.download(b, error) && dc.download(c, error),
          "evaluate_abc", error);
  });
}

void cuda_backend::compute_h(std::span<fr> a, std::span<fr> b, std::span<fr> c) {
  return guarded([&] {
    select_device();
    const std::size_t n = a.size();
    if (!std::has_single_bit(n) || b.size() != n || c.size() != n)
      throw std::invalid_argument("cuda_backend::compute_h: sizes must be one power of two");
    ensure_ntt(static_cast<unsigned>(std::countr_zero(n)));
    const auto buffers = reserve(3 * n * fr_bytes, "compute_h buffers");
    device_fr_vector da, db, dc;
    std::string error;
    check(da.upload(a, error) && db.upload(b, error) && dc.upload(c, error) && ntt_->compute_h(da, db, dc, error) &&
              ntt_->synchronize(error) && da.download(a, error),
          "compute_h", error);
  });
}

ec::g1_jacobian cuda_backend::msm_g1(std::span<const ec::g1_affine> bases, std::span<const fr> scalars) {
  return guarded([&] {
    select_device();
    if (bases.size() < scalars.size()) throw std::invalid_argument("cuda_backend::msm_g1: fewer bases than scalars");
    ec::g1_jacobian out = ec::g1_jacobian::identity();
    if (scalars.empty()) return out;
    ensure_msm_scratch(scalars.size());
    const auto buffers = reserve(scalars.size() * g1_bytes, "msm_g1 bases");
    g1_device_bases d;
    std::string error;
    check(d.upload(bases.first(scalars.size()), error) && msm_->msm(d, scalars, out, error), "msm_g1", error);
    return out;
  });
}

ec::g1_jacobian cuda_backend::msm_g1(std::span<const ec::g1_affine> bases, const r1cs::density_bitmap& density,
                                     std::span<const fr> scalars) {
  return guarded([&] {
    select_device();
    if (scalars.size() != density.size() || bases.size() < density.count())
      throw std::invalid_argument("cuda_backend::msm_g1: density, bases and scalars disagree");
    ec::g1_jacobian out = ec::g1_jacobian::identity();
    if (density.count() == 0) return out;
    ensure_msm_scratch(density.count());
    const auto buffers = reserve(density.count() * g1_bytes, "msm_g1 bases");
    g1_device_bases d;
    std::string error;
    check(d.upload(bases.first(density.count()), error) && msm_->msm(d, density, scalars, out, error), "msm_g1", error);
    return out;
  });
}

ec::g2_jacobian cuda_backend::msm_g2(std::span<const ec::g2_affine> bases, const r1cs::density_bitmap& density,
                                     std::span<const fr> scalars) {
  return cpu_.msm_g2(bases, density, scalars);
}

}  // namespace cuzk::cuda
