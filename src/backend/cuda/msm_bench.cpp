// G1 MSM benchmark on the GPU: bases resident on the device, random full 255-bit scalars
// generated on the device, n = 2^min..2^max; window sweep; phase breakdown. Every timed size is
// checked exactly against the discrete logs of the bases (below). Run by scripts/device-bench.
//
// Bases: D = min(2^20, n_max) distinct points P_d = [a + d b]G (a, b random; one host addition
// per point), replicated on the device as points[i] = P_(i mod D). 2^20 distinct points are
// 100 MB, more than the 60 MB L2, so base gathers go to HBM as with a real SRS.
// Check: sum_i s_i P_(i mod D) = [sum_d (sum_(i = d mod D) s_i)(a + d b)]G, n additions and D
// products in Fr plus one scalar multiplication on the host.
//
// Floors (docs/gpu.md): compute = Fp products / (SMs * clock / 13.5 SM-cycles per product), with
// 10 products per bucket addition (8M + 2S) times n W, plus 2 full additions (14 products) per
// bucket in the reduction, at the best window c for n; memory = n W (96 B base gather + 32 B of
// digit and sort traffic) / 4.8 TB/s. floor = max of the two; ratio = median / floor.
// G2 (cuda_msm_bench g2): the same recipe over G2 (D = min(2^19, n_max) distinct points, 96 MB),
// with 28 products per bucket addition (8 Fp2 products at 3M, 2 Fp2 squares at 2M), 80 per
// bucket in the reduction, and 192 B base gathers; the window is swept and the register cap of
// the accumulation kernel compared (1 = none, 2 = 128 registers).
// Batch affine (cuda_msm_bench affine): the G1 MSM with affine_rounds = 0 (plain XYZZ path), 1,
// 2, 3, 4 at 2^min_log, 2^(min_log + 2), ..., 2^max_log; each checked, median of 3 with a profiled
// run, SM-cycles per addition of the halving rounds (additions ~ sorted - XYZZ entries) and of
// the XYZZ accumulation (per entry, merges included), against their products (6 plus the
// safegcd inversion's share, and ~9 for the XYZZ mixed addition, at ~9.5 SM-cycles each); then
// the variants of the halving kernel (running products in local memory or global scratch,
// entries per thread 16 .. 1024) at 2^max_log with 1, 2 and 3 rounds. `affine g2`: the same for
// G2 (g2_affine_rounds; run_g2_affine).
// Reduction segments (cuda_msm_bench reduce): for 2^24, 2^26 and 2^27 (up to max_log), the
// default window and the next, buckets per reduction thread g = 32 .. 128 (g1_msm_options::
// reduce_segment) and the reduction kernel's register cap (reduce_min_blocks 1, 2): median of 3
// and the profiled reduction, each result checked.
// 0/1 split (cuda_msm_bench binary [max_log] [min_log], cuda_msm_bench binary g2 [log]):
// msm_mostly_binary on scalars with the PoRep witness mix, its phases (classification, the ones'
// sum, the rest's Pippenger), every result checked; G2 without and with halving rounds.
// Usage: cuda_msm_bench [max_log (27)] [min_log (16)]
//        cuda_msm_bench g2 [max_log (24)] [min_log (16)]
//        cuda_msm_bench reduce [max_log (27)]
//        cuda_msm_bench affine [max_log (26)] [min_log (20)]
//        cuda_msm_bench affine g2 [max_log (24)] [min_log (16)]
//        cuda_msm_bench streamed [max_log (27)] [min_log (24)]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>
#include <vector>

#include "backend/cuda/msm_cuda.hpp"
#include "backend/cuda/porep_like_circuit.hpp"

namespace {

namespace cuda = cuzk::cuda;
using cuzk::ff::fr;
namespace ec = cuzk::ec;

constexpr double cycles_per_fp_product = 13.5;  // 288 lo at 64/clk + 288 hi at 32/clk
constexpr double hbm_bytes_per_s = 4.8e12;
double sm_hz = 0;

// sppark on the same H200, device-resident data (notes/sppark-h200.md, column D).
const std::map<unsigned, double> sppark_ms = {{20, 21.70}, {22, 53.51}, {24, 155.3}, {26, 556.4}, {27, 1095.3}};

[[noreturn]] void die(const std::string& what) {
  std::fprintf(stderr, "cuda_msm_bench: %s\n", what.c_str());
  std::exit(1);
}

// Fp products per bucket addition and per bucket in the reduction, bytes per (base, window).
struct curve_costs {
  double add_products, reduce_products, bytes;
};
constexpr curve_costs g1_costs{10, 28, 128}, g2_costs{28, 80, 224};

double compute_floor_ms(double n, unsigned c, const curve_costs& k = g1_costs) {
  const double w = (255 + c - 1) / c;
  const double products = n * w * k.add_products + w * static_cast<double>(1u << (c - 1)) * k.reduce_products;
  return products * cycles_per_fp_product / sm_hz * 1e3;
}
double best_floor_ms(double n, unsigned* best_c = nullptr, const curve_costs& k = g1_costs) {
  double best = 1e300;
  for (unsigned c = 4; c <= 24; ++c) {
    const double f = std::max(compute_floor_ms(n, c, k), n * ((255 + c - 1) / c) * k.bytes / hbm_bytes_per_s * 1e3);
    if (f < best) {
      best = f;
      if (best_c) *best_c = c;
    }
  }
  return best;
}

const char* mul_name(cuda::fp_mul_kernel k) {
  switch (k) {
    case cuda::fp_mul_kernel::ptx32: return "ptx32";
    case cuda::fp_mul_kernel::ptx32_call: return "ptx32_call";
    case cuda::fp_mul_kernel::portable64: break;
  }
  return "portable64";
}

struct row {
  unsigned log_n;
  unsigned c;
  double median_ms, min_ms, floor_ms;
  cuda::g1_msm_profile phases;
  bool checked;
};

// splitmix64: fixed seed, reproducible bases
struct splitmix {
  uint64_t state = 0x9e3779b97f4a7c15ULL;
  uint64_t operator()() {
    uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
};

// Scalars with the 32 GiB PoRep witness mix (witness_mix::porep_measured(), from
// docs/porep-witness-statistics.md), as the L, A and B MSMs of a partition see them.
std::vector<fr> porep_mix_scalars(std::size_t n, uint64_t seed) {
  constexpr cuda::witness_mix mix = cuda::witness_mix::porep_measured();
  splitmix rng;
  rng.state ^= seed;
  std::vector<fr> s(n);
  for (fr& x : s) {
    const uint64_t u = rng() % 10000;
    x = u < mix.zero ? fr::zero() : u < mix.zero + mix.one ? fr::one() : fr::random(rng);
  }
  return s;
}

// Host wall clock of call(), median of 3 after a warm-up (scratch allocation), ms.
template <class Call>
double median_ms(Call&& call) {
  call();
  std::vector<double> t;
  for (int i = 0; i < 3; ++i) {
    const auto s = std::chrono::steady_clock::now();
    call();
    t.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - s).count());
  }
  std::sort(t.begin(), t.end());
  return t[1];
}

// msm_mostly_binary on the PoRep mix: median of 3, then one profiled run with the split's
// phases; both checked against want(host scalars).
template <class Bases, class Point, class Want>
bool bench_binary(cuda::g1_msm_context& ctx, const Bases& bases, const char* group, unsigned log_n, Want want,
                  cuda::g1_msm_options options = {}) {
  std::string error;
  const std::size_t n = std::size_t{1} << log_n;
  const std::vector<fr> host = porep_mix_scalars(n, log_n);
  cuda::device_fr_vector scalars;
  if (!scalars.upload(host, error)) die(error);
  auto once = [&](Point& out) {
    if (!ctx.msm_mostly_binary(bases, scalars, n, out, error)) die(error);
  };
  Point out, out2;
  if (!ctx.set_options(options, error)) die(error);
  const double median = median_ms([&] { once(out); });
  cuda::g1_msm_options o = options;
  o.profile = true;
  if (!ctx.set_options(o, error)) die(error);
  once(out2);
  if (!ctx.set_options({}, error)) die(error);
  const cuda::g1_msm_profile p = ctx.profile();
  const auto expect = want(host).to_affine();
  const bool good = out.to_affine() == expect && out2.to_affine() == expect;
  std::printf("binary %s 2^%-2u %9.3f ms | classify %6.2f  ones %6.2f  rest %6.2f (%zu scalars: digits %.2f sort %.2f "
              "accum %.2f reduce %.2f host %.2f)  %s\n",
              group, log_n, median, p.binary_classify_ms, p.binary_ones_ms, p.binary_rest_ms, p.binary_rest, p.digits_ms,
              p.sort_ms, p.accumulate_ms, p.reduce_ms, p.host_ms, good && p.binary_split ? "OK" : "MISMATCH");
  std::fflush(stdout);
  return good && p.binary_split;
}

// Streamed bases (cuda_msm_bench streamed [max_log (27)] [min_log (24)]): the same bases copied to
// pinned host memory; per size the resident MSM, then the streamed one in chunks of 2^22 .. 2^26
// points (median of 3, the kernels' wait for copies from a profiled run), and the 0/1 split on the
// PoRep mix streamed at 2^max_log in the default chunks (an L- or A-sized MSM); every result checked.
template <class Expect>
bool run_streamed(cuda::g1_msm_context& ctx, const cuda::g1_device_bases& bases, const cuda::device_fr_vector& scalars,
                  unsigned max_log, unsigned min_log, Expect expected_for, const std::vector<fr>& host_scalars) {
  std::string error;
  cuda::g1_pinned_bases pinned;
  auto t0 = std::chrono::steady_clock::now();
  if (!pinned.copy_from(bases, error)) die(error);
  std::printf("pinned copy of 2^%u bases (%.1f GB): %.1f s\n", max_log, static_cast<double>(bases.size()) * 96e-9,
              std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  bool all_good = true;
  for (unsigned k = min_log; k <= max_log; ++k) {
    const std::size_t n = std::size_t{1} << k;
    const ec::g1_affine want = expected_for(host_scalars, n).to_affine();
    ec::g1_jacobian out;
    if (!ctx.set_options({}, error)) die(error);
    const double resident = median_ms([&] {
      if (!ctx.msm(bases, scalars, n, out, error)) die(error);
    });
    bool good = out.to_affine() == want;
    std::printf("streamed 2^%-2u resident %9.3f ms |", k, resident);
    for (unsigned chunk_log = 22; chunk_log <= std::min(k, 26u); ++chunk_log) {
      cuda::g1_msm_options o;
      o.stream_chunk_points = std::size_t{1} << chunk_log;
      if (!ctx.set_options(o, error)) die(error);
      const double ms = median_ms([&] {
        if (!ctx.msm(pinned, scalars, n, out, error)) die(error);
      });
      good = good && out.to_affine() == want;
      std::printf("  chunk 2^%u %9.3f ms (wait %.1f, x%.2f)", chunk_log, ms, ctx.profile().stream_wait_ms,
                  ms / resident);
      std::fflush(stdout);
    }
    std::printf("  %s\n", good ? "OK" : "MISMATCH");
    all_good = all_good && good;
  }
  // The 0/1 split per chunk, default chunks, on the PoRep mix.
  const std::size_t n = std::size_t{1} << max_log;
  const std::vector<fr> mix = porep_mix_scalars(n, max_log);
  cuda::device_fr_vector d_mix;
  if (!d_mix.upload(mix, error) || !ctx.set_options({}, error)) die(error);
  const ec::g1_affine want = expected_for(mix, n).to_affine();
  ec::g1_jacobian out;
  const double resident = median_ms([&] {
    if (!ctx.msm_mostly_binary(bases, d_mix, n, out, error)) die(error);
  });
  bool good = out.to_affine() == want;
  const double streamed = median_ms([&] {
    if (!ctx.msm_mostly_binary(pinned, d_mix, n, out, error)) die(error);
  });
  good = good && out.to_affine() == want;
  std::printf("streamed binary 2^%u (PoRep mix): resident %.3f ms, streamed %.3f ms in %zu chunks (wait %.1f ms; "
              "%.1f GB/s of bases)  %s\n",
              max_log, resident, streamed, ctx.profile().stream_chunks, ctx.profile().stream_wait_ms,
              static_cast<double>(n) * 96 / (streamed * 1e6), good ? "OK" : "MISMATCH");
  return all_good && good;
}

// G2 batch-affine halving (cuda_msm_bench affine g2 [max_log (24)] [min_log (16)]): per size the
// plain XYZZ path, then 1..5 rounds at ranges of 32..256 entries (median of 3, phases from a
// profiled run; aff_cyc = halving SM-cycles per affine addition; vs_0 against the plain path),
// windows around the default at the two largest sizes, and smaller window groups. The halving
// arrays are bounded by the sort's pair budget only (2^28 entries: up to ~48 GB at 2^24; the
// library's default bound, affine_max_pairs_per_sort, is what `cuda_msm_bench g2` measures).
// Every result checked.
template <class Expected>
bool run_g2_affine(cuda::g1_msm_context& ctx, const cuda::g2_device_bases& bases, const cuda::device_fr_vector& scalars,
                   unsigned max_log, unsigned min_log, Expected expected) {
  std::string error;
  std::printf("\n%-6s %3s %6s %5s %10s %6s | %7s %8s %8s %7s %8s %6s  check\n", "n", "c", "rounds", "range",
              "median_ms", "vs_0", "sort", "affine", "accum", "reduce", "aff_cyc", "left");
  bool all_good = true;
  auto row = [&](unsigned k, unsigned c, unsigned rounds, unsigned range, double& plain, std::size_t pairs = 0) {
    const std::size_t n = std::size_t{1} << k;
    const ec::g2_affine want = expected(n).to_affine();
    cuda::g1_msm_options o;
    o.window_bits = c;
    o.g2_affine_rounds = rounds;
    o.g2_affine_range = range;
    o.affine_min_points = 0;
    if (pairs) o.max_pairs_per_sort = pairs;
    o.affine_max_pairs_per_sort = o.max_pairs_per_sort;  // the sweep's groups: the sort's pair budget
    if (!ctx.set_options(o, error)) die(error);
    ec::g2_jacobian out;
    auto once = [&] {
      if (!ctx.msm(bases, scalars, n, out, error)) die(error);
    };
    const double ms = median_ms(once);
    bool good = out.to_affine() == want;
    o.profile = true;
    if (!ctx.set_options(o, error)) die(error);
    once();
    good = good && out.to_affine() == want;
    const cuda::g1_msm_profile p = ctx.profile();
    if (plain == 0) plain = ms;
    const double adds = static_cast<double>(p.sorted_entries - p.xyzz_entries);
    std::printf("2^%-4u %3u %6u %5u %10.3f %6.3f | %7.2f %8.2f %8.2f %7.2f %8.1f %5.1f%%  %s%s", k, p.window_bits,
                rounds, range, ms, ms / plain, p.sort_ms, p.affine_ms, p.accumulate_ms, p.reduce_ms,
                adds > 0 ? p.affine_ms * 1e-3 * sm_hz / adds : 0.0,
                100.0 * static_cast<double>(p.xyzz_entries) / static_cast<double>(p.sorted_entries),
                good ? "OK" : "MISMATCH", p.affine_fallbacks ? " (memory fallback)" : "");
    if (pairs) std::printf("  (%u windows per sort)", p.windows_per_sort);
    std::printf("\n");
    std::fflush(stdout);
    all_good = all_good && good;
  };
  for (unsigned k = min_log; k <= max_log; ++k) {
    double plain = 0;
    row(k, 0, 0, 64, plain);
    for (unsigned rounds : {1u, 2u, 3u, 4u, 5u})
      for (unsigned range : {32u, 64u, 128u, 256u}) row(k, 0, rounds, range, plain);
  }
  // Windows with the rounds (cheaper entries may move the best window), at the two largest sizes.
  for (unsigned k = max_log > min_log ? max_log - 1 : max_log; k <= max_log; ++k) {
    const unsigned c0 = cuda::default_window_bits(std::size_t{1} << k);
    for (unsigned c = c0 - 3; c <= std::min(c0 + 1, 22u); ++c) {
      double plain = 0;
      row(k, c, 0, 64, plain);
      row(k, c, 3, 64, plain);
      row(k, c, 4, 128, plain);
    }
  }
  // Smaller window groups bound the halving arrays (~338 B per sorted entry at most).
  for (unsigned k = max_log > min_log ? max_log - 1 : max_log; k <= max_log; ++k) {
    double plain = 0;
    row(k, 0, 0, 64, plain);
    for (unsigned pairs_log : {28u, 26u, 25u, 24u, 23u}) {
      row(k, 0, 3, 64, plain, std::size_t{1} << pairs_log);
      row(k, 0, 4, 128, plain, std::size_t{1} << pairs_log);
    }
  }
  if (!ctx.set_options({}, error)) die(error);
  return all_good;
}

int run_g2(unsigned max_log, unsigned min_log, bool binary_only, bool affine_only) {
  std::string error;
  const std::size_t n_max = std::size_t{1} << max_log;
  const std::size_t d_count = std::min<std::size_t>(n_max, std::size_t{1} << 19);
  auto t0 = std::chrono::steady_clock::now();
  splitmix rng;
  const fr a = fr::random(rng), b = fr::random(rng);
  std::vector<ec::g2_jacobian> jac(d_count);
  jac[0] = ec::scalar_mul(ec::g2_jacobian::generator(), a);
  const ec::g2_jacobian step = ec::scalar_mul(ec::g2_jacobian::generator(), b);
  for (std::size_t d = 1; d < d_count; ++d) jac[d] = jac[d - 1] + step;
  std::vector<ec::g2_affine> distinct(d_count);
  ec::batch_to_affine(std::span<const ec::g2_jacobian>(jac), std::span<ec::g2_affine>(distinct));
  jac = {};
  cuda::g2_device_bases bases;
  if (!bases.upload_repeated(distinct, n_max, error)) die(error);
  cuda::device_fr_vector scalars;
  if (!scalars.resize(n_max, error) || !scalars.fill_random(12345, error)) die(error);
  std::vector<fr> host_scalars(n_max);
  if (!scalars.download(host_scalars, error)) die(error);
  std::printf("g2 setup: %zu distinct bases replicated to 2^%u, scalars on device: %.1f s\n", d_count, max_log,
              std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  auto expected_for = [&](const std::vector<fr>& sc, std::size_t n) {
    std::vector<fr> agg(std::min(n, d_count), fr::zero());
    for (std::size_t i = 0; i < n; ++i) agg[i % d_count] += sc[i];
    fr e = fr::zero(), dlog = a;
    for (std::size_t d = 0; d < agg.size(); ++d, dlog += b) e += agg[d] * dlog;
    return ec::scalar_mul(ec::g2_jacobian::generator(), e);
  };
  auto expected = [&](std::size_t n) { return expected_for(host_scalars, n); };
  auto ctx = cuda::g1_msm_context::create(error);
  if (!ctx) die(error);
  if (binary_only) {
    // The B_G2-sized split: the plain ones' pass, then the ones halved in chunks of 2^21 .. 2^26
    // entries (the default 2^26, the prover's 2^22) with 3..5 rounds (its rest of ~440K points
    // stays below affine_min_points).
    bool good = true;
    for (auto [rounds, pairs_log] :
         {std::pair{0u, 26u}, {4u, 26u}, {4u, 24u}, {4u, 23u}, {4u, 22u}, {4u, 21u}, {3u, 22u}, {5u, 22u}}) {
      cuda::g1_msm_options o;
      o.g2_affine_rounds = rounds;
      o.affine_max_pairs_per_sort = std::size_t{1} << pairs_log;
      std::printf("g2_affine_rounds %u, pairs 2^%u: ", rounds, pairs_log);
      good = bench_binary<cuda::g2_device_bases, ec::g2_jacobian>(
                 *ctx, bases, "g2", max_log, [&](const std::vector<fr>& sc) { return expected_for(sc, sc.size()); },
                 o) &&
             good;
    }
    return good ? 0 : 2;
  }
  auto run_once = [&](std::size_t n, ec::g2_jacobian& out) {
    const auto s = std::chrono::steady_clock::now();
    if (!ctx->msm(bases, scalars, n, out, error)) die(error);
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - s).count();
  };
  auto time_n = [&](std::size_t n, int reps, ec::g2_jacobian& out) {
    run_once(n, out);
    std::vector<double> t;
    for (int i = 0; i < reps; ++i) t.push_back(run_once(n, out));
    std::sort(t.begin(), t.end());
    return std::pair{t[t.size() / 2], t.front()};
  };
  auto set = [&](const cuda::g1_msm_options& o) {
    if (!ctx->set_options(o, error)) die(error);
  };
  if (affine_only) return run_g2_affine(*ctx, bases, scalars, max_log, min_log, expected) ? 0 : 2;
  std::printf("\n%-6s %3s %10s %10s %9s %6s | %7s %7s %7s %8s %7s %7s  check\n", "n", "c", "median_ms", "min_ms",
              "floor_ms", "ratio", "scalars", "digits", "sort", "accum", "reduce", "host");
  for (unsigned k = min_log; k <= max_log; ++k) {
    const std::size_t n = std::size_t{1} << k;
    ec::g2_jacobian out;
    const auto t = time_n(n, k >= 22 ? 5 : 9, out);
    const bool good = out.to_affine() == expected(n).to_affine();
    cuda::g1_msm_options o;
    o.profile = true;
    set(o);
    ec::g2_jacobian out2;
    run_once(n, out2);
    set({});
    const cuda::g1_msm_profile p = ctx->profile();
    const double floor = best_floor_ms(static_cast<double>(n), nullptr, g2_costs);
    std::printf("2^%-4u %3u %10.3f %10.3f %9.3f %6.2f | %7.2f %7.2f %7.2f %8.2f %7.2f %7.2f  %s\n", k, p.window_bits,
                t.first, t.second, floor, t.first / floor, p.scalars_ms, p.digits_ms, p.sort_ms, p.accumulate_ms,
                p.reduce_ms, p.host_ms, good ? "OK" : "MISMATCH");
    std::fflush(stdout);
    if (!good) return 2;
  }
  std::printf("\ng2 window x register cap (median of 3, ms; cap 1 = none, 2 = 128 registers):\n");
  for (unsigned k : {16u, 20u, 24u}) {
    if (k > max_log || k < min_log) continue;
    const std::size_t n = std::size_t{1} << k;
    const unsigned c0 = cuda::default_window_bits(n);
    std::printf("  2^%u:", k);
    for (unsigned c = c0 >= 4 ? c0 - 2 : 2; c <= std::min(c0 + 1, 23u); ++c)
      for (unsigned mb : {1u, 2u}) {
        cuda::g1_msm_options o;
        o.window_bits = c;
        o.g2_accumulate_min_blocks = mb;
        set(o);
        ec::g2_jacobian out;
        std::printf("  c=%u/%u %.2f", c, mb, time_n(n, 3, out).first);
        std::fflush(stdout);
      }
    std::printf("   (default c=%u)\n", c0);
  }
  set({});
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  const bool affine_mode = argc > 1 && std::string(argv[1]) == "affine";
  if (affine_mode) --argc, ++argv;
  const bool reduce_mode = argc > 1 && std::string(argv[1]) == "reduce";
  if (reduce_mode) --argc, ++argv;
  const bool binary_mode = argc > 1 && std::string(argv[1]) == "binary";
  if (binary_mode) --argc, ++argv;
  const bool streamed_mode = argc > 1 && std::string(argv[1]) == "streamed";
  if (streamed_mode) --argc, ++argv;
  if (argc > 1 && std::string(argv[1]) == "g2") {
    std::string error;
    cuda::device_info info;
    if (!cuda::get_device_info(info, error)) die(error);
    sm_hz = static_cast<double>(info.sm_count) * info.clock_khz * 1e3;
    std::printf("device: %s, %d SMs, %.0f MHz\n", info.name.c_str(), info.sm_count, info.clock_khz / 1e3);
    return run_g2(argc > 2 ? static_cast<unsigned>(std::atoi(argv[2])) : 24,
                  argc > 3 ? static_cast<unsigned>(std::atoi(argv[3])) : 16, binary_mode, affine_mode);
  }
  const unsigned max_log = argc > 1 ? static_cast<unsigned>(std::atoi(argv[1])) : affine_mode ? 26 : 27;
  const unsigned min_log = argc > 2   ? static_cast<unsigned>(std::atoi(argv[2]))
                           : affine_mode ? 20
                           : streamed_mode ? 24
                                           : 16;
  std::string error;
  cuda::device_info info;
  if (!cuda::get_device_info(info, error)) die(error);
  sm_hz = static_cast<double>(info.sm_count) * info.clock_khz * 1e3;
  std::printf("device: %s, %d SMs, %.0f MHz, %.1f GiB\n", info.name.c_str(), info.sm_count, info.clock_khz / 1e3,
              static_cast<double>(info.total_memory) / 1073741824.0);
  for (auto kind : {cuda::fp_mul_kernel::ptx32, cuda::fp_mul_kernel::portable64, cuda::fp_mul_kernel::ptx32_call}) {
    const double rate = cuda::measure_fp_mul_rate(kind, static_cast<std::size_t>(info.sm_count) * 2048, 2048, error);
    if (rate < 0) die(error);
    std::printf("Fp mul %-10s %.3e /s = %.2f SM-cycles per product (floor %.1f)\n", mul_name(kind), rate,
                sm_hz / rate, cycles_per_fp_product);
  }

  // --- bases with known discrete logs --------------------------------------------------------------
  const std::size_t n_max = std::size_t{1} << max_log;
  const std::size_t d_count = std::min<std::size_t>(n_max, std::size_t{1} << 20);
  auto t0 = std::chrono::steady_clock::now();
  uint64_t state = 0x9e3779b97f4a7c15ULL;
  auto rng = [&state] {  // splitmix64: fixed seed, reproducible bases
    uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  };
  const fr a = fr::random(rng), b = fr::random(rng);
  std::vector<ec::g1_jacobian> jac(d_count);
  jac[0] = ec::scalar_mul(ec::g1_jacobian::generator(), a);
  const ec::g1_jacobian step = ec::scalar_mul(ec::g1_jacobian::generator(), b);
  for (std::size_t d = 1; d < d_count; ++d) jac[d] = jac[d - 1] + step;
  std::vector<ec::g1_affine> distinct(d_count);
  ec::batch_to_affine(std::span<const ec::g1_jacobian>(jac), std::span<ec::g1_affine>(distinct));
  jac.clear();
  jac.shrink_to_fit();
  cuda::g1_device_bases bases;
  if (!bases.upload_repeated(distinct, n_max, error)) die(error);
  cuda::device_fr_vector scalars;
  if (!scalars.resize(n_max, error) || !scalars.fill_random(12345, error)) die(error);
  std::vector<fr> host_scalars(n_max);
  if (!scalars.download(host_scalars, error)) die(error);
  std::printf("setup: %zu distinct bases replicated to 2^%u, scalars on device: %.1f s\n", d_count, max_log,
              std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());

  auto expected_for = [&](const std::vector<fr>& sc, std::size_t n) {
    std::vector<fr> agg(std::min(n, d_count), fr::zero());
    for (std::size_t i = 0; i < n; ++i) agg[i % d_count] += sc[i];
    fr e = fr::zero(), dlog = a;
    for (std::size_t d = 0; d < agg.size(); ++d, dlog += b) e += agg[d] * dlog;
    return ec::scalar_mul(ec::g1_jacobian::generator(), e);
  };
  auto expected = [&](std::size_t n) { return expected_for(host_scalars, n); };

  auto ctx = cuda::g1_msm_context::create(error);
  if (!ctx) die(error);

  if (binary_mode) {
    // --- the 0/1 split on the PoRep mix: 2^max_log (an L or A MSM at 2^27) down to 2^min_log ---------
    // Each size with the ones listed (the default), with the pass over positions, and with the
    // listed ones halved by batch-affine rounds (g1_ones_rounds) at two range lengths.
    struct variant {
      bool listed;
      unsigned rounds, range;
    };
    const variant variants[] = {{true, 0, 32},  {false, 0, 32}, {true, 2, 32}, {true, 3, 32},
                                {true, 4, 32},  {true, 3, 64},  {true, 4, 64}, {true, 4, 128}};
    for (unsigned k = max_log; k + 1 > min_log && k >= 10; k -= 2)
      for (const variant& v : variants) {
        cuda::g1_msm_options o;
        o.g1_ones_listed = v.listed;
        o.g1_ones_rounds = v.rounds;
        o.affine_range = v.range;
        std::printf("g1_ones_listed %d rounds %u range %3u: ", v.listed ? 1 : 0, v.rounds, v.range);
        if (!bench_binary<cuda::g1_device_bases, ec::g1_jacobian>(
                *ctx, bases, "g1", k, [&](const std::vector<fr>& sc) { return expected_for(sc, sc.size()); }, o))
          return 2;
      }
    return 0;
  }
  if (streamed_mode) return run_streamed(*ctx, bases, scalars, max_log, min_log, expected_for, host_scalars) ? 0 : 2;
  auto run_once = [&](std::size_t n, ec::g1_jacobian& out) {
    const auto s = std::chrono::steady_clock::now();
    if (!ctx->msm(bases, scalars, n, out, error)) die(error);
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - s).count();
  };
  auto time_n = [&](std::size_t n, int reps, ec::g1_jacobian& out) {
    run_once(n, out);  // warm-up (scratch allocation)
    std::vector<double> t;
    for (int i = 0; i < reps; ++i) t.push_back(run_once(n, out));
    std::sort(t.begin(), t.end());
    return std::pair{t[t.size() / 2], t.front()};
  };
  auto set = [&](const cuda::g1_msm_options& o) {
    if (!ctx->set_options(o, error)) die(error);
  };
  // Median of 3 with options o, then one profiled run; both results checked against `want`.
  struct measured {
    std::pair<double, double> t;  // median, min
    cuda::g1_msm_profile p;
    bool good;
  };
  auto measure = [&](std::size_t n, cuda::g1_msm_options o, const ec::g1_affine& want) {
    set(o);
    ec::g1_jacobian out, out2;
    const auto t = time_n(n, 3, out);
    o.profile = true;
    set(o);
    run_once(n, out2);
    set({});
    return measured{t, ctx->profile(), out.to_affine() == want && out2.to_affine() == want};
  };

  if (affine_mode) {
    // --- batch-affine halving rounds against the plain XYZZ path ------------------------------------
    std::printf("\n%-6s %3s %6s %10s %10s %6s | %7s %7s %8s %8s %7s %7s | %9s %9s %6s  check\n", "n", "c", "rounds",
                "median_ms", "min_ms", "vs_0", "digits", "sort", "affine", "accum", "reduce", "host", "aff_cyc",
                "xyzz_cyc", "left%");
    for (unsigned k = min_log; k <= max_log; k += 2) {
      const std::size_t n = std::size_t{1} << k;
      const ec::g1_affine want = expected(n).to_affine();
      double plain = 0;
      for (unsigned rounds : {0u, 1u, 2u, 3u, 4u}) {
        cuda::g1_msm_options o;
        o.affine_rounds = rounds;
        const auto [t, p, good] = measure(n, o, want);
        if (rounds == 0) plain = t.first;
        const double adds = static_cast<double>(p.sorted_entries) - static_cast<double>(p.xyzz_entries);
        const double aff_cyc = adds > 0 ? p.affine_ms * 1e-3 * sm_hz / adds : 0;
        const double left = static_cast<double>(p.xyzz_entries);
        const double xyzz_cyc = left > 0 ? p.accumulate_ms * 1e-3 * sm_hz / left : 0;
        std::printf("2^%-4u %3u %6u %10.3f %10.3f %6.3f | %7.2f %7.2f %8.2f %8.2f %7.2f %7.2f | %9.1f %9.1f %6.1f"
                    "  %s%s\n",
                    k, p.window_bits, rounds, t.first, t.second, t.first / plain, p.digits_ms, p.sort_ms, p.affine_ms,
                    p.accumulate_ms, p.reduce_ms, p.host_ms, aff_cyc, xyzz_cyc,
                    100.0 * static_cast<double>(p.xyzz_entries) / static_cast<double>(p.sorted_entries),
                    good ? "OK" : "MISMATCH", p.affine_fallbacks ? " (memory fallback)" : "");
        std::fflush(stdout);
        if (!good) return 2;
      }
    }
    // Variants at 2^max_log, 1 to 3 rounds: local-memory running products (ranges of 512) and the
    // global scratch with affine_range 16 .. 1024.
    const std::size_t n = std::size_t{1} << max_log;
    const ec::g1_affine want = expected(n).to_affine();
    std::printf("\nvariants at 2^%u (median of 3, ms; affine-phase SM-cycles per addition):\n", max_log);
    for (unsigned rounds : {1u, 2u, 3u}) {
      for (unsigned range : {0u, 16u, 32u, 64u, 128u, 256u, 1024u}) {
        cuda::g1_msm_options o;
        o.affine_rounds = rounds;
        o.affine_local_prefix = range == 0;
        if (range) o.affine_range = range;
        const auto [t, p, good] = measure(n, o, want);
        const double adds = static_cast<double>(p.sorted_entries) - static_cast<double>(p.xyzz_entries);
        std::printf("  rounds %u %-14s %-5u %9.3f ms  affine %8.2f ms  %6.1f cyc/add  accum %7.2f ms  %s\n", rounds,
                    range ? "global, range" : "local, range", range ? range : 512u, t.first, p.affine_ms,
                    p.affine_ms * 1e-3 * sm_hz / adds, p.accumulate_ms, good ? "OK" : "MISMATCH");
        std::fflush(stdout);
      }
    }
    return 0;
  }

  if (reduce_mode) {
    // --- reduction segment size x window ------------------------------------------------------------
    std::printf("\n%-6s %3s %4s %3s %10s %8s  check\n", "n", "c", "g", "cap", "median_ms", "reduce");
    for (unsigned k : {24u, 26u, 27u}) {
      if (k > max_log) continue;
      const std::size_t n = std::size_t{1} << k;
      const ec::g1_affine want = expected(n).to_affine();
      const unsigned c0 = cuda::default_window_bits(n);
      for (unsigned c = c0; c <= c0 + 1; ++c)
        for (unsigned g : {32u, 64u, 128u})
          for (unsigned cap : {1u, 2u}) {
          cuda::g1_msm_options o;
          o.window_bits = c;
          o.reduce_segment = g;
          o.reduce_min_blocks = cap;
          const auto [t, p, good] = measure(n, o, want);
          std::printf("2^%-4u %3u %4u %3u %10.3f %8.2f  %s\n", k, c, g, cap, t.first, p.reduce_ms,
                      good ? "OK" : "MISMATCH");
          std::fflush(stdout);
          if (!good) return 2;
        }
      set({});
    }
    return 0;
  }

  // --- window sweep (measured window choice) ---------------------------------------------------------
  std::printf("\nwindow sweep (median of 3, ms):\n");
  for (unsigned k : {16u, 20u, 24u, 26u, 27u}) {
    if (k > max_log || k < min_log) continue;
    const std::size_t n = std::size_t{1} << k;
    const unsigned c0 = cuda::default_window_bits(n);
    std::printf("  2^%u:", k);
    for (unsigned c = c0 >= 4 ? c0 - 2 : 2; c <= std::min(c0 + 2, 23u); ++c) {
      cuda::g1_msm_options o;
      o.window_bits = c;
      set(o);
      ec::g1_jacobian out;
      const auto t = time_n(n, 3, out);
      std::printf("  c=%u %.2f", c, t.first);
      std::fflush(stdout);
    }
    std::printf("   (default c=%u)\n", c0);
  }
  set({});

  // --- multiplier x register cap of the accumulation kernel (256-thread blocks) ---------------------
  for (unsigned k : {20u, 24u, 26u}) {
    if (k > max_log || k < min_log) continue;
    const std::size_t n = std::size_t{1} << k;
    std::printf("multiplier / min_blocks 2^%u:", k);
    for (auto mul : {cuda::fp_mul_kernel::ptx32, cuda::fp_mul_kernel::ptx32_call, cuda::fp_mul_kernel::portable64})
      for (unsigned mb : {1u, 2u}) {
        if (mul == cuda::fp_mul_kernel::portable64 && k == 26) continue;
        if (mul != cuda::fp_mul_kernel::ptx32_call && mb != 2) continue;  // twins: capped only
        cuda::g1_msm_options o;
        o.mul = mul;
        o.accumulate_min_blocks = mb;
        set(o);
        ec::g1_jacobian out;
        std::printf("  %s/%u: %.2f ms", mul_name(mul), mb, time_n(n, 3, out).first);
        std::fflush(stdout);
      }
    std::printf("\n");
    set({});
  }

  // --- the sizes ---------------------------------------------------------------------------------------
  std::vector<row> rows;
  for (unsigned k = min_log; k <= max_log; ++k) {
    const std::size_t n = std::size_t{1} << k;
    ec::g1_jacobian out;
    const int reps = k >= 26 ? 5 : k >= 22 ? 7 : 11;
    const auto t = time_n(n, reps, out);
    const bool good = out.to_affine() == expected(n).to_affine();
    cuda::g1_msm_options o;
    o.profile = true;
    set(o);
    ec::g1_jacobian out2;
    run_once(n, out2);
    set({});
    const cuda::g1_msm_profile p = ctx->profile();
    rows.push_back({k, p.window_bits, t.first, t.second, best_floor_ms(static_cast<double>(n)), p, good});
    const row& r = rows.back();
    std::printf("msm 2^%-2u c=%-2u %10.3f ms (min %.3f) floor %.3f ratio %.2f  check %s\n", k, r.c, r.median_ms,
                r.min_ms, r.floor_ms, r.median_ms / r.floor_ms, good ? "OK" : "MISMATCH");
    std::fflush(stdout);
    if (!good) return 2;
  }

  std::printf("\n%-6s %3s %10s %10s %9s %6s %9s %7s | %7s %7s %7s %8s %7s %7s\n", "n", "c", "median_ms", "min_ms",
              "floor_ms", "ratio", "sppark", "vs_sp", "scalars", "digits", "sort", "accum", "reduce", "host");
  for (const row& r : rows) {
    const auto sp = sppark_ms.find(r.log_n);
    char spb[32] = "-", rb[32] = "-";
    if (sp != sppark_ms.end()) {
      std::snprintf(spb, sizeof spb, "%.2f", sp->second);
      std::snprintf(rb, sizeof rb, "%.2f", r.median_ms / sp->second);
    }
    std::printf("2^%-4u %3u %10.3f %10.3f %9.3f %6.2f %9s %7s | %7.2f %7.2f %7.2f %8.2f %7.2f %7.2f\n", r.log_n, r.c,
                r.median_ms, r.min_ms, r.floor_ms, r.median_ms / r.floor_ms, spb, rb, r.phases.scalars_ms,
                r.phases.digits_ms, r.phases.sort_ms, r.phases.accumulate_ms, r.phases.reduce_ms, r.phases.host_ms);
  }
  return 0;
}
