// The native twin of the Poseidon Merkle inclusion circuit (gadgets/circuit/merkle_circuit.hpp
// por_circuit with merkle_hash::poseidon and the leaf and root given as values): the aux and
// input values that circuit allocates, in its order, computed directly.
//
// Aux layout: the leaf; per level (arity a = siblings + 1): log2(a) index bits, the a - 1
// siblings, the insertion's values (a = 2: 2 picks; 4: 8 picks; 8: nor(b0, b1), and(b0, b1),
// 20 picks), the Poseidon witness of the level's hash (poseidon_witness.hpp); then the root.
// Inputs: the packed index bits (the leaf index, one field element), then the root when public.
#pragma once

#include <cstddef>
#include <span>
#include <vector>

#include "gadgets/native/merkle_tree.hpp"

namespace cuzk::gadgets::native {

// Aux values of one PoR over a path with these per-level arities (2, 4 or 8 each).
std::size_t por_poseidon_witness_size(const tree_shape& shape);

enum class por_root_visibility { private_root, public_root };

// Appends the PoR's aux values to aux and its inputs to inputs; returns the computed root
// (which equals `root` iff the path opens the leaf). std::invalid_argument if a level's arity
// is not 2, 4 or 8, an index is out of range, or the index bits exceed 254.
fr por_poseidon_witness(const fr& leaf, std::span<const merkle_path_level<fr>> path, const fr& root,
                        por_root_visibility visibility, std::vector<fr>& aux, std::vector<fr>& inputs);

// One PoR of a batch: inputs, where its values go, and (on return) the root its path computes.
struct por_witness_job {
  fr leaf;
  std::span<const merkle_path_level<fr>> path;
  fr root;
  fr* aux = nullptr;     // por_poseidon_witness_size(shape) values
  fr* inputs = nullptr;  // 1 value (the leaf index), 2 with a public root
  fr computed_root;      // out
};

// The same values for many PoRs whose paths share one shape (a WindowPoSt partition's
// challenges, a PoRep partition's column openings): level by level, every job's node hash goes
// through the batched Poseidon (eight lanes of AVX-512 IFMA where available). Equal, value for
// value, to por_poseidon_witness on each job. std::invalid_argument as there, or if the paths'
// shapes differ.
void por_poseidon_witness_batch(std::span<por_witness_job> jobs, por_root_visibility visibility);

}  // namespace cuzk::gadgets::native
