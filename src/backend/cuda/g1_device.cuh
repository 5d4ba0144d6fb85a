// Device-only G1 point arithmetic over fp_device.cuh, for the MSM kernels: affine bases as
// stored on the device and XYZZ accumulators (x = X/ZZ, y = Y/ZZZ, ZZ^3 = ZZZ^2), with the same
// formulas as ec::xyzz_point (ec/point.hpp) so that results agree with the host coordinate for
// coordinate (every field element is fully reduced, hence unique). Costs in Fp products (D: the
// dot product a b + c d of Y3 with one reduction, 0.75 of two products with the even/odd policy;
// S: the dedicated square, 0.77 M):
//   add_mixed  madd-2008-s, 6M + 2S + D   (bucket += base)
//   add        add-2008-s, 10M + 2S + D   (bucket + bucket)
//   dbl        dbl-2008-s-1, 4M + 3S + D
// Layouts (bytes identical to the host types, so arrays are copied, never converted):
//   g1_affine_dev  x, y as ff::fp (96 B); the point at infinity is (0, 0), which is not on the
//                  curve (0 != 0 + 4), so no flag byte is needed.
//   g1_xyzz_dev    X, Y, ZZ, ZZZ as ff::fp (192 B), the layout of ec::g1_xyzz; identity: ZZ = 0
//                  (all-zero bytes are the identity, so cudaMemset initialises buckets).
// Complete: identity operands, P + P (doubling) and P + (-P) (identity) take explicit branches.
#pragma once

#include "backend/cuda/fp_device.cuh"

namespace cuzk::cuda::dev {

struct g1_affine_dev {
  fp32 x, y;
};
struct g1_xyzz_dev {
  fp32 X, Y, ZZ, ZZZ;
};
static_assert(sizeof(g1_affine_dev) == 96 && sizeof(g1_xyzz_dev) == 192, "device point layouts");

// 16-byte loads through the read-only path (bases never change during an MSM).
__device__ __forceinline__ fp32 load_fp_ro(const fp32* p) {
  const uint4* q = reinterpret_cast<const uint4*>(p);
  const uint4 a = __ldg(q), b = __ldg(q + 1), c = __ldg(q + 2);
  return {{a.x, a.y, a.z, a.w, b.x, b.y, b.z, b.w, c.x, c.y, c.z, c.w}};
}
__device__ __forceinline__ fp32 load_fp(const fp32* p) {
  const uint4* q = reinterpret_cast<const uint4*>(p);
  const uint4 a = q[0], b = q[1], c = q[2];
  return {{a.x, a.y, a.z, a.w, b.x, b.y, b.z, b.w, c.x, c.y, c.z, c.w}};
}
__device__ __forceinline__ void store_fp(fp32* p, const fp32& x) {
  uint4* q = reinterpret_cast<uint4*>(p);
  q[0] = make_uint4(x.v[0], x.v[1], x.v[2], x.v[3]);
  q[1] = make_uint4(x.v[4], x.v[5], x.v[6], x.v[7]);
  q[2] = make_uint4(x.v[8], x.v[9], x.v[10], x.v[11]);
}
__device__ __forceinline__ g1_affine_dev load_affine(const g1_affine_dev* p) {
  return {load_fp_ro(&p->x), load_fp_ro(&p->y)};
}
__device__ __forceinline__ g1_xyzz_dev load_xyzz(const g1_xyzz_dev* p) {
  return {load_fp(&p->X), load_fp(&p->Y), load_fp(&p->ZZ), load_fp(&p->ZZZ)};
}
__device__ __forceinline__ void store_xyzz(g1_xyzz_dev* p, const g1_xyzz_dev& a) {
  store_fp(&p->X, a.X);
  store_fp(&p->Y, a.Y);
  store_fp(&p->ZZ, a.ZZ);
  store_fp(&p->ZZZ, a.ZZZ);
}

__device__ __forceinline__ bool is_infinity(const g1_affine_dev& a) { return fp_is_zero(a.x) && fp_is_zero(a.y); }

// Affine helpers for the batch-affine additions (msm_batch_affine.cuh): plain 16-byte stores
// (results are read back by a later kernel, so no read-only path), and the infinity (0, 0).
__device__ __forceinline__ void store_affine(g1_affine_dev* p, const g1_affine_dev& a) {
  store_fp(&p->x, a.x);
  store_fp(&p->y, a.y);
}
__device__ __forceinline__ g1_affine_dev affine_infinity() { return {fp_zero(), fp_zero()}; }

template <class Mul>
struct g1_ops {
  using xyzz = g1_xyzz_dev;
  using affine = g1_affine_dev;

  static __device__ __forceinline__ xyzz identity() { return {fp_zero(), fp_zero(), fp_zero(), fp_zero()}; }
  static __device__ __forceinline__ bool is_identity(const xyzz& p) { return fp_is_zero(p.ZZ); }
  static __device__ __forceinline__ xyzz from_affine(const affine& a) { return {a.x, a.y, fp_one(), fp_one()}; }
  static __device__ __forceinline__ xyzz neg(const xyzz& p) { return {p.X, fp_neg(p.Y), p.ZZ, p.ZZZ}; }

  // dbl-2008-s-1, a = 0: U = 2Y, V = U^2, W = U V, S = X V, M = 3X^2,
  // X3 = M^2 - 2S, Y3 = M(S - X3) - W Y, ZZ3 = V ZZ, ZZZ3 = W ZZZ. The identity stays the identity.
  static __device__ __forceinline__ xyzz dbl(const xyzz& p) {
    const fp32 u = fp_dbl(p.Y);
    const fp32 v = Mul::sqr(u);
    const fp32 w = Mul::mul(u, v);
    const fp32 s = Mul::mul(p.X, v);
    const fp32 x2 = Mul::sqr(p.X);
    const fp32 m = fp_add(fp_dbl(x2), x2);
    xyzz r;
    r.X = fp_sub(Mul::sqr(m), fp_dbl(s));
    r.Y = Mul::dot(m, fp_sub(s, r.X), fp_neg(p.Y), w);
    r.ZZ = Mul::mul(v, p.ZZ);
    r.ZZZ = Mul::mul(w, p.ZZZ);
    return r;
  }

  // madd-2008-s: U2 = X2 ZZ1, S2 = Y2 ZZZ1, P = U2 - X1, R = S2 - Y1, PP = P^2, PPP = P PP,
  // Q = X1 PP, X3 = R^2 - PPP - 2Q, Y3 = R(Q - X3) - Y1 PPP, ZZ3 = ZZ1 PP, ZZZ3 = ZZZ1 PPP.
  // q must not be the point at infinity (callers skip those).
  static __device__ __forceinline__ xyzz add_mixed(const xyzz& p, const affine& q) {
    if (is_identity(p)) return from_affine(q);
    const fp32 u2 = Mul::mul(q.x, p.ZZ);
    const fp32 s2 = Mul::mul(q.y, p.ZZZ);
    const fp32 pd = fp_sub(u2, p.X);
    const fp32 rd = fp_sub(s2, p.Y);
    if (fp_is_zero(pd)) return fp_is_zero(rd) ? dbl(p) : identity();
    const fp32 pp = Mul::sqr(pd);
    const fp32 ppp = Mul::mul(pd, pp);
    const fp32 qq = Mul::mul(p.X, pp);
    xyzz r;
    r.X = fp_sub(fp_sub(Mul::sqr(rd), ppp), fp_dbl(qq));
    r.Y = Mul::dot(rd, fp_sub(qq, r.X), fp_neg(p.Y), ppp);
    r.ZZ = Mul::mul(p.ZZ, pp);
    r.ZZZ = Mul::mul(p.ZZZ, ppp);
    return r;
  }

  // add-2008-s: U1 = X1 ZZ2, U2 = X2 ZZ1, S1 = Y1 ZZZ2, S2 = Y2 ZZZ1, P = U2 - U1, R = S2 - S1,
  // PP = P^2, PPP = P PP, Q = U1 PP, X3 = R^2 - PPP - 2Q, Y3 = R(Q - X3) - S1 PPP,
  // ZZ3 = ZZ1 ZZ2 PP, ZZZ3 = ZZZ1 ZZZ2 PPP.
  static __device__ __forceinline__ xyzz add(const xyzz& p, const xyzz& q) {
    if (is_identity(p)) return q;
    if (is_identity(q)) return p;
    const fp32 u1 = Mul::mul(p.X, q.ZZ);
    const fp32 u2 = Mul::mul(q.X, p.ZZ);
    const fp32 s1 = Mul::mul(p.Y, q.ZZZ);
    const fp32 s2 = Mul::mul(q.Y, p.ZZZ);
    const fp32 pd = fp_sub(u2, u1);
    const fp32 rd = fp_sub(s2, s1);
    if (fp_is_zero(pd)) return fp_is_zero(rd) ? dbl(p) : identity();
    const fp32 pp = Mul::sqr(pd);
    const fp32 ppp = Mul::mul(pd, pp);
    const fp32 qq = Mul::mul(u1, pp);
    xyzz r;
    r.X = fp_sub(fp_sub(Mul::sqr(rd), ppp), fp_dbl(qq));
    r.Y = Mul::dot(rd, fp_sub(qq, r.X), fp_neg(s1), ppp);
    r.ZZ = Mul::mul(Mul::mul(p.ZZ, q.ZZ), pp);
    r.ZZZ = Mul::mul(Mul::mul(p.ZZZ, q.ZZZ), ppp);
    return r;
  }
};

}  // namespace cuzk::cuda::dev
