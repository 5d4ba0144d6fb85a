// The built-in test circuit family ("test-circuit" jobs): a MiMC-style x^5 chain over Fr, one
// circuit per size k (log2 of the Groth16 domain), written once against the r1cs
// constraint_system concept so that the same code records the shape (shape_recorder), computes the
// witness (witness_builder) and checks itself (test_system).
//
//   public inputs: ONE, x_0 (the start, derived from the job's seed and the partition index), y
//   R full rounds:  x_{i+1} = (x_i + c_i)^5        3 constraints: t2 = (x+c)(x+c), t4 = t2 t2,
//                                                                  x' = t4 (x+c)
//   T tail steps:   x_{i+1} = (x_i + c_i)^2        1 constraint each, T = (2^k - 4) mod 3 (0 or 1)
//   output:         x_{R+T} * ONE = y              1 constraint
//
// 3R + T + 1 = 2^k - 3 constraints and 3 inputs, so bellperson's domain (constraints + inputs,
// rounded up to a power of two) is exactly 2^k and no constraint slot is wasted. x -> x^5 is a
// permutation of Fr (gcd(5, r - 1) = 1, as Poseidon's S-box over BLS12-381), so distinct starts
// give distinct outputs. The round constants c_i are fixed (a SplitMix64 stream with a fixed seed,
// each c_i uniform in Fr by rejection sampling) and shared by every k (a smaller circuit's
// constants are a prefix of a larger one's); only x_0 depends on the job. Changing anything here
// changes the shape hashes pinned in tests/unit/testcircuit and must bump circuit_version (the
// cached parameter files carry it in their names).
//
// Costs per proof: witness 3R multiplications (serial: it is a chain); the shape has ~7 nonzero
// entries per round (A: x, ONE twice; B: x, ONE, t2; ...), so SpMV is cheap and the prover is
// dominated by the MSMs and NTTs of a 2^k domain.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "r1cs/r1cs.hpp"

namespace cuzk::testcircuit {

using ff::fr;

inline constexpr unsigned min_log2 = 4;    // 12 constraints: the smallest useful circuit
inline constexpr unsigned max_log2 = 22;   // ~1.9 GB of parameters; setup takes minutes on the CPU
inline constexpr unsigned max_partitions = 64;
inline constexpr unsigned circuit_version = 1;
inline constexpr std::size_t num_public_inputs = 2;  // x_0 and y (ONE excluded)

// Counts of the k-circuit (no shape needed).
struct chain_layout {
  unsigned k = 0;
  std::size_t rounds = 0;  // full x^5 rounds
  std::size_t tail = 0;    // squaring steps: (2^k - 4) mod 3, which is 0 (k even) or 1 (k odd)
  std::size_t num_constraints = 0;
  std::size_t num_inputs = 3;  // ONE, x_0, y
  std::size_t num_aux = 0;
  std::size_t domain_size = 0;  // 2^k
};
// Throws std::invalid_argument outside [min_log2, max_log2].
chain_layout layout_for(unsigned k);

// The k-circuit's parameters: its layout and round constants (rounds + tail of them).
class chain_definition {
 public:
  explicit chain_definition(unsigned k);
  const chain_layout& layout() const { return layout_; }
  const std::vector<fr>& constants() const { return constants_; }

 private:
  chain_layout layout_;
  std::vector<fr> constants_;
};

// The round constant stream: c_0, c_1, ... (the first n).
std::vector<fr> round_constants(std::size_t n);
// x_0 for (seed, partition): uniform in Fr from a SplitMix64 stream keyed by both.
fr partition_start(std::uint64_t seed, std::uint32_t partition);
// y computed natively (the slow twin of the witness).
fr native_output(const chain_definition& def, const fr& start);

// The circuit. CS::computes_values false (shape recording) never evaluates `start`.
template <r1cs::constraint_system CS>
r1cs::result<void> synthesize_chain(CS& cs, const chain_definition& def, const fr& start) {
  using r1cs::linear_combination;
  using r1cs::variable;
  const variable one = CS::one();
  const chain_layout& lay = def.layout();
  const std::vector<fr>& c = def.constants();
  fr x = start;  // the current value (maintained only when CS::computes_values)

  CUZK_R1CS_TRY(variable xv, cs.alloc_input("start", [&] { return x; }));
  for (std::size_t i = 0; i < lay.rounds; ++i) {
    const fr ci = c[i];
    fr xc{}, t2{}, t4{};
    if constexpr (CS::computes_values) {
      xc = x + ci;
      t2 = xc.square();
      t4 = t2.square();
      x = t4 * xc;
    }
    r1cs::scoped_namespace<CS> ns(cs, [i] { return "round " + std::to_string(i); });
    auto x_plus_c = [&](linear_combination lc) { return std::move(lc) + xv + ci * one; };
    CUZK_R1CS_TRY(variable t2v, cs.alloc("t2", [&] { return t2; }));
    cs.enforce("square", x_plus_c, x_plus_c, [&](linear_combination lc) { return std::move(lc) + t2v; });
    CUZK_R1CS_TRY(variable t4v, cs.alloc("t4", [&] { return t4; }));
    cs.enforce("fourth", [&](linear_combination lc) { return std::move(lc) + t2v; },
               [&](linear_combination lc) { return std::move(lc) + t2v; },
               [&](linear_combination lc) { return std::move(lc) + t4v; });
    CUZK_R1CS_TRY(variable next, cs.alloc("x", [&] { return x; }));
    cs.enforce("fifth", [&](linear_combination lc) { return std::move(lc) + t4v; }, x_plus_c,
               [&](linear_combination lc) { return std::move(lc) + next; });
    xv = next;
  }
  for (std::size_t j = 0; j < lay.tail; ++j) {
    const fr ci = c[lay.rounds + j];
    if constexpr (CS::computes_values) x = (x + ci).square();
    r1cs::scoped_namespace<CS> ns(cs, [j] { return "tail " + std::to_string(j); });
    auto x_plus_c = [&](linear_combination lc) { return std::move(lc) + xv + ci * one; };
    CUZK_R1CS_TRY(variable next, cs.alloc("x", [&] { return x; }));
    cs.enforce("square", x_plus_c, x_plus_c, [&](linear_combination lc) { return std::move(lc) + next; });
    xv = next;
  }
  CUZK_R1CS_TRY(variable yv, cs.alloc_input("output", [&] { return x; }));
  cs.enforce("output is last x", [&](linear_combination lc) { return std::move(lc) + xv; },
             [&](linear_combination lc) { return std::move(lc) + one; },
             [&](linear_combination lc) { return std::move(lc) + yv; });
  return r1cs::ok();
}

// A k-circuit with its recorded shape.
struct compiled_circuit {
  std::shared_ptr<const chain_definition> def;
  r1cs::r1cs_shape shape;
  unsigned k() const { return def->layout().k; }
};

// Records each k's shape once and keeps it (thread-safe: concurrent first calls for the same k
// record it once, the others wait; different k proceed in parallel). Throws std::invalid_argument
// for a k out of range.
class circuit_cache {
 public:
  std::shared_ptr<const compiled_circuit> get(unsigned k);
  // The process-wide cache.
  static circuit_cache& global();

 private:
  struct entry {
    std::once_flag once;
    std::shared_ptr<const compiled_circuit> value;
  };
  std::mutex mu_;
  std::map<unsigned, std::shared_ptr<entry>> entries_;
};

// The witness of one partition: inputs (ONE, x_0, y) and aux, sized for the shape.
struct chain_witness {
  std::vector<fr> inputs, aux;
};
chain_witness compute_witness(const compiled_circuit& circuit, const fr& start);

}  // namespace cuzk::testcircuit
