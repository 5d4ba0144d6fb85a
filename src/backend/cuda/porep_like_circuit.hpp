// A satisfiable PoRep-like synthetic circuit at any size, for proofs that verify with real
// parameters (cuda_prove_bench real, tests). Host only, generated in parallel.
//
// Sizes as cuda_prove_bench's timing circuits (the 32 GiB PoRep partition: 130.28M constraints,
// 130.17M aux, 328 inputs in 2^27): num_constraints = num_aux = floor(0.9707 m) for a domain of
// m = 2^k rows, 328 inputs; aux 45% zero / 45% one / 10% random; columns mostly among the ~64
// aux before the row (5% anywhere, 3% ONE); 90% of the coefficients +-1, the rest from a table
// of 200 values closed under negation ({1, -1, c_1, -c_1, ...}: 1-byte tags on the device).
// Satisfaction by construction, row r (witness fixed first, by a hash of the index):
//   B  one entry, +-1 times a variable whose value is 0 or 1 (every fourth aux, or ONE: B's
//      density ~25% as PoRep's 25.4%), so b = B w is 0 or +-1;
//   A  aux r (every aux variable is constrained: no L query identity) and 1-2 more (2.4 / row);
//   C  b = +-1: b times A's terms (a coefficient's negation is its pair in the table), so
//      C w = b (A w); b = 0: 2-3 terms over zero-valued aux variables, so C w = 0 = (A w) b.
// Entries per row: A 2.4, B 1, C ~2.3 (the timing circuits: 2.4 / 1.0 / 2.2).
// Host bytes at 2^27: matrices ~7 GB (8 B per entry) + row offsets 3 GB, witness 4.2 GB.
#pragma once

#include <cstddef>
#include <vector>

#include "base/executor.hpp"
#include "ff/bls12_381.hpp"
#include "r1cs/shape.hpp"

namespace cuzk::cuda {

struct porep_like_circuit {
  r1cs::r1cs_shape shape;
  std::vector<ff::fr> inputs, aux;
};

// The PoRep ratio: floor(0.9707 * 2^log_m) constraints for a domain of 2^log_m rows.
std::size_t porep_like_constraints(unsigned log_m);

// bellperson's densities from the matrices: a variable is dense in A (B) when some row of A (B)
// has it with a nonzero coefficient. The shape's counts and matrices must be set.
void set_densities(r1cs::r1cs_shape& s);

// num_constraints = num_aux = constraints (>= 1), inputs >= 1 (input 0 is ONE). The same seed
// gives the same circuit.
porep_like_circuit make_porep_like_circuit(std::size_t constraints, std::size_t inputs, base::executor& ex,
                                           uint64_t seed = 1);

}  // namespace cuzk::cuda
