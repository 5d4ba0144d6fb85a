// Device Fr NTTs and the h pipeline (ntt_cuda.hpp has the design; docs/gpu.md the numbers).
#include "backend/cuda/ntt_cuda.hpp"

#include <cuda_runtime.h>

#include <algorithm>
#include <type_traits>
#include <utility>

#include "backend/cuda/cuda_status.cuh"
#include "backend/cuda/fr_device.cuh"
#include "poly/domain.hpp"

namespace cuzk::cuda {

namespace {

using dev::fr32;

constexpr unsigned max_threads = 256;        // per pass block: 2^(K-3) * L
constexpr unsigned max_tile_log = 11;        // 2^K * L <= 2048 elements (8 per thread)
constexpr unsigned table_log_cap = 15;       // coset power tables: 2^15 entries each
constexpr std::size_t pass_smem_bytes = (std::size_t{1} << max_tile_log) * 9 / 8 * 32;  // 73,728


__host__ __device__ inline uint32_t bit_reverse32(uint32_t x, unsigned log_n) {
  if (log_n == 0) return 0;
#if defined(__CUDA_ARCH__)
  return __brev(x) >> (32 - log_n);
#else
  return static_cast<uint32_t>(poly::bit_reverse(x, log_n));
#endif
}

// ---------------------------------------------------------------------------------------------
// Per-element factors folded into a pass: scale, or scale * g^k with k the element's position
// or its bit reversal (coefficient k of a bit-reversed vector sits at position rev(k)).
// ---------------------------------------------------------------------------------------------
enum : uint32_t { factor_none = 0, factor_scale = 1, factor_powers = 2, factor_ab = 3 };

struct factor_desc {
  uint32_t mode = factor_none;
  uint32_t bitrev = 0;
  uint32_t lo_bits = 0;
  const ff::fr* lo = nullptr;  // lo[x] = g^x, x < 2^lo_bits
  const ff::fr* hi = nullptr;  // hi[y] = scale * g^(y 2^lo_bits); factor_scale: hi[0] = scale
};

// x * factor(pos). Cost: 1M (scale) or 2M (powers: lo * hi, then x * that).
template <class Mul>
__device__ __forceinline__ fr32 apply_factor(const factor_desc& f, const fr32& x, uint32_t pos, unsigned log_n) {
  if (f.mode == factor_scale) return Mul::mul(x, dev::load_ro(f.hi));
  const uint32_t k = f.bitrev ? bit_reverse32(pos, log_n) : pos;
  const fr32 w = Mul::mul(dev::load_ro(f.lo + (k & ((1u << f.lo_bits) - 1))), dev::load_ro(f.hi + (k >> f.lo_bits)));
  return Mul::mul(x, w);
}

// ---------------------------------------------------------------------------------------------
// One pass: K radix-2 stages over tiles of 2^K x L elements.
//
// Element position = base + mid * 2^(s-K) + l  (columns l < L inside one row of length 2^(s-K)),
// or, in the last DIF / first DIT pass (s == K): base + l * 2^K + mid ("l-major"). The K stages
// act on the K bits of mid. A thread holds 2^RB elements (8 by default) whose mid differ in RB
// bits (p-RB+1..p) and does those RB stages in registers; between such rounds the tile goes
// through shared memory (two 16-byte planes, one 16-byte pad per 8 elements: conflict-free for
// the strides used with 8 elements per thread).
// ---------------------------------------------------------------------------------------------
struct pass_desc {
  const ff::fr* tw = nullptr;  // tw[x] = w_N^x, x < N/2, N = 2^tw_log
  uint32_t tw_log = 0;
  uint32_t log_n = 0;
  uint32_t s = 0;  // this pass covers element bits [s - k, s)
  uint32_t k = 0;  // 3 <= k, 2^k * L <= 2^max_tile_log
  uint32_t log_l = 0;
  uint32_t inverse = 0;
  factor_desc load, store;
  const ff::fr* b = nullptr;  // load.mode == factor_ab: x = a * b
};

// An element from the two 16-byte shared-memory planes.
__device__ __forceinline__ fr32 from_planes(const uint4* plane0, const uint4* plane1, uint32_t i) {
  const uint4 u = plane0[i], v = plane1[i];
  return {{u.x, u.y, u.z, u.w, v.x, v.y, v.z, v.w}};
}

// MinBlocks 2 (the default) caps the registers at 128 (16 warps per SM; without a cap ptxas may
// take more and fit only one block); 3 caps them at 85 (24 warps, with spills), for the sweep.
// RB: register bits per round, a thread holds 2^RB elements (3: 8 elements, 3 stages per
// exchange; 2: 4 elements, 2 stages per exchange, half the registers for more warps per SM).
template <bool Dit, class Mul, int MinBlocks = 2, int RB = 3>
__global__ void __launch_bounds__(max_threads, MinBlocks) ntt_pass_kernel(ff::fr* __restrict__ data, const pass_desc d) {
  constexpr uint32_t E = 1u << RB;
  extern __shared__ uint4 smem[];
  const uint32_t K = d.k, log_l = d.log_l, cbits = K - RB;
  const uint32_t tid = threadIdx.x;
  const bool lmajor = d.s == K;
  uint32_t c, l, base, mstride_log, lstride_log;
  if (lmajor) {
    c = tid & ((1u << cbits) - 1);
    l = tid >> cbits;
    base = blockIdx.x << (K + log_l);
    mstride_log = 0;
    lstride_log = K;
  } else {
    l = tid & ((1u << log_l) - 1);
    c = tid >> log_l;
    const uint32_t row_log = d.s - K;  // 2^row_log columns; tiles take L of them
    const uint32_t chunks_log = row_log - log_l;
    base = ((blockIdx.x >> chunks_log) << d.s) + ((blockIdx.x & ((1u << chunks_log) - 1)) << log_l);
    mstride_log = row_log;
    lstride_log = 0;
  }
  const uint32_t tile = 1u << (K + log_l);
  uint4* plane0 = smem;
  uint4* plane1 = smem + tile + (tile >> 3);
  const uint32_t t_off = d.s - K;  // element bit of mid bit 0

  fr32 x[E];
  int top = static_cast<int>(K) - 1;  // DIF: highest mid bit not yet done
  int bottom = 0;                      // DIT: lowest mid bit not yet done
  bool first = true;
  for (;;) {
    uint32_t p, qlo;  // registers hold mid bits p-(RB-1)..p; stages on register bits qlo..qhi
    uint32_t qhi = RB - 1;
    if (!Dit) {
      if (top >= static_cast<int>(RB) - 1) {
        p = top, qlo = 0;
        top -= RB;
      } else {
        p = RB - 1, qlo = 0, qhi = top;
        top = -1;
      }
    } else {
      if (bottom + static_cast<int>(RB) - 1 <= static_cast<int>(K) - 1) {
        p = bottom + RB - 1, qlo = 0;
        bottom += RB;
      } else {
        p = K - 1, qlo = bottom - (K - RB);
        bottom = K;
      }
    }
    const bool last = Dit ? bottom >= static_cast<int>(K) : top < 0;
    const uint32_t low_bits = p - (RB - 1);
    const uint32_t c_low = c & ((1u << low_bits) - 1), c_high = c >> low_bits;
    uint32_t mid[E];
#pragma unroll
    for (uint32_t e = 0; e < E; ++e) mid[e] = (c_high << (p + 1)) | (e << low_bits) | c_low;
    auto pos_of = [&](uint32_t m) { return base + (m << mstride_log) + (l << lstride_log); };
    // Shared-memory slot of tile element i: 16-byte accesses of 8 lanes at a time must hit 8
    // distinct bank groups. 8 elements per thread: one pad per 8 slots. 4 elements per thread:
    // the pad leaves 20-33% extra wavefronts in some rounds, the swizzle i ^ (bits 2..4 of i) none
    // (counted by simulating every round's lane addresses for K = 5..10 and L = 1, 2, 4).
    auto sidx = [&](uint32_t m) {
      const uint32_t i = lmajor ? ((l << K) | m) : ((m << log_l) | l);
      if constexpr (RB == 2) return i ^ ((i >> 2) & 7u);
      else return i + (i >> 3);
    };

    if (first) {
#pragma unroll
      for (uint32_t e = 0; e < E; ++e) {
        const uint32_t pos = pos_of(mid[e]);
        if (d.load.mode == factor_ab) {
          x[e] = Mul::mul(dev::load(data + pos), dev::load_ro(d.b + pos));
        } else {
          x[e] = dev::load(data + pos);
          if (d.load.mode != factor_none) x[e] = apply_factor<Mul>(d.load, x[e], pos, d.log_n);
        }
      }
      first = false;
    } else {
#pragma unroll
      for (uint32_t e = 0; e < E; ++e) x[e] = from_planes(plane0, plane1, sidx(mid[e]));
    }

    // Up to RB radix-2 stages on register bits q (DIF: RB-1 .. 0; DIT: 0 .. RB-1).
#pragma unroll
    for (int qi = 0; qi < static_cast<int>(RB); ++qi) {
      const uint32_t q = Dit ? qi : RB - 1 - qi;
      if (q < qlo || q > qhi) continue;
      const uint32_t t = low_bits + q + t_off;  // element bit: butterfly span m = 2^t
      const uint32_t m = 1u << t;
      const uint32_t sh = d.tw_log - 1 - t;
#pragma unroll
      for (uint32_t e = 0; e < E; ++e) {
        if (e & (1u << q)) continue;
        fr32& u = x[e];
        fr32& v = x[e | (1u << q)];
        const uint32_t j = pos_of(mid[e]) & (m - 1);
        // Inverse twiddle w_{2m}^-j = -w_{2m}^(m-j): read tw[m - j] and swap the two outputs.
        const bool flip = d.inverse && j != 0;
        const uint32_t widx = (flip ? m - j : j) << sh;
        if (!Dit) {
          // Gentleman-Sande: (u, v) <- (u + v, (u - v) w). 1M + 2A.
          const fr32 s = dev::add(u, v);
          const fr32 diff = flip ? dev::sub(v, u) : dev::sub(u, v);
          v = j ? Mul::mul(diff, dev::load_ro(d.tw + widx)) : diff;
          u = s;
        } else {
          // Cooley-Tukey: (u, v) <- (u + v w, u - v w). 1M + 2A.
          const fr32 tv = j ? Mul::mul(v, dev::load_ro(d.tw + widx)) : v;
          const fr32 s = dev::add(u, tv), df = dev::sub(u, tv);
          u = flip ? df : s;
          v = flip ? s : df;
        }
      }
    }

    if (last) {
#pragma unroll
      for (uint32_t e = 0; e < E; ++e) {
        const uint32_t pos = pos_of(mid[e]);
        if (d.store.mode != factor_none) x[e] = apply_factor<Mul>(d.store, x[e], pos, d.log_n);
        dev::store(data + pos, x[e]);
      }
      return;
    }
    __syncthreads();  // the previous exchange has been read by every thread
#pragma unroll
    for (uint32_t e = 0; e < E; ++e) {
      const uint32_t i = sidx(mid[e]);
      plane0[i] = make_uint4(x[e].v[0], x[e].v[1], x[e].v[2], x[e].v[3]);
      plane1[i] = make_uint4(x[e].v[4], x[e].v[5], x[e].v[6], x[e].v[7]);
    }
    __syncthreads();
  }
}

// ---------------------------------------------------------------------------------------------
// Small kernels: tables, bit reversal, reference (slow twin) stages, pointwise, self-tests.
// ---------------------------------------------------------------------------------------------

// lo[x] = g^x (x < lo_n); hi[y] = scale * g^(y << lo_bits) (y < hi_n). Exponentiation per entry.
__global__ void power_tables_kernel(ff::fr* lo, ff::fr* hi, ff::fr g, ff::fr scale, uint32_t lo_bits, uint32_t lo_n,
                                    uint32_t hi_n) {
  const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < lo_n) {
    lo[i] = g.pow_u64(i);
  } else if (i - lo_n < hi_n) {
    const uint32_t y = i - lo_n;
    hi[y] = scale * g.pow_u64(static_cast<uint64_t>(y) << lo_bits);
  }
}

// tw[x] = lo[x & mask] * hi[x >> lo_bits] for x < count.
__global__ void twiddle_kernel(ff::fr* tw, const ff::fr* lo, const ff::fr* hi, uint32_t lo_bits, uint32_t count) {
  const uint32_t x = blockIdx.x * blockDim.x + threadIdx.x;
  if (x < count) tw[x] = lo[x & ((1u << lo_bits) - 1)] * hi[x >> lo_bits];
}

// a <- a permuted to the other order; with `sub`, a[i] <- a[r] - sub[r] (r = rev(i)): the
// subtraction rides on the permutation's loads (one more read, no more passes).
__global__ void bit_reverse_kernel(ff::fr* a, const ff::fr* sub, uint32_t log_n) {
  const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if ((i >> log_n) != 0) return;
  const uint32_t r = bit_reverse32(i, log_n);
  if (i > r) return;
  fr32 u = dev::load(a + i), v = dev::load(a + r);
  if (sub != nullptr) u = dev::sub(u, dev::load_ro(sub + i)), v = dev::sub(v, dev::load_ro(sub + r));
  dev::store(a + i, v);
  if (i != r) dev::store(a + r, u);
}

// Reference stage (portable arithmetic, twiddle by exponentiation): span m = 2^t, w2m a
// primitive 2m-th root (its inverse for inverse transforms). One thread per butterfly.
template <bool Dit>
__global__ void reference_stage_kernel(ff::fr* a, uint32_t log_n, uint32_t t, ff::fr w2m) {
  const uint32_t b = blockIdx.x * blockDim.x + threadIdx.x;
  if (log_n == 0 || (b >> (log_n - 1)) != 0) return;
  const uint32_t m = 1u << t, j = b & (m - 1);
  const uint32_t i = ((b >> t) << (t + 1)) | j;
  const ff::fr w = w2m.pow_u64(j);
  const ff::fr u = a[i], v = a[i + m];
  if (!Dit) {
    a[i] = u + v;
    a[i + m] = (u - v) * w;
  } else {
    const ff::fr tv = v * w;
    a[i] = u + tv;
    a[i + m] = u - tv;
  }
}

// a[pos] *= scale * g^k, k = pos or rev(pos). Portable arithmetic, exponentiation per element.
__global__ void reference_scale_kernel(ff::fr* a, uint32_t log_n, ff::fr g, ff::fr scale, uint32_t bitrev) {
  const uint32_t pos = blockIdx.x * blockDim.x + threadIdx.x;
  if ((pos >> log_n) != 0) return;
  const uint32_t k = bitrev ? bit_reverse32(pos, log_n) : pos;
  a[pos] = a[pos] * (scale * g.pow_u64(k));
}

// a = (a * b - c) * z_inv (bellperson's mul_assign, sub_assign, divide_by_z_on_coset).
__global__ void reference_pointwise_kernel(ff::fr* a, const ff::fr* b, const ff::fr* c, ff::fr z_inv, uint32_t n) {
  const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) a[i] = (a[i] * b[i] - c[i]) * z_inv;
}

// splitmix64-style hash of (seed, index, limb): values with the top 2 bits clear (< 2^254 < r).
__device__ __forceinline__ uint64_t mix64(uint64_t z) {
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}
__global__ void fill_random_kernel(ff::fr* a, std::size_t n, uint64_t seed) {
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= n) return;
  ff::fr x;
  for (int w = 0; w < 4; ++w) x.v.w[w] = mix64(seed + 0x9e3779b97f4a7c15ULL * (4 * i + w + 1));
  x.v.w[3] &= ~uint64_t{0} >> 2;
  a[i] = x;
}

__global__ void fr_selftest_kernel(const ff::fr* a, const ff::fr* b, ff::fr* mul_ptx, ff::fr* mul_portable,
                                   ff::fr* mul_cios, ff::fr* mul_wide, ff::fr* sum, ff::fr* diff, uint32_t n) {
  const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const fr32 x = dev::load(a + i), y = dev::load(b + i);
  dev::store(mul_ptx + i, dev::fr_mul_ptx::mul(x, y));
  dev::store(mul_portable + i, dev::fr_mul_portable::mul(x, y));
  dev::store(mul_cios + i, dev::fr_mul_cios::mul(x, y));
  dev::store(mul_wide + i, dev::fr_mul_wide::mul(x, y));
  dev::store(sum + i, dev::add(x, y));
  dev::store(diff + i, dev::sub(x, y));
}

template <class Mul>
__global__ void mul_rate_kernel(ff::fr* a, uint32_t length) {
  const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  fr32 x = dev::load(a + i), y = dev::load(a + (i ^ 1));
  for (uint32_t r = 0; r < length; r += 2) {
    x = Mul::mul(x, y);
    y = Mul::mul(y, x);
  }
  dev::store(a + i, dev::add(x, y));
}

unsigned grid_for(std::size_t n, unsigned threads) { return static_cast<unsigned>((n + threads - 1) / threads); }

unsigned log2_exact(std::size_t n) {
  unsigned k = 0;
  while ((std::size_t{1} << k) < n) ++k;
  return k;
}

// w_{2^k}: a primitive 2^k-th root of unity, bellperson's (7^t squared 32 - k times).
ff::fr root_of_unity(unsigned k) {
  ff::fr w = poly::fr_root_of_unity_2_32;
  for (unsigned i = k; i < 32; ++i) w = w * w;
  return w;
}

struct pass_shape {
  uint32_t s, k, log_l, grid, threads;
};

}  // namespace

// ---------------------------------------------------------------------------------------------
// device_fr_vector
// ---------------------------------------------------------------------------------------------
bool device_fr_vector::resize(std::size_t n, std::string& error) {
  if (n == size() && mem_.get()) return true;
  mem_.reset();
  return n == 0 || allocate_device(mem_, n, n * sizeof(ff::fr), "cudaMalloc (device_fr_vector)", error);
}
bool device_fr_vector::upload(std::span<const ff::fr> src, std::string& error) {
  if (!resize(src.size(), error)) return false;
  if (src.empty()) return true;
  return ok(cudaMemcpy(device_data(), src.data(), src.size() * sizeof(ff::fr), cudaMemcpyHostToDevice), "upload",
            error);
}
bool device_fr_vector::download(std::span<ff::fr> dst, std::string& error) const {
  if (dst.size() > size()) {
    error = "device_fr_vector::download: destination larger than the vector";
    return false;
  }
  if (dst.empty()) return ok(cudaDeviceSynchronize(), "download (synchronize)", error);
  return ok(cudaMemcpy(dst.data(), device_data(), dst.size() * sizeof(ff::fr), cudaMemcpyDeviceToHost), "download",
            error);
}
bool device_fr_vector::fill_random(uint64_t seed, std::string& error) {
  if (size() == 0) return true;
  fill_random_kernel<<<grid_for(size(), 256), 256>>>(device_data(), size(), seed);
  return launched("fill_random_kernel", error) && ok(cudaDeviceSynchronize(), "fill_random", error);
}

// ---------------------------------------------------------------------------------------------
// ntt_context
// ---------------------------------------------------------------------------------------------
struct ntt_context::impl {
  unsigned max_log = 0;
  ntt_options opt;
  cudaStream_t stream = nullptr;
  cudaEvent_t ev_start = nullptr, ev_stop = nullptr;
  ff::fr* tw = nullptr;      // 2^(max_log - 1) entries
  ff::fr* tables = nullptr;  // load lo, load hi, store lo, store hi: 2^table_log_cap each

  ~impl() {
    if (tw) cudaFree(tw);
    if (tables) cudaFree(tables);
    if (ev_start) cudaEventDestroy(ev_start);
    if (ev_stop) cudaEventDestroy(ev_stop);
    if (stream) cudaStreamDestroy(stream);
  }

  ff::fr* table(unsigned which) const { return tables + (std::size_t{which} << table_log_cap); }

  // Fills the load (slot 0) or store (slot 1) tables for factor scale * g^k on 2^log_n elements.
  bool make_factor(factor_desc& f, unsigned slot, const ff::fr& g, const ff::fr& scale, bool powers, bool bitrev,
                   unsigned log_n, std::string& error) {
    f.lo = table(2 * slot);
    f.hi = table(2 * slot + 1);
    f.bitrev = bitrev;
    f.mode = powers ? factor_powers : factor_scale;
    f.lo_bits = powers ? (log_n + 1) / 2 : 0;
    const uint32_t lo_n = powers ? 1u << f.lo_bits : 0;
    const uint32_t hi_n = powers ? 1u << (log_n - f.lo_bits) : 1;
    power_tables_kernel<<<grid_for(lo_n + hi_n, 128), 128, 0, stream>>>(const_cast<ff::fr*>(f.lo),
                                                                          const_cast<ff::fr*>(f.hi), g, scale,
                                                                          f.lo_bits, lo_n, hi_n);
    return launched("power_tables_kernel", error);
  }

  // ept: the elements per thread of the kernel that will run (8 for the multipliers other than
  // ptx32, which have only that kernel).
  std::vector<pass_shape> plan(unsigned log_n, bool dit, unsigned ept) const {
    const unsigned passes = ntt_pass_count(opt, log_n);
    std::vector<pass_shape> out;
    unsigned done = 0;  // stages planned so far (from the top for DIF, the bottom for DIT)
    for (unsigned i = 0; i < passes; ++i) {
      const unsigned k = log_n / passes + (i < log_n % passes ? 1 : 0);
      const unsigned s = dit ? done + k : log_n - done;
      done += k;
      const bool lmajor = s == k;
      unsigned log_l = log2_exact(ntt_lanes(opt, log_n));
      // 2^k L elements per tile, 2^rb per thread, at most 256 threads.
      const unsigned rb = ept == 4 ? 2 : 3;
      log_l = std::min(log_l, max_tile_log - (3 - rb) - k);
      log_l = std::min(log_l, lmajor ? log_n - k : s - k);          // L columns exist
      out.push_back({s, k, log_l, 1u << (log_n - k - log_l), 1u << (k - rb + log_l)});
    }
    return out;
  }

  template <class Mul>
  bool run_passes(ff::fr* a, unsigned log_n, bool dit, bool inverse, const factor_desc& load,
                  const factor_desc& store, const ff::fr* b, std::string& error) {
    const unsigned ept = std::is_same_v<Mul, dev::fr_mul_ptx> ? opt.elements_per_thread : 8;
    const std::vector<pass_shape> shapes = plan(log_n, dit, ept);
    for (std::size_t i = 0; i < shapes.size(); ++i) {
      const pass_shape& sh = shapes[i];
      pass_desc d;
      d.tw = tw;
      d.tw_log = max_log;
      d.log_n = log_n;
      d.s = sh.s;
      d.k = sh.k;
      d.log_l = sh.log_l;
      d.inverse = inverse;
      if (i == 0) d.load = load, d.b = b;
      if (i + 1 == shapes.size()) d.store = store;
      const std::size_t smem = (std::size_t{1} << (sh.k + sh.log_l)) * 9 / 8 * 32;
      auto kernel = dit ? ntt_pass_kernel<true, Mul> : ntt_pass_kernel<false, Mul>;
      if constexpr (std::is_same_v<Mul, dev::fr_mul_ptx>) {  // the sweep's variants: default multiplier only
        const unsigned mb = opt.min_blocks;
        if (ept == 8 && mb == 3) kernel = dit ? ntt_pass_kernel<true, Mul, 3> : ntt_pass_kernel<false, Mul, 3>;
        if (ept == 4 && mb <= 3) kernel = dit ? ntt_pass_kernel<true, Mul, 3, 2> : ntt_pass_kernel<false, Mul, 3, 2>;
        if (ept == 4 && mb == 4) kernel = dit ? ntt_pass_kernel<true, Mul, 4, 2> : ntt_pass_kernel<false, Mul, 4, 2>;
      }
      kernel<<<sh.grid, sh.threads, smem, stream>>>(a, d);
      if (!launched("ntt_pass_kernel", error)) return false;
    }
    return true;
  }

  bool passes(ff::fr* a, unsigned log_n, bool dit, bool inverse, const factor_desc& load, const factor_desc& store,
              const ff::fr* b, std::string& error) {
    switch (opt.mul) {
      case fr_mul_kernel::ptx32: return run_passes<dev::fr_mul_ptx>(a, log_n, dit, inverse, load, store, b, error);
      case fr_mul_kernel::cios32: return run_passes<dev::fr_mul_cios>(a, log_n, dit, inverse, load, store, b, error);
      case fr_mul_kernel::wide32: return run_passes<dev::fr_mul_wide>(a, log_n, dit, inverse, load, store, b, error);
      case fr_mul_kernel::portable64: break;
    }
    return run_passes<dev::fr_mul_portable>(a, log_n, dit, inverse, load, store, b, error);
  }

  bool bit_reverse(ff::fr* a, unsigned log_n, std::string& error, const ff::fr* sub = nullptr) {
    bit_reverse_kernel<<<grid_for(std::size_t{1} << log_n, 256), 256, 0, stream>>>(a, sub, log_n);
    return launched("bit_reverse_kernel", error);
  }

  // The fast path. Coefficient-side powers: forward input, inverse output.
  bool fast(ff::fr* a, unsigned log_n, poly::ntt_direction dir, poly::ntt_order order, bool coset,
            std::string& error) {
    const poly::radix2_domain dom = poly::radix2_domain::of_log_size(log_n);
    factor_desc load, store;
    const bool inverse = dir == poly::ntt_direction::inverse;
    const bool dit = order == poly::ntt_order::bit_reversed_to_natural;
    if (!inverse) {
      if (coset && !make_factor(load, 0, dom.coset_generator(), ff::fr::one(), true, dit, log_n, error)) return false;
    } else {
      // The output of DIF (NR, and NN before its permutation) is bit-reversed.
      if (coset) {
        if (!make_factor(store, 1, dom.coset_generator_inv(), dom.size_inv(), true, !dit, log_n, error)) return false;
      } else if (!make_factor(store, 1, ff::fr::one(), dom.size_inv(), false, false, log_n, error)) {
        return false;
      }
    }
    if (!passes(a, log_n, dit, inverse, load, store, nullptr, error)) return false;
    if (order == poly::ntt_order::natural_to_natural) return bit_reverse(a, log_n, error);
    return true;
  }

  // The slow twin: radix-2 stages straight from the definitions, separate scaling passes.
  bool reference(ff::fr* a, unsigned log_n, poly::ntt_direction dir, poly::ntt_order order, bool coset,
                 std::string& error) {
    const poly::radix2_domain dom = poly::radix2_domain::of_log_size(log_n);
    const std::size_t n = std::size_t{1} << log_n;
    const bool inverse = dir == poly::ntt_direction::inverse;
    const bool dit = order == poly::ntt_order::bit_reversed_to_natural;
    if (!inverse && coset) {
      reference_scale_kernel<<<grid_for(n, 128), 128, 0, stream>>>(a, log_n, dom.coset_generator(), ff::fr::one(),
                                                                   dit);
      if (!launched("reference_scale_kernel", error)) return false;
    }
    for (unsigned i = 0; i < log_n; ++i) {
      const unsigned t = dit ? i : log_n - 1 - i;
      ff::fr w = root_of_unity(t + 1);
      if (inverse) w = w.inverse();
      if (dit)
        reference_stage_kernel<true><<<grid_for(n / 2, 128), 128, 0, stream>>>(a, log_n, t, w);
      else
        reference_stage_kernel<false><<<grid_for(n / 2, 128), 128, 0, stream>>>(a, log_n, t, w);
      if (!launched("reference_stage_kernel", error)) return false;
    }
    if (order == poly::ntt_order::natural_to_natural && !bit_reverse(a, log_n, error)) return false;
    if (inverse) {
      // Output coefficients: natural for NN and RN, bit-reversed for NR.
      const bool out_bitrev = order == poly::ntt_order::natural_to_bit_reversed;
      reference_scale_kernel<<<grid_for(n, 128), 128, 0, stream>>>(
          a, log_n, coset ? dom.coset_generator_inv() : ff::fr::one(), dom.size_inv(), out_bitrev);
      if (!launched("reference_scale_kernel", error)) return false;
    }
    return true;
  }

  bool transform(device_fr_vector& v, poly::ntt_direction dir, poly::ntt_order order, bool coset, std::string& error) {
    const std::size_t n = v.size();
    if (n == 0 || (n & (n - 1))) {
      error = "ntt_context: size is not a power of two";
      return false;
    }
    const unsigned log_n = log2_exact(n);
    if (log_n > max_log) {
      error = "ntt_context: size 2^" + std::to_string(log_n) + " above the context's 2^" + std::to_string(max_log);
      return false;
    }
    if (opt.algorithm == ntt_algorithm::radix2_reference || log_n < 3)
      return reference(v.device_data(), log_n, dir, order, coset, error);
    return fast(v.device_data(), log_n, dir, order, coset, error);
  }
};

ntt_context::ntt_context() : impl_(std::make_unique<impl>()) {}
ntt_context::~ntt_context() = default;

std::unique_ptr<ntt_context> ntt_context::create(unsigned max_log_size, std::string& error) {
  if (max_log_size < 1 || max_log_size > 30) {
    error = "ntt_context::create: max_log_size must be in [1, 30]";
    return nullptr;
  }
  std::unique_ptr<ntt_context> ctx(new ntt_context());
  impl& m = *ctx->impl_;
  m.max_log = max_log_size;
  // The calling thread's current device (the backend selects it), not a fixed one.
  if (!ok(cudaStreamCreate(&m.stream), "cudaStreamCreate", error) ||
      !ok(cudaEventCreate(&m.ev_start), "cudaEventCreate", error) ||
      !ok(cudaEventCreate(&m.ev_stop), "cudaEventCreate", error))
    return nullptr;
  const std::size_t tw_n = std::size_t{1} << (max_log_size - 1);
  if (!ok(cudaMalloc(reinterpret_cast<void**>(&m.tw), tw_n * sizeof(ff::fr)), "cudaMalloc (twiddles)", error) ||
      !ok(cudaMalloc(reinterpret_cast<void**>(&m.tables), (std::size_t{4} << table_log_cap) * sizeof(ff::fr)),
          "cudaMalloc (power tables)", error))
    return nullptr;
  for (auto fn : {ntt_pass_kernel<false, dev::fr_mul_ptx>, ntt_pass_kernel<true, dev::fr_mul_ptx>,
                  ntt_pass_kernel<false, dev::fr_mul_portable>, ntt_pass_kernel<true, dev::fr_mul_portable>,
                  ntt_pass_kernel<false, dev::fr_mul_cios>, ntt_pass_kernel<true, dev::fr_mul_cios>,
                  ntt_pass_kernel<false, dev::fr_mul_wide>, ntt_pass_kernel<true, dev::fr_mul_wide>,
                  ntt_pass_kernel<false, dev::fr_mul_ptx, 3>, ntt_pass_kernel<true, dev::fr_mul_ptx, 3>,
                  ntt_pass_kernel<false, dev::fr_mul_ptx, 3, 2>, ntt_pass_kernel<true, dev::fr_mul_ptx, 3, 2>,
                  ntt_pass_kernel<false, dev::fr_mul_ptx, 4, 2>, ntt_pass_kernel<true, dev::fr_mul_ptx, 4, 2>})
    if (!ok(cudaFuncSetAttribute(fn, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(pass_smem_bytes)),
            "cudaFuncSetAttribute", error))
      return nullptr;
  // tw[x] = w^x for x < N/2 = 2^(max_log - 1): split powers lo[x & mask] * hi[x >> lo_bits].
  const unsigned tw_log = max_log_size - 1;
  const unsigned lo_bits = (tw_log + 1) / 2;
  const uint32_t lo_n = 1u << lo_bits, hi_n = 1u << (tw_log - lo_bits);
  const ff::fr w = root_of_unity(max_log_size);
  power_tables_kernel<<<grid_for(lo_n + hi_n, 128), 128, 0, m.stream>>>(m.table(0), m.table(1), w, ff::fr::one(),
                                                                         lo_bits, lo_n, hi_n);
  if (!launched("power_tables_kernel", error)) return nullptr;
  twiddle_kernel<<<grid_for(tw_n, 256), 256, 0, m.stream>>>(m.tw, m.table(0), m.table(1), lo_bits,
                                                            static_cast<uint32_t>(tw_n));
  if (!launched("twiddle_kernel", error) || !ok(cudaStreamSynchronize(m.stream), "twiddle table", error))
    return nullptr;
  return ctx;
}

// "By size" (ntt_options' zeros): from 2^26 up, passes of <= 8 stages with 4 columns; below,
// <= 10 stages with 2 columns (measurements in ntt_cuda.hpp).
unsigned ntt_max_stages_per_pass(const ntt_options& o, unsigned log_n) {
  return o.max_stages_per_pass ? o.max_stages_per_pass : log_n >= 26 ? 8 : 10;
}
unsigned ntt_lanes(const ntt_options& o, unsigned log_n) { return o.lanes ? o.lanes : log_n >= 26 ? 4 : 2; }
// ceil(log_n / kmax) passes, but no pass under 3 stages.
unsigned ntt_pass_count(const ntt_options& o, unsigned log_n) {
  const unsigned kmax = ntt_max_stages_per_pass(o, log_n);
  return std::max(1u, std::min((log_n + kmax - 1) / kmax, log_n / 3));
}

unsigned ntt_context::max_log_size() const { return impl_->max_log; }
const ntt_options& ntt_context::options() const { return impl_->opt; }

bool ntt_context::set_options(const ntt_options& o, std::string& error) {
  if (o.max_stages_per_pass != 0 && (o.max_stages_per_pass < 3 || o.max_stages_per_pass > 10)) {
    error = "ntt_options: max_stages_per_pass must be 0 (by size) or in [3, 10]";
    return false;
  }
  if (o.lanes != 0 && o.lanes != 1 && o.lanes != 2 && o.lanes != 4 && o.lanes != 8) {
    error = "ntt_options: lanes must be 0 (by size), 1, 2, 4 or 8";
    return false;
  }
  if (o.min_blocks < 2 || o.min_blocks > 4 || (o.elements_per_thread == 8 && o.min_blocks == 4)) {
    error = "ntt_options: min_blocks must be 2 or 3 (2 to 4 with 4 elements per thread)";
    return false;
  }
  if (o.elements_per_thread != 4 && o.elements_per_thread != 8) {
    error = "ntt_options: elements_per_thread must be 4 or 8";
    return false;
  }
  impl_->opt = o;
  return true;
}

bool ntt_context::ntt(device_fr_vector& a, poly::ntt_direction dir, poly::ntt_order order, std::string& error) {
  return impl_->transform(a, dir, order, false, error);
}

bool ntt_context::coset_ntt(device_fr_vector& a, poly::ntt_direction dir, poly::ntt_order order, std::string& error) {
  return impl_->transform(a, dir, order, true, error);
}

bool ntt_context::compute_h(device_fr_vector& a, device_fr_vector& b, device_fr_vector& c, std::string& error) {
  if (b.size() != a.size() || c.size() != a.size()) {
    error = "ntt_context::compute_h: a, b, c differ in size";
    return false;
  }
  impl& m = *impl_;
  const std::size_t n = a.size();
  if (n == 0 || (n & (n - 1))) {
    error = "ntt_context::compute_h: size is not a power of two";
    return false;
  }
  const unsigned log_n = log2_exact(n);
  if (log_n > m.max_log) {
    error = "ntt_context::compute_h: size above the context's maximum";
    return false;
  }
  const poly::radix2_domain dom = poly::radix2_domain::of_log_size(log_n);
  using poly::ntt_direction, poly::ntt_order;
  if (m.opt.algorithm == ntt_algorithm::radix2_reference || log_n < 3) {
    // bellperson's steps, one by one: ifft, coset_fft (x3); a*b - c; / z(g); icoset_fft.
    for (device_fr_vector* v : {&a, &b, &c})
      if (!m.reference(v->device_data(), log_n, ntt_direction::inverse, ntt_order::natural_to_natural, false, error) ||
          !m.reference(v->device_data(), log_n, ntt_direction::forward, ntt_order::natural_to_natural, true, error))
        return false;
    reference_pointwise_kernel<<<grid_for(n, 128), 128, 0, m.stream>>>(a.device_data(), b.device_data(),
                                                                       c.device_data(), dom.z_on_coset_inv(),
                                                                       static_cast<uint32_t>(n));
    if (!launched("reference_pointwise_kernel", error)) return false;
    return m.reference(a.device_data(), log_n, ntt_direction::inverse, ntt_order::natural_to_natural, true, error);
  }
  // c enters h linearly and has degree < n, so its coset values are not needed: the coset
  // interpolation of C's coset values is c itself, hence
  //   h = (icoset(A_g * B_g) - c) / z(g)
  // (A_g, B_g: values on gH). 6 transforms instead of bellperson's 7.
  // c: values on H -> bit-reversed coefficients / z(g) (DIF inverse, store * 1/(n z(g))).
  const ff::fr n_inv = dom.size_inv();
  const ff::fr n_inv_z_inv = n_inv * dom.z_on_coset_inv();
  const factor_desc none;
  factor_desc c_store;
  if (!m.make_factor(c_store, 1, ff::fr::one(), n_inv_z_inv, false, false, log_n, error) ||
      !m.passes(c.device_data(), log_n, false, true, none, c_store, nullptr, error))
    return false;
  // a, b: values on H -> bit-reversed coefficients (DIF inverse; store: * scale * g^k,
  // k = rev(pos)) -> values on gH, natural (DIT forward). scale = 1/n, times 1/z(g) for a.
  for (auto [v, scale] : {std::pair{&a, n_inv_z_inv}, std::pair{&b, n_inv}}) {
    factor_desc store;
    if (!m.make_factor(store, 1, dom.coset_generator(), scale, true, true, log_n, error) ||
        !m.passes(v->device_data(), log_n, false, true, none, store, nullptr, error) ||
        !m.passes(v->device_data(), log_n, true, false, none, none, nullptr, error))
      return false;
  }
  // a*b / z(g) on gH (folded into the loads), DIF inverse, coefficient k *= g^-k / n; then the
  // bit reversal subtracts c / z(g), which sits in the same bit-reversed positions.
  factor_desc load, store;
  load.mode = factor_ab;
  if (!m.make_factor(store, 1, dom.coset_generator_inv(), n_inv, true, true, log_n, error) ||
      !m.passes(a.device_data(), log_n, false, true, load, store, b.device_data(), error))
    return false;
  return m.bit_reverse(a.device_data(), log_n, error, c.device_data());
}

bool ntt_context::synchronize(std::string& error) {
  return ok(cudaStreamSynchronize(impl_->stream), "ntt_context::synchronize", error);
}

bool ntt_context::mark_start(std::string& error) {
  return ok(cudaEventRecord(impl_->ev_start, impl_->stream), "cudaEventRecord", error);
}

double ntt_context::elapsed_ms(std::string& error) {
  return elapsed_since(impl_->ev_start, impl_->ev_stop, impl_->stream, error);
}

const char* fr_mul_name(fr_mul_kernel k) {
  switch (k) {
    case fr_mul_kernel::ptx32: return "ptx32";
    case fr_mul_kernel::portable64: return "portable64";
    case fr_mul_kernel::cios32: return "cios32";
    case fr_mul_kernel::wide32: return "wide32";
  }
  return "?";
}

bool get_device_info(device_info& info, std::string& error) {
  int device = 0;  // the calling thread's current device
  if (!ok(cudaGetDevice(&device), "cudaGetDevice", error)) return false;
  cudaDeviceProp p;
  if (!ok(cudaGetDeviceProperties(&p, device), "cudaGetDeviceProperties", error)) return false;
  info.name = p.name;
  info.sm_count = p.multiProcessorCount;
  int clk = 0;
  if (cudaDeviceGetAttribute(&clk, cudaDevAttrClockRate, device) != cudaSuccess) clk = 0;
  info.clock_khz = clk;
  info.total_memory = p.totalGlobalMem;
  return true;
}

bool run_fr_mul_selftest(std::span<const ff::fr> a, std::span<const ff::fr> b, fr_mul_selftest_result& out,
                         std::string& error) {
  if (a.size() != b.size()) {
    error = "run_fr_mul_selftest: sizes differ";
    return false;
  }
  const std::size_t n = a.size();
  device_fr_vector da, db, o1, o2, o3, o4;
  if (!da.upload(a, error) || !db.upload(b, error) || !o1.resize(n, error) || !o2.resize(n, error) ||
      !o3.resize(n, error) || !o4.resize(n, error))
    return false;
  device_fr_vector o5, o6;
  if (!o5.resize(n, error) || !o6.resize(n, error)) return false;
  fr_selftest_kernel<<<grid_for(n, 128), 128>>>(da.device_data(), db.device_data(), o1.device_data(),
                                                o2.device_data(), o5.device_data(), o6.device_data(),
                                                o3.device_data(), o4.device_data(), static_cast<uint32_t>(n));
  if (!launched("fr_selftest_kernel", error) || !ok(cudaDeviceSynchronize(), "fr_selftest_kernel", error)) return false;
  out.mul_ptx.resize(n);
  out.mul_portable.resize(n);
  out.mul_cios.resize(n);
  out.mul_wide.resize(n);
  out.add.resize(n);
  out.sub.resize(n);
  return o1.download(out.mul_ptx, error) && o2.download(out.mul_portable, error) &&
         o5.download(out.mul_cios, error) && o6.download(out.mul_wide, error) && o3.download(out.add, error) &&
         o4.download(out.sub, error);
}

double measure_fr_mul_rate(fr_mul_kernel kind, std::size_t chains, unsigned length, std::string& error) {
  chains = (chains + 255) / 256 * 256;
  device_fr_vector v;
  if (!v.resize(chains, error) || !v.fill_random(42, error)) return -1;
  cudaEvent_t e0, e1;
  if (!ok(cudaEventCreate(&e0), "cudaEventCreate", error)) return -1;
  if (!ok(cudaEventCreate(&e1), "cudaEventCreate", error)) {
    cudaEventDestroy(e0);
    return -1;
  }
  float best = -1;
  for (int rep = 0; rep < 3; ++rep) {
    cudaEventRecord(e0);
    const unsigned grid = grid_for(chains, 256);
    switch (kind) {
      case fr_mul_kernel::ptx32: mul_rate_kernel<dev::fr_mul_ptx><<<grid, 256>>>(v.device_data(), length); break;
      case fr_mul_kernel::cios32: mul_rate_kernel<dev::fr_mul_cios><<<grid, 256>>>(v.device_data(), length); break;
      case fr_mul_kernel::wide32: mul_rate_kernel<dev::fr_mul_wide><<<grid, 256>>>(v.device_data(), length); break;
      case fr_mul_kernel::portable64:
        mul_rate_kernel<dev::fr_mul_portable><<<grid, 256>>>(v.device_data(), length);
        break;
    }
    cudaEventRecord(e1);
    float ms = 0;
    if (!launched("mul_rate_kernel", error) || !ok(cudaEventSynchronize(e1), "mul_rate_kernel", error) ||
        !ok(cudaEventElapsedTime(&ms, e0, e1), "cudaEventElapsedTime", error)) {
      best = -1;
      break;
    }
    if (rep > 0 && (best < 0 || ms < best)) best = ms;  // rep 0 warms up
  }
  cudaEventDestroy(e0);
  cudaEventDestroy(e1);
  if (best <= 0) return -1;
  return static_cast<double>(chains) * length / (best * 1e-3);
}

}  // namespace cuzk::cuda
