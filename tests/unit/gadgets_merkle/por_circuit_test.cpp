// Merkle inclusion (PoR) circuits: pinned per-level counts (storage-proofs-core's 530 / 387 /
// 314 for Poseidon arity 8 / 4 / 2, 45,382 for a binary SHA-256 level) and shape hashes per tree
// shape, satisfaction by paths from the native tree builders and from the real 32 GiB PoSt
// vanilla proof, the public input (the leaf index), the witness builder against the test
// system, and single-value mutations.
#include <gtest/gtest.h>

#include <bit>
#include <numeric>
#include <string>
#include <tuple>
#include <vector>

#include "gadgets/circuit/merkle_circuit.hpp"
#include "gadgets/circuit/merkle_sha256_witness.hpp"
#include "gadgets/native/merkle_tree.hpp"
#include "gadgets/native/merkle_witness.hpp"
#include "gadgets/native/post_vanilla_proof.hpp"
#include "r1cs/r1cs.hpp"
#include "support/seed.hpp"
#include "unit/gadgets_native/fixture_text.hpp"

namespace {

using namespace cuzk;
using gadgets::merkle_arities;
using gadgets::merkle_hash;
using gadgets::merkle_root_arg;
using native_level = gadgets::native::merkle_path_level<ff::fr>;
using fr = ff::fr;

template <class CS>
r1cs::result<void> por(CS& cs, merkle_hash h, merkle_arities a, const fr& leaf, const std::vector<native_level>& path,
                       const fr& root, bool private_root = true) {
  return gadgets::por_circuit(cs, h, a, merkle_root_arg::of_value(leaf), path, merkle_root_arg::of_value(root), private_root);
}

r1cs::r1cs_shape record(merkle_hash h, merkle_arities a, std::size_t base_levels, bool private_root = true) {
  r1cs::shape_recorder rec;
  EXPECT_TRUE(por(rec, h, a, fr::zero(), gadgets::blank_merkle_path(a, base_levels), fr::zero(), private_root));
  return std::move(rec).finish();
}

TEST(por_circuit, PerLevelCounts) {
  struct level_case {
    merkle_hash h;
    std::size_t arity, per_level;
  };
  for (const level_case& c : {level_case{merkle_hash::poseidon, 8, 530}, level_case{merkle_hash::poseidon, 4, 387},
                              level_case{merkle_hash::poseidon, 2, 314}, level_case{merkle_hash::sha256, 2, 45382}}) {
    const merkle_arities a{c.arity, 0, 0};
    const r1cs::r1cs_shape one = record(c.h, a, 1), two = record(c.h, a, 2);
    EXPECT_EQ(two.num_constraints - one.num_constraints, c.per_level) << c.arity;
    EXPECT_EQ(one.num_constraints, c.per_level + 2) << c.arity;  // + packing + root equality
    EXPECT_EQ(one.num_inputs, 2u);                                // ONE, the leaf index
    const r1cs::r1cs_shape pub = record(c.h, a, 1, false);
    EXPECT_EQ(pub.num_constraints, one.num_constraints + 1);
    EXPECT_EQ(pub.num_inputs, 3u);
  }
}

struct pinned_shape {
  const char* name;
  merkle_arities a;
  std::size_t base_levels, constraints;
  const char* hash;
};
// Filecoin's TreeR/TreeC shapes (2 KiB: 8-0-0 of 2 levels; 512 MiB: 8 levels; 32 GiB: 8-8-0 of
// 9 + 1; 64 GiB: 8-8-2 of 9 + 1 + 1) and the PoSt unit-test / small shapes. Counts follow from
// the per-level costs (T = sum of levels + 2, filecoin.md §3.5); hashes are ours, pinned.
constexpr pinned_shape kShapes[] = {
    {"poseidon-8-0-0-2kib", {8, 0, 0}, 2, 2 * 530 + 2, "a87d5c076c5882911c7073da19dba3a6bc1cfb7bd107afae8a18337734146519"},
    {"poseidon-8-0-0-512mib", {8, 0, 0}, 8, 8 * 530 + 2, "4b92d1ee0f1abeb8abb62a08fedc5c3228380fc926e144cf7b18863b499927a2"},
    {"poseidon-8-8-0-32gib", {8, 8, 0}, 9, 10 * 530 + 2, "a46206a9678fe01d3ea72cb2720d45b5bfadba08dd7f8a42471fc9792f7e6350"},
    {"poseidon-8-8-2-64gib", {8, 8, 2}, 9, 10 * 530 + 314 + 2, "0ade48192232f4b1e698e21f7644ec0b1ed9dfd406157b55703e7dbfcf179ba2"},
    {"poseidon-4-0-0-4", {4, 0, 0}, 4, 4 * 387 + 2, "1bed81fdd42b05664cb4e91179e1ada874bbe54bc773e0aa575ab20914b93520"},
    {"poseidon-2-0-0-6", {2, 0, 0}, 6, 6 * 314 + 2, "50591f837498dec42fd5f021c2ef48eaa3ab858a3aae9dbf522abae3b31d29a8"},
};

class por_shape : public ::testing::TestWithParam<pinned_shape> {};

TEST_P(por_shape, CountAndShapeHash) {
  const pinned_shape& k = GetParam();
  const r1cs::r1cs_shape s = record(merkle_hash::poseidon, k.a, k.base_levels);
  EXPECT_EQ(s.num_constraints, k.constraints);
  EXPECT_EQ(s.hash_hex(), k.hash) << k.name;
  // The test system's bellpepper hash of the same blank circuit agrees with the recorder's.
  r1cs::test_system ts;
  ASSERT_TRUE(por(ts, merkle_hash::poseidon, k.a, fr::zero(), gadgets::blank_merkle_path(k.a, k.base_levels), fr::zero()));
  EXPECT_EQ(ts.hash(), s.hash_hex());
}

INSTANTIATE_TEST_SUITE_P(shapes, por_shape, ::testing::ValuesIn(kShapes),
                         [](const auto& param_info) {
                           std::string n = param_info.param.name;
                           for (char& ch : n) if (ch == '-') ch = '_';
                           return n;
                         });

// The native twin's aux and inputs equal the test system's, value for value.
void expect_twin_matches(const r1cs::test_system& ts, const fr& leaf, const std::vector<native_level>& levels,
                         const fr& root, bool private_root) {
  std::vector<fr> aux, inputs{fr::one()};
  const fr computed = gadgets::native::por_poseidon_witness(
      leaf, levels, root,
      private_root ? gadgets::native::por_root_visibility::private_root : gadgets::native::por_root_visibility::public_root,
      aux, inputs);
  EXPECT_EQ(computed, root);
  EXPECT_EQ(aux.size(), gadgets::native::por_poseidon_witness_size(gadgets::native::tree_shape{[&] {
              std::vector<std::size_t> a;
              for (const auto& l : levels) a.push_back(l.siblings.size() + 1);
              return a;
            }()}));
  ASSERT_EQ(aux.size(), ts.aux().size());
  for (std::size_t i = 0; i < aux.size(); ++i) ASSERT_EQ(aux[i], ts.aux()[i]) << ts.aux_names()[i];
  ASSERT_EQ(inputs.size(), ts.inputs().size());
  for (std::size_t i = 0; i < inputs.size(); ++i) ASSERT_EQ(inputs[i], ts.inputs()[i]) << ts.input_names()[i];
}

// A random tree of the given shape; a random leaf's path through the circuit on the test system
// (satisfied, input = leaf index), the witness builder (same assignment), and every aux value
// mutated once (never satisfied).
void check_random_path(merkle_arities a, std::size_t base_levels, bool mutate_all) {
  test::seeded_rng rng;
  const gadgets::native::tree_shape shape = gadgets::merkle_path_shape(a, base_levels);
  std::vector<fr> leaves(shape.leaves());
  for (fr& l : leaves) l = fr::random(rng);
  const gadgets::native::poseidon_tree tree(shape, leaves);
  const uint64_t index = rng() % leaves.size();
  const auto path = tree.path(index);

  r1cs::test_system ts;
  ASSERT_TRUE(por(ts, merkle_hash::poseidon, a, path.leaf, path.levels, tree.root()));
  ASSERT_TRUE(ts.is_satisfied()) << *ts.which_is_unsatisfied();
  EXPECT_TRUE(ts.verify(std::vector<fr>{fr::from_u64(index)}));

  r1cs::witness_builder wb;
  ASSERT_TRUE(por(wb, merkle_hash::poseidon, a, path.leaf, path.levels, tree.root()));
  ASSERT_EQ(wb.aux().size(), ts.aux().size());
  for (std::size_t i = 0; i < wb.aux().size(); ++i) ASSERT_EQ(wb.aux()[i], ts.aux()[i]) << ts.aux_names()[i];
  ASSERT_EQ(wb.inputs().size(), ts.inputs().size());
  for (std::size_t i = 0; i < wb.inputs().size(); ++i) ASSERT_EQ(wb.inputs()[i], ts.inputs()[i]);

  // The native twin writes the same values.
  expect_twin_matches(ts, path.leaf, path.levels, tree.root(), true);
  {
    r1cs::test_system pub;
    ASSERT_TRUE(por(pub, merkle_hash::poseidon, a, path.leaf, path.levels, tree.root(), false));
    ASSERT_TRUE(pub.is_satisfied());
    expect_twin_matches(pub, path.leaf, path.levels, tree.root(), false);
  }

  // Mutations: every aux outside the Poseidon internals (covered by the Poseidon tests), plus
  // every aux when asked.
  const fr delta = fr::random(rng);
  for (std::size_t i = 0; i < ts.aux().size(); ++i) {
    const std::string& name = ts.aux_names()[i];
    const bool in_hash = name.find("computation of commitment hash/") != std::string::npos &&
                         name.find("hash result") == std::string::npos;
    if (in_hash && !mutate_all) continue;
    const fr v = ts.aux()[i];
    ts.set(name, v + delta);
    ASSERT_FALSE(ts.is_satisfied()) << "mutating " << name << " kept the circuit satisfied";
    ts.set(name, v);
  }
  // A wrong root or a wrong sibling is caught too.
  r1cs::test_system bad;
  ASSERT_TRUE(por(bad, merkle_hash::poseidon, a, path.leaf, path.levels, tree.root() + fr::one()));
  EXPECT_FALSE(bad.is_satisfied());
}

TEST(por_circuit, RandomPaths8_8_2) { check_random_path({8, 8, 2}, 2, false); }
TEST(por_circuit, RandomPaths4AllMutations) { check_random_path({4, 0, 0}, 3, true); }
TEST(por_circuit, RandomPaths2AllMutations) { check_random_path({2, 0, 0}, 3, true); }
TEST(por_circuit, RandomPaths8_8_0) { check_random_path({8, 8, 0}, 2, false); }

// por_no_challenge_input (SnapDeals): everything allocated by the caller; 527 / 313 per level
// for arity 8 / 2 (filecoin.md §3.5); satisfied by a real tree path, broken by a wrong bit.
template <class CS>
r1cs::result<void> por_nci(CS& cs, merkle_arities a, const gadgets::native::merkle_path<fr>& p, bool flip_bit = false) {
  std::vector<gadgets::allocated_bit> bits;
  uint64_t index = gadgets::native::merkle_path_leaf_index<fr>(p.levels);
  std::size_t nbits = 0;
  for (const auto& l : p.levels) nbits += static_cast<std::size_t>(std::countr_zero(l.siblings.size() + 1));
  for (std::size_t j = 0; j < nbits; ++j) {
    r1cs::scoped_namespace ns(cs, [j] { return "challenge bit " + std::to_string(j); });
    CUZK_R1CS_TRY(gadgets::allocated_bit b, gadgets::allocated_bit::alloc(cs, (((index >> j) & 1) != 0) != (flip_bit && j == 0)));
    bits.push_back(b);
  }
  gadgets::allocated_num leaf, root;
  {
    r1cs::scoped_namespace ns(cs, "leaf");
    CUZK_R1CS_TRY(leaf, gadgets::allocated_num::alloc(cs, [&] { return p.leaf; }));
  }
  std::vector<std::vector<gadgets::allocated_num>> path;
  for (std::size_t l = 0; l < p.levels.size(); ++l) {
    path.emplace_back();
    for (std::size_t j = 0; j < p.levels[l].siblings.size(); ++j) {
      r1cs::scoped_namespace ns(cs, [l, j] { return "sibling " + std::to_string(l) + " " + std::to_string(j); });
      CUZK_R1CS_TRY(gadgets::allocated_num s, gadgets::allocated_num::alloc(cs, [&] { return p.levels[l].siblings[j]; }));
      path.back().push_back(s);
    }
  }
  {
    r1cs::scoped_namespace ns(cs, "root");
    CUZK_R1CS_TRY(root, gadgets::allocated_num::alloc(cs, [&] { return p.root; }));
  }
  r1cs::scoped_namespace ns(cs, "por");
  return gadgets::por_no_challenge_input_circuit(cs, merkle_hash::poseidon, a, bits, leaf, path, root);
}

TEST(por_no_challenge_input, CountsAndSatisfaction) {
  test::seeded_rng rng;
  for (const auto& [a, base_levels, per_level] : {std::tuple{merkle_arities{8, 0, 0}, 2u, 527u},
                                                 std::tuple{merkle_arities{2, 0, 0}, 3u, 313u},
                                                 std::tuple{merkle_arities{8, 8, 2}, 1u, 0u}}) {
    const gadgets::native::tree_shape shape = gadgets::merkle_path_shape(a, base_levels);
    std::vector<fr> leaves(shape.leaves());
    for (fr& l : leaves) l = fr::random(rng);
    const gadgets::native::poseidon_tree tree(shape, leaves);
    const auto p = tree.path(rng() % leaves.size());
    r1cs::test_system ts;
    ASSERT_TRUE(por_nci(ts, a, p));
    const std::size_t bit_constraints = std::accumulate(shape.level_arities.begin(), shape.level_arities.end(), std::size_t{0},
                                                        [](std::size_t n, std::size_t ar) { return n + std::countr_zero(ar); });
    // 8-8-2 with one base level: base + sub (arity 8) + top (arity 2).
    const std::size_t expect = per_level ? base_levels * per_level : 2 * 527 + 313;
    EXPECT_EQ(ts.num_constraints(), bit_constraints + expect + 1);
    EXPECT_EQ(ts.num_inputs(), 1u);
    ASSERT_TRUE(ts.is_satisfied()) << *ts.which_is_unsatisfied();
    r1cs::test_system bad;
    ASSERT_TRUE(por_nci(bad, a, p, true));
    EXPECT_FALSE(bad.is_satisfied());
  }
}

// The batched twin (eight lanes of IFMA per level where available) equals the single one, on
// a partial batch, for every visibility.
TEST(por_witness, BatchMatchesSingle) {
  test::seeded_rng rng;
  const gadgets::native::tree_shape shape = gadgets::merkle_path_shape({8, 8, 2}, 2);
  std::vector<fr> leaves(shape.leaves());
  for (fr& l : leaves) l = fr::random(rng);
  const gadgets::native::poseidon_tree tree(shape, leaves);
  const std::size_t w = gadgets::native::por_poseidon_witness_size(shape);
  for (auto vis : {gadgets::native::por_root_visibility::private_root, gadgets::native::por_root_visibility::public_root}) {
    const std::size_t n = 11;
    std::vector<gadgets::native::merkle_path<fr>> paths;
    for (std::size_t k = 0; k < n; ++k) paths.push_back(tree.path(rng() % leaves.size()));
    std::vector<fr> aux(n * w), inputs(n * 2);
    std::vector<gadgets::native::por_witness_job> jobs;
    for (std::size_t k = 0; k < n; ++k)
      jobs.push_back({paths[k].leaf, paths[k].levels, paths[k].root, aux.data() + k * w, inputs.data() + 2 * k, fr::zero()});
    gadgets::native::por_poseidon_witness_batch(jobs, vis);
    for (std::size_t k = 0; k < n; ++k) {
      std::vector<fr> a1, in1;
      EXPECT_EQ(gadgets::native::por_poseidon_witness(paths[k].leaf, paths[k].levels, paths[k].root, vis, a1, in1),
                jobs[k].computed_root);
      EXPECT_EQ(jobs[k].computed_root, tree.root());
      ASSERT_EQ(a1.size(), w);
      for (std::size_t i = 0; i < w; ++i) ASSERT_EQ(aux[k * w + i], a1[i]) << "job " << k << " value " << i;
      for (std::size_t i = 0; i < in1.size(); ++i) ASSERT_EQ(inputs[2 * k + i], in1[i]);
    }
  }
}

// Binary SHA-256 tree of 4 leaves (Fr-safe digests as field elements).
TEST(por_circuit, Sha256BinaryPath) {
  test::seeded_rng rng;
  const gadgets::native::tree_shape shape{{2, 2}};
  std::vector<gadgets::native::sha256_digest> leaves(4);
  for (auto& d : leaves) {
    for (auto& x : d) x = static_cast<uint8_t>(rng());
    d[31] &= 0x3f;
  }
  const gadgets::native::sha256_tree tree(shape, leaves);
  auto to_fr = [](const gadgets::native::sha256_digest& d) {
    fr f;
    EXPECT_TRUE(fr::from_bytes_le(d.data(), f));
    return f;
  };
  const uint64_t index = rng() % 4;
  const auto p = tree.path(index);
  std::vector<native_level> levels;
  for (const auto& l : p.levels) levels.push_back({{to_fr(l.siblings[0])}, l.index});
  r1cs::test_system ts;
  ASSERT_TRUE(por(ts, merkle_hash::sha256, {2, 0, 0}, to_fr(p.leaf), levels, to_fr(tree.root())));
  EXPECT_EQ(ts.num_constraints(), 2 * 45382u + 2);
  ASSERT_TRUE(ts.is_satisfied()) << *ts.which_is_unsatisfied();
  EXPECT_TRUE(ts.verify(std::vector<fr>{fr::from_u64(index)}));
  // The native twin: same aux and inputs, value for value.
  std::vector<fr> aux, inputs{fr::one()};
  EXPECT_EQ(gadgets::witness::por_sha256_witness(to_fr(p.leaf), levels, to_fr(tree.root()),
                                                 gadgets::native::por_root_visibility::private_root, aux, inputs),
            to_fr(tree.root()));
  EXPECT_EQ(aux.size(), gadgets::witness::por_sha256_witness_size(2));
  EXPECT_EQ(gadgets::witness::por_sha256_witness_size(1) - 2, 45335u);  // circuit-info por-sha256-level: 45,337 aux
  ASSERT_EQ(aux.size(), ts.aux().size());
  for (std::size_t i = 0; i < aux.size(); ++i) ASSERT_EQ(aux[i], ts.aux()[i]) << ts.aux_names()[i];
  ASSERT_EQ(inputs.size(), ts.inputs().size());
  for (std::size_t i = 0; i < inputs.size(); ++i) ASSERT_EQ(inputs[i], ts.inputs()[i]);
  r1cs::test_system bad;
  ASSERT_TRUE(por(bad, merkle_hash::sha256, {2, 0, 0}, to_fr(p.leaf) + fr::one(), levels, to_fr(tree.root())));
  EXPECT_FALSE(bad.is_satisfied());
}

// The ten real paths of the 32 GiB WindowPoSt vanilla proof (8-8-0, 9 base levels).
TEST(por_circuit, RealPoStPaths) {
  const std::string s = test::read_file(test::filecoin_fixture("curio/post.vproof"));
  ASSERT_FALSE(s.empty()) << "missing fixtures under " << CUZK_FIXTURES_DIR;
  gadgets::native::fallback_post_sector_proof p;
  const std::vector<uint8_t> bytes(s.begin(), s.end());
  ASSERT_TRUE(gadgets::native::decode_fallback_post_sector_proof(bytes, p).ok());
  const auto& sector = p.sectors.at(0);
  for (const auto& m : sector.inclusion_proofs) {
    const auto levels = m.levels();
    r1cs::witness_builder wb;
    r1cs::test_system ts;
    ASSERT_TRUE(por(ts, merkle_hash::poseidon, {8, 8, 0}, m.leaf, levels, sector.comm_r_last));
    ASSERT_TRUE(por(wb, merkle_hash::poseidon, {8, 8, 0}, m.leaf, levels, sector.comm_r_last));
    EXPECT_EQ(ts.num_constraints(), 10 * 530u + 2);
    ASSERT_TRUE(ts.is_satisfied()) << *ts.which_is_unsatisfied();
    EXPECT_TRUE(ts.verify(std::vector<fr>{fr::from_u64(gadgets::native::merkle_path_leaf_index<fr>(levels))}));
    EXPECT_TRUE(std::equal(wb.aux().begin(), wb.aux().end(), ts.aux().begin(), ts.aux().end()));
    expect_twin_matches(ts, m.leaf, levels, sector.comm_r_last, true);
  }
  // Another proof's leaf does not open this path.
  const auto levels = sector.inclusion_proofs[0].levels();
  r1cs::test_system bad;
  ASSERT_TRUE(por(bad, merkle_hash::poseidon, {8, 8, 0}, sector.inclusion_proofs[1].leaf, levels, sector.comm_r_last));
  EXPECT_FALSE(bad.is_satisfied());
}

}  // namespace
