// Native Merkle trees as Filecoin builds them (merkletree crate + storage-proofs-core):
//   * binary SHA-256 trees (TreeD): node = sha256_trunc254(left || right);
//   * Poseidon trees of arity 2/4/8 (TreeC, TreeR): node = Poseidon_arity(children) with the
//     MerkleTree domain tag, in base/sub/top shapes (8-0-0, 8-8-0, 8-8-2 by sector size).
// Leaves are hashed as themselves (merkletree's Algorithm::leaf is the identity for both).
//
// A compound tree (base trees joined by one sub level and one top level) is, node for node, a
// tree whose levels have different arities: the base trees' levels, then the sub level (its
// children are the base roots), then the top level. The index of a leaf, written in that
// mixed radix least significant digit first, gives the insertion index at every level, which
// is how a Filecoin path (base elements, then one sub element, then one top element) indexes.
// So one tree type with a per-level arity list (tree_shape) serves every shape.
//
// Layout: level 0 holds the leaves, level h the root, each level left to right. For a tree with
// only a base part this concatenation is merkletree's MerkleTree data vector (leaves first,
// root last); base tree k of a compound tree is the k-th slice of every base level
// (merkle_tree::base_tree_data).
//
// Paths (merkle_path) list, per level from the leaves up, the arity - 1 siblings and the index
// of the node among its siblings; this is rust-fil-proofs' InclusionPath element order
// (siblings left to right with the node removed).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <map>
#include <span>
#include <stdexcept>
#include <vector>

#include "gadgets/native/poseidon_params.hpp"
#include "gadgets/native/sha256_native.hpp"

namespace cuzk::gadgets::native {

// Per-level arities from the leaves up; every arity >= 2.
struct tree_shape {
  std::vector<std::size_t> level_arities;

  std::size_t height() const { return level_arities.size(); }
  uint64_t leaves() const;  // product of the arities (std::overflow_error above 2^63)
};

// Filecoin's shape for `leaves` leaves: base levels of base_arity, then one sub level of
// sub_arity (if nonzero), then one top level of top_arity (if nonzero; needs a sub level).
// std::invalid_argument if leaves is not base_arity^k * sub * top with k >= 1.
tree_shape filecoin_tree_shape(uint64_t leaves, std::size_t base_arity, std::size_t sub_arity, std::size_t top_arity);

// Node hashers: children.size() must equal the level's arity.
struct poseidon_node_hasher {
  using node = fr;
  // MerkleTree-tag Poseidon of arity children.size() (2, 4, 8, 11, 16, 24, 36).
  fr operator()(std::span<const fr> children) const;
  // A whole level: out[i] = hash(children[i * arity .. (i + 1) * arity)), eight at a time on
  // the batched (AVX-512 IFMA) path when the CPU has it (poseidon_batch.hpp).
  void hash_level(const fr* children, std::size_t count, std::size_t arity, fr* out) const;
};
struct sha256_node_hasher {
  using node = sha256_digest;
  // sha256_trunc254(left || right); std::invalid_argument unless two children.
  sha256_digest operator()(std::span<const sha256_digest> children) const;
};

template <class Node>
struct merkle_path_level {
  std::vector<Node> siblings;  // arity - 1, left to right, without the node itself
  std::size_t index = 0;       // the node's position among its arity siblings
  bool operator==(const merkle_path_level&) const = default;
};

template <class Node>
struct merkle_path {
  Node leaf{};
  std::vector<merkle_path_level<Node>> levels;  // from the leaves up
  Node root{};
  bool operator==(const merkle_path&) const = default;
};

// The leaf index a path encodes: its level indices read as mixed-radix digits, least
// significant first (arity of a level = siblings + 1).
template <class Node>
uint64_t merkle_path_leaf_index(std::span<const merkle_path_level<Node>> levels) {
  uint64_t index = 0, scale = 1;
  for (const auto& l : levels) {
    index += scale * l.index;
    scale *= l.siblings.size() + 1;
  }
  return index;
}

// Hashes a leaf up a path: at each level the current node is inserted at its index among the
// siblings and the children are hashed. std::invalid_argument if an index exceeds its level.
template <class Hasher>
typename Hasher::node merkle_path_root(const typename Hasher::node& leaf,
                                       std::span<const merkle_path_level<typename Hasher::node>> levels,
                                       const Hasher& hash = {}) {
  using Node = typename Hasher::node;
  Node cur = leaf;
  std::vector<Node> children;
  for (const auto& l : levels) {
    if (l.index > l.siblings.size()) throw std::invalid_argument("merkle_path_root: index beyond the level's arity");
    children.assign(l.siblings.begin(), l.siblings.end());
    children.insert(children.begin() + static_cast<std::ptrdiff_t>(l.index), cur);
    cur = hash(children);
  }
  return cur;
}

// The path of a leaf whose index is already checked: `at(level, i)` is node i of a level (0 =
// leaves), however the tree stores it. Shared by the dense and the sparse tree.
template <class Node, class At>
merkle_path<Node> merkle_path_of(const tree_shape& shape, uint64_t leaf_index, const At& at, Node root) {
  merkle_path<Node> p;
  p.leaf = at(0, leaf_index);
  uint64_t i = leaf_index;
  for (std::size_t l = 0; l < shape.height(); ++l) {
    const std::size_t a = shape.level_arities[l];
    merkle_path_level<Node> e;
    e.index = static_cast<std::size_t>(i % a);
    const uint64_t first = i - e.index;
    for (std::size_t k = 0; k < a; ++k)
      if (k != e.index) e.siblings.push_back(at(l, first + k));
    p.levels.push_back(std::move(e));
    i /= a;
  }
  p.root = std::move(root);
  return p;
}

// A fully materialised tree (every node stored). Building costs one hash per internal node:
// leaves / (arity - 1) hashes for a uniform arity.
template <class Hasher>
class merkle_tree {
 public:
  using node = typename Hasher::node;

  // std::invalid_argument if leaves.size() != shape.leaves().
  merkle_tree(tree_shape shape, std::vector<node> leaves, const Hasher& hash = {}) : shape_(std::move(shape)) {
    if (leaves.size() != shape_.leaves()) throw std::invalid_argument("merkle_tree: leaf count does not match the shape");
    levels_.push_back(std::move(leaves));
    for (std::size_t a : shape_.level_arities) {
      const std::vector<node>& below = levels_.back();
      std::vector<node> above(below.size() / a);
      if constexpr (requires { hash.hash_level(below.data(), above.size(), a, above.data()); }) {
        hash.hash_level(below.data(), above.size(), a, above.data());
      } else {
        for (std::size_t i = 0; i < above.size(); ++i) above[i] = hash(std::span<const node>(below.data() + i * a, a));
      }
      levels_.push_back(std::move(above));
    }
  }

  const tree_shape& shape() const { return shape_; }
  const node& root() const { return levels_.back().front(); }
  // Level l (0 = leaves, height = the root).
  std::span<const node> level(std::size_t l) const { return levels_.at(l); }

  // Base tree k of a compound tree in merkletree's MerkleTree data layout (its leaves, then each
  // level up to its root), where the first base_levels levels form the base trees. For a tree
  // without sub/top levels, base_tree_data(height(), 0) is the whole tree. std::out_of_range if
  // base_levels > height or k is not a base tree.
  std::vector<node> base_tree_data(std::size_t base_levels, std::size_t k) const {
    if (base_levels > shape_.height()) throw std::out_of_range("merkle_tree::base_tree_data: too many base levels");
    if (k >= levels_[base_levels].size()) throw std::out_of_range("merkle_tree::base_tree_data: no such base tree");
    std::vector<node> data;
    std::size_t width = levels_[0].size() / levels_[base_levels].size();  // leaves per base tree
    for (std::size_t l = 0; l <= base_levels; ++l) {
      data.insert(data.end(), levels_[l].begin() + static_cast<std::ptrdiff_t>(k * width),
                  levels_[l].begin() + static_cast<std::ptrdiff_t>((k + 1) * width));
      if (l < base_levels) width /= shape_.level_arities[l];
    }
    return data;
  }

  // std::out_of_range if leaf_index >= leaves.
  merkle_path<node> path(uint64_t leaf_index) const {
    if (leaf_index >= levels_.front().size()) throw std::out_of_range("merkle_tree::path: leaf index out of range");
    return merkle_path_of(shape_, leaf_index, [this](std::size_t l, uint64_t i) { return levels_[l][i]; }, root());
  }

 private:
  tree_shape shape_;
  std::vector<std::vector<node>> levels_;
};

// A tree in which every leaf equals default_leaf except those set explicitly: for synthetic
// large sectors (2^30 leaves) where only the challenged leaves and their parents matter.
// Stores only the nodes above a set leaf; every other node at level l is the default subtree
// root default_node(l) (computed once at construction: one hash per level). set_leaf marks
// the leaf; build() then computes each dirty node once per level: cost (set leaves) x height
// hashes at most, far fewer where paths share ancestors, batched per level.
template <class Hasher>
class sparse_merkle_tree {
 public:
  using node = typename Hasher::node;

  sparse_merkle_tree(tree_shape shape, const node& default_leaf, const Hasher& hash = {})
      : shape_(std::move(shape)), hash_(hash), dirty_(shape_.height() + 1) {
    defaults_.push_back(default_leaf);
    std::vector<node> children;
    for (std::size_t a : shape_.level_arities) {
      children.assign(a, defaults_.back());
      defaults_.push_back(hash_(children));
    }
    leaves_ = shape_.leaves();
  }

  const tree_shape& shape() const { return shape_; }
  uint64_t leaves() const { return leaves_; }
  // The root of an all-default subtree whose leaves are l levels below it.
  const node& default_node(std::size_t l) const { return defaults_.at(l); }

  // std::out_of_range if index >= leaves. Invalidates the build until build() runs again.
  void set_leaf(uint64_t index, const node& value) {
    if (index >= leaves_) throw std::out_of_range("sparse_merkle_tree::set_leaf: leaf index out of range");
    dirty_[0][index] = value;
    built_ = false;
  }

  // Recomputes every node above a set leaf, level by level; a level's parents are hashed in
  // one batch when the hasher can (hash_level).
  void build() {
    std::vector<node> children, hashes;
    std::vector<uint64_t> parents;
    for (std::size_t l = 0; l < shape_.height(); ++l) {
      const std::size_t a = shape_.level_arities[l];
      children.clear();
      parents.clear();
      for (auto it = dirty_[l].begin(); it != dirty_[l].end();) {
        const uint64_t parent = it->first / a;
        const std::size_t at = children.size();
        children.resize(at + a, defaults_[l]);
        for (; it != dirty_[l].end() && it->first / a == parent; ++it) children[at + it->first % a] = it->second;
        parents.push_back(parent);
      }
      hashes.resize(parents.size());
      if constexpr (requires { hash_.hash_level(children.data(), parents.size(), a, hashes.data()); }) {
        hash_.hash_level(children.data(), parents.size(), a, hashes.data());
      } else {
        for (std::size_t k = 0; k < parents.size(); ++k) hashes[k] = hash_(std::span<const node>(children.data() + k * a, a));
      }
      dirty_[l + 1].clear();
      for (std::size_t k = 0; k < parents.size(); ++k) dirty_[l + 1].emplace_hint(dirty_[l + 1].end(), parents[k], hashes[k]);
    }
    built_ = true;
  }

  // Node i of level l (a stored dirty node or the default). Precondition: built.
  const node& at(std::size_t l, uint64_t i) const {
    auto it = dirty_.at(l).find(i);
    return it == dirty_[l].end() ? defaults_[l] : it->second;
  }
  const node& root() const {
    if (!built_) throw std::logic_error("sparse_merkle_tree: build() first");
    return at(shape_.height(), 0);
  }

  merkle_path<node> path(uint64_t leaf_index) const {
    if (!built_) throw std::logic_error("sparse_merkle_tree: build() first");
    if (leaf_index >= leaves_) throw std::out_of_range("sparse_merkle_tree::path: leaf index out of range");
    return merkle_path_of(shape_, leaf_index, [this](std::size_t l, uint64_t i) { return at(l, i); }, root());
  }

 private:
  tree_shape shape_;
  Hasher hash_;
  uint64_t leaves_ = 0;
  std::vector<node> defaults_;                    // height + 1 default subtree roots
  std::vector<std::map<uint64_t, node>> dirty_;  // per level: nodes above a set leaf, by index
  bool built_ = false;
};

using poseidon_tree = merkle_tree<poseidon_node_hasher>;
using sha256_tree = merkle_tree<sha256_node_hasher>;
using sparse_poseidon_tree = sparse_merkle_tree<poseidon_node_hasher>;
using sparse_sha256_tree = sparse_merkle_tree<sha256_node_hasher>;

}  // namespace cuzk::gadgets::native
