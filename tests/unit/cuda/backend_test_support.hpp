// Shared by the prover-backend GPU tests (cuda_backend_test, cuda_setup_test): whether a CUDA
// device is usable, a skip with the reason when it is not, and one CPU thread pool per process.
#pragma once

#include <gtest/gtest.h>

#include <cstddef>
#include <string>

#include "backend/cuda/device_memory.hpp"
#include "base/executor.hpp"

namespace cuzk::cuda::gpu_test {

inline bool have_gpu(std::string& why) {
  std::size_t free_b = 0, total_b = 0;
  return make_cuda_memory_info()->query(free_b, total_b, why);
}

inline base::executor& cpu_pool() {
  static const auto ex = base::make_thread_pool_executor(0);
  return *ex;
}

}  // namespace cuzk::cuda::gpu_test

// Skips the calling test, naming `what`, when there is no usable CUDA device.
#define CUZK_REQUIRE_GPU(what)                                                                      \
  do {                                                                                              \
    std::string why_;                                                                               \
    if (!::cuzk::cuda::gpu_test::have_gpu(why_)) GTEST_SKIP() << "no CUDA device (" << why_ << "): " << what; \
  } while (0)
