// Groth16 proving parameters (the SRS), as in bellperson's Parameters and its .params layout
// (filecoin.md §1.3):
//   verifying key (.vk layout)
//   u32-BE h_len,    h_len    x G1 uncompressed   H query, i = 0 .. m-2 (m = FFT domain size)
//   u32-BE l_len,    l_len    x G1 uncompressed   L query, one per aux variable
//   u32-BE a_len,    a_len    x G1 uncompressed   A query, identity points removed
//   u32-BE b_g1_len, b_g1_len x G1 uncompressed   B query in G1, identity points removed
//   u32-BE b_g2_len, b_g2_len x G2 uncompressed   B query in G2, identity points removed
// Size = 868 + 96 ic + 20 + 96 (h + l + a + b_g1) + 192 b_g2. No point is ever the identity.
// The vectors are the MSM bases as the prover uses them (contiguous affine points).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "groth16/verifying_key.hpp"

namespace cuzk::groth16 {

struct parameters {
  verifying_key vk;
  std::vector<g1_affine> h;
  std::vector<g1_affine> l;
  std::vector<g1_affine> a;
  std::vector<g1_affine> b_g1;
  std::vector<g2_affine> b_g2;

  bool operator==(const parameters&) const = default;
};

// Where everything lies in a .params file; every run was checked to fit in the file.
struct params_layout {
  point_run ic, h, l, a, b_g1, b_g2;  // offsets of the first point of each section
  uint64_t size = 0;                  // = the file size (no trailing bytes)
};

inline constexpr uint64_t parameters_size(uint64_t ic, uint64_t h, uint64_t l, uint64_t a, uint64_t b_g1,
                                          uint64_t b_g2) {
  return verifying_key_size(ic) + 20 + 96 * (h + l + a + b_g1) + 192 * b_g2;
}
inline uint64_t parameters_size(const parameters& p) {
  return parameters_size(p.vk.ic.size(), p.h.size(), p.l.size(), p.a.size(), p.b_g1.size(), p.b_g2.size());
}

}  // namespace cuzk::groth16
