// probe_sticky_fault (device_fault.hpp): the CUDA errors after which a context cannot be used
// again (the runtime API's documentation of each: "the process is left in an inconsistent state
// and any further CUDA work will return the same error").
#include <cuda_runtime.h>

#include "backend/cuda/device_fault.hpp"

namespace cuzk::cuda {

namespace {

bool sticky(cudaError_t e) {
  switch (e) {
    case cudaErrorECCUncorrectable:
    case cudaErrorNvlinkUncorrectable:
    case cudaErrorIllegalAddress:
    case cudaErrorLaunchTimeout:
    case cudaErrorAssert:
    case cudaErrorHardwareStackError:
    case cudaErrorIllegalInstruction:
    case cudaErrorMisalignedAddress:
    case cudaErrorInvalidAddressSpace:
    case cudaErrorInvalidPc:
    case cudaErrorLaunchFailure:
      return true;
    default:
      return false;
  }
}

}  // namespace

bool probe_sticky_fault(int device, std::string& reason) {
  cudaError_t e = cudaSetDevice(device);
  if (e == cudaSuccess) e = cudaDeviceSynchronize();
  if (!sticky(e)) return false;
  reason = std::string(cudaGetErrorName(e)) + ": " + cudaGetErrorString(e);
  return true;
}

}  // namespace cuzk::cuda
