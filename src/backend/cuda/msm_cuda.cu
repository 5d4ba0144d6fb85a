// G1 MSM on the device (msm_cuda.hpp has the algorithm; docs/gpu.md the measurements).
#include "backend/cuda/msm_cuda.hpp"

#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_scan.cuh>
#include <type_traits>
#include <utility>
#include <vector>

#include "backend/cuda/cuda_status.cuh"
#include "backend/cuda/fr_device.cuh"
#include "backend/cuda/g2_device.cuh"
#include "backend/cuda/msm_batch_affine.cuh"
#include "backend/cuda/msm_binary_split.cuh"
#include "backend/cuda/msm_host_finish.hpp"

namespace cuzk::cuda {

namespace {

using dev::fp32;
using dev::fr32;
using dev::g1_affine_dev;
using dev::g1_xyzz_dev;
using dev::g2_affine_dev;
using dev::g2_xyzz_dev;
using g1c = dev::g1_device_curve;
using g2c = dev::g2_device_curve;

// The host curve of a device curve (for the window combination on the host).
template <class C>
struct host_curve_of;
template <>
struct host_curve_of<g1c> {
  using type = ec::g1_curve;
};
template <>
struct host_curve_of<g2c> {
  using type = ec::g2_curve;
};

constexpr unsigned block_threads = 256;
constexpr unsigned merge_fan_in = 16;          // partial sums per merge thread
constexpr unsigned host_tail_per_window = 64;  // device tree sums stop at this many per window
// G2 sums on the host cost ~15-20 us each on the H200 machine's CPU (G1: ~4) when compiled in a
// .cu file (portable field code; msm_host_finish.cpp now has the x86 kernels, 6.5x faster for G2
// and 2-3x for G1 on the development machine), so G2 reduces further on the device: 2^17 spent
// 30 ms on the host with 64 per window.
constexpr unsigned host_tail_per_window_g2 = 4;
constexpr unsigned min_window_bits = 2, max_window_bits = 24;
// msm_mostly_binary: below this n the plain MSM runs (the split's fixed costs, two
// synchronisations and a second pipeline, are not worth it); the rest may be at most
// n / rest_fraction scalars (else the plain MSM: a dense vector gains nothing), which also bounds
// the compact arrays (n / 8 x 128 B for G1, 224 B for G2).
constexpr std::size_t binary_split_min_n = 1024;
constexpr std::size_t binary_split_rest_fraction = 8;
// The register cap of the 0/1 split's ones kernels: G1 at 128 registers (16 warps per SM), as its
// accumulation (uncapped: 184 registers, 8 warps); G2 uncapped, as its accumulation.
template <class C>
constexpr unsigned ones_min_blocks = std::is_same_v<C, dev::g2_device_curve> ? 1 : 2;

unsigned grid_for(std::size_t n, unsigned threads) { return static_cast<unsigned>((n + threads - 1) / threads); }

// (r - 1) / 2 and r as 32-bit limbs (constexpr: folded into immediates).
struct scalar_consts {
  static constexpr uint32_t half(unsigned i) {
    return static_cast<uint32_t>(ff::fr::half_modulus.w[i / 2] >> (32 * (i % 2)));
  }
  static constexpr uint32_t r(unsigned i) { return static_cast<uint32_t>(ff::fr::modulus.w[i / 2] >> (32 * (i % 2))); }
};

// ---------------------------------------------------------------------------------------------
// 1. Scalars: Montgomery -> canonical k (one product by 1), then k > (r-1)/2 -> r - k with the
// sign flag in bit 255 (k < 2^254 afterwards, so the bit is free). 32 B in, 32 B out.
// ---------------------------------------------------------------------------------------------
__global__ void canonical_scalars_kernel(const ff::fr* __restrict__ in, uint4* __restrict__ out, std::size_t n) {
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const fr32 raw_one = {{1, 0, 0, 0, 0, 0, 0, 0}};
  // Local constexpr copies: a run-time read of a host constant in device code is a trap.
  constexpr uint32_t half[8] = {scalar_consts::half(0), scalar_consts::half(1), scalar_consts::half(2),
                                scalar_consts::half(3), scalar_consts::half(4), scalar_consts::half(5),
                                scalar_consts::half(6), scalar_consts::half(7)};
  constexpr uint32_t r[8] = {scalar_consts::r(0), scalar_consts::r(1), scalar_consts::r(2), scalar_consts::r(3),
                             scalar_consts::r(4), scalar_consts::r(5), scalar_consts::r(6), scalar_consts::r(7)};
  fr32 k = dev::mul_ptx(dev::load(in + i), raw_one);
  bool gt = false, decided = false;
#pragma unroll
  for (int j = 7; j >= 0; --j) {
    if (!decided && k.v[j] != half[j]) {
      gt = k.v[j] > half[j];
      decided = true;
    }
  }
  if (gt) {  // k = r - k
    uint64_t borrow = 0;
#pragma unroll
    for (int j = 0; j < 8; ++j) {
      const uint64_t d = static_cast<uint64_t>(r[j]) - k.v[j] - borrow;
      k.v[j] = static_cast<uint32_t>(d);
      borrow = (d >> 32) & 1;
    }
    k.v[7] |= 0x80000000u;
  }
  out[2 * i] = make_uint4(k.v[0], k.v[1], k.v[2], k.v[3]);
  out[2 * i + 1] = make_uint4(k.v[4], k.v[5], k.v[6], k.v[7]);
}

// ---------------------------------------------------------------------------------------------
// 2. Windows: W = ceil(255 / c) windows cover the 255 bits, each of floor(255 / W) or one more
// bits (the `wide` lowest ones), so that W c - 255 spare bits do not all land in one window:
// a window of c - 1 bits has half the buckets of a c-bit one. Buckets keep the c-bit layout
// (2^(c-1) per window), so a narrow window's upper half stays the identity, which the reduction
// passes over without products (2^27, c = 22: 9 of 12 windows narrow).
// ---------------------------------------------------------------------------------------------
struct window_plan {
  unsigned count = 0;   // W
  unsigned narrow = 0;  // bits of the narrow windows
  unsigned wide = 0;    // windows with narrow + 1 bits (the lowest ones)
  unsigned c = 0;       // the widest window's bits: keys and bucket layout
  static window_plan of(unsigned c_requested) {
    window_plan p;
    p.count = (255 + c_requested - 1) / c_requested;
    p.narrow = 255 / p.count;
    p.wide = 255 - p.count * p.narrow;
    p.c = p.wide ? p.narrow + 1 : p.narrow;
    return p;
  }
  __host__ __device__ unsigned bits(unsigned w) const { return narrow + (w < wide ? 1 : 0); }
  __host__ __device__ unsigned offset(unsigned w) const { return w * narrow + (w < wide ? w : wide); }
};

// Signed digits of windows [w0, w0 + g): key = (w - w0) << plan.c | |d|, value = index << 1 |
// sign. Raw window value plus the carry; above 2^(b-1) (b = the window's bits) it becomes raw - 2^b
// (carry 1 into the next). k < 2^254 and 255 bits of windows keep the top window's digit
// <= 2^(b-1) (no carry out).
// ---------------------------------------------------------------------------------------------
__global__ void digits_kernel(const uint4* __restrict__ scalars, std::size_t n, window_plan plan, unsigned w0,
                              unsigned g, uint32_t* __restrict__ keys, uint32_t* __restrict__ vals) {
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const uint4 a = scalars[2 * i], b = scalars[2 * i + 1];
  const uint32_t neg = b.w >> 31;
  // 9 words so that a window reaching past bit 255 reads zeros.
  const uint32_t k[9] = {a.x, a.y, a.z, a.w, b.x, b.y, b.z, b.w & 0x7fffffffu, 0};
  uint32_t carry = 0;
  for (unsigned w = 0; w < w0 + g; ++w) {
    const unsigned c = plan.bits(w), bit = plan.offset(w), word = bit / 32, off = bit % 32;
    const uint32_t mask = (1u << c) - 1, half = 1u << (c - 1);
    uint32_t raw = 0;
    if (word < 8) {
      uint64_t pair = k[word] | (static_cast<uint64_t>(k[word + 1]) << 32);
      raw = static_cast<uint32_t>(pair >> off) & mask;
    }
    raw += carry;
    uint32_t mag, sign;
    if (raw > half) {
      mag = (1u << c) - raw;
      sign = 1;
      carry = 1;
    } else {
      mag = raw;
      sign = 0;
      carry = 0;
    }
    if (w >= w0) {
      const std::size_t slot = static_cast<std::size_t>(w - w0) * n + i;
      keys[slot] = ((w - w0) << plan.c) | mag;
      vals[slot] = (static_cast<uint32_t>(i) << 1) | (sign ^ neg);
    }
  }
}

// ---------------------------------------------------------------------------------------------
// 3. Accumulation over a key-sorted list, balanced by entries: thread t owns entries
// [t L, t L + L) and adds them bucket by bucket (one running accumulator). Runs inside the range
// are complete buckets and are stored directly; the first and last run are stored as partial
// sums (slots 2t, 2t + 1, keyed by the range's first and last key, identity when unused) if the
// bucket continues into the neighbouring range. Slot keys are non-decreasing, so the partials
// form a sorted list again and the same routine merges them (Source = partial sums) until one
// thread covers everything. Direct stores skip identity sums: buckets start as the identity,
// and a bucket is either complete in one range or made only of partials.
// ---------------------------------------------------------------------------------------------
// The kernels below are written once for both curves: C is dev::g1_device_curve or
// dev::g2_device_curve (point types and arithmetic, g2_device.cuh).
template <class C>
struct affine_source {
  const uint32_t* vals;
  const typename C::affine* bases;
};
template <class C>
struct partial_source {
  const typename C::xyzz* pts;
};

template <class C, class Mul>
__device__ __forceinline__ void add_entry(typename C::xyzz& acc, const affine_source<C>& s, std::size_t i) {
  const uint32_t v = s.vals[i];
  typename C::affine p = dev::load_affine(s.bases + (v >> 1));
  if (dev::is_infinity(p)) return;
  if (v & 1) dev::negate_y(p);
  acc = C::template ops<Mul>::add_mixed(acc, p);
}
template <class C, class Mul>
__device__ __forceinline__ void add_entry(typename C::xyzz& acc, const partial_source<C>& s, std::size_t i) {
  acc = C::template ops<Mul>::add(acc, dev::load_xyzz(s.pts + i));
}

template <class C>
struct bucket_layout {
  unsigned c;                   // key = local window << c | |d|
  unsigned w0;                  // first window of this group
  uint32_t per_window;          // M = 2^(c-1)
  typename C::xyzz* buckets;    // W x M, bucket |d| of window w at w * M + |d| - 1
};

template <class C, class Mul, class Source, int MinBlocks>
__global__ void __launch_bounds__(block_threads, MinBlocks) accumulate_kernel(const uint32_t* __restrict__ keys, Source src,
                                                                   std::size_t count, std::size_t range,
                                                                   std::size_t threads, bucket_layout<C> lay,
                                                                   uint32_t* __restrict__ pkeys,
                                                                   typename C::xyzz* __restrict__ ppts) {
  using ops = typename C::template ops<Mul>;
  using xyzz = typename C::xyzz;
  const std::size_t t = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (t >= threads) return;
  const std::size_t start = t * range, end = start + range < count ? start + range : count;
  const uint32_t digit_mask = (1u << lay.c) - 1;
  const uint32_t kf = keys[start], kl = keys[end - 1];
  const bool cross_l = start > 0 && keys[start - 1] == kf;
  const bool cross_r = end < count && keys[end] == kl;
  bool wrote0 = false, wrote1 = false;
  auto flush = [&](uint32_t key, const xyzz& acc) {
    if ((key & digit_mask) == 0) return;  // digit 0: no bucket
    if (key == kf && (cross_l || (kf == kl && cross_r))) {
      dev::store_xyzz(ppts + 2 * t, acc);
      wrote0 = true;
    } else if (key == kl && cross_r) {
      dev::store_xyzz(ppts + 2 * t + 1, acc);
      wrote1 = true;
    } else if (!ops::is_identity(acc)) {
      const std::size_t b = static_cast<std::size_t>(lay.w0 + (key >> lay.c)) * lay.per_window + (key & digit_mask) - 1;
      dev::store_xyzz(lay.buckets + b, acc);
    }
  };
  xyzz acc = ops::identity();
  uint32_t cur = kf;
  for (std::size_t i = start; i < end; ++i) {
    const uint32_t k = keys[i];
    if (k != cur) {
      flush(cur, acc);
      acc = ops::identity();
      cur = k;
    }
    if (k & digit_mask) add_entry<C, Mul>(acc, src, i);
  }
  flush(cur, acc);
  pkeys[2 * t] = kf;
  pkeys[2 * t + 1] = kl;
  if (!wrote0) dev::store_xyzz(ppts + 2 * t, ops::identity());
  if (!wrote1) dev::store_xyzz(ppts + 2 * t + 1, ops::identity());
}

template <class C, class Source>
using accumulate_fn = void (*)(const uint32_t*, Source, std::size_t, std::size_t, std::size_t, bucket_layout<C>,
                               uint32_t*, typename C::xyzz*);

// The register-cap variants (min_blocks 1, 2, 3) are compiled for the default multiplier only;
// the twins get the 128-register cap (all were measured, docs/gpu.md; each instantiation adds
// tens of seconds of nvcc time).
// G2 (compiled with ptx32_call only) has the caps 1 and 2; 3 (85 registers) falls back to 2.
template <class C, class Mul>
accumulate_fn<C, affine_source<C>> pick_accumulate(unsigned min_blocks) {
  if constexpr (std::is_same_v<Mul, dev::fp_mul_ptx_call>) {
    if (min_blocks == 1) return accumulate_kernel<C, Mul, affine_source<C>, 1>;
    if constexpr (std::is_same_v<C, dev::g1_device_curve>)
      if (min_blocks == 3) return accumulate_kernel<C, Mul, affine_source<C>, 3>;
  }
  return accumulate_kernel<C, Mul, affine_source<C>, 2>;
}

// ---------------------------------------------------------------------------------------------
// 4. Bucket reduction. Thread (w, j) takes buckets B_m, m = j g + 1 .. j g + g, of window w:
// running sums from the top give R = sum B_m and A = sum (m - j g) B_m (2g additions), and
// sum m B_m = A + (j g) R, with (j g) R by double-and-add (log2 M doublings).
// ---------------------------------------------------------------------------------------------
// MinBlocks: the register cap (1: none, 255 registers with spills for G1; 2: 128).
template <class C, class Mul, unsigned MinBlocks = 1>
__global__ void __launch_bounds__(block_threads, MinBlocks) reduce_segments_kernel(
    const typename C::xyzz* __restrict__ buckets, uint32_t per_window, unsigned g, unsigned segments, unsigned windows,
    typename C::xyzz* __restrict__ out) {
  using ops = typename C::template ops<Mul>;
  using xyzz = typename C::xyzz;
  const std::size_t t = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (t >= static_cast<std::size_t>(segments) * windows) return;
  const unsigned w = static_cast<unsigned>(t / segments), j = static_cast<unsigned>(t % segments);
  const xyzz* b = buckets + static_cast<std::size_t>(w) * per_window + static_cast<std::size_t>(j) * g;
  xyzz r = ops::identity(), a = ops::identity();
  for (unsigned i = g; i-- > 0;) {
    r = ops::add(r, dev::load_xyzz(b + i));
    a = ops::add(a, r);
  }
  const uint32_t mult = ops::is_identity(r) ? 0 : j * g;  // identity segments: a narrow window's top
  xyzz q = ops::identity();
  for (int bit = 31 - __clz(mult | 1); bit >= 0 && mult; --bit) {
    q = ops::dbl(q);
    if ((mult >> bit) & 1) q = ops::add(q, r);
  }
  dev::store_xyzz(out + t, ops::add(a, q));
}

// out[w][j] = sum of in[w][j F .. j F + F) (clipped to the window's `segments` entries).
template <class C, class Mul>
__global__ void __launch_bounds__(block_threads) sum_groups_kernel(const typename C::xyzz* __restrict__ in,
                                                                   unsigned segments, unsigned fan_in,
                                                                   unsigned out_segments, unsigned windows,
                                                                   typename C::xyzz* __restrict__ out) {
  using ops = typename C::template ops<Mul>;
  const std::size_t t = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (t >= static_cast<std::size_t>(out_segments) * windows) return;
  const unsigned w = static_cast<unsigned>(t / out_segments), j = static_cast<unsigned>(t % out_segments);
  typename C::xyzz s = ops::identity();
  for (unsigned i = j * fan_in; i < (j + 1) * fan_in && i < segments; ++i)
    s = ops::add(s, dev::load_xyzz(in + static_cast<std::size_t>(w) * segments + i));
  dev::store_xyzz(out + t, s);
}

// A device allocation that grows on demand (its contents are not kept when it grows).
struct scratch {
  device_allocation mem;  // count = bytes
  bool reserve(std::size_t b, std::string& error) {
    return b <= mem.count() || allocate_device(mem, b, b, "cudaMalloc (msm scratch)", error);
  }
  void* ptr() const { return mem.get(); }
  std::size_t bytes() const { return mem.count(); }
  template <class T>
  T* as() const {
    return mem.as<T>();
  }
};

}  // namespace

// Best measured window per log2 n on the H200 (cuda_msm_bench window sweep, docs/gpu.md; 2^26
// moved from 20 to 22 with the balanced widths: 361.9 -> 349.8 ms,
// docs/gpu-runs/2026-12-01-msm-g1-balanced-windows.txt); below 2^16 fixed costs dominate and
// c = log2 n - 5 (at least 4) is used.
unsigned default_window_bits(std::size_t n) {
  static constexpr unsigned measured[] = {8, 11, 12, 14, 16, 16, 17, 17, 17, 20, 22, 22};  // 2^16 .. 2^27
  unsigned lg = 0;
  while (lg < 40 && (std::size_t{2} << lg) <= n) ++lg;  // floor(log2 n), 0 for n <= 1
  if (lg < 16) return std::max(4u, lg > 5 ? lg - 5 : 0u);
  return measured[std::min(lg, 27u) - 16];
}

// ---------------------------------------------------------------------------------------------
// g1_msm_context (the bases classes are in msm_bases.cu)
// ---------------------------------------------------------------------------------------------

struct g1_msm_context::impl {
  cudaStream_t stream = nullptr;
  int sm_count = 0;
  g1_msm_options opt;
  g1_msm_profile prof;
  scratch host_scalars, kscalars, keys0, keys1, vals0, vals1, sort_temp, buckets, pkeys0, pkeys1, ppts0, ppts1,
      red0, red1;
  // Batch-affine halving (affine_rounds > 0): per-range output counts, their prefix sums, the
  // scan's temporary storage and two affine arrays (round r writes apts[r % 2]).
  scratch halve_counts, halve_offsets, scan_temp, apts[2];
  scratch halve_prefix, halve_where;  // running products and pair positions (global variant)
  // 0/1 split (msm_mostly_binary): codes per position, the rest counter, the rest's compact bases
  // and scalars, partial sums of the ones (two, for the tree sums).
  scratch split_codes, split_count, split_bases, split_scalars, split_parts0, split_parts1;
  // Streamed bases: two device chunks, filled on copy_stream (made on first use); chunk_copied[i]
  // marks chunk buffer i's copy complete.
  scratch chunk_bases[2];
  cudaStream_t copy_stream = nullptr;
  cudaEvent_t chunk_copied[2] = {};
  std::vector<cudaEvent_t> events;
  std::size_t next_event = 0;

  ~impl() {
    for (cudaEvent_t e : events) cudaEventDestroy(e);
    for (cudaEvent_t e : chunk_copied)
      if (e) cudaEventDestroy(e);
    if (copy_stream) cudaStreamDestroy(copy_stream);
    if (stream) cudaStreamDestroy(stream);
  }

  // Records an event on the stream when profiling; returns its index (or -1).
  int mark(std::string& error) {
    if (!opt.profile) return -1;
    if (next_event == events.size()) {
      cudaEvent_t e;
      if (!ok(cudaEventCreate(&e), "cudaEventCreate", error)) return -2;
      events.push_back(e);
    }
    cudaEventRecord(events[next_event], stream);
    return static_cast<int>(next_event++);
  }
  double between(int a, int b) const {
    if (a < 0 || b < 0) return 0;
    float ms = 0;
    cudaEventElapsedTime(&ms, events[a], events[b]);
    return ms;
  }

  // Per-item counts written by fill(counts) on the stream (the last item's count must be 0),
  // their exclusive prefix sums in halve_offsets, and the total (the last offset) copied back:
  // one synchronisation.
  template <class Fill>
  bool count_and_scan(std::size_t items, uint32_t& total, std::string& error, Fill&& fill) {
    std::size_t temp = 0;
    if (!halve_counts.reserve(items * 4, error) || !halve_offsets.reserve(items * 4, error) ||
        !ok(cub::DeviceScan::ExclusiveSum(nullptr, temp, halve_counts.as<uint32_t>(), halve_offsets.as<uint32_t>(),
                                          static_cast<int>(items), stream),
            "cub scan (size query)", error) ||
        !scan_temp.reserve(std::max<std::size_t>(temp, 1), error))
      return false;
    return fill(halve_counts.as<uint32_t>()) &&
           ok(cub::DeviceScan::ExclusiveSum(scan_temp.ptr(), temp, halve_counts.as<uint32_t>(),
                                            halve_offsets.as<uint32_t>(), static_cast<int>(items), stream),
              "cub::DeviceScan::ExclusiveSum", error) &&
           ok(cudaMemcpyAsync(&total, halve_offsets.as<uint32_t>() + items - 1, 4, cudaMemcpyDeviceToHost, stream),
              "copy scan total", error) &&
           ok(cudaStreamSynchronize(stream), "counts and their prefix sums", error);
  }
  template <class C>
  bool halve(unsigned c, unsigned rounds, const uint32_t*& keys, const uint32_t*& vals, uint32_t* keys_spare,
             uint32_t* vals_spare, const typename C::affine*& pts, std::size_t& count, std::string& error);
  template <class C, class Mul>
  bool run(const typename C::affine* bases, const ff::fr* dev_scalars, std::size_t n,
           ec::jacobian_point<typename host_curve_of<C>::type>& out, std::string& error, double upload_ms_host);
  // The pipeline with the configured multiplier over raw device bases. G2 is compiled with the
  // default multiplier only (options().mul is not used).
  template <class C>
  bool run_configured(const typename C::affine* b, const ff::fr* dev_scalars, std::size_t n,
                      ec::jacobian_point<typename host_curve_of<C>::type>& out, std::string& error,
                      double upload_ms_host) {
    if constexpr (std::is_same_v<C, g2c>) {
      return run<g2c, dev::fp_mul_ptx_call>(b, dev_scalars, n, out, error, upload_ms_host);
    } else {
      switch (opt.mul) {
        case fp_mul_kernel::ptx32: return run<g1c, dev::fp_mul_ptx>(b, dev_scalars, n, out, error, upload_ms_host);
        case fp_mul_kernel::ptx32_call:
          return run<g1c, dev::fp_mul_ptx_call>(b, dev_scalars, n, out, error, upload_ms_host);
        case fp_mul_kernel::portable64: break;
      }
      return run<g1c, dev::fp_mul_portable>(b, dev_scalars, n, out, error, upload_ms_host);
    }
  }
  bool dispatch(const g1_device_bases& bases, const ff::fr* dev_scalars, std::size_t n, ec::g1_jacobian& out,
                std::string& error, double upload_ms_host) {
    return run_configured<g1c>(static_cast<const g1_affine_dev*>(bases.device_data()), dev_scalars, n, out, error,
                               upload_ms_host);
  }
  template <class C, class Bases, class Point>
  bool msm_device(const Bases& bases, const device_fr_vector& scalars, std::size_t n, Point& out, std::string& error);
  template <class Bases, class Point>
  bool msm_host(const Bases& bases, std::span<const ff::fr> scalars, Point& out, std::string& error);
  template <class Bases, class Point>
  bool msm_density(const Bases& bases, const base::density_bitmap& density, std::span<const ff::fr> scalars,
                   Point& out, std::string& error);
  bool dispatch(const g2_device_bases& bases, const ff::fr* dev_scalars, std::size_t n, ec::g2_jacobian& out,
                std::string& error, double upload_ms_host) {
    return run_configured<g2c>(static_cast<const g2_affine_dev*>(bases.device_data()), dev_scalars, n, out, error,
                               upload_ms_host);
  }
  // The ones of the split as a list, halved by `rounds` batch-affine rounds (G2) or added as
  // listed (rounds = 0), into `parts` partial sums in `out`.
  template <class C>
  bool sum_ones_listed(const typename C::affine* b, std::size_t n, unsigned rounds, std::size_t parts,
                       typename C::xyzz* out, std::string& error);
  // The 0/1 split over raw device arrays (sizes checked by the caller).
  template <class C, class Point>
  bool msm_binary(const typename C::affine* b, const ff::fr* scalars, std::size_t n, Point& out, std::string& error);
  template <class C, class Bases, class Point>
  bool msm_binary_checked(const Bases& bases, const device_fr_vector& scalars, std::size_t n, Point& out,
                          std::string& error) {
    return check_sizes(bases.size(), scalars.size(), n, error) &&
           msm_binary<C>(static_cast<const typename C::affine*>(bases.device_data()), scalars.device_data(), n, out,
                         error);
  }
  template <class C, class Bases, class Point>
  bool msm_streamed(const Bases& bases, const device_fr_vector& scalars, std::size_t n, bool mostly_binary,
                    Point& out, std::string& error);
  static bool check_sizes(std::size_t bases, std::size_t scalars, std::size_t n, std::string& error) {
    if (n > scalars || n > bases) {
      error = "msm: more scalars than bases or than the scalar vector holds";
      return false;
    }
    if (n >= (std::size_t{1} << 31)) {
      error = "msm: n must be below 2^31";
      return false;
    }
    return true;
  }
};

// Batch-affine halving rounds over one sorted window group (msm_batch_affine.cuh has the
// algorithm and costs). Per round: output counts per range, their exclusive prefix sum (CUB),
// the total copied back (one synchronisation: it sizes the affine array), then the halving
// kernel. Round r reads (keys, vals, pts) and writes the spare key/value buffers (the sort's
// alternate buffers, then the lists of round r - 1) and apts[r % 2]. An affine array that does
// not fit in device memory ends the rounds early: the lists written so far are complete, so the
// XYZZ accumulation finishes the group from there (the plain path when it is the first round).
// The product is the out-of-line PTX one (fp_mul_ptx_call). G2 runs the global-scratch kernel
// only, at one block per SM (no register cap).
template <class C>
bool g1_msm_context::impl::halve(unsigned c, unsigned rounds, const uint32_t*& keys, const uint32_t*& vals,
                                 uint32_t* keys_spare, uint32_t* vals_spare, const typename C::affine*& pts,
                                 std::size_t& count, std::string& error) {
  using affine = typename C::affine;
  using field = typename dev::affine_field<affine>::F;
  constexpr bool is_g2 = std::is_same_v<C, g2c>;
  const uint32_t digit_mask = (1u << c) - 1;
  const bool local = !is_g2 && opt.affine_local_prefix;
  // Blocks of halving_block threads resident per SM: 2 for G1 (128-register cap), 1 for G2.
  const std::size_t resident =
      std::size_t{is_g2 ? 1u : 2u} * dev::halving_block * static_cast<std::size_t>(sm_count);
  for (unsigned r = 0; r < rounds && count > 1; ++r) {
    // Entries per thread: affine_range, smaller when the list has fewer than range x resident
    // entries (later rounds, small n), so that every thread slot of the device gets a range;
    // at least 16 (8 pairs per inversion).
    unsigned range = local ? dev::halving_local_range : is_g2 ? opt.g2_affine_range : opt.affine_range;
    while (!local && range > 16 && count < range * resident) range /= 2;
    const std::size_t threads = (count + range - 1) / range;
    uint32_t total = 0;
    const bool counted = count_and_scan(threads + 1, total, error, [&](uint32_t* counts) {
      dev::halving_count_kernel<<<grid_for(threads + 1, dev::halving_block), dev::halving_block, 0, stream>>>(
          keys, count, range, threads, digit_mask, counts);
      return launched("halving_count_kernel", error);
    });
    if (!counted) return false;
    if (total == count) break;  // nothing paired and nothing dropped: a round would only copy
    if (total == 0) {           // every digit is 0: no bucket receives anything
      count = 0;
      break;
    }
    scratch& out = apts[r % 2];
    std::string no_room;
    const std::size_t slots = local ? 0 : threads * (range / 2);
    if (!out.reserve(std::size_t{total} * sizeof(affine), no_room) ||
        (!local && (!halve_prefix.reserve(slots * sizeof(field), no_room) ||
                    !halve_where.reserve(slots * sizeof(uint32_t), no_room)))) {
      (void)cudaGetLastError();  // clear the allocation failure; the XYZZ path takes over
      ++prof.affine_fallbacks;
      break;
    }
    const unsigned grid = grid_for(threads, dev::halving_block);
    if constexpr (!is_g2) {
      if (local)
        dev::halving_local_kernel<dev::fp_mul_ptx_call><<<grid, dev::halving_block, 0, stream>>>(
            keys, vals, pts, count, threads, digit_mask, halve_offsets.as<uint32_t>(), keys_spare, vals_spare,
            out.as<affine>());
    }
    if (!local)
      dev::halving_global_kernel<dev::fp_mul_ptx_call, affine, is_g2 ? 1 : 2><<<grid, dev::halving_block, 0, stream>>>(
          keys, vals, pts, count, range, threads, digit_mask, halve_offsets.as<uint32_t>(), keys_spare, vals_spare,
          out.as<affine>(), halve_prefix.as<field>(), halve_where.as<uint32_t>());
    if (!launched("halving_kernel", error)) return false;
    // The output becomes the input; the input's buffers become the next spare ones.
    uint32_t* const next_keys_spare = const_cast<uint32_t*>(keys);
    uint32_t* const next_vals_spare = const_cast<uint32_t*>(vals);
    keys = keys_spare;
    vals = vals_spare;
    keys_spare = next_keys_spare;
    vals_spare = next_vals_spare;
    pts = out.as<affine>();
    count = total;
    ++prof.affine_rounds_done;
  }
  return true;
}

std::size_t g2_ones_halving_bytes(std::size_t chunk, std::size_t n) {
  // One bucket pairs completely: round 1 writes chunk / 2 points, round 2 chunk / 4 (later rounds
  // reuse both arrays), the running products of chunk / 2 pairs, and 4 B per entry of pair
  // positions and range counts; the word counts and offsets of n positions (8 B per 16, rounded up).
  constexpr std::size_t point = sizeof(g2_affine_dev), field = sizeof(dev::fp2_dev);
  return chunk * (point / 2 + point / 4 + field / 2 + 4) + n / 2;
}

g1_msm_context::g1_msm_context() : impl_(std::make_unique<impl>()) {}
g1_msm_context::~g1_msm_context() = default;

std::unique_ptr<g1_msm_context> g1_msm_context::create(std::string& error) {
  std::unique_ptr<g1_msm_context> ctx(new g1_msm_context());
  // The calling thread's current device (the backend selects it), not device 0.
  int dev = 0;
  if (!ok(cudaGetDevice(&dev), "cudaGetDevice", error) ||
      !ok(cudaDeviceGetAttribute(&ctx->impl_->sm_count, cudaDevAttrMultiProcessorCount, dev), "cudaDeviceGetAttribute",
          error) ||
      !ok(cudaStreamCreateWithFlags(&ctx->impl_->stream, cudaStreamNonBlocking), "cudaStreamCreate", error))
    return nullptr;
  return ctx;
}

const g1_msm_options& g1_msm_context::options() const { return impl_->opt; }
const g1_msm_profile& g1_msm_context::profile() const { return impl_->prof; }

bool g1_msm_context::set_options(const g1_msm_options& o, std::string& error) {
  if (o.window_bits != 0 && (o.window_bits < min_window_bits || o.window_bits > max_window_bits)) {
    error = "g1_msm_options: window_bits must be 0 or 2..24";
    return false;
  }
  if (o.max_pairs_per_sort == 0 || o.affine_max_pairs_per_sort == 0) {
    error = "g1_msm_options: max_pairs_per_sort and affine_max_pairs_per_sort must be positive";
    return false;
  }
  if (o.accumulate_block < 32 || o.accumulate_block > block_threads || o.accumulate_block % 32) {
    error = "g1_msm_options: accumulate_block must be a multiple of 32 in 32..256";
    return false;
  }
  if (o.accumulate_min_blocks < 1 || o.accumulate_min_blocks > 3) {
    error = "g1_msm_options: accumulate_min_blocks must be 1, 2 or 3";
    return false;
  }
  if (o.g2_accumulate_min_blocks < 1 || o.g2_accumulate_min_blocks > 3) {
    error = "g1_msm_options: g2_accumulate_min_blocks must be 1, 2 or 3";
    return false;
  }
  if (o.affine_rounds > 8 || o.g2_affine_rounds > 8 || o.g1_ones_rounds > 8) {
    error = "g1_msm_options: affine_rounds, g2_affine_rounds and g1_ones_rounds must be 0..8";
    return false;
  }
  for (unsigned range : {o.affine_range, o.g2_affine_range})
    if (range < 16 || range > 16384 || (range & (range - 1))) {
      error = "g1_msm_options: affine_range and g2_affine_range must be powers of two in 16..16384";
      return false;
    }
  if (o.reduce_min_blocks < 1 || o.reduce_min_blocks > 2) {
    error = "g1_msm_options: reduce_min_blocks must be 1 or 2";
    return false;
  }
  if (o.reduce_segment != 0 && (o.reduce_segment & (o.reduce_segment - 1))) {
    error = "g1_msm_options: reduce_segment must be 0 or a power of two";
    return false;
  }
  impl_->opt = o;
  return true;
}

template <class C, class Mul>
bool g1_msm_context::impl::run(const typename C::affine* bases, const ff::fr* dev_scalars, std::size_t n,
                               ec::jacobian_point<typename host_curve_of<C>::type>& out, std::string& error,
                               double upload_ms_host) {
  using xyzz_dev = typename C::xyzz;
  using host_xyzz = ec::xyzz_point<typename host_curve_of<C>::type>;
  prof = {};
  prof.scalars_ms = upload_ms_host;
  next_event = 0;
  out = out.identity();
  if (n == 0) return true;
  const window_plan plan = window_plan::of(opt.window_bits ? opt.window_bits : default_window_bits(n));
  const unsigned c = plan.c, windows = plan.count;
  const uint32_t per_window = 1u << (c - 1);
  // Windows per sort: as many as fit the pair budget (with halving rounds, also their arrays'
  // budget); keys need c + ceil(log2 group) bits.
  const unsigned requested_rounds = std::is_same_v<C, g2c> ? opt.g2_affine_rounds : opt.affine_rounds;
  const unsigned rounds =  // none below affine_min_points, or when one window exceeds the arrays' budget
      n >= opt.affine_min_points && n <= opt.affine_max_pairs_per_sort ? requested_rounds : 0;
  const std::size_t pair_budget =
      rounds ? std::min(opt.max_pairs_per_sort, opt.affine_max_pairs_per_sort) : opt.max_pairs_per_sort;
  unsigned group = static_cast<unsigned>(std::max<std::size_t>(1, std::min<std::size_t>(windows, pair_budget / n)));
  unsigned group_bits = 0;
  while ((1u << group_bits) < group) ++group_bits;
  if (c + group_bits > 32) {
    group = 1u << (32 - c);
    group_bits = 32 - c;
  }
  const unsigned min_blocks =
      std::is_same_v<C, g2c> ? opt.g2_accumulate_min_blocks : opt.accumulate_min_blocks;
  prof.window_bits = c;
  prof.windows = windows;
  prof.windows_per_sort = group;
  const std::size_t pairs = n * group;

  // Accumulation threads: `accumulate_threads` or 4 per resident slot of the kernel.
  std::size_t max_threads = opt.accumulate_threads;
  if (max_threads == 0) {
    int per_sm = 0;
    const accumulate_fn<C, affine_source<C>> kernel = pick_accumulate<C, Mul>(min_blocks);
    if (!ok(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel,
                                                          static_cast<int>(opt.accumulate_block), 0),
            "cudaOccupancyMaxActiveBlocksPerMultiprocessor", error))
      return false;
    max_threads = 4 * static_cast<std::size_t>(std::max(per_sm, 1)) * sm_count * opt.accumulate_block;
  }
  const std::size_t range0 = std::max<std::size_t>(4, (pairs + max_threads - 1) / max_threads);
  const std::size_t threads0 = (pairs + range0 - 1) / range0;

  // Reduction segments: g buckets per thread. Each thread also pays ~log2(M) doublings for its
  // segment's offset, so a larger g is cheaper while there are threads enough to fill the device:
  // measured best g = 64 from about 2^22 buckets (2^27, c = 22: reduction 37.2 -> 32.4 ms, MSM
  // 689 -> 683 ms; docs/gpu-runs/2026-12-01-msm-reduce-sweep.txt); fewer when the windows give
  // too few threads.
  unsigned g = opt.reduce_segment;
  if (g == 0) {
    const std::size_t all = static_cast<std::size_t>(windows) * per_window;
    g = all / 64 >= 65536 ? 64 : all / 32 >= 65536 ? 32 : 16;
  }
  g = std::min<unsigned>(g, per_window);
  const unsigned segments = per_window / g;

  std::size_t sort_bytes = 0;
  {
    cub::DoubleBuffer<uint32_t> k(nullptr, nullptr), v(nullptr, nullptr);
    if (!ok(cub::DeviceRadixSort::SortPairs(nullptr, sort_bytes, k, v, static_cast<int>(pairs), 0, c + group_bits,
                                            stream),
            "cub sort (size query)", error))
      return false;
  }
  const std::size_t bucket_count = static_cast<std::size_t>(windows) * per_window;
  if (!kscalars.reserve(n * 32, error) || !keys0.reserve(pairs * 4, error) || !keys1.reserve(pairs * 4, error) ||
      !vals0.reserve(pairs * 4, error) || !vals1.reserve(pairs * 4, error) || !sort_temp.reserve(sort_bytes, error) ||
      !buckets.reserve(bucket_count * sizeof(xyzz_dev), error) || !pkeys0.reserve(threads0 * 2 * 4, error) ||
      !pkeys1.reserve(threads0 * 2 * 4, error) || !ppts0.reserve(threads0 * 2 * sizeof(xyzz_dev), error) ||
      !ppts1.reserve(threads0 * 2 * sizeof(xyzz_dev), error) ||
      !red0.reserve(static_cast<std::size_t>(windows) * segments * sizeof(xyzz_dev), error) ||
      !red1.reserve(static_cast<std::size_t>(windows) * segments * sizeof(xyzz_dev), error))
    return false;

  const int e_start = mark(error);
  canonical_scalars_kernel<<<grid_for(n, block_threads), block_threads, 0, stream>>>(dev_scalars, kscalars.as<uint4>(), n);
  if (!launched("canonical_scalars_kernel", error)) return false;
  if (!ok(cudaMemsetAsync(buckets.ptr(), 0, bucket_count * sizeof(xyzz_dev), stream), "cudaMemsetAsync", error))
    return false;
  const int e_scalars = mark(error);
  prof.scalars_ms = upload_ms_host;
  std::vector<int> ev_digits, ev_sort, ev_aff, ev_acc;
  int prev = e_scalars;

  for (unsigned w0 = 0; w0 < windows; w0 += group) {
    const unsigned g_now = std::min(group, windows - w0);
    const std::size_t count = n * g_now;
    unsigned bits_now = 0;
    while ((1u << bits_now) < g_now) ++bits_now;
    digits_kernel<<<grid_for(n, block_threads), block_threads, 0, stream>>>(kscalars.as<uint4>(), n, plan, w0, g_now,
                                                                            keys0.as<uint32_t>(), vals0.as<uint32_t>());
    if (!launched("digits_kernel", error)) return false;
    const int e_d = mark(error);
    cub::DoubleBuffer<uint32_t> kb(keys0.as<uint32_t>(), keys1.as<uint32_t>());
    cub::DoubleBuffer<uint32_t> vb(vals0.as<uint32_t>(), vals1.as<uint32_t>());
    std::size_t temp = sort_temp.bytes();
    if (!ok(cub::DeviceRadixSort::SortPairs(sort_temp.ptr(), temp, kb, vb, static_cast<int>(count), 0, c + bits_now,
                                            stream),
            "cub::DeviceRadixSort::SortPairs", error))
      return false;
    const int e_s = mark(error);

    // Batch-affine halving rounds (affine_rounds, g2_affine_rounds) shorten the sorted list first
    // (msm_batch_affine.cuh); the accumulation then reads the halved list and its affine array.
    const uint32_t* acc_keys = kb.Current();
    const uint32_t* acc_vals = vb.Current();
    const typename C::affine* acc_pts = bases;
    std::size_t acc_count = count;
    if (rounds > 0 &&
        !halve<C>(c, rounds, acc_keys, acc_vals, kb.Alternate(), vb.Alternate(), acc_pts, acc_count, error))
      return false;
    const int e_h = mark(error);
    prof.sorted_entries += count;
    prof.xyzz_entries += acc_count;

    // Level 0 over (key, base index) pairs, then merge levels over partial sums.
    const bucket_layout<C> lay{c, w0, per_window, buckets.as<xyzz_dev>()};
    std::size_t range = std::max<std::size_t>(4, (acc_count + max_threads - 1) / max_threads);
    std::size_t threads = acc_count ? (acc_count + range - 1) / range : 0;  // 0: every digit was 0
    const unsigned ab = opt.accumulate_block;
    const affine_source<C> src{acc_vals, acc_pts};
    uint32_t* pk = pkeys0.as<uint32_t>();
    xyzz_dev* pp = ppts0.as<xyzz_dev>();
    if (threads > 0) {
      pick_accumulate<C, Mul>(min_blocks)<<<grid_for(threads, ab), ab, 0, stream>>>(
          acc_keys, src, acc_count, range, threads, lay, pk, pp);
      if (!launched("accumulate_kernel", error)) return false;
    }
    scratch* in_k = &pkeys0;
    scratch* in_p = &ppts0;
    scratch* out_k = &pkeys1;
    scratch* out_p = &ppts1;
    while (threads > 1) {
      const std::size_t m = 2 * threads;
      range = merge_fan_in;
      threads = (m + range - 1) / range;
      accumulate_kernel<C, Mul, partial_source<C>, 1><<<grid_for(threads, ab), ab, 0, stream>>>(
          in_k->as<uint32_t>(), partial_source<C>{in_p->as<xyzz_dev>()}, m, range, threads, lay,
          out_k->as<uint32_t>(), out_p->as<xyzz_dev>());
      if (!launched("accumulate_kernel (merge)", error)) return false;
      std::swap(in_k, out_k);
      std::swap(in_p, out_p);
    }
    const int e_a = mark(error);
    ev_digits.push_back(prev), ev_digits.push_back(e_d);
    ev_sort.push_back(e_d), ev_sort.push_back(e_s);
    ev_aff.push_back(e_s), ev_aff.push_back(e_h);
    ev_acc.push_back(e_h), ev_acc.push_back(e_a);
    prev = e_a;
  }

  // Bucket reduction, then tree sums down to <= host_tail_per_window per window.
  auto reduce_kernel = reduce_segments_kernel<C, Mul>;
  if constexpr (!std::is_same_v<C, g2c> && std::is_same_v<Mul, dev::fp_mul_ptx_call>)
    if (opt.reduce_min_blocks == 2) reduce_kernel = reduce_segments_kernel<C, Mul, 2>;
  reduce_kernel<<<grid_for(static_cast<std::size_t>(segments) * windows, block_threads), block_threads, 0, stream>>>(
      buckets.as<xyzz_dev>(), per_window, g, segments, windows, red0.as<xyzz_dev>());
  if (!launched("reduce_segments_kernel", error)) return false;
  unsigned have = segments;
  scratch* rin = &red0;
  scratch* rout = &red1;
  const unsigned host_tail = std::is_same_v<C, g2c> ? host_tail_per_window_g2 : host_tail_per_window;
  while (have > host_tail) {
    const unsigned next = (have + merge_fan_in - 1) / merge_fan_in;
    sum_groups_kernel<C, Mul><<<grid_for(static_cast<std::size_t>(next) * windows, block_threads), block_threads, 0,
                             stream>>>(rin->as<xyzz_dev>(), have, merge_fan_in, next, windows,
                                       rout->as<xyzz_dev>());
    if (!launched("sum_groups_kernel", error)) return false;
    std::swap(rin, rout);
    have = next;
  }
  const int e_reduced = mark(error);
  std::vector<host_xyzz> tail(static_cast<std::size_t>(have) * windows);
  static_assert(sizeof(host_xyzz) == sizeof(xyzz_dev), "host and device XYZZ layouts");
  if (!ok(cudaMemcpyAsync(tail.data(), rin->ptr(), tail.size() * sizeof(xyzz_dev), cudaMemcpyDeviceToHost, stream),
          "copy window sums", error) ||
      !ok(cudaStreamSynchronize(stream), "msm kernels", error))
    return false;
  const int e_end = mark(error);  // recorded after the copy completed

  // Host: per-window sums, then Horner over windows (as many doublings as the window has bits).
  const auto host_start = std::chrono::steady_clock::now();
  std::vector<unsigned> bits(windows);
  for (unsigned w = 0; w < windows; ++w) bits[w] = plan.bits(w);
  out = combine_window_sums<typename host_curve_of<C>::type>(tail, have, bits);
  const double host_ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - host_start).count();

  if (opt.profile) {
    if (!ok(cudaEventSynchronize(events[e_end]), "profile events", error)) return false;
    prof.scalars_ms += between(e_start, e_scalars);
    for (std::size_t i = 0; i < ev_digits.size(); i += 2) {
      prof.digits_ms += between(ev_digits[i], ev_digits[i + 1]);
      prof.sort_ms += between(ev_sort[i], ev_sort[i + 1]);
      prof.affine_ms += between(ev_aff[i], ev_aff[i + 1]);
      prof.accumulate_ms += between(ev_acc[i], ev_acc[i + 1]);
    }
    prof.reduce_ms = between(prev, e_reduced);
    prof.host_ms = between(e_reduced, e_end) + host_ms;
    prof.total_ms = between(e_start, e_end) + host_ms + upload_ms_host;
  }
  return true;
}

// The public entry points, the same for both curves (Bases: g1_ or g2_device_bases).
template <class C, class Bases, class Point>
bool g1_msm_context::impl::msm_device(const Bases& bases, const device_fr_vector& scalars, std::size_t n, Point& out,
                                      std::string& error) {
  return check_sizes(bases.size(), scalars.size(), n, error) &&
         run_configured<C>(static_cast<const typename C::affine*>(bases.device_data()), scalars.device_data(), n, out,
                           error, 0);
}

template <class Bases, class Point>
bool g1_msm_context::impl::msm_host(const Bases& bases, std::span<const ff::fr> scalars, Point& out,
                                    std::string& error) {
  const std::size_t n = scalars.size();
  if (n > bases.size()) {
    error = "msm: more scalars than bases";
    return false;
  }
  if (n >= (std::size_t{1} << 31)) {
    error = "msm: n must be below 2^31";
    return false;
  }
  if (n == 0) {
    out = Point::identity();
    return true;
  }
  const auto t0 = std::chrono::steady_clock::now();
  if (!host_scalars.reserve(n * sizeof(ff::fr), error) ||
      !ok(cudaMemcpyAsync(host_scalars.ptr(), scalars.data(), n * sizeof(ff::fr), cudaMemcpyHostToDevice, stream),
          "copy scalars", error) ||
      !ok(cudaStreamSynchronize(stream), "copy scalars", error))
    return false;
  const double upload_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  return dispatch(bases, host_scalars.as<const ff::fr>(), n, out, error, upload_ms);
}

template <class Bases, class Point>
bool g1_msm_context::impl::msm_density(const Bases& bases, const base::density_bitmap& density,
                                       std::span<const ff::fr> scalars, Point& out, std::string& error) {
  if (scalars.size() != density.size()) {
    error = "msm: density size differs from the scalar count";
    return false;
  }
  // The bases are stored compacted by density (bellperson's parameter layout): the j-th base
  // belongs to the j-th set position, so compacting the scalars makes a dense MSM.
  std::vector<ff::fr> compact;
  compact.reserve(density.count());
  for (std::size_t i = 0; i < scalars.size(); ++i)
    if (density.test(i)) compact.push_back(scalars[i]);
  return msm_host(bases, std::span<const ff::fr>(compact), out, error);
}

// The 0/1 split (msm_binary_split.cuh has the kernels and the costs): classify and gather the rest
// in one pass; when the rest fits its capacity (n / rest_fraction), sum the ones' bases with a
// plain addition pass and run Pippenger on the rest alone; otherwise the plain MSM. The two
// parts are added on the host. One synchronisation for the rest count, one for the ones' sum.
template <class C, class Point>
bool g1_msm_context::impl::msm_binary(const typename C::affine* b, const ff::fr* scalars, std::size_t n, Point& out,
                                      std::string& error) {
  using affine = typename C::affine;
  using xyzz_dev = typename C::xyzz;
  using host_xyzz = ec::xyzz_point<typename host_curve_of<C>::type>;
  using mul = dev::fp_mul_ptx_call;  // the ones' pass and its tree sums: a small share of the time
  if (n < binary_split_min_n) return run_configured<C>(b, scalars, n, out, error, 0);
  const std::size_t capacity = n / binary_split_rest_fraction;
  if (!split_codes.reserve((n + 15) / 16 * 16, error) || !split_count.reserve(sizeof(unsigned long long), error) ||
      !split_bases.reserve(capacity * sizeof(affine), error) ||
      !split_scalars.reserve(capacity * sizeof(ff::fr), error))
    return false;
  binary_split::fr_words one{};
  const ff::fr mont_one = ff::fr::one();
  for (int k = 0; k < 4; ++k) one.w[k] = mont_one.v.w[k];
  unsigned long long rest = 0;
  using clock = std::chrono::steady_clock;
  auto ms_since = [](clock::time_point t) { return std::chrono::duration<double, std::milli>(clock::now() - t).count(); };
  auto t0 = clock::now();
  if (!ok(cudaMemsetAsync(split_count.ptr(), 0, sizeof(unsigned long long), stream), "cudaMemsetAsync", error))
    return false;
  binary_split::classify_gather_kernel<affine><<<grid_for(n, block_threads), block_threads, 0, stream>>>(
      scalars, b, n, one, split_codes.as<uint8_t>(), split_count.as<unsigned long long>(), capacity,
      split_bases.as<affine>(), split_scalars.as<ff::fr>());
  if (!launched("classify_gather_kernel", error) ||
      !ok(cudaMemcpyAsync(&rest, split_count.ptr(), sizeof(rest), cudaMemcpyDeviceToHost, stream), "copy rest count",
          error) ||
      !ok(cudaStreamSynchronize(stream), "classify_gather_kernel", error))
    return false;
  if (rest > capacity) return run_configured<C>(b, scalars, n, out, error, 0);  // not mostly 0/1
  const double classify_ms = ms_since(t0);
  t0 = clock::now();

  // The ones: partial sums over ranges of positions, tree sums down to <= host_tail_per_window.
  const std::size_t threads = std::min<std::size_t>(n, static_cast<std::size_t>(std::max(sm_count, 1)) * 1024);
  const std::size_t range = (n + threads * 16 - 1) / (threads * 16) * 16;  // whole 16-code loads
  const std::size_t used = (n + range - 1) / range;
  if (!split_parts0.reserve(used * sizeof(xyzz_dev), error) || !split_parts1.reserve(used * sizeof(xyzz_dev), error))
    return false;
  // G2 with halving rounds: the ones as a halved list (an affine G2 addition costs ~270 SM-cycles
  // against ~480 for the mixed one); G1 the same with g1_ones_rounds (`cuda_msm_bench binary`).
  // G1 with g1_ones_listed: the ones as a list too, added as listed, so every thread adds the
  // same number of points (the pass over positions gives each lane ~range ones, so a warp waits
  // for its luckiest lane).
  const unsigned list_rounds = std::is_same_v<C, g2c> ? opt.g2_affine_rounds : opt.g1_ones_rounds;
  const bool listed = list_rounds > 0 || (!std::is_same_v<C, g2c> && opt.g1_ones_listed);
  if (listed && !sum_ones_listed<C>(b, n, list_rounds, used, split_parts0.as<xyzz_dev>(), error)) return false;
  if (!listed) {
    binary_split::sum_ones_kernel<C, mul, block_threads, ones_min_blocks<C>>
        <<<grid_for(used, block_threads), block_threads, 0, stream>>>(split_codes.as<uint8_t>(), b, n, range, used,
                                                                        split_parts0.as<xyzz_dev>());
    if (!launched("sum_ones_kernel", error)) return false;
  }
  unsigned have = static_cast<unsigned>(used);
  scratch* rin = &split_parts0;
  scratch* rout = &split_parts1;
  while (have > host_tail_per_window) {
    const unsigned next = (have + merge_fan_in - 1) / merge_fan_in;
    sum_groups_kernel<C, mul><<<grid_for(next, block_threads), block_threads, 0, stream>>>(
        rin->as<xyzz_dev>(), have, merge_fan_in, next, 1, rout->as<xyzz_dev>());
    if (!launched("sum_groups_kernel (ones)", error)) return false;
    std::swap(rin, rout);
    have = next;
  }
  std::vector<host_xyzz> parts(have);
  if (!ok(cudaMemcpyAsync(parts.data(), rin->ptr(), parts.size() * sizeof(xyzz_dev), cudaMemcpyDeviceToHost, stream),
          "copy ones sums", error) ||
      !ok(cudaStreamSynchronize(stream), "sum_ones_kernel", error))
    return false;
  const host_xyzz ones = sum_points<typename host_curve_of<C>::type>(parts);
  const double ones_ms = ms_since(t0);
  t0 = clock::now();

  // The rest through Pippenger over the compact arrays (run resets the profile).
  Point rest_sum;
  if (!run_configured<C>(split_bases.as<const affine>(), split_scalars.as<const ff::fr>(), static_cast<std::size_t>(rest),
                         rest_sum, error, 0))
    return false;
  out = rest_sum + ones.to_jacobian();
  prof.binary_split = true;
  prof.binary_rest = static_cast<std::size_t>(rest);
  prof.binary_classify_ms = classify_ms;
  prof.binary_ones_ms = ones_ms;
  prof.binary_rest_ms = ms_since(t0);
  return true;
}

// The ones' positions (codes of the split) as a (key 1, position) list in position order: word
// counts, their prefix sum (the total copied back: one synchronisation), the list. With rounds
// (G2, or G1 with g1_ones_rounds), chunks of at most affine_max_pairs_per_sort entries: halving
// rounds (each chunk's rounds write the spare list and the chunk's own input range, which nothing
// else reads), and the chunk's remaining entries added into the `parts` partial sums, each part an
// equal share of entries. Scratch: the list twice (keys0 / vals0 and, one chunk long, keys1 /
// vals1, which the rest's Pippenger reuses after) and the halving arrays of one chunk (~192 B per
// entry for G2, ~96 B for G1); without rounds the list once, 8 B per one, in arrays the rest's
// Pippenger needs anyway.
template <class C>
bool g1_msm_context::impl::sum_ones_listed(const typename C::affine* b, std::size_t n, unsigned rounds,
                                           std::size_t parts, typename C::xyzz* out, std::string& error) {
  using xyzz_dev = typename C::xyzz;
  const std::size_t words = (n + 15) / 16;
  uint32_t ones = 0;
  if (!ok(cudaMemsetAsync(out, 0, parts * sizeof(xyzz_dev), stream), "cudaMemsetAsync (ones sums)", error) ||
      !count_and_scan(words + 1, ones, error, [&](uint32_t* counts) {
        binary_split::count_ones_kernel<<<grid_for(words + 1, block_threads), block_threads, 0, stream>>>(
            split_codes.as<uint8_t>(), n, words, counts);
        return launched("count_ones_kernel", error);
      }))
    return false;
  if (ones == 0) return true;
  // Without rounds the whole list is one chunk and needs no spare arrays.
  const std::size_t chunk = rounds > 0 ? std::min<std::size_t>(ones, opt.affine_max_pairs_per_sort) : ones;
  if (!keys0.reserve(std::size_t{ones} * 4, error) || !vals0.reserve(std::size_t{ones} * 4, error) ||
      (rounds > 0 && (!keys1.reserve(chunk * 4, error) || !vals1.reserve(chunk * 4, error))))
    return false;
  binary_split::list_ones_kernel<<<grid_for(words, block_threads), block_threads, 0, stream>>>(
      split_codes.as<uint8_t>(), n, words, halve_offsets.as<uint32_t>(), keys0.as<uint32_t>(), vals0.as<uint32_t>());
  if (!launched("list_ones_kernel", error)) return false;
  for (std::size_t s = 0; s < ones; s += chunk) {
    const uint32_t* keys = keys0.as<uint32_t>() + s;
    const uint32_t* vals = vals0.as<uint32_t>() + s;
    const typename C::affine* pts = b;
    std::size_t count = std::min<std::size_t>(chunk, ones - s);
    if (rounds > 0 &&
        !halve<C>(1, rounds, keys, vals, keys1.as<uint32_t>(), vals1.as<uint32_t>(), pts, count, error))
      return false;
    if (count == 0) continue;
    const std::size_t range = (count + parts - 1) / parts;
    binary_split::add_listed_kernel<C, dev::fp_mul_ptx_call, block_threads, ones_min_blocks<C>>
        <<<grid_for(parts, block_threads), block_threads, 0, stream>>>(vals, pts, count, range, parts, out);
    if (!launched("add_listed_kernel", error)) return false;
  }
  return true;
}

// Streamed bases (pinned_bases): chunk k's points are copied on copy_stream into chunk_bases[k % 2]
// while chunk k - 1's MSM runs on `stream`. Each chunk is a whole MSM (its own window plan; the
// 0/1 split when mostly_binary) and the chunk sums are added on the host. Every chunk MSM ends in
// a stream synchronisation, so when chunk k + 1's copy is queued, the buffer it overwrites (chunk
// k - 1's) is no longer read. Costs beside the resident path: each chunk pays its own digits, sort
// and reduction, and the first chunk's copy is not overlapped (docs/gpu.md, "Streamed bases").
template <class C, class Bases, class Point>
bool g1_msm_context::impl::msm_streamed(const Bases& bases, const device_fr_vector& scalars, std::size_t n,
                                        bool mostly_binary, Point& out, std::string& error) {
  using affine = typename C::affine;
  using clock = std::chrono::steady_clock;
  out = Point::identity();
  prof = {};
  if (!check_sizes(bases.size(), scalars.size(), n, error)) return false;
  if (n == 0) return true;
  const std::size_t chunk = std::min(
      n, opt.stream_chunk_points ? opt.stream_chunk_points
                                 : (std::is_same_v<C, g2c> ? default_stream_chunk_g2 : default_stream_chunk_g1));
  const std::size_t chunks = (n + chunk - 1) / chunk;
  if (!copy_stream) {
    if (!ok(cudaStreamCreateWithFlags(&copy_stream, cudaStreamNonBlocking), "cudaStreamCreate (bases copies)", error))
      return false;
    for (cudaEvent_t& e : chunk_copied)
      if (!ok(cudaEventCreateWithFlags(&e, cudaEventDisableTiming), "cudaEventCreate", error)) return false;
  }
  for (std::size_t i = 0; i < std::min<std::size_t>(chunks, 2); ++i)
    if (!chunk_bases[i].reserve(chunk * sizeof(affine), error)) return false;
  // Nothing may still read a chunk buffer (kernels of an earlier call that failed midway) when
  // copies into it are queued, and no copy may still read the caller's pinned memory on return.
  if (!ok(cudaStreamSynchronize(stream), "msm stream", error)) return false;
  struct drain {
    cudaStream_t s;
    ~drain() { cudaStreamSynchronize(s); }
  } drain_copies{copy_stream};
  const auto* host = static_cast<const affine*>(bases.host_data());
  auto queue_copy = [&](std::size_t k) {
    const std::size_t off = k * chunk, m = std::min(chunk, n - off);
    return ok(cudaMemcpyAsync(chunk_bases[k % 2].ptr(), host + off, m * sizeof(affine), cudaMemcpyHostToDevice,
                              copy_stream),
              "copy bases chunk", error) &&
           ok(cudaEventRecord(chunk_copied[k % 2], copy_stream), "cudaEventRecord", error);
  };
  if (!queue_copy(0)) return false;
  double wait_ms = 0;
  for (std::size_t k = 0; k < chunks; ++k) {
    if (k + 1 < chunks && !queue_copy(k + 1)) return false;
    const auto t0 = clock::now();
    if (!ok(cudaEventSynchronize(chunk_copied[k % 2]), "copy bases chunk", error)) return false;
    wait_ms += std::chrono::duration<double, std::milli>(clock::now() - t0).count();
    const std::size_t off = k * chunk, m = std::min(chunk, n - off);
    const affine* b = chunk_bases[k % 2].as<const affine>();
    const ff::fr* s = scalars.device_data() + off;
    Point part;
    if (!(mostly_binary ? msm_binary<C>(b, s, m, part, error) : run_configured<C>(b, s, m, part, error, 0)))
      return false;
    out = out + part;
  }
  prof.stream_chunks = chunks;
  prof.stream_wait_ms = wait_ms;
  return true;
}

bool g1_msm_context::msm_mostly_binary(const g1_device_bases& bases, const device_fr_vector& scalars, std::size_t n,
                                       ec::g1_jacobian& out, std::string& error) {
  impl_->prof.binary_split = false;
  return impl_->msm_binary_checked<g1c>(bases, scalars, n, out, error);
}
bool g1_msm_context::msm_mostly_binary(const g2_device_bases& bases, const device_fr_vector& scalars, std::size_t n,
                                       ec::g2_jacobian& out, std::string& error) {
  impl_->prof.binary_split = false;
  return impl_->msm_binary_checked<g2c>(bases, scalars, n, out, error);
}
bool g1_msm_context::msm(const g1_pinned_bases& bases, const device_fr_vector& scalars, std::size_t n,
                         ec::g1_jacobian& out, std::string& error) {
  return impl_->msm_streamed<g1c>(bases, scalars, n, false, out, error);
}
bool g1_msm_context::msm(const g2_pinned_bases& bases, const device_fr_vector& scalars, std::size_t n,
                         ec::g2_jacobian& out, std::string& error) {
  return impl_->msm_streamed<g2c>(bases, scalars, n, false, out, error);
}
bool g1_msm_context::msm_mostly_binary(const g1_pinned_bases& bases, const device_fr_vector& scalars, std::size_t n,
                                       ec::g1_jacobian& out, std::string& error) {
  return impl_->msm_streamed<g1c>(bases, scalars, n, true, out, error);
}
bool g1_msm_context::msm_mostly_binary(const g2_pinned_bases& bases, const device_fr_vector& scalars, std::size_t n,
                                       ec::g2_jacobian& out, std::string& error) {
  return impl_->msm_streamed<g2c>(bases, scalars, n, true, out, error);
}

bool g1_msm_context::msm(const g1_device_bases& bases, const device_fr_vector& scalars, std::size_t n,
                         ec::g1_jacobian& out, std::string& error) {
  return impl_->msm_device<g1c>(bases, scalars, n, out, error);
}
bool g1_msm_context::msm(const g1_device_bases& bases, std::span<const ff::fr> scalars, ec::g1_jacobian& out,
                         std::string& error) {
  return impl_->msm_host(bases, scalars, out, error);
}
bool g1_msm_context::msm(const g1_device_bases& bases, const base::density_bitmap& density,
                         std::span<const ff::fr> scalars, ec::g1_jacobian& out, std::string& error) {
  return impl_->msm_density(bases, density, scalars, out, error);
}
bool g1_msm_context::msm(const g2_device_bases& bases, const device_fr_vector& scalars, std::size_t n,
                         ec::g2_jacobian& out, std::string& error) {
  return impl_->msm_device<g2c>(bases, scalars, n, out, error);
}
bool g1_msm_context::msm(const g2_device_bases& bases, std::span<const ff::fr> scalars, ec::g2_jacobian& out,
                         std::string& error) {
  return impl_->msm_host(bases, scalars, out, error);
}
bool g1_msm_context::msm(const g2_device_bases& bases, const base::density_bitmap& density,
                         std::span<const ff::fr> scalars, ec::g2_jacobian& out, std::string& error) {
  return impl_->msm_density(bases, density, scalars, out, error);
}

}  // namespace cuzk::cuda
