// 8-lane IFMA batch-affine flush for G1; see batch_add_simd.hpp. Value bounds (in units of p,
// from the rules in ff/fp_ifma.hpp: mul of a < alpha p and b < beta p is < (0.1016 alpha beta
// + 1) p; sub(a, b) = a - b + 4p):
//   den = px - qx + 4p < 5p;  acc, inv: mul(< 2.3p, < 5p) < 2.17p;  dinv = mul(inv, pre) < 1.54p
//   num = (+-py) - qy + 4p < 8p (-py as 4p - py);  lambda = mul(num, dinv) < 2.25p
//   x3 = lambda^2 - qx - px + 8p < 9.6p -> canon;  y3 = lambda (qx - x3 + 4p) - qy + 4p < 6.2p -> canon
// All below canon's 16p; every mul / sq input has limbs below 2^51.
#include "msm/batch_add_simd.hpp"

#include <cstddef>
#include <cstdlib>
#include <cstring>

#include "ff/fp_ifma.hpp"

namespace cuzk::msm::detail {

#if CUZK_HAVE_FP_IFMA

namespace {

using ff::bigint;
using ff::fp;
using ff::fp2;
using namespace ff::ifma;

#define CUZK_SIMD_FN __attribute__((target("avx512f,avx512ifma"), always_inline)) inline

// Lane policies: the vector value type, its size in limb vectors, and the operations the flush
// needs, for Fp (G1) and Fp2 = Fp[u]/(u^2 + 1) (G2). Fp2 products canonicalise their components
// (their Karatsuba sums would otherwise outgrow canon's 16p two products later); Fp products
// stay lazy (< 2.3p).
struct lane_fp {
  using V = vfp;
  using F = fp;
  using affine = ec::g1_affine;
  static constexpr std::size_t vecs = 8;
  CUZK_SIMD_FN static V one() { return broadcast(c48.one); }
  CUZK_SIMD_FN static V gather_at(__m512i addr) { return gather(addr); }
  CUZK_SIMD_FN static void scatter_at(__m512i addr, const V& v) { scatter(addr, v); }
  CUZK_SIMD_FN static V vsub(const V& a, const V& b) { return sub(a, b); }
  CUZK_SIMD_FN static V vaddr(const V& a, const V& b) {  // a + b, no reduction
    V r;
    for (int j = 0; j < 8; ++j) r.l[j] = _mm512_add_epi64(a.l[j], b.l[j]);
    return r;
  }
  CUZK_SIMD_FN static V vneg(const V& b) { return neg(b); }
  CUZK_SIMD_FN static V vblend(__mmask8 k, const V& a, const V& b) { return blend(k, a, b); }
  CUZK_SIMD_FN static V vmul(const V& a, const V& b) { return mul(a, b); }
  CUZK_SIMD_FN static V vsq(const V& a) { return sq(a); }
  CUZK_SIMD_FN static V vcanon(const V& a) { return canon(a); }
  // Lanes where the canonical a is zero.
  CUZK_SIMD_FN static __mmask8 zero_mask(const V& a) {
    __m512i o = a.l[0];
    for (int j = 1; j < 8; ++j) o = _mm512_or_si512(o, a.l[j]);
    return _mm512_cmpeq_epi64_mask(o, _mm512_setzero_si512());
  }
  CUZK_SIMD_FN static void vspill(__m512i* d, const V& v) { spill(d, v); }
  CUZK_SIMD_FN static V vreload(const __m512i* s) { return reload(s); }
  CUZK_SIMD_FN static void to_scalar(const V& v, F* out) {
    bigint<6> t[8];
    store_array(t, canon(v));
    for (int l = 0; l < 8; ++l) out[l] = F::from_montgomery_repr(t[l]);
  }
  CUZK_SIMD_FN static V from_scalar(const F* in) {
    bigint<6> t[8];
    for (int l = 0; l < 8; ++l) t[l] = in[l].v;
    return load_array(t);
  }
};

struct vfp2 {
  vfp c0, c1;
};

struct lane_fp2 {
  using V = vfp2;
  using F = fp2;
  using affine = ec::g2_affine;
  static constexpr std::size_t vecs = 16;
  CUZK_SIMD_FN static vfp add_raw(const vfp& a, const vfp& b) {
    vfp r;
    for (int j = 0; j < 8; ++j) r.l[j] = _mm512_add_epi64(a.l[j], b.l[j]);
    return r;
  }
  CUZK_SIMD_FN static V one() { return {broadcast(c48.one), vfp{}}; }
  CUZK_SIMD_FN static V gather_at(__m512i addr) { return {gather(addr), gather(_mm512_add_epi64(addr, bc(48)))}; }
  CUZK_SIMD_FN static void scatter_at(__m512i addr, const V& v) {
    scatter(addr, v.c0);
    scatter(_mm512_add_epi64(addr, bc(48)), v.c1);
  }
  CUZK_SIMD_FN static V vsub(const V& a, const V& b) { return {sub(a.c0, b.c0), sub(a.c1, b.c1)}; }
  CUZK_SIMD_FN static V vaddr(const V& a, const V& b) { return {add_raw(a.c0, b.c0), add_raw(a.c1, b.c1)}; }
  CUZK_SIMD_FN static V vneg(const V& b) { return {neg(b.c0), neg(b.c1)}; }
  CUZK_SIMD_FN static V vblend(__mmask8 k, const V& a, const V& b) { return {blend(k, a.c0, b.c0), blend(k, a.c1, b.c1)}; }
  // Karatsuba, 3 products: c0 = a0 b0 - a1 b1, c1 = (a0 + a1)(b0 + b1) - a0 b0 - a1 b1. Inputs:
  // components < 8p with limbs < 3 2^48 (canonical, or one lazy sub of canonical values): the sums
  // stay below 16p with limbs < 2^51; t2 < (0.1016 * 16 * 2 + 1) p for the flush's pairings (one
  // side canonical) and c1 < t2 + 8p < 16p.
  CUZK_SIMD_FN static V vmul(const V& a, const V& b) {
    const vfp t0 = mul(a.c0, b.c0), t1 = mul(a.c1, b.c1);
    const vfp t2 = mul(add_raw(a.c0, a.c1), add_raw(b.c0, b.c1));
    return {canon(sub(t0, t1)), canon(sub(sub(t2, t0), t1))};
  }
  // (a0 + a1)(a0 - a1) + 2 a0 a1 u, 2 products (a canonical).
  CUZK_SIMD_FN static V vsq(const V& a) {
    return {canon(mul(add_raw(a.c0, a.c1), sub(a.c0, a.c1))), canon(mul(add_raw(a.c0, a.c0), a.c1))};
  }
  CUZK_SIMD_FN static V vcanon(const V& a) { return {canon(a.c0), canon(a.c1)}; }
  CUZK_SIMD_FN static __mmask8 zero_mask(const V& a) { return lane_fp::zero_mask(a.c0) & lane_fp::zero_mask(a.c1); }
  CUZK_SIMD_FN static void vspill(__m512i* d, const V& v) {
    spill(d, v.c0);
    spill(d + 8, v.c1);
  }
  CUZK_SIMD_FN static V vreload(const __m512i* s) { return {reload(s), reload(s + 8)}; }
  CUZK_SIMD_FN static void to_scalar(const V& v, F* out) {
    bigint<6> t0[8], t1[8];
    store_array(t0, canon(v.c0));
    store_array(t1, canon(v.c1));
    for (int l = 0; l < 8; ++l) out[l] = {fp::from_montgomery_repr(t0[l]), fp::from_montgomery_repr(t1[l])};
  }
  CUZK_SIMD_FN static V from_scalar(const F* in) {
    bigint<6> t0[8], t1[8];
    for (int l = 0; l < 8; ++l) {
      t0[l] = in[l].c0.v;
      t1[l] = in[l].c1.v;
    }
    return {load_array(t0), load_array(t1)};
  }
};

template <class L>
CUZK_SIMD_FN void flush_lanes(typename L::affine* buckets, const batch_item<typename L::affine>* items,
                              std::size_t m, __m512i* spill_area, uint64_t* addr, uint8_t* negs) {
  using affine = typename L::affine;
  using F = typename L::F;
  using V = typename L::V;
  constexpr std::size_t vg = 4 * L::vecs;  // spilled per group: den, pre, px, qx
  constexpr uint64_t y_offset = offsetof(affine, y);
  static_assert(offsetof(affine, x) == 0 && y_offset == sizeof(F) && sizeof(F) % 48 == 0,
                "coordinates as consecutive 6-word fp values");
  // Lanes past m (last group only) add a dummy base to a dummy bucket of their own: their x
  // differ (den = R mod p, not zero), their chain stays separate, their results are dropped.
  affine dummy_p{F::one(), F::zero(), false};
  affine dummy_q[8]{};
  const std::size_t groups = (m + 7) / 8;

  V acc = L::one();
  for (std::size_t g = 0; g < groups; ++g) {
    uint64_t* qa = addr + 16 * g;
    uint64_t* pa = qa + 8;
    unsigned negm = 0;
    for (std::size_t l = 0; l < 8; ++l) {
      const std::size_t k = 8 * g + l;
      if (k < m) {
        qa[l] = reinterpret_cast<uint64_t>(&buckets[items[k].bucket]);
        pa[l] = reinterpret_cast<uint64_t>(items[k].p);
        negm |= (items[k].negate ? 1u : 0u) << l;
      } else {
        qa[l] = reinterpret_cast<uint64_t>(&dummy_q[l]);
        pa[l] = reinterpret_cast<uint64_t>(&dummy_p);
      }
    }
    negs[g] = static_cast<uint8_t>(negm);
    const V px = L::gather_at(_mm512_loadu_si512(pa));
    const V qx = L::gather_at(_mm512_loadu_si512(qa));
    const V den = L::vsub(px, qx);
    __m512i* s = spill_area + vg * g;
    L::vspill(s, den);
    L::vspill(s + L::vecs, acc);
    L::vspill(s + 2 * L::vecs, px);
    L::vspill(s + 3 * L::vecs, qx);
    acc = L::vmul(acc, den);
  }

  // The 8 chain products (non-zero: products of non-zero differences), inverted together.
  F v[8], pre[8], out[8];
  L::to_scalar(acc, v);
  pre[0] = v[0];
  for (int l = 1; l < 8; ++l) pre[l] = pre[l - 1] * v[l];
  F all = pre[7].inverse();
  for (int l = 7; l > 0; --l) {
    out[l] = all * pre[l - 1];
    all = all * v[l];
  }
  out[0] = all;
  V inv = L::from_scalar(out);

  const __m512i yoff = bc(y_offset);
  for (std::size_t g = groups; g-- > 0;) {
    const __m512i* s = spill_area + vg * g;
    const V dinv = L::vmul(inv, L::vreload(s + L::vecs));
    inv = L::vmul(inv, L::vreload(s));
    const V px = L::vreload(s + 2 * L::vecs), qx = L::vreload(s + 3 * L::vecs);
    const __m512i qa = _mm512_loadu_si512(addr + 16 * g), pa = _mm512_loadu_si512(addr + 16 * g + 8);
    const V py = L::gather_at(_mm512_add_epi64(pa, yoff));
    const V qy = L::gather_at(_mm512_add_epi64(qa, yoff));
    const V ys = L::vblend(negs[g], py, L::vneg(py));
    const V lambda = L::vmul(L::vsub(ys, qy), dinv);
    const V x3 = L::vcanon(L::vsub(L::vsub(L::vsq(lambda), qx), px));
    const V y3 = L::vcanon(L::vsub(L::vmul(lambda, L::vsub(qx, x3)), qy));
    L::scatter_at(qa, x3);
    L::scatter_at(_mm512_add_epi64(qa, yoff), y3);
  }
}

// ---------------------------------------------------------------------------------------------
// Bucket reduction sum_b (b + 1) B_b in the lanes: the nb buckets are cut into 8 segments of
// L = nb / 8; lane s runs the running-sum method over segment s (running R_s += B, total T_s +=
// R_s, top down) in XYZZ, so that sum = sum_s T_s + L sum_s s R_s (bucket sL + j weighs
// (j + 1) + sL). Per bucket step: one mixed addition (8M + 2S) and one XYZZ addition (12M + 2S)
// per lane, 4 canons each. The identity (empty running or total, empty bucket) is tracked in
// lane masks; P = +-Q (doubling or cancellation, not handled by these formulas) marks the lane
// bad and the caller falls back to the scalar reduction.
// Bounds (Fp): x, y canonical, zz, zzz < 2.3p (products); P and R canonicalised; the x3 sum
// sq(R) - PPP - 2Q < 13.1p and the y3 sum < 5.7p before canon. Fp2: every product canonical.
// ---------------------------------------------------------------------------------------------
template <class L>
struct vxyzz {
  typename L::V x, y, zz, zzz;
};

template <class L>
CUZK_SIMD_FN vxyzz<L> pick(__mmask8 take_b, const vxyzz<L>& a, const vxyzz<L>& b) {
  return {L::vblend(take_b, a.x, b.x), L::vblend(take_b, a.y, b.y), L::vblend(take_b, a.zz, b.zz),
          L::vblend(take_b, a.zzz, b.zzz)};
}

// madd-2008-s: r + (bx, by); pz = lanes with P = 0.
template <class L>
CUZK_SIMD_FN vxyzz<L> vmadd(const vxyzz<L>& r, const typename L::V& bx, const typename L::V& by, __mmask8& pz) {
  using V = typename L::V;
  const V u2 = L::vmul(bx, r.zz), s2 = L::vmul(by, r.zzz);
  const V P = L::vcanon(L::vsub(u2, r.x)), R = L::vcanon(L::vsub(s2, r.y));
  pz = L::zero_mask(P);
  const V pp = L::vsq(P), ppp = L::vmul(P, pp), q = L::vmul(r.x, pp);
  vxyzz<L> o;
  o.x = L::vcanon(L::vsub(L::vsub(L::vsub(L::vsq(R), ppp), q), q));
  o.y = L::vcanon(L::vsub(L::vmul(R, L::vsub(q, o.x)), L::vmul(r.y, ppp)));
  o.zz = L::vmul(r.zz, pp);
  o.zzz = L::vmul(r.zzz, ppp);
  return o;
}

// add-2008-s: a + b; pz = lanes with P = 0.
template <class L>
CUZK_SIMD_FN vxyzz<L> vadd(const vxyzz<L>& a, const vxyzz<L>& b, __mmask8& pz) {
  using V = typename L::V;
  const V u1 = L::vmul(a.x, b.zz), u2 = L::vmul(b.x, a.zz);
  const V s1 = L::vmul(a.y, b.zzz), s2 = L::vmul(b.y, a.zzz);
  const V P = L::vcanon(L::vsub(u2, u1)), R = L::vcanon(L::vsub(s2, s1));
  pz = L::zero_mask(P);
  const V pp = L::vsq(P), ppp = L::vmul(P, pp), q = L::vmul(u1, pp);
  vxyzz<L> o;
  o.x = L::vcanon(L::vsub(L::vsub(L::vsub(L::vsq(R), ppp), q), q));
  o.y = L::vcanon(L::vsub(L::vmul(R, L::vsub(q, o.x)), L::vmul(s1, ppp)));
  o.zz = L::vmul(L::vmul(a.zz, b.zz), pp);
  o.zzz = L::vmul(L::vmul(a.zzz, b.zzz), ppp);
  return o;
}

// dbl-2008-s-1 (a = 0): U = 2Y, V = U^2, W = U V, S = X V, M = 3 X^2, X3 = M^2 - 2S,
// Y3 = M (S - X3) - W Y, ZZ3 = V ZZ, ZZZ3 = W ZZZ (U and M canonicalised: < 2p, < 3.3p).
template <class L>
CUZK_SIMD_FN vxyzz<L> vdbl(const vxyzz<L>& a) {
  using V = typename L::V;
  const V u = L::vcanon(L::vaddr(a.y, a.y));
  const V v = L::vsq(u), w = L::vmul(u, v), s = L::vmul(a.x, v);
  const V x2 = L::vsq(a.x);
  const V m = L::vcanon(L::vaddr(L::vaddr(x2, x2), x2));
  vxyzz<L> o;
  o.x = L::vcanon(L::vsub(L::vsub(L::vsq(m), s), s));
  o.y = L::vcanon(L::vsub(L::vmul(m, L::vsub(s, o.x)), L::vmul(w, a.y)));
  o.zz = L::vmul(v, a.zz);
  o.zzz = L::vmul(w, a.zzz);
  return o;
}

template <class L, class Curve>
CUZK_SIMD_FN bool bucket_sum_lanes(const typename L::affine* bk, std::size_t nb, ec::xyzz_point<Curve>& out) {
  using affine = typename L::affine;
  using V = typename L::V;
  using F = typename L::F;
  using xyzz = ec::xyzz_point<Curve>;
  const std::size_t seg = nb / 8;
  const V one = L::one();
  vxyzz<L> run{one, one, one, one}, tot{one, one, one, one};
  // eq: lanes where tot was just set to run and run has not moved since (tot + run is then a
  // doubling, e.g. after the first non-empty bucket of a segment comes an empty one).
  __mmask8 run_id = 0xff, tot_id = 0xff, bad = 0, eq = 0;
  alignas(64) uint64_t offs[8];
  for (int s = 0; s < 8; ++s) offs[s] = static_cast<uint64_t>(s) * seg * sizeof(affine);
  const __m512i stride = _mm512_load_si512(offs);
  const __m512i yoff = bc(offsetof(affine, y)), ioff = bc(offsetof(affine, infinity));
  for (std::size_t j = seg; j-- > 0;) {
    const __m512i addr = _mm512_add_epi64(bc(reinterpret_cast<uint64_t>(bk + j)), stride);
    const __m512i inf = _mm512_mask_i64gather_epi64(_mm512_setzero_si512(), 0xff, _mm512_add_epi64(addr, ioff), nullptr, 1);
    const __mmask8 act = static_cast<__mmask8>(~_mm512_test_epi64_mask(inf, bc(0xff)));
    const V bx = L::gather_at(addr), by = L::gather_at(_mm512_add_epi64(addr, yoff));
    __mmask8 pz;
    const vxyzz<L> m = vmadd<L>(run, bx, by, pz);
    bad |= act & static_cast<__mmask8>(~run_id) & pz;
    run = pick<L>(act, run, pick<L>(run_id, m, vxyzz<L>{bx, by, one, one}));
    run_id &= static_cast<__mmask8>(~act);
    eq &= static_cast<__mmask8>(~act);
    vxyzz<L> a = vadd<L>(tot, run, pz);
    const __mmask8 live = static_cast<__mmask8>(~run_id);
    const __mmask8 both = live & static_cast<__mmask8>(~tot_id);
    bad |= both & static_cast<__mmask8>(~eq) & pz;
    if (both & eq) a = pick<L>(both & eq, a, vdbl<L>(run));
    tot = pick<L>(live, tot, pick<L>(tot_id, a, run));
    eq = static_cast<__mmask8>((eq & ~live) | (live & tot_id));
    tot_id &= run_id;
  }
  if (bad) return false;
  F rx[8], ry[8], rzz[8], rzzz[8], tx[8], ty[8], tzz[8], tzzz[8];
  L::to_scalar(run.x, rx);
  L::to_scalar(run.y, ry);
  L::to_scalar(run.zz, rzz);
  L::to_scalar(run.zzz, rzzz);
  L::to_scalar(tot.x, tx);
  L::to_scalar(tot.y, ty);
  L::to_scalar(tot.zz, tzz);
  L::to_scalar(tot.zzz, tzzz);
  // sum_s T_s + L sum_s s R_s; the second sum by running sums over s = 7..1.
  xyzz sum = xyzz::identity(), acc = xyzz::identity(), wsum = xyzz::identity();
  for (int s = 7; s >= 0; --s) {
    if (!((tot_id >> s) & 1)) sum = sum + xyzz{tx[s], ty[s], tzz[s], tzzz[s]};
    if (s == 0) break;
    if (!((run_id >> s) & 1)) acc = acc + xyzz{rx[s], ry[s], rzz[s], rzzz[s]};
    wsum = wsum + acc;
  }
  xyzz scaled = xyzz::identity();
  for (int bit = 63 - __builtin_clzll(seg); bit >= 0; --bit) {
    scaled = scaled.dbl();
    if ((seg >> bit) & 1) scaled = scaled + wsum;
  }
  out = sum + scaled;
  return true;
}

__attribute__((target("avx512f,avx512ifma"), noinline)) bool bucket_sum_g1(const ec::g1_affine* bk, std::size_t nb,
                                                                            ec::xyzz_point<ec::g1_curve>& out) {
  return bucket_sum_lanes<lane_fp, ec::g1_curve>(bk, nb, out);
}
__attribute__((target("avx512f,avx512ifma"), noinline)) bool bucket_sum_g2(const ec::g2_affine* bk, std::size_t nb,
                                                                            ec::xyzz_point<ec::g2_curve>& out) {
  return bucket_sum_lanes<lane_fp2, ec::g2_curve>(bk, nb, out);
}

__attribute__((target("avx512f,avx512ifma"), noinline)) void flush_g1(ec::g1_affine* buckets,
                                                                        const batch_item<ec::g1_affine>* items,
                                                                        std::size_t m, __m512i* spill_area,
                                                                        uint64_t* addr, uint8_t* negs) {
  flush_lanes<lane_fp>(buckets, items, m, spill_area, addr, negs);
}
__attribute__((target("avx512f,avx512ifma"), noinline)) void flush_g2(ec::g2_affine* buckets,
                                                                        const batch_item<ec::g2_affine>* items,
                                                                        std::size_t m, __m512i* spill_area,
                                                                        uint64_t* addr, uint8_t* negs) {
  flush_lanes<lane_fp2>(buckets, items, m, spill_area, addr, negs);
}

// 64-byte aligned spill area for m items of vecs limb vectors x 4 values each.
__m512i* prepare(simd_flush_scratch& scratch, std::size_t m, std::size_t vecs) {
  const std::size_t groups = (m + 7) / 8;
  const std::size_t words = groups * 4 * vecs * 8 + 8;
  if (scratch.lanes.size() < words) scratch.lanes.resize(words);
  if (scratch.addr.size() < 16 * groups) scratch.addr.resize(16 * groups);
  if (scratch.neg.size() < groups) scratch.neg.resize(groups);
  auto base = reinterpret_cast<std::uintptr_t>(scratch.lanes.data());
  base = (base + 63) & ~std::uintptr_t{63};
  return reinterpret_cast<__m512i*>(base);
}

// CUZK_MSM_SIMD: "0" nothing on the lanes, "1" the flush only, unset or anything else the
// flush and the bucket reduction.
int detect() {
  if (!ff::ifma::available()) return 0;
  const char* env = std::getenv("CUZK_MSM_SIMD");
  if (env && std::strcmp(env, "0") == 0) return 0;
  if (env && std::strcmp(env, "1") == 0) return 1;
  return 2;
}
int simd_level() {
  static const int level = detect();
  return level;
}

}  // namespace

bool simd_flush_available() { return simd_level() >= 1; }
bool simd_reduce_available() { return simd_level() >= 2; }

void simd_batch_add_g1(ec::g1_affine* buckets, const batch_item<ec::g1_affine>* items, std::size_t m,
                       simd_flush_scratch& scratch) {
  if (m == 0) return;
  __m512i* area = prepare(scratch, m, lane_fp::vecs);
  flush_g1(buckets, items, m, area, scratch.addr.data(), scratch.neg.data());
}

void simd_batch_add_g2(ec::g2_affine* buckets, const batch_item<ec::g2_affine>* items, std::size_t m,
                       simd_flush_scratch& scratch) {
  if (m == 0) return;
  __m512i* area = prepare(scratch, m, lane_fp2::vecs);
  flush_g2(buckets, items, m, area, scratch.addr.data(), scratch.neg.data());
}

bool simd_bucket_sum(const ec::g1_affine* buckets, std::size_t nb, ec::xyzz_point<ec::g1_curve>& out) {
  if (nb < 8 || nb % 8) return false;
  return bucket_sum_g1(buckets, nb, out);
}
bool simd_bucket_sum(const ec::g2_affine* buckets, std::size_t nb, ec::xyzz_point<ec::g2_curve>& out) {
  if (nb < 8 || nb % 8) return false;
  return bucket_sum_g2(buckets, nb, out);
}

#else

bool simd_flush_available() { return false; }
bool simd_reduce_available() { return false; }
bool simd_bucket_sum(const ec::g1_affine*, std::size_t, ec::xyzz_point<ec::g1_curve>&) { return false; }
bool simd_bucket_sum(const ec::g2_affine*, std::size_t, ec::xyzz_point<ec::g2_curve>&) { return false; }
void simd_batch_add_g1(ec::g1_affine*, const batch_item<ec::g1_affine>*, std::size_t, simd_flush_scratch&) {}
void simd_batch_add_g2(ec::g2_affine*, const batch_item<ec::g2_affine>*, std::size_t, simd_flush_scratch&) {}

#endif

}  // namespace cuzk::msm::detail
