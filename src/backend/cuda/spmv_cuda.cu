// Device SpMV and MSM-scalar compaction (spmv_cuda.hpp has the layout and the costs).
#include "backend/cuda/spmv_cuda.hpp"

#include <cuda_runtime.h>

#include <algorithm>
#include <array>
#include <bit>
#include <chrono>
#include <cstring>
#include <vector>

#include "backend/cuda/cuda_status.cuh"
#include "backend/cuda/device_memory.hpp"
#include "backend/cuda/fr_device.cuh"
#include "backend/cuda/witness_packing.hpp"

namespace cuzk::cuda {

namespace {

using dev::fr32;

constexpr unsigned block_threads = 256;
constexpr std::size_t staging_chunk_bytes = std::size_t{32} << 20;  // per half of the double buffer
constexpr std::size_t copy_grain_bytes = std::size_t{2} << 20;      // per thread of a parallel host copy
constexpr auto staging_timeout = std::chrono::seconds(60);
// Packed witness upload (witness_packing.hpp): elements per chunk; a pinned half and a device
// stage slot hold one chunk's worst case (33.9 MB).
constexpr std::size_t packed_chunk_elements = std::size_t{1} << 20;
constexpr std::size_t packed_chunk_bytes = packed_chunk_layout::of(packed_chunk_elements).max_bytes();

unsigned grid_for(std::size_t n) { return static_cast<unsigned>((n + block_threads - 1) / block_threads); }

unsigned tag_bytes_for(std::size_t table_size) { return table_size <= 256 ? 1 : table_size <= 65536 ? 2 : 4; }

// f() with `device` as the calling thread's current device, then the thread's own back (f runs on
// an executor thread that other work shares).
template <class F>
bool on_device(int device, std::string& error, const F& f) {
  int own = 0;
  if (!ok(cudaGetDevice(&own), "cudaGetDevice", error)) return false;
  if (own == device) return f();
  if (!ok(cudaSetDevice(device), "cudaSetDevice", error)) return false;
  if (!f()) {
    (void)cudaSetDevice(own);  // f's error is the one to report
    return false;
  }
  return ok(cudaSetDevice(own), "cudaSetDevice", error);
}

using device_block = device_allocation;  // count = bytes

template <class Tag>
struct matrix_view {
  const uint32_t* row_ptr;
  const uint32_t* cols;
  const Tag* tags;
};

// Entries whose coefficient is a table value (tag > 1), set aside while a row's +-1 entries are
// summed, so that the lanes of a warp multiply together afterwards. Why: with ~10% of the entries
// multiplied, nearly every step of a warp's entry loop has some lane that multiplies, and the
// warp issues the whole product for that lane (the product path diverges from the add): ~8
// warp-wide products per 32 rows where ~2-3 suffice once the pending entries are lined up.
// Four slots; a row's fifth table entry is multiplied at once.
struct deferred_entries {
  uint32_t e0 = 0, e1 = 0, e2 = 0, e3 = 0;  // entry indices
  uint32_t mats = 0;                        // matrix of slot k (0 A, 1 B, 2 C) in bits 2k, 2k + 1
  unsigned count = 0;
  __device__ __forceinline__ bool push(uint32_t e, unsigned mat) {
    if (count == 4) return false;
    if (count == 0)
      e0 = e;
    else if (count == 1)
      e1 = e;
    else if (count == 2)
      e2 = e;
    else
      e3 = e;
    mats |= mat << (2 * count++);
    return true;
  }
  __device__ __forceinline__ void pop(uint32_t& e, unsigned& mat) {
    --count;
    e = count == 0 ? e0 : count == 1 ? e1 : count == 2 ? e2 : e3;
    mat = (mats >> (2 * count)) & 3;
  }
};

// coeff * w[col] for a table coefficient (tag > 1), fully reduced.
__device__ __forceinline__ fr32 scaled(const ff::fr* __restrict__ w, uint32_t col, uint32_t tag,
                                      const ff::fr* __restrict__ table) {
  return dev::fr_mul_ptx::mul(dev::load(w + col), dev::load_ro(table + tag));
}

// The +-1 part of row `row` of matrix Mat: an add or a subtract per entry; table entries are
// deferred (past four, multiplied at once).
template <unsigned Mat, class Tag>
__device__ __forceinline__ fr32 unit_sum(const matrix_view<Tag>& m, uint32_t row, const ff::fr* __restrict__ w,
                                         const ff::fr* __restrict__ table, deferred_entries& d) {
  fr32 acc{};
  const uint32_t lo = m.row_ptr[row], hi = m.row_ptr[row + 1];
  for (uint32_t e = lo; e < hi; ++e) {
    const uint32_t t = m.tags[e];
    if (t > 1) {
      if (!d.push(e, Mat)) acc = dev::add(acc, scaled(w, m.cols[e], t, table));
      continue;
    }
    const fr32 v = dev::load(w + m.cols[e]);
    acc = t == 0 ? dev::add(acc, v) : dev::sub(acc, v);
  }
  return acc;
}

// One thread per domain row: the shape's rows, then the input constraints, then zeros. No lane
// returns early: the deferred products are shared out by warp votes over all 32 lanes (the grid
// is whole blocks of block_threads).
template <class Tag>
__global__ void __launch_bounds__(block_threads)
    abc_kernel(matrix_view<Tag> ma, matrix_view<Tag> mb, matrix_view<Tag> mc, const ff::fr* __restrict__ w,
               const ff::fr* __restrict__ table, uint32_t rows, uint32_t inputs, uint32_t num_aux, uint32_t m,
               ff::fr* __restrict__ a, ff::fr* __restrict__ b, ff::fr* __restrict__ c) {
  const uint32_t row = blockIdx.x * block_threads + threadIdx.x;
  fr32 sa{}, sb{}, sc{};
  deferred_entries d;
  if (row < rows) {
    sa = unit_sum<0>(ma, row, w, table, d);
    sb = unit_sum<1>(mb, row, w, table, d);
    sc = unit_sum<2>(mc, row, w, table, d);
  } else if (row < m && row - rows < inputs) {
    sa = dev::load(w + num_aux + (row - rows));
  }
  // One product per pass for every lane that still has one: as many passes as the warp's
  // busiest lane has deferred entries.
  while (__any_sync(0xffffffffu, d.count != 0)) {
    if (d.count == 0) continue;
    uint32_t e;
    unsigned mat;
    d.pop(e, mat);
    const uint32_t* cols = mat == 0 ? ma.cols : mat == 1 ? mb.cols : mc.cols;
    const Tag* tags = mat == 0 ? ma.tags : mat == 1 ? mb.tags : mc.tags;
    const fr32 p = scaled(w, cols[e], tags[e], table);
    if (mat == 0)
      sa = dev::add(sa, p);
    else if (mat == 1)
      sb = dev::add(sb, p);
    else
      sc = dev::add(sc, p);
  }
  if (row >= m) return;
  dev::store(a + row, sa);
  dev::store(b + row, sb);
  dev::store(c + row, sc);
}

// dst[rank(i)] = src[i] for the set positions i < nbits of a density bitmap.
__global__ void compact_kernel(const uint64_t* __restrict__ words, const uint32_t* __restrict__ ranks, uint64_t nbits,
                               const ff::fr* __restrict__ src, ff::fr* __restrict__ dst) {
  const uint64_t i = static_cast<uint64_t>(blockIdx.x) * block_threads + threadIdx.x;
  if (i >= nbits) return;
  const uint64_t word = words[i >> 6];
  const unsigned bit = static_cast<unsigned>(i & 63);
  if (!((word >> bit) & 1)) return;
  const uint32_t pos = ranks[i >> 6] + static_cast<uint32_t>(__popcll(word & ((uint64_t{1} << bit) - 1)));
  dev::store(dst + pos, dev::load(src + i));
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// device_shape
// ---------------------------------------------------------------------------------------------
struct device_matrix {
  device_block row_ptr, cols, tags;
  std::size_t nnz = 0;
};

struct device_density {
  device_block words, ranks;
  std::size_t bits = 0, count = 0;
};

struct device_shape::impl {
  std::size_t num_constraints = 0, num_inputs = 0, num_aux = 0;
  unsigned tag_bytes = 1;
  device_matrix a, b, c;
  device_block table;
  std::size_t table_size = 0;
  device_density a_aux, b_input, b_aux;
  std::size_t device_bytes = 0, matrix_bytes = 0;
};

device_shape::device_shape() : impl_(std::make_unique<impl>()) {}
device_shape::~device_shape() = default;

std::size_t device_shape::num_constraints() const { return impl_->num_constraints; }
std::size_t device_shape::num_inputs() const { return impl_->num_inputs; }
std::size_t device_shape::num_aux() const { return impl_->num_aux; }
std::size_t device_shape::a_aux_count() const { return impl_->a_aux.count; }
std::size_t device_shape::b_input_count() const { return impl_->b_input.count; }
std::size_t device_shape::b_aux_count() const { return impl_->b_aux.count; }
unsigned device_shape::tag_bytes() const { return impl_->tag_bytes; }
std::size_t device_shape::device_bytes() const { return impl_->device_bytes; }
std::size_t device_shape::matrix_bytes() const { return impl_->matrix_bytes; }

namespace {

std::size_t matrix_bytes_of(const r1cs::csr_matrix& m, unsigned tag_bytes) {
  return (m.rows() + 1) * 4 + m.nnz() * (4 + tag_bytes);
}
std::size_t density_bytes_of(const base::density_bitmap& d) { return d.words().size() * (8 + 4); }

bool upload_block(device_block& blk, const void* src, std::size_t bytes, const char* what, std::string& error) {
  if (bytes == 0) return true;
  return allocate_device(blk, bytes, bytes, what, error) &&
         ok(cudaMemcpy(blk.get(), src, bytes, cudaMemcpyHostToDevice), what, error);
}

template <class Tag>
bool upload_tags(device_block& blk, const std::vector<uint32_t>& ids, std::string& error) {
  std::vector<Tag> t(ids.begin(), ids.end());  // ids < table size, which fits Tag
  return upload_block(blk, t.data(), t.size() * sizeof(Tag), "upload (coefficient tags)", error);
}

bool upload_matrix(device_matrix& dm, const r1cs::csr_matrix& m, std::size_t num_inputs, std::size_t num_aux,
                   unsigned tag_bytes, std::string& error) {
  if (m.nnz() >= (std::size_t{1} << 32)) {
    error = "device_shape: a matrix has 2^32 entries or more (32-bit row offsets)";
    return false;
  }
  dm.nnz = m.nnz();
  std::vector<uint32_t> rp(m.row_ptr.begin(), m.row_ptr.end());
  if (rp.empty()) rp.push_back(0);
  // Columns in the device witness layout aux || inputs.
  std::vector<uint32_t> cols(m.cols.size());
  for (std::size_t e = 0; e < cols.size(); ++e) {
    const uint32_t col = m.cols[e];
    cols[e] = col < num_inputs ? static_cast<uint32_t>(num_aux + col) : static_cast<uint32_t>(col - num_inputs);
  }
  if (!upload_block(dm.row_ptr, rp.data(), rp.size() * 4, "upload (row offsets)", error) ||
      !upload_block(dm.cols, cols.data(), cols.size() * 4, "upload (columns)", error))
    return false;
  switch (tag_bytes) {
    case 1: return upload_tags<uint8_t>(dm.tags, m.coeff_ids, error);
    case 2: return upload_tags<uint16_t>(dm.tags, m.coeff_ids, error);
    default: return upload_tags<uint32_t>(dm.tags, m.coeff_ids, error);
  }
}

bool upload_density(device_density& dd, const base::density_bitmap& d, std::string& error) {
  dd.bits = d.size();
  dd.count = d.count();
  const auto& words = d.words();
  std::vector<uint32_t> ranks(words.size());
  uint64_t r = 0;
  for (std::size_t i = 0; i < words.size(); ++i) {
    ranks[i] = static_cast<uint32_t>(r);
    r += static_cast<uint64_t>(std::popcount(words[i]));
  }
  return upload_block(dd.words, words.data(), words.size() * 8, "upload (density)", error) &&
         upload_block(dd.ranks, ranks.data(), ranks.size() * 4, "upload (density ranks)", error);
}

}  // namespace

std::size_t device_shape::device_bytes_for(const r1cs::r1cs_shape& s) {
  const unsigned tb = tag_bytes_for(s.coeffs.size());
  return matrix_bytes_of(s.a, tb) + matrix_bytes_of(s.b, tb) + matrix_bytes_of(s.c, tb) + s.coeffs.size() * 32 +
         density_bytes_of(s.a_aux_density) + density_bytes_of(s.b_input_density) + density_bytes_of(s.b_aux_density);
}

std::unique_ptr<device_shape> device_shape::upload(const r1cs::r1cs_shape& s, std::string& error) {
  if (s.num_columns() >= (std::size_t{1} << 32) || s.num_constraints + s.num_inputs >= (std::size_t{1} << 32)) {
    error = "device_shape: 2^32 columns or rows or more";
    return nullptr;
  }
  if (s.a.rows() != s.num_constraints || s.b.rows() != s.num_constraints || s.c.rows() != s.num_constraints) {
    error = "device_shape: matrix row counts differ from num_constraints";
    return nullptr;
  }
  std::unique_ptr<device_shape> d(new device_shape());
  impl& m = *d->impl_;
  m.num_constraints = s.num_constraints;
  m.num_inputs = s.num_inputs;
  m.num_aux = s.num_aux;
  m.tag_bytes = tag_bytes_for(s.coeffs.size());
  m.table_size = s.coeffs.size();
  // On the calling thread's current device (cuda_backend selects options.device first).
  if (!upload_matrix(m.a, s.a, s.num_inputs, s.num_aux, m.tag_bytes, error) ||
      !upload_matrix(m.b, s.b, s.num_inputs, s.num_aux, m.tag_bytes, error) ||
      !upload_matrix(m.c, s.c, s.num_inputs, s.num_aux, m.tag_bytes, error) ||
      !upload_block(m.table, s.coeffs.data(), s.coeffs.size() * sizeof(ff::fr), "upload (coefficients)", error) ||
      !upload_density(m.a_aux, s.a_aux_density, error) || !upload_density(m.b_input, s.b_input_density, error) ||
      !upload_density(m.b_aux, s.b_aux_density, error))
    return nullptr;
  m.matrix_bytes = matrix_bytes_of(s.a, m.tag_bytes) + matrix_bytes_of(s.b, m.tag_bytes) +
                   matrix_bytes_of(s.c, m.tag_bytes) + s.coeffs.size() * 32;
  m.device_bytes = device_bytes_for(s);
  return d;
}

// Decodes one packed chunk (witness_packing.hpp) into out[0, count): one thread per code word
// (16 elements); the block offsets' popcounts read through the cache by the block's threads.
__global__ void unpack_witness_kernel(const std::byte* __restrict__ packed, std::size_t count,
                                      ff::fr* __restrict__ out) {
  const std::size_t w = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (w < packed_chunk_layout::of(count).words) unpack_witness_word(packed, count, w, out);
}

// ---------------------------------------------------------------------------------------------
// spmv_context
// ---------------------------------------------------------------------------------------------
struct spmv_context::impl {
  pinned_host_pool* pinned = nullptr;
  cudaStream_t stream = nullptr;
  // The packed upload's copies run on their own stream into up to stage_slots device slots, so a
  // decode kernel waiting for SMs (another worker's MSM kernels) delays only the copy that reuses
  // its slot, stage_slots chunks later, not the next one; the host waits for nothing but its
  // pinned half's previous copy.
  static constexpr std::size_t stage_slots = 8;
  cudaStream_t copy_stream = nullptr;
  cudaEvent_t copied[stage_slots] = {}, decoded[stage_slots] = {};
  cudaEvent_t ev_start = nullptr, ev_stop = nullptr;
  cudaEvent_t staged[2] = {nullptr, nullptr};
  ~impl() {
    for (cudaEvent_t e : {ev_start, ev_stop, staged[0], staged[1]})
      if (e) cudaEventDestroy(e);
    for (std::size_t i = 0; i < stage_slots; ++i) {
      if (copied[i]) cudaEventDestroy(copied[i]);
      if (decoded[i]) cudaEventDestroy(decoded[i]);
    }
    if (copy_stream) cudaStreamDestroy(copy_stream);
    if (stream) cudaStreamDestroy(stream);
  }
  // Host -> device copy of `bytes`; through two pinned halves when a pool is present (the host
  // memcpy of one chunk overlaps the DMA of the other), else one pageable copy.
  bool copy_in(void* dst, const void* src, std::size_t bytes, std::string& error);
  // dst[0, src.size()) on the device from src packed chunk by chunk on the host (the encode of
  // one chunk into a pinned half overlaps the copy and decode of the other): chunk by chunk on the
  // calling thread, or with pipelined_encode by pack_witness_pipelined on `copier`'s threads,
  // started once for the whole witness;
  // `stage` is device memory of stage_bytes >= packed_chunk_bytes (up to stage_slots chunks of it
  // are used). Needs the pinned pool.
  bool pack_in(ff::fr* dst, std::span<const ff::fr> src, void* stage, std::size_t stage_bytes, std::string& error);
  // A pinned staging buffer of `bytes` from the pool (waits up to staging_timeout).
  bool acquire_staging(std::size_t bytes, pinned_host_pool::buffer& buf, std::string& error) {
    try {
      buf = pinned->acquire(bytes, std::chrono::duration_cast<std::chrono::milliseconds>(staging_timeout));
      return true;
    } catch (const std::exception& e) {
      error = std::string("witness staging: ") + e.what();
      return false;
    }
  }
  // memcpy, split over `copier`'s threads in pieces of at least copy_grain_bytes.
  void host_copy(char* dst, const char* src, std::size_t n) const {
    if (!copier || n < 2 * copy_grain_bytes) {
      std::memcpy(dst, src, n);
      return;
    }
    copier->parallel_for(n, copy_grain_bytes, [&](std::size_t b, std::size_t e) { std::memcpy(dst + b, src + b, e - b); });
  }
  base::executor* copier = nullptr;
  bool pipelined_encode = false;
};

spmv_context::spmv_context() : impl_(std::make_unique<impl>()) {}
spmv_context::~spmv_context() = default;

std::unique_ptr<spmv_context> spmv_context::create(pinned_host_pool* pinned, std::string& error,
                                                   base::executor* copier, bool pipelined_encode) {
  std::unique_ptr<spmv_context> ctx(new spmv_context());
  impl& m = *ctx->impl_;
  m.pinned = pinned;
  m.copier = copier;
  m.pipelined_encode = pipelined_encode;
  // The stream belongs to the calling thread's current device (cuda_backend selects it first).
  // The highest priority: the upload's decode kernels (and SpMV) take the next free SM slots
  // before the queued blocks of another worker's MSM kernels.
  int lowest = 0, highest = 0;
  if (!ok(cudaDeviceGetStreamPriorityRange(&lowest, &highest), "cudaDeviceGetStreamPriorityRange", error) ||
      !ok(cudaStreamCreateWithPriority(&m.stream, cudaStreamNonBlocking, highest), "cudaStreamCreate", error) ||
      !ok(cudaEventCreate(&m.ev_start), "cudaEventCreate", error) ||
      !ok(cudaEventCreate(&m.ev_stop), "cudaEventCreate", error) ||
      !ok(cudaEventCreateWithFlags(&m.staged[0], cudaEventDisableTiming), "cudaEventCreate", error) ||
      !ok(cudaEventCreateWithFlags(&m.staged[1], cudaEventDisableTiming), "cudaEventCreate", error) ||
      !ok(cudaStreamCreateWithFlags(&m.copy_stream, cudaStreamNonBlocking), "cudaStreamCreate", error))
    return nullptr;
  for (std::size_t i = 0; i < impl::stage_slots; ++i)
    if (!ok(cudaEventCreateWithFlags(&m.copied[i], cudaEventDisableTiming), "cudaEventCreate", error) ||
        !ok(cudaEventCreateWithFlags(&m.decoded[i], cudaEventDisableTiming), "cudaEventCreate", error))
      return nullptr;
  return ctx;
}

bool spmv_context::impl::copy_in(void* dst, const void* src, std::size_t bytes, std::string& error) {
  if (bytes == 0) return true;
  if (!pinned) {
    return ok(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyHostToDevice, stream), "witness upload", error) &&
           ok(cudaStreamSynchronize(stream), "witness upload", error);
  }
  const std::size_t chunk = std::min(bytes, staging_chunk_bytes);
  pinned_host_pool::buffer buf;
  if (!acquire_staging(2 * chunk, buf, error)) return false;
  char* halves[2] = {static_cast<char*>(buf.data()), static_cast<char*>(buf.data()) + chunk};
  bool fine = true;
  std::size_t k = 0;
  for (std::size_t off = 0; off < bytes && fine; off += chunk, k ^= 1) {
    const std::size_t n = std::min(chunk, bytes - off);
    // The half's previous DMA must be done before it is overwritten.
    fine = ok(cudaEventSynchronize(staged[k]), "witness staging", error);
    if (!fine) break;
    host_copy(halves[k], static_cast<const char*>(src) + off, n);
    fine = ok(cudaMemcpyAsync(static_cast<char*>(dst) + off, halves[k], n, cudaMemcpyHostToDevice, stream),
              "witness upload", error) &&
           ok(cudaEventRecord(staged[k], stream), "cudaEventRecord", error);
  }
  // The buffer goes back to the pool only after its last copy finished.
  return ok(cudaStreamSynchronize(stream), "witness upload", error) && fine;
}

bool spmv_context::impl::pack_in(ff::fr* dst, std::span<const ff::fr> src, void* stage, std::size_t stage_bytes,
                                 std::string& error) {
  if (src.empty()) return true;
  pinned_host_pool::buffer buf;
  const std::size_t half = packed_chunk_bytes;
  if (!acquire_staging(2 * half, buf, error)) return false;
  const std::array<std::byte*, 2> halves = {static_cast<std::byte*>(buf.data()),
                                            static_cast<std::byte*>(buf.data()) + half};
  const std::size_t slots = std::clamp<std::size_t>(stage_bytes / half, 1, stage_slots);
  int device = 0;
  if (!ok(cudaGetDevice(&device), "cudaGetDevice", error)) return false;
  base::serial_executor one_thread;
  base::executor& ex = copier ? *copier : one_thread;
  // The hooks run on the executor's threads (witness_packing.hpp says when), whose current
  // device may be another one: a kernel launch goes to the current device.
  pack_pipeline_hooks hooks;
  hooks.wait_half_free = [&](std::size_t chunk, std::string& err) {
    // The half's previous copy (chunk - 2's, queued before this is called) must be done.
    return on_device(device, err, [&] { return ok(cudaEventSynchronize(staged[chunk % 2]), "witness staging", err); });
  };
  hooks.chunk_ready = [&](std::size_t chunk, std::size_t bytes, std::string& err) {
    return on_device(device, err, [&] {
      const std::size_t k = chunk % 2, slot = chunk % slots, off = chunk * packed_chunk_elements;
      const std::size_t n = std::min(packed_chunk_elements, src.size() - off);
      std::byte* at = static_cast<std::byte*>(stage) + slot * half;
      // Copy once the slot's previous chunk is decoded; decode once copied.
      if (!(chunk < slots || ok(cudaStreamWaitEvent(copy_stream, decoded[slot], 0), "cudaStreamWaitEvent", err)) ||
          !ok(cudaMemcpyAsync(at, halves[k], bytes, cudaMemcpyHostToDevice, copy_stream), "witness upload", err) ||
          !ok(cudaEventRecord(staged[k], copy_stream), "cudaEventRecord", err) ||
          !ok(cudaEventRecord(copied[slot], copy_stream), "cudaEventRecord", err) ||
          !ok(cudaStreamWaitEvent(stream, copied[slot], 0), "cudaStreamWaitEvent", err))
        return false;
      unpack_witness_kernel<<<grid_for(packed_chunk_layout::of(n).words), block_threads, 0, stream>>>(at, n, dst + off);
      return launched("unpack_witness_kernel", err) &&
             ok(cudaEventRecord(decoded[slot], stream), "cudaEventRecord", err);
    });
  };
  bool fine = false;
  try {
    if (pipelined_encode) {
      fine = pack_witness_pipelined(src, packed_chunk_elements, halves, half, ex, hooks, error);
    } else {
      // Chunk by chunk on the calling thread, each chunk's encode one parallel_for over `ex` (a
      // fork-join per 2^20 values: 113.5 ms for a 2^27 upload against 56.6 pipelined).
      fine = true;
      for (std::size_t chunk = 0, off = 0; fine && off < src.size(); ++chunk, off += packed_chunk_elements) {
        const std::size_t n = std::min(packed_chunk_elements, src.size() - off);
        fine = hooks.wait_half_free(chunk, error);
        if (fine) fine = hooks.chunk_ready(chunk, pack_witness_chunk(src.subspan(off, n), halves[chunk % 2], ex), error);
      }
    }
  } catch (const std::exception& e) {
    error = std::string("witness packing: ") + e.what();
  }
  // The buffer goes back to the pool only after its last copy finished.
  const bool copies_done = ok(cudaStreamSynchronize(copy_stream), "witness upload", error);
  return ok(cudaStreamSynchronize(stream), "witness upload", error) && copies_done && fine;
}

bool spmv_context::upload_witness(const device_shape& shape, std::span<const ff::fr> inputs,
                                  std::span<const ff::fr> aux, device_fr_vector& w, device_fr_vector* stage,
                                  std::string& error) {
  if (inputs.size() != shape.num_inputs() || aux.size() != shape.num_aux()) {
    error = "spmv_context::upload_witness: witness sizes differ from the shape's";
    return false;
  }
  if (!w.resize(aux.size() + inputs.size(), error)) return false;
  const std::size_t stage_bytes = stage ? stage->size() * sizeof(ff::fr) : 0;
  const bool packed = impl_->pinned && stage_bytes >= packed_chunk_bytes;
  const bool aux_in = packed ? impl_->pack_in(w.device_data(), aux, stage->device_data(), stage_bytes, error)
                             : impl_->copy_in(w.device_data(), aux.data(), aux.size_bytes(), error);
  return aux_in && impl_->copy_in(w.device_data() + aux.size(), inputs.data(), inputs.size_bytes(), error);
}

bool spmv_context::evaluate_abc(const device_shape& shape, const device_fr_vector& w, std::size_t m,
                                device_fr_vector& a, device_fr_vector& b, device_fr_vector& c, std::string& error) {
  const device_shape::impl& s = shape.internals();
  if (m < s.num_constraints + s.num_inputs || m >= (std::size_t{1} << 32)) {
    error = "spmv_context::evaluate_abc: m must hold the rows and input constraints, and be below 2^32";
    return false;
  }
  if (w.size() != s.num_aux + s.num_inputs) {
    error = "spmv_context::evaluate_abc: the witness vector does not match the shape";
    return false;
  }
  if (!a.resize(m, error) || !b.resize(m, error) || !c.resize(m, error)) return false;
  const auto rows = static_cast<uint32_t>(s.num_constraints), ni = static_cast<uint32_t>(s.num_inputs),
             na = static_cast<uint32_t>(s.num_aux), mm = static_cast<uint32_t>(m);
  const ff::fr* table = s.table.as<const ff::fr>();
  auto launch = [&](auto tag) {
    using Tag = decltype(tag);
    auto view = [](const device_matrix& dm) {
      return matrix_view<Tag>{dm.row_ptr.as<const uint32_t>(), dm.cols.as<const uint32_t>(), dm.tags.as<const Tag>()};
    };
    abc_kernel<Tag><<<grid_for(m), block_threads, 0, impl_->stream>>>(
        view(s.a), view(s.b), view(s.c), w.device_data(), table, rows, ni, na, mm, a.device_data(), b.device_data(),
        c.device_data());
  };
  if (s.tag_bytes == 1)
    launch(uint8_t{});
  else if (s.tag_bytes == 2)
    launch(uint16_t{});
  else
    launch(uint32_t{});
  return launched("abc_kernel", error);
}

bool spmv_context::compact_msm_scalars(const device_shape& shape, const device_fr_vector& w, query q,
                                       device_fr_vector& out, std::size_t& n, std::string& error) {
  const device_shape::impl& s = shape.internals();
  if (w.size() != s.num_aux + s.num_inputs) {
    error = "spmv_context::compact_msm_scalars: the witness vector does not match the shape";
    return false;
  }
  const ff::fr* aux = w.device_data();
  const ff::fr* inputs = w.device_data() + s.num_aux;
  const std::size_t lead = q == query::a ? s.num_inputs : s.b_input.count;
  const device_density& aux_density = q == query::a ? s.a_aux : s.b_aux;
  n = lead + aux_density.count;
  if (out.size() < n) {
    error = "spmv_context::compact_msm_scalars: output vector too small";
    return false;
  }
  auto compact = [&](const device_density& d, const ff::fr* src, ff::fr* dst) {
    if (d.bits == 0) return true;
    compact_kernel<<<grid_for(d.bits), block_threads, 0, impl_->stream>>>(
        d.words.as<const uint64_t>(), d.ranks.as<const uint32_t>(), d.bits, src, dst);
    return launched("compact_kernel", error);
  };
  // A: inputs have full density (their input constraints put them in A).
  const bool lead_ok = q == query::a ? ok(cudaMemcpyAsync(out.device_data(), inputs, s.num_inputs * sizeof(ff::fr),
                                                          cudaMemcpyDeviceToDevice, impl_->stream),
                                          "copy inputs", error)
                                     : compact(s.b_input, inputs, out.device_data());
  return lead_ok && compact(aux_density, aux, out.device_data() + lead);
}

bool spmv_context::synchronize(std::string& error) {
  return ok(cudaStreamSynchronize(impl_->stream), "spmv_context::synchronize", error);
}

bool spmv_context::mark_start(std::string& error) {
  return ok(cudaEventRecord(impl_->ev_start, impl_->stream), "cudaEventRecord", error);
}

double spmv_context::elapsed_ms(std::string& error) {
  return elapsed_since(impl_->ev_start, impl_->ev_stop, impl_->stream, error);
}

}  // namespace cuzk::cuda
