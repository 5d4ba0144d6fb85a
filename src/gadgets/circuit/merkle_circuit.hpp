// Merkle inclusion (proof of retrievability) circuits, as storage-proofs-core's PoRCircuit
// (gadgets/por.rs) synthesizes them for Filecoin's trees: binary SHA-256 trees (TreeD) and
// Poseidon trees of arity 2/4/8 with base/sub/top shapes (TreeC, TreeR).
//
// Synthesis order (namespaces in quotes):
//   "value": the leaf, allocated unless given as an allocated number;
//   "base", "sub", "top": per level i of that part, "merkle tree hash i":
//       log2(arity) index bits ("index bit j", AllocatedBit::alloc, LE),
//       arity - 1 siblings ("path element j", AllocatedNum::alloc),
//       merkle_insert of the current node (merkle_insert.hpp),
//       the node hash ("computation of commitment hash");
//   "path": pack_into_inputs of all index bits, base to top (one public input, the leaf index);
//   "root_value": the root, allocated unless given; "enforce root is correct":
//       computed * ONE = root; and unless the root is private, "root": inputize it.
// Per level: arity 8 / 4 / 2 Poseidon = 530 / 387 / 314 constraints (bits + insert + hash),
// binary SHA-256 = 45,382 (1 + 2 + 2 x 256 to_bits_le + 44,866 two-block SHA-256 + 1 pack);
// plus 2 per proof (packing, root equality) and 1 more for a public root.
#pragma once

#include <bit>
#include <cstddef>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "gadgets/circuit/boolean.hpp"
#include "gadgets/circuit/merkle_insert.hpp"
#include "gadgets/circuit/multipack.hpp"
#include "gadgets/circuit/num.hpp"
#include "gadgets/circuit/poseidon_circuit.hpp"
#include "gadgets/circuit/sha256.hpp"
#include "gadgets/native/merkle_tree.hpp"
#include "gadgets/native/poseidon_params.hpp"

namespace cuzk::gadgets {

enum class merkle_hash { poseidon, sha256 };

// A Filecoin tree's arities: MerkleTreeTrait's Arity, SubTreeArity, TopTreeArity (0 = no such
// level). A path has base levels, then one sub level if sub != 0, then one top level if top != 0.
struct merkle_arities {
  std::size_t base = 8, sub = 0, top = 0;
};

// storage-proofs-core's Root: an already allocated number, or a value to allocate.
struct merkle_root_arg {
  bool allocated = false;
  allocated_num num;  // when allocated
  fr value = fr::zero();

  static merkle_root_arg of_value(const fr& v) { return {false, {}, v}; }
  static merkle_root_arg of_num(const allocated_num& n) { return {true, n, n.value}; }

  template <r1cs::constraint_system CS>
  r1cs::result<allocated_num> allocate(CS& cs) const {
    if (allocated) return num;
    return allocated_num::alloc(cs, [this] { return value; });
  }
};

// One level's node hash (filecoin-hashers hash_multi_leaf_circuit):
//   Poseidon: neptune's circuit with Filecoin's constants for children.size() (MerkleTree tag);
//   SHA-256: each child to_bits_le ("i_num_into_bits"), padded to 256 bits with a constant 0,
//     bits reversed inside each byte, SHA-256 ("hash"), digest bits reversed inside each byte,
//     the first 254 packed into one number ("pack_le").
template <r1cs::constraint_system CS>
r1cs::result<allocated_num> merkle_node_hash_circuit(CS& cs, merkle_hash h, const std::vector<allocated_num>& children) {
  if (h == merkle_hash::poseidon) return poseidon_hash_circuit(cs, children, native::poseidon_constants(children.size()));
  std::vector<boolean> preimage;
  for (std::size_t i = 0; i < children.size(); ++i) {
    r1cs::scoped_namespace ns(cs, [i] { return std::to_string(i) + "_num_into_bits"; });
    CUZK_R1CS_TRY(std::vector<boolean> bits, children[i].to_bits_le(cs));
    while (bits.size() % 8 != 0) bits.push_back(boolean::constant(false));
    for (std::size_t byte = 0; byte < bits.size(); byte += 8)
      for (std::size_t k = 8; k-- > 0;) preimage.push_back(bits[byte + k]);
  }
  std::vector<boolean> digest;
  {
    r1cs::scoped_namespace ns(cs, "hash");
    CUZK_R1CS_TRY(digest, sha256(cs, preimage));
  }
  std::vector<boolean> le;
  for (std::size_t byte = 0; byte < digest.size() && le.size() < fr_capacity; byte += 8)
    for (std::size_t k = 8; k-- > 0 && le.size() < fr_capacity;) le.push_back(digest[byte + k]);
  r1cs::scoped_namespace ns(cs, "pack_le");
  return pack_bits(cs, le);
}

// PoRCircuit::synthesize. `path` holds the levels' values (siblings left to right without the
// node, and the node's index); for shape recording any values of the right sizes will do (see
// blank_merkle_path). std::invalid_argument if the path does not fit the arities.
template <r1cs::constraint_system CS>
r1cs::result<void> por_circuit(CS& cs, merkle_hash h, merkle_arities arities, const merkle_root_arg& value,
                               std::span<const native::merkle_path_level<fr>> path, const merkle_root_arg& root,
                               bool private_root) {
  const std::size_t n_top = arities.top ? 1 : 0, n_sub = arities.sub ? 1 : 0;
  if ((arities.top && !arities.sub) || path.size() < n_top + n_sub)
    throw std::invalid_argument("por_circuit: path does not fit the tree arities");
  if (h == merkle_hash::sha256 && (arities.base != 2 || arities.sub || arities.top))
    throw std::invalid_argument("por_circuit: SHA-256 trees are binary");
  const std::size_t n_base = path.size() - n_top - n_sub;

  allocated_num cur;
  {
    r1cs::scoped_namespace ns(cs, "value");
    CUZK_R1CS_TRY(cur, value.allocate(cs));
  }
  std::vector<boolean> path_bits;
  struct part {
    const char* name;
    std::size_t arity, first, count;
  };
  const part parts[3] = {{"base", arities.base, 0, n_base},
                         {"sub", arities.sub, n_base, n_sub},
                         {"top", arities.top, n_base + n_sub, n_top}};
  for (const part& pt : parts) {
    r1cs::scoped_namespace ns(cs, pt.name);
    if (pt.count == 0) continue;
    if (pt.arity < 2 || (pt.arity & (pt.arity - 1)) != 0) throw std::invalid_argument("por_circuit: arity must be a power of two");
    const std::size_t nbits = static_cast<std::size_t>(std::countr_zero(pt.arity));
    for (std::size_t i = 0; i < pt.count; ++i) {
      const native::merkle_path_level<fr>& level = path[pt.first + i];
      if (level.siblings.size() != pt.arity - 1) throw std::invalid_argument("por_circuit: wrong sibling count");
      r1cs::scoped_namespace ns_level(cs, [i] { return "merkle tree hash " + std::to_string(i); });
      std::vector<boolean> bits;
      for (std::size_t j = 0; j < nbits; ++j) {
        r1cs::scoped_namespace ns_bit(cs, [j] { return "index bit " + std::to_string(j); });
        CUZK_R1CS_TRY(allocated_bit b, allocated_bit::alloc(cs, ((level.index >> j) & 1) != 0));
        bits.emplace_back(b);
      }
      path_bits.insert(path_bits.end(), bits.begin(), bits.end());
      std::vector<allocated_num> siblings;
      for (std::size_t j = 0; j < level.siblings.size(); ++j) {
        r1cs::scoped_namespace ns_el(cs, [j] { return "path element " + std::to_string(j); });
        CUZK_R1CS_TRY(allocated_num s, allocated_num::alloc(cs, [&] { return level.siblings[j]; }));
        siblings.push_back(s);
      }
      CUZK_R1CS_TRY(std::vector<allocated_num> children, merkle_insert(cs, cur, bits, siblings));
      r1cs::scoped_namespace ns_hash(cs, "computation of commitment hash");
      CUZK_R1CS_TRY(cur, merkle_node_hash_circuit(cs, h, children));
    }
  }
  {
    r1cs::scoped_namespace ns(cs, "path");
    CUZK_R1CS_CHECK(pack_into_inputs(cs, std::span<const boolean>(path_bits)));
  }
  allocated_num rt;
  {
    r1cs::scoped_namespace ns(cs, "root_value");
    CUZK_R1CS_TRY(rt, root.allocate(cs));
  }
  cs.enforce("enforce root is correct", [&](lc_t lc) { return lc + cur.var; }, [](lc_t lc) { return lc + CS::one(); },
             [&](lc_t lc) { return lc + rt.var; });
  if (!private_root) {
    r1cs::scoped_namespace ns(cs, "root");
    CUZK_R1CS_CHECK(rt.inputize(cs));
  }
  return r1cs::ok();
}

// storage-proofs-core's por_no_challenge_input (SnapDeals): the challenge bits, the leaf, the
// siblings and the root are already allocated; per level l (height l) "merkle proof insert
// (height=l)" and "merkle proof hash (height=l)", then "calculated root == provided root":
// computed * ONE = root. No index-bit allocations and no public input: arity 8 / 2 = 527 / 313
// constraints per level, + 1. challenge_bits: LE, log2(arity) per level, all consumed.
// std::invalid_argument if the bits or siblings do not fit the arities.
template <r1cs::constraint_system CS>
r1cs::result<void> por_no_challenge_input_circuit(CS& cs, merkle_hash h, merkle_arities arities,
                                                  const std::vector<allocated_bit>& challenge_bits,
                                                  const allocated_num& leaf,
                                                  const std::vector<std::vector<allocated_num>>& path,
                                                  const allocated_num& root) {
  const std::size_t n_top = arities.top ? 1 : 0, n_sub = arities.sub ? 1 : 0;
  if ((arities.top && !arities.sub) || path.size() < n_top + n_sub)
    throw std::invalid_argument("por_no_challenge_input_circuit: path does not fit the tree arities");
  const std::size_t n_base = path.size() - n_top - n_sub;
  allocated_num cur = leaf;
  std::size_t next_bit = 0;
  for (std::size_t height = 0; height < path.size(); ++height) {
    const std::size_t arity = height < n_base ? arities.base : height == n_base && n_sub ? arities.sub : arities.top;
    if (arity < 2 || (arity & (arity - 1)) != 0 || path[height].size() != arity - 1)
      throw std::invalid_argument("por_no_challenge_input_circuit: wrong arity or sibling count");
    const std::size_t nbits = static_cast<std::size_t>(std::countr_zero(arity));
    if (next_bit + nbits > challenge_bits.size())
      throw std::invalid_argument("por_no_challenge_input_circuit: too few challenge bits");
    const std::vector<boolean> index(challenge_bits.begin() + static_cast<std::ptrdiff_t>(next_bit),
                                     challenge_bits.begin() + static_cast<std::ptrdiff_t>(next_bit + nbits));
    next_bit += nbits;
    std::vector<allocated_num> children;
    {
      r1cs::scoped_namespace ns(cs, [height] { return "merkle proof insert (height=" + std::to_string(height) + ")"; });
      CUZK_R1CS_TRY(children, merkle_insert(cs, cur, index, path[height]));
    }
    r1cs::scoped_namespace ns(cs, [height] { return "merkle proof hash (height=" + std::to_string(height) + ")"; });
    CUZK_R1CS_TRY(cur, merkle_node_hash_circuit(cs, h, children));
  }
  if (next_bit != challenge_bits.size())
    throw std::invalid_argument("por_no_challenge_input_circuit: challenge bits and tree arities disagree");
  cs.enforce("calculated root == provided root", [&](lc_t lc) { return lc + cur.var; },
             [](lc_t lc) { return lc + CS::one(); }, [&](lc_t lc) { return lc + root.var; });
  return r1cs::ok();
}

// A path of the given arities with `base_levels` base levels, all values zero (for recording
// shapes: PoRCircuit's blank circuit).
inline std::vector<native::merkle_path_level<fr>> blank_merkle_path(merkle_arities a, std::size_t base_levels) {
  std::vector<native::merkle_path_level<fr>> p;
  for (std::size_t i = 0; i < base_levels; ++i) p.push_back({std::vector<fr>(a.base - 1, fr::zero()), 0});
  if (a.sub) p.push_back({std::vector<fr>(a.sub - 1, fr::zero()), 0});
  if (a.top) p.push_back({std::vector<fr>(a.top - 1, fr::zero()), 0});
  return p;
}

// The tree shape (per-level arities) of a path with these arities and base levels.
inline native::tree_shape merkle_path_shape(merkle_arities a, std::size_t base_levels) {
  native::tree_shape s;
  s.level_arities.assign(base_levels, a.base);
  if (a.sub) s.level_arities.push_back(a.sub);
  if (a.top) s.level_arities.push_back(a.top);
  return s;
}

}  // namespace cuzk::gadgets
