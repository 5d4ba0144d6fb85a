// Variables and linear combinations over Fr, with bellpepper-core 0.2.x semantics
// (bpc:src/lc.rs):
//
// * A variable is an input (public; input 0 is the constant ONE) or an aux (private) variable,
//   each numbered from 0 in allocation order.
// * A linear_combination holds at most one term per variable: adding a variable that is already
//   present adds to its coefficient (bellpepper's Indexer::insert_or_update). Terms are kept in
//   bellpepper's iteration order: all input terms by ascending index, then all aux terms by
//   ascending index (variable::key() order). A coefficient that merges to zero stays as a term
//   (bellpepper keeps it too); consumers that care (shape recorder, density, hash) skip zero
//   coefficients exactly where bellperson does.
#pragma once

#include <algorithm>
#include <compare>
#include <cstddef>
#include <cstdint>
#include <span>
#include <utility>
#include <vector>

#include "ff/bls12_381.hpp"

namespace cuzk::r1cs {

using fr = ff::fr;

enum class var_kind : uint8_t { input, aux };

class variable {
 public:
  constexpr variable() = default;  // input 0 (ONE)
  static constexpr variable input(std::size_t i) { return variable(static_cast<uint64_t>(i)); }
  static constexpr variable aux(std::size_t j) { return variable(aux_bit | static_cast<uint64_t>(j)); }
  static constexpr variable one() { return input(0); }

  constexpr var_kind kind() const { return (code_ & aux_bit) ? var_kind::aux : var_kind::input; }
  constexpr bool is_input() const { return !(code_ & aux_bit); }
  constexpr bool is_aux() const { return (code_ & aux_bit) != 0; }
  constexpr std::size_t index() const { return static_cast<std::size_t>(code_ & ~aux_bit); }
  // Total order used inside linear combinations: inputs (by index) before aux (by index).
  constexpr uint64_t key() const { return code_; }

  constexpr bool operator==(const variable&) const = default;
  constexpr auto operator<=>(const variable&) const = default;

 private:
  static constexpr uint64_t aux_bit = uint64_t{1} << 63;
  constexpr explicit variable(uint64_t code) : code_(code) {}
  uint64_t code_ = 0;
};

// coeff * var, the C++ spelling of bellpepper's `(coeff, var)` tuple: `lc + coeff * x`.
struct scaled_variable {
  fr coeff;
  variable var;
};
inline scaled_variable operator*(const fr& coeff, variable v) { return {coeff, v}; }
inline scaled_variable operator*(variable v, const fr& coeff) { return {coeff, v}; }

struct term {
  variable var;
  fr coeff;
  bool operator==(const term&) const = default;
};

class linear_combination {
 public:
  linear_combination() = default;  // the zero combination (no terms)
  linear_combination(variable v) { terms_.push_back({v, fr::one()}); }  // NOLINT: implicit, 1*v
  linear_combination(variable v, const fr& coeff) { terms_.push_back({v, coeff}); }
  linear_combination(const scaled_variable& s) { terms_.push_back({s.var, s.coeff}); }  // NOLINT
  static linear_combination zero() { return {}; }

  // Terms in bellpepper's order (inputs ascending, then aux ascending), one per variable.
  std::span<const term> terms() const { return terms_; }
  std::size_t size() const { return terms_.size(); }
  bool empty() const { return terms_.empty(); }
  void reserve(std::size_t n) { terms_.reserve(n); }
  void clear() { terms_.clear(); }

  // --- in-place updates (bellpepper's add_assign_unsimplified / sub_assign_unsimplified) -----
  linear_combination& add_term(variable v, const fr& coeff) {
    merge(v, coeff);
    return *this;
  }
  linear_combination& sub_term(variable v, const fr& coeff) {
    merge(v, -coeff);
    return *this;
  }
  // this += coeff * other (bellpepper's `lc + (coeff, &other)`), term by term in other's order.
  linear_combination& add_scaled(const fr& coeff, const linear_combination& other) {
    for (const term& t : other.terms_) merge(t.var, t.coeff * coeff);
    return *this;
  }
  linear_combination& sub_scaled(const fr& coeff, const linear_combination& other) {
    for (const term& t : other.terms_) merge(t.var, -(t.coeff * coeff));
    return *this;
  }

  linear_combination& operator+=(variable v) { return add_term(v, fr::one()); }
  linear_combination& operator-=(variable v) { return sub_term(v, fr::one()); }
  linear_combination& operator+=(const scaled_variable& s) { return add_term(s.var, s.coeff); }
  linear_combination& operator-=(const scaled_variable& s) { return sub_term(s.var, s.coeff); }
  linear_combination& operator+=(const linear_combination& o) {
    for (const term& t : o.terms_) merge(t.var, t.coeff);
    return *this;
  }
  linear_combination& operator-=(const linear_combination& o) {
    for (const term& t : o.terms_) merge(t.var, -t.coeff);
    return *this;
  }
  // Multiplies every coefficient by s (zero coefficients stay as terms, as in bellpepper's
  // `zero + (s, &lc)`).
  linear_combination& operator*=(const fr& s) {
    for (term& t : terms_) t.coeff = t.coeff * s;
    return *this;
  }

  // sum coeff * value, with input values from `inputs` and aux values from `aux`.
  fr evaluate(std::span<const fr> inputs, std::span<const fr> aux) const {
    fr acc = fr::zero();
    for (const term& t : terms_) {
      const fr& x = t.var.is_input() ? inputs[t.var.index()] : aux[t.var.index()];
      acc += t.coeff.is_one() ? x : x * t.coeff;
    }
    return acc;
  }

  bool operator==(const linear_combination&) const = default;

 private:
  // Adds coeff to v's term, inserting it in order if absent. The common cases (append after the
  // last term, or update it) cost O(1); otherwise a binary search and an insertion.
  void merge(variable v, const fr& coeff) {
    if (terms_.empty() || terms_.back().var.key() < v.key()) {
      terms_.push_back({v, coeff});
      return;
    }
    if (terms_.back().var == v) {
      terms_.back().coeff += coeff;
      return;
    }
    auto it = std::lower_bound(terms_.begin(), terms_.end(), v,
                               [](const term& t, variable x) { return t.var.key() < x.key(); });
    if (it != terms_.end() && it->var == v) {
      it->coeff += coeff;
    } else {
      terms_.insert(it, term{v, coeff});
    }
  }

  std::vector<term> terms_;
};

// Value-returning forms: `lc + x`, `lc - coeff * y`, `lc + other`, `s * lc`. Taking the left
// operand by value lets a chain `lc + a + b - c` reuse one buffer.
inline linear_combination operator+(linear_combination lc, variable v) { return std::move(lc += v); }
inline linear_combination operator-(linear_combination lc, variable v) { return std::move(lc -= v); }
inline linear_combination operator+(linear_combination lc, const scaled_variable& s) { return std::move(lc += s); }
inline linear_combination operator-(linear_combination lc, const scaled_variable& s) { return std::move(lc -= s); }
inline linear_combination operator+(linear_combination lc, const linear_combination& o) { return std::move(lc += o); }
inline linear_combination operator-(linear_combination lc, const linear_combination& o) { return std::move(lc -= o); }
inline linear_combination operator*(linear_combination lc, const fr& s) { return std::move(lc *= s); }
inline linear_combination operator*(const fr& s, linear_combination lc) { return std::move(lc *= s); }

}  // namespace cuzk::r1cs
