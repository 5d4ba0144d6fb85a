// Native Merkle trees: Filecoin shapes, SHA-256 zero-tree roots against the fixture ladder
// (rust-fil-proofs pieces.rs / curio values), dense against sparse trees on random leaves
// (every path checked), and a sparse 2^30-leaf tree in the 32 GiB shape.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "gadgets/native/merkle_tree.hpp"
#include "gadgets/native/poseidon_native.hpp"
#include "support/seed.hpp"
#include "unit/gadgets_native/fixture_text.hpp"

namespace {

using namespace cuzk::gadgets::native;

TEST(merkle_shape, FilecoinShapes) {
  EXPECT_EQ(filecoin_tree_shape(64, 8, 0, 0).level_arities, (std::vector<std::size_t>{8, 8}));  // 2 KiB
  const tree_shape s32 = filecoin_tree_shape(uint64_t{1} << 30, 8, 8, 0);                        // 32 GiB
  EXPECT_EQ(s32.height(), 10u);
  EXPECT_EQ(s32.leaves(), uint64_t{1} << 30);
  const tree_shape s64 = filecoin_tree_shape(uint64_t{1} << 31, 8, 8, 2);  // 64 GiB
  EXPECT_EQ(s64.level_arities, (std::vector<std::size_t>{8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 2}));
  EXPECT_EQ(filecoin_tree_shape(uint64_t{1} << 30, 2, 0, 0).height(), 30u);  // TreeD
  EXPECT_THROW((void)filecoin_tree_shape(100, 8, 0, 0), std::invalid_argument);
  EXPECT_THROW((void)filecoin_tree_shape(64, 8, 0, 2), std::invalid_argument);
  EXPECT_THROW((void)filecoin_tree_shape(8, 8, 8, 0), std::invalid_argument);  // no base level left
}

// Roots of all-zero SHA-256 trees of 2^level leaves, levels 0..35 (level 6 = the empty 2 KiB
// comm_d): the sparse tree's default ladder and, for small levels, a dense tree.
TEST(merkle_tree, Sha256ZeroTreeRoots) {
  const std::string text = cuzk::test::read_file(cuzk::test::filecoin_fixture("derived_test_vectors.json"));
  ASSERT_FALSE(text.empty()) << "missing fixtures under " << CUZK_FIXTURES_DIR;
  const std::size_t b = text.find("\"sha256_trunc254_zero_tree_roots\"");
  const std::vector<std::string> roots = cuzk::test::hex64_strings(text, b, text.find("\"parameter_file_identifiers\""));
  ASSERT_EQ(roots.size(), 36u);
  sparse_sha256_tree sparse(tree_shape{std::vector<std::size_t>(35, 2)}, sha256_digest{});
  sparse.build();
  for (std::size_t l = 0; l < 36; ++l) EXPECT_EQ(cuzk::test::to_hex(sparse.default_node(l).data(), 32), roots[l]) << l;
  EXPECT_EQ(cuzk::test::to_hex(sparse.root().data(), 32), roots[35]);
  for (std::size_t l : {1, 6, 10}) {
    sha256_tree dense(tree_shape{std::vector<std::size_t>(l, 2)}, std::vector<sha256_digest>(std::size_t{1} << l));
    EXPECT_EQ(cuzk::test::to_hex(dense.root().data(), 32), roots[l]) << l;
  }
}

template <class Hasher, class MakeLeaf>
void dense_vs_sparse(const tree_shape& shape, MakeLeaf make_leaf, cuzk::test::seeded_rng& rng) {
  using node = typename Hasher::node;
  const node def = make_leaf();
  const uint64_t n = shape.leaves();
  std::vector<node> leaves(n, def);
  sparse_merkle_tree<Hasher> sparse(shape, def);
  for (int k = 0; k < 12; ++k) {
    const uint64_t i = rng() % n;
    leaves[i] = make_leaf();
    sparse.set_leaf(i, leaves[i]);
  }
  sparse.build();
  merkle_tree<Hasher> dense(shape, leaves);
  ASSERT_EQ(dense.root(), sparse.root());
  for (uint64_t i = 0; i < n; ++i) {
    const merkle_path<node> p = dense.path(i);
    ASSERT_EQ(p, sparse.path(i)) << i;
    ASSERT_EQ(p.leaf, leaves[i]);
    ASSERT_EQ(merkle_path_leaf_index<node>(p.levels), i);
    ASSERT_EQ(merkle_path_root<Hasher>(p.leaf, p.levels), dense.root()) << i;
  }
  // Another leaf, or a top-level sibling swapped in at another index, gives another root.
  merkle_path<node> p = dense.path(n / 3);
  EXPECT_NE(merkle_path_root<Hasher>(make_leaf(), p.levels), dense.root());
  p.levels.back().siblings[0] = make_leaf();
  EXPECT_NE(merkle_path_root<Hasher>(p.leaf, p.levels), dense.root());
}

TEST(merkle_tree, DenseMatchesSparsePoseidonShapes) {
  cuzk::test::seeded_rng rng;
  auto leaf = [&rng] { return fr::random(rng); };
  dense_vs_sparse<poseidon_node_hasher>(filecoin_tree_shape(512, 8, 0, 0), leaf, rng);
  dense_vs_sparse<poseidon_node_hasher>(filecoin_tree_shape(512, 8, 8, 0), leaf, rng);
  dense_vs_sparse<poseidon_node_hasher>(filecoin_tree_shape(1024, 8, 8, 2), leaf, rng);
  dense_vs_sparse<poseidon_node_hasher>(filecoin_tree_shape(256, 4, 0, 0), leaf, rng);
  dense_vs_sparse<poseidon_node_hasher>(filecoin_tree_shape(128, 2, 0, 0), leaf, rng);
}

TEST(merkle_tree, DenseMatchesSparseSha256) {
  cuzk::test::seeded_rng rng;
  auto leaf = [&rng] {
    sha256_digest d;
    for (auto& x : d) x = static_cast<uint8_t>(rng());
    d[31] &= 0x3f;
    return d;
  };
  dense_vs_sparse<sha256_node_hasher>(filecoin_tree_shape(256, 2, 0, 0), leaf, rng);
}

// merkletree's layout: a base-only tree is leaves then levels, root last; in a compound tree
// (8-8-2 with 2 base levels) base tree k holds leaves [64k, 64k + 64), its 8 level-1 nodes and
// its root, which is the sub level's child k.
TEST(merkle_tree, MerkletreeLayout) {
  cuzk::test::seeded_rng rng;
  std::vector<fr> leaves(64);
  for (fr& l : leaves) l = fr::random(rng);
  const poseidon_tree single(filecoin_tree_shape(64, 8, 0, 0), leaves);
  const std::vector<fr> data = single.base_tree_data(2, 0);
  ASSERT_EQ(data.size(), 64u + 8 + 1);
  EXPECT_TRUE(std::equal(leaves.begin(), leaves.end(), data.begin()));
  EXPECT_EQ(data[64], poseidon_hash8(leaves.data()));
  EXPECT_EQ(data.back(), single.root());

  std::vector<fr> many(1024);
  for (fr& l : many) l = fr::random(rng);
  const poseidon_tree compound(filecoin_tree_shape(1024, 8, 8, 2), many);
  for (std::size_t k = 0; k < 16; ++k) {
    const std::vector<fr> base = compound.base_tree_data(2, k);
    const poseidon_tree alone(filecoin_tree_shape(64, 8, 0, 0), std::vector<fr>(many.begin() + 64 * k, many.begin() + 64 * (k + 1)));
    EXPECT_EQ(base, alone.base_tree_data(2, 0)) << k;
    EXPECT_EQ(base.back(), compound.level(2)[k]);
  }
  EXPECT_THROW((void)compound.base_tree_data(2, 16), std::out_of_range);
}

// A synthetic 32 GiB TreeR (2^30 leaves, 8-8-0): only the set leaves cost hashes; every path
// hashes to the root, and a path away from the set leaves is the default ladder.
TEST(merkle_tree, Sparse32GiBShape) {
  cuzk::test::seeded_rng rng;
  const tree_shape shape = filecoin_tree_shape(uint64_t{1} << 30, 8, 8, 0);
  sparse_poseidon_tree t(shape, fr::zero());
  std::vector<uint64_t> set;
  for (int k = 0; k < 20; ++k) {
    set.push_back(rng() % t.leaves());
    t.set_leaf(set.back(), fr::random(rng));
  }
  t.build();
  for (uint64_t i : set) {
    const merkle_path<fr> p = t.path(i);
    EXPECT_EQ(merkle_path_leaf_index<fr>(p.levels), i);
    EXPECT_EQ(merkle_path_root<poseidon_node_hasher>(p.leaf, p.levels), t.root());
  }
  // All-default tree: root = default ladder top; defaults chain by Poseidon8.
  sparse_poseidon_tree empty(shape, fr::zero());
  empty.build();
  fr d = fr::zero();
  for (std::size_t l = 0; l < 10; ++l) {
    const fr c[8] = {d, d, d, d, d, d, d, d};
    d = poseidon_hash8(c);
  }
  EXPECT_EQ(empty.root(), d);
  EXPECT_NE(t.root(), d);
}

}  // namespace
