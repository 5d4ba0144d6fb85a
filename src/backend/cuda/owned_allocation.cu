// The CUDA calls of owned_allocation.hpp: release and allocation. A destructor cannot report a failure to free; it can
// only come from a pointer CUDA did not allocate or after a sticky device fault, which the next
// checked CUDA call reports anyway.
#include <cuda_runtime.h>

#include "backend/cuda/owned_allocation.hpp"

#include "backend/cuda/cuda_status.cuh"

namespace cuzk::cuda {

void release_device_memory(void* p) noexcept { (void)cudaFree(p); }
void release_pinned_memory(void* p) noexcept { (void)cudaFreeHost(p); }

bool allocate_device(device_allocation& mem, std::size_t count, std::size_t bytes, const char* what,
                     std::string& error) {
  mem.reset();
  void* raw = nullptr;
  if (!ok(cudaMalloc(&raw, bytes), what, error)) return false;
  mem.adopt(raw, count);
  return true;
}

bool allocate_pinned(pinned_allocation& mem, std::size_t count, std::size_t bytes, const char* what,
                     std::string& error) {
  mem.reset();
  void* raw = nullptr;
  if (!ok(cudaHostAlloc(&raw, bytes, cudaHostAllocPortable), what, error)) return false;
  mem.adopt(raw, count);
  return true;
}

}  // namespace cuzk::cuda
