// Witness generation for the SHA-256 gadgets, one core: the native twin of Filecoin's label hash
// (1,248-byte preimage, 521,749 aux values) against the same circuit synthesized on the witness
// builder. Rates are aux values produced per second ("values/s"); the twin writes into a reused
// buffer, as the partition witness generator does.
#include <benchmark/benchmark.h>

#include <array>
#include <cstdint>
#include <vector>

#include "gadgets/circuit/gadget_instances.hpp"
#include "gadgets/circuit/sha256_witness.hpp"
#include "r1cs/witness_builder.hpp"

namespace {

using namespace cuzk::gadgets;

std::array<uint8_t, 1248> preimage() {
  std::array<uint8_t, 32> id{};
  std::array<std::array<uint8_t, 32>, 37> parents{};
  for (std::size_t i = 0; i < 32; ++i) id[i] = static_cast<uint8_t>(i * 37 + 1);
  for (std::size_t p = 0; p < 37; ++p)
    for (std::size_t i = 0; i < 32; ++i) parents[p][i] = static_cast<uint8_t>(p * 131 + i * 7);
  return instances::make_label_preimage(id, 3, 123456789, parents);
}

void BM_label_witness_twin(benchmark::State& state) {
  const auto m = preimage();
  std::vector<cuzk::ff::fr> aux(witness::label_aux_count());
  for (auto _ : state) {
    witness::buffer_sink sink(aux.data());
    benchmark::DoNotOptimize(witness::label(sink, std::span<const uint8_t, 1248>(m)));
    benchmark::ClobberMemory();
  }
  state.counters["values/s"] =
      benchmark::Counter(static_cast<double>(state.iterations() * aux.size()), benchmark::Counter::kIsRate);
  state.counters["labels/s"] = benchmark::Counter(static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_label_witness_twin)->Name("label_witness/native_twin")->Unit(benchmark::kMillisecond);

// The gadget itself on the witness builder (input bits included), for comparison.
void BM_label_witness_gadget(benchmark::State& state) {
  instances::sha256_label c;
  c.preimage = preimage();
  std::size_t values = 0;
  for (auto _ : state) {
    cuzk::r1cs::witness_builder wb(1, 531503);
    benchmark::DoNotOptimize(c.synthesize(wb).ok());
    values = wb.num_aux();
  }
  state.counters["values/s"] =
      benchmark::Counter(static_cast<double>(state.iterations() * values), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_label_witness_gadget)->Name("label_witness/gadget_on_witness_builder")->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
