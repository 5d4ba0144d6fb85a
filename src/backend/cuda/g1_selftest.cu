// Device halves of the Fp / G1 arithmetic tests and the Fp multiplier rate (msm_cuda.hpp).
#include <cuda_runtime.h>

#include <cstring>
#include <vector>

#include "backend/cuda/cuda_status.cuh"
#include "backend/cuda/selftest_buffers.cuh"
#include "backend/cuda/g1_device.cuh"
#include "backend/cuda/msm_cuda.hpp"

namespace cuzk::cuda {

using selftest::copy_out;

namespace {

using dev::fp32;
using dev::g1_affine_dev;
using dev::g1_xyzz_dev;

__global__ void fp_selftest_kernel(const fp32* a, const fp32* b, fp32* mul_ptx, fp32* mul_portable, fp32* add,
                                   fp32* sub, fp32* neg, std::size_t n) {
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const fp32 x = a[i], y = b[i];
  mul_ptx[i] = dev::fp_mul_ptx::mul(x, y);
  mul_portable[i] = dev::fp_mul_portable::mul(x, y);
  add[i] = dev::fp_add(x, y);
  sub[i] = dev::fp_sub(x, y);
  neg[i] = dev::fp_neg(x);
}

__global__ void point_selftest_kernel(const g1_xyzz_dev* p, const g1_affine_dev* q, g1_xyzz_dev* madd_ptx,
                                      g1_xyzz_dev* madd_portable, g1_xyzz_dev* add_ptx, g1_xyzz_dev* dbl_ptx,
                                      std::size_t n) {
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= n) return;
  using fast = dev::g1_ops<dev::fp_mul_ptx>;
  using slow = dev::g1_ops<dev::fp_mul_portable>;
  const g1_xyzz_dev a = dev::load_xyzz(p + i);
  const g1_affine_dev b = dev::load_affine(q + i);
  dev::store_xyzz(madd_ptx + i, fast::add_mixed(a, b));
  dev::store_xyzz(madd_portable + i, slow::add_mixed(a, b));
  dev::store_xyzz(add_ptx + i, fast::add(a, dev::load_xyzz(p + (i + 1) % n)));
  dev::store_xyzz(dbl_ptx + i, fast::dbl(a));
}

template <class Mul>
__global__ void fp_rate_kernel(fp32* data, unsigned length) {
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  fp32 x = data[i];
  const fp32 y = data[i ^ 1];
  for (unsigned k = 0; k < length; ++k) x = Mul::mul(x, y);
  data[i] = x;
}

}  // namespace

bool run_g1_selftest(std::span<const ff::fp> a, std::span<const ff::fp> b, std::span<const ec::g1_xyzz> p,
                     std::span<const ec::g1_affine> q, g1_selftest_result& out, std::string& error) {
  static_assert(sizeof(ff::fp) == sizeof(fp32) && sizeof(ec::g1_xyzz) == sizeof(g1_xyzz_dev));
  const std::size_t n = a.size(), m = p.size();
  if (b.size() != n || q.size() != m || m == 0) {
    error = "run_g1_selftest: input sizes differ";
    return false;
  }
  selftest::device_buffers buf;
  fp32 *da, *db, *mp, *mq, *ad, *sb, *ng;
  g1_xyzz_dev *dp, *o1, *o2, *o3, *o4;
  g1_affine_dev* dq;
  if (!buf.alloc(&da, n, error) || !buf.alloc(&db, n, error) || !buf.alloc(&mp, n, error) ||
      !buf.alloc(&mq, n, error) || !buf.alloc(&ad, n, error) || !buf.alloc(&sb, n, error) ||
      !buf.alloc(&ng, n, error) || !buf.alloc(&dp, m, error) || !buf.alloc(&dq, m, error) ||
      !buf.alloc(&o1, m, error) || !buf.alloc(&o2, m, error) || !buf.alloc(&o3, m, error) ||
      !buf.alloc(&o4, m, error))
    return false;
  std::vector<g1_affine_dev> hq(m);
  for (std::size_t i = 0; i < m; ++i) {
    static_assert(sizeof(ec::fp) == sizeof(fp32));
    std::memcpy(&hq[i].x, &q[i].x, sizeof(fp32));
    std::memcpy(&hq[i].y, &q[i].y, sizeof(fp32));
  }
  if (!ok(cudaMemcpy(da, a.data(), n * sizeof(fp32), cudaMemcpyHostToDevice), "copy a", error) ||
      !ok(cudaMemcpy(db, b.data(), n * sizeof(fp32), cudaMemcpyHostToDevice), "copy b", error) ||
      !ok(cudaMemcpy(dp, p.data(), m * sizeof(g1_xyzz_dev), cudaMemcpyHostToDevice), "copy p", error) ||
      !ok(cudaMemcpy(dq, hq.data(), m * sizeof(g1_affine_dev), cudaMemcpyHostToDevice), "copy q", error))
    return false;
  const unsigned threads = 128;
  if (n) fp_selftest_kernel<<<static_cast<unsigned>((n + threads - 1) / threads), threads>>>(da, db, mp, mq, ad, sb, ng, n);
  point_selftest_kernel<<<static_cast<unsigned>((m + threads - 1) / threads), threads>>>(dp, dq, o1, o2, o3, o4, m);
  if (!ok(cudaGetLastError(), "launch", error) || !ok(cudaDeviceSynchronize(), "selftest kernels", error))
    return false;
  return copy_out(out.mul_ptx, mp, n, error) && copy_out(out.mul_portable, mq, n, error) &&
         copy_out(out.add, ad, n, error) && copy_out(out.sub, sb, n, error) && copy_out(out.neg, ng, n, error) &&
         copy_out(out.add_mixed_ptx, o1, m, error) && copy_out(out.add_mixed_portable, o2, m, error) &&
         copy_out(out.add_ptx, o3, m, error) && copy_out(out.dbl_ptx, o4, m, error);
}

double measure_fp_mul_rate(fp_mul_kernel kind, std::size_t chains, unsigned length, std::string& error) {
  selftest::device_buffers buf;
  fp32* d;
  if (!buf.alloc(&d, chains, error)) return -1;
  std::vector<ff::fp> init(chains);
  for (std::size_t i = 0; i < chains; ++i) init[i] = ff::fp::from_u64(i + 3);
  if (!ok(cudaMemcpy(d, init.data(), chains * sizeof(fp32), cudaMemcpyHostToDevice), "copy", error)) return -1;
  const unsigned threads = 256;
  const unsigned blocks = static_cast<unsigned>(chains / threads);
  auto launch = [&] {
    if (kind == fp_mul_kernel::ptx32)
      fp_rate_kernel<dev::fp_mul_ptx><<<blocks, threads>>>(d, length);
    else if (kind == fp_mul_kernel::ptx32_call)
      fp_rate_kernel<dev::fp_mul_ptx_call><<<blocks, threads>>>(d, length);
    else
      fp_rate_kernel<dev::fp_mul_portable><<<blocks, threads>>>(d, length);
  };
  launch();  // warm-up
  cudaEvent_t e0, e1;
  if (!ok(cudaEventCreate(&e0), "cudaEventCreate", error) || !ok(cudaEventCreate(&e1), "cudaEventCreate", error))
    return -1;
  cudaEventRecord(e0);
  launch();
  cudaEventRecord(e1);
  float ms = 0;
  const bool good = ok(cudaGetLastError(), "launch", error) && ok(cudaEventSynchronize(e1), "rate kernel", error) &&
                    ok(cudaEventElapsedTime(&ms, e0, e1), "cudaEventElapsedTime", error);
  cudaEventDestroy(e0);
  cudaEventDestroy(e1);
  if (!good) return -1;
  return static_cast<double>(blocks) * threads * length / (ms * 1e-3);
}

}  // namespace cuzk::cuda
