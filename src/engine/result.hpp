// Errors and result<T> for the engine and the layers that plug into it (C++20 has no
// std::expected). An error carries a code the server maps onto gRPC / in-band statuses and a
// message meant for the operator ("not yet supported: porep-c2").
#pragma once

#include <string>
#include <utility>
#include <variant>

namespace cuzk::engine {

enum class errc {
  invalid_argument,    // the request is malformed (empty or garbled input, bad field)
  unsupported,         // well-formed, but this daemon cannot prove it (yet)
  not_found,           // unknown job id
  already_exists,      // request_id reused for a different request
  resource_exhausted,  // can never fit (memory budget) or the queues are full
  cancelled,           // cancelled by a client or by shutdown
  unavailable,         // shutting down, not accepting work
  internal,            // a bug or an unexpected failure inside a stage
  failed_precondition, // the state forbids it now (evicting parameters that proofs are using)
  data_loss,           // a file is corrupt (digest mismatch, undecodable parameters)
};

constexpr const char* to_string(errc c) {
  switch (c) {
    case errc::invalid_argument: return "invalid_argument";
    case errc::unsupported: return "unsupported";
    case errc::not_found: return "not_found";
    case errc::already_exists: return "already_exists";
    case errc::resource_exhausted: return "resource_exhausted";
    case errc::cancelled: return "cancelled";
    case errc::unavailable: return "unavailable";
    case errc::internal: return "internal";
    case errc::failed_precondition: return "failed_precondition";
    case errc::data_loss: return "data_loss";
  }
  return "?";
}

struct error {
  errc code = errc::internal;
  std::string message;
};

// Either a T or an error. Deliberately small: value(), error(), has_value(), explicit bool.
template <class T>
class [[nodiscard]] result {
 public:
  result(T value) : v_(std::in_place_index<0>, std::move(value)) {}  // NOLINT: implicit by design
  result(engine::error e) : v_(std::in_place_index<1>, std::move(e)) {}  // NOLINT
  bool has_value() const { return v_.index() == 0; }
  explicit operator bool() const { return has_value(); }
  T& value() & { return std::get<0>(v_); }
  const T& value() const& { return std::get<0>(v_); }
  T&& value() && { return std::get<0>(std::move(v_)); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  const engine::error& error() const { return std::get<1>(v_); }

 private:
  std::variant<T, engine::error> v_;
};

// result<void>: success or an error.
struct ok_t {};
inline constexpr ok_t ok{};
using status = result<ok_t>;

}  // namespace cuzk::engine
