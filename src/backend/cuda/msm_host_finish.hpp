// The MSMs' last host step: the window sums the device leaves (a few per window) combined into
// the result. Compiled as ordinary C++, not by nvcc: host code in .cu files gets the portable
// field arithmetic without unrolling (ff/mont_field.hpp) instead of the x86 mulx/adx kernels
// (ff/mont_x86.hpp): on the development machine a G1 XYZZ addition 1,367 ns against 471, a G2
// one 8,209 against 1,257; on the H200 machine's CPU ~4 us per G1 sum, 0.6-3.8 ms per G1 MSM
// and ~2.4 ms per G2 MSM of a proof, with the GPU idle.
#pragma once

#include <span>

#include "ec/curves.hpp"
#include "ec/point.hpp"

namespace cuzk::cuda {

// sum_w 2^(bits of the windows below w) * sum_j sums[w * per_window + j], by Horner from the top
// window: window_bits[w] doublings of the sum of the windows above w, then w's sums added.
// sums.size() == window_bits.size() * per_window.
template <class Curve>
ec::jacobian_point<Curve> combine_window_sums(std::span<const ec::xyzz_point<Curve>> sums, unsigned per_window,
                                              std::span<const unsigned> window_bits);

// The sum of the points.
template <class Curve>
ec::xyzz_point<Curve> sum_points(std::span<const ec::xyzz_point<Curve>> points);

extern template ec::g1_jacobian combine_window_sums<ec::g1_curve>(std::span<const ec::g1_xyzz>, unsigned,
                                                                  std::span<const unsigned>);
extern template ec::g2_jacobian combine_window_sums<ec::g2_curve>(std::span<const ec::g2_xyzz>, unsigned,
                                                                  std::span<const unsigned>);
extern template ec::g1_xyzz sum_points<ec::g1_curve>(std::span<const ec::g1_xyzz>);
extern template ec::g2_xyzz sum_points<ec::g2_curve>(std::span<const ec::g2_xyzz>);

}  // namespace cuzk::cuda
