// Device-only Fp2 and G2 point arithmetic for the G2 MSM kernels, over the device Fp of
// fp_device.cuh. Fp2 = Fp[u] / (u^2 + 1), element c0 + c1 u, the bytes of ff::fp2 (two ff::fp).
// Every result is fully reduced, so any correct formula agrees with the host bit for bit.
// Costs in Fp products (M):
//   fp2 mul  Karatsuba, 3M: v0 = a0 b0, v1 = a1 b1, c0 = v0 - v1,
//            c1 = (a0 + a1)(b0 + b1) - v0 - v1 (a sum of two reduced values is < 2p and is
//            reduced again by fp_add, so the products see canonical inputs)
//   fp2 sqr  complex squaring, 2M: c0 = (a0 + a1)(a0 - a1), c1 = 2 a0 a1
//   G2 add_mixed  8 fp2 mul + 2 fp2 sqr = 28M;  add  12 + 2 = 40M;  dbl  6 + 3 = 24M
// so a G2 bucket addition costs 2.8x a G1 one, and a G2 XYZZ point is 384 B (G1: 192 B).
// The point formulas are the G1 ones (g1_device.cuh, ec::xyzz_point) over Fp2; G1 keeps its own
// copy so that its measured kernels are unchanged.
// Layouts: g2_affine_dev x, y (192 B), infinity as (0, 0), not on the twist y^2 = x^3 + 4(1 + u);
// g2_xyzz_dev X, Y, ZZ, ZZZ (384 B) = ec::g2_xyzz; identity ZZ = 0 (all-zero bytes included).
#pragma once

#include "backend/cuda/g1_device.cuh"

namespace cuzk::cuda::dev {

struct fp2_dev {
  fp32 c0, c1;
};
struct g2_affine_dev {
  fp2_dev x, y;
};
struct g2_xyzz_dev {
  fp2_dev X, Y, ZZ, ZZZ;
};
static_assert(sizeof(fp2_dev) == 96 && sizeof(g2_affine_dev) == 192 && sizeof(g2_xyzz_dev) == 384,
              "device G2 layouts");

__device__ __forceinline__ fp2_dev fp2_zero() { return {fp_zero(), fp_zero()}; }
__device__ __forceinline__ fp2_dev fp2_one() { return {fp_one(), fp_zero()}; }
__device__ __forceinline__ bool fp2_is_zero(const fp2_dev& a) { return fp_is_zero(a.c0) && fp_is_zero(a.c1); }
__device__ __forceinline__ fp2_dev fp2_add(const fp2_dev& a, const fp2_dev& b) {
  return {fp_add(a.c0, b.c0), fp_add(a.c1, b.c1)};
}
__device__ __forceinline__ fp2_dev fp2_sub(const fp2_dev& a, const fp2_dev& b) {
  return {fp_sub(a.c0, b.c0), fp_sub(a.c1, b.c1)};
}
__device__ __forceinline__ fp2_dev fp2_dbl(const fp2_dev& a) { return {fp_dbl(a.c0), fp_dbl(a.c1)}; }
__device__ __forceinline__ fp2_dev fp2_neg(const fp2_dev& a) { return {fp_neg(a.c0), fp_neg(a.c1)}; }

template <class Mul>
struct fp2_mul_policy {
  static __device__ __forceinline__ fp2_dev mul(const fp2_dev& a, const fp2_dev& b) {
    const fp32 v0 = Mul::mul(a.c0, b.c0);
    const fp32 v1 = Mul::mul(a.c1, b.c1);
    const fp32 s = Mul::mul(fp_add(a.c0, a.c1), fp_add(b.c0, b.c1));
    return {fp_sub(v0, v1), fp_sub(fp_sub(s, v0), v1)};
  }
  static __device__ __forceinline__ fp2_dev sqr(const fp2_dev& a) {
    const fp32 c0 = Mul::mul(fp_add(a.c0, a.c1), fp_sub(a.c0, a.c1));
    const fp32 c1 = Mul::mul(a.c0, a.c1);
    return {c0, fp_dbl(c1)};
  }
};

__device__ __forceinline__ fp2_dev load_fp2_ro(const fp2_dev* p) { return {load_fp_ro(&p->c0), load_fp_ro(&p->c1)}; }
__device__ __forceinline__ fp2_dev load_fp2(const fp2_dev* p) { return {load_fp(&p->c0), load_fp(&p->c1)}; }
__device__ __forceinline__ void store_fp2(fp2_dev* p, const fp2_dev& x) {
  store_fp(&p->c0, x.c0);
  store_fp(&p->c1, x.c1);
}
// Overloads of the G1 loaders, so that the MSM kernels are written once for both curves.
__device__ __forceinline__ g2_affine_dev load_affine(const g2_affine_dev* p) {
  return {load_fp2_ro(&p->x), load_fp2_ro(&p->y)};
}
__device__ __forceinline__ g2_xyzz_dev load_xyzz(const g2_xyzz_dev* p) {
  return {load_fp2(&p->X), load_fp2(&p->Y), load_fp2(&p->ZZ), load_fp2(&p->ZZZ)};
}
__device__ __forceinline__ void store_xyzz(g2_xyzz_dev* p, const g2_xyzz_dev& a) {
  store_fp2(&p->X, a.X);
  store_fp2(&p->Y, a.Y);
  store_fp2(&p->ZZ, a.ZZ);
  store_fp2(&p->ZZZ, a.ZZZ);
}
__device__ __forceinline__ bool is_infinity(const g2_affine_dev& a) { return fp2_is_zero(a.x) && fp2_is_zero(a.y); }
__device__ __forceinline__ void negate_y(g1_affine_dev& a) { a.y = fp_neg(a.y); }
__device__ __forceinline__ void negate_y(g2_affine_dev& a) { a.y = fp2_neg(a.y); }

// The formulas of g1_ops (derivations there) over Fp2.
template <class Mul>
struct g2_ops {
  using xyzz = g2_xyzz_dev;
  using affine = g2_affine_dev;
  using F = fp2_mul_policy<Mul>;

  static __device__ __forceinline__ xyzz identity() { return {fp2_zero(), fp2_zero(), fp2_zero(), fp2_zero()}; }
  static __device__ __forceinline__ bool is_identity(const xyzz& p) { return fp2_is_zero(p.ZZ); }
  static __device__ __forceinline__ xyzz from_affine(const affine& a) { return {a.x, a.y, fp2_one(), fp2_one()}; }

  static __device__ __forceinline__ xyzz dbl(const xyzz& p) {
    const fp2_dev u = fp2_dbl(p.Y);
    const fp2_dev v = F::sqr(u);
    const fp2_dev w = F::mul(u, v);
    const fp2_dev s = F::mul(p.X, v);
    const fp2_dev x2 = F::sqr(p.X);
    const fp2_dev m = fp2_add(fp2_dbl(x2), x2);
    xyzz r;
    r.X = fp2_sub(F::sqr(m), fp2_dbl(s));
    r.Y = fp2_sub(F::mul(m, fp2_sub(s, r.X)), F::mul(w, p.Y));
    r.ZZ = F::mul(v, p.ZZ);
    r.ZZZ = F::mul(w, p.ZZZ);
    return r;
  }

  // q must not be the point at infinity (callers skip those).
  static __device__ __forceinline__ xyzz add_mixed(const xyzz& p, const affine& q) {
    if (is_identity(p)) return from_affine(q);
    const fp2_dev u2 = F::mul(q.x, p.ZZ);
    const fp2_dev s2 = F::mul(q.y, p.ZZZ);
    const fp2_dev pd = fp2_sub(u2, p.X);
    const fp2_dev rd = fp2_sub(s2, p.Y);
    if (fp2_is_zero(pd)) return fp2_is_zero(rd) ? dbl(p) : identity();
    const fp2_dev pp = F::sqr(pd);
    const fp2_dev ppp = F::mul(pd, pp);
    const fp2_dev qq = F::mul(p.X, pp);
    xyzz r;
    r.X = fp2_sub(fp2_sub(F::sqr(rd), ppp), fp2_dbl(qq));
    r.Y = fp2_sub(F::mul(rd, fp2_sub(qq, r.X)), F::mul(p.Y, ppp));
    r.ZZ = F::mul(p.ZZ, pp);
    r.ZZZ = F::mul(p.ZZZ, ppp);
    return r;
  }

  static __device__ __forceinline__ xyzz add(const xyzz& p, const xyzz& q) {
    if (is_identity(p)) return q;
    if (is_identity(q)) return p;
    const fp2_dev u1 = F::mul(p.X, q.ZZ);
    const fp2_dev u2 = F::mul(q.X, p.ZZ);
    const fp2_dev s1 = F::mul(p.Y, q.ZZZ);
    const fp2_dev s2 = F::mul(q.Y, p.ZZZ);
    const fp2_dev pd = fp2_sub(u2, u1);
    const fp2_dev rd = fp2_sub(s2, s1);
    if (fp2_is_zero(pd)) return fp2_is_zero(rd) ? dbl(p) : identity();
    const fp2_dev pp = F::sqr(pd);
    const fp2_dev ppp = F::mul(pd, pp);
    const fp2_dev qq = F::mul(u1, pp);
    xyzz r;
    r.X = fp2_sub(fp2_sub(F::sqr(rd), ppp), fp2_dbl(qq));
    r.Y = fp2_sub(F::mul(rd, fp2_sub(qq, r.X)), F::mul(s1, ppp));
    r.ZZ = F::mul(F::mul(p.ZZ, q.ZZ), pp);
    r.ZZZ = F::mul(F::mul(p.ZZZ, q.ZZZ), ppp);
    return r;
  }
};

// The MSM kernels' view of a curve: device point types and the arithmetic for a multiplier.
struct g1_device_curve {
  using affine = g1_affine_dev;
  using xyzz = g1_xyzz_dev;
  template <class Mul>
  using ops = g1_ops<Mul>;
};
struct g2_device_curve {
  using affine = g2_affine_dev;
  using xyzz = g2_xyzz_dev;
  template <class Mul>
  using ops = g2_ops<Mul>;
};

}  // namespace cuzk::cuda::dev
