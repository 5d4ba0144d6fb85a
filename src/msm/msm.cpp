#include "msm/msm.hpp"

#include <algorithm>
#include <limits>

#include "msm/pippenger_impl.hpp"

namespace cuzk::msm {

namespace {

// Batch size for batch-affine accumulation with 2^(c-1) buckets: B/2 pending buckets out of
// 2^(c-1) make a new point conflict with probability ~B/2^c; B = 2^(c-1)/4 keeps that near 12%
// (measured best at 2^16, c = 13..14, against /8 and /2) while B >= 512 (c >= 12) spreads one
// inversion (~50M, see task_cost) over >= 512 additions.
// With the 8-lane IFMA flush the shared inversion weighs less (8 chains, ~3 us per flush) and
// conflicts more: B = 2^(c-1)/8, at most 512, measured best or within 2% (G1 one core: 2^16 c =
// 13, B = 64..4096: 237 / 208 / 192 / 195 / 210 / 259 / 411 ms CPU; 2^20 c = 16, B = 128..2048:
// 2.73 / 2.57 / 2.48 / 2.48 / 2.52 s).
unsigned auto_batch_size(unsigned c, bool simd) {
  const unsigned nb = 1u << (c - 1);
  if (simd) return std::clamp(nb / 8, 32u, 512u);
  return std::clamp(nb / 4, 32u, 2048u);
}

// Cost model, in field multiplications (the curve's field), for one task of m points and
// 2^(c-1) buckets:
//   accumulation  m * a          a = 10 (XYZZ madd, 8M + 2S)
//                                a = 6 + 1 + 60 / min(B, m) (batch affine: 5M + 1S, bookkeeping,
//                                    one inversion shared by B additions: safegcd, 2.0 us = ~50M
//                                    on the development machine, plus the flush's loop overhead)
//   reduction     2^(c-1) * r    r = 28 (two XYZZ adds, 12M + 2S each);  24 for affine buckets
//                                    (one madd + one add)
// A plan of W = ceil(255/c) windows times k point ranges runs W*k such tasks on T workers:
// makespan = ceil(W*k / T) * task. For k = 1 that is (255/c) * (n*a + 2^(c-1)*r): the classic
// trade-off of n*b/c bucket additions against 2^c*b/c reduction additions (b = 255 bits).
// Splitting points (k > 1) pays one more reduction per range and only wins when the windows do not
// divide evenly among the workers. Checked against measurements (G1 2^16, one core, c = 10..16,
// both accumulations): the model's ranking matches and its ratios are within ~5%; G1 2^20 on one
// core picks c = 16, the measured best of c = 15..18. The inversion term was 600 (a Fermat
// inversion) until the field's inverse became safegcd; with 60 the model's choice at 2^9 and 2^12
// (one core, c = 4..13, both accumulations, plain and split) is the measured best or within 4%
// of it.
// With the 8-lane IFMA flush (batch_add_simd.hpp) the batch-affine accumulation costs a = 3 + 60/B
// scalar multiplications' worth: the G1 2^16 MSM (2 threads, c = 13) fell from 764 to 321 ms
// with the reductions unchanged; the measured best window stays c = 13 at 2^16 (one core, c =
// 11..15), which the model also picks.
double task_cost(std::size_t m, unsigned c, accumulation acc, unsigned batch, bool simd) {
  const double nb = static_cast<double>(1u << (c - 1));
  const double md = static_cast<double>(m);
  if (acc == accumulation::xyzz) return md * 10.0 + nb * 28.0 + nb;
  const double eff = static_cast<double>(std::max<std::size_t>(1, std::min<std::size_t>(batch, m)));
  return md * ((simd ? 3.0 : 7.0) + 60.0 / eff) + nb * 24.0 + nb * 2.0;
}

}  // namespace

constexpr std::size_t split_max_points = std::size_t{1} << 22;

plan make_plan(std::size_t n, std::size_t concurrency, const options& opt) {
  const std::size_t T = std::max<std::size_t>(1, concurrency);
  unsigned c_lo = 1, c_hi = 20;
  const bool simd = opt.simd && detail::simd_flush_available();
  if (opt.window_bits) c_lo = c_hi = std::clamp(opt.window_bits, 1u, detail::max_window_bits);

  plan best{1, detail::window_count(1), 1, accumulation::xyzz, 0, std::numeric_limits<double>::infinity(),
            scalar_split::none};
  for (const scalar_split split : {scalar_split::none, scalar_split::endomorphism}) {
    if (opt.split != scalar_split::automatic && opt.split != split) continue;
    const bool halves = split == scalar_split::endomorphism;
    // The split holds [X^2]P for every point (104 B in G1, 200 B in G2): automatic only up to
    // 2^22 points (~0.4 / 0.8 GB); its gain shrinks with n (the reductions weigh less), ~2% at
    // 2^20.
    if (halves && opt.split == scalar_split::automatic && n > split_max_points) continue;
    // Split: 2n points with 128-bit digits (a task takes a range of both halves into one set of
    // buckets), plus splitting each scalar and computing [X^2]P (~4 multiplications per point:
    // the Barrett split ~25 ns, [X^2]P 1M in G1 or 4 Fp2 M in G2), spread over the workers.
    const std::size_t pts = halves ? 2 * n : n;
    const unsigned bits = halves ? detail::split_bits : detail::plain_bits;
    const double overhead = halves ? 4.0 * static_cast<double>(n) / static_cast<double>(T) : 0.0;
    std::size_t k_lo = 1, k_hi = std::max<std::size_t>(1, std::min<std::size_t>(4 * T, n));
    if (opt.point_chunks) k_lo = k_hi = std::max<std::size_t>(1, std::min<std::size_t>(opt.point_chunks, std::max<std::size_t>(n, 1)));
    for (int a = 0; a < 2; ++a) {
      const accumulation acc = a == 0 ? accumulation::xyzz : accumulation::batch_affine;
      if (opt.acc != accumulation::automatic && opt.acc != acc) continue;
      for (unsigned c = c_lo; c <= c_hi; ++c) {
        // Batch affine needs many buckets for few conflicts; only forced below 2^7 buckets.
        if (acc == accumulation::batch_affine && opt.acc == accumulation::automatic && c < 8) continue;
        const unsigned batch = acc == accumulation::batch_affine ? (opt.batch_size ? opt.batch_size : auto_batch_size(c, simd)) : 0;
        const unsigned W = detail::window_count(c, bits);
        for (std::size_t k = k_lo; k <= k_hi; ++k) {
          const std::size_t m = (pts + k - 1) / k;
          const double rounds = static_cast<double>((W * k + T - 1) / T);
          const double cost = rounds * task_cost(m, c, acc, batch, simd) + overhead;
          if (cost < best.cost) best = {c, W, static_cast<unsigned>(k), acc, batch, cost, split};
        }
      }
    }
  }
  return best;
}

std::vector<scalar_repr> to_canonical(std::span<const ff::fr> scalars, base::executor& ex) {
  std::vector<scalar_repr> out(scalars.size());
  const std::size_t n = scalars.size();
  const std::size_t chunks = detail::pass_chunks(n, ex.concurrency());
  detail::for_each_index(ex, n ? chunks : 0, [&](std::size_t ch) {
    for (std::size_t i = n * ch / chunks; i < n * (ch + 1) / chunks; ++i) out[i] = scalars[i].to_canonical();
  });
  return out;
}

CUZK_MSM_DECLARE(ec::g1_curve, )
CUZK_MSM_DECLARE(ec::g2_curve, )

}  // namespace cuzk::msm
