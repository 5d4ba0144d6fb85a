// The release calls of owned_allocation.hpp. A destructor cannot report a failure to free; it can
// only come from a pointer CUDA did not allocate or after a sticky device fault, which the next
// checked CUDA call reports anyway.
#include <cuda_runtime.h>

#include "backend/cuda/owned_allocation.hpp"

namespace cuzk::cuda {

void release_device_memory(void* p) noexcept { (void)cudaFree(p); }
void release_pinned_memory(void* p) noexcept { (void)cudaFreeHost(p); }

}  // namespace cuzk::cuda
