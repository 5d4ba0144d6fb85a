// Shared checks for gadget instances: one circuit synthesized on all three constraint systems
// must agree (counts, assignments value for value, recorded shape hash = test_system hash),
// be satisfied, and stop being satisfied when any single aux value changes.
#pragma once

#include <gtest/gtest.h>

#include <cstddef>
#include <random>
#include <span>
#include <vector>

#include "base/executor.hpp"
#include "r1cs/r1cs.hpp"

namespace cuzk::gadgets::test {

using r1cs::fr;

// Row-by-row satisfaction of a recorded shape under (inputs, aux): an independent checker that
// shares nothing with test_system but the shape.
inline bool shape_satisfied(const r1cs::r1cs_shape& shape, std::span<const fr> inputs, std::span<const fr> aux) {
  base::serial_executor serial;
  const r1cs::abc_vectors v = r1cs::evaluate_abc(shape, inputs, aux, serial);
  for (std::size_t i = 0; i < v.a.size(); ++i)
    if (v.a[i] * v.b[i] != v.c[i]) return false;
  return true;
}

// A value that differs from x: the other boolean for 0/1, x + 1 otherwise.
inline fr mutate(const fr& x) {
  if (x.is_zero()) return fr::one();
  if (x.is_one()) return fr::zero();
  return x + fr::one();
}

struct synthesized {
  r1cs::r1cs_shape shape;
  r1cs::test_system ts;
  std::vector<fr> wb_inputs, wb_aux;
};

// Synthesizes c on the recorder, the test system and the witness builder and checks that they
// agree and that the test system is satisfied.
template <class C>
synthesized synthesize_all(const C& c) {
  synthesized s;
  r1cs::shape_recorder rec;
  EXPECT_TRUE(c.synthesize(rec).ok());
  s.shape = std::move(rec).finish();
  EXPECT_TRUE(c.synthesize(s.ts).ok());
  r1cs::witness_builder wb(s.shape.num_inputs, s.shape.num_aux);
  EXPECT_TRUE(c.synthesize(wb).ok());
  EXPECT_EQ(wb.num_constraints(), s.shape.num_constraints);
  s.wb_inputs = wb.take_inputs();
  s.wb_aux = wb.take_aux();

  EXPECT_EQ(s.ts.num_constraints(), s.shape.num_constraints);
  EXPECT_EQ(s.ts.num_inputs(), s.shape.num_inputs);
  EXPECT_EQ(s.ts.num_aux(), s.shape.num_aux);
  EXPECT_EQ(s.ts.hash(), s.shape.hash_hex());
  const auto unsat = s.ts.which_is_unsatisfied();
  EXPECT_FALSE(unsat.has_value()) << "first unsatisfied: " << unsat.value_or("");
  // The witness builder's assignment equals the test system's, value for value.
  EXPECT_TRUE(std::equal(s.wb_inputs.begin(), s.wb_inputs.end(), s.ts.inputs().begin(), s.ts.inputs().end()));
  EXPECT_TRUE(std::equal(s.wb_aux.begin(), s.wb_aux.end(), s.ts.aux().begin(), s.ts.aux().end()));
  EXPECT_TRUE(shape_satisfied(s.shape, s.wb_inputs, s.wb_aux));
  return s;
}

// For each aux position in `positions` (all when empty and `all` is set): changing that one
// value must make the test system unsatisfied.
inline void expect_every_change_detected(r1cs::test_system& ts, const std::vector<std::size_t>& positions) {
  const auto names = ts.aux_names();
  for (std::size_t j : positions) {
    const fr old = ts.aux()[j];
    ts.set(names[j], mutate(old));
    EXPECT_FALSE(ts.is_satisfied()) << "changing aux " << j << " (" << names[j] << ") went unnoticed";
    ts.set(names[j], old);
  }
}

// The same through the recorded shape (for circuits too large for a test system in CI time).
inline void expect_every_change_detected(const r1cs::r1cs_shape& shape, std::span<const fr> inputs,
                                         std::vector<fr> aux, const std::vector<std::size_t>& positions) {
  for (std::size_t j : positions) {
    const fr old = aux[j];
    aux[j] = mutate(old);
    EXPECT_FALSE(shape_satisfied(shape, inputs, aux)) << "changing aux " << j << " went unnoticed";
    aux[j] = old;
  }
}

inline std::vector<std::size_t> all_positions(std::size_t n) {
  std::vector<std::size_t> p(n);
  for (std::size_t i = 0; i < n; ++i) p[i] = i;
  return p;
}

inline std::vector<std::size_t> sample_positions(std::size_t n, std::size_t count, std::mt19937_64& rng) {
  std::vector<std::size_t> p;
  std::uniform_int_distribution<std::size_t> d(0, n - 1);
  for (std::size_t i = 0; i < count; ++i) p.push_back(d(rng));
  p.push_back(0);
  p.push_back(n - 1);
  return p;
}

}  // namespace cuzk::gadgets::test
