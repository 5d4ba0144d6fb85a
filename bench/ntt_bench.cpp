// Fr NTT and the Groth16 h pipeline on the CPU (poly/ntt.hpp).
//
// Floor: an NTT of size n does (n/2) log2 n butterflies, each 1 Fr multiplication + 2
// additions (those with twiddle 1, ~n in all, skip the multiplication). At ~20 ns per
// multiplication: 2^16 ~ 10 ms, 2^20 ~ 0.2 s, 2^22 ~ 0.9 s on one core. The h pipeline is
// 7 NTTs + 9n multiplications.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <map>
#include <memory>
#include <random>
#include <vector>

#include "base/executor.hpp"
#include "poly/ntt.hpp"

namespace {

using cuzk::poly::fr;

std::vector<fr> random_vec(std::size_t n, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<fr> v(n);
  for (auto& x : v) x = fr::random(rng);
  return v;
}

cuzk::base::executor& executor_for(int threads) {
  static std::map<int, std::unique_ptr<cuzk::base::executor>> pools;
  auto& p = pools[threads];
  if (!p) p = cuzk::base::make_thread_pool_executor(static_cast<std::size_t>(threads));
  return *p;
}

const cuzk::poly::ntt_plan& plan_for(unsigned log_n) {
  static std::map<unsigned, std::unique_ptr<cuzk::poly::ntt_plan>> plans;
  auto& p = plans[log_n];
  if (!p) p = std::make_unique<cuzk::poly::ntt_plan>(cuzk::poly::radix2_domain::of_log_size(log_n), executor_for(0));
  return *p;
}

void set_counters(benchmark::State& state, unsigned log_n, double ntts) {
  const double n = static_cast<double>(uint64_t{1} << log_n);
  state.counters["butterflies"] = benchmark::Counter(ntts * n / 2 * log_n);
  state.counters["ns_per_butterfly"] = benchmark::Counter(
      ntts * n / 2 * log_n, benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}

// Calibration: Fr multiplications, 8 independent chains (throughput) over a 32 KiB array.
void BM_fr_mul(benchmark::State& state) {
  auto v = random_vec(1024, 5);
  const fr m = v[0];
  for (auto _ : state) {
    for (std::size_t i = 0; i < v.size(); i += 8)
      for (std::size_t k = 0; k < 8; ++k) v[i + k] = v[i + k] * m;
    benchmark::DoNotOptimize(v.data());
  }
  state.counters["ns_per_mul"] = benchmark::Counter(static_cast<double>(v.size()),
      benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}
BENCHMARK(BM_fr_mul);

// args: log2 n, threads
void BM_ntt_forward(benchmark::State& state) {
  const auto log_n = static_cast<unsigned>(state.range(0));
  auto& ex = executor_for(static_cast<int>(state.range(1)));
  const auto& plan = plan_for(log_n);
  auto a = random_vec(plan.size(), 1);
  for (auto _ : state) {
    cuzk::poly::ntt(plan, a, cuzk::poly::ntt_direction::forward, cuzk::poly::ntt_order::natural_to_natural, ex);
    benchmark::DoNotOptimize(a.data());
  }
  set_counters(state, log_n, 1);
}
BENCHMARK(BM_ntt_forward)
    ->ArgsProduct({{16, 18, 20, 22}, {1, 2}})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

// natural -> bit-reversed (no permutation pass), as the h pipeline uses it.
void BM_ntt_forward_nr(benchmark::State& state) {
  const auto log_n = static_cast<unsigned>(state.range(0));
  auto& ex = executor_for(static_cast<int>(state.range(1)));
  const auto& plan = plan_for(log_n);
  auto a = random_vec(plan.size(), 1);
  for (auto _ : state) {
    cuzk::poly::ntt(plan, a, cuzk::poly::ntt_direction::forward, cuzk::poly::ntt_order::natural_to_bit_reversed, ex);
    benchmark::DoNotOptimize(a.data());
  }
  set_counters(state, log_n, 1);
}
BENCHMARK(BM_ntt_forward_nr)->ArgsProduct({{20}, {1, 2}})->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_coset_ntt_forward(benchmark::State& state) {
  const auto log_n = static_cast<unsigned>(state.range(0));
  auto& ex = executor_for(static_cast<int>(state.range(1)));
  const auto& plan = plan_for(log_n);
  auto a = random_vec(plan.size(), 2);
  for (auto _ : state) {
    cuzk::poly::coset_ntt(plan, a, cuzk::poly::ntt_direction::forward, cuzk::poly::ntt_order::natural_to_natural, ex);
    benchmark::DoNotOptimize(a.data());
  }
  set_counters(state, log_n, 1);
}
BENCHMARK(BM_coset_ntt_forward)->ArgsProduct({{20}, {1, 2}})->Unit(benchmark::kMillisecond)->UseRealTime();

// The full h pipeline (6 NTTs); inputs are re-copied outside the timed region.
void BM_compute_h(benchmark::State& state) {
  const auto log_n = static_cast<unsigned>(state.range(0));
  auto& ex = executor_for(static_cast<int>(state.range(1)));
  const auto& plan = plan_for(log_n);
  const auto a0 = random_vec(plan.size(), 3), b0 = random_vec(plan.size(), 4);
  std::vector<fr> c0(plan.size());
  for (std::size_t i = 0; i < c0.size(); ++i) c0[i] = a0[i] * b0[i];
  std::vector<fr> a, b, c;
  for (auto _ : state) {
    state.PauseTiming();
    a = a0, b = b0, c = c0;
    state.ResumeTiming();
    cuzk::poly::compute_h(plan, a, b, c, ex);
    benchmark::DoNotOptimize(a.data());
  }
  set_counters(state, log_n, 6);
}
BENCHMARK(BM_compute_h)->ArgsProduct({{16, 20}, {1, 2}})->Unit(benchmark::kMillisecond)->UseRealTime();

// Building the twiddle table (once per domain size).
void BM_plan(benchmark::State& state) {
  const auto log_n = static_cast<unsigned>(state.range(0));
  auto& ex = executor_for(static_cast<int>(state.range(1)));
  for (auto _ : state) {
    cuzk::poly::ntt_plan plan(cuzk::poly::radix2_domain::of_log_size(log_n), ex);
    benchmark::DoNotOptimize(plan.twiddles().data());
  }
}
BENCHMARK(BM_plan)->ArgsProduct({{20}, {1, 2}})->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
