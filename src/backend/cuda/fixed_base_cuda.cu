// Fixed-base scalar multiplication kernels (fixed_base_cuda.hpp has the algorithm and costs).
#include "backend/cuda/fixed_base_cuda.hpp"

#include <cuda_runtime.h>

#include <algorithm>
#include <cstring>

#include "backend/cuda/cuda_status.cuh"
#include "backend/cuda/g2_device.cuh"
#include "groth16/fixed_base.hpp"

namespace cuzk::cuda {

folded_scalar fold_scalar(const ff::fr& k) {
  bool negate = false;
  const ff::bigint<4> s = groth16::fold_to_half(k, negate);
  return {s.w[0], s.w[1], s.w[2], s.w[3] | (negate ? uint64_t{1} << 63 : 0)};
}

namespace {

using Mul = dev::fp_mul_ptx_call;
using dev::fp32;

// a^(p-2) (Fermat), a != 0: 4-bit fixed windows over the 384-bit exponent: 14 products for the
// table, 96 x (4 squarings + 1 product); ~494 products.
__device__ __noinline__ fp32 setup_fp_inverse(fp32 a) {
  constexpr uint32_t e[12] = {dev::fp_consts::limb(0) - 2u, dev::fp_consts::limb(1),  dev::fp_consts::limb(2),
                              dev::fp_consts::limb(3),      dev::fp_consts::limb(4),  dev::fp_consts::limb(5),
                              dev::fp_consts::limb(6),      dev::fp_consts::limb(7),  dev::fp_consts::limb(8),
                              dev::fp_consts::limb(9),      dev::fp_consts::limb(10), dev::fp_consts::limb(11)};
  static_assert(dev::fp_consts::limb(0) >= 2, "p - 2 borrows");
  fp32 table[16];
  table[0] = dev::fp_one();
  table[1] = a;
#pragma unroll 1
  for (int i = 2; i < 16; ++i) table[i] = Mul::mul(table[i - 1], a);
  fp32 r = dev::fp_one();
#pragma unroll
  for (int w = 11; w >= 0; --w) {
    const uint32_t word = e[w];
#pragma unroll 1
    for (int sh = 28; sh >= 0; sh -= 4) {
      r = Mul::sqr(Mul::sqr(Mul::sqr(Mul::sqr(r))));
      r = Mul::mul(r, table[(word >> sh) & 15u]);
    }
  }
  return r;
}

// Per curve: the inverse of the field element and the affine conversion of an XYZZ point.
struct g1_kind {
  using affine = dev::g1_affine_dev;
  using xyzz = dev::g1_xyzz_dev;
  using ops = dev::g1_ops<Mul>;
  static __device__ __forceinline__ affine to_affine(const xyzz& p, bool negate) {
    if (ops::is_identity(p)) return {dev::fp_zero(), dev::fp_zero()};
    const fp32 zzz_inv = setup_fp_inverse(p.ZZZ);
    const fp32 zz_inv = Mul::sqr(Mul::mul(p.ZZ, zzz_inv));  // (ZZ / ZZZ)^2 = 1 / Z^2
    affine a{Mul::mul(p.X, zz_inv), Mul::mul(p.Y, zzz_inv)};
    if (negate) a.y = dev::fp_neg(a.y);
    return a;
  }
  static __device__ __forceinline__ void negate_y(affine& a) { a.y = dev::fp_neg(a.y); }
  static __device__ __forceinline__ void store(affine* out, const affine& a) {
    dev::store_fp(&out->x, a.x);
    dev::store_fp(&out->y, a.y);
  }
};

struct g2_kind {
  using affine = dev::g2_affine_dev;
  using xyzz = dev::g2_xyzz_dev;
  using ops = dev::g2_ops<Mul>;
  using F = dev::fp2_mul_policy<Mul>;
  // (c0 + c1 u)^-1 = (c0 - c1 u) / (c0^2 + c1^2)   (u^2 = -1)
  static __device__ __forceinline__ dev::fp2_dev inverse(const dev::fp2_dev& a) {
    const fp32 n = dev::fp_add(Mul::sqr(a.c0), Mul::sqr(a.c1));
    const fp32 ni = setup_fp_inverse(n);
    return {Mul::mul(a.c0, ni), dev::fp_neg(Mul::mul(a.c1, ni))};
  }
  static __device__ __forceinline__ affine to_affine(const xyzz& p, bool negate) {
    if (ops::is_identity(p)) return {dev::fp2_zero(), dev::fp2_zero()};
    const dev::fp2_dev zzz_inv = inverse(p.ZZZ);
    const dev::fp2_dev zz_inv = F::sqr(F::mul(p.ZZ, zzz_inv));
    affine a{F::mul(p.X, zz_inv), F::mul(p.Y, zzz_inv)};
    if (negate) a.y = dev::fp2_neg(a.y);
    return a;
  }
  static __device__ __forceinline__ void negate_y(affine& a) { a.y = dev::fp2_neg(a.y); }
  static __device__ __forceinline__ void store(affine* out, const affine& a) {
    dev::store_fp2(&out->x, a.x);
    dev::store_fp2(&out->y, a.y);
  }
};

// One thread per scalar: signed digits as fold_scalar / groth16::fixed_base_table::digits
// derive them, one mixed addition per nonzero digit, then affine.
template <class K>
__global__ void __launch_bounds__(128) fixed_base_kernel(const folded_scalar* __restrict__ scalars, std::size_t n,
                                                         const typename K::affine* __restrict__ table, unsigned c,
                                                         unsigned windows, typename K::affine* __restrict__ out) {
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const folded_scalar k = scalars[i];
  uint64_t s[4] = {k[0], k[1], k[2], k[3] & ~(uint64_t{1} << 63)};
  const bool negate = (k[3] >> 63) != 0;
  const int32_t half = 1 << (c - 1), full = 2 * half;
  const uint64_t mask = static_cast<uint64_t>(full - 1);
  int32_t carry = 0;
  typename K::xyzz acc = K::ops::identity();
#pragma unroll 1
  for (unsigned j = 0; j < windows; ++j) {
    const unsigned off = j * c, limb = off / 64, sh = off % 64;
    uint64_t v = s[limb] >> sh;
    if (sh + c > 64 && limb + 1 < 4) v |= s[limb + 1] << (64 - sh);
    int32_t d = static_cast<int32_t>(v & mask) + carry;
    carry = d > half ? 1 : 0;
    d -= carry * full;
    if (d == 0) continue;
    typename K::affine q = dev::load_affine(table + static_cast<std::size_t>(j) * half + ((d > 0 ? d : -d) - 1));
    if (d < 0) K::negate_y(q);
    acc = K::ops::add_mixed(acc, q);
  }
  K::store(out + i, K::to_affine(acc, negate));
}

template <class Dev, class Host>
bool upload_table(void*& ptr, std::span<const Host> points, std::string& error) {
  if (points.empty()) return true;
  if (!ok(cudaMalloc(&ptr, points.size() * sizeof(Dev)), "cudaMalloc (fixed-base table)", error)) return false;
  std::vector<Dev> stage(points.size());
  for (std::size_t i = 0; i < points.size(); ++i) {
    // Table points are never the identity (multiples d 2^(cj) P of a prime-order P, d < r).
    std::memcpy(&stage[i].x, &points[i].x, sizeof(points[i].x));
    std::memcpy(&stage[i].y, &points[i].y, sizeof(points[i].y));
  }
  return ok(cudaMemcpy(ptr, stage.data(), stage.size() * sizeof(Dev), cudaMemcpyHostToDevice), "copy fixed-base table",
            error);
}

unsigned windows_for(unsigned c) { return (255 + c - 1) / c; }

}  // namespace

struct fixed_base_context::impl {
  cudaStream_t stream = nullptr;
  void* g1_table = nullptr;
  void* g2_table = nullptr;
  unsigned c1 = 0, c2 = 0;
  std::size_t g1_points = 0, g2_points = 0;
  folded_scalar* staging = nullptr;
  std::size_t chunk = 0;
  ~impl() {
    if (stream) cudaStreamSynchronize(stream);
    for (void* p : {g1_table, g2_table, static_cast<void*>(staging)})
      if (p) cudaFree(p);
    if (stream) cudaStreamDestroy(stream);
  }

  template <class K, class Bases>
  bool run(std::span<const folded_scalar> scalars, Bases& out, std::size_t offset, const void* table, unsigned c,
           std::string& error) {
    if (scalars.empty()) return true;
    if (!table) {
      error = "fixed_base_context: no table for this group";
      return false;
    }
    if (out.size() < offset + scalars.size()) {
      error = "fixed_base_context: output bases too small";
      return false;
    }
    // The bases' storage is written in place (the MSM reads it as its own upload would leave it).
    auto* dst = static_cast<typename K::affine*>(const_cast<void*>(out.device_data())) + offset;
    for (std::size_t done = 0; done < scalars.size(); done += chunk) {
      const std::size_t m = std::min(chunk, scalars.size() - done);
      if (!ok(cudaMemcpyAsync(staging, scalars.data() + done, m * sizeof(folded_scalar), cudaMemcpyHostToDevice,
                              stream),
              "copy scalars", error))
        return false;
      constexpr unsigned block = 128;
      fixed_base_kernel<K><<<static_cast<unsigned>((m + block - 1) / block), block, 0, stream>>>(
          staging, m, static_cast<const typename K::affine*>(table), c, windows_for(c), dst + done);
      if (!launched("fixed_base_kernel", error)) return false;
    }
    return true;
  }
};

fixed_base_context::fixed_base_context() : impl_(std::make_unique<impl>()) {}
fixed_base_context::~fixed_base_context() = default;

std::size_t fixed_base_context::device_bytes_for(std::size_t g1_table_points, std::size_t g2_table_points,
                                                 std::size_t chunk) {
  return g1_table_points * sizeof(dev::g1_affine_dev) + g2_table_points * sizeof(dev::g2_affine_dev) +
         chunk * sizeof(folded_scalar);
}

std::unique_ptr<fixed_base_context> fixed_base_context::create(std::span<const ec::g1_affine> g1_table,
                                                               unsigned g1_window_bits,
                                                               std::span<const ec::g2_affine> g2_table,
                                                               unsigned g2_window_bits, std::size_t chunk,
                                                               std::string& error) {
  std::unique_ptr<fixed_base_context> ctx(new fixed_base_context());
  impl& m = *ctx->impl_;
  auto expect = [&](std::size_t points, unsigned c) {
    return points == 0 || (c >= 2 && c <= 24 && points == std::size_t{windows_for(c)} << (c - 1));
  };
  if (!expect(g1_table.size(), g1_window_bits) || !expect(g2_table.size(), g2_window_bits) || chunk == 0) {
    error = "fixed_base_context: table sizes do not match the window bits";
    return nullptr;
  }
  m.c1 = g1_window_bits;
  m.c2 = g2_window_bits;
  m.chunk = chunk;
  if (!ok(cudaStreamCreateWithFlags(&m.stream, cudaStreamNonBlocking), "cudaStreamCreate", error) ||
      !upload_table<dev::g1_affine_dev>(m.g1_table, g1_table, error) ||
      !upload_table<dev::g2_affine_dev>(m.g2_table, g2_table, error) ||
      !ok(cudaMalloc(reinterpret_cast<void**>(&m.staging), chunk * sizeof(folded_scalar)), "cudaMalloc (scalars)",
          error))
    return nullptr;
  return ctx;
}

bool fixed_base_context::mul(std::span<const folded_scalar> scalars, g1_device_bases& out, std::size_t offset,
                             std::string& error) {
  return impl_->run<g1_kind>(scalars, out, offset, impl_->g1_table, impl_->c1, error);
}
bool fixed_base_context::mul(std::span<const folded_scalar> scalars, g2_device_bases& out, std::size_t offset,
                             std::string& error) {
  return impl_->run<g2_kind>(scalars, out, offset, impl_->g2_table, impl_->c2, error);
}
bool fixed_base_context::synchronize(std::string& error) {
  return ok(cudaStreamSynchronize(impl_->stream), "fixed_base synchronize", error);
}

namespace {
template <class Dev, class Host, class Bases>
bool download_points(const Bases& bases, std::vector<Host>& out, std::string& error) {
  std::vector<Dev> stage(bases.size());
  out.assign(bases.size(), Host::identity());
  if (stage.empty()) return true;
  if (!ok(cudaMemcpy(stage.data(), bases.device_data(), stage.size() * sizeof(Dev), cudaMemcpyDeviceToHost),
          "download bases", error))
    return false;
  static const Dev zero{};
  for (std::size_t i = 0; i < stage.size(); ++i) {
    if (std::memcmp(&stage[i], &zero, sizeof(Dev)) == 0) continue;  // (0, 0): the identity
    std::memcpy(&out[i].x, &stage[i].x, sizeof(out[i].x));
    std::memcpy(&out[i].y, &stage[i].y, sizeof(out[i].y));
    out[i].infinity = false;
  }
  return true;
}
}  // namespace

bool download_bases(const g1_device_bases& bases, std::vector<ec::g1_affine>& out, std::string& error) {
  return download_points<dev::g1_affine_dev>(bases, out, error);
}
bool download_bases(const g2_device_bases& bases, std::vector<ec::g2_affine>& out, std::string& error) {
  return download_points<dev::g2_affine_dev>(bases, out, error);
}

}  // namespace cuzk::cuda
