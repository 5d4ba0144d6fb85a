// The CUDA side of device_memory.hpp: a device's free memory, device selection and names, and
// page-locked host buffers.
#include <cuda_runtime.h>

#include "backend/cuda/device_memory.hpp"

namespace cuzk::cuda {

namespace {

class cuda_memory_info final : public device_memory_info {
 public:
  explicit cuda_memory_info(int ordinal) : ordinal_(ordinal) {}
  bool query(std::size_t& free_bytes, std::size_t& total_bytes, std::string& error) override {
    cudaError_t e = cudaSetDevice(ordinal_);
    if (e == cudaSuccess) e = cudaMemGetInfo(&free_bytes, &total_bytes);
    if (e == cudaSuccess) return true;
    error = std::string("cudaMemGetInfo: ") + cudaGetErrorString(e);
    return false;
  }

 private:
  int ordinal_;
};

class cuda_pinned_allocator final : public pinned_allocator {
 public:
  void* allocate(std::size_t bytes) override {
    void* p = nullptr;
    // Portable: usable by every context; not write-combined (the host also reads these).
    if (cudaHostAlloc(&p, bytes, cudaHostAllocPortable) != cudaSuccess) return nullptr;
    return p;
  }
  void deallocate(void* p, std::size_t) override { cudaFreeHost(p); }
};

}  // namespace

std::unique_ptr<device_memory_info> make_cuda_memory_info(int ordinal) {
  return std::make_unique<cuda_memory_info>(ordinal);
}
std::unique_ptr<device_memory_info> make_cuda_memory_info() { return make_cuda_memory_info(0); }

int cuda_device_count(std::string& error) {
  int n = 0;
  const cudaError_t e = cudaGetDeviceCount(&n);
  if (e != cudaSuccess) {
    error = std::string("cudaGetDeviceCount: ") + cudaGetErrorString(e);
    return 0;
  }
  if (n == 0) error = "no CUDA device is visible";
  return n;
}

std::string cuda_device_name(int ordinal) {
  cudaDeviceProp p{};
  if (cudaGetDeviceProperties(&p, ordinal) != cudaSuccess) return {};
  return p.name;
}

bool select_cuda_device(int ordinal, std::string& error) {
  const cudaError_t e = cudaSetDevice(ordinal);
  if (e == cudaSuccess) return true;
  error = "cudaSetDevice(" + std::to_string(ordinal) + "): " + cudaGetErrorString(e);
  return false;
}
std::unique_ptr<pinned_allocator> make_cuda_pinned_allocator() { return std::make_unique<cuda_pinned_allocator>(); }
std::shared_ptr<pinned_host_pool> make_cuda_pinned_pool(std::size_t max_bytes) {
  return std::make_shared<pinned_host_pool>(make_cuda_pinned_allocator(), max_bytes);
}

}  // namespace cuzk::cuda
