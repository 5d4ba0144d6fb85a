// A random-circuit generator for the r1cs tests. Everything structural (which variables, which
// coefficients, which constraints, names, namespaces) comes from one mt19937_64 stream seeded by
// `seed`, values from a second one, and both are drawn whatever the constraint system, so the
// same seed synthesizes the same circuit into every implementation. Only raw generator output is
// used (no std::uniform_*_distribution, whose results are implementation-defined), so a seed
// gives the same circuit on every platform.
//
// The circuit: inputs allocated at random points (not only first), free aux variables, and
// constraints A * B = C where A and B are random linear combinations (with repeated variables,
// terms that cancel to zero, ONE and inputs) and C = k*z + L for a fresh aux z whose value makes
// the constraint hold; sometimes 0 * B = L - <L,w>*ONE instead. Names are unique per namespace.
#pragma once

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "r1cs/r1cs.hpp"

namespace cuzk::test {

struct random_circuit {
  uint64_t seed = 1;
  std::size_t steps = 500;
  std::size_t max_terms = 6;
  // If set, the value function of the aux variable allocated at this step fails with
  // assignment_missing (to test error propagation).
  std::size_t fail_at_step = SIZE_MAX;

  // Filled in by synthesize (the last call's):
  mutable std::size_t value_calls = 0;      // value functions called
  mutable std::size_t lc_calls = 0;         // LC-building lambdas called
  mutable std::size_t inputs_after_aux = 0;  // inputs allocated after the first aux variable
  mutable std::vector<std::size_t> defining_constraint;  // per aux: the constraint that fixes it, or SIZE_MAX

  template <r1cs::constraint_system CS>
  r1cs::result<void> synthesize(CS& cs) const {
    using r1cs::fr;
    using r1cs::linear_combination;
    using r1cs::variable;
    std::mt19937_64 srng(seed);
    std::mt19937_64 vrng(seed ^ 0x5DEECE66DULL);
    value_calls = 0;
    lc_calls = 0;
    inputs_after_aux = 0;
    defining_constraint.clear();

    std::vector<fr> in_vals{fr::one()};
    std::vector<fr> aux_vals;
    std::vector<variable> vars{variable::one()};
    auto value_of = [&](variable v) -> const fr& { return v.is_input() ? in_vals[v.index()] : aux_vals[v.index()]; };
    auto below = [&](uint64_t n) { return static_cast<std::size_t>(srng() % n); };
    auto random_value = [&]() -> fr {
      switch (vrng() % 4) {
        case 0: return fr::zero();
        case 1: return fr::one();
        default: return fr::random(vrng);
      }
    };
    auto random_coeff = [&]() -> fr {
      switch (below(8)) {
        case 0: case 1: case 2: return fr::one();
        case 3: return -fr::one();
        case 4: return fr::from_u64(2 + below(5));
        case 5: return -fr::from_u64(2 + below(5));
        default: return fr::random(srng);
      }
    };
    auto pick_var = [&]() { return vars[below(vars.size())]; };
    auto random_lc = [&]() {
      linear_combination lc;
      const std::size_t n = below(max_terms + 1);
      for (std::size_t t = 0; t < n; ++t) {
        const variable v = pick_var();
        const fr c = random_coeff();
        switch (below(6)) {
          case 0:  // the same variable again, merged
            lc += c * v;
            lc += c * v;
            break;
          case 1:  // a term that cancels to a zero coefficient (kept by the LC)
            lc += c * v;
            lc -= c * v;
            break;
          case 2:
            lc = lc - v;
            break;
          default:
            lc.add_term(v, c);
        }
      }
      return lc;
    };
    auto eval = [&](const linear_combination& lc) {
      fr acc = fr::zero();
      for (const r1cs::term& t : lc.terms()) acc += t.coeff * value_of(t.var);
      return acc;
    };

    std::size_t name_counter = 0;
    auto fresh_name = [&](const char* prefix) { return std::string(prefix) + std::to_string(name_counter++); };
    std::size_t open_namespaces = 0;

    for (std::size_t step = 0; step < steps; ++step) {
      const std::size_t op = below(100);
      if (op < 4) {
        cs.push_namespace(fresh_name("ns"));
        ++open_namespaces;
      } else if (op < 8) {
        if (open_namespaces) {
          cs.pop_namespace();
          --open_namespaces;
        }
      } else if (op < 16) {  // an input in the middle of synthesis
        const fr val = random_value();
        auto r = cs.alloc_input(fresh_name("in"), [&] {
          ++value_calls;
          return val;
        });
        if (!r) return r.error();
        if (!aux_vals.empty()) ++inputs_after_aux;
        in_vals.push_back(val);
        vars.push_back(*r);
      } else if (op < 26) {  // a free aux variable (lazily named)
        const fr val = random_value();
        const std::size_t id = name_counter++;
        const bool fail = step == fail_at_step;
        auto r = cs.alloc([&] { return "free" + std::to_string(id); },
                          [&]() -> r1cs::result<fr> {
                            ++value_calls;
                            if (fail) return r1cs::synthesis_error::assignment_missing;
                            return val;
                          });
        if (!r) return r.error();
        aux_vals.push_back(val);
        defining_constraint.push_back(SIZE_MAX);
        vars.push_back(*r);
      } else if (op < 31) {  // 0 * B = L - <L,w> * ONE  (A empty, C evaluates to zero)
        linear_combination b = random_lc();
        linear_combination l = random_lc();
        const fr lv = eval(l);
        l -= lv * variable::one();
        cs.enforce(fresh_name("zero"), linear_combination{}, b, [&](linear_combination lc) {
          ++lc_calls;
          return lc + l;
        });
      } else {  // A * B = k*z + L with a fresh z
        const linear_combination a = random_lc();
        linear_combination b = below(4) == 0 ? linear_combination(variable::one()) : random_lc();
        const linear_combination l = random_lc();
        fr k = random_coeff();
        if (k.is_zero()) k = fr::one();
        const fr zv = (eval(a) * eval(b) - eval(l)) * k.inverse();
        auto r = cs.alloc(fresh_name("z"), [&]() -> r1cs::result<fr> {
          ++value_calls;
          if (step == fail_at_step) return r1cs::synthesis_error::assignment_missing;
          return zv;
        });
        if (!r) return r.error();
        const variable z = *r;
        aux_vals.push_back(zv);
        vars.push_back(z);
        defining_constraint.push_back(cs.num_constraints());
        // Exercise the three argument forms.
        switch (below(3)) {
          case 0:
            cs.enforce(fresh_name("c"), [&](linear_combination lc) { ++lc_calls; return lc + a; },
                       [&](linear_combination lc) { ++lc_calls; return lc + b; },
                       [&](linear_combination lc) { ++lc_calls; return lc + l + k * z; });
            break;
          case 1:
            cs.enforce(fresh_name("c"), a, b, l + k * z);
            break;
          default: {
            linear_combination c = k * linear_combination(z);
            c += l;
            cs.enforce([&] { return fresh_name("c"); }, a, std::move(b), c);
          }
        }
      }
    }
    while (open_namespaces--) cs.pop_namespace();
    return r1cs::ok();
  }
};

}  // namespace cuzk::test
