// test_system: bellpepper-core's TestConstraintSystem (bpc:src/util_cs/test_cs.rs) in C++.
// Computes values, stores every constraint with its full namespace path ("a/b/name"), checks
// satisfaction, names the first unsatisfied constraint, and computes bellpepper's hash.
//
// As in bellpepper, creating an object (variable, constraint or namespace) at a path that
// already exists, or a name containing '/', is a programming error: std::logic_error.
// Input 0 is named "ONE".
#pragma once

#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "r1cs/constraint_system.hpp"

namespace cuzk::r1cs {

struct named_constraint {
  linear_combination a, b, c;
  std::string path;
};

struct constraint_values {
  fr a, b, c;
};

class test_system {
 public:
  static constexpr bool computes_values = true;

  test_system();

  static constexpr variable one() { return variable::one(); }

  template <annotation N, value_function F>
  result<variable> alloc(N&& name, F&& f) {
    std::string path = compute_path(annotation_string(std::forward<N>(name)));
    result<fr> r = call_value_function(f);
    if (!r) return r.error();
    const variable v = variable::aux(aux_.size());
    aux_.push_back(*r);
    aux_names_.push_back(path);
    add_named(std::move(path), {object_kind::variable, v, 0});
    return v;
  }

  template <annotation N, value_function F>
  result<variable> alloc_input(N&& name, F&& f) {
    std::string path = compute_path(annotation_string(std::forward<N>(name)));
    result<fr> r = call_value_function(f);
    if (!r) return r.error();
    const variable v = variable::input(inputs_.size());
    inputs_.push_back(*r);
    input_names_.push_back(path);
    add_named(std::move(path), {object_kind::variable, v, 0});
    return v;
  }

  template <annotation N, lc_argument A, lc_argument B, lc_argument C>
  void enforce(N&& name, A&& a, B&& b, C&& c) {
    std::string path = compute_path(annotation_string(std::forward<N>(name)));
    add_named(path, {object_kind::constraint, variable{}, constraints_.size()});
    constraints_.push_back({build_lc(std::forward<A>(a)), build_lc(std::forward<B>(b)),
                            build_lc(std::forward<C>(c)), std::move(path)});
  }

  template <annotation N>
  void push_namespace(N&& name) {
    std::string n = annotation_string(std::forward<N>(name));
    add_named(compute_path(n), {object_kind::name_space, variable{}, 0});
    namespace_.push_back(std::move(n));
  }
  void pop_namespace();  // std::logic_error if no namespace is open

  std::size_t num_inputs() const { return inputs_.size(); }
  std::size_t num_aux() const { return aux_.size(); }
  std::size_t num_constraints() const { return constraints_.size(); }

  std::span<const fr> inputs() const { return inputs_; }
  std::span<const fr> aux() const { return aux_; }
  std::span<const std::string> input_names() const { return input_names_; }
  std::span<const std::string> aux_names() const { return aux_names_; }
  std::span<const named_constraint> constraints() const { return constraints_; }

  // <A_i, w>, <B_i, w>, <C_i, w> for constraint i, evaluated term by term from its stored LCs.
  constraint_values evaluate(std::size_t i) const;
  // The path of the first constraint with a*b != c, if any.
  std::optional<std::string> which_is_unsatisfied() const;
  bool is_satisfied() const { return !which_is_unsatisfied().has_value(); }

  // Value of the variable at `path`; set replaces it (to break a witness in tests).
  // std::out_of_range if no variable lives at `path`.
  fr get(const std::string& path) const;
  void set(const std::string& path, const fr& value);
  // True iff the inputs after ONE equal `expected` (bellpepper's verify; sizes must match).
  bool verify(std::span<const fr> expected) const;

  // bellpepper's TestConstraintSystem::hash() (lower-case hex of the BLAKE2s-256 digest),
  // computed from the stored linear combinations; equals r1cs_shape::hash of the same circuit.
  std::string hash() const;

 private:
  enum class object_kind { variable, constraint, name_space };
  struct named_object {
    object_kind kind;
    variable var;
    std::size_t constraint;
  };

  std::string compute_path(const std::string& name) const;
  void add_named(std::string path, named_object obj);
  const named_object& variable_at(const std::string& path) const;

  std::unordered_map<std::string, named_object> named_;
  std::vector<std::string> namespace_;
  std::vector<named_constraint> constraints_;
  std::vector<fr> inputs_, aux_;
  std::vector<std::string> input_names_, aux_names_;
};

static_assert(constraint_system<test_system>);

}  // namespace cuzk::r1cs
