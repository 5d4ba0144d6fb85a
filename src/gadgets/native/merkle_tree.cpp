// Tree shapes and node hashers of merkle_tree.hpp.
#include "gadgets/native/merkle_tree.hpp"

#include "gadgets/native/poseidon_batch.hpp"
#include "gadgets/native/poseidon_native.hpp"

namespace cuzk::gadgets::native {

uint64_t tree_shape::leaves() const {
  uint64_t n = 1;
  for (std::size_t a : level_arities) {
    if (a < 2) throw std::invalid_argument("tree_shape: arity below 2");
    if (n > (uint64_t{1} << 63) / a) throw std::overflow_error("tree_shape: more than 2^63 leaves");
    n *= a;
  }
  return n;
}

tree_shape filecoin_tree_shape(uint64_t leaves, std::size_t base_arity, std::size_t sub_arity, std::size_t top_arity) {
  if (base_arity < 2) throw std::invalid_argument("filecoin_tree_shape: base arity below 2");
  if (sub_arity == 1 || top_arity == 1) throw std::invalid_argument("filecoin_tree_shape: sub/top arity 1");
  if (top_arity != 0 && sub_arity == 0) throw std::invalid_argument("filecoin_tree_shape: a top level needs a sub level");
  uint64_t base_leaves = leaves;
  for (std::size_t a : {sub_arity, top_arity}) {
    if (a == 0) continue;
    if (base_leaves % a != 0) throw std::invalid_argument("filecoin_tree_shape: leaves not divisible by the sub/top arity");
    base_leaves /= a;
  }
  tree_shape s;
  while (base_leaves > 1) {
    if (base_leaves % base_arity != 0) throw std::invalid_argument("filecoin_tree_shape: base leaves not a power of the base arity");
    base_leaves /= base_arity;
    s.level_arities.push_back(base_arity);
  }
  if (base_leaves != 1 || s.level_arities.empty())
    throw std::invalid_argument("filecoin_tree_shape: base tree needs at least one level");
  if (sub_arity) s.level_arities.push_back(sub_arity);
  if (top_arity) s.level_arities.push_back(top_arity);
  return s;
}

fr poseidon_node_hasher::operator()(std::span<const fr> children) const {
  switch (children.size()) {
    case 2: return poseidon_hash2(children[0], children[1]);
    case 4: return poseidon_hash4(children.data());
    case 8: return poseidon_hash8(children.data());
    case 11: return poseidon_hash11(children.data());
    default: return poseidon_hash(children);
  }
}

void poseidon_node_hasher::hash_level(const fr* children, std::size_t count, std::size_t arity, fr* out) const {
  switch (arity) {
    case 2:
    case 4:
    case 8:
    case 11:
    case 16: return poseidon_batch_for_arity(arity).hash(children, count, out);
    default:
      for (std::size_t i = 0; i < count; ++i) out[i] = (*this)(std::span<const fr>(children + i * arity, arity));
  }
}

sha256_digest sha256_node_hasher::operator()(std::span<const sha256_digest> children) const {
  if (children.size() != 2) throw std::invalid_argument("sha256_node_hasher: binary trees only");
  return sha256_trunc254_node(children[0].data(), children[1].data());
}

}  // namespace cuzk::gadgets::native
