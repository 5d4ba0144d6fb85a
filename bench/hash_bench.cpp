// Native hash throughput per core: SHA-256 compressions (portable and SHA-NI kernels),
// Filecoin's trunc254 node hash, and Poseidon hashes (neptune constants, MerkleTree tag) for
// the Filecoin arities. Each benchmark reports its rate as a counter ("compressions/s",
// "hashes/s"); inputs are chained (output feeds the next input) so nothing is optimised away.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <cstring>
#include <vector>

#include "gadgets/native/poseidon_native.hpp"
#include "gadgets/native/sha256_native.hpp"

namespace {

using namespace cuzk::gadgets::native;

template <bool ShaNi>
void BM_sha256_compress(benchmark::State& state) {
  if (ShaNi && !has_sha_ni()) {
    state.SkipWithError("CPU without SHA extensions");
    return;
  }
  const std::size_t nblocks = static_cast<std::size_t>(state.range(0));
  std::vector<uint8_t> blocks(64 * nblocks);
  for (std::size_t i = 0; i < blocks.size(); ++i) blocks[i] = static_cast<uint8_t>(i * 131 + 7);
  uint32_t s[8];
  std::memcpy(s, sha256_iv.data(), sizeof s);
  for (auto _ : state) {
    if constexpr (ShaNi) {
      sha256_compress_shani(s, blocks.data(), nblocks);
    } else {
      sha256_compress_portable(s, blocks.data(), nblocks);
    }
    benchmark::DoNotOptimize(s);
  }
  state.counters["compressions/s"] =
      benchmark::Counter(static_cast<double>(state.iterations() * nblocks), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_sha256_compress<false>)->Name("sha256_compress/portable")->Arg(1)->Arg(16);
BENCHMARK(BM_sha256_compress<true>)->Name("sha256_compress/sha_ni")->Arg(1)->Arg(16);

// TreeD node: sha256(left || right) truncated to 254 bits (2 compressions).
void BM_sha256_trunc254_node(benchmark::State& state) {
  sha256_digest a{}, b{};
  a[0] = 1;
  for (auto _ : state) {
    a = sha256_trunc254_node(a.data(), b.data());
    benchmark::DoNotOptimize(a);
  }
  state.counters["hashes/s"] = benchmark::Counter(static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_sha256_trunc254_node);

void BM_poseidon(benchmark::State& state) {
  const std::size_t arity = static_cast<std::size_t>(state.range(0));
  const poseidon_params& p = poseidon_constants(arity);
  std::vector<fr> in(arity);
  for (std::size_t i = 0; i < arity; ++i) in[i] = fr::from_u64(i + 1).inverse();
  for (auto _ : state) {
    in[0] = poseidon_hash(p, in);
    benchmark::DoNotOptimize(in[0]);
  }
  state.counters["hashes/s"] = benchmark::Counter(static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
  // Field multiplications per hash in the optimized form: S-boxes (3M each: 2S + 1M), dense
  // products (t^2 each, 8 of them incl. the pre-sparse one), sparse products (2t - 1 each).
  const double t = static_cast<double>(p.width), rp = static_cast<double>(p.partial_rounds);
  state.counters["mul/hash"] = 3 * (8 * t + rp) + 8 * t * t + rp * (2 * t - 1);
}
BENCHMARK(BM_poseidon)->Name("poseidon_hash")->Arg(2)->Arg(4)->Arg(8)->Arg(11)->Arg(16)->Arg(24)->Arg(36);

void BM_poseidon_reference(benchmark::State& state) {
  const std::size_t arity = static_cast<std::size_t>(state.range(0));
  const poseidon_params& p = poseidon_constants(arity);
  std::vector<fr> in(arity);
  for (std::size_t i = 0; i < arity; ++i) in[i] = fr::from_u64(i + 1).inverse();
  for (auto _ : state) {
    in[0] = poseidon_hash_reference(p, p.merkle_domain_tag, in);
    benchmark::DoNotOptimize(in[0]);
  }
  state.counters["hashes/s"] = benchmark::Counter(static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_poseidon_reference)->Name("poseidon_hash_reference")->Arg(2)->Arg(8);

// One-time construction cost of a parameter set (Grain + matrices + sparse factorisation).
void BM_poseidon_make_params(benchmark::State& state) {
  const std::size_t arity = static_cast<std::size_t>(state.range(0));
  std::size_t rf = 0, rp = 0;
  (void)poseidon_standard_rounds(arity, rf, rp);
  for (auto _ : state) benchmark::DoNotOptimize(make_poseidon_params(arity, rf, rp));
}
BENCHMARK(BM_poseidon_make_params)->Arg(8)->Arg(36)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
