// Poseidon and Merkle throughput per core: batched Poseidon (8-lane AVX-512 IFMA when the CPU
// has it, else the scalar permutation) against the scalar kernel, a Poseidon tree build, and
// the native witness twins of the Poseidon circuit and of 32 GiB TreeR / TreeD openings
// (aux values/s).
#include <benchmark/benchmark.h>

#include <cstdint>
#include <vector>

#include "gadgets/circuit/merkle_sha256_witness.hpp"
#include "gadgets/native/merkle_tree.hpp"
#include "gadgets/native/merkle_witness.hpp"
#include "gadgets/native/poseidon_batch.hpp"
#include "gadgets/native/poseidon_native.hpp"
#include "gadgets/native/poseidon_witness.hpp"

namespace {

using namespace cuzk::gadgets::native;

std::vector<fr> inputs(std::size_t n) {
  std::vector<fr> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = fr::from_u64(i + 3).inverse();
  return v;
}

// 64 independent hashes per iteration (a slice of a tree level).
template <poseidon_kernel Kernel>
void BM_poseidon_batch(benchmark::State& state) {
  const std::size_t arity = static_cast<std::size_t>(state.range(0));
  const poseidon_batch_hasher h(poseidon_constants(arity), Kernel);
  if (Kernel == poseidon_kernel::ifma && h.kernel() != poseidon_kernel::ifma) {
    state.SkipWithError("no AVX-512 IFMA path for this CPU or width");
    return;
  }
  constexpr std::size_t count = 64;
  std::vector<fr> in = inputs(count * arity), out(count);
  for (auto _ : state) {
    h.hash(in.data(), count, out.data());
    in[0] = out[count - 1];  // chain so nothing is hoisted
    benchmark::DoNotOptimize(out.data());
  }
  state.counters["hashes/s"] =
      benchmark::Counter(static_cast<double>(state.iterations() * count), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_poseidon_batch<poseidon_kernel::ifma>)->Name("poseidon_batch/ifma")->Arg(2)->Arg(4)->Arg(8)->Arg(11)->Arg(16);
BENCHMARK(BM_poseidon_batch<poseidon_kernel::scalar>)->Name("poseidon_batch/scalar")->Arg(2)->Arg(4)->Arg(8)->Arg(11)->Arg(16);

// A base TreeR of 8^5 = 32,768 leaves (4,681 arity-8 hashes).
void BM_poseidon_tree8(benchmark::State& state) {
  const tree_shape shape{{8, 8, 8, 8, 8}};
  const std::vector<fr> leaves = inputs(shape.leaves());
  for (auto _ : state) {
    poseidon_tree t(shape, leaves);
    benchmark::DoNotOptimize(t.root());
  }
  state.counters["hashes/s"] = benchmark::Counter(static_cast<double>(state.iterations() * 4681), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_poseidon_tree8)->Unit(benchmark::kMillisecond);

// The Poseidon circuit's witness (505 aux values for arity 8).
void BM_poseidon_circuit_witness(benchmark::State& state) {
  const std::size_t arity = static_cast<std::size_t>(state.range(0));
  const poseidon_params& p = poseidon_constants(arity);
  std::vector<fr> in = inputs(arity), aux(poseidon_witness_size(p));
  for (auto _ : state) {
    in[0] = poseidon_witness(p, p.merkle_domain_tag, in, aux);
    benchmark::DoNotOptimize(aux.data());
  }
  state.counters["values/s"] =
      benchmark::Counter(static_cast<double>(state.iterations() * aux.size()), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_poseidon_circuit_witness)->Arg(2)->Arg(8)->Arg(11);

// One 32 GiB TreeR PoR (8-8-0, 10 levels): 5,372 aux values.
void BM_por_witness_32gib(benchmark::State& state) {
  std::vector<merkle_path_level<fr>> path;
  const std::vector<fr> sib = inputs(7);
  for (std::size_t l = 0; l < 10; ++l) path.push_back({sib, l % 8});
  std::vector<fr> aux, in;
  for (auto _ : state) {
    aux.clear();
    in.clear();
    benchmark::DoNotOptimize(por_poseidon_witness(sib[0], path, sib[1], por_root_visibility::private_root, aux, in));
  }
  state.counters["values/s"] =
      benchmark::Counter(static_cast<double>(state.iterations() * aux.size()), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_por_witness_32gib)->Unit(benchmark::kMicrosecond);

// 64 of the same Poseidon circuit witnesses per iteration through the batch path.
void BM_poseidon_circuit_witness_batch(benchmark::State& state) {
  const std::size_t arity = static_cast<std::size_t>(state.range(0));
  const poseidon_batch_hasher& h = poseidon_batch_for_arity(arity);
  constexpr std::size_t count = 64;
  const std::size_t w = poseidon_witness_size(h.params());
  std::vector<fr> in = inputs(count * arity), out(count), aux(count * w);
  for (auto _ : state) {
    h.witness(in.data(), count, out.data(), aux.data(), h.params().merkle_domain_tag);
    in[0] = out[count - 1];
    benchmark::DoNotOptimize(aux.data());
  }
  state.counters["values/s"] =
      benchmark::Counter(static_cast<double>(state.iterations() * aux.size()), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_poseidon_circuit_witness_batch)->Arg(2)->Arg(8)->Arg(11);

// 64 PoRs into a 32 GiB TreeR per iteration (a WindowPoSt partition is 23,490 of them).
void BM_por_witness_batch_32gib(benchmark::State& state) {
  constexpr std::size_t count = 64;
  std::vector<std::vector<merkle_path_level<fr>>> paths(count);
  const std::vector<fr> sib = inputs(7 * count);
  for (std::size_t k = 0; k < count; ++k)
    for (std::size_t l = 0; l < 10; ++l)
      paths[k].push_back({std::vector<fr>(sib.begin() + 7 * k, sib.begin() + 7 * k + 7), (k + l) % 8});
  const tree_shape shape{std::vector<std::size_t>(10, 8)};
  const std::size_t w = por_poseidon_witness_size(shape);
  std::vector<fr> aux(count * w), in(count);
  std::vector<por_witness_job> jobs;
  for (std::size_t k = 0; k < count; ++k) jobs.push_back({sib[k], paths[k], sib[k + 1], aux.data() + k * w, in.data() + k, fr::zero()});
  for (auto _ : state) {
    por_poseidon_witness_batch(jobs, por_root_visibility::private_root);
    benchmark::DoNotOptimize(aux.data());
  }
  state.counters["values/s"] =
      benchmark::Counter(static_cast<double>(state.iterations() * aux.size()), benchmark::Counter::kIsRate);
  state.counters["PoRs/s"] = benchmark::Counter(static_cast<double>(state.iterations() * count), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_por_witness_batch_32gib)->Unit(benchmark::kMillisecond);

// One 32 GiB TreeD opening (30 binary SHA-256 levels, 1.36 M aux values).
void BM_por_sha256_witness_32gib(benchmark::State& state) {
  std::vector<merkle_path_level<fr>> path;
  const std::vector<fr> sib = inputs(30);
  for (std::size_t l = 0; l < 30; ++l) path.push_back({{sib[l]}, l % 2});
  std::vector<fr> aux, in;
  for (auto _ : state) {
    aux.clear();
    in.clear();
    benchmark::DoNotOptimize(
        cuzk::gadgets::witness::por_sha256_witness(sib[0], path, sib[1], por_root_visibility::private_root, aux, in));
  }
  state.counters["values/s"] =
      benchmark::Counter(static_cast<double>(state.iterations() * aux.size()), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_por_sha256_witness_32gib)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
