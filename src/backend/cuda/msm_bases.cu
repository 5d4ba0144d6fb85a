// The MSMs' bases (msm_cuda.hpp): device_bases (g1_device_bases, g2_device_bases: device-resident, the
// parameter file's points converted to the device layout in host chunks) and pinned_bases (the
// same layout in page-locked host memory, for the streamed MSMs). No kernels: plain copies.
#include "backend/cuda/msm_cuda.hpp"

#include <cuda_runtime.h>

#include <algorithm>
#include <cstring>
#include <thread>
#include <utility>
#include <vector>

#include "backend/cuda/cuda_status.cuh"
#include "backend/cuda/g2_device.cuh"

namespace cuzk::cuda {

using dev::g1_affine_dev;
using dev::g2_affine_dev;

// ---------------------------------------------------------------------------------------------
// device_bases: G1 and G2 over their device affine layouts Dev.
// ---------------------------------------------------------------------------------------------
namespace {

template <class Dev, class Host>
bool upload_points(device_allocation& mem, std::span<const Host> points, std::string& error) {
  mem.reset();
  if (points.empty()) return true;
  if (!allocate_device(mem, points.size(), points.size() * sizeof(Dev), "cudaMalloc (bases)", error)) return false;
  // Host staging in chunks: the device form drops the flag byte and writes infinity as (0, 0).
  static_assert(sizeof(Dev) == 2 * sizeof(Host::x), "device affine = x, y");
  constexpr std::size_t chunk = std::size_t{1} << 18;
  std::vector<Dev> stage(std::min(chunk, points.size()));
  for (std::size_t off = 0; off < points.size(); off += chunk) {
    const std::size_t m = std::min(chunk, points.size() - off);
    for (std::size_t i = 0; i < m; ++i) {
      const Host& p = points[off + i];
      if (p.infinity) {
        std::memset(&stage[i], 0, sizeof(Dev));
      } else {
        std::memcpy(&stage[i].x, &p.x, sizeof(p.x));
        std::memcpy(&stage[i].y, &p.y, sizeof(p.y));
      }
    }
    if (!ok(cudaMemcpy(mem.as<Dev>() + off, stage.data(), m * sizeof(Dev), cudaMemcpyHostToDevice), "copy bases",
            error))
      return false;
  }
  return true;
}

template <class Dev, class Host>
bool upload_points_repeated(device_allocation& mem, std::span<const Host> distinct, std::size_t n,
                            std::string& error) {
  if (distinct.empty() && n) {
    error = "upload_repeated: no distinct points";
    return false;
  }
  if (!upload_points<Dev>(mem, distinct.subspan(0, std::min(n, distinct.size())), error)) return false;
  if (n <= distinct.size()) return true;
  device_allocation bigger;
  if (!allocate_device(bigger, n, n * sizeof(Dev), "cudaMalloc (bases)", error)) return false;
  auto* dst = bigger.as<Dev>();
  if (!ok(cudaMemcpy(dst, mem.get(), mem.count() * sizeof(Dev), cudaMemcpyDeviceToDevice), "copy bases", error))
    return false;
  // Doubling copies of a prefix whose length is a multiple of distinct.size() keep
  // dst[i] = distinct[i mod distinct.size()].
  for (std::size_t have = mem.count(); have < n;) {
    const std::size_t m = std::min(have, n - have);
    if (!ok(cudaMemcpy(dst + have, dst, m * sizeof(Dev), cudaMemcpyDeviceToDevice), "copy bases", error))
      return false;
    have += m;
  }
  mem = std::move(bigger);
  return ok(cudaDeviceSynchronize(), "upload_repeated", error);
}

}  // namespace

// The device layout of each parameter-file point type.
template <class Host>
struct device_layout;
template <>
struct device_layout<ec::g1_affine> {
  using type = g1_affine_dev;
};
template <>
struct device_layout<ec::g2_affine> {
  using type = g2_affine_dev;
};

template <class Host>
bool device_bases<Host>::upload(std::span<const Host> points, std::string& error) {
  return upload_points<typename device_layout<Host>::type>(mem_, points, error);
}
template <class Host>
bool device_bases<Host>::upload_repeated(std::span<const Host> distinct, std::size_t n, std::string& error) {
  return upload_points_repeated<typename device_layout<Host>::type>(mem_, distinct, n, error);
}
template class device_bases<ec::g1_affine>;
template class device_bases<ec::g2_affine>;

// ---------------------------------------------------------------------------------------------
// pinned_bases: points in page-locked host memory in the device layout (streamed MSMs).
// ---------------------------------------------------------------------------------------------
template <class Host>
bool pinned_bases<Host>::allocate(std::size_t n, std::string& error) {
  mem_.reset();
  return n == 0 || allocate_pinned(mem_, n, n * 2 * sizeof(Host::x), "cudaHostAlloc (pinned bases)", error);
}
template <class Host>
bool pinned_bases<Host>::upload(std::span<const Host> points, std::string& error) {
  if (!allocate(points.size(), error)) return false;
  // The device layout drops the flag byte and writes infinity as (0, 0): the same conversion as
  // upload_points, here straight into the pinned array, a slice per thread (a 2^27 query is
  // 12.9 GB: one thread would take seconds).
  constexpr std::size_t coord = sizeof(Host::x);
  auto* dst = mem_.as<unsigned char>();
  auto convert = [&](std::size_t begin, std::size_t end) {
    for (std::size_t i = begin; i < end; ++i) {
      unsigned char* d = dst + i * 2 * coord;
      if (points[i].infinity) {
        std::memset(d, 0, 2 * coord);
      } else {
        std::memcpy(d, &points[i].x, coord);
        std::memcpy(d + coord, &points[i].y, coord);
      }
    }
  };
  const std::size_t n = points.size();
  const std::size_t threads = std::clamp<std::size_t>(n >> 16, 1, 16);
  std::vector<std::thread> pool;
  for (std::size_t t = 1; t < threads; ++t) pool.emplace_back(convert, n * t / threads, n * (t + 1) / threads);
  convert(0, n / threads);
  for (std::thread& th : pool) th.join();
  return true;
}
template <class Host>
bool pinned_bases<Host>::copy_from(const device_bases<Host>& bases, std::string& error) {
  return allocate(bases.size(), error) &&
         (bases.size() == 0 || ok(cudaMemcpy(mem_.get(), bases.device_data(), bases.size() * 2 * sizeof(Host::x),
                                             cudaMemcpyDeviceToHost),
                                  "copy bases to pinned memory", error));
}
template class pinned_bases<ec::g1_affine>;
template class pinned_bases<ec::g2_affine>;

}  // namespace cuzk::cuda
