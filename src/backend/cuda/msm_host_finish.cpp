#include "backend/cuda/msm_host_finish.hpp"

namespace cuzk::cuda {

template <class Curve>
ec::jacobian_point<Curve> combine_window_sums(std::span<const ec::xyzz_point<Curve>> sums, unsigned per_window,
                                              std::span<const unsigned> window_bits) {
  auto acc = ec::xyzz_point<Curve>::identity();
  for (std::size_t w = window_bits.size(); w-- > 0;) {
    for (unsigned i = 0; i < window_bits[w] && !acc.is_identity(); ++i) acc = acc.dbl();
    for (unsigned j = 0; j < per_window; ++j) acc = acc + sums[w * per_window + j];
  }
  return acc.to_jacobian();
}

template <class Curve>
ec::xyzz_point<Curve> sum_points(std::span<const ec::xyzz_point<Curve>> points) {
  auto acc = ec::xyzz_point<Curve>::identity();
  for (const auto& p : points) acc = acc + p;
  return acc;
}

template ec::g1_jacobian combine_window_sums<ec::g1_curve>(std::span<const ec::g1_xyzz>, unsigned,
                                                           std::span<const unsigned>);
template ec::g2_jacobian combine_window_sums<ec::g2_curve>(std::span<const ec::g2_xyzz>, unsigned,
                                                           std::span<const unsigned>);
template ec::g1_xyzz sum_points<ec::g1_curve>(std::span<const ec::g1_xyzz>);
template ec::g2_xyzz sum_points<ec::g2_curve>(std::span<const ec::g2_xyzz>);

}  // namespace cuzk::cuda
