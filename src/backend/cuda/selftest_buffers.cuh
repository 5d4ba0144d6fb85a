// Device buffers of the self-test functions (field_selftest.cu, g1_selftest.cu, g2_selftest.cu):
// each registered buffer is freed when the function returns, on any path, and results are copied
// back into host vectors of the host twin's type.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>
#include <string>
#include <vector>

#include "backend/cuda/cuda_status.cuh"

namespace cuzk::cuda::selftest {

struct device_buffers {
  std::vector<void*> ptrs;
  device_buffers() = default;
  device_buffers(const device_buffers&) = delete;
  device_buffers& operator=(const device_buffers&) = delete;
  ~device_buffers() {
    for (void* p : ptrs) cudaFree(p);
  }
  // n elements of T (at least one, so that an empty input still gets a valid pointer).
  template <class T>
  bool alloc(T** p, std::size_t n, std::string& error) {
    if (!ok(cudaMalloc(reinterpret_cast<void**>(p), std::max<std::size_t>(n, 1) * sizeof(T)), "cudaMalloc", error))
      return false;
    ptrs.push_back(*p);
    return true;
  }
};

// dst = the n elements at src (a device pointer), read as the same-size host type T.
template <class T, class U>
bool copy_out(std::vector<T>& dst, const U* src, std::size_t n, std::string& error) {
  static_assert(sizeof(T) == sizeof(U));
  dst.resize(n);
  return ok(cudaMemcpy(dst.data(), src, n * sizeof(U), cudaMemcpyDeviceToHost), "copy out", error);
}

}  // namespace cuzk::cuda::selftest
