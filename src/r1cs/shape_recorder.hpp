// shape_recorder: records a circuit's constraints into CSR matrices (see shape.hpp) without
// computing any value: value functions and names are never called, namespaces are ignored.
//
//   shape_recorder rec;
//   CUZK_R1CS_CHECK(circuit.synthesize(rec));
//   r1cs_shape shape = std::move(rec).finish();
//
// Limits: fewer than 2^31 inputs and 2^31 aux variables, fewer than 2^32 columns in all, and
// fewer than 2^32 distinct coefficients (std::length_error otherwise).
#pragma once

#include <cstddef>
#include <cstdint>
#include <unordered_map>
#include <vector>

#include "r1cs/constraint_system.hpp"
#include "r1cs/shape.hpp"

namespace cuzk::r1cs {

enum class shape_hash { compute, skip };

class shape_recorder {
 public:
  static constexpr bool computes_values = false;

  shape_recorder();

  static constexpr variable one() { return variable::one(); }

  template <annotation N, value_function F>
  result<variable> alloc(N&&, F&&) {
    return variable::aux(num_aux_++);
  }
  template <annotation N, value_function F>
  result<variable> alloc_input(N&&, F&&) {
    return variable::input(num_inputs_++);
  }

  template <annotation N, lc_argument A, lc_argument B, lc_argument C>
  void enforce(N&&, A&& a, B&& b, C&& c) {
    append_row(a_, build_lc(std::forward<A>(a)));
    append_row(b_, build_lc(std::forward<B>(b)));
    append_row(c_, build_lc(std::forward<C>(c)));
    ++num_constraints_;
  }

  template <annotation N>
  void push_namespace(N&&) {}
  void pop_namespace() {}

  std::size_t num_inputs() const { return num_inputs_; }
  std::size_t num_aux() const { return num_aux_; }
  std::size_t num_constraints() const { return num_constraints_; }

  // Fixes the column numbering (aux j -> num_inputs + j), computes the densities and (unless
  // skipped) the shape hash. The recorder is consumed.
  r1cs_shape finish(shape_hash hash = shape_hash::compute) &&;

 private:
  // While recording, cols holds variable codes: input i -> i, aux j -> aux_tag | j.
  static constexpr uint32_t aux_tag = uint32_t{1} << 31;

  void append_row(csr_matrix& m, const linear_combination& lc);
  uint32_t coeff_id(const fr& c);

  struct repr_hash {
    std::size_t operator()(const fr::repr& r) const {
      uint64_t h = r.w[0] * 0x9E3779B97F4A7C15ULL;
      for (std::size_t i = 1; i < fr::N; ++i) h = (h ^ (h >> 29) ^ r.w[i]) * 0xBF58476D1CE4E5B9ULL;
      return static_cast<std::size_t>(h ^ (h >> 32));
    }
  };

  std::size_t num_inputs_ = 1;  // input 0 = ONE
  std::size_t num_aux_ = 0;
  std::size_t num_constraints_ = 0;
  csr_matrix a_, b_, c_;
  std::vector<fr> coeffs_;
  std::unordered_map<fr::repr, uint32_t, repr_hash> coeff_index_;
};

static_assert(constraint_system<shape_recorder>);

}  // namespace cuzk::r1cs
