#include "msm/msm.hpp"

#include <algorithm>
#include <limits>

#include "msm/pippenger_impl.hpp"

namespace cuzk::msm {

namespace {

// Batch size for batch-affine accumulation with 2^(c-1) buckets: B/2 pending buckets out of
// 2^(c-1) make a new point conflict with probability ~B/2^c; B = 2^(c-1)/4 keeps that near 12%
// (measured best at 2^16, c = 13..14, against /8 and /2) while B >= 512 (c >= 12) spreads one
// ~600M inversion over >= 512 additions.
unsigned auto_batch_size(unsigned c) {
  const unsigned nb = 1u << (c - 1);
  return std::clamp(nb / 4, 32u, 2048u);
}

// Cost model, in field multiplications (the curve's field), for one task of m points and
// 2^(c-1) buckets:
//   accumulation  m * a          a = 10 (XYZZ madd, 8M + 2S)
//                                a = 6 + 1 + 600 / min(B, m) (batch affine: 5M + 1S, bookkeeping,
//                                    one Fermat inversion ~380S + ~200M shared by B additions)
//   reduction     2^(c-1) * r    r = 28 (two XYZZ adds, 12M + 2S each);  24 for affine buckets
//                                    (one madd + one add)
// A plan of W = ceil(255/c) windows times k point ranges runs W*k such tasks on T workers:
// makespan = ceil(W*k / T) * task. For k = 1 that is (255/c) * (n*a + 2^(c-1)*r): the classic
// trade-off of n*b/c bucket additions against 2^c*b/c reduction additions (b = 255 bits).
// Splitting points (k > 1) pays one more reduction per range and only wins when the windows do not
// divide evenly among the workers. Checked against measurements (G1 2^16, one core, c = 10..16,
// both accumulations): the model's ranking matches and its ratios are within ~5%; G1 2^20 on one
// core picks c = 16, the measured best of c = 15..18.
double task_cost(std::size_t m, unsigned c, accumulation acc, unsigned batch) {
  const double nb = static_cast<double>(1u << (c - 1));
  const double md = static_cast<double>(m);
  if (acc == accumulation::xyzz) return md * 10.0 + nb * 28.0 + nb;
  const double eff = static_cast<double>(std::max<std::size_t>(1, std::min<std::size_t>(batch, m)));
  return md * (7.0 + 600.0 / eff) + nb * 24.0 + nb * 2.0;
}

}  // namespace

plan make_plan(std::size_t n, std::size_t concurrency, const options& opt) {
  const std::size_t T = std::max<std::size_t>(1, concurrency);
  unsigned c_lo = 1, c_hi = 20;
  if (opt.window_bits) c_lo = c_hi = std::clamp(opt.window_bits, 1u, detail::max_window_bits);
  std::size_t k_lo = 1, k_hi = std::max<std::size_t>(1, std::min<std::size_t>(4 * T, n));
  if (opt.point_chunks) k_lo = k_hi = std::max<std::size_t>(1, std::min<std::size_t>(opt.point_chunks, std::max<std::size_t>(n, 1)));

  plan best{1, detail::window_count(1), 1, accumulation::xyzz, 0, std::numeric_limits<double>::infinity()};
  for (int a = 0; a < 2; ++a) {
    const accumulation acc = a == 0 ? accumulation::xyzz : accumulation::batch_affine;
    if (opt.acc != accumulation::automatic && opt.acc != acc) continue;
    for (unsigned c = c_lo; c <= c_hi; ++c) {
      // Batch affine needs many buckets for few conflicts; only forced below 2^7 buckets.
      if (acc == accumulation::batch_affine && opt.acc == accumulation::automatic && c < 8) continue;
      const unsigned batch = acc == accumulation::batch_affine ? (opt.batch_size ? opt.batch_size : auto_batch_size(c)) : 0;
      const unsigned W = detail::window_count(c);
      for (std::size_t k = k_lo; k <= k_hi; ++k) {
        const std::size_t m = (n + k - 1) / k;
        const double rounds = static_cast<double>((W * k + T - 1) / T);
        const double cost = rounds * task_cost(m, c, acc, batch);
        if (cost < best.cost) best = {c, W, static_cast<unsigned>(k), acc, batch, cost};
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
