// The r1cs layer on a bit-decomposition circuit (the shape PoRep is made of): per 64-bit word,
// 64 booleanity constraints (ONE - b) * b = 0 and one packing constraint
// (sum 2^i b_i) * ONE = word. 65 aux and 65 constraints per word, ~4 nonzeros per constraint
// (A: 2 per bit + 64 per pack, B: 1, C: 1 per pack), 3/4 of them +-1.
//
// Floors: the witness is one push per aux (a few ns) plus the value function; evaluate_abc does
// one Fr addition per +-1 entry (~3 ns) and one Fr multiplication + addition per other entry
// (~20 ns), so ~8 ns per nonzero on one core here, and it divides by the cores. The shape hash
// is BLAKE2s over 41 bytes per nonzero (~6 cycles per byte). Counters report per-constraint and
// per-nonzero rates.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <map>
#include <memory>
#include <random>
#include <vector>

#include "base/executor.hpp"
#include "r1cs/r1cs.hpp"

namespace {

using namespace cuzk::r1cs;

std::vector<uint64_t> words_for(std::size_t n) {
  std::mt19937_64 rng(42);
  std::vector<uint64_t> w(n);
  for (auto& x : w) x = rng();
  return w;
}

template <constraint_system CS>
result<void> bits_circuit(CS& cs, const std::vector<uint64_t>& words) {
  static const std::vector<fr> pow2 = [] {
    std::vector<fr> p(64);
    p[0] = fr::one();
    for (int i = 1; i < 64; ++i) p[i] = p[i - 1] + p[i - 1];
    return p;
  }();
  for (uint64_t word : words) {
    variable bits[64];
    for (int i = 0; i < 64; ++i) {
      const bool bit = (word >> i) & 1;
      CUZK_R1CS_TRY(bits[i], cs.alloc("b", [&] { return bit ? fr::one() : fr::zero(); }));
      cs.enforce("boolean", [&](linear_combination lc) { return lc + CS::one() - bits[i]; },
                 [&](linear_combination lc) { return lc + bits[i]; }, [](linear_combination lc) { return lc; });
    }
    CUZK_R1CS_TRY(variable num, cs.alloc("num", [&] { return fr::from_u64(word); }));
    cs.enforce("pack",
               [&](linear_combination lc) {
                 for (int i = 0; i < 64; ++i) lc += pow2[i] * bits[i];
                 return lc;
               },
               [](linear_combination lc) { return lc + CS::one(); }, [&](linear_combination lc) { return lc + num; });
  }
  return ok();
}

cuzk::base::executor& executor_for(int threads) {
  static std::map<int, std::unique_ptr<cuzk::base::executor>> pools;
  auto& p = pools[threads];
  if (!p) p = cuzk::base::make_thread_pool_executor(static_cast<std::size_t>(threads));
  return *p;
}

struct fixture {
  r1cs_shape shape;
  std::vector<fr> inputs, aux;
};

const fixture& fixture_for(std::size_t log_words) {
  static std::map<std::size_t, std::unique_ptr<fixture>> cache;
  auto& f = cache[log_words];
  if (!f) {
    f = std::make_unique<fixture>();
    const auto words = words_for(std::size_t{1} << log_words);
    shape_recorder rec;
    (void)bits_circuit(rec, words);
    f->shape = std::move(rec).finish(shape_hash::skip);
    witness_builder wb(f->shape.num_inputs, f->shape.num_aux);
    (void)bits_circuit(wb, words);
    f->inputs = wb.take_inputs();
    f->aux = wb.take_aux();
  }
  return *f;
}

std::size_t nnz(const r1cs_shape& s) { return s.a.nnz() + s.b.nnz() + s.c.nnz(); }

void BM_witness(benchmark::State& state) {
  const auto words = words_for(std::size_t{1} << state.range(0));
  std::size_t constraints = 0;
  for (auto _ : state) {
    witness_builder wb(1, words.size() * 65);
    benchmark::DoNotOptimize(bits_circuit(wb, words).ok());
    constraints = wb.num_constraints();
  }
  state.counters["constraints/s"] =
      benchmark::Counter(static_cast<double>(constraints), benchmark::Counter::kIsIterationInvariantRate);
}
BENCHMARK(BM_witness)->Arg(10)->Arg(14)->Unit(benchmark::kMillisecond);

void BM_record_shape(benchmark::State& state) {
  const auto words = words_for(std::size_t{1} << state.range(0));
  std::size_t constraints = 0;
  for (auto _ : state) {
    shape_recorder rec;
    benchmark::DoNotOptimize(bits_circuit(rec, words).ok());
    r1cs_shape s = std::move(rec).finish(shape_hash::skip);
    constraints = s.num_constraints;
  }
  state.counters["constraints/s"] =
      benchmark::Counter(static_cast<double>(constraints), benchmark::Counter::kIsIterationInvariantRate);
}
BENCHMARK(BM_record_shape)->Arg(10)->Arg(14)->Unit(benchmark::kMillisecond);

void BM_shape_hash(benchmark::State& state) {
  const fixture& f = fixture_for(static_cast<std::size_t>(state.range(0)));
  for (auto _ : state) benchmark::DoNotOptimize(compute_shape_hash(f.shape));
  state.counters["nnz/s"] =
      benchmark::Counter(static_cast<double>(nnz(f.shape)), benchmark::Counter::kIsIterationInvariantRate);
}
BENCHMARK(BM_shape_hash)->Arg(12)->Unit(benchmark::kMillisecond);

// Args: log2(words), threads (0 = all hardware threads).
void BM_evaluate_abc(benchmark::State& state) {
  const fixture& f = fixture_for(static_cast<std::size_t>(state.range(0)));
  auto& exec = executor_for(static_cast<int>(state.range(1)));
  const std::size_t n = f.shape.num_constraints;
  std::unique_ptr<fr[]> a(new fr[n]), b(new fr[n]), c(new fr[n]);
  for (auto _ : state) {
    evaluate_abc_into(f.shape, f.inputs, f.aux, {a.get(), n}, {b.get(), n}, {c.get(), n}, exec);
    benchmark::ClobberMemory();
  }
  state.counters["nnz/s"] =
      benchmark::Counter(static_cast<double>(nnz(f.shape)), benchmark::Counter::kIsIterationInvariantRate);
}
BENCHMARK(BM_evaluate_abc)->Args({14, 1})->Args({14, 0})->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
