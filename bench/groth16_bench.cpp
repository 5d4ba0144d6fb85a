// Groth16 setup and prover (CPU backend) on a synthetic circuit with a dense random witness.
//
// Circuit: one public input, then 2^k - 2 constraints z_j = (x_last + c x_i) * (x_i' + ONE) over
// random earlier variables (c from 16 random coefficients), so that num_constraints +
// num_inputs = 2^k exactly: the domain is 2^k, every aux variable is in A and almost every one in
// B, the witness is uniformly random (no 0/1 shortcuts in the MSMs). This is what snarkjs
// reports as a "2^k-constraint" circuit (its domain also counts the public inputs).
//
// Args: {log2 domain, threads} (threads = 1: serial executor, whose CPU time is clean of pool
// spinning; the CPU column is the calling thread's). Counters: seconds per stage (setup: lagrange, evaluate, tables,
// h, a, b_g1, b_g2, ic_l; prove: abc, h, msm_h, msm_l, msm_a, msm_b_g1, msm_b_g2, assembly).
// Fixed seeds: runs are repeatable.
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "backend/cpu/cpu_backend.hpp"
#include "base/executor.hpp"
#include "groth16/fixed_base.hpp"
#include "groth16/prover.hpp"
#include "groth16/setup.hpp"
#include "groth16/verifier.hpp"
#include "r1cs/r1cs.hpp"

namespace {

using namespace cuzk;
using ff::fr;
using r1cs::linear_combination;
using r1cs::variable;

struct dense_circuit {
  std::size_t constraints = 0;
  uint64_t seed = 1;

  template <r1cs::constraint_system CS>
  r1cs::result<void> synthesize(CS& cs) const {
    std::mt19937_64 rng(seed);
    std::vector<fr> coeffs;
    for (int i = 0; i < 16; ++i) coeffs.push_back(fr::random(rng));
    std::vector<fr> val;  // aux values
    std::vector<variable> var;
    const fr pin = fr::random(rng);
    auto in = cs.alloc_input("in", [&] { return pin; });
    if (!in) return in.error();
    for (int i = 0; i < 2; ++i) {
      const fr v = fr::random(rng);
      auto x = cs.alloc("seed", [&] { return v; });
      if (!x) return x.error();
      val.push_back(v);
      var.push_back(*x);
    }
    {  // (x0 + x1) * (in + ONE) = z
      const fr z = (val[0] + val[1]) * (pin + fr::one());
      auto zv = cs.alloc("z", [&] { return z; });
      if (!zv) return zv.error();
      cs.enforce("c", [&](linear_combination lc) { return lc + var[0] + var[1]; },
                 [&](linear_combination lc) { return lc + *in + variable::one(); }, *zv);
      val.push_back(z);
      var.push_back(*zv);
    }
    for (std::size_t j = 1; j < constraints; ++j) {
      const std::size_t last = var.size() - 1, i1 = rng() % var.size(), i2 = rng() % var.size();
      const fr& c = coeffs[rng() % coeffs.size()];
      const fr z = (val[last] + c * val[i1]) * (val[i2] + fr::one());
      auto zv = cs.alloc("z", [&] { return z; });
      if (!zv) return zv.error();
      cs.enforce("c", [&](linear_combination lc) { return lc + var[last] + c * var[i1]; },
                 [&](linear_combination lc) { return lc + var[i2] + variable::one(); }, *zv);
      val.push_back(z);
      var.push_back(*zv);
    }
    return r1cs::ok();
  }
};

struct instance {
  r1cs::r1cs_shape shape;
  std::vector<fr> inputs, aux;
  std::unique_ptr<groth16::parameters> params;
};

std::unique_ptr<base::executor> make_exec(std::size_t threads) {
  if (threads <= 1) return std::make_unique<base::serial_executor>();
  return base::make_thread_pool_executor(threads);
}

instance& get_instance(unsigned log_n) {
  static std::map<unsigned, instance> cache;
  auto [it, fresh] = cache.try_emplace(log_n);
  if (fresh) {
    dense_circuit circ{(std::size_t{1} << log_n) - 2, 1000 + log_n};
    r1cs::shape_recorder rec;
    if (!circ.synthesize(rec)) throw std::runtime_error("synthesis failed");
    it->second.shape = std::move(rec).finish(r1cs::shape_hash::skip);
    r1cs::witness_builder wb(2, std::size_t{1} << log_n);
    if (!circ.synthesize(wb)) throw std::runtime_error("synthesis failed");
    it->second.inputs = wb.take_inputs();
    it->second.aux = wb.take_aux();
  }
  return it->second;
}

void set_counter(benchmark::State& state, const char* name, double seconds) {
  state.counters[name] = benchmark::Counter(seconds, benchmark::Counter::kAvgIterations);
}

void bm_setup(benchmark::State& state) {
  const unsigned log_n = static_cast<unsigned>(state.range(0));
  auto ex = make_exec(static_cast<std::size_t>(state.range(1)));
  instance& in = get_instance(log_n);
  std::mt19937_64 rng(77);
  const groth16::toxic_waste tw = groth16::toxic_waste::random(rng);
  groth16::setup_timings sum;
  for (auto _ : state) {
    groth16::setup_timings t;
    auto p = std::make_unique<groth16::parameters>(groth16::setup(in.shape, tw, *ex, &t));
    in.params = std::move(p);
    sum.lagrange += t.lagrange, sum.evaluate += t.evaluate, sum.tables += t.tables, sum.h += t.h;
    sum.a += t.a, sum.b_g1 += t.b_g1, sum.b_g2 += t.b_g2, sum.ic_l += t.ic_l;
  }
  set_counter(state, "lagrange", sum.lagrange);
  set_counter(state, "evaluate", sum.evaluate);
  set_counter(state, "tables", sum.tables);
  set_counter(state, "h", sum.h);
  set_counter(state, "a", sum.a);
  set_counter(state, "b_g1", sum.b_g1);
  set_counter(state, "b_g2", sum.b_g2);
  set_counter(state, "ic_l", sum.ic_l);
}

void bm_prove(benchmark::State& state) {
  const unsigned log_n = static_cast<unsigned>(state.range(0));
  auto ex = make_exec(static_cast<std::size_t>(state.range(1)));
  instance& in = get_instance(log_n);
  if (!in.params) {
    std::mt19937_64 rng(77);
    in.params = std::make_unique<groth16::parameters>(groth16::setup_random(in.shape, rng, *ex));
  }
  backend::cpu::cpu_backend cpu(*ex);
  const auto view = groth16::parameters_view::of(*in.params);
  std::mt19937_64 rng(5);
  groth16::prove_timings sum;
  groth16::proof last{};
  for (auto _ : state) {
    groth16::prove_timings t;
    last = groth16::prove_random(view, in.shape, in.inputs, in.aux, rng, cpu, &t);
    sum.abc += t.abc, sum.h += t.h, sum.msm_h += t.msm_h, sum.msm_l += t.msm_l, sum.msm_a += t.msm_a;
    sum.msm_b_g1 += t.msm_b_g1, sum.msm_b_g2 += t.msm_b_g2, sum.assembly += t.assembly;
  }
  const std::vector<fr> pub(in.inputs.begin() + 1, in.inputs.end());
  if (groth16::verify(groth16::prepare_verifying_key(in.params->vk), last, pub) != groth16::verify_result::valid)
    state.SkipWithError("proof does not verify");
  set_counter(state, "abc", sum.abc);
  set_counter(state, "h", sum.h);
  set_counter(state, "msm_h", sum.msm_h);
  set_counter(state, "msm_l", sum.msm_l);
  set_counter(state, "msm_a", sum.msm_a);
  set_counter(state, "msm_b_g1", sum.msm_b_g1);
  set_counter(state, "msm_b_g2", sum.msm_b_g2);
  set_counter(state, "assembly", sum.assembly);
  state.counters["constraints"] = static_cast<double>(in.shape.num_constraints);
}

// Fixed-base multiplication, 2^14 G1 or G2 scalars on one thread. Args {mode, window bits}: mode 0 = XYZZ (mul) + batch
// normalisation, 1 = batch_mul (affine accumulators, shared inversions). Counter: us per scalar.
template <class Curve>
void bm_fixed_base(benchmark::State& state) {
  const std::size_t n = std::size_t{1} << 14;
  base::serial_executor serial;
  std::mt19937_64 rng(3);
  const groth16::fixed_base_table<Curve> t(ec::affine_point<Curve>::generator(), static_cast<unsigned>(state.range(1)), serial);
  std::vector<fr> k(n);
  for (auto& x : k) x = fr::random(rng);
  std::vector<ec::affine_point<Curve>> out(n);
  std::vector<ec::xyzz_point<Curve>> tmp(n);
  for (auto _ : state) {
    if (state.range(0) == 0) {
      for (std::size_t i = 0; i < n; ++i) tmp[i] = t.mul(k[i]);
      ec::batch_to_affine(std::span<const ec::xyzz_point<Curve>>(tmp), std::span<ec::affine_point<Curve>>(out));
    } else {
      t.batch_mul(k, out, serial);
    }
    benchmark::DoNotOptimize(out.data());
  }
  state.counters["us_per_scalar"] =
      benchmark::Counter(static_cast<double>(n) * 1e-6, benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}
BENCHMARK_TEMPLATE(bm_fixed_base, ec::g1_curve)->ArgsProduct({{0, 1}, {8, 10, 12, 14, 16}})->Unit(benchmark::kMillisecond);
BENCHMARK_TEMPLATE(bm_fixed_base, ec::g2_curve)->ArgsProduct({{0, 1}, {10, 12, 14, 16}})->Unit(benchmark::kMillisecond);

}  // namespace

// 2^20 (setup ~ a minute or more on 2 cores) only with CUZK_G16_BENCH_LARGE=1.
int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  std::vector<int64_t> sizes{10, 12, 16, 18};
  if (const char* e = std::getenv("CUZK_G16_BENCH_LARGE"); e && std::string(e) == "1") sizes.push_back(20);
  benchmark::RegisterBenchmark("bm_setup", bm_setup)
      ->ArgsProduct({sizes, {2}})
      ->Iterations(1)
      ->Unit(benchmark::kMillisecond)
      ->UseRealTime();
  benchmark::RegisterBenchmark("bm_prove", bm_prove)
      ->ArgsProduct({sizes, {1, 2}})
      ->Unit(benchmark::kMillisecond)
      ->UseRealTime();
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
