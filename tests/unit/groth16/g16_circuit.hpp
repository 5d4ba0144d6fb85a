// Random satisfiable circuits for the Groth16 setup/prover tests. Unlike the r1cs test
// generator, every aux variable is constrained (it is defined in the C of its own constraint), as
// bellperson's generator requires, and density gaps are made on purpose: a fraction of the aux
// variables never enter an A linear combination, another never enters a B one (so the A and B
// queries are compacted), and inputs are allocated in the middle of synthesis.
//
// Everything comes from mt19937_64 streams seeded by `seed` (structure and values separately,
// raw outputs only), drawn the same way whatever the constraint system, so one seed gives the
// same circuit to shape_recorder, witness_builder and test_system.
#pragma once

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "r1cs/r1cs.hpp"

namespace cuzk::groth16::test {

struct g16_circuit {
  uint64_t seed = 1;
  std::size_t constraints = 100;  // circuit constraints (the prover adds one per input)
  std::size_t extra_inputs = 3;   // public inputs besides ONE, allocated at random points
  unsigned no_a_percent = 25;     // aux variables that never enter A
  unsigned no_b_percent = 40;     // aux variables that never enter B
  std::size_t max_terms = 4;

  template <r1cs::constraint_system CS>
  r1cs::result<void> synthesize(CS& cs) const {
    using r1cs::fr;
    using r1cs::linear_combination;
    using r1cs::variable;
    std::mt19937_64 srng(seed);
    std::mt19937_64 vrng(seed ^ 0x9E3779B97F4A7C15ULL);
    auto below = [&](uint64_t n) { return static_cast<std::size_t>(srng() % n); };

    std::vector<fr> in_vals{fr::one()}, aux_vals;
    std::vector<variable> all{variable::one()}, in_a{variable::one()}, in_b{variable::one()};
    auto value_of = [&](variable v) -> const fr& { return v.is_input() ? in_vals[v.index()] : aux_vals[v.index()]; };
    auto eval = [&](const linear_combination& lc) {
      fr acc = fr::zero();
      for (const r1cs::term& t : lc.terms()) acc += t.coeff * value_of(t.var);
      return acc;
    };
    auto coeff = [&]() -> fr {
      switch (below(6)) {
        case 0: case 1: return fr::one();
        case 2: return -fr::one();
        case 3: return fr::from_u64(2 + below(9));
        default: return fr::random(srng);
      }
    };
    auto lc_over = [&](const std::vector<variable>& pool, std::size_t min_terms) {
      linear_combination lc;
      const std::size_t n = min_terms + below(max_terms + 1 - min_terms);
      for (std::size_t t = 0; t < n; ++t) lc.add_term(pool[below(pool.size())], coeff());
      return lc;
    };
    auto value = [&]() -> fr { return (vrng() % 5 == 0) ? fr::from_u64(vrng() % 2) : fr::random(vrng); };

    // Seed variables so the first constraints have something to multiply.
    for (int i = 0; i < 2; ++i) {
      const fr v = value();
      auto x = cs.alloc("seed" + std::to_string(i), [&] { return v; });
      if (!x) return x.error();
      aux_vals.push_back(v);
      all.push_back(*x);
      in_a.push_back(*x);
      in_b.push_back(*x);
      cs.enforce("seed_c" + std::to_string(i), *x, variable::one(), *x);  // x * 1 = x
    }

    std::size_t inputs_left = extra_inputs;
    std::size_t made = 2;
    while (made < constraints) {
      const std::size_t remaining = constraints - made;
      if (inputs_left && below(remaining + 1) <= inputs_left) {
        const fr v = value();
        auto x = cs.alloc_input("in" + std::to_string(inputs_left), [&] { return v; });
        if (!x) return x.error();
        in_vals.push_back(v);
        all.push_back(*x);
        if (below(2)) in_a.push_back(*x);
        if (below(2)) in_b.push_back(*x);
        --inputs_left;
        continue;
      }
      if (below(10) == 0) {  // 0 * B = L - <L, w> ONE: no new variable
        const linear_combination b = lc_over(in_b, 0);
        linear_combination l = lc_over(all, 1);
        l -= eval(l) * variable::one();
        cs.enforce("zero" + std::to_string(made), linear_combination{}, b, l);
        ++made;
        continue;
      }
      // A * B = k z + L, z fresh.
      const linear_combination a = lc_over(in_a, 1);
      const linear_combination b = below(4) == 0 ? linear_combination(variable::one()) : lc_over(in_b, 1);
      const linear_combination l = lc_over(all, 0);
      fr k = coeff();
      if (k.is_zero()) k = fr::one();
      const fr zv = (eval(a) * eval(b) - eval(l)) * k.inverse();
      auto z = cs.alloc("z" + std::to_string(made), [&] { return zv; });
      if (!z) return z.error();
      aux_vals.push_back(zv);
      all.push_back(*z);
      if (below(100) >= no_a_percent) in_a.push_back(*z);
      if (below(100) >= no_b_percent) in_b.push_back(*z);
      cs.enforce("c" + std::to_string(made), a, b, l + k * *z);
      ++made;
    }
    while (inputs_left--) {  // constraints < 2 + inputs: the rest at the end
      const fr v = value();
      auto x = cs.alloc_input("late_in" + std::to_string(inputs_left), [&] { return v; });
      if (!x) return x.error();
      in_vals.push_back(v);
    }
    return r1cs::ok();
  }
};

}  // namespace cuzk::groth16::test
