#include "engine/memory_budget.hpp"

#include <string>

#include "engine/units.hpp"

namespace cuzk::engine {

void reservation::release() {
  if (budget_) {
    std::exchange(budget_, nullptr)->release(bytes_);
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

reservation memory_budget::try_reserve(std::uint64_t n, std::uint32_t urgency) {
  std::lock_guard lock(mu_);
  if (n > total_ - reserved_) return {};
  if (!waiters_.empty() && waiters_.begin()->urgency > urgency) return {};
  reserved_ += n;
  return reservation(this, n);
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
  const bool granted = cv_.wait(lock, stop, [&] {
    return waiters_.begin()->seq == me.seq && n <= total_ - reserved_;
  });
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
