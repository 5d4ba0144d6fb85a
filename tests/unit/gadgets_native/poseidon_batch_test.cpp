// Batched Poseidon (8-lane AVX-512 IFMA when the CPU has it) against the scalar optimized
// permutation: random preimages and tags, edge values (0, 1, r - 1), batch sizes that leave a
// partial last batch, every Filecoin arity (16 and up fall back or use IFMA by width), and the
// neptune vectors.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "fixture_text.hpp"
#include "gadgets/native/poseidon_batch.hpp"
#include "gadgets/native/poseidon_native.hpp"
#include "gadgets/native/poseidon_witness.hpp"
#include "support/seed.hpp"

namespace {

using namespace cuzk::gadgets::native;

class poseidon_batch : public ::testing::TestWithParam<std::size_t> {};

TEST_P(poseidon_batch, MatchesScalar) {
  const std::size_t arity = GetParam();
  const poseidon_params& p = poseidon_constants(arity);
  const poseidon_batch_hasher& batch = poseidon_batch_for_arity(arity);
  const poseidon_batch_hasher scalar(p, poseidon_kernel::scalar);
  EXPECT_EQ(scalar.kernel(), poseidon_kernel::scalar);
  if (has_avx512_ifma() && arity <= 16) {
    EXPECT_EQ(batch.kernel(), poseidon_kernel::ifma);
  }
  std::printf("arity %zu: %s kernel\n", arity, batch.kernel() == poseidon_kernel::ifma ? "ifma" : "scalar");

  cuzk::test::seeded_rng rng;
  const fr minus_one = -fr::one();
  for (std::size_t count : {1u, 7u, 8u, 10u, 19u}) {
    std::vector<fr> in(count * arity);
    for (std::size_t i = 0; i < in.size(); ++i) {
      switch (rng() % 6) {
        case 0: in[i] = fr::zero(); break;
        case 1: in[i] = minus_one; break;
        case 2: in[i] = fr::one(); break;
        default: in[i] = fr::random(rng);
      }
    }
    const fr tag = (count == 19) ? fr::random(rng) : p.merkle_domain_tag;
    std::vector<fr> out(count), ref(count);
    batch.hash(in.data(), count, out.data(), tag);
    scalar.hash(in.data(), count, ref.data(), tag);
    for (std::size_t k = 0; k < count; ++k) {
      ASSERT_EQ(out[k], ref[k]) << "count " << count << " hash " << k;
      ASSERT_EQ(out[k], poseidon_hash(p, tag, std::span<const fr>(in.data() + k * arity, arity)));
    }
  }
  // All inputs r - 1: the largest canonical values through every lane.
  std::vector<fr> in(8 * arity, minus_one), out(8), ref(8);
  batch.hash(in.data(), 8, out.data());
  scalar.hash(in.data(), 8, ref.data());
  EXPECT_EQ(out, ref);
}

// The circuit witness recorded by the batch path equals the scalar twin's, value for value.
TEST_P(poseidon_batch, WitnessMatchesScalarTwin) {
  const std::size_t arity = GetParam();
  if (arity > 16) GTEST_SKIP() << "scalar fallback only";
  const poseidon_params& p = poseidon_constants(arity);
  const std::size_t w = poseidon_witness_size(p);
  cuzk::test::seeded_rng rng;
  const std::size_t count = 11;
  std::vector<fr> in(count * arity);
  for (fr& x : in) x = (rng() % 5 == 0) ? -fr::one() : fr::random(rng);
  const fr tag = fr::random(rng);
  std::vector<fr> out(count), aux(count * w);
  poseidon_batch_for_arity(arity).witness(in.data(), count, out.data(), aux.data(), tag);
  std::vector<fr> ref(w);
  for (std::size_t k = 0; k < count; ++k) {
    const fr h = poseidon_witness(p, tag, std::span<const fr>(in.data() + k * arity, arity), ref);
    ASSERT_EQ(out[k], h) << k;
    for (std::size_t i = 0; i < w; ++i) ASSERT_EQ(aux[k * w + i], ref[i]) << "hash " << k << " value " << i;
  }
}

INSTANTIATE_TEST_SUITE_P(arities, poseidon_batch, ::testing::Values(2, 4, 8, 11, 16, 24, 36));

// neptune's hash_values vectors (preimage [0, arity)) through the batch path, 8 copies.
TEST(poseidon_batch_vectors, Neptune) {
  const std::string text = cuzk::test::read_file(cuzk::test::filecoin_fixture("derived_test_vectors.json"));
  ASSERT_FALSE(text.empty()) << "missing fixtures under " << CUZK_FIXTURES_DIR;
  std::size_t pos = text.find("\"poseidon_merkletree_standard\"");
  for (std::size_t arity : {2, 4, 8, 11, 16}) {
    pos = text.find("\"arity\": " + std::to_string(arity) + ",", pos);
    ASSERT_NE(pos, std::string::npos);
    const std::string expect = cuzk::test::json_string_after(text, "output", pos);
    std::vector<fr> in;
    for (int copy = 0; copy < 9; ++copy)
      for (std::size_t i = 0; i < arity; ++i) in.push_back(fr::from_u64(i));
    std::vector<fr> out(9);
    poseidon_batch_for_arity(arity).hash(in.data(), 9, out.data());
    for (const fr& h : out) EXPECT_EQ(cuzk::test::fr_to_le_hex(h), expect) << arity;
  }
}

}  // namespace
