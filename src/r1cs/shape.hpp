// r1cs_shape: one circuit's constraint matrices A, B, C in CSR form, with the counts, the
// bellperson density bitmaps and the shape hash. Produced once per circuit shape by
// shape_recorder; per proof, a, b, c = A*w, B*w, C*w with w = inputs || aux (evaluate_abc).
//
// Layout:
// * Rows are the circuit's constraints in enforce order (num_constraints rows). The prover's
//   extra constraints `input_i * 0 = 0` (one per input, bellperson prover step 1) are NOT rows:
//   evaluate_abc can append their values (input_constraints::append).
// * Columns: input i -> i, aux j -> num_inputs + j (fixed at finalisation, so inputs allocated
//   in the middle of synthesis are fine). Within a row columns are strictly ascending, which is
//   bellpepper's term order (inputs ascending, then aux ascending).
// * Terms whose merged coefficient is zero are dropped: they change neither A*w nor bellperson's
//   densities (lc::eval_with_trackers skips zero coefficients) nor bellpepper's hash (which
//   removes them too).
// * Coefficients are ids into `coeffs`, a table of the distinct coefficients of all three
//   matrices in first-seen order, except that ids 0 and 1 are always +1 and -1
//   (coeff_id_one / coeff_id_minus_one), so SpMV kernels can add/subtract without a multiply.
#pragma once

#include "base/density_bitmap.hpp"

#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "base/executor.hpp"
#include "r1cs/linear_combination.hpp"

namespace cuzk::r1cs {

inline constexpr uint32_t coeff_id_one = 0;
inline constexpr uint32_t coeff_id_minus_one = 1;

struct csr_matrix {
  std::vector<uint64_t> row_ptr;    // rows() + 1 offsets into cols / coeff_ids; row_ptr[0] = 0
  std::vector<uint32_t> cols;       // column of each entry (see layout above)
  std::vector<uint32_t> coeff_ids;  // index into r1cs_shape::coeffs of each entry

  std::size_t rows() const { return row_ptr.empty() ? 0 : row_ptr.size() - 1; }
  std::size_t nnz() const { return cols.size(); }
  bool operator==(const csr_matrix&) const = default;
};

// A fixed-size bit set (bellperson's DensityTracker): bit i set = variable i is used.
using base::density_bitmap;  // bellperson's densities (base/density_bitmap.hpp)

struct r1cs_shape {
  std::size_t num_constraints = 0;  // circuit constraints (rows), without the input constraints
  std::size_t num_inputs = 0;       // including input 0 = ONE
  std::size_t num_aux = 0;
  csr_matrix a, b, c;
  std::vector<fr> coeffs;  // distinct coefficients; coeffs[0] = 1, coeffs[1] = -1

  // bellperson's ProvingAssignment densities (a_aux over aux variables, b_input over inputs,
  // b_aux over aux): a bit is set iff the variable has a nonzero coefficient in some row of the
  // matrix. Inputs have full density in A (the input constraints), so there is no a_input.
  density_bitmap a_aux_density, b_input_density, b_aux_density;

  // BLAKE2s-256 of the canonical serialisation below (all zero if finish() was asked to skip it;
  // compute_shape_hash fills it in later). It equals bellpepper-core 0.2.x
  // TestConstraintSystem::hash() of the same circuit synthesized on a fresh TestConstraintSystem:
  //   u64be(num_inputs) || u64be(num_aux) || u64be(num_constraints)
  //   then for each constraint, for each of A, B, C (nonzero terms, in row order):
  //     u64be(term count) || per term: ('I' || u64be(input index) | 'A' || u64be(aux index))
  //                                    || coefficient as 32 big-endian canonical bytes
  std::array<uint8_t, 32> hash{};

  std::size_t num_columns() const { return num_inputs + num_aux; }
  std::string hash_hex() const;
  // Row i of m as (variable, coefficient) terms: for tests and debugging.
  std::vector<term> row_terms(const csr_matrix& m, std::size_t row) const;
};

// Computes r1cs_shape::hash (see above) from the matrices and counts.
std::array<uint8_t, 32> compute_shape_hash(const r1cs_shape& shape);

enum class input_constraints {
  omit,    // a, b, c have num_constraints entries (the circuit's rows)
  append,  // then one more entry per input i: a = input_i, b = c = 0 (bellperson's
           // `input_i * 0 = 0` constraints), num_constraints + num_inputs entries in all
};

struct abc_vectors {
  std::vector<fr> a, b, c;
};

// a = A*w, b = B*w, c = C*w with w = inputs || aux, rows split over the executor (one pass
// computes a row of all three matrices).
// Cost: one field multiply per entry whose coefficient is not +-1, one addition per entry.
// Throws std::invalid_argument if inputs.size() != num_inputs or aux.size() != num_aux.
abc_vectors evaluate_abc(const r1cs_shape& shape, std::span<const fr> inputs, std::span<const fr> aux,
                         base::executor& exec, input_constraints extra = input_constraints::omit);

// The same into caller-owned buffers (e.g. pinned host memory for the GPU), each of exactly
// num_constraints (omit) or num_constraints + num_inputs (append) elements; every element is
// written, so the buffers need no initialisation (first touch happens in the workers).
// Throws std::invalid_argument on any size mismatch.
void evaluate_abc_into(const r1cs_shape& shape, std::span<const fr> inputs, std::span<const fr> aux,
                       std::span<fr> a, std::span<fr> b, std::span<fr> c, base::executor& exec,
                       input_constraints extra = input_constraints::omit);

// One matrix: out[r] = sum over row r of coeff * w[col], for r in [0, m.rows()); out.size()
// must be m.rows().
void spmv(const r1cs_shape& shape, const csr_matrix& m, std::span<const fr> inputs,
          std::span<const fr> aux, std::span<fr> out, base::executor& exec);

}  // namespace cuzk::r1cs
