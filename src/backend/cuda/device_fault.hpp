// What the CUDA backend does after a device fault. Some CUDA errors are "sticky": an illegal
// address, a kernel trap or an uncorrectable ECC error leaves the process's context on that device
// unusable, and every later CUDA call there returns the same error until the process exits. So a
// worker that meets one records it in the device's device_fault_state (shared by the workers of
// that device), its job fails with the CUDA error and the fact that the GPU is now unusable, and
// every later job on that device fails at once with the recorded reason instead of running into
// the same error part way through (the daemon reports the fault in GetStatus, /status, /metrics
// and /healthz, and its gRPC health turns NOT_SERVING; restarting the process resets the device).
// Errors that are not sticky (a bad launch configuration, a refused reservation) fail only their
// own job.
//
// Header-only and CUDA-free (like kernel_region_lock), so the daemon's bookkeeping and its tests
// use it without a GPU; probe_sticky_fault is in device_fault_cuda.cu.
#pragma once

#include <atomic>
#include <functional>
#include <mutex>
#include <stdexcept>
#include <string>
#include <vector>

namespace cuzk::cuda {

// A job failed because its device is unusable (a sticky fault, now or earlier).
class device_fault_error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Whether a device has had a sticky fault, and the first one's description. Thread-safe.
class device_fault_state {
 public:
  bool faulted() const { return faulted_.load(std::memory_order_acquire); }
  std::string reason() const {
    std::lock_guard lock(mutex_);
    return reason_;
  }
  // Records a fault; the first reason is kept. True when this call recorded it; that call also
  // runs the listeners (on its own thread, after the state is visible).
  bool record(const std::string& reason) {
    std::vector<std::function<void(const std::string&)>> call;
    {
      std::lock_guard lock(mutex_);
      if (faulted_.load(std::memory_order_relaxed)) return false;
      reason_ = reason;
      faulted_.store(true, std::memory_order_release);
      call = listeners_;
    }
    for (const auto& f : call) f(reason);
    return true;
  }
  // Runs f(reason) once the device faults (at once when it already has): the daemon logs it and
  // turns its health to NOT_SERVING.
  void on_fault(std::function<void(const std::string&)> f) {
    std::unique_lock lock(mutex_);
    if (!faulted_.load(std::memory_order_relaxed)) {
      listeners_.push_back(std::move(f));
      return;
    }
    const std::string reason = reason_;
    lock.unlock();
    f(reason);
  }

 private:
  mutable std::mutex mutex_;
  std::atomic<bool> faulted_{false};
  std::string reason_;
  std::vector<std::function<void(const std::string&)>> listeners_;
};

// After a failed CUDA step: waits for the device's work (cudaDeviceSynchronize: the fault of a
// kernel shows up there) and returns true with `reason` set ("cudaErrorIllegalAddress: an illegal
// memory access was encountered") when the device's context holds a sticky error.
bool probe_sticky_fault(int device, std::string& reason);

}  // namespace cuzk::cuda
