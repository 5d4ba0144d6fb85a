// Small helpers shared by the circuit gadgets: type aliases, the 0/1 field constants and a
// trait telling whether a constraint system consumes linear combinations at all.
#pragma once

#include <type_traits>

#include "r1cs/constraint_system.hpp"
#include "r1cs/linear_combination.hpp"
#include "r1cs/result.hpp"
#include "r1cs/witness_builder.hpp"

namespace cuzk::gadgets {

using fr = r1cs::fr;
using lc_t = r1cs::linear_combination;

// 0 or 1 as a field element (the value of an allocated bit).
inline fr bit_fr(bool b) { return b ? fr::one() : fr::zero(); }

// False for constraint systems that never evaluate linear-combination arguments (the witness
// builder): gadgets that assemble linear combinations outside enforce() lambdas (MultiEq's
// accumulators, packed sums) skip that work for them. Cost saved on the SHA-256 witness path:
// one LC term merge per carry bit.
template <class CS>
inline constexpr bool needs_linear_combinations = !std::is_same_v<std::remove_cvref_t<CS>, r1cs::witness_builder>;

}  // namespace cuzk::gadgets
