// radix2_domain: bellperson's EvaluationDomain constants for BLS12-381's Fr, without the data.
//
//   n = 2^k >= the requested size (k <= 32 = Fr's two-adicity);
//   omega = ROOT_OF_UNITY^(2^(32-k)) with ROOT_OF_UNITY = 7^t (r - 1 = 2^32 t), blstrs' and
//           bellperson's primitive 2^32-th root, so constraint i sits at omega^i exactly as there;
//   coset generator g = 7 (Fr's multiplicative generator in blstrs; bellperson's coset shift);
//   z(X) = X^n - 1 vanishes on H = <omega>; on the coset g*H it is the constant g^n - 1.
//
// Note: ff::tonelli_shanks_data<fr>::root_of_unity is 5^t (5 is Fr's smallest non-residue,
// also ffjavascript's choice); it is a different primitive 2^32-th root and must NOT be used
// for Groth16 domains: with it constraint i would sit at a different point than the CRS assumes.
#pragma once

#include <cstddef>
#include <cstdint>

#include "ff/bls12_381.hpp"

namespace cuzk::poly {

using fr = ff::fr;

// Fr's multiplicative generator as blstrs/bellperson define it (Fr::MULTIPLICATIVE_GENERATOR).
inline constexpr uint64_t fr_multiplicative_generator = 7;

// 7^t, t = (r - 1) / 2^32: a primitive 2^32-th root of unity (blstrs' ROOT_OF_UNITY).
inline constexpr fr fr_root_of_unity_2_32 = fr::from_u64(fr_multiplicative_generator).pow(fr::odd_part);
static_assert(fr_root_of_unity_2_32 ==
                  fr::from_hex("16a2a19edfe81f20d09b681922c813b4b63683508c2280b93829971f439f0d2b"),
              "blstrs / bellperson ROOT_OF_UNITY");

class radix2_domain {
 public:
  static constexpr unsigned max_log_size = fr::two_adicity;  // 32

  // The smallest domain with n >= min_size (n = 1 for min_size <= 1). Throws std::length_error
  // when min_size > 2^32. (bellperson itself refuses n = 2^32; we allow it.)
  explicit radix2_domain(std::size_t min_size);
  // n = 2^log_size; throws std::length_error when log_size > 32.
  static radix2_domain of_log_size(unsigned log_size);

  std::size_t size() const { return std::size_t{1} << log_size_; }
  unsigned log_size() const { return log_size_; }
  const fr& omega() const { return omega_; }          // primitive n-th root of unity
  const fr& omega_inv() const { return omega_inv_; }  // bellperson's omegainv
  const fr& size_inv() const { return size_inv_; }    // 1/n, bellperson's minv
  const fr& coset_generator() const { return g_; }    // g = 7
  const fr& coset_generator_inv() const { return g_inv_; }  // bellperson's geninv
  const fr& z_on_coset() const { return z_coset_; }   // g^n - 1 (nonzero: g is no n-th root)
  const fr& z_on_coset_inv() const { return z_coset_inv_; }

  // z(tau) = tau^n - 1 (bellperson's EvaluationDomain::z). Cost: k squarings.
  fr z(const fr& tau) const;
  // omega^i. Cost: <= 2k multiplications.
  fr element(std::size_t i) const { return omega_.pow_u64(i); }

 private:
  explicit radix2_domain(unsigned log_size, int /*tag*/);
  unsigned log_size_ = 0;
  fr omega_, omega_inv_, size_inv_, g_, g_inv_, z_coset_, z_coset_inv_;
};

}  // namespace cuzk::poly
