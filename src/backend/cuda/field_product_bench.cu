// Side-by-side rate of the device Montgomery products (Fp 12 limbs, Fr 8 limbs), one binary:
//   cur        the first CIOS (mad.lo / mad.hi chains per row): fp_mul_cios_impl, mul_cios
//   evenodd    even/odd accumulators (mont_evenodd.cuh) + one conditional subtraction
//   wide       CIOS with 64-bit multiply-adds in plain C (IMAD.WIDE.U32)
//   portable   ff::fr::mul_portable as nvcc compiles it (Fr only; the NTT's former default)
//   *_call     the same, out of line (__noinline__), as the MSM calls it
//   sqr        squares: the product with a = b, and the wide dedicated square (222 products)
//   evenodd_opq   even/odd with n0 hidden from the compiler in a register
//   karatsuba  one Karatsuba level for a b, then a separated Montgomery reduction
//              (mont_karatsuba.cuh): 252 partial products (Fp) instead of 288.
//   evenodd_lazy  no final subtraction: inputs and outputs in [0, 2p) (Fp only; valid as
//              4p < 2^384), to price the subtraction.
//   f64        the FP64-pipe product (mont_f64.cuh: 8 signed 48-bit limbs in doubles), chained
//              in its own form; checked through the conversions from and to 32-bit limbs.
//   imad+f64   both products at once, to see whether the integer and FP64 pipes overlap:
//              "ilp" = one thread runs an even/odd chain and an f64 chain interleaved,
//              "warps" = even warps run even/odd chains, odd warps f64 chains. Reported per
//              product of either kind (perfect overlap: max of the two alone / 2).
//   inverse + products   safegcd inversions in odd warps beside products in even warps, to see
//              how much of the inversion hides under the products (inv_mul_warps_kernel).
//   fp inverse fermat / safegcd   Fp inversions (fp_inverse_device.cuh): a^(p-2) with the MSM's
//              product, and Bernstein-Yang divsteps on 30-bit limbs; dependent inversions per
//              thread, reported per inversion and in Fp products at 9.55 SM-cycles.
// Every variant is first checked bit for bit against the CPU's ff::fp / ff::fr product on random
// canonical inputs plus p-1 (seed printed; CUZK_TEST_SEED overrides), then timed: 2 dependent
// products per iteration per thread, 270K threads, CUDA events, min of 5 runs. SM-cycles per
// product = time x 1.98 GHz x 132 SMs / products (the H200's clock under this load).
//   field_product_bench [iterations scale (default 1)]
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "backend/cuda/fp_device.cuh"
#include "backend/cuda/fp_inverse_device.cuh"
#include "backend/cuda/fr_device.cuh"
#include "backend/cuda/mont_evenodd.cuh"
#include "backend/cuda/mont_f64.cuh"

namespace {

namespace dev = cuzk::cuda::dev;
using dev::fp32;
using dev::fr32;

#define CHECK(x)                                                                          \
  do {                                                                                    \
    cudaError_t e_ = (x);                                                                 \
    if (e_ != cudaSuccess) {                                                              \
      std::fprintf(stderr, "%s:%d %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e_)); \
      std::exit(2);                                                                       \
    }                                                                                     \
  } while (0)

// ---- the variants, as policies with mul(a, b) ----
struct fp_cur {
  static constexpr const char* name = "fp cur";
  static __device__ __forceinline__ fp32 mul(const fp32& a, const fp32& b) { return dev::fp_mul_cios_impl(a, b); }
};
struct fp_eo {
  static constexpr const char* name = "fp evenodd";
  static __device__ __forceinline__ fp32 mul(const fp32& a, const fp32& b) {
    return dev::fp_mul_evenodd_impl(a, b);
  }
};
struct fp_eo_opaque {
  static constexpr const char* name = "fp evenodd_opq";
  static __device__ __forceinline__ fp32 mul(const fp32& a, const fp32& b) {
    uint32_t r[12];
    dev::eo_mont_mul<12, dev::fp_consts, true>(r, a.v, b.v);
    return dev::fp_reduce_once(r);
  }
};
struct fp_eo_lazy {
  static constexpr const char* name = "fp evenodd_lazy";
  static constexpr bool lazy = true;
  static __device__ __forceinline__ fp32 mul(const fp32& a, const fp32& b) {
    fp32 r;
    dev::eo_mont_mul<12, dev::fp_consts>(r.v, a.v, b.v);
    return r;
  }
};
struct fp_wide {
  static constexpr const char* name = "fp wide";
  static __device__ __forceinline__ fp32 mul(const fp32& a, const fp32& b) {
    uint32_t r[12];
    dev::wide_mont_mul<12, dev::fp_consts>(r, a.v, b.v);
    return dev::fp_reduce_once(r);
  }
};
struct fp_ka {
  static constexpr const char* name = "fp karatsuba";
  static __device__ __forceinline__ fp32 mul(const fp32& a, const fp32& b) { return dev::fp_mul_karatsuba_impl(a, b); }
};
// Squares: mul(a, b) returns a^2 (b unused), checked against a * a.
struct fp_cur_sqr {
  static constexpr const char* name = "fp cur sqr";
  static constexpr bool square = true;
  static __device__ __forceinline__ fp32 mul(const fp32& a, const fp32&) { return dev::fp_mul_cios_impl(a, a); }
};
struct fp_wide_sqr {
  static constexpr const char* name = "fp wide sqr";
  static constexpr bool square = true;
  static __device__ __forceinline__ fp32 mul(const fp32& a, const fp32&) {
    uint32_t r[12];
    dev::wide_mont_sqr<12, dev::fp_consts>(r, a.v);
    return dev::fp_reduce_once(r);
  }
};
__device__ __noinline__ fp32 fp_cur_outlined(fp32 a, fp32 b) { return fp_cur::mul(a, b); }
__device__ __noinline__ fp32 fp_eo_outlined(fp32 a, fp32 b) { return fp_eo::mul(a, b); }
__device__ __noinline__ fp32 fp_wide_outlined(fp32 a, fp32 b) { return fp_wide::mul(a, b); }
__device__ __noinline__ fp32 fp_ka_outlined(fp32 a, fp32 b) { return fp_ka::mul(a, b); }
struct fp_ka_call {
  static constexpr const char* name = "fp karatsuba_call";
  static __device__ __forceinline__ fp32 mul(const fp32& a, const fp32& b) { return fp_ka_outlined(a, b); }
};
struct fp_cur_call {
  static constexpr const char* name = "fp cur_call";
  static __device__ __forceinline__ fp32 mul(const fp32& a, const fp32& b) { return fp_cur_outlined(a, b); }
};
struct fp_eo_call {
  static constexpr const char* name = "fp evenodd_call";
  static __device__ __forceinline__ fp32 mul(const fp32& a, const fp32& b) { return fp_eo_outlined(a, b); }
};
struct fp_wide_call {
  static constexpr const char* name = "fp wide_call";
  static __device__ __forceinline__ fp32 mul(const fp32& a, const fp32& b) { return fp_wide_outlined(a, b); }
};

// The f64 product checked through its conversions: from 32-bit limbs, one product, back to
// canonical 32-bit limbs.
struct fp_f64_words {
  static constexpr const char* name = "fp f64 (words)";
  static __device__ __forceinline__ fp32 mul(const fp32& a, const fp32& b) {
    fp32 r;
    dev::f64_to_words(dev::f64_mont_mul<2>(dev::f64_from_words(a.v), dev::f64_from_words(b.v)), r.v);
    return r;
  }
};
template <int Chains>
struct fp_f64_mul {
  static constexpr const char* name = Chains == 1 ? "fp f64" : "fp f64 x2";
  static __device__ __forceinline__ dev::fp_f64 mul(const dev::fp_f64& a, const dev::fp_f64& b) {
    return dev::f64_mont_mul<Chains>(a, b);
  }
};

struct fr_cur {
  static constexpr const char* name = "fr cur";
  static __device__ __forceinline__ fr32 mul(const fr32& a, const fr32& b) { return dev::mul_cios(a, b); }
};
struct fr_portable {
  static constexpr const char* name = "fr portable";
  static __device__ __forceinline__ fr32 mul(const fr32& a, const fr32& b) { return dev::fr_mul_portable::mul(a, b); }
};
struct fr_eo {
  static constexpr const char* name = "fr evenodd";
  static __device__ __forceinline__ fr32 mul(const fr32& a, const fr32& b) {
    uint32_t r[8];
    dev::eo_mont_mul<8, dev::fr_consts>(r, a.v, b.v);
    return dev::reduce_once(r);
  }
};
struct fr_ka {
  static constexpr const char* name = "fr karatsuba";
  static __device__ __forceinline__ fr32 mul(const fr32& a, const fr32& b) {
    uint32_t r[8];
    dev::ka_mont_mul<8, dev::fr_consts>(r, a.v, b.v);
    return dev::reduce_once(r);
  }
};
struct fr_eo_opaque {
  static constexpr const char* name = "fr evenodd_opq";
  static __device__ __forceinline__ fr32 mul(const fr32& a, const fr32& b) {
    uint32_t r[8];
    dev::eo_mont_mul<8, dev::fr_consts, true>(r, a.v, b.v);
    return dev::reduce_once(r);
  }
};
struct fr_wide {
  static constexpr const char* name = "fr wide";
  static __device__ __forceinline__ fr32 mul(const fr32& a, const fr32& b) {
    uint32_t r[8];
    dev::wide_mont_mul<8, dev::fr_consts>(r, a.v, b.v);
    return dev::reduce_once(r);
  }
};

template <class Op>
constexpr bool is_square() {
  if constexpr (requires { Op::square; }) return Op::square;
  return false;
}
template <class Op>
constexpr bool is_lazy() {
  if constexpr (requires { Op::lazy; }) return Op::lazy;
  return false;
}

// ---- kernels ----
template <class Op, class T>
__global__ void check_kernel(const T* a, const T* b, T* out, unsigned n) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = Op::mul(a[i], b[i]);
}

template <class Op, class T>
__global__ void __launch_bounds__(256) rate_kernel(T* data, unsigned iters) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  T x = data[2 * i], y = data[2 * i + 1];
  for (unsigned k = 0; k < iters; ++k) {
    x = Op::mul(x, y);
    y = Op::mul(y, x);
  }
  data[2 * i] = x;  // keeps the chain live
  data[2 * i + 1] = y;
}

// Both pipes. ilp: one thread interleaves an even/odd chain and an f64 chain (4 products per
// iteration). warps: even warps run even/odd chains, odd warps f64 chains (2 products per
// iteration), the branch outside the loop so that each warp holds only its own chain's state.
template <bool Ilp, int Chains>
__global__ void __launch_bounds__(256) mixed_kernel(fp32* d32, dev::fp_f64* d64, unsigned iters) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  const bool f64_warp = (threadIdx.x >> 5) & 1;
  if (Ilp || !f64_warp) {
    fp32 x = d32[2 * i], y = d32[2 * i + 1];
    dev::fp_f64 u, v;
    if (Ilp) u = d64[2 * i], v = d64[2 * i + 1];
    for (unsigned k = 0; k < iters; ++k) {
      x = fp_eo::mul(x, y);
      if (Ilp) u = dev::f64_mont_mul<Chains>(u, v);
      y = fp_eo::mul(y, x);
      if (Ilp) v = dev::f64_mont_mul<Chains>(v, u);
    }
    d32[2 * i] = x;
    d32[2 * i + 1] = y;
    if (Ilp) d64[2 * i] = u, d64[2 * i + 1] = v;
  } else {
    dev::fp_f64 u = d64[2 * i], v = d64[2 * i + 1];
    for (unsigned k = 0; k < iters; ++k) {
      u = dev::f64_mont_mul<Chains>(u, v);
      v = dev::f64_mont_mul<Chains>(v, u);
    }
    d64[2 * i] = u;
    d64[2 * i + 1] = v;
  }
}

// Inversions: Fermat (a^(p-2), the batch-affine rounds' inversion) and safegcd (divsteps).
struct inv_fermat {
  static constexpr const char* name = "fp inverse fermat";
  static __device__ __forceinline__ fp32 inv(const fp32& a) { return dev::fp_inverse<dev::fp_mul_ptx_call>(a); }
};
struct inv_safegcd {
  static constexpr const char* name = "fp inverse safegcd";
  static __device__ __forceinline__ fp32 inv(const fp32& a) { return dev::fp_inverse_safegcd<dev::fp_mul_ptx_call>(a); }
};
template <class Inv>
__global__ void inv_check_kernel(const fp32* a, fp32* out, unsigned n) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = Inv::inv(a[i]);
}
// Dependent inversions per thread (x <- x^-1 alternates between two values: the work is the same).
template <class Inv>
__global__ void __launch_bounds__(256) inv_rate_kernel(fp32* data, unsigned iters) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  fp32 x = data[i];
  for (unsigned k = 0; k < iters; ++k) x = Inv::inv(x);
  data[i] = x;
}

// Inversions beside products, to see whether the safegcd inversion (integer ALU work) overlaps
// the products (wide multiplies) as it would inside a batch-affine kernel: odd warps run
// dependent inversions (Mode bit 0), even warps dependent products, `muls` per inversion
// (Mode bit 1). Modes 1 and 2 time each half alone at the same launch shape, mode 3 both.
template <int Mode>
__global__ void __launch_bounds__(256) inv_mul_warps_kernel(fp32* data, unsigned iters, unsigned muls) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  const bool inv_warp = (threadIdx.x >> 5) & 1;
  fp32 x = data[i];
  if (inv_warp && (Mode & 1)) {
    for (unsigned k = 0; k < iters; ++k) x = inv_safegcd::inv(x);
  } else if (!inv_warp && (Mode & 2)) {
    const fp32 y = data[i ^ 1];
    for (unsigned k = 0; k < iters * muls; ++k) x = dev::fp_mul_ptx_call::mul(x, y);
  }
  data[i] = x;
}

// ---- host side ----
template <class F, class T>
T to_dev(const F& x) {
  T r;
  constexpr int n = sizeof(T) / 4;
  for (int i = 0; i < n; ++i) r.v[i] = static_cast<uint32_t>(x.v.w[i / 2] >> (32 * (i % 2)));
  return r;
}
template <class F, class T>
F from_dev(const T& x) {
  F r;
  constexpr int n = sizeof(T) / 4;
  for (int i = 0; i < n / 2; ++i) r.v.w[i] = x.v[2 * i] | (static_cast<uint64_t>(x.v[2 * i + 1]) << 32);
  return r;
}
// x mod p for x < 2p (lazy outputs).
template <class F, class T>
F canonical(const T& x) {
  constexpr int n = sizeof(T) / 4;
  uint32_t d[n];
  uint64_t borrow = 0;
  for (int i = 0; i < n; ++i) {
    const uint64_t s = static_cast<uint64_t>(x.v[i]) - static_cast<uint32_t>(F::modulus.w[i / 2] >> (32 * (i % 2))) - borrow;
    d[i] = static_cast<uint32_t>(s);
    borrow = (s >> 32) & 1;
  }
  if (borrow) return from_dev<F, T>(x);
  T y;
  for (int i = 0; i < n; ++i) y.v[i] = d[i];
  return from_dev<F, T>(y);
}

struct context {
  std::mt19937_64 rng;
  unsigned iter_scale = 1;
  bool all_ok = true;
};

template <class Op, class F, class T>
bool check(context& cx) {
  const unsigned n = 1u << 16;
  std::vector<F> a(n), b(n), want(n);
  for (unsigned i = 0; i < n; ++i) {
    a[i] = F::random(cx.rng);
    b[i] = F::random(cx.rng);
  }
  a[0] = b[0] = -F::one();
  a[1] = -F::one();
  b[2] = F::zero();
  a[3] = F::one();
  std::vector<T> ha(n), hb(n), out(n);
  for (unsigned i = 0; i < n; ++i) {
    ha[i] = to_dev<F, T>(a[i]);
    hb[i] = to_dev<F, T>(b[i]);
    want[i] = is_square<Op>() ? a[i] * a[i] : a[i] * b[i];
  }
  T *da, *db, *dout;
  CHECK(cudaMalloc(&da, n * sizeof(T)));
  CHECK(cudaMalloc(&db, n * sizeof(T)));
  CHECK(cudaMalloc(&dout, n * sizeof(T)));
  CHECK(cudaMemcpy(da, ha.data(), n * sizeof(T), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(db, hb.data(), n * sizeof(T), cudaMemcpyHostToDevice));
  CHECK(cudaMemset(dout, 0xa5, n * sizeof(T)));  // poison
  check_kernel<Op, T><<<(n + 255) / 256, 256>>>(da, db, dout, n);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(out.data(), dout, n * sizeof(T), cudaMemcpyDeviceToHost));
  CHECK(cudaFree(da));
  CHECK(cudaFree(db));
  CHECK(cudaFree(dout));
  unsigned bad = 0;
  for (unsigned i = 0; i < n; ++i) {
    const F got = is_lazy<Op>() ? canonical<F, T>(out[i]) : from_dev<F, T>(out[i]);
    if (!(got == want[i])) {
      if (bad < 3) std::printf("  MISMATCH %s at %u\n", Op::name, i);
      ++bad;
    }
  }
  if (bad) cx.all_ok = false;
  return bad == 0;
}

// Min and median of 5 timed launches after a warm-up; prepare() runs before each, untimed.
template <class P, class L>
std::pair<float, float> time_kernel(P&& prepare, L&& launch) {
  cudaEvent_t e0, e1;
  CHECK(cudaEventCreate(&e0));
  CHECK(cudaEventCreate(&e1));
  std::vector<float> ms;
  for (int rep = 0; rep < 6; ++rep) {  // the first is the warm-up
    prepare();
    CHECK(cudaEventRecord(e0));
    launch();
    CHECK(cudaGetLastError());
    CHECK(cudaEventRecord(e1));
    CHECK(cudaEventSynchronize(e1));
    float t = 0;
    CHECK(cudaEventElapsedTime(&t, e0, e1));
    if (rep) ms.push_back(t);
  }
  CHECK(cudaEventDestroy(e0));
  CHECK(cudaEventDestroy(e1));
  std::sort(ms.begin(), ms.end());
  return {ms.front(), ms[ms.size() / 2]};
}

template <class Op, class F, class T>
void rate(context& cx, unsigned base_iters) {
  const bool good = check<Op, F, T>(cx);
  const unsigned threads = 256, blocks = 132 * 8;
  const std::size_t chains = std::size_t{threads} * blocks;
  const unsigned iters = base_iters * cx.iter_scale;
  std::vector<T> h(2 * chains);
  for (auto& x : h) x = to_dev<F, T>(F::random(cx.rng));
  T* d;
  CHECK(cudaMalloc(&d, h.size() * sizeof(T)));
  cudaFuncAttributes attr{};
  CHECK(cudaFuncGetAttributes(&attr, rate_kernel<Op, T>));
  const auto [ms_min, ms_med] = time_kernel(
      [&] { CHECK(cudaMemcpy(d, h.data(), h.size() * sizeof(T), cudaMemcpyHostToDevice)); },
      [&] { rate_kernel<Op, T><<<blocks, threads>>>(d, iters); });
  CHECK(cudaFree(d));
  const double products = 2.0 * chains * iters;
  const double cyc = ms_min * 1e-3 * 1.98e9 * 132 / products;
  std::printf("%-18s %-5s regs %3d  min %8.3f ms  med %8.3f ms  %.3e /s  %6.2f SM-cycles/product\n", Op::name,
              good ? "ok" : "WRONG", attr.numRegs, ms_min, ms_med, products / (ms_min * 1e-3), cyc);
}

// f64 chains alone (in the double form), then both kinds at once.
void rate_f64_and_mixed(context& cx, unsigned base_iters) {
  using cuzk::ff::fp;
  const bool good = check<fp_f64_words, cuzk::ff::fp, fp32>(cx);
  const unsigned threads = 256, blocks = 132 * 8;
  const std::size_t chains = std::size_t{threads} * blocks;
  const unsigned iters = base_iters * cx.iter_scale;
  std::vector<fp32> h32(2 * chains);
  std::vector<dev::fp_f64> h64(2 * chains);
  for (std::size_t i = 0; i < h32.size(); ++i) {
    h32[i] = to_dev<fp, fp32>(fp::random(cx.rng));
    h64[i] = dev::f64_from_words(h32[i].v);
  }
  fp32* d32;
  dev::fp_f64* d64;
  CHECK(cudaMalloc(&d32, h32.size() * sizeof(fp32)));
  CHECK(cudaMalloc(&d64, h64.size() * sizeof(dev::fp_f64)));
  CHECK(cudaMemcpy(d32, h32.data(), h32.size() * sizeof(fp32), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d64, h64.data(), h64.size() * sizeof(dev::fp_f64), cudaMemcpyHostToDevice));
  const auto report = [&](const char* name, const void* fn, float ms, double products) {
    cudaFuncAttributes attr{};
    CHECK(cudaFuncGetAttributes(&attr, fn));
    std::printf("%-18s %-5s regs %3d  min %8.3f ms  %.3e /s  %6.2f SM-cycles/product\n", name, good ? "ok" : "WRONG",
                attr.numRegs, ms, products / (ms * 1e-3), ms * 1e-3 * 1.98e9 * 132 / products);
  };
  const auto chains_of = [&]<int Chains>() {
    using Op = fp_f64_mul<Chains>;
    const float t64 = time_kernel([] {}, [&] { rate_kernel<Op, dev::fp_f64><<<blocks, threads>>>(d64, iters); }).first;
    report(Op::name, reinterpret_cast<const void*>(rate_kernel<Op, dev::fp_f64>), t64, 2.0 * chains * iters);
    const float t_ilp = time_kernel([] {}, [&] { mixed_kernel<true, Chains><<<blocks, threads>>>(d32, d64, iters); }).first;
    report(Chains == 1 ? "imad+f64 ilp" : "imad+f64x2 ilp", reinterpret_cast<const void*>(mixed_kernel<true, Chains>),
           t_ilp, 4.0 * chains * iters);
    const float t_w = time_kernel([] {}, [&] { mixed_kernel<false, Chains><<<blocks, threads>>>(d32, d64, iters); }).first;
    report(Chains == 1 ? "imad+f64 warps" : "imad+f64x2 warps", reinterpret_cast<const void*>(mixed_kernel<false, Chains>),
           t_w, 2.0 * chains * iters);
  };
  chains_of.template operator()<1>();
  chains_of.template operator()<2>();
  CHECK(cudaFree(d32));
  CHECK(cudaFree(d64));
}

// An inversion variant: checked against the CPU on 65,536 values (0, 1, p - 1 included), then
// SM-cycles per inversion and the same in Fp products at the measured 9.55 cycles.
template <class Inv>
void inverse_rate(context& cx, unsigned iters) {
  using cuzk::ff::fp;
  const unsigned n = 1u << 16;
  std::vector<fp> a(n);
  for (auto& x : a) x = fp::random(cx.rng);
  a[0] = fp::zero();
  a[1] = fp::one();
  a[2] = -fp::one();
  std::vector<fp32> ha(n), out(n);
  for (unsigned i = 0; i < n; ++i) ha[i] = to_dev<fp, fp32>(a[i]);
  fp32 *da, *dout;
  CHECK(cudaMalloc(&da, n * sizeof(fp32)));
  CHECK(cudaMalloc(&dout, n * sizeof(fp32)));
  CHECK(cudaMemcpy(da, ha.data(), n * sizeof(fp32), cudaMemcpyHostToDevice));
  inv_check_kernel<Inv><<<(n + 255) / 256, 256>>>(da, dout, n);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(out.data(), dout, n * sizeof(fp32), cudaMemcpyDeviceToHost));
  unsigned bad = 0;
  for (unsigned i = 0; i < n; ++i)
    if (!(from_dev<fp, fp32>(out[i]) == a[i].inverse_fermat()) && bad++ < 3) std::printf("  MISMATCH %s at %u\n", Inv::name, i);
  if (bad) cx.all_ok = false;
  CHECK(cudaFree(da));
  CHECK(cudaFree(dout));
  const unsigned threads = 256, blocks = 132 * 8;
  const std::size_t lanes = std::size_t{threads} * blocks;
  std::vector<fp32> h(lanes);
  for (auto& x : h) x = to_dev<fp, fp32>(fp::random(cx.rng));
  fp32* d;
  CHECK(cudaMalloc(&d, lanes * sizeof(fp32)));
  cudaFuncAttributes attr{};
  CHECK(cudaFuncGetAttributes(&attr, inv_rate_kernel<Inv>));
  const auto [ms_min, ms_med] = time_kernel(
      [&] { CHECK(cudaMemcpy(d, h.data(), lanes * sizeof(fp32), cudaMemcpyHostToDevice)); },
      [&] { inv_rate_kernel<Inv><<<blocks, threads>>>(d, iters * cx.iter_scale); });
  CHECK(cudaFree(d));
  const double inversions = static_cast<double>(lanes) * iters * cx.iter_scale;
  const double cyc = ms_min * 1e-3 * 1.98e9 * 132 / inversions;
  std::printf("%-18s %-5s regs %3d  min %8.3f ms  med %8.3f ms  %.3e /s  %8.1f SM-cycles/inversion = %5.1f Fp products\n",
              Inv::name, bad ? "WRONG" : "ok", attr.numRegs, ms_min, ms_med, inversions / (ms_min * 1e-3), cyc, cyc / 9.55);
}

// The overlap of inversions and products (inv_mul_warps_kernel): each half alone, both, and
// what perfect overlap would give (the larger alone).
void inverse_product_overlap(context& cx, unsigned iters, unsigned muls) {
  const unsigned threads = 256, blocks = 132 * 8;
  const std::size_t lanes = std::size_t{threads} * blocks;
  std::vector<fp32> h(lanes);
  for (auto& x : h) x = to_dev<cuzk::ff::fp, fp32>(cuzk::ff::fp::random(cx.rng));
  fp32* d;
  CHECK(cudaMalloc(&d, lanes * sizeof(fp32)));
  const auto timed = [&](auto kernel) {
    return time_kernel([&] { CHECK(cudaMemcpy(d, h.data(), lanes * sizeof(fp32), cudaMemcpyHostToDevice)); },
                       [&] { kernel<<<blocks, threads>>>(d, iters * cx.iter_scale, muls); })
        .first;
  };
  const float t_inv = timed(inv_mul_warps_kernel<1>), t_mul = timed(inv_mul_warps_kernel<2>),
              t_both = timed(inv_mul_warps_kernel<3>);
  CHECK(cudaFree(d));
  std::printf("inverse + %u products (warps): inversions alone %8.3f ms  products alone %8.3f ms  both %8.3f ms"
              "  (sum %8.3f, perfect overlap %8.3f): the inversion adds %5.1f%% of its own time\n",
              muls, t_inv, t_mul, t_both, t_inv + t_mul, std::max(t_inv, t_mul), 100.0 * (t_both - t_mul) / t_inv);
}

}  // namespace

int main(int argc, char** argv) {
  context cx;
  if (argc > 1) cx.iter_scale = static_cast<unsigned>(std::max(1, std::atoi(argv[1])));
  uint64_t seed = std::random_device{}();
  if (const char* s = std::getenv("CUZK_TEST_SEED")) seed = std::strtoull(s, nullptr, 0);
  cx.rng.seed(seed);
  int clock_khz = 0;
  CHECK(cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, 0));
  cudaDeviceProp prop{};
  CHECK(cudaGetDeviceProperties(&prop, 0));
  std::printf("field_product_bench: %s, %d SMs, max clock %d MHz, seed %llu (CUZK_TEST_SEED=%llu reruns it)\n",
              prop.name, prop.multiProcessorCount, clock_khz / 1000, static_cast<unsigned long long>(seed),
              static_cast<unsigned long long>(seed));
  using cuzk::ff::fp;
  using cuzk::ff::fr;
  rate<fp_cur, fp, fp32>(cx, 512);
  rate<fp_eo, fp, fp32>(cx, 512);
  rate<fp_eo_opaque, fp, fp32>(cx, 512);
  rate<fp_eo_lazy, fp, fp32>(cx, 512);
  rate<fp_wide, fp, fp32>(cx, 512);
  rate<fp_cur_sqr, fp, fp32>(cx, 512);
  rate<fp_wide_sqr, fp, fp32>(cx, 512);
  rate<fp_cur_call, fp, fp32>(cx, 512);
  rate<fp_eo_call, fp, fp32>(cx, 512);
  rate<fp_wide_call, fp, fp32>(cx, 512);
  rate<fp_ka, fp, fp32>(cx, 512);
  rate<fp_ka_call, fp, fp32>(cx, 512);
  rate_f64_and_mixed(cx, 512);
  rate<fr_cur, fr, fr32>(cx, 1024);
  rate<fr_portable, fr, fr32>(cx, 1024);
  rate<fr_eo, fr, fr32>(cx, 1024);
  rate<fr_eo_opaque, fr, fr32>(cx, 1024);
  rate<fr_ka, fr, fr32>(cx, 1024);
  rate<fr_wide, fr, fr32>(cx, 1024);
  inverse_rate<inv_fermat>(cx, 4);
  inverse_rate<inv_safegcd>(cx, 4);
  for (unsigned muls : {25u, 50u, 100u}) inverse_product_overlap(cx, 4, muls);
  std::printf("field_product_bench: %s\n", cx.all_ok ? "all variants match the CPU" : "MISMATCHES (see above)");
  return cx.all_ok ? 0 : 1;
}
