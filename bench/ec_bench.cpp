// Curve-arithmetic micro-benchmarks (CPU). Each iteration feeds its result into the next so the
// compiler can neither hoist nor drop the work. Fixed seeds: benchmarks must be repeatable.
#include <benchmark/benchmark.h>

#include <array>
#include <random>
#include <span>
#include <vector>

#include "ec/encoding.hpp"
#include "ec/point.hpp"
#include "ec/subgroup.hpp"

namespace {

using namespace cuzk::ec;
using cuzk::ff::fr;

template <class Curve>
jacobian_point<Curve> point_from_seed(uint64_t seed) {
  std::mt19937_64 rng(seed);
  return scalar_mul(jacobian_point<Curve>::generator(), fr::random(rng));
}

void bm_g1_add(benchmark::State& state) {
  g1_jacobian a = point_from_seed<g1_curve>(1), b = point_from_seed<g1_curve>(2);
  for (auto _ : state) {
    a = a + b;
    benchmark::DoNotOptimize(a);
  }
}
BENCHMARK(bm_g1_add);

void bm_g1_double(benchmark::State& state) {
  g1_jacobian a = point_from_seed<g1_curve>(1);
  for (auto _ : state) {
    a = a.dbl();
    benchmark::DoNotOptimize(a);
  }
}
BENCHMARK(bm_g1_double);

void bm_g1_add_mixed(benchmark::State& state) {
  g1_jacobian a = point_from_seed<g1_curve>(1);
  g1_affine b = point_from_seed<g1_curve>(2).to_affine();
  for (auto _ : state) {
    a = a + b;
    benchmark::DoNotOptimize(a);
  }
}
BENCHMARK(bm_g1_add_mixed);

void bm_g1_xyzz_add_mixed(benchmark::State& state) {
  g1_xyzz a = g1_xyzz::from_jacobian(point_from_seed<g1_curve>(1));
  g1_affine b = point_from_seed<g1_curve>(2).to_affine();
  for (auto _ : state) {
    a = a + b;
    benchmark::DoNotOptimize(a);
  }
}
BENCHMARK(bm_g1_xyzz_add_mixed);

// XYZZ + XYZZ; for G2 also the doubling: the operations of the GPU MSMs' host finish (window
// sums added, Horner doublings).
template <class Curve>
void xyzz_add_loop(benchmark::State& state) {
  xyzz_point<Curve> a = xyzz_point<Curve>::from_jacobian(point_from_seed<Curve>(1));
  const xyzz_point<Curve> b = xyzz_point<Curve>::from_jacobian(point_from_seed<Curve>(2));
  for (auto _ : state) {
    a = a + b;
    benchmark::DoNotOptimize(a);
  }
}
void bm_g1_xyzz_add(benchmark::State& state) { xyzz_add_loop<g1_curve>(state); }
BENCHMARK(bm_g1_xyzz_add);
void bm_g2_xyzz_add(benchmark::State& state) { xyzz_add_loop<g2_curve>(state); }
BENCHMARK(bm_g2_xyzz_add);

void bm_g2_xyzz_double(benchmark::State& state) {
  g2_xyzz a = g2_xyzz::from_jacobian(point_from_seed<g2_curve>(1));
  for (auto _ : state) {
    a = a.dbl();
    benchmark::DoNotOptimize(a);
  }
}
BENCHMARK(bm_g2_xyzz_double);

void bm_g2_add(benchmark::State& state) {
  g2_jacobian a = point_from_seed<g2_curve>(1), b = point_from_seed<g2_curve>(2);
  for (auto _ : state) {
    a = a + b;
    benchmark::DoNotOptimize(a);
  }
}
BENCHMARK(bm_g2_add);

void bm_g2_double(benchmark::State& state) {
  g2_jacobian a = point_from_seed<g2_curve>(1);
  for (auto _ : state) {
    a = a.dbl();
    benchmark::DoNotOptimize(a);
  }
}
BENCHMARK(bm_g2_double);

void bm_g2_add_mixed(benchmark::State& state) {
  g2_jacobian a = point_from_seed<g2_curve>(1);
  g2_affine b = point_from_seed<g2_curve>(2).to_affine();
  for (auto _ : state) {
    a = a + b;
    benchmark::DoNotOptimize(a);
  }
}
BENCHMARK(bm_g2_add_mixed);

void bm_g1_scalar_mul(benchmark::State& state) {
  g1_jacobian a = point_from_seed<g1_curve>(1);
  std::mt19937_64 rng(3);
  fr k = fr::random(rng);
  for (auto _ : state) {
    a = scalar_mul(a, k);
    benchmark::DoNotOptimize(a);
  }
}
BENCHMARK(bm_g1_scalar_mul)->Unit(benchmark::kMicrosecond);

void bm_g2_scalar_mul(benchmark::State& state) {
  g2_jacobian a = point_from_seed<g2_curve>(1);
  std::mt19937_64 rng(3);
  fr k = fr::random(rng);
  for (auto _ : state) {
    a = scalar_mul(a, k);
    benchmark::DoNotOptimize(a);
  }
}
BENCHMARK(bm_g2_scalar_mul)->Unit(benchmark::kMicrosecond);

void bm_g1_subgroup_check(benchmark::State& state) {
  g1_jacobian a = point_from_seed<g1_curve>(1);
  const g1_jacobian g = g1_jacobian::generator();
  for (auto _ : state) {
    bool ok = is_in_subgroup(a);
    benchmark::DoNotOptimize(ok);
    a = ok ? a + g : a;  // chain: the next input depends on the result
  }
}
BENCHMARK(bm_g1_subgroup_check)->Unit(benchmark::kMicrosecond);

void bm_g1_subgroup_check_slow(benchmark::State& state) {
  g1_jacobian a = point_from_seed<g1_curve>(1);
  const g1_jacobian g = g1_jacobian::generator();
  for (auto _ : state) {
    bool ok = is_in_subgroup_slow(a);
    benchmark::DoNotOptimize(ok);
    a = ok ? a + g : a;
  }
}
BENCHMARK(bm_g1_subgroup_check_slow)->Unit(benchmark::kMicrosecond);

void bm_g2_subgroup_check(benchmark::State& state) {
  g2_jacobian a = point_from_seed<g2_curve>(1);
  const g2_jacobian g = g2_jacobian::generator();
  for (auto _ : state) {
    bool ok = is_in_subgroup(a);
    benchmark::DoNotOptimize(ok);
    a = ok ? a + g : a;
  }
}
BENCHMARK(bm_g2_subgroup_check)->Unit(benchmark::kMicrosecond);

// Decompression with and without the subgroup check (same bytes each time; the call is opaque
// to the optimiser since it lives in cuzk_ec's encoding.cpp, and its result is consumed).
void bm_g1_decompress(benchmark::State& state) {
  const subgroup_check check = state.range(0) ? subgroup_check::verify : subgroup_check::skip;
  g1_affine p = point_from_seed<g1_curve>(1).to_affine();
  std::array<uint8_t, 48> buf{};
  encode_g1_compressed(p, buf);
  for (auto _ : state) {
    decode_error e = decode_g1_compressed(buf, p, check);
    benchmark::DoNotOptimize(e);
    benchmark::DoNotOptimize(p);
  }
}
BENCHMARK(bm_g1_decompress)->Arg(1)->Arg(0)->ArgName("subgroup_check")->Unit(benchmark::kMicrosecond);

void bm_g2_decompress(benchmark::State& state) {
  const subgroup_check check = state.range(0) ? subgroup_check::verify : subgroup_check::skip;
  g2_affine p = point_from_seed<g2_curve>(1).to_affine();
  std::array<uint8_t, 96> buf{};
  encode_g2_compressed(p, buf);
  for (auto _ : state) {
    decode_error e = decode_g2_compressed(buf, p, check);
    benchmark::DoNotOptimize(e);
    benchmark::DoNotOptimize(p);
  }
}
BENCHMARK(bm_g2_decompress)->Arg(1)->Arg(0)->ArgName("subgroup_check")->Unit(benchmark::kMicrosecond);

void bm_g1_batch_to_affine(benchmark::State& state) {
  const std::size_t n = static_cast<std::size_t>(state.range(0));
  std::vector<g1_jacobian> pts;
  g1_jacobian a = point_from_seed<g1_curve>(1);
  for (std::size_t i = 0; i < n; ++i) pts.push_back(a = a.dbl());
  std::vector<g1_affine> out(n);
  for (auto _ : state) {
    batch_to_affine(std::span<const g1_jacobian>(pts), std::span<g1_affine>(out));
    benchmark::DoNotOptimize(out.data());
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * n));
}
BENCHMARK(bm_g1_batch_to_affine)->Arg(1024)->Unit(benchmark::kMicrosecond);

}  // namespace

BENCHMARK_MAIN();
