// A satisfiable PoRep-like synthetic circuit at any size, for proofs that verify with real
// parameters (cuda_prove_bench real, tests). Host only, generated in parallel.
//
// Sizes as cuda_prove_bench's timing circuits (the 32 GiB PoRep partition: 130.28M constraints,
// 130.17M aux, 328 inputs in 2^27): num_constraints = num_aux = floor(0.9707 m) for a domain of
// m = 2^k rows, 328 inputs; aux values by default as measured on our own 32 GiB PoRep partition
// circuit (docs/porep-witness-statistics.md: 51.4% zero / 47.3% one / 1.31% other), or the
// earlier, pessimistic 45 / 45 / 10 (witness_mix); columns mostly among the ~64 aux before the
// row (5% anywhere, 3% ONE); A's coefficients 17.5% +1 / 20.3% -1 as measured (the rest, mostly
// +-2^k there, from a table), C's over zero-valued variables 60% +1 / 30% -1; the table has 200
// values closed under negation ({1, -1, c_1, -c_1, ...}: 1-byte tags on the device).
// Satisfaction by construction, row r (witness fixed first, by a hash of the index):
//   B  one entry, +-1 times one of every fourth aux, or ONE (B's density ~25% as PoRep's 25.4%);
//      its value is 0 or 1, so b = B w is 0 or +-1, except in rows whose aux r is 0, which
//      may take a random-valued variable (then A's other terms are zero-valued too: A w = 0);
//   A  aux r (every aux variable is constrained: no L query identity) and 1-2 more (2.4 / row);
//   C  b = +-1: b times A's terms (a coefficient's negation is its pair in the table), so
//      C w = b (A w); otherwise 2-3 terms over zero-valued aux variables, C w = 0 = (A w) b.
// Entries per row: A 2.4, B 1, C ~2.3 (the timing circuits: 2.4 / 1.0 / 2.2).
// Host bytes at 2^27: matrices ~7 GB (8 B per entry) + row offsets 3 GB, witness 4.2 GB.
#pragma once

#include <cstddef>
#include <vector>

#include "base/executor.hpp"
#include "ff/bls12_381.hpp"
#include "r1cs/shape.hpp"

namespace cuzk::cuda {

// Aux values per 10,000: zero, one, and the rest random field elements, over all aux; `b_other`
// of the B candidates (every fourth aux) are random, the other positions make up the total (the
// zero : one ratio kept), so that the B-dense aux hold ~3.7% non-binary values as measured.
struct witness_mix {
  unsigned zero = 5141, one = 4728;  // the measured PoRep partition (1.31% other)
  unsigned b_other = 420;            // ~3.7% of the B-dense aux after the row construction
  static constexpr witness_mix porep_measured() { return {}; }
  static constexpr witness_mix pessimistic() { return {4500, 4500, 1000}; }  // 10% other everywhere
};

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
                                           uint64_t seed = 1, witness_mix mix = {});

}  // namespace cuzk::cuda
