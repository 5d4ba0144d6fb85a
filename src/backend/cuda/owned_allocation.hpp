// One owner for a CUDA allocation: the pointer, its element count and the call that frees it,
// move-only. device_bases, pinned_bases, device_fr_vector and the MSM and SpMV scratch buffers
// hold one instead of each writing the same destructor and moves, and allocate through
// allocate_device / allocate_pinned. Plain C++ (no CUDA headers): the CUDA calls live in
// owned_allocation.cu.
#pragma once

#include <cstddef>
#include <string>
#include <utility>

namespace cuzk::cuda {

void release_device_memory(void* p) noexcept;  // cudaFree
void release_pinned_memory(void* p) noexcept;  // cudaFreeHost

template <void (*Release)(void*) noexcept>
class owned_allocation {
 public:
  owned_allocation() = default;
  ~owned_allocation() { reset(); }
  owned_allocation(owned_allocation&& o) noexcept
      : ptr_(std::exchange(o.ptr_, nullptr)), count_(std::exchange(o.count_, 0)) {}
  owned_allocation& operator=(owned_allocation&& o) noexcept {
    if (this != &o) {
      reset();
      ptr_ = std::exchange(o.ptr_, nullptr);
      count_ = std::exchange(o.count_, 0);
    }
    return *this;
  }
  owned_allocation(const owned_allocation&) = delete;
  owned_allocation& operator=(const owned_allocation&) = delete;

  // Frees what is held; empty afterwards.
  void reset() noexcept {
    if (ptr_) Release(ptr_);
    ptr_ = nullptr;
    count_ = 0;
  }
  // Takes ownership of p (count elements), freeing what was held before.
  void adopt(void* p, std::size_t count) noexcept {
    reset();
    ptr_ = p;
    count_ = p ? count : 0;
  }

  void* get() const { return ptr_; }
  template <class T>
  T* as() const {
    return static_cast<T*>(ptr_);
  }
  std::size_t count() const { return count_; }

 private:
  void* ptr_ = nullptr;
  std::size_t count_ = 0;
};

using device_allocation = owned_allocation<release_device_memory>;
using pinned_allocation = owned_allocation<release_pinned_memory>;

// Frees what `mem` holds, then gives it `bytes` of device memory (cudaMalloc) holding `count`
// elements. False with `error` = "<what>: <CUDA's message>" on failure (mem is then empty).
bool allocate_device(device_allocation& mem, std::size_t count, std::size_t bytes, const char* what,
                     std::string& error);
// The same in page-locked host memory (cudaHostAlloc, portable: usable by every context).
bool allocate_pinned(pinned_allocation& mem, std::size_t count, std::size_t bytes, const char* what,
                     std::string& error);

}  // namespace cuzk::cuda
