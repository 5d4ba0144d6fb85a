// Poseidon hash circuit, constraint for constraint the legacy circuit neptune emits for Filecoin
// (neptune src/circuit.rs poseidon_hash; filecoin-hashers PoseidonFunction::hash_*_circuit use it
// for every tree and column hash). Header-only: a template over the constraint system.
//
// Structure (width t = arity + 1, R_F = 8 full rounds, R_P partial rounds, the "optimized static"
// constants of poseidon_params: compressed round constants, pre-sparse and sparse matrices):
//   * element 0 is the domain tag, a constant: its first S-box (tag + rk)^5 + rk' is folded into
//     a constant, the element stays a linear combination of ONE;
//   * first full round, elements 1..a (the allocated preimage): square_sum (l + rk)^2,
//     square -> ^4, mul_sum ^4 * (l + rk) + rk' — 3 aux and 3 constraints each;
//   * every later S-box input is a linear combination ("Num") and is first allocated with
//     `lc * ONE = v` (1), then v^2, v^4, v^4 * v (+ rk) (3);
//   * the matrix products (M, pre-sparse, sparse) are free: they only rescale and merge linear
//     combinations;
//   * the result is element 1 allocated with one more `lc * ONE = v` constraint.
// Count: 3a + 4t (R_F - 1) + 4 R_P + 1 = 3a + 28t + 4 R_P + 1 constraints, as many aux variables,
// no inputs: arity 2/4/8/11/16 = 311/377/505/598/761.
//
// Cost per CS: the shape recorder and the test system carry linear combinations (up to ~t + R_P
// terms each); the witness builder only carries values: t^2 products per full round, 2t - 1
// per partial round, the same work as the native optimized permutation plus 3 values per S-box.
// native/poseidon_witness.hpp writes the same aux values without any constraint system.
#pragma once

#include <cstddef>
#include <span>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "gadgets/circuit/gadget_support.hpp"
#include "gadgets/circuit/num.hpp"
#include "gadgets/native/poseidon_params.hpp"

namespace cuzk::gadgets {

namespace poseidon_detail {

// neptune's Elt: an allocated number or a linear combination with its value ("Num").
struct elt {
  bool allocated = false;
  r1cs::variable var;          // allocated
  r1cs::linear_combination lc;  // !allocated, kept only when the CS reads constraints
  fr value = fr::zero();        // kept only when the CS computes values
};

// x^5: 2S + 1M.
inline fr quintic(const fr& x) { return x.square().square() * x; }

// Elt::ensure_allocated(cs, enforce = true): a Num becomes a fresh aux variable v with
// `lc * ONE = v`; an allocated element is returned as it is (no constraint).
template <class CS>
r1cs::result<allocated_num> ensure_allocated(CS& cs, const elt& e) {
  if (e.allocated) return allocated_num{e.var, e.value};
  r1cs::variable v;
  {
    r1cs::scoped_namespace<CS> ns(cs, "allocate for Elt::Num");
    CUZK_R1CS_TRY(v, cs.alloc("num", [&] { return e.value; }));
  }
  if constexpr (needs_linear_combinations<CS>) {
    cs.enforce("enforce num allocation preserves lc", e.lc, CS::one(), v);
  } else {
    cs.enforce("enforce num allocation preserves lc", r1cs::linear_combination{}, CS::one(), v);
  }
  return allocated_num{v, e.value};
}

// AllocatedNum::square: x^2 with x * x = x^2.
template <class CS>
r1cs::result<allocated_num> square(CS& cs, const allocated_num& x) {
  fr sq = fr::zero();
  if constexpr (CS::computes_values) sq = x.value.square();
  CUZK_R1CS_TRY(r1cs::variable v, cs.alloc("squared num", [&] { return sq; }));
  cs.enforce("squaring constraint", x.var, x.var, v);
  return allocated_num{v, sq};
}

// square_sum: (x + rk)^2 with (x + rk ONE) * (x + rk ONE) = res.
template <class CS>
r1cs::result<allocated_num> square_sum(CS& cs, const fr& rk, const allocated_num& x) {
  fr res = fr::zero();
  if constexpr (CS::computes_values) res = (x.value + rk).square();
  CUZK_R1CS_TRY(r1cs::variable v, cs.alloc("squared sum", [&] { return res; }));
  auto sum = [&](r1cs::linear_combination lc) { return std::move(lc.add_term(x.var, fr::one()).add_term(CS::one(), rk)); };
  cs.enforce("squared sum constraint", sum, sum, v);
  return allocated_num{v, res};
}

// mul_sum: a * (b + pre) + post with (b + pre ONE) * a = res - post ONE (pre / post optional).
template <class CS>
r1cs::result<allocated_num> mul_sum(CS& cs, const allocated_num& a, const allocated_num& b, const fr* pre, const fr* post) {
  fr res = fr::zero();
  if constexpr (CS::computes_values) {
    res = (pre ? b.value + *pre : b.value) * a.value;
    if (post) res += *post;
  }
  CUZK_R1CS_TRY(r1cs::variable v, cs.alloc("mul_sum", [&] { return res; }));
  const char* name = post ? (pre ? "mul sum constraint pre-post-add" : "mul sum constraint post-add")
                          : (pre ? "mul sum constraint pre-add" : "mul sum constraint");
  cs.enforce(
      name,
      [&](r1cs::linear_combination lc) {
        lc.add_term(b.var, fr::one());
        if (pre) lc.add_term(CS::one(), *pre);
        return lc;
      },
      a.var,
      [&](r1cs::linear_combination lc) {
        lc.add_term(v, fr::one());
        if (post) lc.add_term(CS::one(), -*post);
        return lc;
      });
  return allocated_num{v, res};
}

// quintic_s_box: l = ensure_allocated(e); l^2; l^4; l^4 * l (+ post).
template <class CS>
r1cs::result<elt> quintic_s_box(CS& cs, const elt& e, const fr* post) {
  allocated_num l;
  {
    r1cs::scoped_namespace<CS> ns(cs, "S-box input");
    CUZK_R1CS_TRY(l, ensure_allocated(cs, e));
  }
  allocated_num l2, l4, l5;
  {
    r1cs::scoped_namespace<CS> ns(cs, "l^2");
    CUZK_R1CS_TRY(l2, square(cs, l));
  }
  {
    r1cs::scoped_namespace<CS> ns(cs, "l^4");
    CUZK_R1CS_TRY(l4, square(cs, l2));
  }
  {
    r1cs::scoped_namespace<CS> ns(cs, "(l4 * l) + rk)");
    CUZK_R1CS_TRY(l5, mul_sum(cs, l4, l, nullptr, post));
  }
  return elt{true, l5.var, {}, l5.value};
}

// quintic_s_box_pre_add on an allocated preimage element: (l + pre)^2, ^4, ^4 * (l + pre) + post.
template <class CS>
r1cs::result<elt> quintic_s_box_pre_add(CS& cs, const elt& e, const fr& pre, const fr& post) {
  allocated_num l;
  {
    r1cs::scoped_namespace<CS> ns(cs, "S-box input");
    CUZK_R1CS_TRY(l, ensure_allocated(cs, e));
  }
  allocated_num l2, l4, l5;
  {
    r1cs::scoped_namespace<CS> ns(cs, "(l+rk)^2");
    CUZK_R1CS_TRY(l2, square_sum(cs, pre, l));
  }
  {
    r1cs::scoped_namespace<CS> ns(cs, "l^4");
    CUZK_R1CS_TRY(l4, square(cs, l2));
  }
  {
    r1cs::scoped_namespace<CS> ns(cs, "l4 * (l + rk)");
    CUZK_R1CS_TRY(l5, mul_sum(cs, l4, l, &pre, &post));
  }
  return elt{true, l5.var, {}, l5.value};
}

// coeff * e as a Num (an allocated element becomes the one-term combination coeff * var).
template <class CS>
void add_scaled(elt& acc, const fr& coeff, const elt& e) {
  if constexpr (needs_linear_combinations<CS>) {
    if (e.allocated) {
      acc.lc.add_term(e.var, coeff);
    } else {
      acc.lc.add_scaled(coeff, e.lc);
    }
  }
  if constexpr (CS::computes_values) acc.value += coeff * e.value;
}

// new[j] = sum_i m[i][j] e[i] (neptune product_mds_with_matrix; the state is a row vector).
template <class CS>
void product_dense(std::vector<elt>& s, const native::poseidon_matrix& m, std::vector<elt>& tmp) {
  const std::size_t t = s.size();
  for (std::size_t j = 0; j < t; ++j) {
    elt acc;
    for (std::size_t i = 0; i < t; ++i) add_scaled<CS>(acc, m.at(i, j), s[i]);
    tmp[j] = std::move(acc);
  }
  s.swap(tmp);
}

// The sparse M'': new0 = sum_i w_hat[i] e[i]; new_j = e[j] + v_rest[j-1] e[0] (j >= 1).
template <class CS>
void product_sparse(std::vector<elt>& s, const fr* w_hat, const fr* v_rest, std::vector<elt>& tmp) {
  const std::size_t t = s.size();
  elt acc0;
  for (std::size_t i = 0; i < t; ++i) add_scaled<CS>(acc0, w_hat[i], s[i]);
  tmp[0] = std::move(acc0);
  for (std::size_t j = 1; j < t; ++j) {
    elt e = std::move(s[j]);  // a Num after the previous product
    add_scaled<CS>(e, v_rest[j - 1], s[0]);
    tmp[j] = std::move(e);
  }
  s.swap(tmp);
}

}  // namespace poseidon_detail

// The number of constraints (= aux variables) of one hash: 3a + 28t + 4 R_P + 1 for R_F = 8.
inline std::size_t poseidon_circuit_constraints(const native::poseidon_params& p) {
  return 3 * p.arity + 4 * p.width * (p.full_rounds - 1) + 4 * p.partial_rounds + 1;
}

// neptune circuit::poseidon_hash(cs, preimage, constants) with constants.domain_tag = domain_tag:
// hashes the allocated preimage (exactly p.arity elements; the legacy circuit has no padding)
// and returns the allocated hash. std::invalid_argument if the preimage size is not the arity.
template <r1cs::constraint_system CS>
r1cs::result<allocated_num> poseidon_hash_circuit(CS& cs, std::span<const allocated_num> preimage,
                                            const native::poseidon_params& p, const fr& domain_tag) {
  using namespace poseidon_detail;
  if (preimage.size() != p.arity) throw std::invalid_argument("poseidon_hash_circuit: preimage size must equal the arity");
  const std::size_t t = p.width;
  const fr* rc = p.compressed_round_constants.data();
  std::vector<elt> s(t), tmp(t);

  // Element 0: the tag after its first S-box, a constant (coefficient of ONE).
  const fr tag0 = quintic(domain_tag + rc[0]) + rc[t];
  s[0].value = tag0;
  if constexpr (needs_linear_combinations<CS>) s[0].lc.add_term(CS::one(), tag0);
  for (std::size_t i = 0; i < p.arity; ++i) s[i + 1] = elt{true, preimage[i].var, {}, preimage[i].value};

  std::size_t round = 0;  // neptune's current_round: which matrix follows the S-boxes
  auto product_after_round = [&] {
    const std::size_t sparse_offset = p.half_full_rounds - 1;
    if (round == sparse_offset) {
      product_dense<CS>(s, p.pre_sparse_matrix, tmp);
    } else if (round > sparse_offset && round < p.half_full_rounds + p.partial_rounds) {
      const fr* sp = p.sparse_flat.data() + (round - sparse_offset - 1) * (2 * t - 1);
      product_sparse<CS>(s, sp, sp + t, tmp);
    } else {
      product_dense<CS>(s, p.mds, tmp);
    }
    ++round;
  };
  // A full round after the first: S-box on every element (post keys unless terminal).
  auto full_round = [&](const fr* post) -> r1cs::result<void> {
    for (std::size_t i = 0; i < t; ++i) {
      r1cs::scoped_namespace<CS> ns(cs, [i] { return "quintic s-box " + std::to_string(i); });
      CUZK_R1CS_TRY(s[i], quintic_s_box(cs, s[i], post ? post + i : nullptr));
    }
    product_after_round();
    return r1cs::ok();
  };

  {
    r1cs::scoped_namespace<CS> ns(cs, "first round");
    for (std::size_t i = 1; i < t; ++i) {
      r1cs::scoped_namespace<CS> ns_i(cs, [i] { return "quintic s-box " + std::to_string(i); });
      CUZK_R1CS_TRY(s[i], quintic_s_box_pre_add(cs, s[i], rc[i], rc[t + i]));
    }
    rc += 2 * t;
    product_after_round();
  }
  for (std::size_t r = 1; r < p.half_full_rounds; ++r, rc += t) {
    r1cs::scoped_namespace<CS> ns(cs, [r] { return "initial full round " + std::to_string(r); });
    CUZK_R1CS_CHECK(full_round(rc));
  }
  for (std::size_t r = 0; r < p.partial_rounds; ++r, ++rc) {
    r1cs::scoped_namespace<CS> ns(cs, [r] { return "partial round " + std::to_string(r); });
    {
      r1cs::scoped_namespace<CS> ns_s(cs, "solitary quintic s-box");
      CUZK_R1CS_TRY(s[0], quintic_s_box(cs, s[0], rc));
    }
    product_after_round();
  }
  for (std::size_t r = 0; r + 1 < p.half_full_rounds; ++r, rc += t) {
    r1cs::scoped_namespace<CS> ns(cs, [r] { return "final full round " + std::to_string(r); });
    CUZK_R1CS_CHECK(full_round(rc));
  }
  {
    r1cs::scoped_namespace<CS> ns(cs, "terminal full round");
    CUZK_R1CS_CHECK(full_round(nullptr));
  }
  r1cs::scoped_namespace<CS> ns(cs, "hash result");
  return ensure_allocated(cs, s[1]);
}

// Filecoin's tree/column hash: the MerkleTree domain tag 2^arity - 1 (PoseidonFunction::
// hash_multi_leaf_circuit, hash2_circuit).
template <r1cs::constraint_system CS>
r1cs::result<allocated_num> poseidon_hash_circuit(CS& cs, std::span<const allocated_num> preimage,
                                            const native::poseidon_params& p) {
  return poseidon_hash_circuit(cs, preimage, p, p.merkle_domain_tag);
}

}  // namespace cuzk::gadgets
