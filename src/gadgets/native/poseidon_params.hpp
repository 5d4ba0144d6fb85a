// Poseidon parameters exactly as neptune builds them (PoseidonConstants::new_with_strength_and_type
// with Strength::Standard), for BLS12-381's Fr, S-box x^5, width t = arity + 1:
//   * round numbers: R_F = 8, R_P from neptune's round_numbers.rs (arity 2:55 4:56 8:57 11:57
//     16:59 24:59 36:60);
//   * round constants: the Grain LFSR of the Poseidon reference script
//     (generate_parameters_grain.sage 1 1 255 t R_F R_P p; neptune round_constants.rs);
//   * MDS: the Cauchy matrix M[i][j] = 1 / (i + (t + j)) (neptune mds.rs generate_mds);
//   * the "OptimizedStatic" form (neptune preprocessing.rs compress_round_constants and
//     mds.rs factor_to_sparse_matrixes): compressed round constants, the pre-sparse matrix and
//     R_P sparse matrices.
// Everything is computed here from those definitions (no tables, no files); the unit tests
// check the results against neptune's round_constants text file, supraseal's constant blobs
// and neptune's hash test vectors.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "ff/bls12_381.hpp"

namespace cuzk::gadgets::native {

using fr = cuzk::ff::fr;

// One of neptune's SparseMatrix (the M'' factor of a partial round):
//   M'' = [[w_hat[0], v_rest[0], ..., v_rest[t-2]],
//          [w_hat[1], 1, 0, ...],
//          ...
//          [w_hat[t-1], 0, ..., 1]]
// and the state (row vector) maps as new[0] = sum_i e[i] * w_hat[i],
// new[i] = e[i] + e[0] * v_rest[i-1] (i >= 1).
struct poseidon_sparse_matrix {
  std::vector<fr> w_hat;   // t values (first column)
  std::vector<fr> v_rest;  // t - 1 values (first row without its first entry)
};

// A square matrix as neptune's Matrix<F> (row-major: at(i, j) = m[i][j]).
struct poseidon_matrix {
  std::size_t n = 0;
  std::vector<fr> a;  // n * n
  const fr& at(std::size_t i, std::size_t j) const { return a[i * n + j]; }
  fr& at(std::size_t i, std::size_t j) { return a[i * n + j]; }
};

struct poseidon_params {
  std::size_t arity = 0;
  std::size_t width = 0;             // t = arity + 1
  std::size_t full_rounds = 0;       // R_F (8)
  std::size_t half_full_rounds = 0;  // R_F / 2
  std::size_t partial_rounds = 0;    // R_P
  fr merkle_domain_tag;              // HashType::MerkleTree: 2^arity - 1

  // Unoptimized ("Correct") constants: round r uses round_constants[r*t .. (r+1)*t).
  std::vector<fr> round_constants;  // (R_F + R_P) * t
  poseidon_matrix mds;              // M, symmetric
  poseidon_matrix mds_inv;          // M^-1

  // OptimizedStatic constants, in the order neptune consumes them:
  //   t (added before the first S-boxes), then t per first-half full round except the last
  //   one ((R_F/2 - 1) * t), then t for the last first-half full round (it absorbs the partial
  //   rounds' constants), then one per partial round (R_P), then t per second-half full round
  //   except the last ((R_F/2 - 1) * t). Total R_F * t + R_P.
  std::vector<fr> compressed_round_constants;
  poseidon_matrix pre_sparse_matrix;                    // replaces M after the last first-half full round
  std::vector<poseidon_sparse_matrix> sparse_matrices;  // R_P, one per partial round, in order

  // The sparse matrices flattened for the hash loop, (2t - 1) values per partial round:
  // [w_hat (t) | v_rest (t - 1)] (supraseal's layout).
  std::vector<fr> sparse_flat;
};

// Builds the parameters of width arity + 1 with the given round numbers (R_F even). Costs
// about R_P inversions of a t-1 square matrix (arity 8: ~7 ms, arity 36: ~0.25 s); use poseidon_constants() for
// Filecoin's cached sets.
poseidon_params make_poseidon_params(std::size_t arity, std::size_t full_rounds, std::size_t partial_rounds);

// Neptune's Strength::Standard round numbers (R_F, R_P) for the Filecoin arities
// {2, 4, 8, 11, 16, 24, 36}; returns false for any other arity.
bool poseidon_standard_rounds(std::size_t arity, std::size_t& full_rounds, std::size_t& partial_rounds);

// Filecoin's PoseidonConstants::<Fr, U<arity>>::new() (Standard strength, MerkleTree tag),
// built on first use and cached for the life of the process (thread-safe). Throws
// std::invalid_argument for an arity outside {2, 4, 8, 11, 16, 24, 36}.
const poseidon_params& poseidon_constants(std::size_t arity);

// Domain tags (neptune hash_type.rs): MerkleTree 2^arity - 1; Custom(id) id * 2^40 (1 <= id <=
// 256; SnapDeals uses id 1); ConstantLength(n) n * 2^64.
fr poseidon_merkle_tag(std::size_t arity);
fr poseidon_custom_tag(uint64_t id);
fr poseidon_constant_length_tag(uint64_t length);

// The Grain LFSR stream of the Poseidon reference script, exposed for tests: `count` field
// elements for (field=1 (prime), sbox=1 (x^5), n=255 bits, t, R_F, R_P).
std::vector<fr> poseidon_grain_round_constants(std::size_t width, std::size_t full_rounds,
                                               std::size_t partial_rounds, std::size_t count);

}  // namespace cuzk::gadgets::native
