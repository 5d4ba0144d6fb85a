// Device-memory arbiter and pinned host buffer pool for the CUDA backend (DESIGN.md §3: every
// device allocation is reserved first, so concurrent workers wait instead of hitting a
// cudaMalloc out-of-memory in the middle of a proof).
//
// Plain C++: the few CUDA calls (cudaMemGetInfo, cudaHostAlloc, cudaFreeHost) sit behind the
// small interfaces below (device_memory_cuda.cu implements them), so the waiting, ordering and
// error logic is unit-tested on machines without a GPU.
//
// device_memory_arbiter
//   capacity = the device's free memory when the arbiter is made, minus a safety margin (CUDA's
//   own context, kernels' local memory and libraries allocate outside our reservations).
//   reserve(bytes, what, timeout) returns an RAII reservation; requests are served strictly in
//   arrival order (a small request does not overtake a large one that waits: no starvation), a
//   request larger than the whole capacity fails at once (it could never be served), and one that
//   waits past its timeout fails with the sizes in the message. The arbiter only counts bytes:
//   the caller reserves, then allocates, and keeps the reservation as long as the allocation.
//
// pinned_host_pool
//   page-locked host buffers (DMA at full PCIe rate, asynchronous copies) are slow to allocate
//   (cudaHostAlloc maps and locks every page: ~0.1-0.3 s per GiB), so they are kept and reused.
//   At most max_bytes are allocated in all; acquire() reuses the smallest idle buffer that is
//   large enough, else allocates (freeing idle buffers first when the bound requires it), else
//   waits for a buffer to come back, up to a timeout.
#pragma once

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <list>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace cuzk::cuda {

// Thrown by the arbiter and the pool: the request can never fit, or it waited too long.
class device_memory_error : public std::runtime_error {
 public:
  enum class kind { impossible, timeout, allocation_failed };
  device_memory_error(kind k, const std::string& what) : std::runtime_error(what), kind_(k) {}
  kind reason() const { return kind_; }

 private:
  kind kind_;
};

// Where the device's numbers come from (cudaMemGetInfo on device 0 in production).
class device_memory_info {
 public:
  virtual ~device_memory_info() = default;
  // Free and total bytes of the device; false with `error` set when there is no device.
  virtual bool query(std::size_t& free_bytes, std::size_t& total_bytes, std::string& error) = 0;
};

class device_memory_arbiter {
 public:
  // An arbiter over exactly `capacity_bytes`.
  explicit device_memory_arbiter(std::size_t capacity_bytes) : capacity_(capacity_bytes) {}
  // capacity = free bytes reported by `info` now minus `margin_bytes` (at least 0). Throws
  // device_memory_error(allocation_failed) when the query fails.
  static std::shared_ptr<device_memory_arbiter> from_device(device_memory_info& info, std::size_t margin_bytes);

  device_memory_arbiter(const device_memory_arbiter&) = delete;
  device_memory_arbiter& operator=(const device_memory_arbiter&) = delete;

  // Bytes held until destruction or release(). Move-only; the arbiter must outlive it.
  class reservation {
   public:
    reservation() = default;
    ~reservation() { release(); }
    reservation(reservation&& o) noexcept : owner_(o.owner_), bytes_(o.bytes_) { o.owner_ = nullptr, o.bytes_ = 0; }
    reservation& operator=(reservation&& o) noexcept;
    reservation(const reservation&) = delete;
    reservation& operator=(const reservation&) = delete;

    std::size_t bytes() const { return bytes_; }
    explicit operator bool() const { return owner_ != nullptr; }
    void release();

   private:
    friend class device_memory_arbiter;
    reservation(device_memory_arbiter* owner, std::size_t bytes) : owner_(owner), bytes_(bytes) {}
    device_memory_arbiter* owner_ = nullptr;
    std::size_t bytes_ = 0;
  };

  // Waits (in arrival order) until `bytes` fit, at most `timeout`. `what` names the allocation in
  // error messages; `held_by_caller` is what the caller already holds and keeps while it waits
  // (others' releases can never make room for that part). Throws device_memory_error: impossible
  // (bytes + held_by_caller > capacity, at once) or timeout. A zero-byte request succeeds at once
  // with an empty reservation.
  reservation reserve(std::size_t bytes, std::string_view what, std::chrono::milliseconds timeout,
                      std::size_t held_by_caller = 0);
  // Never waits: a reservation, or an empty one when the bytes do not fit now or others wait.
  reservation try_reserve(std::size_t bytes);

  std::size_t capacity() const { return capacity_; }
  std::size_t in_use() const;
  std::size_t waiting() const;  // requests queued now

 private:
  void give_back(std::size_t bytes);

  const std::size_t capacity_;
  mutable std::mutex mutex_;
  std::condition_variable changed_;
  std::size_t in_use_ = 0;
  uint64_t next_ticket_ = 0;
  std::list<uint64_t> queue_;  // tickets of waiting requests, arrival order
};

// Page-locked host memory (cudaHostAlloc / cudaFreeHost in production).
class pinned_allocator {
 public:
  virtual ~pinned_allocator() = default;
  // nullptr on failure.
  virtual void* allocate(std::size_t bytes) = 0;
  virtual void deallocate(void* p, std::size_t bytes) = 0;
};

class pinned_host_pool {
 public:
  // The allocator must outlive the pool.
  pinned_host_pool(pinned_allocator& alloc, std::size_t max_bytes) : alloc_(alloc), max_bytes_(max_bytes) {}
  // The pool owns the allocator.
  pinned_host_pool(std::unique_ptr<pinned_allocator> alloc, std::size_t max_bytes)
      : owned_(std::move(alloc)), alloc_(*owned_), max_bytes_(max_bytes) {}
  ~pinned_host_pool();
  pinned_host_pool(const pinned_host_pool&) = delete;
  pinned_host_pool& operator=(const pinned_host_pool&) = delete;

  // A leased buffer of at least the requested size; goes back to the pool on destruction.
  class buffer {
   public:
    buffer() = default;
    ~buffer() { release(); }
    buffer(buffer&& o) noexcept : pool_(o.pool_), slot_(o.slot_) { o.pool_ = nullptr, o.slot_ = nullptr; }
    buffer& operator=(buffer&& o) noexcept;
    buffer(const buffer&) = delete;
    buffer& operator=(const buffer&) = delete;

    void* data() const;
    std::size_t size() const;  // the buffer's capacity (>= the request)
    explicit operator bool() const { return slot_ != nullptr; }
    void release();

   private:
    friend class pinned_host_pool;
    buffer(pinned_host_pool* pool, void* slot) : pool_(pool), slot_(slot) {}
    pinned_host_pool* pool_ = nullptr;
    void* slot_ = nullptr;  // the pool's slot (opaque here)
  };

  // Throws device_memory_error: impossible (bytes > max_bytes), timeout, or allocation_failed.
  buffer acquire(std::size_t bytes, std::chrono::milliseconds timeout);

  std::size_t max_bytes() const { return max_bytes_; }
  std::size_t allocated_bytes() const;  // held by the pool, leased or idle
  std::size_t allocations() const;      // allocator calls made so far (reuse shows as no growth)

 private:
  struct slot {
    void* ptr = nullptr;
    std::size_t bytes = 0;
    bool leased = false;
  };
  void give_back(slot* s);

  std::unique_ptr<pinned_allocator> owned_;  // null when the caller owns the allocator
  pinned_allocator& alloc_;
  const std::size_t max_bytes_;
  mutable std::mutex mutex_;
  std::condition_variable returned_;
  std::list<slot> slots_;  // stable addresses
  std::size_t allocated_ = 0;
  std::size_t allocations_ = 0;
};

// Serializes the device kernel regions of the workers of one device (DESIGN.md §3): a worker holds
// it only while its kernels run (SpMV, h, the G1 MSMs), so another worker of the same device
// uploads its witness, waits for its SRS or runs its CPU G2 MSM meanwhile. It also accounts the
// time it was held: with every kernel region under it, that is the device's busy time (the
// daemon's cuzk_gpu_busy_seconds_total). BasicLockable (std::lock_guard / std::unique_lock).
// Header-only and CUDA-free, so the daemon's worker bookkeeping and its tests use it without a GPU.
class kernel_region_lock {
 public:
  void lock() {
    mutex_.lock();
    since_ns_.store(now_ns(), std::memory_order_relaxed);
    held_.store(true, std::memory_order_release);
  }
  void unlock() {
    busy_ns_.fetch_add(now_ns() - since_ns_.load(std::memory_order_relaxed), std::memory_order_relaxed);
    regions_.fetch_add(1, std::memory_order_relaxed);
    held_.store(false, std::memory_order_release);
    mutex_.unlock();
  }
  bool held() const { return held_.load(std::memory_order_acquire); }
  // Seconds held so far, including the region in progress (a gauge read mid-region stays monotone).
  double busy_seconds() const {
    std::int64_t ns = busy_ns_.load(std::memory_order_relaxed);
    if (held()) ns += std::max<std::int64_t>(0, now_ns() - since_ns_.load(std::memory_order_relaxed));
    return static_cast<double>(ns) * 1e-9;
  }
  std::uint64_t regions() const { return regions_.load(std::memory_order_relaxed); }  // completed ones

 private:
  static std::int64_t now_ns() {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
  }
  std::mutex mutex_;
  std::atomic<bool> held_{false};
  std::atomic<std::int64_t> since_ns_{0}, busy_ns_{0};
  std::atomic<std::uint64_t> regions_{0};
};

// The CUDA implementations (device_memory_cuda.cu).
// Free and total memory of device `ordinal` (it becomes the calling thread's current device).
std::unique_ptr<device_memory_info> make_cuda_memory_info(int ordinal);
std::unique_ptr<device_memory_info> make_cuda_memory_info();  // device 0
std::unique_ptr<pinned_allocator> make_cuda_pinned_allocator();
// A pool of page-locked buffers (cudaHostAlloc) bounded to max_bytes.
std::shared_ptr<pinned_host_pool> make_cuda_pinned_pool(std::size_t max_bytes);

// Devices visible to this process: 0 with `error` set when there is no driver or no device.
int cuda_device_count(std::string& error);
// The device's product name ("NVIDIA H200"); "" when it cannot be read.
std::string cuda_device_name(int ordinal);
// Makes `ordinal` the calling thread's current device (CUDA's current device is per host thread,
// so every worker thread selects its own before any CUDA call). False with `error` set on failure.
bool select_cuda_device(int ordinal, std::string& error);

// "12.3 GiB"-style text for messages.
std::string format_bytes(std::size_t bytes);

}  // namespace cuzk::cuda
