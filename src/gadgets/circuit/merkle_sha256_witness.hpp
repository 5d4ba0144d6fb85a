// Native twin of the binary SHA-256 Merkle inclusion circuit (merkle_circuit.hpp por_circuit
// with merkle_hash::sha256, leaf and root given as values: a TreeD opening): the aux and input
// values in allocation order, without a constraint system.
//
// Aux layout: the leaf; per level: the index bit, the sibling, insert_2's two picks, the 255
// LE bits of each child (to_bits_le), the SHA-256 circuit's values for the 64-byte message
// (the children's LE bytes; bit 255 of each child is a constant 0) from witness::sha256, and
// the packed digest (its LE value with the top two bits cleared: Filecoin's trunc254 node);
// then the root. Inputs: the leaf index, then the root when public. 45,335 aux values per level.
#pragma once

#include <cstddef>
#include <span>
#include <vector>

#include "gadgets/native/merkle_tree.hpp"
#include "gadgets/native/merkle_witness.hpp"

namespace cuzk::gadgets::witness {

// Aux values of one SHA-256 PoR of `levels` binary levels.
std::size_t por_sha256_witness_size(std::size_t levels);

// Appends the values to aux and inputs; returns the computed root. std::invalid_argument if a
// level is not binary or the path has more than 254 levels.
ff::fr por_sha256_witness(const ff::fr& leaf, std::span<const native::merkle_path_level<ff::fr>> path,
                          const ff::fr& root, native::por_root_visibility visibility, std::vector<ff::fr>& aux,
                          std::vector<ff::fr>& inputs);

}  // namespace cuzk::gadgets::witness
