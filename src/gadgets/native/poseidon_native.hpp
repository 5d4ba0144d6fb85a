// Native Poseidon hash, neptune-compatible (the twin of the Poseidon circuit gadget and the
// engine behind Filecoin's TreeR/TreeC/comm_r hashing). Two implementations of one function:
//   * poseidon_permute_reference: neptune's "Correct" mode, straight from the definition
//     (R_F/2 full rounds, R_P partial rounds, R_F/2 full rounds; each round adds the round
//     constants, applies x^5 (to all elements or to element 0) and multiplies by the MDS
//     matrix) — the slow twin tests compare against;
//   * poseidon_permute: neptune's "OptimizedStatic" mode (compressed round constants added
//     after the S-boxes, pre-sparse matrix, sparse matrices in the partial rounds), with
//     delayed Montgomery reduction in the matrix products.
// The hash of a preimage is element 1 of the permuted state [domain_tag, preimage..., 0...].
#pragma once

#include <cstddef>
#include <span>

#include "gadgets/native/poseidon_params.hpp"

namespace cuzk::gadgets::native {

// Permutes state[0 .. p.width) in place.
void poseidon_permute(const poseidon_params& p, fr* state);
void poseidon_permute_reference(const poseidon_params& p, fr* state);

// Neptune Poseidon::new_with_preimage(preimage).hash() with an explicit domain tag: state =
// [domain_tag, preimage..., zeros] (preimage.size() <= p.arity; shorter preimages are
// zero-padded as neptune's ConstantLength type does), output state[1] after the permutation.
// Throws std::invalid_argument if the preimage is longer than the arity.
fr poseidon_hash(const poseidon_params& p, const fr& domain_tag, std::span<const fr> preimage);
fr poseidon_hash_reference(const poseidon_params& p, const fr& domain_tag, std::span<const fr> preimage);

// HashType::MerkleTree (tag 2^arity - 1); preimage.size() must equal p.arity (else
// std::invalid_argument). This is Filecoin's PoseidonHasher node/multi_node hash.
fr poseidon_hash(const poseidon_params& p, std::span<const fr> preimage);

// Same with Filecoin's constants for arity = preimage.size() (2, 4, 8, 11, 16, 24 or 36).
fr poseidon_hash(std::span<const fr> preimage);

// Fast fixed-arity forms for tree builders (Filecoin constants, MerkleTree tag).
fr poseidon_hash2(const fr& a, const fr& b);
fr poseidon_hash4(const fr in[4]);
fr poseidon_hash8(const fr in[8]);
fr poseidon_hash11(const fr in[11]);

// filecoin-hashers PoseidonFunction::hash_md (arity 36, MerkleTree tag): acc = input[0]; for
// each chunk c of up to 35 of input[1..]: acc = Poseidon36([acc, c..., zero padding]).
// input.size() must be >= 2 (else std::invalid_argument).
fr poseidon_hash_md(std::span<const fr> input);

// sum_{i<n} a[i] * b[i * b_stride] with one Montgomery reduction for the whole sum (the kernel
// of the matrix products above; b_stride = t walks a matrix column); n <= 128 (else
// std::invalid_argument). Equals the naive sum of products exactly.
fr fr_dot_product(const fr* a, const fr* b, std::size_t n, std::size_t b_stride = 1);

}  // namespace cuzk::gadgets::native
