#include "poly/ntt.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <utility>

namespace cuzk::poly {

namespace {

// Stages with butterfly span m < block_size run block by block: 2^13 Fr = 256 KiB, which stays
// in a core's L2 (2 MiB here) together with the twiddles of those stages (another 256 KiB).
constexpr unsigned block_log = 13;
// Radix-4 groups / elements per parallel chunk: enough work (~10 us) to amortise a task.
constexpr std::size_t pass_grain = 512;
constexpr std::size_t elementwise_grain = 4096;

unsigned log2_exact(std::size_t n) {
  unsigned k = 0;
  while ((std::size_t{1} << k) < n) ++k;
  return k;
}

// Gentleman-Sande butterfly of stage m (span m), twiddle omega_{2m}^(+-j):
//   forward: (u, v) <- (u + v, (u - v) w),  w = tw[m + j]
//   inverse: (u, v) <- (u + v, (v - u) w'), w' = tw[2m - j] = -omega_{2m}^(-j)
// j = 0 has twiddle 1 and skips the multiplication. Cost: 1M + 2A. The additions are fr's
// branch-free ones (ff/mont_x86.hpp on x86-64): butterfly data is random, and a reduction
// branch there mispredicts half the time.
template <bool Inv>
inline void dif_bf(fr& u, fr& v, const fr* tw, std::size_t m, std::size_t j) {
  const fr s = u + v;
  if (j == 0) {
    v = u - v;
  } else if constexpr (Inv) {
    v = (v - u) * tw[2 * m - j];
  } else {
    v = (u - v) * tw[m + j];
  }
  u = s;
}

// Cooley-Tukey butterfly of stage m:
//   forward: t = v w;  (u, v) <- (u + t, u - t),  w = tw[m + j]
//   inverse: t = v w'; (u, v) <- (u - t, u + t),  w' = -omega_{2m}^(-j)
// Cost: 1M + 2A (j = 0: 2A).
template <bool Inv>
inline void dit_bf(fr& u, fr& v, const fr* tw, std::size_t m, std::size_t j) {
  if (j == 0) {
    const fr t = v;
    v = u - t;
    u = u + t;
    return;
  }
  if constexpr (Inv) {
    const fr t = v * tw[2 * m - j];
    v = u + t;
    u = u - t;
  } else {
    const fr t = v * tw[m + j];
    v = u - t;
    u = u + t;
  }
}

void scale_range(fr* p, std::size_t count, const fr& s) {
  for (std::size_t i = 0; i < count; ++i) p[i] = p[i] * s;
}

// One radix-4 group {p[0], p[q], p[2q], p[3q]}: DIF spans 2q then q, or DIT spans q then 2q,
// offset j. Cost: 4 butterflies, each element loaded and stored once.
template <bool Inv, bool Dif>
inline void radix4_group(fr* p, std::size_t q, std::size_t j, const fr* tw) {
  fr x0 = p[0], x1 = p[q], x2 = p[2 * q], x3 = p[3 * q];
  if constexpr (Dif) {
    dif_bf<Inv>(x0, x2, tw, 2 * q, j);
    dif_bf<Inv>(x1, x3, tw, 2 * q, j + q);
    dif_bf<Inv>(x0, x1, tw, q, j);
    dif_bf<Inv>(x2, x3, tw, q, j);
  } else {
    dit_bf<Inv>(x0, x1, tw, q, j);
    dit_bf<Inv>(x2, x3, tw, q, j);
    dit_bf<Inv>(x0, x2, tw, 2 * q, j);
    dit_bf<Inv>(x1, x3, tw, 2 * q, j + q);
  }
  p[0] = x0, p[q] = x1, p[2 * q] = x2, p[3 * q] = x3;
}

// All DIF stages with span m < T inside one aligned block of T elements, two at a time.
template <bool Inv>
void dif_block(fr* p, std::size_t T, const fr* tw) {
  std::size_t m = T / 2;
  for (; m >= 2; m /= 4)
    for (std::size_t s = 0; s < T; s += 2 * m)
      for (std::size_t j = 0; j < m / 2; ++j) radix4_group<Inv, true>(p + s + j, m / 2, j, tw);
  if (m == 1)
    for (std::size_t s = 0; s < T; s += 2) dif_bf<Inv>(p[s], p[s + 1], tw, 1, 0);
}

template <bool Inv>
void dit_block(fr* p, std::size_t T, const fr* tw) {
  std::size_t m = 1;
  if (log2_exact(T) % 2) {
    for (std::size_t s = 0; s < T; s += 2) dit_bf<Inv>(p[s], p[s + 1], tw, 1, 0);
    m = 2;
  }
  for (; m < T; m *= 4)
    for (std::size_t s = 0; s < T; s += 4 * m)
      for (std::size_t j = 0; j < m; ++j) radix4_group<Inv, false>(p + s + j, m, j, tw);
}

// One radix-2 stage (span m) over the whole array: n/2 butterflies, butterfly g at block g / m,
// offset g % m.
template <bool Inv, bool Dif>
void radix2_pass(fr* a, std::size_t n, std::size_t m, const fr* tw, base::executor& ex) {
  ex.parallel_for(n / 2, pass_grain, [=](std::size_t begin, std::size_t end) {
    std::size_t blk = begin / m, j = begin % m;
    for (std::size_t g = begin; g < end; ++g) {
      fr* p = a + blk * 2 * m + j;
      if constexpr (Dif) dif_bf<Inv>(p[0], p[m], tw, m, j);
      else dit_bf<Inv>(p[0], p[m], tw, m, j);
      if (++j == m) j = 0, ++blk;
    }
  });
}

// Two stages in one sweep: DIF spans m then m/2, or DIT spans q then 2q (q = m/2), over
// radix-4 groups {s+j, s+j+q, s+j+2q, s+j+3q}, j < q, s a multiple of 4q. Cost per group:
// 4 butterflies.
template <bool Inv, bool Dif>
void radix4_pass(fr* a, std::size_t n, std::size_t q, const fr* tw, base::executor& ex) {
  ex.parallel_for(n / 4, pass_grain, [=](std::size_t begin, std::size_t end) {
    std::size_t blk = begin / q, j = begin % q;
    for (std::size_t g = begin; g < end; ++g) {
      radix4_group<Inv, Dif>(a + blk * 4 * q + j, q, j, tw);
      if (++j == q) j = 0, ++blk;
    }
  });
}

// Natural in, bit-reversed out. scale (optional) multiplies every output, fused into the
// in-cache block phase.
template <bool Inv>
void dif(std::span<fr> a, const fr* tw, base::executor& ex, const fr* scale) {
  const std::size_t n = a.size();
  if (n <= 1) {
    if (n == 1 && scale) a[0] = a[0] * *scale;
    return;
  }
  const std::size_t T = std::min(n, std::size_t{1} << block_log);
  unsigned global = log2_exact(n) - log2_exact(T);  // stages with span m >= T
  std::size_t m = n / 2;
  if (global % 2) {
    radix2_pass<Inv, true>(a.data(), n, m, tw, ex);
    m /= 2, --global;
  }
  for (; global; global -= 2, m /= 4) radix4_pass<Inv, true>(a.data(), n, m / 2, tw, ex);
  fr* base = a.data();
  ex.parallel_for(n / T, 1, [=](std::size_t begin, std::size_t end) {
    for (std::size_t b = begin; b < end; ++b) {
      dif_block<Inv>(base + b * T, T, tw);
      if (scale) scale_range(base + b * T, T, *scale);
    }
  });
}

// Bit-reversed in, natural out. scale (optional) multiplies every input first.
template <bool Inv>
void dit(std::span<fr> a, const fr* tw, base::executor& ex, const fr* scale) {
  const std::size_t n = a.size();
  if (n <= 1) {
    if (n == 1 && scale) a[0] = a[0] * *scale;
    return;
  }
  const std::size_t T = std::min(n, std::size_t{1} << block_log);
  unsigned global = log2_exact(n) - log2_exact(T);
  fr* base = a.data();
  ex.parallel_for(n / T, 1, [=](std::size_t begin, std::size_t end) {
    for (std::size_t b = begin; b < end; ++b) {
      if (scale) scale_range(base + b * T, T, *scale);
      dit_block<Inv>(base + b * T, T, tw);
    }
  });
  std::size_t m = T;
  for (; global >= 2; global -= 2, m *= 4) radix4_pass<Inv, false>(a.data(), n, m, tw, ex);
  if (global) radix2_pass<Inv, false>(a.data(), n, m, tw, ex);
}

void bit_reverse_scaled(std::span<fr> a, base::executor& ex, const fr* scale) {
  const std::size_t n = a.size();
  const unsigned k = log2_exact(n);
  fr* p = a.data();
  ex.parallel_for(n, elementwise_grain, [=](std::size_t begin, std::size_t end) {
    for (std::size_t i = begin; i < end; ++i) {
      const std::size_t r = bit_reverse(i, k);
      if (i < r) {
        std::swap(p[i], p[r]);
        if (scale) p[i] = p[i] * *scale, p[r] = p[r] * *scale;
      } else if (i == r && scale) {
        p[i] = p[i] * *scale;
      }
    }
  });
}

// scale * g^i for i < 2^k from two tables of 2^ceil(k/2) entries: lo[i mod 2^h] * hi[i >> h]
// (hi pre-multiplied by scale). One multiplication per lookup; the tables stay in L1/L2.
struct split_powers {
  unsigned h;
  std::vector<fr> lo, hi;
  split_powers(const fr& g, const fr& scale, unsigned k, base::executor& ex)
      : h((k + 1) / 2), lo(std::size_t{1} << h), hi(std::size_t{1} << (k - h)) {
    powers(lo, g, ex);
    powers(hi, g.pow_u64(std::size_t{1} << h), ex, scale);
  }
  fr operator()(std::size_t i) const { return lo[i & (lo.size() - 1)] * hi[i >> h]; }
};

// Bit-reversed coefficients -> natural, coefficient i times scale * g^i, in one pass; with
// `sub` (same bit-reversed layout), minus sub's coefficient i as well.
void bit_reverse_distribute(std::span<fr> a, const fr& g, const fr& scale, base::executor& ex,
                            const fr* sub = nullptr) {
  const std::size_t n = a.size();
  const unsigned k = log2_exact(n);
  const split_powers sp(g, scale, k, ex);
  fr* p = a.data();
  ex.parallel_for(n, elementwise_grain, [=, &sp](std::size_t begin, std::size_t end) {
    for (std::size_t i = begin; i < end; ++i) {
      const std::size_t r = bit_reverse(i, k);
      if (i > r) continue;
      const fr x = p[i] * sp(r), y = p[r] * sp(i);
      p[i] = sub ? y - sub[r] : y;
      if (i != r) p[r] = sub ? x - sub[i] : x;
    }
  });
}

void check_size(const ntt_plan& plan, std::span<const fr> a) {
  if (a.size() != plan.size())
    throw std::invalid_argument("poly::ntt: input length " + std::to_string(a.size()) +
                                " != domain size " + std::to_string(plan.size()));
}

// The transform; inverse_scale (1/n, or nullptr to leave the result n times too large).
void transform(const ntt_plan& plan, std::span<fr> a, ntt_direction dir, ntt_order order,
               base::executor& ex, const fr* inverse_scale) {
  const fr* tw = plan.twiddles().data();
  if (dir == ntt_direction::forward) {
    switch (order) {
      case ntt_order::natural_to_natural:
        dif<false>(a, tw, ex, nullptr);
        bit_reverse_scaled(a, ex, nullptr);
        return;
      case ntt_order::natural_to_bit_reversed: dif<false>(a, tw, ex, nullptr); return;
      case ntt_order::bit_reversed_to_natural: dit<false>(a, tw, ex, nullptr); return;
    }
  } else {
    switch (order) {
      case ntt_order::natural_to_natural:
        dif<true>(a, tw, ex, nullptr);
        bit_reverse_scaled(a, ex, inverse_scale);
        return;
      case ntt_order::natural_to_bit_reversed: dif<true>(a, tw, ex, inverse_scale); return;
      case ntt_order::bit_reversed_to_natural: dit<true>(a, tw, ex, inverse_scale); return;
    }
  }
  throw std::invalid_argument("poly::ntt: bad direction or order");
}

}  // namespace

ntt_plan::ntt_plan(const radix2_domain& domain, base::executor& ex)
    : domain_(domain), twiddles_(domain.size()) {
  const std::size_t n = domain.size();
  twiddles_[0] = fr::one();  // unused
  if (n < 2) return;
  // Top stage: tw[n/2 + j] = omega^j; stage m: tw[m + j] = omega_{2m}^j = tw[2m + 2j].
  powers(std::span<fr>(twiddles_).subspan(n / 2, n / 2), domain.omega(), ex);
  fr* t = twiddles_.data();
  for (std::size_t m = n / 4; m >= 1; m /= 2)
    ex.parallel_for(m, elementwise_grain, [=](std::size_t begin, std::size_t end) {
      for (std::size_t j = begin; j < end; ++j) t[m + j] = t[2 * m + 2 * j];
    });
}

void bit_reverse_permute(std::span<fr> a, base::executor& ex) {
  if (a.size() & (a.size() - 1)) throw std::invalid_argument("poly::bit_reverse_permute: size not a power of two");
  bit_reverse_scaled(a, ex, nullptr);
}

void powers(std::span<fr> out, const fr& base, base::executor& ex, const fr& first) {
  fr* p = out.data();
  ex.parallel_for(out.size(), elementwise_grain, [=, &base, &first](std::size_t begin, std::size_t end) {
    fr u = first * base.pow_u64(begin);
    for (std::size_t i = begin; i < end; ++i) {
      p[i] = u;
      u = u * base;
    }
  });
}

void distribute_powers(std::span<fr> a, const fr& g, base::executor& ex, coeff_layout layout, const fr& scale) {
  const std::size_t n = a.size();
  if (layout == coeff_layout::bit_reversed && (n & (n - 1)))
    throw std::invalid_argument("poly::distribute_powers: bit-reversed layout needs a power-of-two size");
  fr* p = a.data();
  if (layout == coeff_layout::natural) {
    ex.parallel_for(n, elementwise_grain, [=, &g, &scale](std::size_t begin, std::size_t end) {
      fr u = scale * g.pow_u64(begin);
      for (std::size_t i = begin; i < end; ++i) p[i] = p[i] * u, u = u * g;
    });
    return;
  }
  // Bit-reversed: walk positions in memory order (a scatter over exponents would miss cache
  // on every element past L2), g^i from split tables.
  const unsigned k = log2_exact(n);
  const split_powers sp(g, scale, k, ex);
  ex.parallel_for(n, elementwise_grain, [=, &sp](std::size_t begin, std::size_t end) {
    for (std::size_t pos = begin; pos < end; ++pos) p[pos] = p[pos] * sp(bit_reverse(pos, k));
  });
}

void ntt(const ntt_plan& plan, std::span<fr> a, ntt_direction dir, ntt_order order, base::executor& ex) {
  check_size(plan, a);
  transform(plan, a, dir, order, ex, &plan.domain().size_inv());
}

void coset_ntt(const ntt_plan& plan, std::span<fr> a, ntt_direction dir, ntt_order order, base::executor& ex) {
  check_size(plan, a);
  const radix2_domain& d = plan.domain();
  if (dir == ntt_direction::forward) {
    const coeff_layout in = order == ntt_order::bit_reversed_to_natural ? coeff_layout::bit_reversed : coeff_layout::natural;
    distribute_powers(a, d.coset_generator(), ex, in);
    transform(plan, a, dir, order, ex, nullptr);
  } else {
    // icoset: ifft then coefficient i *= g^-i; the ifft's 1/n rides on the same multiplication.
    if (order == ntt_order::natural_to_natural) {  // permutation and scaling in one pass
      dif<true>(a, plan.twiddles().data(), ex, nullptr);
      bit_reverse_distribute(a, d.coset_generator_inv(), d.size_inv(), ex);
      return;
    }
    const coeff_layout out = order == ntt_order::natural_to_bit_reversed ? coeff_layout::bit_reversed : coeff_layout::natural;
    transform(plan, a, dir, order, ex, nullptr);
    distribute_powers(a, d.coset_generator_inv(), ex, out, d.size_inv());
  }
}

fr evaluate(std::span<const fr> coeffs, const fr& x) {
  fr acc = fr::zero();
  for (std::size_t i = coeffs.size(); i-- > 0;) acc = acc * x + coeffs[i];
  return acc;
}

void naive_dft(std::span<const fr> in, std::span<fr> out, const fr& omega, const fr& shift) {
  fr x = shift;
  for (std::size_t k = 0; k < out.size(); ++k) {
    out[k] = evaluate(in, x);
    x = x * omega;
  }
}

void compute_h(const ntt_plan& plan, std::span<fr> a, std::span<fr> b, std::span<fr> c, base::executor& ex) {
  check_size(plan, a);
  check_size(plan, b);
  check_size(plan, c);
  const radix2_domain& d = plan.domain();
  const fr n_inv = d.size_inv();
  const fr n_inv_z_inv = n_inv * d.z_on_coset_inv();
  // Values on H -> coefficients (bit-reversed, unscaled) -> times scale * g^i -> values on gH.
  auto to_coset = [&](std::span<fr> v, const fr& scale) {
    transform(plan, v, ntt_direction::inverse, ntt_order::natural_to_bit_reversed, ex, nullptr);
    distribute_powers(v, d.coset_generator(), ex, coeff_layout::bit_reversed, scale);
    transform(plan, v, ntt_direction::forward, ntt_order::bit_reversed_to_natural, ex, nullptr);
  };
  to_coset(a, n_inv_z_inv);  // A(g w^i) / z(g)
  to_coset(b, n_inv);        // B(g w^i)
  // c only needs coefficients: h = (A B - C) / Z with deg h < n and deg c < n, Z = z(g) on gH,
  // so h = (icoset(A_g B_g) - c) / z(g), where icoset interpolates values on gH.
  transform(plan, c, ntt_direction::inverse, ntt_order::natural_to_bit_reversed, ex, &n_inv_z_inv);
  fr* pa = a.data();
  const fr* pb = b.data();
  ex.parallel_for(a.size(), elementwise_grain, [=](std::size_t begin, std::size_t end) {
    for (std::size_t i = begin; i < end; ++i) pa[i] = pa[i] * pb[i];  // (A B)(g w^i) / z(g)
  });
  transform(plan, a, ntt_direction::inverse, ntt_order::natural_to_bit_reversed, ex, nullptr);
  bit_reverse_distribute(a, d.coset_generator_inv(), n_inv, ex, c.data());  // natural h coefficients
}

}  // namespace cuzk::poly
