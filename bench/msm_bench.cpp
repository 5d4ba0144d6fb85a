// CPU MSM benchmarks: Pippenger through msm::multiexp (bellperson semantics) on G1 and G2 with
// random scalars at 1 and 2 threads, a PoRep-like G1 MSM (90% of scalars 0 or 1), and a window /
// accumulation sweep for tuning the cost model. Fixed seeds: runs are repeatable.
//
// Args: {log2 n, threads, forced window bits (0 = plan), accumulation (0 auto, 1 xyzz, 2 batch
// affine)}. Counters: ns_per_point (wall time / n), c (window bits the plan chose).
#include <benchmark/benchmark.h>

#include <memory>
#include <random>
#include <span>
#include <vector>

#include "base/executor.hpp"
#include "msm/msm.hpp"

namespace {

using namespace cuzk;
using cuzk::ff::fr;

// Pseudo-random bases: random start, one of 16 random steps per point (one addition per base).
template <class Curve>
const std::vector<ec::affine_point<Curve>>& bases(std::size_t n) {
  static std::vector<ec::affine_point<Curve>> cache;
  if (cache.size() < n) {
    using jac = ec::jacobian_point<Curve>;
    std::mt19937_64 rng(42);
    std::vector<jac> steps;
    for (int i = 0; i < 16; ++i) steps.push_back(ec::scalar_mul(jac::generator(), fr::random(rng)));
    std::vector<jac> pts(n);
    jac p = ec::scalar_mul(jac::generator(), fr::random(rng));
    for (auto& q : pts) q = p = p + steps[rng() % 16];
    cache.resize(n);
    ec::batch_to_affine(std::span<const jac>(pts), std::span<ec::affine_point<Curve>>(cache));
  }
  return cache;
}

std::vector<fr> scalars(std::size_t n, unsigned trivial_percent) {
  std::mt19937_64 rng(7);
  std::vector<fr> s(n);
  for (auto& x : s) {
    const unsigned u = static_cast<unsigned>(rng() % 100);
    if (u < trivial_percent / 2) x = fr::zero();
    else if (u < trivial_percent) x = fr::one();
    else x = fr::random(rng);
  }
  return s;
}

std::unique_ptr<base::executor> make_exec(std::size_t threads) {
  if (threads <= 1) return std::make_unique<base::serial_executor>();
  return base::make_thread_pool_executor(threads);
}

template <class Curve>
void run(benchmark::State& state, unsigned trivial_percent, bool forced = false) {
  const std::size_t n = std::size_t{1} << state.range(0);
  const auto& b = bases<Curve>(n);
  const auto s = scalars(n, trivial_percent);
  auto ex = make_exec(static_cast<std::size_t>(state.range(1)));
  msm::options opt;
  if (forced) {
    opt.window_bits = static_cast<unsigned>(state.range(2));
    opt.acc = static_cast<msm::accumulation>(state.range(3));
    opt.batch_size = static_cast<unsigned>(state.range(4));
  }
  for (auto _ : state) {
    auto r = msm::multiexp<Curve>(std::span<const ec::affine_point<Curve>>(b.data(), n), std::span<const fr>(s), *ex, opt);
    benchmark::DoNotOptimize(r);
  }
  std::size_t heavy = 0;
  for (const auto& x : s) heavy += !(x.is_zero() || x.is_one());
  const auto pl = msm::make_plan(heavy, ex->concurrency(), opt);
  state.counters["c"] = pl.window_bits;
  state.counters["k"] = pl.point_chunks;
  state.counters["batch_affine"] = pl.acc == msm::accumulation::batch_affine;
  state.counters["ns_per_point"] =
      benchmark::Counter(static_cast<double>(n), benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}

void bm_g1_msm(benchmark::State& state) { run<ec::g1_curve>(state, 0); }
void bm_g2_msm(benchmark::State& state) { run<ec::g2_curve>(state, 0); }
void bm_g1_msm_porep(benchmark::State& state) { run<ec::g1_curve>(state, 90); }
void sweep_g1_msm(benchmark::State& state) { run<ec::g1_curve>(state, 0, true); }

BENCHMARK(bm_g1_msm)->ArgsProduct({{16, 18, 20}, {1, 2}})->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(bm_g2_msm)->ArgsProduct({{16, 18, 20}, {1, 2}})->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(bm_g1_msm_porep)->ArgsProduct({{20}, {1, 2}})->Unit(benchmark::kMillisecond)->UseRealTime();
// Tuning sweep (filter with --benchmark_filter=sweep): G1 2^16, forced c, xyzz vs batch affine.
BENCHMARK(sweep_g1_msm)
    ->ArgsProduct({{16}, {1}, {10, 11, 12, 13, 14, 15, 16}, {1, 2}, {0}})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
// Window sweep at 2^20 (filter sweep_20).
BENCHMARK(sweep_g1_msm)
    ->Name("sweep_20_g1_msm")
    ->ArgsProduct({{20}, {1}, {15, 16, 17, 18}, {2}, {0}})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
// Batch-size sweep for batch affine (filter sweep_batch); args as above plus batch size.
BENCHMARK(sweep_g1_msm)
    ->Name("sweep_batch_g1_msm")
    ->ArgsProduct({{16}, {1}, {13, 14, 16}, {2}, {64, 128, 256, 512, 1024, 2048, 4096}})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
// The same at 2^20, c = 16 (filter sweep_batch_20).
BENCHMARK(sweep_g1_msm)
    ->Name("sweep_batch_20_g1_msm")
    ->ArgsProduct({{20}, {1}, {16}, {2}, {128, 256, 512, 1024, 2048}})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
