#include "backend/cuda/field_selftest.hpp"

#include <cuda_runtime.h>

#include <cstdint>
#include <cstring>

#include "backend/cuda/fp_inverse_device.cuh"
#include "backend/cuda/selftest_buffers.cuh"

namespace cuzk::cuda {

namespace {

// One formula per field, shared by the kernel and the CPU reference (CUZK_HD).
CUZK_HD ff::fp fp_formula(const ff::fp& a, const ff::fp& b) {
  ff::fp t = a * b + a - b;
  return t.square() + t.inverse();
}
CUZK_HD ff::fr fr_formula(const ff::fr& c, const ff::fr& d) {
  ff::fr t = c * d - c + d;
  return t.square() * t;
}
CUZK_HD ff::fp2 fp2_formula(const ff::fp& a, const ff::fp& b) {
  ff::fp2 x{a, b};
  ff::fp2 y{b, -a};
  return (x * y).square() + x.mul_by_nonresidue();
}

__global__ void field_kernel(const ff::fp* a, const ff::fp* b, const ff::fr* c, const ff::fr* d,
                             ff::fp* fp_out, ff::fr* fr_out, ff::fp2* fp2_out, std::size_t n) {
  std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= n) return;
  fp_out[i] = fp_formula(a[i], b[i]);
  fr_out[i] = fr_formula(c[i], d[i]);
  fp2_out[i] = fp2_formula(a[i], b[i]);
}

// ff::fp and dev::fp32 hold the same little-endian bytes (6 x 64 = 12 x 32 bits).
__global__ void inverse_kernel(const ff::fp* a, ff::fp* fermat, ff::fp* safegcd, std::size_t n) {
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= n) return;
  dev::fp32 x;
  memcpy(&x, &a[i], sizeof x);
  const dev::fp32 f = dev::fp_inverse<dev::fp_mul_ptx_call>(x), s = dev::fp_inverse_safegcd<dev::fp_mul_ptx_call>(x);
  memcpy(&fermat[i], &f, sizeof f);
  memcpy(&safegcd[i], &s, sizeof s);
}

}  // namespace

namespace {
__global__ void store_to_kernel(volatile uint32_t* p) { *p = 1; }
}  // namespace

std::string trigger_illegal_address_fault() {
  // Address 0x100 is never mapped (the first page of the device's address space is reserved).
  store_to_kernel<<<1, 1>>>(reinterpret_cast<volatile uint32_t*>(uintptr_t{0x100}));
  const cudaError_t e = cudaDeviceSynchronize();
  if (e == cudaSuccess) return {};
  return std::string(cudaGetErrorName(e)) + ": " + cudaGetErrorString(e);
}

ff::fp selftest_fp_formula(const ff::fp& a, const ff::fp& b) { return fp_formula(a, b); }
ff::fr selftest_fr_formula(const ff::fr& c, const ff::fr& d) { return fr_formula(c, d); }
ff::fp2 selftest_fp2_formula(const ff::fp& a, const ff::fp& b) { return fp2_formula(a, b); }

int device_count(std::string& why) {
  int n = 0;
  cudaError_t e = cudaGetDeviceCount(&n);
  if (e != cudaSuccess) {
    why = cudaGetErrorString(e);
    return 0;
  }
  if (n == 0) why = "no CUDA device";
  return n;
}

bool run_field_selftest(const std::vector<ff::fp>& a, const std::vector<ff::fp>& b,
                        const std::vector<ff::fr>& c, const std::vector<ff::fr>& d,
                        field_selftest_result& out, std::string& error) {
  const std::size_t n = a.size();
  if (b.size() != n || c.size() != n || d.size() != n) {
    error = "run_field_selftest: input sizes differ";
    return false;
  }
  selftest::device_buffers buf;
  ff::fp *da, *db, *dfp;
  ff::fr *dc, *dd, *dfr;
  ff::fp2* dfp2;
  auto check = [&](cudaError_t e, const char* what) { return ok(e, what, error); };
  if (!buf.alloc(&da, n, error) || !buf.alloc(&db, n, error) || !buf.alloc(&dc, n, error) ||
      !buf.alloc(&dd, n, error) || !buf.alloc(&dfp, n, error) || !buf.alloc(&dfr, n, error) ||
      !buf.alloc(&dfp2, n, error))
    return false;
  if (!check(cudaMemcpy(da, a.data(), n * sizeof(ff::fp), cudaMemcpyHostToDevice), "copy a") ||
      !check(cudaMemcpy(db, b.data(), n * sizeof(ff::fp), cudaMemcpyHostToDevice), "copy b") ||
      !check(cudaMemcpy(dc, c.data(), n * sizeof(ff::fr), cudaMemcpyHostToDevice), "copy c") ||
      !check(cudaMemcpy(dd, d.data(), n * sizeof(ff::fr), cudaMemcpyHostToDevice), "copy d"))
    return false;
  const unsigned threads = 128;
  const unsigned blocks = static_cast<unsigned>((n + threads - 1) / threads);
  field_kernel<<<blocks, threads>>>(da, db, dc, dd, dfp, dfr, dfp2, n);
  if (!check(cudaGetLastError(), "launch") || !check(cudaDeviceSynchronize(), "kernel")) return false;
  return selftest::copy_out(out.fp_out, dfp, n, error) && selftest::copy_out(out.fr_out, dfr, n, error) &&
         selftest::copy_out(out.fp2_out, dfp2, n, error);
}

bool run_fp_inverse_selftest(const std::vector<ff::fp>& a, std::vector<ff::fp>& fermat, std::vector<ff::fp>& safegcd,
                             std::string& error) {
  const std::size_t n = a.size();
  selftest::device_buffers buf;
  ff::fp *da, *df, *ds;
  auto check = [&](cudaError_t e, const char* what) { return ok(e, what, error); };
  if (!buf.alloc(&da, n, error) || !buf.alloc(&df, n, error) || !buf.alloc(&ds, n, error) ||
      !check(cudaMemcpy(da, a.data(), n * sizeof(ff::fp), cudaMemcpyHostToDevice), "copy a"))
    return false;
  inverse_kernel<<<static_cast<unsigned>((n + 127) / 128), 128>>>(da, df, ds, n);
  if (!check(cudaGetLastError(), "launch") || !check(cudaDeviceSynchronize(), "inverse_kernel")) return false;
  return selftest::copy_out(fermat, df, n, error) && selftest::copy_out(safegcd, ds, n, error);
}

}  // namespace cuzk::cuda
