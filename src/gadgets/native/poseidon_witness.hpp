// The native twin of the Poseidon circuit (gadgets/circuit/poseidon_circuit.hpp): computes the
// aux values that circuit allocates, in its allocation order, without a constraint system. A
// witness generator appends them to the partition's aux vector after the preimage's variables.
//
// Layout (t = arity + 1, R_F = 8): first full round, for each preimage element i = 1..a:
// (l + rk)^2, (l + rk)^4, (l + rk)^5 + rk'; then for each later S-box (t per full round, one
// per partial round, in round order): the S-box input v, v^2, v^4, v^5 (+ rk); then the hash.
// 3a + 28t + 4 R_P + 1 values in all (poseidon_witness_size).
#pragma once

#include <cstddef>
#include <span>

#include "gadgets/native/poseidon_params.hpp"

namespace cuzk::gadgets::native {

std::size_t poseidon_witness_size(const poseidon_params& p);

// Writes poseidon_witness_size(p) values to aux and returns the hash (= the last value).
// std::invalid_argument if preimage.size() != p.arity or aux is too small.
fr poseidon_witness(const poseidon_params& p, const fr& domain_tag, std::span<const fr> preimage, std::span<fr> aux);

}  // namespace cuzk::gadgets::native
