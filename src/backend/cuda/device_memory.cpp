#include "backend/cuda/device_memory.hpp"

#include <algorithm>
#include <cstdio>
#include <utility>

namespace cuzk::cuda {

std::string format_bytes(std::size_t bytes) {
  char buf[48];
  const double b = static_cast<double>(bytes);
  if (bytes >= (std::size_t{1} << 30))
    std::snprintf(buf, sizeof buf, "%.2f GiB", b / (1u << 30));
  else if (bytes >= (std::size_t{1} << 20))
    std::snprintf(buf, sizeof buf, "%.1f MiB", b / (1u << 20));
  else
    std::snprintf(buf, sizeof buf, "%zu B", bytes);
  return buf;
}

// ---------------------------------------------------------------------------------------------
// device_memory_arbiter
// ---------------------------------------------------------------------------------------------
std::shared_ptr<device_memory_arbiter> device_memory_arbiter::from_device(device_memory_info& info,
                                                                          std::size_t margin_bytes) {
  std::size_t free_bytes = 0, total_bytes = 0;
  std::string error;
  if (!info.query(free_bytes, total_bytes, error))
    throw device_memory_error(device_memory_error::kind::allocation_failed, "device memory query: " + error);
  return std::make_shared<device_memory_arbiter>(free_bytes > margin_bytes ? free_bytes - margin_bytes : 0);
}

device_memory_arbiter::reservation& device_memory_arbiter::reservation::operator=(reservation&& o) noexcept {
  if (this != &o) {
    release();
    owner_ = std::exchange(o.owner_, nullptr);
    bytes_ = std::exchange(o.bytes_, 0);
  }
  return *this;
}

void device_memory_arbiter::reservation::release() {
  if (owner_) owner_->give_back(bytes_);
  owner_ = nullptr;
  bytes_ = 0;
}

device_memory_arbiter::reservation device_memory_arbiter::reserve(std::size_t bytes, std::string_view what,
                                                                  std::chrono::milliseconds timeout,
                                                                  std::size_t held_by_caller) {
  if (bytes == 0) return {};
  if (bytes > capacity_ || held_by_caller > capacity_ - bytes)
    throw device_memory_error(device_memory_error::kind::impossible,
                              "device memory: " + std::string(what) + " needs " + format_bytes(bytes) +
                                  (held_by_caller ? " on top of the " + format_bytes(held_by_caller) + " it holds" : "") +
                                  ", more than the whole reservable capacity " + format_bytes(capacity_));
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  std::unique_lock<std::mutex> lock(mutex_);
  const uint64_t ticket = next_ticket_++;
  queue_.push_back(ticket);
  const auto my_turn = [&] { return queue_.front() == ticket && in_use_ + bytes <= capacity_; };
  if (!changed_.wait_until(lock, deadline, my_turn)) {
    queue_.remove(ticket);
    const std::size_t used = in_use_;
    const std::size_t ahead = queue_.size();
    lock.unlock();
    changed_.notify_all();  // the request behind this one may be at the front now
    throw device_memory_error(device_memory_error::kind::timeout,
                              "device memory: " + std::string(what) + " waited " + std::to_string(timeout.count()) +
                                  " ms for " + format_bytes(bytes) + "; capacity " + format_bytes(capacity_) +
                                  ", reserved " + format_bytes(used) + ", " + std::to_string(ahead) +
                                  " other requests waiting");
  }
  queue_.pop_front();
  in_use_ += bytes;
  lock.unlock();
  changed_.notify_all();  // the next in line may fit as well
  return reservation(this, bytes);
}

device_memory_arbiter::reservation device_memory_arbiter::try_reserve(std::size_t bytes) {
  if (bytes == 0) return {};
  std::lock_guard<std::mutex> lock(mutex_);
  if (!queue_.empty() || in_use_ + bytes > capacity_) return {};
  in_use_ += bytes;
  return reservation(this, bytes);
}

void device_memory_arbiter::give_back(std::size_t bytes) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    in_use_ -= bytes;
  }
  changed_.notify_all();
}

std::size_t device_memory_arbiter::in_use() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return in_use_;
}

std::size_t device_memory_arbiter::waiting() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return queue_.size();
}

// ---------------------------------------------------------------------------------------------
// pinned_host_pool
// ---------------------------------------------------------------------------------------------
pinned_host_pool::~pinned_host_pool() {
  for (slot& s : slots_) alloc_.deallocate(s.ptr, s.bytes);
}

pinned_host_pool::buffer& pinned_host_pool::buffer::operator=(buffer&& o) noexcept {
  if (this != &o) {
    release();
    pool_ = std::exchange(o.pool_, nullptr);
    slot_ = std::exchange(o.slot_, nullptr);
  }
  return *this;
}

void* pinned_host_pool::buffer::data() const { return slot_ ? static_cast<slot*>(slot_)->ptr : nullptr; }
std::size_t pinned_host_pool::buffer::size() const { return slot_ ? static_cast<slot*>(slot_)->bytes : 0; }

void pinned_host_pool::buffer::release() {
  if (pool_ && slot_) pool_->give_back(static_cast<slot*>(slot_));
  pool_ = nullptr;
  slot_ = nullptr;
}

pinned_host_pool::buffer pinned_host_pool::acquire(std::size_t bytes, std::chrono::milliseconds timeout) {
  if (bytes > max_bytes_)
    throw device_memory_error(device_memory_error::kind::impossible, "pinned host pool: " + format_bytes(bytes) +
                                                                         " requested, the pool is bounded to " +
                                                                         format_bytes(max_bytes_));
  bytes = std::max<std::size_t>(bytes, 1);
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  std::unique_lock<std::mutex> lock(mutex_);
  for (;;) {
    // 1. The smallest idle buffer that is large enough.
    slot* best = nullptr;
    for (slot& s : slots_)
      if (!s.leased && s.bytes >= bytes && (!best || s.bytes < best->bytes)) best = &s;
    if (best) {
      best->leased = true;
      return buffer(this, best);
    }
    // 2. A new buffer, after freeing idle (too small) ones if the bound requires it.
    std::size_t idle = 0;
    for (const slot& s : slots_)
      if (!s.leased) idle += s.bytes;
    if (allocated_ - idle + bytes <= max_bytes_) {
      for (auto it = slots_.begin(); it != slots_.end() && allocated_ + bytes > max_bytes_;) {
        if (it->leased) {
          ++it;
          continue;
        }
        alloc_.deallocate(it->ptr, it->bytes);
        allocated_ -= it->bytes;
        it = slots_.erase(it);
      }
      void* p = alloc_.allocate(bytes);
      if (!p)
        throw device_memory_error(device_memory_error::kind::allocation_failed,
                                  "pinned host pool: allocating " + format_bytes(bytes) + " failed");
      ++allocations_;
      allocated_ += bytes;
      slots_.push_back({p, bytes, true});
      return buffer(this, &slots_.back());
    }
    // 3. Wait for a lease to come back.
    if (returned_.wait_until(lock, deadline) == std::cv_status::timeout && std::chrono::steady_clock::now() >= deadline)
      throw device_memory_error(device_memory_error::kind::timeout,
                                "pinned host pool: waited " + std::to_string(timeout.count()) + " ms for " +
                                    format_bytes(bytes) + "; " + format_bytes(allocated_) + " of " +
                                    format_bytes(max_bytes_) + " allocated and leased");
  }
}

void pinned_host_pool::give_back(slot* s) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    s->leased = false;
  }
  returned_.notify_all();
}

std::size_t pinned_host_pool::allocated_bytes() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return allocated_;
}

std::size_t pinned_host_pool::allocations() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return allocations_;
}

}  // namespace cuzk::cuda
