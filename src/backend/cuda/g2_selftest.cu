// Device half of the Fp2 / G2 arithmetic tests (msm_cuda.hpp, run_g2_selftest).
#include <cuda_runtime.h>

#include <cstring>
#include <vector>

#include "backend/cuda/cuda_status.cuh"
#include "backend/cuda/selftest_buffers.cuh"
#include "backend/cuda/g2_device.cuh"
#include "backend/cuda/msm_cuda.hpp"

namespace cuzk::cuda {

using selftest::copy_out;

namespace {

using dev::fp2_dev;
using dev::g2_affine_dev;
using dev::g2_xyzz_dev;
using mul = dev::fp_mul_ptx_call;  // the multiplier of the G2 MSM

__global__ void fp2_selftest_kernel(const fp2_dev* a, const fp2_dev* b, fp2_dev* prod, fp2_dev* square,
                                    fp2_dev* sum, fp2_dev* diff, fp2_dev* neg, std::size_t n) {
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const fp2_dev x = a[i], y = b[i];
  prod[i] = dev::fp2_mul_policy<mul>::mul(x, y);
  square[i] = dev::fp2_mul_policy<mul>::sqr(x);
  sum[i] = dev::fp2_add(x, y);
  diff[i] = dev::fp2_sub(x, y);
  neg[i] = dev::fp2_neg(x);
}

__global__ void g2_selftest_kernel(const g2_xyzz_dev* p, const g2_affine_dev* q, g2_xyzz_dev* madd, g2_xyzz_dev* add,
                                   g2_xyzz_dev* dbl, std::size_t n) {
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= n) return;
  using ops = dev::g2_ops<mul>;
  const g2_xyzz_dev a = dev::load_xyzz(p + i);
  dev::store_xyzz(madd + i, ops::add_mixed(a, dev::load_affine(q + i)));
  dev::store_xyzz(add + i, ops::add(a, dev::load_xyzz(p + (i + 1) % n)));
  dev::store_xyzz(dbl + i, ops::dbl(a));
}

}  // namespace

bool run_g2_selftest(std::span<const ff::fp2> a, std::span<const ff::fp2> b, std::span<const ec::g2_xyzz> p,
                     std::span<const ec::g2_affine> q, g2_selftest_result& out, std::string& error) {
  static_assert(sizeof(ff::fp2) == sizeof(fp2_dev) && sizeof(ec::g2_xyzz) == sizeof(g2_xyzz_dev));
  const std::size_t n = a.size(), m = p.size();
  if (b.size() != n || q.size() != m || m == 0) {
    error = "run_g2_selftest: input sizes differ";
    return false;
  }
  selftest::device_buffers buf;
  fp2_dev *da, *db, *o_mul, *o_sqr, *o_add, *o_sub, *o_neg;
  g2_xyzz_dev *dp, *o_madd, *o_padd, *o_dbl;
  g2_affine_dev* dq;
  if (!buf.alloc(&da, n, error) || !buf.alloc(&db, n, error) || !buf.alloc(&o_mul, n, error) ||
      !buf.alloc(&o_sqr, n, error) || !buf.alloc(&o_add, n, error) || !buf.alloc(&o_sub, n, error) ||
      !buf.alloc(&o_neg, n, error) || !buf.alloc(&dp, m, error) || !buf.alloc(&dq, m, error) ||
      !buf.alloc(&o_madd, m, error) || !buf.alloc(&o_padd, m, error) || !buf.alloc(&o_dbl, m, error))
    return false;
  std::vector<g2_affine_dev> hq(m);
  for (std::size_t i = 0; i < m; ++i) {
    std::memcpy(&hq[i].x, &q[i].x, sizeof(fp2_dev));
    std::memcpy(&hq[i].y, &q[i].y, sizeof(fp2_dev));
  }
  if (!ok(cudaMemcpy(da, a.data(), n * sizeof(fp2_dev), cudaMemcpyHostToDevice), "copy a", error) ||
      !ok(cudaMemcpy(db, b.data(), n * sizeof(fp2_dev), cudaMemcpyHostToDevice), "copy b", error) ||
      !ok(cudaMemcpy(dp, p.data(), m * sizeof(g2_xyzz_dev), cudaMemcpyHostToDevice), "copy p", error) ||
      !ok(cudaMemcpy(dq, hq.data(), m * sizeof(g2_affine_dev), cudaMemcpyHostToDevice), "copy q", error))
    return false;
  const unsigned threads = 128;
  if (n)
    fp2_selftest_kernel<<<static_cast<unsigned>((n + threads - 1) / threads), threads>>>(da, db, o_mul, o_sqr, o_add,
                                                                                          o_sub, o_neg, n);
  g2_selftest_kernel<<<static_cast<unsigned>((m + threads - 1) / threads), threads>>>(dp, dq, o_madd, o_padd, o_dbl, m);
  if (!ok(cudaGetLastError(), "launch", error) || !ok(cudaDeviceSynchronize(), "g2 selftest kernels", error))
    return false;
  return copy_out(out.mul, o_mul, n, error) && copy_out(out.sqr, o_sqr, n, error) &&
         copy_out(out.add, o_add, n, error) && copy_out(out.sub, o_sub, n, error) &&
         copy_out(out.neg, o_neg, n, error) && copy_out(out.point_add_mixed, o_madd, m, error) &&
         copy_out(out.point_add, o_padd, m, error) && copy_out(out.point_dbl, o_dbl, m, error);
}

}  // namespace cuzk::cuda
