// multi_eq: bellpepper's MultiEq (bp:src/gadgets/multieq.rs). Many small equalities
// lhs_k = rhs_k, each known to fit in num_bits_k bits, are packed into one constraint
//   (sum_k 2^{o_k} lhs_k) * ONE = sum_k 2^{o_k} rhs_k,   o_k = bits used before k,
// as long as the total stays below Fr's capacity (254 bits). The packed constraint is emitted
// lazily: when the next equality would not fit (before adding it), and when the multi_eq is
// destroyed with anything pending. Constraint order therefore depends on these flush points,
// and SHA-256's shape with it: keep one multi_eq alive exactly as long as bellpepper does (one
// per compression function call).
//
// Constraints are named "multieq N" (N counts flushes) in the namespace current at flush time.
// For constraint systems that ignore linear combinations (the witness builder) only the bit
// accounting runs, so the constraint count stays exact at no LC cost.
#pragma once

#include <array>
#include <cassert>
#include <cstddef>
#include <string>

#include "gadgets/circuit/gadget_support.hpp"

namespace cuzk::gadgets {

// Fr::CAPACITY: the number of bits every value below 2^CAPACITY fits in without wrapping.
inline constexpr std::size_t fr_capacity = fr::bits - 1;  // 254

// 2^k for k < 256, computed once.
inline const fr& pow2_fr(std::size_t k) {
  static const std::array<fr, 256> table = [] {
    std::array<fr, 256> t{};
    t[0] = fr::one();
    for (std::size_t i = 1; i < t.size(); ++i) t[i] = t[i - 1] + t[i - 1];
    return t;
  }();
  return table[k];
}

template <r1cs::constraint_system CS>
class multi_eq {
 public:
  explicit multi_eq(CS& cs) : cs_(cs) {}
  ~multi_eq() {
    if (bits_used_ > 0) accumulate();
  }
  multi_eq(const multi_eq&) = delete;
  multi_eq& operator=(const multi_eq&) = delete;

  CS& cs() { return cs_; }

  // Adds lhs = rhs (both below 2^num_bits). lhs/rhs are ignored when the CS ignores LCs.
  void enforce_equal(std::size_t num_bits, const lc_t& lhs, const lc_t& rhs) {
    if (fr_capacity <= bits_used_ + num_bits) accumulate();
    assert(fr_capacity > bits_used_ + num_bits);
    if constexpr (needs_linear_combinations<CS>) {
      const fr& coeff = pow2_fr(bits_used_);
      lhs_.add_scaled(coeff, lhs);
      rhs_.add_scaled(coeff, rhs);
    }
    bits_used_ += num_bits;
  }

 private:
  void accumulate() {
    const std::size_t ops = ops_;
    cs_.enforce([ops] { return "multieq " + std::to_string(ops); }, [&](lc_t) { return std::move(lhs_); },
                [](lc_t lc) { return lc + CS::one(); }, [&](lc_t) { return std::move(rhs_); });
    lhs_.clear();
    rhs_.clear();
    bits_used_ = 0;
    ++ops_;
  }

  CS& cs_;
  std::size_t ops_ = 0;
  std::size_t bits_used_ = 0;
  lc_t lhs_, rhs_;
};

}  // namespace cuzk::gadgets
