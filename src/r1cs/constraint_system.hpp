// The constraint-system interface that gadgets and circuits are written against: a concept, not
// a virtual base, so a gadget is a template over its constraint system `CS` and each of the three
// implementations gets its own inlined instantiation:
//
//   shape_recorder   records A, B, C as CSR matrices (values are never computed)
//   witness_builder  computes the input and aux assignments only (the per-proof hot path)
//   test_system      both, with names, satisfaction checks and bellpepper's hash
//
// Mirrors bellpepper-core's ConstraintSystem (bpc:src/constraint_system.rs):
//
//   cs.alloc(name, value_fn)        -> result<variable>   a new aux variable
//   cs.alloc_input(name, value_fn)  -> result<variable>   a new input variable
//   cs.enforce(name, a, b, c)                              adds the constraint a * b = c
//   cs.push_namespace(name) / cs.pop_namespace()           (use scoped_namespace instead)
//   CS::one()                                              input 0, the constant ONE
//   CS::computes_values                                    constexpr bool: false while recording
//                                                          a shape; value functions are then never
//                                                          called, so gadgets may skip native
//                                                          value work under `if constexpr`.
//
// Argument forms:
// * name: anything convertible to std::string_view, or a callable returning something
//   convertible to std::string (formatted only by test_system: the hot paths never call it).
//   Names must not contain '/' (test_system joins namespace paths with '/').
// * value_fn: a callable returning result<fr> (may fail, like bellpepper's
//   Err(AssignmentMissing)) or a plain fr (cannot fail). It is called at most once, and only
//   when CS::computes_values; an error is returned from alloc unchanged and nothing is allocated.
// * a, b, c: a linear_combination, a variable, or a callable taking the zero linear_combination
//   and returning one (bellpepper's `|lc| lc + x - y`). Only shape_recorder and test_system call
//   it; witness_builder ignores all three, so gadgets should pass lambdas on hot paths.
//
// Every implementation starts with input 0 = ONE already allocated (the prover's first
// alloc_input); circuits must not allocate it again.
#pragma once

#include <concepts>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

#include "r1cs/linear_combination.hpp"
#include "r1cs/result.hpp"

namespace cuzk::r1cs {

// --- argument helpers (used by the implementations) ------------------------------------------

template <class N>
concept annotation = std::convertible_to<const N&, std::string_view> ||
                     (std::invocable<N&> && std::convertible_to<std::invoke_result_t<N&>, std::string>);

template <annotation N>
std::string annotation_string(N&& name) {
  if constexpr (std::convertible_to<const N&, std::string_view>) {
    return std::string(std::string_view(name));
  } else {
    return std::string(name());
  }
}

template <class F>
concept value_function = std::invocable<F&> && (std::same_as<std::invoke_result_t<F&>, result<fr>> ||
                                                std::convertible_to<std::invoke_result_t<F&>, fr>);

// Calls a value function and normalises its answer to result<fr>.
template <value_function F>
result<fr> call_value_function(F& f) {
  if constexpr (std::same_as<std::invoke_result_t<F&>, result<fr>>) {
    return f();
  } else {
    return result<fr>(fr(f()));
  }
}

template <class L>
concept lc_argument = std::convertible_to<L, linear_combination> ||
                      (std::invocable<L&, linear_combination> &&
                       std::convertible_to<std::invoke_result_t<L&, linear_combination>, linear_combination>);

template <lc_argument L>
linear_combination build_lc(L&& arg) {
  if constexpr (std::invocable<L&, linear_combination> &&
                !std::convertible_to<L, linear_combination>) {
    return arg(linear_combination{});
  } else {
    return linear_combination(std::forward<L>(arg));
  }
}

namespace detail {
struct value_fn_archetype {
  result<fr> operator()() const { return fr::zero(); }
};
struct lc_fn_archetype {
  linear_combination operator()(linear_combination lc) const { return lc; }
};
}  // namespace detail

// --- the concept ---------------------------------------------------------------------------

template <class CS>
concept constraint_system =
    requires(CS& cs, const char* name, detail::value_fn_archetype f, detail::lc_fn_archetype l,
             const linear_combination& lc, variable v) {
      { CS::computes_values } -> std::convertible_to<bool>;
      { CS::one() } -> std::same_as<variable>;
      { cs.alloc(name, f) } -> std::same_as<result<variable>>;
      { cs.alloc_input(name, f) } -> std::same_as<result<variable>>;
      cs.enforce(name, l, l, l);
      cs.enforce(name, lc, v, lc);
      cs.push_namespace(name);
      cs.pop_namespace();
      { cs.num_inputs() } -> std::convertible_to<std::size_t>;
      { cs.num_aux() } -> std::convertible_to<std::size_t>;
      { cs.num_constraints() } -> std::convertible_to<std::size_t>;
    };

// RAII namespace: pushes on construction, pops on destruction (bellpepper's cs.namespace(|| n)).
//   { scoped_namespace ns(cs, "round 3"); ... gadgets on cs ... }
template <class CS>
class [[nodiscard]] scoped_namespace {
 public:
  template <annotation N>
  scoped_namespace(CS& cs, N&& name) : cs_(cs) {
    cs_.push_namespace(std::forward<N>(name));
  }
  ~scoped_namespace() { cs_.pop_namespace(); }
  scoped_namespace(const scoped_namespace&) = delete;
  scoped_namespace& operator=(const scoped_namespace&) = delete;

 private:
  CS& cs_;
};

}  // namespace cuzk::r1cs
