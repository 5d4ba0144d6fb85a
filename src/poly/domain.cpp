#include "poly/domain.hpp"

#include <stdexcept>
#include <string>

namespace cuzk::poly {

radix2_domain::radix2_domain(unsigned log_size, int /*tag*/) : log_size_(log_size) {
  // omega = ROOT_OF_UNITY^(2^(32 - k)): 32 - k squarings, as bellperson's from_coeffs.
  omega_ = fr_root_of_unity_2_32;
  for (unsigned i = log_size; i < max_log_size; ++i) omega_ = omega_.square();
  omega_inv_ = omega_.inverse();
  size_inv_ = fr::from_u64(uint64_t{1} << log_size).inverse();  // n <= 2^32 fits u64
  g_ = fr::from_u64(fr_multiplicative_generator);
  g_inv_ = g_.inverse();
  z_coset_ = z(g_);
  z_coset_inv_ = z_coset_.inverse();
}

radix2_domain::radix2_domain(std::size_t min_size) : radix2_domain(0u, 0) {
  unsigned k = 0;
  while ((std::size_t{1} << k) < min_size) {
    ++k;
    if (k > max_log_size)
      throw std::length_error("radix2_domain: size " + std::to_string(min_size) + " exceeds 2^32");
  }
  if (k != 0) *this = radix2_domain(k, 0);
}

radix2_domain radix2_domain::of_log_size(unsigned log_size) {
  if (log_size > max_log_size)
    throw std::length_error("radix2_domain: log size " + std::to_string(log_size) + " exceeds 32");
  return radix2_domain(log_size, 0);
}

fr radix2_domain::z(const fr& tau) const {
  fr t = tau;
  for (unsigned i = 0; i < log_size_; ++i) t = t.square();  // tau^(2^k)
  return t - fr::one();
}

}  // namespace cuzk::poly
