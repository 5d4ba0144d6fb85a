// Fixed-base scalar multiplication for the Groth16 setup: many scalars times one base point
// (bellperson's generator does the same with a wNAF table per group).
//
// Table: W = ceil(255 / c) windows of c bits; window j holds d * 2^(c j) * P for
// d = 1 .. 2^(c-1), as affine points (W * 2^(c-1) points; c = 16: 16 * 32768 points, ~3.4 MB
// per window for G1, twice that for G2). A scalar k is first replaced by r - k (and the result
// negated) when k > (r-1)/2, so k < 2^254; its signed c-bit digits d_j in [-2^(c-1)+1, 2^(c-1)]
// (the top window absorbs the last carry because c W >= 255) give k P = sum_j d_j 2^(c j) P:
// one mixed addition per nonzero digit and no doubling.
// Cost: table W 2^(c-1) Jacobian additions (11M + 5S) + batch normalisation; per scalar <= W
// affine additions (5M + 1S + a share of one inversion per window and batch; see batch_mul).
// c = 16 and a 255-bit scalar: 16 additions ~ 160 field multiplications (vs ~250 doublings +
// ~60 additions for a variable-base 4-bit window).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "base/executor.hpp"
#include "ec/point.hpp"
#include "ff/bls12_381.hpp"

namespace cuzk::groth16 {

// k P = -((r - k) P): the canonical k, or r - k with `negated` set when k > (r-1)/2, so the
// digits of a fixed-base multiplication cover at most 254 bits.
inline ff::bigint<4> fold_to_half(const ff::fr& k, bool& negated) {
  ff::bigint<4> s = k.to_canonical();
  negated = ff::less_than(ff::fr::half_modulus, s);
  if (negated) {
    ff::bigint<4> t = ff::fr::modulus;
    ff::sub_in_place(t, s);
    s = t;
  }
  return s;
}

template <class Curve>
class fixed_base_table {
 public:
  using affine = ec::affine_point<Curve>;
  using jacobian = ec::jacobian_point<Curve>;
  using xyzz = ec::xyzz_point<Curve>;

  static constexpr unsigned max_window_bits = 16;

  // The window size minimising table building plus n multiplications (c in [2, 16]).
  static unsigned best_window(std::size_t n) {
    unsigned best = 2;
    double best_cost = 1e300;
    for (unsigned c = 2; c <= max_window_bits; ++c) {
      const double w = static_cast<double>(windows_for(c));
      // A table point costs ~1.5 scalar-multiplication additions (Jacobian add + normalise).
      const double cost = w * static_cast<double>(n) + 1.5 * w * static_cast<double>(std::size_t{1} << (c - 1));
      if (cost < best_cost) best_cost = cost, best = c;
    }
    return best;
  }

  // window_bits in [2, 16] (clamped). The windows are built in parallel.
  fixed_base_table(const affine& base, unsigned window_bits, base::executor& ex)
      : c_(std::clamp(window_bits, 2u, max_window_bits)), windows_(windows_for(c_)), half_(std::size_t{1} << (c_ - 1)) {
    table_.resize(windows_ * half_);
    if (base.infinity) {
      for (auto& p : table_) p = affine::identity();
      return;
    }
    // Window bases 2^(c j) P: 255 doublings in all, serial.
    std::vector<jacobian> wb(windows_);
    wb[0] = jacobian::from_affine(base);
    for (unsigned j = 1; j < windows_; ++j) {
      jacobian t = wb[j - 1];
      for (unsigned i = 0; i < c_; ++i) t = t.dbl();
      wb[j] = t;
    }
    ex.parallel_for(windows_, 1, [&](std::size_t lo, std::size_t hi) {
      std::vector<jacobian> mult(half_);
      for (std::size_t j = lo; j < hi; ++j) {
        mult[0] = wb[j];
        for (std::size_t d = 1; d < half_; ++d) mult[d] = mult[d - 1] + wb[j];
        ec::batch_to_affine(std::span<const jacobian>(mult), std::span<affine>(table_).subspan(j * half_, half_));
      }
    });
  }

  unsigned window_bits() const { return c_; }
  // The table itself: window j, digit d (1 <= d <= 2^(c-1)) at j 2^(c-1) + d - 1 holds d 2^(c j) P
  // (the device fixed-base kernels read this layout).
  std::span<const affine> points() const { return table_; }
  unsigned windows() const { return windows_; }

  // k * base in XYZZ form (serial).
  xyzz mul(const ff::fr& k) const { return mul_canonical(k); }

  // out[i] = scalars[i] * base, affine (identity for a zero scalar), split over the executor.
  // Batches of scalars walk the windows together with affine accumulators: per window, one
  // shared inversion (Montgomery's trick) serves every accumulator of the batch, so an addition
  // costs 5M + 1S + the inversion's share (XYZZ mixed addition: 8M + 2S, plus a final
  // normalisation), and the results come out affine.
  void batch_mul(std::span<const ff::fr> scalars, std::span<affine> out, base::executor& ex) const {
    constexpr std::size_t batch = 256;
    const std::size_t n = std::min(scalars.size(), out.size());
    ex.parallel_for((n + batch - 1) / batch, 1, [&](std::size_t lo, std::size_t hi) {
      batch_state st(windows_, batch);
      for (std::size_t b = lo; b < hi; ++b) {
        const std::size_t first = b * batch, cnt = std::min(batch, n - first);
        batch_mul_affine(scalars.subspan(first, cnt), out.subspan(first, cnt), st);
      }
    });
  }

 private:
  using field = typename Curve::field;
  static constexpr unsigned windows_for(unsigned c) { return (255 + c - 1) / c; }

  // Signed digits of k (negation folded in): out[j * stride] for j < W.
  void digits(const ff::fr& k, int32_t* out, std::size_t stride) const {
    bool negate = false;
    const ff::bigint<4> s = fold_to_half(k, negate);
    const int32_t half = static_cast<int32_t>(half_);
    const int32_t full = 2 * half;
    const uint64_t mask = static_cast<uint64_t>(full - 1);
    int32_t carry = 0;
    for (unsigned j = 0; j < windows_; ++j) {
      const unsigned off = j * c_, limb = off / 64, sh = off % 64;
      uint64_t v = s.w[limb] >> sh;
      if (sh + c_ > 64 && limb + 1 < 4) v |= s.w[limb + 1] << (64 - sh);
      int32_t d = static_cast<int32_t>(v & mask) + carry;
      carry = d > half ? 1 : 0;
      d -= carry * full;
      out[j * stride] = negate ? -d : d;
    }
  }

  const affine& entry(unsigned j, int32_t d) const {
    return table_[j * half_ + static_cast<std::size_t>((d > 0 ? d : -d) - 1)];
  }

  xyzz mul_canonical_digits(const int32_t* d) const {
    xyzz acc = xyzz::identity();
    for (unsigned j = 0; j < windows_; ++j) {
      if (d[j] > 0) acc = xyzz::add_mixed(acc, entry(j, d[j]));
      else if (d[j] < 0) acc = xyzz::add_mixed(acc, -entry(j, d[j]));
    }
    return acc;
  }

  xyzz mul_canonical(const ff::fr& k) const {
    std::vector<int32_t> d(windows_);
    digits(k, d.data(), 1);
    return mul_canonical_digits(d.data());
  }

  enum class op : uint8_t { none, add, dbl };
  struct batch_state {
    std::vector<int32_t> dig;  // window j of scalar i at j * batch + i
    std::vector<op> ops;
    std::vector<affine> q;
    std::vector<field> den, pref;
    batch_state(unsigned windows, std::size_t batch)
        : dig(windows * batch), ops(batch), q(batch), den(batch), pref(batch) {}
  };

  // Affine accumulators, one shared inversion per window. Equal x (P + P or P - P) never
  // happens for a base of prime order and scalars < 2^254 (each window's term exceeds the
  // partial sum below it), but is handled: doubling or the identity.
  void batch_mul_affine(std::span<const ff::fr> ks, std::span<affine> acc, batch_state& st) const {
    const std::size_t cnt = ks.size();
    const std::size_t stride = st.ops.size();
    for (std::size_t i = 0; i < cnt; ++i) {
      digits(ks[i], st.dig.data() + i, stride);
      acc[i] = affine::identity();
    }
    for (unsigned j = 0; j < windows_; ++j) {
      const int32_t* dj = st.dig.data() + j * stride;
      field prod = field::one();
      bool any = false;
      constexpr std::size_t ahead = 16;  // table entries are DRAM/TLB misses for large c
      auto prefetch = [&](std::size_t i) {  // an entry spans 2 (G1) or 4 (G2) cache lines
        if (dj[i] == 0) return;
        const char* p = reinterpret_cast<const char*>(&entry(j, dj[i]));
        for (std::size_t off = 0; off < sizeof(affine); off += 64) __builtin_prefetch(p + off);
      };
      for (std::size_t i = 0; i < std::min(ahead, cnt); ++i) prefetch(i);
      for (std::size_t i = 0; i < cnt; ++i) {
        if (i + ahead < cnt) prefetch(i + ahead);
        st.ops[i] = op::none;
        if (dj[i] == 0) continue;
        affine q = dj[i] > 0 ? entry(j, dj[i]) : -entry(j, dj[i]);
        if (acc[i].infinity) {
          acc[i] = q;
          continue;
        }
        if (acc[i].x == q.x) {
          if (acc[i].y != q.y || acc[i].y.is_zero()) {
            acc[i] = affine::identity();
            continue;
          }
          st.ops[i] = op::dbl;
          st.den[i] = acc[i].y.dbl();
        } else {
          st.ops[i] = op::add;
          st.den[i] = q.x - acc[i].x;
        }
        st.q[i] = q;
        st.pref[i] = prod;
        prod = prod * st.den[i];
        any = true;
      }
      if (!any) continue;
      field inv = prod.inverse();
      for (std::size_t i = cnt; i-- > 0;) {
        if (st.ops[i] == op::none) continue;
        const field dinv = inv * st.pref[i];
        inv = inv * st.den[i];
        affine& a = acc[i];
        field lambda;
        field x3;
        if (st.ops[i] == op::add) {  // lambda = (y2 - y1) / (x2 - x1): 3M + 1S with the trick's 2M
          lambda = (st.q[i].y - a.y) * dinv;
          x3 = lambda.square() - a.x - st.q[i].x;
        } else {  // lambda = 3 x^2 / 2y
          const field x2 = a.x.square();
          lambda = (x2.dbl() + x2) * dinv;
          x3 = lambda.square() - a.x.dbl();
        }
        a.y = lambda * (a.x - x3) - a.y;
        a.x = x3;
      }
    }
  }

  unsigned c_;
  unsigned windows_;
  std::size_t half_;
  std::vector<affine> table_;  // window j, digit d at j * half_ + d - 1
};

}  // namespace cuzk::groth16
