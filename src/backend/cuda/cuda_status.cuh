// How the CUDA backend turns a CUDA status into its error convention (functions return false and
// set `error` to "<call>: <CUDA's message>"), and the event timing the contexts share. One place,
// so every .cu reports failures the same way.
#pragma once

#include <cuda_runtime.h>

#include <string>

namespace cuzk::cuda {

inline bool ok(cudaError_t e, const char* what, std::string& error) {
  if (e == cudaSuccess) return true;
  error = std::string(what) + ": " + cudaGetErrorString(e);
  return false;
}

// After a kernel launch: a launch failure (bad configuration, no device) shows up here; faults
// inside the kernel surface at the next synchronising call.
inline bool launched(const char* what, std::string& error) { return ok(cudaGetLastError(), what, error); }

// Milliseconds on `stream` from `start` (recorded earlier) to now; -1 with `error` set on failure.
// Waits for the work queued before it.
inline double elapsed_since(cudaEvent_t start, cudaEvent_t stop, cudaStream_t stream, std::string& error) {
  float ms = 0;
  if (!ok(cudaEventRecord(stop, stream), "cudaEventRecord", error) ||
      !ok(cudaEventSynchronize(stop), "cudaEventSynchronize", error) ||
      !ok(cudaEventElapsedTime(&ms, start, stop), "cudaEventElapsedTime", error))
    return -1;
  return ms;
}

}  // namespace cuzk::cuda
