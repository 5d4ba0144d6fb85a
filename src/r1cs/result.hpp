// result<T>: a value or a synthesis_error, the C++ twin of bellpepper-core's
// Result<T, SynthesisError>. Value functions handed to alloc/alloc_input return one (or a plain
// fr, which cannot fail), and so do gadgets; errors travel by return value, never by exception,
// so the witness hot path stays branch-cheap. (std::expected is C++23; this is the subset we need.)
#pragma once

#include <cstdint>
#include <type_traits>
#include <utility>

namespace cuzk::r1cs {

// The synthesis-time members of bellpepper-core's SynthesisError (the prover/verifier-only ones,
// e.g. MalformedVerifyingKey or IoError, belong to groth16/, not here).
enum class synthesis_error : uint8_t {
  assignment_missing = 1,  // a value function could not compute its value
  division_by_zero,        // a gadget divided by zero while computing a value
  unsatisfiable,           // a gadget detected that no witness can satisfy the circuit
  unconstrained_variable,  // reserved for setup-time checks
};

constexpr const char* to_string(synthesis_error e) {
  switch (e) {
    case synthesis_error::assignment_missing: return "an assignment for a variable could not be computed";
    case synthesis_error::division_by_zero: return "division by zero";
    case synthesis_error::unsatisfiable: return "unsatisfiable constraint system";
    case synthesis_error::unconstrained_variable: return "auxiliary variable was unconstrained";
  }
  return "unknown synthesis error";
}

// T must be default-constructible and cheap to move (fr, variable, small gadget structs): the
// error state keeps a default T next to the code instead of a union, which keeps result trivially
// copyable when T is.
template <class T>
class [[nodiscard]] result {
  static_assert(std::is_default_constructible_v<T>, "result<T> needs a default-constructible T");

 public:
  result(const T& v) : value_(v) {}  // NOLINT(google-explicit-constructor): implicit, like Ok(v)
  result(T&& v) : value_(std::move(v)) {}
  result(synthesis_error e) : error_(e) {}  // NOLINT: implicit, like Err(e)

  bool ok() const { return error_ == ok_code; }
  explicit operator bool() const { return ok(); }
  synthesis_error error() const { return error_; }  // meaningful only when !ok()

  // Precondition: ok().
  T& value() & { return value_; }
  const T& value() const& { return value_; }
  T&& value() && { return std::move(value_); }
  T& operator*() & { return value_; }
  const T& operator*() const& { return value_; }
  T&& operator*() && { return std::move(value_); }
  T* operator->() { return &value_; }
  const T* operator->() const { return &value_; }

 private:
  static constexpr synthesis_error ok_code = static_cast<synthesis_error>(0);
  T value_{};
  synthesis_error error_ = ok_code;
};

template <>
class [[nodiscard]] result<void> {
 public:
  result() = default;
  result(synthesis_error e) : error_(e) {}  // NOLINT: implicit, like Err(e)
  bool ok() const { return error_ == ok_code; }
  explicit operator bool() const { return ok(); }
  synthesis_error error() const { return error_; }

 private:
  static constexpr synthesis_error ok_code = static_cast<synthesis_error>(0);
  synthesis_error error_ = ok_code;
};

inline result<void> ok() { return {}; }

}  // namespace cuzk::r1cs

// CUZK_R1CS_TRY(decl, expr): evaluates expr (a result<T>); on error returns the error from the
// enclosing function (which must return some result<U>), else declares `decl` from the value.
//   CUZK_R1CS_TRY(variable x, cs.alloc("x", f));
#define CUZK_R1CS_CAT2(a, b) a##b
#define CUZK_R1CS_CAT(a, b) CUZK_R1CS_CAT2(a, b)
#define CUZK_R1CS_TRY(decl, expr)                                                      \
  auto CUZK_R1CS_CAT(cuzk_try_, __LINE__) = (expr);                                     \
  if (!CUZK_R1CS_CAT(cuzk_try_, __LINE__)) return CUZK_R1CS_CAT(cuzk_try_, __LINE__).error(); \
  decl = std::move(*CUZK_R1CS_CAT(cuzk_try_, __LINE__))
// CUZK_R1CS_CHECK(expr): for result<void> (or any result whose value is not needed).
#define CUZK_R1CS_CHECK(expr)                                                           \
  do {                                                                                  \
    auto cuzk_check_r_ = (expr);                                                        \
    if (!cuzk_check_r_) return cuzk_check_r_.error();                                   \
  } while (0)
