// Fixed-base scalar multiplication on the device: n scalars times one base point, written as
// affine points straight into device-resident MSM bases (g1_device_bases / g2_device_bases), for
// the device setup generator (setup_cuda.hpp). Plain C++ (no CUDA types).
//
// Table (built on the host by the caller, as groth16::fixed_base_table lays it out): W =
// ceil(255 / c) windows of c bits, window j holding d * 2^(c j) * P for d = 1 .. 2^(c-1), affine,
// at index j * 2^(c-1) + d - 1. c = 16: 2^19 points, 50 MB (G1) / 100 MB (G2) on the device.
// Scalars arrive folded (fold_scalar): k' = k or r - k (then the result is negated), k' < 2^254,
// so its signed c-bit digits d_j in [-2^(c-1)+1, 2^(c-1)] need no extra window and
// k P = sum_j d_j 2^(c j) P: at most W mixed additions, no doubling.
// Kernel: one thread per scalar; W XYZZ mixed additions (G1 10 Fp products each, G2 28) from the
// table in global memory, then one Fermat inversion of ZZZ (~570 Fp products, G2: one Fp
// inversion + ~10 products) and 4 products to affine: x = X (ZZ/ZZZ)^2, y = Y / ZZZ. Affine
// coordinates are unique, so the points equal the CPU generator's byte for byte.
// Cost per G1 point at c = 16: 16 x 10 + ~575 ~ 735 Fp products; at the measured 1.77e10
// products/s (docs/gpu.md, ptx32) ~ 42 ns per point, 2^27 points ~ 5.6 s. The inversion is 78%
// of it (a batched inversion per thread would cut it to ~3 products per point: not done yet).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "backend/cuda/msm_cuda.hpp"
#include "ec/point.hpp"

namespace cuzk::cuda {

// k' in limbs 0..3 (canonical, < 2^254), bit 255 set when k' = r - k (negate the result).
using folded_scalar = std::array<uint64_t, 4>;
folded_scalar fold_scalar(const ff::fr& k);

class fixed_base_context {
 public:
  // Uploads the two tables (either may be empty when that group is not needed). Scalars are
  // staged through a device buffer of `chunk` scalars. On the calling thread's current device.
  static std::unique_ptr<fixed_base_context> create(std::span<const ec::g1_affine> g1_table, unsigned g1_window_bits,
                                                    std::span<const ec::g2_affine> g2_table, unsigned g2_window_bits,
                                                    std::size_t chunk, std::string& error);
  ~fixed_base_context();
  fixed_base_context(const fixed_base_context&) = delete;
  fixed_base_context& operator=(const fixed_base_context&) = delete;

  // Device bytes create() allocates (for the arbiter, before creating).
  static std::size_t device_bytes_for(std::size_t g1_table_points, std::size_t g2_table_points, std::size_t chunk);

  // out[offset + i] = k_i * base for i < scalars.size(); out.size() >= offset + scalars.size().
  // Queued on the context's stream (the host scalars may be reused on return).
  bool mul(std::span<const folded_scalar> scalars, g1_device_bases& out, std::size_t offset, std::string& error);
  bool mul(std::span<const folded_scalar> scalars, g2_device_bases& out, std::size_t offset, std::string& error);
  bool synchronize(std::string& error);

 private:
  fixed_base_context();
  struct impl;
  std::unique_ptr<impl> impl_;
};

// Device bases back to the host ((0, 0) -> the identity); for tests and small outputs.
bool download_bases(const g1_device_bases& bases, std::vector<ec::g1_affine>& out, std::string& error);
bool download_bases(const g2_device_bases& bases, std::vector<ec::g2_affine>& out, std::string& error);

}  // namespace cuzk::cuda
