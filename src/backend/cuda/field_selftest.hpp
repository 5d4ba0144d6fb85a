// Runs the host/device field templates on the GPU so tests can compare them with the CPU,
// element by element. This header is plain C++ (no CUDA types): callers need no nvcc.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "ff/fp2.hpp"

namespace cuzk::cuda {

// Number of CUDA devices, or 0 with `why` set when there is no usable device or driver.
int device_count(std::string& why);

// out[i] = a[i] * b[i] + a[i] - b[i] and its square in Fp, the same in Fr, and an Fp2
// product, computed on device 0. Returns false with `error` set on any CUDA failure.
struct field_selftest_result {
  std::vector<ff::fp> fp_out;
  std::vector<ff::fr> fr_out;
  std::vector<ff::fp2> fp2_out;
};
bool run_field_selftest(const std::vector<ff::fp>& a, const std::vector<ff::fp>& b,
                        const std::vector<ff::fr>& c, const std::vector<ff::fr>& d,
                        field_selftest_result& out, std::string& error);

// Both device Fp inversions (fp_inverse_device.cuh: Fermat and safegcd, Montgomery form in and
// out) of every a[i] on device 0.
bool run_fp_inverse_selftest(const std::vector<ff::fp>& a, std::vector<ff::fp>& fermat, std::vector<ff::fp>& safegcd,
                             std::string& error);

// For the device-fault tests only: a kernel on the current device stores to an address no
// allocation covers, which leaves the process's context there unusable (a sticky
// cudaErrorIllegalAddress). Returns what cudaDeviceSynchronize reports ("cudaErrorIllegalAddress:
// ..."; empty if the store did not fault).
std::string trigger_illegal_address_fault();

// The same arithmetic on the CPU: the reference the device result must equal bit for bit.
ff::fp selftest_fp_formula(const ff::fp& a, const ff::fp& b);
ff::fr selftest_fr_formula(const ff::fr& c, const ff::fr& d);
ff::fp2 selftest_fp2_formula(const ff::fp& a, const ff::fp& b);

}  // namespace cuzk::cuda
