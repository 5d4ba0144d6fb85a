// Poseidon circuit (neptune's legacy circuit): pinned constraint counts (neptune's own test
// numbers) and shape hashes, outputs against neptune's vectors and the native hash, the three
// constraint systems against each other and against the native witness twin, and single-value
// mutations that must break satisfaction.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "gadgets/circuit/poseidon_circuit.hpp"
#include "gadgets/native/poseidon_native.hpp"
#include "gadgets/native/poseidon_witness.hpp"
#include "r1cs/r1cs.hpp"
#include "support/seed.hpp"
#include "unit/gadgets_native/fixture_text.hpp"

namespace {

using namespace cuzk;
using cuzk::gadgets::allocated_num;
using cuzk::gadgets::poseidon_hash_circuit;
using cuzk::gadgets::native::poseidon_constants;
using cuzk::gadgets::native::poseidon_params;
using fr = cuzk::ff::fr;

// neptune's test circuit: allocate the preimage ("data i"), hash it.
template <class CS>
r1cs::result<allocated_num> hash_circuit(CS& cs, const poseidon_params& p, const std::vector<fr>& pre, const fr& tag) {
  std::vector<allocated_num> in;
  for (std::size_t i = 0; i < pre.size(); ++i) {
    CUZK_R1CS_TRY(r1cs::variable v, cs.alloc([i] { return "data " + std::to_string(i); }, [&] { return pre[i]; }));
    in.push_back({v, pre[i]});
  }
  return poseidon_hash_circuit(cs, in, p, tag);
}

std::vector<fr> iota(std::size_t n) {
  std::vector<fr> v;
  for (std::size_t i = 0; i < n; ++i) v.push_back(fr::from_u64(i));
  return v;
}

struct pinned {
  std::size_t arity, constraints;
  const char* shape_hash;
};
// Constraint counts: neptune circuit.rs test_poseidon_hash (Standard strength) and
// filecoin.md §3.5. Shape hashes: ours (bellpepper's TestConstraintSystem::hash algorithm over
// "allocate the preimage, hash it"); pinned so any drift in constraint structure fails.
constexpr pinned kPinned[] = {
    {2, 311, "658f013f99360e164ad8e7f96290944601cc064f93c153d9ea7ac1275927175f"},
    {4, 377, "2360602a7c4555d454b46891236273f4ae308090bc916fdcef1fb81d00ebbe70"},
    {8, 505, "ab50aeda63344f7125999ef5c4af7777380b9015ec82ad48bac2213e9353b163"},
    {11, 598, "e94a28106cbb9a718e525f0f2593ce3b138350047854ebcc3c83472ed482a6f6"},
    {16, 761, "8a505dae4403e57b9e890c342d06175b1277033ebb1977417179b9170815d9f7"},
    {24, 1009, "d2442574550d759d9931eb827be35995fabe934c7105e21f4c2af40ca8003f1f"},
    {36, 1385, "82a32bd5b41ed6413f3b858da811eb7f9a1519b160c082be307a21ff64364465"},
};

class poseidon_circuit : public ::testing::TestWithParam<pinned> {};

TEST_P(poseidon_circuit, CountsAndShapeHash) {
  const pinned& k = GetParam();
  const poseidon_params& p = poseidon_constants(k.arity);
  r1cs::shape_recorder rec;
  ASSERT_TRUE(hash_circuit(rec, p, iota(k.arity), p.merkle_domain_tag));
  const r1cs::r1cs_shape shape = std::move(rec).finish();
  EXPECT_EQ(shape.num_constraints, k.constraints);
  EXPECT_EQ(gadgets::poseidon_circuit_constraints(p), k.constraints);
  EXPECT_EQ(shape.num_aux, k.arity + k.constraints);
  EXPECT_EQ(shape.num_inputs, 1u);
  EXPECT_EQ(shape.hash_hex(), k.shape_hash) << "arity " << k.arity;

  r1cs::test_system ts;
  ASSERT_TRUE(hash_circuit(ts, p, iota(k.arity), p.merkle_domain_tag));
  EXPECT_EQ(ts.hash(), shape.hash_hex());
}

// Output = neptune's hash_values vector for preimage [0, arity); satisfied; the test system,
// the witness builder and the native twin produce the same aux vector.
TEST_P(poseidon_circuit, NeptuneVectorAndWitnessTwins) {
  const pinned& k = GetParam();
  const poseidon_params& p = poseidon_constants(k.arity);
  const std::string text = test::read_file(test::filecoin_fixture("derived_test_vectors.json"));
  ASSERT_FALSE(text.empty()) << "missing fixtures under " << CUZK_FIXTURES_DIR;
  std::size_t pos = text.find("\"arity\": " + std::to_string(k.arity) + ",", text.find("\"poseidon_merkletree_standard\""));
  ASSERT_NE(pos, std::string::npos);
  const std::string expect = test::json_string_after(text, "output", pos);

  const std::vector<fr> pre = iota(k.arity);
  r1cs::test_system ts;
  auto out = hash_circuit(ts, p, pre, p.merkle_domain_tag);
  ASSERT_TRUE(out);
  EXPECT_EQ(test::fr_to_le_hex(out->value), expect);
  EXPECT_EQ(test::fr_to_le_hex(ts.aux().back()), expect);
  EXPECT_TRUE(ts.is_satisfied()) << *ts.which_is_unsatisfied();

  r1cs::witness_builder wb;
  auto out_wb = hash_circuit(wb, p, pre, p.merkle_domain_tag);
  ASSERT_TRUE(out_wb);
  ASSERT_EQ(wb.aux().size(), ts.aux().size());
  for (std::size_t i = 0; i < ts.aux().size(); ++i) ASSERT_EQ(wb.aux()[i], ts.aux()[i]) << ts.aux_names()[i];
  EXPECT_EQ(wb.num_constraints(), k.constraints);

  std::vector<fr> twin(gadgets::native::poseidon_witness_size(p));
  ASSERT_EQ(twin.size(), k.constraints);
  const fr h = gadgets::native::poseidon_witness(p, p.merkle_domain_tag, pre, twin);
  EXPECT_EQ(test::fr_to_le_hex(h), expect);
  for (std::size_t i = 0; i < twin.size(); ++i) ASSERT_EQ(twin[i], ts.aux()[k.arity + i]) << ts.aux_names()[k.arity + i];
}

INSTANTIATE_TEST_SUITE_P(arities, poseidon_circuit, ::testing::ValuesIn(kPinned),
                         [](const auto& param_info) { return "arity" + std::to_string(param_info.param.arity); });

// Random preimages and tags: circuit output = native hash, the twin's witness satisfies the
// circuit, and changing any one aux value (preimage included) breaks it.
class poseidon_circuit_random : public ::testing::TestWithParam<std::size_t> {};

TEST_P(poseidon_circuit_random, TwinWitnessSatisfiesAndEveryMutationBreaks) {
  const std::size_t arity = GetParam();
  const poseidon_params& p = poseidon_constants(arity);
  test::seeded_rng rng;
  std::vector<fr> pre;
  for (std::size_t i = 0; i < arity; ++i) pre.push_back(fr::random(rng));
  const fr tag = fr::random(rng);

  r1cs::test_system ts;
  auto out = hash_circuit(ts, p, pre, tag);
  ASSERT_TRUE(out);
  EXPECT_EQ(out->value, gadgets::native::poseidon_hash(p, tag, pre));

  // Overwrite the circuit's own values with the twin's; it must satisfy the constraints.
  std::vector<fr> twin(gadgets::native::poseidon_witness_size(p));
  (void)gadgets::native::poseidon_witness(p, tag, pre, twin);
  for (std::size_t i = 0; i < twin.size(); ++i) ts.set(ts.aux_names()[arity + i], twin[i]);
  ASSERT_TRUE(ts.is_satisfied()) << *ts.which_is_unsatisfied();

  const fr delta = fr::random(rng);
  for (std::size_t i = 0; i < ts.aux().size(); ++i) {
    const std::string& name = ts.aux_names()[i];
    const fr v = ts.aux()[i];
    ts.set(name, v + delta);
    ASSERT_FALSE(ts.is_satisfied()) << "mutating " << name << " kept the circuit satisfied";
    ts.set(name, v);
  }
}

INSTANTIATE_TEST_SUITE_P(arities, poseidon_circuit_random, ::testing::Values(2, 4, 8, 11));

// The SnapDeals custom tag (1 * 2^40) through the circuit (fixture: self-computed vector).
TEST(poseidon_circuit_tags, CustomTagArity2) {
  const std::string text = test::read_file(test::filecoin_fixture("derived_test_vectors.json"));
  std::size_t e = text.find("\"poseidon_custom_tag_selfcomputed\"");
  ASSERT_NE(e, std::string::npos);
  const std::string expect = test::json_string_after(text, "output", e);
  r1cs::test_system ts;
  auto out = hash_circuit(ts, poseidon_constants(2), {fr::from_u64(1), fr::from_u64(2)},
                          gadgets::native::poseidon_custom_tag(1));
  ASSERT_TRUE(out);
  EXPECT_EQ(test::fr_to_le_hex(out->value), expect);
  EXPECT_TRUE(ts.is_satisfied());
}

}  // namespace
