// Random circuits through all three constraint systems: same assignments, recorded shape ==
// stored constraints, densities == brute force, evaluate_abc == direct evaluation (serial and
// TBB), satisfaction and naming of broken constraints, hash stability and sensitivity.
#include <gtest/gtest.h>

#include <memory>
#include <vector>

#include "r1cs/r1cs.hpp"
#include "support/seed.hpp"
#include "unit/r1cs/random_circuit.hpp"

namespace cuzk::r1cs {
namespace {

struct synthesized {
  test::random_circuit circuit;
  test_system ts;
  r1cs_shape shape;
  std::vector<fr> inputs, aux;
};

std::unique_ptr<synthesized> synthesize_all(uint64_t seed, std::size_t steps) {
  auto out = std::make_unique<synthesized>();
  out->circuit.seed = seed;
  out->circuit.steps = steps;
  EXPECT_TRUE(out->circuit.synthesize(out->ts).ok());

  shape_recorder rec;
  EXPECT_TRUE(out->circuit.synthesize(rec).ok());
  EXPECT_EQ(out->circuit.value_calls, 0u) << "the shape recorder called a value function";
  out->shape = std::move(rec).finish();

  witness_builder wb(out->shape.num_inputs, out->shape.num_aux);
  EXPECT_TRUE(out->circuit.synthesize(wb).ok());
  EXPECT_EQ(out->circuit.lc_calls, 0u) << "the witness builder called an LC lambda";
  EXPECT_EQ(wb.num_constraints(), out->shape.num_constraints);
  out->inputs = wb.take_inputs();
  out->aux = wb.take_aux();
  return out;
}

std::vector<term> nonzero_terms(const linear_combination& lc) {
  std::vector<term> out;
  for (const term& t : lc.terms())
    if (!t.coeff.is_zero()) out.push_back(t);
  return out;
}

TEST(r1cs_random_circuit, AllSystemsAgree) {
  test::seeded_rng rng;
  for (int iter = 0; iter < 6; ++iter) {
    const std::size_t steps = 50 + rng() % 1500;
    auto s = synthesize_all(rng(), steps);
    const test_system& ts = s->ts;
    const r1cs_shape& shape = s->shape;
    SCOPED_TRACE("iteration " + std::to_string(iter));

    // Counts.
    ASSERT_EQ(shape.num_inputs, ts.num_inputs());
    ASSERT_EQ(shape.num_aux, ts.num_aux());
    ASSERT_EQ(shape.num_constraints, ts.num_constraints());
    EXPECT_GT(ts.num_inputs(), 1u);
    // Some input was allocated after some aux variable (the column fix-up matters).
    if (steps > 200) {
      EXPECT_GT(s->circuit.inputs_after_aux, 0u);
    }
    // Witness builder == test system, value for value.
    ASSERT_EQ(s->inputs.size(), ts.num_inputs());
    ASSERT_EQ(s->aux.size(), ts.num_aux());
    for (std::size_t i = 0; i < s->inputs.size(); ++i) EXPECT_EQ(s->inputs[i], ts.inputs()[i]) << "input " << i;
    for (std::size_t j = 0; j < s->aux.size(); ++j) EXPECT_EQ(s->aux[j], ts.aux()[j]) << "aux " << j;
    EXPECT_TRUE(ts.is_satisfied()) << *ts.which_is_unsatisfied();

    // Recorded rows == the stored LCs without zero terms; CSR well formed.
    std::size_t nnz[3] = {0, 0, 0};
    for (std::size_t r = 0; r < shape.num_constraints; ++r) {
      const named_constraint& k = ts.constraints()[r];
      const linear_combination* lcs[3] = {&k.a, &k.b, &k.c};
      const csr_matrix* ms[3] = {&shape.a, &shape.b, &shape.c};
      for (int m = 0; m < 3; ++m) {
        const auto want = nonzero_terms(*lcs[m]);
        ASSERT_EQ(shape.row_terms(*ms[m], r), want) << "row " << r << " matrix " << m;
        nnz[m] += want.size();
        for (uint64_t e = ms[m]->row_ptr[r] + 1; e < ms[m]->row_ptr[r + 1]; ++e)
          EXPECT_LT(ms[m]->cols[e - 1], ms[m]->cols[e]);
      }
    }
    EXPECT_EQ(shape.a.nnz(), nnz[0]);
    EXPECT_EQ(shape.b.nnz(), nnz[1]);
    EXPECT_EQ(shape.c.nnz(), nnz[2]);
    EXPECT_EQ(shape.coeffs[coeff_id_one], fr::one());
    EXPECT_EQ(shape.coeffs[coeff_id_minus_one], -fr::one());
    for (std::size_t i = 2; i < shape.coeffs.size(); ++i) {
      EXPECT_FALSE(shape.coeffs[i].is_zero());
      EXPECT_NE(shape.coeffs[i], fr::one());
      EXPECT_NE(shape.coeffs[i], -fr::one());
    }

    // Densities by brute force over the stored constraints (bellperson's eval_with_trackers rule).
    density_bitmap a_aux(ts.num_aux()), b_in(ts.num_inputs()), b_aux(ts.num_aux());
    for (const named_constraint& k : ts.constraints()) {
      for (const term& t : k.a.terms())
        if (!t.coeff.is_zero() && t.var.is_aux()) a_aux.set(t.var.index());
      for (const term& t : k.b.terms()) {
        if (t.coeff.is_zero()) continue;
        (t.var.is_input() ? b_in : b_aux).set(t.var.index());
      }
    }
    EXPECT_EQ(shape.a_aux_density, a_aux);
    EXPECT_EQ(shape.b_input_density, b_in);
    EXPECT_EQ(shape.b_aux_density, b_aux);

    // The shape hash is bellpepper's hash of the same circuit.
    EXPECT_EQ(shape.hash_hex(), ts.hash());
  }
}

TEST(r1cs_random_circuit, EvaluateAbcMatchesDirectEvaluation) {
  test::seeded_rng rng;
  base::serial_executor serial;
  auto pool = base::make_thread_pool_executor(4);
  for (int iter = 0; iter < 4; ++iter) {
    // Large enough for several 4096-row chunks.
    auto s = synthesize_all(rng(), 4000 + rng() % 12000);
    const r1cs_shape& shape = s->shape;
    const abc_vectors v = evaluate_abc(shape, s->inputs, s->aux, serial);
    ASSERT_EQ(v.a.size(), shape.num_constraints);
    for (std::size_t r = 0; r < shape.num_constraints; ++r) {
      const constraint_values d = s->ts.evaluate(r);
      ASSERT_EQ(v.a[r], d.a) << "row " << r;
      ASSERT_EQ(v.b[r], d.b) << "row " << r;
      ASSERT_EQ(v.c[r], d.c) << "row " << r;
      ASSERT_EQ(v.a[r] * v.b[r], v.c[r]) << "row " << r;
    }
    const abc_vectors p = evaluate_abc(shape, s->inputs, s->aux, *pool, input_constraints::append);
    ASSERT_EQ(p.a.size(), shape.num_constraints + shape.num_inputs);
    EXPECT_TRUE(std::equal(v.a.begin(), v.a.end(), p.a.begin()));
    EXPECT_TRUE(std::equal(v.b.begin(), v.b.end(), p.b.begin()));
    EXPECT_TRUE(std::equal(v.c.begin(), v.c.end(), p.c.begin()));
    for (std::size_t i = 0; i < shape.num_inputs; ++i) {
      EXPECT_EQ(p.a[shape.num_constraints + i], s->inputs[i]);
      EXPECT_TRUE(p.b[shape.num_constraints + i].is_zero());
      EXPECT_TRUE(p.c[shape.num_constraints + i].is_zero());
    }
    // Into caller buffers that start uninitialised, and one matrix at a time.
    {
      const std::size_t total = shape.num_constraints + shape.num_inputs;
      std::unique_ptr<fr[]> a(new fr[total]), b(new fr[total]), c(new fr[total]);
      evaluate_abc_into(shape, s->inputs, s->aux, {a.get(), total}, {b.get(), total}, {c.get(), total}, *pool,
                        input_constraints::append);
      EXPECT_TRUE(std::equal(p.a.begin(), p.a.end(), a.get()));
      EXPECT_TRUE(std::equal(p.b.begin(), p.b.end(), b.get()));
      EXPECT_TRUE(std::equal(p.c.begin(), p.c.end(), c.get()));
      EXPECT_THROW(evaluate_abc_into(shape, s->inputs, s->aux, {a.get(), total}, {b.get(), total},
                                     {c.get(), total - 1}, serial, input_constraints::append),
                   std::invalid_argument);
      std::vector<fr> bb(shape.num_constraints);
      spmv(shape, shape.b, s->inputs, s->aux, bb, *pool);
      EXPECT_EQ(bb, v.b);
    }
    // Random (unsatisfying) assignments too: the product is linear in w, not tied to honesty.
    std::vector<fr> in(shape.num_inputs), aux(shape.num_aux);
    for (auto& x : in) x = fr::random(rng);
    for (auto& x : aux) x = fr::random(rng);
    const abc_vectors q = evaluate_abc(shape, in, aux, *pool);
    for (std::size_t r = 0; r < shape.num_constraints; r += 7) {
      const named_constraint& k = s->ts.constraints()[r];
      ASSERT_EQ(q.a[r], k.a.evaluate(in, aux));
      ASSERT_EQ(q.b[r], k.b.evaluate(in, aux));
      ASSERT_EQ(q.c[r], k.c.evaluate(in, aux));
    }
  }
  auto s = synthesize_all(1, 10);
  EXPECT_THROW(evaluate_abc(s->shape, s->inputs, std::span<const fr>(s->aux).first(s->aux.size() - 1), serial),
               std::invalid_argument);
}

TEST(r1cs_random_circuit, NamesTheBrokenConstraint) {
  test::seeded_rng rng;
  base::serial_executor serial;
  auto s = synthesize_all(rng(), 1500);
  test_system& ts = s->ts;
  const auto& defining = s->circuit.defining_constraint;
  ASSERT_EQ(defining.size(), ts.num_aux());
  int checked = 0;
  for (int t = 0; t < 40; ++t) {
    const std::size_t j = rng() % ts.num_aux();
    if (defining[j] == SIZE_MAX) continue;  // a free variable: not fixed by one constraint
    const fr old = ts.aux()[j];
    ts.set(ts.aux_names()[j], old + fr::one());
    // z_j first appears in (the C of) its defining constraint, with a nonzero coefficient.
    EXPECT_EQ(ts.which_is_unsatisfied(), ts.constraints()[defining[j]].path);
    // Cross-check with the sparse product: the first row with a*b != c.
    std::vector<fr> aux(ts.aux().begin(), ts.aux().end());
    const abc_vectors v = evaluate_abc(s->shape, ts.inputs(), aux, serial);
    std::size_t first = 0;
    while (first < v.a.size() && v.a[first] * v.b[first] == v.c[first]) ++first;
    EXPECT_EQ(first, defining[j]);
    ts.set(ts.aux_names()[j], old);
    ++checked;
  }
  EXPECT_GT(checked, 0);
  EXPECT_TRUE(ts.is_satisfied());
}

TEST(r1cs_random_circuit, FailingValueFunctionStopsEveryComputingSystem) {
  test::seeded_rng rng;
  test::random_circuit c;
  c.seed = rng();
  c.steps = 300;
  c.fail_at_step = 0;
  // Find a step that allocates (a free variable or a constraint's z) by trying a few.
  for (std::size_t step = 100; step < 300; ++step) {
    c.fail_at_step = step;
    witness_builder wb;
    result<void> r = c.synthesize(wb);
    if (r.ok()) continue;
    EXPECT_EQ(r.error(), synthesis_error::assignment_missing);
    test_system ts;
    r = c.synthesize(ts);
    ASSERT_FALSE(r);
    EXPECT_EQ(ts.num_aux(), wb.num_aux());
    shape_recorder rec;
    EXPECT_TRUE(c.synthesize(rec).ok());
    return;
  }
  FAIL() << "no allocating step found";
}

TEST(r1cs_shape_hash, StableAndSensitive) {
  // Pinned: this generator and seed give this circuit on every platform (raw mt19937_64 output
  // only), so the hash is pinned. It changes only if the generator or the hash changes.
  auto s = synthesize_all(20240601, 400);
  const std::string pinned = s->shape.hash_hex();
  EXPECT_EQ(pinned, s->ts.hash());
  EXPECT_EQ(synthesize_all(20240601, 400)->shape.hash_hex(), pinned);
  EXPECT_EQ(compute_shape_hash(s->shape), s->shape.hash);
  EXPECT_EQ(pinned, "50485a7bc280960fc222934d81226878f701427210fca8640bd941d3e5d93ec6");

  // Skipped hash stays zero until computed.
  {
    shape_recorder rec;
    ASSERT_TRUE(s->circuit.synthesize(rec).ok());
    r1cs_shape lazy = std::move(rec).finish(shape_hash::skip);
    EXPECT_EQ(lazy.hash, (std::array<uint8_t, 32>{}));
    EXPECT_EQ(compute_shape_hash(lazy), s->shape.hash);
  }

  test::seeded_rng rng;
  const r1cs_shape& base_shape = s->shape;
  auto changed = [&](const r1cs_shape& m) { return compute_shape_hash(m) != base_shape.hash; };
  for (int t = 0; t < 30; ++t) {
    csr_matrix r1cs_shape::*which[3] = {&r1cs_shape::a, &r1cs_shape::b, &r1cs_shape::c};
    csr_matrix r1cs_shape::*mp = which[rng() % 3];
    if ((base_shape.*mp).nnz() == 0) continue;
    const std::size_t e = rng() % (base_shape.*mp).nnz();
    {  // a coefficient
      r1cs_shape m = base_shape;
      (m.*mp).coeff_ids[e] = (m.*mp).coeff_ids[e] == coeff_id_one ? coeff_id_minus_one : coeff_id_one;
      EXPECT_TRUE(changed(m));
    }
    {  // a coefficient value in the table
      r1cs_shape m = base_shape;
      const uint32_t id = (m.*mp).coeff_ids[e];
      m.coeffs[id] += fr::one();
      EXPECT_TRUE(changed(m));
    }
    {  // a variable
      r1cs_shape m = base_shape;
      uint32_t& col = (m.*mp).cols[e];
      col = static_cast<uint32_t>((col + 1 + rng() % (m.num_columns() - 1)) % m.num_columns());
      EXPECT_TRUE(changed(m));
    }
  }
  {  // a constraint less
    r1cs_shape m = base_shape;
    m.num_constraints -= 1;
    EXPECT_TRUE(changed(m));
  }
  {  // an aux variable more
    r1cs_shape m = base_shape;
    m.num_aux += 1;
    EXPECT_TRUE(changed(m));
  }
  // A different circuit (different seed) hashes differently.
  EXPECT_NE(synthesize_all(20240602, 400)->shape.hash_hex(), pinned);
}

}  // namespace
}  // namespace cuzk::r1cs
