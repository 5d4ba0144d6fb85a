// Pairing-tower and pairing benchmarks. Reference points (base-field multiplications M, see
// src/pairing/pairing.cpp): Fp6 mul 18M, Fp12 mul 54M, Fp12 square 36M, cyclotomic square
// 18M, Miller loop ~6600M, final exponentiation ~8500M, pairing ~15000M; divide a figure by
// the Fp mul time (ff bench) times its M count to see the overhead of additions and copies.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <random>

#include "pairing/pairing.hpp"

namespace {

using cuzk::ec::g1_affine;
using cuzk::ec::g2_affine;
using cuzk::ff::fp12;
using cuzk::ff::fp6;
namespace pr = cuzk::pairing;

struct rng64 {
  std::mt19937_64 e{0x5eed};
  uint64_t operator()() { return e(); }
};

void BM_Fp6Mul(benchmark::State& st) {
  rng64 rng;
  fp6 a = fp6::random(rng);
  const fp6 b = fp6::random(rng);
  for (auto _ : st) {
    a = a * b;
    benchmark::DoNotOptimize(a);
  }
}
BENCHMARK(BM_Fp6Mul);

void BM_Fp6Square(benchmark::State& st) {
  rng64 rng;
  fp6 a = fp6::random(rng);
  for (auto _ : st) {
    a = a.square();
    benchmark::DoNotOptimize(a);
  }
}
BENCHMARK(BM_Fp6Square);

void BM_Fp12Mul(benchmark::State& st) {
  rng64 rng;
  fp12 a = fp12::random(rng);
  const fp12 b = fp12::random(rng);
  for (auto _ : st) {
    a = a * b;
    benchmark::DoNotOptimize(a);
  }
}
BENCHMARK(BM_Fp12Mul);

void BM_Fp12Square(benchmark::State& st) {
  rng64 rng;
  fp12 a = fp12::random(rng);
  for (auto _ : st) {
    a = a.square();
    benchmark::DoNotOptimize(a);
  }
}
BENCHMARK(BM_Fp12Square);

void BM_Fp12MulBy014(benchmark::State& st) {
  rng64 rng;
  fp12 a = fp12::random(rng);
  const fp12 b = fp12::random(rng);
  for (auto _ : st) {
    a = a.mul_by_014(b.c0.c0, b.c0.c1, b.c1.c1);
    benchmark::DoNotOptimize(a);
  }
}
BENCHMARK(BM_Fp12MulBy014);

void BM_Fp12CyclotomicSquare(benchmark::State& st) {
  // Any element works for timing; cyclotomic_square is only *correct* on the subgroup.
  fp12 a = pr::pairing(g1_affine::generator(), g2_affine::generator());
  for (auto _ : st) {
    a = a.cyclotomic_square();
    benchmark::DoNotOptimize(a);
  }
}
BENCHMARK(BM_Fp12CyclotomicSquare);

void BM_Fp12Inverse(benchmark::State& st) {
  rng64 rng;
  fp12 a = fp12::random(rng);
  for (auto _ : st) {
    a = a.inverse();
    benchmark::DoNotOptimize(a);
  }
}
BENCHMARK(BM_Fp12Inverse);

void BM_Fp12Frobenius1(benchmark::State& st) {
  rng64 rng;
  fp12 a = fp12::random(rng);
  for (auto _ : st) {
    a = a.frobenius(1);
    benchmark::DoNotOptimize(a);
  }
}
BENCHMARK(BM_Fp12Frobenius1);

void BM_MillerLoop(benchmark::State& st) {
  const g1_affine p = g1_affine::generator();
  const g2_affine q = g2_affine::generator();
  for (auto _ : st) benchmark::DoNotOptimize(pr::miller_loop(p, q));
}
BENCHMARK(BM_MillerLoop)->Unit(benchmark::kMicrosecond);

void BM_MillerLoopPrepared(benchmark::State& st) {
  const g1_affine p = g1_affine::generator();
  const pr::g2_prepared q(g2_affine::generator());
  for (auto _ : st) benchmark::DoNotOptimize(pr::miller_loop(p, q));
}
BENCHMARK(BM_MillerLoopPrepared)->Unit(benchmark::kMicrosecond);

void BM_G2Prepare(benchmark::State& st) {
  const g2_affine q = g2_affine::generator();
  for (auto _ : st) {
    pr::g2_prepared prep(q);
    benchmark::DoNotOptimize(prep);
  }
}
BENCHMARK(BM_G2Prepare)->Unit(benchmark::kMicrosecond);

void BM_FinalExponentiation(benchmark::State& st) {
  const fp12 f = pr::miller_loop(g1_affine::generator(), g2_affine::generator());
  for (auto _ : st) benchmark::DoNotOptimize(pr::final_exponentiation(f));
}
BENCHMARK(BM_FinalExponentiation)->Unit(benchmark::kMicrosecond);

void BM_Pairing(benchmark::State& st) {
  const g1_affine p = g1_affine::generator();
  const g2_affine q = g2_affine::generator();
  for (auto _ : st) benchmark::DoNotOptimize(pr::pairing(p, q));
}
BENCHMARK(BM_Pairing)->Unit(benchmark::kMicrosecond);

// e(P, Q) e(-P, Q) == 1: the shape of a signature / proof check.
void BM_PairingCheck2(benchmark::State& st) {
  const g1_affine p = g1_affine::generator();
  const g2_affine q = g2_affine::generator();
  const pr::g1g2_pair terms[] = {{p, q}, {-p, q}};
  for (auto _ : st) benchmark::DoNotOptimize(pr::pairing_check(terms));
}
BENCHMARK(BM_PairingCheck2)->Unit(benchmark::kMicrosecond);

void BM_PairingCheck2Prepared(benchmark::State& st) {
  const g1_affine p = g1_affine::generator();
  const pr::g2_prepared q(g2_affine::generator());
  const pr::g1_prepared_pair terms[] = {{p, &q}, {-p, &q}};
  for (auto _ : st) benchmark::DoNotOptimize(pr::pairing_check(terms));
}
BENCHMARK(BM_PairingCheck2Prepared)->Unit(benchmark::kMicrosecond);

}  // namespace

BENCHMARK_MAIN();
