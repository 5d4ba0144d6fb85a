// Field arithmetic latency: every benchmark chains its result into the next input (x = x op y),
// so the figure is the latency of one dependent operation, and nothing can be hoisted or
// optimised away. Run pinned: `taskset -c 1 build/.../bench/ff_bench`.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <random>

#include "ff/bls12_381.hpp"
#include "ff/fp2.hpp"

namespace {

using cuzk::ff::fp;
using cuzk::ff::fp2;
using cuzk::ff::fr;

std::mt19937_64& rng() {
  static std::mt19937_64 g(0x5eed);
  return g;
}

template <class F>
void bm_mul(benchmark::State& state) {
  F x = F::random(rng()), y = F::random(rng());
  for (auto _ : state) {
    x = F::mul(x, y);
    benchmark::DoNotOptimize(x);
  }
}

template <class F>
void bm_mul_portable(benchmark::State& state) {
  F x = F::random(rng()), y = F::random(rng());
  for (auto _ : state) {
    x = F::mul_portable(x, y);
    benchmark::DoNotOptimize(x);
  }
}

template <class F>
void bm_square(benchmark::State& state) {
  F x = F::random(rng());
  for (auto _ : state) {
    x = F::square(x);
    benchmark::DoNotOptimize(x);
  }
}

template <class F>
void bm_square_portable(benchmark::State& state) {
  F x = F::random(rng());
  for (auto _ : state) {
    x = F::square_portable(x);
    benchmark::DoNotOptimize(x);
  }
}

template <class F>
void bm_add(benchmark::State& state) {
  F x = F::random(rng()), y = F::random(rng());
  for (auto _ : state) {
    x = x + y;
    benchmark::DoNotOptimize(x);
  }
}

template <class F>
void bm_sub(benchmark::State& state) {
  F x = F::random(rng()), y = F::random(rng());
  for (auto _ : state) {
    x = x - y;
    benchmark::DoNotOptimize(x);
  }
}

template <class F>
void bm_neg(benchmark::State& state) {
  F x = F::random(rng());
  for (auto _ : state) {
    x = -x + x.dbl();  // keeps x non-zero and the chain dependent: 3 ops per iteration
    benchmark::DoNotOptimize(x);
  }
}

template <class F>
void bm_inverse(benchmark::State& state) {
  F x = F::random(rng());
  for (auto _ : state) {
    x = x.inverse() + F::one();  // + 1 keeps x non-zero-ish and the chain dependent
    benchmark::DoNotOptimize(x);
  }
}

template <class F>
void bm_inverse_fermat(benchmark::State& state) {
  F x = F::random(rng());
  for (auto _ : state) {
    x = x.pow(F::p_minus_2) + F::one();
    benchmark::DoNotOptimize(x);
  }
}

template <class F>
void bm_sqrt(benchmark::State& state) {
  F x = F::random(rng()).square();
  for (auto _ : state) {
    F s = F::zero();
    bool ok = x.sqrt(s);
    benchmark::DoNotOptimize(ok);
    x = (s + F::one()).square();  // next input: a square that depends on this root
  }
}

void bm_fp2_mul(benchmark::State& state) {
  fp2 x = fp2::random(rng()), y = fp2::random(rng());
  for (auto _ : state) {
    x = x * y;
    benchmark::DoNotOptimize(x);
  }
}

// The generic twins of the lazy-reduction Fp2 products (what device code and constant
// expressions run), for comparison with fp2_mul / fp2_square.
void bm_fp2_mul_karatsuba(benchmark::State& state) {
  fp2 x = fp2::random(rng()), y = fp2::random(rng());
  for (auto _ : state) {
    x = fp2::mul_karatsuba(x, y);
    benchmark::DoNotOptimize(x);
  }
}

void bm_fp2_square_complex(benchmark::State& state) {
  fp2 x = fp2::random(rng());
  for (auto _ : state) {
    x = fp2::square_complex(x);
    benchmark::DoNotOptimize(x);
  }
}

void bm_fp2_square(benchmark::State& state) {
  fp2 x = fp2::random(rng());
  for (auto _ : state) {
    x = x.square();
    benchmark::DoNotOptimize(x);
  }
}

}  // namespace

BENCHMARK(bm_mul<fp>)->Name("fp_mul");
BENCHMARK(bm_mul_portable<fp>)->Name("fp_mul_portable");
BENCHMARK(bm_square<fp>)->Name("fp_square");
BENCHMARK(bm_square_portable<fp>)->Name("fp_square_portable");
BENCHMARK(bm_add<fp>)->Name("fp_add");
BENCHMARK(bm_sub<fp>)->Name("fp_sub");
BENCHMARK(bm_neg<fp>)->Name("fp_neg_dbl_add");
BENCHMARK(bm_inverse<fp>)->Name("fp_inverse");
BENCHMARK(bm_inverse_fermat<fp>)->Name("fp_inverse_fermat");
BENCHMARK(bm_sqrt<fp>)->Name("fp_sqrt");
BENCHMARK(bm_mul<fr>)->Name("fr_mul");
BENCHMARK(bm_mul_portable<fr>)->Name("fr_mul_portable");
BENCHMARK(bm_square<fr>)->Name("fr_square");
BENCHMARK(bm_add<fr>)->Name("fr_add");
BENCHMARK(bm_sub<fr>)->Name("fr_sub");
BENCHMARK(bm_inverse<fr>)->Name("fr_inverse");
BENCHMARK(bm_sqrt<fr>)->Name("fr_sqrt");
BENCHMARK(bm_fp2_mul)->Name("fp2_mul");
BENCHMARK(bm_fp2_square)->Name("fp2_square");
BENCHMARK(bm_fp2_mul_karatsuba)->Name("fp2_mul_karatsuba");
BENCHMARK(bm_fp2_square_complex)->Name("fp2_square_complex");

BENCHMARK_MAIN();
