// GPU benchmark for the CUDA backend: Fr multiplication rate, NTTs 2^16..2^max and the h
// pipeline 2^20..2^max, data resident on the device, timed with CUDA events (median of several
// runs after warm-ups). Prints each figure with its floor and the ratio, table last.
// Plain C++ over ntt_cuda.hpp; run on the GPU machine by scripts/device-bench.
//
// Floors (docs/gpu.md derives them):
//   mul floor  one Fr Montgomery product, 32-bit limbs: 8 rows x (8 + 8 lo, 8 + 8 hi) + 8 =
//              264 IMAD-class instructions; at 64 per SM-clock: 4.125 SM-cycles per product.
//   NTT        (n/2) log2 n products (the butterflies); time = products * 4.125 / (SMs * clock).
//   memory     each pass reads and writes 32 B per element: passes * 64 B * n / 4.8 TB/s.
//   floor = max(compute, memory); ratio = measured / floor.
// Usage: cuda_bench [max_log (default 27)] [reps scale (default 1)]
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <vector>

#include "backend/cuda/ntt_cuda.hpp"

namespace {

namespace cuda = cuzk::cuda;
using cuzk::poly::ntt_direction;
using cuzk::poly::ntt_order;

constexpr double imad_per_mul = 264;        // see the header comment
constexpr double imad_per_sm_clock = 64;    // IMAD throughput per SM per clock (measured 63.6)
constexpr double hbm_bytes_per_s = 4.8e12;  // H200 datasheet

struct row {
  std::string op;
  unsigned log_n;
  double median_ms, min_ms, mul_floor_ms, mem_floor_ms;
  std::string note;
};

std::vector<row> rows;
double sm_hz = 0;  // SMs * clock

[[noreturn]] void die(const std::string& what) {
  std::fprintf(stderr, "cuda_bench: %s\n", what.c_str());
  std::exit(1);
}

// Median and min over reps of fn(), timed with events on the context's stream.
std::pair<double, double> time_it(cuda::ntt_context& ctx, int warmups, int reps, const std::function<void()>& fn) {
  std::string error;
  for (int i = 0; i < warmups; ++i) fn();
  if (!ctx.synchronize(error)) die(error);
  std::vector<double> t;
  for (int i = 0; i < reps; ++i) {
    if (!ctx.mark_start(error)) die(error);
    fn();
    const double ms = ctx.elapsed_ms(error);
    if (ms < 0) die(error);
    t.push_back(ms);
  }
  std::sort(t.begin(), t.end());
  return {t[t.size() / 2], t.front()};
}

double mul_floor_ms(double products) { return products * (imad_per_mul / imad_per_sm_clock) / sm_hz * 1e3; }
double mem_floor_ms(double bytes) { return bytes / hbm_bytes_per_s * 1e3; }
// Memory passes of a transform (sizes under 2^3 run the reference: one pass per stage).
unsigned passes_for(unsigned log_n, unsigned kmax) {
  cuda::ntt_options o;
  o.max_stages_per_pass = kmax;
  return log_n < 3 ? log_n : cuda::ntt_pass_count(o, log_n);
}

void add_row(const std::string& op, unsigned log_n, std::pair<double, double> t, double products, double bytes,
             const std::string& note = "") {
  rows.push_back({op, log_n, t.first, t.second, mul_floor_ms(products), mem_floor_ms(bytes), note});
  const row& r = rows.back();
  std::printf("%-28s 2^%-2u %10.3f ms (min %.3f)  floor mul %.3f mem %.3f  ratio %.2f %s\n", op.c_str(), log_n,
              r.median_ms, r.min_ms, r.mul_floor_ms, r.mem_floor_ms,
              r.median_ms / std::max(r.mul_floor_ms, r.mem_floor_ms), note.c_str());
  std::fflush(stdout);
}

}  // namespace

int main(int argc, char** argv) {
  const unsigned max_log = argc > 1 ? static_cast<unsigned>(std::atoi(argv[1])) : 27;
  const double rep_scale = argc > 2 ? std::atof(argv[2]) : 1.0;
  std::string error;
  cuda::device_info info;
  if (!cuda::get_device_info(info, error)) die(error);
  sm_hz = static_cast<double>(info.sm_count) * info.clock_khz * 1e3;
  std::printf("device: %s, %d SMs, %.0f MHz, %.1f GiB\n", info.name.c_str(), info.sm_count, info.clock_khz / 1e3,
              static_cast<double>(info.total_memory) / 1073741824.0);

  // --- Fr multiplication throughput -------------------------------------------------------------
  for (auto kind : {cuda::fr_mul_kernel::ptx32, cuda::fr_mul_kernel::portable64, cuda::fr_mul_kernel::cios32,
                    cuda::fr_mul_kernel::wide32}) {
    const double rate = cuda::measure_fr_mul_rate(kind, static_cast<std::size_t>(info.sm_count) * 2048, 4096, error);
    if (rate < 0) die(error);
    std::printf("Fr mul %-10s %.3e /s = %.2f SM-cycles per product (floor %.3f)\n", cuda::fr_mul_name(kind), rate,
                sm_hz / rate, imad_per_mul / imad_per_sm_clock);
  }

  auto ctx = cuda::ntt_context::create(max_log, error);
  if (!ctx) die(error);
  const unsigned kmax = ctx->options().max_stages_per_pass;
  auto reps_for = [&](unsigned k) { return std::max(3, static_cast<int>(rep_scale * (k >= 26 ? 7 : k >= 22 ? 15 : 40))); };

  // --- correctness spot check at the largest size: forward NR then inverse RN is the identity ---
  {
    const unsigned check_log = std::min(max_log, 27u);
    const std::size_t n = std::size_t{1} << check_log;
    cuda::device_fr_vector d, e;
    if (!d.resize(n, error) || !d.fill_random(7, error)) die(error);
    if (!ctx->ntt(d, ntt_direction::forward, ntt_order::natural_to_bit_reversed, error) ||
        !ctx->ntt(d, ntt_direction::inverse, ntt_order::bit_reversed_to_natural, error) || !ctx->synchronize(error))
      die(error);
    if (!e.resize(n, error) || !e.fill_random(7, error)) die(error);
    std::vector<cuzk::ff::fr> x(n), y(n);
    if (!d.download(x, error) || !e.download(y, error)) die(error);
    std::printf("check 2^%u forward NR -> inverse RN round trip: %s\n", check_log, x == y ? "OK" : "MISMATCH");
    if (x != y) return 2;
  }

  // --- NTTs ---------------------------------------------------------------------------------------
  for (unsigned k = 16; k <= max_log; ++k) {
    const std::size_t n = std::size_t{1} << k;
    const double nd = static_cast<double>(n);
    cuda::device_fr_vector d;
    if (!d.resize(n, error) || !d.fill_random(k, error)) die(error);
    const double bfly = 0.5 * nd * k;
    const double pass_bytes = 64.0 * nd * passes_for(k, kmax);
    auto run = [&](ntt_direction dir, ntt_order order, bool coset) {
      return [&, dir, order, coset] {
        std::string err;
        if (!(coset ? ctx->coset_ntt(d, dir, order, err) : ctx->ntt(d, dir, order, err))) die(err);
      };
    };
    const int reps = reps_for(k);
    add_row("ntt fwd NR", k, time_it(*ctx, 2, reps, run(ntt_direction::forward, ntt_order::natural_to_bit_reversed, false)),
            bfly, pass_bytes);
    add_row("ntt fwd RN", k, time_it(*ctx, 2, reps, run(ntt_direction::forward, ntt_order::bit_reversed_to_natural, false)),
            bfly, pass_bytes);
    add_row("ntt inv NR", k, time_it(*ctx, 2, reps, run(ntt_direction::inverse, ntt_order::natural_to_bit_reversed, false)),
            bfly + nd, pass_bytes);
    add_row("ntt fwd NN", k, time_it(*ctx, 2, reps, run(ntt_direction::forward, ntt_order::natural_to_natural, false)),
            bfly, pass_bytes + 64.0 * nd, "+bit reversal");
    add_row("coset ntt fwd NN", k,
            time_it(*ctx, 2, reps, run(ntt_direction::forward, ntt_order::natural_to_natural, true)), bfly + 2.0 * nd,
            pass_bytes + 64.0 * nd, "+g^i, bit reversal");
  }

  // --- tuning: pass split and columns per tile, and the portable multiplier ----------------------
  for (unsigned k : {24u, std::min(max_log, 27u)}) {
    if (k > max_log) continue;
    const std::size_t n = std::size_t{1} << k;
    const double nd = static_cast<double>(n);
    cuda::device_fr_vector d;
    if (!d.resize(n, error) || !d.fill_random(k, error)) die(error);
    auto fwd = [&] {
      std::string err;
      if (!ctx->ntt(d, ntt_direction::forward, ntt_order::natural_to_bit_reversed, err)) die(err);
    };
    for (auto mul : {cuda::fr_mul_kernel::portable64, cuda::fr_mul_kernel::ptx32, cuda::fr_mul_kernel::cios32,
                     cuda::fr_mul_kernel::wide32})
      for (unsigned km : {8u, 9u, 10u})
        for (unsigned lanes : {2u, 4u, 8u}) {
          if (km == 8 && lanes == 2) continue;  // never the best (docs/gpu.md)
          cuda::ntt_options o;
          o.mul = mul;
          o.max_stages_per_pass = km;
          o.lanes = lanes;
          if (!ctx->set_options(o, error)) die(error);
          add_row(std::string("tune fwd NR ") + cuda::fr_mul_name(mul) +
                      " K<=" + std::to_string(km) + " L=" + std::to_string(lanes),
                  k, time_it(*ctx, 1, std::max(3, reps_for(k) / 2), fwd), 0.5 * nd * k,
                  64.0 * nd * passes_for(k, km));
        }
    // The default multiplier, both orders: 8 or 4 elements per thread, blocks per SM (8: 2 = 16
    // warps, 3 = 24 warps with spills; 4: 3 = 24 warps at 76 registers, 4 = 32 warps, spills).
    struct variant {
      unsigned ept, mb, lanes;
    };
    for (const variant& v : {variant{8, 2, 2}, variant{8, 2, 4}, variant{8, 3, 2}, variant{8, 3, 4}, variant{4, 3, 2},
                             variant{4, 4, 2}, variant{4, 3, 4}, variant{4, 4, 4}}) {
      cuda::ntt_options o;
      o.elements_per_thread = v.ept;
      o.min_blocks = v.mb;
      o.lanes = v.lanes;
      if (!ctx->set_options(o, error)) die(error);
      const std::string tag = " ptx32 " + std::to_string(v.ept) + "/thr " + std::to_string(v.mb) +
                              " blk/SM L=" + std::to_string(v.lanes);
      add_row("tune fwd NR" + tag, k, time_it(*ctx, 1, std::max(3, reps_for(k) / 2), fwd),
              0.5 * nd * k, 64.0 * nd * passes_for(k, o.max_stages_per_pass));
      add_row("tune fwd RN" + tag, k,
              time_it(*ctx, 1, std::max(3, reps_for(k) / 2),
                      [&] {
                        std::string err;
                        if (!ctx->ntt(d, ntt_direction::forward, ntt_order::bit_reversed_to_natural, err)) die(err);
                      }),
              0.5 * nd * k, 64.0 * nd * passes_for(k, o.max_stages_per_pass));
    }
    if (!ctx->set_options({}, error)) die(error);
  }

  // --- h pipeline -----------------------------------------------------------------------------------
  for (unsigned k = 20; k <= max_log && k <= 27; ++k) {
    const std::size_t n = std::size_t{1} << k;
    const double nd = static_cast<double>(n);
    cuda::device_fr_vector a, b, c;
    if (!a.resize(n, error) || !b.resize(n, error) || !c.resize(n, error)) die(error);
    auto h = [&] {
      std::string err;
      // Inputs are overwritten by each run; refilling is outside the timed region below, and
      // the arithmetic cost does not depend on the values.
      if (!ctx->compute_h(a, b, c, err)) die(err);
    };
    if (!a.fill_random(1, error) || !b.fill_random(2, error) || !c.fill_random(3, error)) die(error);
    // 6 transforms of (n/2) k products; 8 products per element for the folded powers / scales
    // and a*b; memory: 6 transforms' passes + the read of b in the fused pass + the bit reversal
    // that also reads c.
    const double products = 6 * 0.5 * nd * k + 8.0 * nd;
    const double bytes = 6 * 64.0 * nd * passes_for(k, kmax) + 128.0 * nd;
    add_row("h pipeline (6 NTTs)", k, time_it(*ctx, 1, std::max(3, reps_for(k) / 2), h), products, bytes);
    if (k == std::min(max_log, 27u)) {
      for (auto mul : {cuda::fr_mul_kernel::ptx32, cuda::fr_mul_kernel::portable64, cuda::fr_mul_kernel::cios32,
                       cuda::fr_mul_kernel::wide32}) {
        if (mul == cuda::ntt_options{}.mul) continue;
        cuda::ntt_options o;
        o.mul = mul;
        if (!ctx->set_options(o, error)) die(error);
        add_row(std::string("h pipeline ") + cuda::fr_mul_name(mul), k, time_it(*ctx, 1, 3, h), products, bytes);
      }
      // Register caps and columns of the 4-element kernel (twice, in alternating order: the
      // differences are a few ms), then the 8-element kernel.
      struct variant {
        unsigned ept, mb, lanes;
      };
      for (int round = 0; round < 2; ++round)
        for (const variant& v : {variant{4, 4, 4}, variant{4, 3, 2}, variant{4, 4, 2}, variant{4, 3, 4}, variant{8, 2, 4}}) {
          if (round == 1 && v.ept == 8) continue;
          cuda::ntt_options o;
          o.elements_per_thread = v.ept;
          o.min_blocks = v.mb;
          o.lanes = v.lanes;
          if (!ctx->set_options(o, error)) die(error);
          add_row("h pipeline " + std::to_string(v.ept) + "/thr " + std::to_string(v.mb) +
                      " blk/SM L=" + std::to_string(v.lanes),
                  k, time_it(*ctx, 1, 3, h), products, bytes);
        }
      if (!ctx->set_options({}, error)) die(error);
    }
  }

  // --- the table -----------------------------------------------------------------------------------
  std::printf("\n%-28s %5s %11s %11s %11s %11s %7s  %s\n", "op", "n", "median_ms", "min_ms", "floor_mul", "floor_mem",
              "ratio", "note");
  for (const row& r : rows)
    std::printf("%-28s  2^%-2u %11.3f %11.3f %11.3f %11.3f %7.2f  %s\n", r.op.c_str(), r.log_n, r.median_ms,
                r.min_ms, r.mul_floor_ms, r.mem_floor_ms, r.median_ms / std::max(r.mul_floor_ms, r.mem_floor_ms),
                r.note.c_str());
  return 0;
}
