// Host/device annotations: the same arithmetic templates compile with g++ for the CPU and
// with nvcc for CUDA kernels. Only code inside backend/cuda sees CUDA headers; this macro is
// the single place where the rest of the tree acknowledges that nvcc may be compiling it.
#pragma once

#if defined(__CUDACC__)
#define CUZK_HD __host__ __device__ __forceinline__
#define CUZK_HD_CONSTEXPR __host__ __device__ constexpr __forceinline__
#else
#define CUZK_HD inline
#define CUZK_HD_CONSTEXPR constexpr inline
#endif

// True while compiling device code: selects portable arithmetic over x86-64 inline assembly.
#if defined(__CUDA_ARCH__)
#define CUZK_DEVICE_CODE 1
#else
#define CUZK_DEVICE_CODE 0
#endif
