#include "engine/memory_budget.hpp"

#include <chrono>
#include <string>

#include "engine/units.hpp"

namespace cuzk::engine {

void reservation::release() {
  if (budget_) {
    std::exchange(budget_, nullptr)->release(bytes_);
  }
}

void reservation::shrink_to(std::uint64_t n) {
  if (budget_ && n < bytes_) {
    const std::uint64_t freed = bytes_ - n;
    bytes_ = n;
    budget_->release(freed);
  }
}

std::uint64_t memory_budget::reserved() const {
  std::lock_guard lock(mu_);
  return reserved_;
}

std::size_t memory_budget::waiting() const {
  std::lock_guard lock(mu_);
  return waiters_.size();
}

void memory_budget::set_release_listener(std::function<void()> f) {
  std::lock_guard lock(mu_);
  on_release_ = std::move(f);
}

void memory_budget::set_evictor(std::function<std::uint64_t(std::uint64_t)> f) {
  std::lock_guard lock(mu_);
  evictor_ = std::move(f);
}

reservation memory_budget::try_reserve(std::uint64_t n, std::uint32_t urgency) {
  for (bool asked = false;; asked = true) {
    std::function<std::uint64_t(std::uint64_t)> evict;
    std::uint64_t shortfall = 0;
    {
      std::lock_guard lock(mu_);
      if (!waiters_.empty() && waiters_.begin()->urgency > urgency) return {};
      if (n <= total_ - reserved_) {
        reserved_ += n;
        return reservation(this, n);
      }
      if (asked || !evictor_ || n > total_) return {};
      evict = evictor_;
      shortfall = n - (total_ - reserved_);
    }
    if (evict(shortfall) == 0) return {};
  }
}

result<reservation> memory_budget::reserve(std::uint64_t n, std::uint32_t urgency,
                                           std::stop_token stop) {
  if (n > total_) {
    return error{errc::resource_exhausted,
                 "needs " + format_size(n) + " of host memory but the whole budget is " +
                     format_size(total_) + " ([memory] total_budget)"};
  }
  std::unique_lock lock(mu_);
  const ticket me{urgency, next_seq_++};
  waiters_.insert(me);
  auto fits = [&] { return waiters_.begin()->seq == me.seq && n <= total_ - reserved_; };
  bool granted = false;
  for (;;) {
    if (fits()) {
      granted = true;
      break;
    }
    if (stop.stop_requested()) break;
    // Our turn but no room: ask the evictor (without our lock: it releases into this budget),
    // then wait up to 100 ms for a release before asking again.
    if (waiters_.begin()->seq == me.seq && evictor_) {
      auto evict = evictor_;
      const std::uint64_t shortfall = n - (total_ - reserved_);
      lock.unlock();
      evict(shortfall);
      lock.lock();
      if (fits()) continue;
    }
    cv_.wait_for(lock, stop, std::chrono::milliseconds(100), fits);
  }
  waiters_.erase(me);
  // The next waiter may fit now (or may have been blocked behind us).
  cv_.notify_all();
  if (!granted) return error{errc::cancelled, "cancelled while waiting for host memory"};
  reserved_ += n;
  return reservation(this, n);
}

void memory_budget::release(std::uint64_t n) {
  std::function<void()> listener;
  {
    std::lock_guard lock(mu_);
    reserved_ -= n;
    listener = on_release_;
  }
  cv_.notify_all();
  if (listener) listener();
}

}  // namespace cuzk::engine
