// witness_builder: the per-proof constraint system. It computes the input and aux assignments
// and nothing else: names are never formatted, linear-combination arguments are never called,
// no constraint is stored (only counted). a, b, c come later from the recorded shape
// (evaluate_abc), so this is bellperson's ProvingAssignment minus the a/b/c evaluation and the
// density tracking (both are per shape, not per proof).
#pragma once

#include <cstddef>
#include <span>
#include <utility>
#include <vector>

#include "r1cs/constraint_system.hpp"

namespace cuzk::r1cs {

class witness_builder {
 public:
  static constexpr bool computes_values = true;

  witness_builder() { inputs_.push_back(fr::one()); }
  // Pre-sizes the vectors (pass the counts of the recorded shape to avoid regrowth).
  witness_builder(std::size_t expected_inputs, std::size_t expected_aux) : witness_builder() {
    inputs_.reserve(expected_inputs);
    aux_.reserve(expected_aux);
  }

  static constexpr variable one() { return variable::one(); }

  template <annotation N, value_function F>
  result<variable> alloc(N&&, F&& f) {
    if constexpr (std::same_as<std::invoke_result_t<F&>, result<fr>>) {
      result<fr> r = f();
      if (!r) return r.error();
      aux_.push_back(*r);
    } else {
      aux_.push_back(fr(f()));
    }
    return variable::aux(aux_.size() - 1);
  }

  template <annotation N, value_function F>
  result<variable> alloc_input(N&&, F&& f) {
    if constexpr (std::same_as<std::invoke_result_t<F&>, result<fr>>) {
      result<fr> r = f();
      if (!r) return r.error();
      inputs_.push_back(*r);
    } else {
      inputs_.push_back(fr(f()));
    }
    return variable::input(inputs_.size() - 1);
  }

  template <annotation N, lc_argument A, lc_argument B, lc_argument C>
  void enforce(N&&, A&&, B&&, C&&) {
    ++num_constraints_;
  }

  template <annotation N>
  void push_namespace(N&&) {}
  void pop_namespace() {}

  std::size_t num_inputs() const { return inputs_.size(); }
  std::size_t num_aux() const { return aux_.size(); }
  std::size_t num_constraints() const { return num_constraints_; }

  std::span<const fr> inputs() const { return inputs_; }
  std::span<const fr> aux() const { return aux_; }
  // Moves the assignments out (the builder is then empty, without ONE).
  std::vector<fr> take_inputs() { return std::move(inputs_); }
  std::vector<fr> take_aux() { return std::move(aux_); }

 private:
  std::vector<fr> inputs_;
  std::vector<fr> aux_;
  std::size_t num_constraints_ = 0;
};

static_assert(constraint_system<witness_builder>);

}  // namespace cuzk::r1cs
