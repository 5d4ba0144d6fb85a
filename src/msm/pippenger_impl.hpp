// Template definitions behind msm.hpp; included by msm.cpp only (explicit instantiations for G1
// and G2), so users of msm.hpp do not compile them.
//
// Costs below count multiplications M and squarings S in the curve's field (Fp for G1, Fp2 for
// G2), as in ec/point.hpp.
#pragma once

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <utility>
#include <vector>

#include "msm/batch_add_simd.hpp"
#include "msm/endomorphism.hpp"
#include "msm/msm.hpp"

namespace cuzk::msm {
namespace detail {

// Bits a scalar can have after the r - k negation: k <= (r-1)/2 < 2^254.
inline constexpr unsigned scalar_bits = 254;
inline constexpr unsigned max_window_bits = 24;

// (r - 1) / 2 and r as canonical integers.
inline constexpr scalar_repr fr_modulus = ff::fr_params::modulus;
inline constexpr scalar_repr fr_half = ff::fr::half_modulus;

// Windows for c-bit signed digits of a magnitude < 2^b: the top window must absorb the carry
// from below without carrying out: raw_top + 1 <= 2^(b - c(W-1)) <= 2^(c-1)  <=>  cW >= b + 1.
// Plain scalars (after r - k): b = 254; split scalars (endomorphism.hpp): b = 127.
inline constexpr unsigned plain_bits = scalar_bits + 1;
inline constexpr unsigned split_bits = split_digit_bits;
constexpr unsigned window_count(unsigned c, unsigned bits = plain_bits) { return (bits + c - 1) / c; }

// Bits [off, off + c) of s (c <= 24, off < 256).
inline uint32_t extract_bits(const scalar_repr& s, unsigned off, unsigned c) {
  const unsigned limb = off / 64, sh = off % 64;
  uint64_t v = s.w[limb] >> sh;
  if (sh + c > 64 && limb + 1 < 4) v |= s.w[limb + 1] << (64 - sh);
  return static_cast<uint32_t>(v & ((uint64_t{1} << c) - 1));
}

// Signed digits of (negate ? -s : s) into out[w * stride] for w < W: sum_w d_w 2^(cw) = +-s,
// each d_w in [-2^(c-1)+1, 2^(c-1)]; s < 2^(cW - 1).
inline void signed_digits_of_magnitude(const scalar_repr& s, bool negate, unsigned c, unsigned windows, int32_t* out,
                                       std::size_t stride) {
  const int32_t half = int32_t{1} << (c - 1);
  const int32_t full = int32_t{1} << c;
  int32_t carry = 0;
  for (unsigned w = 0; w < windows; ++w) {
    int32_t d = static_cast<int32_t>(extract_bits(s, w * c, c)) + carry;
    carry = d > half ? 1 : 0;
    d -= carry * full;
    out[w * stride] = negate ? -d : d;
  }
}

// Signed digits of one scalar k < r (W = window_count(c)): +-k as flagged by the r - k step
// (k > (r-1)/2 is replaced by r - k with the base negated).
inline void signed_digits(scalar_repr s, unsigned c, unsigned windows, int32_t* out, std::size_t stride) {
  bool negate = false;
  if (ff::less_than(fr_half, s)) {
    scalar_repr t = fr_modulus;
    ff::sub_in_place(t, s);
    s = t;
    negate = true;
  }
  signed_digits_of_magnitude(s, negate, c, windows, out, stride);
}

// Runs f(i) for i in [0, count) through the executor, one index per chunk.
template <class F>
void for_each_index(base::executor& ex, std::size_t count, const F& f) {
  ex.parallel_for(count, 1, [&](std::size_t b, std::size_t e) {
    for (std::size_t i = b; i < e; ++i) f(i);
  });
}

// Chunks of a [0, n) range for the per-point passes (digits, classification).
inline std::size_t pass_chunks(std::size_t n, std::size_t concurrency) {
  const std::size_t want = std::max<std::size_t>(1, 8 * concurrency);
  return std::max<std::size_t>(1, std::min(want, n / 256));
}

// ---------------------------------------------------------------------------------------------
// Bucket reduction: sum_m m * B_m (bucket index b holds magnitude m = b + 1) by running sums,
// from the top bucket down: running = sum_{m >= j} B_m, total = sum_j running. Dense buckets
// cost one add to running and one to total each (add-2008-s, 12M + 2S; madd for affine
// buckets). Runs of g empty buckets leave running unchanged, so their g additions to total are
// deferred and done as one total += g * running (binary: ~log2 g doublings and additions): a
// sparse bucket array (few points, large forced c) costs O(points * c), not O(2^c).
// ---------------------------------------------------------------------------------------------
template <class Curve>
class bucket_reducer {
 public:
  using xyzz = ec::xyzz_point<Curve>;

  // One bucket, from the top down; `empty` says the bucket is the identity.
  template <class Bucket>
  void step(const Bucket& bucket, bool empty) {
    if (!empty) {
      flush_pending();
      running = running + bucket;
    }
    ++pending_;
  }
  xyzz finish() {
    flush_pending();
    return total;
  }

 private:
  void flush_pending() {
    if (pending_ == 0 || running.is_identity()) {
      pending_ = 0;
      return;
    }
    if (pending_ == 1) {
      total = total + running;
    } else {
      // total += pending * running, left-to-right binary.
      xyzz acc = running;
      for (int bit = 62 - __builtin_clzll(pending_); bit >= 0; --bit) {
        acc = acc.dbl();
        if ((pending_ >> bit) & 1) acc = acc + running;
      }
      total = total + acc;
    }
    pending_ = 0;
  }

  xyzz running = xyzz::identity(), total = xyzz::identity();
  uint64_t pending_ = 0;
};

// One window's digits over one array of bases (split scalars: one segment per half, into the
// same buckets).
template <class Curve>
struct window_segment {
  const ec::affine_point<Curve>* bases;
  const int32_t* dig;
};

// ---------------------------------------------------------------------------------------------
// Bucket accumulation, XYZZ: bucket += +-P with madd-2008-s (8M + 2S) per non-zero digit.
// ---------------------------------------------------------------------------------------------
template <class Curve>
ec::xyzz_point<Curve> window_sum_xyzz(std::span<const window_segment<Curve>> segs, std::size_t lo, std::size_t hi,
                                      unsigned nbuckets) {
  using xyzz = ec::xyzz_point<Curve>;
  std::vector<xyzz> bk(nbuckets, xyzz::identity());
  constexpr std::size_t prefetch_distance = 4;
  for (const window_segment<Curve>& sg : segs) {
    const ec::affine_point<Curve>* bases = sg.bases;
    const int32_t* dig = sg.dig;
    for (std::size_t i = lo; i < hi; ++i) {
      if (i + prefetch_distance < hi) {
        const int32_t dn = dig[i + prefetch_distance];
        if (dn) __builtin_prefetch(&bk[static_cast<std::size_t>(dn > 0 ? dn : -dn) - 1], 1);
      }
      const int32_t d = dig[i];
      if (!d) continue;
      const auto& p = bases[i];
      if (p.infinity) continue;
      if (d > 0) {
        auto& b = bk[static_cast<std::size_t>(d) - 1];
        b = xyzz::add_mixed(b, p);
      } else {
        auto& b = bk[static_cast<std::size_t>(-d) - 1];
        b = xyzz::add_mixed(b, -p);
      }
    }
  }
  bucket_reducer<Curve> red;
  for (std::size_t b = nbuckets; b-- > 0;) red.step(bk[b], bk[b].is_identity());
  return red.finish();
}

// ---------------------------------------------------------------------------------------------
// Bucket accumulation, batch affine. Buckets are affine points. Additions bucket += P are queued
// into a batch of up to B pairs with distinct buckets; a flush computes all B slopes with one
// shared inversion (Montgomery's trick) and applies
//   lambda = (y2 - y1) / (x2 - x1),  x3 = lambda^2 - x1 - x2,  y3 = lambda (x1 - x3) - y1.
// Per addition: 1M prefix product + 2M back substitution + 1M lambda + 1S + 1M = 5M + 1S, plus
// (one inversion + ...)/B. A point whose bucket is already in the batch waits in a queue for the
// next flush; if it conflicts again, and whenever x1 == x2 (doubling or P - P), it goes to an
// XYZZ overflow bucket instead (allocated on first use), so adversarial inputs (every digit
// equal) degrade to XYZZ speed, not to one inversion per point.
// With `simd` (CPUs with AVX-512 IFMA) a flush of at least simd_min_batch additions runs on
// 8 lanes (batch_add_simd.hpp); the buckets it writes are identical to the scalar flush's. The
// final running sums run on the lanes too (8 bucket segments) from simd_min_reduce buckets.
// ---------------------------------------------------------------------------------------------
inline constexpr std::size_t simd_min_batch = 16;
// Buckets from which the reduction runs on the lanes too (8 segments of >= 32).
inline constexpr std::size_t simd_min_reduce = 256;

template <class Curve>
class batch_affine_window {
 public:
  using field = typename Curve::field;
  using affine = ec::affine_point<Curve>;
  using xyzz = ec::xyzz_point<Curve>;

  batch_affine_window(unsigned nbuckets, unsigned batch, bool simd = false)
      : bk_(nbuckets, affine::identity()), stamp_(nbuckets, 0), cap_(batch), simd_(simd) {
    batch_.reserve(cap_);
    queue_.reserve(cap_);
    tmp_.reserve(cap_);
    den_.resize(cap_);
    pre_.resize(cap_);
  }

  xyzz run(std::span<const window_segment<Curve>> segs, std::size_t lo, std::size_t hi) {
    for (const window_segment<Curve>& sg : segs) accumulate(sg.bases, sg.dig, lo, hi);
    return finish();
  }

 private:
  void accumulate(const affine* bases, const int32_t* dig, std::size_t lo, std::size_t hi) {
    constexpr std::size_t prefetch_distance = 8;
    for (std::size_t i = lo; i < hi; ++i) {
      if (batch_.size() >= cap_ || queue_.size() >= cap_) flush_and_drain();
      if (i + prefetch_distance < hi) {
        const int32_t dn = dig[i + prefetch_distance];
        if (dn) __builtin_prefetch(&bk_[static_cast<std::size_t>(dn > 0 ? dn : -dn) - 1]);
      }
      const int32_t d = dig[i];
      if (!d) continue;
      const affine* p = &bases[i];
      if (p->infinity) continue;
      add(static_cast<uint32_t>(d > 0 ? d : -d) - 1, p, d < 0, true);
    }
  }

  xyzz finish() {
    flush_and_drain();
    flush();
    // The same running sums on 8 lanes (8 bucket segments). Overflow buckets are folded into
    // the affine ones first (madd + one shared inversion: ~14M each, for the few percent of
    // buckets that have one).
    if (simd_ && bk_.size() >= simd_min_reduce && simd_reduce_available()) {
      if (!overflow_.empty()) fold_overflow();
      xyzz r;
      if (simd_bucket_sum(bk_.data(), bk_.size(), r)) return r;
    }
    const bool ovf = !overflow_.empty();
    // Running sums over affine buckets: madd (8M + 2S) + add (12M + 2S) per non-empty bucket.
    bucket_reducer<Curve> red;
    for (std::size_t b = bk_.size(); b-- > 0;) {
      const bool empty = bk_[b].infinity && (!ovf || overflow_[b].is_identity());
      if (empty) {
        red.step(bk_[b], true);
      } else if (!ovf) {
        red.step(bk_[b], false);
      } else {
        red.step(xyzz::add_mixed(overflow_[b], bk_[b]), false);
      }
    }
    return red.finish();
  }

  using item = batch_item<affine>;

  // bk_[b] += overflow_[b] for every non-empty overflow bucket, back to affine; clears overflow_.
  void fold_overflow() {
    std::vector<uint32_t> idx;
    std::vector<xyzz> sums;
    for (std::size_t b = 0; b < bk_.size(); ++b) {
      if (overflow_[b].is_identity()) continue;
      idx.push_back(static_cast<uint32_t>(b));
      sums.push_back(xyzz::add_mixed(overflow_[b], bk_[b]));
    }
    std::vector<affine> out(sums.size());
    ec::batch_to_affine(std::span<const xyzz>(sums), std::span<affine>(out));
    for (std::size_t i = 0; i < idx.size(); ++i) bk_[idx[i]] = out[i];
    overflow_.clear();
  }

  void to_overflow(uint32_t b, const affine* p, bool negate) {
    if (overflow_.empty()) overflow_.assign(bk_.size(), xyzz::identity());
    overflow_[b] = xyzz::add_mixed(overflow_[b], negate ? -*p : *p);
  }

  void add(uint32_t b, const affine* p, bool negate, bool may_queue) {
    affine& q = bk_[b];
    if (q.infinity) {  // empty bucket (never one in the batch: sums there are never infinity)
      q = negate ? -*p : *p;
      return;
    }
    if (stamp_[b] == epoch_) {  // bucket already in this batch
      if (may_queue) queue_.push_back({b, negate, p});
      else to_overflow(b, p, negate);
      return;
    }
    if (q.x == p->x) {  // P = +-Q: doubling or cancellation, rare; XYZZ handles both
      to_overflow(b, p, negate);
      return;
    }
    stamp_[b] = epoch_;
    batch_.push_back({b, negate, p});
  }

  void flush() {
    const std::size_t m = batch_.size();
    if (m == 0) return;
    if (simd_ && m >= simd_min_batch) {
      simd_batch_add(bk_.data(), batch_.data(), m, simd_scratch_);
      batch_.clear();
      ++epoch_;
      return;
    }
    field acc = field::one();
    for (std::size_t k = 0; k < m; ++k) {
      const item& it = batch_[k];
      pre_[k] = acc;
      den_[k] = it.p->x - bk_[it.bucket].x;  // nonzero: equal x never enters a batch
      acc = acc * den_[k];
    }
    field inv = acc.inverse();
    for (std::size_t k = m; k-- > 0;) {
      const item& it = batch_[k];
      const field dinv = inv * pre_[k];
      inv = inv * den_[k];
      affine& q = bk_[it.bucket];
      const field py = it.negate ? -it.p->y : it.p->y;
      const field lambda = (py - q.y) * dinv;
      const field x3 = lambda.square() - q.x - it.p->x;
      q.y = lambda * (q.x - x3) - q.y;
      q.x = x3;
    }
    batch_.clear();
    ++epoch_;
  }

  void flush_and_drain() {
    flush();
    std::swap(queue_, tmp_);
    queue_.clear();
    for (const item& it : tmp_) add(it.bucket, it.p, it.negate != 0, false);
    tmp_.clear();
  }

  std::vector<affine> bk_;
  std::vector<uint32_t> stamp_;
  uint32_t epoch_ = 1;
  std::size_t cap_;
  bool simd_;
  simd_flush_scratch simd_scratch_;
  std::vector<item> batch_, queue_, tmp_;
  std::vector<field> den_, pre_;
  std::vector<xyzz> overflow_;
};

// Sum of bases with weight one, per chunk, in XYZZ (8M + 2S per base).
template <class Curve>
ec::xyzz_point<Curve> sum_partials(const std::vector<ec::xyzz_point<Curve>>& parts) {
  auto acc = ec::xyzz_point<Curve>::identity();
  for (const auto& p : parts) acc = acc + p;
  return acc;
}

template <class Curve>
ec::jacobian_point<Curve> pippenger_planned(std::span<const ec::affine_point<Curve>> bases,
                                            std::span<const scalar_repr> scalars, base::executor& ex,
                                            const options& opt, std::size_t planning_n) {
  using xyzz = ec::xyzz_point<Curve>;
  using jac = ec::jacobian_point<Curve>;
  const std::size_t n = scalars.size();
  if (bases.size() < n) throw std::invalid_argument("msm::pippenger: fewer bases than scalars");
  if (n == 0 || planning_n == 0) return jac::identity();

  const plan pl = make_plan(planning_n, ex.concurrency(), opt);
  const unsigned c = pl.window_bits, W = pl.windows;
  const unsigned nbuckets = 1u << (c - 1);
  const bool split = pl.split == scalar_split::endomorphism;
  const bool simd = opt.simd && simd_flush_available();
  const std::size_t halves = split ? 2 : 1;
  const std::size_t N = halves * n;  // digit columns per window: [0, n) for P, [n, 2n) for [X^2]P
  const std::size_t k = std::min<std::size_t>(pl.point_chunks, n);

  // Signed digits, window-major: digits[w * N + h * n + i]; split: [X^2]P_i for nonzero scalars.
  std::vector<int32_t> digits(static_cast<std::size_t>(W) * N);
  std::vector<ec::affine_point<Curve>> x2_bases(split ? n : 0);
  {
    const std::size_t chunks = pass_chunks(n, ex.concurrency());
    for_each_index(ex, chunks, [&](std::size_t ch) {
      const std::size_t lo = n * ch / chunks, hi = n * (ch + 1) / chunks;
      for (std::size_t i = lo; i < hi; ++i) {
        if (ff::is_zero(scalars[i])) {
          for (unsigned w = 0; w < W; ++w)
            for (std::size_t h = 0; h < halves; ++h) digits[w * N + h * n + i] = 0;
          if (split) x2_bases[i] = ec::affine_point<Curve>::identity();
        } else if (split) {
          split_part k1, k2;
          split_scalar(scalars[i], k1, k2);
          signed_digits_of_magnitude(k1.magnitude, k1.negative, c, W, digits.data() + i, N);
          signed_digits_of_magnitude(k2.magnitude, k2.negative, c, W, digits.data() + n + i, N);
          x2_bases[i] = times_x_squared(bases[i]);
        } else {
          signed_digits(scalars[i], c, W, digits.data() + i, N);
        }
      }
    });
  }

  // Tasks: (window w, point range j) -> partial window sum; with split scalars a task takes range
  // j of both halves into the same buckets (one reduction for 2 (hi - lo) points).
  std::vector<xyzz> partial(static_cast<std::size_t>(W) * k);
  for_each_index(ex, partial.size(), [&](std::size_t t) {
    const std::size_t w = t / k, j = t % k;
    const std::size_t lo = n * j / k, hi = n * (j + 1) / k;
    const int32_t* dig = digits.data() + w * N;
    const window_segment<Curve> segs[2] = {{bases.data(), dig}, {x2_bases.data(), dig + n}};  // [1]: split only
    const std::span<const window_segment<Curve>> sp(segs, halves);
    if (pl.acc == accumulation::batch_affine) {
      batch_affine_window<Curve> win(nbuckets, pl.batch_size, simd);
      partial[t] = win.run(sp, lo, hi);
    } else {
      partial[t] = window_sum_xyzz<Curve>(sp, lo, hi, nbuckets);
    }
  });

  // Horner over windows: c doublings (2M + 5S each, Jacobian) per window.
  jac acc = jac::identity();
  for (std::size_t w = W; w-- > 0;) {
    for (unsigned i = 0; i < c; ++i) acc = acc.dbl();
    xyzz ws = xyzz::identity();
    for (std::size_t j = 0; j < k; ++j) ws = ws + partial[w * k + j];
    acc = acc + ws.to_jacobian();
  }
  return acc;
}

// Classifies the scalars of the positions that have bases (all, or the set bits of density):
// 0 (or a base at infinity) -> skipped, 1 -> summed directly, others -> canonical form for
// Pippenger.
template <class Curve>
ec::jacobian_point<Curve> multiexp_impl(std::span<const ec::affine_point<Curve>> bases, const density_bitmap* density,
                                        std::span<const ff::fr> scalars, base::executor& ex, const options& opt) {
  using xyzz = ec::xyzz_point<Curve>;
  const std::size_t n = scalars.size();
  std::size_t m = n;  // bases used
  if (density) {
    if (density->size() != n) throw std::invalid_argument("msm::multiexp: density size != scalar count");
    m = density->count();
  }
  if (bases.size() < m) throw std::invalid_argument("msm::multiexp: fewer bases than needed");
  if (m == 0) return ec::jacobian_point<Curve>::identity();

  // Position chunks aligned to 64 so that ranks come from whole words.
  const std::size_t words = (n + 63) / 64;
  const std::size_t chunks = std::max<std::size_t>(1, std::min(pass_chunks(n, ex.concurrency()), words));
  std::vector<std::size_t> rank0(chunks + 1, 0);
  for (std::size_t ch = 0; ch < chunks; ++ch) {
    const std::size_t wlo = words * ch / chunks, whi = words * (ch + 1) / chunks;
    std::size_t r = 0;
    if (density) {
      for (std::size_t wd = wlo; wd < whi; ++wd) r += static_cast<std::size_t>(std::popcount(density->words()[wd]));
    } else {
      r = std::min(n, whi * 64) - wlo * 64;
    }
    rank0[ch + 1] = rank0[ch] + r;
  }

  std::vector<scalar_repr> canon(m);
  std::vector<xyzz> ones(chunks, xyzz::identity());
  std::vector<std::size_t> heavy(chunks, 0);
  for_each_index(ex, chunks, [&](std::size_t ch) {
    const std::size_t lo = words * ch / chunks * 64, hi = std::min(n, words * (ch + 1) / chunks * 64);
    std::size_t j = rank0[ch], h = 0;
    xyzz acc = xyzz::identity();
    for (std::size_t i = lo; i < hi; ++i) {
      if (density && !density->test(i)) continue;
      const ff::fr& f = scalars[i];
      // A base at infinity contributes nothing: treated as a zero scalar, so that it costs no
      // digits and does not count towards the plan (snarkjs keys hold such bases for the wires
      // that are not in A or B).
      if (f.is_zero() || bases[j].infinity) {
        canon[j] = scalar_repr{};
      } else if (f.is_one()) {
        acc = xyzz::add_mixed(acc, bases[j]);
        canon[j] = scalar_repr{};
      } else {
        canon[j] = f.to_canonical();
        ++h;
      }
      ++j;
    }
    ones[ch] = acc;
    heavy[ch] = h;
  });
  std::size_t nheavy = 0;
  for (std::size_t h : heavy) nheavy += h;

  auto result = pippenger_planned<Curve>(bases.first(m), canon, ex, opt, nheavy);
  return result + sum_partials(ones).to_jacobian();
}

}  // namespace detail

template <class Curve>
ec::jacobian_point<Curve> pippenger(std::span<const ec::affine_point<Curve>> bases,
                                    std::span<const scalar_repr> scalars, base::executor& ex, const options& opt) {
  return detail::pippenger_planned<Curve>(bases, scalars, ex, opt, scalars.size());
}

template <class Curve>
ec::jacobian_point<Curve> multiexp(std::span<const ec::affine_point<Curve>> bases, std::span<const ff::fr> scalars,
                                   base::executor& ex, const options& opt) {
  return detail::multiexp_impl<Curve>(bases, nullptr, scalars, ex, opt);
}

template <class Curve>
ec::jacobian_point<Curve> multiexp(std::span<const ec::affine_point<Curve>> bases, const density_bitmap& density,
                                   std::span<const ff::fr> scalars, base::executor& ex, const options& opt) {
  return detail::multiexp_impl<Curve>(bases, &density, scalars, ex, opt);
}

template <class Curve>
ec::jacobian_point<Curve> naive_msm(std::span<const ec::affine_point<Curve>> bases, std::span<const ff::fr> scalars) {
  using jac = ec::jacobian_point<Curve>;
  if (bases.size() < scalars.size()) throw std::invalid_argument("msm::naive_msm: fewer bases than scalars");
  jac acc = jac::identity();
  for (std::size_t i = 0; i < scalars.size(); ++i) acc = acc + ec::scalar_mul(jac::from_affine(bases[i]), scalars[i]);
  return acc;
}

}  // namespace cuzk::msm
