// A host-memory budget that pipeline stages reserve from before they allocate. A reservation that
// does not fit waits (most urgent first, then first come); one that can never fit (more than the
// whole budget) fails at once with a clear error instead of waiting forever.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <set>
#include <stop_token>
#include <utility>

#include "engine/result.hpp"

namespace cuzk::engine {

class memory_budget;

// Move-only ownership of reserved bytes; releases them when destroyed.
class reservation {
 public:
  reservation() = default;
  reservation(reservation&& o) noexcept : budget_(std::exchange(o.budget_, nullptr)), bytes_(o.bytes_) {}
  reservation& operator=(reservation&& o) noexcept {
    if (this != &o) {
      release();
      budget_ = std::exchange(o.budget_, nullptr);
      bytes_ = o.bytes_;
    }
    return *this;
  }
  reservation(const reservation&) = delete;
  reservation& operator=(const reservation&) = delete;
  ~reservation() { release(); }

  std::uint64_t bytes() const { return budget_ ? bytes_ : 0; }
  explicit operator bool() const { return budget_ != nullptr; }
  void release();
  // Gives back everything above n bytes (a load that needed less than it reserved).
  void shrink_to(std::uint64_t n);

 private:
  friend class memory_budget;
  reservation(memory_budget* b, std::uint64_t n) : budget_(b), bytes_(n) {}
  memory_budget* budget_ = nullptr;
  std::uint64_t bytes_ = 0;
};

class memory_budget {
 public:
  explicit memory_budget(std::uint64_t total_bytes) : total_(total_bytes) {}
  memory_budget(const memory_budget&) = delete;
  memory_budget& operator=(const memory_budget&) = delete;

  std::uint64_t total() const { return total_; }
  std::uint64_t reserved() const;
  std::size_t waiting() const;

  // Reserves `n` bytes now if they fit and no waiter more urgent than `urgency` is queued;
  // otherwise returns an empty reservation. Never waits.
  reservation try_reserve(std::uint64_t n, std::uint32_t urgency = 0);

  // Waits until `n` bytes fit and this is the most urgent (then oldest) waiter. Fails with
  // errc::resource_exhausted when n > total() (it could never fit) and errc::cancelled when
  // `stop` is requested while waiting.
  result<reservation> reserve(std::uint64_t n, std::uint32_t urgency, std::stop_token stop = {});

  // Called (without any budget lock held) after memory is released, so schedulers that use
  // try_reserve can retry. Must not call back into this budget under its own locks.
  void set_release_listener(std::function<void()> f);

  // Called (without any budget lock held) when a reservation does not fit, with the shortfall in
  // bytes; it may free memory held elsewhere (the SRS manager drops idle parameters) and returns
  // how much it freed. try_reserve asks once per call, a waiting reserve at most every 100 ms.
  void set_evictor(std::function<std::uint64_t(std::uint64_t shortfall)> f);

 private:
  friend class reservation;
  void release(std::uint64_t n);
  struct ticket {
    std::uint32_t urgency;
    std::uint64_t seq;
    bool operator<(const ticket& o) const {
      return urgency != o.urgency ? urgency > o.urgency : seq < o.seq;
    }
  };

  const std::uint64_t total_;
  mutable std::mutex mu_;
  std::condition_variable_any cv_;
  std::uint64_t reserved_ = 0;
  std::uint64_t next_seq_ = 0;
  std::set<ticket> waiters_;
  std::function<void()> on_release_;
  std::function<std::uint64_t(std::uint64_t)> evictor_;
};

}  // namespace cuzk::engine
