// The three constraint systems on hand-written circuits: exact CSR contents, names and
// namespaces, failing value functions, bellpepper's hash.
#include <gtest/gtest.h>

#include <stdexcept>
#include <vector>

#include "r1cs/r1cs.hpp"

namespace cuzk::r1cs {
namespace {

fr f(uint64_t x) { return fr::from_u64(x); }

// x^3 + x + 5 = out, with out = 35 public and x = 3 (the classic example). The input is
// allocated after the first aux variable, so the column numbering must be fixed at the end.
template <constraint_system CS>
result<void> cubic(CS& cs, uint64_t x_value = 3, uint64_t out_value = 35) {
  scoped_namespace ns(cs, "cubic");  // CTAD: scoped_namespace<CS>
  CUZK_R1CS_TRY(variable x, cs.alloc("x", [&] { return f(x_value); }));
  CUZK_R1CS_TRY(variable out, cs.alloc_input("out", [&]() -> result<fr> { return f(out_value); }));
  CUZK_R1CS_TRY(variable x2, cs.alloc("x2", [&] { return f(x_value * x_value); }));
  CUZK_R1CS_TRY(variable x3, cs.alloc("x3", [&] { return f(x_value * x_value * x_value); }));
  cs.enforce("x * x = x2", x, x, x2);
  cs.enforce("x2 * x = x3", [&](linear_combination lc) { return lc + x2; },
             [&](linear_combination lc) { return lc + x; }, [&](linear_combination lc) { return lc + x3; });
  cs.enforce("x3 + x + 5 = out", [&](linear_combination lc) { return lc + x3 + x + f(5) * CS::one(); },
             CS::one(), out);
  return ok();
}

TEST(r1cs_shape, CubicExactCsr) {
  shape_recorder rec;
  ASSERT_TRUE(cubic(rec).ok());
  const r1cs_shape s = std::move(rec).finish();
  EXPECT_EQ(s.num_constraints, 3u);
  EXPECT_EQ(s.num_inputs, 2u);
  EXPECT_EQ(s.num_aux, 3u);
  // Columns: ONE = 0, out = 1, x = 2, x2 = 3, x3 = 4. Coefficient ids: 0 = 1, 1 = -1, 2 = 5.
  EXPECT_EQ(s.a.row_ptr, (std::vector<uint64_t>{0, 1, 2, 5}));
  EXPECT_EQ(s.a.cols, (std::vector<uint32_t>{2, 3, 0, 2, 4}));
  EXPECT_EQ(s.a.coeff_ids, (std::vector<uint32_t>{0, 0, 2, 0, 0}));
  EXPECT_EQ(s.b.row_ptr, (std::vector<uint64_t>{0, 1, 2, 3}));
  EXPECT_EQ(s.b.cols, (std::vector<uint32_t>{2, 2, 0}));
  EXPECT_EQ(s.b.coeff_ids, (std::vector<uint32_t>{0, 0, 0}));
  EXPECT_EQ(s.c.row_ptr, (std::vector<uint64_t>{0, 1, 2, 3}));
  EXPECT_EQ(s.c.cols, (std::vector<uint32_t>{3, 4, 1}));
  EXPECT_EQ(s.c.coeff_ids, (std::vector<uint32_t>{0, 0, 0}));
  EXPECT_EQ(s.coeffs, (std::vector<fr>{fr::one(), -fr::one(), f(5)}));
  EXPECT_EQ(s.a.nnz(), 5u);
  EXPECT_EQ(s.b.nnz(), 3u);
  EXPECT_EQ(s.c.nnz(), 3u);
  // Densities: every aux in A; only ONE among the inputs in B; only x among the aux in B.
  EXPECT_EQ(s.a_aux_density.size(), 3u);
  EXPECT_EQ(s.a_aux_density.count(), 3u);
  EXPECT_EQ(s.b_input_density.size(), 2u);
  EXPECT_TRUE(s.b_input_density.test(0));
  EXPECT_FALSE(s.b_input_density.test(1));
  EXPECT_EQ(s.b_aux_density.count(), 1u);
  EXPECT_TRUE(s.b_aux_density.test(0));
  // bellpepper's TestConstraintSystem::hash() of this circuit, computed independently
  // (Python hashlib.blake2s over the serialisation documented in shape.hpp).
  EXPECT_EQ(s.hash_hex(), "8d6da92510454d6e548289644c650d0e4792a80c3912987952620e36b14836ac");
  const auto row2 = s.row_terms(s.a, 2);
  ASSERT_EQ(row2.size(), 3u);
  EXPECT_EQ(row2[0].var, variable::one());
  EXPECT_EQ(row2[0].coeff, f(5));
  EXPECT_EQ(row2[2].var, variable::aux(2));
}

TEST(r1cs_test_system, CubicSatisfiedNamedAndHashed) {
  test_system ts;
  ASSERT_TRUE(cubic(ts).ok());
  EXPECT_TRUE(ts.is_satisfied());
  EXPECT_EQ(ts.num_inputs(), 2u);
  EXPECT_EQ(ts.num_aux(), 3u);
  EXPECT_EQ(ts.num_constraints(), 3u);
  EXPECT_EQ(ts.hash(), "8d6da92510454d6e548289644c650d0e4792a80c3912987952620e36b14836ac");
  EXPECT_EQ(ts.input_names()[0], "ONE");
  EXPECT_EQ(ts.input_names()[1], "cubic/out");
  EXPECT_EQ(ts.aux_names()[2], "cubic/x3");
  EXPECT_EQ(ts.constraints()[2].path, "cubic/x3 + x + 5 = out");
  EXPECT_EQ(ts.get("cubic/x2"), f(9));
  EXPECT_EQ(ts.get("ONE"), fr::one());
  EXPECT_TRUE(ts.verify(std::vector<fr>{f(35)}));
  EXPECT_FALSE(ts.verify(std::vector<fr>{f(36)}));

  ts.set("cubic/x3", f(28));
  EXPECT_EQ(ts.which_is_unsatisfied(), "cubic/x2 * x = x3");
  ts.set("cubic/x3", f(27));
  ts.set("cubic/out", f(36));
  EXPECT_EQ(ts.which_is_unsatisfied(), "cubic/x3 + x + 5 = out");
  ts.set("cubic/x", f(4));
  EXPECT_EQ(ts.which_is_unsatisfied(), "cubic/x * x = x2");
  EXPECT_THROW(ts.get("cubic/nothing"), std::out_of_range);
  EXPECT_THROW(ts.get("cubic"), std::out_of_range);  // a namespace, not a variable
  EXPECT_THROW(ts.get("cubic/x * x = x2"), std::out_of_range);
}

TEST(r1cs_test_system, WrongWitnessIsUnsatisfied) {
  test_system ts;
  ASSERT_TRUE(cubic(ts, 3, 36).ok());
  EXPECT_FALSE(ts.is_satisfied());
  EXPECT_EQ(ts.which_is_unsatisfied(), "cubic/x3 + x + 5 = out");
}

TEST(r1cs_test_system, PathRulesLikeBellpepper) {
  test_system ts;
  ASSERT_TRUE(ts.alloc("a", [] { return fr::one(); }).ok());
  EXPECT_THROW((void)ts.alloc("a", [] { return fr::one(); }), std::logic_error);
  EXPECT_THROW((void)ts.alloc("b/c", [] { return fr::one(); }), std::logic_error);
  EXPECT_THROW(ts.push_namespace("a"), std::logic_error);  // a variable lives at "a"
  ts.push_namespace("n");
  ts.push_namespace([] { return std::string("m"); });
  ASSERT_TRUE(ts.alloc([] { return std::string("a"); }, [] { return fr::one(); }).ok());
  EXPECT_EQ(ts.aux_names().back(), "n/m/a");
  ts.enforce("k", variable::one(), variable::one(), variable::one());
  EXPECT_THROW(ts.enforce("k", variable::one(), variable::one(), variable::one()), std::logic_error);
  ts.pop_namespace();
  EXPECT_THROW(ts.push_namespace("m"), std::logic_error);  // n/m exists already
  ts.pop_namespace();
  EXPECT_THROW(ts.pop_namespace(), std::logic_error);
  EXPECT_TRUE(ts.is_satisfied());
  EXPECT_EQ(ts.constraints()[0].path, "n/m/k");
}

template <constraint_system CS>
result<void> failing(CS& cs, int& calls) {
  CUZK_R1CS_TRY(variable a, cs.alloc("a", [&] { ++calls; return f(2); }));
  CUZK_R1CS_TRY(variable b, cs.alloc("b", [&]() -> result<fr> { ++calls; return synthesis_error::assignment_missing; }));
  cs.enforce("never", a, b, a);
  return ok();
}

TEST(r1cs_constraint_systems, FailingValueFunctionPropagates) {
  int calls = 0;
  witness_builder wb;
  result<void> r = failing(wb, calls);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error(), synthesis_error::assignment_missing);
  EXPECT_EQ(calls, 2);
  EXPECT_EQ(wb.num_aux(), 1u);  // nothing allocated for the failed variable
  EXPECT_EQ(wb.num_constraints(), 0u);

  calls = 0;
  test_system ts;
  r = failing(ts, calls);
  ASSERT_FALSE(r);
  EXPECT_EQ(calls, 2);
  EXPECT_EQ(ts.num_aux(), 1u);

  // Recording a shape never calls value functions, so it cannot fail on a missing value.
  calls = 0;
  shape_recorder rec;
  EXPECT_TRUE(failing(rec, calls).ok());
  EXPECT_EQ(calls, 0);
  EXPECT_EQ(rec.num_constraints(), 1u);
}

TEST(r1cs_constraint_systems, ComputesValuesAndLazyArguments) {
  static_assert(!shape_recorder::computes_values);
  static_assert(witness_builder::computes_values);
  static_assert(test_system::computes_values);
  int lc_calls = 0, name_calls = 0;
  auto name = [&] { ++name_calls; return std::string("n"); };
  auto lc = [&](linear_combination l) { ++lc_calls; return l + variable::one(); };
  witness_builder wb;
  wb.enforce(name, lc, lc, lc);
  wb.push_namespace(name);
  wb.pop_namespace();
  EXPECT_EQ(lc_calls, 0);
  EXPECT_EQ(name_calls, 0);
  EXPECT_EQ(wb.num_constraints(), 1u);
  shape_recorder rec;
  rec.enforce(name, lc, lc, lc);
  EXPECT_EQ(lc_calls, 3);
  EXPECT_EQ(name_calls, 0);
  test_system ts;
  ts.enforce(name, lc, lc, lc);
  EXPECT_EQ(name_calls, 1);
  EXPECT_TRUE(ts.is_satisfied());
}

TEST(r1cs_shape, EmptyCircuitAndZeroCoefficients) {
  shape_recorder rec;
  r1cs_shape empty = shape_recorder().finish();
  EXPECT_EQ(empty.num_inputs, 1u);
  EXPECT_EQ(empty.num_aux, 0u);
  EXPECT_EQ(empty.num_constraints, 0u);
  EXPECT_EQ(empty.hash_hex(), "958191931feaed50efb8195a7e9084aba2c230e2886c2f11a2cff90a9117095e");

  // (-ONE + 3 a - 0 b) * 0 = (2^200 + 7) a, with cancelled terms: the zero terms are dropped.
  test_system ts;
  const variable a = *rec.alloc("a", [] { return fr::zero(); });
  (void)*ts.alloc("a", [] { return fr::zero(); });
  fr big = fr::one();
  for (int i = 0; i < 200; ++i) big = big + big;
  big += f(7);
  auto build = [&](auto& cs) {
    cs.enforce("k", [&](linear_combination lc) { return lc - variable::one() + f(3) * a + a - a; },
               [&](linear_combination lc) { return lc + a - a; }, big * a);
  };
  build(rec);
  build(ts);
  const r1cs_shape s = std::move(rec).finish();
  EXPECT_EQ(s.a.nnz(), 2u);
  EXPECT_EQ(s.b.nnz(), 0u);
  EXPECT_EQ(s.b_aux_density.count(), 0u);  // a's B coefficient cancels: not counted (bellperson)
  EXPECT_EQ(s.a.coeff_ids, (std::vector<uint32_t>{coeff_id_minus_one, 2}));
  EXPECT_EQ(s.hash_hex(), "5618f04be679bbf346b2caa3e87aea5ef2aa771538901dc439fb566cae4aa769");
  EXPECT_EQ(ts.hash(), s.hash_hex());
  EXPECT_EQ(ts.constraints()[0].b.size(), 1u);  // the LC itself keeps the zero term
}

}  // namespace
}  // namespace cuzk::r1cs
